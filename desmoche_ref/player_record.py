"""A player's record over the hands of a season (pure: values in, values out).

The store reads the book (store/read/career.py) and feeds this: the complete hands in the order
they were played (each with its verdict), what the player's postings added up to per hand
and per kind, and the verdicts of the few hands whose details the columns do not hold (the
kind of an automatic win, the rule of a foul). Money is integer cents throughout.
"""

from datetime import date
from typing import NamedTuple

from .rating import AUTO_WIN, NO_WINNER, WIN


class SideGame(NamedTuple):
    played: int   # hands the player had a stake in it
    won: int      # pots (or shares of a split pot) taken
    net: int      # cents: stakes, wins and refunds together


class Night(NamedTuple):
    """A table's hands of one day (docs/rulings.md: the report's nights)."""

    table: str
    day: object
    hands: int
    net: int


class Record(NamedTuple):
    player: str
    hands: int                  # complete hands sat in
    wins: int                   # with ten cards down (R10)
    auto_wins: dict             # automatic win kind (R6.1) -> count
    no_winner: int              # hands sat in that nobody won
    bonuses_won: dict           # bonus -> [count, cents]
    bonuses_paid: dict          # bonus -> [count, cents paid, positive]
    fouls: dict                 # foul code (F1…F5) -> hands the player was disqualified by it
    side_games: dict            # game -> SideGame
    net: int                    # cents, every posting of the player
    best_night: Night | None
    worst_night: Night | None
    dry_run: int                # the longest run of hands in a row without a win
    rating: object              # rating.Standing after the last hand, or None (never ranked)
    curve: list                 # store.ratings.Point after each rated hand

    @property
    def all_wins(self) -> int:
        return self.wins + sum(self.auto_wins.values())

    @property
    def win_rate(self) -> float:
        return self.all_wins / self.hands if self.hands else 0.0

    @property
    def average_net(self) -> int:
        """Cents a hand, rounded half away from zero (the net over the complete hands)."""
        if not self.hands:
            return 0
        q, r = divmod(abs(self.net), self.hands)
        return (1 if self.net >= 0 else -1) * (q + (2 * r >= self.hands))


class Tally:
    """What the hands say of one player, fed hand by hand in the order played."""

    def __init__(self, name: str):
        self.name = name
        self.hands = self.wins = self.no_winner = 0
        self.dry = self.dry_run = 0
        self.auto_won: dict[int, list[str]] = {}  # hand id -> its winners, of the automatic wins the player took
        self.fouled: set[int] = set()    # ids of the hands a foul took the player out of
        self.nights: dict[tuple[str, date], list[int]] = {}   # (table, day) -> [hands, cents]
        self.order: list[tuple[str, date]] = []               # (table, day) in the order first played

    def hand(self, played) -> None:
        """One complete hand (store.ratings.Played), whoever sat in it."""
        if self.name not in played.players:
            return
        self.hands += 1
        won = self.name in played.winners
        if won and played.outcome == WIN:
            self.wins += 1
        elif won and played.outcome == AUTO_WIN:
            self.auto_won[played.id] = played.winners
        if played.outcome == NO_WINNER:
            self.no_winner += 1
        if self.name in played.fouled:
            self.fouled.add(played.id)
        self.dry = 0 if won else self.dry + 1
        self.dry_run = max(self.dry_run, self.dry)
        key = (played.table, played.day)
        if key not in self.nights:
            self.nights[key] = [0, 0]
            self.order.append(key)
        self.nights[key][0] += 1

    def money(self, table: str, day, cents: int) -> None:
        """The player's postings of a hand of that table and day (any hand: a refund on a
        table's last hand counts in its night too)."""
        key = (table, day)
        if key not in self.nights:
            self.nights[key] = [0, 0]
            self.order.append(key)
        self.nights[key][1] += cents

    def record(self, net, autos, fouls, bonuses, sides, rating, curve) -> Record:
        """The record, given what the postings and the verdicts of the hands named by
        `auto_won` and `fouled` say: `autos` {kind: count}, `fouls` {code: count}, `bonuses`
        ({kind: [count, cents]} won, {kind: [count, cents]} paid), `sides` {game: SideGame}."""
        nights = [Night(t, d, *self.nights[(t, d)]) for t, d in self.order if self.nights[(t, d)][0]]
        best = max(nights, key=lambda n: n.net, default=None)  # the first of equal nights
        worst = min(nights, key=lambda n: n.net, default=None)
        return Record(self.name, self.hands, self.wins, autos, self.no_winner, bonuses[0], bonuses[1],
                      fouls, sides, net, best, worst, self.dry_run, rating, curve)
