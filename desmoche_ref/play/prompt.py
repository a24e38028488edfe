"""Where the hand stands, in words: the prompt line and the full view of the table.

Everything is asked of the hand's referee (engine/queries.py): whose turn, the card on
offer and who may or must take it, the action under way, the seats. Nothing is worked out
again, so the prompt never disagrees with the verdict. Whose turn it is is words.py's
`turn_text`, the sentence the prompt and the verbs' echo share.
"""

from ..cards import pretty as card_text, pretty_cards as cards_text
from ..describe import claims_shown_as, show_commands
from ..engine.state import DEAL
from ..findings import COMMAND_LINE, M, MN, listed
from ..money import fmt
from ..words import echo_text, foul_text, options_text, outcome_words, status_word, turn_text  # noqa: F401
from .typed import SPANISH_COMMAND_OF, SPANISH_OF


def prompt_text(number: int | None, ref, closed: bool = False, colour: bool = False,
                table_closed: bool = False, spanish: bool = False):
    """The prompt: `H7 · Carla to act · on offer 7♣ from Beto > `; the session's commands it
    names in the language of the session (`nueva`)."""
    new, undo = (SPANISH_COMMAND_OF["new"], SPANISH_COMMAND_OF["undo"]) if spanish else ("new", "undo")
    if table_closed:
        return M("table closed · `{undo}` opens it again > ", undo=undo)
    if number is None:
        return M("no hand yet: {new} --dealer NAME > ", new=new)
    if closed:
        return M("H{number} · closed · `{new}` deals the next > ", number=number, new=new)
    return M("H{number} · {turn} > ", number=number, turn=turn_text(ref, colour))


def state_lines(number: int, ref, table: str, closed: bool, colour: bool, grid, spanish: bool = False) -> list:
    """The full view of the table (the `state` command). `grid(rows, headers)` draws a table
    (its cells may be messages); in Spanish the moves possible next are named by the Spanish verbs."""
    s = ref.setup
    names = s.players
    values = dict(table=table, number=number, dealer=names[s.dealer], bet=fmt(s.bet), carry=fmt(s.carry),
                  options=options_text(s.options.as_json()))
    out = [M("table {table}, hand {number} (closed) · dealer {dealer} · bet {bet} · carry in {carry} · "
             "{options}", **values) if closed else
           M("table {table}, hand {number} · dealer {dealer} · bet {bet} · carry in {carry} · {options}", **values)]
    rows = []
    for seat in ref.seats_view():
        held = " ".join(filter(None, [cards_text(seat.hand, colour),
                                      f"+{seat.unknown}?" if seat.unknown else ""]))
        melds = "  ".join(cards_text(m, colour) for m in seat.melds)
        rows.append([seat.name, status_word(seat.status), held,
                     melds or ("" if seat.laid else M("(up the tree)"))])
    out.append(grid(rows, [M("player"), M("status"), M("hand"), M("table")]))
    offer = ref.offer()
    if offer is not None:
        by = names[offer.by]
        text = MN("on offer: {card} ({how}); may take: {players}", "on offer: {card} ({how}); may take: {players}",
                  max(1, len(offer.may_take)), card=card_text(offer.card, colour),
                  how=M("drawn by {player}", player=by) if offer.drawn else M("paid by {player}", player=by),
                  players=listed(names[x] for x in offer.may_take) or M("nobody"))
        if offer.must_take >= 0:
            text = M("{offer}; must take: {player}", offer=text, player=names[offer.must_take])
        out.append(text)
    state = ref.report.state
    out.append(M("discard pile: {cards}", cards=cards_text(state.dead, colour) or M("(empty)")))
    out.append(MN("stock: {count} card", "stock: {count} cards", state.stock, count=state.stock))
    new, undo = (SPANISH_COMMAND_OF["new"], SPANISH_COMMAND_OF["undo"]) if spanish else ("new", "undo")
    out.append(M("turn: {turn}", turn=M("closed: `{undo}` reopens it, `{new}` deals the next", undo=undo, new=new)
                 if closed else turn_text(ref, colour)))
    for f in ref.report.fouls:
        out.append(M("foul (line {line}): {code} {foul}", line=f.line, code=f.code, foul=foul_text(f)))
    for w in ref.report.warnings:
        out.append(M("warning (line {line}): {code} {message}", line=w.line, code=w.code, message=w.message))
    nexts: dict[str, list[str]] = {}   # verb -> who may play it
    for m in ref.coming():
        nexts.setdefault(m.verb, []).append(m.player or "")
    verb_name = SPANISH_OF if spanish else {}
    out.append(M("may come next: {moves}", moves="; ".join(
        f"{verb_name.get(verb, verb)} {' '.join(who)}".rstrip() for verb, who in nexts.items())))
    return out


