"""The live board under a club's load (issue 28): many open pages while a night is recorded.

    python bench/bench_board.py [--clients 200] [--rate 5] [--seconds 60] [--pg URL]
                                [--engines sqlite,postgresql] [--yardstick-seconds 20] [--via entry]
    python bench/bench_board.py --flood 20 [--pg URL] [--checkout PATH]

For each engine: `desmoche-ref board` runs as a process of its own on a fresh book; a second
process opens `--clients` server-sent-event streams on loopback (what as many browsers would
hold open); this one records a simulated night through the scorebook service at `--rate`
moves a second for `--seconds`. Printed: the latency from each move's commit to each
client's receipt of the board showing it (p50, p95, max over every client and move: a move
counts as received when an event showing it or a later one arrives), clients dropped (a
stream refused, cut or never served), the server's peak memory (VmHWM) and its CPU (share of
one core, and seconds). Goals (issue 28): p95 <= 300 ms on PostgreSQL, <= 1 s on SQLite, none
dropped, <= 150 MB.

`--via entry` (issue 36): the board runs with `--entry` and every move is entered as a phone
enters it — a form POSTed to /entry/table by a recorder signed in (a PIN on SQLite; on
PostgreSQL a login role made for the run and granted `--recorder`, so each move is inserted
through that role's own connection) — and the latency runs from the moment the phone sends
the form to each client's receipt. Same goals.

Yardstick, in the same run: the same night with ONE client first (`--yardstick-seconds`): the
fan-out to many pages is then read as a ratio to the machine's own floor (a noisy 2-core
machine shared by others moves both alike). PostgreSQL needs `--pg` or $DESMOCHE_TEST_PG (a
server URL; a database is made and dropped for each run). Every client comes from 127.0.0.1:
the board is started with as many open pages per address as there are clients.

`--flood SECONDS` (PostgreSQL; issue 34): a reader's session sends `NOTIFY desmoche_book` as
fast as it can for that long while one page is open; printed: the notifications sent, the
board's CPU over them (share of one core) and, as a yardstick in the same run, its CPU over as
long a quiet while first. `--checkout PATH` runs the board of another checkout (e.g. main's,
for the figure before a change).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402  (puts the checkout on sys.path)

HEAD = re.compile(rb'data-head="([0-9a-f]{64})"')


# ------------------------------------------------------------------ the clients (a process)
async def _client(port: int, got: list, state: dict):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            state["refused"] += 1
            return
        tail = b""
        while True:
            block = await reader.read(65536)
            if not block:
                break
            now = time.monotonic()
            seen = tail + block
            for m in HEAD.finditer(seen):
                if m.end() > len(tail):  # not a head already counted in the tail
                    got.append((m.group(1).decode(), now))
            tail = seen[-100:]
        if not state["stopping"]:
            state["cut"] += 1
    except (OSError, asyncio.IncompleteReadError):
        if not state["stopping"]:
            state["cut"] += 1


async def _clients(port: int, count: int, out: str):
    state = {"refused": 0, "cut": 0, "stopping": False}
    received = [[] for _ in range(count)]
    tasks = []
    for k in range(count):
        tasks.append(asyncio.create_task(_client(port, received[k], state)))
        if k % 20 == 19:
            await asyncio.sleep(0.05)  # pages open over a moment, not all in one instant
    while sum(1 for r in received if r) + state["refused"] + state["cut"] < count:
        await asyncio.sleep(0.05)
    print("ready", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    state["stopping"] = True
    for t in tasks:
        t.cancel()
    never = sum(1 for r in received if not r)
    with open(out, "w") as f:
        json.dump({"received": received, "refused": state["refused"], "cut": state["cut"], "never": never}, f)


def clients_main(port: int, count: int, out: str) -> None:
    asyncio.run(_clients(port, count, out))


# ------------------------------------------------------------------ the server (a process)
class Server:
    """`desmoche-ref board` on a free port; its CPU and memory read from /proc."""

    def __init__(self, url: str, viewers: int, checkout: str | None = None, entry: bool = False):
        env = dict(os.environ, PYTHONPATH=checkout or str(benchkit.ROOT))
        args = [sys.executable, "-m", "desmoche_ref", "board", "--port", "0", "--db", url, "--max-viewers",
                str(viewers)] + (["--entry"] if entry else [])
        where = checkout or str(benchkit.ROOT)  # `-m` finds the package of the folder it runs in first
        probe = subprocess.run(args[:4] + ["--help"], capture_output=True, text=True, env=env, cwd=where)
        if "--max-per-address" in probe.stdout:  # the clients are one address (a checkout before it has none)
            args += ["--max-per-address", str(viewers)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                     cwd=where)
        line = self.proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not found:
            raise SystemExit(f"the board did not start: {line}{self.proc.stderr.read()}")
        self.port = int(found.group(1))
        self.ticks = os.sysconf("SC_CLK_TCK")

    def cpu(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks  # utime + stime

    def peak_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        try:
            _out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _out, err = self.proc.communicate()
        return err


# ------------------------------------------------------------------ the night
def night_lines(moves: int):
    """[(setup, sides, lines)] of a simulated night of at least `moves` moves (fixed options)."""
    from desmoche_ref.engine.setup import read_setup
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.simulate import simulate_session

    text = simulate_session(max(4, moves // 40 + 2), 4, 28, "todo", vary=False)
    lines, out, total = text.splitlines(), [], 0
    for hand in parse_text(text).hands:
        setup = read_setup(hand)[0]
        sides = [[s.game, s.stake, [setup.players[i] for i in s.players]] for s in setup.sides]
        out.append((setup, sides, [lines[ev.line - 1].split("#")[0].strip() for ev in hand.events]))
        total += len(hand.events)
        if total >= moves:
            break
    return out


def record_night(url: str, rate: float, seconds: float) -> dict:
    """Record the night at `rate` moves a second: {book head: (move index, commit time)}."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.trust.journal import head
    from desmoche_ref.store.write.tablebook import TableBook

    book = open_book(url)
    table = TableBook(book, "club")
    commits, index = {}, 0
    total = int(rate * seconds)
    start = time.monotonic()
    for setup, sides, lines in night_lines(total + 10):
        table.new_hand(dealer=setup.players[setup.dealer], sides=sides)
        for line in lines:
            if index >= total:
                break
            time.sleep(max(0.0, start + index / rate - time.monotonic()))
            table.record(line)
            committed = time.monotonic()
            with book.connect() as conn:
                commits[head(conn)] = (index, committed)
            index += 1
        if index >= total:
            break
    book.engine.dispose()
    return commits


