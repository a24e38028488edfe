"""`desmoche-ref check`: the referee's verdict on hand records (N5, N8)."""

import gc
import sys

import click

from ..referee import INVALID, FileReport, judge_bytes
from .files import read_record


def judge_path(path):
    """(FileReport, exit status) for one path (N8: 0, 1 or 2)."""
    data, problem = read_record(path)
    if problem:
        return FileReport(path, [], f"cannot read {path}: {problem}"), 2
    report = judge_bytes(data, path)
    return report, 1 if report.invalid else 0


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON document (N8).")
@click.option("--session", is_flag=True,
              help="Also check that the hands of each file follow on at one table: the dealer "
                   "rotates, pots carry, and print the night's running totals.")
def check(files, as_json, session):
    """Replay hand records and report the referee's verdict.

    Each finding prints as PATH:LINE: CODE message (CODE is the rule, from RULES.md or
    NOTATION.md), followed by a table of each hand's outcome and nets. Exit status: 0 when
    no hand is invalid, 1 when one is (or a file holds no hand), 2 when a file cannot be read.

    \b
    Examples:
      desmoche-ref check sample_logs/friday.dsm
      desmoche-ref check --json sample_logs/*.dsm
      desmoche-ref check --session sample_logs/club-night.dsm
      cat hand.dsm | desmoche-ref check -
    """
    # A short-lived process whose values hold no reference cycles: the cyclic collector
    # would only walk the millions of objects a season makes (40-50% of the time, bench/).
    gc.disable()
    status = 0
    if as_json:
        import json  # only for --json: start-up matters (one command per move)

        # Indented for a person at a terminal; compact (and C-encoded, so several times
        # faster) for the tools that read it. Written file by file: one JSON document.
        indent = 1 if sys.stdout.isatty() else None
        sys.stdout.write('{"files": [')
    for number, path in enumerate(files):
        report, file_status = judge_path(path)
        night = None
        if session:
            from ..session import check_session
            night = check_session(report)
            if night.problems:
                file_status = max(file_status, 1)
        status = max(status, file_status)
        if as_json:
            entry = report.as_json()
            if night is not None:
                entry["session"] = night.as_json()
            sys.stdout.write(("," if number else "") + json.dumps(entry, ensure_ascii=False, indent=indent))
        else:
            from .render import print_report, print_session
            print_report(report)
            if night is not None:
                print_session(report, night)
        del report, night  # a file's hands are not needed once reported
    if as_json:
        sys.stdout.write("]}\n")
    sys.exit(status)
