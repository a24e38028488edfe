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
LONG_NAMES = {"Ana": "Anastasia_Villanueva_Ortega", "Beto": "Bartolomé_Ñúñez_de_Balboa", "Carla": "Carla",
              "Dani": "Daniela_Montenegro"}


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
    """Every page in English; in Spanish every page but the hands after the fifth (the same
    template as the others, which are all opened in English). A file the page needs and does not
    find is a console error; every link is checked by tests/test_report.py, and here on the
    season page."""
    site = getattr(built, lang)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 67 + 24 + 3  # the samples' pages, then the simulated season's hands and nights
    if lang == "es":
        hands = [p for p in pages if p.parent.name == "hands"]
        pages = [p for p in pages if p not in hands[5:]]
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


def _visible_step(page):
    return page.evaluate("""() => {
        const steps = [...document.querySelectorAll('.step')].filter(s => s.offsetParent !== null);
        return steps.map(s => ({move: +s.dataset.move, line: +s.dataset.line,
            players: Object.fromEntries([...s.querySelectorAll('tr[data-player]')].map(r => [r.dataset.player, {
                hand: [...r.querySelectorAll('td.held b')].map(b => b.textContent),
                melds: [...r.querySelectorAll('td.melds .meld')]
                  .map(m => [...m.querySelectorAll('b')].map(b => b.textContent))
            }])),
            stock: s.querySelector('.stock').textContent, turn: s.querySelector('.turn').textContent}));
    }""")


def _view_cards(view):
    from desmoche_ref.cards import parse_card, pretty

    def shown(names):
        return [pretty(parse_card(n)) for n in names]

    return {p["name"]: {"hand": shown(p["hand"]), "melds": [shown(m) for m in p["melds"]]} for p in view["players"]}


@pytest.mark.parametrize("table, number", [("forcing-table", 1), ("club", 7)])
def test_the_arrow_keys_step_the_replay_through_what_view_at_shows(built, tab, table, number):
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.view import table_at

    text = run("export", "--table", table, "--hand", number, db=built.book)
    record = parse_text(text).hands[0]
    page = tab.open(built.en / "hands" / f"{table}-{number}.html")
    lines = [ev.line for ev in record.events]
    for k, line in enumerate(lines):
        if k:
            page.keyboard.press("ArrowRight")
        (step,) = _visible_step(page)
        assert (step["move"], step["line"]) == (k + 1, line)
        assert page.evaluate("location.hash") == ("" if k == 0 else f"#move-{k + 1}")
        view = table_at(record, line)
        assert {n: p for n, p in step["players"].items()} == _view_cards(view), (table, number, line)
        assert step["stock"] == f"stock: {view['stock']} card" + ("" if view["stock"] == 1 else "s")
    page.keyboard.press("ArrowRight")  # past the last move: it stays there
    assert _visible_step(page)[0]["move"] == len(lines)
    page.keyboard.press("ArrowLeft")
    assert _visible_step(page)[0]["move"] == len(lines) - 1
    # a link to a move opens at it (here in a fresh load: the step is the address)
    page = tab.open(built.en / "hands" / f"{table}-{number}.html", "#move-5")
    assert _visible_step(page)[0]["move"] == 5
    assert tab.errors == []


def test_without_javascript_every_step_is_on_the_page(browser, built):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((built.en / "hands" / "forcing-table-1.html").as_uri())
    steps = _visible_step(page)
    assert [s["move"] for s in steps] == list(range(1, 34))
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
    page = tab.open(next((built.hostile / "hands").iterdir()))
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


def _phone_pages(site, nights: int, hands: int, players: int) -> list:
    """The pages checked at 390 px: the season page, and the nights, hands and players whose
    pages are the biggest (most hands, longest lines, most rows)."""
    def biggest(folder, count):
        return sorted((site / folder).iterdir(), key=lambda p: -p.stat().st_size)[:count]

    return [site / "index.html", *biggest("nights", nights), *biggest("hands", hands), *biggest("players", players)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_at_390_px_nothing_scrolls_or_is_cut_sideways(built, browser, lang):
    """Issue 25: on a phone 390 px wide the season, night, hand and player pages fit: neither
    the page nor a table's wrapper, a chart or a record's lines scrolls or is cut sideways; the
    chart's labels are 11 px or more; no `**` or backtick is shown. The phone's season (long
    names, every column) and the samples' pages."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    if lang == "en":
        pages = _phone_pages(built.phone / "en", 1, 2, 2) + _phone_pages(built.en, 1, 1, 1)
    else:
        pages = _phone_pages(built.es, 1, 1, 1)
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
            getComputedStyle(td, '::before').content.replace(/^"|"$/g, '') + '=' + td.innerText.trim()))""")
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
