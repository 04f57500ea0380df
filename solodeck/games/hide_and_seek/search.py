"""Hide and Seek's own open-mode solvers: the exact search over canonical lines
(CanonicalSolver, the reference) and the same search in the compiled kernel (KernelSolver,
ext/hide_and_seek.pyx), with the kernel's reading of the legal moves (kernel_moves)."""
from __future__ import annotations

import time

from ...api import Outcome, advance_chance
from ...result import Limits, SearchStopped, StopReason, finish_open
from .rules import CELL_SPACES, PAIR_OF, PAIRS, PLACES, REVEALS, SPACE_CELLS, WIN_SCORE, Move, suit


# -- open mode: the search over canonical lines ---------------------------------------------------
FINISH = ("finish",)


class CanonicalSolver:
    """Exact open-mode search over *canonical lines* (docs/rules/hide-and-seek.md, "How the solver
    plays it"). Delaying a reveal never lowers the score: until the first place into a space it
    frees, the guesses it would have scored wait in their spaces (another reveal may score them
    instead, the same count), and it may score guesses placed meanwhile. So some best line reveals
    only (a) just before placing the top card into a space that reveal frees, or (b) all at once
    at the end, where every live guess (beside a face-down playmate of its suit) scores whatever
    the order. A node is then one deck position; its choices: finish, place the top card (one
    space per interchangeable class), reveal one playmate and place into a space it freed, or
    withdraw. Values are the score still to come, so the table's key leaves the score out.

    The DepthFirstSolver interface: ``solve(state)``, ``value(state)``, ``nodes``, ``stored``.
    ``KernelSolver`` below runs the same search in C (ext/hide_and_seek.pyx)."""

    engine = "canonical"

    def __init__(self, game, limits=None, progress=None):
        self.game, self.limits, self.progress = game, limits or Limits(), progress
        self.table: dict = {}
        self.world = None
        self.nodes = 0
        self._deadline = None
        self._capacity = max(1024, int(self.limits.memory_mb * 2**20 / 400))

    # -- the interface -------------------------------------------------------------------------
    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        stop, line, won = None, [], False
        try:
            self._start(state)
            if state.outcome() is None:
                gain = self._root(state.pos, state.up, self._suits(state))
                line = self._line(state)
                won = state.score + gain >= WIN_SCORE
            else:
                won = state.outcome().won
        except SearchStopped as stopped:
            stop, line, won = stopped.reason, [], False
        return finish_open(self.game, state, line, won=won, stop=stop, nodes=self.nodes,
                           stored=self.stored, start=start, engine=self.engine)

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        try:
            self._start(state)
            self._check()
            total = state.score + self._root(state.pos, state.up, self._suits(state))
        except SearchStopped:
            return None, False
        return self.game.utility(Outcome(total >= WIN_SCORE, total)), True

    @property
    def stored(self):
        return len(self.table)

    # -- the search ----------------------------------------------------------------------------
    def _start(self, state):
        world = state.world
        if world != self.world:  # values depend on the world: a new world, a new table
            self.world = world
            self.table.clear()
            self.gs = tuple(suit(card) for card in world.grid)
            self.ds = tuple(suit(card) for card in world.deck)
            self.left = world.suits_from
            self._lives: dict = {}
        limit = self.limits.seconds()  # each solve() and value() has its own budget
        self._deadline = None if limit is None else time.perf_counter() + limit

    @staticmethod
    def _suits(state):
        return tuple(suit(card) if card >= 0 else -1 for card in state.spaces)

    def _live(self, up):
        """Per space, the mask of suits a guess there still scores with (a face-down playmate of
        that suit beside it); per suit how many of its playmates are face down; and per space and
        suit (index space * 4 + suit) how many face-down playmates of that suit are beside it."""
        got = self._lives.get(up)
        if got is None:
            gs = self.gs
            live, beside = [0] * 14, [0] * 56
            for p in range(14):
                for c in range(12):
                    if SPACE_CELLS[p] >> c & 1 and not up >> c & 1:
                        live[p] |= 1 << gs[c]  # a set of suits: or, never add
                        beside[p * 4 + gs[c]] += 1
            hidden = [0, 0, 0, 0]
            for c in range(12):
                if not up >> c & 1:
                    hidden[gs[c]] += 1
            got = self._lives[up] = (tuple(live), tuple(hidden), tuple(beside))
        return got

    def _check(self):
        if self.progress is not None:
            self.progress(self.nodes)
        self.limits.check(self._deadline, len(self.table))

    def _key(self, pos, up, sp):
        codes = bytearray()
        dead = []
        for a, b in PAIRS:
            x, y = sp[a] + 1, sp[b] + 1
            if SPACE_CELLS[a] & ~up:
                codes += bytes((x, y) if x <= y else (y, x))
            else:
                dead += (x, y)
        dead.sort()
        return pos, up, bytes(codes), bytes(dead)

    def _root(self, pos, up, sp):
        """The exact value by aspiration: first look only for the optimistic bound, then, after
        each fail-low, just below the upper bound that search proved."""
        alpha = self._search(pos, up, sp, 10**6) - 1  # above every value: returns the node's bound
        while True:
            value = self._search(pos, up, sp, alpha)
            if value > alpha or alpha < 0:
                return value
            alpha = value - 1

    def _search(self, pos, up, sp, alpha):
        """The most score still to come from the node, exact if above ``alpha``, else a bound at
        most ``alpha``."""
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self._check()
        live, hidden, _beside = self._live(up)
        sure = [0, 0, 0, 0]
        for p in range(14):
            s = sp[p]
            if s >= 0 and live[p] >> s & 1:
                sure[s] += 1
        finish = sure[0] + sure[1] + sure[2] + sure[3]
        if pos == len(self.ds):
            return finish
        left = self.left[pos]
        bound = sum(min(4 * hidden[s], sure[s] + left[s]) for s in range(4))
        if bound <= alpha or bound == finish:
            return bound
        key = self._key(pos, up, sp)
        entry = self.table.get(key)
        if entry is not None and (entry[1] or entry[0] <= alpha):
            return entry[0]
        best, choice = finish, FINISH
        for gain, nup, nsp, move in self._children(pos, up, sp, live):
            value = gain + self._search(pos + 1, nup, nsp, (best if best > alpha else alpha) - gain)
            if value > best:
                best, choice = value, move
                if best >= bound:
                    break
        if len(self.table) >= self._capacity:
            self.table.clear()  # a cache: a forgotten value is only searched again
        self.table[key] = (best, best > alpha, choice)
        return best

    def _children(self, pos, up, sp, live):
        """(score gained, up, spaces, choice) after each canonical choice at the node, best first:
        places where the card can score, beside the most face-down playmates of its suit first
        (the likeliest to be scored later; measured 3-5x fewer nodes than reveals first), then
        reveals that free such a space (most scored first), withdraws, then the rest. One space
        per interchangeable class."""
        t = self.ds[pos]
        bit = 1 << t
        beside = self._live(up)[2]
        good, rest = [], []
        seen = set()
        for p in range(14):
            if sp[p] < 0:
                cls = ("p", PAIR_OF[p] if SPACE_CELLS[p] & ~up else -1)
                if cls not in seen:
                    seen.add(cls)
                    nsp = sp[:p] + (t,) + sp[p + 1:]
                    (good if live[p] & bit else rest).append((-beside[p * 4 + t], 0, up, nsp, ("place", p)))
            elif sp[p] == t:
                cls = ("w", PAIR_OF[p] if SPACE_CELLS[p] & ~up else -1)
                if cls not in seen:
                    seen.add(cls)
                    rest.insert(0, (0, 0, up, sp[:p] + (-1,) + sp[p + 1:], ("withdraw", p)))
        gs = self.gs
        for x in range(12):
            if up >> x & 1:
                continue
            s = gs[x]
            hits = [p for p in CELL_SPACES[x] if sp[p] == s]
            if not hits:
                continue
            nup = up | 1 << x
            cleared = list(sp)
            for p in hits:
                cleared[p] = -1
            nlive = self._live(nup)[0]
            placed = set()
            for p in hits:
                cls = PAIR_OF[p] if SPACE_CELLS[p] & ~nup else -1
                if cls in placed:
                    continue
                placed.add(cls)
                nsp = list(cleared)
                nsp[p] = t
                child = (4 - len(hits), len(hits), nup, tuple(nsp), ("reveal", x, p))
                (good if nlive[p] & bit else rest).append(child)
        good.sort(key=lambda c: c[0])  # places (order -3..0) before reveals (order 0..3), stable
        for order, gain, nup, nsp, move in good + rest:
            yield gain, nup, nsp, move

    # -- the line ------------------------------------------------------------------------------
    def _line(self, state) -> list:
        """The best line as moves, following the table (re-searched where a bound was stored):
        each choice is matched to this position's own spaces (keys fold interchangeable spaces)."""
        line = []
        pos, up, sp = state.pos, state.up, self._suits(state)
        while True:
            choice = FINISH if pos == len(self.ds) else self._choice(pos, up, sp)
            if choice == FINISH:
                line += [REVEALS[c] for c in range(12) if not up >> c & 1]
                return line
            gain, up, sp, moves = self._apply(pos, up, sp, choice)
            line += moves
            pos += 1

    def _choice(self, pos, up, sp):
        """The best choice at the node, from the table (searched again if it holds a bound)."""
        entry = self.table.get(self._key(pos, up, sp))
        if entry is None or not entry[1]:
            self._search(pos, up, sp, -1)
            entry = self.table.get(self._key(pos, up, sp))
        return entry[2] if entry is not None else FINISH

    def _apply(self, pos, up, sp, choice):
        """The choice (found at a node with the same key) made here: (gain, up, spaces, moves)."""
        t = self.ds[pos]
        for gain, nup, nsp, move in self._children(pos, up, sp, self._live(up)[0]):
            if self._same(move, choice, up):
                moves = ([REVEALS[move[1]], PLACES[move[2]]] if move[0] == "reveal"
                         else [Move(move[0], move[1])])
                return gain, nup, nsp, moves
        raise AssertionError(f"no move here matches {choice} (top suit {t})")

    @staticmethod
    def _same(move, choice, up):
        if move[0] != choice[0] or (move[0] == "reveal" and move[1] != choice[1]):
            return False
        p, q = move[-1], choice[-1]
        after = up | (1 << move[1]) if move[0] == "reveal" else up
        cls = (lambda s: PAIR_OF[s] if SPACE_CELLS[s] & ~after else -1)
        return cls(p) == cls(q)


