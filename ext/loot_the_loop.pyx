# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Loot the Loop kernel: open mode's best-outcome search over the cyclic state graph.

It mirrors the reference engine (solodeck/games/loot_the_loop/rules.py) on card classes: the
joker 0, a trap 1, an ace 2, a trinket its value + 1 (suits never matter, as in State.key()).
A deck card is ``class * 2 + up``; the notes are trinket values. Looking around turns the dealt
faces up at once (open mode: chance takes the dealt outcome).

``best(deck, notes)`` is solvers/reach.py's scored search (``_best_reachable``), compiled: the
value of a position is the best outcome over every position reachable from it (a win's score, or
a loss scoring the pile where no progress is made: the pile never goes down, RULINGS 4). One
depth-first pass enters each reachable position once (a hash set of the positions entered), keeps
the best outcome met and the line to it, and skips a position already entered or whose bound
cannot beat the best met (the best only rises, so a position skipped stays skippable). No value
of any position but the root is ever stored, so cycles need no care: the set of positions
reachable from the root does not depend on the path that found them.

The bound of a position (``bound_of``) is the reference's score_bound (rules.py): a win leaves
two trinkets at least in play (38), one only if no card is scored any more.

The set of positions entered is never forgotten: when it is full (the memory cap) or holds
``max_states`` positions, the search stops (memory-limit), so a budget in states gives the same
answer on any machine. The path's frames (76 bytes each) are outside that cap. ``order`` only
changes which moves are tried first (0: returns of the smaller values first, 1: the larger):
search.py runs one pass of each.

``dominance`` (on by default; search.py turns it on for the second pass only) also skips a
position that differs from one entered only by traps face up here and face down there. Why it is
exact: a face-down trap is worth at least a face-up one, since every move of the face-up version
is a move of the face-down one with the same result but for those faces (a trap never shoots, is
never marked or scored; a look turns the same cards; only the face-down trap can be landed on),
so whatever the skipped position reaches, the entered one reaches a position at least as good,
and the entered one's moves are all searched or cut by the bound. The traps' faces are kept in
the key apart (``key_of``), outside its hash, so the versions of a position meet in one probe
chain (docs/rules/loot-the-loop.md, tests/test_loot_the_loop_dominance.py).

