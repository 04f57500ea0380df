"""The Sandwich Guy (Isaludo), a solo game for one standard deck: discard three hand cards that make
a sandwich (values x, y, z with the same step from x to y as from y to z, mod 13), then draw 4 if
they shared a suit, 3 a colour, else 2 (the hand holds at most 8). Drawing the last card of the
deck wins; the score is the cards left in hand when no sandwich is left, lower is better. Rules
page: docs/rules/sandwich-guy.md."""
from __future__ import annotations

from ...api import Deal, OneDeckGame
from . import blind, position, rules, search


class SandwichGuy(OneDeckGame):
    name = "sandwich-guy"
    aliases = ("sandwich",)
    title = "The Sandwich Guy"
    source = "Isaludo (seeds/000), The Sandwich Guy"
    has_chance = True
    score_name = "cards left in hand"
    score_sense = "lower"
    modes = ("open", "blind")
    kernel = "sandwich"
    piles = {"deck": "the 52 cards, top first (the top 8 form the hand)"}

    # -- deals -------------------------------------------------------------------------------
    def initial_state(self, deal: Deal) -> rules.State:
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source)
        return rules.first_state(deal.piles)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode ---------------------------------------------------------------------------
    def kernel_moves(self, state):
        return search.kernel_moves(self.load_kernel(), state)

    # -- blind mode --------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_rule(self, state):
        return blind.blind_rule(state)

    def blind_plan(self):
        return blind.plan()

    def fast_rollouts(self, state, samples, seed, moves=None):
        return blind.fast_rollouts(self, self.load_kernel(), state, samples, seed, moves)


GAME = SandwichGuy()  # the registry's instance (solodeck/registry.py)
