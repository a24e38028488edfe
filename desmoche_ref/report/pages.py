"""The report's pages: Jinja2 templates (autoescaped: whatever a record holds is text) filled
from a Season (store/read/season.py) and the hands judged again (judge.py; a hand's record and
replay are handtext.py's text). Where the pages sit and how they link is `Paths`. The words are
the run's language (cli/lang.py): the templates call `_`, `ngettext` as the Python code does."""

import os
import re
import unicodedata
from functools import lru_cache

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from ..cards import RED, card_named, pretty
from ..i18n import translations
from ..words import Style, _, outcome_sentence, rating_scale, say
from ..money import fmt
from ..rating import figure
from ..store.read.league import POT_PARTY
from . import svg

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")
ASSETS = ("report.css", "replay.js")
_PRETTY_CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")


# ------------------------------------------------------------------- cards
_CARD: dict[str, Markup] = {}   # a card's name -> its markup


def card_html(name: str) -> Markup:
    """One card (its ASCII name, Qd) as the page shows it: Q♦, red or black (a <b> is a card:
    the pages use it for nothing else; a short tag, as a season's pages hold millions)."""
    html = _CARD.get(name)
    if html is None:
        c = card_named(name)
        html = _CARD[name] = Markup('<b class=r>{}</b>' if RED[c] else '<b>{}</b>').format(pretty(c))
    return html


def cards_html(names) -> Markup:
    return Markup(" ").join(card_html(n) for n in names)


def _suit_html(m) -> str:
    return f'<b class=r>{m.group(0)}</b>' if m.group(2) in "♥♦" else f'<b>{m.group(0)}</b>'


_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")


_UNDERSCORE = re.compile(r"(?<=\w)_(?=\w)")


def text_html(text: str) -> Markup:
    """A line of words with cards in it (as `view` prints them, 10♠), the cards coloured;
    a `command` in it (a message naming what to type) as code; a name may break after its `_`."""
    html = _PRETTY_CARD.sub(_suit_html, str(escape(text)))
    if "`" in html:
        html = _CODE.sub(r"<code>\1</code>", html)
    return Markup(_UNDERSCORE.sub("_<wbr>", html) if "_" in html else html)


_NAME_BREAK = re.compile(r"([_.-])(?=\w)")


def name_html(name: str) -> Markup:
    """A name where a narrow column may break it: after each `_`, `-` or `.` (N3.1's stand-ins
    for a space: `Maximiliano_<wbr>Hernández`), never inside a word."""
    return Markup(_NAME_BREAK.sub(r"\1<wbr>", str(escape(name))))


def name_label(name: str) -> str:
    """A name as a folded table's label (a data-label attribute, which holds no <wbr>): a
    zero-width space after each `_`, `-` or `.`, where it may break."""
    return _NAME_BREAK.sub("\\1\u200b", name)


def rule_html(text: str) -> Markup:
    """Words as the rulebook and the pages' own texts write them (their markdown): `code`
    spans become <code>, **strong** <strong> and *emphasis* <em>."""
    html = _CODE.sub(r"<code>\1</code>", str(escape(text)))
    return Markup(_EMPHASIS.sub(r"<em>\1</em>", _STRONG.sub(r"<strong>\1</strong>", html)))


# ------------------------------------------------------------------- paths
def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9_-]+", "_", plain).strip("_") or "_"


PART = 100  # hands a night page holds at most: a longer night is written in pages of PART
ROWS = 100  # rows (nights) a season's or player's list shows on one page at most


def near(count: int, current: int, around: int = 3) -> list:
    """The pages (1 … `count`) a page of a list names beside itself: the first, the last and
    `around` either side of `current` — a bounded pager however long the list."""
    return [k for k in range(1, count + 1) if k in (1, count) or abs(k - current) <= around]


