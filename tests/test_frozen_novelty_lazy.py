"""Very hard's lazy flips (docs/rules/frozen-novelty.md, "Lazy flips"): the search turns a card
over only together with its first use, after a brief eager pre-search of the same moves.

* The lazy search alone (no pre-search) against the plain unpruned search on small very hard
  positions, wins and losses, its winning lines replayed under the rules.
* The kernel's lazy search equals the reference's, node for node, and its search moves in the
  positions just after a lazy flip too.
* A lazy flip is the plain flip to everything outside the search; only the search's own
  positions are ever "fresh".
* The three deals the eager search left undecided at 10 s (seeds 241, 340, 490) are won.
"""
import random

import pytest

from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.games.frozen_novelty.rules import (DECK, DOWN, UP, Move, Rules, State, card_of, default_backs,
                                                 is_up)
from solodeck.registry import get_game
from solodeck.solvers import Limits, ReachabilitySolver
from solodeck.solvers.reach import closure
from test_frozen_novelty import DECK_TO_DECK, DOWN_FITS, EMPTY_DECK, STUCK, cards_left, position

GAME = get_game("frozen-novelty")
KERNEL = load("frozen_novelty")
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
RULES = Rules("very-hard", tuple(default_backs()))


def very_hard_position(rng, left):
    """A random very hard position with ``left`` cards out of the foundations: up to four of the
    highest face up alone in the Up stacks (few empty Up stacks: many losses), the others face
    down over the Deck and Down stacks, some tops turned up."""
    found, cards = cards_left(rng, left)
    stacks = [[] for _ in range(12)]
    high = sorted(cards, key=lambda c: -(c % 13))[:rng.choice([0, 2, 3, 3, 4, 4])]
    for j, c in zip(UP, high):
        stacks[j].append(c * 2 + 1)
    for c in cards:
        if c not in high:
            stacks[rng.choice([*DECK, *DOWN])].append(c * 2)
    for j in (*DECK, *DOWN):
        if stacks[j] and rng.random() < 0.3:
            stacks[j][-1] |= 1
    return State(RULES, tuple(map(tuple, stacks)), tuple(found))


def very_hard_blocked(rng):
    """The hand-built blocked positions (tests/test_frozen_novelty.py) in very hard, with one or two
    pairs of cards swapped between stacks and now and then a top turned over: many losses."""
    while True:
        base = position(rng.choice([EMPTY_DECK, DECK_TO_DECK, DOWN_FITS, STUCK]), "very-hard")
        stacks = [list(s) for s in base.stacks]
        for _ in range(rng.choice([1, 1, 2])):
            a, b = rng.sample([j for j in range(12) if stacks[j] and j not in UP], 2)
            i, k = rng.randrange(len(stacks[a])), rng.randrange(len(stacks[b]))
            up_a, up_b = stacks[a][i] & 1, stacks[b][k] & 1
            stacks[a][i], stacks[b][k] = (stacks[b][k] & ~1) | up_a, (stacks[a][i] & ~1) | up_b
        for j in (*DECK, *DOWN):
            if stacks[j] and (len(stacks[j]) == 1 or not stacks[j][-2] & 1) and rng.random() < 0.2:
                stacks[j][-1] ^= 1
        state = State(RULES, tuple(map(tuple, stacks)), base.found)
        ups = [[card_of(c) for c in s if is_up(c)] for s in state.stacks]
        if all(state.rules.builds(u[k + 1], u[k]) for u in ups for k in range(len(u) - 1)):
            return state  # face-up cards in runs, as in play


# The 7 of spades must leave D1 (the 4 lies under it) and the Up stacks are full: only the 8 of
# spades, face down alone on W1, can take it. Turned up, the 8 has no use of its own (not home,
# nothing to go onto): its one use is to be built on. Won by flip W1, move D1 -> W1, flip D1, ...
BUILT_ON = {"U1": "KH", "U2": "KD", "U3": "KC", "U4": "KS", "D1": "7S (4S)", "W1": "(8S)",
            "W2": "(5S) (6S) (9S) (TS) (JS) (QS) (QH) (QD) (QC)", "foundations": "3S JH JD JC"}


def lazy_search(state):
    """The lazy search alone (solvers/reach.py's search without the eager pre-search)."""
    solver = ReachabilitySolver(GAME)
    won, line = solver._search(state)
    return won, line, solver.nodes


def test_lazy_flips_never_change_the_verdict():
    rng = random.Random(51)
    wins = losses = 0
    for i in range(300):
        state = very_hard_position(rng, rng.randint(5, 13)) if i % 2 else very_hard_blocked(rng)
        plain = ReachabilitySolver(GAME, Limits(max_states=4_000), prune=False).solve(state)
        if not plain.exact:
            continue  # too big for the plain search
        won, line, _nodes = lazy_search(state)
        assert won == (plain.verdict == "winnable"), str(state)
        if won:
            assert GAME.replay_moves(state, line).won
            wins += 1
        else:
            losses += 1
    assert wins >= 150 and losses >= 50, (wins, losses)


def test_a_flip_whose_only_use_is_to_be_built_on():
    state = position(BUILT_ON, "very-hard")
    won, line, _nodes = lazy_search(state)
    assert won and [str(m) for m in line[:2]] == ["flip W1", "move D1 -> W1"]
    assert GAME.replay_moves(state, line).won


