"""The chosen language inside the command line, and click help rendered in it.

How a command speaks Spanish (the pattern every command follows):
- `@click.command(cls=Command)`: its docstring (as `inspect.cleandoc` leaves it) is a
  message, looked up when the help is shown; so are its options' `help=N_("…")`.
- `@lang_option`: the command takes `--lang es|en` too (the group takes it for all).
- A runtime message: `_("no rule mentions {text!r}").format(text=text)` — the text with
  its placeholders is the message; `ngettext(one, many, n)` where it counts.
- A message of the pure core (a finding, a reason): `M("{cards} is not a meld: {why}",
  cards=…, why=…)` (findings.py) — its English text is the string, its template and values
  are kept; the shell shows it with `render.say(message)`, in the language of the run.
  `MN(one, many, n, …)` where it counts; names in a sentence are `listed(names)` ("Ana,
  Beto and Carla", "Ana, Beto y Carla"), in a runtime message too: `say(listed(names))`.
`python tools/catalog.py` finds every such message for the catalog.

The language of a run is chosen as it starts (`Translated.main`), from `--lang` anywhere
among its arguments, else DESMOCHE_LANG or the locale (desmoche_ref/i18n.py), and kept in
words.RUN, where every front end's words (`_`, `ngettext`, `say`: words.py) read it; the
click context keeps it too (ctx.meta, shared by a group and its command). Click's own words
(its errors, "Usage:", "[default: 3]") are looked up in the same catalog: click asks the
standard gettext module, whose default text domain a run that chooses Spanish binds to our
catalog for as long as it runs (`_click_speaks`), so an error click raises before `--lang`
is parsed, or shows after the context has closed, is Spanish too. Nothing of click's is
changed. An English run binds nothing and never opens the catalog.
"""

import contextlib
import copy
import inspect
import os
import sys

import click

from .. import i18n, words
from ..i18n import N_
from ..words import RUN, _, ngettext  # noqa: F401 (the shell's names for the run's words)

KEY = RUN.name  # the language in the click context's meta (a group's and its command's)

# Click's own words, in our catalog: the msgids click (8.1 to 8.5) looks up with gettext,
# exactly as click writes them; where versions differ, each version's. Only those this
# program can show (click's errors about how a command is declared are for us, in English).
# -- on a help page
N_("Usage:")
N_("Options")
N_("Commands")
N_("Positional arguments")  # click 8.5, when an argument has help (none of ours has)
N_("Show this message and exit.")
N_("Show the version and exit.")
N_("%(prog)s, version %(version)s")
N_("default: {default}")
N_("required")
# click's usage pieces and type names, which click does not look up: we do
# (collect_usage_pieces, _spoken); a type's name is an option's metavar (INTEGER) and is
# in its errors ("… is not a valid integer")
N_("[OPTIONS]")
N_("COMMAND [ARGS]...")
N_("[COMMAND] [ARGS]...")  # click 8.4.2 and later
N_("text")
N_("integer")
N_("integer range")
N_("file")
N_("directory")
N_("path")
# -- its errors
N_("Error: {message}")
N_("Try '{command} {option}' for help.")
N_("Invalid value: {message}")
N_("Invalid value for {param_hint}: {message}")
N_("Missing argument")
N_("Missing option")
N_("Missing command.")
N_("No such command {name!r}.")
N_("No such option: {name}")  # click 8.1 to 8.3
N_("No such option {name!r}.")  # click 8.4
# (click formats its plurals with both placeholders, so every Spanish form uses the plural's.)
# gettext keys a plural by its singular: click 8.1-8.3's plural, "(Possible options:
# {possibilities})", is this entry too
N_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)")
N_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})")
N_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.")
N_("Option {name!r} does not take a value.")
N_("{value!r} is not {choice}.", "{value!r} is not one of {choices}.")
N_("{value!r} is not a valid {number_type}.")
N_("{value} is not in the range {range}.")
N_("{value!r} does not match the format {format}.", "{value!r} does not match the formats {formats}.")
N_("{name} {filename!r} does not exist.")
N_("{name} {filename!r} is a file.")
N_("{name} '{filename}' is a directory.")  # click 8.1 to 8.1.7
N_("{name} {filename!r} is a directory.")  # click 8.1.8 and later
N_("{name} {filename!r} is not readable.")
N_("{name} {filename!r} is not writable.")
N_("Could not open file {filename!r}: {message}")
N_("unknown error")
N_("Aborted!")
N_("d")  # a progress bar's days to go (click 8.4): 1d 02:03:04
N_("Shell completion is not supported for Bash versions older than 4.4.")
N_("Couldn't detect Bash version, shell completion is not supported.")
LANG_HELP = N_("The language of the output: es (español) or en (English). "
               "Default: DESMOCHE_LANG, else the locale (LANG=es_NI.UTF-8 is Spanish).")


