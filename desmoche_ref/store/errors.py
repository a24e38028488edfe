"""The book's own exceptions: a module that imports nothing, so that every store module (the
roles, the locks, the opening of the book) can raise them without importing another."""


class BookError(Exception):
    """The book cannot be opened or used: a bad URL, a missing folder, a server that is
    down or refuses, a file that is not a book, a book from a newer program. Its argument
    is the message (a findings.Message, shown in the language of the run)."""


class Unstamped(BookError):
    """The book's tables are there but not its schema version (its alembic_version row)."""
