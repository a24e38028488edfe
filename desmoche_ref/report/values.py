"""What the season and player pages show, from the season (store/season.py) and each hand's
summary (pages.summary, kept between reports as JSON): the money is the postings' (each
hand's SeasonHand.money), never figures parsed back from words."""

import json
from typing import NamedTuple

from markupsafe import escape

from ..money import fmt
from . import pages


class Shown(NamedTuple):
    """A hand as the season and player pages list it; `full()` is what its night shows."""

    table: str
    number: int
    day: object
    status: str
    money: dict      # player -> cents (the postings')
    players: list
    outcome: str
    kind: str | None
    bonuses: int
    fouls: list      # the verdict's fouls (player, code, line, enforced)
    sides_won: int
    raw: str         # the summary's JSON

    @classmethod
    def of(cls, hand, raw: str):
        s = json.loads(raw)
        return cls(hand.table, hand.number, hand.day, s["status"], hand.money, s["players"], s["outcome"],
                   s["kind"], len(s["bonuses"]), s["fouls"], sum(1 for g in s["side_games"] if g["winners"]), raw)

    def full(self) -> dict:
        out = json.loads(self.raw)
        out.update(table=self.table, number=self.number, day=self.day, money=self.money)
        return out


def season_values(season, shown, paths) -> dict:
    """The season page: the chart of each player's net hand by hand and its figures after
    each night, the season in figures."""
    from ..words import _

    totals = {name: 0 for name in season.players}
    series = {name: [] for name in season.players}
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
    return {"season": season, "paths": paths, "chart": chart, "legend": legend, "after_night": after_night,
            "counts": counts, "ratings": season.ratings, "nights_played": season.nights_played,
            "min_nights": season.min_nights, "party": pages.party,
            "first_day": season.hands[0].day if season.hands else None,
            "last_day": season.hands[-1].day if season.hands else None}


def player_values(name, season, shown, paths) -> dict:
    """The player page: their record (store/career.py, as `desmoche-ref player` prints it),
    the course of their rating, each side game and bonus summed (not a line a posting), each
    foul with its rule's words, their nights and, folded, their hands."""
    from .. import rulebook
    from ..words import _, language

    record = season.records.get(name)
    rows, total = [], 0
    for s in shown:
        if name not in s.players and name not in s.money:
            continue
        total += s.money.get(name, 0)
        rows.append((s, s.money.get(name, 0), total))
    titles = rulebook.load(language())
    fouls = [(s, f, titles.get(f["code"])) for s, _c, _t in rows for f in s.fouls if f["player"] == name]
    chart = pages.chart(_("{player}'s net, hand by hand").format(player=name),
                        [(name, [t for _s, _c, t in rows])], _("hands played"))
    curve = record.curve if record is not None else []
    # the chart draws cents: a rating is shown to two decimals, so a hundredth is its cent
    rating_chart = pages.chart(_("{player}'s rating after each rated hand").format(player=name),
                               [(name, [round(p.rating * 100) for p in curve])], _("rated hands")) if curve else None
    return {"name": name, "record": record, "rows": rows, "chart": chart, "rating_chart": rating_chart,
            "nights": _player_nights(rows, curve), "fouls": fouls, "rules": titles, "paths": paths,
            "hand_rows": lambda: _hand_rows(rows, paths)}


def _hand_rows(rows, paths):
    """The rows of the player's hands, a string each (a season's player has tens of thousands:
    a template's loop costs many times as much, and the page is written as they come)."""
    words = {}
    for s, cents, total in rows:
        said = words.get(s.outcome)
        if said is None:
            said = words[s.outcome] = str(pages.text_html(s.outcome))
        table = str(escape(s.table))
        yield (f'<tr><td>{s.day}</td><td>{table}</td><th scope="row" class="num"><a href="../'
               f'{escape(paths.hand(s.table, s.number))}">{s.number}</a></th><td>{said}</td>'
               f'<td class="num">{fmt(cents)}</td><td class="num">{fmt(total)}</td></tr>\n')


def _player_nights(rows, curve) -> list:
    """(night day, table, hands, net, rating after the night or None) of the player's nights."""
    after = {}
    for p in curve:
        after[(p.day, p.table)] = p.rating
    nights = {}
    for s, cents, _total in rows:
        key = (s.day, s.table)
        hands, net = nights.get(key, (0, 0))
        nights[key] = (hands + 1, net + cents)
    return [(day, table, hands, net, after.get((day, table))) for (day, table), (hands, net) in nights.items()]
