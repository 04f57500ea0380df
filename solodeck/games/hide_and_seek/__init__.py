"""Hide and Seek (Isaludo): twelve face cards, the playmates, lie face down in a 3x4 grid (each
column a J, a Q and a K of three different suits); the 40 number cards are the deck, its top card
in view. Each turn the player places the top card as a guess in one of the 14 spaces around the
grid, reveals a playmate (the guesses of its suit in its row's and column's spaces score), or
withdraws a guess with the top card of its suit; 20 cards in the score pile when the last playmate
is revealed win. Rules page: docs/rules/hide-and-seek.md.
"""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class HideAndSeek(Game):
    name = "hide-and-seek"
    aliases = ("hide",)
    title = "Hide and Seek"
    source = "Isaludo (seeds/000), Hide and Seek"
    has_chance = True    # the next top card after a place or a withdraw; the face a reveal shows
    has_hidden = True    # the face-down playmates
    score_name = "cards in the score pile"
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    piles = {"playmates": "the 12 face cards as the 3x4 grid, row by row (each column a J, a Q and a K "
                          "of three different suits)",
             "deck": "the 40 number cards A-T, top first"}
    kernel = "hide_and_seek"  # ext/hide_and_seek.pyx: CanonicalSolver's search in C, the blind rule's rollouts

    # -- deals ---------------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed)

    def check_piles(self, piles, source):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source)
        return rules.State(rules.World(deal.piles["playmates"], deal.piles["deck"]))

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode -----------------------------------------------------------------------------------
    def fast_solver(self, limits, progress=None):
        """The search over canonical lines, far smaller than the generic search over every move
        order: compiled (KernelSolver) when the kernel is built, else CanonicalSolver."""
        kernel = self.load_kernel()
        if kernel is None:
            return search.CanonicalSolver(self, limits, progress)
        return search.KernelSolver(self, kernel, limits, progress)

    def kernel_moves(self, state):
        """The kernel's reading of the rules (ext/hide_and_seek.pyx legal_moves) as moves."""
        kernel = self.load_kernel()
        if kernel is None or state.pending != rules.NONE:
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode ----------------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_rule(self, state):
        """The blind rule (rule_move): it weighs the odds of the face-down playmates where the
        baseline only thresholds expected counts, and wins about five times as often."""
        return rules.rule_move(state)

    def blind_plan(self):
        return blind.plan()

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, sum of winning scores, sum of losing scores)]: solvers/rollouts.py's
        rollouts of the blind rule (rule_move) in the kernel, the same draws; None when it is not
        built. It reads only the view (blind.py's _kernel_view)."""
        kernel = self.load_kernel()
        if kernel is None or state.pending != rules.NONE or not state.legal_moves():
            return None
        return blind.kernel_rollouts(kernel, self, state, samples, seed, moves)


GAME = HideAndSeek()  # the registry's instance (solodeck/registry.py)
