"""Hide and Seek (Isaludo): the pure-Python reference engine. Rules page: docs/rules/hide-and-seek.md.

The playground is a 3x4 grid of face cards (``cells`` 0..11, row by row) with 14 perimeter
``spaces``: T1-T4 (0-3, above the columns), B1-B4 (4-7, below), L1-L3 (8-10, left of the rows),
R1-R3 (11-13, right). A state shares one :class:`World` (the grid's faces and the deck order) with
every state of its game and says how far into the deck play has gone (``pos``), which playmates
are face up (``up``, a 12-bit mask), what each space holds (a card or -1) and the score pile.

Chance (blind mode): after a place or a withdraw the new top card is any card of the deck (a
draw, ``pending == DRAW``); a reveal shows any face the grids consistent with what is seen allow
(``pending`` = the cell). Open mode takes the dealt outcome; a blind outcome that differs from
the world's is made true by a world consistent with it (apply_chance).
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import factorial

from .. import cards as C
from .. import picture as P
from ..api import Deal, Game, NoWin, Outcome, advance_chance, check_exact_pile, check_position_fields
from ..api import State as BaseState
from ..errors import DealError, MoveError
from ..result import Limits, SearchStopped, StopReason, finish_open
from ..shuffle import SplitMix64, shuffled, shuffled_by
from ..solvers.plan import BlindPlan
from ..solvers.rollouts import candidate_moves

WIN_SCORE = 20
ROWS, COLS = 3, 4
ALL_UP = (1 << 12) - 1
DRAW = 12          # pending: the new top card is being drawn
NONE = -1          # pending: nothing (a decision, or the end)
SPACE_NAMES = ("T1", "T2", "T3", "T4", "B1", "B2", "B3", "B4", "L1", "L2", "L3", "R1", "R2", "R3")
SPACE_INDEX = {name: i for i, name in enumerate(SPACE_NAMES)}
# The spaces beside each cell: above and below its column, left and right of its row.
CELL_SPACES = tuple((c, 4 + c, 8 + r, 11 + r) for r in range(ROWS) for c in range(COLS))
# The cells beside each space, as a bit mask.
SPACE_CELLS = tuple(sum(1 << (r * 4 + c) for r in range(ROWS)) for c in range(COLS)) * 2 + \
    tuple(sum(1 << (r * 4 + c) for c in range(COLS)) for r in range(ROWS)) * 2
# The interchangeable pairs (T/B of a column, L/R of a row): key() sorts within them.
PAIRS = tuple((c, 4 + c) for c in range(COLS)) + tuple((8 + r, 11 + r) for r in range(ROWS))
PAIR_OF = tuple(range(4)) * 2 + tuple(range(4, 7)) * 2  # each space's pair


def face_index(card: int) -> int:
    """A face card's index 0..11: suit * 3 + (J 0, Q 1, K 2)."""
    return (card // 13) * 3 + card % 13 - 10


def face_card(index: int) -> int:
    return (index // 3) * 13 + 10 + index % 3


def suit(card: int) -> int:
    return card // 13


def number_cards() -> list[int]:
    return C.standard_deck(number_cards_only=True)


def face_cards() -> list[int]:
    return sorted(face_card(i) for i in range(12))


# -- the valid grids ----------------------------------------------------------------------------
@lru_cache(maxsize=None)
def assignments() -> tuple:
    """The valid column assignments in the canonical order (docs/rules/hide-and-seek.md): for each
    permutation p of the suits (lexicographic) giving the Jacks' suits of columns 1-4, then q for
    the Queens, then k for the Kings, kept when p[c], q[c], k[c] differ in every column. Each is
    returned as the four columns' face-index masks. There are 576 (the 3x4 Latin rectangles)."""
    out = []
    perms = list(permutations(range(4)))
    for p in perms:
        for q in perms:
            if any(p[c] == q[c] for c in range(4)):
                continue
            for k in perms:
                if all(k[c] != p[c] and k[c] != q[c] for c in range(4)):
                    out.append(tuple((1 << (p[c] * 3)) | (1 << (q[c] * 3 + 1)) | (1 << (k[c] * 3 + 2))
                                     for c in range(4)))
    return tuple(out)


def seeded_grid(seed: int) -> list[int]:
    """The seeded grid, row by row: a valid column assignment drawn by SplitMix64(seed, stream 1),
    then each column's J, Q, K shuffled onto rows 1-3 by the same generator. Every valid grid is
    one assignment and one order per column, so this is uniform over valid grids."""
    rng = SplitMix64(seed, 1)
    columns = assignments()[rng.below(len(assignments()))]
    grid = [0] * 12
    for c, mask in enumerate(columns):
        cards = [face_card(i) for i in range(12) if mask >> i & 1]  # canonical order: J, Q, K
        cards.sort(key=lambda card: card % 13)
        for r, card in enumerate(shuffled_by(cards, rng)):
            grid[r * 4 + c] = card
    return grid


def column_problem(grid) -> tuple[int, str] | None:
    """(column 1..4, what is wrong) for the first column of ``grid`` that is not a J, a Q and a K of
    three different suits (face-down cells, None, are skipped), or None."""
    for c in range(COLS):
        cards = [grid[r * 4 + c] for r in range(ROWS) if grid[r * 4 + c] is not None]
        ranks = [card % 13 for card in cards]
        suits = [suit(card) for card in cards]
        if len(set(ranks)) < len(ranks):
            return c + 1, "two cards of the same rank"
        if len(set(suits)) < len(suits):
            return c + 1, "two cards of the same suit"
    return None


@lru_cache(maxsize=200_000)
def consistent(faces: tuple) -> tuple:
    """[(assignment, how many grids)] for the grids consistent with ``faces`` (a face card per
    cell, -1 face down): per column, the revealed cards must be in the assignment's column, and the
    rest can lie in any order on the face-down cells."""
    seen = [0] * 4
    count = [0] * 4
    for cell, card in enumerate(faces):
        if card >= 0:
            seen[cell % 4] |= 1 << face_index(card)
            count[cell % 4] += 1
    ways = 1
    for n in count:
        ways *= factorial(3 - n)
    s0, s1, s2, s3 = seen
    return tuple((a, ways) for a in assignments()
                 if not (s0 & ~a[0] or s1 & ~a[1] or s2 & ~a[2] or s3 & ~a[3]))


@lru_cache(maxsize=200_000)
def cell_odds(faces: tuple) -> tuple:
    """For each cell, a 12-tuple of weights: how many consistent grids put each face there (0 for
    a face-up cell's other faces). A face-down cell's weights are its reveal's chance outcomes."""
    out = [[0] * 12 for _ in range(12)]
    hidden_rows = [[r for r in range(ROWS) if faces[r * 4 + c] < 0] for c in range(COLS)]
    seen = [0] * 4
    for cell, card in enumerate(faces):
        if card >= 0:
            seen[cell % 4] |= 1 << face_index(card)
    tally = [{} for _ in range(COLS)]  # per column, the grids counted by the column's three faces
    for a, ways in consistent(faces):
        for c in range(COLS):
            tally[c][a[c]] = tally[c].get(a[c], 0) + ways
    for c in range(COLS):
        rows = hidden_rows[c]
        if not rows:
            continue
        for mask, ways in tally[c].items():
            share = ways // len(rows)  # each remaining face is on a given hidden cell this often
            free = mask & ~seen[c]
            for i in range(12):
                if free >> i & 1:
                    for r in rows:
                        out[r * 4 + c][i] += share
    for cell, card in enumerate(faces):
        if card >= 0:
            out[cell][face_index(card)] = 1
    return tuple(tuple(w) for w in out)


@lru_cache(maxsize=200_000)
def suit_odds(faces: tuple) -> tuple:
    """For each cell, the probability of each suit (blind: uniform over consistent grids)."""
    out = []
    for weights in cell_odds(faces):
        total = sum(weights)
        out.append(tuple(sum(weights[s * 3:s * 3 + 3]) / total for s in range(4)))
    return tuple(out)


@lru_cache(maxsize=200_000)
def space_odds(faces: tuple) -> tuple:
    """For each space, per suit: how many face-down playmates of that suit are expected beside
    it (the sum of suit_odds over its face-down cells, in cell order)."""
    odds = suit_odds(faces)
    out = []
    for p in range(14):
        cells = [c for c in range(12) if SPACE_CELLS[p] >> c & 1 and faces[c] < 0]
        out.append(tuple(sum(odds[c][s] for c in cells) for s in range(4)))
    return tuple(out)


@lru_cache(maxsize=200_000)
def space_live(faces: tuple) -> tuple:
    """For each space, per suit: the probability that some face-down playmate beside it has that
    suit, over the grids consistent with ``faces`` (each equally likely). A guess of that suit
    there is then *live*: it scores at the first such reveal, as every playmate is revealed by
    the end. Exact: given a column assignment, a column's remaining faces lie on its face-down
    cells in any order, independently of the other columns. Counted in integers (a row's chance
    of holding none of the suit in sixths per cell: 1 - 1/h is 0, 3/6 or 4/6 for h = 1..3 face-down
    cells in the column) and divided once, as the kernel does (ext/hide_and_seek.pyx: equal floats)."""
    seen, hidden = [0] * COLS, [0] * COLS
    for cell, card in enumerate(faces):
        if card >= 0:
            seen[cell % 4] |= 1 << face_index(card)
        else:
            hidden[cell % 4] += 1
    options = consistent(faces)
    column_has = [[0] * 4 for _ in range(COLS)]  # assignments where the column's face-down cells hold suit s
    row_lacks = [[0] * 4 for _ in range(ROWS)]   # sum over assignments of 6^4 x P(no suit s in the row's face-down cells)
    for a, _ways in options:
        free = [_SUITS_OF[a[c] & ~seen[c]] for c in range(COLS)]
        for c in range(COLS):
            for s in range(4):
                column_has[c][s] += free[c] >> s & 1
        for r in range(ROWS):
            for s in range(4):
                product = 1
                for c in range(COLS):
                    product *= 6 - 6 // hidden[c] if faces[r * 4 + c] < 0 and free[c] >> s & 1 else 6
                row_lacks[r][s] += product
    n = len(options)
    out = [None] * 14
    for c in range(COLS):
        out[c] = out[4 + c] = tuple(column_has[c][s] / n for s in range(4))
    for r in range(ROWS):
        out[8 + r] = out[11 + r] = tuple(1 - row_lacks[r][s] / (n * 6 ** 4) for s in range(4))
    return tuple(out)


# the suits present in a mask of face indices
_SUITS_OF = tuple(sum(1 << s for s in range(4) if mask >> (s * 3) & 7) for mask in range(1 << 12))


def deal_grid(faces: tuple, rng: SplitMix64) -> list[int]:
    """A grid drawn uniformly among those consistent with ``faces``: an assignment weighted by its
    number of grids, then each column's remaining faces shuffled onto its face-down cells."""
    options = consistent(faces)
    if not options:
        raise MoveError("no valid grid agrees with the face-up playmates")
    r = rng.below(sum(w for _a, w in options))
    for a, ways in options:
        if r < ways:
            break
        r -= ways
    grid = list(faces)
    for c in range(COLS):
        rows = [row for row in range(ROWS) if faces[row * 4 + c] < 0]
        seen = {face_index(faces[row * 4 + c]) for row in range(ROWS) if faces[row * 4 + c] >= 0}
        free = [face_card(i) for i in range(12) if a[c] >> i & 1 and i not in seen]
        free.sort(key=lambda card: card % 13)
        for row, card in zip(rows, shuffled_by(free, rng)):
            grid[row * 4 + c] = card
    return grid


# -- moves --------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """``place T2`` (space), ``reveal R2C3`` (cell), ``withdraw T2`` (space)."""

    kind: str
    where: int

    def __str__(self):
        if self.kind == "reveal":
            return f"reveal R{self.where // 4 + 1}C{self.where % 4 + 1}"
        return f"{self.kind} {SPACE_NAMES[self.where]}"


_MOVE_RE = re.compile(r"^\s*(place|withdraw|reveal)\s+(\S+)\s*$", re.I)
_CELL_RE = re.compile(r"^R([1-3])C([1-4])$", re.I)


def parse_move(text: str) -> Move:
    m = _MOVE_RE.match(text)
    if not m:
        raise MoveError(f"'{text}' is not a Hide and Seek move (expected 'place T2', 'reveal R2C3' or 'withdraw L1')")
    kind, where = m.group(1).lower(), m.group(2).upper()
    if kind == "reveal":
        cell = _CELL_RE.match(where)
        if not cell:
            raise MoveError(f"'{text}': a playmate is RrCc, row 1-3 and column 1-4 (e.g. R2C3)")
        return Move("reveal", (int(cell.group(1)) - 1) * 4 + int(cell.group(2)) - 1)
    if where not in SPACE_INDEX:
        raise MoveError(f"'{text}': a space is T1-T4, B1-B4, L1-L3 or R1-R3")
    return Move(kind, SPACE_INDEX[where])


PLACES = tuple(Move("place", p) for p in range(14))
WITHDRAWS = tuple(Move("withdraw", p) for p in range(14))
REVEALS = tuple(Move("reveal", c) for c in range(12))


class World:
    """What chance fixed: the grid's faces and the deck order; shared by the states of a game,
    with the deck's suit counts from each position on (the score bound reads them)."""

    __slots__ = ("grid", "deck", "_suits_from", "_hash")

    def __init__(self, grid, deck):
        self.grid, self.deck = tuple(grid), tuple(deck)
        self._suits_from = None
        self._hash = hash((self.grid, self.deck))

    @property
    def suits_from(self):
        """suits_from[pos]: the suit counts of deck[pos:] (counted when first asked: blind
        rollouts make a world per draw and never ask)."""
        if self._suits_from is None:
            counts = [(0, 0, 0, 0)]
            for card in reversed(self.deck):
                last = list(counts[-1])
                last[suit(card)] += 1
                counts.append(tuple(last))
            self._suits_from = counts[::-1]
        return self._suits_from

    def __eq__(self, other):
        return isinstance(other, World) and self.grid == other.grid and self.deck == other.deck

    def __hash__(self):
        return self._hash


class State(BaseState):
    """A position (see the module's note). ``scored`` and ``discard`` are the piles' cards."""

    __slots__ = ("world", "pos", "up", "spaces", "scored", "discard", "pending", "_moves", "_key")

    def __init__(self, world: World, pos=0, up=0, spaces=(-1,) * 14, scored=(), discard=(), pending=NONE):
        self.world, self.pos, self.up, self.spaces = world, pos, up, spaces
        self.scored, self.discard, self.pending = scored, discard, pending
        self._moves = None
        self._key = None

    # -- the score and the end ---------------------------------------------------------------
    @property
    def score(self) -> int:
        return len(self.scored)

    def top(self) -> int:
        """The top card of the deck (-1: the deck is empty)."""
        deck = self.world.deck
        return deck[self.pos] if self.pos < len(deck) else -1

    def outcome(self):
        if self.up == ALL_UP and self.pending == NONE:
            return Outcome(self.score >= WIN_SCORE, self.score)
        return None

    # -- moves ---------------------------------------------------------------------------------
    def legal_moves(self):
        """Place the top card into an empty space; reveal a face-down playmate; withdraw a guess
        of the top card's suit. Place and withdraw need a card on the deck."""
        if self._moves is None:
            moves = []
            if self.pending == NONE and self.up != ALL_UP:
                top = self.top()
                if top >= 0:
                    moves += [PLACES[p] for p, card in enumerate(self.spaces) if card < 0]
                moves += [REVEALS[c] for c in range(12) if not self.up >> c & 1]
                if top >= 0:
                    moves += [WITHDRAWS[p] for p, card in enumerate(self.spaces)
                              if card >= 0 and suit(card) == suit(top)]
            self._moves = moves
        return self._moves

    def play(self, move: Move) -> "State":
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        return self._play(move)

    def _play(self, move):
        if move.kind == "reveal":
            return State(self.world, self.pos, self.up, self.spaces, self.scored, self.discard, move.where)
        spaces = list(self.spaces)
        top = self.world.deck[self.pos]
        discard = self.discard
        if move.kind == "place":
            spaces[move.where] = top
        else:
            discard = discard + (spaces[move.where], top)
            spaces[move.where] = -1
        pos = self.pos + 1
        pending = DRAW if pos < len(self.world.deck) else NONE
        return State(self.world, pos, self.up, tuple(spaces), self.scored, discard, pending)

    def _reveal(self, cell: int) -> "State":
        """``cell`` turns face up: each guess beside it of its suit goes to the score pile."""
        s = suit(self.world.grid[cell])
        spaces, scored = self.spaces, self.scored
        hits = [p for p in CELL_SPACES[cell] if spaces[p] >= 0 and suit(spaces[p]) == s]
        if hits:
            spaces = list(spaces)
            scored = scored + tuple(spaces[p] for p in hits)
            for p in hits:
                spaces[p] = -1
            spaces = tuple(spaces)
        return State(self.world, self.pos, self.up | 1 << cell, spaces, scored, self.discard)

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return self.pending != NONE

    def dealt_outcome(self):
        if self.pending == DRAW:
            return self.world.deck[self.pos]
        return self.world.grid[self.pending]

    def faces(self) -> tuple:
        """The face-up playmates, -1 for a face-down one: what the player sees of the grid."""
        grid, up = self.world.grid, self.up
        return tuple(grid[c] if up >> c & 1 else -1 for c in range(12))

    def chance_outcomes(self):
        """A draw: every card left in the deck, each as likely (its order is unseen). A reveal:
        each face the consistent grids allow there, weighted by how many put it there."""
        if self.pending == DRAW:
            return [(card, 1) for card in sorted(self.world.deck[self.pos:])]
        weights = cell_odds(self.faces())[self.pending]
        return [(face_card(i), w) for i, w in enumerate(weights) if w]

    def sample_chance(self, rng):
        if self.pending == DRAW:
            cards = sorted(self.world.deck[self.pos:])
            return cards[rng.below(len(cards))]
        return deal_grid(self.faces(), rng)[self.pending]  # a consistent grid drawn uniformly

    def apply_chance(self, outcome):
        """The top card or the revealed face is ``outcome``. If the world says otherwise (a blind
        outcome), the world is changed to agree: a drawn card trades places with the top card; a
        face takes its cell and the other face-down playmates are dealt anew among the grids
        consistent with what is then seen (drawn by a generator seeded from the old faces)."""
        world = self.world
        if self.pending == DRAW:
            if world.deck[self.pos] != outcome:
                deck = list(world.deck)
                try:
                    j = deck.index(outcome, self.pos)
                except ValueError:
                    raise MoveError(f"{C.format_card(outcome)} is not in the deck") from None
                deck[self.pos], deck[j] = deck[j], deck[self.pos]
                world = World(world.grid, deck)
            return State(world, self.pos, self.up, self.spaces, self.scored, self.discard)
        cell = self.pending
        if world.grid[cell] != outcome:
            faces = list(self.faces())
            faces[cell] = outcome
            if not consistent(tuple(faces)):
                raise MoveError(f"{C.format_card(outcome)} cannot be at {Move('reveal', cell)} here")
            seed = sum(card * 53 ** i for i, card in enumerate(world.grid))
            world = World(deal_grid(tuple(faces), SplitMix64(seed, 2)), world.deck)
        return State(world, self.pos, self.up, self.spaces, self.scored, self.discard)._reveal(cell)

    # -- what the player sees ------------------------------------------------------------------
    def view(self):
        """The face-up playmates, the spaces, the top card (unless being drawn), the deck's
        composition (the cards not seen elsewhere), the piles, and the chance node."""
        deck = self.world.deck[self.pos:]
        top = -1 if self.pending == DRAW or not deck else deck[0]
        return (self.faces(), self.spaces, top, tuple(sorted(deck)), tuple(sorted(self.scored)),
                tuple(sorted(self.discard)), self.pending)

    def sample_world(self, rng):
        """The face-down playmates dealt anew uniformly among the grids consistent with the
        face-up ones, and the unseen deck cards (all but a seen top card) shuffled."""
        grid = deal_grid(self.faces(), rng)
        deck = list(self.world.deck[:self.pos])
        rest = self.world.deck[self.pos:]
        if rest and self.pending != DRAW:
            deck.append(rest[0])
            rest = rest[1:]
        deck += shuffled_by(sorted(rest), rng)
        return State(World(grid, deck), self.pos, self.up, self.spaces, self.scored, self.discard, self.pending)

    def seen_text(self):
        return self._text(lambda card: "##")

    # -- search support --------------------------------------------------------------------------
    def _live(self, p: int, s: int) -> bool:
        """Is a suit-``s`` guess in space ``p`` beside a face-down playmate of suit ``s``?"""
        grid, up = self.world.grid, self.up
        cells = SPACE_CELLS[p] & ~up
        return any(cells >> c & 1 and suit(grid[c]) == s for c in range(12))

    def score_bound(self):
        """The score pile, plus for each suit at most 4 cards per face-down playmate of that suit
        (a reveal scores its 4 spaces at most) and at most the suit's guesses beside one of them
        plus the suit's cards left in the deck (nothing else can ever score). NoWin below 20."""
        if self.pending != NONE:
            return None
        grid, up = self.world.grid, self.up
        hidden = [0, 0, 0, 0]
        for c in range(12):
            if not up >> c & 1:
                hidden[suit(grid[c])] += 1
        sure = [0, 0, 0, 0]
        for p, card in enumerate(self.spaces):
            if card >= 0 and hidden[suit(card)] and self._live(p, suit(card)):
                sure[suit(card)] += 1
        left = self.world.suits_from[self.pos]
        best = self.score + sum(min(4 * hidden[s], sure[s] + left[s]) for s in range(4))
        return best if best >= WIN_SCORE else NoWin(best)

    def blind_score_bound(self):
        """score_bound() for every world the player cannot tell apart: a suit has at most 3 less
        the face-up ones hidden, and a guess may be live beside any face-down playmate."""
        if self.pending != NONE:
            return None
        up_suits = [0, 0, 0, 0]
        for card in self.faces():
            if card >= 0:
                up_suits[suit(card)] += 1
        near = [0, 0, 0, 0]
        for p, card in enumerate(self.spaces):
            if card >= 0 and SPACE_CELLS[p] & ~self.up:
                near[suit(card)] += 1
        left = [0, 0, 0, 0]
        for card in self.world.deck[self.pos:]:
            left[suit(card)] += 1
        best = self.score + sum(min(4 * (3 - up_suits[s]), near[s] + left[s]) for s in range(4))
        return best if best >= WIN_SCORE else NoWin(best)

    def reveal_gain(self, cell: int) -> int:
        """How many guesses revealing ``cell`` scores (open: its face is known)."""
        s = suit(self.world.grid[cell])
        return sum(1 for p in CELL_SPACES[cell] if self.spaces[p] >= 0 and suit(self.spaces[p]) == s)

    def search_moves(self):
        """The moves that can matter, in an order that reads only what the player sees (blind
        rollouts value the first few: Game.rollout_moves).

        - Deck empty: only reveals are left, and every live guess scores at the first reveal of
          its suit beside it, whatever the order: one reveal stands for all.
        - Of two interchangeable spaces (T/B of a column, L/R of a row) and of the dead spaces
          (every playmate beside them face up), placing into either empty one, or withdrawing
          either guess of the same suit, leads to positions with equal keys: one is kept.
        Order: the blind rule's move (rule_move), then places (likeliest to meet the card's suit
        first), reveals (most expected to score first), withdraws."""
        moves = self.legal_moves()
        if not moves or self.top() < 0:
            return moves[:1]
        faces = self.faces()
        odds, beside = suit_odds(faces), space_odds(faces)
        sp, s = self.spaces, suit(self.top())
        seen, ranked = set(), []
        for m in moves:
            if m.kind == "reveal":
                gain = sum(odds[m.where][suit(sp[p])] for p in CELL_SPACES[m.where] if sp[p] >= 0)
                ranked.append((1, -gain, m))
                continue
            cls = (m.kind, self._space_class(m.where))
            if cls in seen:
                continue
            seen.add(cls)
            near = beside[m.where][s]
            ranked.append((0, -near, m) if m.kind == "place" else (2, near, m))
        first = rule_move(self)
        return [first] + [m for *_k, m in sorted(ranked) if m != first and
                          not (first.kind != "reveal" and m.kind == first.kind and
                               self._space_class(m.where) == self._space_class(first.where))]

    def _space_class(self, p: int):
        """Spaces that are interchangeable now: a pair's two spaces, or every dead space."""
        return PAIR_OF[p] if SPACE_CELLS[p] & ~self.up else -1

    def heuristic(self):
        return self.score

    def key(self):
        """The world, the deck position, the face-up mask, the score, the pending chance node and
        the spaces by suit only (a card in a space matters only by its suit), each interchangeable
        pair sorted and every dead space pooled (sorted together): dead spaces never score again,
        so only the suits they hold (for withdraws) and how many are empty matter."""
        if self._key is None:
            up, spaces = self.up, self.spaces
            live, dead = bytearray(), []
            for a, b in PAIRS:
                x = suit(spaces[a]) + 1 if spaces[a] >= 0 else 0
                y = suit(spaces[b]) + 1 if spaces[b] >= 0 else 0
                if SPACE_CELLS[a] & ~up:
                    live += bytes((x, y) if x <= y else (y, x))
                else:
                    live += b"\xff\xff"
                    dead += (x, y)
            dead.sort()
            self._key = (self.world, self.pos, up, self.score, self.pending, bytes(live), bytes(dead))
        return self._key

    def picture(self, seen_only=False):
        """The playground's twelve cells (R1C1-R3C4), the fourteen spaces around it, the deck
        (its top card on view), the score pile and the discard pile."""
        grid = self.world.grid
        piles = [P.pile(f"R{c // 4 + 1}C{c % 4 + 1}",
                        [P.card(grid[c]) if self.up >> c & 1 else P.card(None if seen_only else grid[c], down=True)],
                        group=f"row {c // 4 + 1}") for c in range(12)]
        piles += [P.pile(name, [P.card(self.spaces[p])] if self.spaces[p] >= 0 else [], group="spaces")
                  for p, name in enumerate(SPACE_NAMES)]
        deck = self.world.deck[self.pos:]
        piles += [P.deck("deck", deck, seen_only, top_seen=self.pending != DRAW),
                  P.pile("score pile", [P.card(c) for c in self.scored], group="piles"),
                  P.pile("discard", [P.card(c) for c in self.discard], group="piles")]
        return P.picture(piles, score=self.score)

    def __str__(self):
        return self._text(lambda card: f"({C.format_card(card)})")

    def _text(self, face_down):
        grid, up, sp = self.world.grid, self.up, self.spaces

        def space(p):
            return C.format_card(sp[p]) if sp[p] >= 0 else "--"

        def cell(c):
            if self.pending == c:
                return "??"
            return C.format_card(grid[c]) if up >> c & 1 else face_down(grid[c])

        width = max(len(cell(c)) for c in range(12))
        pad = " " * 4
        lines = [pad + " ".join(space(c).center(width) for c in range(4))]
        for r in range(ROWS):
            lines.append(f"{space(8 + r)}  " + " ".join(cell(r * 4 + c).center(width) for c in range(4))
                         + f"  {space(11 + r)}")
        lines.append(pad + " ".join(space(4 + c).center(width) for c in range(4)))
        rest = len(self.world.deck) - self.pos
        top = "??" if self.pending == DRAW else (C.format_card(self.top()) if rest else "-")
        lines.append(f"deck: {rest} cards, top {top}")
        lines.append(f"score pile: {self.score}   discard: {len(self.discard)}")
        return "\n".join(lines)


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


# -- the game -------------------------------------------------------------------------------------
class HideAndSeek(Game):
    name = "hide-and-seek"
    aliases = ("hide",)
    title = "Hide and Seek"
    source = "Isaludo (seeds/000), Hide and Seek"
    has_chance = True    # the next top card after a place or a withdraw; the face a reveal shows
    has_hidden = True    # the face-down playmates
    score_name = "cards in the score pile"
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    piles = {"playmates": "the 12 face cards as the 3x4 grid, row by row (each column a J, a Q and a K "
                          "of three different suits)",
             "deck": "the 40 number cards A-T, top first"}

    def seeded_piles(self, seed, options):
        return {"playmates": seeded_grid(seed), "deck": shuffled(number_cards(), seed)}

    def check_piles(self, piles, source):
        check_exact_pile(piles["playmates"], face_cards(), source, "playmates")
        problem = column_problem(piles["playmates"])
        if problem:
            column, what = problem
            cards = " ".join(C.format_card(piles["playmates"][r * 4 + column - 1]) for r in range(ROWS))
            raise DealError(source, "playmates", f"column {column} ({cards}) has {what}: each column must hold "
                                                 "a J, a Q and a K of three different suits")
        check_exact_pile(piles["deck"], number_cards(), source, "deck")

    def initial_state(self, deal: Deal) -> State:
        if deal.position is not None:
            return _state_from_position(deal.position, deal.source)
        return State(World(deal.piles["playmates"], deal.piles["deck"]))

    def parse_move(self, text):
        return parse_move(text)

    def baseline_move(self, state):
        return baseline_move(state)

    def blind_plan(self, options=None):
        # The blind rule's rollouts, though faces are hidden (a sampled world solved open costs seconds).
        # Seeds 10000-10199, against the rule alone at 78/200: 256 rollouts per move of the first 6 of
        # search_moves by sequential halving, the rule's own move first among equal wins: 154/200, 1.2 s
        # a deal; 512: 154/200 at 2.9 s; every move, 128: 131/200. Losses score: ranked by it.
        return BlindPlan(samples=256, candidates=6, halving=True, keep_rule=True, exact_states=60, rank_losses=True)

    def blind_rule(self, state):
        """The blind rule (rule_move): it weighs the odds of the face-down playmates where the
        baseline only thresholds expected counts, and wins about five times as often."""
        return rule_move(state)

    kernel = "hide_and_seek"  # ext/hide_and_seek.pyx: CanonicalSolver's search in C, the blind rule's rollouts

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, sum of winning scores, sum of losing scores)]: solvers/rollouts.py's
        rollouts of the blind rule (rule_move) in the kernel, the same draws; None when it is not
        built. It reads only the view (_kernel_view)."""
        kernel = self.load_kernel()
        if kernel is None or state.pending != NONE or not state.legal_moves():
            return None
        moves = candidate_moves(self, state) if moves is None else moves
        stats = kernel.rollouts(*_kernel_view(state), [(KERNEL_KINDS.index(m.kind), m.where) for m in moves],
                                samples, seed, RULE_THRESHOLDS, WIN_SCORE)
        return [(m, *row) for m, row in zip(moves, stats)]

    def kernel_moves(self, state):
        """The kernel's reading of the rules (ext/hide_and_seek.pyx legal_moves) as moves."""
        kernel = self.load_kernel()
        if kernel is None or state.pending != NONE:
            return None
        top = state.top()
        return [Move(kind, where) for kind, where in
                kernel.legal_moves(state.up, CanonicalSolver._suits(state), suit(top) if top >= 0 else -1)]

    def fast_solver(self, limits, progress=None):
        """The search over canonical lines, far smaller than the generic search over every move
        order: compiled (KernelSolver) when the kernel is built, else CanonicalSolver."""
        kernel = self.load_kernel()
        if kernel is None:
            return CanonicalSolver(self, limits, progress)
        return KernelSolver(self, kernel, limits, progress)


