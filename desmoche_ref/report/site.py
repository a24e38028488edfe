"""The report written: a folder of pages (a season page, a page a night, a hand, a player),
or the season page alone as one self-contained file. Nothing is fetched from anywhere: the
style sheet and the replay's script sit beside the pages (or inside the one file).

The hand pages are most of the work (each hand judged again and its table drawn after every
move): half of them are written by a child process forked for it, half by this one, so a
season takes both cores (store/forked.py: the child reads no book, only the hands given).
"""

import os
from datetime import datetime, timezone

from markupsafe import Markup

from . import pages
from .judge import judge

MARKER = ".desmoche-report"  # the file that says a folder is a report (it may be refreshed)


def _context(season, lang):
    from importlib.metadata import version

    return {"lang": lang, "made": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "version": version("desmoche-ref"), "season": season}


def _neighbours(season, paths):
    """For each hand of the season (in order): its page, the previous and the next hand's
    page at the same night, and its night's page."""
    out = []
    for night in season.nights:
        keys = [paths.hand(h.table, h.number) for h in night.hands]
        for k, h in enumerate(night.hands):
            out.append((h, keys[k], keys[k - 1] if k else None, keys[k + 1] if k + 1 < len(keys) else None,
                        paths.night(h.table, h.day)))
    return out


def _hand_pages(items, root, base, paths):
    """Write the hand pages of `items` ((index, hand, page, previous, next, night)); yields
    (index, summary) as each is written."""
    from .. import rulebook

    env = pages.environment(base["lang"])
    gettext = env.globals["_"]
    template = env.get_template("hand.html")
    rules = rulebook.load(base["lang"])
    for index, hand, page, before, after, night in items:
        judged = judge(hand.text)
        out = judged.report.as_json()
        shown = pages.summary(hand, judged, out)
        html = template.render(base, root="../", inline=False, links=True, hand=hand, steps=judged.steps,
                               replay=pages.replay_html(judged.steps, gettext),
                               record=pages.record_html(hand.text, {s.line: s.move for s in judged.steps},
                                                        hand.recorders, gettext),
                               recorder=pages.recorded_by(hand.recorders),
                               findings=pages.findings(judged.report, rules, {s.line: s.move for s in judged.steps}),
                               previous=before, next=after,
                               night=night, paths=paths, out=out, outcome=shown["outcome"])
        with open(os.path.join(root, page), "w", encoding="utf-8") as f:
            f.write(html)
        yield index, shown


def _summaries(items):
    for index, hand, *_rest in items:
        yield index, pages.summary(hand, judge(hand.text, replay=False))


def build(season, root: str, lang: str, progress=None, inline_file=None) -> dict:
    """Write the report of `season` into the folder `root` (made empty by the caller), or,
    with `inline_file`, the season page alone into that file. `progress(n)`: n more hands
    done. Returns figures: pages and bytes written."""
    from itertools import zip_longest

    from ..store.forked import forked

    paths = pages.Paths(season.tables, season.players)
    base = _context(season, lang)
    items = [(i, *entry) for i, entry in enumerate(_neighbours(season, paths))]
    summaries = [None] * len(items)
    if inline_file is None:
        for folder in ("hands", "nights", "players", "assets"):
            os.makedirs(os.path.join(root, folder), exist_ok=True)
        for name in pages.ASSETS:
            with open(os.path.join(root, "assets", name), "w", encoding="utf-8") as f:
                f.write(pages.asset(name))
        mine, theirs = items[0::2], items[1::2]
        produced = (_hand_pages(mine, root, base, paths),
                    forked(_hand_pages, theirs, root, base, paths) if theirs else iter(()))
    else:
        produced = (_summaries(items), iter(()))
    for pair in zip_longest(*produced):
        for got in pair:
            if got is not None:
                summaries[got[0]] = got[1]
                if progress:
                    progress(1)
    env = pages.environment(lang)
    figures = {"hands": len(items), "pages": 0, "bytes": 0}

    def write(page, template, **values):
        html = env.get_template(template).render(base, **values)
        target = inline_file or os.path.join(root, page)
        with open(target, "w", encoding="utf-8") as f:
            f.write(html)
        figures["pages"] += 1
        figures["bytes"] += len(html.encode("utf-8"))
        if page == "index.html":
            figures["season_bytes"] = len(html.encode("utf-8"))

    by_key = {(s["table"], s["number"]): s for s in summaries}
    season_values = _season_values(season, summaries, paths)
    if inline_file is not None:
        write("index.html", "season.html", root="", inline=True, css=Markup(pages.asset("report.css")),
              links=False, **season_values)
        return figures
    write("index.html", "season.html", root="", inline=False, links=True, **season_values)
    for night in season.nights:
        rows = [by_key[(h.table, h.number)] for h in night.hands]
        seated = list(dict.fromkeys(name for r in rows for name in r["players"]))
        write(paths.night(night.table, night.day), "night.html", root="../", inline=False, links=True,
              night=night, rows=rows, seated=seated, paths=paths, party=pages.party)
    for name in season.players:
        write(paths.player(name), "player.html", root="../", inline=False, links=True,
              **_player_values(name, season, summaries, paths))
    with open(os.path.join(root, MARKER), "w", encoding="utf-8") as f:
        f.write("desmoche-ref report\n")
    return figures


