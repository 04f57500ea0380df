"""Exact open-mode search for games whose positions can repeat (``Game.acyclic = False``).

The question is reachability: can a won position be reached? A depth-first search expands every
reachable position once per search (``index`` holds the ones met in this search), so it ends on a
cyclic graph and finds a win if there is one. A position is proven lost, and kept in the table
across searches, only when its strongly connected component is complete without a win (Tarjan):
everything it reaches has then been explored. Positions on a cycle through the path of a search
that found a win are proven nothing and are forgotten, so a position on a cycle is never stored
as lost by mistake.

The game helps through the state API, every hook exact (solodeck/api.py): ``safe_move()`` is
played without branching (a dominance: it never lowers the value), ``search_moves()`` drops
moves that cannot matter, ``restricted()`` offers stricter rules to try briefly first (a win
there is a win here), ``table_scope()`` says when the table must be cleared, and
``line_anchor()`` / ``transfer_line()`` map a stored line onto a twin position when keys fold
symmetries. ``prune=False`` turns the hooks off (safe moves, search_moves, the pre-search):
the plain reference the tests compare with.

**Games with a score** need the best reachable outcome, not just a win. The
value of a position is then the best, over every position it reaches, of the outcome there: a
finished game's, or ``stop_outcome()`` (what a line that makes no more progress is worth; the game
offers it only where the score never goes down, so it never exceeds what the position is worth
anyway). A maximum over a reachable set needs no components: one depth-first pass over the
positions reachable from the root (each entered once) keeps the best outcome met and the line to
it, and skips a position whose ``score_bound()`` cannot beat that best (the best only rises, so a
position skipped stays skippable). Exhaustive, it is exact; a limit keeps the best met, unproven.
Each solve is its own search: the values of positions other than the root are never known.
"""
from __future__ import annotations

import time

from solodeck.api import Outcome, advance_chance
from solodeck.result import Limits, SearchStopped, StopReason, finish_open

WIN, LOST = "win", "lost"
# A position in the table or on the search's path, measured with tracemalloc on the largest such game:
# 410-530 bytes (keys share the tuples of unchanged parts with their neighbours).
BYTES_PER_ENTRY = 600
VALUE_NODES = 100_000   # hint files: the positions each move's value may enter when no time limit is set
PRESEARCH_STATES = 20_000  # the pre-search under restricted() rules: a short look, then the real search
_CHECK_EVERY = 1024


def presearch(make_solver, state, limits: Limits, start: float):
    """A short search of ``state.restricted()`` (stricter rules whose moves are a subset): its
    SolveResult, or None if the game offers none. ``make_solver(limits)`` builds the engine; a
    win it finds is a win of ``state`` too, and the caller replays it under ``state``'s rules."""
    sub = state.restricted()
    if sub is None:
        return None
    budget = limits.seconds()
    left = None if budget is None else max(1e-9, budget - (time.perf_counter() - start))
    cap = PRESEARCH_STATES if limits.max_states is None else min(PRESEARCH_STATES, limits.max_states)
    return make_solver(Limits(left, cap, limits.memory_mb)).solve(sub)


def closure(state, prune: bool = True):
    """Chance takes the dealt outcome (open mode) and safe moves are played until none is left:
    (state, the moves played)."""
    state, played = advance_chance(state), []
    while prune:
        move = state.safe_move()
        if move is None:
            break
        played.append(move)
        state = advance_chance(state.play(move))
    return state, played


