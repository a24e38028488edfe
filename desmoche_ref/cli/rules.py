"""`desmoche-ref rules`: the rulebook at the command line, by code or by word."""

import json
import os
import re
import sys

import click

from ..i18n import N_
from ..rulebook import CODE, FILES, load, normal_code
from .lang import Command, _, lang_option, language, ngettext


@click.command(cls=Command)
@click.argument("query", nargs=-1, metavar=N_("[CODE | WORD...]"))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the rules found as JSON."))
@lang_option
def rules(query, as_json):
    """Look up a rule of the rulebook by its code or a word.

    A code (R9.1, F3, N4.3, as every finding cites) prints that rule as the rulebook
    words it; a section's code (R9, N4) prints the whole section. A word lists the
    rules that mention it and the sections whose title does, each with its code and a
    short title. With nothing, the
    sections of the rulebook (RULES.md) and of the notation (NOTATION.md). Exit 1
    when nothing is found. Under Spanish (--lang es, LANG=es_NI.UTF-8) the rules are
    the Spanish rulebook's (docs/es/REGLAS.md), the same codes.

    \b
    Examples:
      desmoche-ref rules R9.1
      desmoche-ref rules forcing
      desmoche-ref rules "up the tree"
      desmoche-ref --lang es rules forzar
      desmoche-ref rules
    """
    lang = language()
    book = load(lang)
    text = " ".join(query).strip()
    if not text:
        sections = [book.rules[s] for s in book.sections]
        if as_json:
            _dump([{"code": s.code, "title": s.title, "source": s.source,
                    "rules": [r.code for r in book.in_section(s.code)]} for s in sections])
            return
        source = None
        for s in sections:
            if s.source != source:
                source = s.source
                book_name = _("The rulebook") if source == "RULES.md" else _("The record notation")
                click.echo(f"{book_name} ({os.path.basename(FILES[lang][source])}):")
            codes = [r.code for r in book.in_section(s.code)]
            fouls = [c for c in codes if c.startswith("F")]
            codes = [c for c in codes if c not in fouls]
            spans = [f"{c[0]}-{c[-1]}" for c in (codes, fouls) if c]
            span = f" ({', '.join(spans)})" if spans else ""
            click.echo(f"  {s.code:<4} {s.title}{span}")
        click.echo(_("desmoche-ref rules CODE prints a rule; desmoche-ref rules WORD finds the rules "
                     "that mention it."))
        return
    if CODE.fullmatch(text):
        rule = book.get(text)
        if rule is None:
            click.echo(_("Error: no rule {code} in the rulebook (desmoche-ref rules lists the "
                         "sections)").format(code=normal_code(text)), err=True)
            sys.exit(1)
        found = [rule]
        if rule.code == rule.section:  # the whole section; its fouls print inside R14.2
            found += [r for r in book.in_section(rule.code) if not r.code.startswith("F")]
        if as_json:
            _dump([_as_json(r) for r in found])
            return
        section = book.rules[rule.section]
        click.echo(f"{section.code} {section.title} — {os.path.basename(FILES[lang][section.source])}")
        bold = colour_now()
        for r in found:
            if r.code != r.section:
                click.echo("")
                click.echo(f"{r.code} {shown(r.text, bold)}")
            elif r.text:
                click.echo("")
                click.echo(shown(r.text, bold))
        return
    found = book.search(text)
    if not found:
        click.echo(_("Error: no rule mentions {text!r}").format(text=text), err=True)
        sys.exit(1)
    if as_json:
        _dump([_as_json(r) for r in found])
        return
    width = max(len(r.code) for r in found)
    for r in found:
        click.echo(f"{r.code:<{width}}  {r.title}")
    click.echo(ngettext("{n} rule mentions {text!r}; desmoche-ref rules CODE prints one.",
                        "{n} rules mention {text!r}; desmoche-ref rules CODE prints one.",
                        len(found)).format(n=len(found), text=text))


def shown(text: str, bold: bool = False) -> str:
    """A rule's words as a person reads them at a terminal or in a file: the rulebook's
    markdown emphasis (`**Turn order.**`) as bold type on a terminal that shows colour, else
    left out; the backquotes that set off notation (`draw P CARD`) stay, as every message
    quotes a line. `--json` keeps the rulebook's own text."""
    return BOLD.sub(lambda m: f"\x1b[1m{m.group(1)}\x1b[0m" if bold else m.group(1), text)


BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def colour_now() -> bool:
    from ..cards import colour_wanted

    return colour_wanted(os.environ, sys.stdout.isatty())


def _as_json(rule) -> dict:
    return {"code": rule.code, "title": rule.title, "section": rule.section,
            "source": rule.source, "text": rule.text}


def _dump(value) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
