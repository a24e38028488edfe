"""What the book stores of a hand besides its columns, ORM-free: the record text it exports,
the hash chain of its events, the fouls its standings count. The importer and the league's
reports use these without loading the models (start-up: bench/bench_import.py)."""

import hashlib
import json

from ..engine.setup import Setup
from ..notation.parser import KNOWN_TAGS
from ..notation.writer import _quote


def chain_hash(previous: str, seq: int, line: str, comment, supersedes) -> str:
    text = f"{previous}\n{seq}\n{line}\n{comment or ''}\n{supersedes or ''}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tagged_text(tags, lines) -> str:
    """A record from its (name, value) tags and its event lines (N7)."""
    out = [f"[{name} {_quote(value)}]" for name, value in tags] + [""]
    return "\n".join(out + list(lines)) + "\n"


def content_hash(setup, tags, lines) -> str:
    """How the book knows a hand (importing a record twice stores it once): the SHA-256 of
    its record as the book exports it (hands.record_text), less its Table tag. `setup` is the
    hand's, `tags` the record's (those not of N3 are kept as they are), `lines` its event
    lines with their comments."""
    others = [(t.name, t.value) for t in tags if t.name not in KNOWN_TAGS and t.name != "Table"]
    return hashlib.sha256(tagged_text(setup.tags() + others, lines).encode("utf-8")).hexdigest()


def enforced_fouls(report) -> str:
    """The Hand.fouls column: one name per foul that stood (a forgiven one never happened, R14.3)."""
    return " ".join(f.player for f in report.fouls if f.enforced)


def hand_setup(hand) -> Setup:
    """The setup a stored hand is judged by, from its row (a Hand, or a row of its columns)."""
    return Setup.from_values(hand.players.split(), hand.dealer, bet=hand.bet, carry=hand.carry_in,
                             rules=hand.rules, options=hand.options, sides=json.loads(hand.sides),
                             side_carry=json.loads(hand.side_carry))


def live_events(rows) -> list:
    """The rows that stand: neither an undo nor undone by one."""
    undone = {r.supersedes for r in rows if r.supersedes is not None}
    return [r for r in rows if r.supersedes is None and r.id not in undone]


def event_lines(rows) -> list:
    return [r.line if r.comment is None else f"{r.line} #{r.comment}" for r in live_events(rows)]
