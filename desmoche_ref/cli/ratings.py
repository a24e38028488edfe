"""`ratings` and `player`: who plays best, and one player's record (issue 29).

A thin shell: options in, one call of the scorebook service (Scorebook.ratings, .player),
output as a table, JSON or CSV. The rating is rating.py's; the reading, store/read/ratings.py
and store/read/career.py's. What a person reads is in the language of the run; --json and
--csv keep their English keys and the book's own words.
"""

from datetime import date

import click

from ..i18n import N_
from ..money import fmt
from ..rating import figure
from .book import book_command, db_option, open_book
from .lang import Command, _, lang_option, ngettext
from .league import DATE, check_format, echo_csv, echo_json, table_text

RATING_HEADERS = [N_("rank"), N_("player"), N_("rating"), N_("mean"), N_("deviation"), N_("hands")]


def _filter(tables, since, until):
    from ..store.read.ratings import Filter

    return Filter(tuple(dict.fromkeys(tables)), since.date() if since else None, until.date() if until else None)


def _filters(f):
    """--table (repeatable), --since, --until, in that order in the help."""
    f = click.option("--until", type=DATE, metavar=N_("DATE"), help=N_("Hands played on or before DATE."))(f)
    f = click.option("--since", type=DATE, metavar=N_("DATE"),
                     help=N_("Hands played on or after DATE (YYYY-MM-DD)."))(f)
    return click.option("--table", "tables", multiple=True, metavar=N_("NAME"),
                        help=N_("Only this table's hands (repeat for several). Default: every table."))(f)


