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
from mutations import split_hands
from replay_text import read as read_replay

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


def hands_of(root) -> dict:
    """{(night page, hand number)} of every hand a report's night pages hold (`id="hN"`)."""
    return {(p.name, int(n)) for p in (pathlib.Path(root) / "nights").glob("*.html")
            for n in re.findall(r'<section class="hand" id="h(\d+)">', p.read_text(encoding="utf-8"))}


def night_of(root, table, number) -> pathlib.Path:
    """The night page that holds hand `number` of `table`."""
    for page in (pathlib.Path(root) / "nights").glob("*.html"):
        if f'<section class="hand" id="h{number}">' in (text := page.read_text(encoding="utf-8")) and \
                f'[Table "{table}"]' in text.split(f'id="h{number}">', 1)[1].split("</section>", 1)[0]:
            return page
    raise AssertionError(f"no night page holds {table} hand {number}")


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


def _expected(view) -> tuple:
    """What a replay's step must say of the table `view` (view.py's): each seat, the labelled lines."""
    from desmoche_ref.cards import parse_card, pretty
    from desmoche_ref.words import STATUS, offer_text, pile_text, stock_text

    def shown(names):
        return [pretty(parse_card(n)) for n in names]

    seats = {p["name"]: {"status": STATUS[p["status"]], "hand": shown(p["hand"]), "unknown": p["unknown"],
                         "melds": [shown(m) for m in p["melds"]]} for p in view["players"]}
    labels = dict(words.split(": ", 1) for words in (offer_text(view, False), pile_text(view, False),
                                                    stock_text(view)))
    return seats, labels


def test_the_replay_text_read_as_replay_js_reads_it_is_view_at_at_every_line():
    """Issue 35: a hand's replay writes at each move only what it changed (the whole table at
    the first move, after each pay and at the last); read back step by step as replay.js reads
    it (tests/replay_text.py), it is what `view --at LINE` shows at every line of every sample
    log and league record: each seat's status, cards and melds, the card on offer, the discard
    pile, the stock, and whose turn it is wherever it is said; each step's line is the record's."""
    from desmoche_ref.report.judge import judge
    from desmoche_ref.report.handtext import replay_html
    from desmoche_ref.words import turn

    count = turns = 0
    for path in SAMPLES + LEAGUE:
        for text in split_hands(path.read_text(encoding="utf-8")):
            judged, record = judge(text), parse_text(text).hands[0]
            html = '<div class="replays" data-turn="turn" data-in="in">' + replay_html(1, text, judged.steps)
            steps = read_replay(html).get(1, [])
            assert len(steps) == len(judged.steps)
            for (move, line, written, state), step in zip(steps, judged.steps):
                view = table_at(record, line)
                assert (move, line, written) == (step.move, step.line, text.splitlines()[line - 1])
                assert (state["seats"], state["labels"]) == _expected(view), (path.name, line)
                if state["turn"] is not None:
                    assert state["turn"] == turn(view, False), (path.name, line)
                    turns += 1
                count += 1
    assert count > 750 and turns > 150


def test_a_replay_writes_only_what_a_move_changed():
    """The draw says the card on offer, the pile's new top and the stock; the meld the seat and
    the offer; the pay the whole table and whose turn; a knock nothing (friday's hand)."""
    from desmoche_ref.report.judge import judge
    from desmoche_ref.report.handtext import replay_html

    text = (ROOT / "sample_logs" / "friday.dsm").read_text(encoding="utf-8")
    html = replay_html(7, text, judge(text).steps)
    assert "<li\nid=h7-m11>22 draw Carla 4d           # 7c went dead: Beto's right draws\n" \
           "on offer: 4♦ (drawn by Carla); may take: Carla · discard pile: 7♣ · stock: 23 cards<li" in html
    assert "<li\nid=h7-m14>25 draw Ana 7s\n" \
           "on offer: 7♠ (drawn by Ana); may take: Ana · discard pile: … K♣ · stock: 22 cards<li" in html
    assert "<li\nid=h7-m12>23 meld Carla 4d 5d 6d\nCarla A♠ 9♠ K♠ 2♥ 3♥ 9♣ K♣ [4♦ 5♦ 6♦] · on offer: nothing<li" in html
    assert "<li\nid=h7-m13>24 pay Carla Kc\nAna 4♠ 5♠ 6♠ 8♥ J♥ Q♥ J♦ A♣ 8♣ · Beto 3♠ 4♥ 10♥ 8♦ Q♦ J♣ [2♠ 2♦ 2♣] · " \
           "Carla A♠ 9♠ K♠ 2♥ 3♥ 9♣ [4♦ 5♦ 6♦] · on offer: K♣ (paid by Carla); may take: nobody · " \
           "discard pile: 7♣ · stock: 23 cards · turn: if nobody takes K♣, Ana draws next<li" in html
    assert "<li\nid=h7-m4>15 announce Beto oro Qd<li" in html  # it changed nothing at the table
    assert html.startswith('<pre class=head>1 [Event "Friday league"]\n2 [Date "2026-11-27"]')


