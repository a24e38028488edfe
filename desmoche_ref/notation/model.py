"""The hand record as read from a `.dsm` file (N1-N4): tags and events, each with its line."""

from collections.abc import Sequence
from typing import Any


class Tag:
    __slots__ = ("name", "value", "line", "comment", "lead")

    def __init__(self, name: str, value: str, line: int, comment: str | None = None,
                 lead: Sequence[str] | None = None):
        self.name = name
        self.value = value
        self.line = line
        self.comment = comment
        self.lead = lead if lead is not None else ()  # comment lines just above it

    def __repr__(self) -> str:
        return f"Tag({self.name!r}, {self.value!r}, line={self.line})"


class Event:
    """One event line. A plain slotted class: thousands are made per second (bench/)."""

    __slots__ = ("verb", "actor", "line", "cards", "unknown", "word", "target", "text", "args",
                 "comment", "lead", "error")

    def __init__(self, verb: str, actor: str | None, line: int, cards: Sequence[int] = (), unknown: int = 0,
                 word: str | None = None, target: int | None = None, text: str | None = None,
                 args: Sequence[str] | None = None, comment: str | None = None, lead: Sequence[str] = (),
                 error: Any = None) -> None:
        self.verb = verb          # canonical verb
        self.actor = actor        # player name as written
        self.line = line
        self.cards = cards        # known cards, in the order written
        self.unknown = unknown    # how many `?` cards (N2.3)
        self.word = word          # announce: game; declare: kind; foul: kind (canonical)
        self.target = target      # add ... to CARD
        self.text = text          # foul other WORDS
        self.args = args          # the card tokens as written, where `?` cards are among them
        self.comment = comment
        self.lead = lead          # comment lines just above it
        self.error = error        # a line that could not be read (N1, N2, N4)

    def __repr__(self) -> str:
        return f"Event({self.verb!r}, {self.actor!r}, line={self.line})"


class HandRecord:
    """One hand: its tags and events, each with its line (N3, N4)."""

    __slots__ = ("line", "lead", "tags", "events", "trailing", "tag_errors")

    def __init__(self, line: int, lead: list[str] | None = None):
        self.line = line  # the hand's first line (its first tag, or first event if it has no tags)
        self.lead = lead if lead is not None else []  # comment lines above the hand's first line
        self.tags: list[Tag] = []
        self.events: list[Event] = []
        self.trailing: list[str] = []    # comment lines after the last event
        self.tag_errors: list = []  # malformed tag lines (N1.4): Findings

    def tag(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None

    def tags_named(self, name: str) -> list:
        return [t for t in self.tags if t.name == name]


class RecordFile:
    __slots__ = ("hands", "error")

    def __init__(self, hands: list, error: str | None = None):
        self.hands = hands
        self.error = error  # the file holds no hand, or could not be read
