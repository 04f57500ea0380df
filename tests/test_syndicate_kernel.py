"""The Syndicate kernel (ext/syndicate.pyx) against the pure-Python reference, state by state.

Skipped when the kernel is not built or SOLODECK_NO_EXTENSIONS=1 (CI runs the suite both ways);
tests/test_contract.py makes sure a normal install does build it.
"""
import random
from pathlib import Path

import pytest

from solodeck.deals import load_deal
from solodeck.ext import load
from solodeck.games.syndicate.rules import State
from solodeck.games.syndicate.search import KernelSolver, kernel_move
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver, value_first_moves

from conftest import PUZZLES

GAME = get_game("syndicate")
KERNEL = load("syndicate")
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")

HARD = Path(__file__).parent / "data" / "syndicate-hard.toml"  # tens of millions of kernel nodes


def test_without_the_kernel_the_generic_search_runs(monkeypatch):
    monkeypatch.setenv("SOLODECK_NO_EXTENSIONS", "1")
    assert isinstance(make_solver(GAME), DepthFirstSolver)


def random_position(rng, max_candidates=9):
    """Random mid-game position: rank 5 full, other ranks 0-3 members, a few candidates each."""
    deck = [v for v in range(1, 11) for _ in range(4)]
    rng.shuffle(deck)
    members = [tuple(sorted(deck.pop() for _ in range(3 if r == 5 else rng.choice((0, 1, 2, 3, 3)))))
               for r in range(1, 6)]
    candidates = [tuple(sorted(deck.pop() for _ in range(rng.randint(0, min(max_candidates, 2 * r - 1)))))
                  for r in range(1, 6)]
    return State(tuple(members), tuple(candidates), (), rng.randint(0, 2))


def kernel_moves(search):
    return {kernel_move(code) for code in search.legal_moves()}


@needs_kernel
def test_moves_positions_and_bounds_equal_the_reference_state_by_state():
    """Random play from seeded deals and random positions: at every state the kernel lists the
    same legal moves, makes and unmakes them to the same positions, and computes the same bound."""
    rng = random.Random(3)
    search = KERNEL.Search(1.0)
    starts = [GAME.initial_state(GAME.new_deal(seed)) for seed in range(40)]
    starts = [s.play(rng.choice(s.legal_moves())) for s in starts] + [random_position(rng) for _ in range(300)]
    checked = 0
    for state in starts:
        search.set_position(state.members, state.candidates)
        while True:
            assert search.position() == (state.members, state.candidates)
            assert search.frozen(5) == state.first_frozen_rank()
            moves = state.legal_moves()
            assert kernel_moves(search) == set(moves), str(state)
            assert len(search.legal_moves()) == len(moves)
            checked += 1
            if not moves or state.won:
                break
            move = rng.choice(moves)
            code = next(c for c in search.legal_moves() if kernel_move(c) == move)
            search.play(code)
            search.undo(code)
            assert search.position() == (state.members, state.candidates), "unmake must restore"
            search.play(code)
            state = state.play(move)
            if move.dest == "win":
                break
    assert checked > 2000


@needs_kernel
def test_values_equal_the_unpruned_reference_on_random_positions():
    """Every cut of the kernel (normal form, budgets, dominance, digit bound) against the plain
    generic search with no pruning at all."""
    rng = random.Random(11)
    kinds = {"lost": 0, "won-0": 0, "won-sacrifice": 0}
    for _ in range(100):
        state = random_position(rng, max_candidates=2)
        plain = DepthFirstSolver(GAME, Limits(max_states=20_000), prune=False).solve(state)
        if not plain.exact:  # too big for the plain search: compared on seeded deals below
            continue
        fast = KernelSolver(GAME, KERNEL, Limits()).solve(state)
        assert (fast.verdict, fast.score, fast.exact) == (plain.verdict, plain.score, True), str(state)
        if fast.verdict == "winnable":
            assert GAME.replay_moves(state, fast.line).outcome().score == fast.score
            kinds["won-0" if fast.score == state.sacrificed else "won-sacrifice"] += 1
        else:
            kinds["lost"] += 1
    assert sum(kinds.values()) >= 70 and all(kinds.values()), kinds  # every kind of answer occurs


@needs_kernel
def test_values_equal_the_pruned_reference_on_seeded_deals_and_their_openings():
    for seed in range(30):
        state = GAME.initial_state(GAME.new_deal(seed))
        ref, fast = DepthFirstSolver(GAME).solve(state), make_solver(GAME).solve(state)
        assert fast.engine == "kernel" and (fast.verdict, fast.score) == (ref.verdict, ref.score)
    for seed in (0, 1):  # every opening, winning or proven lost
        state = GAME.initial_state(GAME.new_deal(seed))
        assert value_first_moves(make_solver(GAME), state) == value_first_moves(DepthFirstSolver(GAME), state)


@needs_kernel
@pytest.mark.parametrize("name", ["forced-one", "forced-two", "forced-three", "dead-end", "no-way-up",
                                  "isaludo-endgame", "seed-90", "seed-95"])
def test_puzzles_agree_with_the_reference(name):
    state = GAME.initial_state(load_deal(PUZZLES / "syndicate" / f"{name}.toml"))
    ref, fast = DepthFirstSolver(GAME).solve(state), make_solver(GAME).solve(state)
    assert (fast.status, fast.verdict, fast.score) == (ref.status, ref.verdict, ref.score)


@needs_kernel
def test_a_small_table_is_a_cache_same_answer_more_work():
    deal = load_deal(PUZZLES / "syndicate" / "forced-two.toml")
    rng = random.Random(5)
    states = [GAME.initial_state(deal)] + [random_position(rng) for _ in range(40)]
    for state in states:
        big = KernelSolver(GAME, KERNEL, Limits(memory_mb=64))
        tiny = KernelSolver(GAME, KERNEL, Limits(memory_mb=0.02))  # 640 entries
        a, b = big.solve(state), tiny.solve(state)
        assert (a.verdict, a.score, a.exact) == (b.verdict, b.score, b.exact)
    assert tiny.search.table_bytes <= 0.02 * 2**20


@needs_kernel
def test_kernel_limits_are_never_a_loss():
    state = GAME.initial_state(load_deal(HARD))
    timed = make_solver(GAME, Limits(time_limit=0.3)).solve(state)
    assert timed.status == "timeout" and timed.verdict != "unwinnable" and not timed.exact
    capped = make_solver(GAME, Limits(max_states=2000)).solve(state)
    assert capped.status == "memory-limit" and capped.verdict != "unwinnable" and not capped.exact
    solver = make_solver(GAME, Limits(time_limit=0.2))
    solver.solve(state)
    assert solver.value(state) == (None, False)  # a spent budget values nothing
