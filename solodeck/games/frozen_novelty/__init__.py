"""Frozen Novelty (the Foresight deck's solitaire): the 52 cards dealt face down on four Deck
stacks, to be sent home by suit with the help of four Up and four Down stacks; face-up runs build
down in suit (red/black in very easy), face-down cards move by the suits shown on their backs.
Five variants, no score; open and blind modes. Rules page: docs/rules/frozen-novelty.md.
"""
from __future__ import annotations

from ...api import Deal, OneDeckGame
from . import blind, position, rules, search


class FrozenNovelty(OneDeckGame):
    name = "frozen-novelty"
    aliases = ("frozen",)
    title = "Frozen Novelty"
    source = "Foresight (House of Slack Games, 2002), seeds/001"
    has_chance = True    # turning a card over: open mode takes the dealt face, blind mode any unseen
    has_hidden = True    # card with that back; the face-down cards are hidden, their backs seen
    modes = ("open", "blind")
    acyclic = False  # moves can undo each other: solvers/reach.py and the kernel handle cycles
    kernel = "frozen_novelty"
    options = {"variant": ("standard", rules.VARIANTS), "backs": ("", ())}
    piles = {"deck": "the 52 cards, top first; card i goes face down on Deck stack i mod 4"}

    # -- deals ---------------------------------------------------------------------------------
    def rules_for(self, options: dict, source: str) -> rules.Rules:
        return rules.Rules(options.get("variant", "standard"),
                           tuple(rules.parse_backs(options.get("backs", ""), source)))

    def initial_state(self, deal: Deal) -> rules.State:
        game_rules = self.rules_for(deal.options, deal.source)
        if deal.position is not None:
            return position.state_from_position(game_rules, deal.position, deal.source)
        return rules.dealt_state(game_rules, deal.piles["deck"])

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode -----------------------------------------------------------------------------
    kernel_solver = search.KernelSolver  # without the kernel, solvers/reach.py

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.is_chance():
            return None
        return search.kernel_moves(kernel, state)

    # -- blind mode ----------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_plan(self):
        return blind.plan()


GAME = FrozenNovelty()  # the registry's instance
