"""A night at one table (R2.3, R3.1): consecutive hands of a file checked for continuity.

Pure: FileReport in, Session out. Hand k+1 must be dealt by the player to the right of
hand k's dealer, carry in exactly what hand k carried out (main pot and every side pot),
and keep the bet while a pot is carried.
"""

from dataclasses import dataclass, field

from .engine.replay import COMPLETE
from .engine.state import AUTO_WIN, WIN
from .findings import M, listed
from .money import fmt
from .settle import MAIN_POT


@dataclass
class SessionRow:
    number: int
    line: int
    dealer: str
    outcome: str
    net: dict  # name -> cents (empty unless the hand is complete)


@dataclass
class Session:
    players: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    totals: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)  # (line, code, message)
    refund: dict = field(default_factory=dict)  # R11.5: carried pots returned when the table breaks up
    final: dict = field(default_factory=dict)   # totals + refund
    # Money the players' final totals do not balance without: (line, pot, cents, finding):
    # a pot brought in from before the record (+), or one that a hand carried out and the
    # next did not carry in (-, with its R2.3/R4.6 finding), or still carried at the end.
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
        so_far, out = {}, []
        for row in self.rows:
            for p, cents in row.net.items():
                so_far[p] = so_far.get(p, 0) + cents
            out.append((row, dict(so_far)))
        return out

    def as_json(self) -> dict:
        return {"players": self.players,
                "hands": [{"hand": r.number, "line": r.line, "dealer": r.dealer, "outcome": r.outcome,
                           "net": {p: fmt(c) for p, c in r.net.items()}} for r in self.rows],
                "totals": {p: fmt(c) for p, c in self.totals.items()},
                "refund": {p: fmt(c) for p, c in self.refund.items()},
                "final": {p: fmt(c) for p, c in self.final.items()},
                "unbalanced": [{"line": l, "pot": p, "amount": fmt(c), "why": w}
                               for l, p, c, w in self.unbalanced],
                "problems": [{"line": l, "code": c, "message": m} for l, c, m in self.problems]}


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


def _pots(hand, key):
    """Pot name -> cents carried in (`key` "in") or out ("out") of a complete hand."""
    st = hand.settlement
    main = hand.setup.carry if key == "in" else st.carry_out
    pots = {"main pot": main} if main else {}
    for p in st.side_games:
        cents = p.carry_in if key == "in" else p.carry_out
        if cents:
            pots[f"side pot {p.game}"] = cents
    return pots


class Night:
    """A night's session built hand by hand, in order (`add`), then `finish`ed: it keeps
    the rows and the last hands a carried pot runs through, not every hand's report."""

    def __init__(self):
        self.session = Session()
        self.number = 0
        self.previous = None
        self.carried = {}  # pot -> cents carried out of the last complete hand
        self.complete_seen = False
        self.last_complete_line = None
        self.tail = []  # the hands a pot still carried runs back through (R11.5)
        self.opening = 1  # the number of the table's first hand here (a Closed tag starts another)
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
        net = {}
        if settled:
            for p, cents in settled.net.items():
                net[p] = cents
                session.totals[p] += cents
        dealer = s.players[s.dealer] if s.players and s.dealer >= 0 else "?"
        session.rows.append(SessionRow(self.number, hand.record.line, dealer, _outcome_word(hand), net))
        if self.previous is not None:
            _continuity(session, self.previous, hand)
        self.previous = hand
        if settled:
            self._follow_pots(hand)
            carries = settled.carry_out or any(p.carry_out for p in settled.side_games)
            self.tail = self.tail + [hand] if carries and self.tail else [hand]
        else:
            self.tail = [hand]
        if s.closed:  # [Closed "yes"]: the table breaks up here; a next hand starts another
            self._break_up()
            self.previous, self.complete_seen, self.opening = None, False, self.number + 1

    def _follow_pots(self, hand) -> None:
        """Money between complete hands: what came in that the last one did not carry out."""
        line = hand.record.line
        came_in = _pots(hand, "in")
        for pot in sorted(set(came_in) | set(self.carried)):
            cents = came_in.get(pot, 0) - self.carried.get(pot, 0)
            if not cents:
                continue
            if not self.complete_seen and self.number == self.opening:
                why = M("brought in from before the record")
            else:
                found = [M("{code} {message}", code=code, message=message)
                         for at, code, message in self.session.problems
                         if at == line and code in ("R2.3", "R4.6")]
                what = (M("carried in, more than the hand before carried out") if cents > 0
                        else M("carried out by the hand before and not carried in"))
                why = M("{what}: {finding}", what=what, finding=found[0]) if found else what
            self.session.unbalanced.append((line, pot, cents, why))
        self.carried = _pots(hand, "out")
        self.complete_seen = True
        self.last_complete_line = line

    def finish(self) -> Session:
        if self.done:
            return self.session
        self.done = True
        session = self.session
        self._break_up()
        session.final = {p: session.totals[p] + session.refund.get(p, 0) for p in session.players}
        return session

    def _break_up(self) -> None:
        """The table breaks up (a Closed tag, or the end of the record): the pots still
        carried go back as R11.5 says; what they do not account for is unbalanced."""
        session = self.session
        refund = returned_carry(self.tail)
        for p, cents in refund.items():
            session.refund[p] = session.refund.get(p, 0) + cents
        left = sum(self.carried.values()) - sum(refund.values())
        if left:
            session.unbalanced.append((self.last_complete_line, "carried pots", -left,
                                       "still carried after the last complete hand"))
        self.carried, self.tail = {}, []

    def as_json(self) -> dict:
        return self.finish().as_json()


