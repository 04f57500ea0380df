"""Loot the Loop's open mode in the compiled kernel (ext/loot_the_loop.pyx): solvers/reach.py's
scored search (the best outcome over every position reachable from the deal), compiled, and a
state packed for the kernel (card classes, the notes' values)."""
from __future__ import annotations

import time

from ...api import advance_chance
from ...result import StopReason, finish_open
from .rules import LOOK, MARK, Move, card_class, card_of, trinket_value

TIMEOUT_CODE = 1       # the kernel's ``stopped`` when the time is up (2: the states or the memory)
WIN_BASE = 1000        # the kernel's utility of a win scoring s: WIN_BASE + s; a loss: s
VALUE_NODES = 10_000_000  # hint files: the nodes each value may search when no time limit is set
# The first pass (returns of the larger values first) enters at most this many positions; the
# second (the smaller first) runs to the limits. Over seeds 0-999 each order alone leaves 2-3 won
# deals without a win within 1,000,000 positions, never the same ones; one deal wins 38 (proven
# best) only in the first order. Only the second skips dominated positions (the kernel's
# ``dominance``): that shrinks the search, but changes which lines come first, and the first pass
# with it no longer meets seed 862's 38.
FIRST_PASS_STATES = 1_000_000


def kernel_position(state):
    """(deck codes: class * 2 + up, top first; the notes' values; exited) of a state without a
    look in progress."""
    return ([card_class(card_of(c)) * 2 + (c & 1) for c in state.deck],
            [trinket_value(c) for c in state.notes], state.exited)


def reference_move(state, kind, value):
    """The reference move of a kernel move at ``state`` (a return names one of the notes of
    that value: either gives the same position)."""
    if kind == "look":
        return LOOK
    if kind == "mark":
        return MARK
    if kind == "explore":
        return Move("explore", value)
    return Move("return", next(c for c in state.notes if trinket_value(c) == value))


def reference_line(state, kernel_line):
    """The kernel's line as reference moves, replayed from ``state`` (chance as dealt)."""
    line = []
    for kind, value in kernel_line:
        move = reference_move(state, kind, value)
        line.append(move)
        state = advance_chance(state.play(move))
    return line


def kernel_moves(kernel, state) -> list:
    """The kernel's legal moves at ``state`` as reference moves; the kernel offers one return per
    value (the same position), given here as a return of each note of that value."""
    deck, notes, exited = kernel_position(state)
    moves = []
    for kind, value in kernel.Search(1.0).legal_moves(deck, notes, exited):
        if kind == "return":
            moves += [Move("return", c) for c in state.notes if trinket_value(c) == value]
        else:
            moves.append(reference_move(state, kind, value))
    return moves


class KernelSolver:
    """Open mode in the kernel, with ReachabilitySolver's interface (``solve``, ``value``)."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.limits, self.progress = game, limits, progress
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)

    def _run(self, state):
        """(utility, line as reference moves, exhaustive?) from ``state`` (chance advanced): two
        passes of the same exact search in two move orders (the order only decides which lines
        are met first: either pass, when it ends, proves the best outcome). The first is capped
        at FIRST_PASS_STATES positions; the second, run unless the first ended or the time is
        up, has the limits'. The better line of the two is kept (the first on a tie)."""
        deck, notes, exited = kernel_position(state)
        search, cap = self.search, self.limits.max_states
        search.order, search.dominance = 1, False
        search.max_states = FIRST_PASS_STATES if cap is None else min(cap, FIRST_PASS_STATES)
        utility, done = search.best(deck, notes, exited)
        line = search.best_line()
        if not done and search.stopped != TIMEOUT_CODE and (cap is None or cap > FIRST_PASS_STATES):
            search.order, search.dominance = 0, True
            search.max_states = cap or 0
            second, done = search.best(deck, notes, exited)
            if second > utility:
                utility, line = second, search.best_line()
        return utility, reference_line(state, line), done

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        utility, line, done = self._run(state)
        won = utility >= WIN_BASE
        stop = None if done else StopReason.from_code(self.search.stopped)
        result = finish_open(self.game, state, line if (won or done) else [], won=won, stop=stop,
                             nodes=self.search.nodes, stored=self.search.stored, start=start, engine="kernel")
        if not done and won:
            bound = state.score_bound()
            result.score_bound = bound if isinstance(bound, int) else None
        return result

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search."""
        state = advance_chance(state)
        if self.limits.time_limit is None:
            self.search.restart_clock(self.limits.seconds() or 0.0)
        nodes = self.limits.value_nodes(VALUE_NODES)
        self.search.node_stop = 0 if nodes is None else self.search.nodes + nodes
        utility, line, done = self._run(state)
        if not done:
            return None, False
        end = self.game.replay_moves(state, line)
        outcome = end.outcome() or end.stop_outcome()
        return self.game.utility(outcome), True