GAME = HideAndSeek()  # the registry's instance (solodeck/registry.py)


# -- the baseline policy --------------------------------------------------------------------------
BASE_T = [0.5, 1.0, 0.2]  # the rule's thresholds (see baseline_move)


def baseline_move(state: State):
    """A simple rule, from what the player sees: the odds of each face-down playmate's suit over
    the grids consistent with the face-up ones (a guess beside several face-down playmates is
    likely to meet its suit among them, and then it scores when that one is revealed):

    1. with the deck empty, reveal the playmate expected to score most;
    2. place the top card in the empty space where the face-down playmates beside it are
       expected to hold its suit most (if at least 0.5 of a playmate);
    3. else reveal the playmate expected to score most, if at least one card (it frees spaces);
    4. else place the top card where it is expected to meet its suit at least 0.2 of a playmate;
    5. else withdraw the guess of the top card's suit least likely to score;
    6. else place it where it does least harm (a dead space first), else reveal.
    """
    moves = state.legal_moves()
    if not moves:
        return None
    faces = state.faces()
    odds, beside = suit_odds(faces), space_odds(faces)
    sp = state.spaces

    def expected(cell):  # the guesses revealing this playmate is expected to score
        return sum(odds[cell][suit(sp[p])] for p in CELL_SPACES[cell] if sp[p] >= 0)

    def chance(p, s):  # the face-down playmates of suit s expected beside space p
        return beside[p][s]

    reveals = sorted((m for m in moves if m.kind == "reveal"), key=lambda m: -expected(m.where))
    top = state.top()
    if top < 0:
        return reveals[0]
    s = suit(top)
    places = sorted((m for m in moves if m.kind == "place"), key=lambda m: -chance(m.where, s))
    withdraws = sorted((m for m in moves if m.kind == "withdraw"), key=lambda m: chance(m.where, s))
    if places and chance(places[0].where, s) >= BASE_T[0]:
        return places[0]
    if reveals and expected(reveals[0].where) >= BASE_T[1]:
        return reveals[0]
    if places and chance(places[0].where, s) >= BASE_T[2]:
        return places[0]
    if withdraws:
        return withdraws[0]
    if places:
        return places[-1]
    return reveals[0]


