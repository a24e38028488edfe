"""Shared helpers for the benchmarks, the fuzzer and the property tests (issue 4).

- `corpus_text(hands, ...)`: a session of simulated hands (the bot simulator), cached in a
  temporary folder; falls back to the hand-written records when the simulator is missing.
- `seed_records()`: the hand-written records of the repository, one text per file.
- `mutate(data, rng)`: one random mutation of a record (lines dropped, swapped,
  duplicated; tokens or bytes garbled).
- `check_invariants(data)`: judge bytes and assert what must hold for any input (N5, N8).
- `hide_cards(text)`: an open record turned closed (N6): dealt and cambio cards hidden.
- `dated(text, per_night, first_day)`: a simulated session spread over nights (Date tags).

Nothing here is a test by itself; `tests/test_properties.py`, `tests/test_fuzz.py` and the
scripts of this folder import it (this folder is put on `sys.path`).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_GLOBS = ("sample_logs/*.dsm", "tests/conformance/*.dsm")
CODE_RE = re.compile(r"^(R|N|F)\d")

if str(ROOT) not in sys.path:  # running from a checkout without an install
    sys.path.insert(0, str(ROOT))


# ------------------------------------------------------------------ corpus

def dated(text: str, per_night: int, first_day: str = "2026-09-04") -> str:
    """A simulated session (`desmoche-ref simulate`) as a season: a Date tag on each hand,
    `per_night` hands a night, a night a week from `first_day` (the simulator writes none)."""
    from datetime import date, timedelta

    start = date.fromisoformat(first_day)

    def tag(m):
        number = int(m.group(1))
        day = start + timedelta(weeks=(number - 1) // per_night)
        return f'{m.group(0)}\n[Date "{day.isoformat()}"]'

    return re.sub(r'^\[Hand "(\d+)"\]', tag, text, flags=re.M)


def seed_paths() -> list:
    paths = []
    for pattern in SEED_GLOBS:
        paths += sorted(ROOT.glob(pattern))
    return paths


def seed_records() -> list:
    """(name, bytes) of every hand-written record in the repository."""
    return [(str(p.relative_to(ROOT)), p.read_bytes()) for p in seed_paths()]


def simulator():
    """`simulate_session` if the simulator is there, else None."""
    try:
        from desmoche_ref.simulate import simulate_session
    except ImportError:
        return None
    return simulate_session


def _simulator_digest() -> str:
    h = hashlib.sha256()
    pkg = ROOT / "desmoche_ref"
    for name in ("simulate.py", "melds.py", "options.py", "cards.py", "ranking.py", "settle.py"):
        p = pkg / name
        if p.exists():
            h.update(p.read_bytes())
    # the simulator's modules, and the engine whose answers its bots choose among
    for p in sorted((pkg / "sim").glob("*.py")) + sorted((pkg / "engine").glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def cache_dir() -> Path:
    d = Path(os.environ.get("DESMOCHE_BENCH_CACHE", Path(tempfile.gettempdir()) / "desmoche-bench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def split_hands(text: str) -> list:
    """The text of each hand of a session (a hand starts at a tag line after events)."""
    hands, current, seen_event = [], [], False
    for line in text.splitlines(keepends=True):
        s = line.strip()
        if s.startswith("[") and seen_event:
            hands.append("".join(current))
            current, seen_event = [], False
        if s and not s.startswith("[") and not s.startswith("#"):
            seen_event = True
        current.append(line)
    if current and "".join(current).strip():
        hands.append("".join(current))
    return hands


def _replicated(hands: int) -> str:
    """`hands` hands made by repeating the hand-written records that check valid."""
    from desmoche_ref.referee import INVALID, judge_bytes

    good = []
    for _, data in seed_records():
        for hand in split_hands(data.decode("utf-8")):
            report = judge_bytes(hand.encode("utf-8"))
            if report.hands and all(h.status != INVALID for h in report.hands):
                good.append(hand.rstrip("\n") + "\n")
    out = [good[i % len(good)] for i in range(hands)]
    return "\n".join(out)


def corpus_text(hands: int = 10_000, seed: int = 0, players=(2, 3, 4), quiet: bool = False):
    """(text, source): `hands` simulated hands, split evenly between the player counts.

    `source` says where they came from: "simulated" or "replicated" (the simulator is
    not there yet: the hand-written records repeated). Cached by size, seed and the
    simulator's source.
    """
    simulate = simulator()
    if simulate is None:
        if not quiet:
            print("  (desmoche_ref.simulate.simulate_session not found: "
                  "replicating the hand-written records)", file=sys.stderr)
        return _replicated(hands), "replicated"
    key = f"sim-{hands}-{seed}-{'-'.join(map(str, players))}-{_simulator_digest()}.dsm"
    path = cache_dir() / key
    if path.exists():
        return path.read_text(encoding="utf-8"), "simulated"
    parts = []
    share, extra = divmod(hands, len(players))
    for i, n in enumerate(players):
        count = share + (1 if i < extra else 0)
        if count:
            if not quiet:
                print(f"  simulating {count} hands for {n} players ...", file=sys.stderr)
            parts.append(simulate(count, players=n, seed=seed + n).rstrip("\n") + "\n")
    text = "\n".join(parts)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return text, "simulated"


def count_events(data: bytes) -> int:
    from desmoche_ref.notation.parser import parse_bytes

    return sum(len(h.events) for h in parse_bytes(data).hands)


# ------------------------------------------------------------------ mutation

VOCAB = ("cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock",
         "meld", "add", "pay", "pass", "show", "foul", "forgive", "end", "to", "Ana", "Beto",
         "Carla", "Dani", "Zoe", "?", "?x9", "?x0", "?x14", "?x3", "As", "2h", "Td", "10♠",
         "Q♥", "Kc", "7C", "1s", "Xx", "oro", "rombo", "flor", "escalera", "peladilla", "color",
         "cuatro-cuerpos", "misdeal", "peek", "hand", "other", "arrangement", "F3", "#", "[",
         "]", '"', "\\", "[Bet \"-1\"]", "[Players \"Ana\"]", "[Dealer \"Nadie\"]",
         "[Options \"forcing strict\"]", "[Rules \"conquien\"]", "[Carry \"1.005\"]",
         "[Side \"oro 5 Ana Beto\"]", "[SideCarry \"oro 3\"]", "[Result \"none\"]", "",
         "\t", "\u00a0", "\ufeff", "é", "\u2028")
GARBAGE_BYTES = (b"\xff", b"\xc3", b"\xe2\x99", b"\r", b"\n", b"\x00", b"\t", b"#", b"[", b'"',
                 b"?", b" ", b"\xef\xbb\xbf", b"\r\n")


CARDS = tuple(r + s for r in "A23456789TJQK" for s in "shdc")
VERBS = VOCAB[:17]
NAMES = ("Ana", "Beto", "Carla", "Dani")


def _event_lines(lines: list) -> list:
    return [k for k, ln in enumerate(lines) if ln[:1].isalpha()]


def mutate(data: bytes, rng: random.Random, rounds: int | None = None) -> bytes:
    """`data` with 1-4 random mutations.

    Structural (drop, swap, duplicate, move lines; cut the record short), lexical (garble
    a token or a byte, insert odd bytes: invalid UTF-8, CR, NUL, BOM, tabs) and semantic
    (another card, another player, another verb on an event line), aimed at event lines
    four times in five so that most inputs get past the tags into the engine.
    """
    lines = data.split(b"\n")
    for _ in range(rounds or rng.randint(1, 4)):
        if not lines:
            lines = [b""]
        events = _event_lines(lines)
        if events and rng.random() < 0.8:
            i = rng.choice(events)
            j = rng.choice(events)
        else:
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines))
        op = rng.randrange(12)
        if op == 0 and len(lines) > 1:                      # drop a line
            del lines[i]
        elif op == 1:                                       # swap two lines
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 2:                                       # duplicate a line
            lines.insert(j, lines[i])
        elif op == 3:                                       # move a line
            lines.insert(j, lines.pop(i))
        elif op == 4:                                       # garble a token
            toks = lines[i].split(b" ")
            k = rng.randrange(len(toks))
            choice = rng.random()
            if choice < 0.6:
                toks[k] = rng.choice(VOCAB).encode("utf-8")
            elif choice < 0.8 and toks[k]:
                t = bytearray(toks[k])
                t[rng.randrange(len(t))] = rng.randrange(256)
                toks[k] = bytes(t)
            elif choice < 0.9:
                del toks[k]
            else:
                toks.insert(k, rng.choice(VOCAB).encode("utf-8"))
            lines[i] = b" ".join(toks)
        elif op == 5:                                       # garble bytes
            line = bytearray(lines[i])
            if line and rng.random() < 0.5:
                line[rng.randrange(len(line))] = rng.randrange(256)
            else:
                pos = rng.randrange(len(line) + 1)
                line[pos:pos] = rng.choice(GARBAGE_BYTES)
            lines[i] = bytes(line)
        elif op == 6 and rng.random() < 0.5:                # cut the record short
            lines = lines[: max(1, i)]
        elif op in (6, 7, 8):                               # another card
            toks = lines[i].split(b" ")
            spots = [k for k, t in enumerate(toks) if k >= 2 and len(t) == 2]
            if spots:
                k = rng.choice(spots)
                toks[k] = rng.choice(CARDS).encode()
            elif len(toks) >= 2:
                toks.append(rng.choice(CARDS).encode())
            lines[i] = b" ".join(toks)
        elif op == 9:                                       # another player
            toks = lines[i].split(b" ")
            if len(toks) >= 2:
                toks[1] = rng.choice(NAMES).encode()
                lines[i] = b" ".join(toks)
        elif op == 10:                                      # another verb
            toks = lines[i].split(b" ")
            toks[0] = rng.choice(VERBS).encode()
            lines[i] = b" ".join(toks)
        else:                                               # a token from another line
            toks = lines[j].split(b" ")
            if len(toks) > 1 and lines[i]:
                mine = lines[i].split(b" ")
                mine[rng.randrange(len(mine))] = toks[rng.randrange(len(toks))]
                lines[i] = b" ".join(mine)
    return b"\n".join(lines)


# ------------------------------------------------------------------ invariants

def _dec(x) -> Decimal:
    return Decimal(x)


def conservation(hand: dict) -> Decimal:
    """Sum of nets + carry_out - carry_in of the main pot and every side pot (N8): 0."""
    total = sum((_dec(v) for v in hand["net"].values()), Decimal(0))
    total += _dec(hand["carry_out"]) - _dec(hand["carry_in"])
    for side in hand["side_games"]:
        total += _dec(side["carry_out"]) - _dec(side["carry_in"])
    return total


def _check_finding(item: dict, kind: str, where: str) -> None:
    line, code = item.get("line"), item.get("code")
    assert type(line) is int and line >= 1, f"{where}: {kind} without a line: {item}"
    assert isinstance(code, str) and CODE_RE.match(code), f"{where}: {kind} with a bad code: {item}"


MONEY_RE = re.compile(r"^-?\d+\.\d\d$")


def check_hand_json(hand: dict, where: str = "") -> None:
    """What N8 promises of every hand report."""
    assert hand["status"] in ("complete", "incomplete", "invalid"), hand["status"]
    assert len(hand["errors"]) <= 1, f"{where}: more than one error: {hand['errors']}"
    if hand["status"] == "invalid":
        assert len(hand["errors"]) == 1, f"{where}: invalid without its error"
    else:
        assert not hand["errors"], f"{where}: {hand['status']} hand with an error"
    for e in hand["errors"]:
        _check_finding(e, "error", where)
    for w in hand["warnings"]:
        _check_finding(w, "warning", where)
    for f in hand["fouls"]:
        _check_finding(f, "foul", where)
        assert re.match(r"^F[1-5]$", f["code"]), f"{where}: foul code {f['code']}"
    for key in ("bet", "carry_in"):
        assert MONEY_RE.match(hand[key]), f"{where}: {key} = {hand[key]!r}"
    if hand["status"] == "complete":
        assert hand["outcome"] is not None and hand["net"] is not None, where
        assert hand["outcome"]["kind"] in ("win", "auto-win", "no-winner"), where
        assert sorted(hand["net"]) == sorted(hand["players"]), f"{where}: nets not for every player"
        for v in list(hand["net"].values()) + [hand["pot"], hand["carry_out"]]:
            assert MONEY_RE.match(v), f"{where}: money {v!r}"
        total = conservation(hand)
        assert total == 0, f"{where}: money not conserved: off by {total}"
    else:
        for key in ("outcome", "pot", "carry_out", "bonuses", "side_games", "net"):
            assert hand[key] is None, f"{where}: {key} given for a {hand['status']} hand"


def check_invariants(data: bytes, where: str = "") -> list:
    """Judge `data`; assert it does not raise and every report keeps N5/N8. Returns the hands' JSON."""
    from desmoche_ref.referee import judge_bytes

    report = judge_bytes(data, "fuzz.dsm")
    doc = report.as_json()
    json.dumps(doc, ensure_ascii=False)
    if report.error:
        assert not doc["hands"], where
        assert isinstance(report.error, str)
    for hand in doc["hands"]:
        check_hand_json(hand, where)
    # the writer: where a file can be written, writing is a fixed point (N7)
    from desmoche_ref.notation.parser import parse_bytes
    from desmoche_ref.notation.writer import syntax_errors, write_file

    record = parse_bytes(data)
    if not record.error and not syntax_errors(record):
        once = write_file(record)
        twice = write_file(parse_bytes(once.encode("utf-8")))
        assert once == twice, f"{where}: the canonical form is not a fixed point"
    return doc["hands"]


