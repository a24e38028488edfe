"""What the book stores of a hand besides its columns, ORM-free: the record text it exports,
the hash chain of its events, the fouls its standings count. The importer and the league's
reports use these without loading the models (start-up: bench/bench_import.py)."""

import hashlib

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
