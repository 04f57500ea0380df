"""Exact open-hand values of games of several players: what one seat can guarantee.

With every hand open, the *paranoid* value of a seat is the final score it can make sure of
when every other seat plays together against it (Sturtevant and Korf, 2000): a two-sided
minimax, the seat maximising its own score, the others minimising it. It is a guarantee: no
play of the others, together or apart, leaves the seat with less; bridge's double-dummy tables
are this value for a side. Here it is computed by alpha-beta with a transposition table of
bounds (``State.key()`` together with the seat), ordered by ``State.search_moves()``, and cut by
``State.seat_bounds(seat)`` when the game offers them.

A limit (time, table size) stops the search: the value is then None, never a guess.
"""
from __future__ import annotations

import time

from solodeck.api import advance_chance
from solodeck.result import Limits, SearchStopped

_CHECK_EVERY = 1024
BYTES_PER_ENTRY = 600  # a table entry with its key: ~500 measured with tracemalloc (a 4-player trick game)


class ParanoidSolver:
    """``value(state, seat)``: the exact paranoid value, or None when a limit stopped the search.
    One solver keeps its table across calls (hint files value every card along a line)."""

    def __init__(self, limits: Limits | None = None, progress=None):
        self.limits = limits or Limits()
        self.progress = progress
        self.table: dict = {}
        self._capacity = max(1024, int(self.limits.memory_mb * 2**20 / BYTES_PER_ENTRY))
        self.nodes = 0
        self._deadline = None
        self.stop = None
        self.proven = None  # value(): (v, v) once decided; a stopped full-window search proves nothing

    def value(self, state, seat: int):
        state = advance_chance(state)
        seconds = self.limits.seconds()
        self._deadline = None if seconds is None else time.perf_counter() + seconds
        self.stop, self.proven = None, None
        try:
            value = self._search(state, seat, -10**9, 10**9)
        except SearchStopped as stopped:  # a full window proves nothing until it ends
            self.stop = stopped.reason
            return None
        self.proven = (value, value)
        return value

    def move_values(self, state, seat: int | None = None) -> list:
        """[(move, value for ``seat`` after it, or None)] for every legal move; ``seat``: the one
        on turn by default (a hint at each card played)."""
        state = advance_chance(state)
        seat = state.to_move() if seat is None else seat
        return [(move, self.value(state.play(move), seat)) for move in state.legal_moves()]

    # -- the search ----------------------------------------------------------------------------
    def _search(self, state, seat, alpha, beta):
        """Fail-soft alpha-beta: the exact value when it lies strictly inside (alpha, beta), else a
        bound on the side it fell (>= beta, or <= alpha)."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self.limits.check(self._deadline, len(self.table))
            if self.progress is not None:
                self.progress(self.nodes)
        outcome = state.outcome()
        if outcome is not None:
            return outcome.scores[seat]
        key = (seat, state.key())
        low, high = self.table.get(key, (-10**9, 10**9))
        bounds = state.seat_bounds(seat)
        if bounds is not None:
            low, high = max(low, bounds[0]), min(high, bounds[1])
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        a, b = alpha, beta
        maximising = state.to_move() == seat
        best = -10**9 if maximising else 10**9
        for move in state.search_moves():
            v = self._search(advance_chance(state.play(move)), seat, a, b)
            if maximising:
                best = max(best, v)
                a = max(a, v)
            else:
                best = min(best, v)
                b = min(b, v)
            if a >= b:
                break
        # best is exact inside (alpha, beta); a lower bound at or above beta, an upper at or below alpha
        if best >= beta:
            low = max(low, best)
        elif best <= alpha:
            high = min(high, best)
        else:
            low = high = best
        if len(self.table) < self._capacity or key in self.table:
            self.table[key] = (low, high)
        return best
