"""A player's record read from the book (career.Record), and the nights each player sat in.

One pass over the complete hands in the order played (store/read/ratings.py: the counts, the
runs, the rating and its curve), three aggregates over the player's postings (per hand, the
bonuses by kind, the side games by game), and the verdicts of the few hands whose details
the hand's columns do not hold: an automatic win's kind and the rule of a foul that put the
player out. Those hands alone are judged again from their moves, as `check` judges them.
"""

from sqlalchemy import and_, func, or_, select

from ...player_record import SideGame, Tally
from ...rating import Ratings, hand_ranking
from .league import played_day, total_cents, card_table, event, hand, player_name, posting, table_id
from .ratings import Filter, Point, filters, played
from ..schema.terms import COMPLETE

SIDE_KINDS = ("side-stake", "side-win", "side-refund")


def player_record(conn, name: str, flt: Filter = Filter()):
    """career.Record of `name` over the hands of `flt`; StoreError for an unknown player or table."""
    name = player_name(conn, name)
    return player_records(conn, [name], flt)[name]


def player_records(conn, names, flt: Filter = Filter()) -> dict:
    """{name: career.Record} of the players `names` (as the book has them) over the hands of
    `flt`: one pass over the hands and one query per kind of figure, whatever their number.
    The hands whose details the columns do not hold are judged half in a forked child
    (store/write/forked.py), half here while it works."""
    from ..write.forked import forked

    tallies = {name: Tally(name) for name in names}
    book, curves = Ratings(), {name: [] for name in names}
    for p in played(conn, flt):
        for name in p.players:
            if name in tallies:
                tallies[name].hand(p)
        ranks = hand_ranking(p.players, p.outcome, p.winners, p.fouled)
        if ranks is None:
            continue
        for name, skill in zip(p.players, book.play(p.players, ranks)):
            if name in curves:
                curves[name].append(Point(p.table, p.number, p.day, skill.conservative))
    read, details = _to_judge(conn, tallies)
    theirs = forked(_judge, details[1::2]) if len(details) > 1 else iter(())  # the other core
    nets = _money(conn, tallies, flt)
    bonuses, sides = _bonuses(conn, names, flt), _sides(conn, names, flt)
    verdicts = _verdicts([*read, *_judge(details[0::2]), *theirs], tallies)
    standing = {r.player: r for r in book.table()[0]}
    return {name: t.record(nets.get(name, 0), verdicts[name][0], verdicts[name][1], bonuses.get(name, ({}, {})),
                           sides.get(name, {}), standing.get(name), curves[name])
            for name, t in tallies.items()}


def _theirs(conn, names, flt: Filter, *columns, join: bool = False):
    """SELECT `columns` of the players' postings in the hands of `flt` (the hand joined for
    the dates, or with `join`: a posting knows its table)."""
    p = posting.c
    where = [p.account.in_(list(names)), p.player_id.is_not(None)]
    dated = flt.since is not None or flt.until is not None
    query = select(*columns).select_from(posting)
    if join or dated:
        query = query.join(hand, hand.c.id == p.hand_id)
    if dated:
        where += filters(conn, Filter((), flt.since, flt.until))
    if flt.tables:
        where.append(p.table_id.in_([table_id(conn, name) for name in flt.tables]))
    return query.where(*where)


def _money(conn, tallies, flt) -> dict:
    """{name: net} over `flt`, each night's share told to the player's tally. Summed by the
    time the hands were opened: an imported night's hands share their Date, so Python sees
    a row a night (a row a hand for hands recorded live)."""
    p, h = posting.c, hand.c
    query = (_theirs(conn, tallies, flt, p.account, card_table.c.name, h.opened, total_cents(p.amount), join=True)
             .join(card_table, card_table.c.id == h.table_id).group_by(p.account, card_table.c.name, h.opened))
    nets = {}
    for name, table, opened, cents in conn.execute(query):
        tallies[name].money(table, played_day(opened), cents)
        nets[name] = nets.get(name, 0) + cents
    return nets


def _bonuses(conn, names, flt) -> dict:
    """{name: ({bonus: [count, cents]} won, {bonus: [count, cents]} paid)}: a reversal (an
    undone hand's posting turned back) takes back what it reverses."""
    p = posting.c
    out = {}
    original = p.reverses.is_(None)
    credit = or_(and_(p.amount > 0, original), and_(p.amount < 0, ~original))
    query = (_theirs(conn, names, flt, p.account, p.detail, credit.label("credit"), original.label("original"),
                     func.count(), total_cents(p.amount))
             .where(p.kind == "bonus").group_by(p.account, p.detail, credit, original))
    for name, detail, is_credit, is_original, count, cents in conn.execute(query):
        won, paid = out.setdefault(name, ({}, {}))
        entry = (won if is_credit else paid).setdefault(detail, [0, 0])
        entry[0] += count if is_original else -count
        entry[1] += cents if is_credit else -cents
    return {name: tuple({k: v for k, v in sorted(side.items()) if v[0]} for side in pair)
            for name, pair in out.items()}


