"""Reading `.dsm` text into HandRecords (N1-N4). Pure: text in, values out, errors as values."""

import re
from functools import lru_cache

from ..cards import CARD_NAME, card_lookup as _card_lookup, parse_card, parse_unknown
from ..findings import error
from .model import Event, HandRecord, RecordFile, Tag

KNOWN_TAGS = ("Players", "Dealer", "Rules", "Options", "Bet", "Carry", "Side", "SideCarry", "Result")
_TAG_CASE = {t.lower(): t for t in KNOWN_TAGS}
_TAG_RE = re.compile(r'\[\s*([^\W\d_][\w.-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:#(.*))?$')

GAMES = {
    "oro": "oro", "rombo": "oro", "corazon": "corazon", "corazón": "corazon", "flor": "flor",
    "corazon-negro": "corazon-negro", "corazón-negro": "corazon-negro",
    "par-rojo": "par-rojo", "par-negro": "par-negro",
    "dos-par-rojo": "dos-par-rojo", "dos-par-negro": "dos-par-negro",
    "tres-cuerpos": "tres-cuerpos", "escalera": "escalera",
}
AUTO_KINDS = ("peladilla", "cuatro-cuerpos", "color")
FOUL_KINDS = {"misdeal": "misdeal", "peek": "peek", "hand": "hand", "arrangement": "arrangement",
              "other": "other", "f1": "misdeal", "f2": "peek", "f3": "hand", "f4": "arrangement",
              "f5": "other"}
FOUL_CODES = {"misdeal": "F1", "peek": "F2", "hand": "F3", "arrangement": "F4", "other": "F5"}

# verb -> (usage, unknown cards allowed)
VERBS = {
    "cut": ("cut PLAYER", False),
    "deal": ("deal PLAYER CARDS", True),
    "return": ("return PLAYER CARD", True),
    "announce": ("announce PLAYER GAME CARDS", False),
    "cambio": ("cambio PLAYER CARD", True),
    "declare": ("declare PLAYER KIND [the nine CARDS]", False),
    "draw": ("draw PLAYER CARD", False),
    "claim": ("claim PLAYER", False),
    "knock": ("knock PLAYER", False),
    "meld": ("meld PLAYER CARDS", False),
    "add": ("add PLAYER CARDS [to CARD]", False),
    "pay": ("pay PLAYER CARD", False),
    "pass": ("pass PLAYER", False),
    "show": ("show PLAYER CARDS", False),
    "foul": ("foul PLAYER KIND [CARD or WORDS]", False),
    "forgive": ("forgive PLAYER", False),
    "end": ("end", False),
}
# N4.10: the Spanish verbs a table writes, read as the English ones (the writer emits English)
SPANISH_VERBS = {
    "cortar": "cut", "repartir": "deal", "devolver": "return", "anunciar": "announce",
    "declarar": "declare", "robar": "draw", "reclamar": "claim", "tocar": "knock",
    "bajar": "meld", "agregar": "add", "pagar": "pay", "pasar": "pass", "mostrar": "show",
    "falta": "foul", "perdonar": "forgive", "fin": "end",
}
NO_ARGS = {"cut", "claim", "knock", "pass", "forgive"}
ONE_CARD = {"draw", "pay", "cambio"}


def clip(text: str, width: int = 24) -> str:
    """A token short enough to quote in a message."""
    return text if len(text) <= width else text[: width - 1] + "…"


