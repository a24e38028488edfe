"""`desmoche-ref view`: the table as it stood after a line — the view a dispute needs."""

import json
import sys

import click

from ..cards import parse_card
from ..notation.parser import Lines, parse_bytes
from .files import encoding_hint, encoding_option, read_record
from .render import cards_text, simple_table, use_colour

TABLE_VERBS = ("foul", "show", "announce", "declare")  # open to the table at any time
# the order the moves possible next are listed in: the game's own verbs first
VERB_ORDER = ("cut", "deal", "return", "cambio", "draw", "meld", "add", "pay", "claim", "knock",
              "pass", "forgive", "end")


def _cards(names, colour):
    return cards_text([parse_card(n) for n in names], colour)


def _usage_error(message: str):
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


@click.command()
@click.argument("file", metavar="FILE")
@click.option("--hand", "hand_number", type=click.IntRange(min=1), default=None,
              help="Which hand of the file (1 = the first). Default: the hand holding --at, else the first.")
@click.option("--at", "at_line", type=click.IntRange(min=1), default=None,
              help="Show the table after this line of the file. Default: the end of the hand.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@encoding_option
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
        click.echo(f"{file}: error: cannot read {file}: {problem}", err=True)
        sys.exit(2)
    lines = Lines(data, encoding)
    record = parse_bytes(lines)
    hint = encoding_hint(file, lines)
    if hint:
        click.echo(hint, err=True)
    if record.error:
        click.echo(f"{file}: error: {record.error}", err=True)
        sys.exit(1)
    from ..view import hand_at, hand_span, table_at

    hands = record.hands
    last_line = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if at_line is not None and at_line > last_line:
        _usage_error(f"--at {at_line}: {file} has {last_line} lines")
    if hand_number is None:
        hand_number = hand_at(hands, at_line) if at_line is not None else 1
    if hand_number > len(hands):
        _usage_error(f"--hand {hand_number}: {file} holds {len(hands)} "
                     + ("hand" if len(hands) == 1 else "hands"))
    first, last = hand_span(hands, hand_number, last_line)
    if at_line is not None and not first <= at_line <= last:
        _usage_error(f"--at {at_line}: line {at_line} is in hand {hand_at(hands, at_line)}; "
                     f"hand {hand_number} is lines {first}-{last}")
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
    where = f"after line {at_line}" if at_line else "at the end of the record"
    click.echo(f"{file} hand {number} (line {line}), {where}: {t['status']}")
    for e in t["errors"]:
        click.echo(f"{file}:{e['line']}: {e['code']} {e['message']}")
    if "players" not in t:
        return
    if t["errors"]:
        click.echo(f"the table before line {t['errors'][0]['line']}:")
    options = " ".join(f"{k}={'on' if v is True else 'off' if v is False else v}"
                       for k, v in t["options"].items())
    click.echo(f"dealer {t['dealer']} · bet {t['bet']}, carry in {t['carry_in']} · "
               f"{t['rules']}: {options}")
    rows = []
    for p in t["players"]:
        held = " ".join(filter(None, [_cards(p["hand"], colour),
                                      f"+{p['unknown']}?" if p["unknown"] else ""]))
        melds = "  ".join(_cards(m, colour) for m in p["melds"])
        rows.append([p["name"], p["status"], held, melds])
    click.echo(simple_table(rows, ["player", "status", "hand", "table"]))
    offer = t["offer"]
    if offer:
        text = (f"on offer: {_cards([offer['card']], colour)} ({offer['how']} by {offer['by']}); "
                f"may take: {', '.join(offer['may_take']) or 'nobody'}")
        if offer["must_take"]:
            text += f"; must take: {offer['must_take']} (R9.1)"
        click.echo(text)
    else:
        click.echo("on offer: nothing")
    click.echo(f"discard pile: {_cards(t['dead'], colour) or '(empty)'}")
    click.echo(f"stock: {t['stock']} " + ("card" if t["stock"] == 1 else "cards"))
    click.echo(f"turn: {turn(t, colour)}")
    click.echo(f"next: {moves_text(t['moves'])}")
    for f in t["fouls"]:
        click.echo(f"foul line {f['line']}: {f['code']} {f['player']} "
                   f"({'enforced' if f['enforced'] else 'forgiven'})")
    for w in t["warnings"]:
        click.echo(f"warning line {w['line']}: {w['code']} {w['message']}")


def turn(t, colour) -> str:
    """Whose turn it is, in words, from the referee's answers in the table `t`."""
    outcome = t["outcome"]
    if outcome:
        who = " and ".join(outcome["winners"])
        if outcome["kind"] == "win":
            return f"over: {who} won with ten cards down at line {outcome['line']}"
        if outcome["kind"] == "auto-win":
            return f"over: {who} won by {outcome['auto']} at line {outcome['line']}"
        return f"over: no winner (line {outcome['line']})"
    if t["phase"] == "deal":
        return "the deal"
    action = t["action"]
    if action:
        card = _cards([action["taken"]], colour)
        if action["owes"] == "mend":
            return f"{action['player']} took {card}: mends the melds a desmoche broke, then pays"
        return f"{action['player']} took {card}: lays more, then pays (or wins)"
    if t["declared"]:
        return "an automatic win is declared: declarations close with `end`"
    draw = t["next_draw"]
    if draw is None:
        return "no player is left"
    drawer = draw["player"]
    if t["phase"] == "pre-play":
        waiting = [m["player"] for m in t["moves"] if m["verb"] == "cambio"]
        if waiting:
            return f"the cambio: waiting for {', '.join(waiting)}; then {drawer} draws first"
        return f"{drawer} draws the first card"
    offer = t["offer"]
    if offer:
        card = _cards([offer["card"]], colour)
        if offer["must_take"]:
            return f"{offer['must_take']} must take {card}: it fits a meld on the table (R9.1)"
        if t["stock"] == 0:
            return f"if nobody takes {card}, the hand ends (the stock is empty)"
        return f"if nobody takes {card}, {drawer} draws next"
    return f"{drawer} draws next"


def moves_text(moves) -> str:
    """The moves possible next: verbs grouped by the players who may write them, the
    table's verbs (foul, show, announce, declare) apart at the end."""
    play = sorted((m for m in moves if m["verb"] not in TABLE_VERBS),
                  key=lambda m: VERB_ORDER.index(m["verb"]))
    table = [m for m in moves if m["verb"] in TABLE_VERBS]
    text = _grouped(play) or "nothing but the table's verbs"
    return text + (f"; at any time: {_grouped(table)}" if table else "")


def _grouped(moves) -> str:
    by_verb = {}
    for m in moves:
        by_verb.setdefault(m["verb"], []).append(m["player"])
    groups = {}  # the players -> their verbs, in the referee's order
    for verb, players in by_verb.items():
        groups.setdefault(tuple(players), []).append(verb)
    return "; ".join(", ".join(verbs) + (f" by {', '.join(p for p in players if p)}"
                                         if any(players) else "")
                     for players, verbs in groups.items())
