"""The judging side of an import: each hand of a file judged exactly as `check` judges it
(`judge_stream`), and a valid one prepared for the book as plain values (its row, its events'
canonical lines and chain hashes, its settlement's transfers). It runs in a child process
(store/write/forked.py) while the importer writes (importer.py).

Nothing here loads SQLAlchemy: `import` forks this child before it loads the book's modules
and connects (about 0.3 s of CPU, which `check` never pays), so that judging overlaps them.
The recorder's name, which every move's chain hash holds, is known only once the importer
has connected: the child judges ahead meanwhile (at most AHEAD hands), then is told it.
"""

import os
from datetime import datetime, timezone
from itertools import chain, repeat
from typing import NamedTuple

from ...findings import M
from ...limits import LINE, table_name, too_long, too_many_tags
from ...notation.lines import Lines, read_blocks
from ...notation.parser import KNOWN_TAGS
from ...notation.writer import write_event
from ...referee import COMPLETE, INVALID, VOID, judge_stream
from .forked import forked
from ..schema.records import VOID_LINE, chain_hashes, pot_map, verdict_columns

JUDGED = 25            # hands per message from the judging process to the writing one
AHEAD = 1024           # hands judged at most before the recorder's name comes


class Rejected(NamedTuple):
    """A hand not stored: its place in the file and why, as `check` prints findings."""

    path: str
    number: int          # the hand's place in the file, from 1
    line: int            # its first line
    table: str
    findings: list       # (line, code, message), in line order


class Prepared:
    """A valid hand ready to store: its row's values, its events, its settlement's transfers
    (plain tuples), its players and the pots it carries in. Made in the judging process and
    sent to the writing one, so it holds plain values only.

    Its events travel as columns: their canonical lines "\n"-joined in one string, their
    chain hashes likewise, their comments a list (None when the hand has none), and who
    recorded them. Pickling ~45 tuples a hand, and unpickling them, cost the two processes
    more than the writer spent inserting the rows; a line never holds a "\n" (the reader
    splits the record at them)."""

    __slots__ = ("number", "line", "table", "values", "count", "lines", "comments", "hashes",
                 "recorder", "transfers", "hash", "players", "pots_before", "closes")

    def __init__(self, number, line, table, values, lines, comments, hashes, recorder, transfers,
                 digest, players, pots_before, closes=False):
        self.number, self.line, self.table, self.values = number, line, table, values
        self.count = len(lines)
        self.lines, self.hashes = "\n".join(lines), "\n".join(hashes)
        self.comments = comments if any(c is not None for c in comments) else None
        self.recorder, self.transfers = recorder, transfers
        self.hash, self.players, self.pots_before = digest, players, pots_before
        self.closes = closes  # its Closed tag: the table breaks up after it (R11.5)

    def head(self) -> str:
        """The chain hash of its last event ("" for a hand of none)."""
        return self.hashes.rpartition("\n")[2]

    def event_rows(self, hand_id: int, when) -> list:
        """Its rows of the event table, as importer.EVENT_COLUMNS tuples (zipped, not built one by one)."""
        n = self.count
        if not n:
            return []
        comments = self.comments if self.comments is not None else repeat(None, n)
        return list(zip(repeat(hand_id, n), range(1, n + 1), self.lines.split("\n"), comments,
                        repeat(when, n), self.hashes.split("\n"), repeat(self.recorder, n)))


def default_table(path: str) -> str:
    """The file's name without its folder and extension (`-` for standard input is `stdin`)."""
    if path == "-":
        return "stdin"
    return os.path.splitext(os.path.basename(path))[0] or path


class Judging:
    """A file's hands being judged in a child process, from the moment this is made (before
    the book is opened, for the command line); iterate it for the messages of `_judged`
    once `begin` has told the child the recorder's name. Close it when done (or abandoned):
    the child goes."""

    def __init__(self, source, path: str, table: str | None = None, encoding: str | None = None):
        self._items, self._inbox = forked(_judged, source, path, table, encoding, inbox=True)

    @classmethod
    def of_file(cls, f, path: str, table: str | None = None, encoding: str | None = None) -> "Judging":
        """The hands of an open binary file, read a block at a time (`notation.parser.read_blocks`:
        no more than a block and a hand in memory), judged from now on: the front end calls this
        before it opens the book, so that the child judges while this process connects."""
        return cls(read_blocks(f), path, table, encoding)

    def begin(self, recorder: str) -> None:
        with self._inbox:
            self._inbox.send(recorder)

    def __iter__(self):
        return self._items

    def close(self) -> None:
        self._inbox.close()  # untold (the book could not be opened): the child ends
        self._items.close()


