"""What the book stores, as values, ORM-free: its rows (`TableRow`, `HandRow`, `EventRow`,
`PostingRow`: the models' columns, a test holds them together), and each thing the book
derives from a hand written ONCE — the record text it exports (`export_text`), the hash chain
of its events (`chain_hash`), the verdict columns of a closed hand (`verdict_columns`: its
status, outcome, fouls, carries and content hash), its postings' rows (`posting_rows`, the one
builder of the double entry: live closes, table closes and imports all post through it),
which of its rows and postings stand (`standing_rows`, `standing_postings`), and a line with
its comment (notation/writer.with_comment). The planners (store/write/plans.py), the judging side
of an import (store/write/judging.py, a process forked before the book's modules load), `verify`
and the league's reports use these without loading the models."""

import hashlib
from typing import Any, NamedTuple

from ...engine.found import COMPLETE
from ...engine.setup import Setup
from ...notation.parser import KNOWN_TAGS
from ...notation.writer import tag_line, with_comment, write_event
from ...settle import MAIN_POT, pot_account
from .terms import VOID

OUTSIDE = "outside"        # the account carried-in money came from (batch.py)
BROUGHT_IN = "brought-in"  # the kind of those postings
REFUND = "refund"          # the kind of R11.5's returns when a table breaks up
VOID_LINE = "void"         # the line of the event row `hand void` stores (its comment: the reason)
# a posting row as posting_rows gives it (the posting table's columns, less id, reverses, created)
POSTING_FIELDS = ("hand_id", "table_id", "account", "player_id", "kind", "detail", "counterparty", "amount")


# ------------------------------------------------------------------ the rows, as values
class TableRow(NamedTuple):
    """A row of card_table (models.BookTable)."""

    id: int
    name: str
    players: str
    bet: int
    rules: str
    options: str
    sides: list
    created: Any
    closed: Any


class HandRow(NamedTuple):
    """A row of hand (models.Hand): its setup, then its verdict (the columns a close derives)."""

    id: int
    table_id: int
    number: int
    players: str
    dealer: str
    rules: str
    options: str
    bet: int
    carry_in: int
    sides: list
    side_carry: dict
    extra_tags: list
    notes: str | None
    source: str
    content_hash: str | None
    status: str
    outcome: str | None
    winners: str | None
    fouls: str
    carry_out: int | None
    side_carry_out: dict | None
    opened: Any
    closed: Any


class EventRow(NamedTuple):
    """A row of event (models.Event): a move, an undo (`supersedes`) or a `void` row."""

    id: int
    hand_id: int
    seq: int
    line: str
    comment: str | None
    entered: Any
    supersedes: int | None
    hash: str
    recorder: str | None


class PostingRow(NamedTuple):
    """A row of posting (models.Posting)."""

    id: int
    hand_id: int
    table_id: int
    account: str
    player_id: int | None
    kind: str
    detail: str | None
    counterparty: str
    amount: int
    reverses: int | None
    created: Any


ROWS: dict[str, Any] = {"card_table": TableRow, "hand": HandRow, "event": EventRow, "posting": PostingRow}
# the columns a close derives from the moves (verify recomputes them), and what they are while open
VERDICT = ("status", "outcome", "winners", "fouls", "carry_out", "side_carry_out", "content_hash")
OPEN_VERDICT = {"status": "open", "outcome": None, "winners": None, "fouls": "", "carry_out": None,
                "side_carry_out": None, "content_hash": None}


def chain_hash(previous: str, seq: int, line: str, comment, supersedes, recorder=None) -> str:
    """The hash of an event row, chained to the previous row's. Rows stored before the book
    recorded who entered them (schema 0003) have no recorder and keep their hashes."""
    text = f"{previous}\n{seq}\n{line}\n{comment or ''}\n{supersedes or ''}"
    if recorder is not None:
        text += f"\n{recorder}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain_hashes(lines, comments, recorder=None) -> list:
    """The chain_hash of each of a hand's first events (seq 1, 2, …; none an undo), each
    chained to the one before: the same hashes in one loop, for the importer, which hashes
    every move of a season (a chain_hash call a move costs a third more)."""
    tail = "" if recorder is None else f"\n{recorder}"
    sha256, out, previous = hashlib.sha256, [], ""
    for seq, (line, comment) in enumerate(zip(lines, comments), 1):
        previous = sha256(f"{previous}\n{seq}\n{line}\n{comment or ''}\n{tail}".encode("utf-8")).hexdigest()
        out.append(previous)
    return out


