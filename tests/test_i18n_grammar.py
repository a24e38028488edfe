"""Counts and lists read right in both languages (issue 17): a message that counts takes its
form from ngettext (`1 card`, `1 carta`), names in a sentence are joined with a conjunction
(`Ana, Beto and Carla`, `Ana, Beto y Carla`) by one helper, findings.listed; the notation's
usage lines (`deal PLAYER CARDS`) are shown in the run's language."""

import pickle

from click.testing import CliRunner

from desmoche_ref import i18n
from desmoche_ref.cli import main
from desmoche_ref.findings import MN, M, listed, render
from desmoche_ref.notation.parser import parse_event
from desmoche_ref.referee import judge_text

es = i18n.translations("es").gettext
TAGS = '[Players "Ana Beto Carla"]\n[Dealer "Ana"]\n[Bet "10"]\n\n'
DEALS = ("deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks\ndeal Carla As 2h 3h 9s 9c 5d 6d Kc Qh\n"
         "deal Ana 4s 5s 6s 8h 8c Jd Jh 2c Ac\n")


def first_error(text: str):
    return judge_text(text).hands[0].as_json()["errors"][0]


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def test_names_in_a_sentence_have_their_conjunction():
    assert listed([]) == "" and listed(["Ana"]) == "Ana"
    assert listed(["Ana", "Beto"]) == "Ana and Beto"
    assert listed(["Ana", "Beto", "Carla", "Dani"]) == "Ana, Beto, Carla and Dani"
    assert render(listed(["Ana", "Beto", "Carla"]), es) == "Ana, Beto y Carla"
    assert render(listed(n for n in ("Ana",)), es) == "Ana"


def test_a_message_that_counts_takes_the_form_for_its_count():
    one = MN("{count} card", "{count} cards", 1, count=1)
    many = MN("{count} card", "{count} cards", 3, count=3)
    assert (one, many) == ("1 card", "3 cards")
    es_ngettext = i18n.translations("es").ngettext
    assert render(M("stock: {n}", n=one), es) == "stock: 1 card"  # not in the catalog: as written
    message = MN("stock: {count} card", "stock: {count} cards", 1, count=1)
    assert render(message, es) == render(message, es, es_ngettext) == "mazo: 1 carta"
    assert render(MN("stock: {count} card", "stock: {count} cards", 0, count=0), es) == "mazo: 0 cartas"
    copy = pickle.loads(pickle.dumps(many))  # findings cross processes (the importer's workers)
    assert (copy, copy.plural, copy.n) == ("3 cards", "{count} cards", 3)


def test_a_cambio_not_complete_names_the_players_with_and_and_agrees_with_them():
    three = first_error(TAGS + DEALS + "draw Beto 2d\n")
    assert (three["code"], three["message"]) == (
        "R5.2", "the cambio is not complete: Ana, Beto and Carla have not passed a card")
    one = first_error(TAGS + DEALS + "cambio Beto Ks\ncambio Carla Qh\ndraw Beto 2d\n")
    assert one["message"] == "the cambio is not complete: Ana has not passed a card"
    code, out = run("--lang", "es", "check", "-", input=TAGS + DEALS + "draw Beto 2d\n")
    assert code == 1 and out.splitlines()[1] == (
        "-:8: R5.2 el cambio no está completo: Ana, Beto y Carla no han pasado carta")
    code, out = run("--lang", "es", "check", "-",
                    input=TAGS + DEALS + "cambio Beto Ks\ncambio Carla Qh\ndraw Beto 2d\n")
    assert out.splitlines()[1] == "-:10: R5.2 el cambio no está completo: Ana no ha pasado carta"


def test_a_short_hand_of_one_card_is_one_card():
    text = TAGS + ("deal Beto 2s\ndeal Carla As 2h 3h 9s 9c 5d 6d Kc Qh\ndeal Ana 4s 5s 6s 8h 8c Jd Jh 2c Ac\n"
                   "cambio Beto 2s\n")
    assert first_error(text)["message"].startswith("Beto holds 1 card when play starts: every player holds nine")
    code, out = run("--lang", "es", "check", "-", input=text)
    assert out.splitlines()[1].startswith("-:8: R3.5 Beto tiene 1 carta al empezar el juego: cada jugador")
    code, out = run("--lang", "en", "check", "-", input=text.replace("deal Beto 2s", "deal Beto 2s 3s"))
    assert out.splitlines()[1].startswith("-:8: R3.5 Beto holds 2 cards when play starts")


def test_winners_are_listed_with_a_conjunction():
    split = "sample_logs/split-peladilla.dsm"
    code, out = run("--lang", "es", "check", split)
    assert "(línea 3): Ana y Beto ganan con Peladilla (repartido) (línea 17)" in out.splitlines()[0]
    code, out = run("check", "--session", split)
    assert "Ana and Beto (peladilla)" in out


def test_the_notation_usage_in_spanish():
    ev = parse_event("deal", 3)
    assert ev.error.message == "missing player: deal PLAYER CARDS"
    assert render(ev.error.message, es) == "falta el jugador: deal JUGADOR CARTAS"
    assert render(parse_event("add Beto", 3).error.message, es) == "faltan las cartas: add JUGADOR CARTAS [a CARTA]"
