"""The board's entry desk (store/write/desk.py, issue 36), below the web pages, on SQLite and on
PostgreSQL: a recorder signs in (a PIN; a league login), enters friday's hand and closes it
with `check`'s verdict and nets, each move naming them; a resent form stores nothing twice; a
form made on a hand that moved since is refused naming what changed, nothing stored; two
recorders racing at one table store each move once; a revoked PIN or role, a reader's login,
a wrong password are refused, nothing stored — and a reader's connection, were the board's
own check skipped, is refused by the server."""

import threading

import pytest

from conftest import friday_sqlite, with_friday, FRIDAY_LINES, Live, verified
from desmoche_ref.store.db import BookError
from desmoche_ref.store.write.desk import Desk, Moved, Seen, SignedOut
from desmoche_ref.store.trust.signin import SignInRefused
from desmoche_ref.store.write.tablebook import TableBook
from test_live_entry import FRIDAY_NETS
from test_store_roles import as_role, granted_book, owner_url, roles  # noqa: F401 (fixtures)

PW_ROLE, PW = "desmoche_pw", "right"  # .ci/postgres: the one role the test server asks a password of


@pytest.fixture
def sqlite_friday(tmp_path):
    """friday's table dealt on a new SQLite book, and a PIN for Beto: (URL, PIN)."""
    url = friday_sqlite(tmp_path)
    pin = Live(url)("db", "grant", "Beto", "--recorder", "--pin").stdout.rstrip("\n").rsplit("PIN: ", 1)[1]
    return url, pin


def enter(desk, recorder, lines, table="friday"):
    """Each line sent as a page would send it: on the hand as the page last showed it."""
    done = []
    for n, line in enumerate(lines):
        seen = desk.now(recorder, table).seen
        done.append(desk.send(recorder, table, seen, f"key-{seen.number}-{seen.seq}-{n}", "line", line))
    return done


def rows(url):
    return Live(url).json("hand", "log", "--all", "--table", "friday", "--json")


