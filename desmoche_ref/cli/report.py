"""`desmoche-ref report`: the book as a static site (desmoche_ref/report/), or its season page
as one file. It reads the book and writes nothing to it; Jinja2 and the report's modules are
imported here only, when the command runs."""

import os
import shutil
import sys

import click

from ..i18n import N_
from .book import book_command, db_option
from .lang import Command, _, language, lang_option, ngettext
from .league import DATE, fail
from .files import current_umask


@click.command(cls=Command)
@click.option("-o", "--out", required=True, metavar=N_("DIR|FILE.html"),
              help=N_("Where to write: a folder for the whole site, or a FILE.html for the season page alone."))
@click.option("--table", "tables", multiple=True, metavar=N_("NAME"),
              help=N_("Only this table's hands (repeat for several). Default: every table."))
@click.option("--since", type=DATE, metavar=N_("DATE"), help=N_("Hands played on or after DATE (YYYY-MM-DD)."))
@click.option("--until", type=DATE, metavar=N_("DATE"), help=N_("Hands played on or before DATE."))
@click.option("--min-nights", type=click.IntRange(min=1), metavar="N",
              help=N_("Mark on the season's table the players who sat in at least N nights (qualified)."))
@click.option("--force", is_flag=True, help=N_("Write over an existing FILE.html."))
@db_option
@lang_option
@book_command
def report(out, tables, since, until, min_nights, force, db):
    """Write the book as pages that open from disk: no server, no network.

    A folder gets the season page (index.html: the standings, the ratings, each player's
    net over the season, the nights with their settle-up, the season in figures), a page a
    night (its hands and settle-up, then each hand: the verdict with each finding's rule,
    and its record with a replay of the table after every move, stepped with the arrow
    keys; a night of more than 100 hands gets a page each 100) and a page a player (their
    record, as `desmoche-ref player` prints it, the course of their rating, their nights).
    A FILE.html gets the season page alone, with everything inside it. The pages speak the
    language of the run and print on A4. With --min-nights N the season's table marks the
    players who sat in at least N nights as qualified.

    A folder that holds a report made before is brought up to date (written anew); any
    other folder must be empty or new. An existing FILE.html is written over only with
    --force. Nothing is ever written to the book, nor over it.

    \b
    Examples:
      desmoche-ref report -o season/
      desmoche-ref report -o standings.html --since 2026-09-01
      desmoche-ref --lang es report -o temporada/ --table norte --table sur
      desmoche-ref report -o season/ --min-nights 4
    """
    from .runtime import collector_paused

    with collector_paused():
        _report(out, list(dict.fromkeys(tables)), since.date() if since else None,
                until.date() if until else None, force, db, min_nights)


def _book_file(db):
    """The book's file when it is a SQLite file, else None; error if it does not exist
    (a report never makes a book)."""
    from ..store.db import resolve_url

    url = resolve_url(db)
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///"):]
    if not os.path.exists(path):
        fail(_("no book at {path}: import hands first (`desmoche-ref import FILE…`)").format(path=path))
    return os.path.abspath(path)


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([path, folder]) == folder


def _check_target(out: str, book_file, force: bool) -> bool:
    """True for a FILE.html, False for a folder; refuses (one line, exit 2) a target the
    report must not write: the book itself, a file that exists without --force, a folder
    that holds the book or other things than a report."""
    from ..report.site import MARKER

    single = out.lower().endswith((".html", ".htm")) and not os.path.isdir(out)
    if book_file and os.path.exists(out) and os.path.realpath(out) == os.path.realpath(book_file):
        fail(_("{path} is the book: the report never writes over it").format(path=out))
    if single:
        if os.path.exists(out) and not force:
            fail(_("{path} exists: add --force to write over it").format(path=out))
        return True
    if os.path.exists(out):
        if not os.path.isdir(out):
            fail(_("{path} exists and is not a folder").format(path=out))
        if book_file and _inside(book_file, out):
            fail(_("{path} holds the book: write the report somewhere else").format(path=out))
        if os.listdir(out) and not os.path.exists(os.path.join(out, MARKER)):
            fail(_("{path} is a folder that holds other things than a report: name a new or empty folder").format(
                path=out))
    return False


def _report(out, tables, since, until, force, db, min_nights=None):
    import tempfile

    from ..report.site import build
    from ..store.db import open_book as open_unchanged, schema_head, schema_version
    from ..store.read.scorebook import Scorebook

    book_file = _book_file(db)
    single = _check_target(out, book_file, force)
    book = open_unchanged(db, migrate=False, make=False)  # a report never changes the book, nor makes one
    try:
        if schema_version(book) != schema_head():
            fail(_("the book's schema is not this program's: run `desmoche-ref db upgrade` first"))
        reader = Scorebook(book).season(tables, since, until, min_nights)
        if not reader.season.hands:
            fail(_("no hand in the book matches"), 1)
        parent = os.path.dirname(os.path.abspath(out.rstrip("/\\"))) or "."
        try:
            if single:
                fd, tmp = tempfile.mkstemp(prefix=".desmoche-", suffix=".html", dir=parent)
                os.close(fd)
                try:
                    figures = build(reader, parent, language(), inline_file=tmp)
                    os.chmod(tmp, 0o666 & ~current_umask())
                    os.replace(tmp, out)
                finally:
                    if os.path.exists(tmp):
                        os.unlink(tmp)
            else:
                figures = _build_folder(reader, out.rstrip("/\\") or out, parent)
        except OSError as e:
            fail(_("cannot write {path}: {reason}").format(path=out, reason=e.strerror or e))
    finally:
        book.close()
    count = figures["pages"]
    click.echo(_("{path}: {pages}, {hands}").format(
        path=out, pages=ngettext("{count} page", "{count} pages", count).format(count=count),
        hands=ngettext("{count} hand", "{count} hands", figures["hands"]).format(count=figures["hands"])))
    if reader.season.head:
        click.echo(_("book head: {head}").format(head=reader.season.head))


def _build_folder(reader, out, parent) -> dict:
    """Bring a report made before up to date in its folder (report/site.py: what changed is
    written, each file whole); else write the site into a new folder beside `out`, then put
    it in `out`'s place: a first report cut short leaves nothing half made."""
    import tempfile

    from ..report.site import MARKER, build

    if os.path.exists(os.path.join(out, MARKER)):
        return _progress(build, reader, out)
    staging = tempfile.mkdtemp(prefix=".desmoche-report-", dir=parent)
    old = None
    try:
        figures = _progress(build, reader, staging)
        os.chmod(staging, 0o777 & ~current_umask())
        if os.path.exists(out):
            old = tempfile.mkdtemp(prefix=".desmoche-old-", dir=parent)
            os.rename(out, os.path.join(old, "report"))
        os.rename(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None and not os.path.exists(out):
            os.rename(os.path.join(old, "report"), out)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return figures


def _progress(build, reader, folder) -> dict:
    if not sys.stderr.isatty():
        return build(reader, folder, language())
    with click.progressbar(length=len(reader.season.hands), label=_("Writing the report"), file=sys.stderr) as bar:
        return build(reader, folder, language(), bar.update)
