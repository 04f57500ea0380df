"""Blind mode: the policies that play a game without seeing the deck, and the answer at one
decision (``solve_blind``).

**The policies** (``solodeck play``, ``compare``, ``analyze``, hint files, the benchmarks):
``baseline`` is the game's simple rule (``Game.baseline_move``); ``rule`` its blind rule alone
(``Game.blind_rule``); ``blind`` plays the exact expectimax move when the tree fits a small budget
and otherwise the best move of the game's estimator: one step of policy improvement over the
blind rule (Bertsekas' rollout algorithm), which never sees the order of the deck or a hidden
face. What the estimator is and how it spends its budget is the game's BlindPlan
(solvers/plan.py); ``blind:FIELD=VALUE,...`` names a variant of it.

**The estimators** share one interface: ``name``, ``rows(state, limits, every_move)`` (every legal
move as a row, best first) and ``moved(state, move)`` (the player's move, for an estimator that
follows the game: the determinizer's worlds). Rollouts (and the rule's own move) are in
solvers/rollouts.py, determinization in solvers/determinized.py.
"""
from __future__ import annotations

import time
from dataclasses import replace

from solodeck.errors import UnsupportedError
from solodeck.result import Limits, SolveResult, Status, Verdict, finish_blind
from .determinized import Determinizer
from .expectimax import ExpectimaxSolver
from .plan import BlindPlan, Estimator, plan_of
from .rollouts import RolloutEstimator


def make_estimator(game, plan: BlindPlan, seed: int = 0):
    """The estimator the plan names, for one game (it may remember the game's past decisions)."""
    return (Determinizer if plan.estimator == Estimator.DETERMINIZED else RolloutEstimator)(game, plan, seed)


def exact_rows(game, state, limits: Limits):
    """The exact ranked moves as in the estimators' rows, or None if the tree does not fit
    ``limits`` (or is not the player's: State.blind_tree_exact)."""
    if not state.blind_tree_exact():
        return None
    solver = ExpectimaxSolver(game, limits)
    ranked = solver.ranked_moves(state)
    if any(v is None for _m, v in ranked):
        return None
    return [{"move": m, "win_probability": v[0], "interval": [v[0], v[0]], "samples": None,
             "expected_score": v[1] / v[0] if v[0] > 0 else None, "exact": True} for m, v in ranked]


class BaselinePolicy:
    """The game's simple rule (``game.baseline_move``), as a policy. It ranks nothing."""

    def __init__(self, game):
        self.game = game

    def rank(self, state):
        return None

    def __call__(self, state):
        return self.game.baseline_move(state)


class RulePolicy(BaselinePolicy):
    """The game's blind rule (``game.blind_rule``) played alone: what the rollouts play."""

    def __call__(self, state):
        return self.game.blind_rule(state)


def _decision_view(state):
    """The view of the decision a move leads to (a move whose only consequence is a forced one,
    e.g. one legal move back, comes back to where it started just the same)."""
    for _ in range(8):
        if state.is_chance() or state.outcome() is not None or len(state.legal_moves()) != 1:
            break
        state = state.play(state.legal_moves()[0])
    return state.view()


class BlindPolicy:
    """Plays the exact blind move when the tree fits ``exact_limits``, else the best estimated
    move (the plan's estimator). Only what the player sees is used (the view, the composition of
    the unseen cards): the order of the deck and the hidden faces never reach it (every search
    draws from the view).

    ``plan``: the game's (Game.blind_plan) by default; ``samples`` overrides its samples.
    ``exact_limits``: the exact attempt's budget at every decision (default: the plan's
    ``exact_states``). ``every_move`` (analysis: hint files): estimators value every legal move
    where they would value only the rule's (Estimator.RULE).

    Where positions repeat (``Game.acyclic = False``) the policy remembers the views it has
    decided at and ranks the moves back to one of them last: coming back teaches nothing, and
    a policy that did would go round in circles."""

    def __init__(self, game, samples: int | None = None, seed: int = 0, exact_limits: Limits | None = None,
                 every_move: bool = False, plan: BlindPlan | None = None):
        plan = plan or plan_of(game)
        self.plan = plan if samples is None else replace(plan, samples=samples)
        self.game, self.seed, self.every_move = game, seed, every_move
        self.exact_limits = exact_limits  # None: the plan's exact_states, decision by decision
        # the plan's default budget depends on it; asked once, and only where the plan's budget is used
        self.compiled = exact_limits is None and game.fast_expectimax(Limits(memory_mb=1)) is not None
        self.estimator = make_estimator(game, self.plan, seed)
        self._met: set = set()

    def rank(self, state) -> list:
        """Every legal move as a row (move, win_probability, interval, samples, expected_score,
        exact), best first: the first row is the move the policy plays."""
        limits = self.exact_limits or Limits(max_states=self.plan.exact_states_at(state, self.compiled), memory_mb=64)
        rows = exact_rows(self.game, state, limits)
        if rows is not None and self.plan.rank_losses and rows[0]["win_probability"] == 0:
            rows = None  # no win anywhere: the losing scores decide, and only the estimator measures them
        if rows is None:
            rows = self.estimator.rows(state, every_move=self.every_move)
        if not self.game.acyclic:  # among the valued moves, those back to a view met go last
            self._met.add(state.view())
            valued = [r for r in rows if r["win_probability"] is not None]
            back = [r for r in valued if _decision_view(state.play(r["move"])) in self._met]
            rows = [r for r in valued if r not in back] + back + rows[len(valued):]
        self._moving(state, rows[0]["move"])
        return rows

    def __call__(self, state):
        moves = state.legal_moves()
        forced = moves[0] if len(moves) == 1 else state.safe_move()  # a safe move is a dominance
        if forced is not None or not moves:
            if forced is not None:
                self._moving(state, forced)
            return forced
        return self.rank(state)[0]["move"]

    def _moving(self, state, move):
        """Remember where the player was, and tell the estimator which move it makes."""
        if not self.game.acyclic:
            self._met.add(state.view())
        self.estimator.moved(state, move)


