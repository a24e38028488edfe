"""The board kept up to date: one thread watches the book and draws the board once per change;
every open page is handed the same drawing.

The watching thread (`Hub._run`) opens the book read-only, waits for a change (store/read/changes.py:
PostgreSQL's NOTIFY, SQLite's data_version), reads a Snapshot (store/read/scoreboard.py) and renders
it (render.py) — the page's body, its server-sent event already encoded, its JSON — then hands
the result to the server's event loop, where every stream waiting for a newer version wakes.
Changes that come while it draws are folded into the next drawing, and a change told of is
first looked for — is the book head another? — at most every PACE seconds: a reader that
floods NOTIFY costs the board one small query a look. A book it cannot read (not there,
another schema, a server gone) is a notice on the page, which says why but not where the book
is, and one line in full on the terminal; it tries again every few seconds and says when the
book is back.
"""

import asyncio
import secrets
import threading
import time
from typing import TYPE_CHECKING, NamedTuple

from .sentences import trouble_words

if TYPE_CHECKING:
    import anyio

    from ..store.read.changes import Watcher
    from ..store.db import Book
    from ..store.read.scoreboard import Scoreboard

WAIT = 1.0          # seconds a wait for a change lasts (then a stop is heeded, a server's absence found)
RETRY = 2.0         # seconds between two tries at a book it cannot read
REDRAW = 60.0       # seconds after which the board is drawn again without a change (tonight's tables age)
RETRY_MS = 1000     # how soon a browser reconnects a dropped stream (the SSE `retry:` field)
PACE = 0.1          # seconds at least between two looks at the book: the changes told meanwhile are one look


class Drawn(NamedTuple):
    """One drawing of the board."""

    version: int
    id: str              # the SSE event id: this server's run and the version
    fragment: str        # the page's body
    event: bytes         # the server-sent event that carries it, encoded once for every stream
    json: bytes
    head: str | None


class Opened(NamedTuple):
    """The book the watching thread reads, and what reads it."""

    book: "Book"
    board: "Scoreboard"
    watcher: "Watcher"


def drawing(renderer, snapshot, notice, version: int, ident: str) -> Drawn:
    """The board drawn from a snapshot (None: none read yet) with a notice (None: all is well):
    every byte a page, a stream or /board.json is then sent of it (pure)."""
    from sse_starlette import ServerSentEvent

    from .render import dumps, snapshot_json

    fragment = renderer.fragment(snapshot, notice)
    event = ServerSentEvent(fragment, event="board", id=ident, retry=RETRY_MS).encode()
    return Drawn(version, ident, fragment, event, dumps(snapshot_json(snapshot, notice)),
                 snapshot.head if snapshot is not None else None)