class LineError(Exception):
    """Raised inside the parser only; becomes an error Finding on the event."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message


_CARD = _card_lookup()
_CARD_GET = _CARD.get


def _cards(tokens, verb: str, allow_unknown: bool):
    """Parse card tokens: (known cards, unknown count)."""
    known = []
    unknown = 0
    for tok in tokens:
        c = _CARD.get(tok)
        if c is None:
            c = parse_card(tok)
        if c is not None:
            known.append(c)
            continue
        n = parse_unknown(tok)
        if n is None:
            raise LineError("N2.1", f"{clip(tok)!r} is not a card (cards are like As, Td, 10♠)")
        if not allow_unknown:
            raise LineError("N2.3", f"'?' is not allowed in {verb}: the card is seen by the table")
        unknown += n
    return tuple(known), unknown


def canonical_token(tok: str) -> str:
    """A card token in the canonical form (N2.2): Ts, ?, ?x9."""
    c = parse_card(tok)
    if c is not None:
        return CARD_NAME[c]
    n = parse_unknown(tok)
    return "?" if n == 1 else f"?x{n}"


# Fast path: verb -> True (one card), False (one or more cards), None (no argument).
_SIMPLE = {"draw": True, "pay": True, "cambio": True, "meld": False, "add": False, "deal": False,
           "show": False, "return": False}
_BARE = frozenset(("knock", "claim", "pass", "cut", "forgive"))
_VERB = {v: v for v in VERBS} | SPANISH_VERBS
_NAMES = {}


def parse_event(text: str, line: int) -> Event:
    """One event line (comment already removed) into an Event; bad lines carry `error`."""
    parts = text.split()
    count = len(parts)
    verb = _VERB.get(parts[0]) or _VERB.get(parts[0].lower(), parts[0].lower())
    if count > 1:  # one string per name, not one per line (a season holds many)
        actor = parts[1]
        parts[1] = _NAMES.get(actor) or (_NAMES.setdefault(actor, actor) if len(_NAMES) < 4096 else actor)
    # The common lines with plain cards, where no other check applies.
    if count == 3 and verb in _SIMPLE:  # draw, pay, cambio, ... one card
        card = _CARD_GET(parts[2])
        if card is not None:
            return Event(verb, parts[1], line, (card,))
    elif count == 2 and verb in _BARE:
        return Event(verb, parts[1], line)
    elif count > 3 and _SIMPLE.get(verb) is False:  # meld, add, deal, show, return
        cards = tuple(map(_CARD_GET, parts[2:]))
        if None not in cards:
            return Event(verb, parts[1], line, cards)
    try:
        if verb not in VERBS:
            raise LineError("N4", f"unknown verb {clip(parts[0])!r} (verbs: {', '.join(VERBS)})")
        if verb == "end":
            if len(parts) != 1:
                raise LineError("N4", "end takes no arguments")
            return Event(verb, None, line)
        usage, allow_unknown = VERBS[verb]
        if len(parts) < 2:
            raise LineError("N4", f"missing player: {usage}")
        actor = parts[1]
        args = parts[2:]
        if verb in NO_ARGS:
            if args:
                raise LineError("N4", f"too many arguments: {usage}")
            return Event(verb, actor, line)
        word = target = None
        if verb in ("announce", "declare", "foul"):
            if not args:
                raise LineError("N4", f"missing argument: {usage}")
            word = args[0].lower()
            args = args[1:]
            if verb == "announce":
                if word not in GAMES:
                    raise LineError("N4", f"unknown side game {clip(word)!r} (games: {', '.join(sorted(set(GAMES.values())))})")
                word = GAMES[word]
                if not args:
                    raise LineError("N4", f"missing cards: {usage}")
            elif verb == "declare":
                if word not in AUTO_KINDS:
                    raise LineError("N4", f"unknown automatic win {clip(word)!r} (peladilla, cuatro-cuerpos, color)")
                if args and len(args) != 9:
                    raise LineError("N4", f"a declaration shows all nine cards or none, not {len(args)}")
            else:
                if word not in FOUL_KINDS:
                    raise LineError("N4", f"unknown foul {clip(word)!r} (misdeal, peek, hand, arrangement, other)")
                word = FOUL_KINDS[word]
                if word == "other":
                    if not args:
                        raise LineError("N4", "foul other needs words that describe it")
                    return Event(verb, actor, line, word=word, text=" ".join(args))
                if word == "hand":
                    if len(args) != 1:
                        raise LineError("N4", "foul hand names the one card put in hand: foul PLAYER hand CARD")
                elif args:
                    raise LineError("N4", f"foul {word} takes no more arguments")
        elif verb == "add" and len(args) >= 2 and args[-2].lower() == "to":
            target = parse_card(args[-1])
            if target is None:
                raise LineError("N2.1", f"{clip(args[-1])!r} is not a card")
            args = args[:-2]
        if verb in ONE_CARD and len(args) != 1:
            raise LineError("N4", f"{verb} takes exactly one card: {usage}")
        if not args and verb not in ("declare", "foul"):
            raise LineError("N4", f"missing cards: {usage}")
        cards, unknown = _cards(args, verb, allow_unknown)
        # The writer needs the tokens only where `?` cards stand among the known ones.
        return Event(verb, actor, line, cards, unknown, word, target, None,
                     tuple(args) if unknown else None)
    except LineError as e:
        return Event(verb, None, line, error=error(line, e.code, e.message))


@lru_cache(maxsize=4096)
def _tag_parts(text: str):
    """(name, value, comment) of a tag line, or None if malformed; cached: a session repeats them."""
    m = _TAG_RE.match(text)
    if not m:
        return None
    name, value, comment = m.groups()
    if "\\" in value:
        value = re.sub(r"\\(.)", r"\1", value)
    return _TAG_CASE.get(name.lower(), name), value, comment.rstrip() if comment else None


def parse_tag(text: str, line: int):
    """A tag line into a Tag, or an error Finding (N1.4)."""
    parts = _tag_parts(text.strip())
    if parts is None:
        return error(line, "N1.4", 'malformed tag line: a tag is [Name "value"]')
    name, value, comment = parts
    return Tag(name=name, value=value, line=line, comment=comment)


def decode_lines(data: bytes) -> list:
    """The file's lines as text, None for a line that is not UTF-8 (N1.1); numbered from 1.

    Line ends are LF or CRLF; the caller strips each line, which removes a CR too."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        lines = []
        for raw in data.split(b"\n"):
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                lines.append(None)
        return lines
    return text.split("\n")


