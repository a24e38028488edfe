"""Tables and hands over a night, on SQLite and PostgreSQL: the deal rotates (R3.1), a pot with
no winner carries in by itself (R2.3), the bet changes only between hands, with everyone
agreeing and no pot carried (R2.2, R2.3), and a table that breaks up returns what is carried
(R11.5). A hand is never closed half-played."""

import pytest

from test_live_entry import balances, moves_of
from conftest import verified

NO_WINNER = moves_of("no-winner.dsm")  # Dani deals; the stock runs out with no winner


def four_table(live, *extra):
    live("table", "new", "club", "--players", "Ana Beto Carla Dani", "--bet", "5", *extra)
    live("hand", "new", "--dealer", "Dani")


@pytest.mark.slow
def test_the_deal_rotates_and_the_carried_pot_comes_in(live):
    four_table(live, "--side", "oro 1 Ana Beto")
    for words in NO_WINNER[:-1]:
        live(*words)
    early = live("hand", "new", status=2)
    assert early.stderr == ("error: hand 1 at table club is not over: write `desmoche-ref end` if "
                            "the hand ends here (N5.4), or record the moves left\n")
    out = live("end").stdout
    assert "no winner (move 25): the pot of 20.00 carries" in out
    new = live("hand", "new").stdout
    assert new == ("hand 2 at table club: Ana deals; bet 5.00; side games: oro 1.00 (Ana Beto); "
                   "carry in 20.00; oro carry in 2.00\n")
    shown = live.json("hand", "show", "--json")
    assert (shown["number"], shown["dealer"], shown["carry_in"]) == (2, "Ana", "20.00")
    assert shown["side_games"] is None  # not complete yet
    assert balances(live.url) == {"Ana": -600, "Beto": -600, "Carla": -500, "Dani": -500,
                                  "pot:main": 2000, "pot:oro": 200}


def test_hand_new_refuses_a_hand_in_play(live):
    four_table(live)
    for words in NO_WINNER[:10]:
        live(*words)
    refused = live("hand", "new", status=2)
    assert refused.stderr == ("error: hand 1 at table club is not over: record the moves left first "
                              "(`desmoche-ref hand show` says whose turn it is)\n")
    assert live.json("hand", "show", "--json")["number"] == 1


@pytest.mark.slow
def test_hand_new_sides_per_hand(live):
    four_table(live, "--side", "oro 1 Ana Beto")
    for words in NO_WINNER:
        live(*words)
    assert "side games: none" in live("hand", "new", "--no-sides").stdout
    assert live.json("hand", "show", "--json")["carry_in"] == "20.00"
    bad = live("hand", "new", "--side", "oro 1 Ana Zed", status=2)
    assert bad.stderr == "error: N3.1 'Zed' is not seated at this table (R4.1)\n"
    assert live.json("table", "list", "--json")[0]["hands"] == 2  # nothing written
    out = live("hand", "new", "--side", "flor 2 Beto Carla", "--side", "oro 1 Ana Dani").stdout
    assert out == ("hand 2 at table club dealt again: Ana deals; bet 5.00; side games: flor 2.00 (Beto Carla), "
                   "oro 1.00 (Ana Dani); carry in 20.00; oro carry in 2.00\n")  # no move yet: the same hand


def test_the_bet_changes_only_between_hands_and_agreed(live):
    four_table(live)
    assert live("table", "bet", "club", "10", status=2).stderr == (
        "error: R2.2 the bet changes only if every player agrees: add --all-agree\n")
    assert live("table", "bet", "club", "10", "--all-agree", status=2).stderr == (
        "error: R2.2 the bet changes only between hands: hand 1 is still being played\n")


@pytest.mark.slow
def test_the_bet_cannot_change_while_a_pot_is_carried(live):
    four_table(live)
    for words in NO_WINNER:  # ends with `end`: the hand is closed, its pot of 20.00 carried
        live(*words)
    assert live("table", "bet", "club", "10", "--all-agree", status=2).stderr == (
        "error: R2.3 the bet cannot change while a pot of 20.00 is carried: it changes once the pot is won\n")
    assert live.json("table", "list", "--json")[0]["bet"] == "5.00"


@pytest.mark.slow
def test_the_bet_changes_for_the_next_hand(live):
    live("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo")
    live("hand", "new", "--dealer", "Ana")
    for words in moves_of("closed-win.dsm"):
        live(*words)
    live("end")
    assert live("table", "bet", "friday", "2.50", "--all-agree").stdout == (
        "table friday: the bet is 2.50 from the next hand\n")
    live("hand", "new")
    shown = live.json("hand", "show", "--json")
    assert (shown["dealer"], shown["bet"]) == ("Beto", "2.50")


