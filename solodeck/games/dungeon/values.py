"""The Dungeon's value table: the blind rule's rollouts read it (docs/rules/dungeon.md, "The
value-table rule"). The pure-Python reference; ext/dungeon.pyx ``value_table`` builds the same
table in C, operation for operation (the tests compare them bit for bit on a small grid).

The abstraction: a round start is (the path's end, snapped to a grid of cells; the value of the
path's last card, 0 for none; the offer's extra cards; the rounds left). The deck is the game's first deck without the SKILL, its values drawn
independently (with replacement): close to the truth for a deck of 40-odd cards, and the same for
the whole game, so the table is made once per (SKILL, distance). A round: 1 + extra values
offered, the one of best value taken; three attacks and three cards, which fix the scores the
pairings can make; the best of them played. Only three things about those scores matter here
(``round_classes``): the highest positive one (the monster joins the path, the next offer is
1 + s: more is never worse), whether 0 is possible (the path stays) and whether a negative score
is (the path's last card goes: the table knows the card before it no more, a simplification the
rule itself does not make, as it reads the real path). ``V[r][e][last][cell]`` is the chance to
meet the K♦ within r rounds by that play, V[0] = 0; a cell farther than r + 1 from the K♦, or off
the grid, is worth 0. The rounds beyond ``Grid.rounds`` read its last slice (the values hardly
change so far from the end).
"""
from __future__ import annotations

import itertools
import math
from array import array
from dataclasses import dataclass
from functools import lru_cache

KING = 13
SQRT3 = math.sqrt(3.0)
HALF_WIDTH = 0.357
ROUNDS = 16           # the table's rounds; more rounds left read its last slice
CLASSES = 16          # 4 * highest positive score (0: none) + 2 * (0 possible) + (a negative possible)
LASTS = 13            # the path's last card: its value, 0 for none
# a clock hand's unit vector as floats, x = (a + b√3)/2, y = (c + d√3)/2 (rules.UNIT)
_UNIT = {12: (0, 0, 2, 0), 1: (1, 0, 0, 1), 2: (0, 1, 1, 0), 3: (2, 0, 0, 0), 4: (0, 1, -1, 0),
         5: (1, 0, 0, -1), 6: (0, 0, -2, 0), 7: (-1, 0, 0, -1), 8: (0, -1, -1, 0), 9: (-2, 0, 0, 0),
         10: (0, -1, 1, 0), 11: (-1, 0, 0, 1)}
STEP_X = [0.0] + [(_UNIT[v][0] + _UNIT[v][1] * SQRT3) / 2 if v in _UNIT else 0.0 for v in range(1, 14)]
STEP_Y = [0.0] + [(_UNIT[v][2] + _UNIT[v][3] * SQRT3) / 2 if v in _UNIT else 0.0 for v in range(1, 14)]


@dataclass(frozen=True)
class Grid:
    """Cells of side ``step`` (a power of 2: every centre exact), centres x0 + i·step, y0 + j·step."""

    x0: float
    y0: float
    step: float
    nx: int
    ny: int
    rounds: int

    def cells(self) -> int:
        return self.nx * self.ny

    def size(self) -> int:
        return (self.rounds + 1) * 4 * LASTS * self.cells()

    def index(self, rounds: int, extra: int, last: int, cell: int) -> int:
        return ((rounds * 4 + extra) * LASTS + last) * self.cells() + cell

    def cell(self, x: float, y: float) -> int:
        """The cell of a point, or -1 off the grid."""
        i = math.floor((x - self.x0) / self.step + 0.5)
        j = math.floor((y - self.y0) / self.step + 0.5)
        return j * self.nx + i if 0 <= i < self.nx and 0 <= j < self.ny else -1


def grid_for(distance: int) -> Grid:
    """5 card lengths of margin around the A♠ and the K♦ (4 below, 4 above), fifths of a card."""
    return Grid(-5.0, -4.0, 0.2, 51, (distance + 9) * 5 + 1, ROUNDS)


