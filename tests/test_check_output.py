"""`check`'s output for a person, through the real command: suits and colour, plain letters,
aligned money, agreement, refunds, findings under their hand, --summary, the rules hint,
and --session totals that balance (issue 11)."""

import os
import pathlib
import sys

import pexpect
import pytest

from test_cli import cli, process

ROOT = pathlib.Path(__file__).parent.parent
LOGS = ROOT / "sample_logs"
NO_WINNER = ROOT / "tests" / "conformance" / "no-winner.dsm"
RULES_HINT = "What a code means: desmoche-ref rules CODE (e.g. desmoche-ref rules {})\n"


def on_a_terminal(*args, env=None):
    """The command's output as a terminal shows it (a pseudo-terminal)."""
    run_env = dict(os.environ, **(env or {}))
    run_env.pop("NO_COLOR", None)
    run_env.update(env or {})
    child = pexpect.spawn(sys.executable, ["-m", "desmoche_ref", *map(str, args)], env=run_env,
                          encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    return child.before


@pytest.mark.slow
def test_suits_red_and_black_on_a_terminal_and_none_where_colour_is_off():
    path = LOGS / "dispute-not-a-meld.dsm"
    shown = on_a_terminal("check", path, env={"TERM": "xterm"})
    spade = "\x1b[1mQ♠\x1b[0m"
    assert f"{path}:18: R8.1 {spade} \x1b[1mK♠\x1b[0m \x1b[1mA♠\x1b[0m is not a meld" in shown
    red = on_a_terminal("check", LOGS / "friday.dsm", env={"TERM": "xterm"})
    assert "side game oro: pot 15.00 to Beto with \x1b[31mQ♦\x1b[0m" in red
    for env in ({"NO_COLOR": "1", "TERM": "xterm"}, {"TERM": "dumb"}):
        plain = on_a_terminal("check", path, env=env)
        assert "\x1b[" not in plain
        assert f"{path}:18: R8.1 Q♠ K♠ A♠ is not a meld" in plain
    piped = cli("check", path, env={"TERM": "xterm"})
    assert "\x1b[" not in piped.stdout and "R8.1 Q♠ K♠ A♠ is not a meld" in piped.stdout


def test_plain_letters_with_ascii_or_an_output_that_cannot_show_suits():
    path = LOGS / "dispute-not-a-meld.dsm"
    for run in (cli("check", "--ascii", path), process("check", path, env={"PYTHONIOENCODING": "ascii"})):
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert f"{path}:18: R8.1 Qs Ks As is not a meld" in run.stdout
    shown = on_a_terminal("check", "--ascii", path, env={"TERM": "xterm"})
    assert "\x1b[" not in shown and "R8.1 Qs Ks As is not a meld" in shown


def test_json_keeps_ascii_cards():
    run = cli("check", "--json", LOGS / "dispute-not-a-meld.dsm")
    assert '"message": "Qs Ks As is not a meld' in run.stdout


def test_findings_print_under_their_hand_then_the_rules_hint():
    path = LOGS / "dispute-not-a-meld.dsm"
    run = cli("check", path)
    assert run.stdout == (
        f"{path} hand 1 (line 3): invalid at line 18 (R8.1)\n"
        f"{path}:18: R8.1 Q♠ K♠ A♠ is not a meld: a run is consecutive ranks, Ace low only "
        "(Q-K-A and K-A-2 are not runs)\n"
        f"  the table before it: desmoche-ref view {path} --at 17\n\n" + RULES_HINT.format("R8.1"))
    clean = cli("check", LOGS / "friday.dsm")
    assert "desmoche-ref rules" not in clean.stdout  # no finding, no hint


def test_verbs_agree_with_split_winners():
    run = cli("check", LOGS / "split-peladilla.dsm")
    assert run.stdout.startswith(f"{LOGS / 'split-peladilla.dsm'} hand 1 (line 3): "
                                 "Ana and Beto win by peladilla (split) (line 17)\n")


def test_a_refunded_side_pot_says_so():
    run = cli("check", LOGS / "escalera-split.dsm")
    lines = run.stdout.split("\n")
    assert lines[2:4] == ["  side game escalera: pot 6.00 to Beto with 4♣ 5♣ 6♣",
                          "  side game corazon: pot 3.00 won by nobody: the stakes are refunded"]


def test_summary_is_one_line_a_hand_and_the_files_totals():
    path = LOGS / "club-night.dsm"
    run = cli("check", "--summary", path)
    assert run.returncode == 0
    lines = run.stdout.split("\n")
    hands = [line for line in lines if line.startswith(f"{path} hand ")]
    assert len(hands) == 11
    assert hands[0] == (f"{path} hand 1 (line 6): Carla wins with ten cards down (line 41); "
                        "Ana 0.00, Beto -15.00, Carla 35.00, Dani -20.00")
    assert lines[11:] == [
        f"{path}: 11 hands (11 complete), 7 findings (check without --summary lists them)",
        "player      net", "------  -------",
        "Ana       -5.00", "Beto    -140.00", "Carla     10.00", "Dani     135.00", ""]


def test_session_one_hand_money_right_aligned_and_the_carry_from_before_accounted():
    # N9.4: without a Closed tag the table did not break up: the pot is still carried
    run = cli("check", "--session", NO_WINNER)
    session = run.stdout[run.stdout.index(f"{NO_WINNER} session"):]
    assert session == (
        f"{NO_WINNER} session: 1 hand\n"
        "hand   line  dealer  outcome      Ana   Beto  Carla   Dani\n"
        "-----  ----  ------  ---------  -----  -----  -----  -----\n"
        "1         1  Dani    no winner  -5.00  -5.00  -5.00  -5.00\n"
        "total                           -5.00  -5.00  -5.00  -5.00\n"
        "amount  money outside the players' totals\n"
        "------  -------------------------------------------------------------------------------------\n"
        " 20.00  main pot, line 1: brought in from before the record\n"
        '-40.00  main pot, line 1: still carried: the table did not break up (no [Closed "yes"], N9.4)\n'
        "-20.00  = the players' final totals, together\n")


def test_session_one_closed_hand_returns_its_pot(tmp_path):
    closed = tmp_path / "closed.dsm"
    closed.write_text(NO_WINNER.read_text().replace('[Dealer "Dani"]', '[Dealer "Dani"]\n[Closed "yes"]'))
    run = cli("check", "--session", closed)
    session = run.stdout[run.stdout.index(f"{closed} session"):]
    assert session == (
        f"{closed} session: 1 hand\n"
        "hand      line  dealer  outcome                Ana   Beto  Carla   Dani\n"
        "--------  ----  ------  -------------------  -----  -----  -----  -----\n"
        "1            1  Dani    no winner            -5.00  -5.00  -5.00  -5.00\n"
        "total                                        -5.00  -5.00  -5.00  -5.00\n"
        "returned                carried pot (R11.5)  10.00  10.00  10.00  10.00\n"
        "final                                         5.00   5.00   5.00   5.00\n"
        "amount  money outside the players' totals\n"
        "------  ---------------------------------------------------\n"
        " 20.00  main pot, line 1: brought in from before the record\n"
        " 20.00  = the players' final totals, together\n")


def test_session_a_lost_carry_is_its_own_line_with_its_finding(tmp_path):
    text = (LOGS / "club-night.dsm").read_text()
    lost = tmp_path / "lost.dsm"
    lost.write_text(text.replace('[Carry "40"]                   # Doble: hand 2 had no winner\n', "", 1))
    run = cli("check", "--session", lost)
    assert run.returncode == 1
    finding = "R2.3 Carry is 0.00 but the hand before carried out 40.00"
    assert f"{lost}:89: {finding}\n" in run.stdout
    label = f"main pot, line 89: carried out by the hand before and not carried in: {finding}"
    assert (
        "total                                       -5.00  -180.00   10.00  135.00\n"
        "amount  money outside the players' totals\n"
        "------  " + "-" * len(label) + "\n"
        f"-40.00  {label}\n"
        "-40.00  = the players' final totals, together\n"
        "running totals, after each hand:\n") in run.stdout
    assert run.stdout.endswith("11           -5.00  -180.00   10.00  135.00\n" + RULES_HINT.format("R4.4"))
    doc = __import__("json").loads(cli("check", "--session", "--json", lost).stdout)
    night = doc["files"][0]["session"]
    assert night["unbalanced"] == [{"line": 89, "pot": "main pot", "amount": "-40.00",
                                    "why": f"carried out by the hand before and not carried in: {finding}"}]
    assert sum(float(v) for v in night["final"].values()) == -40.0


def run_in_process(*args, input=None):
    """The command run in this process (CliRunner): (exit code, output)."""
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], input=input, env={"NO_COLOR": "1"})
    return result.exit_code, result.output


