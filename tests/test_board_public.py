"""The public view of a hand (public.py), which the live board shows (issue 28): exactly what
every player at the table has seen. Each card is followed independently of public.py — a card
is seen once drawn, paid, laid in a meld, shown, or laid face up by a declaration (of the
cards it names, those the declarer holds: docs/rulings.md)
— and after every event of every sample record, conformance record and a simulated season,
neither the view's JSON nor the board drawn from it (in English and in Spanish) holds a card
not yet seen, in the form the board writes cards (Q♦) or the notation's (Qd)."""

import pathlib
import re

import pytest

from desmoche_ref.cards import CARD_NAME
from desmoche_ref.engine.replay import Referee
from desmoche_ref.engine.setup import read_setup
from desmoche_ref.notation.parser import parse_text
from desmoche_ref.public import PublicHand, public_hand

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHOWING = ("draw", "pay", "meld", "add", "show")


def records(paths):
    for path in paths:
        for hand in parse_text(path.read_text(encoding="utf-8")).hands:
            yield path.name, hand


def sample_hands():
    return list(records(sorted((ROOT / "sample_logs").glob("*.dsm")) +
                        sorted((ROOT / "tests" / "conformance").glob("*.dsm"))))


class Seen:
    """The cards every player has seen, followed from the lines (not from public.py)."""

    def __init__(self, setup):
        self.ref, self.cards = Referee(setup), set()

    def apply(self, ev) -> bool:
        if self.ref.apply(ev) is not None:
            return False
        if ev.verb in SHOWING:
            self.cards |= set(ev.cards)
        elif ev.verb == "declare":  # the hand laid down: of the cards named, those held (R6.3)
            held = self.ref.g.players[self.ref.seats[ev.actor]].hand
            self.cards |= set(ev.cards) & held if ev.cards else set(held)
        return True

    def hidden(self) -> set:
        return set(range(52)) - self.cards


# a card in every notation a person or a program writes one (N2): the rank 2-9, 10 or T, J, Q,
# K, A in either case, then the suit as a letter in either case or a symbol of either set, with
# or without the emoji selector — Qd, QD, qd, Q♦, Q♢, 10♦, Td, 10d — standing alone (not the
# end of a file's name: board.js)
CARD_WORD = re.compile("(?<![0-9A-Za-z./])(?:10|[2-9tjqkaTJQKA])\ufe0f?[shdcSHDC♠♥♦♣♤♡♢♧]\ufe0f?(?![0-9A-Za-z])")
PROSE = {"as"}  # the English word, in the board's own sentences ("as dealt"): A♠ is As, AS, A♠ …


def readable(text: str) -> list:
    """Every string a person or a program reads in what the board sent: an HTML page's or
    fragment's text and attribute values, a JSON's keys and strings, an event stream's fields
    (its data read as HTML) — not the names of tags, attributes or fields."""
    import json
    from html.parser import HTMLParser

    if text.lstrip().startswith("{"):
        out = []

        def walk(value):
            if isinstance(value, dict):
                for k, v in value.items():
                    out.append(k)
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)
            elif isinstance(value, str):
                out.append(value)

        walk(json.loads(text))
        return out
    if text.startswith(("event:", "id:", "data:", "retry:", ":")):  # a server-sent event
        fields = [line.partition(":")[::2] for line in text.splitlines() if line]
        return [v.strip() for k, v in fields if k != "data"] + readable("\n".join(v[1:] for k, v in fields
                                                                                 if k == "data"))

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.out = []

        def handle_starttag(self, tag, attrs):
            self.out += [v for _k, v in attrs if v]

        def handle_data(self, data):
            self.out.append(data)

    reader = Reader()
    reader.feed(text)
    reader.close()
    return reader.out


def leaks(text: str, hidden) -> list:
    """The hidden cards `text` names, in any notation, wherever a reader could read them."""
    from desmoche_ref.cards import parse_card

    named = {parse_card(token) for part in readable(text) for token in CARD_WORD.findall(part)
             if token not in PROSE}
    return sorted(CARD_NAME[c] for c in named & set(hidden))


