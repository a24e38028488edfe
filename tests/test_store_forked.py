"""The importer's judging process (store/write/forked.py): items arrive in order, an exception in
the child is raised in the parent, a child that dies is an error and not a hang, and the
child never outlives the reading (stopped early, or the parent killed)."""

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from desmoche_ref.store.write.forked import ChildGone, forked


def numbers(n, fail_at=None):
    for k in range(n):
        if k == fail_at:
            raise ValueError(f"no {k}")
        yield k, os.getpid()


def test_items_come_in_order_from_another_process():
    items = list(forked(numbers, 500))
    assert [k for k, _ in items] == list(range(500))
    assert {pid for _, pid in items} != {os.getpid()}


def test_an_exception_in_the_child_is_raised_here_after_the_items_before_it():
    seen = []
    with pytest.raises(ValueError, match="no 3"):
        for k, _ in forked(numbers, 10, 3):
            seen.append(k)
    assert seen == [0, 1, 2]


def suicide():
    yield 1
    os.kill(os.getpid(), signal.SIGKILL)
    yield 2


def test_a_child_that_dies_is_an_error_not_a_hang():
    got = []
    with pytest.raises(ChildGone, match="ended unexpectedly \\(exit -9\\)"):
        for item in forked(suicide):
            got.append(item)
    assert got == [1]


def endless():
    while True:
        yield os.getpid()


def gone(pid, within=10.0) -> bool:
    """The process has ended (a zombie nobody reaped yet has ended too)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rpartition(")")[2].split()[0] in ("Z", "X"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_reading_stopped_early_ends_the_child():
    items = forked(endless)
    child = next(items)
    items.close()
    assert gone(child)


@pytest.mark.slow
def test_the_child_does_not_outlive_a_parent_killed_with_sigkill(tmp_path):
    program = textwrap.dedent("""
        import os, sys, time
        from desmoche_ref.store.write.forked import forked
        def endless():
            while True:
                yield os.getpid(), b"x" * 10000  # the pipe fills: the child waits to send
        items = forked(endless)
        print(next(items)[0], flush=True)
        time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert child != parent.pid and not gone(child, within=0.5)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert gone(child)  # its next send finds no reader: BrokenPipeError, and it ends


def told(inbox, n):
    """Items made before the value comes, then with it (the importer's judging ahead)."""
    before = []
    while not inbox.ready() and len(before) < n:
        before.append(len(before))
    value = inbox.read()
    for k in before:
        yield k, value, os.getpid()


def test_a_child_told_a_value_after_it_started_gets_it():
    items, inbox = forked(told, 50, inbox=True)
    time.sleep(0.2)  # the child works meanwhile
    with inbox:
        inbox.send("Ana")
    got = list(items)
    assert {value for _, value, _ in got} == {"Ana"} and {pid for *_, pid in got} != {os.getpid()}


def test_an_inbox_closed_untold_ends_the_child():
    items, inbox = forked(told, 10**9, inbox=True)
    inbox.close()
    with pytest.raises(EOFError):
        list(items)


@pytest.mark.slow
def test_the_child_waiting_to_be_told_does_not_outlive_a_parent_killed_with_sigkill():
    program = textwrap.dedent("""
        import os, sys, time
        from desmoche_ref.store.write.forked import forked
        def waits(inbox):
            yield os.getpid()  # the pipe holds it: the parent reads it untold
            inbox.read()
            yield "told"
        items, inbox = forked(waits, inbox=True)
        print(next(items), flush=True)
        time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert child != parent.pid and not gone(child, within=0.5)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert gone(child)  # the parent's end closed by its death: EOFError, and it ends


def test_a_judging_closed_before_it_began_ends_its_child():
    """The command line starts judging a file before it opens the book (store/write/judging.py):
    a book that cannot be opened closes it, untold, and the child goes."""
    from desmoche_ref.store.write.judging import Judging

    before = {p.pid for p in multiprocessing.active_children()}
    judging = Judging(b"[Players \"Ana Beto\"]\n[Dealer \"Ana\"]\n[Bet \"10\"]\n", "night.dsm")
    (child,) = {p.pid for p in multiprocessing.active_children()} - before
    judging.close()
    assert gone(child)
