"""The board's entry over HTTP (issue 36), served in this process as `board --entry` serves it,
tried as an attacker would try it: a wrong PIN (throttled after a few, the right one then
refused too), a revoked recorder, a form without its CSRF token or from another site, a
reader's login (PostgreSQL) — each refused, nothing stored; a session's cookie; a form resent
stored once; a form made on a hand that moved refused naming what changed; two phones racing
at one table store each move once."""

import re
import threading

import pytest

from board_server import BoardServer
from conftest import friday_sqlite, with_friday, FRIDAY_LINES, Live
from desmoche_ref.board.sessions import Sessions, Throttle
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import TableBook
from entry_client import Phone
from test_store_roles import as_role, granted_book, owner_url, roles  # noqa: F401 (fixtures)


@pytest.fixture
def friday_pin(tmp_path):
    """friday's table dealt on a new SQLite book, a PIN for Beto and a board with --entry on
    it: (URL, PIN, board)."""
    url = friday_sqlite(tmp_path)
    pin = Live(url)("db", "grant", "Beto", "--recorder", "--pin").stdout.rstrip("\n").rsplit("PIN: ", 1)[1]
    board = BoardServer(url, entry=True)
    yield url, pin, board
    board.stop()


def moves(url):
    return Live(url).json("hand", "log", "--all", "--table", "friday", "--json")


def signed_in(board, pin, name="Beto"):
    phone = Phone(board)
    status, _body = phone.sign_in(name, pin)
    assert status == 303, _body
    return phone


def test_signing_in_sets_a_strict_http_only_cookie_and_a_phone_records(friday_pin):
    url, pin, board = friday_pin
    phone = Phone(board)
    assert "dsm_entry" not in phone.cookies
    status, headers, _body = phone.request("GET", "/entry/table?t=friday")
    assert (status, headers["location"]) == (303, ["/entry"])  # no session: the sign-in
    phone.get("/entry")
    status, headers, _ = phone.request("POST", "/entry/signin",
                                       {"csrf": phone.field("csrf"), "name": "Beto", "secret": pin})
    assert status == 303
    cookie = next(c for c in headers["set-cookie"] if c.startswith("dsm_entry="))
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 40 and "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/entry" in cookie
    assert "Max-Age=43200" in cookie  # the night: 12 hours
    assert '<a href="/entry/table?t=friday">record this table</a>' in board.get("/")[2]  # beside the table's view
    phone.open_table()
    status, answer = phone.send(FRIDAY_LINES[0])
    assert answer == ["move 1: deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks — the deal: Ana deals"]
    status, answer = phone.send("draw Ana 4d")
    assert answer == ["refused: R3.3 the deal is not done: Carla and Ana have no card yet; the deal lines "
                      "come first (`deal Carla …`) (nothing stored)"]
    assert [(m["line"], m["recorder"]) for m in moves(url)] == [(FRIDAY_LINES[0], "Beto")]
    assert phone.request("POST", "/entry/signout", {"csrf": phone.field("csrf")})[0] == 303
    assert "dsm_entry" not in phone.cookies
    phone.cookies["dsm_entry"] = token  # the old cookie, kept by a thief: the session is over
    assert phone.request("GET", "/entry/table?t=friday")[0] == 303


def test_attack_guessing_pins_is_refused_then_throttled_with_the_wait_said(friday_pin):
    url, pin, board = friday_pin
    phone = Phone(board)
    wrong = [str((int(pin) + k) % 10 ** 10).zfill(10) for k in range(1, 6)]
    for guess in wrong:
        status, body = phone.sign_in("Beto", guess)
        assert status == 403 and "that name and PIN do not sign in" in body
    status, body = phone.sign_in("Beto", pin)  # the right PIN now: not even checked
    assert status == 429
    found = re.search(r"too many tries to sign in as Beto or from this phone: wait (\d+) seconds "
                      r"\(nothing was checked\)", body)
    assert found and 1 <= int(found.group(1)) <= 60
    assert "dsm_entry" not in phone.cookies and moves(url) == []
    other = Phone(board)  # another name from the same phone: 5 more failures, then its wait too
    for k in range(5):
        assert other.sign_in(f"Ana{k}", pin)[0] == 403
    assert other.sign_in("Carla", pin)[0] == 429


def test_attack_forms_without_their_csrf_token_or_from_another_site_store_nothing(friday_pin):
    url, pin, board = friday_pin
    phone = signed_in(board, pin)
    phone.open_table()
    for change, headers in [({"csrf": None}, None), ({"csrf": "forged"}, None),
                            ({}, {"Origin": "http://evil.example"}), ({"csrf": None}, {"Origin": "null"})]:
        fields = {"csrf": phone.field("csrf"), "key": "k", "number": "1", "seq": "0", "action": "line",
                  "line": FRIDAY_LINES[0], **change}
        status, body = phone.post("friday", {k: v for k, v in fields.items() if v is not None}, headers)
        assert status == 403 and body.startswith("refused: this form is not one the board gave this page"), change
    other = Phone(board)  # a page of another site signs the phone in as its attacker: no form token of ours
    assert other.request("POST", "/entry/signin", {"name": "Beto", "secret": pin})[0] == 403
    assert moves(url) == []