class EntryPhone:
    """A recorder's phone at the board's entry: signed in, then each move one form POSTed on
    one kept-alive connection, as a browser sends it (the answer's page is not fetched)."""

    def __init__(self, port: int, name: str, secret: str):
        import http.client

        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.host, self.cookies = f"127.0.0.1:{port}", {}
        page = self.request("GET", "/entry")[1]
        self.request("POST", "/entry/signin", {"csrf": _field(page, "csrf"), "name": name, "secret": secret})
        page = self.request("GET", "/entry/table?t=club")[1]
        if "dsm_entry" not in self.cookies:
            raise SystemExit("the phone did not sign in: " + page[:300])
        self.csrf = _field(page, "csrf")

    def request(self, method: str, path: str, form=None):
        from urllib.parse import urlencode

        headers = {"Host": self.host, "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode("utf-8")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return response.status, text

    def send(self, line: str, number: int, seq: int) -> None:
        status, body = self.request("POST", "/entry/table?t=club", {
            "csrf": self.csrf, "key": uuid.uuid4().hex, "number": number, "seq": seq, "action": "line", "line": line})
        if status != 303:
            raise SystemExit(f"the entry refused {line!r}: {status} {body[:200]}")


def _field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    if found is None:
        raise SystemExit(f"no {name} on the page: {page[:300]}")
    return found.group(1)


def recorder_for(engine: str, url: str, pg: str | None):
    """(name, secret) a phone signs in with, and a function that takes it back: a PIN on
    SQLite; on PostgreSQL a login role made for the run, granted --recorder (no password: the
    test server trusts its users)."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.read.scorebook import Scorebook

    book = open_book(url)
    try:
        if engine == "sqlite":
            return ("Bench", Scorebook(book).grant_pin("Bench")), lambda: None
        import psycopg
        from sqlalchemy.engine import make_url

        role = "bench_clerk_" + uuid.uuid4().hex[:6]
        admin = make_url(pg).set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE ROLE "{role}" LOGIN')
        Scorebook(book).grant(role, "recorder")

        def drop():
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP ROLE IF EXISTS "{role}"')

        return (role, ""), drop
    finally:
        book.engine.dispose()


def record_night_by_phone(url: str, port: int, who, rate: float, seconds: float) -> dict:
    """record_night, each move entered by a phone at the board's entry; its time the moment
    the phone sends it. Each hand is dealt through the scorebook service (not timed)."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.trust.journal import head
    from desmoche_ref.store.write.tablebook import TableBook

    book = open_book(url)
    table = TableBook(book, "club")
    phone = EntryPhone(port, *who)
    commits, index = {}, 0
    total = int(rate * seconds)
    start = time.monotonic()
    for setup, sides, lines in night_lines(total + 10):
        opened = table.new_hand(dealer=setup.players[setup.dealer], sides=sides)
        for seq, line in enumerate(lines):
            if index >= total:
                break
            time.sleep(max(0.0, start + index / rate - time.monotonic()))
            sent = time.monotonic()
            phone.send(line, opened.hand.number, seq)
            with book.connect() as conn:
                commits[head(conn)] = (index, sent)
            index += 1
        table.reload()
        if index >= total:
            break
    phone.conn.close()
    book.engine.dispose()
    return commits


def new_book(engine: str, pg: str | None, folder: str):
    """(URL of a fresh book with table `club`, a function that drops it)."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import create_table

    if engine == "sqlite":
        url = "sqlite:///" + os.path.join(folder, f"board-{uuid.uuid4().hex[:6]}.db")
        drop = lambda: None  # noqa: E731
    else:
        import psycopg
        from sqlalchemy.engine import make_url

        admin = make_url(pg).set(drivername="postgresql").render_as_string(hide_password=False)
        name = "bench_board_" + uuid.uuid4().hex[:8]
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = make_url(pg).set(database=name).render_as_string(hide_password=False)

        def drop():
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    book = open_book(url)
    create_table(book, "club", ["Ana", "Beto", "Carla", "Dani"], 1000, options="todo")
    book.engine.dispose()
    return url, drop


# ------------------------------------------------------------------ one run
def run(engine: str, clients: int, rate: float, seconds: float, pg, folder: str, via: str = "book") -> dict:
    url, drop = new_book(engine, pg, folder)
    who, take_back = recorder_for(engine, url, pg) if via == "entry" else (None, lambda: None)
    server = Server(url, clients + 50, entry=via == "entry")
    out = os.path.join(folder, f"clients-{uuid.uuid4().hex[:6]}.json")
    crowd = subprocess.Popen([sys.executable, __file__, "--client", str(server.port), str(clients), out],
                             stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(benchkit.ROOT)))
    try:
        if crowd.stdout.readline().strip() != "ready":
            raise SystemExit("the clients did not connect")
        cpu0, wall0 = server.cpu(), time.monotonic()
        commits = record_night(url, rate, seconds) if via == "book" else \
            record_night_by_phone(url, server.port, who, rate, seconds)
        time.sleep(2.0)  # the last moves' way to every page
        cpu, wall = server.cpu() - cpu0, time.monotonic() - wall0
        peak = server.peak_mb()
        crowd.send_signal(signal.SIGTERM)
        crowd.wait(60)
        with open(out) as f:
            got = json.load(f)
    finally:
        if crowd.poll() is None:
            crowd.kill()
        err = server.stop()
        drop()
        take_back()
    latencies, missed = [], 0
    order = sorted(commits.values())
    for received in got["received"]:
        times = sorted((commits[h][0], t) for h, t in received if h in commits)
        k = 0
        for index, committed in order:  # the first receipt of this move or a later one (they come in order)
            while k < len(times) and times[k][0] < index:
                k += 1
            if k < len(times):
                latencies.append(times[k][1] - committed)
            else:
                missed += 1
    latencies.sort()
    return {"engine": engine, "clients": clients, "moves": len(commits),
            "p50": statistics.median(latencies) if latencies else float("nan"),
            "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
            "max": latencies[-1] if latencies else float("nan"),
            "dropped": got["refused"] + got["cut"] + got["never"], "missed": missed,
            "peak_mb": peak, "cpu_share": cpu / wall, "cpu_s": cpu, "stopped": err.strip().splitlines()[-1:]}


def flood(seconds: float, pg: str, folder: str, checkout: str | None) -> dict:
    """The board's CPU while a reader floods NOTIFY for `seconds`, and over a quiet while first."""
    import psycopg
    from sqlalchemy.engine import make_url

    url, drop = new_book("postgresql", pg, folder)
    server = Server(url, 10, checkout)
    out = os.path.join(folder, f"clients-{uuid.uuid4().hex[:6]}.json")
    page = subprocess.Popen([sys.executable, __file__, "--client", str(server.port), "1", out],
                            stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(benchkit.ROOT)))
    try:
        if page.stdout.readline().strip() != "ready":
            raise SystemExit("the page did not connect")
        cpu0 = server.cpu()
        time.sleep(seconds)
        quiet = server.cpu() - cpu0
        sent = 0
        with psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False),
                             autocommit=True) as conn:
            cpu0, stop = server.cpu(), time.monotonic() + seconds
            while time.monotonic() < stop:
                conn.execute("NOTIFY desmoche_book")
                sent += 1
            time.sleep(1.0)  # what it still had to do
            flooded = server.cpu() - cpu0
        page.send_signal(signal.SIGTERM)
        page.wait(60)
    finally:
        if page.poll() is None:
            page.kill()
        server.stop()
        drop()
    return {"sent": sent, "quiet": quiet / seconds, "flooded": flooded / (seconds + 1.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--rate", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--yardstick-seconds", type=float, default=20.0)
    parser.add_argument("--engines", default="sqlite,postgresql")
    parser.add_argument("--pg", default=os.environ.get("DESMOCHE_TEST_PG"))
    parser.add_argument("--via", choices=("book", "entry"), default="book",
                        help="how each move is recorded: the scorebook service, or a phone at the board's entry")
    parser.add_argument("--flood", type=float, metavar="SECONDS")
    parser.add_argument("--checkout", help="the checkout whose board runs (default: this one)")
    parser.add_argument("--client", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        clients_main(int(args.client[0]), int(args.client[1]), args.client[2])
        return
    folder = tempfile.mkdtemp(prefix="dsm-bench-board-")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if args.flood:
        if not args.pg:
            raise SystemExit("--flood needs PostgreSQL: --pg URL or $DESMOCHE_TEST_PG")
        r = flood(args.flood, args.pg, folder, args.checkout)
        print(f"NOTIFY flood: {r['sent']} notifications in {args.flood:.0f} s; the board's CPU: "
              f"{r['flooded'] * 100:.1f}% of a core flooded, {r['quiet'] * 100:.1f}% quiet (yardstick); "
              f"board of {args.checkout or benchkit.ROOT}")
        return
    for engine in args.engines.split(","):
        if engine == "postgresql" and not args.pg:
            print("postgresql: skipped (no --pg and no $DESMOCHE_TEST_PG)")
            continue
        floor = run(engine, 1, args.rate, args.yardstick_seconds, args.pg, folder, args.via)
        load = run(engine, args.clients, args.rate, args.seconds, args.pg, folder, args.via)
        start = "commit" if args.via == "book" else "phone's send"
        for r in (floor, load):
            print(f"{r['engine']:10s} {r['clients']:4d} client(s), {r['moves']} moves at {args.rate}/s: "
                  f"{start}->receipt p50 {r['p50'] * 1000:6.0f} ms, p95 {r['p95'] * 1000:6.0f} ms, "
                  f"max {r['max'] * 1000:6.0f} ms; dropped {r['dropped']}, moves never received {r['missed']}; "
                  f"server peak {r['peak_mb']:.0f} MB, CPU {r['cpu_share'] * 100:.0f}% of a core "
                  f"({r['cpu_s']:.1f} s); {' '.join(r['stopped'])}")
        goal = 0.3 if engine == "postgresql" else 1.0
        print(f"{engine:10s} p95 ratio {args.clients} clients / 1 client: {load['p95'] / floor['p95']:.1f}x; "
              f"goals: p95 <= {goal * 1000:.0f} ms {'met' if load['p95'] <= goal else 'NOT MET'}, "
              f"none dropped {'met' if load['dropped'] == 0 else 'NOT MET'}, "
              f"<= 150 MB {'met' if load['peak_mb'] <= 150 else 'NOT MET'}")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
