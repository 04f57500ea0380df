"""Dungeon's own open-mode solvers: the search in rounds (RoundSolver), the same in the compiled
kernel (KernelSolver, ext/dungeon.pyx), and the kernel's moves as Moves."""
from __future__ import annotations

import itertools
import math
import time
from functools import lru_cache

from ...api import Outcome, advance_chance
from ...result import Limits, SearchStopped, SolveResult, StopReason, finish_open
from ...shuffle import shuffled
from .rules import (CHOOSE, KING, ORIGIN, PAIR, ROUND_CARDS, Move, gap, meets, nearest, round_score, step_point,
                    value)

BEAMS = (64, 256, 1024)  # RoundSolver._beam: the positions kept per round in each quick look for a win
KERNEL_BEAMS = (64, 256, 1024, 4096, 16384)  # KernelSolver: the same quick looks in C (wider: C is fast)


def kernel_moves(kernel, state):
    """The kernel's reading of the decisions (ext/dungeon.pyx legal_moves) as moves; None without
    the kernel."""
    if kernel is None or state.result is not None or state.step not in (CHOOSE, PAIR):
        return None
    return [Move("monster", card) if kind == "monster" else Move("pair", pairs=pairs)
            for kind, card_or_pairs in kernel.legal_moves(state.step, list(state.offer), list(state.attacks),
                                                          list(state.hand))
            for card, pairs in [(card_or_pairs, ()) if kind == "monster" else (-1, card_or_pairs)]]


# -- the open-mode search, round by round ---------------------------------------------------------
@lru_cache(maxsize=1 << 15)
def reshuffled(cards: tuple, seed: int, stream: int) -> tuple:
    """The seeded reshuffle of a pile given sorted (RULINGS, Common)."""
    return tuple(shuffled(cards, seed, stream))


def round_scores(skill: int, monster: int, attacks, hand) -> list:
    """The distinct scores the six pairings of a round can make, highest first."""
    return _scores(skill, value(monster), tuple(sorted(map(value, attacks))), tuple(sorted(map(value, hand))))


@lru_cache(maxsize=1 << 16)
def _scores(skill: int, monster: int, attacks: tuple, hand: tuple) -> list:
    theirs = [monster + a for a in attacks]
    scores = set()
    for mine in itertools.permutations([skill + c for c in hand]):
        scores.add(sum((x > y) - (x < y) for x, y in zip(mine, theirs)))
    return sorted(scores, reverse=True)