@pytest.mark.slow
def test_a_pin_recorder_enters_friday_and_it_closes_with_checks_verdict(sqlite_friday):
    url, pin = sqlite_friday
    desk = Desk(url)
    try:
        beto = desk.sign_in("Beto", pin)
        assert beto.name == "Beto" and beto.still() is None
        now = desk.now(beto, "friday")
        assert (now.seen, now.seats, now.dealer) == (Seen(1, 0), ["Ana", "Beto", "Carla"], "Ana")
        done = enter(desk, beto, FRIDAY_LINES + ["end"])
        assert [d.result.seq for d in done] == list(range(1, 31)) and not any(d.again for d in done)
        closing = done[-1].result.closing
        assert (closing.status, closing.as_json()["net"]) == ("complete", FRIDAY_NETS)
        assert desk.now(beto, "friday").dealer == "Beto"  # hand new proposes the deal to the right (R3.1)
    finally:
        desk.close()
    live = Live(url)
    assert {r["recorder"] for r in rows(url)} == {"Beto"}
    assert live.json("hand", "show", "--json")["net"] == FRIDAY_NETS
    assert verified(live("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"


def test_a_resent_form_is_stored_once_and_a_stale_one_is_refused_naming_what_changed(sqlite_friday):
    url, pin = sqlite_friday
    desk = Desk(url)
    try:
        one, two = desk.sign_in("Beto", pin), desk.sign_in("Beto", pin)  # two phones, one PIN
        enter(desk, one, FRIDAY_LINES[:3])
        seen = desk.now(one, "friday").seen
        first = desk.send(one, "friday", seen, "k1", "line", FRIDAY_LINES[3])
        again = desk.send(one, "friday", seen, "k1", "line", FRIDAY_LINES[3])  # the phone resends it
        assert (first.again, again.again, again.result.seq, again.result.line) == (False, True, 4,
                                                                                  "announce Beto oro Qd")
        with pytest.raises(Moved) as moved:  # the other phone, on the page before that move
            desk.send(two, "friday", seen, "k2", "line", "cambio Beto Ks")
        assert (moved.value.seq, moved.value.number) == (4, None)
        assert [(r.seq, r.line, r.recorder) for r in moved.value.since] == [(4, "announce Beto oro Qd", "Beto")]
        assert len(rows(url)) == 4
        with pytest.raises(Moved):  # an undo made on an old page takes nothing back
            desk.send(two, "friday", Seen(1, 2), "k3", "undo")
        assert desk.send(two, "friday", Seen(1, 4), "k4", "undo").result.target == 4
        assert [r["line"] for r in rows(url)][-1] == "undo"
    finally:
        desk.close()


@pytest.mark.slow  # the fast lane races phones over HTTP (test_entry_web.py)
def test_two_recorders_racing_at_one_table_store_each_move_once(sqlite_friday):
    url, pin = sqlite_friday
    Live(url)("db", "grant", "Ana", "--recorder", "--pin")
    desk = Desk(url)
    try:
        phones = [desk.sign_in("Beto", pin) for _ in range(4)]
        for line in FRIDAY_LINES[:3]:
            seen = desk.now(phones[0], "friday").seen
            outcomes, start = [], threading.Barrier(len(phones))

            def send(phone, n, seen=seen, line=line, outcomes=outcomes, start=start):
                start.wait()
                try:
                    result = desk.send(phone, "friday", seen, f"{line}-{n}", "line", line).result
                    outcomes.append(("already", result.seq) if result.unchanged else result.seq)
                except Moved as exc:
                    outcomes.append(("moved", exc.seq))

            threads = [threading.Thread(target=send, args=(p, n)) for n, p in enumerate(phones)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            stored = [o for o in outcomes if isinstance(o, int)]
            # the others: moved since they looked, or their very line found stored (issue 33)
            others = [o for o in outcomes if o not in stored]
            assert stored == [seen.seq + 1] and len(outcomes) == 4, outcomes
            assert all(o in (("moved", seen.seq + 1), ("already", seen.seq + 1)) for o in others), outcomes
    finally:
        desk.close()
    assert [r["line"] for r in rows(url)] == FRIDAY_LINES[:3]


def test_a_revoked_pin_and_a_wrong_one_store_nothing(sqlite_friday):
    url, pin = sqlite_friday
    desk = Desk(url)
    try:
        beto = desk.sign_in("Beto", pin)
        enter(desk, beto, FRIDAY_LINES[:2])
        for name, wrong in (("Beto", str((int(pin) + 1) % 10 ** 10).zfill(10)), ("Ana", pin), ("Beto", "")):
            with pytest.raises(SignInRefused):
                desk.sign_in(name, wrong)
        Live(url)("db", "revoke", "Beto")
        with pytest.raises(SignedOut) as out:
            desk.send(beto, "friday", Seen(1, 2), "k", "line", FRIDAY_LINES[2])
        assert str(out.value.args[0]) == "Beto's PIN was revoked: sign in again with a new one"
        with pytest.raises(SignedOut):
            desk.now(beto, "friday")
        with pytest.raises(SignInRefused):
            desk.sign_in("Beto", pin)
    finally:
        desk.close()
    assert len(rows(url)) == 2


# ------------------------------------------------------------------ PostgreSQL
def test_a_league_login_enters_friday_as_itself_and_a_reader_or_revoked_role_cannot(owner_url, roles):
    owner, (clerk, viewer) = granted_book(owner_url, roles, "--recorder", "--reader")
    owner("db", "grant", PW_ROLE, "--recorder")
    with_friday(owner_url)
    desk = Desk(as_role(owner_url, viewer))  # the board reads as a reader; each sign-in writes as itself
    try:
        with pytest.raises(SignInRefused) as refused:
            desk.sign_in(viewer, "anything")
        assert str(refused.value.args[0]) == (f"role {viewer} may only read this book: the board shows it "
                                              "without signing in")
        for wrong in ("wrong", ""):
            with pytest.raises(SignInRefused) as refused:
                desk.sign_in(PW_ROLE, wrong)
            assert str(refused.value.args[0]) == "that login and password do not sign in"
        with pytest.raises(SignInRefused):
            desk.sign_in("nobody_here", "x")
        pw = desk.sign_in(PW_ROLE, PW)
        enter(desk, pw, FRIDAY_LINES[:3])
        clerk_in = desk.sign_in(clerk, "")
        assert connections(owner_url, clerk, PW_ROLE, expected=2) == 2  # one a sign-in, nothing pooled beside it
        done = enter(desk, clerk_in, FRIDAY_LINES[3:] + ["end"])
        assert done[-1].result.closing.as_json()["net"] == FRIDAY_NETS
        assert [r["recorder"] for r in rows(owner_url)] == [PW_ROLE] * 3 + [clerk] * 27
        owner("db", "revoke", clerk)
        with pytest.raises(SignedOut) as out:
            desk.send(clerk_in, "friday", Seen(1, 30), "k", "undo")
        assert str(out.value.args[0]) == f"role {clerk} may no longer record in this book (its owner revoked it)"
        assert clerk_in.closed
        owner("db", "grant", PW_ROLE, "--reader")  # a recorder made a reader while signed in
        with pytest.raises(SignedOut):
            desk.send(pw, "friday", Seen(1, 30), "k", "undo")
        pw.close()
        assert connections(owner_url, clerk, PW_ROLE, expected=0) == 0  # each sign-in's connection closed with it
    finally:
        desk.close()
    assert len(rows(owner_url)) == 30
    assert verified(owner("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"


def connections(url, *users, expected: int) -> int:
    """The connections `users` hold to this book's database, once they come to `expected` (or after
    3 s): another test may sign the shared password role in to another database meanwhile, and a
    closed connection's server process leaves pg_stat_activity a moment after the client let go."""
    import time

    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    deadline = time.monotonic() + 3
    try:
        with engine.connect() as conn:
            while True:
                found = conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE usename = ANY(:users) "
                                          "AND datname = current_database()"), {"users": list(users)}).scalar()
                if found == expected or time.monotonic() > deadline:
                    return found
                time.sleep(0.05)
    finally:
        engine.dispose()


def test_the_server_refuses_a_readers_connection_whatever_the_board_does(owner_url, roles):
    """Were the board's own check skipped, a move written through a reader's connection is
    refused by the server: nothing stored."""
    from desmoche_ref.store.trust.signin import Recorder

    owner, (clerk,) = granted_book(owner_url, roles, "--recorder")
    with_friday(owner_url)
    desk = Desk(owner_url)
    try:
        signed = desk.sign_in(clerk, "")
        owner("db", "grant", clerk, "--reader")
        bypassed = Recorder(signed.name, signed.book)  # no `still` asked: straight to the book
        with pytest.raises(BookError) as refused:
            TableBook(bypassed.book, "friday").record(FRIDAY_LINES[0])
        assert str(refused.value.args[0]) == f"role {clerk} may only read this book"
        signed.close()
    finally:
        desk.close()
    assert rows(owner_url) == []
