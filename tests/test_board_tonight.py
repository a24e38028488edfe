"""What the board shows of a table (issue 34), in this process over a real SQLite book through
the scoreboard service: tonight only (store/read/tonight.py's rule, the night's nets and settle-up
from the book's own services), and every state of a hand as it is — void with its reason, an
undo, a hand dealt again, its end taken back, a closed table — also to a board that starts
after it, with the words a person wrote masked where they name a card the room has not seen."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from conftest import FRIDAY_LINES, Live
from desmoche_ref.cards import CARD_NAME
from desmoche_ref.board.render import Renderer, dumps, snapshot_json
from desmoche_ref.store.db import open_book
from desmoche_ref.store.read.scoreboard import Scoreboard
from desmoche_ref.store.write.tablebook import TableBook
from desmoche_ref.store.read.tonight import Played, night_start
from test_board_public import leaks
from test_board_server import friday_book, sqlite_url  # noqa: F401 (a fixture)

NOW = datetime(2026, 3, 13, 23, 0, tzinfo=timezone.utc)


def live(number, start, end):
    return Played(number, (NOW - timedelta(hours=start)).astimezone().date(), NOW - timedelta(hours=start),
                  NOW - timedelta(hours=end), False)


def imported(number, day):
    return Played(number, day, datetime.combine(day, datetime.min.time(), timezone.utc),
                  datetime.combine(day, datetime.min.time(), timezone.utc), True)


def test_the_night_is_the_hands_since_the_last_pause_of_more_than_four_hours():
    week = [live(1, 170, 169), live(2, 169, 168)]                      # last week
    tonight = [live(3, 3, 2.5), live(4, 2.4, 1), live(5, 0.5, 0.1)]   # a break of 0.5 h is no pause
    assert night_start(week + tonight, NOW) == 3
    assert night_start(week, NOW) is None                              # nothing is going on at the table
    assert night_start([live(1, 9, 8.5), live(2, 4.4, 0)], NOW) == 2   # 4.1 h apart: two nights
    assert night_start([live(1, 8, 4.5), live(2, 0.5, 0)], NOW) == 1   # 4 h apart: one night
    assert night_start([], NOW) is None
    # an imported hand knows only its day: it is of the night of a hand of that day
    today = NOW.astimezone().date()
    assert night_start([imported(1, today - timedelta(days=7)), imported(2, today), live(3, 1, 0)], NOW) == 2
    assert night_start([imported(1, today - timedelta(days=7)), live(2, 1, 0)], NOW) == 2
    assert night_start([imported(1, today), imported(2, today)], NOW) == 1
    assert night_start([imported(1, today - timedelta(days=1))], NOW + timedelta(hours=12)) is None


def _night(seed=7, hands=7):
    """A simulated session of one table (Ana, Beto, Carla): its record, and each hand's lines."""
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.simulate import simulate_session

    text = simulate_session(hands, 3, seed)
    records = text.split("\n\n[Players")
    records = [records[0]] + ["[Players" + r for r in records[1:]]
    lines = [[ln.split("#")[0].strip() for ln in r.splitlines() if ln and not ln.startswith("[")] for r in records]
    assert len(parse_text(text).hands) == hands
    return records, lines


@pytest.mark.slow  # an import, then a hand recorded move by move (the rule itself: the test above)
def test_a_table_reused_every_week_shows_tonight_only(sqlite_url):  # noqa: F811
    """Two earlier nights imported (their Date), then tonight's hand recorded live: the night on
    the board is that hand alone — its nets, its settle-up — the season every hand; a pause of
    more than four hours and the next hand begins another night."""
    from desmoche_ref.store.write.importer import import_records

    records, lines = _night()
    dated = [r.replace('[Players', '[Date "2025-03-07"]\n[Players', 1) if k < 3 else
             r.replace('[Players', '[Date "2025-03-14"]\n[Players', 1) for k, r in enumerate(records[:6])]
    book = open_book(sqlite_url)
    assert import_records(book, "\n\n".join(dated).encode(), "earlier.dsm", "friday").stored == 6
    table = TableBook(book, "friday")
    table.new_hand()
    for line in lines[6]:
        table.record(line)
    if table.pending() is not None:
        table.record("end")
    board = Scoreboard(book)
    (t,) = board.snapshot().tables
    assert t.night.first == 7 and [h.number for h in t.night.hands] == [7]
    cli = Live(sqlite_url)
    seventh = cli.json("standings", "--json", "--table", "friday")
    assert sum(r["hands"] for r in seventh["players"]) == 3 * 7  # the table's every hand…
    assert [r.hands for r in t.night.standings.players] == [1, 1, 1]  # …the night's one
    nets = {p: c for h in t.night.hands for p, c in h.net.items()}
    assert {r.player: r.net for r in t.night.standings.players} == nets and t.night.standings.balance() == 0
    data = json.loads(dumps(snapshot_json(board.snapshot())))
    assert data["tables"][0]["tonight"]["first"] == 7 and data["season"] == cli.json("standings", "--json")
    page = Renderer("en").fragment(board.snapshot())
    assert page.count('<li value="') == 1 and "1 hand tonight" in page
    assert "Fewer than 20 rated hands, not ranked yet: " in page  # the ratings there are, of 7 hands
    # the same hand four and a half hours ago: tonight is the next hand, when it is dealt
    with book.write() as s:
        from sqlalchemy import text

        before = datetime.now(timezone.utc) - timedelta(hours=4, minutes=30)
        s.execute(text("UPDATE hand SET opened = :t, closed = :t WHERE number = 7"), {"t": before})
        s.execute(text("UPDATE event SET entered = :t"), {"t": before})
        s.execute(text("UPDATE card_table SET created = :t"), {"t": before})
    assert board.snapshot().tables == []  # nothing going on at the table: not in play tonight
    table.reload()
    table.new_hand()
    (t,) = board.snapshot().tables
    assert t.night.first == 8 and t.night.hands == [] and t.night.standings.players == []
    assert "no hand settled yet tonight" in Renderer("en").fragment(board.snapshot())
    book.engine.dispose()


