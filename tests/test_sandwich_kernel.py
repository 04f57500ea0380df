"""The Sandwich Guy kernel (ext/sandwich.pyx) against the reference engine: legal moves, the
baseline policy and the blind rule, single playouts and whole rollout tables, sample for sample."""
import random

import pytest

from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.games.sandwich.blind import KERNEL_BLIND_RULE
from solodeck.games.sandwich.rules import State
from solodeck.registry import get_game
from solodeck.solvers.rollouts import play_out, rollout_stats
from solodeck.shuffle import SplitMix64

GAME = get_game("sandwich")
KERNEL = load("sandwich")
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def positions(n, seed):
    """Decision positions along random lines of seeded deals, from the deal to the last draws."""
    rng = random.Random(seed)
    out = []
    for deal in range(n):
        s = advance_chance(GAME.initial_state(GAME.new_deal(deal)))
        while s.outcome() is None:
            out.append(s)
            s = advance_chance(s.play(rng.choice(s.legal_moves())))
        out.append(s)
    return out


def reference_rollouts(state, samples, seed, moves):
    """solvers/rollouts.py's rollouts of ``moves`` with the kernel hook switched off."""
    GAME.fast_rollouts = lambda *args, **kwargs: None
    try:
        return rollout_stats(GAME, state, samples, seed, moves)
    finally:
        del GAME.fast_rollouts


RULES = [(0, GAME.baseline_move), (KERNEL_BLIND_RULE, GAME.blind_rule)]  # kernel rule id, reference


@needs_kernel
def test_legal_moves_and_rules_equal_the_reference():
    differ = 0
    for s in positions(20, seed=1):
        assert [m.cards for m in s.legal_moves()] == KERNEL.legal(sorted(s.hand))
        moves = []
        for rule, reference in RULES:
            expected = reference(s)
            moves.append(KERNEL.rule_move(rule, sorted(s.hand), list(s.deck)))
            assert moves[-1] == (expected.cards if expected else None)
        differ += moves[0] != moves[1]
    assert differ  # the two rules are not one


@needs_kernel
def test_single_playouts_equal_the_reference():
    for rule, reference in RULES:
        for i, s in enumerate(positions(6, seed=2)):
            final = play_out(GAME, s, SplitMix64(1000 + i), reference)
            won, score = KERNEL.playout(rule, sorted(s.hand), list(s.deck), 1000 + i)
            assert won == final.outcome().won and score == len(final.hand)


@needs_kernel
def test_rollout_tables_equal_the_reference_sample_for_sample():
    checked = 0
    for s in positions(4, seed=3)[::3]:
        if s.outcome() is not None:
            continue
        moves = s.legal_moves()
        kernel = GAME.fast_rollouts(s, 12, 99, moves)
        assert kernel == reference_rollouts(s, 12, 99, moves)
        some = moves[::-2]  # a subset, in another order (the policy asks for the rule's move only)
        assert GAME.fast_rollouts(s, 12, 99, some) == [kernel[moves.index(m)] for m in some]
        checked += any(0 < wins < 12 for _m, wins, _t in kernel)
    assert checked  # some moves neither always win nor always lose


@needs_kernel
def test_rollouts_ignore_the_deck_order():
    s = positions(1, seed=4)[2]
    order = list(s.deck)
    random.Random(0).shuffle(order)
    shuffled = State(s.hand, tuple(order))
    assert GAME.fast_rollouts(shuffled, 32, 5, s.legal_moves()) == GAME.fast_rollouts(s, 32, 5, s.legal_moves())
    assert GAME.fast_rollouts(shuffled, 32, 5) == GAME.fast_rollouts(s, 32, 5)  # the rule's move only
