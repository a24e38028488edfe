"""A night at a table (N9): a file's hands of one table checked for following on, and its money.

Pure: HandReports in, Session out. A file's hands of one table (the same `Table` tag, or
none), in the order written, are a session; a file may hold several, each followed on its
own. The laws they are held to (carries, the bet, the dealer, what a close returns) are
laws.py's, the same the book's import, live writer and `verify` apply.
"""

from dataclasses import dataclass, field

from . import laws
from .engine.replay import COMPLETE
from .engine.state import AUTO_WIN, WIN
from .findings import ERROR, M, listed
from .money import fmt
from .settle import MAIN_POT


@dataclass
class SessionRow:
    number: int
    line: int
    dealer: str
    outcome: str
    net: dict  # name -> cents (empty unless the hand is complete)
    table: str | None = None  # its Table tag


@dataclass
class Session:
    players: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    totals: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)  # (line, code, message): errors (N9.1, N9.2)
    warnings: list = field(default_factory=list)  # (line, code, message): warnings (N9.3)
    refund: dict = field(default_factory=dict)  # N9.4: carried pots returned when a table breaks up
    final: dict = field(default_factory=dict)   # totals + refund
    # Money the players' final totals do not balance without: (line, pot, cents, finding):
    # a pot brought in from before the record (+), or one that a hand carried out and the
    # next did not carry in (-, with its R2.3/R4.6 finding), or still carried at the end (-).
    unbalanced: list = field(default_factory=list)

    def ledger(self) -> list:
        """(label, cents) lines that sum to the players' final totals, the last being that
        sum; empty when the totals balance on their own."""
        if not self.unbalanced:
            return []
        lines = [(M("{pot}, line {line}: {why}", pot=_pot_name(pot), line=line, why=why), cents)
                 for line, pot, cents, why in self.unbalanced]
        lines.append((M("= the players' final totals, together"), sum(self.final.values())))
        return lines

    def running(self) -> list:
        """(row, the players' totals after its hand) for each hand in order: a hand that is not
        complete adds nothing; a player is in the totals from their first complete hand."""
        so_far: dict[str, int] = {}  # player -> cents
        out = []
        for row in self.rows:
            for p, cents in row.net.items():
                so_far[p] = so_far.get(p, 0) + cents
            out.append((row, dict(so_far)))
        return out

    def as_json(self) -> dict:
        return {"players": self.players,
                "hands": [{"hand": r.number, "line": r.line, "table": r.table, "dealer": r.dealer,
                           "outcome": r.outcome, "net": {p: fmt(c) for p, c in r.net.items()}}
                          for r in self.rows],
                "totals": {p: fmt(c) for p, c in self.totals.items()},
                "refund": {p: fmt(c) for p, c in self.refund.items()},
                "final": {p: fmt(c) for p, c in self.final.items()},
                "unbalanced": [{"line": l, "pot": p, "amount": fmt(c), "why": w}
                               for l, p, c, w in self.unbalanced],
                "problems": [{"line": l, "code": c, "message": m} for l, c, m in self.problems],
                "warnings": [{"line": l, "code": c, "message": m} for l, c, m in self.warnings]}


def _outcome_word(hand) -> str:
    if hand.status != COMPLETE:
        return M(hand.status)  # the word N8 writes: complete, incomplete, invalid
    kind, seats, auto, _ = hand.outcome
    who = listed(hand.setup.players[s] for s in seats)
    if kind == WIN:
        return M("{who} wins", who=who) if len(seats) == 1 else M("{who} win", who=who)
    return M("{who} ({auto})", who=who, auto=M(auto)) if kind == AUTO_WIN else M("no winner")


def _pot_name(pot: str):
    """A pot's name (the JSON's "main pot", "side pot oro") as a message."""
    if pot == "main pot":
        return M("main pot")
    return M("side pot {game}", game=pot[len("side pot "):])


def _pots(main: int, sides: dict) -> dict:
    """Pot name (as the JSON says it) -> cents, of the pots not empty."""
    pots = {"main pot": main} if main else {}
    pots.update((f"side pot {game}", cents) for game, cents in sides.items() if cents)
    return pots


class _AtTable:
    """One table's night so far: the laws' view of it (laws.Table), and the ledger's — the
    pots the last complete hand carried out (the players' totals count complete hands only)."""

    __slots__ = ("laws", "carried", "complete_seen", "carried_line")

    def __init__(self, number: int = 0):
        self.laws = laws.Table(number=number)
        self.carried: dict[str, int] = {}  # pot -> cents carried out of the last complete hand
        self.complete_seen = False  # a complete hand of this night
        self.carried_line = None    # the first line of that hand


