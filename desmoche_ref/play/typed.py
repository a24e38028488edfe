"""What the recorder types: one notation event a line (short verb forms allowed, N4.5, and the
Spanish verbs, N4.10), or a session command (in English or Spanish). Pure: text in, values
out; a line that cannot be read carries its error. What a person reads here is a
findings.Message (the shell shows it in the run's language)."""

import shlex
from typing import NamedTuple

from ..choices import SHORT, SPANISH_OF, spoken  # noqa: F401 (the session's names for them)
from ..findings import M, error
from ..limits import nfc, too_long, unknown
from ..money import amount_problem, parse_amount, too_large
from ..notation.model import Event
from ..notation.parser import SPANISH_VERBS, VERBS, clip, parse_event, split_comment
from ..notation.writer import with_comment, write_event


# session command -> (usage, what it does)
COMMANDS = {
    "state": ("state", M("the full view of the table: hands, melds, the card on offer, the stock")),
    "undo": ("undo", M("take back the hand's last move (a correction row; a closed hand reopens)")),
    "new": (M('new [--dealer P] [--side "GAME STAKE PLAYERS…"]… [--no-sides]'),
            M("close this hand (posting its settlement) and deal the next: the deal passes to "
              "the right and carried pots come in by themselves")),
    "void": (M("void REASON…"), M("abandon the hand: closed void, nothing posted, its pots pass on "
                                   "and the same dealer deals again (`undo` takes it back)")),
    "settle": ("settle", M("the night's running totals per player, from the book's postings")),
    "close": ("close", M("the table breaks up: its last hand closed, the pots it carries returned to the "
                         "players (R11.5); a terminal asks first, `undo` takes it back")),
    "log": ("log", M("the hand's moves as stored, corrections included")),
    "help": ("help", M("this list")),
    "quit": ("quit", M("leave the session (Ctrl-D too); every accepted move is already stored")),
}
ALIASES = {"exit": "quit", "?": "help"}
# the commands' Spanish names, taken in any language (as a record takes the Spanish verbs)
SPANISH_COMMANDS = {"estado": "state", "deshacer": "undo", "nueva": "new", "anular": "void",
                    "cuentas": "settle", "cerrar": "close", "historial": "log", "ayuda": "help", "salir": "quit"}
SPANISH_COMMAND_OF = {name: spanish for spanish, name in SPANISH_COMMANDS.items()}


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
    first = text.split(None, 1)[0]
    name = command_of(first)
    if name is not None:
        return Command(name, text[len(first):].strip())
    return read_move(text, line)


def command_of(word: str):
    """The session command a typed word names (any case, an alias or a Spanish name), or None."""
    word = word.lower()
    name = ALIASES.get(word) or SPANISH_COMMANDS.get(word, word)
    return name if name in COMMANDS else None


def verb_of(word: str):
    """The notation verb a typed word stands for (a short form, or any spelling the reader
    takes: `DRAW`, …), or None."""
    verb = parse_event(SHORT.get(word.lower(), word), 0).verb
    return verb if verb in VERBS else None


def read_move(text: str, line: int) -> Move:
    """One event line, as the reader reads a record's line (N1.2: `#` starts a comment)."""
    body, comment = split_comment(text)
    parts = body.split()
    if not parts:
        return _unreadable(line, "N4", M("a comment needs an event before it"))
    verb = verb_of(parts[0])
    if verb is None:
        words = list(VERBS) + list(SPANISH_VERBS) + list(COMMANDS) + list(SPANISH_COMMANDS)
        return _unreadable(line, "N4", unknown(M("unknown verb or command {word!r} (`help` lists the verbs, "
                                                 "their short forms and the commands)", word=clip(parts[0])),
                                               parts[0], words))
    if too_long(len(text)):  # N1.5, as typed
        return _unreadable(line, "N1.5", too_long(len(text)))
    ev = parse_event(" ".join([verb] + parts[1:]), line)
    ev.comment = comment
    written = None if ev.error else write_event(ev)
    kept = written and too_long(len(with_comment(written, comment)))
    if kept:  # and as the book keeps it: canonical (N7), ` #` before the comment
        return _unreadable(line, "N1.5", kept)
    return Move(ev, written, comment)


def _unreadable(line: int, code: str, message) -> Move:
    return Move(Event("", None, line, error=error(line, code, message)), None, None)


