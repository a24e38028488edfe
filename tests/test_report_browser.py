"""The report's pages in a real browser (issue 18): Debian's Chromium, headless, driven by
Playwright for Python through its executable path (no browser is downloaded). One browser
for the test process (conftest.chromium, shared with the board's tests); the reports are built
once, from the sample logs and the league's records and from a simulated season of 24 hands
over 3 nights, in English and in Spanish.

Skipped, saying why, where Chromium or Playwright is missing; `.ci/run` installs Chromium.
"""

import json
import os
import pathlib
import re
import sys

import pytest

from conftest import CHROMIUM

ROOT = pathlib.Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "bench"))
import benchkit  # noqa: E402

from test_report import HOSTILE_COMMENT, HOSTILE_EVENT, HOSTILE_TABLE, hostile_record  # noqa: E402

pytestmark = pytest.mark.slow

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                                              "(pip install -e '.[test]')")


def run(*args, db, status=0):
    """A command of the real command line, in-process (click's CliRunner), on the book `db`."""
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], env={"DESMOCHE_DB": str(db)})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == status, (args, result.output)
    return result.stdout


class Built:
    def __init__(self, folder):
        self.book = folder / "book.db"
        run("import", *sorted((ROOT / "sample_logs").glob("*.dsm")),
            *sorted((ROOT / "tests" / "league_data").glob("*.dsm")), db=self.book, status=1)
        simulated = folder / "season.dsm"
        text = run("simulate", "--hands", "24", "--players", "4", "--seed", "3", db=self.book)
        simulated.write_text(benchkit.dated(text, 8), encoding="utf-8")
        run("import", simulated, "--table", "club", db=self.book)
        self.en, self.es = folder / "season", folder / "temporada"
        run("report", "-o", self.en, db=self.book)
        run("--lang", "es", "report", "-o", self.es, db=self.book)
        self.standings = json.loads(run("standings", "--json", db=self.book))
        self.ratings = json.loads(run("ratings", "--json", db=self.book))
        self.records = {r["player"]: json.loads(run("player", r["player"], "--json", db=self.book))
                        for r in self.standings["players"]}
        self.phone = _phone_season(folder / "phone")
        hostile = folder / "hostile"
        hostile.mkdir()
        run("import", hostile_record(hostile), "--table", HOSTILE_TABLE, db=hostile / "book.db")
        self.hostile = hostile / "site"
        run("report", "-o", self.hostile, db=hostile / "book.db")
        self.folder = folder


# The phone's season: long names (a table's, players' of 18 to 27 letters), every column of
# the night page (bonuses, side games, carries, findings), 20 nights of 2 hands — the layout
# cases of a long season (many nights, long names, every column) at a fiftieth of the cost of
# a 2,000-hand season's (its simulation, import and report take ~47 s of CPU here); its
# Spanish words are the samples' Spanish site's
LONG_TABLE = "Club_del_Barrio_San_Judas"
LONG_NAMES = {"Ana": "Anastasia_Villanueva_Ortega", "Beto": "Bartolomé_Ñúñez_de_Balboa",
              "Carla": "Maximiliano_Hernández_Castillo", "Dani": "Daniela_Montenegro"}  # 27, 25, 30, 18 letters


def _phone_season(folder):
    """A folder holding the book and the site (`en`) of a simulated season of 40 hands with
    long names."""
    folder.mkdir()
    book = folder / "book.db"
    text = run("simulate", "--hands", "40", "--players", "4", "--seed", "5", db=book)
    text = re.sub(r"\b(Ana|Beto|Carla|Dani)\b", lambda m: LONG_NAMES[m.group(1)], text)
    (folder / "season.dsm").write_text(benchkit.dated(text, 2), encoding="utf-8")
    run("import", folder / "season.dsm", "--table", LONG_TABLE, db=book)
    run("report", "-o", folder / "en", db=book)
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return Built(tmp_path_factory.mktemp("browser"))


@pytest.fixture(scope="module")
def browser(chromium):
    """The test process's Chromium (conftest.chromium: Playwright gives each context a fresh
    profile of its own)."""
    return chromium


