"""Settlement of a complete hand (RULES §2, §4, §6, §11, §12): pots, bonuses, side pots, nets.

Pure: a replayed hand in, a Settlement out. Money is integer cents; every settlement is
checked to balance to zero before it is returned (N8's conservation law).
"""

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .cards import SUIT, names
from .engine.found import Replay
from .engine.setup import Setup
from .engine.sides import Announcement, claim_void
from .engine.state import AUTO_WIN, DISQUALIFIED, NO_WINNER, GameState, Outcome
from .findings import M, warning
from .melds import has_a23
from .money import split
from .ranking import claim_strength


class SidePot:
    __slots__ = ("game", "stake", "players", "carry_in", "pot", "winners", "cards", "carry_out")

    def __init__(self, game: str, stake: int, players: list, carry_in: int, pot: int):
        self.game = game
        self.stake = stake
        self.players = players  # names
        self.carry_in = carry_in
        self.pot = pot
        self.winners: list[str] = []
        self.cards: list[str] = []  # the winning claim's cards, by name
        self.carry_out = 0


MAIN_POT = "main"  # the main pot's name among the pots; side pots are named by their game


class Transfer(NamedTuple):
    """One movement of money in a settled hand: `cents` from `payer` to `payee`, each a
    player's name or a pot (`pot:main`, `pot:oro`). The double entry of the scorebook."""

    kind: str     # ante, pot, bonus, side-stake, side-win, side-refund
    detail: str | None  # the bonus (mico, color, arriba-del-palo) or the side game
    payer: str
    payee: str
    cents: int


def pot_account(name: str) -> str:
    return "pot:" + name


class Settlement:
    __slots__ = ("pot", "carry_out", "bonuses", "side_games", "net", "warnings", "transfers")

    def __init__(self, pot: int, carry_out: int, bonuses: list, side_games: list, net: dict[str, int],
                 warnings: list, transfers: Sequence = ()) -> None:
        self.pot = pot
        self.carry_out = carry_out
        self.bonuses = bonuses        # (kind, from name, to name, cents)
        self.side_games = side_games  # SidePot
        self.net = net                # name -> cents
        self.warnings = warnings
        self.transfers = list(transfers)  # Transfer, in the order they happen


class Unbalanced(AssertionError):
    """A settlement that does not balance: a bug, never a player's error."""


def _shares(amount: int, winners: Sequence[int]) -> list:
    return list(zip(winners, split(amount, len(winners))))


def pots_at_stake(setup: Setup) -> dict:
    """{pot: (cents at stake, cents carried in)} of a hand, the main pot (MAIN_POT) first: this
    hand's antes and the pot carried in (R11.1, R2.3); each side game's stakes and what its pot
    carries in (R4.6), a game carried in that nobody entered this hand included."""
    pots = {MAIN_POT: (setup.carry + setup.bet * len(setup.players), setup.carry)}
    for e in setup.sides:
        carried = setup.side_carry.get(e.game, 0)
        pots[e.game] = (carried + e.stake * len(e.players), carried)
    for game, carried in setup.side_carry.items():
        pots.setdefault(game, (carried, carried))
    return pots


def main_pot(setup: Setup, outcome: Outcome) -> tuple[int, int, dict[int, int]]:
    """(pot, carry_out, {seat: cents won}) for R11.1, R11.6, R2.3."""
    pot = pots_at_stake(setup)[MAIN_POT][0]
    kind, winners = outcome.kind, outcome.winners
    if kind == NO_WINNER or not winners:
        return pot, pot, {}
    return pot, 0, dict(_shares(pot, winners))


def bonuses(setup: Setup, state: GameState, outcome: Outcome) -> list:
    """R12 (and R6.6 for automatic wins): (kind, payer seat, winner seat, cents) entries."""
    opts = setup.options
    kind, winners = outcome.kind, outcome.winners
    if not opts.todo or kind == NO_WINNER or not winners or setup.bet == 0:
        return []
    bet = setup.bet
    losers = [s for s in setup.order_from_dealer() if s not in winners
              and not (opts.dq_bonus == "exempt" and state.players[s].status == DISQUALIFIED)]
    entries = []
    if kind == AUTO_WIN:  # R6.6: Arriba del Palo from everyone, and nothing else
        for loser in losers:
            for winner, cents in _shares(bet, winners):
                entries.append(("arriba-del-palo", loser, winner, cents))
        return entries
    winner = winners[0]
    melds = state.players[winner].melds
    micos = sum(1 for m in melds if has_a23(m))
    color = len({SUIT[c] for m in melds for c in m}) == 1
    for loser in losers:
        entries += [("mico", loser, winner, bet)] * micos
        if color:
            entries.append(("color", loser, winner, bet))
        if not state.players[loser].laid:  # R12.3, R12.5, R13.3
            entries.append(("arriba-del-palo", loser, winner, bet))
    return entries


