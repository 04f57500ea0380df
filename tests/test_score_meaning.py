"""One meaning of score: a finished game's score is Outcome.score, a win's or a loss's, in solve,
play, analyze and hint files alike. A loss has a score exactly in the games that say so
(Game.loss_has_score); elsewhere a loss's score is null everywhere."""
import json

import pytest

from solodeck.solvers.plan import plan_of
from solodeck.analysis import Settings, solve_deal
from solodeck.registry import GAMES
from solodeck.solvers.episode import play_episode
from solodeck.solvers.blind import BaselinePolicy

from conftest import PUZZLES, run_cli

SOLO_CHANCE = sorted(name for name, game in GAMES.items() if game.has_chance and not game.several_players)


def first_loss(game, seeds=range(40)):
    """(seed, final state) of the first seeded deal the baseline loses, or None."""
    for seed in seeds:
        _decisions, final = play_episode(game.initial_state(game.new_deal(seed)), BaselinePolicy(game))
        outcome = final.outcome()
        if outcome is not None and not outcome.won:
            return seed, final
    return None


@pytest.mark.parametrize("name", SOLO_CHANCE)
def test_a_loss_has_a_score_exactly_where_the_game_says(name):
    game = GAMES[name]
    found = first_loss(game)
    if found is None:
        pytest.skip(f"the baseline won {name}'s first 40 deals")
    _seed, final = found
    assert (final.outcome().score is not None) == game.loss_has_score
    assert not plan_of(game).rank_losses or game.loss_has_score  # rollouts rank by a loss's score: it has one


def test_play_reports_the_score_of_a_loss_as_solve_does():
    """The issue's case: Skyway's baseline loses seed 0; play gave "score": null, solve a chain total."""
    game = GAMES["skyway"]
    _decisions, final = play_episode(game.initial_state(game.new_deal(0)), BaselinePolicy(game))
    assert not final.outcome().won
    proc = run_cli("play", "skyway", "--seed", 0, "--policy", "baseline", "--json", check=True)
    data = json.loads(proc.stdout)
    assert data["won"] is False and data["score"] == final.outcome().score is not None
    text = run_cli("play", "skyway", "--seed", 0, "--policy", "baseline", check=True).stdout
    assert f"result: lost, chain total {final.outcome().score}" in text


def test_analyze_rows_keep_the_score_of_a_blind_loss():
    game = GAMES["skyway"]
    seed, final = first_loss(game)
    settings = Settings("skyway", ["blind"], samples=2)
    row = solve_deal(settings, seed, "blind")
    if row["verdict"] == "lost":
        assert row["score"] is not None
    row = solve_deal(Settings("foursquare", ["blind"], samples=2), seed, "blind")
    if row["verdict"] == "lost":  # Foursquare's losses have no score
        assert row["score"] is None


def test_open_hint_files_score_a_loss_as_solve_does(tmp_path):
    """An Area 52 endgame with no win: solve proves the best loss's score; the hint file says the
    same at its top and gives every lost move its score."""
    hints = tmp_path / "h.json"
    proc = run_cli("solve", PUZZLES / "area-52" / "lost-2.toml", "--json", "--hints", hints, check=True)
    result = json.loads(proc.stdout)
    data = json.loads(hints.read_text())
    assert result["verdict"] == data["verdict"] == "unwinnable"
    assert data["score"] == result["score"] is not None
    lost = [m for d in data["decisions"] for m in d["moves"] if m["verdict"] == "unwinnable"]
    assert lost and all(isinstance(m["score"], int) for m in lost)
    assert max(m["score"] for m in data["decisions"][0]["moves"]) == result["score"]
