"""Foursquare (Isaludo): the pure-Python reference engine. Rules page: docs/rules/foursquare.md.

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

import time

from .. import cards as C
from .. import picture as P
from ..api import NO_WIN, Deal, NumberDeckGame, Outcome, advance_chance, value_counts, without_first
from ..api import State as BaseState
from ..ext import BlindValuer
from ..errors import DealError, MoveError
from ..result import StopReason, finish_open

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


class Foursquare(NumberDeckGame):
    name = "foursquare"
    aliases = ("4square", "4sq")
    title = "Foursquare"
    source = "Isaludo (seeds/000), p. 29; seeds/003"
    has_chance = True
    score_name = "cards left"
    score_sense = "higher"
    modes = ("open", "blind")
    kernel = "foursquare"
    # The optimistic bound (every card drawn makes a new pile) is far above typical wins: aspiring
    # to it costs one failed search per point. Branch and bound finds a real win first.
    aspiration = False

    def initial_state(self, deal: Deal) -> State:
        if deal.position is not None:
            return _state_from_position(deal.position, deal.source)
        return State({}, tuple(C.rank_of(c) for c in deal.piles["deck"]))

    def parse_move(self, text):
        return parse_move(text)

    def baseline_move(self, state):
        """The baseline policy: fewest face-down tops after the placement, then most piles, then
        nearest the first card, then the smallest (x, y). None if no placement is legal."""
        best = None
        for move in state.legal_moves():  # in (x, y) order: the first best is the smallest
            piles = state._after(move.x, move.y)
            rank = (sum(1 for _v, up, _h in piles.values() if not up), -len(piles), move.x ** 2 + move.y ** 2)
            if best is None or rank < best[0]:
                best = (rank, move)
        return best[1] if best else None

    # -- the compiled kernel (ext/foursquare.pyx); each hook returns None when it is not built --
    def fast_solver(self, limits, progress=None):
        kernel = self.load_kernel()
        return KernelSolver(self, kernel, limits, progress) if kernel is not None else None

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.hand is None or not state.piles:
            return None
        search = kernel.Search(1.0)
        search.set_position(_kernel_piles(state), _kernel_deck(state))
        return [Place(x, y) for x, y in search.legal_moves(state.hand)]

    def fast_expectimax(self, limits):
        kernel = self.load_kernel()
        return BlindKernel(kernel, limits) if kernel is not None else None

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the baseline policy."""
        kernel = self.load_kernel()
        if kernel is None or state.hand is None or not state.piles:
            return None
        search = kernel.Search(1.0)
        search.set_position(_kernel_piles(state), _kernel_deck(state))
        return [(Place(x, y), wins, total) for x, y, wins, total in search.rollouts(state.hand, samples, seed)]


GAME = Foursquare()  # the registry's instance (solodeck/registry.py)


def _kernel_piles(state):
    return [(x, y, v, up, h) for (x, y), (v, up, h) in state.piles.items()]


def _kernel_deck(state):
    return ([state.hand] if state.hand is not None else []) + list(state.deck)


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


class BlindKernel(BlindValuer):
    """Exact blind values in the kernel, for solvers/expectimax.py. The kernel's table keys hold
    the grid and the unseen composition, so one table serves every position of a game."""

    def accepts(self, state):
        return bool(state.piles)  # the first card's placement is the reference's business

    def value(self, state):
        """(P(win), E[score x win]), or None if a limit stopped the kernel (see ``status``)."""
        self.search.set_position(_kernel_piles(state), _kernel_deck(state), False)
        return self.search.blind_value(state.hand or 0)

_PILE_RE = re.compile(r"^(-?\d+)\s*,\s*(-?\d+)\s*:\s*(\(?)\s*(\w+)\s*\)?\s*(?:/\s*(\d))?$")


def _state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``piles`` = list of "X,Y: V/H" strings (V in parentheses when face down,
    H the height, default 1), ``deck`` = the cards still in the deck, top first (values or cards),
    optional ``hand`` = the drawn card waiting to be placed."""
    known = {"piles", "deck", "hand"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    piles = {}
    for i, text in enumerate(position.get("piles", []), start=1):
        m = _PILE_RE.match(str(text).strip())
        if not m:
            raise DealError(source, f"position.piles[{i}]", f"'{text}': expected 'X,Y: V/H' such as '0,1: 7/2' "
                                                             "or '1,0: (5)/1' for a face-down top")
        x, y, down, v, h = m.groups()
        try:
            value = C.parse_number_value(v)
        except ValueError as exc:
            raise DealError(source, f"position.piles[{i}]", str(exc)) from None
        height = int(h or 1)
        if not 1 <= height <= MAX_HEIGHT:
            raise DealError(source, f"position.piles[{i}]", f"height {height}: expected 1 to {MAX_HEIGHT}")
        if (int(x), int(y)) in piles:
            raise DealError(source, f"position.piles[{i}]", f"a second pile at {x},{y}")
        piles[(int(x), int(y))] = (value, not down, height)
    if piles and (0, 0) not in piles:
        raise DealError(source, "position.piles", "the first card's pile must be at 0,0")
    for axis in (0, 1):
        coords = [c[axis] for c in piles]
        if coords and max(coords) - min(coords) >= SIDE:
            raise DealError(source, "position.piles", "the piles do not fit in a 4 x 4 grid")
    if sum(1 for _v, up, _h in piles.values() if not up) > MAX_FACE_DOWN:
        raise DealError(source, "position.piles", f"more than {MAX_FACE_DOWN} face-down tops")
    try:
        deck = tuple(C.parse_number_value(t) for t in str(position.get("deck", "")).replace(",", " ").split())
    except ValueError as exc:
        raise DealError(source, "position.deck", str(exc)) from None
    try:
        hand = C.parse_number_value(str(position["hand"])) if "hand" in position else None
    except ValueError as exc:
        raise DealError(source, "position.hand", str(exc)) from None
    cards_used = sum(h for _v, _u, h in piles.values()) + len(deck) + (hand is not None)
    if cards_used > CARDS_IN_DECK:
        raise DealError(source, "position", f"{cards_used} cards: more than the deck's {CARDS_IN_DECK}")
    if not piles and hand is not None:
        raise DealError(source, "position.hand", "the first card needs no decision: leave 'hand' out")
    return State(piles, deck, hand)