@pytest.fixture(scope="module")
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


class Watched:
    """A tab that keeps the console's errors, the page's errors and every request that
    leaves file:// (a data: URL is the page's own bytes, not a request out)."""

    def __init__(self, context):
        self.page = context.new_page()
        self.errors, self.outside, self.dialogs = [], [], []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: r.url.startswith(("file://", "data:")) or self.outside.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))

    def open(self, path, anchor=""):
        self.page.goto(pathlib.Path(path).as_uri() + anchor)
        return self.page

    def close(self):
        self.page.close()


@pytest.fixture
def tab(context):
    watched = Watched(context)
    yield watched
    watched.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_page_opens_from_disk_with_no_error_and_nothing_fetched(built, tab, lang):
    """Every page, in English and in Spanish. A file the page needs and does not find is a
    console error; every link is checked by tests/test_report.py, and here on the season page."""
    site = getattr(built, lang)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 1 + 21 + 4 + 3  # the season, the samples' nights and players, the simulated nights
    for path in pages:
        page = tab.open(path)
        assert page.evaluate("document.documentElement.lang") == lang, path
        text = page.evaluate("document.body.innerText")  # markdown is rendered, never shown
        assert "**" not in text and "`" not in text, path
    page = tab.open(site / "index.html")
    for href in page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)"):
        assert href.startswith("file://") and pathlib.Path(re.sub(r"^file://", "", href.split("#")[0])).exists()
    assert tab.errors == [] and tab.outside == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_standings_in_the_dom_are_standings_json(built, tab, lang):
    page = tab.open(getattr(built, lang) / "index.html")
    rows = page.eval_on_selector_all("#standings-table tbody tr", """rows => rows.map(r =>
        Object.fromEntries([...r.querySelectorAll('[data-key]')].map(c => [c.dataset.key, c.textContent.trim()])))""")
    counted = ("hands", "wins", "auto_wins", "no_winner", "fouls", "side_games_won")
    assert [{k: int(v) if k in counted else v for k, v in r.items()} for r in rows] == built.standings["players"]


def _visible_step(page, hand=None):
    """The steps of the replays a reader sees: their move and line, each player's cards and
    melds, the stock and whose turn as the page shows them (with the script: the step shown
    and the table it draws; without: every step's words, read as tests/replay_text.py reads)."""
    return page.evaluate("""(where) => {
        const shown = [...document.querySelectorAll(where)].filter(s => s.offsetParent !== null);
        return shown.map(li => {
            const board = li.closest('ol').nextElementSibling, drawn = board && board.classList.contains('board');
            const text = [...li.childNodes].filter(n => n.nodeType === 3).map(n => n.nodeValue).join('');
            const out = {move: +li.id.split('-m')[1], line: parseInt(text, 10), text: text};
            if (drawn) {
                const rows = [...board.querySelectorAll('tr[data-player]')];
                out.players = Object.fromEntries(rows.map(r => [r.dataset.player, {
                    hand: [...r.querySelectorAll('td.held b')].map(b => b.textContent),
                    melds: [...r.querySelectorAll('td.melds .meld')]
                      .map(m => [...m.querySelectorAll('b')].map(b => b.textContent))}]));
                out.stock = board.querySelector('p[data-label="stock"]').textContent;
                const turn = board.querySelector('p.turn');
                out.turn = turn ? turn.textContent : null;
            }
            return out;
        });
    }""", f"#h{hand} ol.replay li" if hand else "ol.replay li")


def _view_cards(view):
    from desmoche_ref.cards import parse_card, pretty

    def shown(names):
        return [pretty(parse_card(n)) for n in names]

    return {p["name"]: {"hand": shown(p["hand"]), "melds": [shown(m) for m in p["melds"]]} for p in view["players"]}


def _night_of(site, table, number):
    for page in (site / "nights").glob(f"{table}-*.html"):
        if f'<section class="hand" id="h{number}">' in page.read_text(encoding="utf-8"):
            return page
    raise AssertionError((table, number))


