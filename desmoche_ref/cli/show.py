"""`desmoche-ref show`: the table as it stood after a line — the view a dispute needs."""

import json
import sys

import click
from ..cards import parse_card
from ..notation.parser import parse_bytes
from .files import read_record
from .render import cards_text, simple_table, use_colour


def _cards(names, colour):
    return cards_text([parse_card(n) for n in names], colour)


@click.command()
@click.argument("file", metavar="FILE")
@click.option("--hand", "hand_number", type=click.IntRange(min=1), default=None,
              help="Which hand of the file (1 = the first). Default: the hand holding --at, else the first.")
@click.option("--at", "at_line", type=click.IntRange(min=1), default=None,
              help="Show the table after this line of the file. Default: the end of the hand.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def show(file, hand_number, at_line, as_json):
    """Show the table as it stood after a line of a record.

    Each player's hand (known cards and how many unknown), their melds, the card on
    offer and who may take it, the discard pile, the stock, and whose turn it is.
    Suits print as ♠♥♦♣, red and black on a terminal (set NO_COLOR to turn colour off).

    \b
    Examples:
      desmoche-ref show sample_logs/friday.dsm --at 25
      desmoche-ref show sample_logs/club-night.dsm --hand 3
      desmoche-ref show sample_logs/friday.dsm --at 25 --json
    """
    data, problem = read_record(file)
    if problem:
        raise click.ClickException(f"cannot read {file}: {problem}")
    record = parse_bytes(data)
    if record.error:
        click.echo(f"{file}: error: {record.error}", err=True)
        sys.exit(1)
    hands = record.hands
    if hand_number is None:
        hand_number = 1
        if at_line is not None:
            for i, h in enumerate(hands, 1):
                if h.line <= at_line:
                    hand_number = i
    if hand_number > len(hands):
        raise click.BadParameter(f"{file} holds {len(hands)} hand(s)", param_hint="--hand")
    hand = hands[hand_number - 1]
    from ..view import table_at
    view = table_at(hand, at_line)
    view["path"], view["hand"] = file, hand_number
    status = 1 if view["status"] == "invalid" else 0
    if as_json:
        json.dump(view, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        sys.exit(status)
    colour = use_colour()
    where = f"after line {at_line}" if at_line else "at the end of the record"
    click.echo(f"{file} hand {hand_number} (line {hand.line}), {where}: {view['status']}")
    for e in view["errors"]:
        click.echo(f"{file}:{e['line']}: {e['code']} {e['message']}")
    if "players" not in view:
        sys.exit(1)
    click.echo(f"dealer {view['dealer']} · {view['options']}")
    rows = []
    for p in view["players"]:
        held = " ".join(filter(None, [_cards(p["hand"], colour),
                                      f"+{p['unknown']}?" if p["unknown"] else ""]))
        melds = "  ".join(_cards(m, colour) for m in p["melds"])
        rows.append([p["name"], p["status"], held, melds])
    click.echo(simple_table(rows, ["player", "status", "hand", "table"]))
    offer = view["offer"]
    if offer:
        click.echo(f"on offer: {_cards([offer['card']], colour)} ({offer['how']} by {offer['by']}); "
                   f"may take: {', '.join(offer['may_take']) or 'nobody'}")
    else:
        click.echo("on offer: nothing")
    click.echo(f"discard pile: {_cards(view['dead'], colour) or '(empty)'}")
    click.echo(f"stock: {view['stock']} cards")
    click.echo(f"turn: {view['turn']}")
    for f in view["fouls"]:
        click.echo(f"foul line {f['line']}: {f['code']} {f['player']} "
                   f"({'enforced' if f['enforced'] else 'forgiven'})")
    for w in view["warnings"]:
        click.echo(f"warning line {w['line']}: {w['code']} {w['message']}")
    sys.exit(status)
