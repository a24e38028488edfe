"""Table options and presets (R15)."""

from functools import lru_cache
from typing import Any

from .findings import M, Message

SWITCHES = ("todo", "strict", "forcing", "auto", "hand-melds")
CHOICES = {
    "color": ("color", "suit", "off"),
    "escalera": ("a23-high", "a23-low"),
    "side-nowin": ("carry", "refund"),
    "dq-bonus": ("pay", "exempt"),
}
PRESETS = ("desmoche", "conquien")
ON = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


class RuleOptions:
    """The options a hand is judged by (R15). Immutable: `replace` makes a changed copy."""

    __slots__ = ("todo", "strict", "forcing", "auto", "hand_melds", "color", "escalera",
                 "side_nowin", "dq_bonus")
    todo: bool
    strict: bool
    forcing: bool
    auto: bool
    hand_melds: bool
    color: str       # color, suit or off
    escalera: str    # a23-high or a23-low
    side_nowin: str  # carry or refund
    dq_bonus: str    # pay or exempt
    DEFAULTS = (False, False, False, True, True, "color", "a23-high", "carry", "pay")

    def __init__(self, **values: Any) -> None:
        for name, default in zip(self.__slots__, self.DEFAULTS):
            object.__setattr__(self, name, values.pop(name, default))
        if values:
            raise TypeError(f"unknown options: {', '.join(values)}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("RuleOptions are immutable: use replace()")

    def replace(self, **changes: Any) -> "RuleOptions":
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return RuleOptions(**values)

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleOptions) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"RuleOptions({self.describe()})"

    def as_json(self) -> dict:
        """Every option by its R15 name, in the order of N8's example."""
        return {name.replace("_", "-"): getattr(self, name) for name in self.__slots__}

    def changes_from(self, preset_name: str) -> str:
        """The Options tag text that gives these options over a preset ("" if none)."""
        base = preset(preset_name)
        words = []
        for name in self.__slots__:
            value = getattr(self, name)
            if value != getattr(base, name):
                key = name.replace("_", "-")
                words.append(key if value is True else f"{key}=off" if value is False else f"{key}={value}")
        return " ".join(words)

    def describe(self) -> str:
        return " ".join(f"{k}={'on' if v is True else 'off' if v is False else v}"
                        for k, v in self.as_json().items())


def preset(name: str) -> RuleOptions:
    # Conquién (R6.7, R12.6): no automatic wins; no bonuses (todo is off by default anyway).
    return RuleOptions(auto=False) if name == "conquien" else RuleOptions()


@lru_cache(maxsize=256)
def parse_options(preset_name: str, text: str) -> tuple[RuleOptions | None, Message | None]:
    """(RuleOptions, None) or (None, reason) for an `Options` tag value over a preset."""
    opts = preset(preset_name)
    changes: dict[str, bool | str] = {}
    for word in text.split():
        key, _, value = word.lower().partition("=")
        attr = key.replace("-", "_")
        if key in SWITCHES:
            if not value:
                changes[attr] = True
            elif value in ON:
                changes[attr] = ON[value]
            else:
                return None, M("option {key} is on or off, not {value!r}", key=key, value=value)
        elif key in CHOICES:
            if value not in CHOICES[key]:
                allowed = " / ".join(CHOICES[key])
                return None, M("option {key} takes {allowed}, not {value!r}",
                               key=key, allowed=allowed, value=value) \
                    if value else M("option {key} needs a value: {key}={value}",
                                    key=key, value=CHOICES[key][0])
            changes[attr] = value
        else:
            return None, M("unknown option {word!r} (options: {items})", word=word,
                           items=", ".join(SWITCHES + tuple(CHOICES)))
    return opts.replace(**changes), None
