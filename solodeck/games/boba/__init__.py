"""The First Boba Tea Shop in London (Isaludo): four queues of card values, lowest first; each
turn aims the next card at a gap of a queue, and after a miss the player stays (the queue is
discarded, the card restarts it) or kicks (the card and the deck's top card are discarded); the
fourth card of a value discarded loses, and the score is the cards in queues at the end. Open
mode is the generic search; blind play rolls out the odds rule (blind.py). Rules page:
docs/rules/boba.md."""
from __future__ import annotations

from ...api import Deal, OneDeckGame
from . import blind, position, rules, search


class Boba(OneDeckGame):
    name = "boba"
    aliases = ("boba-tea",)
    title = "The First Boba Tea Shop in London"
    source = "Isaludo (seeds/000), The First Boba Tea Shop in London"
    has_chance = True
    score_name = "cards in queues"
    score_sense = "higher"
    modes = ("open", "blind")
    kernel = "boba"
    piles = {"deck": "the 52 cards, top first; the first four start queues 1-4"}

    # -- deals -------------------------------------------------------------------------------
    def initial_state(self, deal: Deal) -> rules.State:
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source)
        return rules.dealt_state(deal.piles["deck"])

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- the compiled kernel (ext/boba.pyx); each hook returns None when it is not built -------
    # Open mode needs none: the generic search reaches the score bound on its first line.
    def kernel_moves(self, state):
        return search.kernel_moves(self.load_kernel(), state)

    # -- blind mode --------------------------------------------------------------------------
    def baseline_move(self, state):
        """The baseline policy (docs/rules/boba.md; blind.baseline_move)."""
        return blind.baseline_move(state)

    def blind_rule(self, state):
        """The blind rule (rule_move): the rollouts play it, and so does the policy "rule"."""
        return blind.rule_move(state)

    def blind_plan(self):
        return blind.plan(self.load_kernel())

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: the rollouts of the rule's best targets (blind.fast_rollouts)."""
        return blind.fast_rollouts(self, state, samples, seed)

    def fast_expectimax(self, limits):
        kernel = self.load_kernel()
        return blind.BlindKernel(kernel, limits) if kernel is not None else None


GAME = Boba()  # the registry's instance (solodeck/registry.py)
