"""The ratings (issue 29): the Plackett-Luce update held to openskill's, how a hand becomes a
ranking (docs/rulings.md), the book's ratings in the order the hands were played, and a
correction (undo, re-import) giving exactly the figures of a book that never held the hand."""

import json
import pathlib
import random

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.rating import Ratings, Skill, hand_ranking, rank_hands, rate
from desmoche_ref.simulate import simulate_session

DATA = pathlib.Path(__file__).parent / "league_data"
LEAGUE = sorted(DATA.glob("*.dsm"))


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


# ------------------------------------------------------------------ the math
def test_the_update_is_openskills_plackett_luce_on_random_hands():
    from openskill.models import PlackettLuce

    model, rng = PlackettLuce(), random.Random(29)
    for _ in range(400):
        n = rng.randint(2, 4)
        skills = [Skill(rng.uniform(5, 45), rng.uniform(0.3, 9)) for _ in range(n)]
        ranks = [rng.choice((0, 1, 1, 2)) for _ in range(n)]
        theirs = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills], ranks=ranks)
        for mine, (other,) in zip(rate(skills, ranks), theirs):
            assert mine.mu == pytest.approx(other.mu, abs=1e-12)
            assert mine.sigma == pytest.approx(other.sigma, abs=1e-12)


def test_a_new_player_starts_at_openskills_prior_and_a_conservative_zero():
    assert Skill() == Skill(25.0, 25.0 / 3.0) and Skill().conservative == pytest.approx(0.0, abs=1e-12)


# ------------------------------------------------------------ the ruling
@pytest.mark.parametrize("outcome, winners, fouled, ranks", [
    ("win", ["Beto"], [], [1, 0, 1]),                    # R10: the winner first, the others tied
    ("auto-win", ["Ana"], [], [0, 1, 1]),                # R6: an automatic win is a win
    ("auto-win", ["Ana", "Carla"], [], [0, 1, 0]),       # R11.6: split winners tied
    ("win", ["Carla"], ["Ana"], [2, 1, 0]),              # R14.1: a disqualified player last
    ("win", ["Carla"], ["Ana", "Beto"], [2, 2, 0]),      # two out: tied below
    ("no-winner", [], [], None),                         # R2.3: nothing shown
    ("no-winner", [], ["Ana"], None),                    # no winner tells nothing, fouls or not
    (None, [], [], None),
])
def test_how_a_hand_becomes_a_ranking(outcome, winners, fouled, ranks):
    assert hand_ranking(["Ana", "Beto", "Carla"], outcome, winners, fouled) == ranks


def test_every_player_a_winner_tells_nothing():
    assert hand_ranking(["Ana", "Beto"], "auto-win", ["Ana", "Beto"], []) is None


def test_the_winner_rises_the_losers_fall_and_the_disqualified_fall_most():
    after = Ratings().play(["Ana", "Beto", "Carla", "Dani"], [2, 0, 1, 1])
    assert after[1].mu > 25 > after[2].mu == after[3].mu > after[0].mu
    assert all(s.sigma < Skill().sigma for s in after)


def test_the_same_hands_give_the_same_figures_and_another_order_others():
    hands = [(["Ana", "Beto", "Carla"], "win", [w], []) for w in ("Ana", "Ana", "Beto", "Carla", "Ana")]
    once = rank_hands(hands)[0].table()
    assert rank_hands(hands)[0].table() == once
    assert rank_hands(hands[::-1])[0].table() != once  # the order played matters


def test_min_hands_lists_the_players_below_it_apart():
    hands = [(["Ana", "Beto"], "win", ["Ana"], [])] * 3 + [(["Ana", "Carla"], "win", ["Carla"], [])]
    ranked, apart = rank_hands(hands)[0].table(min_hands=3)
    assert [r.player for r in ranked] == ["Ana", "Beto"]
    assert [(r.player, r.hands) for r in apart] == [("Carla", 1)]


# ---------------------------------------------------------------- the book
def league_book(url):
    code, out = run("import", *LEAGUE, "--db", url)
    assert code == 0, out
    return url


def test_the_sample_seasons_ratings_follow_its_hands_in_the_order_played(book_url):
    """north 1 (Beto's automatic win), north 2 (no winner: nothing), north 3 (Ana's), then on
    the 6th south (Dani beats Carla) before west (Ana beats Dani): day, then table."""
    from openskill.models import PlackettLuce

    league_book(book_url)
    model = PlackettLuce()
    r = {name: model.rating() for name in ("Ana", "Beto", "Carla", "Dani")}
    for players, ranks in ((("Ana", "Beto", "Carla"), [1, 0, 1]), (("Ana", "Beto", "Carla"), [0, 1, 1]),
                           (("Carla", "Dani"), [1, 0]), (("Ana", "Dani"), [0, 1])):
        for name, (after,) in zip(players, model.rate([[r[p]] for p in players], ranks=ranks)):
            r[name] = after
    code, out = run("ratings", "--min-hands", "0", "--json", "--db", book_url)
    assert code == 0, out
    shown = json.loads(out)
    assert shown["hands_rated"] == 4 and shown["provisional"] == []
    assert [(p["player"], p["hands"]) for p in shown["players"]] == [("Ana", 3), ("Beto", 2), ("Dani", 2),
                                                                     ("Carla", 3)]
    for p in shown["players"]:
        assert p["rating"] == round(r[p["player"]].ordinal(), 2)
        assert p["mu"] == round(r[p["player"]].mu, 2) and p["sigma"] == round(r[p["player"]].sigma, 2)


