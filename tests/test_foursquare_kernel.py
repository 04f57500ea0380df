"""The Foursquare kernel (ext/foursquare.pyx) against the pure-Python reference.

* Moves and grids: along random and baseline lines, the kernel's legal placements, its grid
  after each one and its baseline move equal the reference's, state by state.
* Keys: two states have equal kernel keys exactly when they have equal reference keys.
* Open values: the kernel's best score equals the unpruned reference search on random endgames.
* Blind values: the kernel's expectimax equals the reference expectimax (which the brute force
  in test_expectimax.py checks) on random endgames, and the rollouts equal the reference's
  Python rollouts sample for sample.
"""
import random

import pytest

from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.games.foursquare.rules import State
from solodeck.games.foursquare.search import KernelSolver, _kernel_deck, _kernel_piles
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.rollouts import play_out
from solodeck.shuffle import SplitMix64
from test_expectimax import endgame

KERNEL = load("foursquare")
pytestmark = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
GAME = get_game("foursquare")


def loaded(state, memory_mb=16.0):
    search = KERNEL.Search(memory_mb)
    search.set_position(_kernel_piles(state), _kernel_deck(state))
    return search


def walk(seed, rng):
    """(state, move) along one game: each decision state and the move made there, half random
    and half the baseline's."""
    state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
    while state.outcome() is None:
        move = rng.choice(state.legal_moves()) if rng.random() < 0.5 else GAME.baseline_move(state)
        yield state, move
        state = advance_chance(state.play(move))


def test_moves_grids_and_baseline_equal_the_reference():
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        search = None
        for state, move in walk(seed, rng):
            search = search or loaded(state)  # then kept up to date by the kernel's own play()
            assert search.legal_moves(state.hand) == [(m.x, m.y) for m in state.legal_moves()]
            assert search.piles() == sorted(_kernel_piles(state))
            base = GAME.baseline_move(state)
            assert search.baseline_move(state.hand) == (base.x, base.y)
            assert search.play(move.x, move.y, state.hand)
            checked += 1
    assert checked > 1000


def test_keys_fold_the_same_symmetries_as_the_reference():
    rng = random.Random(6)
    by_reference, by_kernel = {}, {}
    for seed in range(40):
        for state, _move in walk(seed, rng):
            for move in state.legal_moves():
                child = state.play(move)
                ref_key = (child.key()[0], len(child.deck))
                kernel_key = (loaded(child).key(), len(child.deck))
                assert by_reference.setdefault(ref_key, kernel_key) == kernel_key
                assert by_kernel.setdefault(kernel_key, ref_key) == ref_key
    assert len(by_reference) > 5000


@pytest.mark.parametrize("cards, cases, prune", [((2, 4), 25, False), ((5, 6), 8, True)])
def test_open_values_equal_the_reference(cards, cases, prune):
    """Small endgames against the plain unpruned search; larger ones against the pruned
    reference (itself checked against the unpruned search in test_solver_and_hints.py)."""
    rng = random.Random(7 + cards[0])
    wins = losses = 0
    for _ in range(cases):
        state = advance_chance(endgame(rng, rng.randint(*cards)))
        expected = DepthFirstSolver(GAME, prune=prune).solve(state)
        got = KernelSolver(GAME, KERNEL, Limits()).solve(state)
        assert got.exact and (got.verdict, got.score) == (expected.verdict, expected.score), str(state)
        wins += got.verdict == "winnable"
        losses += got.verdict == "unwinnable"
    assert wins >= cases // 10 and losses >= cases // 10


