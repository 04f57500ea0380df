"""Skyway's kernel (ext/skyway.pyx) against the reference (solodeck/games/skyway/): the same
chain lengths, the same baseline moves, rollouts equal sample for sample, and the exact open
search (Endgame) equal to the reference search on random endgames, its bound equal to the
reference's; tests/test_skyway_cpsat.py checks it against CP-SAT."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from solodeck.api import advance_chance
from solodeck.deals import load_deal
from solodeck.games.skyway import GAME
from solodeck.games.skyway.blind import random_endgame
from solodeck.games.skyway.rules import NUMBER_CARDS, State, Take, chain_lengths
from solodeck.games.skyway.search import KernelSolver, kernel_args, kernel_utility, within_reach
from solodeck.shuffle import SplitMix64
from solodeck.solvers import DepthFirstSolver, Limits, make_solver
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.rollouts import play_out

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


# -- the exact open search (Endgame) against the reference ------------------------------------------------

CASE = Path(__file__).parent / "skyway-5-turns-pass-2.toml"  # the case of issue 42 (shared/cases/)
# random_endgame's (seed, grid cards, deck cards, pass): third-pass endgames of 2-3 turns, with and without the final
# shuffle, and second-pass ones whose next deck is the pile the line discards (3-4 turns)
RANDOM_ENDGAMES = [(0, 23, 9, 3), (1, 23, 9, 3), (1, 25, 7, 3), (2, 25, 7, 3), (0, 24, 12, 3), (2, 22, 13, 3),
                   (0, 25, 3, 2), (3, 25, 3, 2), (0, 24, 2, 2)]
SLOW_ENDGAMES = [(s, 25, 5, 2) for s in range(4)] + [(s, 24, 2, 2) for s in range(1, 4)]


def exact(state, seconds=0.0):
    """(utility, line) of the kernel's exact search."""
    search = kernel.Endgame(state.seed, 64.0, seconds)
    value, line = search.solve(*kernel_args(advance_chance(state)))
    return kernel_utility(value), [Take(s, c) for s, c in line]


def assert_equals_the_reference(position):
    state = random_endgame(*position)
    reference = DepthFirstSolver(GAME, Limits()).solve(state)
    utility, line = exact(state)
    assert reference.exact and utility == ((reference.verdict == "winnable") * 1, reference.score), position
    final = GAME.replay_moves(state, line).outcome()
    assert GAME.utility(final) == utility
    return utility


def test_the_exact_search_equals_the_reference_on_random_endgames():
    verdicts = {assert_equals_the_reference(position)[0] for position in RANDOM_ENDGAMES}
    assert verdicts == {0, 1}


@pytest.mark.slow
@pytest.mark.parametrize("position", SLOW_ENDGAMES)
def test_the_exact_search_equals_the_reference_on_longer_endgames(position):
    assert_equals_the_reference(position)


def test_the_bound_never_promises_less_than_the_exact_value():
    for position in RANDOM_ENDGAMES + [(5, 22, 15, 3), (6, 20, 5, 2)]:
        state = random_endgame(*position)
        search = kernel.Endgame(state.seed, 16.0)
        value, _line = search.solve(*kernel_args(advance_chance(state)))
        bound = search.bound(state.grid, state.deck, state.discard, state.passno, state.reshuffles)
        assert bound >= value, position


def test_the_decision_bound_never_promises_less_than_the_exact_value():
    """At a decision (its market dealt): fresh, from the relaxed bounds, and after a search the
    table stopped (its upper bounds), never below the exact value, and never above a won full grid."""
    for position in RANDOM_ENDGAMES + [(5, 22, 15, 3), (6, 20, 5, 2)]:
        state = advance_chance(random_endgame(*position))
        value, _line = kernel.Endgame(state.seed, 16.0).solve(*kernel_args(state))
        fresh = kernel.Endgame(state.seed, 16.0).decision_bound(*kernel_args(state))
        stopped = kernel.Endgame(state.seed, 16.0, 0.0, 50)  # stops after 50 states stored
        stopped.solve(*kernel_args(state))
        after = stopped.decision_bound(*kernel_args(state))
        assert 64 + 27 >= fresh >= value and after >= value, position


