"""The Frozen Novelty kernel (ext/frozen_novelty.pyx) against the pure-Python reference.

* Moves: along random lines of every variant, the kernel's legal moves (in order), its search
  moves (pruned and ordered), its safe move and its position after each move equal the
  reference's; make/unmake restores the position and its key.
* Keys: two positions have equal kernel keys exactly when they have equal reference keys.
* Verdicts: the kernel's verdict equals the reference search's (and the plain unpruned one's) on
  many small positions, wins and losses; the same search, so the same number of nodes too.
* Lines, limits and the table kept across solves.
"""
import json
import random
from pathlib import Path

import pytest

from solodeck.api import advance_chance
from solodeck.deals import load_deal
from solodeck.ext import load
from solodeck.games.frozen_novelty.rules import VARIANTS, State
from solodeck.games.frozen_novelty.search import KernelSolver, kernel_move, kernel_search, kernel_tuple
from solodeck.registry import get_game
from solodeck.solvers import Limits, ReachabilitySolver
from test_frozen_novelty import DECK_TO_DECK, EMPTY_DECK, STUCK, perturbed, position, small_position

KERNEL = load("frozen_novelty")
pytestmark = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
GAME = get_game("frozen-novelty")
MAZE = Path(__file__).resolve().parent.parent / "puzzles" / "frozen-novelty" / "maze-standard.toml"


def loaded(state, limits=None):
    search = kernel_search(KERNEL, state.rules, limits or Limits(memory_mb=16))
    search.set_position([list(s) for s in state.stacks], list(state.found))
    return search


def lines(rng, count, plies):
    """(state) along random lines from seeded deals in every variant, favouring progress."""
    for i in range(count):
        variant = VARIANTS[i % 5]
        state = GAME.initial_state(GAME.new_deal(100 + i, {"variant": variant}))
        for _ in range(plies):
            legal = state.legal_moves()
            yield state
            if not legal:
                break
            good = [m for m in legal if m.kind in ("found", "flip")]
            state = advance_chance(state.play(rng.choice(good if good and rng.random() < 0.4 else legal)))


def test_moves_positions_and_safe_moves_equal_the_reference():
    rng = random.Random(8)
    checked = 0
    for state in lines(rng, 80, 200):
        search = loaded(state)
        assert [kernel_move(t) for t in search.legal_moves()] == state.legal_moves()
        assert [kernel_move(t) for t in search.search_moves()] == state.search_moves()
        safe = search.safe_move()
        assert (kernel_move(safe) if safe else None) == state.safe_move()
        for move in state.legal_moves():
            assert search.make_unmake(*kernel_tuple(move))
        if state.legal_moves():
            move = rng.choice(state.legal_moves())
            assert search.play(*kernel_tuple(move))
            after = advance_chance(state.play(move))
            stacks, found = search.position()
            assert tuple(map(tuple, stacks)) == after.stacks and tuple(found) == after.found
        checked += 1
    assert checked > 3000, checked


def test_kernel_plays_only_legal_moves():
    state = position(STUCK)
    search = loaded(state)
    assert not search.play(2, 0, 4, 1)  # JS onto the K of hearts: not legal
    assert search.position()[0] == [list(s) for s in state.stacks]


def test_keys_agree_with_the_reference():
    rng = random.Random(9)
    seen = {}
    for state in lines(rng, 10, 120):
        k = loaded(state).key()
        ref = (state.rules.variant, state.key())
        if k in seen:
            assert seen[k] == ref
        seen[k] = ref
        # the twin position (interchangeable empty stacks) has the same key
        for move in state.legal_moves():
            if move.dst >= 0 and not state.stacks[move.dst]:
                for twin in state.legal_moves():
                    if (twin.kind, twin.src, twin.n) == (move.kind, move.src, move.n) and twin.dst != move.dst:
                        a, b = advance_chance(state.play(move)), advance_chance(state.play(twin))
                        assert (a.key() == b.key()) == (loaded(a).key() == loaded(b).key())
    assert len(seen) == len(set(seen.values()))


def test_verdicts_and_node_counts_equal_the_reference():
    rng = random.Random(2027)
    verdicts = []
    states = [small_position(rng, VARIANTS[i % 5], rng.randint(4, 12)) for i in range(200)]
    for state in states + list(perturbed(rng)):
        ref = ReachabilitySolver(GAME).solve(state)
        kernel = KernelSolver(GAME, KERNEL, Limits()).solve(state)
        assert kernel.exact and ref.exact and kernel.verdict == ref.verdict
        assert kernel.nodes == ref.nodes  # the same search in both
        if kernel.verdict == "winnable":
            assert GAME.replay_moves(state, kernel.line).won
        verdicts.append(kernel.verdict)
    assert verdicts.count("unwinnable") >= 20 and verdicts.count("winnable") >= 150