def test_the_card_hint_shows_what_to_type_in_both_languages():
    """The hint's example cards are what a recorder types (As, Td), not suit symbols; the cards a
    finding is about are still shown with their suits."""
    record = '[Players "Ana Beto"]\n[Dealer "Ana"]\n[Bet "10"]\n\ndeal Beto 2c 3c 4c Xx\n'
    for lang, hint in (("en", "'Xx' is not a card (cards are like As, Td, 10♠)"),
                       ("es", "'Xx' no es una carta (las cartas son como As, Td, 10♠)")):
        code, out = run_in_process("--lang", lang, "check", "-", input=record)
        assert code == 1 and out.splitlines()[1] == f"-:5: N2.1 {hint}"
    code, out = run_in_process("--lang", "es", "check", LOGS / "dispute-not-a-meld.dsm")
    assert f"{LOGS / 'dispute-not-a-meld.dsm'}:18: R8.1 Q♠ K♠ A♠ no es una combinación" in out
    # a card the recorder typed, quoted, stays as typed
    code, out = run_in_process("check", "-", input=record.replace("deal Beto 2c 3c 4c Xx", "Kd Beto 2c"))
    assert out.splitlines()[1].startswith("-:5: N4 unknown verb 'Kd' (verbs: cut, deal,")


def test_summary_says_invalid_where_a_hand_has_no_nets(tmp_path):
    """A player whose hands are all invalid has no net, not 0.00; a hand left out of the nets
    is named under them."""
    code, out = run_in_process("check", "--summary", LOGS / "dispute-not-a-meld.dsm")
    assert code == 1 and out.splitlines()[2:7] == [
        "player      net", "------  -------", "Ana     invalid", "Beto    invalid", "Carla   invalid"]
    code, out = run_in_process("--lang", "es", "check", "--summary", LOGS / "dispute-not-a-meld.dsm")
    assert [line.split() for line in out.splitlines()[2:7]] == [
        ["jugador", "neto"], ["-------", "--------"], ["Ana", "inválida"], ["Beto", "inválida"], ["Carla", "inválida"]]
    mixed = tmp_path / "mixed.dsm"
    mixed.write_text((LOGS / "dispute-not-a-meld.dsm").read_text() + "\n" + (LOGS / "friday.dsm").read_text())
    code, out = run_in_process("check", "--summary", mixed)
    assert out.splitlines()[3:9] == ["player     net", "------  ------", "Ana     -25.00", "Beto    -10.00",
                                     "Carla    35.00", "not counted in the nets: hand 1 (invalid)"]
    code, out = run_in_process("--lang", "es", "check", "--summary", mixed)
    assert "no cuentan en los netos: mano 1 (inválida)" in out.splitlines()
    incomplete = tmp_path / "incomplete.dsm"
    incomplete.write_text("\n".join((LOGS / "friday.dsm").read_text().splitlines()[:12]) + "\n")
    code, out = run_in_process("check", "--summary", incomplete)
    assert (code, out.splitlines()[-1]) == (0, "Carla   incomplete")


