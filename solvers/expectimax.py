"""Blind mode: expectimax over chance nodes weighted by the composition of the unseen cards.

The player sees what the rules show and knows which cards are left, not their order. The value
of a state is a pair (P(win), E[score x win]) under best play:

- at a decision, the best child: higher win probability first, then the expected score of wins;
- at a chance node (a draw), the mean of the outcomes weighted by how many unseen cards give each;
- at the end, (1, score) for a win and (0, 0) for a loss.

E[score x win] is kept rather than E[score | win] because it averages linearly over chance;
``expected_score = E[score x win] / P(win)`` is what is reported. A table on ``state.view()``
(what the player sees: the key, in games whose only unseen cards are draws) shares
transpositions. Values are exact, as far as floating point allows, when the whole tree is
searched. A limit stops the search and the result says so; solvers/rollouts.py estimates beyond
that. A game may offer a compiled valuer (``game.fast_expectimax``, a compiled kernel's): it
then values whole subtrees.

Hidden faces (face-down cards) are chance nodes where they are turned up: the
outcomes are the unseen cards the view allows, so the search never reads a hidden face.

**Positions that repeat** (``Game.acyclic = False``): the search keeps Tarjan's strongly connected
components. Within a component every position reaches every other by moves alone, so all of
them have the value of its best way out: that value is stored for the whole component when it is
complete, and nothing on an unfinished cycle is stored. A chance node on a cycle (a draw that
could be undone) would need value iteration instead and is refused.
"""
from __future__ import annotations

import time

from solodeck.api import cannot_win
from solodeck.errors import UnsupportedError
from solodeck.result import (Limits, SearchStopped, SolveResult, Status, StopReason, Verdict,
                             finish_blind)
from .dfs import BYTES_PER_ENTRY

LOSS = (0.0, 0.0)
_SETTLED = float("inf")  # the "low link" of a value that depends on no position of the current path
_TIE = 1e-12           # win probabilities closer than this are equal: the score decides
_CHECK_EVERY = 2048


def better(a, b, lower: bool = False) -> bool:
    """Is value a = (P(win), E[score x win]) strictly better than b? ``lower``: the game's
    score is better lower (game.score_sense), so among equal win chances the smaller score wins."""
    if abs(a[0] - b[0]) > _TIE:
        return a[0] > b[0]
    return a[1] < b[1] - _TIE if lower else a[1] > b[1] + _TIE