# "blind:FIELD=VALUE,...": the blind policy with its plan varied (BlindPlan.varied);
# blind-equal / blind-adaptive: its rollouts shared equally or by sequential halving
POLICIES = ("blind", "baseline", "rule", "blind:FIELD=VALUE,...", "blind-equal", "blind-adaptive")
_NAMED_VARIANTS = {"blind-equal": "halving=false", "blind-adaptive": "halving=true"}


def policy(game, name: str, samples: int | None = None, seed: int = 0):
    """A policy by name (POLICIES). A policy maps a decision state to a move
    (``policy(state)``) and may rank the moves (``policy.rank(state)``: rows, or None).
    ``samples``: the blind policies' samples per decision (default: the plan's)."""
    if "blind" not in game.modes:
        raise UnsupportedError(f"{game.name} has no blind mode yet, so no policies")
    if name == "baseline":
        return BaselinePolicy(game)
    if name == "rule":
        return RulePolicy(game)
    spec = _NAMED_VARIANTS.get(name, name[len("blind:"):] if name.startswith("blind:") else None)
    if name == "blind" or spec is not None:
        try:
            plan = plan_of(game).varied(spec or "")
        except ValueError as exc:
            raise UnsupportedError(f"policy '{name}': {exc}") from None
        return BlindPolicy(game, samples, seed, plan=plan)
    raise UnsupportedError(f"unknown policy '{name}' (expected: {', '.join(POLICIES)})")


def analysis_plan(game, samples: int | None = None) -> BlindPlan:
    """The plan ``solodeck solve --mode blind`` values a decision with: every move on the same draws
    (no halving), and ``samples`` of them (default: the plan's analysis_samples, else 1,000
    rollouts, or 100 sampled worlds)."""
    plan = plan_of(game)
    default = plan.analysis_samples or (100 if plan.estimator == Estimator.DETERMINIZED else 1000)
    return replace(plan, samples=samples or default, halving=False)


def solve_blind(game, state, limits: Limits, samples: int | None = None, seed: int = 0, progress=None,
                plan: BlindPlan | None = None) -> SolveResult:
    """Blind mode's answer at a decision: exact expectimax within ``limits``; where the tree does
    not fit, the estimator (status "estimated", exact false, intervals and sample count).
    ``plan``: analysis_plan(game, samples) by default."""
    plan = plan or analysis_plan(game, samples)
    start = time.perf_counter()
    decided = state.blind_tree_exact() or not state.legal_moves()  # else the tree would read hidden state
    exact = ExpectimaxSolver(game, limits, progress).solve(state) if decided else None
    if exact is not None and (exact.exact or not state.legal_moves()):
        return exact
    estimator = make_estimator(game, plan, seed)
    rows = estimator.rows(state, limits, every_move=True)
    best = rows[0]
    nodes, stored = (exact.nodes, exact.unique_states) if exact else (0, 0)
    ranked = [{**r, "move": str(r["move"])} for r in rows]
    if estimator.name == "rule":  # the rule's own move, not rolled out (BlindPlan.estimate)
        return finish_blind(game, status=Status.ESTIMATED, verdict=Verdict.UNKNOWN, exact=False, line=[best["move"]],
                            start=start, nodes=nodes, stored=stored, engine="rule", win_probability=None,
                            expected_score=None, ranked=ranked)
    samples = best["samples"]  # as many as the deadline let through
    return finish_blind(
        game, status=Status.ESTIMATED,
        # winnable: a blind player wins with a positive probability (a sampled world won with every
        # face known is a world the player may be in, and playing its line wins there)
        verdict=Verdict.WINNABLE if best["win_probability"] > 0 else Verdict.UNKNOWN, exact=False,
        line=[best["move"]], start=start, nodes=nodes + samples * len(rows), stored=stored,
        engine=estimator.name, win_probability=best["win_probability"], expected_score=best["expected_score"],
        ranked=ranked, interval=best["interval"], samples=samples)