def iter_hands(data: bytes):
    """The hands of a `.dsm` file (N1), each yielded once its last line has been read.

    A generator, so that a season can be judged hand by hand without holding it all."""
    hand = None
    pending = []  # comment lines waiting for the next tag or event
    for number, text in enumerate(decode_lines(data), 1):
        if text is None:
            ev = Event("", None, number, error=error(number, "N1.1", "this line is not valid UTF-8 text"))
            if hand is None:
                hand = HandRecord(line=number)
            hand.events.append(ev)
            continue
        stripped = text.strip()
        if not stripped:
            continue
        if "\t" in stripped:  # tabs count as spaces (N1.1)
            stripped = stripped.replace("\t", " ")
        first = stripped[0]
        if first == "#":
            pending.append(stripped[1:].rstrip())
            continue
        if first == "[":
            if hand is None or hand.events:  # tags after events start a new hand (N8)
                if hand is not None:
                    yield hand
                hand = HandRecord(line=number, lead=pending)
                pending = []
            tag = parse_tag(stripped, number)
            if isinstance(tag, Tag):
                if pending:
                    tag.lead, pending = pending, []
                hand.tags.append(tag)
            else:
                hand.tag_errors.append(tag)
            continue
        hash_at = stripped.find("#")
        if hash_at < 0:
            ev = parse_event(stripped, number)
        else:
            ev = parse_event(stripped[:hash_at], number)
            ev.comment = stripped[hash_at + 1:].rstrip()
        if hand is None:
            hand = HandRecord(line=number, lead=pending)
            pending = []
        elif pending:
            ev.lead, pending = pending, []
        hand.events.append(ev)
    if hand is not None:
        hand.trailing = pending
        yield hand


NO_HAND = "the file holds no hand (no tag or event lines)"


def parse_bytes(data: bytes) -> RecordFile:
    """Read a whole `.dsm` file (N1): hands in order, each with its tags and events."""
    hands = list(iter_hands(data))
    return RecordFile(hands=hands, error=None if hands else NO_HAND)


def parse_text(text: str) -> RecordFile:
    return parse_bytes(text.encode("utf-8"))