def _drawn(board, lang="en"):
    snapshot = board.snapshot()
    renderer = Renderer(lang)
    fragment = renderer.fragment(snapshot)
    return snapshot.tables[0], fragment, dumps(snapshot_json(snapshot)).decode()


def test_a_void_hand_is_void_with_its_reason_also_to_a_board_started_after(sqlite_url):  # noqa: F811
    book, table = friday_book(sqlite_url, 5)  # the cambio under way: the deal's cards all hidden
    watching = Scoreboard(book)
    watching.snapshot()
    table.void("the deck was short a card; Ana saw 2c and Q♦")
    for board in (watching, Scoreboard(book)):  # one that watched, one started after the void
        t, page, data = _drawn(board)
        assert (t.hand["status"], t.hand["number"]) == ("void", 1)
        assert t.hand["void"] == "the deck was short a card; Ana saw … and …"
        assert "hand 1 is void: the deck was short a card; Ana saw … and …" in page
        assert "unknown verb" not in page and "waiting for the deal" not in page and "the cambio" not in page
        assert '<li value="1">void: the deck was short a card; Ana saw … and …</li>' in page
        assert leaks(page, range(52)) == [] and leaks(data, range(52)) == []
    assert "la mano 1 quedó anulada: the deck was short a card; Ana saw … and …" in _drawn(watching, "es")[1]
    table.undo()  # the void taken back: the hand goes on
    t, page, _data = _drawn(watching)
    assert t.hand["status"] == "open" and "the void of hand 1 was taken back: the hand goes on" in page
    book.engine.dispose()


@pytest.mark.slow  # a whole hand recorded move by move
def test_an_undo_a_hand_dealt_again_its_end_taken_back_and_a_closed_table(sqlite_url):  # noqa: F811
    book, table = friday_book(sqlite_url, 11)
    board = Scoreboard(book)
    table.undo()
    t, page, data = _drawn(board)
    assert t.hand["undone"] == {"move": 12, "target": 11, "verb": "draw", "reopened": False}
    assert "move 11 (draw) was taken back" in page  # the draw of 4♦, hidden again in the stock
    assert leaks(page, [CARD_NAME.index("4d")]) == [] and leaks(data, [CARD_NAME.index("4d")]) == []
    assert "se deshizo la jugada 11 (robar)" in _drawn(board, "es")[1]
    for line in FRIDAY_LINES[10:]:
        table.record(line)
    table.record("end")
    table.undo()  # the end taken back: the hand is open again
    t, page, _data = _drawn(board)
    assert t.hand["status"] == "open" and "the end of hand 1 was taken back: the hand goes on" in page
    table.record("end")
    table.new_hand()
    t, page, _data = _drawn(board)
    assert (t.hand["number"], t.hand["dealer"], t.hand["redealt"]) == (2, "Beto", False)
    table.new_hand(dealer="Carla")  # no move yet: the same hand dealt again
    t, page, _data = _drawn(board)
    assert (t.hand["number"], t.hand["dealer"], t.hand["redealt"]) == (2, "Carla", True)
    assert "hand 2 dealt again: Carla deals" in page
    table.close()
    t, page, data = _drawn(board)
    assert t.closed and "The table is closed: the pots it carried were returned (R11.5)." in page
    assert json.loads(data)["tables"][0]["closed"] is True
    book.engine.dispose()


def test_the_hand_a_table_is_at_after_hand_new_is_undone(sqlite_url):  # noqa: F811
    """`undo` right after `hand new` reopens the hand before (course.current_hand): the board
    shows it, not the hand that waits to be dealt again."""
    book, table = friday_book(sqlite_url, len(FRIDAY_LINES))
    table.record("end")
    board = Scoreboard(book)
    table.new_hand()
    assert board.snapshot().tables[0].hand["number"] == 2
    table.undo()
    t, page, _data = _drawn(board)
    assert t.hand["number"] == 1 and t.hand["status"] == "open" and t.hand["undone"]["reopened"]
    assert "the end of hand 1 was taken back" in page
    book.engine.dispose()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_night_of_a_table_with_nothing_tonight(sqlite_url, lang):  # noqa: F811
    book, _table = friday_book(sqlite_url, 0)
    t, page, _data = _drawn(Scoreboard(book, tables=["friday"]), lang)
    assert t.night.first == 1 and t.night.hands == []
    assert {"en": "no hand settled yet tonight", "es": "todavía no se liquidó ninguna mano esta noche"}[lang] in page
    book.engine.dispose()
