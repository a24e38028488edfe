"""The bot simulator (issue 4): repeatable sessions that the referee judges valid."""

import os
import random
import re
import stat
import subprocess
import sys
from decimal import Decimal

import pytest
from click.testing import CliRunner

from desmoche_ref import referee
from desmoche_ref.cli import main
from desmoche_ref.notation.parser import parse_text
from desmoche_ref.notation.writer import write_file
from desmoche_ref.simulate import _session, simulate_session

VERBS = ("cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock",
         "meld", "add", "pay", "pass", "show", "foul", "forgive", "end")


def tag_values(text, name):
    return re.findall(rf'^\[{name} "(.*)"\]$', text, re.M)


@pytest.mark.slow
def test_same_seed_same_text():
    assert simulate_session(40, seed=11) == simulate_session(40, seed=11)
    assert simulate_session(40, seed=11) != simulate_session(40, seed=12)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_and_dealer_rotation(players):
    """R3.1: the deal passes to the right (the next name in Players) after every hand."""
    text = simulate_session(9, players=players, seed=players)
    names = ["Ana", "Beto", "Carla", "Dani"][:players]
    assert tag_values(text, "Players") == [" ".join(names)] * 9
    assert tag_values(text, "Dealer") == [names[i % players] for i in range(9)]


def test_fixed_options_and_plain_hands():
    text = simulate_session(20, seed=3, options="todo forcing")
    assert tag_values(text, "Options") == ["todo forcing"] * 20
    plain = simulate_session(20, seed=3, vary=False)
    assert "?" not in plain and "\nfoul " not in plain and "Options" not in plain


def test_bad_arguments():
    with pytest.raises(ValueError):
        simulate_session(3, players=5)
    with pytest.raises(ValueError):
        simulate_session(3, options="todo nonsense")


def test_progress_is_called_per_hand():
    calls = []
    simulate_session(5, seed=1, progress=calls.append)
    assert calls == [1] * 5


def test_written_in_canonical_form():
    """N7: the simulator writes what `fmt` would write."""
    text = simulate_session(30, seed=5)
    assert write_file(parse_text(text)) == text


@pytest.fixture(scope="module")
def default_run():
    texts, notes = _session(1000, 3, 0, None, True, None)
    return "\n".join(texts), notes


@pytest.mark.slow
def test_default_run_uses_every_verb_and_option(default_run):
    text, _ = default_run
    verbs = {line.split()[0] for line in text.splitlines() if line and line[0] != "["}
    assert verbs == set(VERBS)
    options = " ".join(tag_values(text, "Options")).split()
    for word in ("todo", "strict", "forcing", "color=suit", "color=off", "auto=off", "auto=on",
                 "hand-melds=off", "escalera=a23-low", "side-nowin=refund", "dq-bonus=exempt"):
        assert word in options, word
    assert "conquien" in tag_values(text, "Rules")
    for kind in ("misdeal", "peek", "hand", "arrangement", "other"):
        assert re.search(rf"^foul \S+ {kind}", text, re.M), kind
    assert re.search(r"^deal \S+ \?x9$", text, re.M)  # closed records (N6)


@pytest.mark.slow
def test_default_run_plays_every_situation(default_run):
    _, notes = default_run
    for situation in ("forced", "forced back", "forced win", "desmoche", "contested",
                      "first card redrawn", "pass", "stock ran out", "lone player wins",
                      "win from nine down (R10.2)", "taken after the stock ran out",
                      "declare before the cambio", "declare after the cambio", "F4 enforced",
                      "payer out, card stays on offer", "hand-melds off action", "closed record"):
        assert notes[situation] > 0, situation


def test_cli_writes_a_session(tmp_path):
    out = tmp_path / "night.dsm"
    result = CliRunner().invoke(main, ["simulate", "--hands", "4", "--seed", "9", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == simulate_session(4, seed=9)
    result = CliRunner().invoke(main, ["simulate", "--hands", "2", "--players", "2"])
    assert result.exit_code == 0 and result.output == simulate_session(2, players=2)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_cli_new_file_honours_the_umask(tmp_path, umask, mode):
    """`simulate -o FILE` makes FILE as any command would: 0666 less the umask."""
    out = tmp_path / "night.dsm"
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "simulate", "--hands", "2",
                          "--seed", "4", "-o", str(out)], capture_output=True, text=True,
                         timeout=60, preexec_fn=lambda: os.umask(umask))
    assert run.returncode == 0, run.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert out.read_text() == simulate_session(2, seed=4)
    assert [p.name for p in tmp_path.iterdir()] == ["night.dsm"]  # no temporary file left


