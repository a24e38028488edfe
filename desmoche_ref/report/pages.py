"""The report's pages: Jinja2 templates (autoescaped: whatever a record holds is text) filled
from a Season (collect.py) and the hands judged again (judge.py). Each page is written as one
file; where the pages sit and how they link is `Paths`. The words are the run's language
(cli/lang.py): the templates call `_`, `ngettext` as the Python code does."""

import os
import re
import unicodedata
from functools import lru_cache

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from ..cards import RED, parse_card, pretty
from ..i18n import N_, translations
from ..words import STATUS, Style, _, offer_text, outcome_sentence, pile_text, rating_scale, say, stock_text, turn
from ..money import fmt
from ..rating import figure
from ..store.league import POT_PARTY
from . import svg

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")
ASSETS = ("report.css", "replay.js")
_PRETTY_CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")


# ------------------------------------------------------------------- cards
_CARD = {}


def card_html(name: str) -> Markup:
    """One card (its ASCII name, Qd) as the page shows it: Q♦, red or black (a <b> is a card:
    the pages use it for nothing else; a short tag, as a season's pages hold millions)."""
    html = _CARD.get(name)
    if html is None:
        c = parse_card(name)
        html = _CARD[name] = Markup('<b class=r>{}</b>' if RED[c] else '<b>{}</b>').format(pretty(c))
    return html


def cards_html(names) -> Markup:
    return Markup(" ").join(card_html(n) for n in names)


def _suit_html(m) -> str:
    return f'<b class=r>{m.group(0)}</b>' if m.group(2) in "♥♦" else f'<b>{m.group(0)}</b>'


_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")


def text_html(text: str) -> Markup:
    """A line of words with cards in it (as `view` prints them, 10♠), the cards coloured;
    a `command` in it (a message naming what to type) as code."""
    return Markup(_CODE.sub(r"<code>\1</code>", _PRETTY_CARD.sub(_suit_html, str(escape(text)))))


def plain_html(text: str) -> str:
    """A line of words with cards in it, as text (the replay's: replay.js colours its cards;
    a page without a script reads 10♠ and 7♥ as they are); a `command` in it as code."""
    html = str(escape(text))
    return _CODE.sub(r"<code>\1</code>", html) if "`" in html else html


def rule_html(text: str) -> Markup:
    """Words as the rulebook and the pages' own texts write them (their markdown): `code`
    spans become <code>, **strong** <strong> and *emphasis* <em>."""
    html = _CODE.sub(r"<code>\1</code>", str(escape(text)))
    return Markup(_EMPHASIS.sub(r"<em>\1</em>", _STRONG.sub(r"<strong>\1</strong>", html)))


# ------------------------------------------------------------------- paths
def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9_-]+", "_", plain).strip("_") or "_"


class Paths:
    """Where each page of the site is, relative to its root: index.html, and one folder
    each for nights, hands and players. Names become file names (accents dropped, anything
    else `_`); two names that come out the same are told apart by a number."""

    def __init__(self, tables, players):
        self.tables = self._unique(tables)
        self.players = self._unique(players)

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

    def hand(self, table, number) -> str:
        return f"hands/{self.tables[table]}-{number}.html"

    def night(self, table, day) -> str:
        return f"nights/{self.tables[table]}-{day.isoformat()}.html"

    def player(self, name) -> str:
        return f"players/{self.players[name]}.html"


# -------------------------------------------------------------- environment
@lru_cache(maxsize=None)
def environment(lang: str) -> Environment:
    """The templates, autoescaped, with the words of `lang` (`_`, `ngettext`): one a language,
    each template compiled once a run (a child forked for the hand pages has them already)."""
    words = translations(lang)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(_=words.gettext, ngettext=words.ngettext, fmt=fmt, say=say, POT_PARTY=POT_PARTY,
                       rating_scale=rating_scale)
    env.filters.update(cards=cards_html, words=text_html, rule=rule_html, money=fmt, figure=figure)
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
            "side_games": out["side_games"] or [], "fouls": out["fouls"], "findings": len(report.findings())}


