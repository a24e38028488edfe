"""What the season and player pages show, from the season (store/read/season.py) and each hand's
summary (pages.summary, kept between reports as JSON): the money is the postings' (each
hand's SeasonHand.money), never figures parsed back from words."""

import json
from typing import NamedTuple, TypedDict

from . import pages


class Shown(NamedTuple):
    """A hand as the season and player pages count it."""

    table: str
    number: int
    day: object
    status: str
    money: dict      # player -> cents (the postings')
    players: list
    outcome: str
    kind: str | None
    bonuses: int
    fouls: list      # the verdict's fouls (player, code, line, enforced, and its move or None)
    sides_won: int

    @classmethod
    def of(cls, hand, raw: str):
        s = json.loads(raw)
        fouls = [dict(f, move=pages.move_of(s, f["line"])) for f in s["fouls"]]
        return cls(hand.table, hand.number, hand.day, s["status"], hand.money, s["players"], s["outcome"],
                   s["kind"], len(s["bonuses"]), fouls, sum(1 for g in s["side_games"] if g["winners"]))


def chunks(items: list, size: int | None = None) -> list:
    """`items` in pages of `size` (pages.ROWS; one page, maybe empty, when they fit)."""
    size = size or pages.ROWS
    return [items[k:k + size] for k in range(0, len(items), size)] or [[]]


class NightRow(TypedDict, total=False):
    """A night on a player's page (player_values)."""

    day: object
    table: str
    hands: int
    net: int          # cents
    total: int        # cents: the player's net after it, over the season
    fouls: list       # (Shown, the verdict's foul)


def season_values(season, shown, paths) -> dict:
    """The season page: the chart of each player's net hand by hand and its figures after
    each night, the season in figures; its nights and those figures pages.ROWS nights a page,
    the first on the season page (`lists`: (page, first night, last night, [(night, nets)])."""
    from ..words import _

    totals = {name: 0 for name in season.players}
    series: dict[str, list[int]] = {name: [] for name in season.players}
    after_night, k = [], 0  # (night, {player: net after it})
    for night in season.nights:
        for _h in night.hands:
            for name, cents in shown[k].money.items():
                if name in totals:
                    totals[name] += cents
            for name in season.players:
                series[name].append(totals[name])
            k += 1
        after_night.append((night, dict(totals)))
    counts = {"hands": len(shown), "complete": 0, "wins": 0, "auto_wins": 0, "no_winner": 0, "bonuses": 0,
              "bonus_money": sum(r.bonuses_won for r in season.standings.players), "fouls": 0, "forgiven": 0,
              "side_games_won": 0}
    for s in shown:
        counts["complete"] += s.status == "complete"
        counts["wins"] += s.kind == "win"
        counts["auto_wins"] += s.kind == "auto-win"
        counts["no_winner"] += s.kind == "no-winner"
        counts["bonuses"] += s.bonuses
        counts["fouls"] += sum(1 for f in s.fouls if f["enforced"])
        counts["forgiven"] += sum(1 for f in s.fouls if not f["enforced"])
        counts["side_games_won"] += s.sides_won
    curves = list(series.items())
    chart = pages.chart(_("Each player's net over the season"), curves, _("hands, in the order played"))
    legend = [(name, pages.svg.legend_marker(i), curve[-1] if curve else 0) for i, (name, curve) in enumerate(curves)]
    lists = [("index.html" if k == 1 else paths.nights(k), rows[0][0], rows[-1][0], rows)
             for k, rows in enumerate(chunks(after_night), 1)] if after_night else []
    return {"season": season, "paths": paths, "chart": chart, "legend": legend, "after_night": after_night,
            "lists": lists, "counts": counts, "ratings": season.ratings, "nights_played": season.nights_played,
            "min_nights": season.min_nights, "party": pages.party,
            "first_day": season.hands[0].day if season.hands else None,
            "last_day": season.hands[-1].day if season.hands else None}


def player_values(name, season, shown, paths) -> dict:
    """The player page: their record (store/read/career.py, as `desmoche-ref player` prints it),
    the course of their rating and of their net (hand by hand: a chart keeps at most
    svg.MOST_POINTS points), each side game and bonus summed, their fouls by rule with the
    rule's words, and their nights (net, total after, rating after, each foul a link to its
    move), pages.ROWS nights a page, the first on the player's (`lists`: (page, first night,
    last night, rows)). Their hands are on their nights' pages."""
    from .. import rulebook
    from ..words import _, language

    record = season.records.get(name)
    totals, total = [], 0
    nights: dict[tuple[object, str], NightRow] = {}  # (day, table) ->
    order = []
    for s in shown:
        if name not in s.players and name not in s.money:
            continue
        cents = s.money.get(name, 0)
        total += cents
        totals.append(total)
        at = (s.day, s.table)
        night = nights.get(at)
        if night is None:
            night = nights[at] = {"day": s.day, "table": s.table, "hands": 0, "net": 0, "fouls": []}
            order.append(at)
        night["hands"] += 1
        night["net"] += cents
        night["total"] = total
        night["fouls"] += [(s, f) for f in s.fouls if f["player"] == name]
    after = {(p.day, p.table): p.rating for p in (record.curve if record is not None else [])}
    rows = [dict(nights[at], rating=after.get(at)) for at in order]
    titles = rulebook.load(language())
    chart = pages.chart(_("{player}'s net, hand by hand").format(player=name), [(name, totals)], _("hands played"))
    curve = record.curve if record is not None else []
    # the chart draws cents: a rating is shown to two decimals, so a hundredth is its cent
    rating_chart = pages.chart(_("{player}'s rating after each rated hand").format(player=name),
                               [(name, [round(p.rating * 100) for p in curve])], _("rated hands")) if curve else None
    lists = [(paths.player(name, k + 1) if k else paths.player(name), part[0], part[-1], part)
             for k, part in enumerate(chunks(rows))] if rows else []
    return {"name": name, "record": record, "chart": chart, "rating_chart": rating_chart, "rules": titles,
            "paths": paths, "lists": lists, "hands_played": len(totals), "fouls_shown": FOULS_SHOWN}


FOULS_SHOWN = 5  # a night's fouls a player's row links one by one; past it, the night has them