# -- the blind rule (Game.blind_rule) -------------------------------------------------------------
# Thresholds in expected cards (tuned on seeds 10000-12999; docs/rules/hide-and-seek.md, "The blind rule").
RULE_PLACE = 0.5         # place the top card where it is live with at least this chance
RULE_WITHDRAW = 0.6      # withdraw a guess when its space's best chance beats the guess's own by this
RULE_REVEAL = 0.7        # reveal when the best reveal is expected to score this much ...
RULE_REVEAL_EMPTY = 0.1  # ... plus this much per empty space (with room left, wait for better)
RULE_LOW = 0.25          # then place where it is live with at least this chance
RULE_DUMP = 0.15         # then place it into a space no suit is likely to score in (a dead one first)


RULE_THRESHOLDS = (RULE_PLACE, RULE_WITHDRAW, RULE_REVEAL, RULE_REVEAL_EMPTY, RULE_LOW, RULE_DUMP)  # the kernel's
KERNEL_KINDS = ("place", "withdraw", "reveal")  # the kernel's move kinds


def _kernel_view(state: State) -> tuple:
    """The kernel's reading of a decision, from the view only: the face-up mask, each cell's face
    index (-1 face down), each space's guess by suit (-1 empty), the top card (-1: none), the rest
    of the deck as a sorted set (its order is unseen) and the score."""
    faces = tuple(face_index(card) if card >= 0 else -1 for card in state.faces())
    spaces = tuple(suit(card) if card >= 0 else -1 for card in state.spaces)
    return state.up, faces, spaces, state.top(), sorted(state.world.deck[state.pos + 1:]), state.score


