"""Where the hand stands, in words: the prompt line and the full view of the table.

Everything is asked of the hand's referee (engine/queries.py): whose turn, the card on
offer and who may or must take it, the action under way, the seats. Nothing is worked out
again, so the prompt never disagrees with the verdict.
"""

from ..cards import pretty as card_text, pretty_cards as cards_text
from ..engine.replay import INVALID
from ..engine.state import ACTIVE, DEAL, OVER, PRE
from ..money import fmt

SEP = " · "


def outcome_text(ref) -> str:
    o = ref.outcome
    names = ref.setup.players
    who = " and ".join(names[s] for s in o.winners)
    if o.kind == "win":
        return f"{who} won"
    if o.kind == "auto-win":
        return f"{who} won by {o.auto}"
    return "no winner"


def turn_text(ref, colour: bool = False) -> str:
    """Whose turn it is and what is on the table, e.g. `Carla to act · on offer 7♣ from Beto`."""
    names = ref.setup.players
    if ref.status == INVALID:
        e = ref.report.errors[0]
        return f"invalid at line {e.line} ({e.code}): `undo` takes the move back"
    phase = ref.phase
    if phase == OVER:
        return f"over: {outcome_text(ref)}{SEP}`end` closes the hand"
    if phase == DEAL:
        return f"the deal: {names[ref.setup.dealer]} deals"
    if ref.declared():
        return "an automatic win is declared: `end` closes the declarations"
    action = ref.action()
    if action is not None:
        owes = "pays next" if action.owes == "pay" else "mends the broken melds, then pays"
        return f"{names[action.seat]} to act{SEP}took {card_text(action.taken, colour)}, {owes}"
    seats = ref.seats_view()
    if phase == PRE:
        waiting = [seats[i].name for i in ref.setup.order_from_dealer()
                   if seats[i].status == ACTIVE and not seats[i].cambio_done]
        if waiting and any(m.verb == "cambio" for m in ref.moves()):
            return f"the cambio: {', '.join(waiting)} to pass a card"
    drawer = ref.next_drawer()
    drawer = names[drawer[0]] if drawer is not None and drawer[0] >= 0 else None
    offer = ref.offer()
    if offer is None:
        return f"{drawer} to draw" if drawer else "nobody left to play"
    on_offer = f"on offer {card_text(offer.card, colour)} from {names[offer.by]}"
    if offer.must_take >= 0:
        return f"{names[offer.must_take]} must take it (R9.1){SEP}{on_offer}"
    if offer.may_take:
        return f"{names[offer.may_take[0]]} to act{SEP}{on_offer}"
    if drawer is None:
        return f"the stock is out: `end`{SEP}{on_offer}"
    return f"{drawer} to draw{SEP}{on_offer}"


def prompt_text(number: int | None, ref, closed: bool = False, colour: bool = False) -> str:
    """The prompt: `H7 · Carla to act · on offer 7♣ from Beto > `."""
    if number is None:
        return "no hand yet: new --dealer NAME > "
    if closed:
        return f"H{number}{SEP}closed{SEP}`new` deals the next > "
    return f"H{number}{SEP}{turn_text(ref, colour)} > "


def state_lines(number: int, ref, table: str, closed: bool, colour: bool, grid) -> list:
    """The full view of the table (the `state` command). `grid(rows, headers)` draws a table."""
    s = ref.setup
    names = s.players
    head = [f"table {table}, hand {number}{' (closed)' if closed else ''}", f"dealer {names[s.dealer]}",
            f"bet {fmt(s.bet)}", f"carry in {fmt(s.carry)}", s.options.describe()]
    out = [SEP.join(head)]
    rows = []
    for seat in ref.seats_view():
        held = " ".join(filter(None, [cards_text(seat.hand, colour),
                                      f"+{seat.unknown}?" if seat.unknown else ""]))
        melds = "  ".join(cards_text(m, colour) for m in seat.melds)
        rows.append([seat.name, seat.status, held, melds or ("" if seat.laid else "(up the tree)")])
    out.append(grid(rows, ["player", "status", "hand", "table"]))
    offer = ref.offer()
    if offer is not None:
        may = ", ".join(names[x] for x in offer.may_take) or "nobody"
        must = f"; must take: {names[offer.must_take]}" if offer.must_take >= 0 else ""
        how = "drawn" if offer.drawn else "paid"
        out.append(f"on offer: {card_text(offer.card, colour)} ({how} by {names[offer.by]}); "
                   f"may take: {may}{must}")
    state = ref.report.state
    out.append(f"discard pile: {cards_text(state.dead, colour) or '(empty)'}")
    out.append(f"stock: {state.stock} cards")
    out.append("turn: " + ("closed: `undo` reopens it, `new` deals the next" if closed
                           else turn_text(ref, colour)))
    for f in ref.report.fouls:
        out.append(f"foul (line {f.line}): {f.code} {f.player}: {f.message} — "
                   + ("enforced, disqualified" if f.enforced else "forgiven"))
    for w in ref.report.warnings:
        out.append(f"warning (line {w.line}): {w.code} {w.message}")
    nexts = {}
    for m in ref.moves():
        nexts.setdefault(m.verb, []).append(m.player or "")
    out.append("may come next: " + "; ".join(f"{verb} {' '.join(who)}".rstrip()
                                             for verb, who in nexts.items()))
    return out
