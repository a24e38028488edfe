"""The limits of what a record and the book hold: one set, the same for every command and
both engines, checked before the database sees a value (so SQLite and PostgreSQL refuse
the same things, in the same words).

- a line of a record or a typed move: at most LINE characters, its comment included (N1.5);
- a hand: at most TAGS tag lines and EVENTS event lines (N1.5), and at most COMMENTS comment
  lines (docs/rulings.md: what the reader holds of a hand stays bounded however long it is);
- a player's name: at most NAME characters (N3.1), compared after Unicode NFC
  normalisation (a name typed as `e` + combining accent is the same `é`);
- a table's name: at most TABLE characters, not blank, no line end or other control
  character; NFC too, and without the spaces around it (as a Table tag's value is read);
- an amount: below 1,000,000,000, at most AMOUNT_DIGITS digits before the point (N3.2;
  money.parse_amount);
- a hand's number: at most HAND (the book's INTEGER column).

Pure and light: the reader imports it (no database, no click).
"""

from collections.abc import Iterable

from .findings import M, Message

LINE = 4096           # characters of a line, its comment included (N1.5)
TAGS = 64             # tag lines of a hand (N1.5)
EVENTS = 1000         # event lines of a hand (N1.5; the longest of 2,000 simulated hands has 81)
COMMENTS = 1000       # comment lines of a hand, its notes above its tags included (rulings: N1.5)
NAME = 64             # characters of a player's name (N3.1; Player.name)
TABLE = 100           # characters of a table's name (BookTable.name)
AMOUNT_DIGITS = 9     # digits before the point: amounts are below 1,000,000,000 (N3.2)
HAND = 2**31 - 1      # a hand's number (Hand.number, an INTEGER on both engines)


def nfc(text: str) -> str:
    """`text` in Unicode NFC (N3.1); ASCII text, nearly every line, as it is."""
    if text.isascii():
        return text
    import unicodedata  # here: nearly every line is ASCII, and a move's start-up counts

    return unicodedata.normalize("NFC", text)


def too_long(count: int) -> Message | None:
    """The N1.5 message for a line of `count` characters or more (None when it fits)."""
    if count <= LINE:
        return None
    return M("this line is longer than {most} characters", most=LINE)


def too_many(what: str, most: int) -> Message:
    """The N1.5 message for the line that goes past a hand's `most` tags, events or comment
    lines (`what`: "tags", "events" or "comment lines")."""
    if what == "tags":
        return M("a hand holds at most {most} tags: this is one more", most=most)
    if what == "events":
        return M("a hand holds at most {most} events: this is one more", most=most)
    return M("a hand holds at most {most} comment lines: this is one more", most=most)


EXPORT_ADDS = 3  # the tags an export may add to a hand's own: Table, Date and Closed


def too_many_tags(count: int) -> Message | None:
    """The N1.5 message when a hand of `count` tags besides Table, Date and Closed would,
    exported with those, hold more than TAGS (None when it fits): the book keeps only what
    its export reads back (docs/rulings.md)."""
    if count + EXPORT_ADDS <= TAGS:
        return None
    return M("a hand holds at most {most} tags, those its export adds (Table, Date, Closed) included: "
             "this one would hold {count}", most=TAGS, count=count + EXPORT_ADDS)


def name_problem(name: str) -> Message | None:
    """Why a player's name (already NFC) is not one N3.1 allows — too long, or its letters of
    two scripts — else None."""
    if len(name) > NAME:
        return M("the name {name}… is longer than {most} characters", name=name[:24], most=NAME)
    return mixed_scripts(name)


# The scripts a name's letters may be named by: the first word of a letter's Unicode name
# (LATIN SMALL LETTER A, CYRILLIC CAPITAL LETTER A), in words a person reads. East Asian
# names mix Han with the kana or hangul as they are written: one script here (docs/rulings.md).
SCRIPTS = {"LATIN": M("Latin"), "CYRILLIC": M("Cyrillic"), "GREEK": M("Greek"), "ARMENIAN": M("Armenian"),
           "GEORGIAN": M("Georgian"), "HEBREW": M("Hebrew"), "ARABIC": M("Arabic"), "HAN": M("Han"),
           "COPTIC": M("Coptic"), "CHEROKEE": M("Cherokee")}
EAST_ASIAN = frozenset(("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC"))


def script(letter: str) -> str:
    """The script of a letter, by its Unicode name: `LATIN`, `CYRILLIC`, … (`HAN` for the
    East Asian ones; a full-width letter is of its script)."""
    import unicodedata

    words = unicodedata.name(letter, "UNNAMED").split()
    first = words[1] if words[0] in ("FULLWIDTH", "HALFWIDTH") and len(words) > 1 else words[0]
    return "HAN" if first in EAST_ASIAN else first


def mixed_scripts(name: str) -> Message | None:
    """N3.1: a name's letters are all of one script, so that no two players at a table look
    alike (`Аna` with a Cyrillic `А` beside `Ana`); its digits, `_`, `-`, `.`, accents and
    modifier letters belong to none. None when the name is of one script."""
    if name.isascii():  # nearly every name: Latin letters, digits and _-.
        return None
    import unicodedata

    first = None
    for c in name:
        category = unicodedata.category(c)
        if not category.startswith("L") or category == "Lm":
            continue
        kind = script(c)
        if first is None:
            first = (c, kind)
        elif kind != first[1]:
            return M("{name!r} mixes two scripts: {letter} is {script}, {other} is {script2}; a name's letters "
                     "are all of one script, so that no two players at a table look alike",
                     name=name[:24], letter=first[0], script=SCRIPTS.get(first[1], first[1].title()),
                     other=c, script2=SCRIPTS.get(kind, kind.title()))
    return None


def table_name(name: str) -> tuple[str | None, Message | None]:
    """(the table's name as the book keeps it, None) or (None, why it cannot be one)."""
    name = nfc(name).strip()
    if not name:
        return None, M("a table needs a name: not empty, not only spaces")
    if not name.isprintable():
        return None, M("a table's name is one line of printable characters: no line end, tab or "
                       "control character")
    if len(name) > TABLE:
        return None, M("the table name {name}… is longer than {most} characters", name=name[:24], most=TABLE)
    return name, None


def checked_table(name: str, players: Iterable[str]) -> tuple[str | None, list[str], Message | None]:
    """(name, players, None) as the book keeps a new table's (NFC), or (…, why not): the
    players' names are judged with the table's other values, as a Players tag's are."""
    kept, problem = table_name(name)
    return kept, [nfc(p) for p in players], problem


def closest(name: str, names: Iterable[str]) -> str | None:
    """The one of `names` that `name` was most likely meant to be: the same but for case or
    accents' encoding, else the closest spelling (difflib), else None."""
    key = nfc(name).strip().casefold()
    folded = {nfc(n).casefold(): n for n in names}
    if key in folded:
        return folded[key]
    import difflib  # here: only a mistyped name or verb needs it

    close = difflib.get_close_matches(key, folded, n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def unknown(message: str, name: str, names: Iterable[str]) -> str:
    """`message` (about an unknown `name`), with "did you mean …?" when one of `names` is close."""
    match = closest(name, names)
    if match is None:
        return message
    return M("{message}: did you mean {name}?", message=message, name=match)