def test_the_leak_finder_reads_every_notation_where_a_reader_would():
    """The test's own eyes: each form of Q♦ in a page's text, an attribute, a JSON string or an
    event's data is found; a tag's name (`<td>`) and the word `as` are not cards."""
    forms = ["Qd", "QD", "qd", "Q♦", "Q♢", "Q♦\ufe0f", "qD"]
    for form in forms:
        assert leaks(f"<p>Ana: {form}</p>", {CARD_NAME.index("Qd")}) == ["Qd"], form
        assert leaks(f'<li data-card="{form}">x</li>', {CARD_NAME.index("Qd")}) == ["Qd"], form
        assert leaks('{"cards": ["%s"]}' % form, {CARD_NAME.index("Qd")}) == ["Qd"], form
        assert leaks(f"event: board\nid: 1\ndata: <b>{form}</b>\n\n", {CARD_NAME.index("Qd")}) == ["Qd"], form
    ten = {CARD_NAME.index("Ts")}
    assert [leaks(f"<p>{f}</p>", ten) for f in ("10♠", "10s", "Ts", "TS", "ts", "10♤")] == [["Ts"]] * 6
    assert leaks("<table><td>as dealt</td></table>", set(range(52))) == []
    assert leaks("<p>As</p>", set(range(52))) == ["As"] and leaks("<p>2C</p>", set(range(52))) == ["2c"]


def board_of(view, number=1, night=None):
    """A Snapshot holding one table whose hand has `view` (and tonight `night`): the board drawn
    from it."""
    from desmoche_ref.store.read.league import Standings
    from desmoche_ref.store.read.scoreboard import BoardTable, Snapshot
    from desmoche_ref.store.read.tonight import Tonight

    hand = {**view, "verdict": view["status"], "number": number, "status": "open", "closed": False,
            "void": None, "undone": None, "redealt": False}
    night = night or Tonight(None, None, [], {}, Standings([], 0, 0), [])
    table = BoardTable("t", [p["name"] for p in view["players"]], False, hand, night)
    return Snapshot([table], Standings([], 0, 0), "0" * 64, None, [])


