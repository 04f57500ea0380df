"""Foursquare's open mode in the compiled kernel (ext/foursquare.pyx): the shortest win by
iterative deepening (KernelSolver), and a state packed for the kernel."""
from __future__ import annotations

import time

from ...api import advance_chance, cannot_win
from ...result import StopReason, finish_open
from .rules import Place


def _kernel_piles(state):
    return [(x, y, v, up, h) for (x, y), (v, up, h) in state.piles.items()]


def _kernel_deck(state):
    return ([state.hand] if state.hand is not None else []) + list(state.deck)


def kernel_moves(kernel, state) -> list:
    """The kernel's legal placements of the drawn card, as Places."""
    search = kernel.Search(1.0)
    search.set_position(_kernel_piles(state), _kernel_deck(state))
    return [Place(x, y) for x, y in search.legal_moves(state.hand)]


VALUE_SECONDS = 1.0
# The cheap questions' share of a solve, in kernel nodes (about 3 s on one core); past it the
# solver looks for any win first, so a deal always gets a line, then closes the gap from below.
CHEAP_NODES = 2_000_000
STOP_QUESTION = 2  # the kernel's STOP_STATES: here, only ever the cheap phase's node limit


class KernelSolver:
    """Open mode in the kernel, with DepthFirstSolver's interface.

    The score is the cards left, so the best win is the one with the fewest placements. The
    kernel answers "a win within B placements?"; the solver asks from the fewest B that could do
    (one per missing pile) upwards, so the first "yes" is the optimum and the "no"s before it are
    the proof. Most deals win at that first B. Where those questions stop being cheap it asks
    for any win at all (a "no" proves the deal lost), then resumes the questions between: a
    stopped solve then still has its verdict and a line, and a proven bound on the best score."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.limits, self.progress = game, limits, progress
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        line, exact = self._best(state)
        stop = None if exact else StopReason.from_code(self.search.stopped)
        result = finish_open(self.game, state, line, won=bool(line) or state.won, stop=stop,
                             nodes=self.search.nodes, stored=self.search.stored, start=start, engine="kernel")
        result.score_bound = self.bound
        return result

    def value(self, state):
        """(exact utility, True) of a state, or (None, False) if a limit stopped the search.

        Hint files value every move of every decision, and after a poor move the proof of the
        best score can be long: without a time limit each value gets VALUE_SECONDS of its own."""
        state = advance_chance(state)
        if self.limits.time_limit is None:
            self.search.restart_clock(self.limits.seconds(VALUE_SECONDS))
        if state.outcome() is None:
            line, exact = self._best(state)
            if not exact:
                return None, False
            state = self.game.replay_moves(state, line)  # a proven loss: [] leaves it unfinished
        outcome = state.outcome()
        return self.game.utility(outcome if outcome is not None and outcome.won else None), True

    def _best(self, state):
        """(the shortest winning line, or [] if there is none; proven?). Sets ``self.bound``: the
        most cards a win could leave, proven (None if nothing is proven)."""
        self.bound = None
        if state.outcome() is not None:
            return [], True
        to_place = len(state.deck) + 1
        bound = state.score_bound()
        if cannot_win(bound):
            return [], True
        self.search.set_position(_kernel_piles(state), _kernel_deck(state))
        # 1. The cheap questions, while they stay cheap: a win within the fewest placements is the
        # best there is, and the cuts are strongest there. Each "no" proves one card less; the
        # table keeps every failure, so the next question starts from what the last one proved.
        budget = to_place - bound
        cheap_until = self.search.nodes + CHEAP_NODES
        while budget <= to_place:
            found = self._ask(budget, cheap_until)
            if found == 1:
                line = self._line(state, budget)
                return (line, True) if line is not None else ([], False)
            if found == -1:
                break
            budget += 1
        else:
            return [], True  # no win within every card left
        if self._stopped():
            return self._unproven([], to_place, budget)
        # 2. Any win at all (a "no" proves the deal lost), then 3. the questions between.
        found = self._ask(to_place)
        if found != 1:
            return ([], True) if found == 0 else self._unproven([], to_place, budget)
        line = self._line(state, to_place)
        if line is None:
            return self._unproven([], to_place, budget)
        for budget in range(budget, len(line)):
            found = self._ask(budget)
            if found == 1:
                shorter = self._line(state, budget)
                return (shorter, True) if shorter is not None else self._unproven(line, to_place, budget)
            if found == -1:
                return self._unproven(line, to_place, budget)
        return line, True

    def _unproven(self, line, to_place, budget):
        """A limit stopped the question for ``budget``: no win within fewer placements is proven."""
        self.bound = to_place - budget
        return line, False

    def _stopped(self):
        """Did the command's own limit stop the last question (not the cheap phase's share)?"""
        return self.search.stopped not in (0, STOP_QUESTION)

    def _ask(self, budget, node_limit=0):
        found = self.search.win_within(budget, node_limit)
        if self.progress is not None:
            self.progress(self.search.nodes)
        return found

    def _line(self, state, budget):
        """Follow winning moves within ``budget`` from ``state`` (mostly answered by the table);
        None if a limit stopped it. The kernel is back at ``state`` afterwards."""
        line = []
        while not self.search.is_won():
            move = self.search.first_winning_move(budget)
            if move is None:
                line = None
                break
            line.append(Place(*move))
            self.search.advance(*move)
            budget -= 1
        self.search.set_position(_kernel_piles(state), _kernel_deck(state), False)
        return line

