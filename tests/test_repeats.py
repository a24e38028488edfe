"""A line sent twice is stored once, for every verb (issue 33, docs/rulings.md "a line sent
twice"): a file sent to `play` again, a verb run again by a script, two recorders typing one
move — answered `already recorded (move N)`, exit 0, nothing stored; and a finding is said
at the move that causes it, never beside a sentence that contradicts it."""

import pathlib

import pytest
from click.testing import CliRunner

from conftest import Live, invoke
from test_third_night import friday_book  # table friday (NOTATION's example) and hand 1 with lines

ROOT = pathlib.Path(__file__).parent.parent


def piped(url, text, *args, lang="en"):
    """`play` fed `text` on its standard input, in this process: (exit status, stdout lines)."""
    from desmoche_ref.cli import main

    run = CliRunner().invoke(main, ["--lang", lang, "play", *args], input=text, env={"DESMOCHE_DB": url})
    return run.exit_code, run.stdout.splitlines()


def night(record: str):
    """(setup of its first hand, the lines a recorder types for it: `new …`, then its moves)."""
    from desmoche_ref.play.script import night_script

    return night_script(record)


def table_of(live, setup, name="t"):
    """`table new` of a record's first hand (its seats, bet, options and side games)."""
    from desmoche_ref.money import fmt

    sides = [arg for e in setup.sides for arg in
             ("--side", f"{e.game} {fmt(e.stake)} {' '.join(setup.players[s] for s in e.players)}")]
    options = setup.options.changes_from(setup.rules)
    live("table", "new", name, "--players", " ".join(setup.players), "--bet", fmt(setup.bet),
         "--rules", setup.rules, *(["--options", options] if options else []), *sides)


def moves(live):
    return [(r["seq"], r["line"], r["comment"]) for r in live.json("hand", "log", "--all", "--json")]


@pytest.fixture
def club(tmp_path):
    """The issue's night: four players, oro and escalera, Carla's oro claim on A♦ (a simulated
    hand, seed 2); the recorder's file of the whole hand and of its first half."""
    setup, lines = night(invoke("simulate", "--hands", "1", "--players", "4", "--plain", "--seed", "2").stdout)
    assert "announce Carla oro Ad" in lines[:20] and lines[0].startswith("new --dealer Ana --side ")
    live = Live("sqlite:///" + str(tmp_path / "book.db"))
    table_of(live, setup)
    once = Live("sqlite:///" + str(tmp_path / "once.db"))
    table_of(once, setup)
    return live, once, lines


# ------------------------------------------------------------------ the issue's own scenario
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_file_sent_again_with_keep_going_leaves_the_book_as_one_sending(club, lang):
    live, once, lines = club
    whole, half = "\n".join(lines) + "\n", "\n".join(lines[:20]) + "\n"
    assert piped(once.url, whole)[0] == 0
    assert piped(live.url, half)[0] == 0
    status, out = piped(live.url, whole, "--keep-going", lang=lang)
    assert status == 0
    already = {"en": "already recorded (move {k}): {line} changes nothing, nothing stored",
               "es": "ya anotada (jugada {k}): {line} no cambia nada, no se guardó nada"}[lang]
    from desmoche_ref.play.typed import spoken

    for k in range(1, 20):  # the first half: each line the move it was, whatever its verb
        assert out[k] == f"{k + 1}: " + already.format(k=k, line=spoken(lines[k], lang == "es")), k
    assert not any("claim is void" in line or "reclamo" in line for line in out)
    assert moves(live) == moves(once)  # nothing stored twice, the rest stored once
    assert live.json("hand", "show", "--json") == once.json("hand", "show", "--json")
    live("verify")  # exit 0: the book verifies
    # a third time: nothing at all
    status, out = piped(live.url, whole, "--keep-going", lang=lang)
    assert status == 0 and moves(live) == moves(once)
    assert sum(("already recorded (" in line or "ya anotada (" in line) for line in out) == len(lines) - 1
    assert out[-1] == {"en": f"0 lines stored; {len(lines) - 1} already recorded",
                       "es": f"0 líneas guardadas; {len(lines) - 1} ya anotadas"}[lang]


def test_a_hand_sent_again_after_its_end_is_stored_once(tmp_path):
    record = (ROOT / "tests" / "conformance" / "no-winner.dsm").read_text()
    setup, lines = night(record)
    assert lines[-1] == "end"
    live = Live("sqlite:///" + str(tmp_path / "book.db"))
    table_of(live, setup)
    text = "\n".join(lines) + "\n"
    assert piped(live.url, text)[0] == 0
    before = moves(live)
    status, out = piped(live.url, text, "--keep-going")
    assert status == 0 and moves(live) == before
    assert out[0] == ("hand 1 at table t is dealt already by Dani (now at move 25): nothing done; the next hand "
                      "passes the deal to the right (`new` without --dealer)")
    assert live.json("table", "list", "--json")[0]["hands"] == 1


SAMPLES = sorted(p for p in (ROOT / "sample_logs").glob("*.dsm")) + \
    sorted(p for p in (ROOT / "tests" / "conformance").glob("*.dsm"))


def one_hand(path):
    """The record's first hand alone, as a recorder types it, if the book takes it whole."""
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.referee import judge_text

    text = path.read_text()
    hands, lines = parse_text(text).hands, text.splitlines()
    end = hands[1].line - 1 if len(hands) > 1 else len(lines)
    first = "\n".join(lines[hands[0].line - 1:end]) + "\n"
    hand = judge_text(first).hands[0]
    if hand.status == "invalid":
        return None
    return night(first)


