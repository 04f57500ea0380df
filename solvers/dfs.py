"""Exact depth-first search with a transposition table, for open mode (chance takes the dealt outcome).

Values are the game's utilities (win first, then score; higher is better). The search is a
single-agent alpha search: ``_search(state, alpha)`` returns the exact value when it exceeds
``alpha``, otherwise an upper bound that is at most ``alpha``. A state's ``score_bound()`` (the
best score it could still reach) cuts branches that cannot beat the best win found so far, so
the first win is found fast and the proof of the best score explores only what could beat it.
The table stores (value, exact?, best move); an upper bound is reused only to fail low again.

The root is searched with iterative deepening on the score (aspiration windows): first only
for a win as good as the root's optimistic bound, then, after each fail-low, just below the
upper bound that search learned (as IDA* does with its threshold). Most deals have a win at the
bound, so the search never looks at worse lines; the fail-lows' upper bounds stay in the table.
``prune=False`` turns off bounds, aspiration and search_moves(): the plain reference the tests
compare the pruned search with.
"""
from __future__ import annotations

import time

from solodeck.api import advance_chance
from solodeck.errors import UnsupportedError
from solodeck.result import Limits, SearchStopped, SolveResult, StopReason, finish_open

NEG_INFINITY = (-1, 0)  # below every utility: a loss is (0, ...), a win (1, ...)
# A table entry with its key, measured with tracemalloc: ~650 to ~2,300 bytes
# in the games measured. The larger keeps --memory a cap for every game.
BYTES_PER_ENTRY = 2400
_CHECK_EVERY = 256      # nodes between clock and limit checks (the dearest nodes measured cost ~0.5 ms)


class DepthFirstSolver:
    """Exact open-mode search over the state API. One solver keeps its table across calls, so
    valuing every move along a line (hint files) reuses what solving the deal found."""

    def __init__(self, game, limits: Limits | None = None, progress=None, *, prune: bool = True):
        if not game.acyclic:
            raise UnsupportedError(f"{game.name}: its positions can repeat, and this search assumes they "
                                   "cannot; solvers/reach.py handles cycles (make_solver picks it)")
        self.game = game
        self.prune = prune
        self.limits = limits or Limits()
        self.progress = progress  # called with the node count every few thousand nodes
        self.table: dict = {}
        self._capacity = max(1024, int(self.limits.memory_mb * 2**20 / BYTES_PER_ENTRY))
        self.nodes = 0
        self.incumbent = NEG_INFINITY  # best terminal value reached so far, and its line
        self.incumbent_line: list = []
        self.floor = None  # (utility, line) already reached from the next root solve()d: beat it or keep it
        self._path: list = []
        self._deadline = None

    # -- public ------------------------------------------------------------------------------
    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        state = advance_chance(state)
        stop = None
        try:
            self._start_root()
            floor, self.floor = self.floor, None
            if floor is not None:
                self.incumbent, self.incumbent_line = floor
            value = self._solve_root(state)
            if floor is not None and value <= floor[0]:  # nothing beats the floor: its line is best
                won, line = floor[0][0] == 1, list(floor[1])
            else:
                won, line = value[0] == 1, self.best_line(state)
        except SearchStopped as stopped:
            stop, line = stopped.reason, list(self.incumbent_line)
            won = self.incumbent[0] == 1
        return finish_open(self.game, state, line, won=won, stop=stop, nodes=self.nodes,
                           stored=len(self.table), start=start, engine="dfs")

    def value(self, state):
        """(exact utility, True) of a state, or (None, False) if a limit stopped the search."""
        state = advance_chance(state)
        entry = self.table.get(state.key()) if state.outcome() is None else None
        if entry is not None and entry[1]:
            return entry[0], True
        try:
            self._start_root()
            self._check_limits()  # a spent budget must not buy another few thousand nodes
            return self._solve_root(state), True
        except SearchStopped:
            return None, False

    def best_line(self, state) -> list:
        """Follow the table's best moves from an exactly solved state to the end of the game."""
        line = []
        state = advance_chance(state)
        while state.outcome() is None:
            entry = self.table.get(state.key())
            if entry is None or not entry[1]:  # not in the table (a cache evicted it): solve again
                self._solve_root(state)
                entry = self.table[state.key()]
            if entry[2] is None:  # only moves that cannot matter are left: lost from here
                break
            move = entry[2]
            if not self._achieves(state, move, entry[0]):
                # Keys may fold symmetries: the move was stored by a mirrored state. Take one
                # that reaches the same value here.
                move = next((m for m in state.legal_moves() if self._achieves(state, m, entry[0])), None)
                if move is None:
                    raise SearchStopped(StopReason.TIMEOUT)  # only when a limit stopped the re-search
            line.append(move)
            state = advance_chance(state.play(move))
        return line

    def _achieves(self, state, move, value) -> bool:
        if move not in state.legal_moves():
            return False
        child, exact = self.value(state.play(move))
        return exact and child == value

    # -- the search --------------------------------------------------------------------------
    def _solve_root(self, state):
        """Exact value of ``state`` by aspiration: look for a value at the optimistic bound first."""
        bound = self.game.bound_utility(state.score_bound()) if self.prune and self.game.aspiration else None
        if bound is None or state.outcome() is not None:  # branch and bound: any win first, then better
            return self._search(state, NEG_INFINITY)
        alpha = _just_below(bound)
        while True:
            value = self._search(state, alpha)
            if value > alpha:
                return value
            if not value[0]:  # not even a win is possible: settle the exact (losing) value
                return self._search(state, NEG_INFINITY)
            alpha = _just_below(value)

    def _start_root(self):
        # The incumbent may only cut inside the tree of the root it was found under.
        self.incumbent, self.incumbent_line = NEG_INFINITY, []
        if self._deadline is None and self.limits.seconds() is not None:
            self._deadline = time.perf_counter() + self.limits.seconds()

    def _search(self, state, alpha):
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._check_limits()
        outcome = state.outcome()
        if outcome is not None:
            value = self.game.utility(outcome)
            if outcome.won and value > self.incumbent:
                self.incumbent, self.incumbent_line = value, list(self._path)
            return value
        key = state.key()
        entry = self.table.get(key)
        if entry is not None and (entry[1] or entry[0] <= alpha):
            return entry[0]
        if self.prune:
            if self.incumbent > alpha:
                alpha = self.incumbent
            bound = self.game.bound_utility(state.score_bound())
            if bound is not None and bound <= alpha:
                return bound
            moves = state.search_moves()
        else:
            bound, moves = None, state.legal_moves()
        best, best_move = NEG_INFINITY, None
        path = self._path
        for move in moves:
            path.append(move)
            value = self._search(advance_chance(state.play(move)), best if best > alpha else alpha)
            path.pop()
            if value > best:
                best, best_move = value, move
                if bound is not None and best >= bound:
                    break  # nothing can beat the optimistic bound
        if best_move is None:  # search_moves() left nothing that could lead to a win
            best = self.game.utility(None)
        if entry is None and self.limits.max_states is not None and len(self.table) >= self.limits.max_states:
            raise SearchStopped(StopReason.MEMORY_LIMIT)
        if entry is None and len(self.table) >= self._capacity:
            self.table.clear()  # the state graph is acyclic: a forgotten entry is only searched again
        self.table[key] = (best, best > alpha, best_move)
        return best

    def _check_limits(self):
        if self.progress is not None:
            self.progress(self.nodes)
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchStopped(StopReason.TIMEOUT)


def _just_below(value):
    """The utility just below ``value``: scores are whole numbers."""
    return (value[0], value[1] - 1)