class Hub:
    def __init__(self, db, tables, renderer, tell=print, poll: float | None = None):
        self.db, self.tables, self.renderer = db, list(tables), renderer
        self.tell, self.say, self.poll = tell, renderer.words.say, poll
        self.run_id = secrets.token_hex(4)
        self.drawn: Drawn | None = None    # the latest drawing (read on the loop)
        self._version = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # set by start(), on the server's loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiter: asyncio.Event | None = None   # set when a newer drawing arrives
        self._closer: asyncio.Task[None] | None = None
        self.closing: anyio.Event | None = None
        self._pages: dict[tuple[int, bool], bytes] = {}   # (version, tv) -> the page's bytes
        self.ready = threading.Event()  # the first drawing is published
        self.looks = 0              # the looks at the book a change told of took (the tests count them)

    # ------------------------------------------------------------ on the server's loop
    def start(self, loop=None) -> None:
        import anyio

        self._loop = loop = loop or asyncio.get_running_loop()
        self._waiter = asyncio.Event()
        # set by sse-starlette when the server stops (every stream's shutdown_event)
        self.closing = closing = anyio.Event()
        self._closer = loop.create_task(self._close_streams(closing))
        self._thread = thread = threading.Thread(target=self._run, name="board-watcher", daemon=True)
        thread.start()

    async def _close_streams(self, closing: "anyio.Event") -> None:
        await closing.wait()
        self._publish(None)  # every stream waiting wakes, and ends

    def stop(self) -> None:
        self._stop.set()
        if self._closer is not None:
            self._closer.cancel()
        if self._thread is not None:
            self._thread.join(timeout=10)

    async def newer(self, than: str | None) -> Drawn | None:
        """The latest drawing once its id is not `than` (at once if it is already another);
        None once the server stops."""
        while True:
            waiter, closing = self._waiter, self.closing
            if waiter is None or closing is None:
                raise RuntimeError("the board's hub is asked for a drawing before it is started")
            if closing.is_set():
                return None
            drawn = self.drawn
            if drawn is not None and drawn.id != than:
                return drawn
            await waiter.wait()

    def page(self, tv: bool) -> bytes:
        """The latest drawing's page (asked for once `newer` has given one)."""
        drawn = self.drawn
        if drawn is None:
            raise RuntimeError("the board's page is asked for before its first drawing")
        key = (drawn.version, tv)
        if key not in self._pages:
            self._pages = {k: v for k, v in self._pages.items() if k[0] == drawn.version}
            self._pages[key] = self.renderer.page(drawn.fragment, tv).encode("utf-8")
        return self._pages[key]

    def _publish(self, drawn: Drawn | None) -> None:
        """A new drawing (None: only wake every stream, the server stopping)."""
        if drawn is not None:
            self.drawn = drawn
        waiter, self._waiter = self._waiter, asyncio.Event()
        if waiter is not None:  # always, once started (start() makes the first)
            waiter.set()

    # ------------------------------------------------------------ the watching thread
    def _draw(self, snapshot, notice) -> None:
        self._version += 1
        drawn = drawing(self.renderer, snapshot, notice, self._version, f"{self.run_id}-{self._version}")
        if self._loop is None:
            raise RuntimeError("the board's hub draws before it is started")
        self._loop.call_soon_threadsafe(self._publish, drawn)
        self.ready.set()

    def _run(self) -> None:
        from ..store.db import BookError

        opened: Opened | None = None
        snapshot = None
        trouble = None   # the notice shown while the book cannot be read
        drawn_at = looked_at = 0.0
        while not self._stop.is_set():
            try:
                if opened is None:
                    opened = self._open()
                book, board, watcher = opened
                changed = watcher.wait(WAIT, self._stop)
                due = trouble is not None or snapshot is None or time.monotonic() - drawn_at > REDRAW
                # told of a change: is there one? (a flood of NOTIFY is not; not `due`: a snapshot was read)
                if changed and snapshot is not None and not due:
                    self._stop.wait(max(0.0, looked_at + PACE - time.monotonic()))
                    looked_at = time.monotonic()
                    changed = board.head() != snapshot.head
                    self.looks += 1
                if changed or due:
                    snapshot = board.snapshot()
                    if trouble is not None:
                        self.tell(self.renderer.words._("board: the book is back; the board is live again"))
                    trouble = None
                    self._draw(snapshot, None)
                    drawn_at = time.monotonic()
            except Exception as exc:  # the book out of reach (BookError), or a fault of the board's own
                said = self.say(exc.args[0] if exc.args else str(exc)) if isinstance(exc, BookError) \
                    else f"{type(exc).__name__}: {exc}"
                if said != trouble:  # said once, in full on the terminal; on the page, not where the book is
                    trouble = said
                    self.tell(self.renderer.words._("board: {problem}; trying again every {seconds} seconds")
                              .format(problem=said, seconds=int(RETRY)))
                    self._draw(snapshot, trouble_words(self.renderer.words, exc, int(RETRY)))
                self._close(opened)
                opened = None
                self._stop.wait(RETRY)
        self._close(opened)

    def _open(self) -> "Opened":
        from ..store.read.changes import watch
        from ..store.read.scoreboard import Scoreboard, open_watched

        book = open_watched(self.db)
        try:
            watcher = watch(book) if self.poll is None else watch(book, self.poll)
        except BaseException:
            book.close()
            raise
        return Opened(book, Scoreboard(book, self.tables), watcher)

    @staticmethod
    def _close(opened: "Opened | None") -> None:
        """Closes the watcher and the book (None: nothing is open)."""
        if opened is None:
            return
        try:
            opened.watcher.close()
        except Exception:
            pass
        opened.book.close()
