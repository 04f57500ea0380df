"""Syndicate (Isaludo): only the values of the 40 number cards matter. Dealt into the candidates
of a five-rank mafia and a reserve, from which the player picks rank 5's three members, agents
are promoted up the ranks: a member goes up when a candidate whose digit is the sum or the
product (mod 10) of the two members staying takes its place, and a fourth member arriving in a
rank means a sacrifice. Promoting out of rank 1 wins; the fewer sacrifices, the better. Open
mode only. Rules page: docs/rules/syndicate.md.
"""
from __future__ import annotations

from ...api import Deal, NumberDeckGame
from . import position, rules, search


class Syndicate(NumberDeckGame):
    name = "syndicate"
    aliases = ("synd",)
    title = "Syndicate"
    source = "Isaludo (seeds/000), p. 39"
    score_name = "sacrifices"
    score_sense = "lower"
    kernel = "syndicate"
    model = "syndicate"

    # -- deals ---------------------------------------------------------------------------------------
    def initial_state(self, deal: Deal) -> rules.State:
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source)
        return rules.state_from_deck(deal.piles["deck"])

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode -----------------------------------------------------------------------------------
    kernel_solver = search.KernelSolver

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.reserve or state.outcome() is not None:  # the kernel starts after the opening
            return None
        return search.kernel_moves(kernel, state)


GAME = Syndicate()  # the registry's instance (solodeck/registry.py)
