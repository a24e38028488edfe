"""The board's connections, held to what a club needs (issue 34): no client can take the board.

uvicorn serves each connection with its HTTP protocol (h11); the board's subclass of it keeps,
for all connections at once (`Gate`):
- a connection that has not sent a whole request head within HEAD_TIMEOUT seconds — after it
  opened, or after its last answer — is closed (slowloris: uvicorn's own keep-alive timer is
  put off by every byte, so a head sent a byte at a time would hold the connection for ever);
- at most PER_ADDRESS connections of one address wait for a head: a new one closes that
  address's oldest waiting one, once it has waited YOUNG seconds (a browser, a crowd behind
  one address, opens several at once: none of them is closed before it could speak);
- at most `budget` connections at all, fewer than uvicorn's `limit_concurrency` (which counts
  idle connections too: past it every request is a 503) and than the process's file
  descriptors: past it a new connection closes the oldest that waits for a head, or, when
  every one is serving a page, the new one itself.
So no number of connections that never finish a head stops a page or /board.json being
served, and the process never runs out of file descriptors (asyncio would log a traceback
for each refused accept). The open pages each address and all addresses may hold are the
application's bound (guard.py).
"""

import time
from typing import Protocol

HEAD_TIMEOUT = 10.0   # seconds a connection may take to send a request's head
PER_ADDRESS = 16      # connections of one address waiting for a head
SPARE = 64            # connections beyond the open pages: a page's, a JSON's request, a 503 said
RESERVED_FDS = 200    # file descriptors kept from connections: the book's, the logs', a burst of accepts
BACKLOG = 64          # connections the listening socket queues, and accepts at a time
YOUNG = 1.0           # seconds a connection has to send its head before another of its address may close it


class Connection(Protocol):
    """What the gate asks of a connection (`protocol`'s Held)."""

    client: tuple[str, int] | None

    def waiting(self) -> bool: ...

    def let_go(self) -> None: ...


class Gate:
    """The connections of one server: `budget` at most, PER_ADDRESS waiting per address."""

    def __init__(self, budget: int, head_timeout: float = HEAD_TIMEOUT, per_address: int = PER_ADDRESS):
        self.budget, self.head_timeout, self.per_address = budget, head_timeout, per_address
        self.open: dict[Connection, tuple[str, float]] = {}  # -> (address, when it opened): every one, oldest first
        self.refused = 0     # connections closed to make room, or for want of it (the tests count them)

    def opened(self, conn) -> bool:
        """A new connection: room made for it; False when there is none (close it)."""
        address = conn.client[0] if conn.client else ""
        now = time.monotonic()
        waiting = [(c, t) for c, (a, t) in self.open.items() if a == address and c.waiting()]
        if len(waiting) >= self.per_address and now - waiting[0][1] >= YOUNG:
            self._close(waiting[0][0])
        if len(self.open) >= self.budget:
            idle = next((c for c in self.open if c.waiting()), None)
            if idle is None:
                self.refused += 1
                return False
            self._close(idle)
        self.open[conn] = (address, now)
        return True

    def closed(self, conn) -> None:
        self.open.pop(conn, None)

    def _close(self, conn) -> None:
        self.refused += 1
        self.open.pop(conn, None)
        conn.let_go()


def fd_budget(limit: int) -> int:
    """The connections a server of `limit` open pages keeps at most: fewer than uvicorn's
    limit_concurrency (limit + SPARE) and than this process's file descriptors (raised to
    their hard limit first)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        except (ValueError, OSError):
            pass
    room = limit + SPARE - 1
    if soft != resource.RLIM_INFINITY:
        room = min(room, soft - RESERVED_FDS)
    return max(room, 8)


def protocol(gate: Gate):
    """uvicorn's h11 protocol, held to `gate`."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Held(H11Protocol):
        _timer = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if not gate.opened(self):
                self.let_go()
                return
            self._arm()

        def let_go(self) -> None:
            """Close the connection, and stop counting it at once (uvicorn's limit_concurrency
            counts its connections until the loop has seen them closed)."""
            self.connections.discard(self)
            self.transport.close()

        def connection_lost(self, exc) -> None:
            gate.closed(self)
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def waiting(self) -> bool:
            """Serving no request: none came yet, or the last was answered."""
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(gate.head_timeout, self._too_slow)

        def _too_slow(self) -> None:
            self._timer = None
            if self.waiting() and not self.transport.is_closing():
                gate.closed(self)
                self.let_go()

    return Held
