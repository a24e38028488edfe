"""Human output: findings one a line (PATH:LINE: CODE message), tables of outcomes and nets,
in the language of the run (words.py): an engine message (findings.Message) is shown by
`say`, which renders its template and values in Spanish when Spanish is chosen.

Cards are written for a person by words.py, not in the engine: the engine's messages name
cards in ASCII (`7d`), which `Style.text` turns into suit symbols (7♦), red and black on a
terminal; `--ascii`, or an output that cannot show the symbols, keeps the letters."""

import re
import unicodedata

import click

from ..findings import listed
from ..i18n import N_
from ..money import fmt
from ..words import Style, _, ngettext, outcome_sentence, say, use_colour  # noqa: F401 (the shell's names)

# The kinds of bonus and automatic win, as a person reads them (N8 writes the codes)
N_("mico")
N_("arriba-del-palo")
N_("color")
N_("peladilla")
N_("cuatro-cuerpos")
# a hand's status (N8), counted by --summary
N_("complete")
N_("incomplete")
N_("invalid")

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


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


def _names(names) -> str:
    """Names in a sentence: `Ana, Beto and Carla` (findings.listed)."""
    return say(listed(names))


def hand_table(hand) -> str:
    out = hand.as_json()
    if out["net"] is None:
        return simple_table([[name] for name in out["players"]], [_("player")])
    return simple_table([[name, out["net"][name]] for name in out["players"]], [_("player"), _("net")],
                        right={1})


def file_error(path: str, message) -> str:
    """The one line of a file that cannot be read or parsed (PATH: error: message)."""
    return _("{path}: error: {message}").format(path=path, message=say(message))


def print_file_error(path: str, message) -> None:
    click.echo(file_error(path, message))


def print_findings(path: str, findings, style: Style, live: bool = False) -> None:
    """PATH:LINE: CODE message, one a finding; `live` (a hand of the book): move N: CODE message."""
    for line, code, message in findings:
        if live:
            click.echo(_("move {seq}: {code} {message}").format(seq=line, code=code, message=style.text(message)))
        else:
            click.echo(f"{path}:{line}: {code} {style.text(message)}")


def _side_game(g, options, style: Style) -> str:
    text = _("  side game {game}: pot {pot}").format(game=g["game"], pot=g["pot"])
    if g["winners"]:
        text += _(" to {winners}").format(winners=_names(g["winners"]))
        if g["cards"]:
            text += _(" with {cards}").format(cards=style.names(g["cards"]))
    elif options["side-nowin"] == "refund":
        # R15 side-nowin=refund: this hand's stakes go back; a pot carried in stays carried
        text += _(" won by nobody: the stakes are refunded")
    else:
        text += _(" won by nobody")
    if g["carry_out"] != "0.00":
        text += _(", carries {amount}").format(amount=g["carry_out"])
    return text


def _hand_line(path, number, out, hand, live: bool = False) -> str:
    if live:
        return _("{path} hand {number}: {outcome}").format(
            path=path, number=number, outcome=outcome_sentence(out, hand.errors, live))
    return _("{path} hand {number} (line {line}): {outcome}").format(
        path=path, number=number, line=out["line"], outcome=outcome_sentence(out, hand.errors))


def print_hand(path: str, number: int, hand, style: Style | None = None, live: bool = False) -> None:
    """One hand: its header line, its findings (PATH:LINE: CODE message) under it, then
    its money and nets. `live`: a hand of the book, judged by move number (store/write/tablebook.py):
    the findings cite moves."""
    style = style or Style()
    out = hand.as_json()
    click.echo(_hand_line(path, number, out, hand, live))
    print_findings(path, hand.findings(), style, live)
    if out["status"] == "complete":
        click.echo(_("  pot {pot}, carry in {carry_in}, carry out {carry_out}").format(
            pot=out["pot"], carry_in=out["carry_in"], carry_out=out["carry_out"]))
        for b in out["bonuses"]:
            click.echo(_("  bonus {kind}: {payer} pays {winner} {amount}").format(
                kind=_(b["kind"]), payer=b["from"], winner=b["to"], amount=b["amount"]))
        for g in out["side_games"]:
            click.echo(_side_game(g, out["options"], style))
        if out["result_agrees"] is not None:
            agrees = _("  the table's result ({result}) agrees") if out["result_agrees"] \
                else _("  the table's result ({result}) DISAGREES")
            click.echo(agrees.format(result=out["result_claimed"]))
        click.echo(hand_table(hand))
    elif out["status"] == "invalid" and out["players"]:
        line = hand.errors[0].line
        if line > 1:
            click.echo(_("  the table before it: desmoche-ref view {path} --at {line}").format(
                path=path, line=line - 1))
    click.echo("")


def _counted(status: str, n: int) -> str:
    """`n` hands of a status, as --summary counts them ("3 complete")."""
    if status == "complete":
        text = ngettext("{count} complete", "{count} complete", n)
    elif status == "incomplete":
        text = ngettext("{count} incomplete", "{count} incomplete", n)
    elif status == "void":
        text = ngettext("{count} void", "{count} void", n)
    else:
        text = ngettext("{count} invalid", "{count} invalid", n)
    return text.format(count=n)


