"""The live board in a real browser (issue 28): Debian's Chromium through Playwright (the test
process's one browser, conftest.chromium), the board served in this process. A move recorded
by another process — a verb, `play`, an `import` — is on the open page within 2 s, without a
reload, on SQLite and on PostgreSQL; the page reconnects after the board restarts; the nets it
shows are `standings --json`'s; no error, no request off the host, nothing wider than a phone;
English and Spanish; without JavaScript it reloads itself; a TV too small for every table shows
them in turn."""

import atexit
import os
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest

from board_server import BoardServer, book_head
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import TableBook
from test_board_server import FRIDAY, friday_book, sqlite_url  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD_JS = "() => (document.querySelector('#board .frame') || {dataset: {}}).dataset.head"


class Tab:
    """A page of the board that keeps its console errors, its page errors and every request
    that leaves the board's host."""

    def __init__(self, browser, board, path="/", width=1280, height=900, js=True, lang=None):
        self.context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=js,
                                           locale=lang)
        self.page = self.context.new_page()
        self.errors, self.outside = [], []
        host = f"127.0.0.1:{board.port}"
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: urlsplit(r.url).netloc == host or self.outside.append(r.url))
        self.page.goto(board.url + path)

    def head(self):
        return self.page.evaluate(HEAD_JS)

    def wait_head(self, head, timeout_ms=2000):
        self.page.wait_for_function(f"(head) => ({HEAD_JS})() === head", arg=head, timeout=timeout_ms)

    def close(self):
        self.context.close()


@pytest.fixture
def boards():
    made = []

    def serve(db, **kwargs):
        board = BoardServer(db, **kwargs)
        made.append(board)
        return board

    yield serve
    for board in made:
        board.stop()


def command(url, *args, text=None):
    """`desmoche-ref ARGS` as another process, on the book `url`."""
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", *args], input=text, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, DESMOCHE_DB=url, PYTHONPATH=ROOT))
    assert run.returncode == 0, (args, run.stdout, run.stderr)
    return run


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_board_opens_with_no_error_nothing_off_the_host_and_fits_a_phone(sqlite_url, boards, chromium, lang):
    """Three tables (friday's hand 1 settled, hand 2 begun): the page and the TV, no console
    error, nothing fetched off the host, no sideways scroll at 390 px; the nets shown are
    `standings --json --table friday`'s, the settle-up `settle-up`'s; the TV too small for
    every table shows them in turn."""
    from conftest import Live

    book, table = friday_book(sqlite_url, len(FRIDAY))
    table.record("end")
    table.new_hand()
    for line in FRIDAY[:3]:
        table.record(line)
    for name in ("second", "third"):
        friday_book(sqlite_url, 12, name=name)[0].engine.dispose()
    board = boards(sqlite_url, lang=lang, cycle=1)
    tab = Tab(chromium, board)
    page = tab.page
    assert page.evaluate("document.documentElement.lang") == lang
    page.wait_for_selector("#board-live:not([hidden])")  # the stream is open
    assert page.evaluate("document.querySelectorAll('section.table').length") == 3
    assert {"en": "Table friday", "es": "Mesa friday"}[lang] in page.evaluate("document.body.textContent")
    rows = page.eval_on_selector_all("#night-1 tbody tr", """rows => rows.map(r =>
        Object.fromEntries([...r.querySelectorAll('[data-key]')].map(c => [c.dataset.key, c.textContent.trim()])))""")
    night = Live(sqlite_url).json("standings", "--json", "--table", "friday")  # one night: the table's all
    assert rows == [{"player": r["player"], "hands": str(r["hands"]), "wins": str(r["wins"]),
                     "net": ("+" if not r["net"].startswith(("-", "0.00")) else "") + r["net"].replace("-", "−")}
                    for r in night["players"]]
    assert [r["player"] for r in night["players"]] == ["Carla", "Beto", "Ana"]
    if lang == "en":
        transfers = page.eval_on_selector_all("section[data-night='friday'] ul.transfers li",
                                              "l => l.map(x => x.textContent)")
        assert transfers == ["Ana pays Carla 25.00", "Beto pays Carla 10.00"]
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert tab.errors == [] and tab.outside == [], (tab.errors, tab.outside)
    tab.close()
    tv = Tab(chromium, board, "/tv", width=1280, height=720)
    tv.page.wait_for_function("document.getElementById('board-page').textContent.startsWith('1 / ')")
    shown = ("() => [...document.querySelectorAll('section.panel')].filter(s => s.offsetParent !== null)"
             ".map(s => s.dataset.table || s.dataset.night || s.dataset.kind)")
    first = tv.page.evaluate(shown)
    assert first == ["friday", "second"]  # 1280 x 720: two tables at a time, the first first
    tv.page.wait_for_function(f"(first) => ({shown})()[0] !== first", arg=first[0], timeout=5000)
    tv.page.set_viewport_size({"width": 390, "height": 844})
    assert tv.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert tv.errors == [] and tv.outside == [], (tv.errors, tv.outside)
    tv.close()
    book.engine.dispose()


