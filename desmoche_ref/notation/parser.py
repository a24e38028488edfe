"""Reading `.dsm` text into HandRecords (N1-N4). Pure: text in, values out, errors as values."""

import re
from collections.abc import Iterable, Iterator, Sequence

from ..cards import CARD_NAME, card_lookup as _card_lookup, parse_card, parse_unknown
from ..findings import Finding, M, error
from ..limits import COMMENTS, EVENTS, LINE, TAGS, nfc, too_long, too_many
# exported as before (`X as X`): parser.Lines, parser.read_blocks, … (cli/files.py, fmt.py, view.py)
from .lines import Lines as Lines, TooLong as TooLong, Undecodable as Undecodable, read_blocks as read_blocks
from .model import Event, HandRecord, RecordFile, Tag

KNOWN_TAGS = ("Players", "Dealer", "Rules", "Options", "Bet", "Carry", "Side", "SideCarry", "Result",
              "Closed", "Void")
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

# verb -> (usage, unknown cards allowed); a usage is a message: its words (PLAYER, CARDS) are
# shown in the run's language, the verb and `to` as the notation writes them
VERBS = {
    "cut": (M("cut PLAYER"), False),
    "deal": (M("deal PLAYER CARDS"), True),
    "return": (M("return PLAYER CARD"), True),
    "announce": (M("announce PLAYER GAME CARDS"), False),
    "cambio": (M("cambio PLAYER CARD"), True),
    "declare": (M("declare PLAYER KIND [the nine CARDS]"), False),
    "draw": (M("draw PLAYER CARD"), False),
    "claim": (M("claim PLAYER"), False),
    "knock": (M("knock PLAYER"), False),
    "meld": (M("meld PLAYER CARDS"), False),
    "add": (M("add PLAYER CARDS [to CARD]"), False),
    "pay": (M("pay PLAYER CARD"), False),
    "pass": (M("pass PLAYER"), False),
    "show": (M("show PLAYER CARDS"), False),
    "foul": (M("foul PLAYER KIND [CARD or WORDS]"), False),
    "forgive": (M("forgive PLAYER"), False),
    "end": ("end", False),
}
# N4.10: the Spanish verbs a table writes, read as the English ones (the writer emits English)
SPANISH_VERBS = {
    "cortar": "cut", "repartir": "deal", "devolver": "return", "anunciar": "announce",
    "declarar": "declare", "robar": "draw", "reclamar": "claim", "tocar": "knock",
    "bajar": "meld", "agregar": "add", "pagar": "pay", "pasar": "pass", "mostrar": "show",
    "falta": "foul", "perdonar": "forgive", "fin": "end",
}
# N4.10: `add … to CARD` may say `a` for `to` (`agregar Beto 5c a 4c`); the writer emits `to`
TO_WORDS = ("to", "a")


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


def _cards(tokens: Sequence[str], verb: str, allow_unknown: bool) -> tuple[tuple[int, ...], int]:
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
            raise LineError("N2.1", M("{word!r} is not a card (cards are like As, Td, 10♠)",
                                      word=clip(tok)))
        if not allow_unknown:
            raise LineError("N2.3", M("'?' is not allowed in {verb}: the card is seen by the table",
                                      verb=verb))
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


def parse_event(text: str, line: int) -> Event:
    """One event line (comment already removed) into an Event; bad lines carry `error`.
    Names are read in Unicode NFC (N3.1): a typed line may come decomposed."""
    if not text.isascii():
        text = nfc(text)
    parts = text.split()
    count = len(parts)
    verb = _VERB.get(parts[0]) or _VERB.get(parts[0].lower(), parts[0].lower())
    # The common lines with plain cards, where no other check applies: inline, not through a
    # reader, as they are nearly every line of a record (bench/).
    if count == 3 and verb in _SIMPLE:  # draw, pay, cambio, ... one card
        card = _CARD_GET(parts[2])
        if card is not None:
            return Event(verb, parts[1], line, (card,))
    elif count == 2 and verb in _BARE:
        return Event(verb, parts[1], line)
    elif count > 3 and _SIMPLE.get(verb) is False:  # meld, add, deal, show, return
        cards = tuple(map(_CARD_GET, parts[2:]))
        if None not in cards:
            return Event(verb, parts[1], line, cards)  # type: ignore[arg-type]  # no None among them
    try:
        return _READERS.get(verb, _read_unknown_verb)(verb, parts, line)
    except LineError as e:
        return Event(verb, None, line, error=error(line, e.code, e.message))


