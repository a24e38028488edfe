"""The words every front end shows, once: the language of the run, an engine message in it,
cards for a person, a player's status, the hand's outcome, whose turn it is, the card on
offer, the discard pile and the stock.

Below the front ends (`cli/`, `play/`, `report/`, `board/`), above the core they speak of
(describe.py's outcome, view.py's table, the referee's queries); no click, no store, no I/O
but the environment a run's language is read from. Each sentence is written once and each
front end says it its own way: the terminal as text (cards with suits, coloured or not),
the report's pages and the board as HTML (`Words` with their card and escaping).

Two sentences say whose turn it is, each for its place: `turn` the full one (`view`, the
report's replay, the board: from view.py's table or public.py's view), `turn_text` the
prompt's short one (`play`, the verbs' echo: from the referee itself).
"""

import contextvars
import os
import re
import sys
from string import Formatter

from . import i18n
from .cards import CARD_NAME, card_named, colour_wanted, pretty, pretty_cards
from .describe import LINE, MOVE, claims_shown_as, outcome_text
from .engine.found import INVALID
from .engine.state import ACTIVE, DEAL, DISQUALIFIED, OVER, PASSED, PRE
from .findings import M, Message, Verbatim, listed, render
from .i18n import N_

# ------------------------------------------------------------------ the language of a run
# the language of the run in progress (set by the command line as it starts: cli/lang.py's
# Translated.main); None outside a run, where the environment decides
RUN = contextvars.ContextVar("desmoche_ref.lang", default=None)


def language() -> str:
    """The language of this run, else the environment's (DESMOCHE_LANG, the locale)."""
    return RUN.get() or i18n.choose(None, os.environ)


def _(message: str) -> str:
    """`message` in the language of this run."""
    return i18n.translations(language()).gettext(message)


def ngettext(one: str, many: str, n: int) -> str:
    return i18n.translations(language()).ngettext(one, many, n)


def say(message) -> str:
    """An engine message (findings.Message) in the chosen language; English as it is."""
    if language() == "en":
        return message
    return render(message, _, ngettext)


# ------------------------------------------------------------------------ cards for a person
# A card name standing alone in an engine message: rank letter, lower-case suit letter.
_CARD_WORD = re.compile(r"(?<![\w'])([2-9TJQKA][shdc])(?![\w'])")


def _stream_shows_suits(stream) -> bool:
    try:
        "♠♥♦♣—".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def use_colour(stream=None) -> bool:
    """Colour only for a terminal that wants it: not with NO_COLOR, TERM=dumb, or a pipe."""
    return colour_wanted(os.environ, (stream or sys.stdout).isatty())


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
        return self.cards(card_named(n) for n in names)

    def text(self, message: str) -> str:
        """An engine message in the chosen language, the cards it names written for a person.
        A Message's cards are its values (`{cards}`): the words of its template stay as
        written, so an example of what to type (`cards are like As, Td`) reads as typed; so
        does a value the template quotes (`{word!r}`: what the recorder typed)."""
        if not self.symbols:
            return say(message)
        if isinstance(message, Verbatim):
            return message
        if not isinstance(message, Message):
            return self._suits(message) if isinstance(message, str) else message
        spoken = (_, ngettext) if language() != "en" else (str, None)
        words = message.words(*spoken)
        quoted = {name for _s, name, _f, conversion in Formatter().parse(words) if conversion}
        return words.format_map({k: render(v, *spoken) if k in quoted else self.text(v)
                                 for k, v in message.args.items()})

    def _suits(self, text: str) -> str:
        return _CARD_WORD.sub(lambda m: self.card(card_named(m.group(1))), text)


def cards_of(names, colour: bool) -> str:
    """Cards given by their ASCII names (view.py's, public.py's), with their suits."""
    return pretty_cards([card_named(n) for n in names], colour)


# ------------------------------------------------------------------ a player, a hand's outcome
# a player's status as a person reads it (N8 writes the code)
STATUS = {ACTIVE: N_("in"), PASSED: N_("passed"), DISQUALIFIED: N_("out")}


def status_word(code: str):
    """A seat's status (engine/state.py's code) as a message, or the code if it has none."""
    return M(STATUS[code]) if code in STATUS else code


def outcome_sentence(out, errors, live: bool = False) -> str:
    """The hand's outcome in words (describe.outcome_text), from its verdict `out` (N8) and its
    errors; `live` cites the move (the book's seq), not the line."""
    return say(outcome_text(out["outcome"], out["pot"], MOVE if live else LINE, out["status"],
                            errors[0] if errors else None, out.get("void_reason")))