class ReachabilitySolver:
    """Exact search with DepthFirstSolver's interface (``solve``, ``value``) on a cyclic state graph."""

    def __init__(self, game, limits: Limits | None = None, progress=None, *, prune: bool = True):
        self.game, self.limits, self.progress, self.prune = game, limits or Limits(), progress, prune
        self.table: dict = {}  # key -> (WIN, line_anchor, moves to the win) or (LOST,)
        self._capacity = max(1024, int(self.limits.memory_mb * 2**20 / BYTES_PER_ENTRY))
        self.nodes = 0
        self.entered = set()  # games with a score: the positions the last search entered
        self.best = None  # games with a score: (utility, line), the best met by the last search
        self.first_win_seconds = None  # games with a score: when the last solve met its first win
        self._start = 0.0
        self._deadline = None
        self._node_end = None  # Limits.max_nodes: the node count at which the current value() stops
        self._scope = None  # the table_scope() the table's entries were found under

    def solve(self, state):
        start = time.perf_counter()
        if self.limits.seconds() is None:
            self._deadline = None  # a value() before may have set its own budget
        elif self._deadline is None:
            self._deadline = start + self.limits.seconds()
        if self.game.score_sense is not None:
            return self._solve_scored(state, start)
        pre = presearch(lambda lim: ReachabilitySolver(self.game, lim), state, self.limits, start) \
            if self.prune else None
        if pre is not None:
            self.nodes += pre.nodes
        stop = None
        try:
            if pre is not None and pre.verdict == "winnable":
                found, line = True, pre.line
            else:
                found, line = self._search(state)
        except SearchStopped as stopped:
            found, line, stop = False, [], stopped.reason
        return finish_open(self.game, state, line, won=found, stop=stop, nodes=self.nodes,
                           stored=len(self.table), start=start, engine="reach" if self.prune else "reach-unpruned")

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search. Each call has
        its own budget: Limits.value_nodes (the same on every machine), and the limits' time."""
        seconds, nodes = self.limits.seconds(), self.limits.value_nodes(VALUE_NODES)
        self._deadline = None if seconds is None else time.perf_counter() + seconds
        self._node_end = None if nodes is None else self.nodes + nodes
        try:
            if self.game.score_sense is not None:
                return self._best_reachable(state)[0], True
            found, _line = self._search(state)
        except SearchStopped:
            return None, False
        return self.game.utility(Outcome(True, None) if found else None), True

    # -- games with a score: the best outcome reachable ----------------------------------------
    def _solve_scored(self, state, start):
        self.best, self.first_win_seconds, self._start = None, None, start
        stop = None
        try:
            utility, line = self._best_reachable(state)
        except SearchStopped as stopped:
            stop = stopped.reason
            utility, line = self.best if self.best is not None else (None, [])
        return finish_open(self.game, state, line, won=bool(utility and utility[0] == 1), stop=stop,
                           nodes=self.nodes, stored=len(self.entered), start=start,
                           engine="reach" if self.prune else "reach-unpruned")

    def _worth(self, state):
        """The utility of stopping at ``state``: its outcome if the game is over, else what a line
        without progress from it is worth (None: such a line is worth nothing to count)."""
        outcome = state.outcome()
        if outcome is None:
            outcome = state.stop_outcome()
        return None if outcome is None else self.game.utility(outcome)

    def _best_reachable(self, root):
        """(the best utility reachable from ``root``, the line to it). ``self.best`` holds the
        best met so far, for a caller stopped by a limit."""
        game, prune = self.game, self.prune
        root, head = closure(root, prune)
        # Positions entered, so none is expanded twice: a cache. When it outgrows the memory cap it
        # keeps only the positions on the path (which stop cycles); a position forgotten is merely
        # entered again, and the maximum over what is reachable is the same.
        entered = self.entered = {root.key()}
        on_path = [root.key()]
        self.forgotten = 0
        best_value, best_line = self._worth(root) or game.utility(None), head
        self.best = best_value, best_line
        ceiling = game.bound_utility(root.score_bound()) if prune else None
        path = []  # the moves from root to the position being expanded
        frames = [(root, iter(self._expand(root)) if root.outcome() is None else iter(()), 0)]
        while frames:
            if ceiling is not None and best_value >= ceiling:
                break  # nothing reachable can beat it
            state, moves, depth = frames[-1]
            move = next(moves, None)
            if move is None:
                frames.pop()
                del on_path[len(frames):]
                continue
            self.nodes += 1
            if self._node_end is not None and self.nodes > self._node_end:
                raise SearchStopped(StopReason.MEMORY_LIMIT)
            if self.nodes % _CHECK_EVERY == 0:
                self._check(len(entered) if self.limits.max_states is not None else len(frames))
                if len(entered) > self._capacity:
                    self.forgotten += len(entered) - len(frames)
                    entered = self.entered = set(on_path)
            child, autos = closure(state.play(move), prune)
            key = child.key()
            if key in entered:
                continue
            if prune:
                bound = game.bound_utility(child.score_bound())
                if bound is not None and bound <= best_value:
                    continue  # entered or not, it cannot beat the best (and the best only rises)
            entered.add(key)
            del path[depth:]
            path.append([move] + autos)
            worth = self._worth(child)
            if worth is not None and worth > best_value:
                if worth[0] == 1 and best_value[0] != 1:
                    self.first_win_seconds = time.perf_counter() - self._start
                best_value, best_line = worth, head + [m for piece in path for m in piece]
                self.best = best_value, best_line
            if child.outcome() is None:
                frames.append((child, iter(self._expand(child)), depth + 1))
                on_path.append(key)
        return best_value, best_line

    # -- the search --------------------------------------------------------------------------
    def _expand(self, state):
        return state.search_moves() if self.prune else state.legal_moves()

    def _search(self, root):
        """(win reachable?, a winning line from ``root``)."""
        root, head = closure(root, self.prune)
        scope = root.table_scope()
        if scope != self._scope:
            self.table.clear()
            self._scope = scope
        table = self.table
        if root.won:
            return True, head
        entry = table.get(root.key())
        if entry is not None:
            return (True, head + self._line_from(root)) if entry[0] == WIN else (False, [])
        index = {}     # key -> discovery number, for the positions of this search not yet settled
        scc = []       # Tarjan's stack of unsettled keys
        # frame: [state, key, number, low, moves, next move, moves that led here]
        frames = []

        def enter(state, came_by):
            self.nodes += 1
            if self._node_end is not None and self.nodes > self._node_end:
                raise SearchStopped(StopReason.MEMORY_LIMIT)
            if self.nodes % _CHECK_EVERY == 0:
                self._check(len(index))
            if self.limits.max_states is not None and len(index) + len(self.table) >= self.limits.max_states:
                raise SearchStopped(StopReason.MEMORY_LIMIT)
            key = state.key()
            index[key] = n = len(index)
            scc.append(key)
            frames.append([state, key, n, n, self._expand(state), 0, came_by])

        enter(root, [])
        while frames:
            frame = frames[-1]
            state, key, number, low, moves, i, _came = frame
            if i < len(moves):
                frame[5] = i + 1
                child, autos = closure(state.play(moves[i]), self.prune)
                came_by = [moves[i]] + autos
                if child.won:
                    return True, self._finish(frames, head, came_by, [])
                ckey = child.key()
                entry = table.get(ckey)
                if entry is not None:
                    if entry[0] == WIN:
                        return True, self._finish(frames, head, came_by, self._line_from(child))
                    continue
                seen = index.get(ckey)
                if seen is not None:  # unsettled: on a cycle through the path, or settling
                    if seen < low:
                        frame[3] = seen
                    continue
                enter(child, came_by)
                continue
            frames.pop()
            if low == number:  # a complete component without a win: all of it is lost
                while True:
                    k = scc.pop()
                    del index[k]
                    self._store(k, (LOST,))
                    if k == key:
                        break
            elif frames and low < frames[-1][3]:
                frames[-1][3] = low
        return False, []

    def _finish(self, frames, head, came_by, tail):
        """The winning line along the path; every position on it is stored as a win with the
        rest of its line."""
        pieces = [f[6] for f in frames[1:]] + [came_by]
        line = [m for piece in pieces for m in piece] + tail
        done = len(head)
        full = head + line
        for f, piece in zip(frames, [[]] + pieces[:-1]):
            done += len(piece)
            self._store(f[1], (WIN, f[0].line_anchor(), full[done:]))
        return full

    def _line_from(self, state):
        """The stored winning line of a position in the table, mapped onto ``state`` (the key may
        fold symmetries: the line may have been stored by a twin position)."""
        _tag, anchor, moves = self.table[state.key()]
        return state.transfer_line(anchor, moves)

    def _store(self, key, entry):
        if len(self.table) >= self._capacity:
            self.table.clear()  # a cache: forgotten positions are only searched again
        self.table[key] = entry  # (max_states is checked as positions are entered)

    def _check(self, unsettled):
        if self.progress is not None:
            self.progress(self.nodes)
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchStopped(StopReason.TIMEOUT)
        if unsettled > self._capacity or (self.limits.max_states is not None
                                          and unsettled + len(self.table) > self.limits.max_states):
            raise SearchStopped(StopReason.MEMORY_LIMIT)  # the positions of the search itself cannot be dropped
