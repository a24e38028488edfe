"""The board's web application (Starlette, served by uvicorn: serve.py). It only reads:

    GET /              the board (a page that works without JavaScript: it reloads itself)
    GET /tv            the same for the room's screen: large type, tables in turn
    GET /events        server-sent events: the board's body, pushed on every change
    GET /board.json    the board as JSON
    GET /assets/NAME   its style sheets, its script and its icon

No endpoint writes or takes a parameter — but the entry's, when the board is started with
`--entry` (board/entry.py: /entry…, whose forms are the only ones a page may send). Every
request goes through guard.py first: the names the board answers to, the board's headers on
every answer (the strict Content-Security-Policy: nothing loads but from the board itself),
the bound on the pages open at once, of all and of one address (an open page's stream is
one); past it, a clear 503.
"""

from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from .guard import ENTRY_CSP, HEADERS, LOOPBACK_NAMES, Guard, headers
from .render import ASSETS, asset

TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
HTML = "text/html; charset=utf-8"
SEND_TIMEOUT = 30   # seconds a stream may wait for a page that reads nothing before it is dropped
PING = 15           # seconds between two keep-alive comments on a quiet stream


PER_ADDRESS = 20     # open pages of one address, by default (guard.py)


def make_app(hub, limit: int, busy: str, hosts=LOOPBACK_NAMES, per_address: int = PER_ADDRESS,
             misdirected: str = "misdirected request: this board does not answer to that name\n", entry=None):
    """The application over `hub` (hub.py), answering to the names `hosts` (guard.py);
    `busy`: the words of the 503 past `limit` open pages, or `per_address` of one address;
    `misdirected`: of the 421 to a request for another name; `entry`: the entry's routes
    (board/entry.py Entry), with `--entry`, held to all of it."""

    async def page(request, tv=False):
        if await hub.newer(None) is None:  # the first drawing (at once once there is one), unless stopping
            return Response(busy, status_code=503, media_type="text/plain; charset=utf-8")
        return Response(hub.page(tv), media_type=HTML, headers={"cache-control": "no-store"})

    async def tv(request):
        return await page(request, tv=True)

    async def board_json(request):
        drawn = await hub.newer(None)
        if drawn is None:
            return Response(busy, status_code=503, media_type="text/plain; charset=utf-8")
        return Response(drawn.json, media_type="application/json", headers={"cache-control": "no-store"})

    async def events(request):
        from sse_starlette import EventSourceResponse

        async def stream():
            seen = request.headers.get("last-event-id")
            while True:
                drawn = await hub.newer(seen)
                if drawn is None:  # the server stops: the stream ends as a stream should
                    return
                seen = drawn.id
                yield drawn.event

        return EventSourceResponse(stream(), ping=PING, send_timeout=SEND_TIMEOUT, shutdown_event=hub.closing,
                                   shutdown_grace_period=1)

    async def assets(request):
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found\n", status_code=404, media_type="text/plain; charset=utf-8")
        kind = TYPES[name[name.rindex("."):]]
        return Response(asset(name), media_type=kind, headers={"cache-control": "no-cache"})

    async def no_icon(request):
        return Response(status_code=204)

    async def lifespan(app):
        hub.start()
        try:
            yield
        finally:
            hub.stop()
            if entry is not None:
                entry.close()

    from contextlib import asynccontextmanager

    app = Starlette(routes=[Route("/", page), Route("/tv", tv), Route("/events", events),
                            Route("/board.json", board_json), Route("/assets/{name}", assets),
                            Route("/favicon.ico", no_icon)] + (entry.routes() if entry is not None else []),
                    lifespan=asynccontextmanager(lifespan))
    return Guard(app, hosts, limit, per_address, busy, misdirected,
                 headers(ENTRY_CSP) if entry is not None else HEADERS)
