"""`desmoche-ref player` (issue 29): a player's record read from the book agrees with the same
hands judged one by one by `check` and with the ledger's postings — on the README's sample
season worked by hand, and on a simulated season with every kind of automatic win, fouls,
bonuses and side games; in both languages; `standings --min-nights`."""

import json
import pathlib
from collections import Counter

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.referee import judge_text
from desmoche_ref.simulate import simulate_session

DATA = pathlib.Path(__file__).parent / "league_data"
LEAGUE = sorted(DATA.glob("*.dsm"))
NAMES = ("Ana", "Beto", "Carla", "Dani")


def parse_amount(text: str) -> int:
    """Cents of a signed decimal as the JSON writes money (-12.50)."""
    sign, text = (-1, text[1:]) if text.startswith("-") else (1, text)
    whole, _dot, frac = text.partition(".")
    return sign * (int(whole) * 100 + int(frac.ljust(2, "0")))


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_the_sample_seasons_record_worked_by_hand(book_url):
    """Ana: north 1 (Beto's Cuatro Cuerpos, Ana up the tree pays), north 2 (no winner, all
    three out by F5), north 3 (her Peladilla: +70.00), west 1 (her Peladilla: +16.00)."""
    assert run("import", *LEAGUE, "--db", book_url)[0] == 0
    code, out = run("player", "Ana", "--json", "--db", book_url)
    assert code == 0, out
    r = json.loads(out)
    assert (r["hands"], r["wins"], r["auto_wins"], r["no_winner"]) == (4, 0, {"peladilla": 2}, 1)
    assert r["win_rate"] == 0.5 and r["net"] == "56.00" and r["average_net"] == "14.00"
    assert r["bonuses_won"] == {"arriba-del-palo": {"count": 2, "amount": "20.00"}}
    assert r["bonuses_paid"] == {"arriba-del-palo": {"count": 1, "amount": "10.00"}}
    assert r["fouls"] == {"F5": 1} and r["side_games"] == {}
    assert r["best_night"] == {"table": "north", "day": "2026-11-05", "hands": 3, "net": "40.00"}
    assert r["worst_night"] == {"table": "west", "day": "2026-11-06", "hands": 1, "net": "16.00"}
    assert r["longest_run_without_a_win"] == 2
    assert [(p["table"], p["hand"]) for p in r["curve"]] == [("north", 1), ("north", 3), ("west", 1)]
    assert r["rating"]["hands"] == 3 and r["rating"]["rating"] == r["curve"][-1]["rating"] == 5.91
    code, out = run("player", "Dani", "--json", "--db", book_url)
    assert json.loads(out)["side_games"] == {"oro": {"played": 1, "won": 1, "net": "2.00"}}
    west = json.loads(run("player", "Ana", "--table", "west", "--json", "--db", book_url)[1])
    assert (west["hands"], west["net"], west["auto_wins"], west["fouls"]) == (1, "16.00", {"peladilla": 1}, {})
    first = json.loads(run("player", "Ana", "--until", "2026-11-05", "--json", "--db", book_url)[1])
    assert (first["hands"], first["net"], first["bonuses_paid"], first["fouls"]) == (
        3, "40.00", {"arriba-del-palo": {"count": 1, "amount": "10.00"}}, {"F5": 1})


def test_the_record_in_words_in_both_languages(book_url):
    assert run("import", *LEAGUE, "--db", book_url)[0] == 0
    code, out = run("player", "Ana", "--db", book_url)
    assert code == 0
    assert out.splitlines()[:4] == ["Ana: 4 hands", "wins: 2 (50.0% of the hands): ten cards down 0, peladilla 2",
                                    "hands without a winner: 1", "net: 56.00, 14.00 a hand"]
    assert "  F5 × 1: other: any other breach the table agrees disqualifies, described in words" in out
    assert "best night: north 2026-11-05, 40.00 (3 hands)" in out
    code, out = run("--lang", "es", "player", "Ana", "--db", book_url)
    assert code == 0
    assert "ganadas: 2 (50.0% de las manos): diez cartas en la mesa 0, Peladilla 2" in out
    assert "  F5 × 1: otra: cualquier otra infracción que la mesa acuerde que descalifica, descrita…" in out
    assert "la racha más larga sin ganar: 2 manos" in out
    code, out = run("player", "Zoe", "--db", book_url)
    assert code == 2 and "error: there is no player 'Zoe' in this book" in out


def dated_season(hands=60, seed=28, per_night=20) -> str:
    """A simulated season of four players: every automatic win, F1, F2, F4, F5, bonuses and
    side games; `per_night` hands a day."""
    records = simulate_session(hands, 4, seed).split("[Players")[1:]
    return "".join(f'[Date "2026-10-{1 + k // per_night:02d}"]\n[Table "club"]\n[Players' + r
                   for k, r in enumerate(records))


