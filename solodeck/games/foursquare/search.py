"""Foursquare's open mode in the compiled kernel (ext/foursquare.pyx), helped from a deal's start
by the CP-SAT model of encodings/foursquare.py: the shortest win by iterative deepening
(KernelSolver), and a state packed for the kernel."""
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


VALUE_NODES = 1_000_000  # hint files: the nodes each value may search when no time limit is set
# The cheap questions' share of a solve, in kernel nodes (about half a second on one core): most
# deals are proven within it; past it the CP-SAT model asks the questions (from a deal's start).
CHEAP_NODES = 300_000
# Under a time limit, the part the model leaves to the kernel's search for any win at all, so
# that a stopped solve still has its verdict.
ANY_WIN_SHARE = 0.25
STOP_QUESTION = 2  # the kernel's STOP_STATES: the cheap phase's node limit (or a --max-states)
# The CP-SAT model's share of work for each question past the cheap ones, in its deterministic
# time (the same on every machine; a unit is about half a second to a second of one core).
MODEL_WORK = 30.0


def _deal_cards(state):
    """The values in play order from a deal's start (the first card alone on the grid, the next
    one drawn), where the CP-SAT model asks; None elsewhere."""
    if len(state.piles) != 1 or state.hand is None or state.piles.get((0, 0)) is None:
        return None
    value, up, height = state.piles[(0, 0)]
    return [value, state.hand, *state.deck] if up and height == 1 else None


class KernelSolver:
    """Open mode in the kernel, with DepthFirstSolver's interface.

    The score is the cards left, so the best win is the one with the fewest placements. The
    kernel answers "a win within B placements?"; the solver asks from the fewest B that could do
    (one per missing pile) upwards, so the first "yes" is the optimum and the "no"s before it are
    the proof. Most deals win at that first B. Where those questions stop being cheap, the CP-SAT
    model goes on asking them from a deal's start (each within MODEL_WORK); where it stops too, the
    kernel asks for any win at all (a "no" proves the deal lost), then resumes the questions
    between: a stopped solve still has its verdict and a line, and a proven bound on the score."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.limits, self.progress = game, limits, progress
        self.deadline, self.stop, self.engine = None, None, "kernel"
        self.node_end = 0  # value(): the kernel's node count that ends its search (0: none)
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)

    def solve(self, state):
        start = time.perf_counter()
        seconds = self.limits.seconds()
        self.deadline = None if seconds is None else start + seconds
        state = advance_chance(state)
        line, exact = self._best(state)
        stop = None if exact else (self.stop or StopReason.from_code(self.search.stopped))
        result = finish_open(self.game, state, line, won=bool(line) or state.won, stop=stop,
                             nodes=self.search.nodes, stored=self.search.stored, start=start, engine=self.engine)
        result.score_bound = self.bound
        return result

    def value(self, state):
        """(exact utility, True) of a state, or (None, False) if a limit stopped the search.

        Hint files value every move of every decision, and after a poor move the proof of the
        best score can be long: each value gets Limits.value_nodes of its own (the same on every
        machine), and the limits' time."""
        state = advance_chance(state)
        seconds, nodes = self.limits.seconds(), self.limits.value_nodes(VALUE_NODES)
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        if self.limits.time_limit is None:
            self.search.restart_clock(seconds or 0.0)
        if state.outcome() is None:
            self.node_end = 0 if nodes is None else self.search.nodes + nodes
            try:
                line, exact = self._best(state)
            finally:
                self.node_end = 0
            if not exact:
                return None, False
            state = self.game.replay_moves(state, line)  # a proven loss: [] leaves it unfinished
        outcome = state.outcome()
        return self.game.utility(outcome if outcome is not None and outcome.won else None), True

    def _best(self, state):
        """(the shortest winning line, or [] if there is none; proven?). Sets ``self.bound``: the
        most cards a win could leave, proven (None if nothing is proven)."""
        self.bound, self.stop, self.engine = None, None, "kernel"
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
                return (line, True) if line is not None else self._unproven([], to_place, budget)
            if found == -1:
                break
            budget += 1
        else:
            return [], True  # no win within every card left
        if self._stopped():
            return self._unproven([], to_place, budget)
        # 2. From a deal's start, the same questions to the CP-SAT model, while each stays
        # within its share of work.
        cards = _deal_cards(state)
        if cards is not None:
            from ...encodings.foursquare import win_in_exactly  # OR-tools loads only when a deal needs it

            self.engine = "kernel+cpsat"
        while cards is not None and budget <= to_place:
            answer, places = win_in_exactly(cards[:budget + 1], self._seconds_left(ANY_WIN_SHARE), MODEL_WORK)
            if answer == "yes":
                return [Place(x, y) for x, y in places], True
            if answer == "unknown":
                break
            budget += 1
        else:
            if cards is not None:
                return [], True
        # 3. Any win at all (a "no" proves the deal lost), then the questions between.
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

    def _seconds_left(self, keep=0.0):
        """What the command's time limit leaves, less ``keep`` of the limit (None: no limit)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - keep * self.limits.seconds() - time.perf_counter())

    def _stopped(self):
        """Did the command's own limit, or a value's nodes, stop the last question (not the cheap
        phase's share)?"""
        return self.search.stopped not in (0, STOP_QUESTION) or 0 < self.node_end <= self.search.nodes

    def _ask(self, budget, node_limit=0):
        if self.node_end:
            node_limit = min(node_limit or self.node_end, self.node_end)
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