def deck_odds(skill: int) -> list:
    """[0, P(value 1), ..., P(value 13)]: the first deck without its A♠, K♦ and the SKILL."""
    counts = [0] + [4] * 13
    counts[1] -= 1
    counts[KING] -= 1
    counts[skill] -= 1
    return [c / sum(counts) for c in counts]


@lru_cache(maxsize=None)
def _class_of(place: tuple, hand: tuple) -> int:
    """The round's class: attack i on bin place[i] against card j in bin hand[j] (bins in
    increasing order of value) scores +1 / 0 / -1 for the player as the card's bin is above, on or
    below the attack's."""
    signs = [[(b > t) - (b < t) for b in hand] for t in place]
    totals = [sum(signs[i][p[i]] for i in range(3)) for p in itertools.permutations(range(3))]
    return 4 * max(0, max(totals)) + 2 * (0 in totals) + (min(totals) < 0)


def _multisets(odds: list, k: int):
    """(values, probability) of every multiset of k independent draws by ``odds`` (indices 0..)."""
    for combo in itertools.combinations_with_replacement(range(len(odds)), k):
        ways = math.factorial(k)
        for v in set(combo):
            ways //= math.factorial(combo.count(v))
        p = float(ways)
        for v in combo:
            p *= odds[v]
        if p:
            yield combo, p


def round_classes(skill: int, odds: list) -> list:
    """classes[v][c]: the chance a round against a monster of value v is of class c (_class_of),
    the attacks and cards drawn by ``odds``. A card h meets an attack a as SKILL + h against
    v + a: only where h lies among the thresholds v + a - SKILL matters, so the cards are drawn
    by the bins between and on the thresholds."""
    classes = [[0.0] * CLASSES for _ in range(14)]
    for v in range(1, 14):
        for attacks, p_attacks in _multisets(odds[1:], 3):
            marks = sorted({v + a + 1 - skill for a in attacks})  # a card above its mark wins (a from 0)
            # bin 2k: between mark k - 1 and mark k; bin 2k + 1: on mark k
            bins = [0.0] * (2 * len(marks) + 1)
            for h in range(1, 14):
                bins[2 * marks.index(h) + 1 if h in marks else 2 * sum(m < h for m in marks)] += odds[h]
            place = tuple(2 * marks.index(v + a + 1 - skill) + 1 for a in attacks)
            for hand, p_hand in _multisets(bins, 3):
                classes[v][_class_of(place, hand)] += p_attacks * p_hand
    return classes


def meets_float(x: float, y: float, v: int, distance: int) -> bool:
    """Does the segment from (x, y) towards v o'clock meet the K♦ (floats, clipped as Liang and
    Barsky do)? Only the table uses it; the rule tests the real path exactly."""
    t0, t1 = 0.0, 1.0
    dx, dy = STEP_X[v], STEP_Y[v]
    for p, q in ((-dx, x + HALF_WIDTH), (dx, HALF_WIDTH - x), (-dy, y - distance), (dy, distance + 1.0 - y)):
        if p == 0.0:
            if q < 0.0:
                return False
        else:
            t = q / p
            if p < 0.0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def gap_float(x: float, y: float, distance: int) -> float:
    """rules.gap on floats (the same operations as the kernel's gap_c)."""
    dx = max(-HALF_WIDTH - x, 0.0, x - HALF_WIDTH)
    dy = max(distance - y, 0.0, y - distance - 1)
    return math.sqrt(dx * dx + dy * dy)


def best_of_draws(worth: list, odds: list, draws: int) -> float:
    """E[the largest worth[v] of ``draws`` values drawn by odds] (v = 1..13), summed over the
    values in increasing (worth, value) order."""
    total = low = cumulative = 0.0
    for v in sorted(range(1, 14), key=lambda v: (worth[v], v)):
        cumulative += odds[v]
        power = cumulative
        for _ in range(draws - 1):
            power *= cumulative
        total += worth[v] * (power - low)
        low = power
    return total


