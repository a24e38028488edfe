"""Human output: findings one a line (PATH:LINE: CODE message), tables of outcomes and nets.

Cards are written for a person here, not in the engine: the engine's messages name cards
in ASCII (`7d`), which `Style.text` turns into suit symbols (7♦), red and black on a
terminal; `--ascii`, or an output that cannot show the symbols, keeps the letters."""

import os
import re
import sys
import unicodedata

import click

from ..cards import CARD_NAME, parse_card, pretty
from ..money import fmt

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A card name standing alone in an engine message: rank letter, lower-case suit letter.
_CARD_WORD = re.compile(r"(?<![\w'])([2-9TJQKA][shdc])(?![\w'])")


def visible_width(text: str) -> int:
    """Terminal columns of a cell: colour codes take none, wide (CJK) characters two."""
    plain = _ANSI.sub("", text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in plain)


def simple_table(rows, headers, right=()) -> str:
    """A plain table in tabulate's "simple" style; the columns in `right` (money) are
    right-aligned. Drawn here: tabulate's import costs more than click's, and `check`
    runs once per move at the table."""
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


def _stream_shows_suits(stream) -> bool:
    try:
        "♠♥♦♣—".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def use_colour(stream=None) -> bool:
    """Colour only for a terminal that wants it: not with NO_COLOR, TERM=dumb, or a pipe."""
    stream = stream or sys.stdout
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


class Style:
    """How cards print: suit symbols (coloured on a terminal) or plain letters."""

    __slots__ = ("symbols", "colour")

    def __init__(self, ascii_only=False, stream=None):
        stream = stream or sys.stdout
        self.symbols = not ascii_only and _stream_shows_suits(stream)
        self.colour = self.symbols and use_colour(stream)

    def card(self, c: int) -> str:
        return pretty(c, self.colour) if self.symbols else CARD_NAME[c]

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards)

    def names(self, names) -> str:
        """Cards given by their ASCII names (as in the JSON)."""
        return self.cards(parse_card(n) for n in names)

    def text(self, message: str) -> str:
        """An engine message with its card names written for a person."""
        if not self.symbols:
            return message
        return _CARD_WORD.sub(lambda m: self.card(parse_card(m.group(1))), message)


def cards_text(cards, colour=False) -> str:
    return " ".join(pretty(c, colour) for c in cards)


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def _names(names) -> str:
    return " and ".join(names)


def describe_outcome(hand) -> str:
    out = hand.as_json()
    return _outcome(out, hand.errors)


def _outcome(out, errors) -> str:
    status = out["status"]
    if status == "invalid":
        e = errors[0]
        return f"invalid at line {e.line} ({e.code})"
    if status == "incomplete":
        return "incomplete (the record stops before the hand is over)"
    o = out["outcome"]
    who = _names(o["winners"])
    verb = "wins" if len(o["winners"]) == 1 else "win"
    if o["kind"] == "win":
        return f"{who} {verb} with ten cards down (line {o['line']})"
    if o["kind"] == "auto-win":
        split = " (split)" if len(o["winners"]) > 1 else ""
        return f"{who} {verb} by {o['auto']}{split} (line {o['line']})"
    return f"no winner (line {o['line']}): the pot of {out['pot']} carries"


def hand_table(hand) -> str:
    out = hand.as_json()
    if out["net"] is None:
        return simple_table([[name] for name in out["players"]], ["player"])
    return simple_table([[name, out["net"][name]] for name in out["players"]], ["player", "net"],
                        right={1})


def print_file_error(path: str, message: str) -> None:
    click.echo(f"{path}: error: {message}")


def print_findings(path: str, findings, style: Style) -> None:
    for line, code, message in findings:
        click.echo(f"{path}:{line}: {code} {style.text(message)}")


def _side_game(g, options, style: Style) -> str:
    text = f"  side game {g['game']}: pot {g['pot']}"
    if g["winners"]:
        text += f" to {_names(g['winners'])}"
        if g["cards"]:
            text += f" with {style.names(g['cards'])}"
    elif options["side-nowin"] == "refund":
        # R15 side-nowin=refund: this hand's stakes go back; a pot carried in stays carried
        text += " won by nobody: the stakes are refunded"
    else:
        text += " won by nobody"
    if g["carry_out"] != "0.00":
        text += f", carries {g['carry_out']}"
    return text