class KernelSolver(CanonicalSolver):
    """CanonicalSolver's search run by the compiled kernel (ext/hide_and_seek.pyx): the same
    nodes in the same order, about 40x faster. The line is still built here, from the kernel's
    choices."""

    engine = "canonical-kernel"

    def __init__(self, game, kernel, limits=None, progress=None):
        super().__init__(game, limits, progress)
        self.kernel_module, self.search = kernel, None
        self._nodes_before = 0

    @property
    def stored(self):
        return self.search.stored if self.search is not None else 0

    def _start(self, state):
        if state.world != self.world:  # a new world, a new kernel search (its table is the world's)
            super()._start(state)
            self._nodes_before = self.nodes
            self.search = self.kernel_module.Search(self.gs, self.ds, self.limits.memory_mb, 0.0,
                                                    self.limits.max_states or 0)
        self.search.restart_clock(self.limits.seconds() or 0.0)

    def _kernel(self, call, *args):
        try:
            return call(*args)
        except self.kernel_module.Stopped:
            raise SearchStopped(StopReason.from_code(self.search.stopped)) from None
        finally:
            self.nodes = self._nodes_before + self.search.nodes

    def _check(self):
        pass  # the kernel checks its limits itself

    def _root(self, pos, up, sp):
        return self._kernel(self.search.root, pos, up, sp)

    def _choice(self, pos, up, sp):
        code = self._kernel(self.search.choice, pos, up, sp)
        if code == self.kernel_module.FINISH_CHOICE:
            return FINISH
        if code >= 200:
            return ("reveal", (code - 200) // 16, (code - 200) % 16)
        return ("withdraw", code - 100) if code >= 100 else ("place", code)


def kernel_moves(kernel, state) -> list:
    """Game.kernel_moves at a decision: the kernel's legal moves (ext/hide_and_seek.pyx
    legal_moves) as Moves."""
    top = state.top()
    return [Move(kind, where) for kind, where in
            kernel.legal_moves(state.up, CanonicalSolver._suits(state), suit(top) if top >= 0 else -1)]
