"""What each command stores, held fixed (issue 26): a book made by the same commands — friday
recorded live through TableBook with an undo, its bet changed, the table closed; the league's
files imported; a closed table's records imported — dumps to tests/data/book-dump.json, which
was written by the store BEFORE its schema and write path were reshaped. Times, ids and the
hashes that hold the recorder's name aside (ids become the rows they point at); every other
column of every row of the book, the journal's kinds and writers in order included.

Regenerate (only when a change of what is stored is meant): `python tests/test_store_dump.py`.
"""

import json
import pathlib
import sys

import pytest
from sqlalchemy import text

from conftest import FRIDAY_LINES as FRIDAY, friday_table_book

HERE = pathlib.Path(__file__).parent
EXPECTED = HERE / "data" / "book-dump.json"
LEAGUE = sorted((HERE / "league_data").glob("*.dsm"))
CLOSED = HERE / "conformance" / "closed-win.dsm"


def build(url: str) -> None:
    """The commands: live entry, an undo, a bet change, a table close, three imports."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.importer import import_records

    book = open_book(url)
    try:
        table = friday_table_book(book)
        table.record(FRIDAY[0])
        table.record(FRIDAY[1])
        table.undo()
        for line in FRIDAY[1:] + ["end"]:
            table.record(line)
        table.set_bet(2000)
        table.close()
        for path in LEAGUE:
            assert import_records(book, path.read_bytes(), str(path)).stored
        closed = CLOSED.read_text().replace('[Players', '[Closed "yes"]\n[Players', 1)
        assert import_records(book, closed.encode(), "closing.dsm").stored == 1
    finally:
        book.engine.dispose()


def _rows(conn, sql: str) -> list:
    return [dict(r._mapping) for r in conn.execute(text(sql))]


def dump(url: str, recorder: str) -> dict:
    """The book's rows, times, ids and recorder-bearing hashes aside."""
    from sqlalchemy import create_engine

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return _dump(conn, recorder)
    finally:
        engine.dispose()


def _dump(conn, recorder: str) -> dict:
    """(A live hand's Date tag is the day it was dealt: `<today>`, and its content hash, which
    holds it, aside.)"""
    from desmoche_ref.store.read.hands import played_today

    tables = {r["id"]: r for r in _rows(conn, "SELECT * FROM card_table ORDER BY id")}
    players = {r["id"]: r["name"] for r in _rows(conn, "SELECT id, name FROM player ORDER BY id")}
    hands = {r["id"]: r for r in _rows(conn, "SELECT * FROM hand ORDER BY id")}
    events = _rows(conn, "SELECT * FROM event ORDER BY id")
    postings = _rows(conn, "SELECT * FROM posting ORDER BY id")
    journal = _rows(conn, "SELECT kind, writer FROM journal ORDER BY id")

    def hand_key(hand_id):
        h = hands[hand_id]
        return [tables[h["table_id"]]["name"], h["number"]]

    seqs = {e["id"]: hand_key(e["hand_id"]) + [e["seq"]] for e in events}
    places = {p["id"]: i for i, p in enumerate(postings)}
    who = {recorder: "<recorder>"}
    today = json.dumps(["Date", played_today()])
    for h in hands.values():
        if today in h["extra_tags"]:
            h["extra_tags"] = h["extra_tags"].replace(today, '["Date", "<today>"]')
            h["content_hash"] = "<dated>"
    return {
        "tables": [dict({k: v for k, v in t.items() if k not in ("id", "created", "closed")},
                        closed=t["closed"] is not None) for t in tables.values()],
        "players": list(players.values()),
        "hands": [dict({k: v for k, v in h.items() if k not in ("id", "table_id", "opened", "closed")},
                       table=tables[h["table_id"]]["name"], closed=h["closed"] is not None)
                  for h in hands.values()],
        "events": [dict({k: v for k, v in e.items() if k not in ("id", "hand_id", "entered", "hash",
                                                                 "supersedes", "recorder")},
                        hand=hand_key(e["hand_id"]), recorder=who.get(e["recorder"], e["recorder"]),
                        supersedes=seqs.get(e["supersedes"])) for e in events],
        "postings": [dict({k: v for k, v in p.items() if k not in ("id", "hand_id", "table_id", "player_id",
                                                                   "reverses", "created")},
                          hand=hand_key(p["hand_id"]), player=players.get(p["player_id"]),
                          reverses=places.get(p["reverses"])) for p in postings],
        "journal": [[j["kind"], who.get(j["writer"], j["writer"])] for j in journal],
    }


@pytest.mark.slow
def test_a_book_made_by_the_same_commands_stores_the_same_rows(built_book):
    from conftest import recorder_of

    url = built_book("dump", build)
    assert dump(url, recorder_of(url)) == json.loads(EXPECTED.read_text(encoding="utf-8"))


if __name__ == "__main__":  # write the expected dump from the store as it is now (SQLite)
    import tempfile

    sys.path.insert(0, str(HERE))
    from conftest import recorder_of

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/book.db"
        build(url)
        EXPECTED.parent.mkdir(exist_ok=True)
        EXPECTED.write_text(json.dumps(dump(url, recorder_of(url)), ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")
