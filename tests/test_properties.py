"""Property tests (issue 4): the referee on many more hands than anyone writes by hand.

Bounded so that CI stays fast (the whole file runs in a few seconds on 2 cores): each
property draws a few small simulated sessions (2-4 players, 1-4 hands, every option
varied by the simulator) or a hand-written record, and checks:

- every simulated hand checks complete, without error (N5), money conserved (N8);
- `fmt` round-trips: the canonical form is a fixed point and keeps every verdict;
- hiding the cards of an open record (N6) keeps it valid with the same outcome and nets;
- a mutated record never raises: it yields findings, each error with a line and a code.

The helpers live beside this file: tests/mutations.py (seed records, mutation),
tests/invariants.py (what any verdict keeps) and tests/closed_records.py (hiding cards);
the fuzzer (tests/fuzzing.py, bench/fuzz.py) shares the first two.
"""

import os
import random
from decimal import Decimal
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from closed_records import hide_cards, is_open
from invariants import check_hand_json, check_invariants, conservation, verdict
from mutations import CARDS, VOCAB, mutate, seed_records, split_hands

from desmoche_ref.notation.parser import parse_bytes, parse_text
from desmoche_ref.notation.writer import syntax_errors, write_file
from desmoche_ref.referee import judge_bytes, judge_text
from desmoche_ref.simulate import simulate_session

# DESMOCHE_EXAMPLES=500 pytest tests/test_properties.py: a deeper run on demand.
EXAMPLES = int(os.environ.get("DESMOCHE_EXAMPLES", "25"))
BOUNDED = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

sessions = st.tuples(st.integers(0, 2**31 - 1), st.sampled_from((2, 3, 4)), st.integers(1, 4))
SEEDS = seed_records()


@lru_cache(maxsize=256)
def simulated(seed: int, players: int, hands: int) -> str:
    return simulate_session(hands, players=players, seed=seed)


def hand_texts(text: str) -> list:
    return split_hands(text)


def reports(text: str) -> list:
    doc = judge_text(text).as_json()
    return doc["hands"]


# ---------------------------------------------------------------- simulated hands

@BOUNDED
@given(sessions)
def test_every_simulated_hand_checks_complete_without_error(session):
    seed, players, count = session
    text = simulated(seed, players, count)
    hands = reports(text)
    assert len(hands) == count
    for i, hand in enumerate(hands, 1):
        where = f"simulate_session({count}, players={players}, seed={seed}) hand {i}"
        assert hand["errors"] == [], f"{where}: {hand['errors']}"
        assert hand["status"] == "complete", f"{where}: {hand['status']}"
        assert hand["result_agrees"] is not False, f"{where}: the bots' Result disagrees"
        check_hand_json(hand, where)


@BOUNDED
@given(sessions)
def test_money_is_conserved_in_every_complete_hand_n8(session):
    seed, players, count = session
    for i, hand in enumerate(reports(simulated(seed, players, count)), 1):
        if hand["status"] != "complete":
            continue
        assert conservation(hand) == 0, (
            f"simulate_session({count}, players={players}, seed={seed}) hand {i}: "
            f"nets {hand['net']}, pot {hand['carry_in']} -> {hand['carry_out']}, "
            f"side {hand['side_games']}")


long_sessions = st.tuples(st.integers(0, 2**31 - 1), st.sampled_from((2, 3, 4)), st.integers(4, 12))


