"""The night pages (issue 35): a page a night holds its hands — the table of their outcomes and
money, the settle-up, then each hand's verdict, record and replay (`#h12`, `#h12-m31`); a
night longer than pages.PART hands is written a page each PART hands (`….p2.html`), each as
its hands are read. The hands are read from the book a batch of pages at a time, the pages
of a batch shared between this process and a child forked for it, so a season takes both
cores and no more memory than a batch.

A page whose key (its hands' keys and money, the night's settle-up and voided hands, the
names' files, where it sits among the night's pages) is the one the manifest holds is kept
as it is, its hands' summaries taken from the cache.
"""

import hashlib
import json
import os
from dataclasses import dataclass

from markupsafe import Markup

from . import pages
from .judge import judge
from .manifest import atomic, key
from .handtext import Words, replay_html

@dataclass(frozen=True)
class NightPart:
    """One page of a night: its hands (season.SeasonHand, in order), which of the night's
    pages it is (1, 2, …, of `count`), where it sits in the site and where its first hand is
    in the season's order."""

    night: object
    index: int
    count: int
    hands: list
    page: str
    first: int


def night_parts(season, paths) -> list:
    """The season's night pages, in the season's order (a night with only void hands has one)."""
    out, first = [], 0
    for night in season.nights:
        chunks = [night.hands[k:k + pages.PART] for k in range(0, len(night.hands), pages.PART)] or [[]]
        for index, hands in enumerate(chunks, 1):
            out.append(NightPart(night, index, len(chunks), hands,
                                 paths.night(night.table, night.day, index), first))
            first += len(hands)
    paths.set_parts(out)
    return out


def neighbours(part, paths) -> list:
    """(page index, its first and last hand's numbers, its page, whether it is this one) of the
    night's pages a page names: the first, the last, and a few either side of its own (pages.near)."""
    if part.count == 1:
        return []
    night, shown = part.night, []
    for index in pages.near(part.count, part.index):
        hands = night.hands[(index - 1) * pages.PART:index * pages.PART]
        shown.append((index, hands[0].number, hands[-1].number, paths.night(night.table, night.day, index),
                      index == part.index))
    return shown


def part_key(part, everything: str, near) -> str:
    """What a night page is made from: its hands (their keys and money), the night's settle-up
    and voided hands, the names' files, and the night's other pages it names (`near`)."""
    night = part.night
    return key([(h.key, sorted(h.money.items())) for h in part.hands], sorted(night.balances.items()),
               night.voided, everything, part.index, part.count, [n[:3] for n in near])


def make(reader, season, parts, paths, base, root, old, new, writer, progress) -> list:
    """Every hand's summary (JSON, in the season's order), the night pages written into `root`
    (None: no page, the summaries only): a page whose key the manifest holds is kept, the
    others made, their hands read from the book a batch at a time."""
    from ..store.read.season import BATCH

    everything = key(sorted(paths.players.items()), sorted(paths.tables.items()))
    summaries, todo = [None] * len(season.hands), []
    for p, part in enumerate(parts):
        new.keys[part.page] = k = part_key(part, everything, neighbours(part, paths))
        cached = [old.summaries.get(h.key) for h in part.hands]
        if root is not None and old.keys.get(part.page) == k and None not in cached and writer.keep(part.page):
            summaries[part.first:part.first + len(cached)] = cached
            if progress and cached:
                progress(len(cached))
        else:
            todo.append(p)
    batch, size = [], 0
    for nxt in todo + [None]:  # None: the end, the last batch made
        if nxt is not None:
            batch.append(nxt)
            size += len(parts[nxt].hands)
        if batch and (nxt is None or size >= BATCH):
            records = iter(reader.records([h for q in batch for h in parts[q].hands]))
            items = [(q, [next(records) for _h in parts[q].hands], writer.there(parts[q].page) if root else None)
                     for q in batch]
            for q, summary_list, digest, written in _shared(items, parts, root, base, paths):
                part = parts[q]
                summaries[part.first:part.first + len(summary_list)] = summary_list
                if root is not None:
                    writer.record(part.page, digest, written)
                if progress and summary_list:
                    progress(len(summary_list))
            batch, size = [], 0
    for hand, summary in zip(season.hands, summaries):
        new.summaries[hand.key] = summary
    return summaries


def _shared(items, parts, root, base, paths):
    """The pages of `items` made: about half of their hands in a child forked for it, the rest here."""
    from itertools import zip_longest

    from ..store.write.forked import forked

    mine, theirs, weight = [], [], [0, 0]
    for item in sorted(items, key=lambda i: -len(i[1])):
        side = 0 if weight[0] <= weight[1] else 1
        (mine, theirs)[side].append(item)
        weight[side] += len(item[1]) + 1
    produced = (_pages(mine, parts, root, base, paths),
                forked(_pages, theirs, parts, root, base, paths) if theirs else iter(()))
    for pair in zip_longest(*produced):
        yield from (got for got in pair if got is not None)


def _pages(items, parts, root, base, paths):
    """Make the night pages of `items` ((index of the part, its HandRecords, the SHA-256 of the
    page there now or None)) in `root` (None: none, the summaries only); yields (index, the
    hands' summaries as JSON, the page's SHA-256, whether it was written) for each."""
    from .. import rulebook

    env = pages.environment(base["lang"])
    gettext = env.globals["_"]
    template = env.get_template("night.html")
    rules = rulebook.load(base["lang"])
    words = Words(gettext)
    entered = gettext("entered by {recorder}")
    for q, records, there in items:
        part = parts[q]
        rows, hands, out_summaries = [], [], []
        for record in records:
            hand = record.hand
            judged = judge(record.text, replay=root is not None)
            out = judged.report.as_json()
            summary = pages.summary(judged, out)
            out_summaries.append(json.dumps(summary, separators=(",", ":")))
            if root is None:
                continue
            rows.append(dict(summary, table=hand.table, number=hand.number, day=hand.day, money=hand.money))
            moves = {s.line: s.move for s in judged.steps}
            hands.append({"number": hand.number, "outcome": summary["outcome"], "status": summary["status"],
                          "recorder": pages.recorded_by(record.recorders),
                          "findings": pages.findings(judged.report, rules, moves),
                          "replay": Markup(replay_html(hand.number, record.text, judged.steps, record.recorders,
                                                       gettext, entered))})
        if root is None:
            yield q, out_summaries, None, False
            continue
        seated = list(dict.fromkeys(name for r in rows for name in r["players"]))
        html = template.render(base, root="../", inline=False, links=True, night=part.night, part=part,
                               near=neighbours(part, paths), rows=rows, hands=hands, seated=seated,
                               paths=paths, party=pages.party, words=words)
        data = html.encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        if digest != there:
            atomic(os.path.join(root, part.page), data)
        yield q, out_summaries, digest, digest != there
