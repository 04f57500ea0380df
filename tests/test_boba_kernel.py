"""The Boba kernel (ext/boba.pyx) against the reference engine: moves, the baseline policy and the
blind rule along whole games, exact blind values, rollouts sample for sample, limits."""
import random
import sys
from pathlib import Path

import pytest

from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.games.boba.blind import (ROLLOUT_CANDIDATES, BlindKernel, Odds, _python_rollouts, _set_kernel_position,
                                       rule_candidates, rule_move)
from solodeck.games.boba.search import from_kernel
from solodeck.registry import get_game
from solodeck.solvers import Limits
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.rollouts import play_out
from solodeck.shuffle import SplitMix64

sys.path.insert(0, str(Path(__file__).parent))
from test_boba import blind_cases, endgame  # noqa: E402  the same random endgames as the reference tests

GAME = get_game("boba")
KERNEL = load("boba")


pytestmark = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def kernel_at(state):
    search = KERNEL.Search(8)
    _set_kernel_position(search, state)
    return search


def random_states(seeds, rng):
    """Every decision along random games (chance by the deal), in every phase the game has."""
    for seed in seeds:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        while state.outcome() is None:
            yield state
            state = advance_chance(state.play(rng.choice(state.legal_moves())))


def test_moves_and_baseline_equal_the_reference_state_by_state():
    rng = random.Random(5)
    checked = pending = 0
    for state in random_states(range(15), rng):
        search = kernel_at(state)
        assert [from_kernel(m) for m in search.moves()] == state.legal_moves()
        assert from_kernel(search.baseline_move()) == GAME.baseline_move(state)
        checked += 1
        pending += state.hand is not None
    assert checked > 300 and pending > 20


@pytest.mark.parametrize("pending", [False, True])
@pytest.mark.parametrize("cards_left", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_blind_values_equal_the_reference(cards_left, pending):
    for state in blind_cases(10, cards_left, seed=40 + cards_left + 10 * pending):
        expected = ExpectimaxSolver(GAME, use_kernel=False).value(state)
        got = kernel_at(state).blind_value()
        assert got == pytest.approx(expected, abs=1e-9), str(state)


def test_one_table_serves_many_positions():
    """The kernel's keys hold the whole position: reusing one table across positions is exact."""
    blind = BlindKernel(KERNEL, Limits())
    for state in blind_cases(6, 3, seed=77):
        assert blind.value(state) == pytest.approx(ExpectimaxSolver(GAME, use_kernel=False).value(state), abs=1e-9)
        for move in state.legal_moves():
            child = state.play(move)
            assert blind.value(child) == pytest.approx(ExpectimaxSolver(GAME, use_kernel=False).value(child),
                                                       abs=1e-9)


def test_the_rule_equals_the_reference_state_by_state():
    """The kernel's blind rule (rollouts play it) makes the reference's move, and ranks its
    candidates the same, at every decision of random games and of random endgames."""
    rng = random.Random(6)
    checked = pending = 0
    states = list(random_states(range(25), rng))
    states += [endgame(rng, cards_left, pending=i % 2 == 1) for i in range(60) for cards_left in (1, 2, 3, 6)]
    for state in states:
        search = kernel_at(state)
        assert from_kernel(search.rule_move()) == rule_move(state), str(state)
        assert [from_kernel(m) for m in search.rule_candidates(3)] == rule_candidates(state, 3), str(state)
        checked += 1
        pending += state.hand is not None
    assert checked > 600 and pending > 60


def test_the_rules_odds_equal_the_reference_exactly():
    """Not only the same moves: the same numbers, to the last bit (the same arithmetic in the same order)."""
    rng = random.Random(9)
    compared = 0
    for i, state in enumerate(random_states(range(4), rng)):
        if state.hand is not None or i % 5:
            continue
        odds = Odds(state.queues, state.unseen_counts())
        assert kernel_at(state).rule_values() == [odds.gap_value(m.queue - 1, m.gap) for m in state.legal_moves()]
        compared += 1
    assert compared > 10


def test_rollouts_equal_the_python_rollouts_sample_for_sample():
    """The kernel's rollouts: the rule's best targets (every move after a miss), each then the
    blind rule, the same draws as solvers/rollouts.py's play_out with GAME.blind_rule."""
    rng = random.Random(8)
    compared = 0
    for i, state in enumerate(random_states(range(3), rng)):
        if i % 9:
            continue
        fast = GAME.fast_rollouts(state, 4, 100 + i)
        assert [m for m, _w, _t in fast] == rule_candidates(state, ROLLOUT_CANDIDATES)
        assert fast == _python_rollouts(GAME, state, 4, 100 + i)  # the fallback without the kernel
        for move, wins, total in fast:
            w = t = 0
            for k in range(4):
                outcome = play_out(GAME, state.play(move), SplitMix64(100 + i + k), GAME.blind_rule).outcome()
                if outcome.won:
                    w, t = w + 1, t + outcome.score
            assert (wins, total) == (w, t), (str(state), str(move))
            compared += 1
    assert compared >= 16


def test_limits_stop_the_kernel_and_say_so():
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))  # 48 cards: far beyond an exact tree
    result = ExpectimaxSolver(GAME, Limits(max_states=1000)).solve(state)
    assert not result.exact and result.status == "memory-limit" and result.verdict == "unknown"
    result = ExpectimaxSolver(GAME, Limits(time_limit=0.2)).solve(state)
    assert not result.exact and result.status == "timeout"


def test_a_small_table_is_a_cache_not_an_error():
    state = blind_cases(1, 4, seed=3)[0]
    small = KERNEL.Search(0.05)  # about a thousand entries: cleared and refilled while searching
    _set_kernel_position(small, state)
    assert small.blind_value() == pytest.approx(ExpectimaxSolver(GAME, use_kernel=False).value(state), abs=1e-9)
