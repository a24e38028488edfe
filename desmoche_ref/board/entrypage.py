"""The board's entry pages drawn (issue 36): the sign-in, the tables, and a table's entry page —
the hand now, the line being built by taps, the text field, and what a hand may be told
(undo, a new hand, void, close the table) — in the board's language.

What is offered is asked of the referee through choices.py (as `play`'s completion asks it);
every sentence about the hand is words.py's (as `play` and the verbs say it). Jinja2
autoescapes everything: a name or a line is text.

The accessible names a screen reader (or a test) finds the controls by, in English (Spanish):
- a verb: the verb as the notation writes it — `draw`, `meld` (`robar`, `bajar`: N4.10);
- a player: their name — `Beto`; a card: rank and suit symbol — `2♦`, `10♠`, `Q♥`; the
  unseen card `?`; another word as it is written — `oro`, `peladilla`, `to` (`a`);
  a card already chosen is the same button, pressed (aria-pressed), which takes it out;
- `send` (`enviar`) sends the line built, shown before in the output `line to send`
  (`jugada a enviar`); `back` (`atrás`) takes its last word off, `clear` (`borrar`) all;
- the text field `line` (`jugada`) and its button `send line` (`enviar jugada`);
- `undo` (`deshacer`); `new hand` (`mano nueva`) with the dealer as a radio button named by
  the player; `void the hand` (`anular la mano`) with its field `reason` (`motivo`);
  `close the table` (`cerrar la mesa`) with the check box `yes, close table NAME for good`
  (`sí, cerrar la mesa NAME del todo`);
- the sign-in: the fields `name` and `PIN` (SQLite), `login` and `password` (PostgreSQL),
  the button `sign in` (`entrar`); `sign out` (`salir`).
"""

import os

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from .. import choices
from ..cards import CARD_NAME, parse_card
from ..describe import claims_shown_as
from ..engine.state import OVER
from ..findings import M
from ..i18n import N_
from ..notation.parser import SPANISH_VERBS, VERBS, parse_event
from ..notation.writer import write_event
from ..words import turn_text
from .sentences import Words, card_html

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")
RECENT = 6   # the hand's latest rows the page shows
ASKS = {"verb": N_("the move:"), "player": N_("who:"), "card": N_("the cards:"), "word": N_("then:")}
ASSETS = ("entry.css", "entry.js")


