"""What a command may change of the process while it runs, and puts back after."""

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """The cyclic collector off for a command's span, as it was after (a caller running the
    command in-process, like click's CliRunner or the table session, keeps its collector).

    Judging a season makes millions of small values and no reference cycles: the collector
    would only walk them (40-50% of `check`'s time, bench/)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