def expected(text: str, name: str) -> dict:
    """The record of `name` from the hands judged one by one, in order."""
    out = Counter()
    autos, fouls, won, paid, nights = Counter(), Counter(), Counter(), Counter(), Counter()
    dry = longest = 0
    days = iter(line[7:17] for line in text.splitlines() if line.startswith("[Date"))
    for hand in judge_text(text):
        j, day = hand.as_json(), next(days)
        if j["status"] != "complete" or name not in j["players"]:
            continue
        out["hands"] += 1
        nights[day] += parse_amount(j["net"][name])
        o = j["outcome"]
        winner = name in o["winners"]
        out["wins"] += winner and o["kind"] == "win"
        autos[o["auto"]] += winner and o["kind"] == "auto-win"
        out["no_winner"] += o["kind"] == "no-winner"
        first = next((f["code"] for f in j["fouls"] if f["enforced"] and f["player"] == name), None)
        fouls[first] += first is not None
        for b in j["bonuses"]:
            won[b["kind"]] += parse_amount(b["amount"]) if b["to"] == name else 0
            paid[b["kind"]] += parse_amount(b["amount"]) if b["from"] == name else 0
        dry = 0 if winner else dry + 1
        longest = max(longest, dry)
    out["dry"] = longest
    return {"counts": out, "autos": +autos, "fouls": +fouls, "won": +won, "paid": +paid, "nights": nights}


@pytest.mark.slow
def test_a_simulated_seasons_records_agree_with_the_hands_judged_one_by_one(book_url, tmp_path):
    text = dated_season()
    (tmp_path / "season.dsm").write_text(text)
    assert run("import", tmp_path / "season.dsm", "--db", book_url)[0] == 0
    ledger = json.loads(run("ledger", "--json", "--db", book_url)[1])["postings"]
    kinds = Counter()
    for name in NAMES:
        code, out = run("player", name, "--json", "--db", book_url)
        assert code == 0, out
        r, e = json.loads(out), expected(text, name)
        assert (r["hands"], r["wins"], r["no_winner"]) == (e["counts"]["hands"], e["counts"]["wins"],
                                                            e["counts"]["no_winner"])
        assert r["auto_wins"] == dict(e["autos"]) and r["fouls"] == dict(e["fouls"])
        assert {k: parse_amount(v["amount"]) for k, v in r["bonuses_won"].items()} == dict(e["won"])
        assert {k: parse_amount(v["amount"]) for k, v in r["bonuses_paid"].items()} == dict(e["paid"])
        assert r["longest_run_without_a_win"] == e["counts"]["dry"]
        best = max(e["nights"].items(), key=lambda kv: kv[1])
        worst = min(e["nights"].items(), key=lambda kv: kv[1])
        assert (r["best_night"]["day"], parse_amount(r["best_night"]["net"])) == best
        assert (r["worst_night"]["day"], parse_amount(r["worst_night"]["net"])) == worst
        mine = [p for p in ledger if p["account"] == name]
        assert parse_amount(r["net"]) == sum(parse_amount(p["amount"]) for p in mine)
        for game, g in r["side_games"].items():
            of_game = [p for p in mine if p["detail"] == game]
            assert g["played"] == sum(p["kind"] == "side-stake" for p in of_game)
            assert g["won"] == sum(p["kind"] == "side-win" for p in of_game)
            assert parse_amount(g["net"]) == sum(parse_amount(p["amount"]) for p in of_game
                                                 if p["kind"] in ("side-stake", "side-win", "side-refund"))
        kinds.update(r["auto_wins"])
        kinds.update(r["fouls"])
        kinds.update({"sides": bool(r["side_games"]), "bonuses": bool(r["bonuses_won"] or r["bonuses_paid"])})
    # the season holds what it is meant to test
    assert {"peladilla", "cuatro-cuerpos", "color", "F1", "F2", "F4", "F5", "sides", "bonuses"} <= set(+kinds)


def test_standings_min_nights_qualifies_and_lists_the_others_apart(book_url):
    assert run("import", *LEAGUE, "--db", book_url)[0] == 0
    code, out = run("standings", "--min-nights", "2", "--db", book_url)
    assert code == 0
    head, apart = out.split("Fewer than 2 nights, not qualified:\n")
    assert [line.split()[0] for line in head.splitlines()[2:]] == ["Ana", "Dani", "Carla"]
    assert apart.splitlines()[2].split()[0] == "Beto" and apart.splitlines()[2].split()[-1] == "1"
    assert apart.splitlines()[-1] == "unwon (in pots) 0.00, brought in 12.00"
    shown = json.loads(run("standings", "--min-nights", "2", "--json", "--db", book_url)[1])
    assert shown["min_nights"] == 2
    assert [(p["player"], p["nights"], p["qualified"]) for p in shown["players"]] == [
        ("Ana", 2, True), ("Beto", 1, False), ("Dani", 2, True), ("Carla", 2, True)]
    code, out = run("--lang", "es", "standings", "--min-nights", "3", "--csv", "--db", book_url)
    assert out.splitlines()[1] == "Ana,4,2,2,1,20.00,10.00,1,0,56.00,2,no"
    code, out = run("standings", "--min-nights", "0", "--db", book_url)
    assert code == 2


@pytest.mark.parametrize("args", [["ratings"], ["player"], ["standings"]])
def test_help_has_examples(args):
    code, out = run(*args, "--help")
    assert code == 0 and "Examples:" in out and f"desmoche-ref {args[0]}" in out