def test_attack_a_revoked_recorders_phone_stores_nothing(friday_pin):
    url, pin, board = friday_pin
    phone = signed_in(board, pin)
    phone.open_table()
    assert phone.send(FRIDAY_LINES[0])[0] == 303
    Live(url)("db", "revoke", "Beto")
    status, body = phone.send(FRIDAY_LINES[1])
    assert status == 403 and "Beto&#39;s PIN was revoked: sign in again with a new one" in body
    assert "dsm_entry" not in phone.cookies
    assert phone.sign_in("Beto", pin)[0] == 403
    assert [m["line"] for m in moves(url)] == FRIDAY_LINES[:1]


def test_a_resent_form_is_stored_once_and_a_stale_form_is_refused_naming_what_changed(friday_pin):
    url, pin, board = friday_pin
    one, two = signed_in(board, pin), signed_in(board, pin)
    one.open_table()
    two.open_table()
    form = dict(key="resent", number="1", seq="0", action="line", line=FRIDAY_LINES[0], csrf=one.field("csrf"))
    assert one.post("friday", form)[1] == ["move 1: deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks — the deal: Ana deals"]
    assert one.post("friday", form)[1] == [
        "already recorded (move 1): deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks — the form was sent again, and stored once"]
    status, answer = two.send(FRIDAY_LINES[1])  # the other phone's page still shows no move
    assert answer == ["the hand changed (now at move 1): look and try again (nothing stored)",
                      "stored since this page showed the hand:",
                      "move 1: deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks — Beto"]
    assert two.seen() == (1, 1)  # and its page shows the hand as it is now
    assert [m["line"] for m in moves(url)] == FRIDAY_LINES[:1]


def test_two_phones_racing_at_one_table_store_each_move_once(friday_pin):
    url, pin, board = friday_pin
    phones = [signed_in(board, pin) for _ in range(3)]
    for line in FRIDAY_LINES[:3]:
        for phone in phones:
            phone.open_table()
        answers, start = [], threading.Barrier(len(phones))

        def race(phone, line=line, answers=answers, start=start):
            start.wait()
            answers.append(phone.send(line)[1][0])

        threads = [threading.Thread(target=race, args=(p,)) for p in phones]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        stored = [a for a in answers if a.startswith("move ")]
        # the others: the hand moved since their page showed it, or the same line found stored (issue 33)
        assert len(stored) == 1 and sum(a.startswith(("the hand changed", "already recorded (move "))
                                        for a in answers) == 2, answers
    assert [m["line"] for m in moves(url)] == FRIDAY_LINES[:3]


def test_the_close_asks_for_its_confirmation_and_an_unknown_table_is_said(friday_pin):
    url, pin, board = friday_pin
    phone = signed_in(board, pin)
    phone.open_table()
    fields = dict(csrf=phone.field("csrf"), key="c", number="1", seq="0", action="close")
    assert phone.post("friday", fields)[1] == ["tick the box to confirm that the table breaks up: nothing was done"]
    status, _h, body = phone.get("/entry/table?t=nowhere")
    assert status == 404 and "there is no table &#39;nowhere&#39; in this book" in body
    status, _h, body = phone.get("/entry/table?t=%3Cb%3Ehi")  # a name in the address is text
    assert status == 404 and "&lt;b&gt;hi" in body and "<b>hi" not in body
    assert not Live(url).json("table", "list", "--json")[0]["closed"]


def test_a_session_lasts_the_night_and_failures_leave_the_window():
    now = [0.0]
    sessions = Sessions(clock=lambda: now[0])

    class Recorder:
        name, closed = "Beto", False

        def close(self):
            self.closed = True

    phones = [sessions.start(Recorder()) for _ in range(5)]  # a fifth sign-in of one recorder ends the first
    assert phones[0].recorder.closed and sessions.get(phones[0].token) is None
    assert all(sessions.get(p.token) is p for p in phones[1:])
    kept = phones[-1]
    now[0] = 12 * 3600 - 1
    assert sessions.get(kept.token) is kept
    now[0] = 12 * 3600 + 1
    assert sessions.get(kept.token) is None and kept.recorder.closed
    throttle = Throttle(per_name=2, per_address=3, window=60, clock=lambda: now[0])
    throttle.failed("Beto", "10.0.0.2")
    throttle.failed("Beto", "10.0.0.3")
    assert throttle.wait("Beto", "10.0.0.9") == 61 and throttle.wait("Ana", "10.0.0.2") == 0
    now[0] += 30
    assert throttle.wait("Beto", "10.0.0.9") == 31
    now[0] += 31
    assert throttle.wait("Beto", "10.0.0.9") == 0


