"""What every request to the board goes through, whatever its route (issue 34): the board's
headers on every answer, the names it answers to, and how many pages are open at once.

- **Its names** (a Host allow-list): the board answers only a request that names it as it was
  started — the address given to --host, this computer's own addresses when it serves every
  network, `localhost` and the loopback addresses when it serves this computer, each name
  given to --allow-host. A page elsewhere on the internet that makes a browser here ask for
  it by another name (DNS rebinding: evil.example resolved to 127.0.0.1) is answered 421 and
  nothing else.
- **Open pages** (a page's stream is one for as long as it is open; every request is one while
  it is served): at most `limit` at once, and at most `per_address` of one address; past
  either, a clear 503 that says to come back later.
Pure ASGI, around the whole application: a route added later (an entry page beside a table's
view) is held to all of it without a word of its own.
"""

import ipaddress

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
ENTRY_CSP = CSP.replace("form-action 'none'", "form-action 'self'")  # `--entry`: its forms, to the board


def headers(csp: str = CSP) -> list:
    """The headers on every answer, with the Content-Security-Policy `csp`."""
    return [(b"content-security-policy", csp.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]


HEADERS = headers()
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def host_of(value: str) -> str:
    """The name a Host header gives (its port left off, IPv6 brackets off, lower case, no final dot)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def allowed_hosts(host: str, own: list, extra=()) -> frozenset:
    """The names a board started on `host` answers to: that address (every network: this
    computer's addresses `own`), the loopback names on this computer, and `extra`."""
    names = {host_of(n) for n in extra}
    wildcard = host in ("0.0.0.0", "::", "")
    names |= {host_of(a) for a in own} if wildcard else {host_of(host)}
    try:
        loopback = wildcard or host == "localhost" or ipaddress.ip_address(host_of(host)).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        names |= set(LOOPBACK_NAMES)
    return frozenset(names)


class Guard:
    """The application behind the board's names, headers and bounds (the module's)."""

    def __init__(self, app, hosts, limit: int, per_address: int, busy: str, misdirected: str, headers=HEADERS):
        self.app, self.hosts, self.limit, self.per_address = app, frozenset(hosts), limit, per_address
        self.headers = headers
        self.busy, self.misdirected = busy.encode("utf-8"), misdirected.encode("utf-8")
        self.open = 0
        self.by_address: dict[str, int] = {}   # address -> its connections open

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_guarded(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + self.headers)
            await send(message)

        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if host is None or host_of(host) not in self.hosts:
            return await _say(send_guarded, 421, self.misdirected)
        address = (scope.get("client") or ("",))[0]
        if self.open >= self.limit or self.by_address.get(address, 0) >= self.per_address:
            return await _say(send_guarded, 503, self.busy, [(b"retry-after", b"30")])
        self.open += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        try:
            await self.app(scope, receive, send_guarded)
        finally:
            self.open -= 1
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


async def _say(send, status: int, body: bytes, headers=()):
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        *headers]})
    await send({"type": "http.response.body", "body": body})
