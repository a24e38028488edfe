"""The engine API (verify / apply / queries): feeding a hand line by line is judging it whole.

Checked on every sample log, every conformance record and simulated sessions of 2, 3 and
4 players: the same N8 JSON, `verify` never changes anything, and the moves the engine
offers next always contain the record's actual next line.
"""

import json
import pathlib

import pytest

from desmoche_ref.cards import names
from desmoche_ref.engine.replay import INVALID, Referee
from desmoche_ref.engine.setup import Setup, SetupError, read_setup
from desmoche_ref.notation.parser import parse_event, parse_text
from desmoche_ref.notation.writer import write_event
from desmoche_ref.referee import hand_report, judge_hand
from desmoche_ref.simulate import simulate_session

ROOT = pathlib.Path(__file__).parent.parent
RECORDS = sorted((ROOT / "sample_logs").glob("*.dsm")) + sorted((ROOT / "tests" / "conformance").glob("*.dsm"))
FRIDAY = (ROOT / "tests" / "conformance" / "friday.dsm").read_text()


def fed_line_by_line(record):
    """The report of a hand fed through `apply` one event at a time, checking `verify` and
    `moves` against each line on the way: `apply` gives every line the verdict `verify` gave
    it, and once the hand is invalid every later line gets that first error (N5.1)."""
    setup, errors = read_setup(record)
    assert not errors
    ref = Referee(setup)
    for ev in record.events:
        if ref.status == INVALID:
            first = ref.report.errors[0]
            assert ref.verify(ev) == first and ref.apply(ev) == first, f"line {ev.line} judged after the error"
            continue
        before = json.dumps(hand_report(record, setup, ref.fork().report).as_json())
        verdict = ref.verify(ev)
        after = json.dumps(hand_report(record, setup, ref.fork().report).as_json())
        assert before == after, f"verify changed the hand at line {ev.line}"
        if verdict is None and ev.error is None:
            moves = {(m.verb, m.player) for m in ref.moves()}
            assert (ev.verb, ev.actor) in moves, (ev.line, ev.verb, ev.actor, sorted(moves, key=str))
        assert ref.apply(ev) == verdict, f"apply and verify disagree at line {ev.line}"
    return hand_report(record, setup, ref.report)


def same_as_whole(text):
    count = 0
    for record in parse_text(text).hands:
        if read_setup(record)[1]:
            continue
        whole = judge_hand(record).as_json()
        assert fed_line_by_line(record).as_json() == whole, f"hand at line {record.line}"
        count += 1
    return count


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_line_by_line_is_the_whole_record(path):
    assert same_as_whole(path.read_text(encoding="utf-8")) >= 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_simulated_hands_line_by_line(players):
    text = simulate_session(60, players=players, seed=100 + players)
    assert same_as_whole(text) == 60


def test_forgive_after_f4_fed_in_two_calls():
    """R14.3, N4.8: a forgive on the line after an F4 is judged the same however the hand is fed."""
    text = FRIDAY.replace('[Options "todo"]', '[Options "todo strict"]').replace(
        "meld Carla 4d 5d 6d", "meld Carla 5d 4d 6d\nforgive Carla")
    record = parse_text(text).hands[0]
    setup, _ = read_setup(record)
    cut = next(i for i, ev in enumerate(record.events) if ev.verb == "forgive")
    ref = Referee(setup)
    ref.run(record.events[:cut])
    ref.run(record.events[cut:])
    report = hand_report(record, setup, ref.report).as_json()
    assert report == judge_hand(record).as_json()
    assert report["status"] == "complete"
    assert report["fouls"] == [{"line": 19, "player": "Carla", "code": "F4", "enforced": False}]


def test_forcing_offer_names_the_forced_player_alone():
    """R9.1: after `draw Carla 7d` under forcing, 7d is forced on Carla and nobody else can take it."""
    record = parse_text(FRIDAY.replace('[Options "todo"]', '[Options "todo forcing"]')).hands[0]
    setup, _ = read_setup(record)
    ref = Referee(setup)
    ref.run(record.events, until=34)
    offer = ref.offer()
    carla = setup.seat("Carla")
    assert (offer.must_take, offer.may_take, offer.drawn) == (carla, (carla,), True)
    assert ("draw", "Ana") not in {(m.verb, m.player) for m in ref.moves()}
    refused = ref.verify(parse_event("draw Ana Kd", 35))
    assert (refused.code, refused.message) == ("R9.1", "7d fits Carla's meld and must be taken (forcing)")
    assert ref.offer() == offer and ref.status == "incomplete"


