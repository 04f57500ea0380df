# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Hide and Seek's open-mode engine: the search over canonical lines of
solodeck/games/hide_and_seek/search.py (``CanonicalSolver``, the reference; docs/rules/hide-and-seek.md,
"How the solver plays it") in C. It makes the same choices in the same order with the same cuts,
so it visits the same nodes; tests/test_hide_and_seek.py checks values, choices and node counts
against the reference.

A node is (deck position, face-up mask, the suit in each of the 14 spaces or -1). Its key packs
into 64 bits: position (6 bits), mask (12), each of the 7 interchangeable pairs of spaces as one
of 15 sorted suit pairs or 15 when dead (28), and the dead spaces pooled as a count per suit (16).
A value is the score still to come; a stored value is exact, or an upper bound when it failed
low. Choices are codes: FINISH (-1), place p (p), withdraw p (100 + p), reveal x then place p
(200 + 16 x + p).

Blind mode: ``rollouts`` plays the blind rule (the reference's rule_move) after each candidate
move over sampled draws, the same draws as solvers/rollouts.py's rollouts of the reference, and
``rule_move`` is the rule alone (the tests compare both with the reference).
"""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from itertools import permutations

from shared cimport (STOP_NONE, STOP_STATES, STOP_TIME, Clock, below, capacity_for, clock_expired,
                     clock_restart, clock_start, grow_or_clear, mix64, table_full)

cdef enum:
    SPACES = 14
    CELLS = 12
    MAX_CHILDREN = 80
    FINISH = -1
    STOPPED = -1000
    CHECK_EVERY = 1023  # the clock and the state cap are read once per 1024 nodes, as the reference does

FINISH_CHOICE = FINISH


class Stopped(Exception):
    """A limit was reached (``Search.stopped`` says which)."""


ctypedef struct Entry:
    uint64_t key     # the node's key with bit 63 set (0: an empty slot)
    int16_t choice
    int8_t value
    uint8_t exact


ctypedef struct Child:
    int order        # places by -(face-down playmates of the card's suit beside), reveals 4 - scored
    int gain
    int up
    int choice
    int8_t sp[SPACES]


# The board's geometry (as the reference's module constants).
cdef int SPACE_CELLS[SPACES]
cdef int CELL_SPACES[CELLS][4]
cdef int PAIR_OF[SPACES]
cdef int PAIR_A[7]
cdef int PAIR_B[7]
cdef int SORTED_CODE[5][5]  # (x + 1, y + 1) of a pair as one of 15 codes, whichever order

for _c in range(4):
    SPACE_CELLS[_c] = SPACE_CELLS[4 + _c] = sum(1 << (_r * 4 + _c) for _r in range(3))
    PAIR_OF[_c] = PAIR_OF[4 + _c] = _c
    PAIR_A[_c], PAIR_B[_c] = _c, 4 + _c
for _r in range(3):
    SPACE_CELLS[8 + _r] = SPACE_CELLS[11 + _r] = sum(1 << (_r * 4 + _c) for _c in range(4))
    PAIR_OF[8 + _r] = PAIR_OF[11 + _r] = 4 + _r
    PAIR_A[4 + _r], PAIR_B[4 + _r] = 8 + _r, 11 + _r
for _x in range(12):
    _r, _c = divmod(_x, 4)
    CELL_SPACES[_x][0], CELL_SPACES[_x][1], CELL_SPACES[_x][2], CELL_SPACES[_x][3] = _c, 4 + _c, 8 + _r, 11 + _r
_n = 0
for _x in range(5):
    for _y in range(_x, 5):
        SORTED_CODE[_x][_y] = SORTED_CODE[_y][_x] = _n
        _n += 1


cdef class Search:
    """One world's search: ``grid_suits`` (the suit of each cell, row by row) and ``deck_suits``
    (the suits of the deck from the position searched on, top first). ``time_limit`` (0: none)
    applies to each ``root``/``choice`` call; ``max_states`` (0: none) stops a search once that
    many entries are stored."""

    cdef int gs[CELLS]
    cdef int ds[40]
    cdef int n
    cdef int left[41][4]
    cdef uint8_t live[4096][SPACES]       # per face-up mask: the suits a guess in each space scores with
    cdef uint8_t beside[4096][SPACES][4]  # ... how many face-down playmates of each suit are beside it
    cdef uint8_t hidden[4096][4]          # ... how many playmates of each suit are face down
    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used, max_states
    cdef Clock clock
    cdef public uint64_t nodes
    cdef public int stopped

    def __cinit__(self, grid_suits, deck_suits, double memory_mb=1024.0, double time_limit=0.0,
                  long long max_states=0):
        cdef int up, p, c, s, i
        self.n = len(deck_suits)
        for c in range(CELLS):
            self.gs[c] = grid_suits[c]
        for i in range(self.n):
            self.ds[i] = deck_suits[i]
        for s in range(4):
            self.left[self.n][s] = 0
        for i in range(self.n - 1, -1, -1):
            for s in range(4):
                self.left[i][s] = self.left[i + 1][s] + (self.ds[i] == s)
        for up in range(4096):
            for s in range(4):
                self.hidden[up][s] = 0
            for c in range(CELLS):
                if not up >> c & 1:
                    self.hidden[up][self.gs[c]] += 1
            for p in range(SPACES):
                self.live[up][p] = 0
                for s in range(4):
                    self.beside[up][p][s] = 0
                for c in range(CELLS):
                    if SPACE_CELLS[p] >> c & 1 and not up >> c & 1:
                        self.live[up][p] |= 1 << self.gs[c]
                        self.beside[up][p][self.gs[c]] += 1
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 16)
        self.capacity = min(self.max_capacity, 1 << 16)
        self.table = <Entry*> calloc(self.capacity, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        self.used = 0
        self.max_states = max_states
        self.nodes = 0
        self.stopped = STOP_NONE
        clock_restart(&self.clock, time_limit)

    def __dealloc__(self):
        free(self.table)

    @property
    def stored(self):
        return self.used

    def restart_clock(self, double seconds):
        """A fresh time limit (0: none) for the next call."""
        clock_restart(&self.clock, seconds)

    # -- the interface ---------------------------------------------------------------------------
    def root(self, int pos, int up, spaces):
        """The most score still to come from the node, exact (the reference's ``_root``: aim at
        the bound, then just below each upper bound a fail-low proved)."""
        cdef int8_t sp[SPACES]
        self._load(spaces, sp)
        clock_start(&self.clock)
        cdef int alpha = self._search(pos, up, sp, 1000000) - 1
        cdef int value
        if self.stopped:
            raise Stopped()
        while True:
            value = self._search(pos, up, sp, alpha)
            if self.stopped:
                raise Stopped()
            if value > alpha or alpha < 0:
                return value
            alpha = value - 1

    def choice(self, int pos, int up, spaces):
        """The best choice at the node (a code, see the module's note), searched exactly if the
        table holds no exact value for it."""
        cdef int8_t sp[SPACES]
        self._load(spaces, sp)
        if pos >= self.n:
            return FINISH
        clock_start(&self.clock)
        cdef Entry* e = self._find(self._key(pos, up, sp))
        if e.key == 0 or not e.exact:
            self._search(pos, up, sp, -1)
            if self.stopped:
                raise Stopped()
            e = self._find(self._key(pos, up, sp))
        return e.choice if e.key != 0 else FINISH

    # -- the search ------------------------------------------------------------------------------
    cdef void _load(self, spaces, int8_t* sp):
        cdef int p
        for p in range(SPACES):
            sp[p] = spaces[p]

    cdef uint64_t _key(self, int pos, int up, int8_t* sp) noexcept:
        cdef uint64_t key = pos | (<uint64_t> up << 6)
        cdef int i, a, b, dead[4]
        dead[0] = dead[1] = dead[2] = dead[3] = 0
        for i in range(7):
            a, b = PAIR_A[i], PAIR_B[i]
            if SPACE_CELLS[a] & ~up:
                key |= <uint64_t> SORTED_CODE[sp[a] + 1][sp[b] + 1] << (18 + 4 * i)
            else:
                key |= <uint64_t> 15 << (18 + 4 * i)
                if sp[a] >= 0:
                    dead[sp[a]] += 1
                if sp[b] >= 0:
                    dead[sp[b]] += 1
        key |= <uint64_t> (dead[0] | dead[1] << 4 | dead[2] << 8 | dead[3] << 12) << 46
        return key | (<uint64_t> 1 << 63)

    cdef Entry* _find(self, uint64_t key) noexcept:
        """The slot holding ``key``, or the empty slot where it would go."""
        cdef uint64_t mask = self.capacity - 1
        cdef uint64_t i = mix64(key) & mask
        while self.table[i].key != 0 and self.table[i].key != key:
            i = (i + 1) & mask
        return &self.table[i]

    cdef void _store(self, uint64_t key, int value, bint exact, int choice) noexcept:
        cdef Entry* e = self._find(key)
        cdef Entry* old
        cdef uint64_t i, old_capacity
        if e.key == 0:
            if table_full(self.used, self.capacity):
                old_capacity = self.capacity
                old = <Entry*> grow_or_clear(<void**> &self.table, &self.capacity, self.max_capacity, sizeof(Entry))
                if old == NULL:
                    self.used = 0  # at the cap: the table was a cache, emptied
                else:
                    for i in range(old_capacity):
                        if old[i].key != 0:
                            self._find(old[i].key)[0] = old[i]
                    free(old)
                e = self._find(key)
            self.used += 1
        e.key, e.value, e.exact, e.choice = key, value, exact, choice

    cdef int _search(self, int pos, int up, int8_t* sp, int alpha) noexcept:
        """The reference's ``_search``: the most score still to come, exact if above ``alpha``,
        else a bound at most ``alpha``. Sets ``stopped`` (and returns 0) at a limit."""
        cdef int p, s, finish, bound, best, choice, value, k, i, j, t, lo
        cdef int sure[4]
        cdef Child children[MAX_CHILDREN]
        cdef Child tmp
        cdef int n_good, n_rest
        cdef uint64_t key
        cdef Entry* e
        self.nodes += 1
        if (self.nodes & CHECK_EVERY) == 0:
            if clock_expired(&self.clock, 0, 0):
                self.stopped = STOP_TIME
            elif self.max_states and self.used >= self.max_states:
                self.stopped = STOP_STATES
        if self.stopped:
            return 0
        sure[0] = sure[1] = sure[2] = sure[3] = 0
        for p in range(SPACES):
            s = sp[p]
            if s >= 0 and self.live[up][p] >> s & 1:
                sure[s] += 1
        finish = sure[0] + sure[1] + sure[2] + sure[3]
        if pos == self.n:
            return finish
        bound = 0
        for s in range(4):
            bound += min(4 * self.hidden[up][s], sure[s] + self.left[pos][s])
        if bound <= alpha or bound == finish:
            return bound
        key = self._key(pos, up, sp)
        e = self._find(key)
        if e.key != 0 and (e.exact or e.value <= alpha):
            return e.value
        n_good = self._children(pos, up, sp, children, &n_rest)
        best, choice = finish, FINISH
        for k in range(n_good + n_rest):
            value = children[k].gain + self._search(pos + 1, children[k].up, children[k].sp,
                                                    (best if best > alpha else alpha) - children[k].gain)
            if self.stopped:
                return 0
            if value > best:
                best, choice = value, children[k].choice
                if best >= bound:
                    break
        self._store(key, best, best > alpha, choice)
        return best

    cdef int _children(self, int pos, int up, int8_t* sp, Child* out, int* n_rest) noexcept:
        """The reference's ``_children``, in its order: writes the good children (sorted by
        ``order``, stable) then the rest (withdraws, last found first; then the other places and
        reveals); returns how many are good and sets ``n_rest``."""
        cdef int t = self.ds[pos]
        cdef int bit = 1 << t
        cdef int p, q, x, s, cls, nup, hits, n_good = 0, n_w = 0, n_other = 0, i, j, k
        cdef int hit[4]
        cdef int seen_place = 0, seen_withdraw = 0, placed
        cdef Child good[MAX_CHILDREN]
        cdef Child withdraws[SPACES]
        cdef Child other[MAX_CHILDREN]
        cdef Child* c
        for p in range(SPACES):
            cls = PAIR_OF[p] if SPACE_CELLS[p] & ~up else 7  # 7: every dead space, one class
            if sp[p] < 0:
                if not seen_place >> cls & 1:
                    seen_place |= 1 << cls
                    if self.live[up][p] & bit:
                        c = &good[n_good]
                        n_good += 1
                        c.order = -self.beside[up][p][t]
                    else:
                        c = &other[n_other]
                        n_other += 1
                        c.order = 0
                    c.gain, c.up, c.choice = 0, up, p
                    for q in range(SPACES):
                        c.sp[q] = sp[q]
                    c.sp[p] = t
            elif sp[p] == t:
                if not seen_withdraw >> cls & 1:
                    seen_withdraw |= 1 << cls
                    c = &withdraws[n_w]
                    n_w += 1
                    c.order, c.gain, c.up, c.choice = 0, 0, up, 100 + p
                    for q in range(SPACES):
                        c.sp[q] = sp[q]
                    c.sp[p] = -1
        for x in range(CELLS):
            if up >> x & 1:
                continue
            s = self.gs[x]
            hits = 0
            for i in range(4):
                if sp[CELL_SPACES[x][i]] == s:
                    hit[hits] = CELL_SPACES[x][i]
                    hits += 1
            if hits == 0:
                continue
            nup = up | 1 << x
            placed = 0
            for i in range(hits):
                p = hit[i]
                cls = PAIR_OF[p] if SPACE_CELLS[p] & ~nup else 7
                if placed >> cls & 1:
                    continue
                placed |= 1 << cls
                if self.live[nup][p] & bit:
                    c = &good[n_good]
                    n_good += 1
                else:
                    c = &other[n_other]
                    n_other += 1
                c.order, c.gain, c.up, c.choice = 4 - hits, hits, nup, 200 + 16 * x + p
                for q in range(SPACES):
                    c.sp[q] = sp[q]
                for j in range(hits):
                    c.sp[hit[j]] = -1
                c.sp[p] = t
        # good: a stable insertion sort by order; then withdraws last found first; then the rest
        k = 0
        for i in range(n_good):
            j = k
            while j > 0 and out[j - 1].order > good[i].order:
                out[j] = out[j - 1]
                j -= 1
            out[j] = good[i]
            k += 1
        for i in range(n_w - 1, -1, -1):
            out[k] = withdraws[i]
            k += 1
        for i in range(n_other):
            out[k] = other[i]
            k += 1
        n_rest[0] = n_w + n_other
        return n_good


def legal_moves(int up, spaces, int top_suit):
    """The rules' moves at a decision (the reference's State.legal_moves, in its order), as
    (kind, where): place the top card (suit ``top_suit``, -1: the deck is empty) into an empty
    space, reveal a face-down cell, withdraw a guess of the top card's suit."""
    cdef int p, x
    moves = []
    if up == 4095:
        return moves
    if top_suit >= 0:
        moves += [("place", p) for p in range(SPACES) if spaces[p] < 0]
    moves += [("reveal", x) for x in range(CELLS) if not up >> x & 1]
    if top_suit >= 0:
        moves += [("withdraw", p) for p in range(SPACES) if spaces[p] == top_suit]
    return moves