# ------------------------------------------------------------------ the site
def test_a_season_of_the_samples_is_a_page_a_night_and_a_player(season):
    """Issue 35: a hand is on its night's page (`#hN`), no page of its own."""
    out = season.site
    players = season.before[1]["players"]
    hands = _run(season, ["export"]).stdout.count("[Players ")
    assert len(hands_of(out)) == hands == 41 and not (out / "hands").exists()
    assert len(list((out / "players").glob("*.html"))) == len(players) == 4
    nights = list((out / "nights").glob("*.html"))
    assert len(nights) == 21
    head = season.json("verify", "--json")["head"]  # the report says which book it shows
    assert season.output == f"{out}: {1 + len(nights) + 4} pages, {hands} hands\nbook head: {head}\n"
    assert f'<span class="head">book head: {head}</span>' in (out / "index.html").read_text()
    assert (out / ".desmoche-report").exists()
    assert sorted(p.name for p in (out / "assets").iterdir()) == ["replay.js", "report.css"]


def links_resolve(root) -> int:
    """Every link of every page of `root` leads to a file of the site, and to an id of it where
    it names one; nothing is fetched from outside. The links followed."""
    ids, count = {}, 0
    for page in _pages(root):
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
            count += 1
    return count


@pytest.mark.parametrize("site", ["site", "site_es"])
@pytest.mark.slow
def test_every_link_resolves_and_nothing_is_fetched(season, site):
    assert links_resolve(getattr(season, site)) > 300


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


def test_a_night_page_replays_the_table_view_at_shows(season, tmp_path):
    """Forcing-table hand 1 on its night's page, read step by step as replay.js reads it: at
    every line each player's cards and melds, and the stock, are what `view --json --at LINE`
    gives on the exported record."""
    from desmoche_ref.cards import parse_card, pretty

    record = tmp_path / "forcing.dsm"
    record.write_text(_run(season, ["export", "--table", "forcing-table", "--hand", "1"]).stdout, encoding="utf-8")
    steps = read_replay(night_of(season.site, "forcing-table", 1).read_text(encoding="utf-8"))[1]
    assert len(steps) == len(parse_text(record.read_text(encoding="utf-8")).hands[0].events) == 33
    for move, line, _written, state in steps:
        view = json.loads(_run(season, ["view", record, "--json", "--at", line]).stdout)
        assert len(state["seats"]) == len(view["players"])
        for p in view["players"]:
            seat = state["seats"][p["name"]]
            assert seat["hand"] == [pretty(parse_card(c)) for c in p["hand"]], (move, p["name"])
            assert seat["melds"] == [[pretty(parse_card(c)) for c in m] for m in p["melds"]], (move, p["name"])
        assert state["labels"]["stock"] == f"{view['stock']} card" + ("" if view["stock"] == 1 else "s")


def test_findings_show_their_rule_text(season):
    from desmoche_ref import rulebook

    for site, lang in ((season.site, "en"), (season.site_es, "es")):
        html = night_of(site, "dispute-forgiven-foul", 1).read_text(encoding="utf-8")
        codes = re.findall(r"</a>, (?:line|línea) \d+: <strong>([A-Z]\d+(?:\.\d+[a-z]?)?)</strong>", html)
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


def test_the_spanish_agrees_and_says_ten_cards_one_way(season):
    """Issue 33 item 11: a player without fouls has "ninguna falta" (not "ninguno"), without
    bonuses "ningún bono"; ten cards down is "diez cartas en la mesa" everywhere, as the CLI
    says it (`ratings`, the outcome sentence), never "abajo"; no page names docs/rulings.md (a
    file that is not on the site): the rating's course says how a hand ranks its players."""
    dani = (season.site_es / "players" / "Dani.html").read_text(encoding="utf-8")
    assert '<h2 id="fouls">Faltas</h2>\n<p>ninguna falta</p>' in dani
    assert "ninguno" not in dani
    texts = {p: p.read_text(encoding="utf-8") for site in (season.site, season.site_es) for p in _pages(site)}
    assert not [p for p, text in texts.items() if "cartas abajo" in text or "rulings" in text]
    assert "ganadas con diez cartas en la mesa" in texts[season.site_es / "index.html"]
    assert "Cada mano con ganador ordena a sus jugadores: primero los ganadores" in texts[
        season.site_es / "players" / "Ana.html"]