@pytest.mark.parametrize("table, number", [("forcing-table", 1), ("club", 7)])
def test_the_arrow_keys_step_the_replay_through_what_view_at_shows(built, tab, table, number):
    """Issue 35: the hand's replay on its night's page, opened at the hand (#h7), stepped with
    the arrow keys: at each move the table the script draws from the text is what `view --at`
    shows (cards, melds, stock, and whose turn where the text says it); the address follows
    (#h7-m2); a link to a move opens at it; a click on another hand's button steps that one."""
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.view import table_at
    from desmoche_ref.words import turn

    text = run("export", "--table", table, "--hand", number, db=built.book)
    record = parse_text(text).hands[0]
    night = _night_of(built.en, table, number)
    page = tab.open(night, f"#h{number}")
    lines = [ev.line for ev in record.events]
    turns = 0
    for k, line in enumerate(lines):
        if k:
            page.keyboard.press("ArrowRight")
        (step,) = _visible_step(page, number)
        assert (step["move"], step["line"]) == (k + 1, line)
        assert page.evaluate("location.hash") == (f"#h{number}" if k == 0 else f"#h{number}-m{k + 1}")
        view = table_at(record, line)
        assert step["players"] == _view_cards(view), (table, number, line)
        assert step["stock"] == f"stock: {view['stock']} card" + ("" if view["stock"] == 1 else "s")
        if step["turn"] is not None:
            assert step["turn"] == "turn: " + turn(view, False)
            turns += 1
    assert turns >= 3
    page.keyboard.press("ArrowRight")  # past the last move: it stays there
    assert page.evaluate("location.hash") == f"#h{number}-m{len(lines)}"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == f"#h{number}-m{len(lines) - 1}"
    # a link to a move opens at it (here in a fresh load: the step is the address)
    page = tab.open(night, f"#h{number}-m5")
    assert page.evaluate("document.querySelector('#h%d-m5').offsetParent !== null" % number)
    assert page.evaluate("document.querySelector('#h%d .where').textContent" % number).startswith("move 5 / ")
    assert tab.errors == []


def test_without_javascript_every_step_is_on_the_page(browser, built):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(_night_of(built.en, "forcing-table", 1).as_uri() + "#h1-m5")
    assert [s["move"] for s in _visible_step(page, 1)] == list(range(1, 34))
    assert page.evaluate("document.querySelector('#h1-m5').getBoundingClientRect().top") < 100  # scrolled to it
    assert page.evaluate("document.querySelector('.controls, .board')") is None
    context.close()


