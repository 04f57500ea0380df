"""Skyway's open mode in the compiled kernel (ext/skyway.pyx): the exact search of endgames and
the best line of a whole deal (KernelSolver), and the kernel's moves."""
from __future__ import annotations

import time

from ...api import advance_chance
from .rules import MOVES, Take


# -- open mode in the kernel: exact endgames, and the best line of a whole deal ----------------------
REACH_TURNS = 6       # the exact search proves a line's ending from this many turns before the end
TRY_TURNS = 9         # a position with at most this many turns left is tried exactly first (bench/skyway.py)
VALUE_NODES = 10_000  # the nodes each value of a hint file may search, when the command gives no time limit
WIN_VALUE = 64        # the kernel's value: won * 64 + the chain total
NESTED_SHARE = 0.8    # of a whole deal's time: the nested pilot method; the rest proves the ending
# The nested pilot method's runs, in turn while time lasts, each a set of rollout policies: the
# baseline steered to grids that can still hold 27 (or 26) cards, i.e. to lines of 18-19 turns,
# the only ones that can fill the grid, and the plain baseline (0), whose lines mostly end after
# 17 turns, at most 26. Seeds 10000-10047: 26 or more found on 11 of 48 deals by (0,) alone, 32
# by (27, 0), 38 with (26,) after it (docs/rules/skyway.md).
NESTED_RUNS = ((27, 0), (26,))


def kernel_utility(value: int) -> tuple:
    """The game's utility (won, score) of the kernel's value."""
    return (1, value - WIN_VALUE) if value >= WIN_VALUE else (0, value)


def kernel_args(state) -> tuple:
    """A decision state (or a finished one) as the kernel's Endgame takes it."""
    return (state.grid, state.market, state.deck, state.discard, state.passno, state.reshuffles,
            int(state.final), int(state.over))


def within_reach(state) -> bool:
    """Few enough turns left for the exact search (turns_left is exact in the third pass, an
    upper bound before it)."""
    return state.turns_left() <= REACH_TURNS


def kernel_moves(kernel, state) -> list:
    """The kernel's legal moves at a decision, as Takes."""
    return [Take(stack, cell) for stack, cell in kernel.legal_moves(state.market)]


class KernelSolver:
    """Open mode with the kernel (ext/skyway.pyx), with DepthFirstSolver's interface.

    Within reach of the end (REACH_TURNS) the exact search answers. Otherwise, or when a limit
    stops it, the pilot method plays a line (at each decision, every move followed by the
    baseline with the deck known: a clairvoyant rollout of the blind policy's rule), one level
    up while time lasts (every move followed by the pilot method itself), and the exact search
    then replaces the line's last turns by the best ending from where it is within reach: the
    line found ends in a proven-best endgame."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.kernel, self.limits, self.progress = game, kernel, limits, progress
        self.search, self.seed = None, None

    def _engine(self, seed):
        if self.search is None or self.seed != seed:  # the table holds one seed's reshuffles
            self.search, self.seed = self.kernel.Endgame(seed, self.limits.memory_mb), seed
        return self.search

    def _exact(self, state, seconds, nodes=None):
        """(value, line) by the exact search, or None when a limit stopped it."""
        search = self._engine(state.seed)
        search.set_limits(seconds or 0.0, self.limits.max_states or 0, nodes or 0)
        found = search.solve(*kernel_args(state))
        if self.progress is not None:
            self.progress(search.nodes)
        return found

    def solve(self, state):
        from ...result import StopReason, finish_open

        start = time.perf_counter()
        state = advance_chance(state)
        seconds = self.limits.seconds()
        nodes = 0
        if state.outcome() is None and state.turns_left() <= TRY_TURNS:
            # beyond reach the exact search may still finish: it gets half the time
            found = self._exact(state, seconds if within_reach(state) or seconds is None else seconds / 2)
            nodes = self.search.nodes
            if found is not None:
                value, line = found
                return finish_open(self.game, state, [Take(s, c) for s, c in line], won=value >= WIN_VALUE,
                                   nodes=nodes, stored=self.search.stored, start=start, engine="kernel")
            stop = StopReason.from_code(self.search.stopped)
        elif state.outcome() is None:
            stop = StopReason.TIMEOUT  # a whole deal: too big to exhaust
        else:
            return finish_open(self.game, state, [], won=state.won, start=start, engine="kernel")
        deadline = None if seconds is None else start + seconds
        value, line, spent = self.best_line(state, deadline)
        bound = self.search.decision_bound(*kernel_args(state))
        if value >= bound:  # the line reaches what no line can pass: it is the best
            stop = None
        result = finish_open(self.game, state, line, won=value >= WIN_VALUE, stop=stop, nodes=nodes + spent,
                             stored=self.search.stored, start=start, engine="kernel")
        if stop is not None and value >= WIN_VALUE:
            result.score_bound = kernel_utility(bound)[1]
        return result

    def best_line(self, state, deadline):
        """(value, line, nodes): the best line of the nested pilot method's NESTED_RUNS (within
        NESTED_SHARE of the time left; the pilot method alone with each rollout policy without a
        time limit), its ending replaced by the exact best from the first position along it within
        reach (when the search finishes in time)."""
        search = self._engine(state.seed)
        args = kernel_args(state)
        if deadline is None:
            value, moves = max((search.pilot(*args, target) for run in NESTED_RUNS for target in run),
                               key=lambda found: found[0])  # the first best line
        else:
            nested_end = time.perf_counter() + NESTED_SHARE * (deadline - time.perf_counter())
            value, moves = -1, []
            for run in NESTED_RUNS:
                left = nested_end - time.perf_counter()
                if left <= 0:
                    break
                found = search.nested(*args, left, run)
                if found[0] > value:
                    value, moves = found
        line = [Take(s, c) for s, c in moves]
        nodes = len(line) * len(MOVES)
        at = advance_chance(state)
        for i, move in enumerate(line):
            if within_reach(at):
                left = None if deadline is None else deadline - time.perf_counter()
                if left is not None and left <= 0:
                    break
                found = self._exact(at, left)
                nodes += search.nodes
                if found is not None and found[0] >= value:
                    value, line = found[0], line[:i] + [Take(s, c) for s, c in found[1]]
                break
            at = advance_chance(at.play(move))
        return value, line, nodes

    def score_bound(self, state):
        """The best chain total any win from ``state`` can have, proven (each move's child bounded
        by the chain relaxation, the grid's capacity or the table), or None where the game is
        over or no win is possible (hint files give it beside a value a limit stopped)."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return None
        won, total = kernel_utility(self._engine(state.seed).decision_bound(*kernel_args(state)))
        return total if won else None

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search. Without a time
        limit each value gets VALUE_NODES of its own (hint files value every move)."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        found = self._exact(state, self.limits.seconds(), self.limits.value_nodes(VALUE_NODES))
        return (kernel_utility(found[0]), True) if found is not None else (None, False)
