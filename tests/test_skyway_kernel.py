"""Skyway's kernel (ext/skyway.pyx) against the reference (solodeck/games/skyway.py): the same
chain lengths, the same baseline moves, and rollouts equal sample for sample."""
from __future__ import annotations

import random

import pytest

from solodeck.api import advance_chance
from solodeck.games.skyway import GAME, chain_lengths
from solodeck.shuffle import SplitMix64
from solodeck.solvers.sampling import play_out

kernel = GAME.load_kernel()
pytestmark = pytest.mark.skipif(kernel is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def decisions(seeds, policy=None):
    """Every decision of the seeded deals, played by the baseline (or a random) policy."""
    rng = random.Random(7)
    for seed in seeds:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        while state.outcome() is None:
            yield state
            move = GAME.baseline_move(state) if policy is None else rng.choice(state.legal_moves())
            state = advance_chance(state.play(move))
        yield state


def test_chain_lengths_and_baseline_moves_equal_the_reference():
    compared = 0
    for state in list(decisions(range(6))) + list(decisions(range(6, 10), policy="random")):
        assert kernel.chain_lengths(state.grid) == chain_lengths(state.grid)
        if state.outcome() is None:
            move = GAME.baseline_move(state)
            assert kernel.baseline_move(state.grid, state.market) == (move.stack, move.cell)
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("turn", [0, 9, 14])
def test_rollouts_equal_the_reference_sample_for_sample(turn):
    state = list(decisions([3]))[turn]
    moves = state.legal_moves()[::5]  # a spread of stacks and cells
    samples, seed = 6, 41
    stats = kernel.rollouts(state.grid, state.market, state.deck, state.discard, state.passno, state.final,
                            [(m.stack, m.cell) for m in moves], samples, seed)
    for move, (wins, total) in zip(moves, stats):
        finals = [play_out(GAME, state.play(move), SplitMix64(seed + i), GAME.baseline_move).outcome()
                  for i in range(samples)]
        assert (wins, total) == (sum(o.won for o in finals), sum(o.score for o in finals if o.won)), str(move)


def test_the_games_rollouts_use_the_kernel_for_every_move():
    state = list(decisions([5]))[4]
    stats = GAME.fast_rollouts(state, 4, 0)
    assert [m for m, _w, _t in stats] == state.legal_moves()
