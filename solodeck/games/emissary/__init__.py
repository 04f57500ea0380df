"""The Emissary (Isaludo): the player visits eight kingdoms, numbered 1-8, each with a king or a
queen as ruler, and must win exactly the kingdom's number of debates there: tricks against the
ruler's leads from the deck, the ruler's suit trump, answered from a hand of eight of the cards
A-8. The jacks, and the rulers of the kingdoms won, lend their suit's ability; a win scores the
kingdoms plus the supporters never used. Rules page: docs/rules/emissary.md.
"""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class Emissary(Game):
    name = "emissary"
    aliases = ("the-emissary",)
    title = "The Emissary"
    source = "Isaludo (seeds/000), p. 47"
    kernel = "emissary"
    has_chance = True
    reshuffles = True    # after each visit, and the discards when the deck runs out
    score_name = "score"  # kingdoms won + supporting rulers never used (16 at most), for a loss too
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    piles = {"rulers": "the 8 kings and queens, on kingdoms 1-8 from left to right",
             "deck": "the 32 cards A-8, top first"}

    # -- deals ---------------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed)

    def check_piles(self, piles, source, options=None):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, seed)
        return rules.State(tuple(deal.piles["rulers"]), 0, 0, -1, (), tuple(deal.piles["deck"]), (), (), 0,
                           rules.DRAW, draws=rules.HAND, seed=seed)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode -----------------------------------------------------------------------------------
    def fast_solver(self, limits, progress=None):
        """The kernel's search split at the visits (ext/emissary.pyx): whole deals in about a
        second, where the generic search over every move does not finish."""
        kernel = self.load_kernel()
        return search.KernelSolver(self, kernel, limits) if kernel is not None else None

    def kernel_moves(self, state):
        """The kernel's reading of the rules (ext/emissary.pyx legal_moves) as reference moves."""
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode ----------------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_rule(self, state):
        """The blind rule (docs/rules/emissary.md, "The blind rule"): the chance of ending the visit
        with exactly the wins it needs, the leads drawn from the unseen cards, computed for each
        kingdom and trump it could reach, each response and each ability. It never reads the
        order of the deck."""
        kernel = blind.ready_kernel(self.load_kernel())
        if kernel is not None:
            return blind.kernel_rule_move(kernel, state)
        return blind.rule_move(self, state, *self.odds(), abilities=blind.PYTHON_ABILITIES)

    def blind_plan(self):
        return blind.plan(self.load_kernel())

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, sum of winning scores, sum of losing scores)]: rollouts of the rule's best
        moves, in the kernel where it is built (blind.fast_rollouts), else the same in Python."""
        return blind.fast_rollouts(self, state, samples, seed, moves)

    _tables = None  # table_of()'s memo

    def odds(self):
        """(visit_table, best_kept): compiled where the kernel is built, with a small memo."""
        if self._tables is None:
            self._tables = blind.odds_tables(self.load_kernel())
        return self._tables


GAME = Emissary()  # the registry's instance (solodeck/registry.py)