# -- blind mode: rollouts of the blind rule (the reference's rule_move) --------------------------------
cdef enum:
    ASSIGNMENTS = 576
    KIND_PLACE = 0
    KIND_WITHDRAW = 1
    KIND_REVEAL = 2

cdef int ASSIGN[ASSIGNMENTS][4]  # the valid column assignments in the reference's order (assignments())
cdef int SUITS_OF[4096]          # the suits present in a mask of face indices (suit * 3 + rank)

_k = 0
_orders = list(permutations(range(4)))
for _p in _orders:
    for _q in _orders:
        if any(_p[_c] == _q[_c] for _c in range(4)):
            continue
        for _s in _orders:
            if all(_s[_c] != _p[_c] and _s[_c] != _q[_c] for _c in range(4)):
                for _c in range(4):
                    ASSIGN[_k][_c] = (1 << (_p[_c] * 3)) | (1 << (_q[_c] * 3 + 1)) | (1 << (_s[_c] * 3 + 2))
                _k += 1
assert _k == ASSIGNMENTS
for _m in range(4096):
    SUITS_OF[_m] = sum(1 << _s for _s in range(4) if _m >> (_s * 3) & 7)


ctypedef struct Rule:  # the rule's thresholds (the reference's RULE_* constants, passed in)
    double place, withdraw, reveal, reveal_empty, low, dump