def next_state_text(ref, closed: bool = False, void=None) -> list:
    """What comes next at the table, in a line or two (Messages): what the verbs, `undo` and
    `hand show` print after a move, from the referee's queries (cards with their suits).
    `closed`: the hand is closed; `void`: the reason it was voided."""
    names = ref.setup.players
    if void is not None:
        return [M("the hand is void: {reason}", reason=void)]
    if closed:
        if ref.outcome is not None:
            return [M("the hand is closed: {how}", how=outcome_words(ref))]
        return [M("the hand is closed")]
    if ref.outcome is not None:
        pending = ref.pending_claims()
        if pending:
            return [M("the hand is over: {how}. Still to be shown: {claims} — write {shows}; `{prog}end` "
                      "closes the hand without it", how=outcome_words(ref),
                      claims=claims_shown_as(pending, cards_text), shows=show_commands(pending),
                      prog=COMMAND_LINE["prog"])]
        return [M("the hand is over: {how}. `show` lines may follow; `{prog}end` (or the next "
                  "`{new}`) closes it and posts the settlement", how=outcome_words(ref),
                  prog=COMMAND_LINE["prog"], new=COMMAND_LINE["new"])]
    if ref.phase == DEAL:
        held = ", ".join(f"{s.name} {len(s.hand) + s.unknown}" for s in ref.seats_view())
        return [M("the deal: {held} cards", held=held)]
    action = ref.action()
    if action is not None:
        took = M("{player} took {card} and mends the melds a desmoche broke, then pays",
                 player=names[action.seat], card=card_text(action.taken)) if action.owes == "mend" \
            else M("{player} took {card} and lays more, then pays a card", player=names[action.seat],
                   card=card_text(action.taken))
        return [took]
    if ref.declared():
        return [M("an automatic win is declared: more declarations, then `{prog}end`", prog=COMMAND_LINE["prog"])]
    moves = ref.moves()
    waiting = [p for verb, p in moves if verb == "cambio"]
    drawer = ref.next_drawer()
    drawer = names[drawer[0]] if drawer is not None and drawer[0] >= 0 else None
    if waiting:
        if drawer:
            return [M("the cambio: waiting for {players}; then {player} draws first", players=listed(waiting),
                      player=drawer)]
        return [M("the cambio: waiting for {players}", players=listed(waiting))]
    offer = ref.offer()
    if offer is not None:
        how = M("drawn by {player}", player=names[offer.by]) if offer.drawn \
            else M("paid by {player}", player=names[offer.by])
        text = MN("on offer: {card} ({how}); may take it: {players}",
                  "on offer: {card} ({how}); may take it: {players}", max(1, len(offer.may_take)),
                  card=card_text(offer.card), how=how,
                  players=listed(names[s] for s in offer.may_take) or M("nobody"))
        if offer.must_take >= 0:
            text = M("{offer}; {player} must take it (R9.1)", offer=text, player=names[offer.must_take])
        lines = [text]
        if ("end", None) in moves:
            lines.append(M("if nobody takes it the stock is empty: `{prog}end` ends the hand",
                           prog=COMMAND_LINE["prog"]))
        elif drawer:
            lines.append(M("if nobody takes it, {player} draws next", player=drawer))
        return lines
    if ("end", None) in moves:
        return [M("the stock is empty: `{prog}end` ends the hand", prog=COMMAND_LINE["prog"])]
    return [M("{player} draws next", player=drawer) if drawer else M("no draw can come next")]
