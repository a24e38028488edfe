"""The files a person asks for, `export -o FILE` and `simulate -o FILE` (issues 16 and 17):
never the book, whatever path names it; an existing file only with --force; written whole or
not at all; a new file with the mode the umask gives (the book itself stays private)."""

import os
import resource
import signal
import sqlite3
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import Live
from desmoche_ref.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRIDAY = os.path.join(ROOT, "tests", "conformance", "friday.dsm")


def run(*args, env=None):
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def refused(result):
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.count("\n") == 1
    return result.stderr


@pytest.fixture
def friday(book_url):
    live = Live(book_url)
    live("import", FRIDAY)
    return live


def test_export_never_writes_over_the_book(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    live = Live("b.db")
    live("import", FRIDAY)
    before = (tmp_path / "b.db").read_bytes()
    os.mkdir("sub")
    os.symlink("b.db", "link.db")
    os.link("b.db", "hard.db")
    for out in ("b.db", "sub/../b.db", str(tmp_path / "b.db"), "link.db", "hard.db"):
        for force in ([], ["--force"]):
            assert refused(run("export", "-o", out, "--db", "b.db", *force)) == (
                f"error: {out} is the book itself: the records go to another file\n"), (out, force)
    assert refused(run("export", "-o", "b.db", "--db", "b.db", "--lang", "es")) == (
        "error: b.db es el libro mismo: las anotaciones van a otro archivo\n")
    assert (tmp_path / "b.db").read_bytes() == before
    assert live.json("verify", "--json")["hands"] == 1
    assert sorted(os.listdir(tmp_path)) == ["b.db", "hard.db", "link.db", "sub"]  # no temporary file


def test_export_never_writes_over_a_sqlite_database(friday, tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    before = other.read_bytes()
    assert refused(friday("export", "-o", other, "--force", status=2)) == (
        f"error: {other} is a SQLite database (a book?): it is never written over\n")
    assert other.read_bytes() == before


def test_export_writes_over_a_file_only_with_force(friday, tmp_path):
    out = tmp_path / "season.dsm"
    out.write_text("the club's notes\n")
    out.chmod(0o640)
    assert refused(friday("export", "-o", out, status=2)) == f"error: {out} exists: --force writes over it\n"
    assert refused(friday("export", "-o", out, "--lang", "es", status=2)) == (
        f"error: {out} ya existe: --force lo sobrescribe\n")
    assert out.read_text() == "the club's notes\n"
    written = friday("export", "-o", out, "--force")
    assert written.stderr.startswith(f"{out}: 1 hand\nbook head: ")
    assert out.read_text() == friday("export").stdout
    assert stat.S_IMODE(out.stat().st_mode) == 0o640  # a file written over keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".desmoche-")) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_export_follows_the_umask(friday, tmp_path, umask, mode):
    out = tmp_path / "season.dsm"
    old = os.umask(umask)
    try:
        friday("export", "-o", out)
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert out.read_text() == friday("export").stdout


def _limited(limit):
    """For a child process: files may not grow beyond `limit` bytes (a full disk, in effect)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.slow
def test_a_failed_export_leaves_no_half_file(book_url, tmp_path):
    live = Live(book_url)
    night = tmp_path / "night.dsm"
    live("simulate", "--hands", "80", "-o", night)
    live("import", night)
    night.unlink()
    assert len(live("export").stdout) > 50_000
    env = dict(os.environ, PYTHONPATH=ROOT, DESMOCHE_DB=book_url)
    out = tmp_path / "season.dsm"
    out.write_text("old\n")
    for args in (["-o", str(tmp_path / "new.dsm")], ["-o", str(out), "--force"]):
        # room for the book's own -shm (32 KiB), not for the export
        cut = subprocess.run([sys.executable, "-m", "desmoche_ref", "export", *args], env=env,
                             capture_output=True, text=True, timeout=60, preexec_fn=_limited(40_000))
        assert (cut.returncode, cut.stdout) == (2, ""), cut.stderr
        assert cut.stderr == f"error: cannot write {args[1]}: File too large\n"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("book.db")) == [
        "season.dsm"]  # no new.dsm, no temporary file
    assert out.read_text() == "old\n"


def test_simulate_writes_over_a_file_only_with_force_and_never_over_a_book(tmp_path):
    out = tmp_path / "night.dsm"
    out.write_text("mine\n")
    assert refused(run("simulate", "--hands", "100000", "-o", out)) == (  # refused before playing
        f"error: {out} exists: --force writes over it\n")
    assert refused(run("simulate", "--hands", "1", "-o", out, "--lang", "es")) == (
        f"error: {out} ya existe: --force lo sobrescribe\n")
    assert out.read_text() == "mine\n"
    book = tmp_path / "book.db"
    Live(str(book))("import", FRIDAY)
    before = book.read_bytes()
    assert refused(run("simulate", "--hands", "1", "-o", book, "--force")) == (
        f"error: {book} is a SQLite database (a book?): it is never written over\n")
    assert refused(run("simulate", "--hands", "1", "-o", book, "--force", "--lang", "es")) == (
        f"error: {book} es una base de datos SQLite (¿un libro?): nunca se sobrescribe\n")
    assert book.read_bytes() == before
    assert run("simulate", "--hands", "1", "-o", out, "--force").exit_code == 0
    assert out.read_text().startswith("[")


def test_a_failed_simulate_leaves_no_half_file(tmp_path):
    out = tmp_path / "night.dsm"
    cut = subprocess.run([sys.executable, "-m", "desmoche_ref", "simulate", "--hands", "5", "-o", str(out)],
                         env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=60,
                         preexec_fn=_limited(600))
    assert cut.returncode == 1 and cut.stderr.endswith(f"cannot write {out}: File too large\n"), cut.stderr
    assert list(tmp_path.iterdir()) == []
