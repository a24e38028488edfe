"""`desmoche-ref fmt`: hand records in the canonical form (N7)."""

import sys

import click

from ..notation.parser import Lines, parse_bytes
from ..notation.writer import syntax_errors, write_file
from ..findings import M
from ..i18n import N_
from .files import encoding_hint, encoding_option, read_record, write_atomically
from .lang import Command, _, lang_option
from .render import file_error, say


@click.command(cls=Command)
@click.argument("files", nargs=-1, required=True, metavar=N_("FILE..."))
@click.option("--in-place", "-i", is_flag=True, help=N_("Rewrite each file in its canonical form."))
@click.option("--check", "check_only", is_flag=True,
              help=N_("Change nothing; exit 1 if a file is not in canonical form (saying its first line that is not)."))
@click.option("--diff", "diff", is_flag=True,
              help=N_("As --check, and print each change the canonical form makes (a unified diff)."))
@encoding_option
@lang_option
def fmt(files, in_place, check_only, diff, encoding):
    """Rewrite hand records in the canonical form (N7).

    Tags in the standard order, one blank line, then one event a line with canonical
    verbs and cards (Ts, Ah, 2c), single spaces, comments kept where they were. A file
    with a line that cannot be read is left alone and its errors are printed.

    \b
    Examples:
      desmoche-ref fmt sample_logs/friday.dsm   # print the canonical form
      desmoche-ref fmt --in-place hand.dsm      # rewrite hand.dsm in it
      desmoche-ref fmt --check night.dsm        # exit 1 if night.dsm is not in it
      desmoche-ref fmt --diff night.dsm         # and show what would change
      desmoche-ref fmt --encoding cp1252 old-windows-file.dsm   # written out as UTF-8
    """
    if in_place and (check_only or diff):
        raise click.UsageError(_("--in-place and --check do not go together"))
    check_only = check_only or diff
    status = 0
    for path in files:
        data, problem = read_record(path)
        if problem:
            click.echo(file_error(path, M("cannot read {path}: {problem}", path=path, problem=problem)), err=True)
            status = 2
            continue
        lines = Lines(data, encoding)
        record = parse_bytes(lines)
        if record.error:
            click.echo(file_error(path, record.error), err=True)
            status = max(status, 1)
            continue
        bad = syntax_errors(record)
        if bad:
            for e in bad:
                click.echo(f"{path}:{e.line}: {e.code} {say(e.message)}", err=True)
            hint = encoding_hint(path, lines)
            if hint:
                click.echo(hint, err=True)
            status = max(status, 1)
            continue
        text = write_file(record)
        canonical = text.encode("utf-8") == data
        if check_only:
            if not canonical:
                given = data.decode("utf-8", "replace").splitlines()
                wanted = text.splitlines()
                first = next((n for n, (a, b) in enumerate(zip(given, wanted), 1) if a != b),
                             min(len(given), len(wanted)) + 1)
                click.echo(_("{path}: not in canonical form from line {line} (--diff shows each change)").format(
                    path=path, line=first))
                if diff:
                    import difflib

                    for line in difflib.unified_diff(given, wanted, path, _("{path} (canonical)").format(path=path),
                                                     lineterm=""):
                        click.echo(line)
                status = max(status, 1)
        elif in_place:
            if not canonical:
                if path == "-":
                    raise click.UsageError(_("--in-place needs a file, not standard input"))
                try:
                    write_atomically(path, text)
                except OSError as e:  # nothing was replaced: the file is as it was
                    click.echo(_("{path}: error: cannot write {path}: {reason}").format(path=path, reason=e.strerror or e),
                               err=True)
                    status = 2
                    continue
                click.echo(_("{path}: rewritten").format(path=path), err=True)
        else:
            sys.stdout.write(text)
    sys.exit(status)