def tagged_text(tags, lines) -> str:
    """A record from its (name, value) tags and its event lines (N7)."""
    out = [tag_line(name, value) for name, value in tags] + [""]
    return "\n".join(out + list(lines)) + "\n"


def content_hash(setup, tags, lines) -> str:
    """How the book knows a hand (importing a record twice stores it once): the SHA-256 of
    its record as the book exports it (hands.record_text), less its Table tag. `setup` is the
    hand's, `tags` the record's (those not of N3 are kept as they are), `lines` its event
    lines with their comments."""
    others = [(t.name, t.value) for t in tags if t.name not in KNOWN_TAGS and t.name != "Table"]
    return hashlib.sha256(tagged_text(setup.tags() + others, lines).encode("utf-8")).hexdigest()


def exported_tags(hand, void: str | None = None, table: str | None = None) -> list:
    """A stored hand's tags as `export` writes them: its setup's, the Void tag of a hand voided
    at the table (`void`: the reason, N9.6), then its own others — with `Table` when it has none
    (a live hand: where it was played). `hand`: a Hand, or a row of its columns."""
    extra = list(hand.extra_tags)
    if table is not None and not any(t[0] == "Table" for t in extra):
        extra.append(("Table", table))
    return hand_setup(hand).tags() + ([("Void", void)] if void is not None else []) + extra


def void_record(hand, lines, reason: str) -> str:
    """A hand voided at the table (`hand void`) as `export` writes it: its tags with its Void
    tag, then its moves (N3: it keeps its place and its number)."""
    return tagged_text(exported_tags(hand, reason), lines)


def void_hash(hand, lines, reason: str) -> str:
    """The content hash of a hand voided at the table: of its record as `export` writes it
    (void_record), as an import of that record knows it — so an export imported into its own
    book stores the void hand once."""
    from ...engine.setup import read_setup
    from ...notation.parser import parse_text

    record = parse_text(void_record(hand, lines, reason)).hands[0]
    return content_hash(read_setup(record)[0], record.tags, lines)


def enforced_fouls(report) -> str:
    """The Hand.fouls column: the name of each player a foul disqualified, once (a forgiven
    foul never happened, R14.3; a foul against a player already out changes nothing, N4.8)."""
    return " ".join(dict.fromkeys(f.player for f in report.fouls if f.enforced))


def posting_rows(hand_id: int, table_id: int, moves, ids: dict) -> list:
    """The double entry of a hand's movements of money: two rows (POSTING_FIELDS tuples) per
    (kind, detail, payer, payee, cents) — the payer's −cents, then the payee's +cents — each
    naming the other as counterparty; `ids` maps a player's name to its id (a pot has none)."""
    rows = []
    for kind, detail, payer, payee, cents in moves:
        rows.append((hand_id, table_id, payer, ids.get(payer), kind, detail, payee, -cents))
        rows.append((hand_id, table_id, payee, ids.get(payee), kind, detail, payer, cents))
    return rows


def refund_moves(refund: dict) -> list:
    """R11.5's returns, {pot: {player: cents}}, as movements out of each pot."""
    return [(REFUND, pot, pot_account(pot), name, cents)
            for pot, shares in refund.items() for name, cents in shares.items()]


def pot_map(main, sides: dict) -> dict:
    """Account -> cents of the pots: the main pot's and each side game's (those not empty)."""
    pots = {pot_account(MAIN_POT): main or 0}
    for game, cents in sides.items():
        pots[pot_account(game)] = cents
    return {a: c for a, c in pots.items() if c}


