"""`desmoche-ref check`: the referee's verdict on hand records (N5, N8)."""

import gc
import sys

import click

from ..notation.parser import NO_HAND
from ..referee import INVALID, judge_stream
from .files import read_record


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
    out = sys.stdout
    if as_json:
        import json  # only for --json: start-up matters (one command per move)

        # Indented for a person at a terminal; compact (and C-encoded, so several times
        # faster) for the tools that read it. Written hand by hand: one JSON document.
        indent = 1 if out.isatty() else None
        dumps = json.JSONEncoder(ensure_ascii=False, indent=indent).encode  # one encoder for all
        out.write('{"files": [')
    else:
        from .render import print_file_error, print_hand, print_session
    for number, path in enumerate(files):
        data, problem = read_record(path)
        error = f"cannot read {path}: {problem}" if problem else None
        hands = judge_stream(data) if data is not None else ()
        night = None
        if session and not error:
            from ..referee import FileReport
            from ..session import check_session

            hands = list(hands)  # the continuity checks need the whole night
            night = check_session(FileReport(path, hands))
        if as_json:
            out.write(("," if number else "") + '{"path": ' + dumps(path) + ', "hands": [')
        count = invalid = 0
        for count, hand in enumerate(hands, 1):  # each hand reported, then let go
            invalid |= hand.status == INVALID
            if as_json:
                out.write(("," if count > 1 else "") + dumps(hand.as_json()))
            else:
                print_hand(path, count, hand)
        if not count and not error:
            error = NO_HAND
        # N8: 2 for a file that cannot be read, 1 for an invalid hand or no hand (and, with
        # --session, a night that does not follow on), 0 otherwise; the worst wins.
        if problem:
            status = 2
        elif invalid or error or (night is not None and night.problems):
            status = max(status, 1)
        if as_json:
            out.write("]" + (', "error": ' + dumps(error) if error else "")
                      + (', "session": ' + dumps(night.as_json()) if night else "") + "}")
        else:
            if error:
                print_file_error(path, error)
            if night is not None:
                print_session(path, night)
        hands = night = None
    if as_json:
        out.write("]}\n")
    sys.exit(status)
