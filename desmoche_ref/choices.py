"""What may be written next at a table, asked of the hand's referee: the verbs it allows now
(`moves()` less what the live book refuses: `coming()`), the players for a verb, and the
words that may follow a verb and its player — the cards that can be meant (a draw: the
stock's unknown cards; a pay: the player's cards known to the record; a meld: any of the
cards the player could lay, several), a side game, a kind of automatic win or of foul.

Pure: the referee and the words typed so far in, words out. Two front ends ask it: `play`'s
Tab completion (play/complete.py) and the board's entry by taps (board/entry.py), so a
recorder is offered the same thing by either. Nothing here judges a line: the referee does
when it is sent; a word offered may still be refused for the cards it names.
"""

from typing import NamedTuple

from .cards import CARD_NAME, parse_card
from .engine.queries import ANYTIME
from .notation.parser import AUTO_KINDS, FOUL_CODES, GAMES, SPANISH_VERBS, TO_WORDS, parse_event

HAND_ONLY = {"pay", "show", "cambio", "return", "announce", "declare"}
UNSEEN_OK = {"cambio", "return"}  # `?` allowed where faces are not seen (N2.3)
NO_ARGUMENT = {"cut", "claim", "knock", "pass", "forgive"}
MANY = {"meld", "add", "show", "deal", "announce", "declare"}  # several cards, chosen in turn
SPANISH_OF = {verb: spanish for spanish, verb in SPANISH_VERBS.items()}  # cambio is Spanish already
# N4.5: short forms typed at the table (`play`, the board's line field); the book always
# stores the verb itself.
SHORT = {
    "cu": "cut", "de": "deal", "re": "return", "an": "announce", "ca": "cambio",
    "dc": "declare", "dr": "draw", "cl": "claim", "k": "knock", "m": "meld", "+": "add",
    "p": "pay", "ps": "pass", "sh": "show", "fo": "foul", "fg": "forgive",
}


class Step(NamedTuple):
    """What the line typed so far (`words`) may take next."""

    words: tuple          # the line's words so far (the verb as the notation writes it)
    asks: str             # "verb", "player", "word" (a game, a kind, a foul, `to`) or "card": what `options` are
    options: tuple        # the words offered next, in order (cards by name: 2d)
    many: bool            # several may be chosen in turn (a meld's, an add's, a show's, a deal's cards)
    ready: bool           # the line reads as a line of the notation (N4): it may be sent to the referee


def verbs(ref) -> list:
    """The verbs the referee allows now, in the order it lists them (no hand: none)."""
    return list(dict.fromkeys(m.verb for m in ref.coming())) if ref is not None else []


def turn_first(allowed: list) -> list:
    """Verbs with the moves of the turn first (a draw, a take, a pay), then those never out of
    place (a foul, a show, an announcement, a declaration: ANYTIME): what a thumb wants most
    is the first button."""
    return [v for v in allowed if v not in ANYTIME] + [v for v in allowed if v in ANYTIME]


def players(ref, verb: str) -> list:
    """The players the referee allows `verb` of now, in its order."""
    return list(dict.fromkeys(m.player for m in ref.coming() if m.verb == verb and m.player))


def step(ref, words) -> Step:
    """What may follow `words` (the verb first, in English) at the hand `ref` is at."""
    words = tuple(words)
    ready = bool(words) and parse_event(" ".join(words), 0).error is None
    if not words:
        return Step(words, "verb", tuple(turn_first(verbs(ref))), False, False)
    verb = words[0]
    if verb == "end":
        return Step(words, "word", (), False, ready)
    if len(words) == 1:
        return Step(words, "player", tuple(players(ref, verb)), False, False)
    names = ref.setup.players
    if words[1] not in names or verb in NO_ARGUMENT:
        return Step(words, "word", (), False, ready)
    args = list(words[2:])
    options = tuple(arguments(verb, names.index(words[1]), args, ref))
    asks = "card" if any(w in CARD_NAME for w in options) else "word"
    many = asks == "card" and (verb in MANY or args == ["hand"])
    return Step(words, asks, options, many, ready)


