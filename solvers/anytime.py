"""Anytime open-mode search, for games whose whole deals are far too big to exhaust (Game.anytime).

Two phases, both generic over the state API:

1. **Beam search** on the state's ``heuristic()``: turn by turn, keep the ``width`` most promising
   distinct positions (one per key: symmetric positions count once); widths 4, 8, 16, ... while
   the beams' share of the time lasts (one beam of width 32 without a time limit). It plays a
   good line fast; it proves nothing.
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

FIRST_BEAM_WIDTH = 4
MAX_BEAM_WIDTH = 256
UNTIMED_BEAM_WIDTH = 32  # about a second on the biggest anytime game's deals
BEAM_SHARE = 0.6  # of the time limit, at most, for the beams; the exact search gets the rest


def beam_search(game, state, width: int, deadline: float | None = None):
    """(utility, line, nodes): the best finished line a beam of ``width`` reached (NEG_INFINITY,
    [] if none). ``heuristic()`` ranks the positions of each step, higher first. Past the
    deadline the beam narrows to one: the line is finished greedily rather than left unfinished."""
    state = advance_chance(state)
    if state.outcome() is not None:
        return game.utility(state.outcome()), [], 0
    best = (NEG_INFINITY, [])
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
            width = 1
        beam = [(child, line) for _h, child, line in ranked[:width]]
    return best[0], best[1], nodes


def widening_beam(game, state, deadline: float | None):
    """Beams of width 4, 8, 16, ... up to MAX_BEAM_WIDTH while time is left (without a deadline, one
    beam of UNTIMED_BEAM_WIDTH): (the best utility, its line, nodes) over all of them."""
    best, best_line, nodes = NEG_INFINITY, [], 0
    width = FIRST_BEAM_WIDTH if deadline is not None else UNTIMED_BEAM_WIDTH
    while True:
        value, line, spent = beam_search(game, state, width, deadline)
        nodes += spent
        if value > best:
            best, best_line = value, line
        width *= 2
        if deadline is None or width > MAX_BEAM_WIDTH or time.perf_counter() > deadline:
            return best, best_line, nodes


class AnytimeSolver:
    """A beam line first, then the exact search above it (see the module doc)."""

    def __init__(self, game, limits: Limits | None = None, progress=None):
        self.game, self.limits = game, limits or Limits()
        self.exact = DepthFirstSolver(game, self.limits, progress)

    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        state = advance_chance(state)
        limit = self.limits.time_limit
        value, line, beam_nodes = widening_beam(self.game, state,
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
