"""The board's sentences: a hand's public view (public.py) in the words of the run's language,
as HTML (markupsafe: every name and message is escaped, a card is `<b>Q♦</b>`).

Where `view` and the table session say the same thing, the board says it with the same
sentence (words.py's turn, offer, stock, status), so it is written and translated once; the
outcome is describe.py's sentence.
"""

import re

from markupsafe import Markup, escape

from ..cards import RED, card_named, pretty
from ..describe import MOVE, outcome_text
from ..i18n import N_
from ..notation.parser import SPANISH_VERBS
from ..words import STATUS, Words as Sentences

AUTO = {"peladilla": N_("peladilla"), "cuatro-cuerpos": N_("cuatro-cuerpos"), "color": N_("color")}

# the latest move, as the room saw it (public.py's `last`: never a dealt or passed card)
MOVES = {
    "draw": N_("{player} drew {cards}"),
    "pay": N_("{player} paid {cards}"),
    "meld": N_("{player} laid {cards}"),
    "add": N_("{player} added {cards}"),
    "show": N_("{player} showed {cards}"),
    "declare": N_("{player} declared {kind}"),
    "announce": N_("{player} announced a claim for {game}"),
    "cambio": N_("{player} passed a card in the cambio"),
    "cut": N_("{player} cut"),
    "claim": N_("{player} claimed the card on offer"),
    "knock": N_("{player} let the card on offer go"),
    "pass": N_("{player} passed for the rest of the hand"),
    "foul": N_("a foul by {player}: {kind}"),
    "forgive": N_("the table forgave {player}'s foul"),
    "end": N_("the hand was ended"),
}


def card_html(name: str) -> Markup:
    """One card (its canonical name, Qd) as the board shows it: Q♦, red or black (the same
    markup as the report's pages: a <b> is a card)."""
    c = card_named(name)
    return Markup('<b class=r>{}</b>' if RED[c] else '<b>{}</b>').format(pretty(c))


def cards_html(names) -> Markup:
    return Markup(" ").join(card_html(n) for n in names)


def _html(text: str) -> Markup:
    return Markup(escape(text))