def rule_move(state: State):
    """The blind rule (docs/rules/hide-and-seek.md, "The blind rule"), from what the player sees:
    the face-down playmates' suits as the consistent grids give them (suit_odds, space_live).
    A guess is *live* if some face-down playmate beside it has its suit: it will score, at the
    latest when the last playmate is revealed. A space's *potential* is the best chance any suit
    has there (0 for a dead space).

    1. deck empty: reveal the playmate expected to score most;
    2. place the top card where it is likeliest live, if at least RULE_PLACE (ties: the space of
       least potential, so the spaces good for every suit stay free);
    3. withdraw the guess of the top card's suit whose space's potential beats its own chance most,
       if by RULE_WITHDRAW (a dead guess blocking a good space);
    4. reveal the playmate expected to score most, if at least RULE_REVEAL + RULE_REVEAL_EMPTY per
       empty space, and it is not the last one (that ends the game);
    5. place where likeliest live, if at least RULE_LOW;
    6. place into the space of least potential, if at most RULE_DUMP;
    7. withdraw as in 3, whatever the gain; else reveal as in 4, the last one only when no space is
       empty; else place as in 5.
    The kernel plays the same rule in its rollouts (ext/hide_and_seek.pyx rule_move)."""
    if not state.legal_moves():
        return None
    faces, sp, up = state.faces(), state.spaces, state.up
    odds, live = suit_odds(faces), space_live(faces)
    hidden = [c for c in range(12) if not up >> c & 1]

    def expected(cell):  # the guesses revealing this playmate is expected to score
        return sum(odds[cell][suit(sp[p])] for p in CELL_SPACES[cell] if sp[p] >= 0)

    def potential(p):
        return max(live[p])

    reveal = max(hidden, key=lambda c: (expected(c), -c))
    top = state.top()
    if top < 0:
        return REVEALS[reveal]
    s = suit(top)
    empty = [p for p in range(14) if sp[p] < 0]
    best = max(empty, key=lambda p: (live[p][s], -potential(p), -p)) if empty else None
    chance = live[best][s] if empty else -1.0
    guesses = [p for p in range(14) if sp[p] >= 0 and suit(sp[p]) == s]
    withdraw = max(guesses, key=lambda p: (potential(p) - live[p][s], -p)) if guesses else None
    if chance >= RULE_PLACE:
        return PLACES[best]
    if withdraw is not None and potential(withdraw) - live[withdraw][s] >= RULE_WITHDRAW:
        return WITHDRAWS[withdraw]
    if len(hidden) > 1 and expected(reveal) >= RULE_REVEAL + RULE_REVEAL_EMPTY * len(empty):
        return REVEALS[reveal]
    if chance >= RULE_LOW:
        return PLACES[best]
    if empty:
        dump = min(empty, key=lambda p: (potential(p), p))
        if potential(dump) <= RULE_DUMP:
            return PLACES[dump]
    if withdraw is not None:
        return WITHDRAWS[withdraw]
    if len(hidden) > 1 or not empty:
        return REVEALS[reveal]
    return PLACES[best]


