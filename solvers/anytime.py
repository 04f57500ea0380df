"""Anytime open-mode search, for games whose whole deals are far too big to exhaust (Skyway).

Two phases, both generic over the state API:

1. **Beam search** on the state's ``heuristic()``: turn by turn, keep the ``width`` most promising
   distinct positions (one per key: symmetric positions count once). It plays a good line in a
   few seconds; it proves nothing.
2. **Exact search** (solvers/dfs.py) with the beam's line as its floor: it only looks for lines
   that beat it, and its score bounds cut the rest. If it finishes, the answer is exact (the
   floor line itself, if nothing beats it); if a limit stops it, the best line found is reported
   with ``exact: false``. ``unwinnable`` comes only from a finished exact search, or at once from
   a root score bound that says no win is reachable.

The same engine solves endgames (the beam is instant, the exact search finishes) and whole
deals (the exact search runs until its limit). ``value()`` (hint files) is the exact search's.
"""
from __future__ import annotations

import dataclasses
import time

from solodeck.api import advance_chance, cannot_win
from solodeck.result import Limits, SolveResult, Verdict
from .dfs import NEG_INFINITY, DepthFirstSolver

BEAM_WIDTH = 48
BEAM_SHARE = 0.25  # of the time limit, at most, for the beam; the exact search gets the rest


def beam_search(game, state, width: int = BEAM_WIDTH, deadline: float | None = None):
    """(utility, line, nodes): the best finished line the beam reached (NEG_INFINITY, [] if none).
    ``heuristic()`` ranks the positions of each step, higher first."""
    state = advance_chance(state)
    best = (NEG_INFINITY, [])
    if state.outcome() is not None:
        return game.utility(state.outcome()), [], 0
    beam = [(state, [])]
    nodes = 0
    while beam:
        children = {}
        for parent, line in beam:
            for move in parent.legal_moves():
                child = advance_chance(parent.play(move))
                nodes += 1
                outcome = child.outcome()
                if outcome is not None:
                    value = game.utility(outcome)
                    if value > best[0]:
                        best = (value, line + [move])
                    continue
                key = child.key()
                if key not in children:
                    children[key] = (child.heuristic(), child, line + [move])
        ranked = sorted(children.values(), key=lambda c: c[0], reverse=True)
        if deadline is not None and time.perf_counter() > deadline:
            width = 1  # out of time: finish the best line greedily rather than leave none
        beam = [(child, line) for _h, child, line in ranked[:width]]
    return best[0], best[1], nodes


class AnytimeSolver:
    """A beam line first, then the exact search above it (see the module doc)."""

    def __init__(self, game, limits: Limits | None = None, progress=None, *, width: int = BEAM_WIDTH):
        self.game, self.limits, self.width = game, limits or Limits(), width
        self.exact = DepthFirstSolver(game, self.limits, progress)

    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        state = advance_chance(state)
        limit = self.limits.time_limit
        value, line, beam_nodes = beam_search(self.game, state, self.width,
                                              start + BEAM_SHARE * limit if limit is not None else None)
        self.exact.floor = (value, line)
        if limit is not None:  # the exact search gets what the beam left of the time
            self.exact.limits = dataclasses.replace(self.limits, time_limit=max(start + limit - time.perf_counter(), 0.0))
        result = self.exact.solve(state)
        result.nodes += beam_nodes
        result.seconds = time.perf_counter() - start
        result.engine = "anytime"
        if not result.exact and result.verdict == Verdict.UNKNOWN and cannot_win(state.score_bound()):
            result.verdict = Verdict.UNWINNABLE  # proven by the bound; the best loss score is not
        return result

    def value(self, state):
        return self.exact.value(state)

    def best_line(self, state) -> list:
        return self.exact.best_line(state)