def test_moves_by_other_processes_are_on_the_page_within_2_seconds(book_url, boards, chromium, tmp_path):
    """A verb, then `play`, then an `import`, each a process of its own: the page shows the
    book as the command left it (its head) within 2 s of the command's end, never reloaded."""
    book, table = friday_book(book_url, 10)
    book.engine.dispose()
    board = boards(book_url)
    tab = Tab(chromium, board)
    tab.wait_head(book_head(book_url), 10_000)
    tab.page.evaluate("window.notReloaded = true")
    record = tmp_path / "north.dsm"
    record.write_text(open(os.path.join(ROOT, "tests", "conformance", "friday.dsm"), encoding="utf-8").read(),
                      encoding="utf-8")
    steps = [(("draw", "Carla", "4d", "--table", "friday"), None, "section[data-table='friday'] p.offer", "4♦"),
             (("play", "--table", "friday"), "meld Carla 4d 5d 6d\npay Carla Kc\n",
              "section[data-table='friday'] li[data-player='Carla'] .meld", "6♦"),
             (("import", str(record), "--table", "north"), None, "section[data-table='north'] h2", "north")]
    for args, text, where, expected in steps:
        command(book_url, *args, text=text)
        start = time.monotonic()
        tab.wait_head(book_head(book_url))
        assert time.monotonic() - start < 2.0, args
        assert expected in tab.page.inner_text(where), args
    assert tab.page.evaluate("window.notReloaded") is True
    assert tab.errors == [] and tab.outside == []
    tab.close()


def test_the_page_reconnects_after_the_board_restarts(sqlite_url, boards, chromium):
    book, table = friday_book(sqlite_url, 10)
    board = boards(sqlite_url)
    tab = Tab(chromium, board)
    tab.wait_head(book_head(sqlite_url), 10_000)
    tab.page.evaluate("window.notReloaded = true")
    board.stop()
    tab.page.wait_for_selector("#board-live.down")
    table.record(FRIDAY[10])
    board.start()  # the same port
    tab.wait_head(book_head(sqlite_url), 10_000)
    assert tab.page.evaluate("window.notReloaded") is True
    assert tab.page.query_selector("#board-live.down") is None
    table.record(FRIDAY[11])
    tab.wait_head(book_head(sqlite_url))
    tab.close()
    book.engine.dispose()


def test_without_javascript_the_page_reloads_itself(sqlite_url, boards, chromium):
    book, table = friday_book(sqlite_url, 10)
    board = boards(sqlite_url, refresh=1)
    tab = Tab(chromium, board, js=False)
    assert tab.page.query_selector("section[data-table='friday'] li[data-player='Beto'] .meld") is not None
    table.record(FRIDAY[10])
    with tab.page.expect_navigation(timeout=5000):
        pass
    assert f'data-head="{book_head(sqlite_url)}"' in tab.page.content()
    tab.close()
    book.engine.dispose()


# ------------------------------------------------------------------ the room's screen, the phone
LONG = "Maximiliano_Hernández"  # a long name in every table's seats (issue 33's)


CLUBS = {}  # tables -> the book of club_night, made once per test process


def club_book(tables):
    """The URL of a club's night of `tables` tables: one table's night is 30 hands, more tables
    have 3 hands each, a hand under way at each (made once, read by the tests that share it)."""
    import shutil
    import tempfile

    from conftest import template_book

    if tables not in CLUBS:
        folder = tempfile.mkdtemp(prefix="dsm-club-")
        atexit.register(shutil.rmtree, folder, True)
        shutil.copy(template_book("sqlite"), os.path.join(folder, "club.db"))
        url = "sqlite:///" + os.path.join(folder, "club.db")
        club_night(url, tables, 30 if tables == 1 else 3).engine.dispose()
        CLUBS[tables] = url
    return CLUBS[tables]