def outcome_words(ref):
    """How the hand of the referee `ref` ended, in the sentence check says it in (describe.py),
    citing no line: at the table, it ended with the move just made."""
    o = ref.outcome
    names = ref.setup.players
    return outcome_text({"kind": o.kind, "winners": [names[s] for s in o.winners], "auto": o.auto,
                         "line": o.line}, cite=None)


# ------------------------------------------------------------- the table at a line, in words
class Words:
    """The table's sentences in one language (`lang`), as one front end writes them: `card`
    writes a card given by its name (7d), `text` makes a translated template the string its
    values are put in (`str` for the terminal; the board's and the pages' HTML escape it)."""

    def __init__(self, lang: str, card, text=str):
        words = i18n.translations(lang)
        self.lang, self._, self.ngettext, self.pgettext = lang, words.gettext, words.ngettext, words.pgettext
        self.card, self.text = card, text

    def say(self, message) -> str:
        """An engine message (findings.Message) in this language."""
        return render(message, self._, self.ngettext)

    def names(self, names) -> str:
        return self.say(listed(names))

    def _m(self, template: str, **values):
        """`template` in this language, its values put in."""
        return self.text(self._(template)).format(**values)

    def turn_words(self, *, over, phase, action, declared, draw, waiting, offer, stock):
        """Whose turn it is, from the referee's answers as the table's view holds them (view.py,
        public.py): `over` the outcome's sentence once the hand is over, `declared` whether an
        automatic win stands, `waiting` the players the cambio waits for."""
        _m = self._m
        if over:
            return _m(N_("over: {outcome}"), outcome=over)
        if phase == "deal":
            return _m(N_("the deal"))
        if action:
            card = self.card(action["taken"])
            if action["owes"] == "mend":
                return _m(N_("{player} took {card}: mends the melds a desmoche broke, then pays"),
                          player=action["player"], card=card)
            return _m(N_("{player} took {card}: lays more, then pays (or wins)"), player=action["player"], card=card)
        if declared:
            return _m(N_("an automatic win is declared: declarations close with `end`"))
        if draw is None:
            return _m(N_("no player is left"))
        drawer = draw["player"]
        if phase == "pre-play":
            if waiting:
                return _m(N_("the cambio: waiting for {players}; then {player} draws first"),
                          players=self.names(waiting), player=drawer)
            return _m(N_("{player} draws the first card"), player=drawer)
        if offer:
            card = self.card(offer["card"])
            if offer["must_take"]:
                return _m(N_("{player} must take {card}: it fits a meld on the table (R9.1)"),
                          player=offer["must_take"], card=card)
            if stock == 0:
                return _m(N_("if nobody takes {card}, the hand ends (the stock is empty)"), card=card)
            return _m(N_("if nobody takes {card}, {player} draws next"), card=card, player=drawer)
        return _m(N_("{player} draws next"), player=drawer)

    def offer_words(self, offer):
        """The card on offer (view.py's, public.py's), who may take it and who must, in words."""
        if not offer:
            return self._m(N_("on offer: nothing"))
        how = self._("drawn by {player}") if offer["how"] == "drawn" else self._("paid by {player}")
        text = self.text(self.ngettext("on offer: {card} ({how}); may take: {players}",
                                       "on offer: {card} ({how}); may take: {players}",
                                       max(1, len(offer["may_take"])))).format(
            card=self.card(offer["card"]), how=how.format(player=offer["by"]),
            players=self.names(offer["may_take"]) or self._("nobody"))
        if offer["must_take"]:
            text += self._m(N_("; must take: {player} (R9.1)"), player=offer["must_take"])
        return text

    def stock_words(self, count: int) -> str:
        return self.ngettext("stock: {count} card", "stock: {count} cards", count).format(count=count)


def _terminal(colour: bool) -> Words:
    return Words(language(), lambda name: cards_of([name], colour))


def text_words() -> Words:
    """The table's sentences as plain text in the run's language (as `offer_text`, `stock_text`
    and `turn` say them), made once for a caller that says thousands (the report's replay)."""
    return _terminal(False)


def turn(t, colour) -> str:
    """Whose turn it is, in words, from the referee's answers in the table `t` (view.py's)."""
    waiting = [m["player"] for m in t["moves"] if m["verb"] == "cambio"] if t["phase"] == "pre-play" else []
    # the sentence check says it in (describe.py), less the pot: no settlement here
    over = say(outcome_text(t["outcome"])) if t["outcome"] else None
    return _terminal(colour).turn_words(over=over, phase=t["phase"], action=t["action"], declared=t["declared"],
                                  draw=t["next_draw"], waiting=waiting, offer=t["offer"], stock=t["stock"])


def offer_text(t, colour) -> str:
    """The card on offer in the table `t`, who may take it and who must, in words."""
    return _terminal(colour).offer_words(t["offer"])


