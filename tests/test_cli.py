"""The command line as a user meets it: help, exit codes, output formats, bad input (N8)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import invoke
from helpers import peladilla_hand

CONF = pathlib.Path(__file__).parent / "conformance"
FRIDAY = CONF / "friday.dsm"
NO_WINNER = CONF / "no-winner.dsm"

def cli(*args, input=None, env=None):
    return invoke(*args, input=input, env=env)


def process(*args, input=None, env=None):
    """The command as a process: for what only a process has (its output's encoding)."""
    run_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)],
                          capture_output=True, text=True, input=input, timeout=60, env=run_env)


def assert_no_traceback(run):
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout, run.stderr


@pytest.mark.parametrize("command", ["check", "fmt", "view", "rules", "simulate"])
def test_every_command_has_help_with_examples(command):
    run = cli(command, "--help")
    assert run.returncode == 0
    assert "Examples" in run.stdout or "Example" in run.stdout


def test_main_help_lists_commands():
    run = cli("--help")
    assert run.returncode == 0
    for command in ("check", "fmt", "view", "rules", "simulate"):
        assert command in run.stdout
    rows = [line.split(None, 1) for line in run.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert ["show", "Record cards shown (side-game cards still in hand at the end)."] in rows  # the verb


def test_n8_check_human_output_is_path_line_code(tmp_path):
    bad = tmp_path / "bad.dsm"
    bad.write_text(FRIDAY.read_text().replace("meld Carla 4d 5d 6d", "meld Carla 4d 5d 9s"))
    run = cli("check", bad)
    assert run.returncode == 1
    # the hand's header, then its findings under it; cards for a person with suit symbols
    assert run.stdout.startswith(f"{bad} hand 1 (line 1): invalid at line 19 (R8.1)\n"
                                 f"{bad}:19: R8.1 4♦ 5♦ 9♠ is not a meld: a run is one suit\n")
    plain = cli("check", "--ascii", bad)
    assert f"{bad}:19: R8.1 4d 5d 9s is not a meld: a run is one suit\n" in plain.stdout


def test_n8_exit_status_worst_wins_and_every_file_reported(tmp_path):
    empty = tmp_path / "empty.dsm"
    empty.write_text("# nothing here\n\n")
    run = cli("check", "--json", FRIDAY, empty, tmp_path / "missing.dsm")
    assert run.returncode == 2
    files = json.loads(run.stdout)["files"]
    assert files[0]["hands"][0]["status"] == "complete"
    assert files[1] == {"path": str(empty), "hands": [], "error": files[1]["error"]}
    assert "no hand" in files[1]["error"]
    assert files[2]["hands"] == [] and "no such file" in files[2]["error"]
    assert cli("check", FRIDAY).returncode == 0
    assert cli("check", empty).returncode == 1


BAD_INPUTS = {
    "empty": b"",
    "binary": bytes(range(256)) * 8,
    "unknown-verb": b'[Players "Ana Beto"]\n[Dealer "Ana"]\n\nsing Ana 2s\n',
    "unknown-card": b'[Players "Ana Beto"]\n[Dealer "Ana"]\n\ndeal Beto 2s 3s 4x\n',
    "no-players": b'[Dealer "Ana"]\n\ndeal Beto 2s\n',
    "long-line": b'[Players "Ana Beto"]\n[Dealer "Ana"]\n\n' + b"deal Beto " + b"2s " * 3400 + b"\n",
    "bad-utf8": b'[Players "Ana Beto"]\n[Dealer "Ana"]\n\ndeal Beto \xff\xfe\n',
    "bad-tag": b'[Players "Ana Beto\n[Dealer "Ana"]\n',
}


UNREADABLE = {"empty", "binary", "unknown-verb", "unknown-card", "bad-utf8", "bad-tag"}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gets_a_finding_never_a_traceback(tmp_path, name):
    path = tmp_path / f"{name}.dsm"
    path.write_bytes(BAD_INPUTS[name])
    for args in (("check", path), ("check", "--json", path), ("fmt", path), ("view", path)):
        run = cli(*args)
        assert_no_traceback(run)
        if args[0] != "fmt" or name in UNREADABLE:  # fmt formats what it can read
            assert run.returncode != 0, (args, run.stdout)
    report = json.loads(cli("check", "--json", path).stdout)["files"][0]
    if report["hands"]:
        error = report["hands"][0]["errors"][0]
        assert isinstance(error["line"], int) and error["code"][0] in "NRF"
    else:
        assert report["error"]


def test_missing_file_is_a_one_line_error():
    for command in ("check", "fmt", "view"):
        run = cli(command, "no/such/file.dsm")
        assert_no_traceback(run)
        assert run.returncode == 2, command


def test_n7_fmt_prints_canonical_and_check_flags_noncanonical(tmp_path):
    messy = tmp_path / "messy.dsm"
    messy.write_bytes("\ufeff[Dealer \"Ana\"]\r\n[Players   \"Ana Beto Carla\"]\r\n\r\n"
                      "DEAL  Beto 2S 3♠ 4h 7c 8d 10h Jc Qd Ks   # first\r\n".encode())
    run = cli("fmt", messy)
    assert run.returncode == 0
    assert run.stdout == ('[Players "Ana Beto Carla"]\n[Dealer "Ana"]\n\n'
                          "deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks # first\n")
    assert cli("fmt", "--check", messy).returncode == 1
    assert cli("fmt", "--in-place", messy).returncode == 0
    assert messy.read_text() == run.stdout
    assert cli("fmt", "--check", messy).returncode == 0


def test_n7_fmt_refuses_unreadable_lines_and_changes_nothing(tmp_path):
    path = tmp_path / "bad.dsm"
    original = b'[Players "Ana Beto"]\n[Dealer "Ana"]\n\ndeal  Beto 2s\nsing Ana\n'
    path.write_bytes(original)
    run = cli("fmt", "--in-place", path)
    assert run.returncode == 1
    assert f"{path}:5: N4 unknown verb" in run.stderr
    assert path.read_bytes() == original


@pytest.mark.slow
def test_n7_fmt_keeps_the_verdict(tmp_path):
    for case in sorted(CONF.glob("*.dsm")):
        copy = tmp_path / case.name
        copy.write_text(cli("fmt", case).stdout)
        before = json.loads(cli("check", "--json", case).stdout)["files"][0]["hands"][0]
        after = json.loads(cli("check", "--json", copy).stdout)["files"][0]["hands"][0]
        for key in ("status", "net", "bonuses", "side_games", "fouls", "pot", "carry_out"):
            assert before[key] == after[key], (case.name, key)
        assert [e["code"] for e in before["errors"]] == [e["code"] for e in after["errors"]]


def test_view_at_a_line_gives_the_table_then():
    run = cli("view", FRIDAY, "--at", "24", env={"NO_COLOR": "1"})
    assert run.returncode == 0
    assert "\x1b[" not in run.stdout
    # the engine's answer (ref.offer()): only Carla could place 9♦, on 9♠ 9♣ in her hand
    assert "on offer: 9♦ (drawn by Beto); may take: Carla\n" in run.stdout
    assert "stock: 21 cards" in run.stdout
    view = json.loads(cli("view", FRIDAY, "--at", "24", "--json").stdout)
    assert view["offer"] == {"card": "9d", "by": "Beto", "how": "drawn",
                             "may_take": ["Carla"], "must_take": None}
    carla = next(p for p in view["players"] if p["name"] == "Carla")
    assert carla["melds"] == [["4d", "5d", "6d"]]
    assert sorted(carla["hand"]) == sorted(["As", "2h", "3h", "9s", "9c", "Ks"])
    assert view["dead"] == ["7c", "Kc", "Qh"] and view["stock"] == 21


def test_view_rejects_a_hand_that_is_not_there():
    run = cli("view", FRIDAY, "--hand", "3")
    assert run.returncode == 2 and run.stderr == f"Error: --hand 3: {FRIDAY} holds 1 hand\n"
    assert_no_traceback(run)


def test_session_checks_continuity_and_totals(tmp_path):
    night = tmp_path / "night.dsm"
    night.write_text(NO_WINNER.read_text() + peladilla_hand())
    run = cli("check", "--session", "--json", night)
    assert run.returncode == 0
    doc = json.loads(run.stdout)["files"][0]
    assert doc["session"]["problems"] == []
    assert doc["session"]["totals"] == {"Ana": "-10.00", "Beto": "50.00", "Carla": "-10.00", "Dani": "-10.00"}
    human = cli("check", "--session", night)
    assert "total" in human.stdout and "50.00" in human.stdout
    wrong = tmp_path / "wrong.dsm"
    wrong.write_text(NO_WINNER.read_text() + peladilla_hand().replace('[Carry "40"]', '[Carry "20"]')
                     .replace('[Dealer "Ana"]', '[Dealer "Beto"]'))
    run = cli("check", "--session", wrong)
    assert run.returncode == 1
    assert "R3.1 the deal passes to the right: Ana deals this hand, not Beto" in run.stdout
    assert "R2.3 Carry is 20.00 but the hand before carried out 40.00" in run.stdout
