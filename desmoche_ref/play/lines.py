"""What the recorder types: one notation event a line (short verb forms allowed, N4.5), or a
session command. Pure: text in, values out; a line that cannot be read carries its error."""

import shlex
from typing import NamedTuple

from ..findings import error
from ..money import parse_amount
from ..notation.parser import VERBS, clip, parse_event
from ..notation.writer import write_event

# N4.5: short forms typed at the table; the book always stores the verb itself.
SHORT = {
    "cu": "cut", "de": "deal", "re": "return", "an": "announce", "ca": "cambio",
    "dc": "declare", "dr": "draw", "cl": "claim", "k": "knock", "m": "meld", "+": "add",
    "p": "pay", "ps": "pass", "sh": "show", "fo": "foul", "fg": "forgive",
}

# session command -> (usage, what it does)
COMMANDS = {
    "state": ("state", "the full view of the table: hands, melds, the card on offer, the stock"),
    "undo": ("undo", "take back the hand's last move (a correction row; a closed hand reopens)"),
    "new": ('new [--dealer P] [--side "GAME STAKE PLAYERS…"]… [--no-sides]',
            "close this hand (posting its settlement) and deal the next: the deal passes to "
            "the right and carried pots come in by themselves"),
    "settle": ("settle", "the night's running totals per player, from the book's postings"),
    "log": ("log", "the hand's moves as stored, corrections included"),
    "help": ("help", "this list"),
    "quit": ("quit", "leave the session (Ctrl-D too); every accepted move is already stored"),
}
ALIASES = {"exit": "quit", "?": "help"}
LONGEST = 500  # the book keeps a line and a comment of up to 500 characters each


class Command(NamedTuple):
    name: str   # one of COMMANDS
    args: str   # the rest of the line, as typed


class Move(NamedTuple):
    event: object       # the parsed Event (its `error` set when the line cannot be read)
    text: str | None    # the canonical line (N7) to store, or None when unreadable
    comment: str | None


class Usage(ValueError):
    """A session command typed wrong: one line saying how it goes."""


def read(typed: str, line: int):
    """None for a blank or comment line, else a Command or a Move (`line` numbers the event)."""
    text = typed.replace("\t", " ").strip()
    if not text or text.startswith("#"):
        return None
    first = text.split(None, 1)[0].lower()
    name = ALIASES.get(first, first)
    if name in COMMANDS:
        return Command(name, text[len(first):].strip())
    return read_move(text, line)


def verb_of(word: str):
    """The notation verb a typed word stands for (a short form, or any spelling the reader
    takes: `DRAW`, …), or None."""
    verb = parse_event(SHORT.get(word.lower(), word), 0).verb
    return verb if verb in VERBS else None


def read_move(text: str, line: int) -> Move:
    """One event line, as the reader reads a record's line (N1.2: `#` starts a comment)."""
    hash_at = text.find("#")
    body, comment = (text, None) if hash_at < 0 else (text[:hash_at], text[hash_at + 1:].rstrip())
    parts = body.split()
    if not parts:
        return _unreadable(line, "N4", "a comment needs an event before it")
    verb = verb_of(parts[0])
    if verb is None:
        return _unreadable(line, "N4", f"unknown verb or command {clip(parts[0])!r} "
                                       f"(`help` lists the verbs, their short forms and the commands)")
    if len(body) > LONGEST or len(comment or "") > LONGEST:
        return _unreadable(line, "N1", f"the line is longer than the book keeps ({LONGEST} characters)")
    ev = parse_event(" ".join([verb] + parts[1:]), line)
    ev.comment = comment
    return Move(ev, None if ev.error else write_event(ev), comment)


def _unreadable(line: int, code: str, message: str) -> Move:
    from ..notation.model import Event

    return Move(Event("", None, line, error=error(line, code, message)), None, None)


class NewHand(NamedTuple):
    dealer: str | None   # None: the deal passes to the right (R3.1)
    sides: list | None   # [(game, stake cents, [names])]; None: the table's side games


def read_new(args: str) -> NewHand:
    """The options of `new`, quoted as in a shell; Usage when they do not read."""
    try:
        words = shlex.split(args)
    except ValueError as e:
        raise Usage(f"new: {e} (quote a side game as --side \"oro 5 Ana Beto\")") from None
    dealer, sides, no_sides = None, [], False
    i = 0
    while i < len(words):
        word, value = words[i], None
        if "=" in word and word.startswith("--"):
            word, value = word.split("=", 1)
        if word in ("--dealer", "--side"):
            if value is None:
                i += 1
                if i == len(words):
                    raise Usage(f"new: {word} needs a value ({COMMANDS['new'][0]})")
                value = words[i]
            if word == "--dealer":
                dealer = value
            else:
                sides.append(read_side(value))
        elif word == "--no-sides" and value is None:
            no_sides = True
        else:
            raise Usage(f"new: unknown option {clip(word)!r} ({COMMANDS['new'][0]})")
        i += 1
    if no_sides and sides:
        raise Usage("new: --no-sides and --side together: choose one")
    return NewHand(dealer, [] if no_sides else (sides or None))


def read_side(text: str):
    """(game, stake cents, names) of `--side "GAME STAKE PLAYERS…"` (R4.1; the game and the
    names are judged with the hand's other values, as a Side tag's are)."""
    parts = text.split()
    if len(parts) < 3:
        raise Usage(f"new: --side {text!r} should be \"GAME STAKE PLAYER…\", e.g. \"oro 5 Ana Beto\"")
    stake = parse_amount(parts[1])
    if stake is None:
        raise Usage(f"new: {clip(parts[1])!r} is not a stake (N3.2: an amount like 5 or 2.50)")
    return parts[0], stake, parts[2:]


def help_text() -> str:
    rows = [f"  {usage}\n      {what}" for usage, what in COMMANDS.values()]
    by_verb = {}
    for short, verb in SHORT.items():
        by_verb.setdefault(verb, []).append(short)
    verbs = [f"  {VERBS[v][0]:<40} {' '.join(by_verb.get(v, [])) or '-'}" for v in VERBS]
    return "\n".join(
        ["Type one move a line, as the notation writes it (`draw Beto 2d`, `meld Carla 9s 9d 9c`);",
         "it is judged and stored at once, or refused with the rule and not stored.",
         "`#` starts a comment that is stored with the move. Tab completes verbs, names and cards.",
         "", "Moves (verb and arguments; short forms):"] + verbs
        + ["", "Session commands:"] + rows
        + ["", "Examples:", "  dr Beto 2d          (draw Beto 2d)", "  m Carla 9s 9d 9c",
           "  + Carla 7d to 6d", "  p Beto 7c", '  new --side "oro 5 Ana Beto Carla"'])
