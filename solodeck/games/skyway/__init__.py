"""Skyway (Isaludo): the 40 number cards dealt five a turn into a market of three stacks; each turn
one stack goes onto one of the 3 x 3 grid's cells (at most 3 cards a cell), through the deck three
times; the score is each suit's longest chain of rising values through neighbouring cells, a win
when every suit's chain has 5 cards. Open and blind modes. Rules page: docs/rules/skyway.md.
"""
from __future__ import annotations

from ...api import Deal, NumberDeckGame
from . import blind, position, rules, search


class Skyway(NumberDeckGame):
    name = "skyway"
    title = "Skyway"
    source = "Isaludo (seeds/000), p. 7"
    has_chance = True
    reshuffles = True    # the discards at each new pass
    score_name = "chain total"
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    anytime = True
    model = "skyway"
    kernel = "skyway"
    piles = {"deck": "the 40 number cards A-T, top first"}

    # -- deals ---------------------------------------------------------------------------------
    def initial_state(self, deal: Deal) -> rules.State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, seed)
        return rules.dealt_state(deal.piles["deck"], seed)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode: the compiled kernel (ext/skyway.pyx); None when it is not built -------------
    kernel_solver = search.KernelSolver  # without the kernel, solvers/anytime.py

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.over or state.is_chance():
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode ----------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_plan(self):
        return blind.plan(self.load_kernel())

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the baseline policy, for
        every legal move (the kernel affords all 27) or only ``moves`` (sequential
        halving's later rounds; a move's draws are the same either way)."""
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        return blind.kernel_rollouts(kernel, state, samples, seed, moves)

    def fast_expectimax(self, limits):
        """The kernel's exact blind value of the last turn (LastTurnValuer), or None."""
        kernel = self.load_kernel()
        return blind.LastTurnValuer(kernel) if kernel is not None else None


GAME = Skyway()  # the registry's instance
