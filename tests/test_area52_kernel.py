"""Area 52's exact open search in the kernel (ext/area52.pyx's Exact, search.KernelSolver) against
the reference engine: wave 2's reshuffle card for card, and the proven best outcome equal to the
plain exhaustive search of solvers/dfs.py (no bounds, no pruning) on positions it finishes in
seconds: wave-2 endgames, and late wave-1 positions whose wave-1 ending picks among reshuffled
wave-2 decks. Limits: a stopped search is never exact, and what it proves holds."""
from __future__ import annotations

import random

import pytest

from solodeck.api import advance_chance
from solodeck.games.area52 import GAME
from solodeck.games.area52.rules import State, wave2_deck
from solodeck.games.area52.search import LOSS, WIN, KernelSolver, _from_kernel, exact_search
from solodeck.result import Limits
from solodeck.solvers import DepthFirstSolver, solve_open

KERNEL = GAME.load_kernel()
pytestmark = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def random_position(rng, wave, table, defenders, queue, returned, discard_max=52):
    """A decision: ``table`` defenders, a deck of ``defenders``, ``queue`` aliens (up to 3 of them
    flipped), ``returned`` of them returned; every other card discarded (at most ``discard_max``
    cards discarded: the rest go to the bottom of the defender deck)."""
    cards = list(range(52))
    rng.shuffle(cards)
    t, cards = cards[:table], cards[table:]
    q, cards = cards[:queue], cards[queue:]
    extra = max(0, len(cards) - defenders - discard_max)
    d, discard = cards[:defenders + extra], cards[defenders + extra:]
    flipped = min(3, queue - returned)
    attackers, hidden, back = q[:flipped], q[flipped:queue - returned], q[queue - returned:]
    state = State(tuple(sorted(t)), tuple(d), tuple(attackers), 0, tuple(hidden), tuple(back),
                  tuple(sorted(discard)), wave, rng.randrange(1000))
    return advance_chance(state)


def kernel_value(state, memory_mb=16.0):
    search = exact_search(KERNEL, state, memory_mb)
    value = search.solve(0, 0.0)
    assert value is not None
    return value, search


def reference_value(state, plain=True):
    """The reference's best outcome as a kernel value: the plain exhaustive search (no bounds),
    or solvers/dfs.py's pruned one (the Python score bound) where the plain one takes too long."""
    result = (solve_open(GAME, state, prune=False) if plain else DepthFirstSolver(GAME).solve(state))
    assert result.exact
    return (WIN if result.verdict == "winnable" else LOSS) + result.score


def test_the_kernel_reshuffles_wave_2_as_the_reference_does():
    rng = random.Random(5)
    for seed in range(6):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        search = exact_search(KERNEL, state, 16.0)
        for _ in range(40):
            k = rng.randrange(len(state.defenders) + 1)
            table = rng.sample(range(52), 6)
            left = set(table) | set(state.defenders[k:])
            discard = tuple(c for c in range(52) if c not in left)
            assert search.ending_deck(table, k) == list(wave2_deck(discard, seed))


@pytest.mark.parametrize("shape,count,plain", [
    # (wave, table, defenders, queue, returned, discard at most), positions, plain search?
    ((2, 4, 1, 4, 1, 52), 12, True), ((2, 5, 2, 3, 0, 52), 12, True), ((2, 6, 0, 5, 2, 52), 12, True),
    ((2, 3, 3, 4, 0, 52), 12, True),
    ((1, 4, 1, 2, 0, 3), 6, False), ((1, 3, 2, 3, 1, 2), 4, False), ((1, 5, 0, 2, 1, 4), 4, False),
    ((1, 2, 0, 3, 0, 52), 8, False), ((1, 3, 1, 3, 0, 52), 8, False), ((1, 4, 0, 2, 0, 6), 4, False),
])
def test_the_kernel_proves_the_best_outcome_of_the_reference(shape, count, plain):
    """Wave-1 shapes with a short discard pile end in a small wave 2 whose deck is the reshuffled
    discards (each wave-1 ending its own); those with a long one lose, in wave 1 (score minus
    50) or in wave 2, where the score counts the aliens of the deck the ending reshuffled."""
    wave, *sizes = shape
    rng = random.Random(sum(shape) * 7919 + len(shape))
    seen = 0
    while seen < count:
        state = random_position(rng, wave, *sizes)
        if state.outcome() is not None:
            continue
        seen += 1
        value, search = kernel_value(state)
        assert value == reference_value(state, plain), str(state)
        # the kernel's line reaches that value under the rules
        end = state
        for move in search.best_line(value):
            end = advance_chance(end.play(_from_kernel(move, end.attackers[0])))
        outcome = end.outcome()
        assert outcome is not None and (WIN if outcome.won else LOSS) + outcome.score == value