def check_session(report) -> Session:
    night = Night()
    for hand in report.hands:
        night.add(hand)
    return night.finish()


def _pot_shares(hands, carried_out, put_in):
    """What each player put into a pot carried out of the last hand: walk back the hands it
    carried through. `carried_out(hand)` is the pot a hand carried out, `put_in(hand)` maps
    names to what they put in during that hand and gives the pot's carry_in."""
    shares = {}
    for hand in reversed(hands):
        if hand.status != COMPLETE or not carried_out(hand):
            break
        carry_in, paid = put_in(hand)
        for name, cents in paid.items():
            shares[name] = shares.get(name, 0) + cents
        if not carry_in:
            break
    return shares


def _in_proportion(amount, shares, order):
    """Split `amount` in proportion to `shares` (R11.5), exactly: leftover cents one each in `order`."""
    total = sum(shares.values())
    if not total:
        return {}
    out = {p: amount * c // total for p, c in shares.items()}
    left = amount - sum(out.values())
    for p in [p for p in order if p in shares][:left]:
        out[p] += 1
    return out


def returned_carry(hands) -> dict:
    """R11.5: pots still carried after the last hand go back in proportion to what each put in.

    A pot carried in from before the record is returned with the rest, in proportion to what
    the record shows each player put in (docs/rulings.md)."""
    refund = {}
    for shares in returned_pots(hands).values():
        for p, c in shares.items():
            refund[p] = refund.get(p, 0) + c
    return refund


def returned_pots(hands) -> dict:
    """R11.5 pot by pot: {pot name (MAIN_POT or the side game): {player: cents returned}}."""
    if not hands or hands[-1].status != COMPLETE:
        return {}
    last = hands[-1]
    order = [last.setup.players[s] for s in last.setup.order_from_dealer()]
    refund = {}
    main = last.settlement.carry_out
    if main:
        shares = _pot_shares(hands, lambda h: h.settlement.carry_out,
                             lambda h: (h.setup.carry, {p: h.setup.bet for p in h.setup.players}))
        refund[MAIN_POT] = _in_proportion(main, shares, order)
    for pot in last.settlement.side_games:
        if not pot.carry_out:
            continue
        game = pot.game

        def carried(h, game=game):
            return next((q.carry_out for q in h.settlement.side_games if q.game == game), 0)

        def paid(h, game=game):
            entry = next((q for q in h.settlement.side_games if q.game == game), None)
            if entry is None:
                return 0, {}
            return entry.carry_in, {p: entry.stake for p in entry.players}

        refund[game] = _in_proportion(pot.carry_out, _pot_shares(hands, carried, paid), order)
    return refund


def _continuity(session, before, hand):
    line = hand.record.line
    a, b = before.setup, hand.setup
    problems = session.problems
    if not a.players or not b.players:
        return
    if a.players != b.players:
        problems.append((line, "R3.1", M("the players changed ({before} → {after}): the rotation "
                                         "cannot be checked",
                                         before=" ".join(a.players), after=" ".join(b.players))))
    elif a.dealer >= 0 and b.dealer != (a.dealer + 1) % len(a.players):
        expected = a.players[(a.dealer + 1) % len(a.players)]
        problems.append((line, "R3.1", M("the deal passes to the right: {player} deals this hand, "
                                         "not {player2}",
                                         player=expected, player2=b.players[b.dealer])))
    if before.status != COMPLETE:
        problems.append((line, "R2.3", M("the hand before (line {line}) is {status}: what it "
                                         "carries cannot be known",
                                         line=before.record.line, status=M(before.status))))
        return
    settled = before.settlement
    if b.carry != settled.carry_out:
        problems.append((line, "R2.3", M("Carry is {carry} but the hand before carried out "
                                         "{carried}",
                                         carry=fmt(b.carry), carried=fmt(settled.carry_out))))
    if settled.carry_out and b.bet != a.bet:
        problems.append((line, "R2.3", M("the bet changed from {before} to {after} while a pot of "
                                         "{pot} is carried",
                                         before=fmt(a.bet), after=fmt(b.bet), pot=fmt(settled.carry_out))))
    carried = {p.game: p.carry_out for p in settled.side_games if p.carry_out}
    for game in sorted(set(carried) | set(b.side_carry)):
        if carried.get(game, 0) != b.side_carry.get(game, 0):
            problems.append((line, "R4.6", M("SideCarry for {game} is {carry} but the hand before "
                                             "carried out {carried}",
                                             game=game, carry=fmt(b.side_carry.get(game, 0)),
                                             carried=fmt(carried.get(game, 0)))))