# ------------------------------------------------------------- the pages
def _season_values(season, summaries, paths) -> dict:
    from ..words import _

    series = []
    for name in season.players:
        total, curve = 0, []
        for s in summaries:
            total += s["money"].get(name, 0)
            curve.append(total)
        series.append((name, curve))
    after_night = []  # (night, {player: net after it})
    totals, k = {name: 0 for name in season.players}, 0
    for night in season.nights:
        for _h in night.hands:
            for name, cents in summaries[k]["money"].items():
                if name in totals:
                    totals[name] += cents
            k += 1
        after_night.append((night, dict(totals)))
    counts = {"hands": len(summaries), "complete": 0, "wins": 0, "auto_wins": 0, "no_winner": 0,
              "bonuses": 0, "bonus_money": 0, "fouls": 0, "forgiven": 0, "side_games_won": 0}
    from ..money import parse_amount

    for s in summaries:
        counts["complete"] += s["status"] == "complete"
        counts["wins"] += s["kind"] == "win"
        counts["auto_wins"] += s["kind"] == "auto-win"
        counts["no_winner"] += s["kind"] == "no-winner"
        counts["bonuses"] += len(s["bonuses"])
        counts["bonus_money"] += sum(parse_amount(b["amount"]) for b in s["bonuses"])
        counts["fouls"] += sum(1 for f in s["fouls"] if f["enforced"])
        counts["forgiven"] += sum(1 for f in s["fouls"] if not f["enforced"])
        counts["side_games_won"] += sum(1 for g in s["side_games"] if g["winners"])
    chart = pages.chart(_("Each player's net over the season"), series, _("hands, in the order played"))
    legend = [(name, pages.svg.legend_marker(i), curve[-1] if curve else 0) for i, (name, curve) in enumerate(series)]
    return {"paths": paths, "chart": chart, "legend": legend, "after_night": after_night, "counts": counts,
            "ratings": season.ratings, "nights_played": season.nights_played, "min_nights": season.min_nights,
            "party": pages.party, "first_day": season.hands[0].day if season.hands else None,
            "last_day": season.hands[-1].day if season.hands else None}


def _player_values(name, season, summaries, paths) -> dict:
    """The player page: their record (store/career.py, as `desmoche-ref player` prints it),
    the course of their rating, each side game and bonus summed (not a line a posting), each
    foul with its rule's words, their nights and, folded, their hands."""
    from .. import rulebook
    from ..words import _, language

    record = season.records.get(name)
    rows, total = [], 0
    for s in summaries:
        if name not in s["players"] and name not in s["money"]:
            continue
        total += s["money"].get(name, 0)
        rows.append((s, s["money"].get(name, 0), total))
    titles = rulebook.load(language())
    fouls = [(s, f, titles.get(f["code"])) for s, _c, _t in rows for f in s["fouls"] if f["player"] == name]
    chart = pages.chart(_("{player}'s net, hand by hand").format(player=name),
                        [(name, [t for _s, _c, t in rows])], _("hands played"))
    curve = record.curve if record is not None else []
    # the chart draws cents: a rating is shown to two decimals, so a hundredth is its cent
    rating_chart = pages.chart(_("{player}'s rating after each rated hand").format(player=name),
                               [(name, [round(p.rating * 100) for p in curve])], _("rated hands")) if curve else None
    return {"name": name, "record": record, "rows": rows, "chart": chart, "rating_chart": rating_chart,
            "nights": _player_nights(rows, curve), "fouls": fouls, "rules": titles, "paths": paths}


def _player_nights(rows, curve) -> list:
    """(night day, table, hands, net, rating after the night or None) of the player's nights."""
    after = {}
    for p in curve:
        after[(p.day, p.table)] = p.rating
    nights = {}
    for s, cents, _total in rows:
        key = (s["day"], s["table"])
        hands, net = nights.get(key, (0, 0))
        nights[key] = (hands + 1, net + cents)
    return [(day, table, hands, net, after.get((day, table))) for (day, table), (hands, net) in nights.items()]