@pytest.mark.parametrize("shape", [(2, 6, 3, 5, 1, 52), (2, 4, 2, 5, 0, 52), (2, 6, 0, 6, 2, 52),
                                   (1, 6, 2, 3, 1, 2), (1, 5, 1, 3, 0, 3)])
def test_the_bound_never_falls_below_the_truth(shape):
    """The kernel's score bound (the losses its aliens force when each is first faced) at random
    positions, held to the plain exhaustive search's best outcome; it must also be tight enough to
    say something (below the defenders left) on some of them."""
    wave, *sizes = shape
    rng = random.Random(sum(shape) * 31 + 7)
    below_defenders = 0
    for _ in range(25):
        state = random_position(rng, wave, *sizes)
        if state.outcome() is not None:
            continue
        bound = exact_search(KERNEL, state, 16.0).root_bound()
        truth = reference_value(state, plain=wave == 2)
        assert bound >= truth, str(state)
        below_defenders += bound < WIN + len(state.table) + len(state.defenders)
    assert below_defenders > 0


def test_branch_and_bound_from_below_agrees_with_the_exact_value():
    """prove_above (bench/area52.py's question "a win above T?") on wave-2 endgames: below the
    value it finds the value, at or above it it proves the floor."""
    rng = random.Random(17)
    for _ in range(10):
        state = random_position(rng, 2, 6, 3, 6, 1)
        if state.outcome() is not None:
            continue
        value, _search = kernel_value(state)
        for floor in (value - 2, value - 1, value, value + 1):
            assert exact_search(KERNEL, state, 16.0).prove_above(floor) == max(value, floor)


def test_the_solver_is_exact_on_endgames_and_replays_its_line():
    rng = random.Random(11)
    for _ in range(10):
        state = random_position(rng, 2, 5, 2, 4, 1)
        if state.outcome() is not None:
            continue
        result = KernelSolver(GAME, KERNEL, Limits()).solve(state)
        assert result.exact and result.engine == "kernel"
        assert (WIN if result.verdict == "winnable" else LOSS) + result.score == reference_value(state)


def test_a_stopped_search_is_never_exact_and_its_bound_holds():
    """A mid-size wave-2 position: solved exactly, then under budgets too small to finish. The
    best found never beats the truth and the proven bound never falls below it."""
    rng = random.Random(3)
    for _ in range(4):
        state = random_position(rng, 2, 6, 6, 12, 0)
        truth, _search = kernel_value(state, 64.0)
        for nodes in (50, 500, 5000):
            result = KernelSolver(GAME, KERNEL, Limits(max_states=nodes)).solve(state)
            if result.exact:
                assert (WIN if result.verdict == "winnable" else LOSS) + result.score == truth
                continue
            assert result.status == "memory-limit"
            if result.verdict == "winnable":
                assert WIN + result.score <= truth
                assert result.score_bound is None or WIN + result.score_bound >= truth
            elif result.verdict == "unwinnable":
                assert truth < WIN


def test_whole_deals_answer_the_same_under_the_same_budget():
    """Budgets are counted in nodes: two runs give the same answer (no time limit involved)."""
    import solodeck.games.area52.search as search

    saved = (search.LINE_NODES, search.PROOF_NODES, search.ENDGAME_NODES, search.BEAM_WIDTHS)
    search.LINE_NODES, search.PROOF_NODES, search.ENDGAME_NODES, search.BEAM_WIDTHS = 20_000, 20_000, 1_000, (4, 8)
    try:
        state = GAME.initial_state(GAME.new_deal(1))
        first, second = (KernelSolver(GAME, KERNEL, Limits()).solve(state) for _ in range(2))
    finally:
        search.LINE_NODES, search.PROOF_NODES, search.ENDGAME_NODES, search.BEAM_WIDTHS = saved
    assert (first.verdict, first.score, first.score_bound, [str(m) for m in first.line]) == \
           (second.verdict, second.score, second.score_bound, [str(m) for m in second.line])
    assert not first.exact and first.verdict == "winnable" and first.score_bound >= first.score