# -- deal files: positions ----------------------------------------------------------------------
POSITION_FIELDS = ("playmates", "spaces", "deck", "score", "discard")


def _state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``playmates`` = the 12 face cards row by row, face-down ones in parentheses;
    ``spaces`` = the guesses, e.g. "T1=7S L2=3H"; ``deck`` = the deck, top first (the top card is
    seen); ``score`` and ``discard`` = those piles. Every number card in exactly one of the last
    four."""
    check_position_fields(position, POSITION_FIELDS, source)
    for key in POSITION_FIELDS:
        if not isinstance(position.get(key, ""), str):
            raise DealError(source, f"position.{key}", "expected a string")
    grid, up = _read_playmates(position.get("playmates"), source)
    seen: dict = {}

    def take(card, where):
        field = where.split(",")[0]
        if card in seen:
            raise DealError(source, field, f"{C.format_card(card)} appears twice (first in {seen[card]})")
        if C.rank_of(card) > 10:
            raise DealError(source, field, f"{C.format_card(card)} is a face card: only number cards here")
        seen[card] = where

    spaces = [-1] * 14
    for i, word in enumerate(position.get("spaces", "").replace(",", " ").split(), start=1):
        name, _eq, text = word.partition("=")
        field = "position.spaces"
        if name.upper() not in SPACE_INDEX or not text:
            raise DealError(source, field, f"entry {i} '{word}': expected SPACE=CARD, e.g. T1=7S (spaces T1-T4, B1-B4, L1-L3, R1-R3)")
        p = SPACE_INDEX[name.upper()]
        if spaces[p] >= 0:
            raise DealError(source, field, f"entry {i} '{word}': {name.upper()} is given twice")
        card = _card(text, source, field, i)
        take(card, f"{field}, entry {i}")
        spaces[p] = card
    piles = {}
    for name in ("deck", "score", "discard"):
        field = f"position.{name}"
        piles[name] = C.parse_cards(position.get(name, ""), source=source, field=field)
        for i, card in enumerate(piles[name], start=1):
            take(card, f"{field}, card {i}")
    missing = [c for c in number_cards() if c not in seen]
    if missing:
        raise DealError(source, "position", "every number card must be in the spaces, the deck, the score pile or "
                                            f"the discard pile; missing: {C.format_cards(missing)}")
    if up == ALL_UP:
        raise DealError(source, "position.playmates", "every playmate is face up: the game is over")
    return State(World(grid, piles["deck"]), 0, up, tuple(spaces), tuple(piles["score"]), tuple(piles["discard"]))


def _card(word, source, field, i):
    try:
        return C.parse_card(word)
    except ValueError as exc:
        raise DealError(source, field, f"card {i}: {exc}") from None


def _read_playmates(text, source):
    field = "position.playmates"
    if not text:
        raise DealError(source, field, "missing: the 12 face cards row by row, face-down ones in parentheses")
    cards = C.parse_faced_cards(text, source=source, field=field)
    if len(cards) != 12:
        raise DealError(source, field, f"expected 12 face cards (3 rows of 4), found {len(cards)}")
    grid, up = [], 0
    for i, (card, face_up) in enumerate(cards):
        if C.rank_of(card) <= 10:
            raise DealError(source, field, f"card {i + 1} '{C.format_card(card)}' is not a face card")
        grid.append(card)
        up |= face_up << i
    check_exact_pile(grid, face_cards(), source, field)
    problem = column_problem(grid)
    if problem:
        raise DealError(source, field, f"column {problem[0]} has {problem[1]}: each column must hold a J, a Q "
                                       "and a K of three different suits")
    return grid, up


def position_form(state: State) -> dict:
    """The ``[position]`` table of a decision state (the inverse of _state_from_position)."""
    grid, up = state.world.grid, state.up
    return {"playmates": " ".join(C.format_card(grid[c]) if up >> c & 1 else f"({C.format_card(grid[c])})"
                                  for c in range(12)),
            "spaces": " ".join(f"{SPACE_NAMES[p]}={C.format_card(card)}" for p, card in enumerate(state.spaces)
                               if card >= 0),
            "deck": C.format_cards(state.world.deck[state.pos:]),
            "score": C.format_cards(state.scored),
            "discard": C.format_cards(state.discard)}