def test_a_hand_seen_move_by_move():
    """friday.dsm (N8's example) at a few moments: counts, melds, the top of the pile, the
    claim's card only once shown."""
    (hand,) = [h for name, h in sample_hands() if name == "friday.dsm"][:1]
    setup = read_setup(hand)[0]
    events = hand.events
    after = {ev.line: public_hand(setup, events[:k + 1]) for k, ev in enumerate(events)}
    first = events[0].line
    deal = after[first]
    assert deal["phase"] == "deal" and [p["cards"] for p in deal["players"]] == [0, 9, 0]
    assert deal["last"] == {"move": first, "verb": "deal", "player": "Beto", "cards": [], "word": None, "count": 9}
    paid = after[events[9].line]  # pay Beto 7c
    assert paid["offer"] == {"card": "7c", "by": "Beto", "how": "paid", "may_take": [], "must_take": None}
    beto = paid["players"][1]
    assert (beto["cards"], beto["melds"], beto["up_the_tree"]) == (6, [["2s", "2d", "2c"]], False)
    assert paid["claims"] == [{"player": "Beto", "game": "oro", "cards": [], "void": None}]
    drawn = after[events[10].line]  # draw Carla 4d: 7c went dead
    assert drawn["discard"] == {"top": "7c", "count": 1} and drawn["stock"] == 52 - 27 - 2
    end = after[events[-1].line]  # show Beto Qd
    assert end["claims"][0]["cards"] == ["Qd"] and end["players"][1]["shown"] == ["Qd"]
    assert end["outcome"]["winners"] == ["Carla"]
    assert end["result"]["net"] == {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
    assert end["result"]["side_games"][0]["cards"] == ["Qd"]
    assert [p["pot"] for p in end["pots"]] == ["30.00", "15.00"]
    before_show = after[events[-2].line]
    assert before_show["claims"][0]["cards"] == [] and before_show["result"] is None or \
        before_show["result"]["side_games"][0]["cards"] == []


def walk(hands):
    """(where, the event just applied, the test's own Seen, public.py's PublicHand) after each
    event of each hand, up to the first the referee refuses."""
    for name, record in hands:
        setup, errors = read_setup(record)
        if errors:
            continue
        seen, public = Seen(setup), PublicHand(setup)
        for ev in record.events:
            if not seen.apply(ev):
                break
            public.apply(ev)
            yield f"{name} line {ev.line}", ev, seen, public


def _every_moment(hands, renderers, drawn=lambda name, k: True):
    """(where, hidden cards, texts the board would send) after each event of each hand: the
    JSON, and the board drawn by each renderer at the moments `drawn(name, k)` picks (k
    counts the moments: 0, 1, …)."""
    from desmoche_ref.board.render import dumps, snapshot_json

    moments = 0
    for where, _ev, seen, public in walk(hands):
        snapshot = board_of(public.view())
        texts = [dumps(snapshot_json(snapshot)).decode()]
        texts += [r.fragment(snapshot) for k, r in enumerate(renderers) if drawn(where.split(" line ")[0], moments + k)]
        moments += len(renderers)
        yield where, seen.hidden(), texts


# the board drawn after every line of these (in English and Spanish); the JSON after every line
# of every record: the board is drawn from nothing but what the JSON holds
DRAWN = {"friday.dsm", "cambio-declarations.dsm", "fallen-declaration.dsm", "dispute-claims.dsm",
         "split-peladilla.dsm", "misdeals.dsm", "closed-record.dsm", "dispute-forgiven-foul.dsm"}


@pytest.mark.slow  # the fast lane walks the simulated hands' every prefix (below)
def test_no_hidden_card_on_the_board_after_any_line_of_two_records():
    """The fast lane's share: a declaration before and after the cambio, claims shown and not."""
    from desmoche_ref.board.render import Renderer

    hands = [h for h in sample_hands() if h[0] in ("friday.dsm", "cambio-declarations.dsm")]
    moments = 0
    for where, hidden, texts in _every_moment(hands, [Renderer("en")]):
        for text in texts:
            assert leaks(text, hidden) == [], where
        moments += 1
    assert moments > 60


@pytest.mark.slow
def test_no_hidden_card_in_the_view_after_any_line_of_the_samples():
    from desmoche_ref.board.render import Renderer

    moments = drawn = 0
    for where, hidden, texts in _every_moment(sample_hands(), [Renderer("en"), Renderer("es")],
                                              lambda name, k: name in DRAWN):
        for text in texts:
            assert leaks(text, hidden) == [], where
        moments += 1
        drawn += len(texts) > 1
    assert moments > 800 and drawn > 150


VERBS = {"cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock", "meld", "add",
         "pay", "pass", "show", "foul", "forgive", "end"}


def simulated(seeds, hands=6):
    """The simulator's varied nights (presets, options, fouls forgiven or not, closed records,
    side games, declarations valid and void, claims shown and not), 3 and 4 players: a seed, or
    (seed, hands) for a night of another length."""
    from desmoche_ref.simulate import simulate_session

    nights = [seed if isinstance(seed, tuple) else (seed, hands) for seed in seeds]
    text = "\n".join(simulate_session(n, 3 + seed % 2, seed, vary=True) for seed, n in nights)
    return [("seed", hand) for hand in parse_text(text).hands]


def every_byte(hands, renderer, pages_every=7):
    """(where, the cards hidden then, what the board would send then, the event just applied)
    after every line of every hand: the event pushed to open pages, /board.json and — every
    `pages_every` moments — the phone's page and the TV's, each exactly as the server sends
    it (hub.drawing, Renderer.page), of a board whose table is at that hand."""
    from desmoche_ref.board.hub import drawing

    for k, (where, ev, seen, public) in enumerate(walk(hands)):
        drawn = drawing(renderer, board_of(public.view(), k % 40 + 1), None, k, f"0a1b2c3d-{k}")
        sent = [drawn.event.decode(), drawn.json.decode()]
        if k % pages_every == 0:
            sent += [renderer.page(drawn.fragment, tv) for tv in (False, True)]
        yield where, seen.hidden(), sent, ev, seen


def _walk(seeds, lang, pages_every):
    """Every prefix of the simulated hands of `seeds`: no hidden card in any byte; what the walk
    met (verbs, declarations naming a card the declarer no longer held, void ones)."""
    from desmoche_ref.board.render import Renderer

    met, moments = set(), 0
    for where, hidden, sent, ev, seen in every_byte(simulated(seeds), Renderer(lang), pages_every):
        for text in sent:
            assert leaks(text, hidden) == [], (where, text[:300])
        met.add(ev.verb)
        if ev.verb == "declare":
            held = seen.ref.g.players[seen.ref.seats[ev.actor]].hand
            met.add("declare naming a card not held" if set(ev.cards) - held else "declare")
            warned = [w for w in seen.ref.out.warnings if w.line == ev.line]
            met.add("void declaration" if any(w.code in ("R6.3", "R6.4", "R6.7") for w in warned) else "declare")
        moments += 1
    return met, moments


def test_no_hidden_card_in_any_byte_at_any_prefix_of_simulated_hands():
    """The property (issue 34), the fast lane's share: every prefix of every hand of three
    simulated nights (two of six hands, one of two) — every verb of the notation, declarations
    valid, void and naming the card passed in the cambio, claims shown and not, fouls forgiven —
    drawn as the board sends it."""
    met, moments = _walk((0, 8, (4, 2)), "en", 9)
    assert VERBS <= met, VERBS - met
    assert {"declare naming a card not held", "void declaration"} <= met
    assert moments > 500


@pytest.mark.slow
def test_no_hidden_card_in_any_byte_at_any_prefix_of_many_simulated_hands():
    """The same over four more nights, in Spanish, every fifth moment's pages drawn too."""
    met, moments = _walk((0, 4, 36, 51), "es", 5)
    assert VERBS <= met and {"declare naming a card not held", "void declaration"} <= met
    assert moments > 1000


@pytest.mark.slow
def test_no_hidden_card_on_the_board_after_any_line_of_a_simulated_season():
    """Varied hands (presets, options, fouls, closed records, side games, declarations)."""
    from desmoche_ref.board.render import Renderer
    from desmoche_ref.simulate import simulate_session

    text = simulate_session(8, 4, seed=28) + "\n" + simulate_session(6, 3, seed=29, options="todo forcing strict")
    hands = [("simulated", h) for h in parse_text(text).hands]
    moments = 0  # every moment drawn in English, one in five in Spanish too
    for where, hidden, texts in _every_moment(hands, [Renderer("en"), Renderer("es")],
                                              lambda name, k: k % 2 == 0 or k % 10 == 1):
        for text in texts:
            assert leaks(text, hidden) == [], where
        moments += 1
    assert moments > 500


def test_a_claims_cards_only_once_its_claimant_showed_them():
    """Beto announces oro Jd, a card Ana holds; Ana pays Jd: the card is public, but showing
    it under Beto's claim would tell what his announcement named (R4.5: his own cards, shown
    by him)."""
    text = (ROOT / "tests" / "conformance" / "friday.dsm").read_text(encoding="utf-8")
    text = text.replace("announce Beto oro Qd", "announce Beto oro Jd").replace("pay Ana Qh", "pay Ana Jd")
    record = parse_text(text).hands[0]
    setup = read_setup(record)[0]
    cut = next(k for k, ev in enumerate(record.events) if ev.verb == "pay" and ev.actor == "Ana")
    view = public_hand(setup, record.events[:cut + 1])
    assert view["offer"]["card"] == "Jd"
    assert view["claims"] == [{"player": "Beto", "game": "oro", "cards": [], "void": None}]
    shown = public_hand(setup, record.events)  # Beto shows Qd at the end: not his claim's card
    assert shown["claims"][0]["cards"] == [] and shown["players"][1]["shown"] == ["Qd"]


def test_a_card_passed_in_the_cambio_and_named_in_a_declaration_stays_hidden():
    """friday's cambio (Ana passes 2c to Beto), then `declare Ana peladilla` naming her nine
    dealt cards: the eight she holds are laid face up; 2c lies face down in Beto's hand and is
    in no part of the view (issue 34). A declaration naming no card lays the hand held."""
    from desmoche_ref.notation.parser import parse_event

    (hand,) = [h for name, h in sample_hands() if name == "friday.dsm"][:1]
    setup = read_setup(hand)[0]
    public = PublicHand(setup)
    for ev in hand.events[:7]:  # the deal, the announcement, the cambio
        public.apply(ev)
    public.apply(parse_event("declare Ana peladilla 4s 5s 6s 8h 8c Jd Jh 2c Ac", 8))
    assert not public.stopped
    view = public.view()
    laid = ["4s", "5s", "6s", "8h", "8c", "Jd", "Jh", "Ac"]
    assert [d["cards"] for d in view["declarations"]] == [laid]
    assert view["last"]["cards"] == laid and "2c" not in str(view)
    blind = PublicHand(setup)
    for ev in hand.events[:7]:
        blind.apply(ev)
    blind.apply(parse_event("declare Ana peladilla", 8))  # Ana holds her eight and Beto's Qh
    assert sorted(blind.view()["declarations"][0]["cards"]) == sorted(laid + ["Qh"])
