"""`desmoche-ref db upgrade|check|stamp|path|grant|revoke|roles`: where the book lives, its
schema (Alembic), and on a league server who may record into it or read it."""

import sys

import click

from ..i18n import N_
from .book import book_command, db_option, open_book
from .lang import Command, Group, _, lang_option


@click.group(cls=Group)
@lang_option
def db():
    """The book itself: where it is, its schema, and who may record or read.

    \b
    Examples:
      desmoche-ref db path
      desmoche-ref db upgrade --db league.db
      desmoche-ref db check --db postgresql+psycopg://league@server/desmoche
      desmoche-ref db grant clerk --recorder
      desmoche-ref db stamp --db league.db
    """


@db.command("path", cls=Command)
@db_option
@lang_option
@book_command
def db_path(db):
    """Print the book's URL (without its password): --db, else $DESMOCHE_DB, else the default.

    It makes nothing: a SQLite book that is not there yet is said on standard error (the
    first command that records makes it; a command that only reads says there is none).

    \b
    Examples:
      desmoche-ref db path
      DESMOCHE_DB=club.db desmoche-ref db path
    """
    import os

    from ..store.db import describe, resolve_url, sqlite_path

    url = resolve_url(db)
    click.echo(describe(url))
    path = sqlite_path(url)
    if path and not os.path.exists(path):
        click.echo(_("no book there yet: the first command that records (`table new`, `import`) makes it"),
                   err=True)


@db.command("upgrade", cls=Command)
@db_option
@lang_option
@book_command
def db_upgrade(db):
    """Bring the book's schema up to this program's (also done on first use).

    \b
    Examples:
      desmoche-ref db upgrade
      desmoche-ref db upgrade --db postgresql+psycopg://league@server/desmoche
    """
    from ..store.db import describe, open_book, schema_head, upgrade

    book = open_book(db, migrate=False)
    before = upgrade(book)  # the revision found under the upgrade's lock
    if before == schema_head():
        text = _("{book}: schema {schema} (already up to date)")
    elif before:
        text = _("{book}: schema {schema} (was {before})")
    else:
        text = _("{book}: schema {schema} (was empty)")
    click.echo(text.format(book=describe(book.url), schema=schema_head(), before=before))


@db.command("check", cls=Command)
@db_option
@lang_option
@book_command
def db_check(db):
    """Check that the book's schema is exactly what this program's models describe.

    Reads only: exit 1 when the schema differs (the differences are listed), when the book
    needs `db upgrade`, or when its schema version is missing (it says whether `db stamp`
    repairs that).

    \b
    Examples:
      desmoche-ref db check
      desmoche-ref db check --db league.db
    """
    from ..store.db import Unstamped, check_known, connect_book, describe, schema_head, schema_version

    book = connect_book(db, readonly=True)
    name, head = describe(book.url), schema_head()
    try:
        version = schema_version(book)
    except Unstamped:
        found = print_drift(book)
        text = _("{book}: the tables are not schema {schema}'s and no schema version is recorded: "
                 "`db stamp` cannot repair the book") if found else \
            _("{book}: the tables are schema {schema}'s but the schema version is missing: "
              "`desmoche-ref db stamp` records it")
        click.echo(text.format(book=name, schema=head))
        sys.exit(1)
    check_known(book, version)
    if version != head:
        text = _("{book}: no schema yet: `desmoche-ref db upgrade` makes the book") if version is None else \
            _("{book}: schema {version}, this program's is {schema}: `desmoche-ref db upgrade` brings it up")
        click.echo(text.format(book=name, version=version, schema=head))
        sys.exit(1)
    found = print_drift(book)
    text = _("{book}: the schema and the models differ") if found else _("{book}: the schema matches the models")
    click.echo(text.format(book=name))
    sys.exit(1 if found else 0)


def print_drift(book) -> list:
    """How the book's tables differ from the models, printed a line each; the differences."""
    from ..store.db import drift
    from .render import say

    found = drift(book)
    for line in found:
        click.echo(say(line))
    return found


ACCESS = {"owner": N_("owner"), "recorder": N_("recorder"), "reader": N_("reader"),
          "other": N_("other: grant it again (--recorder or --reader)")}


