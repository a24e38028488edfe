"""The lines of a record file as text (N1.1, N1.5): decoded block by block in Unicode NFC, a
line too long or not in the file's encoding kept as a marked prefix. Pure, bounded memory."""

import codecs
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from ..findings import M
from ..limits import LINE, nfc


class Undecodable(str):
    """A line that is not valid in the file's encoding (N1.1), as read with replacement
    characters: enough to tell a tag line from an event or a comment, so that one bad byte
    does not move a hand's boundaries."""


class TooLong(str):
    """A line longer than N1.5 allows, as its first characters only (the reader keeps no
    more of it): enough to tell a tag line from an event or a comment, as `Undecodable`."""


_BLOCK = 1 << 18  # bytes read at a time: memory stays bounded whatever the file's size
_HELD = 4 * LINE + 1  # the most bytes of a line that can still be LINE characters (and a \r)
_KEPT = 64  # characters kept of a line too long
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _too_long(text: str) -> TooLong:
    return TooLong(text.lstrip()[:_KEPT])


class Lines:
    """The lines of a record file as text, decoded block by block (N1.1), in Unicode NFC.

    `blocks` is an iterable of bytes (an open file read in blocks, or one bytes object).
    UTF-8 unless `encoding` names another codec; a UTF-8 byte-order mark is skipped and a
    UTF-16 one makes the file UTF-16. A line that does not decode comes as `Undecodable`,
    one longer than LINE characters (N1.5, counted as written) as `TooLong`: of such a line
    no more than `_HELD` bytes are ever held, however long it is. After reading,
    `looks_like` is "cp1252" when every undecodable line reads as Windows-1252 (or Latin-1)
    text: the usual cause, and what `--encoding` should say. One object per reading:
    nothing outlives it."""

    def __init__(self, blocks: "bytes | Iterable[bytes]", encoding: str | None = None) -> None:
        if isinstance(blocks, (bytes, bytearray, memoryview)):  # read as a file is: block by block
            whole = memoryview(blocks)
            blocks = (bytes(whole[at:at + _BLOCK]) for at in range(0, len(whole), _BLOCK))
        self.blocks = blocks
        name = codecs.lookup(encoding).name if encoding is not None else "utf-8"
        self.encoding = None if name == "utf-8" else name  # None: the fast UTF-8 path
        self.looks_like: str | None = None  # cp1252, when the bad lines read as Windows-1252 text
        self._others = False  # a bad line that is not Windows-1252 text either

    @property
    def reason(self) -> str:
        name = {None: "UTF-8", "utf-16": "UTF-16"}.get(self.encoding, self.encoding)
        return M("this line is not valid {encoding} text", encoding=name)

    def __iter__(self) -> Iterator[str]:
        blocks = iter(self.blocks)
        first = b""
        for block in blocks:  # enough of the start to see a byte-order mark
            first += block
            if len(first) >= 3:
                break
        if first.startswith(codecs.BOM_UTF8) and self.encoding is None:
            first = first[3:]
        elif first.startswith(_UTF16_BOMS) and self.encoding is None:
            self.encoding = "utf-16"
        if self.encoding is None:
            return self._utf8((first,), blocks)
        return self._decoded((first,), blocks)

    def _utf8(self, head: Iterable[bytes], blocks: Iterable[bytes]) -> Iterator[str]:
        rest = b""
        skipping = None  # the start of a line too long, while the rest of it is read past
        for source in (head, blocks):
            for block in source:
                if skipping is not None:
                    end = block.find(b"\n")
                    if end < 0:
                        continue
                    yield skipping
                    skipping, block = None, block[end + 1:]
                if rest:
                    block = rest + block
                cut = block.rfind(b"\n") + 1
                rest, block = block[cut:], block[:cut]
                if len(rest) > _HELD:  # no line end where one must be: the line is too long
                    skipping, rest = _too_long(rest[:_HELD].decode("utf-8", "replace")), b""
                if not block:
                    continue
                try:
                    text = block.decode("utf-8")
                except UnicodeDecodeError:
                    lines = [self._one(raw) for raw in block.split(b"\n")]
                else:
                    lines = text.split("\n")
                    if max(map(len, lines)) > LINE:  # some line may be too long: each is looked at
                        lines = [_checked(line) for line in lines]
                    elif not text.isascii():
                        lines = nfc(text).split("\n")  # NFC keeps the line ends where they are
                lines.pop()  # the block ends with a line end: after it, nothing
                yield from lines
        if skipping is not None:
            yield skipping
        elif rest:
            yield self._one(rest)

    def _one(self, raw: bytes) -> str:
        try:
            return _checked(raw.decode("utf-8"))
        except UnicodeDecodeError:
            pass
        if not self._others:  # one line that is not Windows-1252 text either settles it
            try:
                readable = raw.decode("cp1252").rstrip("\r").replace("\t", " ").isprintable()
            except UnicodeDecodeError:
                readable = False
            self.looks_like = "cp1252" if readable else None
            self._others = not readable
        return Undecodable(raw.decode("utf-8", "replace"))

    def _decoded(self, head: Iterable[bytes], blocks: Iterable[bytes]) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder(self.encoding or "utf-8")(errors="replace")
        rest = ""
        skipping = None
        for source in (head, blocks):
            for block in source:
                text = decoder.decode(block)
                if skipping is not None:
                    end = text.find("\n")
                    if end < 0:
                        continue
                    yield skipping
                    skipping, text = None, text[end + 1:]
                lines = (rest + text).split("\n")
                rest = lines.pop()
                if len(rest) > LINE + 1:
                    skipping, rest = _too_long(rest), ""
                for line in lines:
                    yield Undecodable(line) if "\ufffd" in line else _checked(line)
        rest += decoder.decode(b"", True)
        if skipping is not None:
            yield skipping
        elif rest:
            yield Undecodable(rest) if "\ufffd" in rest else _checked(rest)


def _checked(line: str) -> str:
    """A decoded line as the reader gives it: in NFC, or TooLong (N1.5)."""
    if len(line) > LINE and len(line.rstrip("\r")) > LINE:
        return _too_long(line)
    return nfc(line)


def read_blocks(f: BinaryIO, size: int = _BLOCK) -> Iterator[bytes]:
    """An open binary file as blocks of bytes, for `Lines`."""
    return iter(lambda: f.read(size), b"")
