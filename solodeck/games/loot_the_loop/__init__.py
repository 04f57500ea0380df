"""Loot the Loop (Isaludo): the deck is a temple looped on itself; the player looks around (turns
the top cards over), explores round the loop by the value of a face-up trinket on top, marks paths
in the notes and returns them, scoring the aces and trinkets landed on, and wins by reaching the
joker, the exit, with all four aces scored; the score is the score pile. Positions repeat, so open
mode is the best outcome over every reachable position: the kernel's search (ext/loot_the_loop.pyx,
search.py) when it is built, else solvers/reach.py's; blind play rolls out the planning rule
(blind.py; in the kernel when it is built). Rules page: docs/rules/loot-the-loop.md."""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class LootTheLoop(Game):
    name = "loot-the-loop"
    aliases = ("loot",)
    title = "Loot the Loop"
    source = "Isaludo (seeds/000), Loot the Loop"
    has_chance = True    # looking around turns cards over: the dealt face in open mode, any unseen card blind
    has_hidden = True    # the face-down cards of the deck
    score_name = "cards in the score pile"
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    acyclic = False      # explores go round the loop, marks and returns undo each other
    piles = {"deck": "the 52 cards and the joker, top first, all face down"}
    kernel = "loot_the_loop"

    # -- deals -------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed)

    def check_piles(self, piles, source):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source)
        return rules.dealt_state(deal.piles["deck"])

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode: the compiled kernel (ext/loot_the_loop.pyx); None when it is not built ---------
    kernel_solver = search.KernelSolver

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.turning:
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode --------------------------------------------------------------------------
    def baseline_move(self, state):
        """The baseline policy (blind.baseline_move): scoring, turning cards up, or setting up a
        move that does, never round in circles; None when nothing is left."""
        return blind.baseline_move(state)

    def blind_rule(self, state):
        """The blind rule (blind.rule_move), played in the kernel when it is built (the same move:
        tests/test_loot_the_loop_blind_kernel.py)."""
        return blind.rule_move_with(self.load_kernel(), state)

    def blind_plan(self):
        return blind.plan()

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, sum of winning scores, sum of losing scores)]: solvers/rollouts.py's
        rollouts of the blind rule in the kernel (blind.fast_rollouts: the same draws, the same
        numbers); None when the kernel is not built (then they run in Python, far slower)."""
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        return blind.fast_rollouts(self, kernel, state, samples, seed, moves)


GAME = LootTheLoop()  # the registry's instance (solodeck/registry.py)
