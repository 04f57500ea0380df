"""The CP-SAT model (encodings/syndicate.py), a second exact engine, agrees with the search.

Verdicts and best scores must be equal wherever both are exact, on puzzles with known answers
(three of them unwinnable) and on random positions; limits are never read as losses; a race
reports only exact answers as exact, and names the engine that gave them.
"""
import random

import pytest

from solodeck.deals import load_deal
from solodeck.encodings import cpsat_solver
from solodeck.encodings.syndicate import SyndicateModel, promotion_bounds
from solodeck.games.syndicate.rules import State
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver
from solodeck.solvers.portfolio import race

from conftest import PUZZLES

GAME = get_game("syndicate")


def both(state, time_limit=60):
    return make_solver(GAME).solve(state), cpsat_solver(GAME, Limits(time_limit=time_limit), workers=2).solve(state)


def test_horizon_from_an_opening_is_53_moves():
    state = GAME.initial_state(GAME.new_deal(0))
    assert promotion_bounds(state.members, state.candidates, opening=True) == {5: 9, 4: 13, 3: 15, 2: 15, 1: 13}
    assert SyndicateModel(state).horizon == 53


@pytest.mark.parametrize("name", ["stuck", "dead-end", "no-way-up", "forced-three", "isaludo-endgame"])
def test_puzzles_agree(name):
    state = GAME.initial_state(load_deal(PUZZLES / "syndicate" / f"{name}.toml"))
    search, model = both(state)
    assert model.exact and model.engine == "cpsat"
    assert (model.verdict, model.score) == (search.verdict, search.score)
    if model.verdict == "winnable":
        assert GAME.replay_moves(state, model.line).outcome().score == model.score


@pytest.mark.slow
@pytest.mark.parametrize("name", ["forced-one", "forced-two", "demo"])
def test_slow_puzzles_agree(name):
    test_puzzles_agree(name)


def small_position(rng):
    """Random position with few cards: ranks 1-4 hold 0-3 members, every rank 0-2 candidates."""
    deck = [v for v in range(1, 11) for _ in range(4)]
    rng.shuffle(deck)
    members = [tuple(sorted(deck.pop() for _ in range(3 if r == 5 else rng.choice((0, 2, 3, 3)))))
               for r in range(1, 6)]
    candidates = [tuple(sorted(deck.pop() for _ in range(rng.randint(0, 2)))) for _ in range(5)]
    return State(tuple(members), tuple(candidates), (), 0)


def test_random_positions_agree():
    rng = random.Random(8)
    verdicts = {"winnable": 0, "unwinnable": 0}
    for _ in range(25):
        state = small_position(rng)
        search, model = both(state, time_limit=20)
        assert search.exact
        if model.exact:
            assert (model.verdict, model.score) == (search.verdict, search.score), str(state)
            verdicts[model.verdict] += 1
        else:
            assert model.verdict != "unwinnable"
    assert verdicts["winnable"] >= 5 and verdicts["unwinnable"] >= 2, verdicts


def test_a_time_limit_is_never_a_loss():
    state = GAME.initial_state(GAME.new_deal(0))
    result = cpsat_solver(GAME, Limits(time_limit=0.5), workers=1).solve(state)
    assert result.status == "timeout" and not result.exact and result.verdict in ("unknown", "winnable")


def test_race_reports_the_first_exact_answer_and_names_its_engine():
    state = GAME.initial_state(load_deal(PUZZLES / "syndicate" / "forced-three.toml"))
    result = race(GAME, {"search": lambda: DepthFirstSolver(GAME),
                   "cpsat": lambda: cpsat_solver(GAME, Limits(time_limit=60))}, state)
    assert result.exact and (result.verdict, result.score) == ("winnable", 3)
    assert result.engine in ("dfs", "cpsat") and len(result.raced_against) == 1


def test_race_with_no_exact_engine_stays_inexact():
    state = GAME.initial_state(load_deal(PUZZLES / "syndicate" / "sacrifice-maze.toml"))
    limits = Limits(time_limit=1.0)
    result = race(GAME, {"search": lambda: DepthFirstSolver(GAME, limits),
                   "cpsat": lambda: cpsat_solver(GAME, limits)}, state)
    assert not result.exact and result.verdict != "unwinnable"


def test_cli_engines(cli):
    path = PUZZLES / "syndicate" / "no-way-up.toml"
    for engine in ("cpsat", "race"):
        proc = cli("solve", path, "--engine", engine, "--json")
        assert proc.returncode == 0, proc.stderr
        assert '"verdict": "unwinnable"' in proc.stdout and '"exact": true' in proc.stdout
