"""The hand record as read from a `.dsm` file (N1-N4): tags and events, each with its line."""

from dataclasses import dataclass, field

from ..findings import Finding


@dataclass(slots=True)
class Tag:
    name: str
    value: str
    line: int
    comment: str | None = None
    lead: list = field(default_factory=list)  # comment lines just above it


@dataclass(slots=True)
class Event:
    verb: str
    actor: str | None
    line: int
    cards: tuple = ()        # known cards, in the order written
    unknown: int = 0         # how many `?` cards (N2.3)
    word: str | None = None  # announce: game; declare: kind; foul: kind
    target: int | None = None  # add ... to CARD
    text: str | None = None  # foul other WORDS
    tokens: tuple = ()       # the card tokens in canonical form, for the writer
    comment: str | None = None
    lead: list = field(default_factory=list)
    error: Finding | None = None  # a line that could not be read (N1, N2, N4)
    raw: str = ""


@dataclass(slots=True)
class HandRecord:
    line: int  # the hand's first line (its first tag, or first event if it has no tags)
    tags: list = field(default_factory=list)
    events: list = field(default_factory=list)
    trailing: list = field(default_factory=list)  # comment lines after the last event
    tag_errors: list = field(default_factory=list)  # malformed tag lines (N1.4)

    def tag(self, name: str):
        for t in self.tags:
            if t.name == name:
                return t
        return None

    def tags_named(self, name: str) -> list:
        return [t for t in self.tags if t.name == name]

    @property
    def last_line(self) -> int:
        lines = [self.line] + [e.line for e in self.events] + [t.line for t in self.tags]
        return max(lines)


@dataclass(slots=True)
class RecordFile:
    hands: list
    error: str | None = None  # the file holds no hand, or could not be read