def club_night(url, tables, hands):
    """A club's night: `tables` tables, each with `hands` hands played tonight (imported, of
    today) and the next half played live; a long name at each."""
    from desmoche_ref.simulate import simulate_session
    from desmoche_ref.store.write.importer import import_records

    book = open_book(url)
    for k in range(tables):
        text = simulate_session(hands + 1, 3 + k % 2, 100 + k, "todo", vary=False).replace("Carla", LONG)
        records = ["[Players" + r for r in text.split("[Players")[1:]]
        name = f"mesa-{k + 1}"
        assert import_records(book, "".join(records[:hands]).encode(), f"{name}.dsm", name).stored == hands
        table = TableBook(book, name)
        table.new_hand()
        moves = [ln.split("#")[0].strip() for ln in records[hands].splitlines() if ln and not ln.startswith("[")]
        for line in moves[:len(moves) // 2]:
            table.record(line)
    return book


SCREEN = """() => {
  const main = document.querySelector('main').getBoundingClientRect();
  const visible = [...document.querySelectorAll('.panel')].filter(p => p.offsetParent !== null);
  const px = sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
    .map(e => parseFloat(getComputedStyle(e).fontSize));
  const aside = document.querySelector('aside.join'), address = aside.querySelector('.address');
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
    viewport: [innerWidth, innerHeight], counter: document.getElementById('board-page').textContent,
    panels: visible.map(p => p.dataset.kind + ':' +
      (p.dataset.table || p.dataset.night || (p.querySelector('table') || {id: 'provisional'}).id)),
    cut: visible.filter(p => { const r = p.getBoundingClientRect();
      return r.bottom > main.bottom + 1 || r.right > main.right + 1 || r.left < main.left - 1; }).length,
    fonts: {turn: px('.turn'), seats: px('ul.seats li'), nets: px('table.nets td.net'), settle: px('ul.transfers li'),
            ranking: px('table.ranking td'), live: px('#board-live'), address: px('aside .address')},
    aside: box(aside), address: box(address), qr: aside.querySelector('svg') ? box(aside.querySelector('svg')) : null,
  };
}"""


@pytest.mark.parametrize("tables, lang", [(1, "en"), (4, "es"), (8, "en")])
def test_the_tv_fits_its_screen_and_shows_every_panel_in_turn(boards, chromium, tables, lang):
    """At 1920 x 1080 and 1280 x 720: the TV page never scrolls, no panel is cut, its screens
    show every panel in turn (the tables, each table's night, the season, the ratings), the
    main figures and the status at 24 px or more, the phones' address and QR code on screen all
    the while. (A table of 30 hands tonight; 4 tables, in Spanish, and 8 with a hand each under
    way.)"""
    board = boards(club_book(tables), cycle=0.4, address="http://192.0.2.7:8000/", lang=lang)
    for width, height in ((1920, 1080), (1280, 720)):
        tab = Tab(chromium, board, "/tv", width=width, height=height)
        tab.page.wait_for_selector("#board-live:not([hidden])")
        every = tab.page.evaluate("[...document.querySelectorAll('.panel')].length")
        seen, counters = set(), set()
        deadline = time.monotonic() + 40
        while len(seen) < every and time.monotonic() < deadline:
            s = tab.page.evaluate(SCREEN)
            assert s["height"] <= height and s["width"] <= width, (width, s)
            assert s["cut"] == 0, (width, s)
            for what, sizes in s["fonts"].items():
                assert all(size >= 24 for size in sizes), (width, what, sizes)
            assert s["fonts"]["live"] and s["fonts"]["address"], s
            left, top, right, bottom = s["address"]
            assert 0 <= left and right <= width and 0 <= top and bottom <= height
            assert s["qr"] and s["qr"][3] <= height and s["qr"][2] - s["qr"][0] >= 150, s["qr"]
            seen |= set(s["panels"])
            counters.add(s["counter"])
            tab.page.wait_for_timeout(150)
        assert len(seen) == every, (width, every, seen)
        if tables > 1 or width == 1280:
            assert len(counters - {""}) > 1  # more than one screen: they are shown in turn
        assert {f"{kind}:mesa-{k + 1}" for k in range(tables) for kind in ("table", "night")} <= seen
        assert "season:season" in seen and tab.errors == [] and tab.outside == []
        # 30 hands rank their players; after 3 they are listed, not ranked yet
        assert ("ratings:ratings" if tables == 1 else "ratings:provisional") in seen
        tab.close()


@pytest.mark.parametrize("tables", [1, 8])
def test_the_phone_page_is_compact(boards, chromium, tables):
    """At 390 px the phone's page scrolls down, never sideways; a player's figures take a line
    or two: each seat (name, cards, melds), each row of the night's nets and of the season."""
    board = boards(club_book(tables))
    tab = Tab(chromium, board, "/", width=390, height=844)
    tab.page.wait_for_selector("#board-live:not([hidden])")
    lines = tab.page.evaluate("""() => {
      const line = e => parseFloat(getComputedStyle(e).lineHeight);
      const rows = sel => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect().height / line(e));
      return {width: document.documentElement.scrollWidth, seats: rows('ul.seats li'),
              nets: rows('table.nets tbody tr'), season: rows('table.ranking tbody tr')};
    }""")
    assert lines["width"] <= 390
    assert lines["seats"] and max(lines["seats"]) <= 2.6, lines["seats"]
    assert lines["nets"] and max(lines["nets"]) <= 2.6, lines["nets"]  # a long name may take two
    assert lines["season"] and max(lines["season"]) <= 2.6, lines["season"]
    assert tab.errors == [] and tab.outside == []
    tab.close()