class EntryPages:
    def __init__(self, lang: str, version: str, server: bool):
        self.lang, self.version, self.server = lang, version, server
        self.spanish = lang == "es"
        self.words = Words(lang)
        env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                          trim_blocks=True, lstrip_blocks=True)
        env.globals.update(_=self.words._, ngettext=self.words.ngettext, pgettext=self.words.pgettext, lang=lang,
                           version=version, server=server)
        self.env = env

    def _page(self, template: str, **values) -> str:
        return self.env.get_template(template).render(**values)

    # ------------------------------------------------------------ signing in, the tables
    def sign_in(self, form_token: str, said=None, name: str = "") -> str:
        return self._page("entry_signin.html", token=form_token, said=said, name=name)

    def problem(self, session, said: str) -> str:
        """A page that says why a table cannot be shown (escaped as any other text)."""
        return self._page("entry_problem.html", session=session, said=said)

    def tables(self, session, names: list, said=None) -> str:
        return self._page("entry_tables.html", session=session, names=names, said=said)

    # ------------------------------------------------------------ a table
    def table(self, now, typed: str, session, key: str) -> str:
        """The whole entry page of a table, with the answer to the last form (shown once: the
        page a form's answer redirects to)."""
        said, session.said = session.said, None
        return self._page("entry.html", session=session, table=now.table,
                          part=Markup(self.part(now, typed, session, key, said)))

    def part(self, now, typed: str, session, key: str, said=None) -> str:
        """What the page shows inside its <main>: fetched again when the book changes or a tap
        builds the line (no answer then: that is the whole page's)."""
        return self._page("_entry.html", **self.values(now, typed, session, key, said))

    def values(self, now, typed: str, session, key: str, said=None) -> dict:
        hand = now.hand
        ref = hand.ref if hand is not None else None
        playing = hand is not None and not now.table_closed
        words = self.read_line(typed, ref) if playing else ()
        step = choices.step(ref, words) if playing else None
        return {"now": now, "hand": hand, "session": session, "key": key, "said": said,
                "seen": now.seen, "state": self.state(now), "recent": self.recent(hand),
                "step": step, "words": " ".join(words), "buttons": self.buttons(step) if step else [],
                "chosen": self.chosen(step) if step else [], "preview": self.preview(words),
                "back": " ".join(words[:-1]), "suggestions": self.suggestions(ref, "") if playing else [],
                "may_undo": hand is not None and not now.table_closed,
                "may_void": playing and not hand.closed and hand.void is None,
                "may_deal": not now.table_closed and (ref is None or hand.closed or hand.seq == 0
                                                      or ref.phase == OVER),
                "asks": self.asks(step)}

    def read_line(self, typed: str, ref) -> tuple:
        """The words of the line being built, its verb as the notation writes it; () when they
        are not a line the referee could be asked about (a forged or stale address)."""
        words = typed.split()
        if not words or ref is None:
            return ()
        verb = SPANISH_VERBS.get(words[0], words[0])
        if verb not in VERBS or (len(words) > 1 and words[1] not in ref.setup.players):
            return ()
        return tuple([verb] + words[1:])

    def state(self, now) -> list:
        """The hand now, a line each: who deals and the bet, whose turn, the pile, the stock,
        the claims still to be shown."""
        w, hand = self.words, now.hand
        if hand is None:
            return [w.say(M("table {table}: no hand yet — deal the first", table=now.table))]
        ref = hand.ref
        setup = ref.setup
        lines = [w.say(M("table {table}, hand {number} · dealer {dealer} · bet {bet}", table=now.table,
                         number=hand.number, dealer=setup.players[setup.dealer], bet=_money(setup.bet)))]
        if now.table_closed:
            return lines + [w.say(M("table {name} closed", name=now.table))]
        if hand.void is not None:
            lines.append(w.say(M("the hand is void: {reason}", reason=hand.void.comment or "")))
        elif hand.closed:
            lines.append(w.say(M("the hand is closed and posted: `new hand` deals the next")))
        else:
            lines.append(w.say(turn_text(ref)))
        dead = ref.report.state.dead
        lines.append(w.pile({"discard": {"top": CARD_NAME[dead[-1]] if dead else None, "count": len(dead)}}))
        lines.append(w.stock_words(ref.report.state.stock))
        pending = ref.pending_claims()
        if pending and ref.phase != OVER:
            lines.append(w.say(M("still to be shown: {claims}", claims=claims_shown_as(pending, _pretty))))
        return lines

    def recent(self, hand) -> list:
        if hand is None:
            return []
        return [self.words.say(M("move {seq}: {line} — {recorder}", seq=r.seq,
                                 line=choices.spoken(r.line, self.spanish), recorder=r.recorder or "?"))
                for r in hand.log[-RECENT:]]

    def asks(self, step) -> str:
        if step is None or not step.options:
            return ""
        return self.words._(ASKS[step.asks])

    def buttons(self, step) -> list:
        """(label, the line it makes, pressed or None) of each word offered next."""
        pressed = False if step.many else None
        return [(self.label(o, step.asks), " ".join(step.words + (o,)), pressed) for o in step.options]

    def chosen(self, step) -> list:
        """The cards of a many-card step already chosen: each a pressed button that takes it out."""
        if not step.many:
            return []
        out = []
        for i, word in enumerate(step.words[2:], 2):
            if parse_card(word) is not None:
                rest = step.words[:i] + step.words[i + 1:]
                out.append((self.label(word, "card"), " ".join(rest), True))
        return out

    def label(self, word: str, asks: str):
        if asks == "verb":
            return choices.SPANISH_OF.get(word, word) if self.spanish else word
        if word in CARD_NAME:
            return card_html(word)
        if word == "to" and self.spanish:
            return "a"
        return word

    def preview(self, words) -> str:
        """The line in the notation, as it will be sent (with the Spanish verb in Spanish)."""
        if not words:
            return ""
        ev = parse_event(" ".join(words), 0)
        line = write_event(ev) if ev.error is None else " ".join(words)
        return choices.spoken(line, self.spanish)

    def suggestions(self, ref, text: str) -> list:
        """Lines the text field suggests for what is typed (`text`): the words the referee
        offers next after it, each as the whole line."""
        if ref is None:
            return []
        words = text.split()
        partial = "" if not words or text[-1:].isspace() else words.pop()
        if not words:
            found = [choices.SPANISH_OF.get(v, v) if self.spanish else v for v in choices.verbs(ref)]
        else:
            verb = SPANISH_VERBS.get(words[0], words[0])
            found = choices.next_words(verb, words[1:], ref, "a" if self.spanish else "to") if verb in VERBS else []
        head = " ".join(words)
        return [f"{head} {w}".strip() for w in found if w.lower().startswith(partial.lower())][:60]


def _pretty(cards) -> str:
    from ..cards import pretty_cards

    return pretty_cards(cards)


def _money(cents: int) -> str:
    from ..money import fmt

    return fmt(cents)