def test_a_lone_extreme_last_card_agrees_with_the_reference():
    """The kernel cuts a budget whose every possible winning card is a strict extreme of the
    tops (it would turn 6 piles face up at once, so 6 must be face down before it). On endgames
    whose deck ends in an extreme card, with one card to spare or none, the kernel's answers
    equal the plain unpruned search's, both ways."""
    rng = random.Random(52)
    wins = losses = 0
    for case in range(60):
        state = endgame(rng, rng.randint(2, 4))
        lone = 1 if case % 2 else 10
        tops = {c: (min(max(v, 2), 9), up, h) for c, (v, up, h) in state.piles.items()}
        deck = tuple(min(max(v, 2), 9) for v in state.deck[:-1]) + (lone,)
        state = advance_chance(State(tops, deck))
        expected = DepthFirstSolver(GAME, prune=False).solve(state)
        got = KernelSolver(GAME, KERNEL, Limits()).solve(state)
        assert got.exact and (got.verdict, got.score) == (expected.verdict, expected.score), str(state)
        wins += got.verdict == "winnable"
        losses += got.verdict == "unwinnable"
    assert wins >= 1 and losses >= 20, (wins, losses)


def test_seed_12_cannot_leave_24_cards():
    """Its 16th card is its only ace: as the last of 15 new piles it would be a strict minimum
    of its row and column (see the test above), so the best win covers a pile at least once."""
    state = advance_chance(GAME.initial_state(GAME.new_deal(12)))
    cards = [state.piles[(0, 0)][0], state.hand, *state.deck[:14]]
    assert cards[15] == 1 and 1 not in cards[:15]
    result = KernelSolver(GAME, KERNEL, Limits(max_states=200_000)).solve(state)
    assert result.score_bound is None or result.score_bound <= 23
    assert result.score is None or result.score <= 23


def test_open_lines_are_optimal_on_seeded_deals():
    for seed in range(6):
        state = GAME.initial_state(GAME.new_deal(seed))
        got = KernelSolver(GAME, KERNEL, Limits(time_limit=30)).solve(state)
        assert got.exact and got.verdict == "winnable"
        assert GAME.replay_moves(advance_chance(state), got.line).outcome().score == got.score


def test_blind_values_equal_the_reference_expectimax():
    rng = random.Random(8)
    positive = 0
    for _ in range(12):
        state = advance_chance(endgame(rng, rng.randint(3, 5)))
        expected = ExpectimaxSolver(GAME, use_kernel=False).value(state)
        got = ExpectimaxSolver(GAME).value(state)
        assert got == pytest.approx(expected, abs=1e-9), str(state)
        positive += got[0] > 0
    assert positive >= 3


def test_rollouts_equal_the_reference_sample_for_sample():
    state = advance_chance(GAME.initial_state(GAME.new_deal(11)))
    for _ in range(3):
        state = advance_chance(state.play(GAME.baseline_move(state)))
    fast = GAME.fast_rollouts(state, 40, 123)
    assert sum(w for _m, w, _s in fast) > 0  # the comparison must include wins
    for move, wins, score_sum in fast:
        finals = [play_out(GAME, state.play(move), SplitMix64(123 + i), GAME.baseline_move) for i in range(40)]
        won = [f.outcome().score for f in finals if f.outcome() is not None and f.outcome().won]
        assert (wins, score_sum) == (len(won), sum(won)), move


def test_a_limit_is_never_a_loss():
    state = GAME.initial_state(GAME.new_deal(7))  # winnable, but its best score is slow to prove
    result = KernelSolver(GAME, KERNEL, Limits(time_limit=0.5)).solve(state)
    assert not result.exact and result.status == "timeout" and result.verdict in ("winnable", "unknown")
    blind = ExpectimaxSolver(GAME, Limits(max_states=1000)).solve(advance_chance(state))
    assert not blind.exact and blind.status == "memory-limit"


def test_a_small_table_gives_the_same_answers():
    for seed in range(4):  # a 4,096-entry table is cleared many times on these
        state = GAME.initial_state(GAME.new_deal(seed))
        big = KernelSolver(GAME, KERNEL, Limits()).solve(state)
        small = KernelSolver(GAME, KERNEL, Limits(memory_mb=0.01)).solve(state)
        assert small.exact and (small.verdict, small.score) == (big.verdict, big.score)
