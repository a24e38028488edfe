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
`python tools/catalog.py` finds every such message for the catalog.

The language lives in the click context (ctx.meta, shared by a group and its command),
set from `--lang` before any option is handled (so `--help --lang es` is Spanish too);
without it, DESMOCHE_LANG or the locale decide (desmoche_ref/i18n.py).
"""

import copy
import inspect
import os

import click

from .. import i18n
from ..i18n import N_

KEY = "desmoche_ref.lang"

# click's own words on a help page, in our catalog
N_("Usage:")
N_("[OPTIONS]")
N_("COMMAND [ARGS]...")
N_("[COMMAND] [ARGS]...")  # click 8.4.2 and later
N_("Options")
N_("Commands")
N_("Show this message and exit.")
N_("Show the version and exit.")
LANG_HELP = N_("The language of the output: es (español) or en (English). "
               "Default: DESMOCHE_LANG, else the locale (LANG=es_NI.UTF-8 is Spanish).")


def language(ctx=None) -> str:
    """The language of this run: the context's, else the environment's."""
    ctx = ctx or click.get_current_context(silent=True)
    lang = ctx.meta.get(KEY) if ctx is not None else None
    if lang is None:
        lang = i18n.choose(None, os.environ)
        if ctx is not None:
            ctx.meta[KEY] = lang
    return lang


def _(message: str) -> str:
    """`message` in the language of this run."""
    return i18n.translations(language()).gettext(message)


def ngettext(one: str, many: str, n: int) -> str:
    return i18n.translations(language()).ngettext(one, many, n)


def _lang_in(args) -> str | None:
    """The value of a `--lang` among the arguments, before click reads them."""
    for k, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and k + 1 < len(args):
            return i18n.language_of(args[k + 1])
        if arg.startswith("--lang="):
            return i18n.language_of(arg[len("--lang="):])
    return None


def _set_lang(ctx, param, value):
    if value:
        ctx.meta[KEY] = value
    return value


lang_option = click.option("--lang", type=click.Choice(i18n.LANGS), expose_value=False,
                           is_eager=True, callback=_set_lang, help=LANG_HELP)


class Translated:
    """Help pages (and the language) for click commands and groups: every text a help
    page shows is looked up in the catalog of the chosen language."""

    def parse_args(self, ctx, args):
        lang = _lang_in(args)
        if lang:
            ctx.meta[KEY] = lang
        return super().parse_args(ctx, args)

    def format_usage(self, ctx, formatter):
        # the context's language: a usage error prints this after the context has closed
        say = i18n.translations(language(ctx)).gettext
        pieces = [say(piece) for piece in self.collect_usage_pieces(ctx)]  # metavars: N_ them
        formatter.write_usage(ctx.command_path, " ".join(pieces), say("Usage:") + " ")

    def format_help_text(self, ctx, formatter):
        text = _(inspect.cleandoc(self.help)).partition("\f")[0] if self.help else ""
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def get_short_help_str(self, limit=45):
        if self.help and not self.short_help:
            return click.utils.make_default_short_help(_(inspect.cleandoc(self.help)), limit)
        return super().get_short_help_str(limit)

    def format_options(self, ctx, formatter):
        rows = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Option) and (param.help or param.metavar):
                param = copy.copy(param)  # its help and its metavar (N_ them) in the language
                param.help = param.help and _(param.help)
                param.metavar = param.metavar and _(param.metavar)
            row = param.get_help_record(ctx)
            if row is not None:
                rows.append(row)
        if rows:
            with formatter.section(_("Options")):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)


class Command(Translated, click.Command):
    pass


class Group(Translated, click.Group):
    pass