def test_queries_in_the_middle_of_an_action():
    record = parse_text(FRIDAY).hands[0]
    setup, _ = read_setup(record)
    ref = Referee(setup)
    ref.run(record.events, until=16)  # meld Beto 2s 2d 2c
    action = ref.action()
    assert (setup.players[action.seat], action.owes) == ("Beto", "pay")
    assert ref.offer() is None and ref.next_drawer() is None
    moves = {(m.verb, m.player) for m in ref.moves()}
    assert {("pay", "Beto"), ("meld", "Beto"), ("add", "Beto")} <= moves
    assert ("draw", "Carla") not in moves and ("pay", "Carla") not in moves
    beto = ref.seats_view()[setup.seat("Beto")]
    assert [names(m) for m in beto.melds] == ["2s 2d 2c"] and beto.unknown == 0 and len(beto.hand) == 7


def test_after_an_error_no_line_is_judged():
    record = parse_text(FRIDAY).hands[0]
    setup, _ = read_setup(record)
    ref = Referee(setup)
    ref.run(record.events, until=17)  # pay Beto 7c
    bad = ref.apply(parse_event("draw Ana 4d", 18))
    assert (bad.line, bad.code) == (18, "R7.6")
    assert ref.status == "invalid"
    assert ref.apply(parse_event("draw Carla 4d", 19)) == bad


def test_setup_from_values_is_setup_from_tags():
    record = parse_text(FRIDAY).hands[0]
    tags, _ = read_setup(record)
    values = Setup.from_values(["Ana", "Beto", "Carla"], "Ana", bet=1000, options="todo",
                               sides=[("oro", 500, ["Ana", "Beto", "Carla"])], result=["Carla"])
    assert values.tags() == tags.tags()
    assert values.tags()[:3] == [("Players", "Ana Beto Carla"), ("Dealer", "Ana"), ("Options", "todo")]
    with pytest.raises(SetupError) as bad:
        Setup.from_values(["Ana", "Beto"], "Carla")
    assert bad.value.finding.code == "N3"
    with pytest.raises(SetupError) as bad:
        Setup.from_values(["Ana", "Beto"], "Ana", options="forcing=maybe")
    assert "forcing" in str(bad.value)


def candidate_lines(ref, verb, player, line):
    """Lines of `verb` by `player` built from what the table holds: the card on offer, the
    player's known cards, a card whose place nobody knows."""
    from itertools import combinations

    from desmoche_ref.cards import CARD_NAME
    from desmoche_ref.engine.state import FREE

    g = ref.g
    hand = sorted(g.players[ref.setup.seat(player)].hand)[:6] if player else []
    free = [c for c in range(52) if g.loc[c] == FREE][:2]
    offer = [g.offer] if g.offer >= 0 else []
    if verb in ("cut", "claim", "knock", "pass", "forgive"):
        texts = [f"{verb} {player}"]
    elif verb == "end":
        texts = ["end"]
    elif verb in ("draw", "deal"):
        texts = [f"{verb} {player} {CARD_NAME[c]}" for c in free]
    elif verb in ("pay", "cambio", "return"):
        texts = [f"{verb} {player} {CARD_NAME[c]}" for c in hand + free]
    elif verb == "meld":
        texts = [f"meld {player} " + " ".join(CARD_NAME[c] for c in offer + list(pair))
                 for pair in combinations(hand + free, 2)]
    elif verb == "add":
        texts = [f"add {player} {CARD_NAME[c]}" for c in offer + hand]
    else:
        return []
    return [parse_event(t, line) for t in texts]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_a_move_not_offered_is_refused(players):
    """The converse of `moves()`: whatever the cards, a verb by a player it does not list is
    refused (tried with lines built from the table's own cards, at every line)."""
    verbs = ("cut", "deal", "return", "cambio", "draw", "claim", "knock", "meld", "add", "pay",
             "pass", "forgive", "end")
    tried = 0
    for record in parse_text(simulate_session(12, players=players, seed=7 + players)).hands:
        setup, _ = read_setup(record)
        ref = Referee(setup)
        for ev in record.events:
            offered = {(m.verb, m.player) for m in ref.moves()}
            for verb in verbs:
                for player in [None] if verb == "end" else setup.players:
                    if (verb, player) in offered:
                        continue
                    for line in candidate_lines(ref, verb, player, ev.line):
                        tried += 1
                        assert ref.verify(line) is not None, (ev.line, write_event(line))
            ref.apply(ev)
    assert tried > 1000