def _server_book(db):
    """The PostgreSQL book named by --db (a SQLite book has no roles: exit 2 saying so)."""
    from ..store.db import resolve_url
    from ..store.trust.roles import postgres_only

    postgres_only(resolve_url(db))
    return open_book(db)


@db.command("grant", cls=Command)
@click.argument("role", metavar=N_("ROLE"))
@click.option("--recorder", is_flag=True,
              help=N_("ROLE records: every command that stores moves, hands and tables; never an "
                      "update or delete of a stored move or posting, nor a change of schema."))
@click.option("--reader", is_flag=True,
              help=N_("ROLE reads: standings, ledger, settle-up, export, hand show/log, verify, "
                      "table list, report; nothing it runs can write."))
@click.option("--pin", is_flag=True,
              help=N_("On a SQLite book, with --recorder: a new PIN with which ROLE signs in to the board "
                      "to enter moves (`board --entry`), printed once on the last line; a PIN ROLE held "
                      "before ends."))
@db_option
@lang_option
@book_command
def db_grant(role, recorder, reader, pin, db):
    """Give an existing role of the PostgreSQL server what a recorder or a reader needs on
    this book, and nothing more (run by the book's owner); on a SQLite book, give a recorder
    a PIN for the board (--recorder --pin).

    The server itself then refuses the role anything else: a recorder may not UPDATE or
    DELETE a stored move or posting, nor change the schema; a reader may only read.
    Granting again replaces what the role had; `db upgrade` re-applies every grant to
    the new schema. A SQLite book has no roles: its file's permissions guard it, and its
    owner lets a recorder enter moves from a phone with a PIN, which the book keeps only as
    a slow hash; the moves entered with it name ROLE as their recorder.

    \b
    Examples:
      psql -d desmoche -c "CREATE ROLE clerk LOGIN PASSWORD 'secret'"
      desmoche-ref db grant clerk --recorder --db postgresql+psycopg://league@server/desmoche
      desmoche-ref db grant viewer --reader
      desmoche-ref db grant Beto --recorder --pin --db club.db
    """
    from ..store.db import describe
    from ..store.trust.roles import READER, RECORDER
    from ..store.read.scorebook import Scorebook
    from .render import say

    if recorder == reader:
        raise click.UsageError(_("say what the role may do: --recorder or --reader (one of them)"))
    if pin:
        _grant_pin(role, reader, db)
        return
    book = _server_book(db)
    warnings = Scorebook(book).grant(role, RECORDER if recorder else READER)
    text = _("role {role} may record in {book}: it adds moves, hands, tables and postings, and may not "
             "change or delete a stored move or posting, nor the schema") if recorder else \
        _("role {role} may read {book}, and nothing else")
    click.echo(text.format(role=role, book=describe(book.url)))
    for warning in warnings:
        click.echo(_("warning: {message}").format(message=say(warning)), err=True)


def _grant_pin(name, reader, db) -> None:
    from ..store.db import describe
    from ..store.read.scorebook import Scorebook

    if reader:
        raise click.UsageError(_("--pin goes with --recorder: anyone who may open the board reads it"))
    book = _pin_book(db)
    pin = Scorebook(book).grant_pin(name)
    click.echo(_("recorder {name} may enter moves in {book} on the board (`desmoche-ref board --entry`), "
                 "signing in with this PIN; it is shown only now: the book keeps a hash of it, and "
                 "`desmoche-ref db revoke {name}` ends it").format(name=name, book=describe(book.url)))
    click.echo(_("PIN: {pin}").format(pin=pin))


def _pin_book(db):
    """The SQLite book named by --db, which must exist (a PIN is given on a book, never made
    with one); on a server, exit 2: its recorders sign in with their own login."""
    import os

    from ..findings import M
    from ..store.db import BookError, describe, no_book, resolve_url, sqlite_path

    url = resolve_url(db)
    path = sqlite_path(url)
    if not url.startswith("sqlite"):
        raise BookError(M("{book} is a league server: a recorder signs in to the board with their own "
                          "login (`desmoche-ref db grant NAME --recorder`), not with a PIN", book=describe(url)))
    if path and not os.path.exists(path):
        raise no_book(url)
    return open_book(db)