def pile_text(t, colour) -> str:
    return _("discard pile: {cards}").format(cards=cards_of(t["dead"], colour) or _("(empty)"))


def stock_text(t) -> str:
    return _terminal(False).stock_words(t["stock"])


# ------------------------------------------------------------- the prompt's turn, in words
def turn_text(ref, colour: bool = False):
    """Whose turn it is and what is on the table, asked of the hand's referee `ref` (the play
    prompt's, the verbs' echo), e.g. `Carla to act · on offer 7♣ from Beto`."""
    names = ref.setup.players
    if ref.status == INVALID:
        e = ref.report.errors[0]
        return M("invalid at line {line} ({code}): `undo` takes the move back", line=e.line, code=e.code)
    phase = ref.phase
    if phase == OVER:
        pending = ref.pending_claims()
        if pending:
            return M("over: {outcome} · to show: {claims} · `end` closes the hand", outcome=outcome_words(ref),
                     claims=claims_shown_as(pending, lambda cards: pretty_cards(cards, colour)))
        return M("over: {outcome} · `end` closes the hand", outcome=outcome_words(ref))
    if phase == DEAL:
        if ref.deal_done():
            return M("dealt: the cambio next, {players} to pass a card",
                     players=listed(names[s] for s in ref.setup.order_from_dealer()))
        return M("the deal: {dealer} deals", dealer=names[ref.setup.dealer])
    if ref.declared():
        return M("an automatic win is declared: `end` closes the declarations")
    action = ref.action()
    if action is not None:
        card = pretty(action.taken, colour)
        if action.owes == "pay":
            return M("{player} to act · took {card}, pays next", player=names[action.seat], card=card)
        return M("{player} to act · took {card}, mends the broken melds, then pays",
                 player=names[action.seat], card=card)
    seats = ref.seats_view()
    if phase == PRE:
        waiting = [seats[i].name for i in ref.setup.order_from_dealer()
                   if seats[i].status == ACTIVE and not seats[i].cambio_done]
        if waiting and any(m.verb == "cambio" for m in ref.moves()):
            return M("the cambio: {players} to pass a card", players=listed(waiting))
    drawer = ref.next_drawer()
    drawer = names[drawer[0]] if drawer is not None and drawer[0] >= 0 else None
    offer = ref.offer()
    if offer is None:
        return M("{player} to draw", player=drawer) if drawer else M("nobody left to play")
    on_offer = M("on offer {card} from {player}", card=pretty(offer.card, colour), player=names[offer.by])
    if offer.must_take >= 0:
        return M("{player} must take it (R9.1) · {offer}", player=names[offer.must_take], offer=on_offer)
    if offer.may_take:
        return M("{player} to act · {offer}", player=names[offer.may_take[0]], offer=on_offer)
    if drawer is None:
        return M("the stock is out: `end` · {offer}", offer=on_offer)
    return M("{player} to draw · {offer}", player=drawer, offer=on_offer)


def rating_scale() -> Message:
    """What a rating means and its scale, beside the ratings (`ratings`, the report): its
    figures are rating.py's, a new player's and a middling player's included."""
    from .rating import MU, SIGMA, figure, middling

    return M("rating = mean − 3 × deviation: the skill the hands show for sure. Everyone starts at {zero} "
             "(mean {mu}, deviation {sigma}); as a player's hands are rated the deviation shrinks and the "
             "rating climbs towards the mean: about {middle} after some hundreds of hands for a player who "
             "wins as often as the others, more for one who beats them more often.", zero=figure(MU - 3 * SIGMA),
             mu=figure(MU), sigma=figure(SIGMA), middle=round(middling()))


ON, OFF = N_("on"), N_("off")  # an option's value as `state` and `view` show it


def options_text(options: dict) -> str:
    """The rule options in force (R15: `RuleOptions.as_json()`), as `name=value`, an on/off
    value in the run's language (the names and the other values are the notation's)."""
    return " ".join(f"{k}={_(ON) if v is True else _(OFF) if v is False else v}" for k, v in options.items())


def echo_text(seq: int, line: str, ref, closed: bool = False, colour: bool = False):
    """What the table session and the board's entry say of an accepted move: its number, its
    line, and where the hand stands after it (`move 8: draw Beto 2d — Beto to act · on offer
    2♦ from Beto`)."""
    if closed:
        return M("move {seq}: {line} — hand closed and posted", seq=seq, line=line)
    return M("move {seq}: {line} — {turn}", seq=seq, line=line, turn=turn_text(ref, colour))


def foul_text(f):
    """A foul after its code: `Carla: looked through the discard pile — enforced, disqualified`."""
    if f.enforced:
        return M("{player}: {message} — enforced, disqualified", player=f.player, message=f.message)
    return M("{player}: {message} — forgiven", player=f.player, message=f.message)


