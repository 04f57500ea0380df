# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Dungeon's open-mode engine: the round-by-round search of solodeck/games/dungeon/search.py
(``RoundSolver``, the reference; docs/rules/dungeon.md, "How the solver plays it") in C, with
exact geometry in integers and the kernel's own exact cuts.

A node is the start of a round: the deck (a 52-bit mask of its cards; its order is the seeded
reshuffle of the mask with the node's shuffle count, except at the root, whose order is given),
the reshuffle count, the path's values and the offer's extra cards. Its 64-bit key mixes the mask,
the count, the extra cards and a hash of the path's values. A stored entry is the largest budget
(rounds) known to fail from the node.

Path points are ((ax + bx√3)/2, (ay + by√3)/2) with integers ax, bx, ay, by, as in the reference;
the test whether a segment meets the K♦ rectangle is the reference's separating-axis test with
every number p + q√3 scaled to integers (``sign3``: exact). Floats only order the children and
feed the distance bound, always with a margin on the side of not cutting.

Also here: the blind rule's rollouts for the blind policy (``rollouts``), drawing with
solodeck/shuffle.py's SplitMix64 exactly as the reference's sample_chance does, and the value
table that rule reads (``value_table``, solodeck/games/dungeon/values.py's build_table in C).
"""
from libc.math cimport sqrt, ceil, floor
from libc.stdint cimport int8_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, qsort
from libc.string cimport memset

from shared cimport (STOP_NONE, STOP_STATES, STOP_TIME, Clock, capacity_for, clock_expired,
                     clock_restart, clock_start, grow_or_clear, mix64, next_random, seeded_shuffle,
                     table_full)

cdef enum:
    MAX_DEPTH = 48
    MAX_CHILDREN = 24
    MAX_PATH = 50
    KING = 13
    CHECK_EVERY = 1023
    PROBE_END = 3           # ``stopped`` when a probe's node cap is reached (not a limit of the user's)
    HALF_WIDTH_2000 = 714   # 2000 x 0.357 (RULINGS: x in [-0.357, 0.357])
    DIRS = 12               # the gain bound's directions: the twelve clock hands
    GAINS = 13              # ... and the count of cards a trajectory can add
    MAX_STREAMS = 128       # the reshuffle counts whose permutations are kept (more: shuffled each time)
    GAIN_CAP = 1 << 19      # the gain table's slots (a bigger tree: the bound is given up)
    TABLE_FLOOR = 8         # nodes with at most this many rounds left skip the table (see ``node``)
    CLASSES = 16            # dungeon.values.CLASSES: a round's classes in the value table
    LASTS = 13              # dungeon.values.LASTS: the path's last card in the value table

cdef double SQRT3 = sqrt(3.0)

# A clock hand's unit vector as (ax, bx, ay, by), value v at v o'clock (UNIT in the reference).
cdef int UNIT[13][4]
_UNIT = {12: (0, 0, 2, 0), 1: (1, 0, 0, 1), 2: (0, 1, 1, 0), 3: (2, 0, 0, 0), 4: (0, 1, -1, 0),
         5: (1, 0, 0, -1), 6: (0, 0, -2, 0), 7: (-1, 0, 0, -1), 8: (0, -1, -1, 0), 9: (-2, 0, 0, 0),
         10: (0, -1, 1, 0), 11: (-1, 0, 0, 1)}
for _v in range(13):
    for _k in range(4):
        UNIT[_v][_k] = _UNIT[_v][_k] if _v in _UNIT else 0


PROBE_STOP = PROBE_END


class Stopped(Exception):
    """A limit was reached (``Search.stopped`` says which)."""


# -- exact geometry -------------------------------------------------------------------------------
cdef inline int sign3(int64_t p, int64_t q) noexcept nogil:
    """The sign of p + q√3 (integers), exactly (the reference's ``sign``)."""
    if p >= 0 and q >= 0:
        return 0 if (p == 0 and q == 0) else 1
    if p <= 0 and q <= 0:
        return -1
    if p * p > 3 * q * q:
        return 1 if p > 0 else -1
    return 1 if q > 0 else -1


cdef inline bint separated2(int s1, int s2, int t1, int t2) noexcept nogil:
    """Two numbers with signs s against the low bound and t against the high bound: both below
    the low bound, or both above the high one."""
    return (s1 < 0 and s2 < 0) or (t1 > 0 and t2 > 0)


cdef bint meets_c(int ax, int bx, int ay, int by, int v, int d) noexcept nogil:
    """The reference's ``meets``: does the segment from ((ax + bx√3)/2, (ay + by√3)/2) towards v
    o'clock meet the closed rectangle x in [-0.357, 0.357], y in [d, d + 1]? Numbers are scaled
    by 2000 (x and y) or 4000 (the normal projection), so every one is an integer p + q√3."""
    cdef int ux = UNIT[v][0], uxb = UNIT[v][1], uy = UNIT[v][2], uyb = UNIT[v][3]
    cdef int qx = ax + ux, qxb = bx + uxb, qy = ay + uy, qyb = by + uyb
    # x: 2000 * (a + b√3)/2 = 1000a + 1000b√3 against ±714
    if separated2(sign3(1000 * <int64_t>ax + HALF_WIDTH_2000, 1000 * <int64_t>bx),
                  sign3(1000 * <int64_t>qx + HALF_WIDTH_2000, 1000 * <int64_t>qxb),
                  sign3(1000 * <int64_t>ax - HALF_WIDTH_2000, 1000 * <int64_t>bx),
                  sign3(1000 * <int64_t>qx - HALF_WIDTH_2000, 1000 * <int64_t>qxb)):
        return False
    # y: 2 * (a + b√3)/2 against 2d and 2(d + 1)
    if separated2(sign3(ay - 2 * d, by), sign3(qy - 2 * d, qyb),
                  sign3(ay - 2 * d - 2, by), sign3(qy - 2 * d - 2, qyb)):
        return False
    # n = (-u_y, u_x) = ((-uy - uyb√3)/2, (ux + uxb√3)/2); 4000 n·P and 4000 n·corner
    cdef int na = -uy, nb = -uyb, ma = ux, mb = uxb
    cdef int64_t cp = 1000 * (<int64_t>na * ax + 3 * <int64_t>nb * bx + <int64_t>ma * ay + 3 * <int64_t>mb * by)
    cdef int64_t cq = 1000 * (<int64_t>na * bx + <int64_t>nb * ax + <int64_t>ma * by + <int64_t>mb * ay)
    cdef int below = 0, above = 0, s, sx, y
    cdef int64_t kp, kq
    for sx in range(-1, 2, 2):
        for y in range(d, d + 2):
            # 4000 [ (na + nb√3)/2 · (±357/1000) + (ma + mb√3)/2 · y ] = ±714 (na + nb√3) + 2000 y (ma + mb√3)
            kp = sx * HALF_WIDTH_2000 * <int64_t>na + 2000 * <int64_t>y * ma
            kq = sx * HALF_WIDTH_2000 * <int64_t>nb + 2000 * <int64_t>y * mb
            s = sign3(kp - cp, kq - cq)
            if s < 0:
                below += 1
            elif s > 0:
                above += 1
    return not (below == 4 or above == 4)


def meets(start, int v, int distance):
    """The exact test, for the tests against the reference (start: (ax, bx, ay, by))."""
    return bool(meets_c(start[0], start[1], start[2], start[3], v, distance))


cdef inline double gap_float(double x, double y, int d) noexcept nogil:
    """The distance from (x, y) to the K's rectangle at distance d (the reference's ``gap``)."""
    cdef double hw = 0.357, dx = 0.0, dy = 0.0
    if -hw - x > dx:
        dx = -hw - x
    if x - hw > dx:
        dx = x - hw
    if d - y > dy:
        dy = d - y
    if y - d - 1 > dy:
        dy = y - d - 1
    return sqrt(dx * dx + dy * dy)


cdef inline double gap_c(int ax, int bx, int ay, int by, int d) noexcept nogil:
    """The reference's ``gap``: the Euclidean distance from the point to the rectangle, as the
    same float operations (the baseline's choices compare these floats)."""
    return gap_float((ax + bx * SQRT3) / 2, (ay + by * SQRT3) / 2, d)


def gap(point, int distance):
    return gap_c(point[0], point[1], point[2], point[3], distance)


# -- rounds ---------------------------------------------------------------------------------------
cdef inline int cvalue(int card) noexcept nogil:
    return card % 13 + 1


cdef int scores_c(int skill, int monster, int* attacks, int* hand, int* out) noexcept nogil:
    """The distinct scores of the six pairings, highest first, into ``out``; how many."""
    cdef int m[3][3]   # m[i][j]: attack i against hand card j, +1 / 0 / -1 for the player
    cdef int h[3]
    cdef int i, j, d, n = 0, s
    cdef int base = cvalue(monster) - skill
    for j in range(3):
        h[j] = cvalue(hand[j])
    for i in range(3):
        d = cvalue(attacks[i]) + base
        for j in range(3):
            m[i][j] = (h[j] > d) - (h[j] < d)
    cdef unsigned seen = ((1u << (m[0][0] + m[1][1] + m[2][2] + 3)) | (1u << (m[0][0] + m[1][2] + m[2][1] + 3))
                          | (1u << (m[0][1] + m[1][0] + m[2][2] + 3)) | (1u << (m[0][1] + m[1][2] + m[2][0] + 3))
                          | (1u << (m[0][2] + m[1][0] + m[2][1] + 3)) | (1u << (m[0][2] + m[1][1] + m[2][0] + 3)))
    for s in range(3, -4, -1):
        if seen >> (s + 3) & 1:
            out[n] = s
            n += 1
    return n


def round_scores(int skill, int monster, attacks, hand):
    """The distinct scores, highest first (the reference's ``round_scores``)."""
    cdef int a[3]
    cdef int h[3]
    cdef int out[7]
    for k in range(3):
        a[k], h[k] = attacks[k], hand[k]
    n = scores_c(skill, monster, a, h, out)
    return [out[k] for k in range(n)]


def legal_moves(int step, offer, attacks, hand):
    """The kernel's reading of the decisions: at the choice (step 1) the offered cards, as
    ('monster', card); at the pairing (step 3) the six ways to meet the attacks, as ('pair',
    ((attack, card), ...) sorted by the attack)."""
    if step == 1:
        return [("monster", c) for c in offer]
    if step != 3:
        return []
    out = []
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        out.append(("pair", tuple(sorted((attacks[k], hand[order[k]]) for k in range(3)))))
    return out


cdef extern from *:
    int lowest_one "__builtin_ctzll" (unsigned long long x) nogil
    void prefetch "__builtin_prefetch" (const void* address) nogil


cdef inline int canonical(uint64_t mask, int* out) noexcept nogil:
    """The cards of ``mask`` in canonical order; their count."""
    cdef int n = 0
    while mask:
        out[n] = lowest_one(mask)
        mask &= mask - 1
        n += 1
    return n


cdef int reshuffle(uint64_t mask, uint64_t seed, int stream, int* out) noexcept nogil:
    """The seeded reshuffle: the cards of ``mask`` in canonical order, shuffled. Top card first;
    the count."""
    cdef int n = canonical(mask, out)
    seeded_shuffle(out, n, seed, stream)
    return n


def reshuffled(cards, uint64_t seed, int stream):
    """For the tests: the kernel's reshuffle of a pile (any order in, canonical order used)."""
    cdef uint64_t mask = 0
    cdef int out[52]
    for c in cards:
        mask |= (<uint64_t>1) << <int>c
    n = reshuffle(mask, seed, stream, out)
    return [out[k] for k in range(n)]


ctypedef struct Entry:
    uint64_t key     # the node's key with bit 63 set (0: an empty slot)
    int8_t fail      # the largest budget known to fail


ctypedef struct GainEntry:
    uint64_t key     # (mask, shuffles, extra) mixed, bit 63 set (0: an empty slot)
    float g[GAINS]


# The clock hands as float unit vectors.
cdef double UX[13]
cdef double UY[13]
for _k in range(13):
    UX[_k] = (_UNIT[_k][0] + _UNIT[_k][1] * SQRT3) / 2 if _k in _UNIT else 0.0
    UY[_k] = (_UNIT[_k][2] + _UNIT[_k][3] * SQRT3) / 2 if _k in _UNIT else 0.0

# w_k · u_v for the clock hands k and v (cos 30(k - v) degrees), and its positive part.
cdef double DOT[13][13]
cdef double GAIN[13][13]
for _k in range(13):
    for _v in range(13):
        DOT[_k][_v] = GAIN[_k][_v] = 0.0
        if 1 <= _k <= 12 and 1 <= _v <= 12:
            DOT[_k][_v] = ((_UNIT[_k][0] + _UNIT[_k][1] * SQRT3) * (_UNIT[_v][0] + _UNIT[_v][1] * SQRT3)
                           + (_UNIT[_k][2] + _UNIT[_k][3] * SQRT3) * (_UNIT[_v][2] + _UNIT[_v][3] * SQRT3)) / 4
            GAIN[_k][_v] = DOT[_k][_v] if DOT[_k][_v] > 1e-12 else 0.0


ctypedef struct BeamNode:
    int8_t deck[50]
    int8_t path[50]
    int8_t n, L, extra
    int shuffles
    int parent       # its index in the layer before (-1: the root)
    int monster      # the round that led here: the monster card and the score
    int score


ctypedef struct Candidate:
    double order     # the gap of the path's end after the round
    int extra
    int index        # generation order (ties)
    int parent
    int i            # the offered card's index in the parent's deck
    int score
    int keep         # -1: the monster joins the path


cdef int compare_candidates(const void* a, const void* b) noexcept nogil:
    cdef Candidate* x = <Candidate*>a
    cdef Candidate* y = <Candidate*>b
    if x.order != y.order:
        return -1 if x.order < y.order else 1
    if x.extra != y.extra:
        return -1 if x.extra > y.extra else 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


ctypedef struct Child:
    double order     # -1 for a win, else the gap of the path's end after the round
    int extra        # the next offer's extra cards
    int index        # the offered card's index (the monster)
    int score        # the round score
    int keep         # the path's length kept (for a score <= 0), or -1: the monster joins
    int win
    uint64_t key     # the child's key in the table (0: the child is cut by ``hopeless``)


cdef class Search:
    """One deal's open search: ``seed`` (the reshuffles' seed), ``skill`` (the SKILL's value),
    ``distance``. ``time_limit`` (0: none) applies from the next ``round`` call after
    ``restart_clock``; ``max_states`` (0: none) stops a search once that many entries are stored."""

    cdef uint64_t seed
    cdef int skill, distance
    cdef int decks[MAX_DEPTH][52]      # per depth: the deck, top first
    cdef int pv[MAX_DEPTH][MAX_PATH]   # per depth: the path's values
    cdef int pts[MAX_DEPTH][MAX_PATH + 1][4]  # per depth: the path's points, the origin first
    cdef double gaps[MAX_DEPTH][MAX_PATH + 1]
    cdef uint64_t ph[MAX_DEPTH][MAX_PATH + 1]  # per depth: the hash of each prefix of the path
    cdef int plen[MAX_DEPTH]
    cdef int line_monster[MAX_DEPTH]
    cdef int line_score[MAX_DEPTH]
    cdef public int line_length
    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used, max_states
    cdef Clock clock
    cdef public uint64_t nodes
    cdef public int stopped
    cdef public bint use_bounds
    cdef public bint use_gains           # the trajectory bound (``gains``)
    cdef public uint64_t node_cap        # a probe's end: stop (``stopped`` PROBE) once ``nodes`` reaches it (0: none)
    cdef public bint reduce_keys         # key the path by its live points only (path_key)
    cdef public int order_mode           # experiments with the order of the children (0: the documented one)
    cdef public int gain_horizon         # ... at nodes with at most this many rounds left
    cdef GainEntry* gtable
    cdef int8_t* perms                   # [stream][count]: where the reshuffle takes each card from
    cdef int8_t* perm_made
    cdef uint64_t gused
    cdef public uint64_t gain_nodes
    cdef int gdecks[MAX_DEPTH][52]
    cdef double rect_low[13]             # per clock hand k: the least w_k · r over the K♦ rectangle
    cdef float root_gain[GAINS]

    def __cinit__(self, uint64_t seed, int skill, int distance, double memory_mb=512.0, double time_limit=0.0,
                  long long max_states=0):
        self.seed, self.skill, self.distance = seed, skill, distance
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1024)
        self.capacity = 1 << 16 if self.max_capacity > (1 << 16) else self.max_capacity
        self.table = <Entry*>calloc(self.capacity, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        self.used = 0
        self.max_states = max_states
        self.nodes = 0
        self.stopped = STOP_NONE
        self.use_bounds = True
        self.use_gains = True
        self.reduce_keys = True
        self.gain_horizon = 20
        self.gtable = <GainEntry*>calloc(GAIN_CAP, sizeof(GainEntry))
        self.perms = <int8_t*>calloc(MAX_STREAMS * 53 * 52, sizeof(int8_t))
        self.perm_made = <int8_t*>calloc(MAX_STREAMS * 53, sizeof(int8_t))
        if self.gtable == NULL or self.perms == NULL or self.perm_made == NULL:
            raise MemoryError()
        self.gused = 0
        self.gain_nodes = 0
        cdef int k
        cdef double wx, wy, c, low
        for k in range(1, 13):
            wx, wy = UX[k], UY[k]
            low = 1e300
            for corner_x in (-0.357, 0.357):
                for corner_y in (distance, distance + 1):
                    c = wx * corner_x + wy * corner_y
                    if c < low:
                        low = c
            self.rect_low[k] = low
        clock_restart(&self.clock, time_limit)

    def __dealloc__(self):
        free(self.table)
        free(self.gtable)
        free(self.perms)
        free(self.perm_made)

    def restart_clock(self, double seconds):
        clock_restart(&self.clock, seconds)

    @property
    def stored(self):
        return self.used

    # -- the table ---------------------------------------------------------------------------
    cdef int lookup(self, uint64_t key) noexcept nogil:
        cdef uint64_t i = key & (self.capacity - 1)
        while self.table[i].key != 0:
            if self.table[i].key == key:
                return self.table[i].fail
            i = (i + 1) & (self.capacity - 1)
        return -1

    cdef void store(self, uint64_t key, int fail) noexcept nogil:
        cdef uint64_t i
        cdef Entry* old
        cdef uint64_t old_capacity, k
        if table_full(self.used, self.capacity):
            old_capacity = self.capacity
            old = <Entry*>grow_or_clear(<void**>&self.table, &self.capacity, self.max_capacity, sizeof(Entry))
            self.used = 0
            if old != NULL:
                for k in range(old_capacity):
                    if old[k].key != 0:
                        self.insert(old[k].key, old[k].fail)
                free(old)
        self.insert(key, fail)

    cdef void insert(self, uint64_t key, int fail) noexcept nogil:
        cdef uint64_t i = key & (self.capacity - 1)
        while self.table[i].key != 0:
            if self.table[i].key == key:
                if fail > self.table[i].fail:
                    self.table[i].fail = fail
                return
            i = (i + 1) & (self.capacity - 1)
        self.table[i].key = key
        self.table[i].fail = fail
        self.used += 1

    cdef int deal(self, uint64_t mask, int stream, int* out) noexcept nogil:
        """``reshuffle`` of the cards of ``mask`` with the count ``stream``. The shuffle's draws
        depend on the count of cards only, never on which cards: so it is one permutation of the
        canonical order per (stream, count), made once, then only applied."""
        cdef int sorted_cards[52]
        cdef int n = canonical(mask, sorted_cards), p
        if stream >= MAX_STREAMS:
            return reshuffle(mask, self.seed, stream, out)
        cdef int8_t* perm = self.perms + (stream * 53 + n) * 52
        if not self.perm_made[stream * 53 + n]:
            for p in range(n):
                out[p] = p
            seeded_shuffle(out, n, self.seed, stream)
            for p in range(n):
                perm[p] = <int8_t>out[p]
            self.perm_made[stream * 53 + n] = 1
        for p in range(n):
            out[p] = sorted_cards[perm[p]]
        return n

    def dealt(self, cards, int stream):
        """For the tests: ``deal`` of a pile (its permutations made once and kept)."""
        cdef uint64_t mask = 0
        cdef int out[52]
        for c in cards:
            mask |= (<uint64_t>1) << <int>c
        n = self.deal(mask, stream, out)
        return [out[k] for k in range(n)]

    # -- the path ----------------------------------------------------------------------------
    cdef void push(self, int depth, int v) noexcept nogil:
        """Append the value v to the path at ``depth``."""
        cdef int L = self.plen[depth], k
        self.pv[depth][L] = v
        for k in range(4):
            self.pts[depth][L + 1][k] = self.pts[depth][L][k] + UNIT[v][k]
        self.gaps[depth][L + 1] = gap_c(self.pts[depth][L + 1][0], self.pts[depth][L + 1][1],
                                        self.pts[depth][L + 1][2], self.pts[depth][L + 1][3], self.distance)
        self.ph[depth][L + 1] = mix64(self.ph[depth][L] ^ (<uint64_t>v * 0x9E3779B97F4A7C15ULL + <uint64_t>(L + 1)))
        self.plen[depth] = L + 1

    cdef inline void child_path(self, int depth, int keep, int v) noexcept nogil:
        """The path at depth + 1 after a round: the first ``keep`` cards, or (keep < 0) all of them
        and then the monster's value v."""
        if keep < 0:
            self.copy_path(depth, self.plen[depth])
            self.push(depth + 1, v)
        else:
            self.copy_path(depth, keep)

    cdef void copy_path(self, int depth, int keep) noexcept nogil:
        """The path at depth + 1: the first ``keep`` cards of the path at ``depth``."""
        cdef int i, k
        for i in range(keep):
            self.pv[depth + 1][i] = self.pv[depth][i]
        for i in range(keep + 1):
            for k in range(4):
                self.pts[depth + 1][i][k] = self.pts[depth][i][k]
            self.gaps[depth + 1][i] = self.gaps[depth][i]
            self.ph[depth + 1][i] = self.ph[depth][i]
        self.plen[depth + 1] = keep

    cdef void set_path(self, path):
        cdef int k
        for k in range(4):
            self.pts[0][0][k] = 0
        self.gaps[0][0] = gap_c(0, 0, 0, 0, self.distance)
        self.ph[0][0] = 0x51ED2701A5F3C7B9ULL
        self.plen[0] = 0
        for v in path:
            self.push(0, v)

    cdef uint64_t path_key(self, int depth, int limit) noexcept nogil:
        """What of the path can still matter within ``limit`` rounds: the points a win could
        keep the path up to (``live``), each with how many cards from the end it lies, and where
        the origin lies if cutting can reach it (a cut stops there). With cuts off: every value."""
        cdef int L = self.plen[depth], j
        cdef uint64_t h = 0x2545F4914F6CDD1DULL, point
        if not self.use_bounds or not self.reduce_keys:
            return self.ph[depth][L]
        for j in range(L, -1, -1):
            if (L - j + 2) // 3 > limit:
                return h
            if self.live(depth, j, limit):
                point = ((<uint64_t>(self.pts[depth][j][0] & 0xFF)) | (<uint64_t>(self.pts[depth][j][1] & 0xFF) << 8)
                         | (<uint64_t>(self.pts[depth][j][2] & 0xFF) << 16) | (<uint64_t>(self.pts[depth][j][3] & 0xFF) << 24))
                h = mix64(h ^ (point | (<uint64_t>(L - j) << 32)))
        return mix64(h ^ (0xA5A5A5A500000000ULL + <uint64_t>L))  # the origin's place: cutting reaches it

    cdef inline bint live(self, int depth, int j, int limit) noexcept nogil:
        """Could a win within ``limit`` rounds keep the path up to its j-th point? Cutting back to it
        takes ceil((L - j) / 3) rounds, reaching the K♦ from it at least ceil(gap) cards, one a round."""
        return (self.plen[depth] - j + 2) // 3 + <int>ceil(self.gaps[depth][j] - 1e-9) <= limit

    cdef bint hopeless(self, int depth, int limit) noexcept nogil:
        """No win within ``limit`` rounds is possible from any point the path can be cut back to:
        keeping the first j cards needs ceil((L - j) / 3) rounds of cutting (a round removes at
        most 3) and at least ceil(gap_j) new cards, one a round (each of length 1)."""
        cdef int L = self.plen[depth], j, need
        for j in range(L, -1, -1):
            need = (L - j + 2) // 3
            if need > limit:
                return True
            if need + <int>ceil(self.gaps[depth][j] - 1e-9) <= limit:
                return False
        return True

    # -- the trajectory bound ----------------------------------------------------------------
    cdef int gains(self, int gd, int n, int shuffles, int extra, bint root, float* out) noexcept nogil:
        """out[k] for each clock hand k (index k - 1): the most that the monsters of positive
        rounds (kings aside) can add along w_k, sum of max(0, w_k · u), over every way the
        rounds can go from here, whatever the path; out[12]: the most such cards. The deck is
        gdecks[gd]. 0, or -1 when the tree is too big (the bound is then given up)."""
        cdef int k, i, j, v, ns, smax, has_low
        if n < 7:
            for k in range(GAINS):
                out[k] = 0
            return 0
        cdef int* deck = self.gdecks[gd]
        cdef uint64_t mask = 0
        for k in range(n):
            mask |= (<uint64_t>1) << deck[k]
        cdef uint64_t key = mix64(mask ^ mix64(<uint64_t>shuffles * 0x100000001B3ULL
                                                + <uint64_t>extra * 0xC2B2AE3D27D4EB4FULL + 0x3C6EF372FE94F82BULL)) | (<uint64_t>1 << 63)
        cdef uint64_t slot = key & (GAIN_CAP - 1)
        if not root:
            while self.gtable[slot].key != 0:
                if self.gtable[slot].key == key:
                    for k in range(GAINS):
                        out[k] = self.gtable[slot].g[k]
                    return 0
                slot = (slot + 1) & (GAIN_CAP - 1)
            if (self.gused + 1) * 4 > GAIN_CAP * 3:  # a cache: forget everything, look again
                memset(self.gtable, 0, GAIN_CAP * sizeof(GainEntry))
                self.gused = 0
                slot = key & (GAIN_CAP - 1)
        self.gain_nodes += 1
        if clock_expired(&self.clock, self.gain_nodes, CHECK_EVERY):
            return -2
        cdef float best[GAINS]
        cdef float sub[GAINS]
        cdef int fight[52]
        cdef int scores[7]
        cdef int offered = extra + 1 if extra > 0 else 1, after, r
        cdef uint64_t rest
        for k in range(GAINS):
            best[k] = 0
        for i in range(offered):
            v = cvalue(deck[i])
            rest = mask & ~((<uint64_t>1) << deck[i])
            if extra > 0:
                self.deal(rest, shuffles + 1, fight)
                ns = scores_c(self.skill, deck[i], fight, fight + 3, scores)
                after = shuffles + 2
            else:
                ns = scores_c(self.skill, deck[i], deck + 1, deck + 4, scores)
                after = shuffles + 1
            smax = scores[0]
            has_low = scores[ns - 1] <= 0
            self.deal(rest, after, self.gdecks[gd + 1])
            if smax > 0:
                r = self.gains(gd + 1, n - 1, after, smax, False, sub)
                if r < 0:
                    return r
                if v != KING:
                    for k in range(DIRS):
                        sub[k] += GAIN[k + 1][v]
                    sub[DIRS] += 1
                for k in range(GAINS):
                    if sub[k] > best[k]:
                        best[k] = sub[k]
            if has_low:
                r = self.gains(gd + 1, n - 1, after, 0, False, sub)
                if r < 0:
                    return r
                for k in range(GAINS):
                    if sub[k] > best[k]:
                        best[k] = sub[k]
        for k in range(GAINS):
            out[k] = best[k]
        if not root:
            while self.gtable[slot].key != 0:
                slot = (slot + 1) & (GAIN_CAP - 1)
            self.gtable[slot].key = key
            for k in range(GAINS):
                self.gtable[slot].g[k] = best[k]
            self.gused += 1
        return 0

    cdef int beyond(self, int depth, int n, int shuffles, int extra, int limit, bint root) noexcept nogil:
        """1 when no point the path can be cut back to (within ``limit`` rounds) can reach the
        K♦ with what the rounds to come can add: along some clock hand w, w · p_j plus the most
        the positive rounds can add along w stays below the rectangle's least w · r (the last
        card's segment must reach it), or the distance needs more cards than they can add.
        0 otherwise; -2 stopped (the clock)."""
        cdef float g[GAINS]
        cdef int k, r, j, need, L = self.plen[depth], ok
        cdef double x, y
        for k in range(n):
            self.gdecks[0][k] = self.decks[depth][k]
        r = self.gains(0, n, shuffles, extra, root, g)
        if r == -2:
            return -2
        if r < 0:
            self.use_gains = False
            return 0
        for j in range(L, -1, -1):
            need = (L - j + 2) // 3
            if need > limit:
                return 1
            if need + <int>ceil(self.gaps[depth][j] - 1e-9) > limit:
                continue
            if <int>ceil(self.gaps[depth][j] - 1e-9) > <int>(g[DIRS] + 0.5):
                continue
            x = (self.pts[depth][j][0] + self.pts[depth][j][1] * SQRT3) / 2
            y = (self.pts[depth][j][2] + self.pts[depth][j][3] * SQRT3) / 2
            ok = 1
            for k in range(DIRS):
                if UX[k + 1] * x + UY[k + 1] * y + g[k] < self.rect_low[k + 1] - 1e-3:
                    ok = 0
                    break
            if ok:
                return 0
        return 1

    # -- the search --------------------------------------------------------------------------
    def round(self, deck, int shuffles, path, int extra, int budget):
        """A win within ``budget`` rounds from the start of a round (``deck`` top first, in its
        order; ``path`` the path's values): True (``line()`` gives it) or False; raises Stopped."""
        cdef int n = len(deck), k
        for k in range(n):
            self.decks[0][k] = deck[k]
        self.set_path(path)
        self.stopped = STOP_NONE
        clock_start(&self.clock)
        self.line_length = 0
        cdef uint64_t mask = 0
        for k in range(n):
            mask |= (<uint64_t>1) << <int>deck[k]
        cdef uint64_t key = self.node_key(0, mask, n, shuffles, extra, budget)
        r = self.node(0, mask, n, shuffles, extra, budget, key, True) if key else 0
        if r < 0:
            raise Stopped()
        return r == 1

    # -- quick looks for a win (a heuristic: finding none proves nothing) ------------------------
    def beam(self, deck, int shuffles, path, int extra, int width):
        """Round after round, keep only the ``width`` round starts whose path's end is nearest the
        K♦ (then the larger offer): True when a win turns up (``line()`` gives it), else False.
        Raises Stopped at the time limit."""
        cdef int rounds = len(deck) - 6 + 1
        if rounds < 1:
            return False
        cdef BeamNode* layers = <BeamNode*>calloc(<size_t>(rounds + 1) * width, sizeof(BeamNode))
        cdef Candidate* cands = <Candidate*>calloc(<size_t>width * MAX_CHILDREN, sizeof(Candidate))
        cdef int sizes[64]
        if layers == NULL or cands == NULL:
            free(layers)
            free(cands)
            raise MemoryError()
        cdef int k
        for k in range(len(deck)):
            layers[0].deck[k] = deck[k]
        for k in range(len(path)):
            layers[0].path[k] = path[k]
        layers[0].n, layers[0].L, layers[0].extra = len(deck), len(path), extra
        layers[0].shuffles, layers[0].parent = shuffles, -1
        sizes[0] = 1
        clock_start(&self.clock)
        self.stopped = STOP_NONE
        cdef int r
        try:
            r = self.beam_run(layers, cands, sizes, rounds, width)
        finally:
            free(layers)
            free(cands)
        if r < 0:
            raise Stopped()
        return r == 1

    cdef int beam_run(self, BeamNode* layers, Candidate* cands, int* sizes, int rounds, int width) noexcept nogil:
        cdef int layer, a, i, j, k, ns, s, v, nc, keep, skipped, offered, dup, L, win_parent = -1, win_i = 0, win_score = 0
        cdef int fight[52]
        cdef int scores[7]
        cdef int tmp[52]
        cdef int pts[MAX_PATH + 1][4]
        cdef uint64_t mask, rest
        cdef BeamNode* node
        cdef BeamNode* child
        cdef int after
        for layer in range(rounds):
            nc = 0
            for a in range(sizes[layer]):
                node = &layers[<size_t>layer * width + a]
                if node.n < 7:
                    continue
                self.nodes += 1
                if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
                    self.stopped = STOP_TIME
                    return -1
                L = node.L
                for k in range(4):
                    pts[0][k] = 0
                for j in range(L):
                    for k in range(4):
                        pts[j + 1][k] = pts[j][k] + UNIT[node.path[j]][k]
                mask = 0
                for k in range(node.n):
                    mask |= (<uint64_t>1) << node.deck[k]
                offered = node.extra + 1 if node.extra > 0 else 1
                for i in range(offered):
                    v = cvalue(node.deck[i])
                    rest = mask & ~((<uint64_t>1) << node.deck[i])
                    if node.extra > 0:
                        self.deal(rest, node.shuffles + 1, fight)
                    else:
                        for k in range(6):
                            fight[k] = node.deck[1 + k]
                    ns = scores_c(self.skill, node.deck[i], fight, fight + 3, scores)
                    skipped = 0
                    for j in range(ns):
                        s = scores[j]
                        if s > 0:
                            if skipped:
                                continue
                            skipped = 1
                            if v != KING:
                                if meets_c(pts[L][0], pts[L][1], pts[L][2], pts[L][3], v, self.distance):
                                    win_parent, win_i, win_score = a, i, s
                                    break
                                cands[nc].keep = -1
                                cands[nc].order = gap_c(pts[L][0] + UNIT[v][0], pts[L][1] + UNIT[v][1],
                                                        pts[L][2] + UNIT[v][2], pts[L][3] + UNIT[v][3], self.distance)
                            else:
                                cands[nc].keep = L
                                cands[nc].order = gap_c(pts[L][0], pts[L][1], pts[L][2], pts[L][3], self.distance)
                            cands[nc].extra = s
                        else:
                            keep = L + s if L + s > 0 else 0
                            dup = 0
                            for k in range(nc - 1, -1, -1):
                                if cands[k].parent != a:
                                    break
                                if cands[k].i == i and cands[k].keep == keep and cands[k].extra == 0:
                                    dup = 1
                            if dup:
                                continue
                            cands[nc].keep = keep
                            cands[nc].extra = 0
                            cands[nc].order = gap_c(pts[keep][0], pts[keep][1], pts[keep][2], pts[keep][3], self.distance)
                        cands[nc].parent = a
                        cands[nc].i = i
                        cands[nc].score = s
                        cands[nc].index = nc
                        nc += 1
                    if win_parent >= 0:
                        break
                if win_parent >= 0:
                    break
            if win_parent >= 0:
                # the line: back through the parents
                self.line_length = layer + 1
                node = &layers[<size_t>layer * width + win_parent]
                self.line_monster[layer] = node.deck[win_i]
                self.line_score[layer] = win_score
                k = layer
                while k > 0:
                    self.line_monster[k - 1] = node.monster
                    self.line_score[k - 1] = node.score
                    node = &layers[<size_t>(k - 1) * width + node.parent]
                    k -= 1
                return 1
            if nc == 0:
                return 0
            qsort(cands, nc, sizeof(Candidate), compare_candidates)
            if nc > width:
                nc = width
            for a in range(nc):
                node = &layers[<size_t>layer * width + cands[a].parent]
                child = &layers[<size_t>(layer + 1) * width + a]
                mask = 0
                for k in range(node.n):
                    mask |= (<uint64_t>1) << node.deck[k]
                after = node.shuffles + (2 if node.extra > 0 else 1)
                self.deal(mask & ~((<uint64_t>1) << node.deck[cands[a].i]), after, tmp)
                for k in range(node.n - 1):
                    child.deck[k] = tmp[k]
                child.n = node.n - 1
                child.shuffles = after
                child.extra = cands[a].extra
                if cands[a].keep < 0:
                    for k in range(node.L):
                        child.path[k] = node.path[k]
                    child.path[node.L] = cvalue(node.deck[cands[a].i])
                    child.L = node.L + 1
                else:
                    for k in range(cands[a].keep):
                        child.path[k] = node.path[k]
                    child.L = cands[a].keep
                child.parent = cands[a].parent
                child.monster = node.deck[cands[a].i]
                child.score = cands[a].score
            sizes[layer + 1] = nc
        return 0

    def line(self):
        """[(monster card, round score)] of the last win found."""
        return [(self.line_monster[k], self.line_score[k]) for k in range(self.line_length)]

    cdef inline int limit_of(self, int n, int budget) noexcept nogil:
        """The rounds that matter: the budget, or fewer if the deck (n cards) runs out first."""
        return budget if budget < n - 6 else n - 6

    cdef uint64_t node_key(self, int depth, uint64_t mask, int n, int shuffles, int extra, int budget) noexcept nogil:
        """The table's key of a node, or 0 when it needs no search (no round left, too deep, or
        ``hopeless``). The path is the one at ``depth``."""
        cdef int limit = self.limit_of(n, budget)
        if limit <= 0 or depth >= MAX_DEPTH - 1 or (self.use_bounds and self.hopeless(depth, limit)):
            return 0
        return mix64(mask ^ mix64(self.path_key(depth, limit) + <uint64_t>shuffles * 0x100000001B3ULL
                                  + <uint64_t>extra * 0xC2B2AE3D27D4EB4FULL
                                  + <uint64_t>limit * 0x9E3779B97F4A7C15ULL)) | (<uint64_t>1 << 63)

    cdef int node(self, int depth, uint64_t mask, int n, int shuffles, int extra, int budget, uint64_t key,
                  bint root) noexcept nogil:
        """1: a win within ``budget`` rounds; 0: none; -1: stopped. ``key``: ``node_key``, nonzero.
        The deck holds the cards of ``mask``: at the root in the order of decks[depth], elsewhere
        in their reshuffle with the count ``shuffles``, made here only once the table has not
        settled the node (the key needs no order, and most nodes end at the table). The path is
        the one at ``depth``."""
        cdef int limit = self.limit_of(n, budget)
        cdef int* deck = self.decks[depth]
        cdef int k
        cdef int L = self.plen[depth]
        if not root:
            # A node this near the end is searched again sooner than looked up: its subtree is
            # small, and a lookup in a table far bigger than the caches is a wait for memory.
            if limit > TABLE_FLOOR and self.lookup(key) >= limit:
                return 0
            self.deal(mask, shuffles, deck)
        self.nodes += 1
        if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
            self.stopped = STOP_TIME
            return -1
        if self.max_states and self.used >= self.max_states:
            self.stopped = STOP_STATES
            return -1
        if self.node_cap and self.nodes >= self.node_cap:
            self.stopped = PROBE_END
            return -1
        cdef int far
        if self.use_bounds and self.use_gains and n - 6 <= self.gain_horizon:
            far = self.beyond(depth, n, shuffles, extra, limit, root)
            if far == -2:
                self.stopped = STOP_TIME
                return -1
            if far == 1:
                if not root and limit > TABLE_FLOOR:
                    self.store(key, limit)
                return 0
        cdef Child children[MAX_CHILDREN]
        cdef int nc = 0, offered = extra + 1 if extra > 0 else 1
        cdef int fight[52]
        cdef int scores[7]
        cdef int ns, i, s, v, monster, e, keep, j, dup
        cdef int after_shuffles[4]
        cdef int ax, bx, ay, by
        cdef uint64_t rest
        cdef int end_ax = self.pts[depth][L][0], end_bx = self.pts[depth][L][1]
        cdef int end_ay = self.pts[depth][L][2], end_by = self.pts[depth][L][3]
        cdef int skipped
        for i in range(offered):
            monster = deck[i]
            v = cvalue(monster)
            rest = mask & ~((<uint64_t>1) << monster)
            if extra > 0:  # the other offered cards went back and the deck was shuffled
                self.deal(rest, shuffles + 1, fight)
                ns = scores_c(self.skill, monster, fight, fight + 3, scores)
                after_shuffles[i] = shuffles + 2
            else:
                ns = scores_c(self.skill, monster, deck + 1, deck + 4, scores)
                after_shuffles[i] = shuffles + 1
            skipped = 0
            for j in range(ns):
                s = scores[j]
                if s > 0:
                    if skipped:  # a lower positive score: dominated by the highest (see the docs)
                        continue
                    skipped = 1
                    if v != KING:
                        if meets_c(end_ax, end_bx, end_ay, end_by, v, self.distance):
                            self.line_monster[depth] = monster
                            self.line_score[depth] = s
                            self.line_length = depth + 1
                            return 1
                        children[nc].keep = -1
                        children[nc].order = gap_c(end_ax + UNIT[v][0], end_bx + UNIT[v][1], end_ay + UNIT[v][2],
                                                   end_by + UNIT[v][3], self.distance)
                    else:
                        children[nc].keep = L
                        children[nc].order = self.gaps[depth][L]
                    children[nc].extra = s
                else:
                    keep = L + s if L + s > 0 else 0
                    dup = 0
                    for k in range(nc):
                        if children[k].index == i and children[k].keep == keep and children[k].extra == 0:
                            dup = 1
                    if dup:
                        continue
                    children[nc].keep = keep
                    children[nc].extra = 0
                    children[nc].order = self.gaps[depth][keep]
                children[nc].index = i
                children[nc].score = s
                children[nc].win = 0
                nc += 1
        # order: nearest the K♦ first, then the larger offer, then as generated (insertion sort)
        if self.order_mode == 1:
            for k in range(nc):
                children[k].order -= 0.5 * children[k].extra
        elif self.order_mode == 2:
            for k in range(nc):
                children[k].order -= 10.0 * (children[k].extra > 0)
        elif self.order_mode == 3:
            for k in range(nc):
                if children[k].keep >= 0 and children[k].keep < L:
                    children[k].order = -100.0 + children[k].keep  # cut back first, the most first
        cdef Child t
        for i in range(1, nc):
            t = children[i]
            j = i - 1
            while j >= 0 and (children[j].order > t.order or (children[j].order == t.order and children[j].extra < t.extra)):
                children[j + 1] = children[j]
                j -= 1
            children[j + 1] = t
        # The children's keys first, and their slots asked of memory at once: the table is far
        # bigger than the caches, and a child's lookup is otherwise one wait for memory after another.
        cdef int r
        for k in range(nc):
            i = children[k].index
            self.child_path(depth, children[k].keep, cvalue(deck[i]))
            children[k].key = self.node_key(depth + 1, mask & ~((<uint64_t>1) << deck[i]), n - 1, after_shuffles[i],
                                            children[k].extra, budget - 1)
            if children[k].key:
                if self.limit_of(n - 1, budget - 1) > TABLE_FLOOR:
                    prefetch(&self.table[children[k].key & (self.capacity - 1)])
        for k in range(nc):
            if not children[k].key:
                continue
            i = children[k].index
            if nc > 1:  # else the path at depth + 1 is still the child's
                self.child_path(depth, children[k].keep, cvalue(deck[i]))
            r = self.node(depth + 1, mask & ~((<uint64_t>1) << deck[i]), n - 1, after_shuffles[i], children[k].extra,
                          budget - 1, children[k].key, False)
            if r == 1:
                self.line_monster[depth] = deck[i]
                self.line_score[depth] = children[k].score
                return 1
            if r < 0:
                return -1
        if not root and limit > TABLE_FLOOR:
            self.store(key, limit)
        return 0


# -- the value table (solodeck/games/dungeon/values.py, operation for operation) --------------------
ctypedef struct ValueTable:
    double* values      # V[r][e][last][cell], flat (Grid.index)
    double* odds        # [14]: each value's chance in a draw
    double* classes     # [14][CLASSES]: a round's class against a monster of each value
    double x0, y0, step
    int nx, ny, rounds, cells

cdef double STEP_X[14]
cdef double STEP_Y[14]
for _v in range(1, 14):
    STEP_X[_v] = (UNIT[_v][0] + UNIT[_v][1] * SQRT3) / 2 if _v < KING else 0.0
    STEP_Y[_v] = (UNIT[_v][2] + UNIT[_v][3] * SQRT3) / 2 if _v < KING else 0.0


cdef inline int cell_of(ValueTable* t, double x, double y) noexcept nogil:
    """Grid.cell: the cell of a point, -1 off the grid."""
    cdef int i = <int>floor((x - t.x0) / t.step + 0.5), j = <int>floor((y - t.y0) / t.step + 0.5)
    if 0 <= i < t.nx and 0 <= j < t.ny:
        return j * t.nx + i
    return -1


cdef bint meets_float(double x, double y, int v, int d) noexcept nogil:
    """dungeon.values.meets_float: Liang-Barsky clipping of the segment to the K♦ (the table only)."""
    cdef double t0 = 0.0, t1 = 1.0, dx = STEP_X[v], dy = STEP_Y[v], p, q, t
    cdef double ps[4]
    cdef double qs[4]
    cdef int k
    ps[0], qs[0] = -dx, x + 0.357
    ps[1], qs[1] = dx, 0.357 - x
    ps[2], qs[2] = -dy, y - d
    ps[3], qs[3] = dy, d + 1.0 - y
    for k in range(4):
        p, q = ps[k], qs[k]
        if p == 0.0:
            if q < 0.0:
                return False
        else:
            t = q / p
            if p < 0.0:
                if t > t0:
                    t0 = t
            elif t < t1:
                t1 = t
            if t0 > t1:
                return False
    return True


cdef double best_of_draws(double* worth, double* odds, int draws) noexcept nogil:
    """E[the largest worth of ``draws`` values drawn by odds], in increasing (worth, value) order."""
    cdef int order[13]
    cdef int n = 0, v, i, k
    cdef double total = 0.0, low = 0.0, cumulative = 0.0, power
    for v in range(1, 14):  # insertion: a later value goes after the equal worths
        i = n
        while i > 0 and worth[order[i - 1]] > worth[v]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = v
        n += 1
    for i in range(13):
        v = order[i]
        cumulative += odds[v]
        power = cumulative
        for k in range(draws - 1):
            power *= cumulative
        total += worth[v] * (power - low)
        low = power
    return total


cdef inline int table_index(ValueTable* t, int rounds, int extra, int last, int cell) noexcept nogil:
    return ((rounds * 4 + extra) * LASTS + last) * t.cells + cell


cdef double monster_worth(double* classes, int v, double stay, double back, double* up) noexcept nogil:
    """dungeon.values.monster_worth: a round against a monster of value v."""
    cdef double worth = 0.0, value
    cdef int c, top
    for c in range(1, CLASSES):
        top = c >> 2
        value = up[top] if top else -1.0
        if (c >> 1) & 1 and stay > value:
            value = stay
        if c & 1 and back > value:
            value = back
        if value > 0.0:
            worth += classes[v * CLASSES + c] * value
    return worth


cdef ValueTable table_view(double[::1] values, double[::1] odds, double[::1] classes, double x0, double y0,
                           double step, int nx, int ny, int rounds):
    cdef ValueTable t
    t.values, t.odds, t.classes = &values[0], &odds[0], &classes[0]
    t.x0, t.y0, t.step, t.nx, t.ny, t.rounds, t.cells = x0, y0, step, nx, ny, rounds, nx * ny
    return t


def value_table(double[::1] values, double[::1] odds, double[::1] classes, int distance, double x0, double y0,
                double step, int nx, int ny, int rounds):
    """Fill ``values`` (zeros, Grid.size) with dungeon.values.build_table's V."""
    cdef ValueTable t = table_view(values, odds, classes, x0, y0, step, nx, ny, rounds)
    cdef double worth[14]
    cdef double up[4]
    cdef int steps[14]
    cdef int backs[14]
    cdef bint wins[14]
    cdef double x, y, stay, back
    cdef int r, here, v, e, last, k
    with nogil:
        for r in range(1, rounds + 1):
            for here in range(t.cells):
                x = x0 + (here % nx) * step
                y = y0 + (here // nx) * step
                if gap_float(x, y, distance) > r + 1:
                    continue
                for v in range(14):
                    steps[v] = cell_of(&t, x + STEP_X[v], y + STEP_Y[v])
                    backs[v] = cell_of(&t, x - STEP_X[v], y - STEP_Y[v])
                    wins[v] = v != KING and v > 0 and meets_float(x, y, v, distance)
                for last in range(LASTS):
                    stay = t.values[table_index(&t, r - 1, 0, last, here)]
                    if last == 0:
                        back = stay
                    else:
                        back = t.values[table_index(&t, r - 1, 0, 0, backs[last])] if backs[last] >= 0 else 0.0
                    for v in range(1, 14):
                        for k in range(1, 4):
                            if v == KING:
                                up[k] = t.values[table_index(&t, r - 1, k, last, here)]
                            elif wins[v]:
                                up[k] = 1.0
                            else:
                                up[k] = t.values[table_index(&t, r - 1, k, v, steps[v])] if steps[v] >= 0 else 0.0
                        worth[v] = monster_worth(t.classes, v, stay, back, up)
                    for e in range(4):
                        t.values[table_index(&t, r, e, last, here)] = best_of_draws(worth, t.odds, e + 1)


# -- the blind rule's rollouts (blind mode) --------------------------------------------------------
cdef inline double point_x(int* p) noexcept nogil:
    return (p[0] + p[1] * SQRT3) / 2


cdef inline double point_y(int* p) noexcept nogil:
    return (p[2] + p[3] * SQRT3) / 2


cdef inline double table_value(ValueTable* t, int rounds, int extra, int last, int* point) noexcept nogil:
    """ValueTable.value: V after this round (``rounds`` left, this one included) at a point."""
    cdef int cell = cell_of(t, point_x(point), point_y(point))
    if cell < 0:
        return 0.0
    return t.values[table_index(t, rounds - 1 if rounds - 1 < t.rounds else t.rounds, extra, last, cell)]


cdef double choice_worth(ValueTable* t, int* pts, int* pv, int L, int v, int rounds, int d) noexcept nogil:
    """dungeon.rules.State.choice_worth: the table's round against an offered v from the real path
    (``pts`` its points, the origin first; ``pv`` its values)."""
    cdef int* end = pts + 4 * L
    cdef int nxt[4]
    cdef double up[4]
    cdef double stay, back
    cdef int k
    stay = table_value(t, rounds, 0, pv[L - 1] if L else 0, end)
    back = table_value(t, rounds, 0, pv[L - 2] if L > 1 else 0, end - 4) if L else stay
    for k in range(4):
        nxt[k] = end[k] + UNIT[v][k] if v != KING else end[k]
    for k in range(1, 4):
        if v == KING:
            up[k] = table_value(t, rounds, k, pv[L - 1] if L else 0, end)
        elif meets_c(end[0], end[1], end[2], end[3], v, d):
            up[k] = 1.0
        else:
            up[k] = table_value(t, rounds, k, v, nxt)
    return monster_worth(t.classes, v, stay, back, up)


cdef double score_worth(ValueTable* t, int* pts, int* pv, int L, int v, int score, int rounds,
                        int d) noexcept nogil:
    """dungeon.rules.State.score_worth: 2 for a win, else the table at the path's new end."""
    cdef int* end = pts + 4 * L
    cdef int nxt[4]
    cdef int k, keep
    if score > 0 and v != KING:
        if meets_c(end[0], end[1], end[2], end[3], v, d):
            return 2.0
        for k in range(4):
            nxt[k] = end[k] + UNIT[v][k]
        return table_value(t, rounds, score, v, nxt)
    keep = L + score if score < 0 else L
    if keep < 0:
        keep = 0
    return table_value(t, rounds, score if score > 0 else 0, pv[keep - 1] if keep else 0, pts + 4 * keep)


cdef inline int draw_value(int* counts, int total, uint64_t* rng) noexcept nogil:
    """The reference's sample_chance: r = next() mod the deck's size, the values in increasing
    order, each weighted by its count; the drawn value leaves the composition."""
    cdef int r = <int>(next_random(rng) % <uint64_t>total), v
    for v in range(1, 14):
        if r < counts[v]:
            counts[v] -= 1
            return v
        r -= counts[v]
    return -1


cdef double promise_c(int* pts, int L, int v, int score, int d) noexcept nogil:
    """The reference's State._promise: how far from the K♦ the path's end would be after the
    monster of value v scored ``score`` (-1: that card wins). ``pts``: the points, 4 ints each,
    the origin first."""
    cdef int* end = pts + 4 * L
    cdef int keep
    if score > 0 and v != KING:
        if meets_c(end[0], end[1], end[2], end[3], v, d):
            return -1.0
        return gap_c(end[0] + UNIT[v][0], end[1] + UNIT[v][1], end[2] + UNIT[v][2], end[3] + UNIT[v][3], d)
    if score < 0:
        keep = L + score if L + score > 0 else 0
        return gap_c(pts[4 * keep], pts[4 * keep + 1], pts[4 * keep + 2], pts[4 * keep + 3], d)
    return gap_c(end[0], end[1], end[2], end[3], d)


cdef int rollout(int* counts0, int* path, int L0, int extra, int monster, int skill, int d, ValueTable* t,
                 uint64_t seed) noexcept nogil:
    """One game of the blind rule (dungeon.rules.State.rule_move; the baseline when ``t`` is NULL: every
    worth 0, the baseline's order alone) from the start of a round (``monster`` -1, ``extra``
    offered beside it) or from the deal of a round whose monster (a value) is chosen: 1 won, 0
    lost. The draws are solvers/rollouts.py's play_out with SplitMix64(seed)."""
    cdef int counts[14]
    cdef int pts[4 * (MAX_PATH + 50)]
    cdef int pv[MAX_PATH + 50]
    cdef int offer[4]
    cdef int att[3]
    cdef int hand[3]
    cdef int scores[7]
    cdef int total = 0, v, k, i, L = 0, best, ns, s, rounds
    cdef double p, bp, w, bw
    cdef uint64_t rng = seed
    for v in range(14):
        counts[v] = counts0[v]
        total += counts[v]
    for k in range(4):
        pts[k] = 0
    for i in range(L0):
        pv[i] = path[i]
        for k in range(4):
            pts[4 * (i + 1) + k] = pts[4 * i + k] + UNIT[path[i]][k]
    L = L0
    # the rounds left, this one included (State.rounds_left): the deck at the round's start less 6
    rounds = total - 6 if monster < 0 else total + 1 - 6
    while True:
        if monster < 0:
            if total < 7:  # a round that cannot be dealt in full
                return 0
            rounds = total - 6
            for i in range(1 + extra):
                offer[i] = draw_value(counts, total, &rng)
                total -= 1
            best = 0
            if extra:  # the rule's choice: the best worth, then the baseline's (nearest, lower)
                bw = choice_worth(t, pts, pv, L, offer[0], rounds, d) if t != NULL else 0.0
                bp = promise_c(pts, L, offer[0], 1, d)
                for i in range(1, 1 + extra):
                    w = choice_worth(t, pts, pv, L, offer[i], rounds, d) if t != NULL else 0.0
                    p = promise_c(pts, L, offer[i], 1, d)
                    if w > bw or (w == bw and (p < bp or (p == bp and offer[i] < offer[best]))):
                        bw, bp, best = w, p, i
                for i in range(1 + extra):
                    if i != best:
                        counts[offer[i]] += 1
                        total += 1
            monster = offer[best]
        for i in range(3):
            att[i] = draw_value(counts, total, &rng)
            total -= 1
        for i in range(3):
            hand[i] = draw_value(counts, total, &rng)
            total -= 1
        ns = scores_values(skill, monster, att, hand, scores)
        # the rule's pairing: the best worth, then the baseline's (nearest, then the higher score)
        best = scores[0]
        bw = score_worth(t, pts, pv, L, monster, best, rounds, d) if t != NULL else 0.0
        bp = promise_c(pts, L, monster, best, d)
        for i in range(1, ns):
            w = score_worth(t, pts, pv, L, monster, scores[i], rounds, d) if t != NULL else 0.0
            p = promise_c(pts, L, monster, scores[i], d)
            if w > bw or (w == bw and p < bp):  # scores come highest first, so a tie keeps the higher
                bw, bp, best = w, p, scores[i]
        s = best
        if s > 0 and monster != KING:
            if meets_c(pts[4 * L], pts[4 * L + 1], pts[4 * L + 2], pts[4 * L + 3], monster, d):
                return 1
            for k in range(4):
                pts[4 * (L + 1) + k] = pts[4 * L + k] + UNIT[monster][k]
            pv[L] = monster
            L += 1
        elif s < 0:
            L = L + s if L + s > 0 else 0
        for i in range(3):
            counts[att[i]] += 1
            counts[hand[i]] += 1
        total += 6
        extra = s if s > 0 else 0
        monster = -1


cdef int scores_values(int skill, int monster, int* attacks, int* hand, int* out) noexcept nogil:
    """scores_c on values (the rollouts track values only)."""
    cdef int a[3]
    cdef int h[3]
    cdef int k
    for k in range(3):
        a[k] = attacks[k] - 1  # a card of suit 0 with that value
        h[k] = hand[k] - 1
    return scores_c(skill, monster - 1, a, h, out)


def rollouts(counts, path, int extra, int monster, int skill, int distance, int samples, uint64_t seed,
             table=None):
    """Wins of ``samples`` games of the rollout rule (sample i draws with SplitMix64(seed + i)) from
    the start of a round (``monster`` -1) or the deal of a round whose monster's value is
    ``monster``. ``counts``: the deck's cards per value (index 0 unused); ``path``: the path's
    values; ``table``: the value table's arguments (dungeon.values.ValueTable.kernel_args) for
    the value-table rule, None for the baseline."""
    cdef ValueTable t
    cdef ValueTable* rule = NULL
    cdef int c[14]
    cdef int pv[MAX_PATH + 50]
    cdef int L = len(path), i, wins = 0
    if table is not None:
        t = table_view(table[0], table[1], table[2], table[3], table[4], table[5], table[6], table[7], table[8])
        rule = &t
    for i in range(14):
        c[i] = counts[i]
    for i in range(L):
        pv[i] = path[i]
    with nogil:
        for i in range(samples):
            wins += rollout(c, pv, L, extra, monster, skill, distance, rule, seed + <uint64_t>i)
    return wins
