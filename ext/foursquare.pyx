# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Foursquare kernel: the grid in C arrays, make/unmake, and three searches.

It mirrors the reference engine (solodeck/games/foursquare/rules.py): the same legal placements and the
same grids after them (tests compare them state by state), and the same values as the reference
searches (tests compare those too).

- ``win_within(budget)`` (open mode): can the dealt deck be won with at most ``budget`` more
  placements? A win's score is the cards left, so the best score is the shortest win; the
  adapter lowers the budget below each win found until the search fails (branch and bound).
- ``blind_value(hand)`` (blind mode): exact expectimax over the composition of the unseen cards,
  value (P(win), E[score x win]), tabled at chance nodes.
- ``rollouts(hand, samples, seed)``: each legal placement followed by the baseline policy over
  sampled draws, the same samples for every placement (the Monte-Carlo estimator).

The grid is a 7 x 7 board centred on the first card, (x, y) in -3..3, cell (y + 3) * 7 + x + 3.
The table key folds translation and the 8 symmetries of the square, like the reference's key.
"""
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t, uint32_t, int8_t
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, next_random, mix64, Clock, clock_restart,
                     clock_start, clock_expired, capacity_for, table_full, grow_or_clear)

cdef extern from *:
    uint32_t bswap32 "__builtin_bswap32"(uint32_t) nogil
    int lowest "__builtin_ctzll"(uint64_t) nogil

cdef enum:
    W = 7
    CELLS = 49
    MAX_HEIGHT = 4
    MAX_FACE_DOWN = 4
    MAX_TARGETS = 32
    CHECK_EVERY = 0xFFF
    NEVER = 127

ctypedef struct Board:
    int val[CELLS]      # top value 1..10, 0 = no pile
    int up[CELLS]
    int height[CELLS]
    int piles, face_down
    int minx, maxx, miny, maxy
    uint64_t piled      # the cells holding a pile, one bit each, column by column (bit_of)
    uint64_t full       # the piles of MAX_HEIGHT cards

ctypedef struct Undo:
    int cell, val, up, height
    int row_flipped, col_flipped
    int piles, face_down, minx, maxx, miny, maxy
    uint64_t piled, full

ctypedef struct Entry:  # 40 bytes
    uint64_t k1, k2
    uint32_t k3         # 0 = empty slot
    int8_t fail_at      # open: largest budget proven too small (-1 none)
    int8_t win_at       # open: smallest budget proven enough (NEVER none)
    double p, e         # blind: (P(win), E[score x win])

cdef uint64_t POW5[11]
POW5[1] = 1  # 5^(v-1): the unseen composition's code, ten base-5 digits
for _v in range(2, 11):
    POW5[_v] = POW5[_v - 1] * 5


cdef inline int cell_of(int x, int y) noexcept nogil:
    return (y + 3) * W + x + 3


# The cell masks number the cells column by column, so that walking a mask's bits upwards walks
# the cells in the reference's (x, y) order.
cdef uint64_t ALL_CELLS = (<uint64_t>1 << CELLS) - 1
cdef uint64_t EVERY_COLUMN = 0  # bit y = 0 of each column
for _x in range(W):
    EVERY_COLUMN |= <uint64_t>1 << (_x * W)
cdef uint64_t NOT_TOP = ALL_CELLS & ~EVERY_COLUMN                   # cells with y > 0
cdef uint64_t NOT_BOTTOM = ALL_CELLS & ~(EVERY_COLUMN << (W - 1))   # cells with y < W - 1


cdef inline uint64_t bit_of(int cell) noexcept nogil:
    return <uint64_t>1 << ((cell % W) * W + cell // W)


cdef int CELL_OF_BIT[CELLS]
for _i in range(CELLS):
    CELL_OF_BIT[_i] = (_i % W) * W + _i // W


cdef inline uint64_t window(int x0, int x1, int y0, int y1) noexcept nogil:
    """The cells with x0 <= x <= x1 and y0 <= y <= y1 (0 .. W - 1)."""
    cdef uint64_t columns = (<uint64_t>1 << (W * (x1 + 1))) - (<uint64_t>1 << (W * x0))
    return columns & (((<uint64_t>1 << (y1 + 1)) - (<uint64_t>1 << y0)) * EVERY_COLUMN)


# -- the rules -------------------------------------------------------------------------------
cdef inline int flip_line(Board* b, int cell, int v, int step, int lo, int hi, int fixed_row) noexcept nogil:
    """Flip the other piles of the placed card's row (step 1) or column (step W) if the rule says
    so; return whether it did. Flipping again with the same card undoes it."""
    cdef int c, i, shown_max = 0, shown_min = 11, others = 0
    for i in range(lo, hi + 1):
        c = fixed_row + i * step
        if c != cell and b.val[c]:
            others += 1
            if b.up[c]:
                if b.val[c] > shown_max:
                    shown_max = b.val[c]
                if b.val[c] < shown_min:
                    shown_min = b.val[c]
    if others == 0 or not (shown_max == 0 or v > shown_max or v < shown_min):
        return 0
    for i in range(lo, hi + 1):
        c = fixed_row + i * step
        if c != cell and b.val[c]:
            b.face_down += 1 if b.up[c] else -1
            b.up[c] ^= 1
    return 1


cdef inline void toggle_line(Board* b, int cell, int step, int lo, int hi, int fixed_row) noexcept nogil:
    cdef int c, i
    for i in range(lo, hi + 1):
        c = fixed_row + i * step
        if c != cell and b.val[c]:
            b.face_down += 1 if b.up[c] else -1
            b.up[c] ^= 1


cdef inline int place(Board* b, int cell, int v, Undo* u) noexcept nogil:
    """Place value v at cell (a target from targets()) and flip; return 1 if legal, else undo and
    return 0."""
    cdef int x = cell % W, y = cell // W
    u.cell = cell
    u.val = b.val[cell]; u.up = b.up[cell]; u.height = b.height[cell]
    u.piles = b.piles; u.face_down = b.face_down
    u.minx = b.minx; u.maxx = b.maxx; u.miny = b.miny; u.maxy = b.maxy
    u.piled = b.piled; u.full = b.full
    if b.val[cell] == 0:
        b.piles += 1
        b.height[cell] = 1
        b.piled |= bit_of(cell)
        if x < b.minx: b.minx = x
        if x > b.maxx: b.maxx = x
        if y < b.miny: b.miny = y
        if y > b.maxy: b.maxy = y
    else:
        b.height[cell] += 1
        if b.height[cell] == MAX_HEIGHT:
            b.full |= bit_of(cell)
        if not b.up[cell]:
            b.face_down -= 1
    b.val[cell] = v
    b.up[cell] = 1
    u.row_flipped = flip_line(b, cell, v, 1, b.minx, b.maxx, y * W)
    u.col_flipped = flip_line(b, cell, v, W, b.miny, b.maxy, x)
    if b.face_down > MAX_FACE_DOWN:
        unplace(b, u)
        return 0
    return 1


cdef inline int flip_change(Board* b, int cell, int v, int step, int lo, int hi, int fixed_row) noexcept nogil:
    """What flip_line would add to the face-down count, the board left alone."""
    cdef int c, i, shown_max = 0, shown_min = 11, others = 0, change = 0
    for i in range(lo, hi + 1):
        c = fixed_row + i * step
        if c != cell and b.val[c]:
            others += 1
            if b.up[c]:
                change += 1
                if b.val[c] > shown_max:
                    shown_max = b.val[c]
                if b.val[c] < shown_min:
                    shown_min = b.val[c]
            else:
                change -= 1
    if others == 0 or not (shown_max == 0 or v > shown_max or v < shown_min):
        return 0
    return change


cdef inline int face_down_after(Board* b, int cell, int v) noexcept nogil:
    """The face-down tops after placing v at cell (legal if at most MAX_FACE_DOWN), without
    placing it: the search ranks every placement, and places only those it goes into. Cells
    outside the grid's frame are empty, so the frame before the placement spans its lines."""
    return (b.face_down - (b.val[cell] != 0 and not b.up[cell])
            + flip_change(b, cell, v, 1, b.minx, b.maxx, (cell // W) * W)
            + flip_change(b, cell, v, W, b.miny, b.maxy, cell % W))


cdef inline void unplace(Board* b, Undo* u) noexcept nogil:
    cdef int cell = u.cell, x = cell % W, y = cell // W
    if u.row_flipped:
        toggle_line(b, cell, 1, b.minx, b.maxx, y * W)
    if u.col_flipped:
        toggle_line(b, cell, W, b.miny, b.maxy, x)
    b.val[cell] = u.val; b.up[cell] = u.up; b.height[cell] = u.height
    b.piles = u.piles; b.face_down = u.face_down
    b.minx = u.minx; b.maxx = u.maxx; b.miny = u.miny; b.maxy = u.maxy
    b.piled = u.piled; b.full = u.full


cdef int targets(Board* b, int* out) noexcept nogil:
    """Cells the drawn card may go to before the face-down limit: piles below height 4 and empty
    cells next to a pile that keep the grid within 4 x 4; in the reference's order, by (x, y)."""
    cdef uint64_t piled = b.piled
    cdef uint64_t next_to = ((piled << W) | (piled >> W) | ((piled << 1) & NOT_TOP)
                             | ((piled >> 1) & NOT_BOTTOM)) & ~piled
    cdef uint64_t free = (piled & ~b.full) | (next_to & window(max_(b.maxx - 3, 0), min_(b.minx + 3, W - 1),
                                                                max_(b.maxy - 3, 0), min_(b.miny + 3, W - 1)))
    cdef int n = 0
    while free:
        out[n] = CELL_OF_BIT[lowest(free)]; n += 1
        free &= free - 1
    return n


cdef inline int max_(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int min_(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline bint won(Board* b) noexcept nogil:
    return b.piles == 16 and b.face_down == 0


cdef inline int placements_needed(Board* b) noexcept nogil:
    """At least one placement per missing pile, and at least one if not won (reference's bound)."""
    return max_(16 - b.piles, 0 if won(b) else 1)


cdef bint stranded(Board* b) noexcept nogil:
    """When every placement left must start a new pile, a face-down top can only be turned up
    by a new pile in its row or column. In a full 4 x 4 frame, one whose row and column
    are full never will be."""
    if b.maxx - b.minx < 3 or b.maxy - b.miny < 3 or b.face_down == 0:
        return 0
    cdef int x, y, c
    cdef uint64_t frame = window(b.minx, b.maxx, b.miny, b.maxy), column, row
    for x in range(b.minx, b.maxx + 1):
        column = frame & (<uint64_t>0x7F << (x * W))
        if b.piled & column != column:
            continue
        for y in range(b.miny, b.maxy + 1):
            c = y * W + x
            if not b.up[c]:
                row = frame & (EVERY_COLUMN << y)
                if b.piled & row == row:
                    return 1
    return 0


cdef bint last_card_alone(Board* b, int* cards, int first, int last) noexcept nogil:
    """Can no placement from the ``first``-th to the ``last``-th (counted from 1) be the winning
    one? The winning placement's pile shares its row and its column with 3 piles each (the grid
    is full then). If its card is strictly below (or above) every top that could be on the grid
    then - the tops now and the cards placed before it - it is a strict extreme of any face-up
    tops there and turns over all 6 piles: all 6 must be face down before it, and more than 4
    face-down tops is never allowed."""
    cdef int x, y, c, i, low = 11, high = 0
    for y in range(b.miny, b.maxy + 1):
        for x in range(b.minx, b.maxx + 1):
            c = y * W + x
            if b.val[c]:
                low = min_(low, b.val[c])
                high = max_(high, b.val[c])
    for i in range(last):
        if i + 1 >= first and low <= cards[i] <= high:
            return 0
        low = min_(low, cards[i])
        high = max_(high, cards[i])
    return 1


cdef inline void keep_least(uint32_t* r, int h, bint flip_rows, int shift, uint64_t* k1, uint64_t* k2) noexcept nogil:
    """Lower (k1, k2) to the image of rows r[0 .. h - 1] (one byte a cell, column 0 highest), its
    row order reversed if ``flip_rows``, each row's bytes reversed if ``shift`` >= 0 (then moved
    up by ``shift`` bits, back to column 0), if that image is smaller."""
    cdef uint32_t q[4]
    cdef int j
    for j in range(4):
        q[j] = 0 if j >= h else r[h - 1 - j] if flip_rows else r[j]
        if shift >= 0:
            q[j] = bswap32(q[j]) << shift
    cdef uint64_t a = (<uint64_t>q[0] << 32) | q[1], c = (<uint64_t>q[2] << 32) | q[3]
    if a < k1[0] or (a == k1[0] and c < k2[0]):
        k1[0] = a
        k2[0] = c


cdef void canonical(Board* b, uint64_t* k1, uint64_t* k2) noexcept nogil:
    """The grid up to translation and the 8 symmetries: the smallest of the 8 normalised 4 x 4
    images, one byte per cell (value | up << 4 | (height - 1) << 5, 0 = no pile), cell 0 in the
    top byte of k1. The grid and its transpose are written once, row by row; the other six are
    their rows reversed in order, in bytes, or both."""
    cdef int w = b.maxx - b.minx + 1, h = b.maxy - b.miny + 1
    cdef int x, y, c
    cdef uint32_t byte
    cdef uint32_t rows[4]
    cdef uint32_t cols[4]  # the transpose's rows
    rows[0] = rows[1] = rows[2] = rows[3] = 0
    cols[0] = cols[1] = cols[2] = cols[3] = 0
    for y in range(b.miny, b.maxy + 1):
        for x in range(b.minx, b.maxx + 1):
            c = y * W + x
            if b.val[c]:
                byte = b.val[c] | (b.up[c] << 4) | ((b.height[c] - 1) << 5)
                rows[y - b.miny] |= byte << (24 - 8 * (x - b.minx))
                cols[x - b.minx] |= byte << (24 - 8 * (y - b.miny))
    k1[0] = k2[0] = 0xFFFFFFFFFFFFFFFFULL
    keep_least(rows, h, 0, -1, k1, k2)
    keep_least(rows, h, 1, -1, k1, k2)
    keep_least(rows, h, 0, 8 * (4 - w), k1, k2)
    keep_least(rows, h, 1, 8 * (4 - w), k1, k2)
    keep_least(cols, w, 0, -1, k1, k2)
    keep_least(cols, w, 1, -1, k1, k2)
    keep_least(cols, w, 0, 8 * (4 - h), k1, k2)
    keep_least(cols, w, 1, 8 * (4 - h), k1, k2)


cdef inline int baseline_target(Board* b, int v, int* n_legal) noexcept nogil:
    """The baseline policy's placement of v (-1: none legal): fewest face-down tops after it,
    then most piles, then nearest the first card, then the smallest (x, y). n_legal: legal count."""
    cdef int cells[MAX_TARGETS]
    cdef int n = targets(b, cells), i, c, x, y, fd, piles, dist, best = -1
    cdef int bfd = 99, bpiles = 0, bdist = 99
    cdef Undo u
    n_legal[0] = 0
    for i in range(n):  # targets come in (x, y) order: the first best is the smallest (x, y)
        c = cells[i]
        if not place(b, c, v, &u):
            continue
        n_legal[0] += 1
        fd = b.face_down; piles = b.piles
        unplace(b, &u)
        x = c % W - 3; y = c // W - 3
        dist = x * x + y * y
        if fd < bfd or (fd == bfd and (piles > bpiles or (piles == bpiles and dist < bdist))):
            best = c; bfd = fd; bpiles = piles; bdist = dist
    return best


cdef class Search:
    """One position (set_position) and the searches from it. ``memory_mb`` caps the table (a
    full table is cleared: the state graph is acyclic, so a lost entry is only searched again);
    ``max_states`` stops a search (memory-limit) once that many entries were stored;
    ``time_limit`` stops it (timeout); the clock starts at the first search."""

    cdef Board board
    cdef int deck[41]          # open mode: the cards to place in order (deck[0] = the hand)
    cdef int n_deck
    cdef int counts[11]        # blind mode: unseen cards by value (the deck without the hand)
    cdef int unseen
    cdef uint64_t code         # sum of counts[v] * 5^(v-1)
    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used
    cdef public uint64_t nodes, stored
    cdef uint64_t max_states
    cdef Clock clock
    cdef public int stopped
    cdef uint64_t node_limit  # the current question's last node (0: none): STOP_STATES past it

    def __cinit__(self, double memory_mb=1024.0, double time_limit=0.0, long long max_states=0):
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 12)
        self.capacity = min(<uint64_t>1 << 16, self.max_capacity)
        self.table = <Entry*>calloc(self.capacity, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        clock_restart(&self.clock, time_limit)
        self.max_states = max_states
        self.nodes = self.stored = self.used = 0
        self.stopped = STOP_NONE

    def __dealloc__(self):
        free(self.table)

    # -- the position ------------------------------------------------------------------------
    def set_position(self, piles, deck, bint clear=True):
        """piles: [(x, y, value, up, height)] relative to the first card; deck: the values still
        to place, in order, the drawn card (if any) first. ``clear``: forget the table (open-mode
        keys assume one dealt deck; blind-mode keys hold the whole composition and stay valid)."""
        cdef int c, v
        memset(&self.board, 0, sizeof(Board))
        self.board.minx = self.board.miny = W
        self.board.maxx = self.board.maxy = -1
        for x, y, v, up, height in piles:
            c = cell_of(x, y)
            self.board.val[c] = v; self.board.up[c] = 1 if up else 0; self.board.height[c] = height
            self.board.piles += 1
            self.board.face_down += 0 if up else 1
            self.board.minx = min_(self.board.minx, x + 3); self.board.maxx = max_(self.board.maxx, x + 3)
            self.board.miny = min_(self.board.miny, y + 3); self.board.maxy = max_(self.board.maxy, y + 3)
            self.board.piled |= bit_of(c)
            if height >= MAX_HEIGHT:
                self.board.full |= bit_of(c)
        if len(deck) > 40:
            raise ValueError("more than 40 cards")
        self.n_deck = len(deck)
        for c, v in enumerate(deck):
            self.deck[c] = v
        if clear:
            self.clear()

    def is_won(self):
        return bool(won(&self.board))

    def clear(self):
        memset(self.table, 0, self.capacity * sizeof(Entry))
        self.used = 0

    def piles(self):
        """[(x, y, value, up, height)] sorted by (x, y)."""
        return sorted((c % W - 3, c // W - 3, self.board.val[c], bool(self.board.up[c]), self.board.height[c])
                      for c in range(CELLS) if self.board.val[c])

    def legal_moves(self, int v):
        """[(x, y)] where value v may be placed, in the reference's order."""
        cdef int cells[MAX_TARGETS]
        cdef int n = targets(&self.board, cells), i
        cdef Undo u
        out = []
        for i in range(n):
            if place(&self.board, cells[i], v, &u):
                unplace(&self.board, &u)
                out.append((cells[i] % W - 3, cells[i] // W - 3))
        return out

    def play(self, int x, int y, int v):
        """Place v at (x, y) for good (tests walk lines with it); False if not legal."""
        cdef Undo u
        cdef int cells[MAX_TARGETS]
        cdef int n = targets(&self.board, cells), i
        for i in range(n):
            if cells[i] == cell_of(x, y):
                return bool(place(&self.board, cells[i], v, &u))
        return False

    def key(self):
        cdef uint64_t k1, k2
        canonical(&self.board, &k1, &k2)
        return (k1, k2)

    def baseline_move(self, int v):
        """The baseline policy's (x, y) for value v, or None if no placement is legal."""
        cdef int n
        cdef int c = baseline_target(&self.board, v, &n)
        return None if c < 0 else (c % W - 3, c // W - 3)

    # -- limits and the table ----------------------------------------------------------------
    cdef int _tick(self) noexcept nogil:
        self.nodes += 1
        if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
            self.stopped = STOP_TIME
        elif self.node_limit and self.nodes >= self.node_limit:
            self.stopped = STOP_STATES
        return self.stopped

    def restart_clock(self, double seconds):
        """A fresh time limit (0: none) that starts with the next search."""
        clock_restart(&self.clock, seconds)

    cdef void _start(self):
        self.stopped = STOP_NONE
        self.node_limit = 0
        clock_start(&self.clock)

    cdef inline uint64_t _slot(self, uint64_t k1, uint64_t k2, uint32_t k3) noexcept nogil:
        cdef uint64_t h = mix64(k1 ^ ((k2 << 32 | k2 >> 32) * 0x9E3779B97F4A7C15ULL) ^ k3)
        cdef uint64_t mask = self.capacity - 1, i = h & mask
        while self.table[i].k3 and not (self.table[i].k3 == k3 and self.table[i].k1 == k1
                                        and self.table[i].k2 == k2):
            i = (i + 1) & mask
        return i

    cdef Entry* _find(self, uint64_t k1, uint64_t k2, uint32_t k3) noexcept nogil:
        cdef Entry* e = &self.table[self._slot(k1, k2, k3)]
        return e if e.k3 else NULL

    cdef Entry* _store(self, uint64_t k1, uint64_t k2, uint32_t k3) noexcept:
        """The entry for the key, new (fail_at -1, win_at NEVER) if it was not there."""
        cdef Entry* e = &self.table[self._slot(k1, k2, k3)]
        if e.k3:
            return e
        if self.max_states and self.stored >= self.max_states:
            self.stopped = STOP_STATES
        if table_full(self.used, self.capacity):
            self._grow()
            e = &self.table[self._slot(k1, k2, k3)]
        e.k1 = k1; e.k2 = k2; e.k3 = k3
        e.fail_at = -1; e.win_at = NEVER
        self.used += 1
        self.stored += 1
        return e

    cdef void _grow(self):
        cdef uint64_t i, j
        cdef Entry* old = <Entry*>grow_or_clear(<void**>&self.table, &self.capacity, self.max_capacity,
                                                sizeof(Entry))
        if old == NULL:  # cleared
            self.used = 0
            return
        for i in range(self.capacity // 2):
            if old[i].k3:
                j = self._slot(old[i].k1, old[i].k2, old[i].k3)
                self.table[j] = old[i]
        free(old)

    # -- open mode ---------------------------------------------------------------------------
    def win_within(self, int budget, uint64_t node_limit=0):
        """1 if the dealt deck is won within ``budget`` more placements, 0 if not (proven),
        -1 if a limit stopped the search (``stopped`` says which: STOP_STATES when ``nodes``
        reached ``node_limit``, if given)."""
        self._start()
        self.node_limit = node_limit
        if won(&self.board):
            return 1
        cdef int r = self._win_within(0, budget)
        return -1 if self.stopped else r

    def first_winning_move(self, int budget):
        """(x, y) of a placement of deck[0] after which the rest wins within budget - 1, else
        None. The table usually knows one: the search that proved the win stored its child."""
        cdef int cells[MAX_TARGETS]
        cdef int n = targets(&self.board, cells), i, r, found = -1
        cdef uint64_t k1, k2
        cdef Entry* e
        cdef Undo u
        self._start()
        for i in range(n):  # first ask the table
            if not place(&self.board, cells[i], self.deck[0], &u):
                continue
            if won(&self.board):
                found = cells[i]
            else:
                canonical(&self.board, &k1, &k2)
                e = self._find(k1, k2, self.n_deck - 1)
                if e != NULL and e.win_at <= budget - 1:
                    found = cells[i]
            unplace(&self.board, &u)
            if found >= 0:
                return (found % W - 3, found // W - 3)
        for i in range(n):  # a cleared table: search again
            if not place(&self.board, cells[i], self.deck[0], &u):
                continue
            r = self._win_within(1, budget - 1)
            unplace(&self.board, &u)
            if self.stopped:
                return None
            if r:
                return (cells[i] % W - 3, cells[i] // W - 3)
        return None

    def advance(self, int x, int y):
        """Place deck[0] at (x, y) and drop it from the deck."""
        cdef int i
        if not self.play(x, y, self.deck[0]):
            raise ValueError(f"({x}, {y}) is not legal")
        for i in range(1, self.n_deck):
            self.deck[i - 1] = self.deck[i]
        self.n_deck -= 1  # keys hold the cards left, not the cards placed: the table stays valid

    cdef int _win_within(self, int d, int budget) noexcept:
        """The position has deck[d] to place next (not won): a win within budget placements?"""
        cdef int left = self.n_deck - d
        if budget > left:
            budget = left
        cdef int needed = placements_needed(&self.board)
        # Budget for new piles only: every placement must start one (no covering).
        cdef bint tight = budget == 16 - self.board.piles
        if (needed > budget or (tight and stranded(&self.board))
                or last_card_alone(&self.board, &self.deck[d], needed, budget) or self._tick()):
            return 0
        cdef uint64_t k1, k2
        canonical(&self.board, &k1, &k2)
        cdef uint32_t k3 = self.n_deck - d  # the cards left (1..40) fix the rest of the deck
        cdef Entry* e = self._find(k1, k2, k3)
        if e != NULL:
            if budget <= e.fail_at:
                return 0
            if budget >= e.win_at:
                return 1
        cdef int cells[MAX_TARGETS]
        cdef int order[MAX_TARGETS]
        cdef int rank[MAX_TARGETS]
        cdef int n = targets(&self.board, cells), i, j, m = 0, c, r = 0, v = self.deck[d], fd, piles
        cdef Undo u
        cdef bint cover = not tight  # covering a pile spends a placement that starts no pile
        for i in range(n):  # legal placements, most promising first: fewest face-down, most piles
            if self.board.val[cells[i]] and not cover:
                continue
            fd = face_down_after(&self.board, cells[i], v)
            if fd > MAX_FACE_DOWN:
                continue
            piles = self.board.piles + (self.board.val[cells[i]] == 0)
            if piles == 16 and fd == 0:
                r = 1
                break
            c = fd * 32 - piles
            j = m
            while j > 0 and rank[j - 1] > c:
                rank[j] = rank[j - 1]; order[j] = order[j - 1]; j -= 1
            rank[j] = c; order[j] = cells[i]; m += 1
        if not r:
            for i in range(m):
                place(&self.board, order[i], v, &u)
                r = self._win_within(d + 1, budget - 1)
                unplace(&self.board, &u)
                if r or self.stopped:
                    break
        if self.stopped:
            return 0
        e = self._store(k1, k2, k3)
        if r:
            if budget < e.win_at:
                e.win_at = budget
        elif budget > e.fail_at:
            e.fail_at = budget
        return r

    # -- blind mode --------------------------------------------------------------------------
    def blind_value(self, int hand):
        """(P(win), E[score x win]) under best blind play, or None if a limit stopped the search.
        The deck's order is ignored: only its composition counts. hand: the drawn card to place,
        or 0 at a chance node (before a draw)."""
        cdef int i
        self._start()
        memset(self.counts, 0, sizeof(self.counts))
        self.code = 0
        for i in range(self.n_deck):
            self.counts[self.deck[i]] += 1
            self.code += POW5[self.deck[i]]
        self.unseen = self.n_deck
        if hand:
            self.counts[hand] -= 1
            self.code -= POW5[hand]
            self.unseen -= 1
            p, e = self._decision(hand)
        else:
            p, e = self._chance()
        return None if self.stopped else (p, e)

    cdef (double, double) _chance(self) noexcept:
        """Value before a draw from the unseen cards (the grid is not won)."""
        cdef int total = self.unseen, v, c
        if (total == 0 or placements_needed(&self.board) > total
                or (16 - self.board.piles == total and stranded(&self.board)) or self._tick()):
            return (0.0, 0.0)
        cdef uint64_t k1, k2
        canonical(&self.board, &k1, &k2)
        cdef uint32_t k3 = <uint32_t>(self.code + 64)  # open-mode keys use 1..40
        cdef Entry* e = self._find(k1, k2, k3)
        if e != NULL:
            return (e.p, e.e)
        cdef double p = 0.0, s = 0.0, cp, cs
        for v in range(1, 11):
            c = self.counts[v]
            if not c:
                continue
            self.counts[v] -= 1; self.code -= POW5[v]; self.unseen -= 1
            cp, cs = self._decision(v)
            self.counts[v] += 1; self.code += POW5[v]; self.unseen += 1
            if self.stopped:
                return (0.0, 0.0)
            p += c * cp
            s += c * cs
        e = self._store(k1, k2, k3)
        e.p = p / total
        e.e = s / total
        return (e.p, e.e)

    cdef (double, double) _decision(self, int v) noexcept:
        """Value with v drawn: the best placement (higher P(win), then E[score x win])."""
        cdef int cells[MAX_TARGETS]
        cdef int n = targets(&self.board, cells), i
        cdef double bp = 0.0, bs = 0.0, cp, cs
        cdef Undo u
        cdef bint tight = 16 - self.board.piles == self.unseen + 1  # every card left must start a pile
        for i in range(n):
            if (tight and self.board.val[cells[i]]) or not place(&self.board, cells[i], v, &u):
                continue
            if won(&self.board):
                cp = 1.0; cs = self.unseen
            else:
                cp, cs = self._chance()
            unplace(&self.board, &u)
            if self.stopped:
                break
            if cp > bp + 1e-12 or (cp > bp - 1e-12 and cs > bs + 1e-12):
                bp = cp; bs = cs
        return (bp, bs)

    # -- the Monte-Carlo estimator -----------------------------------------------------------
    def rollouts(self, int hand, int samples, uint64_t seed):
        """[(x, y, wins, score_sum)] for each legal placement of ``hand``: the placement, then the
        baseline policy, over ``samples`` draws of the other unseen cards (deck[1:] as a multiset).
        Sample i draws with splitmix64 seeded seed + i, the same for every placement; each draw
        takes value v with probability counts[v] / unseen (the reference's sampler does the same)."""
        cdef int cells[MAX_TARGETS]
        cdef int n = targets(&self.board, cells), i, k, wins, score_sum, steps, v, c, r, legal, left
        cdef int base_counts[11]
        cdef int counts[11]
        cdef Undo u
        cdef Undo trail[41]
        cdef uint64_t rng
        memset(base_counts, 0, sizeof(base_counts))
        for i in range(1, self.n_deck):
            base_counts[self.deck[i]] += 1
        out = []
        for i in range(n):
            if not place(&self.board, cells[i], hand, &u):
                continue
            wins = score_sum = 0
            for k in range(samples):
                rng = seed + <uint64_t>k
                for v in range(11):
                    counts[v] = base_counts[v]
                left = self.n_deck - 1
                steps = 0
                while not won(&self.board) and left > 0:
                    r = <int>(next_random(&rng) % <uint64_t>left)
                    v = 1
                    while r >= counts[v]:
                        r -= counts[v]; v += 1
                    counts[v] -= 1; left -= 1
                    c = baseline_target(&self.board, v, &legal)
                    if c < 0:
                        break
                    place(&self.board, c, v, &trail[steps]); steps += 1
                if won(&self.board):
                    wins += 1; score_sum += left
                while steps > 0:
                    steps -= 1
                    unplace(&self.board, &trail[steps])
            self.nodes += samples
            unplace(&self.board, &u)
            out.append((cells[i] % W - 3, cells[i] // W - 3, wins, score_sum))
        return out