def verdict(hand: dict) -> tuple:
    """What `fmt` must keep of a hand's verdict (line numbers may move)."""
    out = hand["outcome"]
    return (hand["status"],
            (out["kind"], tuple(out["winners"]), out["auto"]) if out else None,
            tuple(sorted((hand["net"] or {}).items())),
            tuple(e["code"] for e in hand["errors"]),
            tuple(sorted(w["code"] for w in hand["warnings"])),
            tuple((f["player"], f["code"], f["enforced"]) for f in hand["fouls"]))


# ------------------------------------------------------------------ closed records

_DEAL_RE = re.compile(r"^(\s*deal\s+\S+)\s+([^#]*?)(\s*(#.*)?)$")
_CAMBIO_RE = re.compile(r"^(\s*cambio\s+\S+)\s+(\S+)(\s*(#.*)?)$")


def is_open(hand_text: str) -> bool:
    return not re.search(r"(^|\s)\?(x\d+)?(\s|$)", hand_text, re.MULTILINE)


def _unknown_count(token: str) -> int:
    if token.startswith("?") and token[1:2] in ("x", "X") and token[2:].isdigit():
        return int(token[2:])
    return 1


def _declared_nine(record, line: int, actor: str, kind: str):
    """The nine cards a declaration at `line` shows: held or as dealt, whichever qualifies
    (the better if both, R6.2); the held nine (else the dealt) if neither does."""
    from desmoche_ref.cards import CARD_NAME
    from desmoche_ref.ranking import auto_strength
    from desmoche_ref.referee import judge_hand

    hand = next((h for h in record.hands if any(ev.line == line for ev in h.events)), None)
    if hand is None:
        return None
    report = judge_hand(hand, until=line)  # the declaration changes no hand; the deal is judged
    if report.replay is None or actor not in report.setup.players:
        return None
    state = report.replay.state
    player = state.players[report.setup.players.index(actor)]
    nines = []
    if state.cambio_complete and player.held9 and not player.held9[1]:
        nines.append(sorted(player.held9[0]))
    if player.dealt9 and not player.dealt9[1]:
        nines.append(sorted(player.dealt9[0]))
    nines = [n for n in nines if len(n) == 9]
    if not nines:
        return None
    colour = report.setup.options.color
    scored = [(auto_strength(kind, n, colour), n) for n in nines]
    good = [(strength, n) for strength, n in scored if strength is not None]
    best = max(good)[1] if good else nines[0]
    return [CARD_NAME[c] for c in best]


