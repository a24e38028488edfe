"""Findings: errors, warnings and fouls as plain immutable values with a line and a rule code (N5).

NamedTuples rather than dataclasses: every command imports these, and a dataclass costs a
millisecond or more of start-up each (bench/bench_startup.py); `typing` is loaded by click
already."""

from typing import NamedTuple

ERROR = "error"
WARNING = "warning"


class Finding(NamedTuple):
    line: int
    code: str
    message: str
    severity: str = ERROR

    def as_json(self) -> dict:
        return {"line": self.line, "code": self.code, "message": self.message}


class Foul(NamedTuple):
    line: int
    player: str
    code: str  # F1..F5
    message: str
    enforced: bool = True

    def as_json(self) -> dict:
        return {"line": self.line, "player": self.player, "code": self.code,
                "enforced": self.enforced}

    def forgiven(self) -> "Foul":
        return self._replace(enforced=False)


def error(line: int, code: str, message: str) -> Finding:
    return Finding(line, code, message, ERROR)


def warning(line: int, code: str, message: str) -> Finding:
    return Finding(line, code, message, WARNING)