@settings(BOUNDED, max_examples=max(4, EXAMPLES // 3))
@given(long_sessions)
def test_a_simulated_session_follows_on_at_one_table(session):
    """R2.3, R3.1: the dealer rotates, pots carry; and the night's money is conserved."""
    from desmoche_ref.session import check_session

    text = simulated(*session)
    night = check_session(judge_text(text))
    assert night.problems == [] and night.warnings == [], f"simulate_session{session}: {night.problems}"
    doc = night.as_json()
    hands = reports(text)
    carried = Decimal(hands[-1]["carry_out"]) + sum(
        (Decimal(s["carry_out"]) for s in hands[-1]["side_games"]), Decimal(0))
    first_in = Decimal(hands[0]["carry_in"]) + sum(
        (Decimal(s["carry_in"]) for s in hands[0]["side_games"]), Decimal(0))
    totals = sum((Decimal(v) for v in doc["totals"].values()), Decimal(0))
    assert totals + carried - first_in == 0, f"simulate_session{session}: {doc['totals']}"


def test_money_is_conserved_in_the_hand_written_records():
    for name, data in SEEDS:
        for hand in judge_bytes(data).as_json()["hands"]:
            if hand["status"] == "complete":
                assert conservation(hand) == 0, f"{name} line {hand['line']}"


# ---------------------------------------------------------------- the first error (N5.1)

def judge_until(text: str, until: int) -> list:
    from desmoche_ref.referee import judge_hand

    return [judge_hand(h, until) for h in parse_text(text).hands]


@BOUNDED
@given(sessions, st.integers(0, 10**6))
def test_every_prefix_of_a_simulated_hand_is_valid_and_complete_only_at_its_end(session, pick):
    """Replaying up to any line (as `show --at` does) never finds an error in a valid record."""
    texts = hand_texts(simulated(*session))
    text = texts[pick % len(texts)]
    events = parse_text(text).hands[0].events
    lines = [ev.line for ev in events]
    forgiven_next = {a.line for a, b in zip(events, events[1:]) if b.verb == "forgive"}
    (full,) = reports(text)
    decided = full["outcome"]["line"]
    for until in sorted(set(lines[:: max(1, len(lines) // 12)] + [lines[-1]] + list(forgiven_next))):
        (report,) = judge_until(text, until)
        assert report.errors == [], f"simulate_session{session}, up to line {until}: {report.errors}"
        if until >= decided:
            assert report.status == "complete", f"simulate_session{session}, up to line {until}"
        elif until not in forgiven_next:
            # a foul that ends the hand may be forgiven on the next line (N4.4, N4.8): the
            # hand is over at the foul's line and goes on again after the forgive
            assert report.status == "incomplete", f"simulate_session{session}, up to line {until}"


@BOUNDED
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2**32 - 1))
def test_the_first_error_depends_only_on_the_lines_before_it(index, mutation_seed):
    """N5.1: the first error in line order is reported and later lines are not judged."""
    name, data = SEEDS[index]
    mutated = mutate(data, random.Random(mutation_seed))
    try:
        text = mutated.decode("utf-8")
    except UnicodeDecodeError:
        return
    where = f"{name} mutated with seed {mutation_seed}"
    for i, hand in enumerate(judge_text(text).hands):
        if hand.replay is None or not hand.replay.errors:
            continue  # no error, or an error in the tags (the setup)
        err = hand.errors[0]
        cut = judge_until(text, err.line)[i]
        assert [(e.line, e.code) for e in cut.errors] == [(err.line, err.code)], where
        before = judge_until(text, err.line - 1)[i]
        assert before.status != "invalid", f"{where}: {before.errors} before line {err.line}"


# ---------------------------------------------------------------- fmt round trip

def assert_round_trip(data: bytes, where: str) -> None:
    record = parse_bytes(data)
    if record.error or syntax_errors(record):
        return  # fmt refuses such a file: nothing to round-trip
    canonical = write_file(record)
    again = write_file(parse_text(canonical))
    assert again == canonical, f"{where}: write(parse(text)) is not a fixed point"
    before = [verdict(h) for h in judge_bytes(data).as_json()["hands"]]
    after = [verdict(h) for h in judge_text(canonical).as_json()["hands"]]
    assert after == before, f"{where}: fmt changed the verdict"


@pytest.mark.parametrize("name", [n for n, _ in SEEDS])
def test_fmt_round_trips_the_hand_written_records(name):
    assert_round_trip(dict(SEEDS)[name], name)


@BOUNDED
@given(sessions)
def test_fmt_round_trips_simulated_sessions(session):
    text = simulated(*session)
    assert write_file(parse_text(text)) == text, f"simulate_session{session} is not canonical"
    assert_round_trip(text.encode("utf-8"), f"simulate_session{session}")


@BOUNDED
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2**32 - 1))
def test_fmt_round_trips_mutated_records(index, mutation_seed):
    name, data = SEEDS[index]
    mutated = mutate(data, random.Random(mutation_seed))
    assert_round_trip(mutated, f"{name} mutated with seed {mutation_seed}")


# ---------------------------------------------------------------- closed records (N6)

@BOUNDED
@given(sessions)
def test_hiding_the_cards_keeps_the_outcome_and_nets(session):
    seed, players, count = session
    for i, text in enumerate(hand_texts(simulated(seed, players, count)), 1):
        if not is_open(text):
            continue
        closed = hide_cards(text)
        assert not is_open(closed)
        where = f"simulate_session({count}, players={players}, seed={seed}) hand {i}, closed"
        (open_hand,) = reports(text)
        (closed_hand,) = reports(closed)
        assert closed_hand["errors"] == [], f"{where}: {closed_hand['errors']}\n{closed}"
        assert closed_hand["status"] == open_hand["status"], where
        assert closed_hand["outcome"] == open_hand["outcome"], where
        assert closed_hand["net"] == open_hand["net"], where
        assert closed_hand["fouls"] == open_hand["fouls"], where


OPEN_COMPLETE = [(name, i, text) for name, data in SEEDS
                 for i, text in enumerate(hand_texts(data.decode("utf-8")), 1)
                 if is_open(text) and reports(text)[0]["status"] == "complete"]


@pytest.mark.parametrize("name, number, text", OPEN_COMPLETE,
                         ids=[f"{n}#{i}" for n, i, _ in OPEN_COMPLETE])
def test_hiding_the_cards_of_the_hand_written_records(name, number, text):
    (open_hand,) = reports(text)
    (closed_hand,) = reports(hide_cards(text))
    assert closed_hand["errors"] == []
    assert (closed_hand["outcome"], closed_hand["net"]) == (open_hand["outcome"], open_hand["net"])


# ---------------------------------------------------------------- mutations

@BOUNDED
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2**32 - 1))
def test_mutated_hand_written_records_never_raise(index, mutation_seed):
    name, data = SEEDS[index]
    mutated = mutate(data, random.Random(mutation_seed))
    check_invariants(mutated, f"{name} mutated with seed {mutation_seed}")


