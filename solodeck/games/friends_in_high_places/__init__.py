"""Friends in High Places (seed 002), a solo deck-builder for a standard deck: the player builds a
deck of nobles and wins over ever higher nobles at court with it, until a hand acquires the King
of Diamonds; the score is the turns taken, fewer is better. Open mode searches whole turns
(search.py), blind play rolls out the thinning rule (blind.py). Rules page:
docs/rules/friends-in-high-places.md."""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class FriendsInHighPlaces(Game):
    name = "friends-in-high-places"
    aliases = ("friends", "fihp")
    title = "Friends in High Places"
    source = "seed 002 (a solo deck-builder, December 2015)"
    has_chance = True
    reshuffles = True    # the player's and the court's discards
    score_name = "turns"  # turns taken to acquire the K♦ (RULINGS: the text has no score)
    score_sense = "lower"
    modes = ("open", "blind")
    options = {"lost-opportunities": (False, (False, True)), "royal-family": (False, (False, True))}
    piles = {"player": "the player's 7 cards (A♣ A♥ A♠ A♦ 2♣ 3♣ 4♣), top first",
             "court": "the other 39 cards, top first"}
    kernel = "friends_in_high_places"  # ext/friends_in_high_places.pyx: TurnSolver's search in C

    # -- deals -------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed)

    def check_piles(self, piles, source, options=None):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        options = (bool(deal.options.get("lost-opportunities")), bool(deal.options.get("royal-family")))
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, seed, options)
        return rules.first_state(deal.piles, seed, options)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode ---------------------------------------------------------------------------
    def fast_solver(self, limits, progress=None):
        """The search by whole turns: iterative deepening on the turn of the win, where the
        generic search over single moves does not finish a deal. Compiled (KernelSolver) when the
        kernel is built, else TurnSolver in Python."""
        kernel = self.load_kernel()
        if kernel is None:
            return search.TurnSolver(self, limits, progress)
        return search.KernelSolver(self, kernel, limits, progress)

    def kernel_moves(self, state):
        return search.kernel_moves(self.load_kernel(), state)

    # -- blind mode --------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_rule(self, state):
        return blind.blind_rule(state)

    def blind_plan(self):
        return blind.plan()


GAME = FriendsInHighPlaces()  # the registry's instance (solodeck/registry.py)