@db.command("revoke", cls=Command)
@click.argument("role", metavar=N_("ROLE"))
@db_option
@lang_option
@book_command
def db_revoke(role, db):
    """Take back what `db grant` gave ROLE on this book (run by the book's owner): on a
    PostgreSQL book its privileges, on a SQLite book its PIN. Either way every board session
    ROLE signed in with can enter nothing more.

    \b
    Examples:
      desmoche-ref db revoke clerk
      desmoche-ref db revoke Beto --db club.db
    """
    from ..store.db import describe, resolve_url
    from ..store.read.scorebook import Scorebook

    if resolve_url(db).startswith("sqlite"):
        book = _pin_book(db)
        had = Scorebook(book).revoke_pin(role)
        text = _("recorder {role}'s PIN on {book} is revoked: it signs in no more, and the board's sessions "
                 "signed in with it enter nothing more") if had else \
            _("{role} holds no PIN on {book}: nothing to revoke")
        click.echo(text.format(role=role, book=describe(book.url)))
        return
    book = _server_book(db)
    had = Scorebook(book).revoke(role)
    text = _("role {role} may no longer use {book}") if had else \
        _("role {role} had nothing on {book}: nothing to revoke")
    click.echo(text.format(role=role, book=describe(book.url)))


@db.command("roles", cls=Command)
@click.option("--json", "as_json", is_flag=True,
              help=N_('A list of {"role", "access"}: owner, recorder, reader or other.'))
@db_option
@lang_option
@book_command
def db_roles(as_json, db):
    """Who may do what to this PostgreSQL book: its owner, then every role given anything on
    it (a recorder, a reader, or other: privileges not given by `db grant`). On a SQLite
    book: the recorders who hold a PIN for the board (access `recorder`, "pin": true).

    \b
    Examples:
      desmoche-ref db roles
      desmoche-ref db roles --json
    """
    import json

    from ..store.db import resolve_url
    from ..store.read.scorebook import Scorebook
    from .render import simple_table

    if resolve_url(db).startswith("sqlite"):
        _pin_holders(Scorebook(_pin_book(db)).pins(), as_json)
        return
    rows = Scorebook(_server_book(db)).roles()
    if as_json:
        json.dump([{"role": r, "access": a} for r, a in rows], sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    click.echo(simple_table([[r, _(ACCESS[a])] for r, a in rows], [_("role"), _("access")]))


def _pin_holders(holders, as_json) -> None:
    import json

    from .render import simple_table

    if as_json:
        json.dump([{"role": h.name, "access": "recorder", "pin": True, "granted": h.granted.isoformat()}
                   for h in holders], sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    if not holders:
        click.echo(_("nobody holds a PIN for this book's board: `desmoche-ref db grant NAME --recorder "
                     "--pin` gives one"))
        return
    click.echo(simple_table([[h.name, _("recorder (PIN)"), h.granted.strftime("%Y-%m-%d %H:%M")] for h in holders],
                            [_("role"), _("access"), _("granted (UTC)")]))


@db.command("stamp", cls=Command)
@db_option
@lang_option
@book_command
def db_stamp(db):
    """Record the schema version of a book that lost it (its alembic_version row), when its
    tables are exactly this program's schema; `db check` says when this is the repair.

    Exit 1, nothing written, when the tables differ from the schema (they are listed).

    \b
    Examples:
      desmoche-ref db check --db league.db
      desmoche-ref db stamp --db league.db
    """
    from ..findings import M
    from ..store.db import BookError, Unstamped, connect_book, describe, schema_head, schema_version, stamp

    book = connect_book(db)
    name, head = describe(book.url), schema_head()
    try:
        version = schema_version(book)
    except Unstamped:
        found = print_drift(book)
        if found:
            click.echo(_("{book}: the tables are not schema {schema}'s: nothing recorded").format(
                book=name, schema=head))
            sys.exit(1)
        stamp(book)
        click.echo(_("{book}: schema {schema} recorded (the tables are its own)").format(book=name, schema=head))
        return
    if version is None:
        raise BookError(M("{book} has no tables: nothing to stamp (`desmoche-ref db upgrade` makes the book)",
                          book=name))
    raise BookError(M("{book} records its schema already ({version}): nothing to stamp", book=name,
                      version=version))
