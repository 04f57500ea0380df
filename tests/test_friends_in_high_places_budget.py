"""Friends in High Places: the kernel's node budget per question (KernelSolver's narrowing counts a
question's share in nodes, not seconds) and its measurement counters (Search.stats)."""
from __future__ import annotations

import pytest

from solodeck.api import advance_chance
from solodeck.games.friends_in_high_places import GAME
from solodeck.games.friends_in_high_places.rules import flat
from solodeck.result import Limits


def kernel():
    module = GAME.load_kernel()
    if module is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    return module


def args(state):
    return (flat(state.deck), state.discard, state.shuffles, flat(state.court_deck), state.court_discard,
            state.court_shuffles, state.hand, state.court, state.turn)


def test_a_question_stopped_by_its_node_budget_then_finished_answers_the_same():
    """"A win by turn 11?" on seed 0 (no: refuted with a few hundred thousand nodes): stopped
    three times by small node budgets (Search.stopped == BUDGET_SPENT, not a time stop), then
    finished on the same Search (the failures stored before are kept): the same answer as one
    search without a budget, and never more nodes in the last part than in the whole."""
    module = kernel()
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    whole = module.Search(state.seed, *state.options)
    expected, _cut = whole.within(*args(state), 11)
    assert expected is None
    search = module.Search(state.seed, *state.options)
    for _ in range(3):
        search.node_budget = search.nodes + 5_000
        with pytest.raises(module.Stopped):
            search.within(*args(state), 11)
        assert search.stopped == module.BUDGET_SPENT
    before = search.nodes
    search.node_budget = 0
    line, _cut = search.within(*args(state), 11)
    assert line is None
    assert search.nodes - before <= whole.nodes


def test_the_kernel_solver_narrows_by_node_shares_and_its_answer_does_not_depend_on_them():
    """KernelSolver with a first share of 150,000 nodes (the default) and of 2,000 proves the same
    fewest turns on a deal it finishes (seed 10005: proven in well under a second)."""
    module = kernel()
    from solodeck.games.friends_in_high_places.search import KernelSolver

    state = advance_chance(GAME.initial_state(GAME.new_deal(10005)))
    scores = []
    for share in (KernelSolver.FIRST_SLICE, 2_000):
        solver = KernelSolver(GAME, module, Limits(time_limit=60))
        solver.FIRST_SLICE = share
        result = solver.solve(state)
        assert result.exact and result.verdict == "winnable"
        scores.append(result.score)
    assert scores[0] == scores[1]


def test_the_stats_count_every_node_once_by_turns_before_the_threshold():
    """Search.stats: per number of turns before the threshold, every node entered is cut (by the
    first bound, the timed plan or the table) or opened, on a refutation (no win reached)."""
    module = kernel()
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    search = module.Search(state.seed, *state.options)
    line, _cut = search.within(*args(state), 11)
    assert line is None
    entered, by_bound, by_plan, by_table, opened = search.stats()[:5]
    assert sum(entered) > 1000 and sum(entered) <= search.nodes
    for d in range(16):
        assert entered[d] == by_bound[d] + by_plan[d] + by_table[d] + opened[d]
