"""The laws across hands (laws.py) as the book applies them, on SQLite and PostgreSQL: a dealer
out of turn is dealt with a warning, live and imported (N9.3); the next hand follows on from
the last hand that settled (N9.1); a void hand was never dealt (R3.1)."""

import pathlib

import pytest

from conftest import verified
from helpers import peladilla_hand

CONF = pathlib.Path(__file__).parent / "conformance"
PELADILLA = ["deal Beto As 3c 4d 7h 8s Td Js Qh Kd", "deal Carla 5s 5h 5d 2c 9d Jh Ks Qc 6h",
             "deal Dani 2s 6s 9c Tc 3h 4c 8d 6d Ac", "deal Ana 2h 3s 4s 7c 8c 9h Th Jc Qs",
             "declare Beto peladilla", "end"]  # peladilla_hand's moves: Ana deals, Beto wins


def record(url, table, lines):
    """The lines recorded at the table through the scorebook service, as `rec` records them."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import TableBook

    at = TableBook(open_book(url), table)
    for line in lines:
        at.record(line)


@pytest.mark.slow
def test_a_dealer_out_of_turn_is_dealt_with_a_warning(live):
    live("table", "new", "t", "--players", "Ana Beto Carla Dani", "--bet", "5")
    live("hand", "new", "--dealer", "Ana")
    record(live.url, "t", PELADILLA)
    out = live("hand", "new", "--dealer", "Carla").stdout.splitlines()
    assert out[-2:] == ["hand 2 at table t: Carla deals; bet 5.00; side games: none",
                        "warning R3.1 the deal passes to the right: Beto deals this hand, not Carla"]
    out = live("hand", "new", "--lang", "es", "--dealer", "Ana").stdout.splitlines()  # hand 2, no move: dealt again
    assert out[-1] == "aviso R3.1 el reparto pasa a la derecha: esta mano la reparte Beto, no Ana"
    # dealt again with its dealer kept: the warning was said when Ana was named
    assert live("hand", "new").stdout == "hand 2 at table t dealt again: Ana deals; bet 5.00; side games: none\n"
    assert live("hand", "new", "--dealer", "Beto").stdout == (
        "hand 2 at table t dealt again: Beto deals; bet 5.00; side games: none\n")
    assert verified(live("verify").stdout).endswith(": all in order\n")


def test_a_void_hands_dealer_deals_again_and_the_rotation_passes_from_the_last_hand_played(live):
    live("table", "new", "t", "--players", "Ana Beto Carla Dani", "--bet", "5")
    live("hand", "new", "--dealer", "Ana")
    record(live.url, "t", PELADILLA)
    live("hand", "new", "--dealer", "Carla")  # out of turn (Beto's), said with a warning
    live("cut", "Dani")
    live("hand", "void", "--reason", "the deck was short")
    # hand 2 was not played: the deal passes from hand 1's dealer, Ana
    assert live("hand", "new").stdout.splitlines()[-1] == "hand 3 at table t: Beto deals; bet 5.00; side games: none"
    assert verified(live("verify").stdout).endswith(": all in order\n")


def test_import_stores_a_dealer_out_of_turn_with_a_warning(live, tmp_path):
    night = tmp_path / "night.dsm"
    night.write_text(peladilla_hand(carry="0") + peladilla_hand(dealer="Carla", carry="0"))
    out = live("import", night).stdout.splitlines()
    assert out == [f"{night}:14: R3.1 the deal passes to the right: Beto deals this hand, not Carla",
                   f"{night}: 2 hands stored, 0 already in the book, 0 rejected (table night)"]
    assert verified(live("verify").stdout) == "2 hands, 12 moves, 20 postings: all in order\n"


def test_a_hand_that_settled_nothing_leaves_the_pots_to_the_next(live, tmp_path):
    # hand 1 carries out 40.00; hand 2, imported incomplete, settled nothing: a live hand 3
    # carries in the 40.00 and is dealt by the right of hand 2's dealer
    night = tmp_path / "night.dsm"
    incomplete = peladilla_hand(dealer="Ana", carry="40").replace("declare Beto peladilla\nend\n", "")
    night.write_text((CONF / "no-winner.dsm").read_text() + incomplete)
    assert live("import", night).stdout.endswith("2 hands stored, 0 already in the book, 0 rejected (table night)\n")
    assert live("hand", "new", "--table", "night").stdout == (
        "hand 3 at table night: Beto deals; bet 5.00; side games: none; carry in 40.00\n")
    assert verified(live("verify").stdout).endswith(": all in order\n")