@pytest.mark.slow
def test_closing_the_table_returns_the_carried_pot(live):
    four_table(live, "--side", "oro 1 Ana Beto")
    for words in NO_WINNER:
        live(*words)
    out = live("table", "close", "club").stdout
    assert out.endswith("table club closed\n"
                        "  the carried main pot is returned (R11.5): Ana 5.00, Beto 5.00, Carla 5.00, Dani 5.00\n"
                        "  the carried oro pot is returned (R11.5): Ana 1.00, Beto 1.00\n")
    assert balances(live.url) == {"Ana": 0, "Beto": 0, "Carla": 0, "Dani": 0, "pot:main": 0, "pot:oro": 0}
    assert live("hand", "new", status=2).stderr == (
        "error: table club is closed: `desmoche-ref undo` (or `desmoche-ref table reopen club`) opens it again; "
        "a new game is a new table\n")  # issue 33: the way back
    assert live("draw", "Ana", "2d", status=2).stderr.startswith("error: table club is closed: `desmoche-ref undo`")
    assert verified(live("verify").stdout).endswith("all in order\n")


def test_table_list_and_use(live):
    live("table", "new", "a", "--players", "Ana Beto", "--bet", "1")
    live("table", "new", "b", "--players", "Ana Carla", "--bet", "2", "--rules", "conquien")
    assert live("table", "new", "a", "--players", "Ana Beto", "--bet", "1", status=2).stderr == (
        "error: there is already a table 'a' in this book\n")
    rows = live.json("table", "list", "--json")
    assert [(r["name"], r["in_use"], r["rules"], r["bet"], r["hands"]) for r in rows] == [
        ("a", False, "desmoche", "1.00", 0), ("b", True, "conquien", "2.00", 0)]
    assert live("table", "use", "a").stdout == "using table a\n"
    assert live("table", "list").stdout.splitlines()[2].startswith("*  a ")
    live("hand", "new", "--dealer", "Beto")
    assert live.json("hand", "show", "--json")["table"] == "a"
    assert live.json("hand", "show", "--table", "a", "--json")["dealer"] == "Beto"


def test_unknown_table_player_and_values_are_usage_errors(live):
    assert live("hand", "show", status=2).stderr.startswith("error: no table yet in this book")
    live("table", "new", "a", "--players", "Ana Beto", "--bet", "1")
    assert live("hand", "new", "--table", "zz", status=2).stderr == (
        "error: there is no table 'zz' in this book (`desmoche-ref table list`)\n")
    assert live("hand", "new", "--dealer", "Zed", status=2).stderr == (
        "error: 'Zed' is not seated at table a (Ana Beto)\n")
    assert live("hand", "new", status=2).stderr == (
        "error: the first hand at a table names its dealer: `desmoche-ref hand new --dealer NAME`\n")
    live("hand", "new", "--dealer", "Ana")
    assert live("cut", "Zed", status=1).stderr == (
        "refused: N3.1 'Zed' is not a player at this table (Ana Beto); names are matched exactly "
        "(nothing stored)\n")
    assert live("rec", "# only a note", status=2).stderr == (
        "error: write one notation line, e.g. `draw Beto 2d` (N4)\n")
    assert live("table", "new", "c", "--players", "Ana Ana", "--bet", "1", status=2).stderr.startswith("error: N3")
    assert live("table", "new", "d", "--players", "Ana Beto", "--bet", "x", status=2).stderr.endswith(
        "'x' is not an amount (e.g. 10 or 2.50)\n")
    assert live.json("hand", "log", "--all", "--json") == []
    assert [r["name"] for r in live.json("table", "list", "--json")] == ["a"]


@pytest.mark.slow
def test_a_hand_with_no_move_is_dealt_again_with_the_same_number(live):
    """docs/rulings.md R3.1: `hand new` on a hand with no move (never dealt, or every move
    taken back) deals that hand again: same number, the dealer named or else the same; no
    empty hand is left behind and no number is skipped. A hand never dealt when the table
    closes is void."""
    four_table(live)
    for words in NO_WINNER:  # hand 1: no winner, 20.00 carried
        live(*words)
    assert live("hand", "new", "--dealer", "Beto").stdout.splitlines()[-1] == (  # Ana deals after Dani
        "warning R3.1 the deal passes to the right: Ana deals this hand, not Beto")
    live("cut", "Carla")
    live("undo")  # every move taken back: the hand has no move
    assert live("hand", "new").stdout == (  # the same dealer, the same hand
        "hand 2 at table club dealt again: Beto deals; bet 5.00; side games: none; carry in 20.00\n")
    assert live("hand", "new", "--dealer", "Ana").stdout == (
        "hand 2 at table club dealt again: Ana deals; bet 5.00; side games: none; carry in 20.00\n")
    assert live.json("table", "list", "--json")[0]["hands"] == 2
    shown = live.json("hand", "show", "--json")
    assert (shown["number"], shown["dealer"], shown["carry_in"]) == (2, "Ana", "20.00")
    assert verified(live("verify").stdout) == "2 hands, 27 moves, 8 postings: all in order\n"
    out = live("table", "close", "club").stdout  # hand 2, never dealt, is void
    assert out == ("table club closed\n"
                   "  the carried main pot is returned (R11.5): Ana 5.00, Beto 5.00, Carla 5.00, Dani 5.00\n")
    assert balances(live.url) == {"Ana": 0, "Beto": 0, "Carla": 0, "Dani": 0, "pot:main": 0}
    assert verified(live("verify").stdout) == "2 hands, 27 moves, 16 postings: all in order\n"
