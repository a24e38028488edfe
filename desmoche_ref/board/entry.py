"""The board's entry (issue 36, `desmoche-ref board --entry`): each table recorded from a phone.

    GET  /entry                the sign-in, or the tables to record once signed in
    POST /entry/signin         a name and its PIN (SQLite), a login and its password (PostgreSQL)
    POST /entry/signout
    GET  /entry/table?t=NAME   a table's entry page (&line=WORDS: the line built so far, by taps)
    POST /entry/table?t=NAME   a line, `undo`, a new hand, a void, the table's close
    GET  /entry/part?t=NAME    the page's part, fetched again when the book changes (204: as shown)
    GET  /entry/suggest?t=NAME&text=TEXT   the text field's suggestions (JSON)
    GET  /entry/events         a server-sent event each time the book changes
    GET  /entry/assets/NAME    its style sheet and its script

The desk below it (store/write/desk.py) signs recorders in and stores what they send through the
scorebook service; this module holds the web's part of the promise (docs/security.md):
- the session cookie holds a random token only, HttpOnly and SameSite=Strict, for /entry;
  a session ends on signing out, after 12 hours, or when its recorder may no longer record;
- every form carries a CSRF token (the session's; before signing in, one paired with a
  cookie of its own), and a POST that names another site as its Origin is refused: 403,
  nothing read, nothing stored;
- a name and an address may fail to sign in a few times a minute (board/sessions.py), then
  wait, and are told how long (429);
- it answers only under the board's own names (its Host allow-list, around every route).
"""

import secrets
from urllib.parse import parse_qs, quote

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from .. import choices
from ..findings import M
from .entrypage import ASSETS, TEMPLATES, EntryPages
from .entrysaid import Said, refusal_lines, said_of
from .sessions import HOURS, Sessions, Throttle

COOKIE = "dsm_entry"       # the session's token
FORM_COOKIE = "dsm_form"   # the sign-in form's token, before there is a session
MAX_FORM = 16 * 1024       # bytes a form may hold
HTML = "text/html; charset=utf-8"
NO_STORE = {"cache-control": "no-store"}


