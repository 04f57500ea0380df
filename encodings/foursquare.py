"""Foursquare's question "a win in exactly B placements?" from a deal's start, as an OR-tools
CP-SAT model. The kernel's depth-first search (ext/foursquare.pyx) answers the cheap questions in
milliseconds; where its proof that no win is shorter runs to tens of millions of positions, this
model answers in seconds (docs/rules/foursquare.md, "How the solver plays it").

**What is modelled.** The grid is a 4 x 4 frame: a win fills one, and no legal line ever leaves
the frame it ends in. The first card lies at one of 3 cells, a corner (0, 0), an edge (1, 0) or a
centre (1, 1): the 8 symmetries of the square carry every other cell onto one of these (ruling 7).
A corner or a centre stays in place under the diagonal reflection, so of the first placement and
its mirror image only one is asked for.
``cards[0]`` starts the grid, ``cards[t]`` is placed at step t = 1 ... B, all known (open mode).

**Variables**, for each step t and cell c:

- ``at[t][c]``: card t goes on cell c (exactly one per step);
- ``filled[t][c]`` and ``up[t][c]``: a pile there after step t, and its top face up;
- ``top[t][c][v]``: its top has value v (a top under another card never matters again).

**Rules as constraints.** A new pile needs a pile next to it; a pile holds at most 4 cards (at
most 4 placements on a cell, the first card included). The placed card is face up. Row y flips at
step t when card t goes in row y and every other face-up top of the row is below card t, or every
one is above it (none at all satisfies both): the strict extreme of the rule. The same for column
x. A top that stays is turned over once per flip of its row and of its column (a sum modulo 2).
After every step at most 4 tops are face down; after step B all 16 cells hold a face-up top.

**Why the answers are exact.** Every line of B placements that ends in a win is a solution (its
cells, its tops and flips), and every solution is such a line: each step's cell is legal, the
flips are the rule's, the cap holds after each step. So INFEASIBLE proves no win in exactly B
placements; the caller asks B upwards from a proven lower bound, so the first FEASIBLE B is the
best score. A line decoded from a solution is replayed under the reference engine before it is
believed (finish_open).
"""
from __future__ import annotations

from ortools.sat.python import cp_model

SIDE = 4
CELLS = [(x, y) for y in range(SIDE) for x in range(SIDE)]
FIRST_CELLS = ((0, 0), (1, 0), (1, 1))  # a corner, an edge, a centre: every cell up to symmetry
MAX_HEIGHT = 4
MAX_FACE_DOWN = 4


class _Literals:
    """Boolean helpers over literals that may be the constants True or False."""

    def __init__(self, model):
        self.m = model

    def any(self, lits):
        lits = [x for x in lits if x is not False]
        if any(x is True for x in lits):
            return True
        if not lits:
            return False
        if len(lits) == 1:
            return lits[0]
        out = self.m.new_bool_var("")
        self.m.add_bool_or(lits).only_enforce_if(out)
        for x in lits:
            self.m.add_implication(x, out)
        return out

    def all(self, lits):
        if any(x is False for x in lits):
            return False
        lits = [x for x in lits if x is not True]
        if not lits:
            return True
        if len(lits) == 1:
            return lits[0]
        out = self.m.new_bool_var("")
        self.m.add_bool_and(lits).only_enforce_if(out)
        self.m.add_bool_or([x.Not() for x in lits] + [out])
        return out

    @staticmethod
    def negated(x):
        return (not x) if isinstance(x, bool) else x.Not()


def _neighbours(c):
    x, y = CELLS[c]
    return [CELLS.index((x + dx, y + dy)) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE]


