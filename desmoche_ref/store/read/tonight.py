"""Tonight at a table: which of its hands make the night the live board shows (issue 34).

A table is used night after night; the board shows the current night only. The one rule
(`night_start`, pure; docs/rulings.md): the night is the table's latest hand and the hands
before it back to the first gap of more than `GAP` — a live hand belongs to the night of
the next if it ended less than `GAP` before that one was dealt; an imported hand, whose
record gives only its day (its `Date`), to the night of a hand of the same day. A night is
tonight while it is going on: its latest hand changed less than `GAP` ago (an imported one:
played today, or the day `GAP` ago was). Every figure of the night is then the book's own,
over the hands from its first on: the nets and counts are `league.standings` of those hands,
the settle-up `settleup.settle_up` of their balances (a pot carried on left with who put it
in: store/read/pots.py, as `settle-up` does), each settled hand what its postings
moved (hands.night_postings), each voided hand its reason (league.voided).
"""

from datetime import date, datetime, timedelta, timezone
from typing import NamedTuple

GAP = timedelta(hours=4)  # a pause longer than this between two hands at a table ends a night


class Played(NamedTuple):
    """A hand of a table, as the night reads it."""

    number: int
    day: date            # the day it was played (its Date; league.played_day)
    start: datetime      # when it was dealt (aware); an imported hand: its Date at midnight UTC
    end: datetime        # when it last changed: closed, else its last move, else dealt
    imported: bool       # its record gives only its day


def night_start(hands, now: datetime, gap: timedelta = GAP):
    """The number of the first hand of the table's night going on at `now` (aware), or None
    when none is: `hands` (Played) in the order of their numbers."""
    if not hands:
        return None
    first = hands[-1]
    if first.imported:
        local = now.astimezone()
        if first.day not in (local.date(), (local - gap).date()):
            return None
    elif now - first.end > gap:
        return None
    for earlier in reversed(hands[:-1]):
        if not _same_night(earlier, first, gap):
            break
        first = earlier
    return first.number


def _same_night(earlier: Played, later: Played, gap: timedelta) -> bool:
    if earlier.imported or later.imported:
        return earlier.day == later.day
    return later.start - earlier.end <= gap


class Tonight(NamedTuple):
    """A table's night on the board."""

    first: int | None    # the number of its first hand (None: no hand tonight)
    since: datetime | None  # when that hand was dealt
    hands: list          # hands.NightHand of each settled hand, in order
    voided: dict         # {number: the reason} of each hand voided (`hand void`)
    standings: object    # league.Standings over the night's hands (`standings --table` of them)
    transfers: list      # settleup.Transfer: the night's settle-up now


def tonight(session, table_id: int, name: str, now: datetime | None = None) -> Tonight:
    """The night going on at the table (its id and name) at `now` (default: this moment)."""
    from ...settleup import owned, settle_up
    from .hands import night_postings
    from .league import POT_PARTY, Selection, Standings, balances_of, standings, voided
    from .pots import held_pots

    hands = played(session, table_id)
    first = night_start(hands, now or datetime.now(timezone.utc))
    if first is None:
        return Tonight(None, None, [], {}, Standings([], 0, 0), [])
    sel = Selection(table=name, first=first)
    night = standings(session, sel)
    settled = [h for h in night_postings(session, table_id)[0] if h.number >= first]
    reasons = {number: reason for (_table, number), reason in voided(session, sel).items()}
    since = next(h.start for h in hands if h.number == first)
    owed = owned(balances_of(night), *held_pots(session, sel), POT_PARTY)  # a carried pot left where it is
    return Tonight(first, since, settled, reasons, night, settle_up(owed))


def played(session, table_id: int) -> list:
    """Played of every hand of the table, by number: a few columns of its hands and the time
    of the last move of each open one (two queries on the tables' keys)."""
    from sqlalchemy import func, select

    from .league import event, hand, played_day

    h, e = hand.c, event.c
    rows = session.execute(select(h.id, h.number, h.opened, h.closed, h.source)
                           .where(h.table_id == table_id).order_by(h.number)).all()
    open_ids = [r.id for r in rows if r.closed is None]
    moved = dict(session.execute(select(e.hand_id, func.max(e.entered)).where(e.hand_id.in_(open_ids))
                                 .group_by(e.hand_id)).all()) if open_ids else {}
    out = []
    for r in rows:
        start = _aware(r.opened)
        ends = [start] + [_aware(t) for t in (r.closed, moved.get(r.id)) if t is not None]
        out.append(Played(r.number, played_day(r.opened, r.source), start, max(ends), r.source == "import"))
    return out


def _aware(when: datetime) -> datetime:
    """A stored time, aware (SQLite gives back naive UTC)."""
    return when.replace(tzinfo=timezone.utc) if when.utcoffset() is None else when
