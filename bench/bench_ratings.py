"""The ratings and the player records (issue 29): how fast, and how well they find the best player.

    python bench/bench_ratings.py [--hands 100000] [--player-hands 20000] [--repeat 3]
                                  [--skill-seeds 3] [--dir DIR] [--skip-books]

Prints, each against a yardstick measured in the same run:
- the Plackett-Luce update alone, in-process: µs a hand for desmoche_ref.rating.rate and for
  openskill's PlackettLuce.rate on the same hands (the figures agree to 1e-12:
  tests/test_ratings.py);
- `ratings --json` as a new process over books of 10% to 100% of --hands imported hands, and
  `standings --json` over each (target: <= 5 s at 100,000 hands);
- `player Ana --json` as a new process over a book of --player-hands hands (target: <= 1 s
  at 20,000), beside `standings --json`;
- the skill test's season (2,000 hands, four bots at levels 1, 0.6, 0.6 and 0.2; seeds 0 to
  --skill-seeds − 1): after how many hands the ratings, and the money alone, last failed to put
  the level-1 bot first and the level-0.2 bot last (0: never after the first hand).

The books are built as bench/bench_standings.py builds them (simulated rounds imported at
tables of their own) and kept in the benchmark cache.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common  # noqa: E402
from bench_standings import build, env  # noqa: E402

ROOT = common.ROOT
sys.path.insert(0, str(ROOT))
SKILL = {"Beto": 0.6, "Carla": 0.6, "Dani": 0.2}


def timed(*args, repeat: int) -> tuple:
    """(median wall seconds, median CPU seconds) of `desmoche-ref ARGS` as a new process."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)], env=env(),
                             capture_output=True, text=True)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if run.returncode:
            sys.exit(run.stderr)
    walls.sort()
    cpus.sort()
    return walls[len(walls) // 2], cpus[len(cpus) // 2]


def update_alone(games: int = 20000) -> None:
    from openskill.models import PlackettLuce

    from desmoche_ref.rating import Ratings

    rng = random.Random(1)
    names = ["Ana", "Beto", "Carla", "Dani"]
    hands = []
    for _ in range(games):
        n = rng.choice((3, 4))
        ranks = [1] * n
        ranks[rng.randrange(n)] = 0
        hands.append((names[:n], ranks))
    book = Ratings()
    t = time.perf_counter()
    for players, ranks in hands:
        book.play(players, ranks)
    mine = (time.perf_counter() - t) / games * 1e6
    model = PlackettLuce()
    held = {name: model.rating() for name in names}
    t = time.perf_counter()
    for players, ranks in hands:
        for name, (after,) in zip(players, model.rate([[held[p]] for p in players], ranks=ranks)):
            held[name] = after
    theirs = (time.perf_counter() - t) / games * 1e6
    print(f"the update alone, {games} hands in-process: rating.rate {mine:.1f} µs a hand, "
          f"openskill {theirs:.1f} µs a hand ({theirs / mine:.1f}x)")


def books(folder: Path, total: int, per_round: int, player_hands: int, repeat: int) -> None:
    import sqlite3

    print(f"whole process, median of {repeat} (SQLite, {folder})")
    print(f"{'hands':>8} {'rated':>7} {'ratings s':>10} {'cpu s':>7} {'standings s':>12} {'ratio':>6}")
    for n, book in build(folder, total, per_round):
        rated = sqlite3.connect(book).execute(
            "SELECT count(*) FROM hand WHERE status = 'complete' AND outcome IN ('win', 'auto-win')").fetchone()[0]
        wall, cpu = timed("ratings", "--json", "--db", book, repeat=repeat)
        yard, _ = timed("standings", "--json", "--db", book, repeat=repeat)
        print(f"{n:>8} {rated:>7} {wall:>10.3f} {cpu:>7.3f} {yard:>12.3f} {wall / yard:>6.2f}")
    print("target: ratings <= 5 s at 100,000 hands")
    small = build(folder.parent / f"{folder.name}-{player_hands}", player_hands, min(per_round, player_hands))[-1][1]
    wall, cpu = timed("player", "Ana", "--json", "--db", small, repeat=repeat)
    yard, _ = timed("standings", "--json", "--db", small, repeat=repeat)
    print(f"player Ana --json on {player_hands} hands: {wall:.3f} s wall, {cpu:.3f} s CPU "
          f"(standings --json {yard:.3f} s, ratio {wall / yard:.2f}); target <= 1 s")


def separation(seeds: int, hands: int = 2000) -> None:
    """After how many hands the ratings and the money last had the order wrong."""
    from desmoche_ref.rating import Ratings, hand_ranking
    from desmoche_ref.sim.night import played

    def right(order):
        return order[0] == "Ana" and order[-1] == "Dani"

    print(f"the skill season: {hands} hands, Ana 1, Beto 0.6, Carla 0.6, Dani 0.2 "
          "(the hand after which each last had Ana not first or Dani not last)")
    print(f"{'seed':>5} {'rated':>6} {'ratings':>8} {'money':>6}  final ratings / money")
    for seed in range(seeds):
        season = played(hands, 4, seed, None, True, None, SKILL)
        book, money = Ratings(), {name: 0 for name in ("Ana", "Beto", "Carla", "Dani")}
        last_rating = last_money = rated = 0
        for k, v in enumerate(season.verdicts, 1):
            ranks = hand_ranking(v.players, v.outcome, v.winners, v.fouled)
            if ranks is not None:
                book.play(v.players, ranks)
                rated += 1
            for name, cents in v.net.items():
                money[name] += cents
            ranked = [r.player for r in book.table()[0]]
            if len(ranked) < 4 or not right(ranked):
                last_rating = k
            if not right(sorted(money, key=lambda name: -money[name])):
                last_money = k
        print(f"{seed:>5} {rated:>6} {last_rating:>8} {last_money:>6}  {' '.join(ranked)} / "
              f"{' '.join(sorted(money, key=lambda name: -money[name]))}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--round", type=int, default=10_000, help="hands per imported round")
    ap.add_argument("--player-hands", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skill-seeds", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None, help="where the books are kept")
    ap.add_argument("--skip-books", action="store_true", help="only the in-process figures")
    args = ap.parse_args()
    update_alone()
    if not args.skip_books:
        books(args.dir or common.cache_dir() / "league-books", args.hands, args.round, args.player_hands,
              args.repeat)
    if args.skill_seeds:
        separation(args.skill_seeds)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