def test_a_stopped_solve_gives_a_proven_bound_on_the_best_win():
    for seed in (0, 10003):
        result = make_solver(GAME, Limits(time_limit=0.5)).solve(GAME.initial_state(GAME.new_deal(seed)))
        assert not result.exact and result.verdict == "winnable"
        assert result.score <= result.score_bound <= 27
        assert result.to_json()["score_bound"] == result.score_bound


def test_hint_rows_carry_a_proven_bound_where_the_value_is_unknown():
    """A hint file's move whose value a limit stopped still says the best score any win after it
    can have (KernelSolver.score_bound): never below the exact value, and valid under the schema."""
    from solodeck.hints import build_hints
    stopped, exact = KernelSolver(GAME, kernel, Limits(max_nodes=20)), KernelSolver(GAME, kernel, Limits())
    checked = 0
    for position in [(0, 25, 5, 2), (2, 25, 5, 2)]:
        state = advance_chance(random_endgame(*position))
        for move in state.legal_moves()[::4]:
            child = state.play(move)
            value, known = stopped.value(child)
            truth, _ = exact.value(child)
            bound = stopped.score_bound(child)
            if truth[0]:  # a win after this move: the bound is a proven ceiling on its score
                assert bound is not None and bound >= truth[1]
            checked += not known
    assert checked >= 5
    result = stopped.solve(GAME.initial_state(load_deal("puzzles/skyway/win-1.toml")))
    hints = build_hints(GAME, load_deal("puzzles/skyway/win-1.toml"), result, stopped)  # validated by its schema
    rows = [m for d in hints["decisions"] for m in d["moves"] if not m["exact"]]
    assert rows and all(r["score_bound"] >= 20 for r in rows if "score_bound" in r)
    assert any("score_bound" in r for r in rows)


def test_the_grid_capacity_is_the_references():
    """The kernel's CAPACITY table (a bound on every total) against the reference's turn_capacity,
    on every count of cells by height and every deck size that a turn's start can have."""
    from itertools import combinations_with_replacement
    from solodeck.games.skyway.rules import turn_capacity
    compared = 0
    for heights in combinations_with_replacement(range(4), 9):
        for passno in (1, 2, 3):
            for deck in range(1 if passno == 3 else 0, 41 - sum(heights)):
                assert kernel.capacity_of(passno, deck, heights) == turn_capacity(heights, deck, passno)
                compared += 1
    assert compared > 10_000


def test_the_bound_is_the_references_in_the_third_pass():
    # the same relaxation in C and in Python (they differ only far from the end: with more than two
    # turns after a reshuffle to come the reference enumerates one market, the kernel three)
    compared = 0
    for position in RANDOM_ENDGAMES + [(5, 22, 15, 3), (7, 18, 19, 3)]:
        state = random_endgame(*position)
        search = kernel.Endgame(state.seed, 16.0)
        while state.outcome() is None:
            if state.passno == 3:
                reference = state.score_bound()
                expected = 64 + reference if isinstance(reference, int) else reference.best
                assert search.bound(state.grid, state.deck, state.discard, state.passno, state.reshuffles) == expected
                compared += 1
            state = advance_chance(state)
            state = state.play(GAME.baseline_move(state))
    assert compared >= 20


def test_the_case_file_is_exact_in_milliseconds():
    # 5 turns left, pass 2, the deck running out exactly at the end of a turn: winnable, 20
    state = GAME.initial_state(load_deal(CASE))
    search = kernel.Endgame(state.seed, 64.0)
    start = time.process_time()
    value, line = search.solve(*kernel_args(advance_chance(state)))
    seconds = time.process_time() - start
    assert kernel_utility(value) == (1, 20) and len(line) == 5
    assert seconds < 0.5 and search.nodes < 5000  # 0.05 s and ~900 nodes on an idle core


