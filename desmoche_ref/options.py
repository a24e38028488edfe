"""Table options and presets (R15)."""

from dataclasses import dataclass, fields, replace
from functools import lru_cache

SWITCHES = ("todo", "strict", "forcing", "auto", "hand-melds")
CHOICES = {
    "color": ("color", "suit", "off"),
    "escalera": ("a23-high", "a23-low"),
    "side-nowin": ("carry", "refund"),
    "dq-bonus": ("pay", "exempt"),
}
PRESETS = ("desmoche", "conquien")
ON = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


@dataclass(frozen=True)
class RuleOptions:
    todo: bool = False
    strict: bool = False
    forcing: bool = False
    auto: bool = True
    hand_melds: bool = True
    color: str = "color"
    escalera: str = "a23-high"
    side_nowin: str = "carry"
    dq_bonus: str = "pay"

    def as_json(self) -> dict:
        """Every option by its R15 name, in the order of N8's example."""
        order = ("todo", "strict", "forcing", "auto", "hand-melds", "color", "escalera",
                 "side-nowin", "dq-bonus")
        return {name: getattr(self, name.replace("-", "_")) for name in order}

    def describe(self) -> str:
        return " ".join(f"{k}={'on' if v is True else 'off' if v is False else v}"
                        for k, v in self.as_json().items())


FIELD_NAMES = {f.name for f in fields(RuleOptions)}


def preset(name: str) -> RuleOptions:
    # Conquién (R6.7, R12.6): no automatic wins; no bonuses (todo is off by default anyway).
    return RuleOptions(auto=False) if name == "conquien" else RuleOptions()


@lru_cache(maxsize=256)
def parse_options(preset_name: str, text: str):
    """(RuleOptions, None) or (None, reason) for an `Options` tag value over a preset."""
    opts = preset(preset_name)
    changes = {}
    for word in text.split():
        key, _, value = word.lower().partition("=")
        attr = key.replace("-", "_")
        if key in SWITCHES:
            if not value:
                changes[attr] = True
            elif value in ON:
                changes[attr] = ON[value]
            else:
                return None, f"option {key} is on or off, not {value!r}"
        elif key in CHOICES:
            if value not in CHOICES[key]:
                allowed = " / ".join(CHOICES[key])
                return None, f"option {key} takes {allowed}, not {value!r}" if value else \
                    f"option {key} needs a value: {key}=" + CHOICES[key][0]
            changes[attr] = value
        else:
            return None, f"unknown option {word!r} (options: {', '.join(SWITCHES + tuple(CHOICES))})"
    return replace(opts, **changes), None
