"""The report written: a folder of pages (a season page, a page a night holding its hands, a
page a player), or the season page alone as one self-contained file. Nothing is fetched from
anywhere: the style sheet and the replay's script sit beside the pages (or inside the one file).

The season's data comes from the store (store/read/season.py: a `reader` with `.season` and
`.records(hands)`); this package renders it. The night pages are most of the work (each hand
judged again and its table replayed after every move: nights.py). Every page is bounded
whatever the season's size (issue 35): a night page holds at most pages.PART hands, the
season's and each player's page at most pages.ROWS nights (the others on pages of their own).

A folder that holds a report is brought up to date (manifest.py): what changed is written.
"""

import os
from datetime import datetime, timezone

from markupsafe import Markup

from . import nights as night_pages, pages
from .manifest import CACHE, MARKER, Figures, Manifest, Writer, key, prune, stamp
from .values import Shown, player_values, season_values

__all__ = ["MARKER", "CACHE", "build"]


def _context(lang):
    from importlib.metadata import version

    return {"lang": lang, "version": version("desmoche-ref"), "made": None}


def build(reader, root: str, lang: str, progress=None, inline_file=None) -> Figures:
    """Write the report of `reader.season` into the folder `root` (new, empty or a report made
    before: brought up to date), or, with `inline_file`, the season page alone into that file.
    `progress(n)`: n more hands done. Returns figures: pages and bytes, the files written."""
    season = reader.season
    paths = pages.Paths(season.tables, season.players)
    parts = night_pages.night_parts(season, paths)
    base = _context(lang)
    env = pages.environment(lang)
    current = stamp(lang, os.path.dirname(__file__), pages.TEMPLATES)
    old = Manifest.read(root, current) if inline_file is None else Manifest(current)
    new = Manifest(current)
    writer = Writer(root, old, new)
    if inline_file is None:
        for folder in ("nights", "players", "assets"):
            os.makedirs(os.path.join(root, folder), exist_ok=True)
        for name in pages.ASSETS:
            writer.put(f"assets/{name}", pages.asset(name))
    env.get_template("night.html")  # compiled here once: the children forked for the nights have it
    summaries = night_pages.make(reader, season, parts, paths, base, None if inline_file else root, old, new,
                                 writer, progress)
    old.summaries = {}  # what is still wanted, new.summaries holds
    shown = [Shown.of(hand, s) for hand, s in zip(season.hands, summaries)]
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    base = dict(base, head=season.head)  # the season page says which book it shows
    values = season_values(season, shown, paths)
    if inline_file is not None:
        html = env.get_template("season.html").render(base, root="", inline=True, css=Markup(pages.asset("report.css")),
                                                      links=False, made=made, **values)
        with open(inline_file, "w", encoding="utf-8") as f:
            f.write(html)
        return {"hands": len(shown), "pages": 1, "bytes": len(html.encode("utf-8")), "written": [inline_file]}
    writer.put("index.html", env.get_template("season.html").render(base, root="", inline=False, links=True,
                                                                    made=made, **values))
    everything = key(sorted(paths.players.items()), sorted(paths.tables.items()), season.players)
    listed = env.get_template("season_list.html")
    for k in range(2, len(values["lists"]) + 1):
        _listed(writer, values["lists"], k, everything,
                lambda k=k: listed.render(base, root="../", inline=False, links=True, current=k, **values))
    _player_pages(env, base, season, shown, paths, writer, everything)
    _moved(season, paths, summaries, old, new, writer, lang)
    figures = writer.figures
    figures["written"] += new.write(root, old)
    figures["removed"] = prune(root, new)
    figures["hands"] = len(shown)
    return figures


def _listed(writer, lists, k: int, everything: str, render):
    """Page k of a list of nights (values.py's `lists`), made by `render()` unless what it shows
    — its rows, the pages its pager names, the names' files — is what it showed: a night more
    changes the last page of a list, not the others."""
    page, _first, _last, rows = lists[k - 1]
    starts = [first["day"] if isinstance(first, dict) else first.day for _p, first, _l, _r in lists]
    writer.new.keys[page] = k_ = key(rows, starts, k, everything)
    if writer.old.keys.get(page) == k_ and writer.keep(page):
        return
    writer.put(page, render())


def _player_pages(env, base, season, shown, paths, writer, everything):
    """A page a player, and one more each pages.ROWS of their nights past the first."""
    main, listed = env.get_template("player.html"), env.get_template("player_list.html")
    for name in season.players:
        values = player_values(name, season, shown, paths)
        writer.put(paths.player(name), main.render(base, root="../", inline=False, links=True, **values))
        for k in range(2, len(values["lists"]) + 1):
            _listed(writer, values["lists"], k, everything + name,
                    lambda k=k, values=values: listed.render(base, root="../", inline=False, links=True, current=k,
                                                             **values))


def _moved(season, paths, summaries, old, new, writer, lang):
    """The hand pages of a report made before issue 35 (a page a hand), each now a page that
    sends the reader on to the hand on its night's page — to the same move, where the link
    named one (`#move-5`, `#line-12`): a link to one keeps working as long as the hand is in
    the report. Kept from report to report; one whose hand is no longer shown goes."""
    if not old.moved:
        return
    import json

    env = pages.environment(lang)
    template = env.get_template("moved.html")
    where = {paths.old_hand(h.table, h.number): (h, s) for h, s in zip(season.hands, summaries)}
    for page in sorted(old.moved):
        found = where.get(page)
        if found is None:
            continue
        hand, summary = found
        said = json.loads(summary)
        target = paths.hand(hand.table, hand.number)
        new.moved[page] = target
        new.keys[page] = k = key(target, said.get("first_line"), said.get("moves"))
        if old.keys.get(page) == k and writer.keep(page):
            continue
        title = env.globals["_"]("table {table} hand {number}").format(table=hand.table, number=hand.number)
        writer.put(page, template.render(lang=lang, target=f"../{target}", first=said.get("first_line") or 0,
                                         moves=said.get("moves", 0), title=title))
    if new.moved:
        writer.put("assets/moved.js", pages.asset("moved.js"))
