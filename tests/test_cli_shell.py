"""The shell around the commands: bare `desmoche-ref`, mistyped commands, the top-level help's
examples, and `fmt --in-place` where it cannot write (one line, exit 2, the file untouched)."""

import contextlib
import os
import pathlib
import shlex
import shutil
import subprocess

import pytest

from conftest import invoke

ROOT = pathlib.Path(__file__).parent.parent


def cli(*args, cwd=None):
    return invoke(*args, cwd=cwd)


def test_bare_command_prints_the_help_and_exits_0():
    run = cli()
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == cli("--help").stdout
    assert "Commands:" in run.stdout


@pytest.mark.parametrize("typed, meant", [("chek", "check"), ("veiw", "view"), ("rule", "rules"),
                                          ("fmat", "fmt")])
def test_a_mistyped_command_gets_did_you_mean(typed, meant):
    run = cli(typed, "x.dsm")
    assert run.returncode == 2 and run.stdout == ""
    assert f"Error: No such command '{typed}'. Did you mean '{meant}'?" in run.stderr


def test_an_unknown_command_lists_the_commands():
    run = cli("zzz")
    assert run.returncode == 2
    from desmoche_ref.cli import COMMANDS

    assert list(COMMANDS)[:5] == ["check", "fmt", "view", "rules", "simulate"]
    assert f"Error: No such command 'zzz'. (commands: {', '.join(COMMANDS)})" in run.stderr


@pytest.mark.slow
def test_every_example_of_the_top_level_help_works_from_the_project(tmp_path):
    """Run as a newcomer would from the project's root (here a folder holding its sample_logs,
    so that the book an example makes, `--db club.db`, is not left in the checkout);
    `check --json sample_logs/*.dsm` exits 1 by design (some samples are disputes), every
    other example exits 0."""
    (tmp_path / "sample_logs").symlink_to(ROOT / "sample_logs")
    help_text = cli("--help").stdout
    examples = [line.strip() for line in help_text.split("Examples:")[1].split("Commands:")[0].splitlines()
                if line.strip().startswith("desmoche-ref ")]
    assert len(examples) >= 5
    for example in examples:
        words = shlex.split(example)[1:]
        args = []  # the shell's glob, as a newcomer's shell would expand it
        for w in words:
            args += sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob(w)) if "*" in w else [w]
        run = cli(*args, cwd=tmp_path)
        assert "Traceback" not in run.stderr, example
        expected = 1 if args[:2] == ["check", "--json"] else 0
        assert run.returncode == expected, (example, run.stderr)


def test_fmt_in_place_where_it_cannot_write_is_one_line_and_exit_2(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "hand.dsm"
    original = b'[Dealer "Ana"]\n[Players  "Ana Beto"]\n\ndeal  Beto 2s\n'
    path.write_bytes(original)
    with _locked(folder):
        run = cli("fmt", "-i", path)
        assert run.returncode == 2 and run.stdout == ""
        lines = run.stderr.splitlines()
        assert len(lines) == 1 and "Traceback" not in run.stderr
        assert lines[0].startswith(f"{path}: error: cannot write {path}: ")
        assert lines[0].endswith(("Permission denied", "Operation not permitted"))
        assert path.read_bytes() == original
        assert os.listdir(folder) == ["hand.dsm"]


@contextlib.contextmanager
def _locked(folder):
    """A folder nobody may create files in for the span of a block: read-only, or immutable
    when we are root (who ignores permissions)."""
    root = os.geteuid() == 0
    if root:
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)]).returncode:
            pytest.skip("running as root without chattr: no folder can be made unwritable")
    else:
        folder.chmod(0o555)
    try:
        yield
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        else:
            folder.chmod(0o755)
