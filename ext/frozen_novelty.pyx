# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Frozen Novelty kernel: the twelve stacks in C arrays, make/unmake, and the exact open search.

It mirrors the reference engine (solodeck/games/frozen_novelty/rules.py): the same legal moves in the
same order (tests compare them state by state along random lines), the same safe moves, the same
pruned and ordered search moves, and the same search: a depth-first reachability search with
Tarjan's strongly connected components, so a position is stored as lost only when everything it
reaches has been explored (the state graph has cycles). The verdicts are the reference's (tests
compare them on many small positions); the winning lines may differ. Very hard's lazy flips
(State.search_moves: a flip only together with its card's first use) are the same too: a LAZY
flag on the packed flip, the fresh stack in the key, and in each logged move for undo.

Stacks 0-3 are the Deck stacks, 4-7 Up, 8-11 Down. A code is card * 2 + face up, card =
suit * 13 + rank - 1 (suits S H D C). The table key is a pair of 64-bit hashes of the position up
to the interchangeable stacks: each stack's Zobrist hash (by height and code, not by stack) is
mixed with its group's salt, and the twelve are added, so stacks of one group may be permuted.
"""
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int32_t
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, next_random, mix64, Clock, clock_restart,
                     clock_start, clock_expired, capacity_for, table_full)

cdef enum:
    NSTACKS = 12
    MAXH = 52
    FLIP = 0
    FOUND = 1
    MOVE = 2
    DOWN = 3
    ST_EMPTY = 0
    ST_LOST = 1
    ST_WIN = 2
    ST_TEMP = 3
    CHECK_EVERY = 0xFFF
    V_STANDARD = 0
    V_VERY_EASY = 1
    V_EASY = 2
    V_HARD = 3
    V_VERY_HARD = 4
    MAXMOVES = 1024
    LAZY = 1 << 16      # a flip of the search's lazy flips (the card turned up is used at once)
    PREV_SHIFT = 17     # a logged move keeps the fresh stack before it (+1), for undo

ctypedef struct Entry:  # 24 bytes
    uint64_t k1, k2
    uint32_t info       # TEMP: discovery number; WIN: moves to the win (at most), above some next position's
    uint8_t state
    uint8_t gen

cdef uint64_t ZOB1[MAXH][104]
cdef uint64_t ZOB2[MAXH][104]


cdef void _init_zobrist():
    cdef uint64_t s = 20021
    cdef int h, c
    for h in range(MAXH):
        for c in range(104):
            ZOB1[h][c] = next_random(&s)
            ZOB2[h][c] = next_random(&s)

_init_zobrist()


cdef inline int rank_of(int card) noexcept nogil:
    return card % 13 + 1


cdef inline int suit_of(int card) noexcept nogil:
    return card // 13


cdef inline int is_red(int card) noexcept nogil:
    cdef int s = card // 13
    return s == 1 or s == 2


cdef inline int pack(int kind, int src, int dst, int n) noexcept nogil:
    return kind | (src << 2) | ((dst + 1) << 6) | (n << 10)


cdef inline int m_kind(int m) noexcept nogil:
    return m & 3


cdef inline int m_src(int m) noexcept nogil:
    return (m >> 2) & 15


cdef inline int m_dst(int m) noexcept nogil:
    return ((m >> 6) & 15) - 1


cdef inline int m_n(int m) noexcept nogil:
    return (m >> 10) & 63


cdef inline int m_prev(int m) noexcept nogil:
    return ((m >> PREV_SHIFT) & 15) - 1


cdef class Search:
    """One rule set (variant and back table) and its table; ``set_position`` then ``solve``.
    ``memory_mb`` caps the table: when it fills, entries of finished searches are dropped, and
    if that is not enough the search stops (memory-limit); ``max_states`` stops a search once
    that many positions are stored; ``time_limit`` stops it (timeout)."""

    cdef int stack[NSTACKS][MAXH]
    cdef int height[NSTACKS]
    cdef int found[4]
    cdef int variant
    cdef int backs[52]
    cdef int nbacks[52]
    cdef int cls[NSTACKS]
    cdef uint64_t salt1[3]
    cdef uint64_t salt2[3]
    cdef uint64_t fsalt1[3]
    cdef uint64_t fsalt2[3]
    cdef int lazy        # lazy flips (very hard): see State.search_moves
    cdef int fresh       # the stack whose top a lazy flip has just turned up, -1 if none
    cdef uint64_t h1[NSTACKS]
    cdef uint64_t h2[NSTACKS]
    # the move log (the line from the position set) and the search's stacks
    cdef int* log
    cdef int log_len, log_cap
    cdef int* mbuf
    cdef int mbuf_len, mbuf_cap
    cdef Entry* table
    cdef uint64_t capacity, used
    cdef uint8_t gen
    cdef public uint64_t nodes, stored
    cdef uint64_t max_states
    cdef uint64_t node_budget, node_end   # nodes one solve() may enter (0: no budget)
    cdef Clock clock
    cdef public int stopped
    cdef int line_len
    cdef list _line
    cdef uint64_t max_capacity

    def __cinit__(self, int variant, backs, double memory_mb=1024.0, double time_limit=0.0,
                  long long max_states=0, int lazy=-1):
        cdef int j, c
        self.variant = variant
        for c in range(52):
            self.backs[c] = backs[c]
            self.nbacks[c] = bin(backs[c]).count("1")
        for j in range(NSTACKS):
            if variant == V_STANDARD:
                self.cls[j] = 1 if 4 <= j < 8 else 0
            elif variant == V_VERY_EASY or variant == V_EASY:
                self.cls[j] = 1 if j >= 8 else 0
            else:
                self.cls[j] = j // 4
        self.salt1[0], self.salt1[1], self.salt1[2] = 0x1234567ULL, 0x89ABCDEF0123ULL, 0x5555AAAA3333ULL
        self.salt2[0], self.salt2[1], self.salt2[2] = 0x7654321ULL, 0x3210FEDCBA98ULL, 0x0F0F0F0F1111ULL
        self.fsalt1[0], self.fsalt1[1], self.fsalt1[2] = 0x2F6B1D37C9A5E441ULL, 0x6A09E667F3BCC908ULL, 0x3C6EF372FE94F82BULL
        self.fsalt2[0], self.fsalt2[1], self.fsalt2[2] = 0x510E527FADE682D1ULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL
        self.lazy = (variant == V_VERY_HARD) if lazy < 0 else lazy  # the reference's Rules.lazy_flips
        self.fresh = -1
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 12)
        self.capacity = min(<uint64_t>1 << 12, self.max_capacity)  # grows as needed
        self.table = <Entry*>calloc(self.capacity, sizeof(Entry))
        self.log_cap = 4096
        self.log = <int*>malloc(self.log_cap * sizeof(int))
        self.mbuf_cap = 1 << 16
        self.mbuf = <int*>malloc(self.mbuf_cap * sizeof(int))
        if self.table == NULL or self.log == NULL or self.mbuf == NULL:
            raise MemoryError()
        self.gen = 1
        clock_restart(&self.clock, time_limit)
        self.max_states = max_states
        self.nodes = self.stored = self.used = 0
        self.stopped = STOP_NONE

    def __dealloc__(self):
        free(self.table)
        free(self.log)
        free(self.mbuf)

    # -- the position ------------------------------------------------------------------------
    def set_position(self, stacks, found, int fresh=-1):
        """stacks: 12 lists of codes, bottom first; found: the 4 foundation ranks; fresh: the
        stack a lazy flip has just turned up (tests: the reference's State.fresh), else -1."""
        cdef int j, k
        for j in range(NSTACKS):
            self.height[j] = len(stacks[j])
            self.h1[j] = self.h2[j] = 0
            for k in range(self.height[j]):
                self.stack[j][k] = stacks[j][k]
                self.h1[j] ^= ZOB1[k][stacks[j][k]]
                self.h2[j] ^= ZOB2[k][stacks[j][k]]
        for k in range(4):
            self.found[k] = found[k]
        self.fresh = fresh
        self.log_len = 0

    def position(self):
        return ([[self.stack[j][k] for k in range(self.height[j])] for j in range(NSTACKS)],
                [self.found[k] for k in range(4)])

    def key(self):
        cdef uint64_t k1, k2
        self._key(&k1, &k2)
        return (k1, k2)

    cdef inline void _key(self, uint64_t* k1, uint64_t* k2) noexcept nogil:
        cdef uint64_t a = 0, b = 0
        cdef int j
        for j in range(NSTACKS):
            a += mix64(self.h1[j] ^ self.salt1[self.cls[j]])
            b += mix64(self.h2[j] + self.salt2[self.cls[j]])
        if self.fresh >= 0:  # the reference key's ("fresh", group, stack)
            j = self.fresh
            a += mix64(self.h1[j] ^ self.fsalt1[self.cls[j]])
            b += mix64(self.h2[j] + self.fsalt2[self.cls[j]])
        k1[0] = a
        k2[0] = b

    cdef inline bint _won(self) noexcept nogil:
        return self.found[0] + self.found[1] + self.found[2] + self.found[3] == 52

    # -- the rules ---------------------------------------------------------------------------
    cdef inline bint _builds(self, int lower, int upper) noexcept nogil:
        if rank_of(upper) != rank_of(lower) + 1:
            return 0
        if self.variant == V_VERY_EASY:
            return is_red(lower) != is_red(upper)
        return suit_of(lower) == suit_of(upper)

    cdef inline bint _empty_takes_down(self, int j) noexcept nogil:
        return j >= 8 or (j < 4 and self.variant == V_STANDARD)

    cdef inline bint _empty_takes_up(self, int j) noexcept nogil:
        return (4 <= j < 8) or (j < 4 and (self.variant == V_EASY or self.variant == V_VERY_EASY))

    cdef inline bint _backs_fit(self, int mover, int dest) noexcept nogil:
        cdef int d = self.nbacks[dest] - self.nbacks[mover]
        return (self.backs[mover] & self.backs[dest]) != 0 and (d == 0 or d == 1)

    cdef inline int _run(self, int i) noexcept nogil:
        cdef int h = self.height[i], n = 0
        while n < h and (self.stack[i][h - 1 - n] & 1):
            if n and not self._builds(self.stack[i][h - n] >> 1, self.stack[i][h - 1 - n] >> 1):
                break
            n += 1
        return n

    cdef int _generate(self, int* out) noexcept nogil:
        """Every legal move, in the reference's order."""
        cdef int i, j, n, run, top, card, t, cnt = 0
        if self._won():
            return 0
        for i in range(NSTACKS):
            if self.height[i] == 0:
                continue
            top = self.stack[i][self.height[i] - 1]
            if not (top & 1):
                out[cnt] = pack(FLIP, i, -1, 1); cnt += 1
                if self.variant == V_VERY_HARD and i >= 4:
                    continue
                for j in range(NSTACKS):
                    if j == i or (self.variant == V_VERY_HARD and j < 8):
                        continue
                    if self.height[j] == 0:
                        if self._empty_takes_down(j):
                            out[cnt] = pack(DOWN, i, j, 1); cnt += 1
                    else:
                        t = self.stack[j][self.height[j] - 1]
                        if not (t & 1) and self._backs_fit(top >> 1, t >> 1):
                            out[cnt] = pack(DOWN, i, j, 1); cnt += 1
                continue
            card = top >> 1
            if self.found[suit_of(card)] == rank_of(card) - 1:
                out[cnt] = pack(FOUND, i, -1, 1); cnt += 1
            run = self._run(i)
            for n in range(1, run + 1):
                card = self.stack[i][self.height[i] - n] >> 1
                for j in range(NSTACKS):
                    if j == i:
                        continue
                    if self.height[j] == 0:
                        if self._empty_takes_up(j):
                            out[cnt] = pack(MOVE, i, j, n); cnt += 1
                    else:
                        t = self.stack[j][self.height[j] - 1]
                        if (t & 1) and self._builds(card, t >> 1):
                            out[cnt] = pack(MOVE, i, j, n); cnt += 1
        return cnt

    cdef inline void _push(self, int j, int code) noexcept nogil:
        cdef int h = self.height[j]
        self.stack[j][h] = code
        self.h1[j] ^= ZOB1[h][code]
        self.h2[j] ^= ZOB2[h][code]
        self.height[j] = h + 1

    cdef inline int _pop(self, int j) noexcept nogil:
        cdef int h = self.height[j] - 1
        cdef int code = self.stack[j][h]
        self.h1[j] ^= ZOB1[h][code]
        self.h2[j] ^= ZOB2[h][code]
        self.height[j] = h
        return code

    cdef void _apply(self, int m) noexcept nogil:
        cdef int kind = m_kind(m), src = m_src(m), dst, n, k, code
        cdef int tmp[MAXH]
        self.fresh = src if (kind == FLIP and (m & LAZY)) else -1
        if kind == FLIP:
            code = self._pop(src)
            self._push(src, code | 1)
        elif kind == FOUND:
            code = self._pop(src)
            self.found[suit_of(code >> 1)] += 1
        else:
            dst = m_dst(m)
            n = m_n(m)
            for k in range(n):
                tmp[k] = self._pop(src)
            for k in range(n - 1, -1, -1):
                self._push(dst, tmp[k])

    cdef void _undo(self, int m) noexcept nogil:
        cdef int kind = m_kind(m), src = m_src(m), dst, n, k, code
        cdef int tmp[MAXH]
        self.fresh = m_prev(m)
        if kind == FLIP:
            code = self._pop(src)
            self._push(src, code & ~1)
        elif kind == FOUND:
            # the card that went home is the foundation's top of the suit the log remembers:
            # FOUND moves carry the suit in dst (see _safe)
            dst = m_dst(m)
            self._push(src, (dst * 13 + self.found[dst] - 1) * 2 + 1)
            self.found[dst] -= 1
        else:
            dst = m_dst(m)
            n = m_n(m)
            for k in range(n):
                tmp[k] = self._pop(dst)
            for k in range(n - 1, -1, -1):
                self._push(src, tmp[k])

    cdef inline int _logged(self, int m) noexcept nogil:
        """The move as the log keeps it: a FOUND move also names its suit, and every move the
        fresh stack before it, for undo."""
        if m_kind(m) == FOUND:
            m = pack(FOUND, m_src(m), suit_of(self.stack[m_src(m)][self.height[m_src(m)] - 1] >> 1), 1)
        return (m & ((1 << PREV_SHIFT) - 1)) | ((self.fresh + 1) << PREV_SHIFT)

    cdef int _log_push(self, int m) noexcept nogil:
        cdef int* grown
        if self.log_len == self.log_cap:
            grown = <int*>realloc(self.log, 2 * self.log_cap * sizeof(int))
            if grown == NULL:
                return 0
            self.log = grown
            self.log_cap *= 2
        self.log[self.log_len] = m
        self.log_len += 1
        return 1

    cdef int _safe(self) noexcept nogil:
        """A foundation move that can never hurt (the reference's State.safe_move), or -1."""
        cdef int i, card, r, s, o, ok
        for i in range(NSTACKS):
            if self.height[i] and (self.stack[i][self.height[i] - 1] & 1):
                card = self.stack[i][self.height[i] - 1] >> 1
                r = rank_of(card)
                s = suit_of(card)
                if self.found[s] == r - 1:
                    if self.variant != V_VERY_EASY or r == 1:
                        return pack(FOUND, i, -1, 1)
                    ok = 1
                    for o in range(4):
                        if ((o == 1 or o == 2) != is_red(card)) and self.found[o] < r - 1:
                            ok = 0
                    if ok:
                        return pack(FOUND, i, -1, 1)
        return -1

    cdef int _closure(self) noexcept nogil:
        cdef int m = self._safe()
        while m >= 0:
            m = self._logged(m)
            if not self._log_push(m):
                return 0
            self._apply(m)
            m = self._safe()
        return 1

    cdef void _undo_to(self, int length) noexcept nogil:
        while self.log_len > length:
            self.log_len -= 1
            self._undo(self.log[self.log_len])

    cdef int _needed_depth(self, int j) noexcept nogil:
        cdef int d, card
        for d in range(self.height[j]):
            card = self.stack[j][self.height[j] - 1 - d] >> 1
            if self.found[suit_of(card)] == rank_of(card) - 1:
                return d
        return -1

    cdef bint _flip_has_use(self, int i) noexcept nogil:
        """The reference's State._flip_has_use: may the face-down top of stack i, turned up, be
        used at once (home, onto a face-up top or into an empty stack, or built on by a run)?"""
        cdef int x = self.stack[i][self.height[i] - 1] >> 1, j, n, run, t
        if self.found[suit_of(x)] == rank_of(x) - 1:
            return 1
        for j in range(NSTACKS):
            if j == i:
                continue
            if self.height[j] == 0:
                if self._empty_takes_up(j):
                    return 1
                continue
            t = self.stack[j][self.height[j] - 1]
            if (t & 1) and self._builds(x, t >> 1):
                return 1
            run = self._run(j)
            for n in range(1, run + 1):
                if self._builds(self.stack[j][self.height[j] - n] >> 1, x):
                    return 1
        return 0

    cdef int _search_moves(self, int* out) noexcept nogil:
        """The reference's State.search_moves: one move per group into empty stacks, no whole-stack
        move into an empty stack of its own group, ordered as State._order (stable)."""
        cdef int all_moves[MAXMOVES]
        cdef int prio[MAXMOVES]
        cdef int need[NSTACKS]
        cdef int seen[MAXMOVES]
        cdef int n = self._generate(all_moves), cnt = 0, nseen = 0, i, k, m, src, dst, kind, tag, dup, p, whole
        cdef int card, base, top
        for i in range(NSTACKS):
            need[i] = self._needed_depth(i)
        for i in range(n):
            m = all_moves[i]
            kind, src, dst = m_kind(m), m_src(m), m_dst(m)
            if self.fresh >= 0 and src != self.fresh and dst != self.fresh:
                continue  # the card a lazy flip turned up is used at once
            if self.lazy and kind == FLIP:
                if not self._flip_has_use(src):
                    continue
                m |= LAZY
            if dst >= 0 and self.height[dst] == 0:
                whole = m_n(m) == self.height[src] or (kind == DOWN and self.height[src] == 1)
                if whole and self.cls[src] == self.cls[dst]:
                    continue
                tag = kind | (src << 2) | (m_n(m) << 6) | (self.cls[dst] << 12)
                dup = 0
                for k in range(nseen):
                    if seen[k] == tag:
                        dup = 1
                        break
                if dup:
                    continue
                seen[nseen] = tag
                nseen += 1
            # priority, as State._order
            if kind == FOUND:
                p = 0
            elif kind == FLIP:
                card = self.stack[src][self.height[src] - 1] >> 1
                if self.found[suit_of(card)] == rank_of(card) - 1:
                    p = 1
                else:
                    p = 2 if self.lazy else (6 if need[src] >= 0 else 9)
            else:
                if need[src] >= 0 and need[dst] < 0:
                    base = 0
                elif need[dst] < 0:
                    base = 10
                else:
                    base = 20
                if kind == MOVE:
                    p = base + (2 if self.height[dst] else 4)
                elif self.height[dst] == 0:
                    p = base + 5
                elif self.variant != V_VERY_HARD:
                    p = base + 3
                else:
                    top = self.stack[dst][self.height[dst] - 1] >> 1
                    card = self.stack[src][self.height[src] - 1] >> 1
                    p = base + (3 if rank_of(top) > rank_of(card) else 6)
            # stable insertion by priority
            k = cnt
            while k > 0 and prio[k - 1] > p:
                prio[k] = prio[k - 1]
                out[k] = out[k - 1]
                k -= 1
            prio[k] = p
            out[k] = m
            cnt += 1
        return cnt

    # -- Python access for tests -------------------------------------------------------------
    def legal_moves(self):
        """[(kind, src, dst, n)] in the reference's order; kind 0 flip, 1 found, 2 move, 3 down."""
        cdef int buf[MAXMOVES]
        cdef int n = self._generate(buf), i
        return [(m_kind(buf[i]), m_src(buf[i]), m_dst(buf[i]), m_n(buf[i])) for i in range(n)]

    def search_moves(self):
        cdef int buf[MAXMOVES]
        cdef int n = self._search_moves(buf), i
        return [(m_kind(buf[i]), m_src(buf[i]), m_dst(buf[i]), m_n(buf[i])) for i in range(n)]

    def safe_move(self):
        cdef int m = self._safe()
        return None if m < 0 else (m_kind(m), m_src(m), m_dst(m), m_n(m))

    def play(self, int kind, int src, int dst, int n):
        """Play a legal move for good (tests walk lines with it); False if it is not legal."""
        cdef int buf[MAXMOVES]
        cdef int cnt = self._generate(buf), i, m = pack(kind, src, dst, n)
        for i in range(cnt):
            if buf[i] == m:
                self._apply(m)
                return True
        return False

    def make_unmake(self, int kind, int src, int dst, int n):
        """Play a move, then undo it; True if the position is back exactly (tests)."""
        cdef int m = pack(kind, src, dst, n)
        before = self.position()
        cdef uint64_t a1, a2, b1, b2
        self._key(&a1, &a2)
        m = self._logged(m)
        self._apply(m)
        self._undo(m)
        self._key(&b1, &b2)
        return self.position() == before and a1 == b1 and a2 == b2

    # -- limits and the table ----------------------------------------------------------------
    def restart_clock(self, double seconds):
        """A fresh time limit (0: none) that starts with the next search."""
        clock_restart(&self.clock, seconds)

    def set_node_budget(self, uint64_t nodes):
        """The positions each later solve() may enter before it stops (0: no budget): a budget
        that gives the same answer on every machine, where a time limit would not."""
        self.node_budget = nodes

    cdef inline uint64_t _probe(self, uint64_t k1, uint64_t k2) noexcept nogil:
        """The slot holding (k1, k2), or the first empty slot of its chain."""
        cdef uint64_t mask = self.capacity - 1, i = mix64(k1 ^ (k2 >> 7)) & mask
        while self.table[i].state != ST_EMPTY and not (self.table[i].k1 == k1 and self.table[i].k2 == k2):
            i = (i + 1) & mask
        return i

    cdef inline bint _live(self, Entry* e) noexcept nogil:
        return e.state == ST_LOST or e.state == ST_WIN or (e.state == ST_TEMP and e.gen == self.gen)

    cdef int _room(self) noexcept nogil:
        """Make room for one more entry: at three quarters full, move the live entries (settled
        ones and this search's) to a table twice as big, or, at the memory cap, to a fresh one
        without the dead marks of finished searches; if that frees too little, stop (memory-limit)."""
        cdef uint64_t i, j, old_cap = self.capacity
        cdef uint64_t new_cap = old_cap * 2 if old_cap < self.max_capacity else old_cap
        cdef Entry* old = self.table
        cdef Entry* fresh
        if not table_full(self.used, self.capacity):
            return 1
        fresh = <Entry*>calloc(new_cap, sizeof(Entry))
        if fresh == NULL:
            return 0
        self.table = fresh
        self.capacity = new_cap
        self.used = 0
        for i in range(old_cap):
            if self._live(&old[i]):
                j = self._probe(old[i].k1, old[i].k2)
                self.table[j] = old[i]
                self.used += 1
        free(old)
        return self.used * 8 < self.capacity * 5

    cdef int _insert(self, uint64_t k1, uint64_t k2, int state, uint32_t info) noexcept nogil:
        cdef uint64_t i = self._probe(k1, k2)
        if self.table[i].state == ST_EMPTY:
            if not self._room():
                return 0
            i = self._probe(k1, k2)
            self.used += 1
        self.table[i].k1 = k1
        self.table[i].k2 = k2
        self.table[i].state = state
        self.table[i].info = info
        self.table[i].gen = self.gen
        return 1

    cdef int _mpush(self, int* moves, int n) noexcept nogil:
        cdef int* grown
        while self.mbuf_len + n > self.mbuf_cap:
            grown = <int*>realloc(self.mbuf, 2 * self.mbuf_cap * sizeof(int))
            if grown == NULL:
                return 0
            self.mbuf = grown
            self.mbuf_cap *= 2
        memcpy(self.mbuf + self.mbuf_len, moves, n * sizeof(int))
        self.mbuf_len += n
        return 1

    # -- the search --------------------------------------------------------------------------
    def solve(self):
        """1 if a win is reachable from the position (``line()`` is then a winning line), 0 if
        not (proven), -1 if a limit stopped the search. The position is back afterwards."""
        self.stopped = STOP_NONE
        clock_start(&self.clock)
        self.node_end = self.nodes + self.node_budget if self.node_budget else 0
        cdef uint64_t i
        self.gen = self.gen + 1 if self.gen < 255 else 1
        if self.gen == 1:  # the generation counter wrapped: forget every unsettled mark
            for i in range(self.capacity):
                if self.table[i].state == ST_TEMP:
                    self.table[i].gen = 0
        self.log_len = 0
        self.line_len = 0
        cdef int result = self._search()
        self.stored = self.used
        if result == 1:
            self.line_len = self.log_len
            self._line = [self.log[k] for k in range(self.log_len)]
        else:
            self._line = []
        self._undo_to(0)
        return result

    def line(self):
        """The winning line of the last successful solve: [(kind, src, dst, n)]."""
        out = []
        for m in self._line:
            kind = m_kind(m)
            out.append((kind, m_src(m), -1 if kind == FOUND else m_dst(m), m_n(m)))
        return out

    cdef int _search(self):
        """Tarjan's algorithm over the positions reachable from the current one, stopping at the
        first win. Frames live in growable arrays: the path can be long."""
        cdef int frames_cap = 1024, depth = 0, counter = 0, i, nm, m, low, result = 0
        cdef uint64_t k1, k2, slot
        cdef Entry* e
        cdef int moves[MAXMOVES]
        # per frame: key, number, low, first move in mbuf, move count, next move, log length at entry
        cdef uint64_t* fk1 = <uint64_t*>malloc(frames_cap * sizeof(uint64_t))
        cdef uint64_t* fk2 = <uint64_t*>malloc(frames_cap * sizeof(uint64_t))
        cdef int* fnum = <int*>malloc(frames_cap * sizeof(int))
        cdef int* flow = <int*>malloc(frames_cap * sizeof(int))
        cdef int* fstart = <int*>malloc(frames_cap * sizeof(int))
        cdef int* fcount = <int*>malloc(frames_cap * sizeof(int))
        cdef int* fnext = <int*>malloc(frames_cap * sizeof(int))
        cdef int* flog = <int*>malloc(frames_cap * sizeof(int))
        cdef int* fend = <int*>malloc(frames_cap * sizeof(int))
        # Tarjan's stack of unsettled positions (their keys)
        cdef int scc_len = 0, scc_cap = 1024
        cdef uint64_t* s1 = <uint64_t*>malloc(scc_cap * sizeof(uint64_t))
        cdef uint64_t* s2 = <uint64_t*>malloc(scc_cap * sizeof(uint64_t))
        cdef int log_at, child_log
        cdef uint32_t dist
        try:
            self.mbuf_len = 0
            if not self._closure():
                self.stopped = STOP_STATES
                return -1
            if self._won():
                return 1
            self._key(&k1, &k2)
            e = &self.table[self._probe(k1, k2)]
            if e.state == ST_WIN:
                return 1 if self._follow(e.info) else -1
            if e.state == ST_LOST:
                return 0
            # enter the root
            if not self._insert(k1, k2, ST_TEMP, counter):
                self.stopped = STOP_STATES
                return -1
            fk1[0], fk2[0], fnum[0], flow[0] = k1, k2, counter, counter
            counter += 1
            nm = self._search_moves(moves)
            fstart[0], fcount[0], fnext[0], flog[0], fend[0] = self.mbuf_len, nm, 0, self.log_len, self.log_len
            if not self._mpush(moves, nm):
                self.stopped = STOP_STATES
                return -1
            s1[0], s2[0] = k1, k2
            scc_len = 1
            depth = 1
            self.nodes += 1
            while depth > 0:
                i = depth - 1
                if fnext[i] < fcount[i]:
                    m = self.mbuf[fstart[i] + fnext[i]]
                    fnext[i] += 1
                    log_at = self.log_len
                    m = self._logged(m)
                    if not self._log_push(m):
                        self.stopped = STOP_STATES
                        return -1
                    self._apply(m)
                    if not self._closure():
                        self.stopped = STOP_STATES
                        return -1
                    if self._won():
                        self._mark_wins(fend, fk1, fk2, depth, self.log_len)
                        return 1
                    self._key(&k1, &k2)
                    slot = self._probe(k1, k2)
                    e = &self.table[slot]
                    if e.state == ST_WIN:
                        # The path's positions win in (their distance to here) + this one's stored
                        # count: not the length _follow happens to take, which may be shorter,
                        # so that every stored count stays above a stored count of a next move.
                        dist = e.info
                        child_log = self.log_len
                        if not self._follow(dist):
                            return -1
                        self._mark_wins(fend, fk1, fk2, depth, child_log + dist)
                        return 1
                    if e.state == ST_LOST:
                        self._undo_to(log_at)
                        continue
                    if e.state == ST_TEMP and e.gen == self.gen:
                        if <int>e.info < flow[i]:
                            flow[i] = e.info
                        self._undo_to(log_at)
                        continue
                    # a new position: enter it
                    self.nodes += 1
                    if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
                        self.stopped = STOP_TIME
                        return -1
                    if self.node_end and self.nodes > self.node_end:
                        self.stopped = STOP_STATES
                        return -1
                    if self.max_states and self.used >= self.max_states:
                        self.stopped = STOP_STATES
                        return -1
                    if not self._insert(k1, k2, ST_TEMP, counter):
                        self.stopped = STOP_STATES
                        return -1
                    if depth == frames_cap:
                        frames_cap *= 2
                        fk1 = <uint64_t*>realloc(fk1, frames_cap * sizeof(uint64_t))
                        fk2 = <uint64_t*>realloc(fk2, frames_cap * sizeof(uint64_t))
                        fnum = <int*>realloc(fnum, frames_cap * sizeof(int))
                        flow = <int*>realloc(flow, frames_cap * sizeof(int))
                        fstart = <int*>realloc(fstart, frames_cap * sizeof(int))
                        fcount = <int*>realloc(fcount, frames_cap * sizeof(int))
                        fnext = <int*>realloc(fnext, frames_cap * sizeof(int))
                        flog = <int*>realloc(flog, frames_cap * sizeof(int))
                        fend = <int*>realloc(fend, frames_cap * sizeof(int))
                        if (fk1 == NULL or fk2 == NULL or fnum == NULL or flow == NULL or fstart == NULL
                                or fcount == NULL or fnext == NULL or flog == NULL or fend == NULL):
                            raise MemoryError()
                    if scc_len == scc_cap:
                        scc_cap *= 2
                        s1 = <uint64_t*>realloc(s1, scc_cap * sizeof(uint64_t))
                        s2 = <uint64_t*>realloc(s2, scc_cap * sizeof(uint64_t))
                        if s1 == NULL or s2 == NULL:
                            raise MemoryError()
                    i = depth
                    fk1[i], fk2[i], fnum[i], flow[i] = k1, k2, counter, counter
                    counter += 1
                    nm = self._search_moves(moves)
                    fstart[i], fcount[i], fnext[i], flog[i], fend[i] = self.mbuf_len, nm, 0, log_at, self.log_len
                    if not self._mpush(moves, nm):
                        self.stopped = STOP_STATES
                        return -1
                    s1[scc_len], s2[scc_len] = k1, k2
                    scc_len += 1
                    depth += 1
                    continue
                # every move of frame i is done, without a win
                depth -= 1
                low = flow[i]
                if low == fnum[i]:  # a complete component: all of it is lost
                    while True:
                        scc_len -= 1
                        slot = self._probe(s1[scc_len], s2[scc_len])
                        self.table[slot].state = ST_LOST
                        self.stored += 1
                        if s1[scc_len] == fk1[i] and s2[scc_len] == fk2[i]:
                            break
                elif depth > 0 and low < flow[depth - 1]:
                    flow[depth - 1] = low
                self.mbuf_len = fstart[i]
                self._undo_to(flog[i])
            return 0
        finally:
            free(fk1); free(fk2); free(fnum); free(flow); free(fstart); free(fcount); free(fnext); free(flog); free(fend)
            free(s1); free(s2)

    cdef void _mark_wins(self, int* fend, uint64_t* fk1, uint64_t* fk2, int depth, int total) noexcept nogil:
        """Every position on the path wins; each keeps how many moves its win takes (``fend``:
        the log length at which each frame's position was reached)."""
        cdef int i
        for i in range(depth):
            self._insert(fk1[i], fk2[i], ST_WIN, <uint32_t>(total - fend[i]))

    cdef int _follow(self, uint32_t dist):
        """From a position stored as a win (``dist`` moves from it), extend the log along stored
        wins to the end. 1 when done; 0 if a limit stopped it."""
        cdef int moves[MAXMOVES]
        cdef int n, i, m, at, found
        cdef uint64_t k1, k2
        cdef Entry* e
        while not self._won():
            n = self._search_moves(moves)
            found = 0
            for i in range(n):
                at = self.log_len
                m = self._logged(moves[i])
                if not self._log_push(m):
                    return 0
                self._apply(m)
                if not self._closure():
                    return 0
                if self._won():
                    found = 1
                    break
                self._key(&k1, &k2)
                e = &self.table[self._probe(k1, k2)]
                if e.state == ST_WIN and e.info < dist:
                    dist = e.info
                    found = 1
                    break
                self._undo_to(at)
            if not found:
                raise RuntimeError("frozen_novelty kernel: a stored win has no winning move")
        return 1