def test_ratings_in_words_both_languages_and_the_provisional_apart(book_url):
    league_book(book_url)
    code, out = run("ratings", "--db", book_url)
    assert code == 0
    assert out.splitlines()[0] == "4 hands rated (a hand with a winner ranks its players)"
    assert "Fewer than 20 rated hands, not ranked yet:" in out
    assert "Ana           5.91   29.01         7.70        3" in out
    code, out = run("--lang", "es", "ratings", "--min-hands", "3", "--db", book_url)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["puesto", "jugador", "puntuación", "media", "desviación", "manos"]
    assert lines[2].split() == ["1", "Ana", "5.91", "29.01", "7.70", "3"]
    assert "4 manos puntuadas (una mano con ganador ordena a sus jugadores)" in out
    assert "Menos de 3 manos puntuadas, aún sin puesto:" in out


def test_ratings_csv_fmt_and_filters(book_url):
    league_book(book_url)
    code, out = run("ratings", "--csv", "--min-hands", "3", "--db", book_url)
    assert out.splitlines() == ["rank,player,rating,mean,deviation,hands", "1,Ana,5.91,29.01,7.70,3",
                                "2,Carla,-2.32,20.45,7.59,3", ",Beto,2.13,25.89,7.92,2", ",Dani,1.44,24.81,7.79,2"]
    code, out = run("ratings", "--table", "south", "--table", "west", "--min-hands", "0", "--fmt", "github",
                    "--db", book_url)
    assert code == 0 and out.startswith("|") and "Beto" not in out and "Dani" in out
    code, out = run("ratings", "--until", "2026-11-05", "--min-hands", "0", "--json", "--db", book_url)
    assert json.loads(out)["hands_rated"] == 2
    code, out = run("ratings", "--table", "nowhere", "--db", book_url)
    assert code == 2 and "error: there is no table 'nowhere' in this book" in out


# ---------------------------------------------------------- corrections
def night_file(path, hands=10, seed=5):
    """A simulated night at table t, dated, and its last hand (which has a winner) apart."""
    text = simulate_session(hands, 3, seed, vary=False).replace(
        "[Players", '[Date "2026-10-01"]\n[Table "t"]\n[Players')
    records = ["[Date" + r for r in text.split("[Date")[1:]]
    (path / "night.dsm").write_text("".join(records[:-1]))
    (path / "last.dsm").write_text(records[-1])
    (path / "all.dsm").write_text("".join(records))
    return path


def figures(url):
    code, out = run("ratings", "--min-hands", "0", "--json", "--db", url)
    assert code == 0, out
    return json.loads(out)


@pytest.mark.slow
def test_undo_and_re_import_give_the_figures_of_a_book_that_never_held_the_hand(book_url, tmp_path):
    """Book A holds the night without its last hand. Book B holds it with its last hand, then
    takes back that hand's last move: B's figures are A's, to the last digit. Recorded again,
    B's figures are those of a book that imported the whole night; exported and imported into
    a new book, the same figures again."""
    files = night_file(tmp_path)
    never = tmp_path / "never.db"
    assert run("import", files / "night.dsm", "--db", never)[0] == 0
    whole = tmp_path / "whole.db"
    assert run("import", files / "all.dsm", "--db", whole)[0] == 0
    assert figures(never) != figures(whole)  # the last hand counts

    assert run("import", files / "night.dsm", files / "last.dsm", "--db", book_url)[0] == 0
    assert figures(book_url) == figures(whole)
    last_move = (files / "last.dsm").read_text().rstrip("\n").rsplit("\n", 1)[1].split(" #")[0]
    code, out = run("undo", "--table", "t", "--db", book_url)
    assert code == 0 and "open again" in out
    assert figures(book_url) == figures(never)

    code, out = run("rec", last_move, "--table", "t", "--db", book_url)
    assert code == 0, out
    if "closed" not in out:
        assert run("end", "--table", "t", "--db", book_url)[0] == 0
    assert figures(book_url) == figures(whole)

    code, out = run("export", "-o", tmp_path / "export.dsm", "--db", book_url)
    assert code == 0, out
    again = tmp_path / "again.db"
    assert run("import", tmp_path / "export.dsm", "--db", again)[0] == 0
    assert figures(again) == figures(whole)