class ExpectimaxSolver:
    def __init__(self, game, limits: Limits | None = None, progress=None, *, use_kernel: bool = True):
        self.game, self.limits, self.progress = game, limits or Limits(), progress
        self.lower = game.score_sense == "lower"
        # A compiled exact valuer (the game's kernel), or None: then everything runs here.
        self.kernel = game.fast_expectimax(self.limits) if use_kernel else None
        self.table: dict = {}
        self._capacity = max(1024, int(self.limits.memory_mb * 2**20 / BYTES_PER_ENTRY))
        self.nodes = 0
        self._deadline = None
        self._stopped = None  # why a limit stopped the last ranking, if one did
        self._index: dict = {}  # view -> discovery number, for the positions of the current path's components
        self._component: list = []  # Tarjan's stack of those views

    def value(self, state):
        """(P(win), E[score x win]) of a state under best blind play; raises nothing, returns
        None if a limit stopped the search."""
        self._start()
        try:
            return self._root_value(state)
        except SearchStopped:
            return None

    def ranked_moves(self, state):
        """[(move, value)] of a decision state, best first (None values: a limit stopped us)."""
        self._start()
        self._stopped = None
        ranked = []
        for move in state.legal_moves():
            if self._stopped is not None:  # the limit that stopped one move would stop the rest
                ranked.append((move, None))
                continue
            try:
                ranked.append((move, self._root_value(state.play(move))))
            except SearchStopped as stop:
                self._stopped = stop.reason
                ranked.append((move, None))
        sign = -1 if self.lower else 1
        ranked.sort(key=lambda mv: (mv[1] is not None, (mv[1] or LOSS)[0], sign * (mv[1] or LOSS)[1]), reverse=True)
        return ranked

    def solve(self, state) -> SolveResult:
        """The best move now, its value and the ranked alternatives, as a SolveResult (mode blind)."""
        start = time.perf_counter()
        self._start()
        try:
            if state.is_chance() or state.outcome() is not None:  # no decision yet: just the value
                return self._result(self._root_value(state), [], start)
            ranked = self.ranked_moves(state)
        except SearchStopped as stop:
            return self._result(None, [], start, Status(stop.reason))
        exact = all(v is not None for _m, v in ranked)
        return self._result(ranked[0][1] if exact else None, ranked, start,
                            Status.SOLVED if exact else Status(self._stopped))

    @property
    def total_nodes(self):
        return self.nodes + (self.kernel.nodes if self.kernel else 0)

    @property
    def stored(self):
        return len(self.table) + (self.kernel.stored if self.kernel else 0)

    # -- the search --------------------------------------------------------------------------
    def _start(self):
        if self._deadline is None and self.limits.seconds() is not None:
            self._deadline = time.perf_counter() + self.limits.seconds()

    def _root_value(self, state):
        self._index.clear()  # a search a limit stopped may have left its path behind
        self._component.clear()
        try:
            return self._value(state)[0]
        except RecursionError:  # a path deeper than Python's stack (long cyclic games): a limit
            raise SearchStopped(StopReason.MEMORY_LIMIT) from None

    def _value(self, state):
        """(value, low): the value of ``state`` and the smallest discovery number of a position
        of the current path it depends on (_SETTLED: none, the value is final). A value that
        depends on the path is only the best way out found so far (see the module's note)."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            if self.progress is not None:
                self.progress(self.nodes)
            if self._deadline is not None and time.perf_counter() > self._deadline:
                raise SearchStopped(StopReason.TIMEOUT)
        outcome = state.outcome()
        if outcome is not None:
            return ((1.0, float(outcome.score or 0)) if outcome.won else LOSS), _SETTLED
        if cannot_win(state.blind_score_bound()):  # no order of the unseen cards can still win
            return LOSS, _SETTLED
        if self.kernel is not None and self.kernel.accepts(state):
            value = self.kernel.value(state)
            if value is None:
                raise SearchStopped(self.kernel.status)
            return value, _SETTLED
        key = state.view()
        cached = self.table.get(key)
        if cached is not None:
            return cached, _SETTLED
        number = self._index.get(key)
        if number is not None:  # on the current path: a cycle, no way out of its own
            return LOSS, number
        if self.limits.max_states is not None and len(self.table) + len(self._index) >= self.limits.max_states:
            raise SearchStopped(StopReason.MEMORY_LIMIT)  # the positions on unfinished cycles count too
        number = self._index[key] = len(self._index)
        self._component.append(key)
        low = _SETTLED
        if state.is_chance():
            # A draw of several cards can have too many outcomes to list (four cards of 44: C(44, 4)):
            # a state may say how many (chance_count) so a state budget stops before listing them.
            count = state.chance_count()
            if count is not None and self.limits.max_states is not None and count > self.limits.max_states:
                raise SearchStopped(StopReason.MEMORY_LIMIT)
            outcomes = state.chance_outcomes()
            total = sum(w for _o, w in outcomes)
            p = s = 0.0
            for outcome_value, weight in outcomes:
                (cp, cs), child_low = self._value(state.apply_chance(outcome_value))
                if child_low <= number:
                    raise UnsupportedError(f"{self.game.name}: a draw on a cycle of positions; blind mode "
                                           "needs every draw to be final")
                p += weight * cp
                s += weight * cs
            value = (p / total, s / total)
        else:
            value = LOSS
            for move in state.legal_moves():
                child, child_low = self._value(state.play(move))
                low = min(low, child_low)
                if better(child, value, self.lower):
                    value = child
        if low < number:  # on a cycle through the path: its value is not known yet
            return value, low
        # The root of a component: every position in it has its best way out (the positions of
        # the component were searched from here, so ``value`` is the best of them all).
        while True:
            member = self._component.pop()
            del self._index[member]
            self._store(member, value)
            if member == key:
                return value, _SETTLED

    def _store(self, key, value):
        if self.limits.max_states is not None and len(self.table) >= self.limits.max_states:
            raise SearchStopped(StopReason.MEMORY_LIMIT)
        if len(self.table) >= self._capacity:
            self.table.clear()  # a cache: a forgotten value is only searched again
        self.table[key] = value

    def _result(self, value, ranked, start, status=Status.SOLVED):
        p = value[0] if value is not None else None
        return finish_blind(
            self.game, status=status,
            verdict=Verdict.UNKNOWN if value is None else (Verdict.WINNABLE if p > 0 else Verdict.UNWINNABLE),
            exact=value is not None, line=[ranked[0][0]] if ranked else [], start=start, nodes=self.total_nodes,
            stored=self.stored, engine="expectimax" + (" (kernel)" if self.kernel else ""),
            win_probability=p, expected_score=_expected_score(value),
            ranked=[{"move": str(m), "win_probability": None if v is None else v[0],
                     "expected_score": _expected_score(v)} for m, v in ranked])


def _expected_score(value):
    """E[score | win] from (P(win), E[score x win]); None without a win."""
    return value[1] / value[0] if value is not None and value[0] > 0 else None