ctypedef struct Blind:  # a decision as the player sees it, with the odds the rule reads
    int up
    int face[CELLS]      # face index of a face-up playmate, -1 face down
    int sp[SPACES]       # the suit of each guess, -1 empty
    int top              # the top card, -1: the deck is empty
    int rest[40]         # the other cards of the deck, sorted (their order is unseen)
    int n_rest
    int score
    int n_opt
    int16_t opt[ASSIGNMENTS]  # the assignments consistent with the face-up playmates, in order
    double q[CELLS][4]        # the reference's suit_odds (face-down cells)
    double live[SPACES][4]    # the reference's space_live


cdef void compute_odds(Blind* b) noexcept nogil:
    """suit_odds and space_live of the reference, counted the same way in integers and divided
    the same way (equal floats)."""
    cdef int seen[4]
    cdef int hidden[4]
    cdef int col_has[4][4]
    cdef long long row_lacks[3][4]
    cdef int free_suits[4]
    cdef int c, r, s, k, x
    cdef long long product
    for c in range(4):
        seen[c] = hidden[c] = 0
        for s in range(4):
            col_has[c][s] = 0
    for r in range(3):
        for s in range(4):
            row_lacks[r][s] = 0
    for x in range(CELLS):
        if b.face[x] >= 0:
            seen[x % 4] |= 1 << b.face[x]
        else:
            hidden[x % 4] += 1
    for k in range(b.n_opt):
        for c in range(4):
            free_suits[c] = SUITS_OF[ASSIGN[b.opt[k]][c] & ~seen[c]]
            for s in range(4):
                col_has[c][s] += free_suits[c] >> s & 1
        for r in range(3):
            for s in range(4):
                product = 1
                for c in range(4):
                    if b.face[r * 4 + c] < 0 and free_suits[c] >> s & 1:
                        product *= 6 - 6 // hidden[c]
                    else:
                        product *= 6
                row_lacks[r][s] += product
    for c in range(4):
        for s in range(4):
            b.live[c][s] = b.live[4 + c][s] = <double>col_has[c][s] / <double>b.n_opt
    for r in range(3):
        for s in range(4):
            b.live[8 + r][s] = b.live[11 + r][s] = 1.0 - <double>row_lacks[r][s] / <double>(b.n_opt * 1296)
    for x in range(CELLS):
        if b.face[x] < 0:
            for s in range(4):
                b.q[x][s] = <double>col_has[x % 4][s] / <double>(b.n_opt * hidden[x % 4])


