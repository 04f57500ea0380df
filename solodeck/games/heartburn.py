"""Heartburn (the Hearts game of the Foresight deck): the pure-Python reference engine of one hand's
play with every card known. Rules page: docs/rules/heartburn.md.

The trick play with Hole cards is Foresight's (solodeck/games/foresight.py) with Heartburn's
rules switched on (TrickRules.hearts): no trumps, the lowest club leads, hearts led only once
broken, no point card from the hand on the first trick, and the scoring of hearts, the Q♠, the
T♦ and shooting the moon.
"""
from __future__ import annotations

from .. import cards as C
from ..api import Deal, check_exact_pile
from ..errors import DealError
from ..shuffle import shuffled
from .foresight import (NO_TRUMP, SUIT_MASK, TrickGame, TrickRules, TrickState, cards_of, check_seat_piles,
                        power, read_seats, seat_piles)

# The cards taken out for each number of players (the text's "remove ..." list).
REMOVED = {3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2C", "2S", "2D", "3D")}
HOLES = 2  # every player holds two Hole cards in play (one dealt, one passed; both dealt in a hold hand)


def deck_for(players: int) -> list:
    removed = {C.parse_card(c) for c in REMOVED[players]}
    return [c for c in C.standard_deck() if c not in removed]


def hand_size(players: int) -> int:
    return len(deck_for(players)) // players


class Heartburn(TrickGame):
    name = "heartburn"
    title = "Heartburn (Hearts on the Foresight deck, 3-6 players)"
    source = "Foresight (House of Slack Games, 2002), seeds/001"
    score_name = "points"
    kernel = "tricks"
    options = {"players": (4, (3, 4, 5, 6))}
    piles = seat_piles(6)

    def piles_for(self, options):
        n = options.get("players", 4)
        return [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole")]

    def seeded_piles(self, seed, options):
        """A hold hand (no passing): two Hole cards dealt to each seat, then the hands, round the table."""
        n = options["players"]
        deck = shuffled(deck_for(n), seed)
        piles = {}
        for s in range(n):
            dealt = deck[s::n]
            piles[f"hole-{s + 1}"] = dealt[:HOLES]
            piles[f"hand-{s + 1}"] = dealt[HOLES:]
        return piles

    def check_piles(self, piles, source):
        n = max(int(name[5:]) for name in piles if name.startswith("hand-"))
        if n not in REMOVED:
            raise DealError(source, f"hand-{n}", "Heartburn is for 3 to 6 players")
        check_seat_piles(piles, n, hand_size(n) - HOLES, HOLES, source)
        everything = [c for name in self.piles_for({"players": n}) for c in piles[name]]
        check_exact_pile(everything, deck_for(n), source, "the hands and Holes together")

    def initial_state(self, deal: Deal):
        n = deal.options["players"]
        if deal.position is not None:
            return self.position_state(deal, NO_TRUMP, True)
        if f"hand-{n}" not in deal.piles or f"hand-{n + 1}" in deal.piles:
            raise DealError(deal.source, "options.players", f"{n} players, but the deal's hands are for another number")
        hands, holes = read_seats(deal, n)
        return TrickState(TrickRules(n, NO_TRUMP, hearts=True), hands, holes, first_leader(hands))


def first_leader(hands) -> int:
    """The seat holding the lowest club in its hand (the 2♣ when no Hole holds it)."""
    best = None
    for seat, hand in enumerate(hands):
        for c in cards_of(hand & SUIT_MASK[3]):
            if best is None or power(c) < best[0]:
                best = (power(c), seat)
    if best is None:
        raise DealError("<deal>", "hands", "no club in any hand: no seat can lead the first trick")
    return best[1]


GAME = Heartburn()