class WinInExactly:
    """The model "``cards[0]`` starts the grid, cards 1 ... B are placed in order, and the grid
    is full and face up right after the last", B = len(cards) - 1. Given a ``grid`` instead
    ({(x, y): (top, face up, height)}, cells within the frame 0 ... 3, which the tests use for
    endgames), every card of ``cards`` is placed on it: B = len(cards)."""

    def __init__(self, cards, grid=None, first_cells=FIRST_CELLS):
        m = self.model = cp_model.CpModel()
        lit = _Literals(m)
        cells = range(len(CELLS))
        if grid is None:
            self.cards = list(cards)
            self.first = {c: m.new_bool_var(f"first{c}") for c in cells if CELLS[c] in first_cells}
            m.add_exactly_one(self.first.values())
            filled = [self.first.get(c, False) for c in cells]
            up = list(filled)
            top = [[filled[c] if v == self.cards[0] else False for v in range(11)] for c in cells]
            height = [self.first.get(c, 0) for c in cells]
        else:
            self.cards = [None, *cards]  # step t places cards[t - 1]
            self.first = {}
            piles = [grid.get(cell) for cell in CELLS]
            filled = [pile is not None for pile in piles]
            up = [pile is not None and bool(pile[1]) for pile in piles]
            top = [[pile is not None and pile[0] == v for v in range(11)] for pile in piles]
            height = [pile[2] if pile is not None else 0 for pile in piles]
        self.at = []
        for t in range(1, len(self.cards)):
            v = self.cards[t]
            at = [m.new_bool_var(f"at{t}_{c}") for c in cells]
            self.at.append(at)
            m.add_exactly_one(at)
            if t == 1:  # the diagonal reflection keeps a corner or a centre first card in place:
                # of two mirror images of the first placement, ask for one only
                for first_cell, mirrored in (((0, 0), (0, 1)), ((1, 1), (1, 2)), ((1, 1), (1, 0))):
                    if CELLS.index(first_cell) in self.first:
                        m.add_implication(self.first[CELLS.index(first_cell)], at[CELLS.index(mirrored)].Not())
            for c in cells:  # a new pile goes next to a pile
                touching = [filled[d] for d in _neighbours(c) if filled[d] is not False]
                if filled[c] is True:
                    continue
                m.add_bool_or(touching + ([filled[c]] if filled[c] is not False else [])).only_enforce_if(at[c])
            below = [lit.any(top[c][1:v]) for c in cells]
            above = [lit.any(top[c][v + 1:]) for c in cells]
            flips = {}
            for axis in (0, 1):  # 0: columns, 1: rows
                for k in range(SIDE):
                    line = [c for c in cells if CELLS[c][axis] == k]
                    placed_here = lit.any([at[c] for c in line])
                    extreme = lit.any([
                        lit.negated(lit.any([lit.all([up[d], lit.negated(side[d]), at[d].Not()]) for d in line]))
                        for side in (below, above)])
                    flips[axis, k] = lit.all([placed_here, extreme])
            new_filled, new_up, new_top = [], [], []
            for c in cells:
                x, y = CELLS[c]
                u = m.new_bool_var("")
                m.add(u == 1).only_enforce_if(at[c])
                toggles = [t_ for t_ in (up[c], flips[1, y], flips[0, x]) if t_ is not False]
                carry = m.new_int_var(0, 1, "")
                if filled[c] is False:
                    m.add(u == 0).only_enforce_if(at[c].Not())
                else:  # a top that stays: turned over once per flip of its row and of its column
                    stays = [at[c].Not()] + ([filled[c]] if filled[c] is not True else [])
                    m.add(sum(toggles) == 2 * carry + u).only_enforce_if(stays)
                    if filled[c] is not True:
                        m.add(u == 0).only_enforce_if([at[c].Not(), filled[c].Not()])
                new_up.append(u)
                new_filled.append(True if filled[c] is True else lit.any([filled[c], at[c]]))
                new_top.append([lit.any([at[c], lit.all([top[c][w], at[c].Not()])]) if w == v
                                else lit.all([top[c][w], at[c].Not()]) for w in range(11)])
            filled, up, top = new_filled, new_up, new_top
            m.add(sum(f for f in filled if f is not False) - sum(up) <= MAX_FACE_DOWN)
        if not self.at:
            raise ValueError("a win needs at least one placement")
        missing = len(CELLS) - 1 if grid is None else len(CELLS) - len(grid)
        spare = max(len(self.at) - missing, 0)  # placements that cover a pile instead of starting one
        for c in cells:
            cards_here = sum(at[c] for at in self.at) + height[c]
            m.add(cards_here >= 1)  # redundant (the grid ends full), but it guides the search
            already = height[c] if grid is not None and height[c] else 1
            m.add(cards_here <= min(MAX_HEIGHT, already + spare))
            if filled[c] is not True:
                m.add(filled[c] == 1)
            m.add(up[c] == 1)

    def line(self, solver) -> list:
        """The solution's placements as (x, y) relative to the first card (on a given grid: in
        the grid's own coordinates)."""
        ox, oy = next((CELLS[c] for c, x in self.first.items() if solver.value(x)), (0, 0))
        return [(CELLS[c][0] - ox, CELLS[c][1] - oy)
                for at in self.at for c in range(len(CELLS)) if solver.value(at[c])]


def win_in_exactly(cards, seconds: float | None = None, work: float | None = None, grid=None):
    """("yes", line) / ("no", None) / ("unknown", None): can the deal whose first ``len(cards)``
    cards are ``cards`` be won in exactly len(cards) - 1 placements (on a ``grid``: in exactly
    len(cards))? ``work``: CP-SAT's deterministic time budget (the same on every machine);
    ``seconds``: a wall-clock cap (the command's --time-limit)."""
    model = WinInExactly(cards, grid)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 0  # pure propagation: 2-10 times faster on these
    if work is not None:
        solver.parameters.max_deterministic_time = work
    if seconds is not None:
        solver.parameters.max_time_in_seconds = max(seconds, 0.001)
    code = solver.solve(model.model)
    if code == cp_model.MODEL_INVALID:
        raise AssertionError("internal error: the Foursquare CP-SAT model is invalid")
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "yes", model.line(solver)
    return ("no", None) if code == cp_model.INFEASIBLE else ("unknown", None)