def language(ctx=None) -> str:
    """The language of this run: the context's, else the run's (words.language: the one
    `Translated.main` chose as the run started, else the environment's)."""
    ctx = ctx or click.get_current_context(silent=True)
    lang = ctx.meta.get(KEY) if ctx is not None else None
    if lang is None:
        lang = words.language()
        if ctx is not None:
            ctx.meta[KEY] = lang
    return lang


def _lang_in(args) -> str | None:
    """The value of the last `--lang` among the arguments (click keeps the last), before
    click reads them."""
    lang = None
    for k, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and k + 1 < len(args):
            lang = i18n.language_of(args[k + 1])
        elif arg.startswith("--lang="):
            lang = i18n.language_of(arg[len("--lang="):])
    return lang


def _set_lang(ctx, param, value):
    if value:
        ctx.meta[KEY] = value
    return value


lang_option = click.option("--lang", type=click.Choice(i18n.LANGS), expose_value=False,
                           is_eager=True, callback=_set_lang, help=LANG_HELP)


@contextlib.contextmanager
def _click_speaks(lang: str):
    """Click's own words in `lang` for the length of a run. Click looks them up with the
    standard `gettext.gettext` and `ngettext` (`from gettext import gettext as _`), which
    read the default text domain in the language the environment's LANGUAGE names: for a
    Spanish run the default domain is our catalog's and LANGUAGE is `es`; both are put back
    as they were when the run ends. An English run binds nothing."""
    if lang == "en":
        yield
        return
    import gettext

    domain, before = gettext.textdomain(), os.environ.get("LANGUAGE")
    gettext.bindtextdomain(i18n.DOMAIN, i18n.LOCALE)
    gettext.textdomain(i18n.DOMAIN)
    os.environ["LANGUAGE"] = lang
    try:
        yield
    finally:
        gettext.textdomain(domain)
        _put_back("LANGUAGE", before)


def _put_back(name: str, value) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


@contextlib.contextmanager
def as_written():
    """Click's words given while a command is declared stay as click writes them (a
    click.Path's name, the help of the help option): they are shown translated with their
    parameter (`_spoken`), so a later run in another language reads its own. (No catalog is
    `en`: under LANGUAGE=en gettext gives every message as written.)"""
    if RUN.get() in (None, "en"):
        yield
        return
    before = os.environ.get("LANGUAGE")
    os.environ["LANGUAGE"] = "en"
    try:
        yield
    finally:
        _put_back("LANGUAGE", before)


def _spoken(param, say):
    """A copy of `param` with its words in the language of `say`: help, metavar, its type's
    name (INTEGER, "… is not a valid integer")."""
    spoken = copy.copy(param)
    if getattr(param, "help", None):
        spoken.help = say(param.help)
    if param.metavar:
        spoken.metavar = say(param.metavar)
    name = inspect.getattr_static(param.type, "name", None)
    if isinstance(name, str) and say(name) != name:  # not a computed name (click.Tuple's)
        spoken.type = copy.copy(param.type)
        spoken.type.name = say(name)
    return spoken


class Translated:
    """Help pages, errors and the language for click commands and groups: every text click
    shows is looked up in the catalog of the chosen language."""

    def main(self, args=None, *rest, **kwargs):
        """Run the command line: the language chosen before click reads an argument."""
        lang = _lang_in(sys.argv[1:] if args is None else args) or i18n.choose(None, os.environ)
        token = RUN.set(lang)
        try:
            with _click_speaks(lang):
                return super().main(args, *rest, **kwargs)
        finally:
            RUN.reset(token)

    def get_params(self, ctx):
        params = super().get_params(ctx)
        if language(ctx) == "en":
            return params
        # made once a run: click finds the parameters it parsed again by identity
        key = (KEY, "params", id(self))
        if key not in ctx.meta:
            say = i18n.translations(language(ctx)).gettext
            ctx.meta[key] = [_spoken(param, say) for param in params]
        return ctx.meta[key]

    def get_help_option(self, ctx):
        with as_written():  # click 8.1.8 and later make it once, in the first run
            return super().get_help_option(ctx)

    def collect_usage_pieces(self, ctx):
        # click's [OPTIONS] and COMMAND [ARGS]... (the arguments' metavars come with them)
        say = i18n.translations(language(ctx)).gettext  # a usage error: the context has closed
        return [say(piece) for piece in super().collect_usage_pieces(ctx)]

    def format_help_text(self, ctx, formatter):
        text = _(inspect.cleandoc(self.help)).partition("\f")[0] if self.help else ""
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def get_short_help_str(self, limit=45):
        if self.help and not self.short_help:  # click's own shortening, of the help in the run's language
            spoken = copy.copy(self)
            spoken.help = _(inspect.cleandoc(self.help))
            return super(Translated, spoken).get_short_help_str(limit)
        return super().get_short_help_str(limit)


class Command(Translated, click.Command):
    pass


class Group(Translated, click.Group):
    pass
