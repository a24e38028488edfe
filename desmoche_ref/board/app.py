"""The board's web application (Starlette, served by uvicorn: serve.py). It only reads:

    GET /              the board (a page that works without JavaScript: it reloads itself)
    GET /tv            the same for the room's screen: large type, tables in turn
    GET /events        server-sent events: the board's body, pushed on every change
    GET /board.json    the board as JSON
    GET /assets/NAME   its style sheets, its script and its icon

No endpoint writes or takes a parameter — but the entry's, when the board is started with
`--entry` (board/entry.py: /entry…, its forms the only ones the page may send). Every response
says the page may load nothing but from the board itself (Content-Security-Policy), and at
most `limit` requests are served at once (an open page's stream is one): past it, a clear 503.
"""

from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from .render import ASSETS, asset

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
ENTRY_CSP = CSP.replace("form-action 'none'", "form-action 'self'")  # with --entry: its forms, to the board


def headers(csp: str = CSP) -> list:
    return [(b"content-security-policy", csp.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]


HEADERS = headers()
TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
HTML = "text/html; charset=utf-8"
SEND_TIMEOUT = 30   # seconds a stream may wait for a page that reads nothing before it is dropped
PING = 15           # seconds between two keep-alive comments on a quiet stream


def make_app(hub, limit: int, busy: str, entry=None):
    """The application over `hub` (hub.py); `busy`: the words of the 503 past `limit`;
    `entry`: the entry's routes (board/entry.py Entry), with `--entry`."""

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
    return Guarded(app, limit, busy, headers(ENTRY_CSP) if entry is not None else HEADERS)


class Guarded:
    """The application with the board's headers on every response and a bound on the requests
    served at once (pure ASGI: it counts a stream for as long as it is open)."""

    def __init__(self, app, limit: int, busy: str, headers=HEADERS):
        self.app, self.limit, self.busy, self.headers = app, limit, busy.encode("utf-8"), headers
        self.open = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_guarded(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + self.headers)
            await send(message)

        if self.open >= self.limit:
            await send_guarded({"type": "http.response.start", "status": 503, "headers": [
                (b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"30"),
                (b"content-length", str(len(self.busy)).encode())]})
            await send({"type": "http.response.body", "body": self.busy})
            return
        self.open += 1
        try:
            await self.app(scope, receive, send_guarded)
        finally:
            self.open -= 1
