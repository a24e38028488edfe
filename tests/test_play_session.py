"""The table session through the book, with lines piped in: whole hands end where `check`
ends them (verdict and nets), a refused line changes nothing, and the session commands
(undo, new, settle, log, state) do what the scorebook's commands do. SQLite and PostgreSQL."""

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from sqlmodel import select

from desmoche_ref.cli.play import CHANGED, OK, REFUSED, handle, open_table as Recorder, run_piped
from desmoche_ref.engine.setup import read_setup
from desmoche_ref.notation.parser import parse_text
from desmoche_ref.play.script import night_script
from desmoche_ref.referee import judge_text
from desmoche_ref.session import check_session
from desmoche_ref.store.read import hands as H
from desmoche_ref.store.db import open_book
from desmoche_ref.store.schema.models import Event, Hand, Posting

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = ROOT / "tests" / "conformance" / "friday.dsm"
FRIDAY_NETS = {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
PLAYERS = ["Ana", "Beto", "Carla"]


def friday_events() -> list:
    return [line for line in FRIDAY.read_text().splitlines() if line and not line.startswith("[")]


def table_book(url, name="Friday", players=PLAYERS, bet=1000, rules="desmoche", options="todo",
               sides=(("oro", 500, PLAYERS),)):
    book = open_book(url)
    with book.write() as s:
        H.create_table(s, name, list(players), bet, rules, options, sides)
    return book


SUIT_CARD = re.compile(r"\b(10|[2-9AJQK])([♠♥♦♣])")


def plain_cards(text: str) -> str:
    """Cards as the notation writes them (Qd), however `check`'s printer shows them (Q♦)."""
    return SUIT_CARD.sub(lambda m: ("T" if m[1] == "10" else m[1]) + "shdc"["♠♥♦♣".index(m[2])], text)


def pipe(book, lines, capsys, table=None, keep_going=True):
    """(exit status, printed lines) of `play` fed these lines, in this process (by default
    going on past a refused line, as `--keep-going` does)."""
    capsys.readouterr()
    status = run_piped(Recorder(book, table), [line + "\n" for line in lines], keep_going)
    return status, plain_cards(capsys.readouterr().out).splitlines()


def play_process(url, text, *args):
    return subprocess.run([sys.executable, "-m", "desmoche_ref", "play", "--db", url, *args],
                          input=text, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


def play_piped(url, text, *args):
    """`play` fed `text` on a standard input that is no terminal, in this process
    (conftest.invoke: answered as play_process's process would answer), for the tests of what
    it says and stores, not of its process."""
    from conftest import invoke

    return invoke("play", "--db", url, *args, input=text)


def book_hands(book, table="Friday") -> list:
    """Each hand of the table: (number, dealer, status of the row, nets from the book's
    postings, nets `check` gives its stored record, and its status)."""
    out = []
    with book.read() as s:
        table_id = H.find_table(s, table).id
        for hand in s.exec(select(Hand).where(Hand.table_id == table_id).order_by(Hand.number)):
            posted = {}
            for p in s.exec(select(Posting).where(Posting.hand_id == hand.id)):
                if p.player_id is not None:
                    posted[p.account] = posted.get(p.account, 0) + p.amount
            report = H.judge(hand, H.event_lines(H.events(s, hand))).as_json()
            out.append((hand.number, hand.dealer, hand.status,
                        {k: f"{v / 100:.2f}" for k, v in posted.items()}, report["net"],
                        report["status"]))
    return out


def stored_lines(book, number=1) -> list:
    with book.read() as s:
        hand = s.exec(select(Hand).where(Hand.number == number)).one()
        return [r.line for r in H.live_events(H.events(s, hand))]


FRIDAY_EVENTS_BYTES = [(line + "\n").encode("utf-8") for line in friday_events()]
FRIDAY_CLOSING = [
    "table Friday hand 1: Carla wins with ten cards down (move 28)",
    "  pot 30.00, carry in 0.00, carry out 0.00",
    "  bonus mico: Beto pays Carla 10.00",
    "  bonus mico: Ana pays Carla 10.00",
    "  side game oro: pot 15.00 to Beto with Qd",
    "player     net",
    "------  ------",
    "Ana     -25.00",
    "Beto    -10.00",
    "Carla    35.00",
    "",
]
FRIDAY_SETTLE = [
    "table Friday: the night so far, 1 hand settled in the book",
    "hand   dealer  outcome        Ana    Beto  Carla",
    "-----  ------  ----------  ------  ------  -----",
    "1      Ana     Carla wins  -25.00  -10.00  35.00",
    "total                      -25.00  -10.00  35.00",
]


# ------------------------------------------------------------ friday.dsm, the Done-when
@pytest.mark.slow
def test_friday_piped_into_play_ends_as_check_ends_it(book_url):
    """A real process, lines on standard input: the verdict and nets of `check`, and
    `settle` prints the night's totals from the postings."""
    table_book(book_url).engine.dispose()
    text = "\n".join(["new --dealer Ana"] + friday_events() + ["settle", "end", "settle"]) + "\n"
    run = play_process(book_url, text)
    assert run.returncode == 0, run.stderr
    assert plain_cards(run.stdout).splitlines() == [
        "hand 1 at table Friday: Ana deals; bet 10.00; side games: oro 5.00 (Ana Beto Carla)",
        "table Friday: the night so far, 0 hands settled in the book",
        "hand   dealer  outcome   Ana  Beto  Carla",
        "-----  ------  -------  ----  ----  -----",
        "total                   0.00  0.00   0.00",
        "hand 1 is over but not yet settled in the book (`end` or `new` posts it): "
        "Ana -25.00, Beto -10.00, Carla 35.00",
    ] + FRIDAY_CLOSING + FRIDAY_SETTLE + ["30 lines stored"]  # issue 33: what the moves did
    from conftest import invoke

    checked = json.loads(invoke("check", "--json", str(FRIDAY)).stdout)  # check's own process adds nothing
    hand = checked["files"][0]["hands"][0] if "files" in checked else checked["hands"][0]
    assert hand["status"] == "complete" and hand["net"] == FRIDAY_NETS
    book = open_book(book_url)
    assert book_hands(book) == [(1, "Ana", "complete", FRIDAY_NETS, FRIDAY_NETS, "complete")]
    assert stored_lines(book) == friday_events() + ["end"]
    book.engine.dispose()


def test_an_out_of_turn_draw_is_refused_and_not_stored(book_url, capsys):
    book = table_book(book_url)
    lines = ["new --dealer Ana"] + friday_events()
    lines.insert(11, "draw Ana 4d")  # after `pay Beto 7c`: Carla is to draw
    status, out = pipe(book, lines, capsys)
    assert status == 1
    assert out == ["hand 1 at table Friday: Ana deals; bet 10.00; side games: oro 5.00 (Ana Beto Carla)",
                   "12: refused: R7.6 the next draw is by the player to the right of Beto: Carla, not Ana "
                   "(nothing stored)"]
    assert stored_lines(book) == friday_events()
    assert book_hands(book)[0][4] == FRIDAY_NETS
    book.engine.dispose()


def test_short_forms_and_comments_are_stored_as_the_notation_writes_them(book_url, capsys):
    book = table_book(book_url)
    typed = ["new --dealer Ana"] + friday_events()[:7] + [
        "dr Beto 2D   # from the top", "m Beto 2s 2d 2c", "p Beto 7♣"]
    status, out = pipe(book, typed, capsys)
    assert status == 0
    assert stored_lines(book)[7:] == ["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c"]
    with book.read() as s:
        assert [(r.line, r.comment) for r in s.exec(select(Event).where(Event.seq == 8))] == \
            [("draw Beto 2d", " from the top")]
    book.engine.dispose()


# ------------------------------------------------------------ session commands
def test_undo_takes_a_move_back_and_the_hand_goes_on(book_url, capsys):
    book = table_book(book_url)
    events = friday_events()
    lines = ["new --dealer Ana"] + events[:8] + ["knock Carla", "undo"] + events[8:] + ["end", "log"]
    status, out = pipe(book, lines, capsys)
    assert status == 0
    assert out[1] == "move 10: undid move 9 (knock Carla)"
    log = out[len(FRIDAY_CLOSING) + 2:-1]
    assert [row.split(None, 2)[0::2] for row in log[7:11]] == [
        ["8", "draw Beto 2d"], ["9", "knock Carla  (taken back by move 10)"],
        ["10", "undo  (takes back move 9)"], ["11", "meld Beto 2s 2d 2c"]]
    assert len(log) == len(events) + 3
    assert out[-1] == "31 lines stored"  # issue 33: the events, the knock and the end
    assert stored_lines(book) == events + ["end"]
    assert book_hands(book)[0][3] == FRIDAY_NETS
    book.engine.dispose()


def test_undo_after_end_reopens_the_hand_and_reverses_its_postings(book_url, capsys):
    book = table_book(book_url)
    status, out = pipe(book, ["new --dealer Ana"] + friday_events() + ["end", "undo", "settle",
                                                                        "show Ana Jh", "end"], capsys)
    assert status == 0
    assert out[1 + len(FRIDAY_CLOSING)] == "move 31: undid move 30 (end); hand 1 is open again, its postings reversed"
    assert out[2 + len(FRIDAY_CLOSING):7 + len(FRIDAY_CLOSING)] == [
        "table Friday: the night so far, 0 hands settled in the book",
        "hand   dealer  outcome   Ana  Beto  Carla",
        "-----  ------  -------  ----  ----  -----",
        "total                   0.00  0.00   0.00",
        "hand 1 is over but not yet settled in the book (`end` or `new` posts it): "
        "Ana -25.00, Beto -10.00, Carla 35.00"]
    assert out[-len(FRIDAY_CLOSING) - 1:-1] == FRIDAY_CLOSING
    assert out[-1] == "32 lines stored"
    with book.read() as s:
        postings = list(s.exec(select(Posting)))
    reversed_ids = {p.reverses for p in postings if p.reverses is not None}
    assert len(postings) == 3 * len(reversed_ids) > 0  # posted, reversed, posted again
    assert book_hands(book)[0][3] == FRIDAY_NETS
    book.engine.dispose()


def test_a_closed_hand_takes_only_what_follows_an_end_and_new_deals_the_next(book_url, capsys):
    """N4.4: after the end only `show` and `end` follow. A `show` on the closed hand is stored;
    its settlement does not change, so its postings stand as they were (none reversed)."""
    book = table_book(book_url)
    status, out = pipe(book, ["new --dealer Ana"] + friday_events() + [
        "end", "draw Beto 4c", "show Ana Jh", "new --side 'escalera 2.50 Ana Carla'", "state"], capsys)
    assert status == 1
    at = 1 + len(FRIDAY_CLOSING)
    assert out[at] == "32: refused: N4.4 the hand is over (line 28): only show and end may follow (nothing stored)"
    at += 1
    assert out[at:at + 2] == [
        "hand 2 at table Friday: Beto deals; bet 10.00; side games: escalera 2.50 (Ana Carla)",
        "table Friday, hand 2 · dealer Beto · bet 10.00 · carry in 0.00 · todo=on strict=off "
        "forcing=off auto=on hand-melds=on color=color escalera=a23-high side-nowin=carry dq-bonus=pay"]
    assert out[-2:] == ["turn: the deal: Beto deals",
                        "may come next: foul Ana Beto Carla; deal Ana Beto Carla; cut Carla"]  # the deal first (R3.3)
    assert stored_lines(book) == friday_events() + ["end", "show Ana Jh"]
    assert book_hands(book)[0] == (1, "Ana", "complete", FRIDAY_NETS, FRIDAY_NETS, "complete")
    book.engine.dispose()


def test_new_refuses_while_the_hand_is_not_over(book_url, capsys):
    book = table_book(book_url)
    status, out = pipe(book, ["draw Beto 2d", "new", "new --dealer Dani", "new --dealer Ana",
                              "new --bet 20", "deal Beto ?x9", "new", "log", "settle extra"], capsys)
    assert status == 1
    assert out == [
        "1: no hand yet at table Friday: `new --dealer NAME` deals the first",
        "2: the first hand at a table names its dealer: `new --dealer NAME`",
        "3: 'Dani' is not seated at table Friday (Ana Beto Carla)",
        "hand 1 at table Friday: Ana deals; bet 10.00; side games: oro 5.00 (Ana Beto Carla)",
        "5: new: unknown option '--bet' (new [--dealer P] [--side \"GAME STAKE PLAYERS…\"]… [--no-sides])",
        "7: hand 1 at table Friday is not over: record the moves left first "
        "(`state` says whose turn it is)",
        out[6],
        "9: settle takes no arguments (`help` lists the commands)",
    ]
    assert out[6].endswith("  deal Beto ?x9") and out[6].startswith("   1  ")
    book.engine.dispose()


def test_a_foul_is_stored_and_said(book_url, capsys):
    book = table_book(book_url)
    # 7♣ went by at the 11th move: a card to peek at (before it, a peek is refused: issue 33)
    status, out = pipe(book, ["new --dealer Ana"] + friday_events()[:11] + ["foul Carla peek"], capsys)
    assert status == 0
    assert out[1] == "13: foul F2 Carla: looked through the discard pile — enforced, disqualified"
    assert stored_lines(book)[-1] == "foul Carla peek"
    book.engine.dispose()


@pytest.mark.slow
def test_no_table_or_a_bad_book_is_one_line_and_exit_2(tmp_path):
    run = play_piped(str(tmp_path / "empty.db"), "")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (f"new book at {tmp_path / 'empty.db'}\n"  # made here: said once (issue 25)
                          "error: no table yet in this book: start one with `desmoche-ref table new "
                          "NAME --players \"Ana Beto Carla\" --bet 10`\n")
    run = play_piped(str(tmp_path / "no" / "such" / "book.db"), "")
    assert run.returncode == 2
    assert run.stderr == (f"error: cannot open the book {tmp_path}/no/such/book.db: the folder "
                          f"{tmp_path}/no/such does not exist\n")
    table_book(str(tmp_path / "b.db")).engine.dispose()
    run = play_piped(str(tmp_path / "b.db"), "", "--table", "Saturday")
    assert (run.returncode, run.stderr) == (
        2, "error: there is no table 'Saturday' in this book (`desmoche-ref table list`)\n")


# ------------------------------------------------------------ two recorders
def test_a_move_another_recorder_beat_us_to_is_not_stored_and_the_hand_is_read_again(book_url, capsys):
    book = table_book(book_url)
    events = friday_events()
    first = Recorder(book)
    assert handle(first, "new --dealer Ana") == OK
    second = Recorder(book)
    for line in events[:8]:
        assert handle(first, line) == OK
    assert handle(second, "state") == OK   # the second still holds the hand as it was at move 0
    capsys.readouterr()
    assert handle(second, events[0]) == OK  # the move it believed the first: stored once (issue 33)
    assert capsys.readouterr().out == f"already recorded (move 1): {events[0]} changes nothing, nothing stored\n"
    capsys.readouterr()  # (and the second read the hand again: it holds moves 1-8)
    assert handle(second, events[8], "12: ") == OK  # it now holds moves 1-8: the next is stored
    assert handle(first, events[9]) == CHANGED      # and the first has to read it again
    assert capsys.readouterr().out.splitlines() == [
        "the hand changed in the book (now at move 9): another recorder wrote to it; this line "
        "was not stored and the session read the hand again — now H1 · Beto to act · took 2♦, "
        "pays next"]
    assert handle(first, events[9]) == OK
    assert handle(first, "draw Ana 4d") == REFUSED  # refused on the hand as the book has it
    assert stored_lines(book) == events[:10]
    book.engine.dispose()


# ------------------------------------------------------------ every record we have
def one_hand_records():
    """Each hand of the conformance records and sample logs that starts a night (no carried
    pot): typed into a fresh table, it must end as `check` ends it."""
    for path in sorted((ROOT / "tests" / "conformance").glob("*.dsm")) + sorted((ROOT / "sample_logs").glob("*.dsm")):
        text = path.read_text()
        lines = text.splitlines()
        hands = parse_text(text).hands
        for number, hand in enumerate(hands, 1):
            setup, errors = read_setup(hand)
            if errors or setup.carry or setup.side_carry:
                continue
            end = hands[number].line - 1 if number < len(hands) else len(lines)
            yield pytest.param("\n".join(lines[hand.line - 1:end]) + "\n", id=f"{path.name}-{number}")


@pytest.fixture(scope="module")
def shared_book(tmp_path_factory):
    """One SQLite book for many tables (a fresh book per record would mostly time Alembic)."""
    book = open_book(str(tmp_path_factory.mktemp("records") / "book.db"))
    yield book
    book.engine.dispose()


def new_table(book, setup, name):
    with book.write() as s:
        H.create_table(s, name, list(setup.players), setup.bet, setup.rules,
                       setup.options.changes_from(setup.rules))


@pytest.mark.parametrize("record", list(one_hand_records()))
def test_each_record_typed_in_ends_as_check_ends_it(record, shared_book, capsys, request):
    checked = judge_text(record).hands[0]
    setup, lines = night_script(record)
    table = request.node.callspec.id
    new_table(shared_book, setup, table)
    status, out = pipe(shared_book, lines, capsys, table)
    if checked.status == "invalid":
        error = checked.errors[0]
        event_number = next(i for i, ev in enumerate(parse_text(record).hands[0].events, 2)
                            if ev.line == error.line)
        refusals = [line for line in out if ": refused: " in line]
        assert status == 1
        assert refusals[0].startswith(f"{event_number}: refused: {error.code} "), (refusals, error)
        return
    assert status == 0, out
    (number, dealer, row_status, posted, nets, judged), = book_hands(shared_book, table)
    assert (judged, nets) == (checked.status, checked.as_json()["net"])
    if any(ev.verb == "end" for ev in parse_text(record).hands[0].events):  # `end` closed it
        assert (row_status, posted) == ("complete", nets)
    else:
        assert (row_status, posted) == ("open", {})


# ------------------------------------------------------------ a simulated night
def ends(night: str) -> bool:
    """Whether the last hand of a record has an `end` line (the session closes it there)."""
    return any(ev.verb == "end" for ev in parse_text(night).hands[-1].events)


def simulated_night(seed: int, hands: int = 20) -> str:
    from conftest import invoke

    made = invoke("simulate", "--hands", hands, "--plain", "--seed", seed, "--options", "todo strict")
    assert made.returncode == 0, made.stderr
    return made.stdout


@pytest.mark.slow
def test_a_simulated_night_piped_in_ends_every_hand_as_check_does(tmp_path):
    """20 hands of fixed options, a `new` line with the hand's side games before each, piped
    into a real `play` process: every hand ends with the nets `check` gives its record, the
    dealer rotates and the pots carry as the record says, and `settle` totals the night as
    `check --session` does."""
    night = simulated_night(3)
    checked = judge_text(night)
    setup, lines = night_script(night)
    url = str(tmp_path / "book.db")
    table_book(url, players=setup.players, bet=setup.bet, options="todo strict", sides=()).engine.dispose()
    run = play_process(url, "\n".join(lines + ([] if ends(night) else ["end"]) + ["settle"]) + "\n")
    out = run.stdout.splitlines()
    assert run.returncode == 0, [line for line in out if line[:1].isdigit()]
    book = open_book(url)
    got = book_hands(book)
    assert len(got) == 20
    for (number, dealer, row_status, posted, nets, judged), hand in zip(got, checked.hands):
        expect = hand.as_json()
        assert (dealer, row_status, judged, nets, posted) == (
            expect["dealer"], "complete", "complete", expect["net"], expect["net"]), number
    dealt = [line for line in out if line.startswith("hand ") and " at table Friday: " in line]
    assert len(dealt) == 20
    for said, hand in zip(dealt, checked.hands):  # each `new` says who deals and what came in
        s = hand.setup
        assert said.startswith(f"hand {checked.hands.index(hand) + 1} at table Friday: "
                               f"{s.players[s.dealer]} deals; bet {s.bet / 100:.2f}; side games: ")
        assert (f"; carry in {s.carry / 100:.2f}" in said) == bool(s.carry), said
    totals = check_session(checked).totals
    total_row = next(line for line in out if line.startswith("total "))
    assert total_row.split()[1:] == [f"{totals[p] / 100:.2f}" for p in setup.players]
    book.engine.dispose()
    record = tmp_path / "night.dsm"
    record.write_text(night)
    imported = str(tmp_path / "imported.db")
    from conftest import invoke

    run = invoke("import", record, "--table", "Friday", "--db", imported)  # in-process: the night's
    assert run.returncode == 0 and "20 hands stored" in run.stdout, run.stdout + run.stderr  # process is play's

    def standings(url):
        shown = invoke("standings", "--json", "--db", url)
        assert shown.returncode == 0, shown.stderr
        return json.loads(shown.stdout)

    played = standings(url)
    assert played == standings(imported)  # the night played at the table is the night imported
    assert {p["player"]: p["net"] for p in played["players"]} == {
        p: f"{totals[p] / 100:.2f}" for p in setup.players}


def test_a_line_that_is_not_utf8_is_refused_and_the_rest_goes_on(book_url, capsys):
    book = table_book(book_url)
    capsys.readouterr()
    recorder = Recorder(book)
    status = run_piped(recorder, [b"new --dealer Ana\n", b"draw Beto \xff\n", b"# a comment\n",
                                  b"\n", FRIDAY_EVENTS_BYTES[0]], keep_going=True)
    assert status == 1
    assert capsys.readouterr().out.splitlines() == [
        "hand 1 at table Friday: Ana deals; bet 10.00; side games: oro 5.00 (Ana Beto Carla)",
        "2: refused: N1.1 this line is not valid UTF-8 text (nothing stored)"]
    assert stored_lines(book) == friday_events()[:1]
    book.engine.dispose()


@pytest.mark.parametrize("seed", [0, 16])
@pytest.mark.slow
def test_a_varied_night_with_fouls_and_closed_records(seed, shared_book, capsys):
    """The simulator's varied hands (fouls, some forgiven; closed records with `?` cards), up
    to the first hand that changes the bet or the preset (a table's own values, not `new`'s)."""
    from desmoche_ref.simulate import simulate_session

    text = simulate_session(30, 3, seed, "todo strict", vary=True)
    hands = parse_text(text).hands
    first = read_setup(hands[0])[0]
    same = next((i for i, h in enumerate(hands) if (read_setup(h)[0].rules, read_setup(h)[0].bet)
                 != (first.rules, first.bet)), len(hands))
    night = "\n".join(text.splitlines()[:hands[same].line - 1] if same < len(hands) else text.splitlines())
    checked = judge_text(night)
    setup, lines = night_script(night)
    table = f"varied-{seed}"
    new_table(shared_book, setup, table)
    status, out = pipe(shared_book, lines + ([] if ends(night) else ["end"]), capsys, table)
    assert status == 0, [line for line in out if line[:1].isdigit()]
    got = book_hands(shared_book, table)
    assert len(got) == same
    assert [(h[1], h[3], h[4]) for h in got] == [
        (h.as_json()["dealer"], h.as_json()["net"], h.as_json()["net"]) for h in checked.hands]


def test_a_simulated_night_on_postgresql_too(book_url, capsys):
    if not book_url.startswith("postgresql"):
        pytest.skip("the SQLite night is the test above")
    night = simulated_night(5, hands=8)
    checked = judge_text(night)
    setup, lines = night_script(night)
    book = table_book(book_url, players=setup.players, bet=setup.bet, options="todo strict", sides=())
    status, out = pipe(book, lines + ([] if ends(night) else ["end"]), capsys)
    assert status == 0
    assert [h[3] for h in book_hands(book)] == [h.as_json()["net"] for h in checked.hands]
    book.engine.dispose()


@pytest.mark.slow
def test_piped_input_stops_at_the_first_refused_line(book_url, capsys):
    """Without --keep-going a refused deal line stops the input: the `declare` and `end` after
    it were written for a hand that went otherwise, and are not stored (exit 1, saying how
    many lines were done and which to correct)."""
    book = table_book(book_url)
    status, out = pipe(book, ["new --dealer Ana", "deal Beto 2s 3s", "deal Beto 2s", "declare Carla peladilla",
                              "end"], capsys, keep_going=False)
    assert status == 1
    assert out[1] == "3: refused: N2.4 2s is in Beto's hand (nothing stored)"
    assert out[2] == ("stopped at line 3: 2 lines before it were done; correct line 3 and send the lines "
                      "from it again (--keep-going goes on past a refused line)")
    assert len(out) == 3
    assert stored_lines(book) == ["deal Beto 2s 3s"]
    run = play_piped(book.url, "deal Carla 2h\nknock Zed\ndeal Carla 3h\n", "--table", "Friday")
    assert run.returncode == 1 and run.stdout.splitlines()[-1].startswith("stopped at line 2: 1 line before")
    assert stored_lines(book) == ["deal Beto 2s 3s", "deal Carla 2h"]
    run = play_piped(book.url, "knock Zed\ndeal Carla 3h\n", "--table", "Friday", "--keep-going")
    assert run.returncode == 1 and stored_lines(book) == ["deal Beto 2s 3s", "deal Carla 2h", "deal Carla 3h"]
    book.engine.dispose()
