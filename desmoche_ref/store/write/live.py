"""What the live book says besides the referee's word on a line (docs/rulings.md): the refusals a
table makes that a record may hold, the findings said at the move that causes them, and the
provisional ones left out while they may still change. Pure: the referee and its findings in,
findings out; the scorebook (tablebook.TableBook) asks."""

from ...engine.queries import DEAL_MOVES
from ...findings import MN, M, error, listed, warning


def at_the_table(ref, ev, finding):
    """The finding a line gets at the table: the engine's (`finding`, None when it accepts
    the line), except what a record may hold but a table cannot do (docs/rulings.md):
    - a line ending the deal while a player is dealt no card and no misdeal is called is R3.3
      — at the table that is a deal line forgotten, not the misdeal (F1, then R3.5) a record
      holding it shows; `foul DEALER misdeal` first records one;
    - `foul P peek` (F2: looking through the cards that have gone by) while the discard pile
      is empty is R14.2: nothing has gone by yet.
    A line the engine refuses for another reason keeps that reason."""
    missing = ref.undealt()
    if missing and ev.verb not in DEAL_MOVES and (finding is None or finding.code == "R3.5"):
        return error(ev.line, "R3.3", MN(
            "the deal is not done: {players} has no card yet; the deal lines come first (`deal {player} …`)",
            "the deal is not done: {players} have no card yet; the deal lines come first (`deal {player} …`)",
            len(missing), players=listed(missing), player=missing[0]))
    if finding is None and ev.verb == "foul" and ev.word == "peek" and not ref.discard_pile():
        return error(ev.line, "R14.2", M("F2 is looking through the discard pile, and no card has gone by "
                                         "yet: nothing to peek at (`foul {player} other WORDS` names another "
                                         "foul)", player=ev.actor))
    return finding


def standing_findings(moved, report, ref, closed: bool) -> list:
    """(move, line, code, message) of the hand's findings, `moved` citing moves and `report`
    lines; a hand still open leaves out the void of a claim that a `show` may still make count
    (R4.5): beside "still to be shown" it would contradict it (it is void only if the hand
    closes without the show)."""
    pending = set() if closed else {(p.player, p.game) for p in ref.pending_claims()}

    def provisional(code, message) -> bool:
        args = getattr(message, "args", {})
        return code == "R4.5" and (args.get("player"), args.get("game")) in pending

    return [(seq, line, code, message) for (seq, code, message), (line, _c, _m)
            in zip(moved.findings(), report.findings()) if not provisional(code, message)]


def claims_made_void(before, after, seq: int) -> list:
    """The warnings of the side-game claims the move `seq` made void (R4.4: a card passed in
    the cambio, say), said at that move: the verdict cites them at their announcement."""
    was = before.void_claims()
    return [warning(seq, code, M("{player}'s {game} claim is void: {reason}", player=player, game=game,
                                 reason=reason))
            for player, game, code, reason in after.void_claims() if (player, game, code, reason) not in was]
