"""What the entry by taps offers (choices.py, issue 36), asked of the referee: every line of
friday's hand can be built by taps — its verb among the verbs offered, its player among the
players offered for it, each of its cards among the cards offered after the words before —
and is ready to send once built; a draw offers exactly the cards nobody is known to hold, a
pay the player's known cards; what completion offers is the same."""

import pathlib

from desmoche_ref.cards import CARD_NAME
from desmoche_ref.choices import Step, arguments, players, spoken, step, unseen, verbs
from desmoche_ref.engine.replay import Referee
from desmoche_ref.engine.setup import read_setup
from desmoche_ref.notation.parser import parse_event, parse_text
from desmoche_ref.play.complete import candidates

FRIDAY = pathlib.Path(__file__).parent / "conformance" / "friday.dsm"


def friday():
    record = parse_text(FRIDAY.read_text()).hands[0]
    setup, problems = read_setup(record)
    assert problems == []
    return setup, [ev for ev in record.events]


def test_every_line_of_friday_is_built_by_taps_from_what_is_offered():
    setup, events = friday()
    ref = Referee(setup)
    for ev in events:
        words = ev_words(ev)
        assert words[0] in step(ref, ()).options, (ev.line, words[0], step(ref, ()).options)
        at = step(ref, words[:1])
        assert at.asks == "player" and words[1] in at.options, (words, at)
        for i in range(2, len(words)):
            at = step(ref, words[:i])
            assert words[i] in at.options, (words, i, at)
            assert not at.ready or i > 2 or words[0] not in ("draw", "pay")
        assert step(ref, words).ready, words
        assert ref.apply(parse_event(" ".join(words), ev.line)) is None
    assert ref.status == "complete"


def ev_words(ev):
    from desmoche_ref.notation.writer import write_event

    return tuple(write_event(ev).split())


def test_a_draw_offers_the_unknown_cards_one_and_a_pay_the_players_known_cards():
    setup, events = friday()
    ref = Referee(setup)
    for ev in events[:7]:  # the deal, the announcement, the cambio
        assert ref.apply(ev) is None
    # after the cambio an announcement would be void (R4.5): not offered (issue 33)
    assert verbs(ref) == ["foul", "show", "declare", "draw"]
    assert step(ref, ()).options == ("draw", "foul", "show", "declare")  # the turn's move first
    assert players(ref, "draw") == ["Beto"]
    drawing = step(ref, ("draw", "Beto"))
    assert drawing == Step(("draw", "Beto"), "card", tuple(CARD_NAME[c] for c in unseen(ref)), False, False)
    assert len(drawing.options) == 52 - 27 and "2d" in drawing.options and "2s" not in drawing.options
    assert step(ref, ("draw", "Beto", "2d")) == Step(("draw", "Beto", "2d"), "word", (), False, True)
    for ev in events[7:9]:  # draw Beto 2d, meld Beto 2s 2d 2c
        assert ref.apply(ev) is None
    paying = step(ref, ("pay", "Beto"))
    assert paying.asks == "card" and not paying.many
    # Beto's dealt cards less the Ks he passed and the 2s he laid with the 2c Ana passed him
    assert set(paying.options) == {"3s", "4h", "7c", "8d", "Th", "Jc", "Qd"}
    melding = step(ref, ("meld", "Beto", "3s"))
    assert melding.many and "3s" not in melding.options


def test_completion_offers_what_the_taps_offer():
    setup, events = friday()
    ref = Referee(setup)
    for ev in events[:9]:
        assert ref.apply(ev) is None
    _typed, words = candidates("pay Beto ", ref)
    assert words == list(arguments("pay", 1, [], ref))
    assert candidates("agregar Beto 7c ", ref, spanish=True)[1][-1] == "a"  # the Spanish `to`
    assert spoken("add Carla 7d to 6d", True) == "agregar Carla 7d a 6d"