def test_session_prints_the_running_totals_after_each_hand(tmp_path):
    code, out = run_in_process("check", "--session", LOGS / "club-night.dsm")
    lines = out.splitlines()
    at = lines.index("running totals, after each hand:")
    assert lines[at + 1:at + 5] == [
        "after hand     Ana     Beto   Carla    Dani",
        "----------  ------  -------  ------  ------",
        "1             0.00   -15.00   35.00  -20.00",
        "2           -15.00   -30.00   20.00  -30.00"]
    total = next(line for line in lines if line.startswith("total "))
    assert lines[at + 13].split()[1:] == total.split()[1:] == ["-5.00", "-140.00", "10.00", "135.00"]
    code, out = run_in_process("--lang", "es", "check", "--session", LOGS / "club-night.dsm")
    lines = out.splitlines()
    at = lines.index("totales acumulados, después de cada mano:")
    assert lines[at + 1].split() == ["tras", "la", "mano", "Ana", "Beto", "Carla", "Dani"]
    assert lines[at + 5].split() == ["3", "-40.00", "65.00", "-5.00", "-20.00"]
    # a hand without nets changes nothing and says why; a night of one hand has no running table
    mixed = tmp_path / "mixed.dsm"
    mixed.write_text((LOGS / "dispute-not-a-meld.dsm").read_text() + "\n" + (LOGS / "friday.dsm").read_text())
    code, out = run_in_process("check", "--session", mixed)
    assert out.splitlines()[-6:-1] == [
        "running totals, after each hand:", "after hand      Ana    Beto  Carla",
        "-----------  ------  ------  -----", "1 (invalid)", "2            -25.00  -10.00  35.00"]
    code, out = run_in_process("check", "--session", LOGS / "friday.dsm")
    assert code == 0 and "running totals" not in out
