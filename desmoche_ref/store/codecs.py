"""One codec per kind of JSON a stored column holds: `encode(value) -> text` as the book
writes it, `decode(text) -> value` as every reader takes it. The models name the codec of
each of their JSON columns (`JSON` on BookTable and Hand, store/models.py); the judging side of
an import, which loads no ORM, encodes with the same objects.

- SIDES (card_table.sides, hand.sides): the side games, [(game, stake cents, [names])].
- POTS (hand.side_carry, hand.side_carry_out): the side pots, {game: cents}.
- TAGS (hand.extra_tags): the tags kept beside the setup's, [(name, value)] (Date, Table, …).
"""

import json


class Codec:
    """A JSON column's text from its value and back; `empty` is what a missing value reads as."""

    __slots__ = ("name", "empty", "_encode", "_decode")

    def __init__(self, name: str, empty, encode, decode):
        self.name, self.empty, self._encode, self._decode = name, empty, encode, decode

    def encode(self, value) -> str:
        return json.dumps(self._encode(value))

    def decode(self, text):
        """The value of a column's text (None or "" reads as empty)."""
        return self._decode(json.loads(text)) if text else self._decode(self.empty)

    def __repr__(self) -> str:
        return f"Codec({self.name})"


SIDES = Codec("sides", [], lambda sides: [[game, stake, list(names)] for game, stake, names in sides],
              lambda rows: [(game, stake, list(names)) for game, stake, names in rows])
POTS = Codec("pots", {}, dict, dict)
TAGS = Codec("tags", [], lambda tags: [list(t) for t in tags], lambda rows: [tuple(t) for t in rows])