class NewHand(NamedTuple):
    dealer: str | None   # None: the deal passes to the right (R3.1)
    sides: list | None   # [(game, stake cents, [names])]; None: the table's side games


# what shlex says of a line it cannot split, for the shell to translate
SHLEX_PROBLEMS = {"No closing quotation": M("No closing quotation"),
                  "No escaped character": M("No escaped character")}


def read_new(args: str) -> NewHand:
    """The options of `new`, quoted as in a shell; Usage when they do not read."""
    try:
        words = shlex.split(args)
    except ValueError as e:
        raise Usage(M("new: {problem} (quote a side game as --side \"oro 5 Ana Beto\")",
                      problem=SHLEX_PROBLEMS.get(str(e), str(e)))) from None
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
                    raise Usage(M("new: {option} needs a value ({usage})", option=word,
                                  usage=COMMANDS["new"][0]))
                value = words[i]
            if word == "--dealer":
                dealer = value
            else:
                sides.append(read_side(value))
        elif word == "--no-sides" and value is None:
            no_sides = True
        else:
            raise Usage(M("new: unknown option {option!r} ({usage})", option=clip(word),
                          usage=COMMANDS["new"][0]))
        i += 1
    if no_sides and sides:
        raise Usage(M("new: --no-sides and --side together: choose one"))
    return NewHand(dealer, [] if no_sides else (sides or None))


def read_side(text: str):
    """(game, stake cents, names) of `--side "GAME STAKE PLAYERS…"` (R4.1; the game and the
    names are judged with the hand's other values, as a Side tag's are)."""
    parts = text.split()
    if len(parts) < 3:
        raise Usage(M("new: --side {text!r} should be \"GAME STAKE PLAYER…\", e.g. \"oro 5 Ana Beto\"",
                      text=text))
    stake = parse_amount(parts[1])
    if too_large(parts[1]):
        raise Usage(M("new: {problem}", problem=amount_problem(parts[1])))
    if stake is None:
        raise Usage(M("new: {stake!r} is not a stake (N3.2: an amount like 5 or 2.50)", stake=clip(parts[1])))
    return parts[0], stake, [nfc(name) for name in parts[2:]]


def help_text(say=str, spanish: bool = False) -> str:
    """The `help` list. `say` shows a message in the run's language; in Spanish the verbs and
    the commands are listed with their Spanish names too (both are taken)."""
    rows = []
    for name, (usage, what) in COMMANDS.items():
        usage = say(usage)
        if spanish:  # `new, nueva [--dealer P] …`: the command's two names, then its arguments
            rest = usage.partition(" ")[2]
            usage = f"{name}, {SPANISH_COMMAND_OF[name]}" + (f" {rest}" if rest else "")
        rows.append(f"  {usage}\n      {say(what)}")
    by_verb: dict[str, list[str]] = {}   # verb -> its short forms
    for short, verb in SHORT.items():
        by_verb.setdefault(verb, []).append(short)
    verbs = []
    for v in VERBS:
        shorts = " ".join(by_verb.get(v, [])) or "-"
        usage = say(VERBS[v][0])
        verbs.append(f"  {usage:<40} {SPANISH_OF.get(v, v):<10} {shorts}" if spanish
                     else f"  {usage:<40} {shorts}")
    moves = M("Moves (verb and arguments; the Spanish verb; short forms):") if spanish \
        else M("Moves (verb and arguments; short forms):")
    commands = M("Session commands (in English or in Spanish):") if spanish else M("Session commands:")
    examples = ["  dr Beto 2d          (draw Beto 2d)"] + (["  robar Beto 2d       (draw Beto 2d)"] if spanish else [])
    return "\n".join(
        [say(M("Type one move a line, as the notation writes it (`draw Beto 2d`, `meld Carla 9s 9d 9c`);")),
         say(M("it is judged and stored at once, or refused with the rule and not stored.")),
         say(M("`#` starts a comment that is stored with the move. Tab completes verbs, names and cards.")),
         "", say(moves)] + verbs
        + ["", say(commands)] + rows
        + ["", say(M("Examples:"))] + examples
        + ["  m Carla 9s 9d 9c", "  + Carla 7d a 6d" if spanish else "  + Carla 7d to 6d", "  p Beto 7c",
           '  new --side "oro 5 Ana Beto Carla"'])
