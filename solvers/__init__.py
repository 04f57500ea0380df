"""Generic search algorithms. They know nothing of any game: only the state API (solodeck.api).

- dfs.py: exact open-mode search with a transposition table, for acyclic games;
- anytime.py: a beam line first, then dfs.py above it, for games too big to exhaust;
- reach.py: exact open-mode reachability search for games whose positions repeat (Tarjan);
- expectimax.py: exact blind-mode values over chance nodes;
- plan.py: BlindPlan, how the blind policy plays a game (the game picks it: Game.blind_plan);
- blind.py: the blind policies (baseline, rule, blind) and solve_blind, one decision's answer;
- rollouts.py, determinized.py: the estimators beyond the exact tree (rollouts, sampled worlds);
- stats.py: the Wilson interval, the exact McNemar test;
- paranoid.py: games of several players, each seat against all the others;
- episode.py: a policy plays a deal to the end;
- portfolio.py: several exact engines raced in parallel.

:func:`make_solver` is how every caller (CLI, hint files, analysis, benchmarks) gets the open-mode
engine of a game: the game's compiled kernel when it is built, else the generic search that fits.
"""
from solodeck.api import advance_chance
from solodeck.result import Limits, SolveResult
from .anytime import AnytimeSolver
from .dfs import DepthFirstSolver
from .reach import ReachabilitySolver


def make_solver(game, limits: Limits | None = None, progress=None):
    """The game's compiled solver when it has one and it is built, else the generic search:
    solvers/anytime.py for games too big to exhaust (a heuristic line first), solvers/dfs.py for
    acyclic games, solvers/reach.py for games whose positions repeat."""
    limits = limits or Limits()
    fast = game.fast_solver(limits, progress)
    if fast is not None:
        return fast
    if game.anytime:
        return AnytimeSolver(game, limits, progress)
    return (DepthFirstSolver if game.acyclic else ReachabilitySolver)(game, limits, progress)


def solve_open(game, state, limits: Limits | None = None, progress=None, *, prune: bool = True) -> SolveResult:
    """Solve with the fastest exact engine (``prune=False``: the plain generic reference)."""
    if prune:
        return make_solver(game, limits, progress).solve(state)
    plain = DepthFirstSolver if game.acyclic else ReachabilitySolver
    return plain(game, limits, progress, prune=False).solve(state)


def value_first_moves(solver, state) -> list:
    """[(move, exact utility or None)] for every legal move of the first decision, best first.

    In a game whose first decision is its opening, this is `solve --all-openings`."""
    state = advance_chance(state)
    values = []
    for move in state.legal_moves():
        value, exact = solver.value(state.play(move))
        values.append((move, value if exact else None))
    values.sort(key=lambda mv: mv[1] if mv[1] is not None else (-2, 0), reverse=True)
    return values


__all__ = ["SolveResult", "Limits", "AnytimeSolver", "DepthFirstSolver", "ReachabilitySolver", "make_solver", "solve_open",
           "value_first_moves"]
