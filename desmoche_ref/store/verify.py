"""`verify`: is the book what the program wrote? Recomputes every hand's hash chain, re-judges
every hand from its events and checks that its postings are its settlement's, exactly.

Each problem is (table, hand number, seq or None, message); none means the book is sound.
The messages are findings.Messages: English as `--json` prints them, shown by the shell in
the language of the run.
"""

from collections import Counter

from sqlmodel import select

from ..findings import M, MN, joined
from ..referee import COMPLETE, INVALID
from .hands import (UNDO, VOID, chain_hash, event_lines, events, judge, refund_postings,
                    returned, settlement_postings)
from .models import BookTable, Hand, Posting


def verify_book(session):
    """(problems, counts): every problem found, and how many hands, events, postings were read."""
    problems = []
    counts = Counter()
    for table in session.exec(select(BookTable).order_by(BookTable.name)):
        hands = list(session.exec(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)))
        for hand in hands:
            counts["hands"] += 1
            found = verify_hand(session, table, hand, counts, last=hand is hands[-1])
            problems += [(table.name, hand.number, seq, message) for seq, message in found]
    return problems, counts


def verify_hand(session, table, hand, counts, last=False) -> list:
    rows = events(session, hand)
    counts["events"] += len(rows)
    found = chain_problems(rows)
    if found:
        return found  # the events cannot be trusted: judging them would mislead
    lines = event_lines(rows)
    if hand.status == VOID:
        if lines:
            found.append((None, M("it was closed void (never dealt) but moves of it stand")))
        return found + posting_problems(session, table, hand, None, counts, last)
    report = judge(hand, lines)
    if hand.closed is None:
        if report.status == INVALID:
            e = report.errors[0]
            found.append((None, M("its moves no longer stand: {code} {message}", code=e.code, message=e.message)))
    elif report.status != hand.status:
        found.append((None, M("it was closed {stored} but its moves make it {judged}", stored=M(hand.status),
                              judged=M(report.status))))
    elif report.status == COMPLETE:
        out = report.as_json()
        stored = (hand.outcome, hand.winners, hand.carry_out)
        judged = (out["outcome"]["kind"], " ".join(out["outcome"]["winners"]),
                  report.settlement.carry_out)
        if stored != judged:
            found.append((None, M("its outcome was stored as {stored} but its moves give {judged}",
                                  stored=stored, judged=judged)))
    found += posting_problems(session, table, hand, report, counts, last)
    return found


def chain_problems(rows) -> list:
    """Each row whose seq, target or hash is not what the program wrote."""
    found = []
    previous = ""
    ids = {}
    for n, row in enumerate(rows, 1):
        if row.seq != n:
            found.append((row.seq, M("move {number} is missing: the moves jump to {seq}", number=n, seq=row.seq)))
        if row.supersedes is not None and (row.supersedes not in ids or row.line != UNDO):
            found.append((row.seq, M("it supersedes a row that is not an earlier move of this hand")))
        if chain_hash(previous, row.seq, row.line, row.comment, row.supersedes) != row.hash:
            found.append((row.seq, M("the stored move {line!r} does not match its hash: it was changed "
                                     "after it was recorded", line=row.line)))
        ids[row.id] = row
        previous = row.hash
    return found


def posting_problems(session, table, hand, report, counts, last) -> list:
    """The hand's standing postings must be exactly its settlement's (and, on the last hand of
    a closed table, the R11.5 refund), and every posting must balance."""
    rows = list(session.exec(select(Posting).where(Posting.hand_id == hand.id)))
    counts["postings"] += len(rows)
    found = []
    cents = sum(r.amount for r in rows)
    if cents:
        found.append((None, MN("its postings do not sum to zero ({cents} cent)",
                               "its postings do not sum to zero ({cents} cents)", abs(cents), cents=cents)))
    reversed_ids = {r.reverses for r in rows if r.reverses is not None}
    standing = Counter(_key(r) for r in rows if r.reverses is None and r.id not in reversed_ids)
    expected = Counter()
    if hand.closed is not None and report is not None and report.status == COMPLETE:
        expected.update(_key(r) for r in settlement_postings(hand, report, {}))
    if last and table.closed is not None:
        refund = returned(session, table)
        expected.update(_key(r) for r in refund_postings(hand, refund, {}))
    if standing != expected:
        extra = standing - expected
        missing = expected - standing
        what = joined([M("unexpected {posting}", posting=_say(k)) for k in extra]
                      + [M("missing {posting}", posting=_say(k)) for k in missing])
        found.append((None, M("its postings do not match its settlement: {what}", what=what)))
    return found


def _key(row):
    return (row.account, row.kind, row.detail, row.counterparty, row.amount)


def _say(key) -> str:
    account, kind, detail, other, amount = key
    return f"{kind}{'/' + detail if detail else ''} {account} {amount:+d} ({other})"