# The readers of the other lines, one for each kind of verb: `reader(verb, parts, line)`
# gives the Event of the line split into words, or raises LineError for the first check it
# fails: the verb, then the player, then what the reader reads after the player, in its
# order (which error a bad line gets: tests/test_parse_event.py).

def _read_unknown_verb(verb: str, parts: list[str], line: int) -> Event:
    raise LineError("N4", M("unknown verb {word!r} (verbs: {items})",
                            word=clip(parts[0]), items=', '.join(VERBS)))


def _read_end(verb: str, parts: list[str], line: int) -> Event:
    """`end`: the one verb without a player."""
    if len(parts) != 1:
        raise LineError("N4", M("end takes no arguments"))
    return Event(verb, None, line)


def _read_bare(verb: str, parts: list[str], line: int) -> Event:
    """cut, claim, knock, pass, forgive: a player, nothing after."""
    actor, args = _player(verb, parts)
    if args:
        raise LineError("N4", M("too many arguments: {usage}", usage=VERBS[verb][0]))
    return Event(verb, actor, line)


def _read_one_card(verb: str, parts: list[str], line: int) -> Event:
    """draw, pay, cambio: a player and one card (a `?` in the cambio, which faces down)."""
    actor, args = _player(verb, parts)
    if len(args) != 1:
        raise LineError("N4", M("{verb} takes exactly one card: {usage}",
                                verb=verb, usage=VERBS[verb][0]))
    return _card_event(verb, actor, line, args)


def _read_cards(verb: str, parts: list[str], line: int) -> Event:
    """deal, return, meld, show: a player and one card or more."""
    actor, args = _player(verb, parts)
    if not args:
        raise _missing_cards(verb)
    return _card_event(verb, actor, line, args)


def _read_add(verb: str, parts: list[str], line: int) -> Event:
    """add PLAYER CARDS [to CARD]: the cards, and the meld they go on if named (N4.2a)."""
    actor, args = _player(verb, parts)
    cards, target = _split_target(args)
    if not cards:
        raise _missing_cards(verb)
    return _card_event(verb, actor, line, cards, target=target)


def _read_announce(verb: str, parts: list[str], line: int) -> Event:
    """announce PLAYER GAME CARDS (R4.5): the side game by any of its names, and its cards."""
    actor, args = _player(verb, parts)
    game, cards = _kind(verb, args)
    if game not in GAMES:
        raise LineError("N4", M("unknown side game {word!r} (games: {items})",
                                word=clip(game), items=', '.join(sorted(set(GAMES.values())))))
    if not cards:
        raise _missing_cards(verb)
    return _card_event(verb, actor, line, cards, word=GAMES[game])


def _read_declare(verb: str, parts: list[str], line: int) -> Event:
    """declare PLAYER KIND [CARDS] (R6): the automatic win, and the nine cards if shown."""
    actor, args = _player(verb, parts)
    kind, cards = _kind(verb, args)
    if kind not in AUTO_KINDS:
        raise LineError("N4", M("unknown automatic win {word!r} (peladilla, "
                                "cuatro-cuerpos, color)", word=clip(kind)))
    if cards and len(cards) != 9:
        raise LineError("N4", M("a declaration shows all nine cards or none, not "
                                "{count}", count=len(cards)))
    return _card_event(verb, actor, line, cards, word=kind)


def _read_foul(verb: str, parts: list[str], line: int) -> Event:
    """foul PLAYER KIND [CARD or WORDS] (R14): the kind by name or F-code; `hand` names the
    card put in hand, `other` is told in words, the others take nothing more."""
    actor, args = _player(verb, parts)
    name, rest = _kind(verb, args)
    if name not in FOUL_KINDS:
        raise LineError("N4", M("unknown foul {word!r} (misdeal, peek, hand, "
                                "arrangement, other)", word=clip(name)))
    kind = FOUL_KINDS[name]
    if kind == "other":
        if not rest:
            raise LineError("N4", M("foul other needs words that describe it"))
        return Event(verb, actor, line, word=kind, text=" ".join(rest))
    if kind == "hand":
        if len(rest) != 1:
            raise LineError("N4", M("foul hand names the one card put in hand: foul "
                                    "PLAYER hand CARD"))
    elif rest:
        raise LineError("N4", M("foul {word} takes no more arguments", word=kind))
    return _card_event(verb, actor, line, rest, word=kind)


