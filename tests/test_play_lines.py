"""The table session's words, without a terminal or a book: short verb forms (N4.5), session
commands and `new`'s options, the prompt line, the full view, and what Tab offers."""

import ast
import pathlib

import pytest

from desmoche_ref.engine.replay import Referee
from desmoche_ref.engine.setup import Setup
from desmoche_ref.notation.parser import VERBS
from desmoche_ref.play.complete import candidates
from desmoche_ref.play.typed import (COMMANDS, SHORT, Command, Move, NewHand, Usage, help_text,
                                     read, read_new)
from desmoche_ref.cards import colour_wanted
from desmoche_ref.play.prompt import prompt_text, state_lines, turn_text
from desmoche_ref.play.script import night_script

CONFORMANCE = pathlib.Path(__file__).parent / "conformance"
FRIDAY = [line for line in (CONFORMANCE / "friday.dsm").read_text().splitlines()
          if line and not line.startswith("[")]


def friday_referee(upto: int) -> Referee:
    """NOTATION's open example (friday.dsm) judged up to its `upto`-th event."""
    setup = Setup.from_values(["Ana", "Beto", "Carla"], "Ana", bet=1000, options="todo",
                              sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    ref = Referee(setup)
    for number, line in enumerate(FRIDAY[:upto], 1):
        assert ref.apply(read(line, number).event) is None
    return ref


# ------------------------------------------------------------ short forms
@pytest.mark.parametrize("typed, stored", [
    ("dr Beto 2d", "draw Beto 2d"),
    ("m Beto 2s 2d 2c", "meld Beto 2s 2d 2c"),
    ("+ Carla 7d", "add Carla 7d"),
    ("+ Carla 7d to 6d", "add Carla 7d to 6d"),
    ("p Beto 7c", "pay Beto 7c"),
    ("k Ana", "knock Ana"),
    ("cl Carla", "claim Carla"),
    ("ps Beto", "pass Beto"),
    ("sh Beto Qd", "show Beto Qd"),
    ("de Beto ?x9", "deal Beto ?x9"),
    ("ca Ana 2c", "cambio Ana 2c"),
    ("an Beto oro Qd", "announce Beto oro Qd"),
    ("dc Ana peladilla", "declare Ana peladilla"),
    ("fo Beto peek", "foul Beto peek"),
    ("fg Beto", "forgive Beto"),
    ("cu Carla", "cut Carla"),
    ("re Beto 4c", "return Beto 4c"),
    ("DR Beto 10♦", "draw Beto Td"),          # any case; cards in any spelling (N2.1)
    ("draw   Beto\t2D", "draw Beto 2d"),
    ("end", "end"),
])
def test_short_forms_are_stored_as_the_verb_in_canonical_form(typed, stored):
    move = read(typed, 12)
    assert isinstance(move, Move)
    assert move.event.error is None and move.event.line == 12
    assert move.text == stored and move.comment is None


def test_every_verb_has_a_short_form_but_end_and_none_is_a_command():
    assert set(SHORT.values()) == set(VERBS) - {"end"}
    assert not set(SHORT) & set(COMMANDS)
    assert not set(SHORT) & set(VERBS)


def test_help_lists_every_short_form_and_command():
    text = help_text()
    for short, verb in SHORT.items():
        line = next(line for line in text.splitlines() if line.strip().startswith(VERBS[verb][0]))
        assert short in line.split()
    for usage, _ in COMMANDS.values():
        assert usage in text


def test_a_comment_is_kept_apart_from_the_line():
    move = read("show Beto Qd   # he kept it all hand", 3)
    assert move.text == "show Beto Qd" and move.comment == " he kept it all hand"


@pytest.mark.parametrize("typed", ["", "   ", "# the second hand starts", "\t# x"])
def test_blank_and_comment_lines_are_nothing(typed):
    assert read(typed, 1) is None


@pytest.mark.parametrize("typed, code, message", [
    ("stat", "N4", "unknown verb or command 'stat' (`help` lists the verbs, their short forms and the commands): "
                   "did you mean state?"),
    ("robr", "N4", "unknown verb or command 'robr' (`help` lists the verbs, their short forms and the commands): "
                   "did you mean robar?"),
    ("dr Beto", "N4", "draw takes exactly one card: draw PLAYER CARD"),
    ("dr Beto 2x", "N2.1", "'2x' is not a card (cards are like As, Td, 10♠)"),
    ("draw Beto ?", "N2.3", "'?' is not allowed in draw: the card is seen by the table"),
])
def test_a_line_that_cannot_be_read_carries_its_error(typed, code, message):
    move = read(typed, 9)
    assert move.text is None
    assert (move.event.error.line, move.event.error.code, move.event.error.message) == (9, code, message)


@pytest.mark.parametrize("typed, command", [
    ("state", Command("state", "")), ("UNDO", Command("undo", "")), ("quit", Command("quit", "")),
    ("exit", Command("quit", "")), ("?", Command("help", "")),
    ('new --dealer Beto --side "oro 5 Ana Beto"', Command("new", '--dealer Beto --side "oro 5 Ana Beto"')),
])
def test_session_commands(typed, command):
    assert read(typed, 1) == command


@pytest.mark.parametrize("args, spec", [
    ("", NewHand(None, None)),
    ("--dealer Beto", NewHand("Beto", None)),
    ("--dealer=Carla --no-sides", NewHand("Carla", [])),
    ('--side "oro 5 Ana Beto Carla" --side \'escalera 2.50 Beto\'',
     NewHand(None, [("oro", 500, ["Ana", "Beto", "Carla"]), ("escalera", 250, ["Beto"])])),
    ('--side="flor 1 Ana Carla"', NewHand(None, [("flor", 100, ["Ana", "Carla"])])),
])
def test_new_reads_its_options_as_a_shell_would(args, spec):
    assert read_new(args) == spec


@pytest.mark.parametrize("args, message", [
    ("--dealer", "new: --dealer needs a value (new [--dealer P] [--side \"GAME STAKE PLAYERS…\"]… [--no-sides])"),
    ("--bet 20", "new: unknown option '--bet' (new [--dealer P] [--side \"GAME STAKE PLAYERS…\"]… [--no-sides])"),
    ('--side "oro 5 Ana" --no-sides', "new: --no-sides and --side together: choose one"),
    ('--side "oro five Ana"', "new: 'five' is not a stake (N3.2: an amount like 5 or 2.50)"),
    ('--side "oro 5"', "new: --side 'oro 5' should be \"GAME STAKE PLAYER…\", e.g. \"oro 5 Ana Beto\""),
    ('--side "oro 5 Ana', "new: No closing quotation (quote a side game as --side \"oro 5 Ana Beto\")"),
])
def test_new_with_bad_options_says_how_it_goes(args, message):
    with pytest.raises(Usage) as caught:
        read_new(args)
    assert str(caught.value) == message


# ------------------------------------------------------------ the prompt
@pytest.mark.parametrize("upto, text", [
    (0, "H7 · the deal: Ana deals > "),
    (4, "H7 · the cambio: Beto, Carla and Ana to pass a card > "),
    (5, "H7 · the cambio: Carla and Ana to pass a card > "),
    (7, "H7 · Beto to draw > "),
    (8, "H7 · Beto to act · on offer 2♦ from Beto > "),
    (9, "H7 · Beto to act · took 2♦, pays next > "),
    (10, "H7 · Carla to draw · on offer 7♣ from Beto > "),
    (17, "H7 · Carla to act · on offer 9♦ from Beto > "),
    (28, "H7 · over: Carla wins with ten cards down · to show: Beto Q♦ (oro) · `end` closes the hand > "),
    (29, "H7 · over: Carla wins with ten cards down · `end` closes the hand > "),
])
def test_the_prompt_says_whose_turn_and_the_card_on_offer(upto, text):
    assert prompt_text(7, friday_referee(upto)) == text


def test_the_prompt_in_colour_has_red_and_black_suits():
    assert prompt_text(7, friday_referee(8), colour=True) == \
        "H7 · Beto to act · on offer \x1b[31m2♦\x1b[0m from Beto > "
    assert turn_text(friday_referee(10), colour=True) == \
        "Carla to draw · on offer \x1b[1m7♣\x1b[0m from Beto"


def test_the_prompt_without_a_hand_and_after_its_close():
    assert prompt_text(None, None) == "no hand yet: new --dealer NAME > "
    assert prompt_text(3, friday_referee(29), closed=True) == "H3 · closed · `new` deals the next > "


def test_a_forced_card_is_named_in_the_prompt():
    setup = Setup.from_values(["Ana", "Beto", "Carla"], "Ana", bet=1000, options="todo forcing")
    ref = Referee(setup)
    for number, line in enumerate(FRIDAY[:19] + ["draw Ana 7d"], 1):
        if line.startswith("announce"):
            continue
        assert ref.apply(read(line, number).event) is None
    assert ref.offer().must_take == 2
    assert turn_text(ref) == "Carla must take it (R9.1) · on offer 7♦ from Ana"


@pytest.mark.parametrize("environ, terminal, wanted", [
    ({"TERM": "xterm-256color"}, True, True),
    ({"TERM": "xterm-256color", "NO_COLOR": ""}, True, False),
    ({"TERM": "dumb"}, True, False),
    ({"TERM": "xterm"}, False, False),
])
def test_colour_only_on_a_terminal_that_wants_it(environ, terminal, wanted):
    assert colour_wanted(environ, terminal) is wanted


def test_the_full_view_of_the_table():
    def grid(rows, headers):
        return "\n".join(" | ".join(r) for r in [headers] + rows)

    lines = state_lines(7, friday_referee(10), "Friday", False, False, grid)
    assert lines == [
        "table Friday, hand 7 · dealer Ana · bet 10.00 · carry in 0.00 · todo=on strict=off "
        "forcing=off auto=on hand-melds=on color=color escalera=a23-high side-nowin=carry dq-bonus=pay",
        "player | status | hand | table\n"
        "Ana | in | 4♠ 5♠ 6♠ 8♥ J♥ Q♥ J♦ A♣ 8♣ | (up the tree)\n"
        "Beto | in | 3♠ 4♥ 10♥ 8♦ Q♦ J♣ | 2♠ 2♦ 2♣\n"
        "Carla | in | A♠ 9♠ K♠ 2♥ 3♥ 5♦ 6♦ 9♣ K♣ | (up the tree)",
        "on offer: 7♣ (paid by Beto); may take: nobody",
        "discard pile: (empty)",
        "stock: 24 cards",
        "turn: Carla to draw · on offer 7♣ from Beto",
        # after the first draw an announcement or a declaration would be void: not offered (issue 33)
        "may come next: foul Ana Beto Carla; show Ana Beto Carla; pass Beto; claim Ana Carla; "
        "knock Ana Beto Carla; draw Carla",
    ]


# ------------------------------------------------------------ completion
@pytest.mark.parametrize("upto, typed, partial, words", [
    # nothing dealt yet: the deal's verbs first, then the others (the book refuses them, R3.3)
    (0, "", "", ["foul", "deal", "cut", "return", "announce", "cambio", "declare", "draw", "claim", "knock",
                 "meld", "add", "pay", "pass", "show", "forgive", "end", "state", "undo", "new", "void",
                 "settle", "close", "log", "help", "quit"]),
    (8, "dr", "dr", ["draw"]),
    (8, "m", "m", ["meld"]),
    (8, "s", "s", ["show", "state", "settle"]),
    (8, "m ", "", ["Beto", "Ana", "Carla"]),          # who may take the card on offer first
    (8, "m B", "B", ["Beto"]),
    (8, "m beto 2", "2", []),                          # names are matched exactly (N3.1)
    (8, "m Beto 2", "2", ["2d", "2s", "2c"]),          # the card on offer first, then the hand
    (8, "m Beto 2s ", "", ["2d", "3s", "4h", "Th", "8d", "Qd", "2c", "7c", "Jc"]),
    (8, "m Beto 10", "10", ["Th"]),
    (8, "m Beto q♦", "q♦", ["Qd"]),
    (9, "p Beto ", "", ["3s", "4h", "Th", "8d", "Qd", "7c", "Jc"]),  # suit by suit
    (9, "p Beto 7c ", "", []),
    (7, "dr Beto 2", "2", ["2d"]),                     # the unseen cards: what the stock may hold
    (3, "an Beto ", "", ["oro"]),                      # the hand's side games
    (0, "fo Ana ", "", ["misdeal", "peek", "hand", "arrangement", "other"]),
    (27, "+ Carla 7d ", "", ["to"]),
    (27, "+ Carla 7d to ", "", ["4d", "5d", "6d", "9s", "9d", "9c", "Ah", "2h", "3h"]),
    (27, "+ Carla 7d to 6d ", "", []),
    (8, "new ", "", ["--dealer", "--side", "--no-sides"]),
    (8, "new --dealer ", "", ["Ana", "Beto", "Carla"]),
    (8, "new --no-sides ", "", ["--dealer", "--side"]),
    (8, "state ", "", []),
    (8, "k Ana ", "", []),
])
def test_tab_offers_what_may_be_typed_next(upto, typed, partial, words):
    assert candidates(typed, friday_referee(upto)) == (partial, words)


def test_tab_without_a_hand_offers_the_commands_only():
    assert candidates("", None) == ("", list(VERBS) + list(COMMANDS))
    assert candidates("dr ", None) == ("", [])


# ------------------------------------------------------------ a record as input
def test_a_night_record_becomes_session_input():
    text = ('[Players "Ana Beto"]\n[Dealer "Beto"]\n[Bet "1"]\n[Side "oro 2.50 Ana Beto"]\n\n'
            "deal Ana ?x9  # closed\ndeal Beto ?x9\n\n"
            '[Players "Ana Beto"]\n[Dealer "Ana"]\n[Bet "1"]\n\ndeal Beto ?x9\n')
    setup, lines = night_script(text)
    assert (setup.players, setup.dealer, setup.bet) == (["Ana", "Beto"], 1, 100)
    assert lines == ["new --dealer Beto --side 'oro 2.50 Ana Beto'", "deal Ana ?x9  # closed",
                     "deal Beto ?x9", "new --no-sides", "deal Beto ?x9"]


def test_the_session_words_are_pure():
    """No terminal, store or CLI library in desmoche_ref/play (the shell is cli/play.py)."""
    forbidden = {"click", "sqlalchemy", "sqlmodel", "alembic", "prompt_toolkit", "tabulate"}
    for path in (pathlib.Path(__file__).parent.parent / "desmoche_ref" / "play").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            assert forbidden.isdisjoint(n.split(".")[0] for n in names), path
