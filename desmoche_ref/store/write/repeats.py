"""A line sent twice is stored once (docs/rulings.md, "a line sent twice"): whether a line sent
to the hand being played is one of its standing moves sent again — a recorder re-sending a
file, two recorders typing the same move, a script run twice. Pure: the hand's standing lines
and the referee's word on the line in, the move it repeats (its number) out; the scorebook
(tablebook.TableBook.record) answers `already recorded (move N)` and stores nothing.

The line is compared with the moves in their canonical form (N7), its comment aside. It is
the move k it repeats when
- it is the move stored where its sender believes the hand is: `--expect N` and move N+1, or
  the next move of a hand `play` is being sent again (`position`); or
- its effect is already in the book, which the referee says: the line is refused now (a card
  cannot move twice, a player passes, cuts, passes in the cambio once, a deal line after the
  deal is over), or it changes nothing now (the table and the verdict as they were), or it
  would only add a claim or a declaration the hand holds already (announce, declare), a foul
  against a player already out by that foul (N4.8), or deal a player past nine a deal line
  the hand holds already.
A `knock` or a `claim` is made anew at each card on offer, and changes nothing at the table
(N4.3): it is the move it was only at its position, or when it is the hand's last move and
changes nothing (two recorders typing it); refused now, it stays refused.
"""

from ...engine.state import DISQUALIFIED

RECUR = ("knock", "claim")  # may be written again at each card on offer (N4.3)


def canonical(line: str) -> str:
    """A stored line without its comment (the writer puts ` #` before one, N7)."""
    return line.split(" #", 1)[0]


def at_position(lines, moves, text: str, index: int | None):
    """The move number of the standing move at `index` (0 the first) if it is `text`, else None."""
    if index is not None and 0 <= index < len(lines) and canonical(lines[index]) == text:
        return moves[index]
    return None


def repeated(ev, text: str, lines, moves, before, trial, finding, unchanged) -> int | None:
    """The move number of the standing move `text` (the line `ev`, canonical) repeats, or None.
    `before` is the referee of the hand as it stands, `trial` a fork of it that applied the line
    (refused with `finding`, None when accepted); `unchanged()` says whether the hand with the
    line once more gives exactly the verdict it gives now."""
    index = next((i for i in range(len(lines) - 1, -1, -1) if canonical(lines[i]) == text), None)
    if index is None:
        return None
    move = moves[index]
    if ev.verb in RECUR:  # a knock at the card on offer changes nothing: only the last move is it again
        last = index == len(lines) - 1
        return move if finding is None and last and before.same_table(trial) and unchanged() else None
    if finding is not None:
        return move
    if before.same_table(trial) and unchanged():
        return move
    if ev.verb in ("announce", "declare"):
        return move
    seat = before.seats.get(ev.actor)
    if seat is None:
        return None
    player = before.g.players[seat]
    if ev.verb == "foul" and player.status == DISQUALIFIED:
        return move
    if ev.verb == "deal" and player.dealt_total + len(ev.cards) > 9:
        return move
    return None
