"""`desmoche-ref check`: the referee's verdict on hand records (N5, N8)."""

import sys

import click

from ..findings import M
from ..i18n import N_
from ..referee import FileReport, judge_stream
from .files import encoding_hint, encoding_option, open_lines
from .lang import Command, lang_option
from .runtime import collector_paused


@click.command(cls=Command)
@click.argument("files", nargs=-1, required=True, metavar=N_("FILE..."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the verdict as one JSON document (N8)."))
@click.option("--session", is_flag=True,
              help=N_("Also check that each file's hands of a table follow on (N9): pots carry and "
                      "the bet holds while a pot is carried (errors), the dealer rotates (a warning); "
                      "and print the night's running totals."))
@click.option("--summary", is_flag=True,
              help=N_("One line per hand (its outcome and nets), then the file's totals."))
@click.option("--ascii", "ascii_only", is_flag=True,
              help=N_("Cards as plain letters (7d, Qs) instead of suit symbols, and no colour."))
@encoding_option
@lang_option
def check(files, as_json, session, summary, ascii_only, encoding):
    """Replay hand records and report the referee's verdict.

    Each hand prints a header line with its outcome, its findings under it as
    PATH:LINE: CODE message (CODE is the rule: `desmoche-ref rules CODE` explains it),
    then its money and nets. Cards show with suit symbols, red and black on a terminal
    (NO_COLOR or --ascii for none). Exit status: 0 when no hand is invalid, 1 when one is
    (or a file holds no hand), 2 when a file cannot be read.

    \b
    Examples:
      desmoche-ref check sample_logs/friday.dsm
      desmoche-ref check --summary sample_logs/club-night.dsm
      desmoche-ref check --json sample_logs/*.dsm
      desmoche-ref check --session sample_logs/club-night.dsm
      desmoche-ref check --encoding cp1252 old-windows-file.dsm
      cat hand.dsm | desmoche-ref check -
    """
    with collector_paused():
        status = _check(files, as_json, session, summary, ascii_only, encoding)
    sys.exit(status)


def _open(path, session, encoding):
    """(FileReport, Lines or None, reason the file cannot be read or None): the report's
    hands are judged as it is iterated."""
    lines, problem = open_lines(path, encoding)
    night = None
    if session and not problem:
        from ..session import SessionNight

        night = SessionNight()
    report = FileReport(path, judge_stream(lines) if lines is not None else (),
                        M("cannot read {path}: {problem}", path=path, problem=problem) if problem else None, night)
    return report, lines, problem


def _status(report, problem) -> int:
    """N8: 2 for a file that cannot be read, 1 for an invalid hand or no hand (and, with
    --session, a night that does not follow on), 0 otherwise."""
    if problem:
        return 2
    if report.error or report.any_invalid or (report.session and report.session.finish().problems):
        return 1
    return 0


def _check(files, as_json, session, summary, ascii_only, encoding) -> int:
    status = 0
    if as_json:
        import json  # only for --json: start-up matters (one command per move)

        from ..referee import n8_chunks

        hints = []

        def reports():
            nonlocal status
            for path in files:
                report, lines, problem = _open(path, session, encoding)
                yield report  # n8_chunks goes through it before asking for the next
                status = max(status, _status(report, problem))
                hints.append(lines and encoding_hint(path, lines))

        # Indented for a person at a terminal; compact (and C-encoded, so several times
        # faster) for the tools that read it.
        out = sys.stdout
        encode = json.JSONEncoder(ensure_ascii=False, indent=1 if out.isatty() else None).encode
        for chunk in n8_chunks(reports(), encode):
            out.write(chunk)
        for hint in filter(None, hints):  # the document on stdout stays N8's
            click.echo(hint, err=True)
        return status

    from .render import Style, print_report, print_rules_hint

    style = Style(ascii_only)
    codes = []
    for path in files:
        report, lines, problem = _open(path, session, encoding)
        codes += print_report(report, style, summary)
        status = max(status, _status(report, problem))
        hint = lines and encoding_hint(path, lines)
        if hint:
            click.echo(hint)
    print_rules_hint(codes)
    return status
