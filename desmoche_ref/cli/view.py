"""`desmoche-ref view`: the table as it stood after a line — the view a dispute needs."""

import json
import sys

import click

from ..notation.parser import SPANISH_VERBS, Lines, parse_bytes
from ..findings import M
from ..i18n import N_
from ..words import STATUS, cards_of as _cards, offer_text, options_text, pile_text, say, stock_text, turn
from .files import encoding_hint, encoding_option, read_record
from .lang import Command, _, lang_option, language, ngettext
from .render import file_error, simple_table, use_colour

TABLE_VERBS = ("foul", "show", "announce", "declare")  # open to the table at any time
# the order the moves possible next are listed in: the game's own verbs first
VERB_ORDER = ("cut", "deal", "return", "cambio", "draw", "meld", "add", "pay", "claim", "knock",
              "pass", "forgive", "end")
# under Spanish the moves are named by the Spanish verbs a record accepts (N4.10)
SPANISH_NAME = {english: spanish for spanish, english in SPANISH_VERBS.items()}


def _usage_error(message: str):
    click.echo(_("Error: {message}").format(message=message), err=True)
    sys.exit(2)


@click.command(cls=Command)
@click.argument("file", metavar=N_("FILE"))
@click.option("--hand", "hand_number", type=click.IntRange(min=1), default=None,
              help=N_("Which hand of the file (1 = the first). Default: the hand holding --at, else the first."))
@click.option("--at", "at_line", type=click.IntRange(min=1), default=None,
              help=N_("Show the table after this line of the file. Default: the end of the hand."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the table as JSON."))
@encoding_option
@lang_option
def view(file, hand_number, at_line, as_json, encoding):
    """Show the table as it stood after a line of a record.

    Each player's hand (known cards and how many unknown), their melds, the card on
    offer with who may take it and who must (R7.5, R9.1), the discard pile, the stock,
    whose turn it is, and the moves possible next (which verbs, by whom). All of it is
    the referee's own answer, the same one `check` judges by. An invalid hand shows the
    table just before its error. Suits print as ♠♥♦♣, red and black on a terminal (set
    NO_COLOR to turn colour off).

    \b
    Examples:
      desmoche-ref view sample_logs/friday.dsm --at 25
      desmoche-ref view sample_logs/club-night.dsm --hand 3
      desmoche-ref view sample_logs/forcing-table.dsm --json
      desmoche-ref view --encoding cp1252 old-windows-file.dsm --at 12
    """
    data, problem = read_record(file)
    if problem:
        click.echo(file_error(file, M("cannot read {path}: {problem}", path=file, problem=problem)), err=True)
        sys.exit(2)
    lines = Lines(data, encoding)
    record = parse_bytes(lines)
    hint = encoding_hint(file, lines)
    if hint:
        click.echo(hint, err=True)
    if record.error:
        click.echo(file_error(file, record.error), err=True)
        sys.exit(1)
    from ..view import hand_at, hand_span, table_at

    hands = record.hands
    last_line = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if at_line is not None and at_line > last_line:
        _usage_error(ngettext("--at {line}: {path} has {count} line", "--at {line}: {path} has {count} lines",
                              last_line).format(line=at_line, path=file, count=last_line))
    if hand_number is None:
        hand_number = hand_at(hands, at_line) if at_line is not None else 1
    if hand_number > len(hands):
        _usage_error(ngettext("--hand {number}: {path} holds {count} hand",
                              "--hand {number}: {path} holds {count} hands", len(hands)).format(
            number=hand_number, path=file, count=len(hands)))
    first, last = hand_span(hands, hand_number, last_line)
    if at_line is not None and not first <= at_line <= last:
        _usage_error(_("--at {line}: line {line} is in hand {other}; hand {number} is lines {first}-{last}")
                     .format(line=at_line, other=hand_at(hands, at_line), number=hand_number,
                             first=first, last=last))
    hand = hands[hand_number - 1]
    table = table_at(hand, at_line)
    table["path"], table["hand"] = file, hand_number
    status = 1 if table["status"] == "invalid" else 0
    if as_json:
        json.dump(table, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        sys.exit(status)
    print_table(file, hand_number, hand.line, at_line, table, use_colour())
    sys.exit(status)


def print_table(file, number, line, at_line, t, colour) -> None:
    where = _("after line {line}").format(line=at_line) if at_line else _("at the end of the record")
    click.echo(_("{path} hand {number} (line {line}), {where}: {status}").format(
        path=file, number=number, line=line, where=where, status=_(t["status"])))
    for e in t["errors"]:
        click.echo(f"{file}:{e['line']}: {e['code']} {say(e['message'])}")
    if "players" not in t:
        return
    if t["errors"]:
        click.echo(_("the table before line {line}:").format(line=t["errors"][0]["line"]))
    options = options_text(t["options"])
    click.echo(_("dealer {dealer} · bet {bet}, carry in {carry} · {rules}: {options}").format(
        dealer=t["dealer"], bet=t["bet"], carry=t["carry_in"], rules=t["rules"], options=options))
    rows = []
    for p in t["players"]:
        held = " ".join(filter(None, [_cards(p["hand"], colour),
                                      f"+{p['unknown']}?" if p["unknown"] else ""]))
        melds = "  ".join(_cards(m, colour) for m in p["melds"])
        rows.append([p["name"], _(STATUS[p["status"]]), held, melds])
    click.echo(simple_table(rows, [_("player"), _("status"), _("hand"), _("table")]))
    click.echo(offer_text(t, colour))
    click.echo(pile_text(t, colour))
    click.echo(stock_text(t))
    click.echo(_("turn: {turn}").format(turn=turn(t, colour)))
    click.echo(_("next: {moves}").format(moves=moves_text(t["moves"])))
    for f in t["fouls"]:
        text = _("foul line {line}: {code} {player} (enforced)") if f["enforced"] \
            else _("foul line {line}: {code} {player} (forgiven)")
        click.echo(text.format(line=f["line"], code=f["code"], player=f["player"]))
    for w in t["warnings"]:
        click.echo(_("warning line {line}: {code} {message}").format(
            line=w["line"], code=w["code"], message=say(w["message"])))


def moves_text(moves) -> str:
    """The moves possible next: verbs grouped by the players who may write them, the
    table's verbs (foul, show, announce, declare) apart at the end."""
    play = sorted((m for m in moves if m["verb"] not in TABLE_VERBS),
                  key=lambda m: VERB_ORDER.index(m["verb"]))
    table = [m for m in moves if m["verb"] in TABLE_VERBS]
    text = _grouped(play) or _("nothing but the table's verbs")
    return text + (_("; at any time: {moves}").format(moves=_grouped(table)) if table else "")


def _grouped(moves) -> str:
    by_verb: dict[str, list[str]] = {}   # verb -> its players ("" for anyone)
    for m in moves:
        by_verb.setdefault(m["verb"], []).append(m["player"])
    groups: dict[tuple[str, ...], list[str]] = {}  # the players -> their verbs, in the referee's order
    names = SPANISH_NAME if language() == "es" else {}
    for verb, players in by_verb.items():
        verb = names.get(verb, verb)
        groups.setdefault(tuple(players), []).append(verb)
    return "; ".join(", ".join(verbs) + (_(" by {players}").format(players=", ".join(p for p in players if p))
                                         if any(players) else "")
                     for players, verbs in groups.items())