class RoundSolver:
    """Exact open-mode search in the game's own terms (DepthFirstSolver's interface: ``solve``,
    ``value``). A node is the start of a round: the deck in its order, the reshuffles so far, the
    path and the offer's size; the rest of the game follows from it (docs/rules/dungeon.md, "How
    the solver plays it"). A round's choices are the monster among the offer and the round score
    among those the six pairings make (pairings with one score lead to one position).

    First, quick beams look for a win (``_beam``: a heuristic that proves nothing). Then iterative
    deepening on rounds: look for a win within B rounds for B = the fewest cards that could reach
    K♦, then one round more each time, up to every round the deck allows. A node whose path's
    points are all farther from K♦ than the rounds left in the budget is cut (each round adds at
    most one card, of length 1, and a winning path keeps this one up to some point). The table
    keeps, per node, the largest budget known to fail; a budget that covers every round the deck
    still allows is a proof. So the last deepening is an exhaustive search, and "unwinnable" is said only then."""

    def __init__(self, game, limits: Limits | None = None, progress=None):
        self.game, self.limits, self.progress = game, limits or Limits(), progress
        self.table: dict = {}
        self.rounds: dict = {}  # (deck, shuffles, extra) -> the round's choices (_expand)
        self.scope = None
        self.nodes = 0
        self._deadline = None
        self._capacity = max(1024, int(self.limits.memory_mb * 2**20 / 1000))

    # -- public ------------------------------------------------------------------------------
    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        state = advance_chance(state)
        stop, line = None, []
        try:
            line = self._find(state)
        except SearchStopped as stopped:
            stop, line = stopped.reason, None
        return finish_open(self.game, state, line or [], won=line is not None, stop=stop, nodes=self.nodes,
                           stored=len(self.table), start=start, engine="rounds")

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search."""
        state = advance_chance(state)
        try:
            line = self._find(state)
        except SearchStopped:
            return None, False
        return self.game.utility(Outcome(line is not None)), True

    # -- the search --------------------------------------------------------------------------
    def _find(self, state):
        """A winning line of moves from a decision state (or a finished one), or None if none exists."""
        self._start(state)
        if state.outcome() is not None:
            return [] if state.won else None
        for width in BEAMS:
            rounds = self._beam(state, width)
            if rounds is not None:
                return self._moves(state, rounds)
        return self._deepen(state)

    def _deepen(self, state):
        """Look for a win within B rounds for B = the fewest cards that could reach K♦, then one
        round more each time, up to every round the deck allows: a winning line, or None."""
        full = state.rounds_left()
        shortest = max(1, math.ceil(nearest(state.points, state.distance) - 1e-9))
        for budget in range(min(shortest, full), full + 1):
            rounds = self._mid(state, budget)
            if rounds is not None:
                return self._moves(state, rounds)
        return None

    def _start(self, state):
        scope = (state.seed, state.skill, state.distance)
        if scope != self.scope:
            self.table.clear()
            self.rounds.clear()
            self.scope = scope
        seconds = self.limits.seconds()
        if seconds is not None:
            self._deadline = time.perf_counter() + seconds

    def _mid(self, state, budget):
        """[(monster, score)] of a win within ``budget`` rounds from a decision mid-round, or None."""
        return self._finish_round(state, lambda after: self._round(after.deck, after.shuffles, after.path,
                                                                   after.points, after.extra, budget - 1))

    def _finish_round(self, state, rest):
        """[(monster, score)] of a win from a decision mid-round: each way to finish this round,
        then ``rest(after)`` (the rounds after it, or None) from the next round's start."""
        if state.step == CHOOSE:
            for move in state.search_moves():
                rounds = self._finish_round(advance_chance(state.play(move)), rest)
                if rounds is not None:
                    return [(move.card, rounds[0][1])] + rounds[1:]
            return None
        for move in state.search_moves():
            after = state.play(move)
            score = round_score(value(state.skill), state.monster, move.pairs)
            if after.won:
                return [(state.monster, score)]
            if after.result is None:
                rounds = rest(after)
                if rounds is not None:
                    return [(state.monster, score)] + rounds
        return None

    def _round(self, deck, shuffles, path, points, extra, budget):
        """[(monster, score)] of a win within ``budget`` rounds from the start of a round, or None."""
        rounds_left = len(deck) - ROUND_CARDS
        limit = min(budget, rounds_left)
        if limit <= 0:
            return None
        if nearest(points, self.scope[2]) > limit + 1e-9:
            return None
        key = (deck, shuffles, tuple(value(c) for c in path), extra)
        if self.table.get(key, -1) >= limit:
            return None
        self.nodes += 1
        if self.nodes % 256 == 0:
            self._check()
        children = self._children(deck, shuffles, path, points, extra)
        if children and children[0][0] < 0:  # a card that meets K♦
            return [children[0][3:5]]
        for *_order, monster, score, rest, after_shuffles, (cpath, cpoints, cextra) in children:
            rounds = self._round(reshuffled(rest, self.scope[0], after_shuffles), after_shuffles, cpath, cpoints,
                                 cextra, budget - 1)
            if rounds is not None:
                return [(monster, score)] + rounds
        if len(self.table) >= self._capacity:
            self.table.clear()  # a cache: a forgotten entry is only searched again
        if self.limits.max_states is not None and len(self.table) >= self.limits.max_states:
            raise SearchStopped(StopReason.MEMORY_LIMIT)
        self.table[key] = max(self.table.get(key, -1), limit)
        return None

    def _children(self, deck, shuffles, path, points, extra) -> list:
        """The round's outcomes, best first: (distance of the path's end from K♦ after it, -the
        next offer's extra cards, index, monster, score, the deck's cards after the round,
        the reshuffles after it, (path, points, extra) after it); one per position reached (e.g.
        scores -1 and -2 with an empty path reach one). A win comes first, its distance -1."""
        distance = self.scope[2]
        end = points[-1] if points else ORIGIN
        children, seen = [], set()
        for monster, scores, rest, after_shuffles in self._expand(deck, shuffles, extra):
            v = value(monster)
            for score in scores:
                if score > 0 and v != KING:
                    if meets(end, v, distance):
                        return [(-1.0, 0, 0, monster, score, rest, after_shuffles, None)]
                    child = (path + (monster,), points + (step_point(end, v),), score)
                elif score >= 0:
                    child = (path, points, score)
                else:
                    keep = max(0, len(path) + score)
                    child = (path[:keep], points[:keep], 0)
                twin = (rest, after_shuffles, tuple(value(c) for c in child[0]), child[2])
                if twin in seen:
                    continue
                seen.add(twin)
                far = gap(child[1][-1] if child[1] else ORIGIN, distance)
                children.append((far, -child[2], len(children), monster, score, rest, after_shuffles, child))
        children.sort()
        return children

    def _beam(self, state, width: int) -> list | None:
        """A quick look for a win before the exact search: round after round, only the ``width``
        positions whose path ends nearest K♦ are kept (a heuristic: it never proves a loss)."""
        layer = []
        if state.step == CHOOSE:
            starts = [advance_chance(state.play(m)) for m in state.legal_moves()]
        else:
            starts = [state]
        for pair in starts:
            for move in pair.search_moves():
                after = pair.play(move)
                first = [(pair.monster, round_score(value(pair.skill), pair.monster, move.pairs))]
                if after.won:
                    return first
                if after.result is None:
                    layer.append((gap(after.end(), after.distance), -after.extra, len(layer), after.deck,
                                  after.shuffles, after.path, after.points, after.extra, first))
        while layer:
            layer.sort(key=lambda n: n[:3])
            following = []
            for *_order, deck, shuffles, path, points, extra, line in layer[:width]:
                if len(deck) < 1 + ROUND_CARDS:
                    continue
                self.nodes += 1
                if self.nodes % 256 == 0:
                    self._check()
                for far, neg, _i, monster, score, rest, after_shuffles, child in self._children(deck, shuffles, path,
                                                                                                points, extra):
                    if child is None:
                        return line + [(monster, score)]
                    following.append((far, neg, len(following), reshuffled(rest, self.scope[0], after_shuffles),
                                      after_shuffles, *child, line + [(monster, score)]))
            layer = following
        return None

    def _expand(self, deck, shuffles, extra) -> list:
        """[(monster, the round's scores, the deck's cards after the round sorted, the reshuffles
        after it)] for each monster the round at ``deck`` may have: the same for every path."""
        key = (deck, shuffles, extra)
        rounds = self.rounds.get(key)
        if rounds is None:
            seed, skill = self.scope[0], value(self.scope[1])
            rounds = []
            for i, monster in enumerate(deck[:1 + extra]):
                rest = tuple(sorted(deck[:i] + deck[i + 1:]))
                if extra:  # the other offered cards went back and the deck was shuffled
                    fight, after_shuffles = reshuffled(rest, seed, shuffles + 1)[:ROUND_CARDS], shuffles + 2
                else:
                    fight, after_shuffles = deck[1:1 + ROUND_CARDS], shuffles + 1
                rounds.append((monster, round_scores(skill, monster, fight[:3], fight[3:]), rest, after_shuffles))
            if len(self.rounds) >= self._capacity:
                self.rounds.clear()
            self.rounds[key] = rounds
        return rounds

    def _check(self):
        if self.progress is not None:
            self.progress(self.nodes)
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchStopped(StopReason.TIMEOUT)

    def _moves(self, state, rounds) -> list:
        """The moves of a line given as [(monster, round score)], played from ``state``."""
        line = []
        for monster, score in rounds:
            state = advance_chance(state)
            if state.step == CHOOSE:
                line.append(Move("monster", monster))
                state = advance_chance(state.play(line[-1]))
            line.append(state.round_outcomes()[score])
            state = state.play(line[-1])
        return line



