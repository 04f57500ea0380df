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

``Blind`` (at the end) is blind mode's: the blind rule (solodeck/games/loot_the_loop/blind.py,
rule_move) from what the player sees, and its rollouts (solvers/rollouts.py's, the same draws).
"""
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, uint32_t, uint8_t

cdef uint64_t LOW_32 = 0xFFFFFFFF
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, mix64, next_random, Clock, clock_restart, clock_start,
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


cdef inline void note_added(uint8_t* notes, int nn, uint8_t v, uint8_t* out) noexcept nogil:
    """``out``: the ``nn`` sorted ``notes`` with ``v`` put in its place (nn + 1 of them; the
    notes hold at most 4, so a mark never comes with 4 already)."""
    cdef int i = nn if nn < 4 else 3, k
    while i > 0 and notes[i - 1] > v:
        out[i] = notes[i - 1]
        i -= 1
    out[i] = v
    for k in range(i):
        out[k] = notes[k]


cdef inline void note_removed(uint8_t* notes, int nn, uint8_t v, uint8_t* out) noexcept nogil:
    """``out``: the ``nn`` sorted ``notes`` less one ``v`` (nn - 1 of them)."""
    cdef int i, k = 0
    for i in range(nn):
        if notes[i] == v and k == 0:
            k = 1
        else:
            out[i - k] = notes[i]


cdef inline void deck_from(uint8_t* deck, int n, int k, uint8_t* out) noexcept nogil:
    """``out``: the ``n`` cards of the loop ``deck`` read from place ``k`` round to k - 1."""
    memcpy(out, deck + k, n - k)
    memcpy(out + n - k, deck, k)


cdef void play(Pos* src, uint8_t move, Pos* dst) noexcept nogil:
    """The position after ``move`` (legal), chance as dealt."""
    cdef int n = src.n, k, v
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
        note_added(src.notes, src.nn, (src.deck[0] >> 1) - 1, dst.notes)
        dst.nn = src.nn + 1
        dst.exited = 0
        return
    if move >= M_RETURN:
        v = move - M_RETURN
        dst.deck[0] = ((v + 1) << 1) | 1
        memcpy(dst.deck + 1, src.deck, n)
        dst.n = n + 1
        note_removed(src.notes, src.nn, v, dst.notes)
        dst.nn = src.nn - 1
        dst.exited = 0
        return
    k = (move - M_EXPLORE) % n
    top = src.deck[k]
    dst.nn = src.nn
    memcpy(dst.notes, src.notes, src.nn)
    dst.exited = 0
    if (top & 1) and (top >> 1) >= ACE:  # scored: the deck from the card after it
        deck_from(src.deck, n, k + 1, dst.deck)  # the scored card comes last: dropped
        dst.n = n - 1
        return
    deck_from(src.deck, n, k, dst.deck)
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
    cdef public uint64_t node_stop  # the search stops (STOP_STATES) once ``nodes`` reaches it (0: never)
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
            if self.node_stop and self.nodes >= self.node_stop:
                self.stopped = STOP_STATES
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


# == the blind rule and its rollouts (solodeck/games/loot_the_loop/blind.py) =======================
# The rule (blind.rule_move) in C, with the same arithmetic in the same order (so the same numbers to
# the last bit, and the same move on every tie), and the rollouts of solvers/rollouts.py (each move,
# then the rule to the end; draw i uses splitmix64 seeded seed + i, and a look turns up the card
# ``unseen[next() % count]`` of the unseen cards in card order, as State.sample_chance does).
# A rule position holds what the player sees only: each face-up card by its card (card * 2 + 1),
# every face-down card alike (DOWN), the notes' cards sorted, the aces not scored yet; the unseen
# cards are a set beside it (a bit per card) with their count by class.
cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    DOWN = 0xFE          # a face-down card in a rule position
    R_RETURN = 64        # the rule's move codes: look 0, mark 1, explore v 16 + v, return of card c 64 + c
    PLAN_NODES = 400     # blind.PLAN_NODES
    WIN_NODES = 5000     # blind.WIN_NODES
    RULE_SLOTS = 16384   # the rule's set of positions met (more than three times WIN_NODES)
    SLOT_BITS = 13       # a slot's node index (WIN_NODES < 2^13); the bits above: the plan's stamp
    MAX_STEPS = 100000   # a rollout longer than this is a loss (never met: the rule makes progress)

cdef double ACE_WORTH = 100.0, ALIVE_WORTH = 200.0, NOTE_WORTH = 60.0, LAND_ACE = 1.0, LAND_ON = 0.6

ctypedef struct RPos:
    uint8_t deck[MAX_DECK]   # card * 2 + 1 face up, DOWN face down; top first
    uint8_t notes[4]         # the notes' cards, ascending
    uint8_t n, nn, exited, aces  # aces: not scored yet (face up or down)

ctypedef struct RKey:        # blind._plan_key (r_key)
    uint64_t w[8]

ctypedef struct Odds:        # the unseen cards of a rule decision (constant while it plans)
    int counts[12]           # by class
    int classes[12]          # the classes present, ascending
    int nclasses, total
    double dead              # the share of non-trinkets among them


cdef uint8_t CLASS_OF[53]
cdef uint8_t KEY_OF[256]     # a deck code's byte in the plan's key: 0 face down, the class + 1 face up
cdef int _c
for _c in range(53):
    CLASS_OF[_c] = JOKER if _c == 52 else (TRAP if _c % 13 + 1 > 10 else (ACE if _c % 13 == 0 else _c % 13 + 2))
for _c in range(256):
    KEY_OF[_c] = CLASS_OF[_c >> 1] + 1 if _c & 1 and _c < 106 else 0


cdef inline int r_class(uint8_t code) noexcept nogil:
    """The class of a face-up card's code."""
    return CLASS_OF[code >> 1]


cdef inline int r_trinket(uint8_t code) noexcept nogil:
    """The trinket value of a deck code (0 face down or no trinket)."""
    if code == DOWN:
        return 0
    return r_class(code) - 1 if r_class(code) >= 3 else 0


cdef int r_moves(RPos* p, uint8_t* out) noexcept nogil:
    """State.legal_moves in its order: look, the explores (top card's value first), mark, returns."""
    cdef int k = 0, i, v, nv = 0, land
    cdef int vals[2]
    if p.exited:
        return 0
    if p.deck[0] == DOWN:
        out[k] = M_LOOK
        k += 1
    for i in range(2 if p.n >= 2 else p.n):
        v = r_trinket(p.deck[i])
        if v and (nv == 0 or vals[0] != v):
            vals[nv] = v
            nv += 1
            land = p.deck[v % p.n]
            if land != DOWN and r_class(land) == TRAP:
                continue
            out[k] = M_EXPLORE + v
            k += 1
    if r_trinket(p.deck[0]) and p.nn < NOTES_LIMIT:
        out[k] = M_MARK
        k += 1
    for i in range(p.nn):
        out[k] = R_RETURN + p.notes[i]
        k += 1
    return k


cdef inline bint r_known(RPos* p, uint8_t move) noexcept nogil:
    """blind._known_landing: a mark, a return, an explore onto a face-up card."""
    if move == M_LOOK:
        return False
    if move < M_EXPLORE or move >= R_RETURN:
        return True
    return p.deck[(move - M_EXPLORE) % p.n] != DOWN


cdef void r_play(RPos* src, uint8_t move, RPos* dst) noexcept nogil:
    """State.play for every move but a look (the rollouts turn its cards: r_look)."""
    cdef int n = src.n, k, c
    cdef uint8_t top
    if move == M_MARK:
        memcpy(dst.deck, src.deck + 1, n - 1)
        dst.n = n - 1
        note_added(src.notes, src.nn, src.deck[0] >> 1, dst.notes)
        dst.nn = src.nn + 1
        dst.exited = 0
        dst.aces = src.aces
        return
    if move >= R_RETURN:
        c = move - R_RETURN
        dst.deck[0] = c * 2 + 1
        memcpy(dst.deck + 1, src.deck, n)
        dst.n = n + 1
        note_removed(src.notes, src.nn, c, dst.notes)
        dst.nn = src.nn - 1
        dst.exited = 0
        dst.aces = src.aces
        return
    k = (move - M_EXPLORE) % n
    top = src.deck[k]
    dst.nn = src.nn
    memcpy(dst.notes, src.notes, src.nn)
    dst.exited = 0
    dst.aces = src.aces
    if top != DOWN and r_class(top) >= ACE:  # scored: the deck from the card after it
        deck_from(src.deck, n, k + 1, dst.deck)  # the scored card comes last: dropped
        dst.n = n - 1
        if r_class(top) == ACE:
            dst.aces -= 1
        return
    deck_from(src.deck, n, k, dst.deck)
    dst.n = n
    if top != DOWN and r_class(top) == JOKER and dst.aces == 0:
        dst.exited = 1


cdef inline void r_key(RPos* p, RKey* key) noexcept nogil:
    """blind._plan_key: each deck card by a byte (0 face down, its class + 1 face up), then the
    notes' values, the deck's size, the notes' count and the exit (put together in words)."""
    cdef int j, t, nw = (p.n + 7) >> 3
    cdef uint64_t w
    for j in range(7):
        w = 0
        if j < nw:
            for t in range(8):
                w |= (<uint64_t>KEY_OF[p.deck[8 * j + t]]) << (8 * t)
            if j == nw - 1 and (p.n & 7):
                w &= ((<uint64_t>1) << (8 * (p.n & 7))) - 1
        key.w[j] = w
    w = (<uint64_t>p.n) << 24 | (<uint64_t>p.nn) << 32 | (<uint64_t>p.exited) << 40
    for j in range(p.nn):
        w |= (<uint64_t>(p.notes[j] % 13 + 1)) << (8 * j)
    key.w[7] = w


cdef inline uint64_t r_hash(RKey* k) noexcept nogil:
    cdef uint64_t h = 0
    cdef int i
    for i in range(8):
        h = (h ^ k.w[i]) * 0x9E3779B97F4A7C15ULL
    return mix64(h)


cdef inline bint same_key(RKey* a, RKey* b) noexcept nogil:
    cdef int i
    for i in range(8):
        if a.w[i] != b.w[i]:
            return False
    return True


# -- the rule's worths (blind._standing_worth, _landing_worth, _look_odds, _leaf_worth) -------------
cdef double standing_worth(RPos* p, int j, double dead) noexcept nogil:
    cdef int n = p.n
    cdef uint8_t top = p.deck[j % n], second = p.deck[(j + 1) % n]
    if top == DOWN:
        if second != DOWN:
            return LAND_ON if r_trinket(second) else LAND_ON * (1.0 - dead)
        return LAND_ON * (1.0 - dead * dead)
    if r_trinket(top) or r_trinket(second):
        return LAND_ON
    return 0.0


cdef double landing_worth(RPos* p, int i, double dead) noexcept nogil:
    cdef uint8_t land
    cdef int cls
    i %= p.n
    land = p.deck[i]
    if i < 2:
        return LAND_ON
    if land == DOWN:
        return standing_worth(p, i, dead)
    cls = r_class(land)
    if cls == TRAP:
        return 0.0
    if cls == ACE or (cls == JOKER and p.aces == 0):
        return LAND_ACE
    return standing_worth(p, i + (1 if cls > ACE else 0), dead)


cdef double look_odds(RPos* p, Odds* o) noexcept nogil:
    """blind._look_odds at ``p`` (its top card face down)."""
    cdef double worths[12]
    cdef double wx[12]
    cdef double floor = 0.0, w, known, s, m
    cdef int cls, i, j, cx, cy, second
    cdef bint any_note = False
    for cls in range(12):
        worths[cls] = 0.0
    for cls in range(ACE + 1, ACE + 10):
        worths[cls] = landing_worth(p, cls - 1, o.dead)
    for i in range(p.nn):
        w = landing_worth(p, (p.notes[i] % 13 + 1) - 1, o.dead)
        if not any_note or w > floor:
            floor = w
            any_note = True
    for i in range(o.nclasses):
        wx[i] = worths[o.classes[i]]
    if p.n < 2 or p.deck[1] != DOWN:
        second = r_class(p.deck[1]) if p.n > 1 else JOKER
        known = worths[second]
        if floor > known:
            known = floor
        s = 0.0
        for i in range(o.nclasses):
            m = wx[i] if wx[i] >= known else known
            s += <double>o.counts[o.classes[i]] * m
        return s / <double>o.total
    s = 0.0
    for i in range(o.nclasses):
        cx = o.counts[o.classes[i]]
        for j in range(o.nclasses):
            cy = o.counts[o.classes[j]] - (1 if i == j else 0)
            m = wx[i]
            if wx[j] > m:
                m = wx[j]
            if floor > m:
                m = floor
            s += <double>(cx * cy) * m
    if o.total > 1:
        return s / <double>(o.total * (o.total - 1))
    return 0.0


cdef double leaf_worth(RPos* p, uint8_t move, Odds* o) noexcept nogil:
    cdef RPos after
    cdef double look
    if move == M_LOOK:
        look = look_odds(p, o)
    else:
        r_play(p, move, &after)
        look = look_odds(&after, o)
    return (<double>(100 * (4 - p.aces)) + ALIVE_WORTH * look) + <double>(60 * p.nn)


cdef class Blind:
    """The blind rule and its rollouts from a position the player sees (``set_position``)."""

    cdef RPos pos
    cdef uint64_t unseen       # the unseen cards, a bit per card
    cdef RPos* nodes           # the rule's plan: positions met, breadth first
    cdef RKey* keys
    cdef uint8_t* via          # the first move of the shortest way to each
    cdef uint32_t* slots       # the set of positions met: stamp << SLOT_BITS | node index (stamp: this plan's)
    cdef uint32_t stamp
    cdef public uint64_t rule_calls, plan_nodes

    def __cinit__(self):
        self.nodes = <RPos*>calloc(WIN_NODES + 1, sizeof(RPos))
        self.keys = <RKey*>calloc(WIN_NODES + 1, sizeof(RKey))
        self.via = <uint8_t*>calloc(WIN_NODES + 1, 1)
        self.slots = <uint32_t*>calloc(RULE_SLOTS, sizeof(uint32_t))
        if not (self.nodes and self.keys and self.via and self.slots):
            raise MemoryError()
        self.stamp = 0
        self.rule_calls = self.plan_nodes = 0

    def __dealloc__(self):
        free(self.nodes)
        free(self.keys)
        free(self.via)
        free(self.slots)

    def set_position(self, deck, notes, unseen):
        """``deck``: each card top first, its card for a face-up card, -1 face down; ``notes``:
        their cards; ``unseen``: the cards face down (as many as the -1s)."""
        cdef int i, c, down = 0, aces = 0
        memset(&self.pos, 0, sizeof(RPos))
        if len(deck) > MAX_DECK - 1 or len(deck) == 0 or len(notes) > NOTES_LIMIT:
            raise ValueError("not a Loot the Loop position")
        for i in range(len(deck)):
            c = deck[i]
            if c < 0:
                self.pos.deck[i] = DOWN
                down += 1
            else:
                self.pos.deck[i] = c * 2 + 1
                aces += c != 52 and c % 13 == 0
        if down != len(unseen):
            raise ValueError("as many unseen cards as face-down places, please")
        self.pos.n = len(deck)
        for i, c in enumerate(sorted(notes)):
            self.pos.notes[i] = c
        self.pos.nn = len(notes)
        self.unseen = 0
        for c in unseen:
            self.unseen |= (<uint64_t>1) << c
            aces += c != 52 and c % 13 == 0
        self.pos.aces = aces

    # -- the rule ------------------------------------------------------------------------------
    cdef void odds_of(self, uint64_t unseen, Odds* o) noexcept nogil:
        cdef int cls, k = 0, dead = 0
        cdef uint64_t m = unseen
        memset(o, 0, sizeof(Odds))
        while m:
            o.counts[CLASS_OF[__builtin_ctzll(m)]] += 1
            m &= m - 1
        for cls in range(12):
            if o.counts[cls]:
                o.classes[k] = cls
                k += 1
                o.total += o.counts[cls]
                if cls <= ACE:
                    dead += o.counts[cls]
        o.nclasses = k
        o.dead = <double>dead / <double>o.total if o.total else 1.0

    cdef int rule(self, RPos* root, uint64_t unseen) noexcept nogil:
        """blind.rule_move: the move code, or -1 (no move, or no step into the unknown anywhere
        it can reach)."""
        cdef Odds o
        cdef uint8_t moves[MAX_MOVES]
        cdef int nm, head = 0, count = 1, i, first, best_first = -1
        cdef RPos* node
        cdef double worth, best = 0.0
        cdef bint has_best = False
        cdef uint8_t move
        self.rule_calls += 1
        if r_moves(root, moves) == 0:
            return -1
        self.odds_of(unseen, &o)
        self.stamp += 1
        if self.stamp >> (32 - SLOT_BITS):
            memset(self.slots, 0, RULE_SLOTS * sizeof(uint32_t))
            self.stamp = 1
        memcpy(&self.nodes[0], root, sizeof(RPos))
        r_key(root, &self.keys[0])
        self.via[0] = 0xFF
        self.insert(&self.keys[0], 0)
        while head < count:
            node = &self.nodes[head]
            first = self.via[head]
            if node.exited:
                self.plan_nodes += count
                return first
            nm = r_moves(node, moves)
            for i in range(nm):
                move = moves[i]
                if r_known(node, move):
                    if count < (PLAN_NODES if has_best else WIN_NODES):
                        r_play(node, move, &self.nodes[count])
                        r_key(&self.nodes[count], &self.keys[count])
                        if self.insert(&self.keys[count], count):
                            self.via[count] = move if first == 0xFF else first
                            count += 1
                else:
                    # the worth is (aces + look) + notes with the look at most 1, so at most this
                    # bound (rounding is monotone): a leaf that cannot beat the best is not valued
                    if has_best and ((<double>(100 * (4 - node.aces)) + ALIVE_WORTH)
                                                  + <double>(60 * node.nn)) <= best:
                        continue
                    worth = leaf_worth(node, move, &o)
                    if not has_best or worth > best:
                        best = worth
                        best_first = move if first == 0xFF else first
                        has_best = True
            head += 1
        self.plan_nodes += count
        return best_first

    cdef bint insert(self, RKey* key, int index) noexcept nogil:
        """Enter the key of node ``index`` in the set; False if it was met before."""
        cdef uint64_t h = r_hash(key) & (RULE_SLOTS - 1)
        cdef uint32_t s
        while True:
            s = self.slots[h]
            if (s >> SLOT_BITS) != self.stamp:
                break
            if same_key(&self.keys[s & ((1 << SLOT_BITS) - 1)], key):
                return False
            h = (h + 1) & (RULE_SLOTS - 1)
        self.slots[h] = (self.stamp << SLOT_BITS) | <uint32_t>index
        return True

    def rule_move(self):
        """The rule's move at the position: (kind, value) (a return: the note's card), or None."""
        cdef int m = self.rule(&self.pos, self.unseen)
        return None if m < 0 else r_decode(m)

    # -- rollouts --------------------------------------------------------------------------------
    cdef void look(self, RPos* p, uint64_t* unseen, uint64_t* rng) noexcept nogil:
        """A look around: the top card (and the second, if face down) turn up, each the
        ``next() % count``-th unseen card in card order (State.sample_chance)."""
        cdef int place, r, c
        cdef uint64_t m
        for place in range(2 if p.n > 1 and p.deck[1] == DOWN else 1):
            r = <int>(next_random(rng) % <uint64_t>__builtin_popcountll(unseen[0]))
            m = unseen[0]
            while r > 0:
                m &= m - 1
                r -= 1
            c = __builtin_ctzll(m)
            unseen[0] &= ~((<uint64_t>1) << c)
            p.deck[place] = c * 2 + 1

    cdef int play_out(self, uint8_t move, uint64_t seed, int* score) noexcept nogil:
        """``move``, then the rule to the end, chance by splitmix64(seed): 1 won, 0 lost
        (``score``: the pile at the end)."""
        cdef RPos p, q
        cdef uint64_t unseen = self.unseen, rng = seed
        cdef int m = move, steps = 0
        memcpy(&p, &self.pos, sizeof(RPos))
        while True:
            if m == M_LOOK:
                self.look(&p, &unseen, &rng)
            else:
                r_play(&p, <uint8_t>m, &q)
                memcpy(&p, &q, sizeof(RPos))
            if p.exited:
                score[0] = 53 - p.n - p.nn
                return 1
            steps += 1
            m = self.rule(&p, unseen) if steps < MAX_STEPS else -1
            if m < 0:
                score[0] = 53 - p.n - p.nn
                return 0

    def rollouts(self, moves, int samples, unsigned long long seed):
        """[(wins, sum of winning scores, sum of losing scores)] for each move (kind, value):
        sample i plays with splitmix64 seeded seed + i (solvers/rollouts.py's draws)."""
        cdef int i, k, won, score, wins, win_total, lost_total
        cdef uint8_t code
        out = []
        for kind, value in moves:
            code = r_encode(kind, value)
            wins = win_total = lost_total = 0
            with nogil:
                for i in range(samples):
                    won = self.play_out(code, seed + <uint64_t>i, &score)
                    if won:
                        wins += 1
                        win_total += score
                    else:
                        lost_total += score
            out.append((wins, win_total, lost_total))
        return out


cdef uint8_t r_encode(kind, int value):
    if kind == "return":
        return R_RETURN + value
    return encode(kind, value)


cdef tuple r_decode(int m):
    if m >= R_RETURN:
        return ("return", m - R_RETURN)
    return decode(m)
