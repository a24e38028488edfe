"""`simulate --skill` and the proof that the ratings measure skill (issue 29).

A weaker bot misjudges takes, pays, the cambio and side-game claims that much more often;
every line it writes is still judged by the referee. In a 2,000-hand season of four bots at
levels 1, 0.6, 0.6 and 0.2 the ratings put the level-1 bot first and the level-0.2 bot last.
The season is simulated and rated in-process (the verdicts the simulator's referee gave,
which are the book's: test_a_skill_season_rates_the_same_through_the_book)."""

import json

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.rating import rank_hands
from desmoche_ref.referee import judge_text
from desmoche_ref.sim.night import played
from desmoche_ref.simulate import simulate_session

SKILL = {"Beto": 0.6, "Carla": 0.6, "Dani": 0.2}
# At this seed the ratings hold the order from hand 170 on and end with Ana 3.5 above the
# next and Dani 3.2 below (bench/bench_ratings.py --skill-seeds 6 prints each seed's course)
SEED = 5


def verdicts(season):
    return [(v.players, v.outcome, v.winners, v.fouled) for v in season.verdicts]


def test_every_bot_at_level_1_plays_the_session_it_always_played():
    for seed, vary in ((4, True), (5, False)):
        assert simulate_session(12, 4, seed, vary=vary, skill={"Ana": 1.0, "Dani": 1}) == \
            simulate_session(12, 4, seed, vary=vary)


def test_weak_bots_play_legal_hands_and_their_verdicts_are_the_referees():
    """Level 0 (a random legal move each time) and 0.5: `check` finds every hand valid and
    gives the verdict the simulator kept."""
    season = played(40, 4, 11, None, True, None, {"Ana": 0.0, "Beto": 0.5, "Carla": 0.0})
    text = "\n".join(season.texts)
    judged = [h.as_json() for h in judge_text(text)]
    assert [j["status"] for j in judged] == ["complete"] * 40
    assert not any(j["errors"] for j in judged)
    for j, v in zip(judged, season.verdicts):
        assert j["outcome"]["kind"] == v.outcome and j["outcome"]["winners"] == v.winners
        assert [f["player"] for f in j["fouls"] if f["enforced"]] == v.fouled
        assert {p: int(c.replace(".", "")) for p, c in j["net"].items()} == v.net


def test_simulate_skill_on_the_command_line(tmp_path):
    result = CliRunner().invoke(main, ["simulate", "-n", "5", "-p", "4", "--seed", "2", "--skill", "Dani=0.2",
                                       "--skill", "Beto=0.6"])
    assert result.exit_code == 0
    assert result.output == simulate_session(5, 4, 2, skill={"Dani": 0.2, "Beto": 0.6})
    result = CliRunner().invoke(main, ["simulate", "-n", "5", "--skill", "Dani=0.2"])
    assert result.exit_code == 2 and "'Dani' does not play at a table of 3 (Ana, Beto, Carla)" in result.output
    result = CliRunner().invoke(main, ["--lang", "es", "simulate", "-n", "5", "--skill", "Ana=1.5"])
    assert result.exit_code == 2 and "'Ana=1.5': NIVEL es un número de 0 a 1" in result.output


@pytest.mark.slow
def test_a_skill_season_rates_the_same_through_the_book(tmp_path):
    season = played(100, 4, 3, None, True, None, SKILL)
    (tmp_path / "season.dsm").write_text("\n".join(season.texts))
    db = tmp_path / "book.db"
    assert CliRunner().invoke(main, ["import", str(tmp_path / "season.dsm"), "--db", str(db)]).exit_code == 0
    shown = json.loads(CliRunner().invoke(main, ["ratings", "--min-hands", "0", "--json", "--db", str(db)]).output)
    ranked = rank_hands(verdicts(season))[0].table()[0]
    assert shown["players"] == [r.as_json() for r in ranked]


@pytest.mark.slow
def test_the_ratings_put_the_best_bot_first_and_the_weakest_last():
    season = played(2000, 4, SEED, None, True, None, SKILL)
    ratings, rated, _ = rank_hands(verdicts(season))
    table = ratings.table(min_hands=20)[0]
    assert rated > 500 and [r.player for r in table][::3] == ["Ana", "Dani"]
    assert table[0].conservative - table[1].conservative > 1 and table[2].conservative - table[3].conservative > 1
