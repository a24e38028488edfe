"""The board drawn: a Snapshot (store/scoreboard.py) as the page's HTML, the fragment pushed to
open pages, and the JSON. Rendered once per change whoever watches (board/hub.py), in the
language the board was started in.

Jinja2 autoescapes every template: a player or table named `<script>` is text. The board's
templates sit in board/templates and use the report's where they are the same (its base page,
its macros, its style sheet: report/templates).
"""

import json
import os
from datetime import datetime

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, select_autoescape

from ..money import fmt
from ..store.league import POT_PARTY
from .words import Words, card_html, cards_html

HERE = os.path.dirname(__file__)
TEMPLATES = os.path.join(HERE, "templates")
REPORT_TEMPLATES = os.path.join(os.path.dirname(HERE), "report", "templates")
REFRESH = 5           # seconds: a page without JavaScript reloads itself this often
CYCLE = 12            # seconds each table is shown on a TV that cannot show them all at once
SEASON_TOP = 10       # the season's leaders shown, besides tonight's players
# the files served under /assets/ (name -> folder): the report's style sheet, then the board's
ASSETS = {"report.css": REPORT_TEMPLATES, "board.css": TEMPLATES, "board.js": TEMPLATES,
          "favicon.svg": TEMPLATES}


class Renderer:
    """The board's templates in one language."""

    def __init__(self, lang: str, version: str = "", address: str | None = None, qr_svg=None,
                 refresh: int = REFRESH, cycle: int = CYCLE):
        from .. import rulebook

        self.refresh, self.cycle = refresh, cycle
        self.words = Words(lang)
        self.rules = rulebook.load(lang)
        self.lang, self.version, self.address, self.qr_svg = lang, version, address, qr_svg
        env = Environment(loader=ChoiceLoader([FileSystemLoader(TEMPLATES), FileSystemLoader(REPORT_TEMPLATES)]),
                          autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
        words = self.words
        env.globals.update(_=words._, ngettext=words.ngettext, fmt=fmt, w=words, rules=self.rules,
                           party=self.party, POT_PARTY=POT_PARTY)
        env.filters.update(card=card_html, cards=cards_html, money=fmt)
        self.env = env

    def party(self, name: str) -> str:
        """A settle-up party: the pots' share is `(pot)` in the board's language."""
        return self.words._("(pot)") if name == POT_PARTY else name

    def fragment(self, snapshot, notice=None) -> str:
        """What the page shows inside its <main>: pushed whole to every open page on a change."""
        return self.env.get_template("_board.html").render(self._values(snapshot, notice))

    def page(self, fragment: str, tv: bool = False) -> str:
        """The whole page around a fragment (`tv`: the room's screen)."""
        from markupsafe import Markup

        return self.env.get_template("board.html").render(
            lang=self.lang, version=self.version, tv=tv, refresh=self.refresh, cycle=self.cycle,
            fragment=Markup(fragment),
            root="/", inline=False, links=False, address=self.address, qr=Markup(self.qr_svg or ""))

    def _values(self, snapshot, notice) -> dict:
        if snapshot is None:
            return {"snapshot": None, "notice": notice, "season": {}, "tables": []}
        return {"snapshot": snapshot, "notice": notice, "tables": snapshot.tables,
                "season": season_rows(snapshot), "changed": _local(snapshot.changed)}


def season_rows(snapshot) -> dict:
    """{player: place} of the season's standings the board shows: its leaders and every
    player seated tonight."""
    seated = {name for t in snapshot.tables for name in t.seats}
    return {row.player: place for place, row in enumerate(snapshot.season.players, 1)
            if place <= SEASON_TOP or row.player in seated}


def _local(when):
    """A time as the room reads it: the computer's own clock and zone."""
    if when is None:
        return None
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def snapshot_json(snapshot, notice=None) -> dict:
    """The board as JSON: every table's public view, its night's nets (`standings --json
    --table NAME`'s form) and settle-up (`settle-up --json --table NAME`'s transfers), the
    season's standings (`standings --json`) and ratings (`ratings --json`), the book head and
    the time of its last change."""
    if snapshot is None:
        return {"tables": [], "season": None, "ratings": None, "head": None, "changed": None, "missing": [],
                "notice": notice}
    return {
        "tables": [{"name": t.name, "seats": t.seats, "closed": t.closed, "hand": t.hand,
                    "results": [{"number": h.number, "dealer": h.dealer, "outcome": h.outcome,
                                 "winners": h.winners, "net": {p: fmt(c) for p, c in h.net.items()}}
                                for h in t.results],
                    "night": t.night.as_json(),
                    "settle_up": [{"from": x.payer, "to": x.payee, "amount": fmt(x.cents)} for x in t.transfers]}
                   for t in snapshot.tables],
        "season": snapshot.season.as_json(),
        "ratings": snapshot.ratings.as_json() if snapshot.ratings is not None else None,
        "head": snapshot.head,
        "changed": snapshot.changed.isoformat() if isinstance(snapshot.changed, datetime) else None,
        "missing": snapshot.missing,
        "notice": notice,
    }


def dumps(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def asset(name: str) -> bytes:
    with open(os.path.join(ASSETS[name], name), "rb") as f:
        return f.read()
