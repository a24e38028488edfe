"""The `desmoche-ref` command line: a thin shell over the pure core.

Each command lives in its own module and is imported only when it runs, so that
start-up stays fast (a person types one command per move).
"""

import importlib

import click

from ..i18n import N_
from .book import group_db_option
from .lang import Group, _, as_written, lang_option

# command name -> (module, attribute, one-line help shown by --help, marked N_ for the catalog)
COMMANDS = {
    "check": ("desmoche_ref.cli.check", "check", N_("Replay hand records and report the referee's verdict.")),
    "fmt": ("desmoche_ref.cli.fmt", "fmt", N_("Rewrite hand records in the canonical form (N7).")),
    "view": ("desmoche_ref.cli.view", "view", N_("Show the table as it stood after a line of a record.")),
    "rules": ("desmoche_ref.cli.rules", "rules", N_("Look up a rule of the rulebook by its code or a word.")),
    "simulate": ("desmoche_ref.cli.simulate", "simulate", N_("Write a session of bot-played hands.")),
    "import": ("desmoche_ref.cli.league", "import_", N_("Judge hand records and store their valid hands in the book.")),
    "export": ("desmoche_ref.cli.league", "export", N_("Write the book's hands as canonical .dsm records.")),
    "standings": ("desmoche_ref.cli.league", "standings", N_("The league table: wins, bonuses, fouls, nets.")),
    "ratings": ("desmoche_ref.cli.ratings", "ratings",
                N_("Who plays best: a skill rating per player, from the hands in order.")),
    "player": ("desmoche_ref.cli.ratings", "player",
               N_("A player's record: wins by kind, bonuses, fouls, side games, nights, rating.")),
    "ledger": ("desmoche_ref.cli.league", "ledger", N_("The postings behind every balance.")),
    "settle-up": ("desmoche_ref.cli.league", "settle_up", N_("Who pays whom to clear the balances.")),
    "db": ("desmoche_ref.cli.db", "db",
           N_("The book: where it is (path), its schema (upgrade, check), who may use it (grant, revoke, roles).")),
    "table": ("desmoche_ref.cli.table", "table", N_("The tables of the book: new, list, use, bet, close, reopen.")),
    "hand": ("desmoche_ref.cli.hand", "hand", N_("Start a hand, show the table now, list its moves, void a hand.")),
    "cut": ("desmoche_ref.cli.moves", "cut_command", N_("Record a cut (R3.2).")),
    "deal": ("desmoche_ref.cli.moves", "deal_command", N_("Record cards dealt to a player.")),
    "return": ("desmoche_ref.cli.moves", "return_command", N_("Record a card returned to the stock.")),
    "announce": ("desmoche_ref.cli.moves", "announce_command", N_("Record a side-game claim.")),
    "cambio": ("desmoche_ref.cli.moves", "cambio_command", N_("Record a cambio pass.")),
    "declare": ("desmoche_ref.cli.moves", "declare_command", N_("Record an automatic-win declaration.")),
    "draw": ("desmoche_ref.cli.moves", "draw_command", N_("Record a draw from the stock.")),
    "claim": ("desmoche_ref.cli.moves", "claim_command", N_("Record a claim on the card on offer.")),
    "knock": ("desmoche_ref.cli.moves", "knock_command", N_("Record a knock (the card is let go).")),
    "meld": ("desmoche_ref.cli.moves", "meld_command", N_("Record a new meld.")),
    "add": ("desmoche_ref.cli.moves", "add_command", N_("Record cards added to a meld.")),
    "pay": ("desmoche_ref.cli.moves", "pay_command", N_("Record a card paid (discarded).")),
    "pass": ("desmoche_ref.cli.moves", "pass_command", N_("Record a player passing for the hand.")),
    "show": ("desmoche_ref.cli.moves", "show_command",
             N_("Record cards shown (side-game cards still in hand at the end).")),
    "foul": ("desmoche_ref.cli.moves", "foul_command", N_("Record a foul the table saw.")),
    "forgive": ("desmoche_ref.cli.moves", "forgive_command", N_("Record the table forgiving a foul.")),
    "end": ("desmoche_ref.cli.moves", "end_command", N_("Record the end of the hand and settle it.")),
    "rec": ("desmoche_ref.cli.moves", "rec", N_("Record one raw notation line.")),
    "undo": ("desmoche_ref.cli.moves", "undo", N_("Take back the last move of the hand.")),
    "verify": ("desmoche_ref.cli.verify", "verify", N_("Check the book: hash chains, verdicts, postings.")),
    "play": ("desmoche_ref.cli.play", "play", N_("Referee a table all night: each move judged and stored as typed.")),
    "report": ("desmoche_ref.cli.report", "report",
               N_("Write the book as pages: season, nights, hands with a replay, players.")),
    "board": ("desmoche_ref.cli.board", "board",
              N_("Show the night live in a browser: the club's TV and the players' phones.")),
}