PIXEL_VARIANCE = """async (src) => {
    const img = new Image(); img.src = src; await img.decode();
    const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0, sum = 0, sq = 0;
    for (let i = 0; i < d.length; i += 4) { const v = (d[i] + d[i+1] + d[i+2]) / 3; sum += v; sq += v * v; n++; }
    const mean = sum / n; return sq / n - mean * mean;
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_season_page_is_drawn_fits_a_phone_and_prints(built, tab, lang, tmp_path):
    import base64

    page = tab.open(getattr(built, lang) / "index.html")
    shot = page.screenshot(full_page=False)
    variance = page.evaluate(PIXEL_VARIANCE, "data:image/png;base64," + base64.b64encode(shot).decode())
    assert variance > 500  # a blank page is 0; text, tables and a chart on white are thousands
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("document.documentElement.clientWidth") == 390
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 1
    assert tab.errors == [] and tab.outside == []


def test_a_hostile_name_stays_text(built, tab):
    for path in sorted(built.hostile.rglob("*.html")):
        page = tab.open(path)
        assert page.evaluate("document.querySelectorAll('script:not([src]), img').length") == 0
    page = tab.open(next((built.hostile / "nights").iterdir()))
    body = page.evaluate("document.body.textContent")
    assert HOSTILE_EVENT in body and HOSTILE_COMMENT in body
    page = tab.open(built.hostile / "index.html")
    assert HOSTILE_TABLE in page.evaluate("document.body.textContent")
    assert tab.dialogs == [] and tab.errors == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_ratings_in_the_dom_are_ratings_json(built, tab, lang):
    page = tab.open(getattr(built, lang) / "index.html")
    rows = page.eval_on_selector_all("#ratings-table tbody tr", """rows => rows.map(r =>
        Object.fromEntries([...r.querySelectorAll('[data-key]')].map(c => [c.dataset.key, c.textContent.trim()])))""")
    assert [r.pop("rank") for r in rows] == [str(k) for k in range(1, len(rows) + 1)]
    assert [{k: int(v) if k == "hands" else float(v) if k != "player" else v for k, v in r.items()}
            for r in rows] == built.ratings["players"]
    assert len(rows) >= 4
    provisional = page.text_content("p.provisional") if built.ratings["provisional"] else ""
    assert all(p["player"] in provisional for p in built.ratings["provisional"])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_player_page_shows_the_record_and_fits_a_phone(built, tab, lang):
    """The record is `player --json`'s; each side game one row, not a line a posting; every
    foul with its rule's words; the rating's course drawn; nothing scrolls sideways at 390 px."""
    from desmoche_ref import rulebook
    from desmoche_ref.report.pages import Paths

    words, paths = rulebook.load(lang), Paths([], list(built.records))
    site = getattr(built, lang)
    tab.page.set_viewport_size({"width": 390, "height": 844})
    for name, record in built.records.items():
        page = tab.open(site / paths.player(name))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        games = page.eval_on_selector_all("table.sides tbody tr", """rows => rows.map(r =>
            [r.dataset.game, ...[...r.querySelectorAll('td')].map(c => c.textContent.trim())])""")
        assert games == [[g, str(s["played"]), str(s["won"]), s["net"]] for g, s in record["side_games"].items()]
        codes = page.eval_on_selector_all("ul.foul-codes li",
                                          "items => items.map(i => [i.dataset.code, i.textContent])")
        assert [c for c, _text in codes] == list(record["fouls"])
        for code, text in codes:
            assert words.get(code).title in text
        for text in page.eval_on_selector_all("ul.fouls li", "items => items.map(i => i.textContent)"):
            code = re.search(r"\b(F[1-5])\b", text).group(1)
            assert words.get(code).title in text
        if record["rating"]:
            assert page.text_content("#rating").startswith(f'{record["rating"]["rating"]:.2f}')
            assert page.query_selector("#rating-course ~ figure svg polyline") is not None
    assert any(r["side_games"] for r in built.records.values()) and any(r["fouls"] for r in built.records.values())
    assert tab.errors == [] and tab.outside == []

# What is wrong with a page at a phone's width: the page or a box that scrolls sideways, a
# box cut at the right edge, a chart label under 11 px, markdown shown as it is written
AT_390 = """() => {
  const out = [], width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width)
    out.push('the page scrolls: ' + document.documentElement.scrollWidth);
  const boxes = '.wide, pre.record, table, figure, svg.chart, section, li, p, dl, h1, h2, nav';
  for (const el of document.querySelectorAll(boxes)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;  // not shown (the wide chart on a phone)
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      out.push(`${el.tagName}.${el.className} scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    if (box.right > width + 0.5) out.push(`${el.tagName}.${el.className} is cut at ${box.right}`);
  }
  for (const t of document.querySelectorAll('svg.chart text')) {
    const svg = t.ownerSVGElement;
    if (svg.getBoundingClientRect().width === 0) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a;
    if (px < 11) { out.push(`a chart label of ${px.toFixed(1)} px`); break; }
  }
  const text = document.body.innerText;
  if (text.includes('**') || text.includes('`')) out.push('markdown shown as written');
  return out;
}"""


def _phone_pages(site, nights: int, players: int) -> list:
    """The pages checked at 390 px: the season page, and the nights and players whose pages
    are the biggest (most hands, longest lines, most rows)."""
    def biggest(folder, count):
        return sorted((site / folder).iterdir(), key=lambda p: -p.stat().st_size)[:count]

    return [site / "index.html", *biggest("nights", nights), *biggest("players", players)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_at_390_px_nothing_scrolls_or_is_cut_sideways(built, browser, lang):
    """Issue 25: on a phone 390 px wide the season, night, hand and player pages fit: neither
    the page nor a table's wrapper, a chart or a record's lines scrolls or is cut sideways; the
    chart's labels are 11 px or more; no `**` or backtick is shown. The phone's season (long
    names, every column) and the samples' pages."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    if lang == "en":
        pages = _phone_pages(built.phone / "en", 2, 2) + _phone_pages(built.en, 2, 1)
    else:
        pages = _phone_pages(built.es, 2, 1)
    found = {}
    for path in pages:
        page.goto(path.as_uri())
        problems = page.evaluate(AT_390)
        if problems:
            found[str(path.relative_to(built.folder))] = problems
    context.close()
    assert found == {}


def test_the_night_page_folds_each_hand_into_a_card_on_a_phone(built, browser):
    """Issue 25: the night page's hands table, cut off at `carry in` on a phone, folds: each
    hand a card whose figures are labelled (its pot, carries, each player's money)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    night = sorted((built.phone / "en" / "nights").iterdir())[0]
    page.goto(night.as_uri())
    cards = page.evaluate("""() => [...document.querySelectorAll('table.hands tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].filter(td => td.offsetParent !== null).map(td =>
            getComputedStyle(td, '::before').content.replace(/^"|"$/g, '').replaceAll('\u200b', '') + '=' +
            td.innerText.trim()))""")
    assert cards and all(any(c.startswith("pot=") for c in card) for card in cards), cards
    assert any(c.startswith(f"{LONG_NAMES['Beto']}=") for c in cards[0]), cards[0]
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    context.close()


def test_two_players_at_the_same_net_are_both_found_in_the_chart(built, tab):
    """Issue 25: lines at the same value are drawn a little apart and each ends in its own
    marker, which the legend shows beside the player's final net."""
    page = tab.open(built.phone / "en" / "index.html")
    legend = page.evaluate("""() => [...document.querySelectorAll('ul.legend li')].map(li =>
        [li.querySelector('svg .mark').tagName, li.textContent.trim()])""")
    assert [shape for shape, _text in legend] == ["circle", "rect", "polygon", "polygon"]
    ends = page.evaluate("""() => [...document.querySelectorAll('svg.chart.wide g > .mark')].length""")
    assert ends == len(legend)


# Words a line break cuts (issue 33): anywhere but after a hyphen, `_` or `.` (where a name or
# an option may break: `Maximiliano_` / `Hernández`), unless the word is wider than most of
# the page (a book head's 64 digits); a card is a word (10♠)
BROKEN_WORDS = r"""() => {
  // words a line break cuts other than after a hyphen, `_` or `.` (where a name or an
  // option breaks), unless the word is wider than most of the page
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const top = (node, i) => { range.setStart(node, i); range.setEnd(node, i + 1);
                             const r = range.getClientRects()[0]; return r ? Math.round(r.top) : null; };
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.nodeValue, parent = node.parentElement;
    if (!parent || !parent.getClientRects().length) continue;
    const re = /\S+/g; let m;
    while ((m = re.exec(text))) {
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (new Set(rects.map(r => Math.round(r.top))).size < 2) continue;
      if (rects.reduce((a, r) => a + r.width, 0) > 0.9 * document.documentElement.clientWidth) continue;
      for (let i = m.index + 1; i < m.index + m[0].length; i++) {
        const a = top(node, i - 1), b = top(node, i);
        if (a !== null && b !== null && a !== b && !'-_.'.includes(text[i - 1])) { out.push(m[0]); break; }
      }
    }
  }
  return [...new Set(out)];
}"""

# At a desk's width (issue 33): nothing scrolls or is cut sideways, no cell's words overflow
# it, and the night's outcome column is not squeezed
AT_1280 = """() => {
  // at a desk's width: nothing scrolls or is cut sideways, no cell's words overflow it, and
  // the outcome column is not squeezed (a line of it holds at least 16 letters)
  const out = [], width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width)
    out.push('the page scrolls: ' + document.documentElement.scrollWidth);
  for (const el of document.querySelectorAll('.wide, table')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.tagName}.${el.className} scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    if (box.right > width + 0.5) out.push(`${el.tagName}.${el.className} is cut at ${box.right}`);
  }
  for (const c of document.querySelectorAll('td, th')) {
    if (c.scrollWidth > c.clientWidth + 1) out.push(`a cell overflows: ${c.textContent.slice(0, 30)}`);
  }
  const em = parseFloat(getComputedStyle(document.body).fontSize);
  for (const c of document.querySelectorAll('th.outcome')) {
    const w = c.getBoundingClientRect().width;
    if (w < 8 * em) out.push(`the outcome column is ${w} px`);
  }
  return out;
}"""


def _long_name_pages(site) -> list:
    return [site / "index.html", *sorted((site / "nights").iterdir()), *sorted((site / "players").iterdir())]


def test_at_1280_px_no_table_is_cut_nor_a_column_squeezed_by_a_long_name(built, browser):
    """Issue 33: the phone's season (four players of 18 to 30 letters: Maximiliano_Hernández_
    Castillo) at 1,280 px: every night page's table of hands fits whole (every player's net
    shown), its outcome column at least 8 em wide, no word broken; the season and player pages too."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    found = {}
    for path in _long_name_pages(built.phone / "en"):
        page.goto(path.as_uri())
        problems = page.evaluate(AT_1280) + page.evaluate(BROKEN_WORDS)
        if problems:
            found[path.name] = problems
    context.close()
    assert found == {}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_at_390_px_words_break_only_at_spaces_or_card_boundaries(built, browser, lang):
    """Issue 33: on a phone no word is cut ("st/at/us", "Maximili/ano"): the season, night and
    player pages of the long names' season, and a night's replay with the table its script
    draws (a hand opened at a move); in Spanish the samples' pages."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    pages = _long_name_pages(built.phone / "en") if lang == "en" else _phone_pages(built.es, 3, 2)
    found, drawn = {}, 0
    for path in pages:
        page.goto(path.as_uri())
        problems = page.evaluate(BROKEN_WORDS)
        steps = page.evaluate("[...document.querySelectorAll('ol.replay li')].map(li => li.id)")
        for step in steps[len(steps) // 3::len(steps) // 3 or 1][:2]:  # a hand at a move: its table drawn
            page.evaluate(f"location.hash = '#{step}'")
            page.wait_for_function(f"document.querySelector('#{step.split('-')[0]} .board table') !== null")
            problems += page.evaluate(BROKEN_WORDS)
            drawn += 1
        if problems:
            found[path.name] = problems
    context.close()
    assert drawn >= 4
    assert found == {}


def test_a_link_to_a_hand_page_of_a_report_before_opens_the_hand_on_its_night(browser, tmp_path):
    """Issue 35: a folder of a report made before (a page a hand) brought up to date: a link
    to `hands/2-1.html#move-5` opens the night's page at hand 1, move 5 (its step shown, the
    table drawn); `#line-16` at the move of line 16; without a script, at the hand."""
    from desmoche_ref.report.manifest import MARKER

    book, site = tmp_path / "book.db", tmp_path / "site"
    run("import", ROOT / "sample_logs" / "friday.dsm", db=book)
    run("report", "-o", site, db=book)
    (site / "hands").mkdir()
    (site / "hands" / "2-1.html").write_text("old")
    (site / MARKER).write_text(json.dumps({"format": 2, "files": {"hands/2-1.html": "x"}}))
    run("report", "-o", site, db=book)
    old = (site / "hands" / "2-1.html").as_uri()
    for js, anchor, lands in ((True, "#move-5", "#h1-m5"), (True, "#line-16", "#h1-m5"), (False, "#move-5", "#h1")):
        context = browser.new_context(java_script_enabled=js)
        page = context.new_page()
        page.goto(old + anchor)
        page.wait_for_url(f"**/nights/2-2026-11-27.html{lands}")
        if js:
            assert page.evaluate("document.querySelector('#h1 .where').textContent") == "move 5 / 29"
            assert page.evaluate("document.querySelector('#h1-m5').offsetParent !== null")
        context.close()
