"""Foursquare played blind: the baseline policy, the kernel's rollouts of it (fast_rollouts) and
its exact blind values (BlindKernel, fast_expectimax)."""
from __future__ import annotations

from ...ext import BlindValuer
from .rules import Place
from .search import _kernel_deck, _kernel_piles


# -- the baseline policy --------------------------------------------------------------------------
def baseline_move(state):
    """The baseline policy: fewest face-down tops after the placement, then most piles, then
    nearest the first card, then the smallest (x, y). None if no placement is legal."""
    best = None
    for move in state.legal_moves():  # in (x, y) order: the first best is the smallest
        piles = state._after(move.x, move.y)
        rank = (sum(1 for _v, up, _h in piles.values() if not up), -len(piles), move.x ** 2 + move.y ** 2)
        if best is None or rank < best[0]:
            best = (rank, move)
    return best[1] if best else None


# -- the kernel: rollouts and exact blind values ----------------------------------------------------
def kernel_rollouts(kernel, state, samples, seed) -> list:
    """Foursquare.fast_rollouts in the kernel: [(move, wins, score_sum)] of every legal placement."""
    search = kernel.Search(1.0)
    search.set_position(_kernel_piles(state), _kernel_deck(state))
    return [(Place(x, y), wins, total) for x, y, wins, total in search.rollouts(state.hand, samples, seed)]


class BlindKernel(BlindValuer):
    """Exact blind values in the kernel, for solvers/expectimax.py. The kernel's table keys hold
    the grid and the unseen composition, so one table serves every position of a game."""

    def accepts(self, state):
        return bool(state.piles)  # the first card's placement is the reference's business

    def value(self, state):
        """(P(win), E[score x win]), or None if a limit stopped the kernel (see ``status``)."""
        self.search.set_position(_kernel_piles(state), _kernel_deck(state), False)
        return self.search.blind_value(state.hand or 0)