def side_pots(setup: Setup, state: GameState, announcements: Iterable[Announcement]) -> tuple[list, list]:
    """R4.6: the best valid claim wins each side pot; none carries or is refunded."""
    pots, warnings = [], []
    games = [(e.game, e.stake, e.players) for e in setup.sides]
    games += [(g, 0, []) for g in setup.side_carry if g not in {e.game for e in setup.sides}]
    order = setup.order_from_dealer()
    at_stake = pots_at_stake(setup)
    for game, stake, seats in games:
        cents, carry_in = at_stake[game]
        pot = SidePot(game, stake, [setup.players[s] for s in sorted(seats)], carry_in, cents)
        best: dict = {}  # seat -> (strength, cards)
        for ann in announcements:
            if ann.game != game:
                continue
            verdict = claim_void(setup, state, ann)
            if verdict and verdict.void:
                if not ann.void:  # void-at-announcement claims were reported already
                    message = M("{player}'s {game} claim is void: {reason}",
                                player=setup.players[ann.seat], game=game, reason=verdict.reason)
                    warnings.append(warning(ann.line, verdict.code, message))
                continue
            if verdict:
                message = M("{player}'s {game} claim cannot be verified: {reason}",
                            player=setup.players[ann.seat], game=game, reason=verdict.reason)
                warnings.append(warning(ann.line, verdict.code, message))
            strength = claim_strength(game, ann.cards, setup.options.escalera)
            if ann.seat not in best or strength > best[ann.seat][0]:
                best[ann.seat] = (strength, ann.cards)
        winners = []
        if best:
            top = max(v[0] for v in best.values())
            winners = [s for s in order if s in best and best[s][0] == top]
            pot.winners = [setup.players[s] for s in winners]
            pot.cards = names(best[winners[0]][1]).split()
        elif setup.options.side_nowin == "refund":
            pot.carry_out = carry_in  # this hand's stakes go back to their payers
        else:
            pot.carry_out = pot.pot
        pots.append((pot, seats, winners))
    return pots, warnings


def settle(setup: Setup, replay: Replay) -> Settlement:
    """Money for a complete hand (R11.4): every player's net, balanced to the cent.

    Every movement is a Transfer; the nets are what the transfers leave each player with."""
    state = replay.state
    outcome = state.outcome
    assert outcome is not None  # a complete hand is over
    players = setup.players
    net = {s: 0 for s in range(len(players))}
    transfers = []

    def move(kind: str, detail: str | None, payer: int | str, payee: int | str, cents: int) -> None:  # a seat or a pot
        if not cents:
            return
        transfers.append(Transfer(kind, detail, players[payer] if isinstance(payer, int) else pot_account(payer),
                                  players[payee] if isinstance(payee, int) else pot_account(payee), cents))
        if isinstance(payer, int):
            net[payer] -= cents
        if isinstance(payee, int):
            net[payee] += cents

    for s in range(len(players)):
        move("ante", None, s, MAIN_POT, setup.bet)
    pot, carry_out, won = main_pot(setup, outcome)
    for seat, cents in won.items():
        move("pot", None, MAIN_POT, seat, cents)
    entries = bonuses(setup, state, outcome)
    for kind, payer, winner, cents in entries:
        move("bonus", kind, payer, winner, cents)
    pots, warnings = side_pots(setup, state, replay.announcements)
    side_delta = 0
    for side, seats, winner_seats in pots:
        for s in seats:
            move("side-stake", side.game, s, side.game, side.stake)
        if winner_seats:
            for s, cents in _shares(side.pot, winner_seats):
                move("side-win", side.game, side.game, s, cents)
        elif setup.options.side_nowin == "refund":
            for s in seats:
                move("side-refund", side.game, side.game, s, side.stake)
        side_delta += side.carry_out - side.carry_in
    total = sum(net.values()) + (carry_out - setup.carry) + side_delta
    if total != 0:
        raise Unbalanced(f"settlement does not balance: {total} cents")
    return Settlement(
        pot=pot, carry_out=carry_out,
        bonuses=[(k, players[a], players[b], c) for k, a, b, c in entries],
        side_games=[p for p, _, _ in pots],
        net={players[s]: c for s, c in net.items()},
        warnings=warnings, transfers=transfers)
