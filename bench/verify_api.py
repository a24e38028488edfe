"""The engine API's acceptance run: simulated hands (2, 3 and 4 players) fed event by event
through `Referee.apply` give exactly the N8 JSON of judging each record whole, and at every
line the engine's `moves()` contains the record's actual next line.

    python bench/verify_api.py [--hands 1000] [--seed 0]

Prints what it found and exits 1 on any difference.
"""

import argparse
import json
import sys
import time

from desmoche_ref.engine.replay import Referee
from desmoche_ref.engine.setup import read_setup
from desmoche_ref.notation.parser import parse_text
from desmoche_ref.referee import hand_report, judge_hand
from desmoche_ref.simulate import simulate_session


def feed(record):
    """(report fed line by line, [lines whose verb and player `moves()` did not offer])."""
    setup, _ = read_setup(record)
    ref = Referee(setup)
    missed = []
    for ev in record.events:
        if ref.status != "invalid" and ev.error is None:
            offered = {(m.verb, m.player) for m in ref.moves()}
            if ref.verify(ev) is None and (ev.verb, ev.actor) not in offered:
                missed.append(ev.line)
        ref.apply(ev)
    return hand_report(record, setup, ref.report), missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per table size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    problems, hands, events = [], 0, 0
    started = time.perf_counter()
    for players in (2, 3, 4):
        text = simulate_session(args.hands, players=players, seed=args.seed + players)
        for record in parse_text(text).hands:
            hands += 1
            events += len(record.events)
            whole = json.dumps(judge_hand(record).as_json())
            fed, missed = feed(record)
            if json.dumps(fed.as_json()) != whole:
                problems.append(f"{players} players, hand at line {record.line}: the JSON differs")
            problems += [f"{players} players, line {line}: moves() did not offer it" for line in missed]
    elapsed = time.perf_counter() - started
    print(f"{hands} hands, {events} events fed one by one in {elapsed:.1f} s: "
          f"{'identical JSON, every next line offered' if not problems else f'{len(problems)} problems'}")
    for line in problems[:20]:
        print("FAIL", line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
