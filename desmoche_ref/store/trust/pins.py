"""The recorders' PINs of a SQLite book (issue 36): who may sign in to `board --entry`.

A SQLite book has no roles: whoever may write its file is its owner. To let a recorder enter
moves from a phone, the owner gives them a PIN (`db grant NAME --recorder --pin`): printed
once, never stored; the book keeps only its scrypt hash (`hashlib.scrypt`, a salt of its own
per PIN, the parameters written with it: SCRYPT), so that the file, read, does not give the
PIN away quickly. `db revoke NAME` ends it — and every board session signed in with it, since
the board asks `live` before every move it stores. A new grant to the same name ends the
old PIN. The rows are the book's own state (models.RecorderPin), never journaled.
"""

import hashlib
import hmac
import secrets
import threading
import unicodedata
from typing import NamedTuple

from ...findings import M
from ..schema.terms import StoreError

# scrypt's cost: N = 2**14, r = 8, p = 1 take 16 MiB and some 50 ms a try on one core; the
# board runs one at a time (a sign-in waits its turn) and lets a name or an address try only
# a few times a minute (board/entry.py): a guess costs the guesser, not the board's memory
SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
KEY_BYTES, SALT_BYTES = 32, 16
DIGITS = 10          # a PIN the program makes: 10 random digits (10**10 of them)
MAX_NAME = 64        # event.recorder


class Pin(NamedTuple):
    """A live PIN as the board checks it: its row (`grant`, which a revoke ends) and the name
    its moves record."""

    grant: int
    name: str


class Holder(NamedTuple):
    name: str
    granted: object       # datetime, UTC


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(DIGITS))


def typed(pin: str) -> str:
    """A PIN as typed on a phone, as it is compared: spaces and dashes between the digits
    dropped, Unicode in one form."""
    text = unicodedata.normalize("NFC", pin).strip()
    if all(c.isdigit() or c in " -" for c in text):
        return "".join(c for c in text if c.isdigit())
    return text


def hash_pin(pin: str, salt: bytes | None = None, n: int = SCRYPT["n"], r: int = SCRYPT["r"],
             p: int = SCRYPT["p"]) -> str:
    """The stored form: `scrypt$N$r$p$SALT$KEY` (hex)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = hashlib.scrypt(typed(pin).encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=KEY_BYTES)
    return f"scrypt${n}${r}${p}${salt.hex()}${key.hex()}"


def matches(pin: str, stored: str) -> bool:
    """Whether `pin` is the one `stored` (hash_pin's text) was made from; compared in constant
    time. A stored text of another form matches nothing."""
    try:
        kind, n, r, p, salt, key = stored.split("$")
        if kind != "scrypt":
            return False
        again = hash_pin(pin, bytes.fromhex(salt), int(n), int(r), int(p)).rsplit("$", 1)[1]
    except ValueError:
        return False
    return hmac.compare_digest(again, key)


_DECOY = hash_pin("not a pin: what an unknown name is checked against")
_ONE_AT_A_TIME = threading.Lock()  # scrypt's 16 MiB, once: sign-ins at the same moment wait their turn


def recorder_name(name: str) -> str:
    """The name a PIN is granted to, as its moves will record it; StoreError when it cannot be."""
    text = unicodedata.normalize("NFC", name)
    if not text or len(text) > MAX_NAME or any(c.isspace() or unicodedata.category(c).startswith("C")
                                                 for c in text):
        raise StoreError(M("a recorder's name is one word of at most {most} characters, as their moves "
                           "will name them: {name!r} is not", most=MAX_NAME, name=name[:80]))
    return text


# ------------------------------------------------------------------ the book's PINs
def grant(book, name: str) -> str:
    """A new PIN for `name`, ending any PIN the name held: the PIN, to be shown once. One write."""
    from sqlmodel import col, select

    from ..schema.models import RecorderPin, now

    name = recorder_name(name)
    pin = new_pin()
    stored = hash_pin(pin)
    with book.write() as s:
        for row in s.exec(select(RecorderPin).where(RecorderPin.name == name, col(RecorderPin.revoked).is_(None))):
            row.revoked = now()
            s.add(row)
        s.flush()  # the old PIN ended before the new one counts as the name's live PIN
        s.add(RecorderPin(name=name, hash=stored))
    return pin


def revoke(book, name: str) -> bool:
    """End `name`'s PIN; whether it held one. One write."""
    from sqlmodel import col, select

    from ..schema.models import RecorderPin, now

    with book.write() as s:
        rows = list(s.exec(select(RecorderPin).where(RecorderPin.name == name, col(RecorderPin.revoked).is_(None))))
        for row in rows:
            row.revoked = now()
            s.add(row)
    return bool(rows)


def holders(book) -> list:
    """Holder of every live PIN, by name."""
    from sqlmodel import col, select

    from ..schema.models import RecorderPin

    with book.read() as s:
        return [Holder(r.name, r.granted) for r in
                s.exec(select(RecorderPin).where(col(RecorderPin.revoked).is_(None)).order_by(RecorderPin.name))]


def check(book, name: str, pin: str) -> Pin | None:
    """The live PIN `name` signs in with, if `pin` is it; else None. An unknown name costs the
    same scrypt as a known one (the time taken does not say which names hold a PIN)."""
    from sqlmodel import col, select

    from ..schema.models import RecorderPin

    with book.read() as s:
        row = s.exec(select(RecorderPin).where(RecorderPin.name == unicodedata.normalize("NFC", name),
                                               col(RecorderPin.revoked).is_(None))).first()
    with _ONE_AT_A_TIME:
        if row is None:
            matches(pin, _DECOY)
            return None
        return Pin(row.id, row.name) if matches(pin, row.hash) else None


def live(book, grant_id: int) -> bool:
    """Whether the PIN row `grant_id` still signs in (not revoked, not replaced)."""
    from ..schema.models import RecorderPin

    with book.read() as s:
        row = s.get(RecorderPin, grant_id)
        return row is not None and row.revoked is None
