"""A hand's record and its replay as one text (issue 35): the record's lines, numbered, each
move's line followed by what that move changed at the table, in `view --at`'s words.

    <pre class=head>1 [Players "Ana Beto Carla"] …</pre>           the lines before the moves
    <ol class=replay>                                              a step a move (#h7-m12)
    <li id=h7-m12>23 meld Carla 4d 5d 6d                           its line and the line itself
    Carla A♠ 9♠ K♠ 2♥ 3♥ 9♣ K♣ [4♦ 5♦ 6♦] · on offer: nothing      what it changed
    …</ol>

What a step changed is written as parts joined by ` · `: a seat whose status, cards or melds
changed (`Name (status) cards +N? [meld] [meld]`: no colon, its status only when it is not
`in`, `–` for no card), the card on offer (offer_text), the discard pile (pile_text; `… 7♣`
when only that card went on top), the stock (stock_text) when it changed. At the first move,
after each pay and at the last the whole table is written instead: every seat, the offer,
the whole pile, the stock, and whose turn it is (`turn: …`). A part with a colon is one of
the table's labelled lines, keyed by the words before the colon; a part without one is a
seat. That is all replay.js needs to draw the whole table at any step: it keeps each part
as the last step that wrote it left it (the turn only at the step that says it), appends to
a part whose words begin `… `, and draws the seats as a table. Without the script the page
reads as it is written, a line or two a move.

Plain strings out (escaped here): a season writes a million steps, so nothing here goes
through a template.
"""

from ..cards import CARD_NAME, pretty
from ..engine.state import ACTIVE
from ..i18n import N_
from ..view import offer_part
from ..words import STATUS, pile_text, text_words, turn

SEP = " · "
MORE = "… "  # a part's words that begin so add to what it said before (the pile's top card)
_CARD = [pretty(c) for c in range(len(CARD_NAME))]  # a card (cards.py's number) as the replay writes it: Q♦


def escape(text: str) -> str:
    """Text as HTML text (no attribute's: quotes stay quotes, the record's tags are full of them)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cards(cards) -> str:
    return " ".join([_CARD[c] for c in cards])


class Words:
    """The words of the replay in one language (`gettext`, the page's)."""

    def __init__(self, gettext):
        self.status = {code: gettext(word) for code, word in STATUS.items()}
        self.active = self.status[ACTIVE]  # a seat written without its status is in
        self.turn = gettext(N_("turn: {turn}"))
        self.pile = gettext(N_("discard pile: {cards}"))
        self.table = text_words()  # the offer's and the stock's sentences, view's

    def turn_key(self) -> str:
        """The words before the turn's colon: replay.js shows that part only where it is said."""
        return self.turn.split("{", 1)[0].rstrip().rstrip(":")


def seat_text(s, words: Words) -> str:
    """A seat (engine.queries.Seat) as a step writes it: `Beto 3♠ 4♥ [2♠ 2♦ 2♣]`, `Carla (passed) –`,
    `Ana +9?`."""
    held = _cards(s.hand)
    if s.unknown:
        held = f"{held} +{s.unknown}?" if held else f"+{s.unknown}?"
    melds = "".join([f" [{_cards(m)}]" for m in s.melds])
    status = "" if s.status == ACTIVE else f" ({words.status.get(s.status, s.status)})"
    return f"{s.name}{status} {held or '–'}{melds}"


class Table:
    """What the steps written so far said of the table: each seat, the offer, the pile, the stock."""

    def __init__(self, words: Words, names):
        self.words, self.names = words, names
        self.seats: dict[str, tuple] = {}  # name -> (status, hand, unknown, melds) as last written
        self.offer, self.dead, self.stock = (), None, None

    def parts(self, lie, view=None) -> list:
        """The parts of a step that leaves the table `lie` (view.Lying): what changed; with the
        whole `view` (view.py's), all of it and whose turn."""
        out, whole = [], view is not None
        for s in lie.seats:
            key = (s.status, s.hand, s.unknown, s.melds)
            if whole or self.seats.get(s.name) != key:
                self.seats[s.name] = key
                out.append(seat_text(s, self.words))
        if whole or lie.offer != self.offer:
            self.offer = lie.offer
            out.append(self.words.table.offer_words(offer_part(lie.offer, self.names)))
        dead = lie.dead
        if whole or dead != self.dead:
            before, self.dead = self.dead, dead
            if not whole and before and dead[:-1] == before:  # (never onto "(empty)")
                out.append(self.words.pile.format(cards=MORE + _CARD[dead[-1]]))
            else:
                out.append(pile_text({"dead": [CARD_NAME[c] for c in dead]}, False))
        if whole or lie.stock != self.stock:
            self.stock = lie.stock
            out.append(self.words.table.stock_words(lie.stock))
        if whole:
            out.append(self.words.turn.format(turn=turn(view, False)))
        return out


def replay_html(number: int, text: str, steps, recorders=(), gettext=str, entered=None) -> str:
    """The record `text` of hand `number` and its replay (`steps`: judge.Step, the whole
    table written where it has its `view`), as the HTML of a night page's hand: the lines
    before the moves in a <pre>, a step a move (`#h{number}-m{move}`), then any line after the
    last step (a hand that stopped at an invalid line). `recorders`: who entered each move; a move entered by another
    than the one before says so (`entered`: the words, `entered by {recorder}`)."""
    lines = text.splitlines()
    first = steps[0].line if steps else len(lines) + 1
    head = [f"{n} {line}" for n, line in enumerate(lines[:first - 1], 1) if line or n < first - 1]
    out = [f"<pre class=head>{escape(chr(10).join(head))}</pre>\n"] if head else []
    if steps:
        words = Words(gettext)
        table = Table(words, [s.name for s in steps[0].lie.seats])
        said = next((r for r in recorders if r), None)
        out.append("<ol class=replay>")
        for k, step in enumerate(steps):
            line = lines[step.line - 1]
            by = ""
            who = recorders[k] if k < len(recorders) else None
            if who and who != said:
                said = who
                by = f" <span class=by>{escape((entered or 'entered by {recorder}').format(recorder=who))}</span>"
            parts = table.parts(step.lie, step.view)
            changed = f"\n{escape(SEP.join(parts))}" if parts else ""
            out.append(f"<li\nid=h{number}-m{step.move}>{step.line} {escape(line)}{by}{changed}")
        out.append("</ol>\n")
    last = steps[-1].line if steps else first - 1
    rest = [f"{n} {line}" for n, line in enumerate(lines[last:], last + 1)]
    if rest:
        out.append(f"<pre class=rest>{escape(chr(10).join(rest))}</pre>\n")
    return "".join(out)
