"""Human output: findings one a line (PATH:LINE: CODE message), tables of outcomes and nets."""

import os
import re
import sys
import unicodedata

import click

from ..cards import pretty
from ..money import fmt

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(text: str) -> int:
    """Terminal columns of a cell: colour codes take none, wide (CJK) characters two."""
    plain = _ANSI.sub("", text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in plain)


def simple_table(rows, headers, right=()) -> str:
    """A plain table in tabulate's "simple" style, for the per-move commands.

    `check` and `view` run once per move at the table: tabulate's import (with
    importlib.metadata and wcwidth) costs more than click's, so these draw their own.
    The larger reports (`check --session`) use tabulate."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(visible_width(r[i]) for r in cells) for i in range(len(headers))]

    def line(row):
        out = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - visible_width(cell))
            out.append(pad + cell if i in right else cell + pad)
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def use_colour() -> bool:
    return "NO_COLOR" not in os.environ and sys.stdout.isatty()


def cards_text(cards, colour=False) -> str:
    return " ".join(pretty(c, colour) for c in cards)


def describe_outcome(hand) -> str:
    out = hand.as_json()
    status = out["status"]
    if status == "invalid":
        e = hand.errors[0]
        return f"invalid at line {e.line} ({e.code})"
    if status == "incomplete":
        return "incomplete (the record stops before the hand is over)"
    o = out["outcome"]
    who = " and ".join(o["winners"])
    if o["kind"] == "win":
        text = f"{who} wins with ten cards down (line {o['line']})"
    elif o["kind"] == "auto-win":
        split = " (split)" if len(o["winners"]) > 1 else ""
        text = f"{who} wins by {o['auto']}{split} (line {o['line']})"
    else:
        text = f"no winner (line {o['line']}): the pot of {out['pot']} carries"
    return text


def hand_table(hand) -> str:
    out = hand.as_json()
    rows = []
    for name in out["players"]:
        row = [name]
        if out["net"] is not None:
            row.append(out["net"][name])
        rows.append(row)
    headers = ["player", "net"] if out["net"] is not None else ["player"]
    return simple_table(rows, headers, right={1})


def print_file_error(path: str, message: str) -> None:
    click.echo(f"{path}: error: {message}")


def print_hand(path: str, number: int, hand) -> None:
    """One hand: its findings (PATH:LINE: CODE message), then its outcome, money and nets."""
    for line, code, message in hand.findings():
        click.echo(f"{path}:{line}: {code} {message}")
    out = hand.as_json()
    click.echo(f"{path} hand {number} (line {out['line']}): {describe_outcome(hand)}")
    if out["status"] == "complete":
        money = [f"pot {out['pot']}", f"carry in {out['carry_in']}", f"carry out {out['carry_out']}"]
        click.echo("  " + ", ".join(money))
        for b in out["bonuses"]:
            click.echo(f"  bonus {b['kind']}: {b['from']} pays {b['to']} {b['amount']}")
        for g in out["side_games"]:
            won = " and ".join(g["winners"]) or "nobody"
            cards = f" with {' '.join(g['cards'])}" if g["cards"] else ""
            click.echo(f"  side game {g['game']}: pot {g['pot']} to {won}{cards}"
                       + (f", carries {g['carry_out']}" if g["carry_out"] != "0.00" else ""))
        if out["result_agrees"] is not None:
            click.echo(f"  the table's result ({out['result_claimed']}) "
                       + ("agrees" if out["result_agrees"] else "DISAGREES"))
        click.echo(hand_table(hand))
    elif out["status"] == "invalid" and out["players"]:
        line = hand.errors[0].line
        click.echo(f"  the table before it: desmoche-ref view {path} --at {line - 1}")
    click.echo("")


def print_session(path: str, session) -> None:
    from tabulate import tabulate

    if not session.rows:
        return
    click.echo(f"{path} session: {len(session.rows)} hands")
    for line, code, message in session.problems:
        click.echo(f"{path}:{line}: {code} {message}")
    headers = ["hand", "line", "dealer", "outcome"] + session.players
    rows = []
    for row in session.rows:
        rows.append([row.number, row.line, row.dealer, row.outcome]
                    + [fmt(row.net[p]) if p in row.net else "" for p in session.players])
    rows.append(["total", "", "", ""] + [fmt(session.totals[p]) for p in session.players])
    if session.refund:
        rows.append(["returned", "", "", "carried pot (R11.5)"]
                    + [fmt(session.refund.get(p, 0)) for p in session.players])
        rows.append(["final", "", "", ""] + [fmt(session.final[p]) for p in session.players])
    click.echo(tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True))