def test_lazy_search_moves():
    """A flip is kept only where its card can be used at once; after it, only that card's moves."""
    rng = random.Random(52)
    fresh_seen = dropped = 0
    for seed in range(6):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed, {"variant": "very-hard"})))
        for _ in range(120):
            legal = state.legal_moves()
            if not legal:
                break
            search = state.search_moves()
            flips = [m for m in search if m.kind == "flip"]
            assert all(m.lazy for m in flips)
            dropped += sum(m.kind == "flip" for m in legal) - len(flips)
            for flip in flips:
                after, _home = closure(state.play(flip))  # as the search does
                if after.fresh < 0:  # the card went home (a safe move)
                    continue
                fresh_seen += 1
                assert after.fresh == flip.src and is_up(after.stacks[flip.src][-1])
                moves = after.search_moves()
                assert moves and all(m.kind == "move" and flip.src in (m.src, m.dst) for m in moves)
                assert after.key() != State(RULES, after.stacks, after.found).key()
                plain = advance_chance(state.play(Move("flip", flip.src)))  # outside the search
                assert plain.fresh == -1 and plain.stacks == after.stacks
                assert str(flip) == str(Move("flip", flip.src)) and flip == Move("flip", flip.src)
            state = advance_chance(state.play(rng.choice(legal)))
    assert fresh_seen > 100 and dropped > 100, (fresh_seen, dropped)


def test_eager_pre_search_is_the_same_moves():
    """Very hard's pre-search is its own rules searched eagerly; hard's stays very hard eagerly."""
    state = GAME.initial_state(GAME.new_deal(3, {"variant": "very-hard"}))
    eager = state.restricted()
    assert eager.rules == Rules("very-hard", state.rules.backs, eager=True) and eager.restricted() is None
    assert eager.legal_moves() == state.legal_moves() and not eager.rules.lazy_flips and state.rules.lazy_flips
    assert not any(m.lazy for m in eager.search_moves())
    hard = GAME.initial_state(GAME.new_deal(3, {"variant": "hard"}))
    assert hard.restricted().rules == eager.rules


def test_blind_worlds_are_searched_eagerly():
    """Blind play's tie-break reads the worlds' search_moves(): they keep the eager order."""
    from solodeck.shuffle import SplitMix64

    state = advance_chance(GAME.initial_state(GAME.new_deal(5, {"variant": "very-hard"})))
    world = state.sample_world(SplitMix64(1))
    assert world.rules.eager and world.rules.variant == "very-hard" and world.view() == state.view()
    assert not any(m.lazy for m in world.search_moves())
    standard = advance_chance(GAME.initial_state(GAME.new_deal(5)))
    assert standard.sample_world(SplitMix64(1)).rules == standard.rules


@needs_kernel
def test_kernel_lazy_search_equals_the_reference():
    from solodeck.games.frozen_novelty.search import KernelSolver, kernel_move, kernel_search

    rng = random.Random(53)
    checked = 0
    verdicts = []
    for i in range(200):
        state = very_hard_position(rng, rng.randint(5, 14)) if i % 2 else very_hard_blocked(rng)
        won, _line, nodes = lazy_search(state)
        solver = KernelSolver(GAME, KERNEL, Limits())
        value, exact = solver.value(state)  # the kernel's lazy search, no pre-search
        assert exact and (value[0] == 1) == won
        assert solver.search.nodes == nodes
        verdicts.append(won)
        checked += 1
    assert verdicts.count(False) >= 30 and verdicts.count(True) >= 100
    # search moves just after a lazy flip
    for seed in range(4):
        state = advance_chance(GAME.initial_state(GAME.new_deal(40 + seed, {"variant": "very-hard"})))
        for _ in range(100):
            for flip in (m for m in state.search_moves() if m.kind == "flip"):
                after, _home = closure(state.play(flip))
                search = kernel_search(KERNEL, RULES, Limits(memory_mb=1))
                search.set_position([list(s) for s in after.stacks], list(after.found), after.fresh)
                assert [kernel_move(t) for t in search.search_moves()] == after.search_moves()
                checked += 1
            legal = state.legal_moves()
            if not legal:
                break
            state = advance_chance(state.play(rng.choice(legal)))
    assert checked > 300


@needs_kernel
@pytest.mark.parametrize("seed", [241, 340, 490])
def test_the_deals_eager_search_left_open_are_won(seed):
    from solodeck.solvers import make_solver

    state = GAME.initial_state(GAME.new_deal(seed, {"variant": "very-hard"}))
    result = make_solver(GAME, Limits(max_states=200_000)).solve(state)
    assert result.exact and result.verdict == "winnable" and GAME.replay_moves(state, result.line).won
    assert result.nodes < 40_000  # 20,000 of the eager pre-search, then a few thousand


@pytest.mark.slow
@pytest.mark.parametrize("seed", [241, 340, 490])
def test_the_reference_wins_them_too(seed):
    state = GAME.initial_state(GAME.new_deal(seed, {"variant": "very-hard"}))
    result = ReachabilitySolver(GAME, Limits(max_states=200_000)).solve(state)
    assert result.exact and result.verdict == "winnable" and GAME.replay_moves(state, result.line).won
