"""The book's JSON columns, each with its codec: the column's SQLAlchemy type (`JSONText`, a
`TypeDecorator`) turns the value a program holds into the text the book stores and back, on
every read and write of the models' tables — an ORM object, a Core select of the model's
table, a bulk insert bound as SQLAlchemy binds it — so no module decodes a column by hand.

- SIDES (card_table.sides, hand.sides): the side games, [(game, stake cents, [names])].
- POTS (hand.side_carry, hand.side_carry_out): the side pots, {game: cents}.
- TAGS (hand.extra_tags): the tags kept beside the setup's, [(name, value)] (Date, Table, …).

The journal's texts (store/trust/journal.py) hold a column as the book stores it: `Codec.encode`.
A NULL stays None (a hand's side pots carried out before it closed); the judging side of an
import, which loads no SQLAlchemy, hands the writer the values and the column encodes them.
"""

import json
from typing import Any, Callable

from sqlalchemy.types import TypeDecorator
from sqlmodel.sql.sqltypes import AutoString


class Codec:
    """A JSON column's text from its value and back; `empty` is what an empty text reads as."""

    __slots__ = ("name", "empty", "_encode", "_decode")

    def __init__(self, name: str, empty: Any, encode: Callable[[Any], Any], decode: Callable[[Any], Any]):
        self.name, self.empty, self._encode, self._decode = name, empty, encode, decode

    def encode(self, value: Any) -> str:
        return json.dumps(self._encode(value))

    def decode(self, text: str | None) -> Any:
        """The value of a column's text (None or "" reads as empty)."""
        return self._decode(json.loads(text)) if text else self._decode(self.empty)

    def __repr__(self) -> str:
        return f"Codec({self.name})"


SIDES = Codec("sides", [], lambda sides: [[game, stake, list(names)] for game, stake, names in sides],
              lambda rows: [(game, stake, list(names)) for game, stake, names in rows])
POTS = Codec("pots", {}, dict, dict)
TAGS = Codec("tags", [], lambda tags: [list(t) for t in tags], lambda rows: [tuple(t) for t in rows])
CODECS = {codec.name: codec for codec in (SIDES, POTS, TAGS)}


class JSONText(TypeDecorator):
    """A text column holding one codec's JSON: values in, values out (None stays None)."""

    impl = AutoString  # the column's type in the database: as before it had a codec (no migration)
    cache_ok = True

    def __init__(self, codec: str):
        super().__init__()
        self.codec = codec  # its name: a type's arguments are part of SQLAlchemy's statement cache key

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        return None if value is None else CODECS[self.codec].encode(value)

    def process_result_value(self, value: str | None, dialect: Any) -> Any:
        return None if value is None else CODECS[self.codec].decode(value)

    def __repr__(self) -> str:
        return f"JSONText({self.codec!r})"
