"""What Tab offers: verbs and commands, player names, and the cards a player can hold or lay,
asked of the referee through choices.py (which the board's entry by taps asks too). Pure: the
typed text in, the words that could replace its last word out (the shell draws them). In
Spanish the first word offered is the Spanish verb or command; the English ones too once a
letter is typed."""

from ..cards import CARD_NAME, SUIT_SYMBOLS, SUITS
from .. import choices
from ..choices import next_words
from ..notation.parser import VERBS
from .typed import COMMANDS, SPANISH_COMMAND_OF, SPANISH_OF, command_of, verb_of

NEW_OPTIONS = ("--dealer", "--side", "--no-sides")


def candidates(before: str, ref, spanish: bool = False) -> tuple:
    """(the word being typed, the words that could replace it) for the text left of the
    cursor; `ref` is the hand's Referee, or None when there is no hand."""
    words = before.split()
    partial = "" if not words or before[-1:].isspace() else words.pop()
    if not words and spanish:
        offered = _first_words(ref, SPANISH_OF, SPANISH_COMMAND_OF) + (_first_words(ref) if partial else [])
    else:
        offered = _words(words, ref)
    return partial, [w for w in dict.fromkeys(offered) if _starts(w, partial)]


def _starts(word: str, partial: str) -> bool:
    if not partial:
        return True
    if word in CARD_NAME:
        return word.lower().startswith(_card_prefix(partial))
    return word.lower().startswith(partial.lower())


def _card_prefix(partial: str) -> str:
    """A typed card prefix in the canonical spelling: `10` is T, suit symbols are letters."""
    text = partial.lower()
    if text.startswith("10"):
        text = "t" + text[2:]
    for symbol, letter in zip(SUIT_SYMBOLS + "♤♡♢♧", SUITS + SUITS):
        text = text.replace(symbol, letter)
    return text


def _first_words(ref, verbs=None, commands=None) -> list:
    """The verbs (those the hand allows next first) and the commands, by these names."""
    verbs, commands = verbs or {}, commands or {}
    return list(dict.fromkeys([verbs.get(v, v) for v in choices.verbs(ref) + list(VERBS)]
                              + [commands.get(c, c) for c in COMMANDS]))


def _words(done: list, ref) -> list:
    if not done:
        return _first_words(ref)
    command = command_of(done[0])
    if command is not None:
        if command != "new":
            return []
        if done[-1] == "--dealer":
            return list(ref.setup.players) if ref is not None else []
        return [o for o in NEW_OPTIONS if o not in done or o == "--side"]
    verb = verb_of(done[0])
    if verb is None:
        return []
    to = "a" if done[0].lower() == SPANISH_OF["add"] else "to"  # agregar … a CARD (N4.10)
    return next_words(verb, done[1:], ref, to)