# ------------------------------------------------------------------ PostgreSQL
def test_attack_a_readers_login_can_look_but_never_enter(owner_url, roles):
    owner, (clerk, viewer) = granted_book(owner_url, roles, "--recorder", "--reader")
    with_friday(owner_url)
    board = BoardServer(as_role(owner_url, viewer), entry=True)
    try:
        reader = Phone(board)
        status, body = reader.sign_in(viewer, "")
        assert status == 403 and f"role {viewer} may only read this book: the board shows it without signing in" in body
        assert "dsm_entry" not in reader.cookies and board.get("/")[0] == 200  # it looks
        assert Phone(board).sign_in("desmoche_pw", "wrong")[0] == 403
        clerk_phone = signed_in(board, "", clerk)
        clerk_phone.open_table()
        assert clerk_phone.send(FRIDAY_LINES[0])[1][0].startswith("move 1: ")
    finally:
        board.stop()
    assert [(m["line"], m["recorder"]) for m in moves(owner_url)] == [(FRIDAY_LINES[0], clerk)]


def test_the_line_field_takes_the_notation_its_spanish_verbs_and_short_forms(friday_pin):
    url, pin, board = friday_pin
    phone = signed_in(board, pin)
    phone.open_table()
    for line in FRIDAY_LINES[:7]:
        assert phone.send(line)[0] == 303
    assert phone.send("dr Beto 2d")[1][0].startswith("move 8: draw Beto 2d — ")  # N4.5
    assert phone.send("bajar Beto 2s 2d 2c")[1][0].startswith("move 9: meld Beto 2s 2d 2c — ")  # N4.10
    assert [m["line"] for m in moves(url)][7:] == ["draw Beto 2d", "meld Beto 2s 2d 2c"]


@pytest.mark.slow
def test_a_hand_dealt_voided_undone_and_the_table_closed_from_a_phone(friday_pin):
    url, pin, board = friday_pin
    book = open_book(url)
    table = TableBook(book, "friday")
    for line in FRIDAY_LINES + ["end"]:
        table.record(line)
    book.engine.dispose()
    phone = signed_in(board, pin)
    page = phone.open_table()
    assert re.search(r'value="Beto" checked', page)  # the deal passes to the right (R3.1)

    def do(action, **fields):
        number, seq = phone.seen()
        return phone.post("friday", dict(csrf=phone.field("csrf"), key=f"{action}-{number}-{seq}", number=number,
                                         seq=seq, action=action, **fields))[1]

    assert do("new", dealer="Beto") == ["hand 2 at table friday: Beto deals; bet 10.00; side games: oro 5.00 "
                                        "(Ana Beto Carla)"]
    assert do("line", line="cut Carla")[0].startswith("move 1: cut Carla — ")
    assert do("void", reason="the deck was short") == [
        "move 2: hand 2 at table friday is void (the deck was short): nothing posted, its pots pass on; "
        "`new hand` deals the next (the same dealer)"]
    assert re.search(r'value="Beto" checked', phone.page)  # a void hand's dealer deals again (N9.6)
    assert do("undo") == ["move 3: undid the void (move 2); hand 2 is open again"]  # a void posted nothing (issue 33)
    assert do("void", reason="players left")[0].startswith("move 4: hand 2 at table friday is void (players left)")
    assert do("close", confirm="yes") == ["table friday closed"]
    assert Live(url).json("table", "list", "--json")[0]["closed"]
    assert 'class="close"' not in phone.page and "table friday closed" in phone.page


def test_attack_a_foreign_host_is_refused_by_the_entry_and_nothing_is_stored(friday_pin):
    """DNS rebinding: a page at evil.example, resolved to the board's address, has the browser
    ask for the entry under that name — the sign-in with a PIN it guesses, a form with a
    session it hopes for. Every route of the entry answers 421 from the board's Host allow-list
    (the board's own, around every route) and nothing more: no cookie, nothing stored."""
    url, pin, board = friday_pin
    honest = signed_in(board, pin)  # a real session, whose cookie the attacker's browser would send
    honest.open_table()
    csrf = honest.field("csrf")
    evil = Phone(board, host=f"evil.example:{board.port}")
    evil.cookies = dict(honest.cookies)
    for method, path, form in [("GET", "/entry", None), ("POST", "/entry/signin", {"name": "Beto", "secret": pin}),
                               ("GET", "/entry/table?t=friday", None), ("GET", "/entry/part?t=friday", None),
                               ("GET", "/entry/suggest?t=friday&text=de", None), ("GET", "/entry/events", None),
                               ("GET", "/entry/assets/entry.js", None),
                               ("POST", "/entry/table?t=friday", dict(csrf=csrf, key="k", number="1", seq="0",
                                                                      action="line", line=FRIDAY_LINES[0]))]:
        status, headers, body = evil.request(method, path, form)
        assert (status, body) == (421, "misdirected request: this board does not answer to that name\n"), path
        assert "set-cookie" not in headers, path
    assert moves(url) == []
    assert honest.send(FRIDAY_LINES[0])[1][0].startswith("move 1: ")  # under the board's own name, it records


def test_board_entry_on_a_book_that_is_not_there_says_so_and_makes_none(tmp_path):
    from conftest import invoke

    missing = tmp_path / "none.db"
    run = invoke("board", "--entry", "--port", "0", "--db", missing)
    assert (run.returncode, run.stderr) == (2, f"error: there is no book at {missing}: nothing is recorded there yet\n")
    assert not missing.exists()