class Entry:
    """The entry routes of one board: `desk` (store/write/desk.py) on its book, `hub` its changes."""

    def __init__(self, desk, hub, lang: str, version: str = "", tables=()):
        self.desk, self.hub = desk, hub
        self.pages = EntryPages(lang, version, desk.server)
        self.words = self.pages.words
        self.sessions, self.throttle = Sessions(), Throttle()
        self.tables = list(tables)

    def routes(self) -> list:
        return [Route("/entry", self.home), Route("/entry/signin", self.sign_in, methods=["POST"]),
                Route("/entry/signout", self.sign_out, methods=["POST"]),
                Route("/entry/table", self.table, methods=["GET", "POST"]),
                Route("/entry/part", self.part), Route("/entry/suggest", self.suggest),
                Route("/entry/events", self.events), Route("/entry/assets/{name}", self.asset)]

    def close(self) -> None:
        self.sessions.end_all()
        self.desk.close()

    # ------------------------------------------------------------ signing in and out
    async def home(self, request):
        session = self._session(request)
        if session is None:
            return self._sign_in_page(request)
        said, session.said = session.said, None
        names = self.tables or await run_in_threadpool(self.desk.table_names, session.recorder)
        return _html(self.pages.tables(session, names, said))

    def _sign_in_page(self, request, said=None, name: str = "", status: int = 200):
        token = request.cookies.get(FORM_COOKIE) or secrets.token_urlsafe(32)
        response = _html(self.pages.sign_in(token, said, name), status)
        _cookie(response, FORM_COOKIE, token, 3600)
        return response

    async def sign_in(self, request):
        form = await _form(request)
        if not _same_origin(request) or not _paired(request.cookies.get(FORM_COOKIE), form.get("csrf")):
            return self._forbidden()
        name, secret = form.get("name", "").strip(), form.get("secret", "")
        address = request.client.host if request.client else ""
        wait = self.throttle.wait(name, address)
        if wait:
            said = self.words.say(M("too many tries to sign in as {name} or from this phone: wait {seconds} "
                                    "seconds (nothing was checked)", name=name, seconds=wait))
            return self._sign_in_page(request, said, name, 429)
        from ..store.trust.signin import SignInRefused

        try:
            recorder = await run_in_threadpool(self.desk.sign_in, name, secret)
        except SignInRefused as refused:
            self.throttle.failed(name, address)
            return self._sign_in_page(request, self.words.say(refused.args[0]), name, 403)
        except Exception as exc:  # noqa: BLE001 - the book out of reach: said, nothing kept
            return self._sign_in_page(request, self._said(exc), name, 503)
        session = self.sessions.start(recorder)
        response = RedirectResponse("/entry", status_code=303)
        _cookie(response, COOKIE, session.token, HOURS * 3600)
        response.delete_cookie(FORM_COOKIE, path="/entry", httponly=True, samesite="strict")
        return response

    async def sign_out(self, request):
        form = await _form(request)
        session = self._session(request)
        if session is not None:
            if not _same_origin(request) or not session.form_ok(form.get("csrf")):
                return self._forbidden()
            await run_in_threadpool(self.sessions.end, session)
        response = RedirectResponse("/entry", status_code=303)
        response.delete_cookie(COOKIE, path="/entry", httponly=True, samesite="strict")
        return response

    def _session(self, request):
        return self.sessions.get(request.cookies.get(COOKIE))

    def _forbidden(self):
        return Response(self.words.say(M("refused: this form is not one the board gave this page (its CSRF "
                                         "token is missing or wrong): nothing stored; open the page again")) + "\n",
                        status_code=403, media_type="text/plain; charset=utf-8", headers=NO_STORE)

    # ------------------------------------------------------------ a table
    async def table(self, request):
        session = self._session(request)
        if session is None:
            return RedirectResponse("/entry", status_code=303)
        name = request.query_params.get("t", "")
        if request.method == "POST":
            return await self._submit(request, session, name)
        return await self._show(session, name, request.query_params.get("line", ""), whole=True)

    async def _show(self, session, name: str, typed: str, whole: bool, seen: str | None = None):
        from ..store.write.desk import SignedOut

        if self.tables and name not in self.tables:
            said = self.words.say(M("there is no table {name!r} on this board", name=name))
            return _html(self.pages.problem(session, said), 404)
        try:
            now = await run_in_threadpool(self.desk.now, session.recorder, name)
        except SignedOut as out:
            return self._signed_out(session, out)
        except Exception as exc:  # noqa: BLE001 - an unknown table, the book out of reach
            return _html(self.pages.problem(session, self._said(exc)), 404)
        if seen is not None and seen == f"{now.seen.number}-{now.seen.seq}":
            return Response(status_code=204, headers=NO_STORE)
        key = secrets.token_urlsafe(16)
        page = self.pages.table(now, typed, session, key) if whole else self.pages.part(now, typed, session, key)
        return _html(page)

    async def part(self, request):
        session = self._session(request)
        if session is None:
            return Response(status_code=401, headers=NO_STORE)
        q = request.query_params
        return await self._show(session, q.get("t", ""), q.get("line", ""), whole=False, seen=q.get("seen"))

    async def suggest(self, request):
        session = self._session(request)
        if session is None:
            return Response(status_code=401, headers=NO_STORE)
        try:
            now = await run_in_threadpool(self.desk.now, session.recorder, request.query_params.get("t", ""))
        except Exception:  # noqa: BLE001 - nothing to suggest
            return JSONResponse([], headers=NO_STORE)
        ref = now.hand.ref if now.hand is not None else None
        return JSONResponse(self.pages.suggestions(ref, request.query_params.get("text", "")[:200]),
                            headers=NO_STORE)

    async def _submit(self, request, session, name: str):
        form = await _form(request)
        if not _same_origin(request) or not session.form_ok(form.get("csrf")):
            return self._forbidden()
        from ..store.write.desk import Seen, SignedOut

        what = form.get("action", "")
        arg = {"line": choices.long_form(form.get("line", "")), "new": form.get("dealer"),
               "void": form.get("reason")}.get(what)
        try:
            seen = Seen(int(form.get("number", "")), int(form.get("seq", "")))
        except ValueError:
            return self._forbidden()
        if what == "close" and form.get("confirm") != "yes":
            session.said = Said("refused", [self.words.say(M("tick the box to confirm that the table breaks up: "
                                                             "nothing was done"))])
            return _back(name)
        try:
            done = await run_in_threadpool(self.desk.send, session.recorder, name, seen, form.get("key", ""),
                                           what, arg)
        except SignedOut as out:
            return self._signed_out(session, out)
        except Exception as exc:  # noqa: BLE001 - refused by the rules, the book, or a race
            session.said = Said("refused", self._refusal(exc))
        else:
            session.said = said_of(self.words, done)
        return _back(name)

    def _signed_out(self, session, out):
        self.sessions.end(session)
        response = self._sign_in_page_plain(self.words.say(out.args[0]))
        response.delete_cookie(COOKIE, path="/entry", httponly=True, samesite="strict")
        return response

    def _sign_in_page_plain(self, said):
        token = secrets.token_urlsafe(32)
        response = _html(self.pages.sign_in(token, said), 403)
        _cookie(response, FORM_COOKIE, token, 3600)
        return response

    def _refusal(self, exc) -> list:
        lines = refusal_lines(self.words, exc)
        return lines if lines is not None else [self._failure(exc)]

    def _failure(self, exc) -> str:
        """A write the book refused or could not take: its reason, and that nothing was stored."""
        return self.words._("{message} (nothing stored)").format(message=self._said(exc))

    def _said(self, exc) -> str:
        """The book's reason (a BookError, a StoreError) in the board's language; another
        failure is the board's own fault: raised."""
        from ..store.db import BookError
        from ..store.schema.terms import StoreError

        if isinstance(exc, (BookError, StoreError)):
            return self.words.say(exc.args[0])
        raise exc

    # ------------------------------------------------------------ the book's changes, the assets
    async def events(self, request):
        from sse_starlette import EventSourceResponse, ServerSentEvent

        if self._session(request) is None:
            return Response(status_code=401, headers=NO_STORE)
        hub = self.hub

        async def stream():
            seen = (await hub.newer(None) or _Gone).id
            while True:
                drawn = await hub.newer(seen)
                if drawn is None:
                    return
                seen = drawn.id
                yield ServerSentEvent(drawn.head or "", event="changed", id=drawn.id)

        return EventSourceResponse(stream(), ping=15, send_timeout=30, shutdown_event=hub.closing,
                                   shutdown_grace_period=1)

    async def asset(self, request):
        import os

        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found\n", status_code=404, media_type="text/plain; charset=utf-8")
        kind = "text/css; charset=utf-8" if name.endswith(".css") else "text/javascript; charset=utf-8"
        with open(os.path.join(TEMPLATES, name), "rb") as f:
            return Response(f.read(), media_type=kind, headers={"cache-control": "no-cache"})


class _Gone:
    id = None


def _html(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type=HTML, headers=NO_STORE)


def _back(name: str):
    """After a form, the page again (its answer shown once): a reload sends nothing twice."""
    return RedirectResponse("/entry/table?t=" + quote(name, safe=""), status_code=303)


def _cookie(response, name: str, value: str, seconds: float) -> None:
    response.set_cookie(name, value, max_age=int(seconds), path="/entry", httponly=True, samesite="strict")


def _paired(cookie: str | None, sent: str | None) -> bool:
    import hmac

    if not cookie or not sent:
        return False
    return hmac.compare_digest(cookie.encode(), sent.encode())


def _same_origin(request) -> bool:
    """A POST that names its origin names the board's own (the Host it was sent to). None, or
    `null` (what a browser sends under the board's Referrer-Policy: no-referrer), says
    nothing: the CSRF token decides."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    from urllib.parse import urlsplit

    return urlsplit(origin).netloc.lower() == request.headers.get("host", "").lower()


async def _form(request) -> dict:
    """An url-encoded form's fields (the first value of each), at most MAX_FORM bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return {}
    fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in fields.items()}