class SessionNight:
    """A file's sessions built hand by hand, in order (`add`), then `finish`ed: it keeps the
    rows and, for each table, what the laws and the ledger need of its hands so far — not
    every hand's report."""

    def __init__(self):
        self.session = Session()
        self.number = 0
        self.tables = {}  # the Table tag (None: no tag) -> _AtTable
        self.done = False

    def add(self, hand) -> None:
        session = self.session
        self.number += 1
        s = hand.setup
        for p in s.players:
            if p not in session.players:
                session.players.append(p)
                session.totals[p] = 0
        settled = hand.settlement if hand.status == COMPLETE else None
        net = dict(settled.net) if settled else {}
        for p, cents in net.items():
            session.totals[p] += cents
        table = _table_tag(hand.record)
        dealer = s.players[s.dealer] if s.players and s.dealer >= 0 else "?"
        session.rows.append(SessionRow(self.number, hand.record.line, dealer, _outcome_word(hand), net, table))
        at = self.tables.setdefault(table, _AtTable())
        facts = laws.HandFacts.of_report(hand, self.number)
        for breach in laws.follow_on(at.laws, facts, laws.SESSION):
            found = session.problems if breach.severity == ERROR else session.warnings
            found.append((breach.line, breach.code, breach.message))
        if settled:
            self._follow_pots(at, hand, settled)
        at.laws = laws.follow(at.laws, facts)
        if at.laws.closed:  # [Closed "yes"]: the table breaks up here; a next hand starts another night
            self._break_up(at)
            self.tables[table] = _AtTable(at.laws.number)

    def _follow_pots(self, at, hand, settled) -> None:
        """Money between complete hands: what came in that the last one did not carry out."""
        line = hand.record.line
        came_in = _pots(hand.setup.carry, hand.setup.side_carry)
        for pot in sorted(set(came_in) | set(at.carried)):
            cents = came_in.get(pot, 0) - at.carried.get(pot, 0)
            if not cents:
                continue
            if not at.complete_seen:
                why = M("brought in from before the record")
            else:
                found = [M("{code} {message}", code=code, message=message)
                         for where, code, message in self.session.problems
                         if where == line and code in ("R2.3", "R4.6")]
                what = (M("carried in, more than the hand before carried out") if cents > 0
                        else M("carried out by the hand before and not carried in"))
                why = M("{what}: {finding}", what=what, finding=found[0]) if found else what
            self.session.unbalanced.append((line, pot, cents, why))
        at.carried = _pots(settled.carry_out, {p.game: p.carry_out for p in settled.side_games})
        at.complete_seen, at.carried_line = True, line

    def _break_up(self, at) -> None:
        """The table broke up after its last hand (N9.4): the pots still carried go back as
        R11.5 says; what they do not account for is unbalanced."""
        session = self.session
        for game, shares in laws.returns(at.laws).items():
            pot = "main pot" if game == MAIN_POT else f"side pot {game}"
            for p, cents in shares.items():
                session.refund[p] = session.refund.get(p, 0) + cents
            at.carried[pot] = at.carried.get(pot, 0) - sum(shares.values())
        for pot, cents in at.carried.items():
            if cents:
                session.unbalanced.append((at.carried_line, pot, -cents,
                                           M("still carried after the last complete hand")))
        at.carried = {}

    def finish(self) -> Session:
        """The end of the file is not the end of a table (N9.4): what a table's last hand
        carries out is still carried, nothing is returned."""
        if self.done:
            return self.session
        self.done = True
        session = self.session
        for at in self.tables.values():
            for pot, cents in at.carried.items():
                session.unbalanced.append((at.carried_line, pot, -cents, M(
                    "still carried: the table did not break up (no [Closed \"yes\"], N9.4)")))
        session.final = {p: session.totals[p] + session.refund.get(p, 0) for p in session.players}
        return session

    def as_json(self) -> dict:
        return self.finish().as_json()


def _table_tag(record):
    """The hand's Table tag (N9: a file's hands of one table are a session), or None."""
    tag = record.tag("Table")
    return tag.value.strip() or None if tag is not None else None


def check_session(report) -> Session:
    night = SessionNight()
    for hand in report.hands:
        night.add(hand)
    return night.finish()
