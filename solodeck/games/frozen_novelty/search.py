"""Frozen Novelty's open-mode search in the compiled kernel (ext/frozen_novelty.pyx).

The state graph has cycles (face-down cards and runs can move back and forth): the open-mode
search is the generic cycle-aware one, solvers/reach.py (Tarjan's strongly connected
components), helped by this game's safe moves, stricter-rules pre-search and twin stacks
(docs/rules/frozen-novelty.md, "How the solver searches"); the kernel does the same in C.
"""
from __future__ import annotations

import time

from ...api import Outcome, advance_chance
from ...result import Limits, StopReason, finish_open
from ...solvers.reach import presearch
from .rules import VARIANTS, Move, Rules


# -- the compiled kernel (ext/frozen_novelty.pyx) -----------------------------------------------
KINDS = ("flip", "found", "move", "down")
VALUE_NODES = 2_000_000  # hint files: the positions each value may enter when no time limit is set


def kernel_move(t) -> Move:
    kind, src, dst, n = t
    return Move(KINDS[kind], src, dst if KINDS[kind] in ("move", "down") else -1, n)


def kernel_tuple(m: Move):
    return (KINDS.index(m.kind), m.src, m.dst, m.n)


def kernel_search(kernel, rules: Rules, limits):
    return kernel.Search(VARIANTS.index(rules.variant), list(rules.backs), limits.memory_mb,
                         limits.seconds() or 0.0, limits.max_states or 0, rules.lazy_flips)


def kernel_moves(kernel, state) -> list:
    """The kernel's legal moves in ``state`` (a decision, not a chance node), as Moves."""
    search = kernel_search(kernel, state.rules, Limits(memory_mb=1))
    search.set_position([list(s) for s in state.stacks], list(state.found))
    return [kernel_move(t) for t in search.legal_moves()]


class KernelSolver:
    """The same search in the kernel, with DepthFirstSolver's interface. One kernel table per
    rule set serves every solve and value (hint files): settled positions stay settled."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.kernel, self.limits, self.progress = game, kernel, limits, progress
        self.search, self._rules = None, None
        self.extra_nodes = 0  # positions of the searches under stricter rules

    def _load(self, state):
        if self.search is None or self._rules != state.rules:
            self.search, self._rules = kernel_search(self.kernel, state.rules, self.limits), state.rules
        self.search.set_position([list(s) for s in state.stacks], list(state.found))

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        pre = presearch(lambda lim: KernelSolver(self.game, self.kernel, lim), state, self.limits, start)
        self.extra_nodes += pre.nodes if pre is not None else 0
        self._load(state)
        if pre is not None and pre.verdict == "winnable":
            found, line = 1, pre.line
        else:
            if self.limits.seconds() is None:
                self.search.restart_clock(0.0)  # a value() before may have set its own budget
            else:  # the clock starts now: leave the pre-search's share out
                self.search.restart_clock(max(1e-9, self.limits.seconds() - (time.perf_counter() - start)))
            found = self.search.solve()
            line = [kernel_move(t) for t in self.search.line()] if found == 1 else []
        if self.progress is not None:
            self.progress(self.search.nodes + self.extra_nodes)
        return finish_open(self.game, state, line, won=found == 1,
                           stop=StopReason.from_code(self.search.stopped) if found < 0 else None,
                           nodes=self.search.nodes + self.extra_nodes, stored=self.search.stored,
                           start=start, engine="kernel")

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search. Each call has
        its own budget: Limits.value_nodes positions (the same on every machine), and the limits'
        time."""
        self._load(advance_chance(state))
        self.search.restart_clock(self.limits.seconds() or 0.0)
        self.search.set_node_budget(self.limits.value_nodes(VALUE_NODES) or 0)
        found = self.search.solve()
        if found < 0:
            return None, False
        return self.game.utility(Outcome(True, None) if found else None), True
