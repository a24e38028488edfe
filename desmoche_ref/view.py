"""The table as it stood after a line (for `show`): pure data, no rendering."""

from .cards import CARD_NAME
from .engine.replay import Referee
from .engine.setup import read_setup
from .engine.state import DEAL, OVER, PRE


def _names(cards) -> list:
    return [CARD_NAME[c] for c in cards]


def table_at(record, until=None) -> dict:
    """The state of `record` after line `until` (the whole hand if None), as a plain dict."""
    setup, errors = read_setup(record)
    view = {"line": record.line, "after_line": until, "errors": [e.as_json() for e in errors]}
    if errors:
        view["status"] = "invalid"
        return view
    ref = Referee(setup)
    played = ref.run(record.events, until)
    g = ref.g
    view.update({
        "status": played.status,
        "last_line": played.last_line,
        "phase": g.phase,
        "dealer": setup.players[setup.dealer],
        "options": setup.options.describe(),
        "bet": setup.bet, "carry": setup.carry,
        "errors": [e.as_json() for e in played.errors],
        "fouls": [f.as_json() for f in played.fouls],
        "warnings": [w.as_json() for w in played.warnings],
        "stock": g.stock,
        "dead": _names(g.dead),
        "players": [{"name": p.name, "status": p.status,
                     "hand": _names(sorted(p.hand)), "unknown": p.unknown,
                     "melds": [_names(m) for m in p.melds], "up_the_tree": not p.laid}
                    for p in g.players],
        "offer": None, "turn": None,
    })
    if g.offer >= 0:
        may = [setup.players[s] for s in dict.fromkeys(ref.priority())
               if ref.may_take(s) is None]
        view["offer"] = {"card": CARD_NAME[g.offer], "by": setup.players[g.offer_by],
                         "how": "drawn" if g.offer_drawn else "paid", "may_take": may}
    view["turn"] = _turn(ref, setup)
    return view


def _turn(ref, setup) -> str:
    g = ref.g
    if g.phase == OVER:
        kind, seats, auto, line = g.outcome
        who = " and ".join(setup.players[s] for s in seats)
        if kind == "win":
            return f"over: {who} won with ten cards down at line {line}"
        if kind == "auto-win":
            return f"over: {who} won by {auto} at line {line}"
        return f"over: no winner (line {line})"
    if g.phase == DEAL:
        return "the deal"
    if g.actor >= 0:
        return f"{setup.players[g.actor]} took {CARD_NAME[g.taken]} and lays or pays"
    if ref.standing_declarations():
        return "an automatic win is declared: declarations close with `end`"
    if not g.active():
        return "no player is left"
    seat, _ = ref.expected_drawer()
    drawer = setup.players[seat] if seat >= 0 else "nobody"
    if g.phase == PRE:
        waiting = [g.players[i].name for i in g.active() if not g.players[i].cambio_done]
        if not g.cambio_complete and waiting:
            return f"the cambio: waiting for {', '.join(waiting)}; then {drawer} draws first"
        return f"{drawer} draws the first card"
    if g.offer >= 0:
        if g.stock == 0:
            return f"if nobody takes {CARD_NAME[g.offer]}, the hand ends (the stock is empty)"
        return f"if nobody takes {CARD_NAME[g.offer]}, {drawer} draws next"
    return f"{drawer} draws next"
