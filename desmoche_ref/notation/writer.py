"""Writing HandRecords in the canonical form (N7). Pure: values in, text out."""

from collections.abc import Iterable

from ..cards import CARD_NAME
from .model import Event, HandRecord, RecordFile
from .parser import KNOWN_TAGS, canonical_token


def _comment_lines(comments: Iterable[str]) -> list[str]:
    return ["#" + c for c in comments]


def with_comment(text: str, comment: str | None) -> str:
    """A line with its comment, as a record and the book write it (N1.2, N7): `text #comment`,
    the comment as it was typed after its `#`; `text` alone when it has none (None)."""
    return text if comment is None else f"{text} #{comment}"


def event_line(ev: Event) -> str:
    """An event's line in the canonical form, its comment kept."""
    return with_comment(write_event(ev), ev.comment)


def write_event(ev: Event) -> str:
    if ev.verb == "end":
        return "end"
    assert ev.actor is not None  # every verb but `end` names its player
    parts = [ev.verb, ev.actor]
    if ev.word is not None:
        parts.append(ev.word)
    if ev.args is not None:
        parts.extend(canonical_token(t) for t in ev.args)
    else:
        parts.extend(CARD_NAME[c] for c in ev.cards)
    if ev.target is not None:
        parts += ["to", CARD_NAME[ev.target]]
    if ev.text is not None:
        parts.append(ev.text)
    return " ".join(parts)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_line(name: str, value: str) -> str:
    """A tag as the canonical form writes it (N3, N7): `[Name "value"]`, the value quoted."""
    return f"[{name} {_quote(value)}]"


def write_hand(hand: HandRecord) -> str:
    rank = {name: i for i, name in enumerate(KNOWN_TAGS)}
    tags = sorted(hand.tags, key=lambda t: rank.get(t.name, len(KNOWN_TAGS)))  # stable sort
    out = _comment_lines(hand.lead)
    for tag in tags:
        out += _comment_lines(tag.lead)
        out.append(with_comment(tag_line(tag.name, tag.value), tag.comment))
    if tags and (hand.events or hand.trailing):
        out.append("")
    for ev in hand.events:
        out += _comment_lines(ev.lead)
        out.append(event_line(ev))
    out += _comment_lines(hand.trailing)
    return "\n".join(out) + "\n"


def write_file(record: RecordFile) -> str:
    return "\n".join(write_hand(h) for h in record.hands)


def syntax_errors(record: RecordFile) -> list:
    """The lines the writer cannot represent (it refuses to rewrite such a file)."""
    return [e for hand in record.hands for e in hand_syntax_errors(hand)]


def hand_syntax_errors(hand: HandRecord) -> list:
    """The lines of one hand the writer cannot represent, in line order."""
    found = hand.tag_errors + [ev.error for ev in hand.events if ev.error is not None]
    return sorted(found, key=lambda f: f.line)
