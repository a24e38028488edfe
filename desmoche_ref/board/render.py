"""The board drawn: a Snapshot (store/read/scoreboard.py) as the page's HTML, the fragment pushed to
open pages, and the JSON. Rendered once per change whoever watches (board/hub.py), in the
language the board was started in.

Jinja2 autoescapes every template: a player or table named `<script>` is text. The board's
templates (board/templates) are its own: `layout.html` the page every view of the board
extends (its head, its live status, its assets: an entry page beside a table's view extends
it too), `board.html` the phone's and a computer's page, `tv.html` the room's screen,
`_board.html` the fragment both show (one panel per table, per table's night, per part of the
season and the ratings: the TV shows them a screen at a time, board.js), `_parts.html` the
panels themselves.
"""

import json
import os
from datetime import datetime

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..money import fmt
from ..store.read.league import POT_PARTY
from .sentences import Words, card_html, cards_html

HERE = os.path.dirname(__file__)
TEMPLATES = os.path.join(HERE, "templates")
REFRESH = 5           # seconds: a page without JavaScript reloads itself this often
CYCLE = 15            # seconds each screen of the TV is shown when they do not all fit at once
SEASON_TOP = 10       # the season's leaders shown, besides tonight's players
PANEL_ROWS = 10       # rows of the season's (or the ratings') table in one panel: a TV screen's worth
ASSETS = ("board.css", "board.js", "favicon.svg")  # the files served under /assets/


class Renderer:
    """The board's templates in one language. `address`: where phones open the board (shown
    with its QR code `qr_svg` on the TV), None on a board for this computer only."""

    def __init__(self, lang: str, version: str = "", address: str | None = None, qr_svg=None,
                 refresh: int = REFRESH, cycle: int = CYCLE, entry: bool = False):
        from .. import rulebook

        self.refresh, self.cycle = refresh, cycle
        self.words = Words(lang)
        self.rules = rulebook.load(lang)
        self.lang, self.version, self.address, self.qr_svg = lang, version, address, qr_svg
        env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                          trim_blocks=True, lstrip_blocks=True)
        words = self.words
        env.globals.update(_=words._, ngettext=words.ngettext, fmt=fmt, w=words, rules=self.rules,
                           party=self.party, POT_PARTY=POT_PARTY, entry=entry)  # entry: a table's link to it
        env.filters.update(card=card_html, cards=cards_html, money=fmt, signed=signed, clock=_time)
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

        return self.env.get_template("tv.html" if tv else "board.html").render(
            lang=self.lang, version=self.version, tv=tv, refresh=self.refresh, cycle=self.cycle,
            fragment=Markup(fragment), address=self.address, qr=Markup(self.qr_svg or ""))

    def _values(self, snapshot, notice) -> dict:
        if snapshot is None:
            return {"snapshot": None, "notice": notice, "tables": [], "season": [], "ratings": [], "provisional": []}
        seated = {name for t in snapshot.tables for name in t.seats}
        rated = snapshot.ratings
        ratings = panels(season_rows(rated.rated if rated else [], seated))
        provisional = [r for r in rated.provisional if r.player in seated] if rated else []
        return {"snapshot": snapshot, "notice": notice, "tables": snapshot.tables,
                "season": panels(season_rows(snapshot.season.players, seated)),
                "ratings": ratings or ([[]] if provisional else []), "provisional": provisional,
                "changed": _local(snapshot.changed)}


def season_rows(rows, seated) -> list:
    """[(place, row)] of the rows (ranked) the board shows: the leaders and every player seated
    tonight."""
    return [(place, row) for place, row in enumerate(rows, 1) if place <= SEASON_TOP or row.player in seated]


def panels(rows) -> list:
    """Rows in panels of PANEL_ROWS."""
    return [rows[k:k + PANEL_ROWS] for k in range(0, len(rows), PANEL_ROWS)]


def signed(cents: int) -> str:
    """A net as the board shows it: +35.00, −25.00, 0.00."""
    return ("+" if cents > 0 else "") + fmt(cents).replace("-", "−")


def _local(when):
    """A time as the room reads it: the computer's own clock and zone."""
    if when is None:
        return None
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def _time(when):
    """The hour of a time tonight, on the computer's clock."""
    return when.astimezone().strftime("%H:%M") if when is not None else ""


def snapshot_json(snapshot, notice=None) -> dict:
    """The board as JSON: every table's hand (its public view and what became of it), its
    night (its first hand and since when, each settled hand's nets, each voided hand's reason,
    the night's standings in `standings --json`'s form and its settle-up in `settle-up
    --json`'s transfers), the season's standings (`standings --json`) and ratings (`ratings
    --json`), the book head and the time of its last change."""
    if snapshot is None:
        return {"tables": [], "season": None, "ratings": None, "head": None, "changed": None, "missing": [],
                "notice": notice}
    return {
        "tables": [_table_json(t) for t in snapshot.tables],
        "season": snapshot.season.as_json(),
        "ratings": snapshot.ratings.as_json() if snapshot.ratings is not None else None,
        "head": snapshot.head,
        "changed": snapshot.changed.isoformat() if isinstance(snapshot.changed, datetime) else None,
        "missing": snapshot.missing,
        "notice": notice,
    }


def _table_json(t) -> dict:
    n = t.night
    return {"name": t.name, "seats": t.seats, "closed": t.closed, "hand": t.hand,
            "tonight": {"first": n.first, "since": n.since.isoformat() if n.since else None,
                        "voided": [{"number": k, "reason": r} for k, r in sorted(n.voided.items())]},
            "results": [{"number": h.number, "dealer": h.dealer, "outcome": h.outcome, "winners": h.winners,
                         "net": {p: fmt(c) for p, c in h.net.items()}} for h in n.hands],
            "night": n.standings.as_json(),
            "settle_up": [{"from": x.payer, "to": x.payee, "amount": fmt(x.cents)} for x in n.transfers]}


def dumps(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def asset(name: str) -> bytes:
    with open(os.path.join(TEMPLATES, name), "rb") as f:
        return f.read()
