"""The table as it stood after a line (for `view`): pure data, no rendering.

Everything here is asked of the referee through its API (engine/queries.py): who may and
must take the card on offer, who draws next, the moves possible next. Nothing is worked
out again, so the view a dispute is settled by never disagrees with the verdict.
"""

from typing import NamedTuple

from .cards import CARD_NAME
from .engine.queries import Offer
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
    view.update(referee_view(ref, setup, played))
    return view


def setup_view(setup) -> dict:
    """What the view says of a hand's setup (the same after every line)."""
    return {"dealer": setup.players[setup.dealer], "rules": setup.rules, "options": setup.options.as_json(),
            "bet": fmt(setup.bet), "carry_in": fmt(setup.carry)}


def referee_view(ref, setup, played, moves=True, fixed=None, lie=None) -> dict:
    """The table as the referee `ref` of `setup` has it now, with `played`'s status, findings
    and last line (a Replay): every key of `table_at` but its header. `moves=False` leaves
    the moves possible next out (an empty list): of the queries they cost the most.
    `fixed`: the setup's part (setup_view), when the caller has it already; `lie`: what lies
    on the table (lying(ref)), when the caller has asked already."""
    names = setup.players
    action, drawer, outcome = ref.action(), ref.next_drawer(), ref.outcome
    return {
        "status": played.status,
        "last_line": played.last_line,
        "phase": ref.phase,
        **(fixed or setup_view(setup)),
        "errors": [e.as_json() for e in played.errors],
        "fouls": [f.as_json() for f in played.fouls],
        "warnings": [w.as_json() for w in played.warnings],
        **table_part(ref, lie),
        "action": None if action is None else {
            "player": names[action.seat], "taken": CARD_NAME[action.taken], "owes": action.owes},
        "declared": ref.declared(),
        "next_draw": None if drawer is None or drawer[0] < 0 else {
            "player": names[drawer[0]], "rule": drawer[1]},
        "outcome": None if outcome is None else {
            "kind": outcome.kind, "winners": [names[s] for s in outcome.winners],
            "auto": outcome.auto, "line": outcome.line},
        "moves": [{"verb": m.verb, "player": m.player} for m in ref.moves()] if moves else [],
    }


class Lying(NamedTuple):
    """What lies on the table as the referee answers it, the cards as numbers (cards.py's):
    the stock, the discard pile, each seat (engine.queries.Seat) and the card on offer
    (engine.queries.Offer, or None). table_part says it in names."""

    stock: int
    dead: tuple
    seats: tuple
    offer: Offer | None


def lying(ref) -> Lying:
    return Lying(ref.report.state.stock, tuple(ref.report.state.dead), tuple(ref.seats_view()), ref.offer())


def seat_part(s) -> dict:
    """A seat (engine.queries.Seat) as the view says it."""
    return {"name": s.name, "status": s.status, "hand": _names(s.hand), "unknown": s.unknown,
            "melds": [_names(m) for m in s.melds], "up_the_tree": not s.laid, "cambio_done": s.cambio_done}


def offer_part(offer, names) -> dict | None:
    """The card on offer (engine.queries.Offer or None) as the view says it; `names`: the seats'."""
    return None if offer is None else {
        "card": CARD_NAME[offer.card], "by": names[offer.by], "how": "drawn" if offer.drawn else "paid",
        "may_take": [names[s] for s in offer.may_take],
        "must_take": names[offer.must_take] if offer.must_take >= 0 else None}


def table_part(ref, lie: Lying | None = None) -> dict:
    """What lies on the table as the referee `ref` has it now (`lie`, if asked already): the
    stock, the discard pile, each seat (status, hand, melds) and the card on offer with who
    may and who must take it."""
    lie = lie or lying(ref)
    return {"stock": lie.stock, "dead": _names(lie.dead), "players": [seat_part(s) for s in lie.seats],
            "offer": offer_part(lie.offer, ref.setup.players)}


def table_steps(record, moves=True, ref=None):
    """(event, view) after each event of `record` in turn: the view `table_at(record, line)`
    gives at that event's line, from one referee fed event by event (replaying the hand once,
    not once per line). Stops after an event that makes the hand invalid (that view shows the
    table before it, as table_at does); nothing for a record whose setup is refused.

    `moves`: True, False, or the phases whose views list the moves possible next (the others
    list none). `ref`: a fresh Referee of the record's setup to feed, so that the caller can
    ask it for the verdict afterwards (`ref.report`) without replaying the hand again."""
    for ev, _lie, view in table_course(record, moves, ref):
        yield ev, view


def table_course(record, moves=True, ref=None, whole=None):
    """(event, Lying, view or None) after each event of `record`, as table_steps: what lies on
    the table after it and, where `whole(index, event)` says so (None: everywhere; the last
    event and an invalid one always), the whole view table_at gives at its line. A replay that
    says whose turn it is only at some moves asks the referee for the rest only there."""
    if ref is None:
        setup, errors = read_setup(record)
        if errors:
            return
        ref = Referee(setup)
    setup = ref.setup
    fixed = setup_view(setup)

    def view(at, line, lie):
        wanted = moves if isinstance(moves, bool) else at.phase in moves
        return {"line": record.line, "after_line": line,
                **referee_view(at, setup, ref.out, wanted, fixed, lie)}

    last = len(record.events) - 1
    for k, ev in enumerate(record.events):
        if ref.apply(ev) is not None:  # as table_at: the table just before the error line
            before = Referee(setup)
            before.run(record.events, ev.line - 1)
            lie = lying(before)
            yield ev, lie, view(before, ev.line, lie)
            return
        lie = lying(ref)
        yield ev, lie, view(ref, ev.line, lie) if whole is None or k == last or whole(k, ev) else None


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
