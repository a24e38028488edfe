"""A SQLite book's recorders' PINs (issue 36): `db grant NAME --recorder --pin` prints a PIN
once, on its last line; the book keeps only its scrypt hash; a new grant or `db revoke` ends
it; the moves entered with it name NAME as their recorder, and the book verifies. On a league
server a PIN is refused: a recorder signs in with their own login."""

import re
import sqlite3

import pytest

from conftest import new_sqlite_book, FRIDAY_LINES, Live, friday_table_book, invoke, verified
from desmoche_ref.store.trust import pins
from desmoche_ref.store.db import open_book
from desmoche_ref.store.trust.identity import entered_by, login_name
from desmoche_ref.store.write.tablebook import TableBook
from desmoche_ref.store.db import describe
from test_store_roles import granted_book, owner_url, psql, roles  # noqa: F401 (fixtures)


@pytest.fixture
def sqlite_book(tmp_path):
    return new_sqlite_book(tmp_path)


def granted(live, name):
    out = live("db", "grant", name, "--recorder", "--pin").stdout
    head, last = out.rstrip("\n").rsplit("\n", 1)
    assert re.fullmatch(r"PIN: [0-9]{10}", last), out
    return head, last[len("PIN: "):]


def test_a_pin_is_printed_once_and_the_book_keeps_only_its_slow_hash(sqlite_book):
    live = Live(sqlite_book)
    head, pin = granted(live, "Beto")
    path = sqlite_book[len("sqlite:///"):]
    assert head == (f"recorder Beto may enter moves in {sqlite_book} on the board (`desmoche-ref board --entry`), "
                    "signing in with this PIN; it is shown only now: the book keeps a hash of it, and "
                    "`desmoche-ref db revoke Beto` ends it")
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name, hash, revoked FROM recorder_pin").fetchall()
    conn.close()
    assert len(rows) == 1 and rows[0][0] == "Beto" and rows[0][2] is None
    kind, n, r, p, salt, key = rows[0][1].split("$")
    assert (kind, n, r, p, len(bytes.fromhex(salt)), len(bytes.fromhex(key))) == ("scrypt", "16384", "8", "1", 16, 32)
    for name in (path, path + "-wal"):  # the PIN itself is nowhere in the book's files
        try:
            assert pin.encode() not in open(name, "rb").read()
        except FileNotFoundError:
            pass
    book = open_book(sqlite_book)
    try:
        signed = pins.check(book, "Beto", pin)
        assert signed is not None and signed.name == "Beto"
        assert pins.check(book, "Beto", f"{pin[:4]} {pin[4:7]}-{pin[7:]}") == signed  # as a phone may type it
        wrong = str((int(pin) + 1) % 10 ** 10).zfill(10)
        assert pins.check(book, "Beto", wrong) is None
        assert pins.check(book, "Ana", pin) is None  # a PIN is its name's
    finally:
        book.engine.dispose()


def test_a_new_grant_and_a_revoke_each_end_the_pin_before(sqlite_book):
    live = Live(sqlite_book)
    _, first = granted(live, "Beto")
    book = open_book(sqlite_book)
    try:
        before = pins.check(book, "Beto", first)
        _, second = granted(live, "Beto")
        assert first != second
        assert pins.check(book, "Beto", first) is None and not pins.live(book, before.grant)
        now = pins.check(book, "Beto", second)
        assert pins.live(book, now.grant)
        assert live.json("db", "roles", "--json")[0]["role"] == "Beto"
        assert live("db", "revoke", "Beto").stdout == (
            f"recorder Beto's PIN on {sqlite_book} is revoked: it signs in no more, and the board's sessions "
            "signed in with it enter nothing more\n")
        assert not pins.live(book, now.grant) and pins.check(book, "Beto", second) is None
    finally:
        book.engine.dispose()
    assert live("db", "revoke", "Beto").stdout == f"Beto holds no PIN on {sqlite_book}: nothing to revoke\n"
    assert live("db", "roles").stdout == ("nobody holds a PIN for this book's board: `desmoche-ref db grant NAME "
                                          "--recorder --pin` gives one\n")
    assert live.json("db", "roles", "--json") == []


def test_what_a_pin_cannot_be_given_to(sqlite_book, tmp_path):
    live = Live(sqlite_book)
    assert live("db", "grant", "Be to", "--recorder", "--pin", status=2).stderr == (
        "error: a recorder's name is one word of at most 64 characters, as their moves will name them: "
        "'Be to' is not\n")
    assert "--pin goes with --recorder" in live("db", "grant", "Beto", "--reader", "--pin", status=2).stderr
    assert live("db", "grant", "Beto", "--recorder", status=2).stderr.endswith(
        "not by database roles; a recorder enters moves on the board with a PIN "
        "(`desmoche-ref db grant NAME --recorder --pin`)\n")
    missing = tmp_path / "none.db"
    assert invoke("db", "grant", "Beto", "--recorder", "--pin", "--db", missing).stderr == (
        f"error: there is no book at {missing}: nothing is recorded there yet\n")
    assert not missing.exists()  # a PIN is given on a book, never makes one
    spanish = invoke("--lang", "es", "db", "grant", "Ana", "--recorder", "--pin", "--db", sqlite_book)
    assert spanish.returncode == 0 and re.search(r"\nPIN: [0-9]{10}\n$", spanish.stdout), spanish.stdout


def test_moves_entered_with_a_pin_name_its_recorder_and_the_book_verifies(sqlite_book):
    live = Live(sqlite_book)
    book = open_book(sqlite_book)
    try:
        table = friday_table_book(book)  # the table and its hand: the file's owner
        as_beto = TableBook(entered_by(book, "Beto"), "friday")
        for line in FRIDAY_LINES[:12]:
            as_beto.record(line)
        table.reload()
        table.record(FRIDAY_LINES[12])  # the owner's own line, between
    finally:
        book.engine.dispose()
    log = live.json("hand", "log", "--table", "friday", "--json")
    assert [e["recorder"] for e in log] == ["Beto"] * 12 + [login_name()]
    assert verified(live("verify").stdout) == "1 hand, 13 moves, 0 postings: all in order\n"


def test_on_a_league_server_a_pin_is_refused_and_no_role_is_given_the_pins(owner_url, roles):
    """A league server's recorders sign in with their own login: `--pin` is refused, and no
    role granted on the book may read or write the (empty) PIN table."""
    owner, (clerk, viewer) = granted_book(owner_url, roles, "--recorder", "--reader")
    assert owner("db", "grant", clerk, "--recorder", "--pin", status=2).stderr == (
        f"error: {describe(owner_url)} is a league server: a recorder signs in to the board with their own "
        "login (`desmoche-ref db grant NAME --recorder`), not with a PIN\n")
    for role in (clerk, viewer):
        refused = psql(owner_url, role, "SELECT count(*) FROM recorder_pin")
        assert refused.returncode != 0 and "permission denied for table recorder_pin" in refused.stderr
    assert psql(owner_url, clerk, "INSERT INTO recorder_pin (name, hash, granted) VALUES ('x', 'y', now())"
                ).returncode != 0
    assert {r["role"]: r["access"] for r in owner.json("db", "roles", "--json")}[clerk] == "recorder"
    book = open_book(owner_url)
    try:
        with pytest.raises(ValueError):
            entered_by(book, "Beto")
    finally:
        book.engine.dispose()
