"""A record of a night, turned into what a recorder would type into `play`: before each hand
a `new` line with that hand's side games (the first also names its dealer), then the hand's
event lines as written. For feeding paper records into a book move by move, and for the tests
and the benchmark, which check that the book ends where `check` does."""

import shlex

from ..engine.setup import read_setup
from ..notation.parser import parse_text


def night_script(text: str):
    """(Setup of the first hand: the table to open, [lines to type]) for a record of
    consecutive hands at one table. The deal rotation and the carried pots are left to the
    session (R3.1, R2.3), as at a real table; the record's own tags should agree with them."""
    lines = text.splitlines()
    hands = parse_text(text).hands
    first, errors = read_setup(hands[0])
    if errors:
        raise ValueError(f"line {errors[0].line}: {errors[0].code} {errors[0].message}")
    out = []
    for number, hand in enumerate(hands, 1):
        options = [f"--dealer {first.players[first.dealer]}"] if number == 1 else []
        sides = [t.value for t in hand.tags if t.name == "Side"]
        options += [f"--side {shlex.quote(side)}" for side in sides] or ["--no-sides"]
        out.append("new " + " ".join(options))
        out += [lines[ev.line - 1].strip() for ev in hand.events]
    return first, out