CLAIMED = "\n".join((ROOT / "sample_logs" / "dispute-claims.dsm").read_text().splitlines()[:18]
                    + ["meld Carla 7c 7s 7d  # Carla first in R7.5's order", "pay Carla Qc"]) + "\n"


@pytest.mark.slow
def test_every_record_sent_twice_is_stored_once_whatever_its_verbs(tmp_path):
    """Each sample hand's lines sent to `play` twice: the second time every line is `already
    recorded`, exit 0, and the book holds what one sending stored (knock, claim, cut, return,
    declare, pass, foul, forgive: every verb of the notation among them)."""
    seen = set()
    (tmp_path / "claimed.dsm").write_text(CLAIMED)
    for n, path in enumerate(SAMPLES + [tmp_path / "claimed.dsm"]):
        found = one_hand(path)
        if found is None:
            continue
        setup, lines = found
        live = Live("sqlite:///" + str(tmp_path / f"{n}.db"))
        table_of(live, setup)
        text = "\n".join(lines) + "\n"
        first, _ = piped(live.url, text, "--keep-going")
        stored = moves(live)
        status, out = piped(live.url, text, "--keep-going")
        assert moves(live) == stored, path.name
        if first == 0:  # a hand the book took whole: every line again is the move it was
            assert status == 0, (path.name, out)
            assert sum("already recorded (" in line for line in out) == len(lines) - 1, (path.name, out)
            seen.update(line.split()[0] for line in lines[1:])
    assert seen >= {"cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock", "meld",
                    "add", "pay", "pass", "show", "foul", "forgive", "end"}


# ------------------------------------------------------------------ a verb run again
FRIDAY = [line for line in (ROOT / "tests" / "conformance" / "friday.dsm").read_text().splitlines()
          if line and not line.startswith("[")]


@pytest.fixture
def friday(_built, tmp_path):
    """Friday's hand (NOTATION's example) recorded to its end, not yet closed (a copy of a book
    made once per test process)."""
    return Live(_built("sqlite", "friday-shown", friday_book(FRIDAY), tmp_path)[0])


@pytest.mark.parametrize("k", range(1, len(FRIDAY) + 1))
def test_a_verb_run_again_is_the_move_it_was(friday, k):
    line = FRIDAY[k - 1]
    before = moves(friday)
    run = friday(*line.split())
    assert run.stdout == f"already recorded (move {k}): {line} changes nothing, nothing stored\n"
    assert friday("rec", line).stdout == run.stdout and moves(friday) == before


def test_a_verb_run_again_in_spanish_names_its_spanish_verb(friday):
    run = friday("--lang", "es", "pagar", "Beto", "7c")
    assert run.stdout == "ya anotada (jugada 10): pagar Beto 7c no cambia nada, no se guardó nada\n"


def test_a_knock_is_made_anew_at_each_card_on_offer(_built, tmp_path):
    """`knock` (and `claim`) binds no one and may be written at each card on offer (N4.3): the
    same line at another card is a move of its own; at the same card, the move it was."""
    live = Live(_built("sqlite", "friday-paid", friday_book(FRIDAY[:10]), tmp_path)[0])  # 7♣ on offer
    assert live("knock", "Ana").stdout.startswith("move 11: knock Ana\n")
    assert live("knock", "Ana").stdout == "already recorded (move 11): knock Ana changes nothing, nothing stored\n"
    live("draw", "Carla", "4d")  # 4♦ on offer: a card of its own
    assert live("knock", "Ana").stdout.startswith("move 13: knock Ana\n")
    assert live("knock", "Ana", "--expect", "12").stdout == \
        "already recorded (move 13): knock Ana changes nothing, nothing stored\n"
    live("meld", "Carla", "4d", "5d", "6d")
    assert live("knock", "Ana", status=1).stderr.startswith("refused: R7.9 ")  # nothing on offer: no repeat


def test_two_recorders_typing_one_move_store_it_once(friday):
    """The second sends the line after the move it saw (`--expect`): the move the first stored."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import TableBook

    friday("undo")  # the show of Beto's card taken back: the hand at move 29
    first = TableBook(open_book(friday.url), "friday")
    second = TableBook(open_book(friday.url), "friday")
    done = first.record("show Beto Qd")
    assert (done.unchanged, done.seq) == (False, 31)
    again = second.record("show Beto Qd")  # it read the hand at move 30
    assert (again.unchanged, again.seq) == (True, 31)
    assert [m[1] for m in moves(friday)][-2:] == ["undo", "show Beto Qd"]


# ------------------------------------------------------------------ a finding at its move
@pytest.mark.parametrize("lang, said", [
    ("en", "warning R4.4 Carla's oro claim is void: A♦ was passed in the cambio"),
    ("es", "aviso R4.4 el reclamo de oro de Carla es nulo: A♦ se pasó en el cambio")])
def test_a_claim_made_void_by_the_cambio_is_said_at_the_cambio(club, lang, said):
    live, _once, lines = club
    first = lines.index("announce Carla oro Ad")
    deal = [line for line in lines[:first + 1]]
    assert piped(live.url, "\n".join(deal) + "\n")[0] == 0
    run = live("--lang", lang, "cambio", "Carla", "Ad")
    assert said in run.stdout.splitlines()
    assert live("cambio", "Dani", "4h").stdout.count("warning") == 0  # said once, at the move that caused it