class Words(Sentences):
    """The sentences of one language (`lang`: en or es), as HTML."""

    def __init__(self, lang: str):
        super().__init__(lang, card_html, _html)

    # ------------------------------------------------------------ the table now
    def turn(self, hand: dict) -> Markup:
        """Whose turn it is, from the referee's answers (as `view` says it)."""
        over = None
        if hand.get("outcome"):
            pot = hand["result"]["pot"] if hand.get("result") else None
            over = self.say(outcome_text(hand["outcome"], pot, MOVE))
        return self.turn_words(over=over, phase=hand["phase"], action=hand["action"],
                               declared=any(d["stands"] for d in hand["declarations"]), draw=hand["next_draw"],
                               waiting=hand["cambio"], offer=hand["offer"], stock=hand["stock"])

    def offer(self, hand: dict) -> Markup:
        return self.offer_words(hand["offer"])

    def pile(self, hand: dict) -> Markup:
        top, count = hand["discard"]["top"], hand["discard"]["count"]
        if top is None:
            return self._m(N_("discard pile: {cards}"), cards=self._("(empty)"))
        return Markup(escape(self.ngettext("discard pile: {card} on top ({count} card)",
                                           "discard pile: {card} on top ({count} cards)", count))).format(
            card=card_html(top), count=count)

    def stock(self, hand: dict) -> str:
        return self.stock_words(hand["stock"])

    def last(self, hand: dict) -> Markup:
        """The latest move as the room saw it."""
        last = hand.get("last")
        if not last:
            return Markup("")
        verb, player = last["verb"], last["player"]
        if verb in ("deal", "return"):
            template = (self.ngettext("{player} was dealt {count} card", "{player} was dealt {count} cards",
                                      last["count"]) if verb == "deal" else
                        self.ngettext("{player} returned {count} card to the stock",
                                      "{player} returned {count} cards to the stock", last["count"]))
            text = Markup(escape(template)).format(player=player, count=last["count"])
        else:
            word = last["word"]
            kind = self._(AUTO[word]) if verb == "declare" and word in AUTO else word
            text = self._m(MOVES.get(verb, "{player}"), player=player or "", cards=cards_html(last["cards"]),
                           kind=kind or "", game=word or "")
        return self._m(N_("move {move}: {what}"), move=last["move"], what=text)

    def pot(self, pot: dict) -> Markup:
        """A pot at stake: the main pot, or a side game's with who entered it."""
        if pot["game"] == "main":
            text = self._m(N_("pot {pot}"), pot=pot["pot"])
        else:
            text = self._m(N_("{game} {pot} ({players})"), game=pot["game"], pot=pot["pot"],
                           players=" ".join(pot["players"]))
        if pot["carried"] != "0.00":  # as `hand show` says it (cli/hand.py: "carry in")
            text += " " + self._m(N_("(carry in {amount})"), amount=pot["carried"])
        return text

    def state(self, hand: dict):
        """What became of the hand, when it is not simply being played: void (with its reason),
        dealt again, a move or its end taken back; None otherwise."""
        number = hand["number"]
        if hand["status"] == "void":
            if hand.get("void") is None:
                return self._m(N_("hand {number} is void: it was never played"), number=number)
            return self._m(N_("hand {number} is void: {reason}"), number=number, reason=hand["void"])
        undone = hand.get("undone")
        if undone is not None:
            if undone["reopened"]:
                return self._m(N_("the end of hand {number} was taken back: the hand goes on")
                               if undone["verb"] == "end" else
                               N_("the void of hand {number} was taken back: the hand goes on"), number=number)
            return self._m(N_("move {target} ({verb}) was taken back"), target=undone["target"],
                           verb=self.verb(undone["verb"]))
        if hand.get("redealt") and hand.get("dealer"):
            return self._m(N_("hand {number} dealt again: {dealer} deals"), number=number, dealer=hand["dealer"])
        return None

    def verb(self, verb: str) -> str:
        """A verb of the notation as a person of this language types it (N4.10)."""
        if self.lang != "es":
            return verb
        return next((spanish for spanish, english in SPANISH_VERBS.items() if english == verb), verb)

    def finding(self, f: dict, rules) -> Markup:
        """A finding of the hand: its move, its rule's code and title, whose foul, its message
        when the view kept it (public.py)."""
        rule = rules.get(f["code"])
        title = rule.title if rule is not None else ""
        if f["kind"] == "foul":
            head = self._m(N_("move {move}: foul {code} by {player} ({title})") if f["enforced"] else
                           N_("move {move}: foul {code} by {player}, forgiven ({title})"),
                           move=f["move"], code=f["code"], player=f["player"], title=title)
        else:
            head = self._m(N_("move {move}: {code} ({title})"), move=f["move"], code=f["code"], title=title)
        if f["message"]:
            head += Markup(": ") + message_html(self.say(f["message"]))
        return head

    def settled(self, hand) -> str:
        """A settled hand of the night (tablebook.NightHand): who won it, in a few words."""
        who, n = self.names(hand.winners), len(hand.winners)
        if hand.outcome == "win":
            return self.ngettext("{who} wins with ten cards down", "{who} win with ten cards down", n).format(who=who)
        if hand.outcome == "auto-win":
            return self.ngettext("{who} wins by an automatic win", "{who} win by an automatic win (split)",
                                 n).format(who=who)
        return self._("no winner")

    def night_hands(self, night) -> list:
        """[(number, words)] of a night's hands (tonight.Tonight), in order: who won each
        settled one, why each voided one was (its reason as the room may read it)."""
        out = [(h.number, self.settled(h)) for h in night.hands]
        out += [(number, self._m(N_("void: {reason}"), reason=reason)) for number, reason in night.voided.items()]
        return sorted(out, key=lambda item: item[0])

    def status(self, player: dict) -> str:
        return self._(STATUS[player["status"]])


# What the page says of a book it cannot read, by the kind of trouble (the BookError's template,
# store/db.py and store/location.py): never where the book is — no path, no server's user,
# host or port (issue 33); the terminal that runs the board says it in full.
TROUBLE = (
    (("there is no book at", "holds no book yet"),
     N_("there is no book there yet: the first command that records makes it")),
    (("needs `desmoche-ref db upgrade`",), N_("the book needs `desmoche-ref db upgrade`")),
    (("newer desmoche-ref",), N_("the book was written by a newer desmoche-ref: upgrade the program")),
    (("is not a book", "not a book of this program", "no schema version"),
     N_("what the board was given is not a book")),
    (("cannot reach the database server", "connection", "not currently accepting", "shutting down"),
     N_("the database server does not answer")),
    (("refused the user or password",), N_("the database server refused the board's user")),
)


def trouble_words(sentences, problem, seconds: int) -> str:
    """The page's notice for a book the board cannot read (`problem`: the exception), in the
    board's language, saying nothing of where the book is."""
    from ..store.errors import BookError

    said = problem.args[0] if problem.args else ""
    template = f"{getattr(said, 'template', '')} {said}"  # its kind, and the driver's words in it
    why = N_("the board met a fault of its own")
    if isinstance(problem, BookError):
        why = next((said for keys, said in TROUBLE if any(k in template for k in keys)),
                   N_("the book cannot be read just now"))
    return sentences._("The board cannot read the book just now: {why}. It shows the book as it last read it and "
                   "tries again every {seconds} seconds; the terminal that runs it says more.").format(
        why=sentences._(why), seconds=seconds)


_CARD_WORD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][shdc](?![0-9A-Za-z])")  # a card as a message names it


def message_html(text: str) -> Markup:
    """An engine message (already in the run's language) with its cards (7d) as the board
    shows cards (7♦); everything else escaped."""
    out, at = [], 0
    for m in _CARD_WORD.finditer(text):
        out.append(escape(text[at:m.start()]))
        out.append(card_html(m.group(0)))
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)
