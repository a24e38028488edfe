"""A stored hand judged again from its exported record, as `check` judges it, and the table
after each of its moves, as `view --at` shows it: one referee fed move by move gives both
(view.table_steps), so the hand is replayed once. Pure: text in, values out.

The replay says whose turn it is where it writes the whole table (handtext.py: at the first
move, after each pay and at the last): only there is the referee asked for the whole view;
at the other moves, for what lies on the table (view.lying)."""

from typing import NamedTuple

from ..engine.replay import Referee
from ..engine.setup import read_setup
from ..notation.parser import parse_text
from ..referee import HandReport, hand_report, judge_hand
from ..view import table_course

PRE_PLAY = ("pre-play",)  # the only phase whose words (the cambio waited for) need the moves


class Step(NamedTuple):
    move: int    # 1, 2, … : the hand's moves, as the scorebook numbers them
    line: int    # the line of the exported record (what `view --at` is given)
    lie: object  # view.Lying: what lies on the table after that line
    view: dict | None  # view.table_at's dict after that line, where the replay writes the whole table


class Judged(NamedTuple):
    record: object   # notation HandRecord
    report: object   # referee.HandReport
    steps: list      # Step


def whole_at(index: int, event) -> bool:
    """Whether the replay writes the whole table after this move: the first, and each pay
    (a turn's end: the card it pays goes on offer to the others)."""
    return index == 0 or event.verb == "pay"


def judge(text: str, replay: bool = True) -> Judged:
    """The verdict on a hand's record text and (with `replay`) the table after each of its moves."""
    record = parse_text(text).hands[0]
    if not replay:
        return Judged(record, judge_hand(record), [])
    setup, errors = read_setup(record)
    if errors:
        return Judged(record, HandReport(record, setup, None, setup_error=errors[0]), [])
    ref = Referee(setup)
    steps = [Step(n, ev.line, lie, view)
             for n, (ev, lie, view) in enumerate(table_course(record, PRE_PLAY, ref, whole_at), 1)]
    return Judged(record, hand_report(record, setup, ref.report), steps)
