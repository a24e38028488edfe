"""Findings: errors, warnings and fouls as plain values with a line and a rule code (N5)."""

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Finding:
    line: int
    code: str
    message: str
    severity: str = ERROR

    def as_json(self) -> dict:
        return {"line": self.line, "code": self.code, "message": self.message}


@dataclass(slots=True)
class Foul:
    line: int
    player: str
    code: str  # F1..F5
    message: str
    enforced: bool = True

    def as_json(self) -> dict:
        return {"line": self.line, "player": self.player, "code": self.code,
                "enforced": self.enforced}


def error(line: int, code: str, message: str) -> Finding:
    return Finding(line, code, message, ERROR)


def warning(line: int, code: str, message: str) -> Finding:
    return Finding(line, code, message, WARNING)