# ----------------------------------------------------------------- ratings
@click.command(cls=Command)
@_filters
@click.option("--min-hands", type=click.IntRange(min=0), default=20, show_default=True, metavar="N",
              help=N_("Rank only the players with at least N rated hands; list the others apart."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print JSON."))
@click.option("--csv", "as_csv", is_flag=True, help=N_("Print CSV, one row a player."))
@click.option("--fmt", "fmt_name", default="simple", metavar=N_("FORMAT"),
              help=N_("Any tabulate table format (simple, github, grid, latex, html, …)."))
@db_option
@lang_option
@book_command
def ratings(tables, since, until, min_hands, as_json, as_csv, fmt_name, db):
    """Who plays best: a skill rating per player, from the hands in the order they were played.

    Each hand with a winner ranks its players (docs/rulings.md): the winners first, tied
    when they split the pot (an automatic win is a win), the others next, a disqualified
    player last; a hand without a winner tells nothing. The ratings follow those rankings
    (the Plackett–Luce model, as openskill rates it). `rating` is the conservative figure,
    the mean less three deviations: it starts at 0 and grows as a player keeps beating
    the others and the figure grows surer, so it rewards the best player, not the busiest.
    The same book always gives the same figures; an `undo` that reopens a hand takes it
    out at once. Players with fewer than --min-hands rated hands are listed apart.

    \b
    Examples:
      desmoche-ref ratings
      desmoche-ref ratings --table north --table south --since 2026-09-01
      desmoche-ref ratings --min-hands 50 --json
    """
    from ..store.read.scorebook import Scorebook

    check_format(fmt_name)
    table_ = Scorebook(open_book(db, readonly=True)).ratings(_filter(tables, since, until), min_hands)
    if as_json:
        return echo_json(table_.as_json())
    ranked = [[k, r.player, figure(r.conservative), figure(r.mu), figure(r.sigma), r.hands]
              for k, r in enumerate(table_.rated, 1)]
    apart = [[r.player, figure(r.conservative), figure(r.mu), figure(r.sigma), r.hands] for r in table_.provisional]
    if as_csv:
        return echo_csv(ranked + [[""] + row for row in apart], RATING_HEADERS)
    right = RATING_HEADERS[2:] + ["rank"]
    if ranked:
        click.echo(table_text(ranked, RATING_HEADERS, fmt_name, right=right))
    click.echo(ngettext("{count} hand rated (a hand with a winner ranks its players)",
                        "{count} hands rated (a hand with a winner ranks its players)",
                        table_.hands).format(count=table_.hands))
    if apart:
        click.echo()
        click.echo(ngettext("Fewer than {count} rated hand, not ranked yet:",
                            "Fewer than {count} rated hands, not ranked yet:", min_hands).format(count=min_hands))
        click.echo(table_text(apart, RATING_HEADERS[1:], fmt_name, right=right))
    if not ranked and not apart:
        click.echo(_("no player has a rated hand yet: only a complete hand with a winner rates its players "
                     "(a hand without a winner, an invalid or unfinished one tells nothing)"))
        return
    click.echo()
    click.echo(scale_text())


def scale_text() -> str:
    """What a rating means and its scale, under the ratings (words.rating_scale)."""
    from ..words import rating_scale
    from .render import say

    return say(rating_scale())


# ------------------------------------------------------------------ player
@click.command(cls=Command)
@click.argument("name", metavar=N_("NAME"))
@_filters
@click.option("--json", "as_json", is_flag=True, help=N_("Print JSON."))
@db_option
@lang_option
@book_command
def player(name, tables, since, until, as_json, db):
    """A player's record: hands, wins by kind and win rate, hands without a winner, bonuses
    won and paid, fouls by rule, each side game (played, won, net), the net and the
    average a hand, the best and worst night, the longest run without a win, and the
    rating with its course after each night.

    \b
    Examples:
      desmoche-ref player Ana
      desmoche-ref player Ana --since 2026-09-01 --json
      desmoche-ref --lang es player Ana --table norte
    """
    from ..store.read.scorebook import Scorebook

    record = Scorebook(open_book(db, readonly=True)).player(name, _filter(tables, since, until))
    if as_json:
        return echo_json(as_dict(record))
    click.echo(record_text(record))


def as_dict(record) -> dict:
    """A player's record as JSON: English keys, money as decimal text, every rated hand's rating."""
    def night(n):
        return None if n is None else {"table": n.table, "day": n.day.isoformat(), "hands": n.hands,
                                       "net": fmt(n.net)}

    return {
        "player": record.player, "hands": record.hands, "wins": record.wins, "auto_wins": record.auto_wins,
        "win_rate": round(record.win_rate, 4), "no_winner": record.no_winner,
        "bonuses_won": {k: {"count": c, "amount": fmt(a)} for k, (c, a) in record.bonuses_won.items()},
        "bonuses_paid": {k: {"count": c, "amount": fmt(a)} for k, (c, a) in record.bonuses_paid.items()},
        "fouls": record.fouls,
        "side_games": {g: {"played": s.played, "won": s.won, "net": fmt(s.net)} for g, s in record.side_games.items()},
        "net": fmt(record.net), "average_net": fmt(record.average_net),
        "best_night": night(record.best_night), "worst_night": night(record.worst_night),
        "longest_run_without_a_win": record.dry_run,
        "rating": None if record.rating is None else record.rating.as_json(),
        "curve": [{"table": p.table, "hand": p.number, "day": p.day.isoformat(), "rating": round(p.rating, 2)}
                  for p in record.curve],
    }


def _counted(pairs) -> str:
    """`kind count, kind count` with the kinds in words (the catalog has them: cli/render.py)."""
    return ", ".join(f"{_(kind)} {count}" for kind, count in pairs)


def record_text(record) -> str:
    """The record as a person reads it, in the language of the run."""
    from .. import rulebook
    from .lang import language

    r = record
    lines = [ngettext("{player}: {count} hand", "{player}: {count} hands", r.hands).format(player=r.player,
                                                                                          count=r.hands)]
    kinds = [(N_("ten cards down"), r.wins)] + list(r.auto_wins.items())
    lines.append(_("wins: {wins} ({rate} of the hands): {kinds}").format(
        wins=r.all_wins, rate=f"{100 * r.win_rate:.1f}%", kinds=_counted(kinds)))
    lines.append(_("hands without a winner: {count}").format(count=r.no_winner))
    lines.append(_("net: {net}, {average} a hand").format(net=fmt(r.net), average=fmt(r.average_net)))
    one = r.best_night is not None and r.best_night == r.worst_night  # one night: not both best and worst
    for label, n in ((N_("best night: {table} {day}, {net} ({hands})"), None if one else r.best_night),
                     (N_("worst night: {table} {day}, {net} ({hands})"), None if one else r.worst_night),
                     (N_("one night so far: {table} {day}, {net} ({hands})"), r.best_night if one else None)):
        if n is not None:
            hands = ngettext("{count} hand", "{count} hands", n.hands).format(count=n.hands)
            lines.append(_(label).format(table=n.table, day=n.day.isoformat(), net=fmt(n.net), hands=hands))
    lines.append(ngettext("longest run without a win: {count} hand", "longest run without a win: {count} hands",
                          r.dry_run).format(count=r.dry_run))
    if r.rating is None:
        lines.append(_("rating: none yet (no hand with a winner)"))
    else:
        lines.append(_("rating: {rating} (mean {mu}, deviation {sigma}) after {hands}").format(
            rating=figure(r.rating.conservative), mu=figure(r.rating.mu), sigma=figure(r.rating.sigma),
            hands=ngettext("{count} rated hand", "{count} rated hands", r.rating.hands).format(count=r.rating.hands)))
    for label, bonuses in ((N_("bonuses won: {list}"), r.bonuses_won), (N_("bonuses paid: {list}"), r.bonuses_paid)):
        shown = ", ".join(f"{_(kind)} {count} ({fmt(cents)})" for kind, (count, cents) in bonuses.items())
        lines.append(_(label).format(list=shown or _("none")))
    book = rulebook.load(language())
    if r.fouls:
        lines.append(_("fouls (each put the player out of a hand):"))
        lines += [f"  {code} × {count}: {book.get(code).title}" for code, count in r.fouls.items()]
    else:
        lines.append(_("fouls: none"))
    if r.side_games:
        headers = [N_("side game"), N_("played"), N_("won"), N_("net")]
        rows = [[g, s.played, s.won, fmt(s.net)] for g, s in r.side_games.items()]
        lines += ["", table_text(rows, headers, right=headers[1:])]
    else:
        lines.append(_("side games: none"))
    nights = _after_each_night(r.curve)
    if nights:
        headers = [N_("night"), N_("table"), N_("hands"), N_("rating")]
        lines += ["", _("the rating after each night:"),
                  table_text([[d.isoformat(), t, n, figure(v)] for d, t, n, v in nights], headers, right=headers[2:])]
    return "\n".join(lines)


def _after_each_night(curve) -> list:
    """(day, table, rated hands that night, rating after the night's last) from the curve."""
    out: list[tuple[date, str, int, float]] = []
    for p in curve:
        if out and out[-1][0] == p.day and out[-1][1] == p.table:
            out[-1] = (p.day, p.table, out[-1][2] + 1, p.rating)
        else:
            out.append((p.day, p.table, 1, p.rating))
    return out