@pytest.mark.parametrize("pos, variant, winnable", [(EMPTY_DECK, "standard", True), (EMPTY_DECK, "hard", False),
                                                    (DECK_TO_DECK, "hard", True), (DECK_TO_DECK, "very-hard", False)])
def test_known_positions(pos, variant, winnable):
    state = position(pos, variant)
    result = KernelSolver(GAME, KERNEL, Limits()).solve(state)
    assert result.engine == "kernel" and result.exact
    assert result.verdict == ("winnable" if winnable else "unwinnable")


def test_seeded_deals_lines_replay_and_match_the_reference():
    for seed in range(6):
        variant = VARIANTS[seed % 5]
        state = GAME.initial_state(GAME.new_deal(seed, {"variant": variant}))
        kernel = KernelSolver(GAME, KERNEL, Limits(time_limit=30)).solve(state)
        ref = ReachabilitySolver(GAME, Limits(time_limit=30)).solve(state)
        assert kernel.verdict == ref.verdict == "winnable"
        assert kernel.line == ref.line  # same moves, same order, same search
        assert GAME.replay_moves(state, kernel.line).won


def test_table_is_kept_across_solves_and_values():
    state = position(EMPTY_DECK, "standard")
    solver = KernelSolver(GAME, KERNEL, Limits())
    first = solver.solve(state)
    assert first.verdict == "winnable"
    nodes = solver.search.nodes
    assert solver.value(state) == ((1, 0), True)
    assert solver.search.nodes == nodes  # answered by the table
    child = advance_chance(state.play(state.legal_moves()[0]))  # flip D1: lost
    assert solver.value(child) == ((0, 0), True)
    # a win stored by an earlier search, reached again from a twin position, still gives a line
    twin = state.play(GAME.parse_move("down D1 -> D3"))
    again = solver.solve(twin)
    assert again.verdict == "winnable" and GAME.replay_moves(twin, again.line).won


def test_limits_give_unknown():
    state = GAME.initial_state(GAME.new_deal(0))
    result = KernelSolver(GAME, KERNEL, Limits(max_states=10)).solve(state)
    assert result.verdict == "unknown" and result.status == "memory-limit" and not result.exact
    # a search that needs more than one clock check: stopped at once
    hard = position(STUCK, "standard")
    deep = GAME.initial_state(load_deal(MAZE))  # lost, after ~26,000 positions
    result = KernelSolver(GAME, KERNEL, Limits(time_limit=1e-9)).solve(deep)
    assert result.verdict == "unknown" and result.status == "timeout"
    assert KernelSolver(GAME, KERNEL, Limits()).solve(hard).verdict == "unwinnable"


def test_small_table_still_exact():
    """A table too small for the search stops it (memory-limit), never a wrong verdict."""
    deep = GAME.initial_state(load_deal(MAZE))
    small = KernelSolver(GAME, KERNEL, Limits(memory_mb=0.05)).solve(deep)
    assert small.verdict in ("unwinnable", "unknown")
    assert KernelSolver(GAME, KERNEL, Limits(memory_mb=4)).solve(deep).verdict == "unwinnable"


def test_one_table_solves_a_sequence_of_positions_whose_wins_chain():
    """Five positions solved in turn by one search (as blind mode's worlds are): each reaches
    wins stored by the ones before, and the last is the stored win of the fourth. A win's stored
    move count used to be the length of the line followed, which can be shorter than the count
    stored at the win it reached; following the fourth's win then found no next move."""
    kernel = load("frozen_novelty")
    if kernel is None:
        pytest.skip("kernel not built")
    rules = GAME.rules_for({}, "test")
    search = kernel_search(kernel, rules, Limits(memory_mb=64))
    for entry in json.loads((Path(__file__).parent / "data" / "frozen_novelty_stored_wins.json").read_text()):
        search.set_position(entry["stacks"], entry["found"])
        assert search.solve() == 1
        state = State(rules, tuple(map(tuple, entry["stacks"])), tuple(entry["found"]))
        assert GAME.replay_moves(state, [kernel_move(t) for t in search.line()]).won