Utilities: a win scoring s is WIN_BASE + s, a loss scoring s is s.
"""
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, uint8_t

cdef uint64_t LOW_32 = 0xFFFFFFFF
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, mix64, Clock, clock_restart, clock_start,
                     clock_expired, capacity_for, table_full, table_calloc)

cdef enum:
    JOKER = 0
    TRAP = 1
    ACE = 2
    NOTES_LIMIT = 3
    MAX_DECK = 56
    MAX_MOVES = 8
    CHECK_EVERY = 0x3FF
    WIN_BASE = 1000
    TRAP_BITS = 32      # where key_of keeps the traps' faces in w[3] (the deck and notes use bits 0-31)
    # move codes: look 0, mark 1, explore v 16 + v, return v 32 + v
    M_LOOK = 0
    M_MARK = 1
    M_EXPLORE = 16
    M_RETURN = 32

ctypedef struct Pos:
    uint8_t deck[MAX_DECK]   # class * 2 + up, top first
    uint8_t notes[4]         # trinket values, sorted ascending
    uint8_t n, nn, exited, pad

ctypedef struct Frame:
    Pos pos
    uint8_t moves[MAX_MOVES]
    uint8_t nmoves, idx, came, pad

ctypedef struct Entry:  # 40 bytes: the deck's classes + 1 by nibbles, the notes, the faces
    uint64_t w[5]


cdef inline int trinket(uint8_t code) noexcept nogil:
    """The trinket value of a face-up deck card, else 0."""
    cdef int cls = code >> 1
    return cls - 1 if (code & 1) and cls >= 3 else 0


cdef inline int aces_left(Pos* p) noexcept nogil:
    cdef int i, k = 0
    for i in range(p.n):
        if (p.deck[i] >> 1) == ACE:
            k += 1
    return k


cdef inline int score_of(Pos* p) noexcept nogil:
    return 53 - p.n - p.nn


cdef int legal_moves(Pos* p, uint8_t* out, int order=0) noexcept nogil:
    """The reference's legal_moves (an explore onto a face-up trap left out), one return per
    value, in the order of State.search_moves."""
    cdef int k = 0, i, v, land, cls, r
    cdef int ranks[MAX_MOVES]
    cdef uint8_t m
    cdef int vals[2]
    cdef int nv = 0
    if p.exited:
        return 0
    if not (p.deck[0] & 1):
        out[k] = M_LOOK
        ranks[k] = 4
        k += 1
    for i in range(2 if p.n >= 2 else p.n):
        v = trinket(p.deck[i])
        if v and (nv == 0 or vals[0] != v):
            vals[nv] = v
            nv += 1
            land = p.deck[v % p.n]
            cls = land >> 1
            if (land & 1) and cls == TRAP:
                continue
            if not (land & 1):
                r = 5
            elif cls == JOKER:
                r = 0 if aces_left(p) == 0 else 6
            elif cls == ACE:
                r = 1
            else:
                r = 3
            out[k] = M_EXPLORE + v
            ranks[k] = r
            k += 1
    if trinket(p.deck[0]) and p.nn < NOTES_LIMIT:
        out[k] = M_MARK
        ranks[k] = 2
        k += 1
    for i in range(p.nn):
        if i == 0 or p.notes[i] != p.notes[i - 1]:
            out[k] = M_RETURN + p.notes[i]
            ranks[k] = 7 + (order & 1) * (10 - p.notes[i])  # order 1: the larger values first
            k += 1
    # stable insertion sort by rank
    for i in range(1, k):
        m = out[i]
        r = ranks[i]
        v = i - 1
        while v >= 0 and ranks[v] > r:
            out[v + 1] = out[v]
            ranks[v + 1] = ranks[v]
            v -= 1
        out[v + 1] = m
        ranks[v + 1] = r
    return k


cdef void play(Pos* src, uint8_t move, Pos* dst) noexcept nogil:
    """The position after ``move`` (legal), chance as dealt."""
    cdef int n = src.n, i, k, v
    cdef uint8_t top
    if move == M_LOOK:
        memcpy(dst, src, sizeof(Pos))
        dst.deck[0] |= 1
        if n > 1:
            dst.deck[1] |= 1
        return
    if move == M_MARK:
        memcpy(dst.deck, src.deck + 1, n - 1)
        dst.n = n - 1
        v = src.deck[0] >> 1
        v -= 1
        i = src.nn
        while i > 0 and src.notes[i - 1] > v:
            dst.notes[i] = src.notes[i - 1]
            i -= 1
        dst.notes[i] = v
        for k in range(i):
            dst.notes[k] = src.notes[k]
        dst.nn = src.nn + 1
        dst.exited = 0
        return
    if move >= M_RETURN:
        v = move - M_RETURN
        dst.deck[0] = ((v + 1) << 1) | 1
        memcpy(dst.deck + 1, src.deck, n)
        dst.n = n + 1
        k = 0
        i = 0
        while i < src.nn:
            if src.notes[i] == v and k == 0:
                k = 1
            else:
                dst.notes[i - k] = src.notes[i]
            i += 1
        dst.nn = src.nn - 1
        dst.exited = 0
        return
    v = move - M_EXPLORE
    k = v % n
    top = src.deck[k]
    dst.nn = src.nn
    for i in range(src.nn):
        dst.notes[i] = src.notes[i]
    dst.exited = 0
    if (top & 1) and (top >> 1) >= ACE:  # scored: the deck from the card after it
        memcpy(dst.deck, src.deck + k + 1, n - k - 1)
        memcpy(dst.deck + n - k - 1, src.deck, k)
        dst.n = n - 1
        return
    memcpy(dst.deck, src.deck + k, n - k)
    memcpy(dst.deck + n - k, src.deck, k)
    dst.n = n
    if (top & 1) and (top >> 1) == JOKER and aces_left(dst) == 0:
        dst.exited = 1


cdef inline int trinkets_in_play(Pos* p) noexcept nogil:
    """The trinkets in the deck and the notes (at most 2 counted: all the bound asks)."""
    cdef int i, k = p.nn
    for i in range(p.n):
        if k >= 2:
            return k
        if (p.deck[i] >> 1) >= 3:
            k += 1
    return k


cdef inline int worth_of(Pos* p) noexcept nogil:
    """The utility of stopping here: a win's score, else a loss scoring the pile."""
    return WIN_BASE + score_of(p) if p.exited else score_of(p)