_READERS = {
    "cut": _read_bare, "deal": _read_cards, "return": _read_cards, "announce": _read_announce,
    "cambio": _read_one_card, "declare": _read_declare, "draw": _read_one_card,
    "claim": _read_bare, "knock": _read_bare, "meld": _read_cards, "add": _read_add,
    "pay": _read_one_card, "pass": _read_bare, "show": _read_cards, "foul": _read_foul,
    "forgive": _read_bare, "end": _read_end,
}


def _player(verb: str, parts: list[str]) -> tuple[str, list[str]]:
    """(the player, the words after them): every verb but `end` names its player first."""
    if len(parts) < 2:
        raise LineError("N4", M("missing player: {usage}", usage=VERBS[verb][0]))
    return parts[1], parts[2:]


def _kind(verb: str, args: list[str]) -> tuple[str, list[str]]:
    """(the word after the player, in lower case; the words after it): which side game,
    automatic win or foul the line is about."""
    if not args:
        raise LineError("N4", M("missing argument: {usage}", usage=VERBS[verb][0]))
    return args[0].lower(), args[1:]


def _split_target(args: list[str]) -> tuple[list[str], int | None]:
    """`CARDS to CARD` as (the cards, the target card); without `to` (or `a`, N4.10) the
    target is None. The target is a card on the table, so `?` is not a card there."""
    if len(args) < 2 or args[-2].lower() not in TO_WORDS:
        return args, None
    target = parse_card(args[-1])
    if target is None:
        raise LineError("N2.1", M("{word!r} is not a card", word=clip(args[-1])))
    return args[:-2], target


def _missing_cards(verb: str) -> LineError:
    return LineError("N4", M("missing cards: {usage}", usage=VERBS[verb][0]))


def _card_event(verb: str, actor: str, line: int, tokens: Sequence[str], word: str | None = None,
                target: int | None = None) -> Event:
    """The Event of a line whose last words are cards (none, for a declaration without
    them or a foul without a card)."""
    cards, unknown = _cards(tokens, verb, VERBS[verb][1])
    # The writer needs the tokens only where `?` cards stand among the known ones.
    return Event(verb, actor, line, cards, unknown, word, target, None,
                 tuple(tokens) if unknown else None)


def _tag_parts(text: str) -> tuple[str, str, str | None] | None:
    """(name, value, comment) of a tag line, or None if malformed."""
    m = _TAG_RE.match(text)
    if not m:
        return None
    name, value, comment = m.groups()
    if "\\" in value:
        value = re.sub(r"\\(.)", r"\1", value)
    return _TAG_CASE.get(name.lower(), name), value, comment.rstrip() if comment else None


def split_comment(text: str) -> tuple[str, str | None]:
    """(the line's body, its comment or None): `#` starts a comment (N1.2), kept as written
    less its trailing spaces."""
    hash_at = text.find("#")
    if hash_at < 0:
        return text, None
    return text[:hash_at], text[hash_at + 1:].rstrip()


def parse_tag(text: str, line: int) -> Tag | Finding:
    """A tag line into a Tag, or an error Finding (N1.4)."""
    parts = _tag_parts(text.strip())
    if parts is None:
        return error(line, "N1.4", M('malformed tag line: a tag is [Name "value"]'))
    name, value, comment = parts
    return Tag(name=name, value=value, line=line, comment=comment)


