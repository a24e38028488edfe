"""The table as it stood after a line (for `view`): pure data, no rendering.

Everything here is asked of the referee through its API (engine/queries.py): who may and
must take the card on offer, who draws next, the moves possible next. Nothing is worked
out again, so the view a dispute is settled by never disagrees with the verdict.
"""

from .cards import CARD_NAME
from .engine.replay import INVALID, Referee
from .engine.setup import read_setup
from .money import fmt


def _names(cards) -> list:
    return [CARD_NAME[c] for c in cards]


def table_at(record, until=None) -> dict:
    """The state of `record` after line `until` (the whole hand if None), as a plain dict.

    An invalid hand shows the table just before its error (N5.1), with the error."""
    setup, errors = read_setup(record)
    view = {"line": record.line, "after_line": until, "errors": [e.as_json() for e in errors[:1]]}
    if errors:
        view["status"] = INVALID
        return view
    ref = Referee(setup)
    played = ref.run(record.events, until)
    if played.errors:  # ask a referee that stopped just before the error line
        ref = Referee(setup)
        ref.run(record.events, played.errors[0].line - 1)
    names = setup.players
    offer, action, drawer, outcome = ref.offer(), ref.action(), ref.next_drawer(), ref.outcome
    view.update({
        "status": played.status,
        "last_line": played.last_line,
        "phase": ref.phase,
        "dealer": names[setup.dealer],
        "rules": setup.rules,
        "options": setup.options.as_json(),
        "bet": fmt(setup.bet), "carry_in": fmt(setup.carry),
        "errors": [e.as_json() for e in played.errors],
        "fouls": [f.as_json() for f in played.fouls],
        "warnings": [w.as_json() for w in played.warnings],
        "stock": ref.report.state.stock,
        "dead": _names(ref.report.state.dead),
        "players": [{"name": s.name, "status": s.status, "hand": _names(s.hand),
                     "unknown": s.unknown, "melds": [_names(m) for m in s.melds],
                     "up_the_tree": not s.laid, "cambio_done": s.cambio_done}
                    for s in ref.seats_view()],
        "offer": None if offer is None else {
            "card": CARD_NAME[offer.card], "by": names[offer.by],
            "how": "drawn" if offer.drawn else "paid",
            "may_take": [names[s] for s in offer.may_take],
            "must_take": names[offer.must_take] if offer.must_take >= 0 else None},
        "action": None if action is None else {
            "player": names[action.seat], "taken": CARD_NAME[action.taken], "owes": action.owes},
        "declared": ref.declared(),
        "next_draw": None if drawer is None or drawer[0] < 0 else {
            "player": names[drawer[0]], "rule": drawer[1]},
        "outcome": None if outcome is None else {
            "kind": outcome.kind, "winners": [names[s] for s in outcome.winners],
            "auto": outcome.auto, "line": outcome.line},
        "moves": [{"verb": m.verb, "player": m.player} for m in ref.moves()],
    })
    return view


def hand_span(hands, number: int, last_line: int) -> tuple:
    """(first, last) line of the file that belong to hand `number` (1-based): from its first
    line (line 1 for the first hand, so its leading comments count) to the line before the
    next hand, or the file's last line."""
    first = 1 if number == 1 else hands[number - 1].line
    last = hands[number].line - 1 if number < len(hands) else last_line
    return first, last


def hand_at(hands, line: int) -> int:
    """The number (1-based) of the hand that holds `line` of the file."""
    number = 1
    for i, h in enumerate(hands, 1):
        if h.line <= line:
            number = i
    return number
