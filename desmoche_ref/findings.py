"""Findings: errors, warnings and fouls as plain immutable values with a line and a rule code (N5).

NamedTuples rather than dataclasses: every command imports these, and a dataclass costs a
millisecond or more of start-up each (bench/bench_startup.py); `typing` is loaded by click
already."""

from typing import NamedTuple


class Message(str):
    """A message as the engine writes it: the English text (the string itself: what `--json`
    prints and the tests read) made from a template and its values, both kept so that the
    shell can show the message in another language (`render`). The templates are marked
    with `M` for the catalog (tools/catalog.py); a value may be a Message itself (a reason
    inside a reason). Made only when a finding is, which is rare: no cost per event."""

    def __new__(cls, template: str, args: dict):
        self = super().__new__(cls, template.format_map(args))
        self.__dict__["template"] = template
        self.__dict__["args"] = args
        return self

    def __setattr__(self, name, value):
        raise AttributeError("a Message is immutable")

    def __reduce__(self):
        return Message, (self.template, self.args)

    def render(self, gettext) -> str:
        """The message in the language of `gettext` (a catalog's gettext function)."""
        return gettext(self.template).format_map({k: render(v, gettext) for k, v in self.args.items()})


def M(template: str, **args) -> Message:
    """The message `template` with its values; the English text is `template.format(**args)`."""
    return Message(template, args)


def joined(messages):
    """Messages one after the other, `; ` between them, as one Message (each shown in the
    language of the run)."""
    out = messages[-1] if messages else ""
    for message in reversed(messages[:-1]):
        out = M("{first}; {rest}", first=message, rest=out)
    return out


def render(text, gettext):
    """`text` in the language of `gettext` if it is a Message; any other value as it is."""
    return text.render(gettext) if isinstance(text, Message) else text

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
