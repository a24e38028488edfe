"""The live board served for the tests, in this process: uvicorn on a thread of its own, on a
free port of the loopback, over the real application (desmoche_ref/board/app.py); and a reader
of its server-sent events that keeps every byte it received."""

import http.client
import re
import threading
import time

HEAD = re.compile(r'data-head="([0-9a-f]*)"')


class BoardServer:
    """`desmoche-ref board` as the command builds it, served on 127.0.0.1 (port 0: a free one;
    `start` again serves on the same port)."""

    def __init__(self, db, tables=(), lang="en", limit=300, port=0, refresh=5, cycle=12, address=None,
                 per_address=300, gate=None, entry=False):
        self.db, self.tables, self.lang, self.limit, self.port = db, tables, lang, limit, port
        self.refresh, self.cycle, self.address = refresh, cycle, address
        self.per_address, self.gate = per_address, gate
        self.entry = entry  # `--entry`: the entry's routes (board/entry.py) on the book
        self.told = []  # the lines the board said on the terminal
        self.server = self.thread = None
        self.start()

    def start(self):
        import uvicorn

        from desmoche_ref.board import serve
        from desmoche_ref.board.app import make_app
        from desmoche_ref.board.hub import Hub
        from desmoche_ref.board.render import Renderer

        sock = serve.listen("127.0.0.1", self.port)
        self.port = sock.getsockname()[1]
        qr = serve.qr_svg(self.address) if self.address else None
        renderer = Renderer(self.lang, "test", self.address, qr, refresh=self.refresh, cycle=self.cycle,
                            entry=self.entry)
        self.hub = Hub(self.db, self.tables, renderer, tell=self.told.append, poll=0.005)
        self.entry_app = None
        if self.entry:
            from desmoche_ref.board.entry import Entry
            from desmoche_ref.store.write.desk import Desk

            desk = Desk(self.db)
            desk.open()
            self.entry_app = Entry(desk, self.hub, self.lang, "test", self.tables)
        app = make_app(self.hub, self.limit, "busy: come back later\n", per_address=self.per_address,
                       entry=self.entry_app)
        config = serve.config(app, self.limit, self.gate)
        config.timeout_graceful_shutdown = 1
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._serve, args=(sock,), daemon=True)
        self.thread.start()
        until(lambda: self.server.started, 20)
        return self

    def _serve(self, sock):
        try:
            self.server.run(sockets=[sock])
        finally:
            sock.close()

    def stop(self):
        if self.server is not None:
            hub = self.hub  # as a signal would (sse-starlette sees no signal in a thread): streams end
            if hub._loop is not None and hub.closing is not None and not hub._loop.is_closed():
                hub._loop.call_soon_threadsafe(hub.closing.set)
            self.server.should_exit = True
            self.thread.join(20)
            self.server = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def get(self, path="/", method="GET"):
        """(status, headers {name: value}, body text) of one request."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            conn.request(method, path)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, \
                response.read().decode("utf-8")
        finally:
            conn.close()

    def json(self):
        import json

        status, _headers, body = self.get("/board.json")
        assert status == 200, body
        return json.loads(body)


class Stream:
    """An open page's event stream: every event received, each with its data and the moment it
    arrived, in order."""

    def __init__(self, board: BoardServer):
        self.conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=60)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.events = []     # (name, id, data, monotonic time received)
        self.raw = []        # every line as received
        self.done = threading.Event()
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        name = ident = None
        data = []
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                text = line.decode("utf-8")
                self.raw.append(text)
                text = text.rstrip("\r\n")
                if text == "":
                    if data or name:
                        with self.lock:
                            self.events.append((name, ident, "\n".join(data), time.monotonic()))
                            self.lock.notify_all()
                    name, data = None, []
                elif text.startswith("event: "):
                    name = text[7:]
                elif text.startswith("id: "):
                    ident = text[4:]
                elif text.startswith("data: "):
                    data.append(text[6:])
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed under it
            pass
        finally:
            self.done.set()
            with self.lock:
                self.lock.notify_all()

    def boards(self):
        return [e for e in self.events if e[0] == "board"]

    def wait_for(self, predicate, timeout=10.0):
        """The first board event (name, id, data, when) whose data `predicate` accepts."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for event in self.boards():
                    if predicate(event[2]):
                        return event
                left = deadline - time.monotonic()
                if left <= 0 or self.done.is_set():
                    raise AssertionError(f"no such event in {timeout} s: {[e[2][:200] for e in self.boards()[-3:]]}")
                self.lock.wait(left)

    def wait_head(self, head, timeout=10.0):
        return self.wait_for(lambda data: head_of(data) == head, timeout)

    def close(self):
        try:
            self.conn.sock.shutdown(2)
        except OSError:
            pass
        self.conn.close()


def head_of(text):
    found = HEAD.search(text)
    return found.group(1) if found else None


def until(condition, timeout=10.0, step=0.01):
    """Poll `condition` until it is true (its value), or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not so after {timeout} s")
        time.sleep(step)


def book_head(book):
    """The book head (journal.py) as the book has it now: `book` a URL, or a Book open already."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.trust.journal import head

    opened = open_book(book, readonly=True) if isinstance(book, str) else None
    try:
        with (opened or book).connect() as conn:
            return head(conn)
    finally:
        if opened is not None:
            opened.engine.dispose()
