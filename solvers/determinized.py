"""Blind mode for games with hidden faces: determinization (perfect-information Monte Carlo, also
called hindsight optimization; Frank & Basin 1998, Yoon, Fern & Givan 2008, Bjarnason, Fern &
Tadepalli 2009 on Klondike).

At a decision, ``samples`` worlds are drawn from the player's view (``State.sample_world``: every
assignment of the hidden faces consistent with what is seen equally likely). In each world every
move is valued by the exact open-mode solver (solvers.make_solver, the game's kernel when built)
under a budget of positions per search; the moves are ranked by the fraction of worlds they still win.
A search the cap stops counts as a loss (no win found: its proven lower bound), never as a win.

What the number is: the chance that the move still wins *for a player who would then see every
face*. That is an estimate of an upper bound on the move's blind value (a determinized player
"knows" what it will only learn later: strategy fusion); it ranks moves well, and the win rate a
blind player actually achieves is measured by playing the policy (bench, analyze). Rows say
``estimator: "determinized"`` and the CLI words it so.

**Worlds persist through a game.** After the player's move (and the face it turned up), each
world takes the same move and, at a chance node, the outcome the real game showed (the game's
``apply_chance`` puts that face there, trading places with the card that held it in the world).
The worlds stay uniform among those consistent with the new view (a transposition within equal
backs preserves uniformity; so does ``State.conform`` where a move shows a back for the first
time, outside a chance node), and the solver, kept for the whole game, finds most of their
positions already in its table. If a world cannot follow (another game, stacks that no longer
match what is seen), all are drawn anew: the worlds only ever depend on what the player has seen
and on the seed.
"""
from __future__ import annotations

from solodeck.api import advance_chance
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from . import make_solver
from .plan import BlindPlan, plan_of
from .stats import unvalued_rows, wilson_interval

# The open solver's budget per position and world, in positions entered (a stopped search counts
# as a loss): the same on every machine, where the former cap of 0.03 s made decisions depend on
# the machine's speed and load. About what 0.03 s entered in the kernel on this project's machine.
WORLD_NODES = 30_000


