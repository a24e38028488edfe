"""`desmoche-ref db upgrade|check|path`: where the book lives and its schema (Alembic)."""

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
    from ..store.db import SCHEMA_HEAD, describe, open_book, schema_version, upgrade

    book = open_book(db, migrate=False)
    before = schema_version(book)
    if before != SCHEMA_HEAD:
        upgrade(book)
    if before == SCHEMA_HEAD:
        text = _("{book}: schema {schema} (already up to date)")
    elif before:
        text = _("{book}: schema {schema} (was {before})")
    else:
        text = _("{book}: schema {schema} (was empty)")
    click.echo(text.format(book=describe(book.url), schema=SCHEMA_HEAD, before=before))


@db.command("check", cls=Command)
@db_option
@lang_option
@book_command
def db_check(db):
    """Check that the book's schema is exactly what this program's models describe.

    Exit 1 when they differ (the differences are listed).

    \b
    Examples:
      desmoche-ref db check
    """
    from ..store.db import describe, drift, open_book
    from .render import say

    book = open_book(db)
    found = drift(book)
    for line in found:
        click.echo(say(line))
    text = _("{book}: the schema and the models differ") if found else _("{book}: the schema matches the models")
    click.echo(text.format(book=describe(book.url)))
    sys.exit(1 if found else 0)
