"""Area 52 (Isaludo): the 26 black cards defend against two waves of the 26 red ones, the aliens.
Six defenders lie face up; each alien flipped is beaten by two defenders whose values sum to its
value, or by one defender of the other colour and higher, or held off by sacrificing a defender.
Wave 2 is the discard pile reshuffled; beating it wins, scoring the defenders left. Open and blind
modes. Rules page: docs/rules/area-52.md.
"""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class Area52(Game):
    name = "area-52"
    aliases = ("area52",)
    title = "Area 52"
    source = "Isaludo (seeds/000), p. 14"
    has_chance = True
    reshuffles = True    # wave 2's deck: the discards shuffled (stream 1)
    score_name = "score"  # a win: defenders left; a loss: minus the aliens left, 50 less in wave 1
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    anytime = True
    kernel = "area52"
    piles = {"defenders": "the 26 black cards, top first (the first 6 are the starting defenders)",
             "aliens": "the 26 red cards, top first"}

    # -- deals ---------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed)

    def check_piles(self, piles, source):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, seed)
        return rules.dealt_state(deal.piles["defenders"], deal.piles["aliens"], seed)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode: the compiled kernel (ext/area52.pyx); None when it is not built -------------
    kernel_solver = search.KernelSolver  # without the kernel, solvers/anytime.py

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode ----------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_rule(self, state):
        """The blind rule (rule_move): the rollouts play it, and so does the policy "rule"."""
        return blind.rule_move(state)

    def blind_plan(self):
        return blind.plan()

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the blind rule (rule_move),
        for every legal move, in the kernel (the same draws and moves, tests/test_area52.py)."""
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        return blind.kernel_rollouts(kernel, state, samples, seed)


GAME = Area52()  # the registry's instance