def _sides(conn, names, flt) -> dict:
    """{name: {game: SideGame}}: the hands staked in it, the pots won, the net of its postings."""
    p = posting.c
    counts = {}
    query = (_theirs(conn, names, flt, p.account, p.detail, p.kind, func.count(), func.count(p.reverses),
                     total_cents(p.amount))
             .where(p.kind.in_(SIDE_KINDS)).group_by(p.account, p.detail, p.kind))
    for name, game, kind, count, reversals, cents in conn.execute(query):
        c = counts.setdefault(name, {}).setdefault(game, [0, 0, 0])
        n = count - 2 * reversals  # a reversal cancels its posting: both counted, neither stands
        if kind == "side-stake":
            c[0] += n
        elif kind == "side-win":
            c[1] += n
        c[2] += cents
    return {name: {game: SideGame(*c) for game, c in sorted(games.items()) if any(c)}
            for name, games in counts.items()}


def _verdicts(judged, tallies) -> dict:
    """{name: ({automatic win kind: count}, {foul code: count})} from the verdicts `judged`
    ((hand id, automatic win kind, {player: the code of the first foul that put them out}))
    of the hands in which a player took an automatic win or a foul put a player out."""
    out = {name: ({}, {}) for name in tallies}
    for hand_id, auto, fouled in judged:
        for name, t in tallies.items():
            autos, fouls = out[name]
            if hand_id in t.auto_won:
                autos[auto] = autos.get(auto, 0) + 1
            if hand_id in t.fouled and name in fouled:
                fouls[fouled[name]] = fouls.get(fouled[name], 0) + 1
    return {name: (dict(sorted(a.items())), dict(sorted(f.items()))) for name, (a, f) in out.items()}


def _to_judge(conn, tallies) -> tuple:
    """([(hand id, automatic win kind, {})] of the automatic wins whose kind their record
    says, [details of the hands to judge again]): the hands in which a foul put one of the
    players out, and the automatic wins whose record does not say the kind (`declared`)."""
    from ..schema.records import live_events

    fouled = {i for t in tallies.values() for i in t.fouled}
    autos = {i: winners for t in tallies.values() for i, winners in t.auto_won.items() if i not in fouled}
    e, lines = event.c, {}
    ids = sorted(autos)
    for start in range(0, len(ids), 500):  # only the declarations (and the undos that may take one back)
        for m in conn.execute(select(e.hand_id, e.id, e.line, e.supersedes)
                              .where(e.hand_id.in_(ids[start:start + 500]),
                                     or_(e.line.like("declare %"), e.supersedes.is_not(None)))
                              .order_by(e.hand_id, e.seq)):
            lines.setdefault(m.hand_id, []).append(m)
    read, again = [], set(fouled)
    for i, winners in autos.items():
        kind = declared(winners, [m.line for m in live_events(lines.get(i, []))])
        if kind is None:
            again.add(i)
        else:
            read.append((i, kind, {}))
    return read, _details(conn, again)


def _details(conn, ids) -> list:
    """(hand id, its columns, its standing lines) of the hands `ids`: what their columns do
    not say (an automatic win's kind, a foul's rule) is judged again from their moves."""
    from ..schema.records import live_events

    ids, h, e = sorted(ids), hand.c, event.c
    out = []
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        moves = {}
        for m in conn.execute(select(e.hand_id, e.id, e.line, e.supersedes).where(e.hand_id.in_(chunk))
                              .order_by(e.hand_id, e.seq)):
            moves.setdefault(m.hand_id, []).append(m)
        out += [(r.id, r._asdict(), [m.line for m in live_events(moves.get(r.id, []))])
                for r in conn.execute(select(hand).where(h.id.in_(chunk)))]
    return out


def declared(winners, lines):
    """The kind of an automatic win as its record says it: R6.2 judges a win as the kind
    declared, so when every winner wrote one declaration, all of one kind, that is the kind;
    else None (the hand is judged again)."""
    kinds, counts = set(), dict.fromkeys(winners, 0)
    for line in lines:
        if line.startswith("declare "):
            words = line.split()
            if words[1] in counts:
                counts[words[1]] += 1
                kinds.add(words[2])
    return kinds.pop() if len(kinds) == 1 and set(counts.values()) == {1} else None


def _judge(details):
    """(hand id, automatic win kind or None, {player: code of the first foul that put them
    out}) of each hand of `details`: its moves replayed by the referee from the hand's setup,
    as `verify` judges a stored hand. Reads no book: run in a forked child (store/write/forked.py)."""
    from types import SimpleNamespace

    from ...engine.replay import Referee
    from ...notation.parser import parse_event
    from ..schema.records import hand_setup

    for hand_id, columns, lines in details:
        played_ = Referee(hand_setup(SimpleNamespace(**columns))).run(
            [parse_event(line, n) for n, line in enumerate(lines, 1)])
        outcome = played_.state.outcome if played_.state is not None else None
        fouled = {}
        for f in played_.fouls:
            if f.enforced:
                fouled.setdefault(f.player, f.code)
        yield hand_id, outcome.auto if outcome is not None else None, fouled


def nights_played(conn, flt: Filter = Filter()) -> dict:
    """{player: nights}: the nights (a table's hands of one day) in which each sat in a
    complete hand."""
    seen = {}
    h = hand.c
    query = (select(h.table_id, h.opened, h.players).select_from(hand)
             .where(h.status == COMPLETE, *filters(conn, flt)).group_by(h.table_id, h.opened, h.players))
    for table, opened, players in conn.execute(query):
        for name in players.split():
            seen.setdefault(name, set()).add((table, played_day(opened)))
    return {name: len(nights) for name, nights in seen.items()}

