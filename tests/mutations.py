"""Records to start from, and how to break them (issue 4): the property tests, the fuzzing
test and the fuzzer (bench/fuzz.py) share these.

- `seed_records()`: the hand-written records of the repository, one text per file.
- `split_hands(text)`: the text of each hand of a session.
- `mutate(data, rng)`: one random mutation of a record (lines dropped, swapped,
  duplicated; tokens or bytes garbled).
"""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_GLOBS = ("sample_logs/*.dsm", "tests/conformance/*.dsm")


def seed_paths() -> list:
    paths = []
    for pattern in SEED_GLOBS:
        paths += sorted(ROOT.glob(pattern))
    return paths


def seed_records() -> list:
    """(name, bytes) of every hand-written record in the repository."""
    return [(str(p.relative_to(ROOT)), p.read_bytes()) for p in seed_paths()]


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
