"""Issue 4's acceptance run: 1,000 simulated hands each for 2, 3 and 4 players must all
check valid, complete and balanced, and together use every verb, every option of R15 and
both presets, and play every kind of hand: each foul F1-F5 enforced and forgiven, contested
claims, knocks, passes, closed records, automatic wins, side pots won, desmoches, each outcome.

    python bench/verify_simulated.py [--hands 1000] [--seed 0]

Prints what it found and exits 1 if any hand fails or anything is missing.
"""

import argparse
import sys
import time
from collections import Counter

from desmoche_ref.notation.parser import VERBS
from desmoche_ref.options import CHOICES, SWITCHES
from desmoche_ref.referee import judge_text
from desmoche_ref.simulate import simulate_session


VARIETY = tuple(f"{code} {how}" for code in ("F1", "F2", "F3", "F4", "F5")
                for how in ("enforced", "forgiven")) + (
    "contested claim", "knock", "pass", "closed record", "auto-win", "win", "no-winner",
    "side pot won", "side pot carried", "desmoche")


def kinds_of_hand(hand) -> set:
    """What kind of hand this was, for VARIETY: read from the record and the verdict."""
    kinds = {f"{f.code} {'enforced' if f.enforced else 'forgiven'}" for f in hand.fouls}
    events = hand.record.events
    verbs = [ev.verb for ev in events]
    kinds |= {v for v in ("knock", "pass") if v in verbs}
    if any(a == b == "claim" for a, b in zip(verbs, verbs[1:])):
        kinds.add("contested claim")
    if any(ev.unknown for ev in events if ev.verb == "deal"):
        kinds.add("closed record")
    if hand.outcome is not None:
        kinds.add(hand.outcome.kind)
    for side in hand.settlement.side_games if hand.settlement else ():
        if side.winners or side.carry_out:
            kinds.add("side pot won" if side.winners else "side pot carried")
    laid = set()  # a meld with a card already on the table: a desmoche (R8.5)
    for ev in events:
        if ev.verb == "meld" and laid.intersection(ev.cards):
            kinds.add("desmoche")
        if ev.verb in ("meld", "add"):
            laid.update(ev.cards)
    return kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per table size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    verbs, options, presets, statuses = Counter(), Counter(), Counter(), Counter()
    variety = Counter()
    problems = []
    started = time.perf_counter()
    for players in (2, 3, 4):
        text = simulate_session(args.hands, players=players, seed=args.seed + players)
        for number, hand in enumerate(judge_text(text, f"{players}p").hands, 1):
            statuses[hand.status] += 1
            if hand.status != "complete":
                problems.append(f"{players} players, hand {number} (line {hand.record.line}): "
                                f"{hand.status} {[e.as_json() for e in hand.errors]}")
            verbs.update(ev.verb for ev in hand.record.events)
            variety.update(kinds_of_hand(hand))
            presets[hand.setup.rules] += 1
            options.update(hand.setup.options.as_json().items())
            # settle() raises if a hand does not balance; the N8 law is checked here again.
            if hand.settlement is not None:
                s = hand.settlement
                total = sum(s.net.values()) + s.carry_out - hand.setup.carry
                total += sum(p.carry_out - p.carry_in for p in s.side_games)
                if total:
                    problems.append(f"{players} players, hand {number}: unbalanced by {total} cents")
    elapsed = time.perf_counter() - started

    wanted_options = {(name, value) for name in SWITCHES for value in (True, False)}
    wanted_options |= {(name, value) for name, values in CHOICES.items() for value in values}
    missing = sorted(set(VERBS) - set(verbs)) + sorted(set(VARIETY) - set(variety)) + sorted(
        f"{k}={v}" for k, v in wanted_options - set(options)) + sorted(
        {"desmoche", "conquien"} - set(presets))
    print(f"{sum(statuses.values())} hands in {elapsed:.1f} s: {dict(statuses)}")
    print("verbs:", ", ".join(f"{v} {n}" for v, n in sorted(verbs.items())))
    print("presets:", dict(presets))
    print("hands:", ", ".join(f"{k} {variety[k]}" for k in VARIETY))
    print("options:", ", ".join(f"{k}={v} {n}" for (k, v), n in sorted(options.items(), key=str)))
    for line in problems[:20]:
        print("FAIL", line)
    if missing:
        print("MISSING", ", ".join(map(str, missing)))
    return 1 if problems or missing else 0


if __name__ == "__main__":
    sys.exit(main())
