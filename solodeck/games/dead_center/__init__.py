"""Dead Center (Isaludo): twelve zombies, the face cards, dealt face down around a cabin of nine
piles of number cards; each turn reveals a zombie, plays the drawn card on a pile and may kill a
zombie next to it whose two support cards match it; every zombie dead before the deck runs out
wins, scoring the cards left. Open mode is the CP-SAT model (encodings/dead_center.py); blind play
rolls out the odds rule (blind.py). Rules page: docs/rules/dead-center.md."""
from __future__ import annotations

from ...api import Deal, Game
from . import blind, position, rules, search


class DeadCenter(Game):
    name = "dead-center"
    aliases = ("deadcenter",)
    title = "Dead Center"
    source = "Isaludo (seeds/000), p. 19"
    has_chance = True
    has_hidden = True
    kernel = "dead_center"        # ext/dead_center.pyx: the legal moves and the baseline rollouts
    model = "dead_center"         # encodings/dead_center.py: the open-mode engine (whole deals in about 1 s)
    score_name = "cards left in the deck"
    score_sense = "higher"
    modes = ("open", "blind")
    options = {"jokers": (2, (0, 1, 2))}
    piles = {"zombies": "the 12 face cards in space order (above the cabin left to right, right of it top to "
                        "bottom, below it right to left, left of it bottom to top)",
             "deck": "the 40 number cards and the jokers, top first (the first 9 are the cabin, row by row)"}

    # -- deals -------------------------------------------------------------------------------
    def seeded_piles(self, seed, options):
        """One shuffle of the whole pack (rules.seeded_piles)."""
        return rules.seeded_piles(seed, options)

    def check_piles(self, piles, source, options=None):
        rules.check_piles(piles, source)

    def initial_state(self, deal: Deal) -> rules.State:
        jokers = deal.options["jokers"]
        if deal.position is not None:
            return position.state_from_position(deal.position, deal.source, jokers)
        return rules.dealt_state(deal, jokers)

    def parse_move(self, text):
        return rules.parse_move(text)

    # -- open mode ---------------------------------------------------------------------------
    def fast_solver(self, limits, progress=None):
        """The CP-SAT model (encodings/dead_center.py) with DepthFirstSolver's interface: the
        depth-first search decides endgames only, the model whole deals."""
        from ...encodings import cpsat_solver

        return cpsat_solver(self, limits)

    # -- the compiled kernel (ext/dead_center.pyx): moves and rollouts; None when it is not built -----
    def kernel_moves(self, state):
        return search.kernel_moves(self.load_kernel(), state)

    # -- blind mode --------------------------------------------------------------------------
    def baseline_move(self, state):
        """The baseline policy (blind.baseline_move): reveal the first face-down space; play first
        by State.play_rank; kill the first zombie possible."""
        return blind.baseline_move(state)

    def blind_rule(self, state):
        """The blind rule (rule_move): it weighs the odds of the unseen faces and wins in rollouts
        about half again as often as the baseline."""
        return blind.rule_move(state)

    def blind_plan(self):
        return blind.plan()

    def fast_rollouts(self, state, samples, seed, moves=None):
        """Rollouts of the blind rule for every candidate move, in the kernel or in Python
        (blind.fast_rollouts)."""
        return blind.fast_rollouts(self, state, samples, seed, moves)


GAME = DeadCenter()  # the registry's instance (solodeck/registry.py)
