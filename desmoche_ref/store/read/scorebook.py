"""The scorebook service, book-wide: what the league's commands ask of the whole book.

`TableBook` (tablebook.py) records at one table; `Scorebook` answers for the book: the
standings, the ledger, the balances settle-up clears, the export, the audit, a report's
season, importing a file, and on a league server who may do what. Each call is one
transaction (a read, or one write) and returns plain values; `cli/` renders them and never
holds a session, a connection or a transaction of its own. Failures are `StoreError` or
`BookError`, each one line for the person.
"""

from .league import Selection  # noqa: F401  (the commands build their filters with it)


class Scorebook:
    def __init__(self, book):
        self.book = book

    # ------------------------------------------------------------ the league's reports
    def standings(self, sel: Selection):
        """league.Standings of the hands `sel` picks; an unknown --player is a StoreError."""
        from .league import player_name, standings

        with self.book.connect() as conn:
            if sel.player is not None:
                sel = sel._replace(player=player_name(conn, sel.player))
            return standings(conn, sel)

    def balances(self, sel: Selection) -> dict:
        """{party: cents} settle-up clears (the pots as one party, league.POT_PARTY)."""
        from .league import balances

        with self.book.connect() as conn:
            return balances(conn, sel)

    def settlement(self, sel: Selection):
        """pots.Settlement of the hands `sel` picks: settle-up's balances and transfers, the
        money the pots still hold left with who put it in (`held`)."""
        from .league import snapshot
        from .pots import settlement

        with self.book.connect() as conn:
            snapshot(conn)
            return settlement(conn, sel)

    def ledger(self, player=None, table=None, hand=None):
        """league.Entry of every posting picked, in the order made, as a league.Stream (read in
        batches from one snapshot while they are written out); an unknown player or table is a
        StoreError on entering it."""
        from .league import Stream, ledger_of

        return Stream(self.book, ledger_of, player, table, hand)

    def ratings(self, flt=None, min_hands: int = 20):
        """ratings.RatingTable over the hands `flt` (a ratings.Filter) picks, in the order
        played: the players with at least `min_hands` rated hands ranked, the others apart."""
        from .ratings import Filter, ratings

        with self.book.connect() as conn:
            return ratings(conn, flt or Filter(), min_hands)

    def player(self, name: str, flt=None):
        """career.Record of a player over the hands `flt` picks; StoreError if unknown."""
        from .career import player_record
        from .ratings import Filter

        with self.book.connect() as conn:
            return player_record(conn, name, flt or Filter())

    def nights_played(self, flt=None) -> dict:
        """{player: nights sat in} over the hands `flt` picks (standings --min-nights)."""
        from .career import nights_played
        from .ratings import Filter

        with self.book.connect() as conn:
            return nights_played(conn, flt or Filter())

    def export(self, table=None, hand=None):
        """(table, number, record text) of each hand picked as a league.Stream (read in batches
        from one snapshot while they are written out), and its `head`: the book head."""
        from .league import Stream, export_hands

        return Stream(self.book, export_hands, table, hand)

    def verify(self, head: str | None = None):
        """(problems, counts, the book head): verify.verify_book over the whole book."""
        from ..trust.verify import verify_book

        with self.book.read() as session:
            return verify_book(session, head)

    def season(self, tables=(), since=None, until=None, min_nights=None) -> "SeasonReader":
        """The report's season (store/read/season.py) of the hands picked, read in one transaction;
        the hands' records are read afterwards, a batch a call (SeasonReader.records)."""
        from .season import season

        with self.book.connect() as conn:
            return SeasonReader(self, season(conn, tables, since, until, min_nights))

    def hand_records(self, hands) -> list:
        """season.HandRecord of each of `hands` (season.SeasonHand): one read."""
        from .season import records

        with self.book.connect() as conn:
            return list(records(conn, hands, batch=max(len(hands), 1)))

    def import_file(self, data, path: str, table=None, progress=None, encoding=None):
        """importer.Imported: one file's hands judged and stored (importer.import_records)."""
        from ..write.importer import import_records

        return import_records(self.book, data, path, table, progress, encoding=encoding)

    # ------------------------------------------------------------ a league server's roles
    def grant(self, role: str, access: str) -> list:
        """Give `role` the recorder's or the reader's privileges (roles.py): its warnings."""
        from ..trust.roles import grant

        with self.book.begin() as conn:
            return grant(conn, role, access)

    def revoke(self, role: str) -> str | None:
        """What `role` had (roles.RECORDER, READER, OTHER), or None if nothing."""
        from ..trust.roles import revoke

        with self.book.begin() as conn:
            return revoke(conn, role)

    def roles(self) -> list:
        """[(role, access)]: the owner first, then every role given anything."""
        from ..trust.roles import OWNER, granted, owner

        with self.book.connect() as conn:
            return [(owner(conn), OWNER)] + granted(conn)


    # ------------------------------------------------------------ a SQLite book's PINs
    def grant_pin(self, name: str) -> str:
        """A new PIN for the recorder `name` (pins.py): to be shown once."""
        from ..trust.pins import grant

        return grant(self.book, name)

    def revoke_pin(self, name: str) -> bool:
        from ..trust.pins import revoke

        return revoke(self.book, name)

    def pins(self) -> list:
        """pins.Holder of every live PIN, by name."""
        from ..trust.pins import holders

        return holders(self.book)


class SeasonReader:
    """A report's season (`.season`: season.Season) and its hands' records read on demand
    (`.records(hands)`: one read a call, a batch of hands the report draws next)."""

    def __init__(self, scorebook: Scorebook, season):
        self.scorebook, self.season = scorebook, season

    def records(self, hands) -> list:
        return self.scorebook.hand_records(hands)
