"""The `desmoche-ref` command line: a thin shell over the pure core.

Each command lives in its own module and is imported only when it runs, so that
start-up stays fast (a person types one command per move).
"""

import importlib

import click

# command name -> (module, attribute, one-line help shown by --help)
COMMANDS = {
    "check": ("desmoche_ref.cli.check", "check", "Replay hand records and report the referee's verdict."),
    "fmt": ("desmoche_ref.cli.fmt", "fmt", "Rewrite hand records in the canonical form (N7)."),
    "show": ("desmoche_ref.cli.show", "show", "Show the table as it stood after a line of a record."),
    "simulate": ("desmoche_ref.cli.simulate", "simulate", "Write a session of bot-played hands."),
    "view": ("desmoche_ref.cli.show", "show", "Show the table as it stood after a line of a record."),
    "db": ("desmoche_ref.cli.db", "db", "The book: where it is (path), its schema (upgrade, check)."),
    "table": ("desmoche_ref.cli.table", "table", "The tables of the book: new, list, use, bet, close."),
    "hand": ("desmoche_ref.cli.hand", "hand", "Start a hand, show the table now, list its moves."),
    "cut": ("desmoche_ref.cli.moves", "cut_command", "Record a cut (R3.2)."),
    "deal": ("desmoche_ref.cli.moves", "deal_command", "Record cards dealt to a player."),
    "return": ("desmoche_ref.cli.moves", "return_command", "Record a card returned to the stock."),
    "announce": ("desmoche_ref.cli.moves", "announce_command", "Record a side-game claim."),
    "cambio": ("desmoche_ref.cli.moves", "cambio_command", "Record a cambio pass."),
    "declare": ("desmoche_ref.cli.moves", "declare_command", "Record an automatic-win declaration."),
    "draw": ("desmoche_ref.cli.moves", "draw_command", "Record a draw from the stock."),
    "claim": ("desmoche_ref.cli.moves", "claim_command", "Record a claim on the card on offer."),
    "knock": ("desmoche_ref.cli.moves", "knock_command", "Record a knock (the card is let go)."),
    "meld": ("desmoche_ref.cli.moves", "meld_command", "Record a new meld."),
    "add": ("desmoche_ref.cli.moves", "add_command", "Record cards added to a meld."),
    "pay": ("desmoche_ref.cli.moves", "pay_command", "Record a card paid (discarded)."),
    "pass": ("desmoche_ref.cli.moves", "pass_command", "Record a player passing for the hand."),
    "show": ("desmoche_ref.cli.moves", "show_command", "Record cards shown (`show FILE` still views a record)."),
    "foul": ("desmoche_ref.cli.moves", "foul_command", "Record a foul the table saw."),
    "forgive": ("desmoche_ref.cli.moves", "forgive_command", "Record the table forgiving a foul."),
    "end": ("desmoche_ref.cli.moves", "end_command", "Record the end of the hand and settle it."),
    "rec": ("desmoche_ref.cli.moves", "rec", "Record one raw notation line."),
    "undo": ("desmoche_ref.cli.moves", "undo", "Take back the last move of the hand."),
    "verify": ("desmoche_ref.cli.verify", "verify", "Check the book: hash chains, verdicts, postings."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, help_text) for name, (_, _, help_text) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="desmoche-ref")
def main():
    """desmoche-ref: the referee and scorebook for Desmoche.

    \b
    Examples:
      desmoche-ref check sample_logs/friday.dsm
      desmoche-ref check --json sample_logs/*.dsm
      desmoche-ref show sample_logs/friday.dsm --at 25
      desmoche-ref fmt --check sample_logs/*.dsm
    """