def print_hand(path: str, number: int, hand, style: Style | None = None) -> None:
    """One hand: its header line, its findings (PATH:LINE: CODE message) under it, then
    its money and nets."""
    style = style or Style()
    out = hand.as_json()
    click.echo(f"{path} hand {number} (line {out['line']}): {_outcome(out, hand.errors)}")
    print_findings(path, hand.findings(), style)
    if out["status"] == "complete":
        money = [f"pot {out['pot']}", f"carry in {out['carry_in']}", f"carry out {out['carry_out']}"]
        click.echo("  " + ", ".join(money))
        for b in out["bonuses"]:
            click.echo(f"  bonus {b['kind']}: {b['from']} pays {b['to']} {b['amount']}")
        for g in out["side_games"]:
            click.echo(_side_game(g, out["options"], style))
        if out["result_agrees"] is not None:
            click.echo(f"  the table's result ({out['result_claimed']}) "
                       + ("agrees" if out["result_agrees"] else "DISAGREES"))
        click.echo(hand_table(hand))
    elif out["status"] == "invalid" and out["players"]:
        line = hand.errors[0].line
        if line > 1:
            click.echo(f"  the table before it: desmoche-ref view {path} --at {line - 1}")
    click.echo("")


class Summary:
    """`check --summary`: one line per hand, then the file's totals."""

    def __init__(self, path: str):
        self.path = path
        self.counts = {"complete": 0, "incomplete": 0, "invalid": 0}
        self.players = []
        self.net = {}
        self.findings = 0

    def add(self, number: int, hand) -> None:
        out = hand.as_json()
        self.counts[out["status"]] += 1
        self.findings += len(hand.findings())
        for name in out["players"]:
            if name not in self.net:
                self.players.append(name)
                self.net[name] = 0
        line = f"{self.path} hand {number} (line {out['line']}): {_outcome(out, hand.errors)}"
        if hand.settlement is not None:
            for name, cents in hand.settlement.net.items():
                self.net[name] += cents
            line += "; " + ", ".join(f"{n} {fmt(c)}" for n, c in hand.settlement.net.items())
        click.echo(line)

    def print_totals(self) -> None:
        hands = sum(self.counts.values())
        if not hands:
            return
        kinds = ", ".join(f"{n} {k}" for k, n in self.counts.items() if n)
        found = plural(self.findings, "finding") + (" (check without --summary lists them)"
                                                     if self.findings else "")
        click.echo(f"{self.path}: {plural(hands, 'hand')} ({kinds}), {found}")
        if self.players:
            rows = [[p, fmt(self.net[p])] for p in self.players]
            click.echo(simple_table(rows, ["player", "net"], right={1}))


def print_report(report, style: Style, summary: bool = False) -> list:
    """A file's verdict for a person, hand by hand as it is judged; the codes it cited."""
    path = report.path
    codes = []
    tally = Summary(path) if summary else None
    for number, hand in enumerate(report, 1):
        if tally:  # one line a hand: the codes shown are the invalid hands'
            tally.add(number, hand)
            codes += [e.code for e in hand.errors]
        else:
            print_hand(path, number, hand, style)
            codes += [code for _, code, _ in hand.findings()]
    if tally:
        tally.print_totals()
    if report.error:
        print_file_error(path, report.error)
    if report.session is not None:
        night = report.session.finish()
        codes += [code for _, code, _ in night.problems]
        print_session(path, night, style)
    return codes


def print_rules_hint(codes) -> None:
    """After findings, where to read what their codes mean."""
    if codes:
        click.echo(f"What a code means: desmoche-ref rules CODE (e.g. desmoche-ref rules {codes[0]})")


def print_session(path: str, session, style: Style | None = None) -> None:
    style = style or Style()
    if not session.rows:
        return
    click.echo(f"{path} session: {plural(len(session.rows), 'hand')}")
    print_findings(path, session.problems, style)
    players = session.players
    headers = ["hand", "line", "dealer", "outcome"] + players
    rows = [[row.number, row.line, row.dealer, row.outcome]
            + [fmt(row.net[p]) if p in row.net else "" for p in players] for row in session.rows]
    rows.append(["total", "", "", ""] + [fmt(session.totals[p]) for p in players])
    if session.refund:
        rows.append(["returned", "", "", "carried pot (R11.5)"]
                    + [fmt(session.refund.get(p, 0)) for p in players])
        rows.append(["final", "", "", ""] + [fmt(session.final[p]) for p in players])
    money = set(range(4, 4 + len(players)))
    click.echo(simple_table(rows, headers, right=money | {1}))
    ledger = session.ledger()
    if ledger:  # what the players' totals do not balance without, line by line
        rows = [[fmt(cents), style.text(label)] for label, cents in ledger]
        click.echo(simple_table(rows, ["amount", "money outside the players' totals"], right={0}))
