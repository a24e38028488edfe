"""`desmoche-ref report`: the pages written from a book (issue 18), without a browser
(tests/test_report_browser.py opens them in Chromium). Every store case on SQLite and on
PostgreSQL (`book_url`)."""

import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from conftest import PG_ENV, Live, _fresh_pg_database

from desmoche_ref.notation.parser import parse_text
from desmoche_ref.view import table_at, table_steps

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_logs").glob("*.dsm"))
LEAGUE = sorted((ROOT / "tests" / "league_data").glob("*.dsm"))


class Page(HTMLParser):
    """A page's links, ids, tags and text (the standard library's parser: what a browser reads)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.links, self.sources, self.ids, self.tags, self.text = [], [], set(), [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        for key in ("src", "href"):
            if key in attrs and tag != "a":
                self.sources.append(attrs[key])

    def handle_data(self, data):
        self.text.append(data)


def _run(book, args, status=0):
    """A command run in-process (click's CliRunner) on the book at `book.url`."""
    return Live(book.url)(*args, status=status)


def report(book, *args, status=0):
    return _run(book, ["report", *args], status)


class Book:
    def __init__(self, url):
        self.url = url

    def json(self, *args):
        return json.loads(_run(self, args).stdout)


class Season(Book):
    """A book of every sample log (the disputes' invalid hands rejected) and the league's
    records, and its reports, made once for the module: the English site, the Spanish site
    and the season page alone; the book's figures before any report was made."""

    def __init__(self, url, folder):
        super().__init__(url)
        _run(self, ["import", *SAMPLES, *LEAGUE], status=1)
        self.file = url[len("sqlite:///"):] if url.startswith("sqlite:///") else None
        self.before = (hashlib.sha256(pathlib.Path(self.file).read_bytes()).hexdigest() if self.file else None,
                       self.json("standings", "--json"), _run(self, ["ledger", "--json"]).stdout)
        self.folder = folder
        self.site, self.site_es, self.page = folder / "season", folder / "temporada", folder / "season.html"
        self.output = report(self, "-o", self.site).output
        _run(self, ["--lang", "es", "report", "-o", self.site_es])
        self.page_output = report(self, "-o", self.page).output


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def season(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    if request.param == "sqlite":
        yield Season("sqlite:///" + str(folder / "book.db"), folder)
        return
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f"PostgreSQL: no server given ({PG_ENV} unset; `.ci/postgres start DIR` starts one)")
    url, drop = _fresh_pg_database(server)
    try:
        yield Season(url, folder)
    finally:
        drop()


def _pages(root):
    return sorted(p for p in pathlib.Path(root).rglob("*.html"))


# ----------------------------------------------------------------- the engine
def test_table_steps_give_what_table_at_gives_at_every_line():
    """The replay's state after each move is `view --at LINE`'s (view.table_steps feeds one
    referee; table_at replays up to the line): every line of every sample log."""
    count = 0
    for path in SAMPLES:
        for record in parse_text(path.read_text(encoding="utf-8")).hands:
            for ev, view in table_steps(record):
                assert view == table_at(record, ev.line), (path.name, ev.line)
                count += 1
    assert count > 700


# ------------------------------------------------------------------ the site
def test_a_season_of_the_samples_is_a_page_a_hand_night_and_player(season):
    out = season.site
    players = season.before[1]["players"]
    hands = _run(season, ["export"]).stdout.count("[Players ")
    assert len(list((out / "hands").glob("*.html"))) == hands == 41
    assert len(list((out / "players").glob("*.html"))) == len(players) == 4
    nights = list((out / "nights").glob("*.html"))
    assert len(nights) == 21
    head = season.json("verify", "--json")["head"]  # the report says which book it shows
    assert season.output == f"{out}: {1 + len(nights) + 4 + hands} pages, {hands} hands\nbook head: {head}\n"
    assert f'<span class="head">book head: {head}</span>' in (out / "index.html").read_text()
    assert (out / ".desmoche-report").exists()
    assert sorted(p.name for p in (out / "assets").iterdir()) == ["replay.js", "report.css"]


@pytest.mark.parametrize("site", ["site", "site_es"])
@pytest.mark.slow
def test_every_link_resolves_and_nothing_is_fetched(season, site):
    ids = {}
    for page in _pages(getattr(season, site)):
        parsed = Page(page.read_text(encoding="utf-8"))
        ids[page] = parsed.ids
        for href in parsed.links + parsed.sources:
            assert not re.match(r"[a-z]+:", href), (page, href)  # no http:, file:, data: …
            target, _, anchor = href.partition("#")
            resolved = (page.parent / target).resolve() if target else page
            assert resolved.exists(), (page, href)
            if anchor:
                if resolved not in ids:
                    ids[resolved] = Page(resolved.read_text(encoding="utf-8")).ids
                assert anchor in ids[resolved], (page, href)


def _standings_rows(html):
    rows = re.findall(r'<tr>\s*<th scope="row" data-key="player".*?</tr>', html, re.S)
    counted = ("hands", "wins", "auto_wins", "no_winner", "fouls", "side_games_won")
    return [{k: int(v) if k in counted else v
             for k, v in re.findall(r'data-key="(\w+)"[^>]*>(?:<a [^>]*>)?([^<]*)<', row)} for row in rows]


def test_the_season_page_shows_the_standings_of_standings_json(season):
    want = season.before[1]
    for page in (season.site / "index.html", season.page):
        html = page.read_text(encoding="utf-8")
        assert _standings_rows(html) == want["players"]
        assert f"unwon (in pots) {want['unwon']}, brought in {want['brought_in']}" in html


def test_a_hand_page_replays_the_table_view_at_shows(season, tmp_path):
    """Each step of forcing-table hand 1, filled in from the steps before it as replay.js fills
    it (a step holds the whole table at the first move, then what each move changed: a row,
    the card on offer, the pile, and always the stock and whose turn), holds for each player the
    cards and melds `view --json --at LINE` gives on the exported record, and its stock, at
    every line."""
    record = tmp_path / "forcing.dsm"
    record.write_text(_run(season, ["export", "--table", "forcing-table", "--hand", "1"]).stdout, encoding="utf-8")
    html = (season.site / "hands" / "forcing-table-1.html").read_text(encoding="utf-8")
    steps = re.findall(r'<section class="step" id="move-(\d+)" data-move="\d+" data-line="(\d+)">(.*?)</section>',
                       html, re.S)
    assert len(steps) == len(parse_text(record.read_text(encoding="utf-8")).hands[0].events) == 33
    from desmoche_ref.cards import parse_card, pretty

    def shown(cell):
        return re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", cell)

    rows, first = {}, True
    for move, line, body in steps:
        for name, held, melds in re.findall(r'<tr data-player="([^"]+)">.*?<td class="held">(.*?)'
                                            r'<td class="melds">(.*?)(?=<tr|</table>)', body):
            rows[name] = (held, melds)
        view = json.loads(_run(season, ["view", record, "--json", "--at", line]).stdout)
        assert first is False or len(rows) == len(view["players"])  # the first step: the whole table
        first = False
        for p in view["players"]:
            held, melds = rows[p["name"]]
            assert shown(held) == [pretty(parse_card(c)) for c in p["hand"]], (move, p["name"])
            assert shown(melds) == [pretty(parse_card(c)) for m in p["melds"] for c in m], (move, p["name"])
        assert f"stock: {view['stock']} card" in body


def test_findings_show_their_rule_text(season):
    from desmoche_ref import rulebook

    for site, lang in ((season.site, "en"), (season.site_es, "es")):
        html = (site / "hands" / "dispute-forgiven-foul-1.html").read_text(encoding="utf-8")
        codes = re.findall(r"</a>: <strong>([A-Z]\d+(?:\.\d+[a-z]?)?)</strong>", html)
        assert codes == ["F3"]
        rule = rulebook.load(lang).get("F3")
        assert f'<blockquote class="rule"><p><strong>F3</strong> {rule.text.split("`")[0]}' in html


def test_the_report_writes_nothing_to_the_book(season):
    after = (hashlib.sha256(pathlib.Path(season.file).read_bytes()).hexdigest() if season.file else None,
             season.json("standings", "--json"), _run(season, ["ledger", "--json"]).stdout)
    assert after == season.before


def test_file_html_is_the_season_page_alone_with_everything_inside(season):
    head = season.json("verify", "--json")["head"]
    assert season.page_output == f"{season.page}: 1 page, 41 hands\nbook head: {head}\n"
    html = season.page.read_text(encoding="utf-8")
    parsed = Page(html)
    assert parsed.links == [] and [s for s in parsed.sources if not s.startswith("data:")] == []
    assert "<style>" in html and "svg" in parsed.tags
    assert not [p for p in season.folder.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_the_pages_speak_spanish(season):
    page = (season.site_es / "index.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in page and "<h1>Temporada" in page and "Season" not in page
    assert "Clasificación" in page
    hand = (season.site_es / "hands" / "forcing-table-1.html").read_text(encoding="utf-8")
    assert "mazo: " in hand and "en oferta: " in hand and "La repetición" in hand


# --------------------------------------------------------- where it writes
@pytest.fixture
def small(tmp_path):
    """A SQLite book of one sample log (what is refused is about files, not the store)."""
    book = Book("sqlite:///" + str(tmp_path / "book.db"))
    _run(book, ["import", ROOT / "sample_logs" / "friday.dsm"])
    return book


def test_an_existing_file_is_written_over_only_with_force(small, tmp_path):
    out = tmp_path / "standings.html"
    out.write_text("mine")
    result = report(small, "-o", out, status=2)
    assert result.output == f"error: {out} exists: add --force to write over it\n"
    assert out.read_text() == "mine"
    report(small, "-o", out, "--force")
    assert "<svg" in out.read_text(encoding="utf-8")


def test_the_book_is_never_written_over(tmp_path):
    book = tmp_path / "season.html"  # a book with a page's name: still the book
    live = Book("sqlite:///" + str(book))
    _run(live, ["import", ROOT / "sample_logs" / "friday.dsm"])
    before = book.read_bytes()
    result = report(live, "-o", book, "--force", status=2)
    assert result.output == f"error: {book} is the book: the report never writes over it\n"
    result = report(live, "-o", tmp_path, status=2)
    assert result.output == f"error: {tmp_path} holds the book: write the report somewhere else\n"
    assert book.read_bytes() == before


def test_a_folder_is_new_empty_or_a_report_made_before(small, tmp_path):
    """Ruling (docs/rulings.md): a report's folder is written anew whole (the page of a hand
    no longer selected goes); any other folder with something in it is refused, even with
    --force: the report deletes nothing it did not write."""
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_text("meow")
    result = report(small, "-o", other, "--force", status=2)
    assert result.output == (f"error: {other} is a folder that holds other things than a report: "
                             "name a new or empty folder\n")
    assert sorted(p.name for p in other.iterdir()) == ["cat.jpg"]
    empty = tmp_path / "empty"
    empty.mkdir()
    report(small, "-o", empty)
    assert sorted(p.name for p in (empty / "hands").iterdir()) == ["2-1.html"]
    _run(small, ["import", ROOT / "sample_logs" / "solo.dsm"])
    (empty / "hands" / "stale.html").write_text("from before")
    report(small, "-o", empty)
    assert sorted(p.name for p in (empty / "hands").iterdir()) == ["2-1.html", "solo-1.html"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging left


def test_tables_and_dates_narrow_the_season(season, tmp_path):
    out = tmp_path / "two"
    report(season, "-o", out, "--table", "north", "--table", "south", "--since", "2026-11-05",
           "--until", "2026-11-06")
    assert sorted(p.name for p in (out / "hands").iterdir()) == [
        "north-1.html", "north-2.html", "north-3.html", "south-1.html"]
    rows = _standings_rows((out / "index.html").read_text(encoding="utf-8"))
    parts = [season.json("standings", "--json", "--table", t)["players"] for t in ("north", "south")]
    nets = {}
    for part in parts:
        for r in part:
            nets[r["player"]] = nets.get(r["player"], 0) + int(r["net"].replace(".", ""))
    assert {r["player"]: int(r["net"].replace(".", "")) for r in rows} == nets


def test_an_unknown_table_or_an_empty_selection_is_one_line(small, tmp_path):
    result = report(small, "-o", tmp_path / "x", "--table", "nowhere", status=2)
    assert result.output == "error: there is no table 'nowhere' in this book\n"
    result = report(small, "-o", tmp_path / "x", "--since", "2030-01-01", status=1)
    assert result.output == "error: no hand in the book matches\n"
    assert not (tmp_path / "x").exists()


def test_no_book_is_made_by_a_report(tmp_path):
    missing = tmp_path / "nothing.db"
    result = report(Book("sqlite:///" + str(missing)), "-o", tmp_path / "out", status=2)
    assert result.output == f"error: no book at {missing}: import hands first (`desmoche-ref import FILE…`)\n"
    assert not missing.exists()


HOSTILE_EVENT = "<b>Ana</b> <script>alert(1)</script>"
HOSTILE_COMMENT = "<img src=x onerror=alert(2)>"
HOSTILE_TABLE = "<script>alert(3)</script>"


def hostile_record(folder) -> pathlib.Path:
    """friday.dsm with markup where N3.1 lets it be (no `<` in a name): its Event tag and a
    comment; the table it is imported to is named with markup too."""
    text = (ROOT / "sample_logs" / "friday.dsm").read_text(encoding="utf-8")
    text = text.replace("[Bet", f'[Event "{HOSTILE_EVENT}"]\n[Bet', 1)
    first = re.search(r"^deal .*$", text, re.M).group(0)
    text = text.replace(first, f"{first} # {HOSTILE_COMMENT}", 1)
    record = folder / "hostile.dsm"
    record.write_text(text, encoding="utf-8")
    return record


def test_hostile_text_stays_text(tmp_path):
    book = Book("sqlite:///" + str(tmp_path / "book.db"))
    _run(book, ["import", hostile_record(tmp_path), "--table", HOSTILE_TABLE])
    out = tmp_path / "site"
    report(book, "-o", out)
    for page in _pages(out):
        html = page.read_text(encoding="utf-8")
        assert "<script>alert" not in html and "<b>Ana</b>" not in html and "<img" not in html, page
    hand = next((out / "hands").iterdir()).read_text(encoding="utf-8")
    assert "&lt;b&gt;Ana&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;" in hand
    assert "&lt;img src=x onerror=alert(2)&gt;" in hand
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in (out / "index.html").read_text(encoding="utf-8")


def test_check_and_view_never_load_the_report():
    record = ROOT / "sample_logs" / "friday.dsm"
    probe = (
        "import sys\n"
        "from desmoche_ref.cli import main\n"
        "for argv in (['check', '--json', %r], ['view', %r, '--at', '20'], ['fmt', '--check', %r]):\n"
        "    sys.argv = ['desmoche-ref', *argv]\n"
        "    try:\n        main()\n    except SystemExit:\n        pass\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'jinja2', 'markupsafe'})\n"
        "loaded += sorted(m for m in sys.modules if m.startswith('desmoche_ref.report'))\n"
        "sys.stderr.write('LOADED:' + ','.join(loaded))\n"
    ) % (str(record), str(record), str(record))
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert run.stderr.rsplit("LOADED:", 1)[1] == ""


def test_the_chart_spans_its_figures_and_draws_a_flat_season():
    from desmoche_ref.report.svg import _ticks, line_chart

    assert _ticks(-47000, 53000) == [-60000, -40000, -20000, 0, 20000, 40000, 60000]
    assert _ticks(0, 0) == [0, 20]
    chart = line_chart("t", [("Ana", [0, 0, 0]), ("Beto", [0, 0, 0])], "hands")
    assert chart.count("<polyline") == 2 and "<title>Ana: 0.00</title>" in chart
    many = line_chart("t", [("Ana", list(range(5000)))], "hands")
    assert many.count(",") <= 241  # at most 240 points a line, and its last


def test_a_terminal_sees_a_progress_bar(small, tmp_path):
    import pexpect

    out = tmp_path / "site"
    child = pexpect.spawn(sys.executable, ["-m", "desmoche_ref", "report", "-o", str(out)], cwd=str(tmp_path),
                          env=dict(os.environ, DESMOCHE_DB=small.url, COLUMNS="80"), encoding="utf-8", timeout=60)
    child.expect(r"Writing the report +\[#+\] +100%")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and (out / "index.html").exists()
    assert f"{out}: 6 pages, 1 hand" in child.before  # season, night, hand, three players


def test_a_void_hand_and_a_hand_in_play_are_reported_without_a_traceback(tmp_path):
    """A void hand is named on its night with its reason, and has no page of its own: the report
    shows the hands export gives but the void ones (issue 33: export writes them, [Void]); a hand
    still being played shows as incomplete."""
    book = Book("sqlite:///" + str(tmp_path / "book.db"))
    _run(book, ["table", "new", "t", "--players", "Ana Beto", "--bet", "1"])
    _run(book, ["hand", "new", "--dealer", "Ana"])
    _run(book, ["deal", "Beto", "2s", "3s", "4h", "7c", "8d", "Th", "Jc", "Qd", "Ks"])
    _run(book, ["hand", "void", "--reason", "the deck was short a card"])  # hand 1 is void
    _run(book, ["hand", "new", "--dealer", "Beto"])
    _run(book, ["deal", "Ana", "2s", "3s", "4h", "7c", "8d", "Th", "Jc", "Qd", "Ks"])
    out = tmp_path / "site"
    report(book, "-o", out)
    pages = sorted(p.name for p in (out / "hands").iterdir())
    export = _run(book, ["export", "--table", "t"]).stdout
    assert export.count("[Players ") == 2 and export.count('[Void "the deck was short a card"]') == 1
    assert pages == ["t-2.html"]
    assert "incomplete" in (out / "hands" / "t-2.html").read_text(encoding="utf-8")


def test_a_hand_page_says_who_entered_each_move(tmp_path):
    """Issue 19: the report's hand pages name the recorder of each move (the book's event rows)."""
    from click.testing import CliRunner

    from conftest import recorder_of
    from desmoche_ref.cli import main

    db = str(tmp_path / "b.db")
    env = {"DESMOCHE_DB": db}
    assert CliRunner().invoke(main, ["import", "tests/conformance/friday.dsm"], env=env).exit_code == 0
    assert CliRunner().invoke(main, ["report", "-o", str(tmp_path / "site")], env=env).exit_code == 0
    page = (tmp_path / "site" / "hands" / "friday-1.html").read_text(encoding="utf-8")
    # issue 25: said once for the hand, and at a move only where the recorder changes (here none)
    assert page.count(f'<p class="by">entered by {recorder_of(db)}</p>') == 1
    assert page.count('<span class="by">') == 0


# ------------------------------------------------------- the report's data (issue 26)
def test_the_season_service_reads_what_export_and_the_ledger_say(season):
    """store/season.py: each hand shown is one export writes, its record the same text (read a
    few hands a batch), its money the sum of its postings into each player's account, each
    night's balances what `balances` of that table and day says."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.league import Selection, balances, export_hands, ledger, recorders
    from desmoche_ref.store.season import records, season as season_of

    book = open_book(season.url, migrate=False)
    try:
        with book.connect() as conn:
            got = season_of(conn)
            texts = {(t, n): text for t, n, text in export_hands(conn)}
            assert sorted((h.table, h.number) for h in got.hands) == sorted(texts) and len(texts) == 41
            read = list(records(conn, got.hands, batch=7))
            assert [(r.hand.table, r.hand.number) for r in read] == [(h.table, h.number) for h in got.hands]
            assert all(r.text == texts[(r.hand.table, r.hand.number)] for r in read)
            who = recorders(conn)
            assert all(r.recorders == who[(r.hand.table, r.hand.number)] for r in read)
            money = {}
            for e in ledger(conn):
                if not e.account.startswith("pot:") and e.account != "outside":
                    key = (e.table, e.hand)
                    money.setdefault(key, {})[e.account] = money.get(key, {}).get(e.account, 0) + e.amount
            assert {(h.table, h.number): h.money for h in got.hands} == {k: money.get(k, {}) for k in texts}
            for night in got.nights:
                assert night.balances == balances(conn, Selection(night.table, None, night.day, night.day))
    finally:
        book.engine.dispose()


# ------------------------------------------------ a report brought up to date (issue 27)
def _files(root) -> dict:
    """{path: bytes} of every file of a report's folder, the season page's time left out."""
    out = {}
    for p in sorted(pathlib.Path(root).rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            if p.name == "index.html":
                data = re.sub(rb"from the book, [^<]*UTC\.", b"from the book, TIME.", data)
            out[str(p.relative_to(root))] = data
    return out


def test_a_report_made_again_after_a_night_writes_only_what_changed(tmp_path):
    """One more night (3 hands) imported: the second report into the same folder writes its 3
    hand pages and its night page, and again the season page, the three players' pages and the
    manifest; nothing else is touched. The folder is then what a report from scratch makes,
    byte for byte (the season page's time aside); a report with nothing new writes at most the
    season page (its time) and the manifest."""
    book = Book("sqlite:///" + str(tmp_path / "book.db"))
    text = _run(book, ["simulate", "--hands", "6", "--players", "3", "--seed", "4"]).stdout
    sys.path.insert(0, str(ROOT / "bench"))
    import benchkit

    hands = benchkit.split_hands(benchkit.dated(text, 3))
    for k, part in enumerate((hands[:3], hands[3:])):
        (tmp_path / f"night{k}.dsm").write_text("\n".join(h.rstrip("\n") + "\n" for h in part), encoding="utf-8")
    _run(book, ["import", tmp_path / "night0.dsm", "--table", "club"])
    site = tmp_path / "site"
    report(book, "-o", site)
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in site.rglob("*") if p.is_file()}
    os.utime(site / "hands" / "club-1.html", ns=(1, 1))  # a file not written again keeps its time
    _run(book, ["import", tmp_path / "night1.dsm", "--table", "club"])
    assert report(book, "-o", site).output.startswith(f"{site}: 12 pages, 6 hands\nbook head: ")
    after = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    changed = sorted(str(p.relative_to(site)) for p in after if p not in before or before[p][1] != after[p])
    assert changed == [".desmoche-report", ".desmoche-report-hands", "hands/club-4.html", "hands/club-5.html",
                       "hands/club-6.html", "index.html", "nights/club-2026-09-11.html", "players/Ana.html",
                       "players/Beto.html", "players/Carla.html"]
    assert (site / "hands" / "club-1.html").stat().st_mtime_ns == 1
    fresh = tmp_path / "fresh"
    report(book, "-o", fresh)
    assert _files(site) == _files(fresh)
    times = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    report(book, "-o", site)
    assert {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()
            and p.stat().st_mtime_ns != times[p]} <= {".desmoche-report", "index.html"}  # the time, if it moved