def monster_worth(classes, v: int, stay: float, back: float, up: list) -> float:
    """A round's chance against a monster of value v: ``stay`` the worth of a round that scores 0,
    ``back`` of one that loses the path's last card, up[t] of one that scores t > 0. The pairing
    takes the best its class allows."""
    worth = 0.0
    for c in range(1, CLASSES):
        top, zero, negative = c >> 2, (c >> 1) & 1, c & 1
        value = up[top] if top else -1.0
        if zero and stay > value:
            value = stay
        if negative and back > value:
            value = back
        if value > 0.0:
            worth += classes[v * CLASSES + c] * value
    return worth


def build_table(grid: Grid, classes, odds: list, distance: int) -> array:
    """V[r][e][last][cell] as one flat array (Grid.index), round by round; ``classes`` flat
    (index v * CLASSES + class)."""
    cells = grid.cells()
    table = array("d", bytes(8 * grid.size()))
    up = [0.0] * 4
    for r in range(1, grid.rounds + 1):
        for here in range(cells):
            x = grid.x0 + (here % grid.nx) * grid.step
            y = grid.y0 + (here // grid.nx) * grid.step
            if gap_float(x, y, distance) > r + 1:
                continue
            steps = [grid.cell(x + STEP_X[v], y + STEP_Y[v]) for v in range(14)]
            backs = [grid.cell(x - STEP_X[v], y - STEP_Y[v]) for v in range(14)]
            wins = [v != KING and v > 0 and meets_float(x, y, v, distance) for v in range(14)]
            for last in range(LASTS):
                stay = table[grid.index(r - 1, 0, last, here)]
                back = stay if last == 0 else table[grid.index(r - 1, 0, 0, backs[last])] if backs[last] >= 0 else 0.0
                worth = [0.0] * 14
                for v in range(1, 14):
                    for t in range(1, 4):
                        if v == KING:  # discarded: the path stays, the offer grows
                            up[t] = table[grid.index(r - 1, t, last, here)]
                        elif wins[v]:
                            up[t] = 1.0
                        else:
                            up[t] = table[grid.index(r - 1, t, v, steps[v])] if steps[v] >= 0 else 0.0
                    worth[v] = monster_worth(classes, v, stay, back, up)
                for e in range(4):
                    table[grid.index(r, e, last, here)] = best_of_draws(worth, odds, e + 1)
    return table


@dataclass(frozen=True)
class ValueTable:
    grid: Grid
    distance: int
    odds: array         # [14]
    classes: array      # [14 * CLASSES]
    values: array       # V, flat (build_table)

    def value(self, rounds: int, extra: int, last: int, point: tuple) -> float:
        """V after this round (``rounds`` left, this one included) at a point (x, y) with the
        path's last card ``last`` and the next offer's ``extra``."""
        cell = self.grid.cell(*point)
        return self.values[self.grid.index(min(rounds - 1, self.grid.rounds), extra, last, cell)] if cell >= 0 else 0.0

    def kernel_args(self) -> tuple:
        """The table as ext/dungeon.pyx's rollouts take it."""
        g = self.grid
        return self.values, self.odds, self.classes, g.x0, g.y0, g.step, g.nx, g.ny, g.rounds


def make_table(skill: int, distance: int, grid: Grid, kernel=None) -> ValueTable:
    """The table of a SKILL value and a distance on ``grid``: built by the kernel when given, else here."""
    odds = deck_odds(skill)
    classes = array("d", [p for row in round_classes(skill, odds) for p in row])
    if kernel is not None:
        values = array("d", bytes(8 * grid.size()))
        kernel.value_table(values, array("d", odds), classes, distance, grid.x0, grid.y0, grid.step, grid.nx,
                           grid.ny, grid.rounds)
    else:
        values = build_table(grid, classes, odds, distance)
    return ValueTable(grid, distance, array("d", odds), classes, values)


@lru_cache(maxsize=13)
def value_table(skill: int, distance: int, kernel=None) -> ValueTable:
    """make_table on the game's grid, kept for the next games with the same SKILL value (a table
    is 22-24 MB; the kernel makes one in 1.4 s, this module in 81 s, under load)."""
    return make_table(skill, distance, grid_for(distance), kernel)
