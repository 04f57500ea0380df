"""Syndicate's own open-mode solver: the compiled kernel's exact search (ext/syndicate.pyx)
behind DepthFirstSolver's interface (KernelSolver), and its moves read back (kernel_move,
kernel_moves)."""
from __future__ import annotations

import time

from ...api import Outcome
from ...result import StopReason, finish_open
from .rules import Promote


class KernelSolver:
    """Exact search in the compiled kernel (ext/syndicate.pyx), with DepthFirstSolver's interface.

    The kernel values a position by its fewest *future* sacrifices of a win. Budgets are tried
    in stages, 0, then 1, then unlimited (most wins need none; the unlimited stage is the proof
    that costs). The opening (the choice of rank 5's members) is looped over here."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.limits, self.progress = game, limits, progress
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)
        self.INF, self.UNLIMITED = kernel.INF_VALUE, kernel.UNLIMITED_BUDGET

    # -- DepthFirstSolver's interface ------------------------------------------------------------
    def solve(self, state):
        start = time.perf_counter()
        future, line, found = self._best(state)
        if self.search.stopped:
            stop, line, won = StopReason.from_code(self.search.stopped), found or [], bool(found)
        else:
            stop, won = None, future is not None
        return finish_open(self.game, state, line, won=won, stop=stop, nodes=self.search.nodes,
                           stored=self.search.stored, start=start, engine="kernel")

    def value(self, state):
        """(exact utility, True) of a state, or (None, False) if a limit stopped the search."""
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        future, _line, _found = self._best(state, want_line=False)
        if self.search.stopped:
            return None, False
        if future is None:
            return self.game.utility(None), True
        return self.game.utility(Outcome(True, state.sacrificed + future)), True

    # -- the stages ------------------------------------------------------------------------------
    def _best(self, state, want_line=True):
        """(fewest future sacrifices or None, its line, a winning line met before a limit stopped us)."""
        if state.outcome() is not None:
            return (0 if state.won else None), [], None
        openings = state.legal_moves() if state.reserve else [None]
        best, best_line, found = None, [], None
        for budget in (0, 1, self.UNLIMITED):
            for opening in openings:
                limit = budget if best is None else min(budget, best - 1)
                if limit < 0:
                    break
                start = state.play(opening) if opening else state
                self._load(start)
                future = self.search.search(5, limit)
                if self.progress is not None:
                    self.progress(self.search.nodes)
                if self.search.stopped:
                    met = self.search.found_line()
                    if best is None and met:
                        found = ([opening] if opening else []) + [kernel_move(m) for m in met]
                    return None, [], (best_line or found)
                if future < self.INF and (best is None or future < best):
                    best = future
                    if want_line:
                        self._load(start)
                        best_line = ([opening] if opening else []) + self._line(best)
                        if self.search.stopped:
                            return None, [], None
            if best is not None:
                break
        return best, best_line, None

    def _line(self, future):
        """Follow best moves from the loaded position, whose value is ``future``."""
        line, p = [], 5
        while True:
            self.search.search(p, future)  # exact at this budget; mostly answered by the table
            move = self.search.best_move(p, future)
            line.append(kernel_move(move))
            if move & 7 == 1:
                return line
            self.search.play(move)
            future -= 1 if move >> 13 else 0
            p = move & 7

    def _load(self, state):
        self.search.set_position(state.members, state.candidates)


def kernel_move(code: int) -> Promote:
    """The kernel's move int (ext/syndicate.pyx: rank | member << 3 | take << 7 | dest << 11 |
    victim << 13) as a Promote."""
    victim = code >> 13 & 15
    return Promote(code & 7, code >> 3 & 15, ("win", "m", "c")[code >> 11 & 3], code >> 7 & 15, victim or None)


def kernel_moves(kernel, state) -> list:
    """Game.kernel_moves after the opening: the kernel's legal moves as Promotes."""
    search = kernel.Search(1.0)
    search.set_position(state.members, state.candidates)
    return [kernel_move(code) for code in search.legal_moves()]