cdef inline double potential(Blind* b, int p) noexcept nogil:
    cdef double best = b.live[p][0]
    cdef int s
    for s in range(1, 4):
        if b.live[p][s] > best:
            best = b.live[p][s]
    return best


cdef inline double expected(Blind* b, int x) noexcept nogil:
    cdef double total = 0.0
    cdef int i, p
    for i in range(4):
        p = CELL_SPACES[x][i]
        if b.sp[p] >= 0:
            total += b.q[x][b.sp[p]]
    return total


cdef void rule(Blind* b, Rule* t, int* kind, int* where) noexcept nogil:
    """The reference's rule_move, step for step (the same ties)."""
    cdef int x, p, s, n_hidden = 0, reveal = -1, n_empty = 0, best = -1, withdraw = -1, dump = -1
    cdef double v, e, best_e = -1.0, chance = -1.0, best_pot = 0.0, gain = 0.0, dump_pot = 0.0
    for x in range(CELLS):
        if not b.up >> x & 1:
            n_hidden += 1
            e = expected(b, x)
            if reveal < 0 or e > best_e:
                reveal, best_e = x, e
    kind[0], where[0] = KIND_REVEAL, reveal
    if b.top < 0:
        return
    s = b.top // 13
    for p in range(SPACES):
        if b.sp[p] < 0:
            n_empty += 1
            v = potential(b, p)
            if best < 0 or b.live[p][s] > chance or (b.live[p][s] == chance and v < best_pot):
                best, chance, best_pot = p, b.live[p][s], v
            if dump < 0 or v < dump_pot:
                dump, dump_pot = p, v
        elif b.sp[p] == s:
            v = potential(b, p) - b.live[p][s]
            if withdraw < 0 or v > gain:
                withdraw, gain = p, v
    if chance >= t.place:
        kind[0], where[0] = KIND_PLACE, best
    elif withdraw >= 0 and gain >= t.withdraw:
        kind[0], where[0] = KIND_WITHDRAW, withdraw
    elif n_hidden > 1 and best_e >= t.reveal + t.reveal_empty * n_empty:
        pass  # the reveal
    elif chance >= t.low:
        kind[0], where[0] = KIND_PLACE, best
    elif dump >= 0 and dump_pot <= t.dump:
        kind[0], where[0] = KIND_PLACE, dump
    elif withdraw >= 0:
        kind[0], where[0] = KIND_WITHDRAW, withdraw
    elif n_hidden == 1 and n_empty > 0:
        kind[0], where[0] = KIND_PLACE, best