def iter_hands(source: "bytes | Iterable[bytes] | Lines", encoding: str | None = None) -> Iterator[HandRecord]:
    """The hands of a `.dsm` file (N1), each yielded once its last line has been read.

    `source` is the file's bytes, an iterable of blocks of bytes, or `Lines`. A generator,
    so that a season can be judged hand by hand without holding it all. A hand holds at most
    TAGS tags, EVENTS events and COMMENTS comment lines (N1.5): the line that goes past one
    is an error, and the reader holds no more of that hand (its lines are read past until a
    tag line after events starts the next hand), so memory stays bounded whatever the file."""
    lines = source if isinstance(source, Lines) else Lines(source, encoding)
    hand: HandRecord | None = None
    pending: list[str] = []  # comment lines waiting for the next tag or event
    unreadable = []  # N1.1/N1.5 of comment lines that could not be read: they go where `pending` goes
    tags = events = comments = 0  # lines of the hand being read (comments: with those pending)
    full = False  # the hand went past N1.5's bounds: its lines are read past, not held

    def problem(number: int, text: str) -> Finding:
        return _unreadable(lines, number, text)

    for number, text in enumerate(lines, 1):
        bad = type(text) is not str
        stripped = text.strip()
        if not stripped:
            if bad and not full:  # a line of spaces too long: an error all the same
                unreadable.append(problem(number, text))
            continue
        if "\t" in stripped:  # tabs count as spaces (N1.1)
            stripped = stripped.replace("\t", " ")
        first = stripped[0]
        if first == "[" and (hand is None or events):  # tags after events start a new hand (N8)
            if hand is not None:
                yield hand
            hand = HandRecord(line=number, lead=pending)
            pending, tags, events, comments, full = [], 0, 0, len(pending) + len(unreadable), False
        if full:
            events += first not in "[#"  # a tag line after these starts the next hand
            continue
        if first == "#":
            comments += 1
            if comments > COMMENTS:
                hand, pending = _opened(hand, number, pending)
                _place(hand, unreadable + [error(number, "N1.5", too_many("comment lines", COMMENTS))])
                unreadable, full = [], True
            elif bad:
                unreadable.append(problem(number, text))
            else:
                pending.append(stripped[1:].rstrip())
            continue
        if first == "[":
            assert hand is not None  # a tag line starts a hand when none is open (above)
            tags += 1
            if unreadable:
                hand.tag_errors += unreadable
                unreadable = []
            if tags > TAGS:
                hand.tag_errors.append(error(number, "N1.5", too_many("tags", TAGS)))
                full = True
                continue
            pending = _add_tag(hand, stripped, number, problem(number, text) if bad else None, pending)
            continue
        events += 1
        if events > EVENTS:
            ev = Event("", None, number, error=error(number, "N1.5", too_many("events", EVENTS)))
            full = True
        else:
            ev = _event_of(stripped, number, problem(number, text) if bad else None)
        if hand is None:
            hand, pending = _opened(hand, number, pending)
        elif pending:
            ev.lead, pending = pending, []
        if unreadable:
            _place(hand, unreadable)
            unreadable = []
        hand.events.append(ev)
    if unreadable and hand is None:  # nothing but unreadable comments: still a finding
        hand = HandRecord(line=unreadable[0].line)
    if hand is not None:
        _place(hand, unreadable)
        hand.trailing = pending
        yield hand


def _opened(hand: HandRecord | None, number: int, pending: list[str]) -> tuple[HandRecord, list[str]]:
    """The hand being read, opened at line `number` with the comments before it if none is."""
    if hand is None:
        return HandRecord(line=number, lead=pending), []
    return hand, pending


def _unreadable(lines: "Lines", number: int, text: str) -> Finding:
    """The finding for a line that could not be read: too long (N1.5), or not text (N1.1)."""
    if type(text) is TooLong:
        message = too_long(LINE + 1)
        assert message is not None  # LINE + 1 characters are too many
        return error(number, "N1.5", message)
    return error(number, "N1.1", lines.reason)


def _add_tag(hand: HandRecord, stripped: str, number: int, unreadable: Finding | None,
             pending: list[str]) -> list[str]:
    """A tag line into the hand, with the comments before it; returns the comments still
    waiting. An unreadable tag line is still a tag (its name counts), but invalid here."""
    tag = parse_tag(stripped, number)
    if unreadable is not None:
        hand.tag_errors.append(unreadable)
    if isinstance(tag, Tag):
        if pending:
            tag.lead, pending = pending, []
        hand.tags.append(tag)
    elif unreadable is None:
        hand.tag_errors.append(tag)
    return pending


def _event_of(stripped: str, number: int, unreadable: Finding | None) -> Event:
    """An event line as its Event (its comment split off), or the error of an unreadable one."""
    if unreadable is not None:
        return Event("", None, number, error=unreadable)
    body, comment = split_comment(stripped)
    ev = parse_event(body, number)
    ev.comment = comment
    return ev


def _place(hand: HandRecord, problems: list[Finding]) -> None:
    """N1.1 findings of unreadable comments, in line order: among the events once the hand
    has some, else with its tags' errors."""
    if hand.events:
        hand.events += [Event("", None, p.line, error=p) for p in problems]
    else:
        hand.tag_errors += problems


NO_HAND = M("the file holds no hand (no tag or event lines)")


def parse_bytes(data: "bytes | Lines", encoding: str | None = None) -> RecordFile:
    """Read a whole `.dsm` file (N1): hands in order, each with its tags and events.

    `data`: the file's bytes, or `Lines` (to read `looks_like` afterwards)."""
    hands = list(iter_hands(data, encoding))
    return RecordFile(hands=hands, error=None if hands else NO_HAND)


def parse_text(text: str) -> RecordFile:
    return parse_bytes(text.encode("utf-8"))