def test_cli_rewritten_file_keeps_its_mode(tmp_path):
    """An existing FILE is written over only with --force, and keeps its mode."""
    out = tmp_path / "night.dsm"
    out.write_text("old\n")
    out.chmod(0o640)
    refused = CliRunner().invoke(main, ["simulate", "--hands", "1", "-o", str(out)])
    assert (refused.exit_code, refused.stderr) == (2, f"error: {out} exists: --force writes over it\n")
    assert out.read_text() == "old\n"
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "simulate", "--hands", "1",
                          "-o", str(out), "--force"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_text() == simulate_session(1)


@pytest.mark.parametrize("args", [["--hands", "0"], ["--hands", "3", "--players", "5"],
                                  ["--hands", "3", "--options", "todo bogus"], []])
def test_cli_usage_errors(args):
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Error:" in result.output


# ---------------------------------------------------------------- judged by the referee

def judged(players, hands, seed):
    text = simulate_session(hands, players=players, seed=seed)
    return [h.as_json() for h in referee.judge_text(text).hands]


@pytest.fixture(scope="module")
def sessions():
    return {p: judged(p, 120, 100 + p) for p in (2, 3, 4)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_simulated_hand_is_valid_and_complete(sessions, players):
    for hand in sessions[players]:
        assert hand["errors"] == [], (hand["line"], hand["errors"])
        assert hand["status"] == "complete", hand["line"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_simulated_hand_balances(sessions, players):
    """N8: the nets plus what every pot carries out minus what it carried in is zero."""
    for hand in sessions[players]:
        total = sum(Decimal(v) for v in hand["net"].values())
        total += Decimal(hand["carry_out"]) - Decimal(hand["carry_in"])
        for side in hand["side_games"]:
            total += Decimal(side["carry_out"]) - Decimal(side["carry_in"])
        assert total == 0, hand["line"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pots_carry_as_the_referee_settles_them(sessions, players):
    """R2.3, R4.6: each hand's Carry/SideCarry is what the hand before carried out."""
    hands = sessions[players]
    for before, after in zip(hands, hands[1:]):
        assert Decimal(after["carry_in"]) == Decimal(before["carry_out"]), after["line"]
        carried = {s["game"]: Decimal(s["carry_in"]) for s in after["side_games"]}
        for side in before["side_games"]:
            assert carried.get(side["game"], Decimal(0)) == Decimal(side["carry_out"]), \
                (after["line"], side["game"])


# ---------------------------------------------------------------- every line asked of the engine

def test_every_line_was_a_move_the_referee_offered():
    """The simulator writes only lines the engine allows: fed line by line, each line's verb
    and player are among `moves()` before it, and no line is refused."""
    from desmoche_ref.engine.replay import Referee
    from desmoche_ref.engine.setup import read_setup

    lines = 0
    for players in (2, 3, 4):
        for record in parse_text(simulate_session(25, players=players, seed=40 + players)).hands:
            setup, errors = read_setup(record)
            assert errors == []
            ref = Referee(setup)
            for ev in record.events:
                assert (ev.verb, ev.actor) in {(m.verb, m.player) for m in ref.moves()}, ev.line
                assert ref.apply(ev) is None, ev.line
                lines += 1
            assert ref.status == "complete"
    assert lines > 3000


def test_a_refused_line_is_a_simulator_bug():
    import random

    from desmoche_ref.engine.setup import Setup
    from desmoche_ref.sim.table import SimulatorBug, Table

    table = Table(Setup.from_values(["Ana", "Beto"], "Ana", bet=1000), random.Random(1),
                  vary=False, closed=False, comment_rate=0)
    table.emit("deal Beto 2s 3s 4s 5s 6s 7s 8s 9s Ts")
    assert table.allows("deal Ana 2h") and not table.allows("deal Ana 2s")
    with pytest.raises(SimulatorBug, match=r"^the referee refuses 'deal Ana 2s': N2.4 2s is in Beto's hand$"):
        table.emit("deal Ana 2s")
    assert table.lines == ["deal Beto 2s 3s 4s 5s 6s 7s 8s 9s Ts"]


@pytest.mark.slow
def test_closed_records_are_played_from_the_whole_truth():
    """N6: a closed record names no dealt card, yet its bots play their real hands (a second
    referee is told every card) and the record checks complete."""
    texts, notes = _session(150, 3, 0, None, True, None)
    closed = [t for t in texts if re.search(r"^deal \S+ \?", t, re.M)]
    assert len(closed) == notes["closed record"] > 0
    for hand in referee.judge_text("\n".join(closed)).hands:
        assert (hand.status, hand.errors) == ("complete", [])


# ---------------------------------------------------------------- the bots' strategy

def cards(text):
    from desmoche_ref.cards import parse_card
    return [parse_card(t) for t in text.split()]


def test_bots_write_a_set_in_strict_order():
    from desmoche_ref.cards import names
    from desmoche_ref.melds import in_order
    from desmoche_ref.sim.bots import in_order_form, out_of_order

    assert names(in_order_form(cards("2h 2d 2s 2c"))) == "2h 2s 2d 2c"  # colours alternate (R8.4)
    assert names(in_order_form(cards("7h 5h 6h"))) == "5h 6h 7h"
    assert not in_order(out_of_order(cards("5h 6h 7h"), random.Random(0)))


def test_bots_claim_their_best_side_game_cards():
    from desmoche_ref.sim.bots import auto_kind, best_claim

    hand = cards("2h 2d 2s 2c 5h 6h 7h 9c Kd")
    assert best_claim("escalera", hand, "a23-high") == cards("5h 6h 7h")
    assert best_claim("oro", hand, "a23-high") == cards("Kd")
    assert best_claim("tres-cuerpos", hand, "a23-high") == cards("2s 2h 2d")
    assert best_claim("dos-par-rojo", hand, "a23-high") is None
    assert best_claim("dos-par-rojo", cards("2h 2d 9h 9d Kc"), "a23-high") == cards("2h 2d 9h 9d")
    assert auto_kind(cards("Ah 3h 5h 7h 9h Jh Kh 2h 4h"), "suit") == "color"
    assert auto_kind(cards("Ah 3h 5h 7h 9h Jh Kh 2h 4h"), "off") is None
    # no pair, no two neighbours of one suit: a peladilla (R6.1), whatever Color counts for
    assert auto_kind(cards("As 3h 5d 7c 9s Jh Kd 2c 4s"), "off") == "peladilla"
    assert auto_kind(cards("As 2s 5d 7c 9s Jh Kd 2c 4s"), "color") is None


def test_bots_plan_a_take():
    from desmoche_ref.sim.bots import plan_take

    plan = plan_take(cards("5h 6h 9c"), [cards("8c 8d 8s")], cards("7h")[0], hand_melds=True)
    assert (plan.ops, plan.hand, plan.win) == ([("meld", cards("5h 6h 7h"))], cards("9c"), False)
    win = plan_take(cards("9c"), [cards("8c 8d 8s"), cards("5h 6h 7h")], cards("Tc")[0], True)
    assert win is None  # 9c-Tc is no meld, and no meld spares a card


def test_simulate_on_a_terminal_draws_its_progress_bar(tmp_path):
    """On a terminal, `simulate -o` shows a progress bar (the code path a pipe never takes)."""
    import os
    import pty
    import sys

    out_file = tmp_path / "night.dsm"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command on a pseudo-terminal
        os.execvp(sys.executable, [sys.executable, "-m", "desmoche_ref", "simulate", "--hands", "3",
                                   "-o", str(out_file)])
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, seen.decode(errors="replace")
    assert b"Simulating" in seen and b"100%" in seen and b"Traceback" not in seen
    assert out_file.read_text().count("[Players ") == 3