class _ProbeEnd(Exception):
    """A probe of KernelSolver reached its node cap: the next probe follows."""


class KernelSolver(RoundSolver):
    """RoundSolver's exact search with the rounds searched in C (ext/dungeon.pyx): the same nodes
    (round starts) and distance cut, plus the kernel's exact cuts (the highest positive score only,
    the cut-back bound, the path keyed by its live points; docs/rules/dungeon.md, "How the solver
    plays it"). Quick beams in C first (``widths``), then one search with the whole deck as the
    budget (no deepening: any win is the answer). The first round of a mid-round position is
    played here (RoundSolver._mid), the rounds after it in the kernel. The line is rebuilt from
    the kernel's [(monster, score)] and replayed under the reference engine before it is reported."""

    engine = "rounds-kernel"

    def __init__(self, game, kernel, limits=None, progress=None):
        super().__init__(game, limits, progress)
        self.kernel_module, self.search = kernel, None
        self._nodes_before = 0

    def solve(self, state) -> SolveResult:
        result = super().solve(state)
        result.engine = self.engine
        result.unique_states = self.search.stored if self.search is not None else 0
        return result

    def _start(self, state):
        scope = (state.seed, state.skill, state.distance)
        if scope != self.scope or self.search is None:
            self.scope = scope
            self._nodes_before = self.nodes
            self.search = self.kernel_module.Search(state.seed, value(state.skill), state.distance,
                                                    self.limits.memory_mb, 0.0, self.limits.max_states or 0)
            self.search.gain_horizon = self.gain_horizon
            self.search.use_bounds = self.cuts
            self.search.order_mode = self.order_mode
        self.search.restart_clock(self.limits.seconds() or 0.0)
        self.search.node_cap = 0

    def _find(self, state):
        self._start(state)
        if state.outcome() is not None:
            return [] if state.won else None
        for width in self.widths:
            rounds = self._kernel_beam(state, width)
            if rounds is not None:
                return self._moves(state, rounds)
        if self.deepening:
            return self._deepen(state)
        full = state.rounds_left()
        probe = self.first_probe
        while True:  # probes in turn with each order of the children, the table shared, each pass twice as long
            for order in self.orders:
                self.search.order_mode = order
                self.search.node_cap = self.search.nodes + probe if probe else 0
                try:
                    rounds = self._mid(state, full)
                except _ProbeEnd:
                    continue
                return self._moves(state, rounds) if rounds is not None else None
            probe = probe * 2 if probe < (1 << 40) else 0

    deepening = False      # True: deepen on rounds as RoundSolver does (slower in C: see the docs)
    gain_horizon = 0       # the kernel's trajectory bound at nodes this near the end (0: off, see the docs)
    order_mode = 0
    orders = (0, 2, 3)     # the probes' orders of the children (ext/dungeon.pyx node)
    first_probe = 0        # nodes of the first probes (0: one search in order 0, no probes; see the docs)
    cuts = True            # False: no distance or cut-back bound (the tests compare)
    widths = KERNEL_BEAMS

    def _kernel_beam(self, state, width):
        """[(monster, score)] of a win found by the kernel's beam from each first-round outcome, or None."""
        def rest(after):
            found = self._call(self.search.beam, list(after.deck), after.shuffles, [value(c) for c in after.path],
                               after.extra, width)
            return self.search.line() if found else None

        return self._finish_round(state, rest)

    def _call(self, call, *args):
        """A kernel search: a probe's end raises _ProbeEnd, a limit SearchStopped; the nodes counted."""
        try:
            return call(*args)
        except self.kernel_module.Stopped:
            if self.search.stopped == self.kernel_module.PROBE_STOP:
                raise _ProbeEnd() from None
            raise SearchStopped(StopReason.from_code(self.search.stopped)) from None
        finally:
            self.nodes = self._nodes_before + self.search.nodes

    def _round(self, deck, shuffles, path, points, extra, budget):
        if budget <= 0:
            return None
        found = self._call(self.search.round, list(deck), shuffles, [value(c) for c in path], extra, budget)
        return self.search.line() if found else None