cdef int sample_face(Blind* b, int cell, uint64_t* rng) noexcept nogil:
    """The face a reveal of ``cell`` shows: the reference's deal_grid(faces, rng)[cell], draw for
    draw (an assignment, then each column's remaining faces shuffled onto its face-down cells)."""
    cdef int seen[4]
    cdef int hidden[4]
    cdef int free_faces[3]
    cdef int c, r, i, j, n, tmp, k, mask, ways = 1, face = -1, slot
    for c in range(4):
        seen[c] = hidden[c] = 0
    for i in range(CELLS):
        if b.face[i] >= 0:
            seen[i % 4] |= 1 << b.face[i]
        else:
            hidden[i % 4] += 1
    for c in range(4):
        ways *= 1 if hidden[c] < 2 else (2 if hidden[c] == 2 else 6)
    k = b.opt[<int>below(rng, <uint64_t>(b.n_opt * ways)) // ways]
    for c in range(4):
        mask = ASSIGN[k][c] & ~seen[c]
        n = 0
        for r in range(3):  # by rank: J, Q, K (face index % 3)
            for i in range(12):
                if mask >> i & 1 and i % 3 == r:
                    free_faces[n] = i
                    n += 1
        for i in range(n - 1, 0, -1):
            j = <int>below(rng, i + 1)
            tmp = free_faces[i]
            free_faces[i] = free_faces[j]
            free_faces[j] = tmp
        if c == cell % 4:
            slot = 0
            for r in range(3):
                if b.face[r * 4 + c] < 0:
                    if r * 4 + c == cell:
                        face = free_faces[slot]
                    slot += 1
    return face


cdef void draw(Blind* b, uint64_t* rng) noexcept nogil:
    """The next top card: any card of the deck, each as likely (the reference's sample_chance)."""
    cdef int i, j
    if b.n_rest == 0:
        b.top = -1
        return
    i = <int>below(rng, b.n_rest)
    b.top = b.rest[i]
    for j in range(i, b.n_rest - 1):
        b.rest[j] = b.rest[j + 1]
    b.n_rest -= 1


cdef void apply(Blind* b, int kind, int where, uint64_t* rng) noexcept nogil:
    """Play a move and its chance: a place or a withdraw draws the next top card, a reveal shows
    a face (scoring the guesses of its suit beside it) and narrows the consistent assignments."""
    cdef int face, s, i, p, k, n, c
    if kind == KIND_PLACE:
        b.sp[where] = b.top // 13
        draw(b, rng)
        return
    if kind == KIND_WITHDRAW:
        b.sp[where] = -1
        draw(b, rng)
        return
    face = sample_face(b, where, rng)
    s = face // 3
    for i in range(4):
        p = CELL_SPACES[where][i]
        if b.sp[p] == s:
            b.sp[p] = -1
            b.score += 1
    b.face[where] = face
    b.up |= 1 << where
    c = where % 4
    n = 0
    for k in range(b.n_opt):
        if ASSIGN[b.opt[k]][c] >> face & 1:
            b.opt[n] = b.opt[k]
            n += 1
    b.n_opt = n
    if b.up != 4095:
        compute_odds(b)


cdef int read_blind(Blind* b, int up, faces, spaces, int top, rest, int score) except -1:
    """The decision from the reference's view (_kernel_view): face indices, suits of the guesses."""
    cdef int x, p, k, c, seen
    b.up, b.top, b.score = up, top, score
    for x in range(CELLS):
        b.face[x] = faces[x]
    for p in range(SPACES):
        b.sp[p] = spaces[p]
    b.n_rest = len(rest)
    for x in range(b.n_rest):
        b.rest[x] = rest[x]
    b.n_opt = 0
    for k in range(ASSIGNMENTS):
        for c in range(4):
            seen = 0
            for x in range(c, CELLS, 4):
                if b.face[x] >= 0:
                    seen |= 1 << b.face[x]
            if seen & ~ASSIGN[k][c]:
                break
        else:
            b.opt[b.n_opt] = k
            b.n_opt += 1
    compute_odds(b)
    return 0


cdef int read_rule(Rule* t, thresholds) except -1:
    t.place, t.withdraw, t.reveal, t.reveal_empty, t.low, t.dump = thresholds
    return 0


def rule_move(int up, faces, spaces, int top, rest, int score, thresholds):
    """The blind rule's move at a decision, as (kind, where): kind 0 place, 1 withdraw, 2 reveal."""
    cdef Blind b
    cdef Rule t
    cdef int kind, where
    read_blind(&b, up, faces, spaces, top, rest, score)
    read_rule(&t, thresholds)
    rule(&b, &t, &kind, &where)
    return kind, where


def rollouts(int up, faces, spaces, int top, rest, int score, moves, int samples, uint64_t seed,
             thresholds, int win_score):
    """[(wins, sum of winning scores, sum of losing scores)] for each (kind, where) of ``moves``:
    the move, then the blind rule to the end, over ``samples`` draws (draw i from SplitMix64(seed
    + i), as solvers/rollouts.py's rollouts of the reference)."""
    cdef Blind root, b
    cdef Rule t
    cdef int i, kind, where, first_kind, first_where, wins, won_total, lost_total
    cdef uint64_t rng
    read_blind(&root, up, faces, spaces, top, rest, score)
    read_rule(&t, thresholds)
    out = []
    for first_kind, first_where in moves:
        wins = won_total = lost_total = 0
        with nogil:
            for i in range(samples):
                b = root
                rng = seed + <uint64_t>i
                apply(&b, first_kind, first_where, &rng)
                while b.up != 4095:
                    rule(&b, &t, &kind, &where)
                    apply(&b, kind, where, &rng)
                if b.score >= win_score:
                    wins += 1
                    won_total += b.score
                else:
                    lost_total += b.score
        out.append((wins, won_total, lost_total))
    return out
