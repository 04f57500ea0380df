"""Dungeon crawl (seed 004, Stuart Langridge's solo dungeon crawl): the player lays a path of
monsters beaten in rounds of three attacks, each card a step of one card's length towards the clock
hour of its value, and wins when the path meets the K♦ laid a few rows away. Open mode searches
round by round (search.py); blind play rolls out a rule in the kernel (blind.py, the value table
of its other rule in values.py). Rules page: docs/rules/dungeon.md."""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class Dungeon(Game):
    name = "dungeon"
    aliases = ("dungeon-crawl",)
    title = "Dungeon crawl"
    source = "seeds/004 (Stuart Langridge, Solo solitaire dungeon crawl card game)"
    has_chance = True
    reshuffles = True    # the deck after each round and each offer
    modes = ("open", "blind")
    options = {"distance": (4, rules.DISTANCES)}
    kernel = "dungeon"     # ext/dungeon.pyx: the open search in C (KernelSolver), the baseline's rollouts
    piles = {"deck": "the 50 cards without A♠ and K♦, top first; its first card is the SKILL"}

    def __init__(self, rule: str = "baseline"):
        """``rule``: the rule rollouts play (blind.RULES): "baseline" (the registry's GAME), or
        "table", the value-table rule (State.rule_move)."""
        if rule not in blind.RULES:
            raise ValueError(f"dungeon: no blind rule {rule!r} (expected one of {', '.join(blind.RULES)})")
        self.rule = rule

    # -- deals -------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        return rules.seeded_piles(seed)

    def check_piles(self, piles, source):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        distance = deal.options.get("distance", 4)
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, seed, distance)
        return rules.first_state(deal.piles, seed, distance)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode ---------------------------------------------------------------------------
    def fast_solver(self, limits, progress=None):
        """The search in rounds: compiled (KernelSolver, ext/dungeon.pyx) when the kernel is built,
        else RoundSolver in pure Python; both far faster than the generic search over every move
        because they deepen on rounds and fold the round's draws."""
        kernel = self.load_kernel()
        if kernel is None:
            return search.RoundSolver(self, limits, progress)
        return search.KernelSolver(self, kernel, limits, progress)

    def kernel_moves(self, state):
        return search.kernel_moves(self.load_kernel(), state)

    # -- blind mode --------------------------------------------------------------------------
    def baseline_move(self, state):
        return blind.baseline_move(state)

    def blind_rule(self, state):
        return blind.blind_rule(self, state)

    def blind_plan(self):
        return blind.plan()

    def value_table(self, state):
        """The value-table rule's table (values.py) of this state's SKILL and distance."""
        return blind.value_table(state, self.load_kernel())

    def fast_rollouts(self, state, samples, seed, moves=None):
        return blind.fast_rollouts(self, self.load_kernel(), state, samples, seed, moves)


GAME = Dungeon()  # the registry's instance (solodeck/registry.py)