def next_words(verb: str, done: list, ref, to: str = "to") -> list:
    """The words that may follow `VERB` and the words typed after it in full (`done`: the
    player, the arguments): the players the referee allows first, then every other; then the
    arguments (`to`: the word offered before a meld's card)."""
    if ref is None or verb == "end":
        return []
    names = ref.setup.players
    if not done:
        return list(dict.fromkeys(players(ref, verb) + list(names)))
    if done[0] not in names:
        return []
    return arguments(verb, names.index(done[0]), done[1:], ref, to)


def arguments(verb: str, seat: int, args: list, ref, to: str = "to") -> list:
    """The words that may follow `VERB PLAYER ARGS…` (`to`: the word offered before a meld's card)."""
    me = ref.seats_view()[seat]
    typed = {parse_card(a) for a in args}
    if verb == "announce" and not args:
        games = [e.game for e in ref.setup.sides]
        return games or sorted(set(GAMES.values()))
    if verb == "declare" and not args:
        return list(AUTO_KINDS)
    if verb == "foul":
        if not args:
            return list(FOUL_CODES)
        if args == ["hand"]:
            return _cards(me.hand + offered(ref), typed)
        return []
    if verb in HAND_ONLY:
        if verb in ("pay", "cambio", "return") and args:
            return []  # one card
        return _cards(me.hand, typed) + (["?"] if verb in UNSEEN_OK else [])
    on_table = [c for meld in me.melds for c in meld]
    if verb == "meld":
        return _cards(offered(ref) + me.hand + tuple(on_table), typed)
    if verb == "add":
        if args and args[-1].lower() in TO_WORDS:
            return _cards(on_table, typed)
        if any(a.lower() in TO_WORDS for a in args):
            return []
        cards = _cards(offered(ref) + me.hand, typed)
        return cards + ([to] if args and me.melds else [])
    if verb in ("draw", "deal"):
        if verb == "draw" and args:
            return []
        return _cards(unseen(ref), typed) + (["?", "?x9"] if verb == "deal" else [])
    return []  # cut, claim, knock, pass, forgive take no argument


def offered(ref) -> tuple:
    """The card on offer, as a tuple of none or one."""
    offer = ref.offer()
    return (offer.card,) if offer is not None else ()


def unseen(ref) -> list:
    """Cards no seat, meld, offer or discard pile is known to hold: what a draw may turn up."""
    seen = set(offered(ref)) | set(ref.report.state.dead)
    for seat in ref.seats_view():
        seen.update(seat.hand)
        seen.update(c for meld in seat.melds for c in meld)
    return [c for c in range(52) if c not in seen]


def _cards(cards, typed) -> list:
    return list(dict.fromkeys(CARD_NAME[c] for c in cards if c not in typed))


def long_form(typed: str) -> str:
    """A typed line with its verb's short form (N4.5: `dr Beto 2d`) written out (`draw Beto
    2d`); any other line as it is."""
    stripped = typed.lstrip()
    first, _, rest = stripped.partition(" ")
    verb = SHORT.get(first.lower())
    return f"{verb} {rest}".rstrip() if verb else typed


# a log's correction rows, as the Spanish session names the commands that wrote them
# (play/lines.SPANISH_COMMANDS: `deshacer`, `anular`)
ROWS_OF = {"undo": "deshacer", "void": "anular"}


def spoken(line: str, spanish: bool) -> str:
    """A stored (canonical) line as a Spanish-speaking recorder reads it: with the Spanish verb
    (`bajar Carla 9s 9d 9c`, `agregar Carla 7d a 6d`; a log's `undo` and `void` rows as the
    commands that wrote them, `deshacer`, `anular`); the book keeps the English (N4.10)."""
    if not spanish:
        return line
    verb, _, rest = line.partition(" ")
    if not rest and verb in ROWS_OF:
        return ROWS_OF[verb]
    words = [SPANISH_OF.get(verb, verb)] + ["a" if verb == "add" and w == "to" else w for w in rest.split()]
    return " ".join(words)
