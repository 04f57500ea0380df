"""Foursquare's open mode in the compiled kernel (ext/foursquare.pyx): the shortest win by
iterative deepening (KernelSolver), and a state packed for the kernel."""
from __future__ import annotations

import time

from ...api import advance_chance
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


class KernelSolver:
    """Open mode in the kernel, with DepthFirstSolver's interface.

    The score is the cards left, so the best win is the one with the fewest placements. First
    the kernel looks for any win (a loss found here is proven); then it asks for a win within
    the fewest placements that could possibly do (one per missing pile), then one more, and so on
    (iterative deepening). The first budget that succeeds is the optimum; the failures before it
    are the proof. Most deals win at the bound, so the proof is often empty."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.limits, self.progress = game, limits, progress
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        line, exact = self._best(state)
        stop = None if exact else StopReason.from_code(self.search.stopped)
        return finish_open(self.game, state, line, won=bool(line) or state.won, stop=stop,
                           nodes=self.search.nodes, stored=self.search.stored, start=start, engine="kernel")

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
        """(the shortest winning line, or [] if there is none; proven?)"""
        if state.outcome() is not None:
            return [], True
        to_place = len(state.deck) + 1
        self.search.set_position(_kernel_piles(state), _kernel_deck(state))
        found = self._ask(to_place)
        if found != 1:
            return [], found == 0
        line = self._line(state, to_place)
        if line is None:
            return [], False
        fewest = to_place - state.score_bound()  # one placement per missing pile, at least one
        for budget in range(fewest, len(line)):
            found = self._ask(budget)
            if found == 1:
                shorter = self._line(state, budget)
                return (shorter, True) if shorter is not None else (line, False)
            if found == -1:
                return line, False
        return line, True

    def _ask(self, budget):
        found = self.search.win_within(budget)
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