class Paths:
    """Where each page of the site is, relative to its root: index.html, a page a night (or
    a page a PART hands of a longer night: `nights/club-2026-09-04.p2.html`), a player's page
    (and, past ROWS nights, more: `players/Ana.p2.html`), the season's nights past ROWS
    (`nights/index.html`, `nights/index.p2.html`). A hand is an anchor of its night's page
    (`#h12`), a move of that hand another (`#h12-m31`). Names become file names (accents
    dropped, anything else `_`); two names that come out the same are told apart by a number.
    No name's file can be another page's: a name never holds a `.`, a night's ends in its day."""

    def __init__(self, tables, players):
        self.tables = self._unique(tables)
        self.players = self._unique(players)
        self.pages = {}  # (table, number) -> the night page that holds the hand (set_parts)

    @staticmethod
    def _unique(names) -> dict:
        out, taken = {}, set()
        for name in names:
            base = s = slug(name)
            k = 1
            while s.lower() in taken:  # file systems that ignore case
                k += 1
                s = f"{base}-{k}"
            taken.add(s.lower())
            out[name] = s
        return out

    @staticmethod
    def _part(base: str, part: int) -> str:
        return f"{base}.html" if part == 1 else f"{base}.p{part}.html"

    def night(self, table, day, part: int = 1) -> str:
        return self._part(f"nights/{self.tables[table]}-{day.isoformat()}", part)

    def set_parts(self, parts):
        """Where each hand is: `parts`, the night pages (site.NightPart) of the season."""
        for part in parts:
            for h in part.hands:
                self.pages[(h.table, h.number)] = part.page

    def hand(self, table, number) -> str:
        return f"{self.pages[(table, number)]}#h{number}"

    def move(self, table, number, move) -> str:
        return f"{self.pages[(table, number)]}#h{number}-m{move}"

    def old_hand(self, table, number) -> str:
        """The page a hand had before its night's page held it (reports made before issue 35)."""
        return f"hands/{self.tables[table]}-{number}.html"

    def player(self, name, part: int = 1) -> str:
        return self._part(f"players/{self.players[name]}", part)

    def nights(self, part: int = 1) -> str:
        return self._part("nights/index", part)


# -------------------------------------------------------------- environment
@lru_cache(maxsize=None)
def environment(lang: str) -> Environment:
    """The templates, autoescaped, with the words of `lang` (`_`, `ngettext`): one a language,
    each template compiled once a run (a child forked for the night pages has them already)."""
    words = translations(lang)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(_=words.gettext, ngettext=words.ngettext, fmt=fmt, say=say, POT_PARTY=POT_PARTY,
                       near=near, ROWS=ROWS, PART=PART, rating_scale=rating_scale)
    env.filters.update(cards=cards_html, words=text_html, rule=rule_html, money=fmt, figure=figure, name=name_html,
                       label=name_label)
    return env


def asset(name: str) -> str:
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as f:
        return f.read()


def party(name: str) -> str:
    """A settle-up party in words: the pots' share is `(pot)` in the run's language."""
    return _("(pot)") if name == POT_PARTY else name


# ------------------------------------------------------------- what shows
def outcome(report, out) -> str:
    """The hand's outcome in words, as `check` says it (its verdict's N8 JSON `out`)."""
    return outcome_sentence(out, report.errors)


def summary(judged, out=None) -> dict:
    """What the night, player and season pages show of a hand's verdict (plain values, kept
    between reports by the hand's key: report/values.Shown adds where, when and the money).
    `out`: the verdict's N8 JSON, if made already."""
    report = judged.report
    out = out or report.as_json()
    result = out["outcome"] or {}
    return {"status": out["status"], "outcome": outcome(report, out), "kind": result.get("kind"),
            "winners": result.get("winners") or [], "auto": result.get("auto"),
            "players": out["players"], "dealer": out["dealer"], "pot": out["pot"], "bet": out["bet"],
            "carry_in": out["carry_in"], "carry_out": out["carry_out"], "bonuses": out["bonuses"] or [],
            "side_games": out["side_games"] or [], "fouls": out["fouls"], "findings": len(report.findings()),
            "first_line": judged.record.events[0].line if judged.record.events else None,
            "moves": len(judged.steps) if judged.steps else len(judged.record.events)}


def move_of(summary: dict, line: int) -> int | None:
    """The move (1, 2, …) of a hand's record line (its replay's step: `#h12-m5`), None for a
    line before its moves or after the last its replay shows."""
    first = summary.get("first_line")
    if first is None or line < first or line - first >= summary.get("moves", 0):
        return None
    return line - first + 1


def recorded_by(recorders) -> str | None:
    """Who entered the hand's first move the book knows the recorder of (the record says
    where another takes over), or None."""
    return next((r for r in recorders if r), None)


def findings(report, rules, moves=None) -> list:
    """(line, move or None, code, message in words, the rule's text or None) of each finding;
    `moves` maps a record's line to its move (a finding at a tag has none)."""
    out = []
    for line, code, message in report.findings():
        rule = rules.get(code)
        out.append((line, (moves or {}).get(line), code, text_html(_pretty_message(message)), rule))
    return out


class _Page:
    """What cli.render.Style asks of its stream: a page shows the suits, in no terminal colour."""

    encoding = "utf-8"

    @staticmethod
    def isatty():
        return False


def _pretty_message(message) -> str:
    """An engine message in the run's language, its cards (7d) as a person reads them (7♦)."""
    return Style(stream=_Page()).text(message)


def chart(title, series, x_label) -> Markup:
    """The chart twice: wide for a page, narrow (fewer ticks, labels legible) for a phone;
    the style sheet shows one."""
    return svg.line_chart(title, series, x_label) + svg.line_chart(title, series, x_label, cls="narrow",
                                                                   **svg.NARROW)
