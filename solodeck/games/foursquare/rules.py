"""Foursquare's rules: the pure-Python reference engine (the Place move and its notation, the
State, the deal). The game: solodeck/games/foursquare/__init__.py; rules page:
docs/rules/foursquare.md.

Only values matter (A=1 ... T=10). A pile is (top value, face up?, height): the cards under a
pile's top never matter again. Positions are (column, row) relative to the first card, which sits
at (0, 0); rows grow downwards. Draws are chance nodes: the state keeps the rest of the deck in
deal order, and drawing value v removes the first v in it. The remaining order then depends only
on which cards were drawn, so the same key serves open mode (the dealt top card) and blind mode
(any card, weighted by the composition).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import cards as C
from ... import picture as P
from ...api import NO_WIN, Outcome, value_counts, without_first
from ...api import State as BaseState
from ...errors import MoveError

SIDE = 4           # the grid is at most 4 x 4
MAX_HEIGHT = 4     # a pile holds at most 4 cards
MAX_FACE_DOWN = 4  # more face-down tops than this after a placement is illegal
CARDS_IN_DECK = 40
VALUE_NAMES = "A23456789T"
# The 8 symmetries of the square, as maps of (column, row).
SYMMETRIES = (lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (-x, -y),
              lambda x, y: (y, x), lambda x, y: (-y, x), lambda x, y: (y, -x), lambda x, y: (-y, -x))


def value_name(v: int) -> str:
    return VALUE_NAMES[v - 1]


@dataclass(frozen=True, order=True)
class Place:
    """Put the drawn card at (column, row), relative to the first card: a new pile or on top."""

    x: int
    y: int

    def __str__(self):
        return f"place {self.x},{self.y}"


_PLACE_RE = re.compile(r"^(?:place\s+)?\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$", re.IGNORECASE)


def parse_move(text: str) -> Place:
    m = _PLACE_RE.match(text.strip())
    if not m:
        raise MoveError(f"'{text}' is not a Foursquare move (expected 'place X,Y', e.g. 'place 1,-2')")
    return Place(int(m.group(1)), int(m.group(2)))


class State(BaseState):
    """A Foursquare position. ``piles`` maps (x, y) -> (top value, face up, height)."""

    __slots__ = ("piles", "deck", "hand", "_moves", "_key")

    def __init__(self, piles: dict, deck: tuple, hand: int | None = None):
        self.piles = piles
        self.deck = deck
        self.hand = hand
        self._moves = None
        self._key = None

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return self.hand is None and bool(self.deck) and not self.won

    def chance_outcomes(self):
        return value_counts(self.deck)

    def dealt_outcome(self):
        return self.deck[0]

    def apply_chance(self, value):
        deck = without_first(self.deck, value)
        if not self.piles:  # the first card drawn starts the grid at the origin
            return State({(0, 0): (value, True, 1)}, deck)
        return State(self.piles, deck, value)

    # -- decisions ---------------------------------------------------------------------------
    @property
    def won(self):
        return len(self.piles) == SIDE * SIDE and all(up for _v, up, _h in self.piles.values())

    def outcome(self):
        if self.won:
            return Outcome(True, len(self.deck))
        if self.hand is not None:
            return None if self.legal_moves() else Outcome(False, None)
        return None if self.deck else Outcome(False, None)

    def legal_moves(self):
        if self._moves is None:
            self._moves = [] if self.hand is None or self.won else [
                Place(x, y) for (x, y) in self._targets() if self._after(x, y) is not None]
        return self._moves

    def play(self, move):
        piles = self._after(move.x, move.y) if self.hand is not None else None
        if piles is None:
            raise MoveError(f"'{move}' is not legal here")
        return State(piles, self.deck)

    def _targets(self):
        """Every cell the drawn card could go to before flips: piles below height 4, and empty
        cells next to a pile that keep the bounding box within 4 x 4."""
        xs = [x for x, _ in self.piles]
        ys = [y for _, y in self.piles]
        cells = {(x, y) for (x, y), (_v, _u, h) in self.piles.items() if h < MAX_HEIGHT}
        for (x, y) in self.piles:
            for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if cell not in self.piles and (max(xs + [cell[0]]) - min(xs + [cell[0]]) < SIDE
                                               and max(ys + [cell[1]]) - min(ys + [cell[1]]) < SIDE):
                    cells.add(cell)
        return sorted(cells)

    def _after(self, x, y):
        """The piles after placing the drawn card at (x, y) and flipping, or None if illegal."""
        v = self.hand
        piles = dict(self.piles)
        old = piles.get((x, y))
        piles[(x, y)] = (v, True, old[2] + 1 if old else 1)
        for line in ([c for c in piles if c[1] == y and c != (x, y)],   # the row ...
                     [c for c in piles if c[0] == x and c != (x, y)]):  # ... then the column
            shown = [piles[c][0] for c in line if piles[c][1]]
            if line and (not shown or v > max(shown) or v < min(shown)):
                for c in line:
                    top, up, height = piles[c]
                    piles[c] = (top, not up, height)
        if sum(1 for _v, up, _h in piles.values() if not up) > MAX_FACE_DOWN:
            return None
        return piles

    # -- search support ----------------------------------------------------------------------
    def key(self):
        """Piles up to translation and the 8 symmetries of the square, the deck, the hand."""
        if self._key is None:
            best = None
            for sym in SYMMETRIES:
                moved = [(sym(x, y), pile) for (x, y), pile in self.piles.items()]
                if moved:
                    mx = min(p[0] for p, _ in moved)
                    my = min(p[1] for p, _ in moved)
                    moved = sorted(((px - mx, py - my), pile) for (px, py), pile in moved)
                form = tuple(moved)
                if best is None or form < best:
                    best = form
            self._key = (best, self.deck, self.hand)
        return self._key

    def score_bound(self):
        """The best score (cards left in the deck) still reachable: every missing pile of the
        16 needs one more card placed, and so does any face-down top (only a placement flips)."""
        if self.won:
            return len(self.deck)
        to_place = len(self.deck) + (self.hand is not None)
        need = max(SIDE * SIDE - len(self.piles), 1)
        if to_place < need:
            return NO_WIN
        return to_place - need

    def picture(self, seen_only=False):
        """The grid's piles by position "x,y" (the top value, face down in parentheses in the
        text, and the height), the card to place and the deck (values: the game keeps no suits)."""
        piles = [P.pile(f"{x},{y}", [P.value(v, down=not up)], group=f"row {y}", count=height)
                 for (x, y), (v, up, height) in sorted(self.piles.items(), key=lambda item: (item[0][1], item[0][0]))]
        if self.hand is not None:
            piles.append(P.pile("to place", [P.value(self.hand)], group="deck"))
        piles.append(P.deck("deck", self.deck, seen_only, as_value=True))
        return P.picture(piles)

    def __str__(self):
        if not self.piles:
            return f"(no card placed yet; deck {len(self.deck)})"
        xs = [x for x, _ in self.piles]
        ys = [y for _, y in self.piles]
        lines = []
        for y in range(min(ys), max(ys) + 1):
            row = []
            for x in range(min(xs), max(xs) + 1):
                pile = self.piles.get((x, y))
                row.append("  .  " if pile is None else
                           f"{value_name(pile[0]) if pile[1] else '(' + value_name(pile[0]) + ')':>3}/{pile[2]}")
            lines.append(f"{y:>3} " + " ".join(f"{cell:>5}" for cell in row))
        lines.insert(0, "    " + " ".join(f"{x:>5}" for x in range(min(xs), max(xs) + 1)))
        hand = f"; to place: {value_name(self.hand)}" if self.hand else ""
        lines.append(f"deck: {len(self.deck)} cards{hand}  (a top in parentheses is face down; /height)")
        return "\n".join(lines)


# -- the deal -------------------------------------------------------------------------------------
def dealt_state(deck) -> State:
    """A deal's first position: no card placed, the deck's values (top first) to draw."""
    return State({}, tuple(C.rank_of(c) for c in deck))
