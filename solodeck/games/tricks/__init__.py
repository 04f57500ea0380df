"""The trick games of the Foresight deck, Foresight (3-5 players, a trump turned, the leader's
Hole exchange first; the score is tricks) and Heartburn (Hearts on the same deck, 3-6 players;
the score is points), analysed with every hand open: each seat's value is what it can guarantee
against all the others together (search.py: ext/tricks.pyx's paranoid search, else
solvers/paranoid.py). Rules pages: docs/rules/foresight.md, docs/rules/heartburn.md.
"""
from __future__ import annotations

from ...api import Deal, Game
from ...solvers.paranoid import ParanoidSolver
from . import position, rules, search


class TrickGame(Game):
    """What Foresight and Heartburn share: several players, every hand open."""

    several_players = True
    score_sense = "higher"
    most_seats = 5

    # -- deals -------------------------------------------------------------------------------
    def parse_move(self, text):
        return rules.parse_trick_move(text)

    # -- several players ---------------------------------------------------------------------
    def solver(self, limits, progress=None):
        """The kernel's paranoid search when built (same interface), else solvers/paranoid.py."""
        kernel = self.load_kernel()
        return search.KernelParanoid(kernel, limits) if kernel is not None else ParanoidSolver(limits, progress)

    def hand_report(self, deal, state, solver):
        """Every seat's guarantee (Game.hand_report), the seats valued ahead in two processes."""
        search.prefetcher(solver)([(state, seat) for seat in range(deal.options["players"])])
        return super().hand_report(deal, state, solver)


class Foresight(TrickGame):
    name = "foresight"
    title = "Foresight (the trick game, 3-5 players)"
    source = "Foresight (House of Slack Games, 2002), seeds/001"
    score_name = "tricks"
    kernel = "tricks"
    former_meaning = ("'foresight' used to name Frozen Novelty and now names the Foresight trick game: "
                      "a Frozen Novelty deal file says game = \"frozen-novelty\"")
    options = {"players": (4, (3, 4, 5)), "leader": (1, (1, 2, 3, 4, 5))}
    piles = {"trump": "the card dealt aside: its suit is trump (the Joker: no trump)",
             **rules.seat_piles(5), "out": "the left-over cards, out of play (3 players: 1, 5 players: 2)"}

    # -- deals -------------------------------------------------------------------------------
    def piles_for(self, options):
        return rules.foresight_piles_for(options)

    def seeded_piles(self, seed, options):
        return rules.foresight_seeded_piles(seed, options)

    def check_piles(self, piles, source):
        rules.foresight_check_piles(piles, source)

    def trump_of(self, deal) -> int:
        return rules.trump_of(deal)

    def initial_state(self, deal: Deal, trump: int | None = None, exchange: bool = True):
        rules.check_leader(deal)
        if deal.position is not None:
            return position.state_from_position(deal, position.position_trump(deal) if trump is None else trump,
                                                False)
        return rules.foresight_state(deal, trump, exchange)

    # -- several players ---------------------------------------------------------------------
    def hand_report(self, deal, state, solver):
        """The double-dummy-style table as dealt (search.foresight_table); a position's report is
        every seat's guarantee (TrickGame.hand_report)."""
        if deal.position is not None:
            return super().hand_report(deal, state, solver)
        return search.foresight_table(deal, state, solver)


class Heartburn(TrickGame):
    name = "heartburn"
    title = "Heartburn (Hearts on the Foresight deck, 3-6 players)"
    source = "Foresight (House of Slack Games, 2002), seeds/001"
    score_name = "points"
    kernel = "tricks"
    options = {"players": (4, (3, 4, 5, 6))}
    piles = rules.seat_piles(6)

    # -- deals -------------------------------------------------------------------------------
    def piles_for(self, options):
        return rules.heartburn_piles_for(options)

    def seeded_piles(self, seed, options):
        """A hold hand (no passing): two Hole cards dealt to each seat, then the hands, round the table."""
        return rules.heartburn_seeded_piles(seed, options)

    def check_piles(self, piles, source):
        rules.heartburn_check_piles(piles, source)

    def initial_state(self, deal: Deal):
        if deal.position is not None:
            return position.state_from_position(deal, rules.NO_TRUMP, True)
        return rules.heartburn_state(deal)


FORESIGHT = Foresight()
HEARTBURN = Heartburn()
GAMES = (FORESIGHT, HEARTBURN)  # the registry's instances (solodeck/registry.py)
