"""Findings: errors, warnings and fouls as plain immutable values with a line and a rule code (N5).

NamedTuples rather than dataclasses: every command imports these, and a dataclass costs a
millisecond or more of start-up each (bench/bench_startup.py); `typing` is loaded by click
already."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

NGettext = Callable[[str, str, int], str]  # a catalog's ngettext: (one, many, n) -> the form for n


class Message(str):
    """A message as the engine writes it: the English text (the string itself: what `--json`
    prints and the tests read) made from a template and its values, both kept so that the
    shell can show the message in another language (`render`). The templates are marked
    with `M` (or `MN`, a message that counts) for the catalog (tools/catalog.py); a value may
    be a Message itself (a reason inside a reason). Made only when a finding is, which is
    rare: no cost per event."""

    template: str
    args: dict
    plural: str | None
    n: int | None

    def __new__(cls, template: str, args: dict, plural: str | None = None, n: int | None = None) -> "Message":
        english = template if plural is None or n == 1 else plural
        self = super().__new__(cls, english.format_map(args))
        self.__dict__.update(template=template, args=args, plural=plural, n=n)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Message is immutable")

    def __reduce__(self) -> tuple:
        return Message, (self.template, self.args, self.plural, self.n)

    def words(self, gettext: Callable[[str], str], ngettext: NGettext | None = None) -> str:
        """The template in the language of `gettext`; a message that counts takes its form
        for `n` from `ngettext` (by default the catalog's of `gettext`, see `render`)."""
        if self.plural is None:
            return gettext(self.template)
        assert self.n is not None  # a message that counts (MN) has its count
        return (ngettext or _ngettext_of(gettext))(self.template, self.plural, self.n)

    def render(self, gettext: Callable[[str], str], ngettext: NGettext | None = None) -> str:
        """The message in the language of `gettext` (a catalog's gettext function) and
        `ngettext` (its ngettext)."""
        return self.words(gettext, ngettext).format_map(
            {k: render(v, gettext, ngettext) for k, v in self.args.items()})


class Verbatim(str):
    """A value of a message shown exactly as written, whatever the output's style: a command
    to type (`show Beto Qd` keeps its `Qd`; cli/render.Style writes other cards with suits)."""


def M(template: str, **args: Any) -> Message:
    """The message `template` with its values; the English text is `template.format(**args)`."""
    return Message(template, args)


def MN(one: str, many: str, n: int, **args: Any) -> Message:
    """A message that counts, as `ngettext` takes it: `one` when `n` is 1, else `many` (in
    Spanish, the catalog's form for `n`): MN("{count} card", "{count} cards", k, count=k)."""
    return Message(one, args, many, n)


def listed(names: Iterable[str]) -> str:
    """Names in a sentence, as one Message: `Ana`, `Ana and Beto`, `Ana, Beto and Carla`
    (`y` in Spanish); "" for none (`listed(names) or M("nobody")`)."""
    names = list(names)
    if len(names) < 2:
        return names[0] if names else ""
    return M("{names} and {name}", names=", ".join(names[:-1]), name=names[-1])


def joined(messages: Sequence[str]) -> str:
    """Messages one after the other, `; ` between them, as one Message (each shown in the
    language of the run)."""
    out = messages[-1] if messages else ""
    for message in reversed(messages[:-1]):
        out = M("{first}; {rest}", first=message, rest=out)
    return out


def render(text: Any, gettext: Callable[[str], str], ngettext: NGettext | None = None) -> Any:
    """`text` in the language of `gettext` (and of `ngettext`, for a message that counts) if
    it is a Message; any other value as it is."""
    return text.render(gettext, ngettext) if isinstance(text, Message) else text


def reworded(text: Any, **values: Any) -> Any:
    """`text` with these values wherever it (or a message inside it) takes them: the words a
    front end says its own way — a message of the book names the command line's commands
    (`{prog}end`: `desmoche-ref end`), the table session its own (`end`)."""
    if not isinstance(text, Message):
        return text
    args = {k: values[k] if k in values else reworded(v, **values) for k, v in text.args.items()}
    return Message(text.template, args, text.plural, text.n)


# The commands a message of the book names, as the command line types them (the table
# session rewords them: cli/play.py)
COMMAND_LINE = {"prog": "desmoche-ref ", "new": "desmoche-ref hand new", "look": "desmoche-ref hand show"}
IN_SESSION = {"prog": "", "new": "new", "look": "state"}


def _ngettext_of(gettext: Callable[[str], str]) -> NGettext:
    """The ngettext of the catalog whose gettext is `gettext` (i18n.translations(lang).gettext);
    for another function, the English form for n, looked up with `gettext`."""
    ngettext: NGettext | None = getattr(getattr(gettext, "__self__", None), "ngettext", None)
    if ngettext is not None:
        return ngettext
    return lambda one, many, n: gettext(one if n == 1 else many)

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
