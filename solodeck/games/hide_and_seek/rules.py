"""Hide and Seek (Isaludo): the rules, the pure-Python reference engine. Rules page:
docs/rules/hide-and-seek.md.

The playground is a 3x4 grid of face cards (``cells`` 0..11, row by row) with 14 perimeter
``spaces``: T1-T4 (0-3, above the columns), B1-B4 (4-7, below), L1-L3 (8-10, left of the rows),
R1-R3 (11-13, right). A state shares one :class:`World` (the grid's faces and the deck order) with
every state of its game and says how far into the deck play has gone (``pos``), which playmates
are face up (``up``, a 12-bit mask), what each space holds (a card or -1) and the score pile.

Chance (blind mode): after a place or a withdraw the new top card is any card of the deck (a
draw, ``pending == DRAW``); a reveal shows any face the grids consistent with what is seen allow
(``pending`` = the cell). Open mode takes the dealt outcome; a blind outcome that differs from
the world's is made true by a world consistent with it (apply_chance).

The blind rule (rule_move) is here too, not in blind.py: State.search_moves puts its move first,
and this file imports none of the package's others.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import factorial

from ... import cards as C
from ... import picture as P
from ...api import NoWin, Outcome, check_exact_pile
from ...api import State as BaseState
from ...errors import DealError, MoveError
from ...shuffle import SplitMix64, shuffled, shuffled_by

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
        rollouts value the first few: BlindPlan.candidates).

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


# -- the deal -----------------------------------------------------------------------------------
def seeded_piles(seed: int) -> dict:
    return {"playmates": seeded_grid(seed), "deck": shuffled(number_cards(), seed)}


def check_piles(piles: dict, source: str) -> None:
    check_exact_pile(piles["playmates"], face_cards(), source, "playmates")
    problem = column_problem(piles["playmates"])
    if problem:
        column, what = problem
        cards = " ".join(C.format_card(piles["playmates"][r * 4 + column - 1]) for r in range(ROWS))
        raise DealError(source, "playmates", f"column {column} ({cards}) has {what}: each column must hold "
                                             "a J, a Q and a K of three different suits")
    check_exact_pile(piles["deck"], number_cards(), source, "deck")


# -- the blind rule (Game.blind_rule) -------------------------------------------------------------
# Thresholds in expected cards (tuned on seeds 10000-12999; docs/rules/hide-and-seek.md, "The blind rule").
RULE_PLACE = 0.5         # place the top card where it is live with at least this chance
RULE_WITHDRAW = 0.6      # withdraw a guess when its space's best chance beats the guess's own by this
RULE_REVEAL = 0.7        # reveal when the best reveal is expected to score this much ...
RULE_REVEAL_EMPTY = 0.1  # ... plus this much per empty space (with room left, wait for better)
RULE_LOW = 0.25          # then place where it is live with at least this chance
RULE_DUMP = 0.15         # then place it into a space no suit is likely to score in (a dead one first)


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