def test_the_pages_speak_spanish(season):
    page = (season.site_es / "index.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in page and "<h1>Temporada" in page and "Season" not in page
    assert "Clasificación" in page
    night = night_of(season.site_es, "forcing-table", 1).read_text(encoding="utf-8")
    assert " · mazo: " in night and " · en oferta: " in night and "mano 1: " in night
    assert 'data-turn="turno" data-in="juega"' in night


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
    assert sorted(p.name for p in (empty / "nights").iterdir()) == ["2-2026-11-27.html"]
    _run(small, ["import", ROOT / "sample_logs" / "solo.dsm"])
    (empty / "nights" / "stale.html").write_text("from before")
    report(small, "-o", empty)
    assert [p.name[:5] for p in sorted((empty / "nights").iterdir())] == ["2-202", "solo-"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging left


def test_tables_and_dates_narrow_the_season(season, tmp_path):
    out = tmp_path / "two"
    report(season, "-o", out, "--table", "north", "--table", "south", "--since", "2026-11-05",
           "--until", "2026-11-06")
    assert sorted(hands_of(out)) == [("north-2026-11-05.html", 1), ("north-2026-11-05.html", 2),
                                     ("north-2026-11-05.html", 3), ("south-2026-11-06.html", 1)]
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
    hand = next((out / "nights").iterdir()).read_text(encoding="utf-8")
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
    assert f"{out}: 5 pages, 1 hand" in child.before  # season, night, three players


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
    shown = hands_of(out)
    export = _run(book, ["export", "--table", "t"]).stdout
    assert export.count("[Players ") == 2 and export.count('[Void "the deck was short a card"]') == 1
    assert {number for _page, number in shown} == {2}  # the void hand is said on the night, not shown
    night = night_of(out, "t", 2).read_text(encoding="utf-8")
    assert "hand 2: <span class=\"outcome status-incomplete\">" in night and "hand 1 is void" in night


def test_a_hand_page_says_who_entered_each_move(tmp_path):
    """Issue 19: the report's hand pages name the recorder of each move (the book's event rows)."""
    from click.testing import CliRunner

    from conftest import recorder_of
    from desmoche_ref.cli import main

    db = str(tmp_path / "b.db")
    env = {"DESMOCHE_DB": db}
    assert CliRunner().invoke(main, ["import", "tests/conformance/friday.dsm"], env=env).exit_code == 0
    assert CliRunner().invoke(main, ["report", "-o", str(tmp_path / "site")], env=env).exit_code == 0
    page = night_of(tmp_path / "site", "friday", 1).read_text(encoding="utf-8")
    # issue 25: said once for the hand, and at a move only where the recorder changes (here none)
    assert page.count(f'<p class="by">entered by {recorder_of(db)}</p>') == 1
    assert page.count('<span class="by">') == 0


# ------------------------------------------------------- the report's data (issue 26)
def test_the_season_service_reads_what_export_and_the_ledger_say(season):
    """store/read/season.py: each hand shown is one export writes, its record the same text (read a
    few hands a batch), its money the sum of its postings into each player's account, each
    night's balances what `balances` of that table and day says."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.read.league import Selection, balances, export_hands, ledger, recorders
    from desmoche_ref.store.read.season import records, season as season_of

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
    """One more night (3 hands) imported: the second report into the same folder writes its
    night page, and again the season page, the three players' pages and the manifest; nothing
    else is touched. The folder is then what a report from scratch makes,
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
    os.utime(site / "nights" / "club-2026-09-04.html", ns=(1, 1))  # a file not written again keeps its time
    _run(book, ["import", tmp_path / "night1.dsm", "--table", "club"])
    assert report(book, "-o", site).output.startswith(f"{site}: 6 pages, 6 hands\nbook head: ")
    after = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    changed = sorted(str(p.relative_to(site)) for p in after if p not in before or before[p][1] != after[p])
    assert changed == [".desmoche-report", ".desmoche-report-hands", "index.html", "nights/club-2026-09-11.html",
                       "players/Ana.html", "players/Beto.html", "players/Carla.html"]
    assert (site / "nights" / "club-2026-09-04.html").stat().st_mtime_ns == 1
    fresh = tmp_path / "fresh"
    report(book, "-o", fresh)
    assert _files(site) == _files(fresh)
    times = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    report(book, "-o", site)
    assert {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()
            and p.stat().st_mtime_ns != times[p]} <= {".desmoche-report", "index.html"}  # the time, if it moved


# ------------------------------------------------------- pages of any size (issue 35)
@pytest.fixture
def short_pages(monkeypatch):
    """A night page of 4 hands at most, a list of 3 nights a page: the paging of a 20,000-hand
    season (pages.PART = 100, pages.ROWS = 100) on a book of a few hands."""
    from desmoche_ref.report import pages

    monkeypatch.setattr(pages, "PART", 4)
    monkeypatch.setattr(pages, "ROWS", 3)
    pages.environment.cache_clear()  # its words name the sizes
    yield pages
    pages.environment.cache_clear()


def _season_of_days(book, folder, days: list, cuts: tuple) -> list:
    """A simulated session of len(`days`) hands at one table of three, hand k played on
    `days[k]` (one session: the laws across hands hold), as records cut before each hand of
    `cuts`, to import in order."""
    text = _run(book, ["simulate", "--hands", len(days), "--players", "3", "--seed", "1"]).stdout
    hands = [h.replace("[Hand ", f'[Date "{day}"]\n[Hand ', 1).rstrip("\n") + "\n"
             for h, day in zip(split_hands(text), days)]
    records = []
    for k, (start, end) in enumerate(zip((0, *cuts), (*cuts, len(hands)))):
        records.append(folder / f"part{k}.dsm")
        records[-1].write_text("\n".join(hands[start:end]), encoding="utf-8")
    return records


def test_a_long_night_and_long_lists_are_written_in_pages(short_pages, tmp_path):
    """A night of 10 hands is three pages (hands 1–4, 5–8, 9–10), each naming the others and
    holding its hands' replays; with the 6 nights after it the season's nights are listed 3 a
    page (the season page, then nights/index.p2.html, .p3…), each player's too; every link
    resolves. A hand more on the long night rewrites its three pages (each names the last's
    hands); one more night writes its page, the last list page, the season and the players'
    pages (and their last list page), nothing else."""
    book = Book("sqlite:///" + str(tmp_path / "book.db"))
    days = ["2026-09-04"] * 10 + [f"2026-{d}" for d in ("10-01", "10-08", "10-15", "10-22", "10-29", "11-05",
                                                          "09-04", "11-12")]
    first, second, third, fourth = _season_of_days(book, tmp_path, days, (10, 16, 17))
    _run(book, ["import", first, second, "--table", "club"])
    site = tmp_path / "site"
    report(book, "-o", site)
    nights = tmp_path / "site" / "nights"
    assert sorted(p.name for p in nights.iterdir()) == [
        "club-2026-09-04.html", "club-2026-09-04.p2.html", "club-2026-09-04.p3.html", "club-2026-10-01.html",
        "club-2026-10-08.html", "club-2026-10-15.html", "club-2026-10-22.html", "club-2026-10-29.html",
        "club-2026-11-05.html", "index.p2.html", "index.p3.html"]
    assert sorted(hands_of(site)) == sorted([("club-2026-09-04.html", n) for n in (1, 2, 3, 4)]
                                            + [("club-2026-09-04.p2.html", n) for n in (5, 6, 7, 8)]
                                            + [("club-2026-09-04.p3.html", 9), ("club-2026-09-04.p3.html", 10)]
                                            + [(f"club-2026-{d}.html", n) for d, n in
                                               (("10-01", 11), ("10-08", 12), ("10-15", 13), ("10-22", 14),
                                                ("10-29", 15), ("11-05", 16))])
    second = (nights / "club-2026-09-04.p2.html").read_text(encoding="utf-8")
    assert "<title>Table club, 2026-09-04 · hands 5–8</title>" in second
    assert ('The night&#39;s 10 hands, a page each 4:\n<a href="../nights/club-2026-09-04.html">1–4</a> · '
            '<strong>5–8</strong> · <a href="../nights/club-2026-09-04.p3.html">9–10</a></nav>') in second
    season_page = (site / "index.html").read_text(encoding="utf-8")
    assert season_page.count('<th scope="row" class="day" data-label="night">') == 3 + 3  # nights, figures
    assert ('<strong>from 2026-09-04</strong> · <a href="nights/index.p2.html">from 2026-10-15</a> · '
            '<a href="nights/index.p3.html">from 2026-11-05</a></nav>') in season_page
    for player in ("Ana", "Beto", "Carla"):
        assert [p.name for p in sorted((site / "players").glob(f"{player}*"))] == [
            f"{player}.html", f"{player}.p2.html", f"{player}.p3.html"]
    assert links_resolve(site) > 200

    def written(record) -> list:
        before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
        _run(book, ["import", record, "--table", "club"])
        report(book, "-o", site)
        return sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()
                      and before.get(p) != p.read_bytes())

    # a hand more on the first night: its pages, and the nets after it on every list page
    assert written(third) == [".desmoche-report", ".desmoche-report-hands", "index.html", "nights/club-2026-09-04.html",
                              "nights/club-2026-09-04.p2.html", "nights/club-2026-09-04.p3.html",
                              "nights/index.p2.html", "nights/index.p3.html"] + [
        f"players/{name}{part}.html" for name in ("Ana", "Beto", "Carla") for part in ("", ".p2", ".p3")]
    assert '<a href="../nights/club-2026-09-04.p3.html">9–17</a></nav>' in (nights / "club-2026-09-04.html").read_text()
    assert written(fourth) == [".desmoche-report", ".desmoche-report-hands", "index.html",
                               "nights/club-2026-11-12.html", "nights/index.p3.html", "players/Ana.html",
                               "players/Ana.p3.html", "players/Beto.html", "players/Beto.p3.html",
                               "players/Carla.html", "players/Carla.p3.html"]


def test_the_hand_pages_of_a_report_before_are_sent_on_to_their_night(small, tmp_path):
    """A folder made by a report of before (a page a hand: its manifest of format 2, its
    hands/ pages) is brought up to date: each hand page that was there becomes a page that
    sends the reader to the hand on its night's page (`#h1`; the move a link named, #move-5 or
    #line-16, by its script); it stays one, written once, from report to report."""
    from desmoche_ref.report.manifest import MARKER

    site = tmp_path / "site"
    report(small, "-o", site)
    (site / "hands").mkdir()
    (site / "hands" / "2-1.html").write_text("<p>the old page</p>")
    (site / "hands" / "2-9.html").write_text("<p>a hand no longer in the book</p>")
    (site / MARKER).write_text(json.dumps({"format": 2, "stamp": "old", "keys": {},
                                           "files": {"hands/2-1.html": "x", "hands/2-9.html": "y"}}))
    result = report(small, "-o", site)
    assert result.output.startswith(f"{site}: 6 pages, 1 hand")
    moved = (site / "hands" / "2-1.html").read_text(encoding="utf-8")
    assert '<script src="../assets/moved.js" data-target="../nights/2-2026-11-27.html#h1" data-first="12" ' \
           'data-moves="29"></script>' in moved
    assert '<noscript><meta http-equiv="refresh" content="0; url=../nights/2-2026-11-27.html#h1"></noscript>' in moved
    assert sorted(p.name for p in (site / "hands").iterdir()) == ["2-1.html"]  # the other hand is gone
    assert (site / "assets" / "moved.js").exists()
    assert json.loads((site / MARKER).read_text())["moved"] == {"hands/2-1.html": "nights/2-2026-11-27.html#h1"}
    times = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    report(small, "-o", site)
    assert (site / "hands" / "2-1.html").stat().st_mtime_ns == times[site / "hands" / "2-1.html"]
    assert links_resolve(site) > 20


def test_the_ratings_say_what_a_rating_is_its_scale_and_why_none_is_shown(small, tmp_path):
    """Issue 33 item 8: the season page says what a rating means and its scale (a new player at
    0, mean 25.00, deviation 8.33; middling skill near 20, as a long run of the model gives it);
    with no player at --min-hands rated hands yet, that none is ranked and from when; with no
    hand that has a winner, why nothing is rated — never a table of headers alone. In Spanish too."""
    from desmoche_ref.rating import middling

    assert round(middling()) == 20
    site = tmp_path / "one"
    report(small, "-o", site)
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "Everyone starts at 0.00 (mean 25.00, deviation 8.33)" in page
    assert "about 20 after some hundreds of hands for a player who wins as often as the others" in page
    assert "Nobody is ranked yet: a player is ranked after 20 rated hands." in page
    assert 'id="ratings-table"' not in page and "Fewer than 20 rated hands, not ranked yet:" in page
    empty = Book("sqlite:///" + str(tmp_path / "empty.db"))
    _run(empty, ["import", ROOT / "sample_logs" / "empty-table.dsm"])
    _run(empty, ["--lang", "es", "report", "-o", tmp_path / "vacia"])
    page = (tmp_path / "vacia" / "index.html").read_text(encoding="utf-8")
    assert "Todavía no hay manos puntuadas: solo una mano completa con ganador puntúa a sus jugadores." in page
    assert 'id="ratings-table"' not in page and "Todos empiezan en 0.00 (media 25.00" in page
