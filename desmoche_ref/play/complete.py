"""What Tab offers: verbs and commands, player names, and the cards a player can hold or lay,
asked of the referee (`moves()`, `seats_view()`, `offer()`). Pure: the typed text in, the
words that could replace its last word out (the shell draws them). In Spanish the first word
offered is the Spanish verb or command; the English ones too once a letter is typed."""

from ..cards import CARD_NAME, SUIT_SYMBOLS, SUITS, parse_card
from ..notation.parser import AUTO_KINDS, FOUL_CODES, GAMES, TO_WORDS, VERBS
from .lines import COMMANDS, SPANISH_COMMAND_OF, SPANISH_OF, command_of, verb_of

NEW_OPTIONS = ("--dealer", "--side", "--no-sides")
HAND_ONLY = {"pay", "show", "cambio", "return", "announce", "declare"}
UNSEEN_OK = {"cambio", "return"}  # `?` allowed where faces are not seen (N2.3)


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
    legal = [m.verb for m in ref.coming()] if ref is not None else []
    return list(dict.fromkeys([verbs.get(v, v) for v in legal + list(VERBS)]
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
    if ref is None or verb is None or verb == "end":
        return []
    names = ref.setup.players
    if len(done) == 1:
        legal = [m.player for m in ref.coming() if m.verb == verb]
        return list(dict.fromkeys(legal + list(names)))
    if done[1] not in names:
        return []
    to = "a" if done[0].lower() == SPANISH_OF["add"] else "to"  # agregar … a CARD (N4.10)
    return _arguments(verb, names.index(done[1]), done[2:], ref, to)


def _arguments(verb: str, seat: int, args: list, ref, to: str = "to") -> list:
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
            return _cards(me.hand + _offered(ref), typed)
        return []
    if verb in HAND_ONLY:
        if verb in ("pay", "cambio", "return") and args:
            return []  # one card
        return _cards(me.hand, typed) + (["?"] if verb in UNSEEN_OK else [])
    on_table = [c for meld in me.melds for c in meld]
    if verb == "meld":
        return _cards(_offered(ref) + me.hand + tuple(on_table), typed)
    if verb == "add":
        if args and args[-1].lower() in TO_WORDS:
            return _cards(on_table, typed)
        if any(a.lower() in TO_WORDS for a in args):
            return []
        cards = _cards(_offered(ref) + me.hand, typed)
        return cards + ([to] if args and me.melds else [])
    if verb in ("draw", "deal"):
        if verb == "draw" and args:
            return []
        return _cards(_unseen(ref), typed) + (["?", "?x9"] if verb == "deal" else [])
    return []  # cut, claim, knock, pass, forgive take no argument


def _offered(ref) -> tuple:
    offer = ref.offer()
    return (offer.card,) if offer is not None else ()


def _unseen(ref) -> list:
    """Cards no seat, meld, offer or discard pile is known to hold: what a draw may turn up."""
    seen = set(_offered(ref)) | set(ref.report.state.dead)
    for seat in ref.seats_view():
        seen.update(seat.hand)
        seen.update(c for meld in seat.melds for c in meld)
    return [c for c in range(52) if c not in seen]


def _cards(cards, typed) -> list:
    return list(dict.fromkeys(CARD_NAME[c] for c in cards if c not in typed))
