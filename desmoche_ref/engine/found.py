"""What replaying a hand has found so far: its status, its findings and the table at the
end (`Replay`), and the fouls of the latest line that had any (`FoulLine`).

Below every part of the referee (engine/base.py names these types; engine/replay.py and
engine/fouls.py make them), so that no part imports the referee that mixes it in.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..findings import Finding, Foul
    from .setup import Setup
    from .state import GameState

COMPLETE, INCOMPLETE, INVALID = "complete", "incomplete", "invalid"


class Replay:
    """What replaying a hand found: the table at the end, the status and the findings
    (`announcements`: the side-game claims, engine/sides.Announcement)."""

    __slots__ = ("setup", "state", "status", "errors", "warnings", "fouls", "announcements",
                 "last_line")

    def __init__(self, setup: "Setup", state: "GameState") -> None:
        self.setup = setup
        self.state = state
        self.status = INCOMPLETE
        self.errors: list[Finding] = []
        self.warnings: list[Finding] = []
        self.fouls: list[Foul] = []
        self.announcements: list = []  # engine/sides.Announcement
        self.last_line = 0  # the last line judged

    def copy(self, state: "GameState") -> "Replay":
        other = Replay(self.setup, state)
        other.status, other.last_line = self.status, self.last_line
        other.errors, other.warnings = list(self.errors), list(self.warnings)
        other.fouls, other.announcements = list(self.fouls), list(self.announcements)
        return other


class FoulLine:
    """The fouls of the latest line that had any, for a `forgive` right after it (R14.3)."""

    __slots__ = ("index", "fouls", "before", "found")

    def __init__(self, index: int, fouls: list, before: "GameState | None", found: bool):
        self.index = index    # the event's index in the hand
        self.fouls = fouls    # [(seat, index of the Foul in Replay.fouls)]
        self.before = before  # the table as if they had not happened (None: a misdeal)
        self.found = found    # found by the referee itself (N4.8)

    def copy(self) -> "FoulLine":
        before = self.before.clone() if self.before is not None else None
        return FoulLine(self.index, list(self.fouls), before, self.found)
