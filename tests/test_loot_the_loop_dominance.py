"""Loot the Loop's dominance (ext/loot_the_loop.pyx, Search.enter): a position that differs from
one already entered only by traps face up where that one has them face down is skipped. Checked
both ways on small random endgames: the face-down version is never worth less than the face-up
one (brute force), and the kernel with and without the cut finds the reference's best outcome."""
from __future__ import annotations

import pytest

from solodeck.games.loot_the_loop import GAME, search
from solodeck.games.loot_the_loop.rules import TRAP_CLASS, State, card_class, card_of
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from solodeck.solvers import ReachabilitySolver
from test_loot_the_loop import ENDGAMES, brute_force, position
from test_loot_the_loop_kernel import small_positions

kernel = GAME.load_kernel()
needs_kernel = pytest.mark.skipif(kernel is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def traps_turned_down(state, seed):
    """The state with a random subset of its face-up traps turned face down."""
    rng = SplitMix64(seed)
    deck = tuple(c - 1 if c & 1 and card_class(card_of(c)) == TRAP_CLASS and rng.next() % 2 else c
                 for c in state.deck)
    return State(deck, state.notes)


def face_up_traps(deck, seed):
    """``deck`` (position text) with the traps turned face up at random: more traps to turn down."""
    rng = SplitMix64(seed)
    return " ".join(w.strip("()") if w.strip("()")[0] in "JQK" and rng.next() % 3 == 0 else w for w in deck.split())


# The endgames of the reference's tests (half of them won) and random ones (a few won).
CASES = ([(face_up_traps(deck, i), notes) for i in range(3) for deck, notes, _won in ENDGAMES]
         + [(face_up_traps(deck, i), notes) for i, (deck, notes) in enumerate(small_positions(40, 11))])


@pytest.mark.parametrize("index", range(len(CASES)))
def test_a_face_down_trap_is_worth_at_least_a_face_up_one(index):
    deck, notes = CASES[index]
    up = position(deck, notes)
    down = traps_turned_down(up, index)
    (won_down, best_down), _seen = brute_force(down)
    (won_up, best_up), _seen = brute_force(up)
    assert (won_down, best_down) >= (won_up, best_up)


@needs_kernel
@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_kernel_with_and_without_dominance_finds_the_reference_s_best(index):
    deck, notes = CASES[index]
    for state in (position(deck, notes), traps_turned_down(position(deck, notes), index)):
        plain = ReachabilitySolver(GAME, Limits(120), prune=False).solve(state)
        assert plain.exact
        cells = search.kernel_position(state)
        for dominance in (False, True):
            k = kernel.Search(16.0)
            k.dominance = dominance
            utility, done = k.best(*cells)
            assert done and (utility >= search.WIN_BASE) == (plain.verdict == "winnable")
            assert utility % search.WIN_BASE == plain.score, (str(state), dominance)