# ------------------------------------------------------------- what a write did, in words
# (the verbs and `play` on a terminal, the board's entry on a phone: one sentence each)
def undone_message(done, line: str | None = None):
    """What an undo did (tablebook.Undone, or TableReopened when it took a table's close
    back), one line; `line`: the line taken back as the front end says it (in Spanish its
    Spanish verb), by default as stored. A `void` row taken back posted nothing."""
    if not hasattr(done, "hand_new"):
        return reopened_message(done)
    values = dict(seq=done.seq, target=done.target, line=done.line if line is None else line, number=done.number)
    void = done.line == "void"  # the row `hand void` stores (store/records.VOID_LINE)
    if done.hand_new and void:
        return M("took back `hand new`: hand {number} is open again, void no more — move {seq} undid its void "
                 "(move {target})", **values)
    if done.hand_new:
        return M("took back `hand new`: hand {number} is open again — move {seq} undid move {target} ({line}), "
                 "its postings reversed", **values)
    if done.reopened and void:
        return M("move {seq}: undid the void (move {target}); hand {number} is open again", **values)
    if done.reopened:
        return M("move {seq}: undid move {target} ({line}); hand {number} is open again, its postings reversed",
                 **values)
    return M("move {seq}: undid move {target} ({line})", **values)


def reopened_message(done):
    """A closed table opened again (`undo` after `table close`, `table reopen`:
    tablebook.TableReopened): what the pots hold again of what the close had returned."""
    from .money import fmt

    text = M("took back `table close`: table {table} is open again", table=done.name)
    for pot, shares in done.returned.items():
        given = ", ".join(f"{p} {fmt(c)}" for p, c in shares.items())
        more = M("  the main pot holds again what it had returned: {given}", given=given) if pot == "main" else \
            M("  the {game} pot holds again what it had returned: {given}", game=pot, given=given)
        text = M("{text}\n{more}", text=text, more=more)
    return text


def already_message(done, line: str | None = None):
    """A line that is a move of the hand sent again (store/write/repeats.py, tablebook.Recorded.unchanged):
    not stored twice; `line` as the front end says it (in Spanish its Spanish verb)."""
    return M("already recorded (move {seq}): {line} changes nothing, nothing stored", seq=done.seq,
             line=done.line if line is None else line)


def opened_message(table: str, opened, command: str = "desmoche-ref hand new"):
    """What a hand dealt says (tablebook.Opened): its number, dealer, bet, side games and what
    it carries in; a hand dealt already (the one asked for, played: nothing done) says so,
    naming the `command` that deals the next."""
    from .money import fmt

    new = opened.hand
    if getattr(opened, "already", None) is not None:
        return M("hand {number} at table {table} is dealt already by {dealer} (now at move {seq}): nothing "
                 "done; the next hand passes the deal to the right (`{command}` without --dealer)",
                 number=new.number, table=table, dealer=new.dealer, seq=opened.already, command=command)
    games = ", ".join(f"{g} {fmt(st)} ({' '.join(n)})" for g, st, n in new.sides) or M("none")
    values = dict(number=new.number, table=table, dealer=new.dealer, bet=fmt(new.bet), games=games)
    text = M("hand {number} at table {table} dealt again: {dealer} deals; bet {bet}; side games: {games}",
             **values) if opened.redealt else \
        M("hand {number} at table {table}: {dealer} deals; bet {bet}; side games: {games}", **values)
    if new.carry_in:
        text = M("{text}{more}", text=text, more=M("; carry in {amount}", amount=fmt(new.carry_in)))
    for game, c in new.side_carry.items():
        text = M("{text}{more}", text=text, more=M("; {game} carry in {amount}", game=game, amount=fmt(c)))
    return text


def voided_message(done, table: str, new: str):
    """What voiding a hand did (tablebook.Voided); `new` the command that deals the next."""
    return M("move {seq}: hand {number} at table {table} is void ({reason}): nothing posted, its pots "
             "pass on; `{new}` deals the next (the same dealer)", seq=done.seq, number=done.number, table=table,
             reason=done.reason, new=new)


def table_closed_messages(name: str, closed) -> list:
    """What closing a table did (tablebook.TableClosed), after its last hand's settlement."""
    from .money import fmt
    from .settle import MAIN_POT

    out = [M("table {name} closed", name=name)]
    for pot, shares in closed.refund.items():
        given = ", ".join(f"{p} {fmt(c)}" for p, c in shares.items())
        out.append(M("  the carried main pot is returned (R11.5): {given}", given=given) if pot == MAIN_POT else
                   M("  the carried {game} pot is returned (R11.5): {given}", game=pot, given=given))
    return out
