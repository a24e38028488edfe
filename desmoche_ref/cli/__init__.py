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
    "play": ("desmoche_ref.cli.play", "play", "Referee a table all night: each move judged and stored as typed."),
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