cdef inline int bound_of(Pos* p) noexcept nogil:
    """The best utility still reachable: State.score_bound (rules.py says why it holds). Two
    trinkets or more in play: a win scores at most 38. One: no card can be scored any more, so a
    win scores the pile, and with an ace left there is no win (the pile and the aces at best).
    None: nothing moves, the pile as it is."""
    cdef int t
    if p.exited:
        return WIN_BASE + score_of(p)
    t = trinkets_in_play(p)
    if t >= 2:
        return WIN_BASE + 38
    if t == 1:
        return score_of(p) + aces_left(p) if aces_left(p) else WIN_BASE + score_of(p)
    return score_of(p)


cdef inline void key_of(Pos* p, Entry* e) noexcept nogil:
    """The position's key: each card's class + 1 by nibbles (top first), the notes' values, the
    faces of the cards other than traps, and apart from them (bits 32-43 of w[3], outside the
    hash and the comparison of keys) the faces of the traps, in deck order (``dominated``)."""
    cdef int i, t = 0
    memset(e, 0, sizeof(Entry))
    for i in range(p.n):
        e.w[i >> 4] |= (<uint64_t>((p.deck[i] >> 1) + 1)) << ((i & 15) * 4)
        if p.deck[i] & 1:
            if (p.deck[i] >> 1) == TRAP:
                e.w[3] |= (<uint64_t>1) << (TRAP_BITS + t)
            else:
                e.w[4] |= (<uint64_t>1) << i
        if (p.deck[i] >> 1) == TRAP:
            t += 1
    for i in range(p.nn):
        e.w[(53 + i) >> 4] |= (<uint64_t>p.notes[i]) << (((53 + i) & 15) * 4)
    if p.exited:
        e.w[4] |= (<uint64_t>1) << 63


cdef inline uint64_t traps_up(Entry* e) noexcept nogil:
    return e.w[3] >> TRAP_BITS


cdef inline bint same_but_traps(Entry* a, Entry* b) noexcept nogil:
    return (a.w[0] == b.w[0] and a.w[1] == b.w[1] and a.w[2] == b.w[2]
            and (a.w[3] ^ b.w[3]) & LOW_32 == 0 and a.w[4] == b.w[4])


cdef inline uint64_t hash_of(Entry* e) noexcept nogil:
    return mix64(e.w[0] ^ mix64(e.w[1] ^ mix64(e.w[2] ^ mix64((e.w[3] & LOW_32) ^ mix64(e.w[4])))))