class Determinizer:
    """Ranks the moves of a decision over sampled worlds (see the module's note): Estimator.DETERMINIZED
    behind the estimators' interface (``name``, ``rows(state, limits, every_move)``, ``moved(state, move)``)."""

    name = "determinized"

    def __init__(self, game, plan: BlindPlan | None = None, seed: int = 0, nodes: int | None = None):
        self.game, self.plan, self.seed = game, plan or plan_of(game), seed
        self.samples = self.plan.samples
        nodes = WORLD_NODES if nodes is None else nodes  # read now: tests may raise the cap
        self.solver = make_solver(game, Limits(memory_mb=512, max_nodes=nodes))
        self.worlds: list = []
        self._seen = None       # what the player saw (seen_text: stack by stack) where the worlds are
        self._moved = None      # the move the player made from there, if any
        self.drawn = 0          # how many times the worlds were drawn afresh (a new game, or lost track)
        self.followed = 0       # how many moves the worlds followed (conform's generator streams)
        self.valued = 0         # positions valued, and how many of them the cap stopped
        self.capped = 0

    # -- the worlds ----------------------------------------------------------------------------
    def worlds_for(self, state) -> list:
        """The worlds, consistent with what ``state`` shows. Compared stack by stack (seen_text),
        not by view(): a view may fold interchangeable stacks, and a world whose stacks are
        permuted against the real game's would take the player's next move elsewhere."""
        seen = state.seen_text()
        if self._moved is not None:
            followed = self._follow(state, seen)
            self.worlds = followed if followed is not None else []
            self._moved = None
        elif seen != self._seen:
            self.worlds = []
        if not self.worlds:
            self.worlds = [state.sample_world(SplitMix64(self.seed, i)) for i in range(self.samples)]
            self.drawn += 1
        self._seen = seen
        return self.worlds

    def moved(self, state, move) -> None:
        """The player makes ``move`` at ``state``: the worlds are brought there, and follow the move."""
        self.worlds_for(state)
        self._moved = move

    def _follow(self, state, seen):
        """Each world after the player's move and the face the real game showed (or, outside a
        chance node, what else the move showed: State.conform), or None if one cannot follow
        (then the worlds are drawn afresh)."""
        out = []
        self.followed += 1
        for i, world in enumerate(self.worlds):
            if self._moved not in world.legal_moves():
                return None
            world = world.play(self._moved)
            if not world.is_chance():  # streams past the first draw's 0..samples-1
                world = world.conform(state, SplitMix64(self.seed, self.followed * self.samples + i))
            else:
                world = next((w for o, _weight in world.chance_outcomes()
                              if (w := world.apply_chance(o)).seen_text() == seen), None)
            if world is None or world.is_chance() or world.seen_text() != seen:
                return None
            out.append(world)
        return out

    # -- the ranking ---------------------------------------------------------------------------
    def rows(self, state, limits: Limits | None = None, every_move: bool = False) -> list:
        """Every legal move as a row (move, win_probability, interval, samples, expected_score,
        exact False, estimator, capped), best first: the fraction of worlds won, then the mean
        winning score, then the game's own order in the worlds (``candidates``: a game may
        turns cards over late, which a blind player wants). Moves to the same view share one
        valuation; moves left out of the candidates are listed last, unvalued (as rollouts do).
        The worlds' solver has its own cap (``limits`` and ``every_move`` are the rollouts')."""
        worlds = self.worlds_for(state)
        alive = [w for w in worlds if self._wins(w)]  # a world lost now is lost after every move
        by_view: dict = {}
        rows = []
        lower = self.game.score_sense == "lower"
        for move in self.candidates(state, alive or worlds):
            view = state.play(move).view()
            if view not in by_view:
                wins = total = capped = 0
                for world in alive:
                    value, exact = self._value(world.play(move))
                    capped += not exact
                    if exact and value[0] == 1:
                        wins += 1
                        total += -value[1] if lower else value[1]
                by_view[view] = (wins, total, capped)
            wins, total, capped = by_view[view]
            n = len(worlds)
            lo, hi = wilson_interval(wins, n)
            rows.append({"move": move, "win_probability": wins / n, "interval": [lo, hi], "samples": n,
                         "expected_score": total / wins if wins else None, "exact": False,
                         "estimator": "determinized", "capped": capped,
                         "_rank": (wins, -total if lower else total)})
        rows.sort(key=lambda r: r["_rank"], reverse=True)  # stable: ties keep the game's order
        for r in rows:
            del r["_rank"]
        return rows + unvalued_rows(state, rows)

    def candidates(self, state, worlds) -> list:
        """The moves to value, best first by the game's own order in each world (the plan's
        ``preference``, then search_moves), summed (a Borda count): the state's own order may
        read its hidden faces (a game that digs towards the cards its foundations need), the
        worlds' orders only read the view. Only ``plan.candidates`` of them are valued."""
        prefer = self.plan.preference
        orders = [w.search_moves() if prefer is None else sorted(w.search_moves(), key=lambda m, w=w: -prefer(w, m))
                  for w in worlds]  # sorted is stable: the world's own order breaks the preference's ties
        places = [{m: i for i, m in enumerate(order)} for order in orders]
        moves = sorted(state.legal_moves(), key=lambda m: sum(p.get(m, len(p)) for p in places))
        return moves if self.plan.candidates is None else moves[:self.plan.candidates]

    def _wins(self, world) -> bool:
        value, exact = self._value(world)
        return not exact or value[0] == 1  # a capped search proves nothing: value the moves

    def _value(self, state):
        self.valued += 1
        value, exact = self.solver.value(advance_chance(state))
        self.capped += not exact
        return value, exact