class LazyGroup(Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            name = spanish_verb(name)  # `desmoche-ref robar Beto 2d` is `draw` (N4.10), `deshacer` `undo`
            if name is None:
                return None
        module, attr, _help = COMMANDS[name]
        with as_written():  # a module declaring its commands in a Spanish run: see as_written
            return getattr(importlib.import_module(module), attr)

    def resolve_command(self, ctx, args):
        name = args[0]
        if name not in COMMANDS and not name.startswith("-") and not spanish_verb(name):
            from ..limits import closest
            from ..notation.parser import SPANISH_VERBS

            close = closest(name, list(COMMANDS) + list(SPANISH_VERBS) + list(SPANISH_COMMANDS))  # either language
            if close:
                ctx.fail(_("No such command '{name}'. Did you mean '{close}'? (commands: {commands})").format(
                    name=name, close=close, commands=", ".join(COMMANDS)))
            ctx.fail(_("No such command '{name}'. (commands: {commands})").format(
                name=name, commands=", ".join(COMMANDS)))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx, formatter):
        rows = [(name, _(entry[2])) for name, entry in COMMANDS.items()]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


SPANISH_COMMANDS = {"deshacer": "undo"}  # a session command's Spanish name that is a command here too


def spanish_verb(name: str):
    """The command a Spanish word names: a verb of the notation (N4.10: `robar` is `draw`), or
    the table session's `deshacer` (`undo`, as in `play`); else None."""
    from ..notation.parser import SPANISH_VERBS

    return SPANISH_VERBS.get(name) or SPANISH_COMMANDS.get(name)


def _show_version(ctx, param, value):
    """--version, as click's version_option prints it, in the language of the run (click's
    fixes its words when the group is declared)."""
    if value and not ctx.resilient_parsing:
        from importlib.metadata import version

        click.echo(_("%(prog)s, version %(version)s") % {"prog": ctx.find_root().info_name,
                                                          "version": version("desmoche-ref")})
        ctx.exit()


@click.group(cls=LazyGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help=N_("Show the version and exit."))
@group_db_option
@lang_option
@click.pass_context
def main(ctx):
    """desmoche-ref: the referee and scorebook for Desmoche.

    In Spanish with --lang es, DESMOCHE_LANG=es or a Spanish locale (LANG=es_NI.UTF-8);
    records may use the Spanish verbs (robar, bajar, pagar…) as well as the English ones.

    \b
    Examples:
      desmoche-ref check sample_logs/friday.dsm
      desmoche-ref check --json sample_logs/*.dsm
      desmoche-ref view sample_logs/friday.dsm --at 25
      desmoche-ref rules R9.1
      desmoche-ref fmt sample_logs/friday.dsm
      desmoche-ref --db club.db import sample_logs/club-night.dsm
      desmoche-ref --db club.db standings
    """
    if ctx.invoked_subcommand is None:  # bare `desmoche-ref`: the help, and no error
        click.echo(ctx.get_help())