cdef class Search:
    """The scored search. ``memory_mb`` caps the set of positions entered (full: the search stops,
    memory-limit); ``max_states`` stops it once that many positions were entered; ``time_limit``
    stops it (timeout); the clock starts with the search."""

    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used
    cdef public uint64_t nodes, stored
    cdef public uint64_t max_states
    cdef Clock clock
    cdef public int stopped
    cdef Frame* frames
    cdef int frames_cap
    cdef public int order  # 0: returns of the smaller values first, 1: of the larger values first
    cdef public bint dominance  # skip a position dominated by one entered (Search.enter)
    cdef public uint64_t dominated  # positions skipped so (over every search of this object)
    cdef public int best_value
    cdef public uint64_t first_win_nodes
    cdef int _top
    cdef uint8_t* _line_buf
    cdef int _line_len, _line_cap

    def __cinit__(self, double memory_mb=1024.0, double time_limit=0.0, long long max_states=0):
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 16)
        self.capacity = min(<uint64_t>1 << 20, self.max_capacity)
        self.table = <Entry*>table_calloc(self.capacity, sizeof(Entry))
        self.frames_cap = 1024
        self.frames = <Frame*>calloc(self.frames_cap, sizeof(Frame))
        if self.table == NULL or self.frames == NULL:
            raise MemoryError()
        clock_restart(&self.clock, time_limit)
        self.max_states = max_states
        self.nodes = self.stored = self.used = self.dominated = 0
        self.dominance = True
        self.stopped = STOP_NONE
        self._line_buf = NULL
        self._line_cap = self._line_len = 0

    def __dealloc__(self):
        free(self.table)
        free(self.frames)
        free(self._line_buf)

    def restart_clock(self, double seconds):
        clock_restart(&self.clock, seconds)

    # -- the set of positions entered ---------------------------------------------------------
    cdef void clear(self):
        memset(self.table, 0, self.capacity * sizeof(Entry))
        self.used = 0

    cdef int grow(self) noexcept nogil:
        """Twice the capacity, every entry re-inserted; 0 if at the cap or out of memory."""
        cdef Entry* old = self.table
        cdef uint64_t old_cap = self.capacity, i, mask, h
        cdef Entry* fresh
        if self.capacity >= self.max_capacity:
            return 0
        fresh = <Entry*>table_calloc(self.capacity * 2, sizeof(Entry))
        if fresh == NULL:
            return 0
        self.table = fresh
        self.capacity *= 2
        mask = self.capacity - 1
        for i in range(old_cap):
            if old[i].w[0] != 0:
                h = hash_of(&old[i]) & mask
                while self.table[h].w[0] != 0:
                    h = (h + 1) & mask
                self.table[h] = old[i]
        free(old)
        return 1

    cdef int enter(self, Pos* p) noexcept nogil:
        """1 if the position is new (and now entered), 0 if it was entered before or is dominated
        by a position entered before (the same but for traps face up here and face down there,
        when ``dominance`` is on), -1 if the set is full."""
        cdef Entry e
        cdef uint64_t mask, h, up
        key_of(p, &e)
        up = traps_up(&e)
        if table_full(self.used, self.capacity):
            if not self.grow():
                return -1
        mask = self.capacity - 1
        h = hash_of(&e) & mask
        while self.table[h].w[0] != 0:
            if same_but_traps(&self.table[h], &e):
                if traps_up(&self.table[h]) == up or (self.dominance and traps_up(&self.table[h]) & ~up == 0):
                    if traps_up(&self.table[h]) != up:
                        self.dominated += 1
                    return 0
            h = (h + 1) & mask
        self.table[h] = e
        self.used += 1
        return 1

    # -- positions from Python -----------------------------------------------------------------
    cdef void load(self, deck, notes, bint exited, Pos* p):
        cdef int i
        memset(p, 0, sizeof(Pos))
        if len(deck) > MAX_DECK - 1 or len(notes) > NOTES_LIMIT or len(deck) == 0:
            raise ValueError("not a Loot the Loop position")
        for i, c in enumerate(deck):
            p.deck[i] = c
        p.n = len(deck)
        for i, v in enumerate(sorted(notes)):
            p.notes[i] = v
        p.nn = len(notes)
        p.exited = exited

    @staticmethod
    cdef tuple unload(Pos* p):
        return (tuple(p.deck[i] for i in range(p.n)), tuple(p.notes[i] for i in range(p.nn)), bool(p.exited))

    def legal_moves(self, deck, notes, bint exited=False):
        """The kernel's moves as (kind, value): ('look', 0), ('explore', v), ('mark', 0),
        ('return', v), in search order."""
        cdef Pos p
        cdef uint8_t moves[MAX_MOVES]
        self.load(deck, notes, exited, &p)
        return [decode(moves[i]) for i in range(legal_moves(&p, moves))]

    def play(self, deck, notes, kind, int value=0):
        """(deck, notes, exited) after a move given as (kind, value)."""
        cdef Pos p, q
        self.load(deck, notes, False, &p)
        play(&p, encode(kind, value), &q)
        return Search.unload(&q)

    # -- the search ----------------------------------------------------------------------------
    def best(self, deck, notes, bint exited=False):
        """The best outcome reachable from the position: (utility, exhaustive?); best_line()
        gives the moves to it as (kind, value). A win's utility is 1000 + its score, a loss's
        its pile. ``nodes`` counts the moves tried (over every search of this object),
        ``first_win_nodes`` the count when the first win was met (0: none)."""
        cdef Pos root
        cdef int done
        self.load(deck, notes, exited, &root)
        self.clear()
        self.stopped = STOP_NONE
        clock_start(&self.clock)
        with nogil:
            done = self.run(&root)
        self.stored = self.used
        return self.best_value, bool(done)

    cdef int push(self, Pos* p, uint8_t came) noexcept nogil:
        cdef Frame* f
        cdef int top = self._top
        if top + 1 >= self.frames_cap:
            f = <Frame*>realloc(self.frames, self.frames_cap * 2 * sizeof(Frame))
            if f == NULL:
                return 0
            self.frames = f
            self.frames_cap *= 2
        top += 1
        self._top = top
        f = &self.frames[top]
        memcpy(&f.pos, p, sizeof(Pos))
        f.came = came
        f.idx = 0
        f.nmoves = legal_moves(p, f.moves, self.order)
        return 1

    cdef void record(self, uint8_t last) noexcept nogil:
        """The line to the position just met: the moves along the path, then ``last``."""
        cdef int i, n = self._top + 1
        cdef uint8_t* b
        if n > self._line_cap:
            b = <uint8_t*>realloc(self._line_buf, n * 2)
            if b == NULL:
                return
            self._line_buf = b
            self._line_cap = n * 2
        for i in range(1, self._top + 1):
            self._line_buf[i - 1] = self.frames[i].came
        self._line_buf[self._top] = last
        self._line_len = n

    cdef int run(self, Pos* root) noexcept nogil:
        """1 when exhaustive; 0 when a limit stopped it (``stopped`` says which)."""
        cdef Pos child
        cdef Frame* f
        cdef int best, ceiling, r, b
        cdef uint8_t move
        self._top = -1
        self._line_len = 0
        self.first_win_nodes = 0
        self.enter(root)
        best = worth_of(root)
        if best >= WIN_BASE:
            self.first_win_nodes = self.nodes
        ceiling = bound_of(root)
        self.best_value = best
        if not self.push(root, 0):
            self.stopped = STOP_STATES
            return 0
        while self._top >= 0:
            if best >= ceiling:
                break
            f = &self.frames[self._top]
            if f.idx >= f.nmoves:
                self._top -= 1
                continue
            move = f.moves[f.idx]
            f.idx += 1
            self.nodes += 1
            if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
                self.stopped = STOP_TIME
                self.best_value = best
                return 0
            play(&f.pos, move, &child)
            if bound_of(&child) <= best:
                continue  # it cannot beat the best (and the best only rises)
            r = self.enter(&child)
            if r == 0:
                continue
            if r < 0 or (self.max_states and self.used >= self.max_states):
                self.stopped = STOP_STATES
                self.best_value = best
                return 0
            if (self.used & 0xFFFFF) == 0 and clock_expired(&self.clock, 0, 0):
                self.stopped = STOP_TIME  # (a grown table takes a while: the clock is read again)
                self.best_value = best
                return 0
            b = worth_of(&child)
            if b > best:
                if b >= WIN_BASE and best < WIN_BASE and self.first_win_nodes == 0:
                    self.first_win_nodes = self.nodes
                best = b
                self.record(move)
            if not child.exited:
                if not self.push(&child, move):
                    self.stopped = STOP_STATES
                    self.best_value = best
                    return 0
                if self.frames[self._top].nmoves == 0:
                    self._top -= 1
        self.best_value = best
        return 1

    def best_line(self):
        return [decode(self._line_buf[i]) for i in range(self._line_len)]


cdef uint8_t encode(kind, int value):
    if kind == "look":
        return M_LOOK
    if kind == "mark":
        return M_MARK
    if kind == "explore":
        return M_EXPLORE + value
    if kind == "return":
        return M_RETURN + value
    raise ValueError(kind)


cdef tuple decode(uint8_t m):
    if m == M_LOOK:
        return ("look", 0)
    if m == M_MARK:
        return ("mark", 0)
    if m >= M_RETURN:
        return ("return", m - M_RETURN)
    return ("explore", m - M_EXPLORE)