def replay_html(steps, gettext) -> Markup:
    """The replay's steps, one <section id="move-N"> each: the table after the move as
    `view --at` shows it (its words are cli/view.py's). The first step holds the whole table;
    each next one only what its move changed (a player's row, the card on offer, the pile)
    and the stock and whose turn: without a script every step is on the page and reads as the
    move and what it did; replay.js fills each step in from the one before, so a step shown
    alone is the whole table again. A season has a million steps: the table drawn whole at
    each was 80% of a report's bytes (issue 27)."""
    if not steps:
        return Markup("")
    names = {p["name"]: str(escape(p["name"])) for p in steps[0].view["players"]}
    status = {code: str(escape(gettext(word))) for code, word in STATUS.items()}
    head = "<thead><tr>" + "".join(f'<th scope="col">{escape(gettext(h))}</th>'
                                   for h in (N_("player"), N_("status"), N_("hand"), N_("table"))) + "</tr></thead>"
    move_word, line_word = gettext(N_("move {move}")), gettext(N_("line {line}"))
    turn_word = gettext(N_("turn: {turn}"))
    seen, last, last_dead, pile = {}, {}, None, ""  # what the step before showed: rows; offer, pile, turn
    out = []
    for k, step in enumerate(steps):
        t = step.view
        rows = []
        for p in t["players"]:
            key = (p["status"], p["hand"], p["unknown"], p["melds"])
            if seen.get(p["name"]) != key:
                seen[p["name"]] = key
                rows.append(_row(p, names[p["name"]], status))
        parts = [f'<table class="seats">{head if k == 0 else ""}<tbody>{"".join(rows)}</table>'] if rows else []
        if k == 0 or t["dead"] != last_dead:
            last_dead, pile = t["dead"], plain_html(pile_text(t, False))
        for part, html in (("offer", plain_html(offer_text(t, False))), ("pile", pile), ("stock", stock_text(t)),
                           ("turn", plain_html(turn_word.format(turn=turn(t, False))))):
            if part in ("stock", "turn") or last.get(part) != html:
                last[part] = html
                parts.append(f'<p class="{part}">{html}</p>')
        n, line = step.move, step.line
        out.append(f'<section class="step" id="move-{n}" data-move="{n}" data-line="{line}">'
                   f'<h3>{move_word.format(move=n)} · <a href="#line-{line}">{line_word.format(line=line)}</a>: '
                   f'<code>{escape(step.text)}</code></h3>{"".join(parts)}</section>\n')
    return Markup("".join(out))


def _row(p, name, status) -> str:
    """A player's row of the replay's table: status, cards held (and how many unseen), melds."""
    held = " ".join([_CARD_STR.get(c) or _card_str(c) for c in p["hand"]])
    if p["unknown"]:
        held += f' <span class="unknown">+{p["unknown"]}?</span>'
    melds = "".join(['<span class="meld">' + " ".join([_CARD_STR.get(c) or _card_str(c) for c in m]) + "</span>"
                     for m in p["melds"]])  # the cards as text: replay.js colours them
    return (f'<tr data-player="{name}"><th scope="row">{name}</th><td>{status[p["status"]]}'
            f'<td class="held">{held}<td class="melds">{melds}')  # a cell ends where the next begins (HTML)


_CARD_STR = {}


def _card_str(name: str) -> str:
    text = _CARD_STR[name] = pretty(parse_card(name))
    return text


def record_html(text: str, moves: dict, recorders=(), gettext=str) -> Markup:
    """A record's lines, numbered (#line-N), each move's line linking to its step (#move-N).
    Who entered the moves, when the book knows (`recorders`: one a move, in order), is said
    once above them (`recorded_by`) and at a move only where it changes."""
    out = []
    before = next((r for r in recorders if r), None)
    for n, line in enumerate(text.splitlines(), 1):
        words = escape(line)
        if n in moves:
            words = f'<a href="#move-{moves[n]}">{words}</a>'
            move = moves[n]
            if 0 < move <= len(recorders) and recorders[move - 1] and recorders[move - 1] != before:
                before = recorders[move - 1]
                who = escape(gettext(N_("entered by {recorder}")).format(recorder=before))
                words = f'{words} <span class="by">{who}</span>'  # a str: Markup + would escape it again
        out.append(f'<span class="line" id="line-{n}">{words}</span>\n')  # its number: the style sheet's
    return Markup("".join(out))


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
