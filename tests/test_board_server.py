"""The live board's server (issue 28), in this process over real books on SQLite and PostgreSQL:
what it serves and with which headers, a move pushed to an open stream, a hostile name as text,
the bound on open pages, a book missing or of another schema or a server gone, then back, a
role that may only read, the night's nets and settle-up as `standings`/`settle-up` give them,
and — over a whole simulated night recorded move by move — no card still hidden in any byte it
sent."""

import json
import os
import re
import time

import pytest

from board_server import BoardServer, Stream, book_head, head_of, until
from conftest import Live, _pg_conninfo
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import TableBook, create_table
from test_board_public import Seen, leaks
from test_report import HOSTILE_TABLE

FRIDAY = [line.split("#")[0].strip() for line in
          open(os.path.join(os.path.dirname(__file__), "conformance", "friday.dsm"), encoding="utf-8")
          if line.split("#")[0].strip() and not line.startswith("[")]
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def friday_book(url, moves=10, name="friday"):
    """A book with table `name` (friday.dsm's players, bet and side game) and its hand 1 at
    friday's first `moves` moves."""
    book = open_book(url)
    create_table(book, name, ["Ana", "Beto", "Carla"], 1000, options="todo",
                 sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    table = TableBook(book, name)
    table.new_hand(dealer="Ana")
    for line in FRIDAY[:moves]:
        table.record(line)
    return book, table


@pytest.fixture
def sqlite_url(tmp_path):
    """A new SQLite book (a copy of one the program made: no migration run again)."""
    import shutil

    from conftest import template_book

    shutil.copy(template_book("sqlite"), tmp_path / "book.db")
    return "sqlite:///" + str(tmp_path / "book.db")


@pytest.fixture
def served():
    boards = []

    def serve(db, **kwargs):
        board = BoardServer(db, **kwargs)
        boards.append(board)
        return board

    yield serve
    for board in boards:
        board.stop()


def test_what_the_board_serves_and_the_headers_on_each(sqlite_url, served):
    url = sqlite_url
    friday_book(url)[0].engine.dispose()
    board = served(url)
    status, headers, page = board.get("/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert '<section class="panel table" data-kind="table" data-table="friday"' in page and 'class="board page"' in page
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in page
    assert board.get("/tv")[2].count('class="board tv"') == 1
    assert board.get("/assets/board.css")[1]["content-type"] == "text/css; charset=utf-8"
    assert board.get("/assets/board.js")[1]["content-type"] == "text/javascript; charset=utf-8"
    for path, expected in [("/board.json", 200), ("/favicon.ico", 204), ("/assets/..%2fapp.py", 404),
                           ("/assets/report.css", 404), ("/assets/_parts.html", 404),
                           ("/assets/hub.py", 404), ("/nothing", 404), ("/?table=x%27%3B--", 200)]:
        status, headers, _body = board.get(path)
        assert status == expected, path
        assert headers["content-security-policy"] == CSP and headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer"
    assert board.get("/", method="POST")[0] == 405
    assert board.get("/board.json", method="DELETE")[0] == 405
    data = board.json()
    (table,) = data["tables"]
    assert table["hand"]["players"][1] == {"name": "Beto", "status": "in", "cards": 6, "melds": [["2s", "2d", "2c"]],
                                           "up_the_tree": False, "shown": []}
    assert data["head"] == book_head(url) == head_of(page)


@pytest.mark.slow
def test_a_move_reaches_an_open_page_at_once(book_url, served):
    """A move stored through another connection (as another process would) is pushed to the
    stream already open, well inside 2 s: PostgreSQL's NOTIFY, SQLite's data_version."""
    book, table = friday_book(book_url)
    board = served(book_url)
    stream = Stream(board)
    try:
        stream.wait_head(book_head(book_url))
        for line in FRIDAY[10:14]:
            start = time.monotonic()
            table.record(line)
            head = book_head(book_url)
            _name, _id, data, when = stream.wait_head(head, timeout=5)
            assert when - start < 2.0, line
        assert "Carla took" in data or "Carla" in data
        assert stream.status == 200
        assert "retry: 1000" in "".join(stream.raw)
    finally:
        stream.close()
        book.engine.dispose()


def test_a_hostile_table_name_is_text(sqlite_url, served):
    url = sqlite_url
    friday_book(url, 3, name=HOSTILE_TABLE)[0].engine.dispose()
    board = served(url)
    for path in ("/", "/tv"):
        page = board.get(path)[2]
        assert page.count("<script") == 1 and '<script src="/assets/board.js" defer></script>' in page
        assert "&lt;script&gt;alert(3)&lt;/script&gt;" in page
    assert board.json()["tables"][0]["name"] == HOSTILE_TABLE


@pytest.mark.slow
def test_past_the_bound_a_clear_503(sqlite_url, served):
    url = sqlite_url
    friday_book(url, 1)[0].engine.dispose()
    board = served(url, limit=2)
    streams = [Stream(board), Stream(board)]
    try:
        until(lambda: all(s.boards() for s in streams))
        status, headers, body = board.get("/")
        assert (status, body, headers["retry-after"]) == (503, "busy: come back later\n", "30")
        assert headers["content-security-policy"] == CSP
        streams.pop().close()
        until(lambda: board.get("/")[0] == 200)
    finally:
        for s in streams:
            s.close()


@pytest.mark.slow
def test_a_missing_book_is_said_and_picked_up_once_made(tmp_path, served):
    path = tmp_path / "later.db"
    board = served("sqlite:///" + str(path))
    page = board.get("/")[2]
    assert ("The board cannot read the book just now: there is no book there yet: the first command that "
            "records makes it.") in page and str(tmp_path) not in page  # where the book is: the terminal's
    assert not path.exists()  # the board never makes a book
    assert board.told == [f"board: there is no book at {path}: nothing is recorded there yet; "
                          f"trying again every 2 seconds"]
    friday_book("sqlite:///" + str(path), 2)[0].engine.dispose()
    until(lambda: 'data-table="friday"' in board.get("/")[2], 10)
    assert "cannot read the book" not in board.get("/")[2]
    assert board.told[1:] == ["board: the book is back; the board is live again"]


@pytest.mark.slow
def test_a_book_of_another_schema_or_no_book_at_all(tmp_path, served):
    from sqlalchemy import create_engine, text

    url = "sqlite:///" + str(tmp_path / "old.db")
    friday_book(url, 1)[0].engine.dispose()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0003'"))
    engine.dispose()
    board = served(url)
    page = board.get("/")[2]
    assert "cannot read the book just now: the book needs `desmoche-ref db upgrade`." in page
    assert str(tmp_path) not in page
    assert "needs `desmoche-ref db upgrade` (its schema is 0003" in board.told[0]
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is no database" * 100)
    other = served(str(junk))
    assert "cannot read the book just now: what the board was given is not a book." in other.get("/")[2]
    assert len(other.told) == 1 and other.told[0].startswith("board: ")
    assert "is not a book: the file is not a SQLite database" in other.told[0] and str(junk) in other.told[0]


@pytest.mark.slow
def test_the_nights_nets_and_settle_up_are_standings_and_settle_up(sqlite_url, served):
    """Two tables; the first's night has a hand settled (friday's, then hand 2 begun)."""
    url = sqlite_url
    book, table = friday_book(url, len(FRIDAY))
    table.record("end")
    table.new_hand()
    friday_book(url, 4, name="other")[0].engine.dispose()
    book.engine.dispose()
    board = served(url)
    live = Live(url)
    data = board.json()
    by_name = {t["name"]: t for t in data["tables"]}
    assert sorted(by_name) == ["friday", "other"]
    for name, t in by_name.items():
        assert t["night"] == live.json("standings", "--json", "--table", name)
        settle = live.json("settle-up", "--json", "--table", name)
        assert t["settle_up"] == settle["transfers"]
    assert by_name["friday"]["night"]["players"][0] == {
        "player": "Carla", "hands": 1, "wins": 1, "auto_wins": 0, "no_winner": 0, "bonuses_won": "20.00",
        "bonuses_paid": "0.00", "fouls": 0, "side_games_won": 0, "net": "35.00"}
    assert by_name["friday"]["settle_up"] == [{"from": "Ana", "to": "Carla", "amount": "25.00"},
                                             {"from": "Beto", "to": "Carla", "amount": "10.00"}]
    assert by_name["friday"]["results"] == [{"number": 1, "dealer": "Ana", "outcome": "win", "winners": ["Carla"],
                                             "net": {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}}]
    assert data["season"] == live.json("standings", "--json")
    ratings = live.json("ratings", "--json", "--min-hands", "1")  # the board shows those of 20 hands and more
    assert data["ratings"] == live.json("ratings", "--json")
    assert data["ratings"]["provisional"] == ratings["players"] + ratings["provisional"]
    page = board.get("/")[2]
    assert "Ana pays Carla 25.00" in page and '<li value="1">Carla wins with ten cards down</li>' in page
    # only the tables named
    assert [t["name"] for t in served(url, tables=("other", "nowhere")).json()["tables"]] == ["other"]


@pytest.mark.slow
def test_spanish(sqlite_url, served):
    url = sqlite_url
    friday_book(url, 10)[0].engine.dispose()
    page = served(url, lang="es").get("/")[2]
    assert '<html lang="es">' in page
    assert '<span class="name">Mesa friday</span> <span class="number">mano 1</span>' in page
    assert "pila de descarte" in page


# ------------------------------------------------------------------ PostgreSQL
def _pg_admin(sql, *args):
    import psycopg

    with psycopg.connect(**_pg_conninfo(os.environ["DESMOCHE_TEST_PG"])) as conn:
        conn.execute(sql, args)


@pytest.mark.slow
def test_a_server_gone_mid_night_is_said_and_the_board_comes_back(book_url, served):
    if not book_url.startswith("postgresql"):
        pytest.skip("a database server's absence: PostgreSQL")
    from sqlalchemy.engine import make_url

    name = make_url(book_url).database
    book, table = friday_book(book_url)
    book.engine.dispose()
    board = served(book_url)
    stream = Stream(board)
    try:
        stream.wait_head(book_head(book_url))
        _pg_admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        _pg_admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", name)
        notice = stream.wait_for(lambda data: 'class="notice"' in data, timeout=10)[2]
        assert "The board cannot read the book just now: the database server does not answer." in notice
        assert 'data-table="friday"' in notice  # the board as last read, and why not now
        server = make_url(book_url)  # never where the book is: its server's address, port, user (issue 33)
        pages = [re.sub("[0-9a-f]{64}", "", page) for page in (notice, board.get("/")[2], board.get("/tv")[2])]
        for secret in (server.host, str(server.port), server.username, name):  # (less the book head's hex)
            assert not [page for page in pages if secret in page], secret
        assert len(board.told) == 1 and board.told[0].startswith("board: ") and server.host in board.told[0]
        _pg_admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        stream.wait_for(lambda data: 'class="notice"' not in data, timeout=15)
        table = TableBook(open_book(book_url), "friday")
        table.record(FRIDAY[10])
        stream.wait_head(book_head(book_url), timeout=5)
        assert board.told[1] == "board: the book is back; the board is live again"
    finally:
        _pg_admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        stream.close()
        table.book.engine.dispose()


@pytest.mark.slow
def test_a_role_granted_reading_only_watches_the_night(served):
    """`db grant --reader`: the board reads, listens and is told of every move."""
    import uuid

    from conftest import _fresh_pg_database, _pg_server

    from sqlalchemy.engine import make_url

    url, drop = _fresh_pg_database(_pg_server())
    viewer = f"viewer_{uuid.uuid4().hex[:8]}"
    board = None
    try:
        book, table = friday_book(url)
        _pg_admin(f'CREATE ROLE "{viewer}" LOGIN')
        Live(url)("db", "grant", viewer, "--reader")
        board = served(make_url(url).set(username=viewer).render_as_string(hide_password=False))
        stream = Stream(board)
        stream.wait_head(book_head(url))
        table.record(FRIDAY[10])
        stream.wait_head(book_head(url), timeout=5)
        assert board.told == []
        stream.close()
        book.engine.dispose()
    finally:
        if board is not None:
            board.stop()
        drop()
        _pg_admin(f'DROP ROLE IF EXISTS "{viewer}"')


# ------------------------------------------------------------------ never a hidden card
def night(seed, hands):
    """A simulated night at one table (the simulator's varied hands: claims, declarations,
    fouls, closed records), up to the first hand that changes the preset or the bet (a
    table's own values): [(Setup, side games, [lines])], a hand each."""
    from desmoche_ref.engine.setup import read_setup
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.simulate import simulate_session

    text = simulate_session(hands, 3, seed, "todo", vary=True)
    out, first = [], None
    for hand in parse_text(text).hands:
        setup = read_setup(hand)[0]
        first = first or setup
        if (setup.rules, setup.bet) != (first.rules, first.bet):
            break
        lines = text.splitlines()
        sides = [[s.game, s.stake, [setup.players[i] for i in s.players]] for s in setup.sides]
        out.append((setup, sides, [lines[ev.line - 1].split("#")[0].strip() for ev in hand.events]))
    return out


def sections(text, tables):
    """{table: the part of a drawn board (HTML) or of the JSON about its hand} and the rest."""
    if text.lstrip().startswith("{"):
        data = json.loads(text)
        parts = {t["name"]: json.dumps(t["hand"], ensure_ascii=False) for t in data["tables"]}
        rest = json.dumps({**data, "tables": [{**t, "hand": None} for t in data["tables"]]}, ensure_ascii=False)
        return parts, rest
    parts, rest = {}, text
    for name in tables:
        start = rest.find(f'data-kind="table" data-table="{name}"')
        if start < 0:
            continue
        start = rest.rindex("<section", 0, start)
        end = rest.index("</section>", start)
        parts[name], rest = rest[start:end], rest[:start] + rest[end:]
    return parts, rest


@pytest.mark.slow
def test_no_card_still_hidden_in_anything_the_server_sent_over_two_simulated_nights(sqlite_url, served, monkeypatch):
    """Two tables' nights recorded move by move (the simulator's hands: side-game claims, shows,
    automatic-win declarations, a closed record): after each move the event pushed to an open
    page, the JSON, now and then the page and the TV page — every byte the server sent is
    scanned, table by table, for each card that table's hand still hid at that moment (Q♦ as
    the board writes cards, Qd as the notation does). Outside the tables, no card at all.
    The test waits for each move's drawing before the next: the board's pace between two looks
    at the book (PACE, 0.1 s, what keeps a flood of changes one look: test_board_attacks) is
    cut to 5 ms here, or the ~200 moves would wait ~20 s on it alone."""
    from desmoche_ref.board import hub
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    monkeypatch.setattr(hub, "PACE", 0.005)

    nights = {"north": night(16, 4), "south": night(20, 3)}
    book = open_book(sqlite_url)
    board = served(sqlite_url)
    stream = Stream(board)
    hidden = {"": {}}    # book head -> {table: the cards its hand hides then}
    now = {name: set(range(52)) for name in nights}
    sent, moves = [], 0

    def moved(get_pages):
        head = book_head(book)
        hidden[head] = dict(now)
        stream.wait_head(head)
        sent.append(board.get("/board.json")[2])
        if get_pages:
            sent.extend(board.get(path)[2] for path in ("/", "/tv"))

    for name, hands in nights.items():
        setup = hands[0][0]
        create_table(book, name, list(setup.players), setup.bet, setup.rules,
                     setup.options.changes_from(setup.rules))
        table = TableBook(book, name)
        moved(True)
        for number, (setup, sides, lines) in enumerate(hands):
            table.new_hand(dealer=setup.players[setup.dealer], sides=sides)
            seen = Seen(setup)
            now[name] = seen.hidden()
            moved(True)
            for k, line in enumerate(lines):
                table.record(line)
                assert seen.apply(_event(line, k + 1))
                now[name] = seen.hidden()
                moves += 1
                moved(k % 10 == 0)
    stream.close()
    events = [data for _name, _id, data, _when in stream.boards()]
    assert moves > 150 and len(events) > moves
    for text in events + sent:
        head = head_of(text)
        head = json.loads(text)["head"] if head is None else head
        parts, rest = sections(text, nights)
        assert leaks(rest, range(52)) == []
        for name, part in parts.items():
            assert leaks(part, hidden[head][name]) == [], (name, head)
    book.engine.dispose()


def _event(line, number):
    from desmoche_ref.notation.parser import parse_event

    return parse_event(line, number)


def test_a_card_passed_in_the_cambio_and_declared_is_sent_nowhere(sqlite_url, served):
    """issue 34 over HTTP: after friday's cambio (Ana passes 2c to Beto) `declare Ana peladilla`
    names her nine dealt cards. The page, the TV page, /board.json and the stream hold the eight
    she laid and never 2c, in any notation; nor does the event a page already open receives."""
    from desmoche_ref.cards import CARD_NAME

    book, table = friday_book(sqlite_url, 7)
    board = served(sqlite_url)
    stream = Stream(board)
    stream.wait_head(book_head(book))
    table.record("declare Ana peladilla 4s 5s 6s 8h 8c Jd Jh 2c Ac")
    event = stream.wait_head(book_head(book))[2]
    sent = [event, board.get("/")[2], board.get("/tv")[2], board.get("/board.json")[2]]
    stream.close()
    passed = CARD_NAME.index("2c")
    assert [leaks(text, [passed]) for text in sent] == [[], [], [], []]
    assert all("<b>4♠</b> <b>5♠</b> <b>6♠</b>" in text for text in sent[:3])
    assert '["4s","5s","6s","8h","8c","Jd","Jh","Ac"]' in sent[3]
    book.engine.dispose()
