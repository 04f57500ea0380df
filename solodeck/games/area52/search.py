"""Area 52's open mode in the compiled kernel (ext/area52.pyx): the exact search (KernelSolver),
and the conversions of moves both ways.

KernelSolver proves the best outcome where its node budget allows, and otherwise reports the best
line found with the best score still possible, proven (``SolveResult.score_bound``). Every budget
is counted in nodes, so the same input gives the same answer on any machine; only the command's
own time limit (``--time-limit``) can stop it sooner, and then the answer says it is not proven.
"""
from __future__ import annotations

import time

from ...api import advance_chance
from ...result import StopReason, Verdict, finish_open
from ...solvers.anytime import beam_search
from .rules import Action

_KERNEL_KINDS = ("dual", "single", "sacrifice")

WIN, LOSS = 1000, 500             # the kernel's values: WIN + score of a win, LOSS + score of a loss
ENDGAME_NODES = 300_000           # the exact search alone first: endgames finish within it
BEAM_WIDTHS = (4, 8, 16, 32, 64, 128, 256)  # the first line: solvers/anytime.py's beam at these widths
LINE_NODES = 3_000_000            # the line search from the beam's line (branch and bound from below)
LINE_CAP = 100_000                # ... of which each wave-2 deck it reaches gets at most this many
PROOF_NODES = 1_000_000           # the exact search above the best line found (the proof)
VALUE_NODES = 2_000_000           # each value of a hint file (value())


def _to_kernel(move: Action) -> tuple:
    return _KERNEL_KINDS.index(move.kind), move.cards[0], move.cards[1] if move.kind == "dual" else -1


def _from_kernel(move, alien=None) -> Action:
    kind, a, b = move
    return Action(_KERNEL_KINDS[kind], (a, b) if b >= 0 else (a,), alien)


def kernel_moves(kernel, state) -> list:
    """The kernel's legal moves against the current attacker, as Actions."""
    alien = state.attackers[0]
    return [_from_kernel(m, alien) for m in kernel.legal_moves(state.table, alien, state.wave)]


def kernel_utility(value: int) -> tuple:
    """The game's utility (won, score) of a kernel value."""
    return (1, value - WIN) if value >= WIN else (0, value - LOSS)


def exact_search(kernel, state, memory_mb: float):
    """The kernel's Exact search rooted at a decision ``state`` (after its chance). The alien
    queue it reads is the attackers, then the unseen aliens, then the returned ones: a turn
    flips the front of it, so the turns never show in open play."""
    return kernel.Exact(state.table, state.defenders, state.attackers + state.hidden, state.returned,
                        state.wave, state.seed, memory_mb)


def kernel_line(state, moves) -> list:
    """The kernel's moves (kind, a, b) as Actions along the line from ``state``."""
    line = []
    for move in moves:
        action = _from_kernel(move, state.attackers[0])
        line.append(action)
        state = advance_chance(state.play(action))
    return line


class KernelSolver:
    """Open mode with the kernel, with DepthFirstSolver's interface (``solve``, ``value``).

    1. The exact search alone (ENDGAME_NODES): endgames end here, proven.
    2. The first line: the beam of solvers/anytime.py at fixed widths (BEAM_WIDTHS).
    3. The line search (LINE_NODES): branch and bound from below, the beam's line tried first,
       each wave-2 deck it reaches searched for at most LINE_CAP nodes: it tries many wave-1
       endings near the beam's line and plays their wave 2 well. It proves nothing.
    4. The proof (PROOF_NODES, the table of step 1 kept): the exact search for anything better
       than the best line found. Finished, the answer is exact; stopped, the best score any win
       can have is proven (``score_bound``), and so is "unwinnable" when no win is left possible."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.kernel, self.limits, self.progress = game, kernel, limits, progress
        self._end = None   # perf_counter seconds at which the current solve's time limit ends

    def _budget(self, nodes: int) -> int:
        if self.limits.max_states is not None:
            return max(1, min(nodes, self.limits.max_states))
        return nodes

    def solve(self, state):
        start = time.perf_counter()
        seconds = self.limits.seconds()
        self._end = None if seconds is None else start + seconds   # the time limit covers all four steps
        state = advance_chance(state)
        if state.outcome() is not None:
            return finish_open(self.game, state, [], won=state.won, start=start, engine="kernel")
        proof = exact_search(self.kernel, state, self.limits.memory_mb)
        nodes = 0
        value = proof.solve(self._budget(ENDGAME_NODES), self._seconds() or 0.0)
        line, found = [], None   # the best line known, and its kernel value
        timed_out = proof.stopped == 1   # the time limit cut a step short: say so, whatever else stopped
        if value is None and proof.stopped == 2:
            # 2. the beam's line
            deadline = None if self._seconds() is None else time.perf_counter() + self._seconds()
            guide = (None, [])   # the beam's best line, won or lost, leads the line search
            for width in BEAM_WIDTHS:
                if deadline is not None and time.perf_counter() > deadline:
                    timed_out = True
                    break
                utility, moves, spent = beam_search(self.game, state, width, deadline)
                nodes += spent
                if guide[0] is None or utility > guide[0]:
                    guide = (utility, list(moves))
            if guide[0] is not None and guide[0][0] == 1:
                found, line = guide[0][1] + WIN, guide[1]
            # 3. the line search
            if not self._expired():
                search = exact_search(self.kernel, state, self.limits.memory_mb)
                search.set_guide([_to_kernel(m) for m in guide[1]])
                search.below(LINE_NODES, self._seconds() or 0.0, LINE_CAP)
                nodes += search.nodes
                timed_out = timed_out or search.stopped == 1
                if search.incumbent >= WIN and (found is None or search.incumbent > found):
                    found, line = search.incumbent, kernel_line(state, search.incumbent_line())
                del search
            # 4. the proof above it
            if not self._expired():
                value = proof.solve(self._budget(PROOF_NODES), self._seconds() or 0.0,
                                    found if found is not None else 0)
                timed_out = timed_out or proof.stopped == 1
            else:
                timed_out = True
        nodes += proof.nodes
        if self.progress is not None:
            self.progress(nodes)
        if value is not None:   # exact
            if found is None or value > found:
                line = kernel_line(state, proof.best_line(value))
            return finish_open(self.game, state, line, won=value >= WIN, nodes=nodes, stored=proof.stored,
                               start=start, engine="kernel")
        stop = StopReason.TIMEOUT if timed_out else StopReason.from_code(proof.stopped or 1)
        result = finish_open(self.game, state, line, won=found is not None, stop=stop, nodes=nodes,
                             stored=proof.stored, start=start, engine="kernel")
        if proof.upper >= WIN and found is not None:
            result.score_bound = proof.upper - WIN
        elif proof.upper < WIN and found is None:
            result.verdict = Verdict.UNWINNABLE   # proven: no win is left possible; the best loss is not
        return result

    def _seconds(self):
        """What the time limit leaves of this solve (None: no limit; never 0, "no limit" to the kernel)."""
        end = self._end
        if end is None:
            seconds = self.limits.seconds()
            return None if seconds is None else max(seconds, 1e-3)
        return max(end - time.perf_counter(), 1e-3)

    def _expired(self) -> bool:
        end = self._end
        return self.limits.expired() or (end is not None and time.perf_counter() >= end)

    def value(self, state):
        """(exact utility, True), or (None, False) when a limit stopped the search."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        self._end = None
        search = exact_search(self.kernel, state, self.limits.memory_mb)
        value = search.solve(self._budget(VALUE_NODES), self._seconds() or 0.0)
        return (kernel_utility(value), True) if value is not None else (None, False)