def brought_in_moves(carried: dict, held: dict) -> list:
    """What a hand carries in (`carried`, a pot_map) beyond what the book's pots hold (`held`),
    as movements from `outside` into each pot: money from hands the book never saw."""
    main = pot_account(MAIN_POT)
    return [(BROUGHT_IN, None if account == main else account.split(":", 1)[1], OUTSIDE, account,
             cents - held.get(account, 0))
            for account, cents in carried.items() if cents > held.get(account, 0)]


def hand_setup(hand) -> Setup:
    """The setup a stored hand is judged by, from its row (a Hand, or a row of its columns)."""
    return Setup.from_values(hand.players.split(), hand.dealer, bet=hand.bet, carry=hand.carry_in,
                             rules=hand.rules, options=hand.options, sides=hand.sides, side_carry=hand.side_carry)


def standing_rows(rows) -> list:
    """The rows that stand: neither an undo nor undone by one (a hand's `void` row included)."""
    undone = {r.supersedes for r in rows if r.supersedes is not None}
    return [r for r in rows if r.supersedes is None and r.id not in undone]


def live_events(rows) -> list:
    """The moves that stand: the standing rows less a `void` row (`hand void`: not a move)."""
    return [r for r in standing_rows(rows) if r.line != VOID_LINE]


def void_row(rows):
    """The standing `void` row of a hand voided by `hand void` (its comment is the reason), or None."""
    return next((r for r in standing_rows(rows) if r.line == VOID_LINE), None)


def event_lines(rows) -> list:
    """The lines of the moves that stand, each with its comment: the hand's record's moves."""
    return [with_comment(r.line, r.comment) for r in live_events(rows)]


def standing_postings(rows) -> list:
    """The postings that stand: neither a reversal nor reversed — less what was brought in from
    outside, which came with the hand's setup, not its moves (a reopened hand keeps it)."""
    reversed_ids = {r.reverses for r in rows if r.reverses is not None}
    return [r for r in rows if r.reverses is None and r.id not in reversed_ids and r.kind != BROUGHT_IN]


def posting_key(row) -> tuple:
    """What a posting moves, without its ids: (account, kind, detail, counterparty, cents)."""
    return (row.account, row.kind, row.detail, row.counterparty, row.amount)


def verdict_columns(report, lines=None) -> dict:
    """The verdict columns of a hand closed with this HandReport (VERDICT): what `close`, an
    import and `verify` each store or expect, from here alone. `lines`: the record's event
    lines as the book keeps them, when the caller has them (the importer), else written again."""
    if lines is None:
        lines = [with_comment(write_event(ev), ev.comment) for ev in report.record.events]
    columns = dict(OPEN_VERDICT, status=report.status, fouls=enforced_fouls(report),
                   content_hash=content_hash(report.setup, report.record.tags, lines))
    if report.status == COMPLETE:
        st, out = report.settlement, report.outcome
        names = report.setup.players
        columns.update(outcome=out.kind, winners=" ".join(names[s] for s in out.winners), carry_out=st.carry_out,
                       side_carry_out={p.game: p.carry_out for p in st.side_games})
    return columns


def export_text(hand, table: str, closes_table: bool, moves) -> str:
    """A hand's record as the book exports it (N7): the club's notes above its tags, its setup's
    tags, the Void tag of a hand voided at the table (its reason, N9.6) and those it keeps (a live
    hand says the table it was played at; the last hand of a closed table says `[Closed "yes"]`,
    N3), then the lines of its moves that stand (`moves`: its event rows). What `export`, the
    report's pages and a hand's key read back."""
    voided = void_row(moves) if hand.status == VOID else None
    tags = exported_tags(hand, voided.comment if voided is not None else None, table)
    if closes_table:
        tags.append(("Closed", "yes"))
    notes = "".join(f"#{line}\n" for line in hand.notes.split("\n")) if hand.notes is not None else ""
    return notes + tagged_text(tags, event_lines(moves))
