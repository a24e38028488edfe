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


class Event:
    """One event line. A plain slotted class: thousands are made per second (bench/)."""

    __slots__ = ("verb", "actor", "line", "cards", "unknown", "word", "target", "text", "args",
                 "comment", "lead", "error")

    def __init__(self, verb, actor, line, cards=(), unknown=0, word=None, target=None, text=None,
                 args=(), comment=None, lead=(), error=None):
        self.verb = verb          # canonical verb
        self.actor = actor        # player name as written
        self.line = line
        self.cards = cards        # known cards, in the order written
        self.unknown = unknown    # how many `?` cards (N2.3)
        self.word = word          # announce: game; declare: kind; foul: kind (canonical)
        self.target = target      # add ... to CARD
        self.text = text          # foul other WORDS
        self.args = args          # the card tokens as written, for the writer
        self.comment = comment
        self.lead = lead          # comment lines just above it
        self.error = error        # a line that could not be read (N1, N2, N4)

    def __repr__(self):
        return f"Event({self.verb!r}, {self.actor!r}, line={self.line})"


@dataclass(slots=True)
class HandRecord:
    line: int  # the hand's first line (its first tag, or first event if it has no tags)
    lead: list = field(default_factory=list)  # comment lines above the hand's first line
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


@dataclass(slots=True)
class RecordFile:
    hands: list
    error: str | None = None  # the file holds no hand, or could not be read
