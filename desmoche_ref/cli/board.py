"""`desmoche-ref board`: the night live on a screen (desmoche_ref/board/). It reads the book and
writes nothing to it; Starlette, uvicorn and the board's modules are imported here only, when
the command runs."""

import sys

import click

from ..i18n import N_
from .book import db_option
from .lang import Command, _, lang_option, language


@click.command(cls=Command)
@click.option("--table", "tables", multiple=True, metavar=N_("NAME"),
              help=N_("Only this table (repeat for several). Default: every table that changed in the "
                      "last 4 hours (tonight's: a longer pause ends a night)."))
@click.option("--host", default="127.0.0.1", show_default=True, metavar=N_("ADDRESS"),
              help=N_("Where to listen: 127.0.0.1 is this computer only; 0.0.0.0 every network it is on "
                      "(the club's: phones and the TV)."))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help=N_("The port to listen on (0: any free one)."))
@click.option("--allow-host", "names", multiple=True, metavar=N_("NAME"),
              help=N_("Another name the board answers to (repeat for several), e.g. a name the club's "
                      "network gives this computer. It answers to nothing else: the address it serves "
                      "on, this computer's addresses on every network, localhost on this computer."))
@click.option("--max-viewers", type=click.IntRange(min=1), default=300, show_default=True,
              help=N_("Open pages served at once; past it a page is told to come back later (503)."))
@click.option("--max-per-address", type=click.IntRange(min=1), default=20, show_default=True,
              help=N_("Open pages served at once to one address (a phone, the TV): no client takes them all."))
@click.option("--entry", is_flag=True,
              help=N_("Let recorders sign in at /entry and record their table from a phone: with a PIN on a "
                      "SQLite book (`db grant NAME --recorder --pin`), with their own league login on PostgreSQL."))
@db_option
@lang_option
def board(tables, host, port, names, max_viewers, max_per_address, entry, db):
    """Show tonight live in a browser: the club's TV (/tv) and the players' phones.

    For each table in play tonight: the hand it is at (the dealer, the bet, the pots, whose turn
    it is and the card on offer, the melds, each player's number of cards, the top of the
    discard pile, the stock, the latest findings with their rule; void with its reason, a move
    taken back, dealt again), tonight's nets and the settle-up it would make now (a night: the
    hands since the last pause of more than four hours); the season's standings and ratings. The
    TV page is one screen that never scrolls, its parts shown in turn. A move recorded by any
    command (a verb, `play`, `import`) reaches every open page at once.

    It shows only what every player at the table has seen: never a card in a hand, the deal,
    the cambio or the stock. It reads the book and writes nothing to it (a PostgreSQL role
    granted `db grant --reader` is enough), and answers only to the names it was started for.
    A book that cannot be read (missing, of another schema, its server gone) is said on the
    page and here, and the board picks it up again when it is back. Ctrl-C stops it.

    With --entry, each table is also recorded from a phone at /entry: a recorder signs in
    (a PIN the book's owner gave them on SQLite; their own league login on PostgreSQL, the
    moves then written as that role) and enters the hand by taps or by typing its lines;
    the referee answers on the spot, as `play` does. On SQLite the board then writes the
    book, so it runs as the file's owner.

    \b
    Examples:
      desmoche-ref board
      desmoche-ref board --host 0.0.0.0 --port 8000
      desmoche-ref board --host 0.0.0.0 --allow-host tablero.club
      desmoche-ref --lang es board --table norte --table sur
      desmoche-ref board --db postgresql://viewer@server/desmoche --host 0.0.0.0
      desmoche-ref board --entry --host 0.0.0.0 --db club.db
    """
    from importlib.metadata import version

    from ..board import serve
    from ..board.app import make_app
    from ..board.guard import allowed_hosts
    from ..board.hub import Hub
    from ..board.render import Renderer
    from .lang import ngettext

    lang = language()
    try:
        sock = serve.listen(host, port)
    except OSError as e:
        click.echo(_("error: cannot serve the board on {host}:{port}: {reason} (--port picks another "
                     "port, --host another address)").format(host=host, port=port, reason=e.strerror or e), err=True)
        sys.exit(2)
    port = sock.getsockname()[1]
    address, everyone = serve.where_to_open(host, port)
    renderer = Renderer(lang, version("desmoche-ref"), address if everyone else None,
                        serve.qr_svg(address) if everyone and address else None, entry=entry)
    hub = Hub(db, tables, renderer, tell=lambda line: click.echo(line, err=True))
    hosts = allowed_hosts(host, serve.own_addresses(), names)
    desk = _entry(db, hub, lang, tables, sock) if entry else None
    app = make_app(hub, max_viewers, _("The board has as many viewers as it serves at once ({count}), or as "
                                       "it serves to one address ({each}): try again in a moment.").format(
                       count=max_viewers, each=max_per_address) + "\n",
                   hosts, max_per_address, _("This board does not answer to that name.") + "\n", desk)
    _say_where(host, port, address, everyone, ngettext)
    if desk is not None:
        click.echo(_("entry: recorders sign in at {url} ({how}); what a phone sends crosses the network as "
                     "it is (plain HTTP): record on the club's own network").format(
            url=(address or serve.url(host, port)) + "entry",
            how=_("their own league login") if desk.desk.server else _("a PIN: `desmoche-ref db grant NAME "
                                                                         "--recorder --pin`")))
    serve.serve(app, sock, max_viewers)
    click.echo(_("board: stopped"), err=True)


def _entry(db, hub, lang, tables, sock):
    """The entry's routes on the book (`--entry`); exit 2 when it cannot be written."""
    from importlib.metadata import version

    from ..board.entry import Entry
    from ..store.db import BookError
    from ..store.write.desk import Desk
    from .render import say

    desk = Desk(db)
    try:
        desk.open()
    except BookError as e:
        sock.close()
        click.echo(_("error: {message}").format(message=say(e.args[0])), err=True)
        sys.exit(2)
    return Entry(desk, hub, lang, version("desmoche-ref"), tables)


def _say_where(host, port, address, everyone, ngettext) -> None:
    """Where to open the board, and who can."""
    from ..board import serve

    if not everyone:
        click.echo(_("board: {url} (the room's screen: {tv}); this computer only (--host 0.0.0.0 shows "
                     "it on the club's network); Ctrl-C stops it").format(url=address, tv=address + "tv"))
        return
    if address is None:
        click.echo(_("board: listening on port {port} of every network of this computer: open "
                     "http://THIS-COMPUTER'S-ADDRESS:{port}/ (and /tv on the room's screen)").format(port=port))
    else:
        click.echo(_("board: {url} on a phone (or scan the code below), {tv} on the room's screen")
                   .format(url=address, tv=address + "tv"))
        click.echo(serve.qr_text(address, sys.stdout), nl=False)
    click.echo(_("warning: anyone on this network can watch the board (it shows no hidden card and "
                 "changes nothing in the book); Ctrl-C stops it"))