@BOUNDED
@given(sessions, st.integers(0, 2**32 - 1))
def test_mutated_simulated_records_never_raise(session, mutation_seed):
    data = simulated(*session).encode("utf-8")
    mutated = mutate(data, random.Random(mutation_seed))
    check_invariants(mutated, f"simulate_session{session} mutated with seed {mutation_seed}")


@BOUNDED
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data):
    check_invariants(data, repr(data))


@BOUNDED
@given(st.lists(st.sampled_from(VOCAB + CARDS), max_size=12).map(" ".join),
       st.integers(0, len(SEEDS) - 1), st.integers(0, 200))
def test_an_arbitrary_line_inserted_never_raises(line, index, at):
    lines = SEEDS[index][1].decode("utf-8").split("\n")
    lines.insert(at % (len(lines) + 1), line)
    check_invariants("\n".join(lines).encode("utf-8", "surrogatepass"), repr(line))


# ---------------------------------------------------------------- regressions found here

def test_closed_declarations_as_dealt_and_as_held_share_the_passed_card():
    """R6.2/N6.2: Ana's nine as dealt include 2d, which she passed to Beto, who declares it.

    Found in 10,000 simulated hands (bench/bench_check.py): the engine put all nine of
    Ana's declared cards in her hand and refused Beto's 2d (N2.4).
    """
    text = "\n".join([
        '[Players "Ana Beto Carla"]', '[Dealer "Beto"]', "",
        "deal Carla ?x9", "deal Ana ?x9", "deal Beto ?x9",
        "cambio Carla ?", "cambio Ana ?", "cambio Beto ?",
        "declare Ana peladilla As 3s 6h 8h 2d 5d Td 4c Qc",
        "declare Beto cuatro-cuerpos 5s 7s 8s 7h 2d 7d 7c Tc Kc",
        "end", ""])
    (hand,) = reports(text)
    assert hand["errors"] == []
    assert hand["status"] == "complete"
    assert hand["outcome"]["winners"] == ["Beto"]  # cuatro cuerpos beats peladilla (R6.5)