def _judged(recorder, source, path: str, table: str | None, encoding=None):
    """The file's hands judged, JUDGED at a time: (the valid hands prepared, the rejected
    ones, the tables named, the last line judged, and once the file is read the encoding
    its unreadable lines look like). `recorder` (forked.Inbox) is the recorder's name, told
    once the writing process has connected to the book: until then hands are judged ahead."""
    fallback = default_table(path)
    prepared, refused, names = [], [], []
    lines = Lines(source, encoding)
    reports = judge_stream(lines)
    ahead = []
    while len(ahead) < AHEAD and not recorder.ready():
        report = next(reports, None)
        if report is None:
            break
        ahead.append(report)
    who = recorder.read()
    record = None
    for number, report in enumerate(chain(ahead, reports), 1):
        record = report.record
        given = table or _tag(record, "Table") or fallback
        name, wrong = table_name(given)
        name = name or _shown(given)
        if name not in names:
            names.append(name)
        problem = (record.line, "N3", wrong) if wrong else None
        if report.status == INVALID or problem:
            refused.append(Rejected(path, number, record.line, name,
                                    [problem] if problem else report.findings()))
        else:
            hand, problem = prepare_hand(number, name, report, who)
            if problem:
                refused.append(Rejected(path, number, record.line, name, [problem]))
            else:
                prepared.append(hand)
        if len(prepared) + len(refused) >= JUDGED:
            yield prepared, refused, names, record.line, None
            prepared, refused, names = [], [], []
    yield prepared, refused, names, record.line if record else 0, lines.looks_like


def _tag(record, name):
    tag = record.tag(name)
    return tag.value.strip() if tag is not None and tag.value.strip() else None


def _shown(name: str) -> str:
    """A name the book refuses, as the rejection names it: on one line, not too long."""
    name = name if name.isprintable() else repr(name)[1:-1]
    return name if len(name) <= 24 else name[:23] + "…"


def _too_long(record, lines: list):
    """N1.5 for a line that, as the book keeps it (canonical, N7, with its comment: `lines`),
    would be longer than a line may be: a record's line within N1.5 seldom grows
    (`foul P f5 …` is written `foul P other …`), but an export must read back."""
    if max(map(len, lines), default=0) <= LINE:  # the common case, without a call a line
        return None
    for ev, line in zip(record.events, lines):
        long = too_long(len(line))
        if long:
            return (ev.line, "N1.5", M("written in canonical form (N7), {problem}", problem=long))
    return None


def _notes(record):
    """The comment lines written above the record's tags and among them (the club's notes),
    one string, or None: export writes them back above the tags (docs/rulings.md)."""
    lines = list(record.lead) + [line for tag in record.tags for line in tag.lead]
    return "\n".join(lines) if lines else None


def played_on(record):
    """When the hand was played: its Date tag (YYYY-MM-DD, or with dots), else None."""
    value = _tag(record, "Date")
    if value:
        try:
            return datetime.strptime(value.replace(".", "-")[:10], "%Y-%m-%d").replace(tzinfo=timezone.utc)
        except ValueError:
            return None
    return None


EXPORT_ADDED = ("Table", "Date", "Closed")  # limits.too_many_tags counts them apart


def prepare_hand(number: int, table: str, report, who: str, canonical: list | None = None):
    """(Prepared, None), or (None, the N1.5 finding of a line too long as the book keeps it).
    `canonical`: the event rows' lines when the caller has them as the program wrote them (the
    book's, in `verify`: their chain holds them), else written (N7) from the record's events."""
    record, setup = report.record, report.setup
    names = setup.players
    extra = []
    if setup.result is not None:  # the one N3 tag a stored setup leaves out (hands.hand_setup)
        extra.append(["Result", " ".join(setup.result) or "none"])
    extra += [[t.name, t.value] for t in record.tags if t.name not in KNOWN_TAGS]
    if canonical is None:
        canonical = [write_event(ev) for ev in record.events]  # the event rows' lines
    comments = [ev.comment for ev in record.events]
    lines = [line if comment is None else f"{line} #{comment}" for line, comment in zip(canonical, comments)]
    problem = _too_long(record, lines)
    if problem:
        return None, problem
    own = sum(t[0] != "Result" for t in setup.tags()) + sum(t[0] not in EXPORT_ADDED for t in extra)
    crowded = too_many_tags(own)  # N1.5 for the record the export writes (Result is in `extra`)
    if crowded:
        return None, (record.line, "N1.5", crowded)
    verdict = verdict_columns(report, lines)  # the stored row gives these tags back (a test holds it)
    values = dict(
        notes=_notes(record),
        players=" ".join(names), dealer=names[setup.dealer], rules=setup.rules,
        options=setup.options.changes_from(setup.rules), bet=setup.bet, carry_in=setup.carry,
        sides=[(e.game, e.stake, [names[s] for s in e.players]) for e in setup.sides],
        side_carry=dict(setup.side_carry), source="import",
        **{k: v for k, v in verdict.items() if k != "content_hash"})
    if report.status == VOID:  # N9.6: stored as `hand void` leaves it — closed void, its pots passed on,
        # its moves and a `void` row holding the reason (the Void tag is not kept among its tags)
        values.update(carry_out=setup.carry, side_carry_out=values["side_carry"])
        canonical, comments = canonical + [VOID_LINE], comments + [setup.void]
    if not any(t[0] == "Table" for t in extra):
        extra.append(["Table", table])
    values["extra_tags"] = [("Table", table) if t[0] == "Table" else tuple(t) for t in extra]
    # plain tuples pickle in a third of the time
    transfers = [tuple(t) for t in report.settlement.transfers] if report.status == COMPLETE else []
    when = played_on(record)
    values["opened"] = when
    pots_before = pot_map(setup.carry, setup.side_carry)  # what its Carry and SideCarry say
    return Prepared(number, record.line, table, values, canonical, comments,
                     chain_hashes(canonical, comments, who), who, transfers, verdict["content_hash"], tuple(names),
                     pots_before, setup.closed), None