def test_the_games_solver_is_the_kernel_and_exact_on_endgames():
    state = random_endgame(0, 24, 12, 3)
    solver = make_solver(GAME, Limits(time_limit=10))
    assert isinstance(solver, KernelSolver) and within_reach(advance_chance(state))
    result = solver.solve(state)
    assert result.exact and result.engine == "kernel"
    assert (result.verdict == "winnable", result.score) == (True, exact(state)[0][1])
    assert solver.value(state) == (exact(state)[0], True)


def test_a_whole_deal_ends_in_a_proven_best_endgame():
    state = GAME.initial_state(GAME.new_deal(10003))
    result = make_solver(GAME, Limits(time_limit=1)).solve(state)
    assert not result.exact and result.verdict == "winnable"
    at = advance_chance(state)
    for i, move in enumerate(result.line):
        if within_reach(at):  # from the first position within reach the line is the best ending
            assert exact(at)[0] == GAME.utility(GAME.replay_moves(state, result.line).outcome())
            break
        at = advance_chance(at.play(move))
    else:
        raise AssertionError("the line never came within reach")


@pytest.mark.parametrize("target", [0, 26, 27])
def test_pilot_lines_replay_to_their_value_with_every_rollout_policy(target):
    """The pilot method's rollouts steered to grids that can hold ``target`` cards (search.py's
    NESTED_RUNS): the line it returns reaches the value it claims under the reference rules."""
    for seed in (10000, 10001):
        state = GAME.initial_state(GAME.new_deal(seed))
        value, line = kernel.Endgame(seed, 16.0).pilot(*kernel_args(advance_chance(state)), target)
        end = GAME.replay_moves(state, [Take(stack, cell) for stack, cell in line]).outcome()
        assert GAME.utility(end) == kernel_utility(value)


@pytest.mark.slow
def test_a_whole_deal_proven_best_by_a_full_grid():
    """Seed 10023: the steered nested pilot method finds a line of 27, the grid's capacity, so the
    deal's best score is proven (about 5 s)."""
    result = make_solver(GAME, Limits(time_limit=10)).solve(GAME.initial_state(GAME.new_deal(10023)))
    assert result.exact and result.verdict == "winnable" and result.score == 27


# -- blind mode: the exact value of the last turn (LastTurnValuer) against the reference expectimax -----------
def last_turn_grids(seeds):
    """(grid, the cards outside it) at the last turn's start of the pilot method's line (open
    mode, the deal known): grids close to a win, so the last turn's blind value is not all 0."""
    for seed in seeds:
        state = GAME.initial_state(GAME.new_deal(seed))
        _value, line = kernel.Endgame(seed, 16.0).pilot(*kernel_args(advance_chance(state)))
        for stack, cell in line:
            state = advance_chance(state).play(Take(stack, cell))
            if state.turns_left() == 1:
                break
        yield state.grid, [c for c in NUMBER_CARDS if not any(c in s for s in state.grid)]


def test_the_last_turns_blind_value_equals_the_reference():
    """Every order of the last market's draws, each followed by the best move: with 5 cards in the
    third pass's deck, and with fewer (the final shuffle of the discard pile finishes the market)."""
    positive = 0
    for grid, rest in last_turn_grids((0, 3)):
        for deck_cards in (5, 4, 3):
            start = State(grid, (), tuple(rest[:deck_cards]), tuple(sorted(rest[deck_cards:])), 3, 2, 0)
            valuer = GAME.fast_expectimax(Limits())
            assert valuer.accepts(start)
            value = valuer.value(start)
            assert value == pytest.approx(ExpectimaxSolver(GAME, use_kernel=False).value(start)), (grid, deck_cards)
            positive += value[0] > 0
    assert positive >= 3
