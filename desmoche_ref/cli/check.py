"""`desmoche-ref check`: the referee's verdict on hand records (N5, N8)."""

import sys

import click

from ..referee import INVALID, FileReport, judge_bytes
from .files import read_record


def judge_paths(paths):
    """FileReports for the paths, in order, and the exit status (N8: 0, 1 or 2; the worst wins)."""
    reports, status = [], 0
    for path in paths:
        data, problem = read_record(path)
        if problem:
            reports.append(FileReport(path, [], f"cannot read {path}: {problem}"))
            status = 2
            continue
        report = judge_bytes(data, path)
        reports.append(report)
        if report.invalid:
            status = max(status, 1)
    return reports, status


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
    reports, status = judge_paths(files)
    sessions = []
    if session:
        from ..session import check_session
        sessions = [check_session(r) for r in reports]
        if any(s.problems for s in sessions):
            status = max(status, 1)
    if as_json:
        import json  # only for --json: start-up matters (one command per move)

        doc = {"files": [r.as_json() for r in reports]}
        if session:
            for entry, s in zip(doc["files"], sessions):
                entry["session"] = s.as_json()
        # Indented for a person at a terminal; compact (and several times faster to write,
        # being C-encoded) for the tools that read it.
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=1 if sys.stdout.isatty() else None)
        sys.stdout.write("\n")
    else:
        from .render import print_report, print_session
        for i, report in enumerate(reports):
            print_report(report)
            if session:
                print_session(report, sessions[i])
    sys.exit(status)
