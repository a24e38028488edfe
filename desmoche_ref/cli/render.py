"""Human output: findings one a line (PATH:LINE: CODE message), tables of outcomes and nets."""

import os
import sys

import click
from tabulate import tabulate

from ..cards import pretty
from ..money import fmt


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
    return tabulate(rows, headers=headers, tablefmt="simple", colalign=("left", "right"), disable_numparse=True)


def print_report(report) -> None:
    if report.error:
        click.echo(f"{report.path}: error: {report.error}", err=False)
        return
    for hand in report.hands:
        for line, code, message in hand.findings():
            click.echo(f"{report.path}:{line}: {code} {message}")
    for number, hand in enumerate(report.hands, 1):
        out = hand.as_json()
        click.echo("")
        click.echo(f"{report.path} hand {number} (line {out['line']}): {describe_outcome(hand)}")
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
        if out["players"]:
            click.echo(hand_table(hand))


def print_session(report, session) -> None:
    if report.error or not report.hands:
        return
    click.echo("")
    click.echo(f"{report.path} session: {len(report.hands)} hands")
    for line, code, message in session.problems:
        click.echo(f"{report.path}:{line}: {code} {message}")
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
