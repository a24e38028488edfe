"""What the book stores of a hand besides its columns, ORM-free: the record text it exports,
the hash chain of its events, the fouls its standings count, and its postings' rows (the one
builder of the double entry: live closes, table closes and imports all post through
`posting_rows`). The judging side of an import (store/judging.py, a process forked before the
book's modules load) and the league's reports use these without loading the models."""

import hashlib

from ..engine.setup import Setup
from ..notation.parser import KNOWN_TAGS
from ..notation.writer import _quote
from ..settle import MAIN_POT, pot_account
from .codecs import POTS, SIDES, TAGS

OUTSIDE = "outside"        # the account carried-in money came from (batch.py)
BROUGHT_IN = "brought-in"  # the kind of those postings
REFUND = "refund"          # the kind of R11.5's returns when a table breaks up
VOID_LINE = "void"         # the line of the event row `hand void` stores (its comment: the reason)
# a posting row as posting_rows gives it (the posting table's columns, less id, reverses, created)
POSTING_FIELDS = ("hand_id", "table_id", "account", "player_id", "kind", "detail", "counterparty", "amount")


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
    out = [f"[{name} {_quote(value)}]" for name, value in tags] + [""]
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
    extra = TAGS.decode(hand.extra_tags)
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
    from ..engine.setup import read_setup
    from ..notation.parser import parse_text

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
                             rules=hand.rules, options=hand.options, sides=SIDES.decode(hand.sides),
                             side_carry=POTS.decode(hand.side_carry))


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
    return [r.line if r.comment is None else f"{r.line} #{r.comment}" for r in live_events(rows)]
