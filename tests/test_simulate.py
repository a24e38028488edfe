"""The bot simulator (issue 4): repeatable sessions that the referee judges valid."""

import os
import re
import stat
import subprocess
import sys
from decimal import Decimal

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.notation.parser import parse_text
from desmoche_ref.notation.writer import write_file
from desmoche_ref.simulate import _session, simulate_session

VERBS = ("cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock",
         "meld", "add", "pay", "pass", "show", "foul", "forgive", "end")


def tag_values(text, name):
    return re.findall(rf'^\[{name} "(.*)"\]$', text, re.M)


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
    out = tmp_path / "night.dsm"
    out.write_text("old\n")
    out.chmod(0o640)
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "simulate", "--hands", "1",
                          "-o", str(out)], capture_output=True, text=True, timeout=60)
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

referee = pytest.importorskip("desmoche_ref.referee")


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
