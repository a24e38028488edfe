"""`desmoche-ref db upgrade|check|stamp|path`: where the book lives and its schema (Alembic)."""

import sys

import click

from .book import book_command, db_option
from .lang import Command, Group, _, lang_option


@click.group(cls=Group)
@lang_option
def db():
    """The book itself: where it is, and its schema.

    \b
    Examples:
      desmoche-ref db path
      desmoche-ref db upgrade --db league.db
      desmoche-ref db check --db postgresql+psycopg://league@server/desmoche
      desmoche-ref db stamp --db league.db
    """


@db.command("path", cls=Command)
@db_option
@lang_option
@book_command
def db_path(db):
    """Print the book's URL (without its password): --db, else $DESMOCHE_DB, else the default.

    \b
    Examples:
      desmoche-ref db path
      DESMOCHE_DB=club.db desmoche-ref db path
    """
    from ..store.db import describe, resolve_url

    click.echo(describe(resolve_url(db)))


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
    from ..store.db import Unstamped, check_known, connect_book, describe, drift, schema_head, schema_version
    from .render import say

    book = connect_book(db, readonly=True)
    name, head = describe(book.url), schema_head()
    try:
        version = schema_version(book)
    except Unstamped:
        found = drift(book)
        for line in found:
            click.echo(say(line))
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
    found = drift(book)
    for line in found:
        click.echo(say(line))
    text = _("{book}: the schema and the models differ") if found else _("{book}: the schema matches the models")
    click.echo(text.format(book=name))
    sys.exit(1 if found else 0)


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
    from ..store.db import BookError, Unstamped, connect_book, describe, drift, schema_head, schema_version, stamp
    from .render import say

    book = connect_book(db)
    name, head = describe(book.url), schema_head()
    try:
        version = schema_version(book)
    except Unstamped:
        found = drift(book)
        for line in found:
            click.echo(say(line))
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