class Summary:
    """`check --summary`: one line per hand, then the file's totals."""

    def __init__(self, path: str):
        self.path = path
        self.counts = {"complete": 0, "incomplete": 0, "invalid": 0, "void": 0}
        self.players: list[str] = []
        self.net: dict[str, int] = {}   # player -> cents
        self.settled: set[str] = set()  # the players with a hand whose nets are known
        self.invalid: set[str] = set()  # the players of an invalid hand
        self.open: set[str] = set()     # the players of an incomplete hand (a void one settles nothing: N9.6)
        self.left_out: list[tuple[int, str]] = []  # (number, status) of the hands without nets
        self.findings = 0

    def add(self, number: int, hand) -> None:
        out = hand.as_json()
        self.counts[out["status"]] += 1
        self.findings += len(hand.findings())
        for name in out["players"]:
            if name not in self.net:
                self.players.append(name)
                self.net[name] = 0
        line = _hand_line(self.path, number, out, hand)
        if hand.settlement is not None:
            for name, cents in hand.settlement.net.items():
                self.net[name] += cents
                self.settled.add(name)
            line += "; " + ", ".join(f"{n} {fmt(c)}" for n, c in hand.settlement.net.items())
        else:  # no nets: its players' totals say so, not 0.00
            self.left_out.append((number, out["status"]))
            if out["status"] == "invalid":
                self.invalid.update(out["players"])
            elif out["status"] == "incomplete":
                self.open.update(out["players"])
        click.echo(line)

    def _net(self, name: str) -> str:
        """A player's total: the sum of the nets known, else why there is none."""
        if name in self.settled:
            return fmt(self.net[name])
        if name in self.invalid:
            return _("invalid")
        return _("incomplete") if name in self.open else fmt(0)  # void hands alone settle nothing

    def print_totals(self) -> None:
        hands = sum(self.counts.values())
        if not hands:
            return
        kinds = ", ".join(_counted(k, n) for k, n in self.counts.items() if n)
        found = ngettext("{count} finding", "{count} findings", self.findings).format(count=self.findings)
        if self.findings:
            found += _(" (check without --summary lists them)")
        click.echo(ngettext("{path}: {count} hand ({kinds}), {found}", "{path}: {count} hands ({kinds}), {found}",
                            hands).format(path=self.path, count=hands, kinds=kinds, found=found))
        if self.players:
            rows = [[p, self._net(p)] for p in self.players]
            click.echo(simple_table(rows, [_("player"), _("net")], right={1}))
        if self.left_out and self.settled:
            left = [_("hand {number} ({status})").format(number=n, status=_(status)) for n, status in self.left_out]
            click.echo(_("not counted in the nets: {hands}").format(hands=say(listed(left))))


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
        codes += [code for _, code, _ in night.problems + night.warnings]
        print_session(path, night, style)
    return codes


def print_running(session) -> None:
    """The players' running totals, hand after hand: where the night stood after each hand
    (a hand that is not complete changes nothing and says why)."""
    players = session.players
    rows = []
    for row, so_far in session.running():
        label = str(row.number) if row.net else _("{number} ({status})").format(
            number=row.number, status=say(row.outcome))
        rows.append([label] + [fmt(so_far[p]) if p in so_far else "" for p in players])
    click.echo(_("running totals, after each hand:"))
    click.echo(simple_table(rows, [_("after hand")] + players, right=set(range(1, 1 + len(players)))))


def print_rules_hint(codes) -> None:
    """After findings, where to read what their codes mean."""
    if codes:
        click.echo(_("What a code means: desmoche-ref rules CODE (e.g. desmoche-ref rules {code})").format(
            code=codes[0]))


def print_session(path: str, session, style: Style | None = None) -> None:
    style = style or Style()
    if not session.rows:
        return
    count = len(session.rows)
    click.echo(ngettext("{path} session: {count} hand", "{path} session: {count} hands", count).format(
        path=path, count=count))
    # errors and warnings (N9.3's dealer) in line order, as a hand's findings print
    print_findings(path, sorted(session.problems + session.warnings, key=lambda f: f[0]), style)
    players = session.players
    headers = [_("hand"), _("line"), _("dealer"), _("outcome")] + players
    rows = [[row.number, row.line, row.dealer, say(row.outcome)]
            + [fmt(row.net[p]) if p in row.net else "" for p in players] for row in session.rows]
    rows.append([_("total"), "", "", ""] + [fmt(session.totals[p]) for p in players])
    if session.refund:
        rows.append([_("returned"), "", "", _("carried pot (R11.5)")]
                    + [fmt(session.refund.get(p, 0)) for p in players])
        rows.append([_("final"), "", "", ""] + [fmt(session.final[p]) for p in players])
    money = set(range(4, 4 + len(players)))
    click.echo(simple_table(rows, headers, right=money | {1}))
    ledger = session.ledger()
    if ledger:  # what the players' totals do not balance without, line by line
        rows = [[fmt(cents), style.text(label)] for label, cents in ledger]
        click.echo(simple_table(rows, [_("amount"), _("money outside the players' totals")], right={0}))
    if count > 1:
        print_running(session)
