"""Findings: errors, warnings and fouls as plain values with a line and a rule code (N5).

Plain slotted classes rather than dataclasses: every command imports these, and a
dataclass costs a millisecond or more of start-up each (bench/bench_startup.py)."""

ERROR = "error"
WARNING = "warning"


class Finding:
    __slots__ = ("line", "code", "message", "severity")

    def __init__(self, line: int, code: str, message: str, severity: str = ERROR):
        self.line = line
        self.code = code
        self.message = message
        self.severity = severity

    def as_json(self) -> dict:
        return {"line": self.line, "code": self.code, "message": self.message}

    def _key(self):
        return (self.line, self.code, self.message, self.severity)

    def __eq__(self, other):
        return isinstance(other, Finding) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Finding({self.line}, {self.code!r}, {self.message!r}, {self.severity!r})"


class Foul:
    __slots__ = ("line", "player", "code", "message", "enforced")

    def __init__(self, line: int, player: str, code: str, message: str, enforced: bool = True):
        self.line = line
        self.player = player
        self.code = code  # F1..F5
        self.message = message
        self.enforced = enforced

    def as_json(self) -> dict:
        return {"line": self.line, "player": self.player, "code": self.code,
                "enforced": self.enforced}

    def __repr__(self):
        return f"Foul({self.line}, {self.player!r}, {self.code!r}, enforced={self.enforced})"


def error(line: int, code: str, message: str) -> Finding:
    return Finding(line, code, message, ERROR)


def warning(line: int, code: str, message: str) -> Finding:
    return Finding(line, code, message, WARNING)
