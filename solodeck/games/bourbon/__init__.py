"""Bourbon (a Gin Rummy for 2 players, Foresight rules), analysed with both hands open: what each
seat can guarantee in one hand, by solvers/paranoid.py's alpha-beta over the plies of the hand
(rules.py: the engine, meld arithmetic and the scoring of a knock). Rules page:
docs/rules/bourbon.md."""
from __future__ import annotations

from ...api import Deal, Game
from ...solvers.paranoid import ParanoidSolver
from . import position, rules, search


class Bourbon(Game):
    name = "bourbon"
    title = "Bourbon (Foresight deck)"
    source = "Foresight (seeds/001), Bourbon"
    several_players = True
    score_name = "net points of seat 0 (seat 0's points minus seat 1's)"
    score_sense = "higher"
    options = {"dealer": (1, (0, 1)), "face_up_run": (rules.FACE_UP_RUN, tuple(range(1, 21)))}
    piles = {"hand0": "seat 0's ten cards", "hand1": "seat 1's ten cards",
             "beside": "the two cards placed face down beside the deck",
             "faceup": "the face-up card", "deck": "the other 29 cards, face down, top first"}
    PILE_SIZES = rules.PILE_SIZES

    # -- deals -------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed, options)

    def check_piles(self, piles, source):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        limit = deal.options.get("face_up_run", rules.FACE_UP_RUN)
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, limit)
        return rules.dealt_state(deal, limit)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- several players ---------------------------------------------------------------------
    def solver(self, limits, progress=None):
        """Each seat's guarantee by solvers/paranoid.py (zero-sum: seat 0's net against seat 1)."""
        return ParanoidSolver(limits, progress)

    def hand_report(self, deal, state, solver):
        """Each hand's best arrangement and deadwood, and the open-hand value of the position
        (search.hand_report)."""
        return search.hand_report(deal, state, solver)


GAME = Bourbon()  # the registry's instance (solodeck/registry.py)
