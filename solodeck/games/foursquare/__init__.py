"""Foursquare (Isaludo): the 40 number cards drawn one at a time onto a grid of at most 4 x 4
piles, as a new pile beside one or on a pile of fewer than four; a card strictly higher or lower
than every face-up top of its row (then its column) turns the others over. Sixteen piles all face
up win, scoring the cards left in the deck. Open and blind modes. Rules page:
docs/rules/foursquare.md.
"""
from __future__ import annotations

from ...api import Deal, NumberDeckGame
from . import blind, position, rules, search


class Foursquare(NumberDeckGame):
    name = "foursquare"
    aliases = ("4square", "4sq")
    title = "Foursquare"
    source = "Isaludo (seeds/000), p. 29; seeds/003"
    has_chance = True
    score_name = "cards left"
    score_sense = "higher"
    modes = ("open", "blind")
    kernel = "foursquare"
    # The optimistic bound (every card drawn makes a new pile) is far above typical wins: aspiring
    # to it costs one failed search per point. Branch and bound finds a real win first.
    aspiration = False

    # -- deals ---------------------------------------------------------------------------------
    def initial_state(self, deal: Deal) -> rules.State:
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source)
        return rules.dealt_state(deal.piles["deck"])

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode: the compiled kernel (ext/foursquare.pyx); each hook returns None when it is not built --
    kernel_solver = search.KernelSolver

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.hand is None or not state.piles:
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode ----------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the baseline policy."""
        kernel = self.load_kernel()
        if kernel is None or state.hand is None or not state.piles:
            return None
        return blind.kernel_rollouts(kernel, state, samples, seed)

    def fast_expectimax(self, limits):
        kernel = self.load_kernel()
        return blind.BlindKernel(kernel, limits) if kernel is not None else None


GAME = Foursquare()  # the registry's instance
