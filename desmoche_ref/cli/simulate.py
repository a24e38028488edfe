"""`desmoche-ref simulate`: write a session of bot-played hands (issue 4)."""

import sys

import click

from ..i18n import N_
from .files import OutputRefused, check_output, write_output
from .lang import Command, _, lang_option
from .render import say

MOST_HANDS = 100_000  # the session is built in memory (~1.5 KB a hand) before it is written


@click.command(cls=Command)
@click.option("--hands", "-n", type=click.IntRange(min=1, max=MOST_HANDS), required=True,
              help=N_("How many consecutive hands to play (at most 100,000: the session is written whole)."))
@click.option("--players", "-p", type=click.IntRange(2, 4), default=3, show_default=True,
              help=N_("Players at the table (2, 3 or 4)."))
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help=N_("Random seed: the same seed writes the same session."))
@click.option("--options", "options", metavar=N_("TEXT"), default=None,
              help=N_('Fix the Options tag of every hand, e.g. "todo strict" (R15); '
                      "the rest still varies."))
@click.option("--plain", is_flag=True,
              help=N_("Play every hand by the defaults: no fouls, no closed records, "
                      "no varied presets or options."))
@click.option("--skill", "skills", multiple=True, metavar=N_("NAME=LEVEL"),
              help=N_("A weaker bot (repeat for several): LEVEL from 0, a random legal move each time, "
                      "to 1, the bots at their best (the default): a weaker bot misjudges takes, pays, "
                      "the cambio and side-game claims that much more often."))
@click.option("--out", "-o", "out", metavar=N_("FILE"), default=None,
              help=N_("Write the session to FILE instead of standard output."))
@click.option("--force", is_flag=True, help=N_("Write over FILE if it exists."))
@lang_option
def simulate(hands, players, seed, options, plain, skills, out, force):
    """Write a session of bot-played hands as a .dsm record.

    The hands follow each other at one table: the dealer rotates (R3.1) and pots
    carry (R2.3, R4.6). By default the presets and every table option of R15 vary
    across hands, with fouls (some forgiven), contested claims and a few closed
    records, so that the referee has every rule to judge. The bots choose among
    the moves the referee allows: every line is judged as it is written.

    `--skill NAME=LEVEL` makes a player's bot weaker, to test that the ratings find the
    best player (`desmoche-ref ratings`). The players are Ana, Beto, Carla and Dani, as many
    as --players seats; every bot at level 1 plays exactly the session it always played.

    `--out FILE` is written whole or not at all, with the mode the umask gives a new
    file; an existing FILE only with --force, and never a SQLite database (a book).

    \b
    Examples:
      desmoche-ref simulate --hands 20
      desmoche-ref simulate --hands 1000 --players 4 --seed 7 --out night.dsm
      desmoche-ref simulate --hands 50 --options "todo forcing" | desmoche-ref check -
      desmoche-ref simulate --hands 2000 --players 4 --skill Beto=0.6 --skill Dani=0.2 -o season.dsm
    """
    from ..options import parse_options
    from ..simulate import simulate_session

    if options is not None:
        for preset in ("desmoche", "conquien"):
            reason = parse_options(preset, options)[1]
            if reason:
                raise click.BadParameter(say(reason), param_hint="--options")
    skill = _skills(skills, players)
    if out is not None:
        _refused(check_output, out, force)  # before the hands are played
    if sys.stderr.isatty():
        with click.progressbar(length=hands, label=_("Simulating"), file=sys.stderr) as bar:
            text = simulate_session(hands, players, seed, options, vary=not plain,
                                    progress=bar.update, skill=skill)
    else:
        text = simulate_session(hands, players, seed, options, vary=not plain, skill=skill)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        _refused(write_output, out, text, force)
    except OSError as e:
        raise click.ClickException(_("cannot write {path}: {reason}").format(path=out, reason=e.strerror or e))


def _skills(given, players: int) -> dict:
    """{name: level} from the --skill options; a bad one is click's usage error (exit 2)."""
    from ..simulate import NAMES

    seated = NAMES[:players]
    out = {}
    for item in given:
        name, _sep, level = item.partition("=")
        try:
            value = float(level)
        except ValueError:
            value = None
        if value is None or not 0 <= value <= 1:
            raise click.BadParameter(_("{item!r}: LEVEL is a number from 0 to 1").format(item=item),
                                     param_hint="--skill")
        if name not in seated:
            raise click.BadParameter(_("{item!r}: {name!r} does not play at a table of {count} ({names})").format(
                item=item, name=name, count=players, names=", ".join(seated)), param_hint="--skill")
        out[name] = value
    return out


def _refused(write, *args):
    """`write(*args)`; an output it refuses is one line and exit 2."""
    try:
        write(*args)
    except OutputRefused as e:
        click.echo(_("error: {message}").format(message=e), err=True)
        sys.exit(2)