def hide_cards(text: str) -> str:
    """An open record made closed (N6): `deal P CARDS` -> `deal P ?xN`, cambio cards -> `?`.

    What a recorder who cannot see faces still sees is kept: a player who showed all nine
    cards in a declaration before passing has a known hand and must name the card passed
    (N6.2), so that cambio line stays; and a declarer lays the hand face up (R6.3), so a
    `declare` line without its cards gets the nine the open record implies (as held or as
    dealt, whichever qualifies).
    """
    from desmoche_ref.notation.parser import parse_text

    lines = text.split("\n")
    record = None
    out = []
    known = set()  # players whose hand the table has seen (a declaration with its cards)
    for number, line in enumerate(lines, 1):
        body, hash_, comment = line.partition("#")
        words = body.split()
        if words[:1] == ["declare"] and len(words) == 3:
            record = record or parse_text(text)
            nine = _declared_nine(record, number, words[1], words[2])
            if nine:
                line = " ".join(words + nine) + (f" {hash_}{comment}" if hash_ else "")
                words += nine
        if words[:1] == ["declare"] and len(words) > 3:
            known.add(words[1])
        elif line.lstrip().startswith("["):
            known = set()
        m = _DEAL_RE.match(line)
        if m:
            n = sum(_unknown_count(t) for t in m.group(2).split())
            chunks = [13] * (n // 13) + ([n % 13] if n % 13 else [])
            hidden = " ".join("?" if k == 1 else f"?x{k}" for k in chunks)
            line = f"{m.group(1)} {hidden}{m.group(3)}"
        else:
            m = _CAMBIO_RE.match(line)
            if m and words[1] not in known:
                line = f"{m.group(1)} ?{m.group(3)}"
        out.append(line)
    return "\n".join(out)
