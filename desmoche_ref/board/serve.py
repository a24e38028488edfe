"""Serving the board: the listening socket, what the terminal says (the address, a QR code for
phones, who can watch), uvicorn held to the board's bounds (gate.py), and a clean stop on
Ctrl-C."""

import socket

LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERYWHERE = ("0.0.0.0", "::", "")
GRACE = 2  # seconds the server gives open streams to close when it stops


def listen(host: str, port: int) -> socket.socket:
    """The board's listening socket (OSError if it cannot have it: the port is taken, …)."""
    family, kind, proto, _name, where = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                            flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restarted board gets its port back
        sock.bind(where)
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def own_addresses() -> list:
    """This computer's addresses on its networks (IPv4, not loopback), found without sending
    anything: its name's addresses, else on Linux the kernel's table of local addresses."""
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM):
            address = info[4][0]  # (host, port) for AF_INET: the host is a str
            if isinstance(address, str):
                found.append(address)
    except OSError:
        pass
    if not [a for a in found if not a.startswith("127.")]:
        found += _linux_local_addresses()
    return list(dict.fromkeys(a for a in found if not a.startswith("127.")))


def _linux_local_addresses() -> list:
    try:
        with open("/proc/net/fib_trie", encoding="ascii") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    out = []
    for before, line in zip(lines, lines[1:]):
        if line.strip() == "/32 host LOCAL":
            out.append(before.split()[-1])
    return out


def url(host: str, port: int, path: str = "/") -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def where_to_open(host: str, port: int) -> tuple:
    """(the address a person opens, whether the whole network can watch): for a board on every
    interface, this computer's first address on its networks (None when none is found)."""
    if host in EVERYWHERE:
        found = own_addresses()
        return (url(found[0], port) if found else None), True
    return url(host, port), host not in LOOPBACK


def qr_text(address: str, stream) -> str:
    """The address as a QR code for a terminal: half blocks where the terminal can show them."""
    import io

    import segno

    out = io.StringIO()
    code = segno.make(address, error="m")
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "█▀▄".encode(encoding)
        code.terminal(out=out, compact=True)
    except (UnicodeEncodeError, LookupError):
        code.terminal(out=out)
    return out.getvalue()


def qr_svg(address: str) -> str:
    """The address as a QR code on the room's screen (an inline SVG: no style, no script)."""
    import segno

    return segno.make(address, error="m").svg_inline(dark="#000", light="#fff", omitsize=True)


def config(app, limit: int, gate=None):
    """uvicorn's configuration of a board of `limit` open pages: its connections held to `gate`
    (gate.py; by default one of the connections this process can keep), uvicorn's own bound
    (limit_concurrency) above them, no log but errors."""
    import uvicorn

    from .gate import BACKLOG, SPARE, Gate, fd_budget, protocol

    gate = gate or Gate(fd_budget(limit))
    return uvicorn.Config(app, log_config=None, log_level="error", access_log=False, lifespan="on",
                          timeout_graceful_shutdown=GRACE, server_header=False, ws="none",
                          http=protocol(gate), limit_concurrency=limit + SPARE, backlog=BACKLOG)


def serve(app, sock: socket.socket, limit: int) -> None:
    """Serve `app` (of `limit` open pages) on `sock` until Ctrl-C (or SIGTERM); returns when
    the server has stopped."""
    import signal

    import uvicorn

    def stopped(_signal, _frame):
        raise KeyboardInterrupt

    server = uvicorn.Server(config(app, limit))
    before = signal.signal(signal.SIGTERM, stopped)  # uvicorn hands SIGTERM on too, once stopped
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly, then hands the Ctrl-C on
        pass
    finally:
        signal.signal(signal.SIGTERM, before)
        sock.close()
