# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The First Boba Tea Shop in London: blind-mode kernel (open mode is trivial, see docs/rules/boba.md).

It mirrors the reference engine (solodeck/games/boba/rules.py) as a small state machine with the same
phases: CHOOSE (pick a target), DRAW (chance: the next card for the target), PENDING (the drawn
card missed: stay or kick), BURN (chance: a kick discards the top card unseen). Tests compare
its moves, baseline policy, blind rule, values and rollouts with the reference.

- ``rollouts(samples, seed, candidates)``: each legal move (or the rule's ``candidates`` best
  targets, ``rule_candidates``), then the blind rule (``rule_move``: the same rule as
  solodeck/games/boba/blind.py's, weights from ``set_rule``), over sampled draws;
  sample i draws with splitmix64 seeded seed + i, the same samples for every move, each draw
  value v with probability counts[v] / unseen, taken as ``next() % unseen`` over the values in
  ascending order exactly as State.sample_chance (solodeck/api.py) does.
- ``blind_value()``: exact expectimax over the composition of the unseen cards, value
  (P(win), E[score x win]), with a table keyed on the exact position (queues sorted).
"""
from libc.stdlib cimport calloc, free
from libc.math cimport pow
from libc.string cimport memset
from libc.stdint cimport uint64_t
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, next_random, Clock, clock_restart, clock_start,
                     clock_expired, capacity_for, table_full, grow_or_clear)

cdef enum:
    NQ = 4
    MAXQ = 52
    TOPV = 14          # "no upper neighbour"
    COPIES = 4
    CHOOSE = 0
    DRAW = 1
    PENDING = 2
    BURN = 3
    CHECK_EVERY = 0xFFF

cdef double TIE = 1e-12  # solvers/expectimax.py's tolerance

ctypedef struct Pos:
    signed char q[NQ][MAXQ]   # each queue sorted, lowest first
    int qlen[NQ]
    int disc[TOPV]            # discards per value (1..13)
    int counts[TOPV]          # unseen cards per value
    int unseen
    int phase, tq, tg, hand, lost

ctypedef struct Entry:        # 48 bytes; k4 == 0 marks an empty slot
    uint64_t k1, k2, k3, k4
    double p, e

cdef uint64_t POW5[TOPV]
cdef uint64_t POW4[TOPV]
POW5[1] = 1
POW4[1] = 1
for _v in range(2, TOPV):
    POW5[_v] = POW5[_v - 1] * 5
    POW4[_v] = POW4[_v - 1] * 4


# -- the rules ------------------------------------------------------------------------------
cdef inline int lo_of(Pos* p, int q, int g) noexcept nogil:
    return p.q[q][g - 1] if g > 0 else 0


cdef inline int hi_of(Pos* p, int q, int g) noexcept nogil:
    return p.q[q][g] if g < p.qlen[q] else TOPV


cdef inline bint fits(Pos* p, int q, int g, int v) noexcept nogil:
    return lo_of(p, q, g) <= v <= hi_of(p, q, g)


cdef inline void discard(Pos* p, int v) noexcept nogil:
    p.disc[v] += 1
    if p.disc[v] >= COPIES:
        p.lost = 1


cdef inline int total_in_queues(Pos* p) noexcept nogil:
    return p.qlen[0] + p.qlen[1] + p.qlen[2] + p.qlen[3]


cdef inline bint queue_safe(Pos* p, int q) noexcept nogil:
    """Could the whole queue be discarded without a fourth card of a value?"""
    cdef int i = 0, j, n = p.qlen[q]
    while i < n:
        j = i
        while j < n and p.q[q][j] == p.q[q][i]:
            j += 1
        if p.disc[p.q[q][i]] + (j - i) >= COPIES:
            return 0
        i = j
    return 1


cdef inline int take(Pos* p, int v) noexcept nogil:
    p.counts[v] -= 1
    p.unseen -= 1
    return v


cdef inline int sample(Pos* p, uint64_t* rng) noexcept nogil:
    cdef int r = <int>(next_random(rng) % <uint64_t>p.unseen), v = 1
    while r >= p.counts[v]:
        r -= p.counts[v]
        v += 1
    return take(p, v)


cdef inline void do_draw(Pos* p, int v) noexcept nogil:
    """The drawn card v (already taken from the unseen) meets the target."""
    cdef int q = p.tq, g = p.tg, i
    if fits(p, q, g, v):
        i = p.qlen[q]
        while i > g:
            p.q[q][i] = p.q[q][i - 1]
            i -= 1
        p.q[q][g] = <signed char>v
        p.qlen[q] += 1
        p.phase = CHOOSE
    else:
        p.hand = v
        p.phase = PENDING


cdef inline void do_stay(Pos* p) noexcept nogil:
    cdef int i, q = p.tq
    for i in range(p.qlen[q]):
        discard(p, p.q[q][i])
    p.q[q][0] = <signed char>p.hand
    p.qlen[q] = 1
    p.hand = 0
    p.phase = CHOOSE


cdef inline void do_kick(Pos* p) noexcept nogil:
    discard(p, p.hand)
    p.hand = 0
    p.phase = CHOOSE if p.unseen == 0 else BURN  # nothing to burn: the deck ran out, the game ends


cdef inline void do_burn(Pos* p, int v) noexcept nogil:
    discard(p, v)
    p.phase = CHOOSE if p.unseen == 0 else DRAW


cdef inline bint baseline_stays(Pos* p) noexcept nogil:
    """After a miss: stay when safe and no dearer than a kick (queue of at most 2), or when a
    kick would discard the fourth of the drawn value; else kick."""
    cdef bint stay_ok = queue_safe(p, p.tq), kick_ok = p.disc[p.hand] + 1 < COPIES
    if stay_ok and (p.qlen[p.tq] <= 2 or not kick_ok):
        return 1
    return not kick_ok


cdef inline void baseline_target(Pos* p) noexcept nogil:
    """The gap the most unseen cards fit; ties to a safe queue, then the shorter, then the first."""
    cdef int below[TOPV + 2]
    cdef int v, q, g, lo, hi, f, safe, best_f = -1, best_safe = 0, best_len = 0
    below[1] = 0
    for v in range(1, TOPV):
        below[v + 1] = below[v] + p.counts[v]
    for q in range(NQ):
        safe = queue_safe(p, q)
        for g in range(p.qlen[q] + 1):
            lo = lo_of(p, q, g)
            hi = hi_of(p, q, g)
            if lo < 1:
                lo = 1
            if hi > 13:
                hi = 13
            f = below[hi + 1] - below[lo]
            if (f > best_f or (f == best_f and (safe > best_safe
                                                 or (safe == best_safe and -p.qlen[q] > -best_len)))):
                best_f = f; best_safe = safe; best_len = p.qlen[q]
                p.tq = q; p.tg = g
    p.phase = DRAW


# -- the blind rule (solodeck/games/boba/blind.py rule_move; the same arithmetic in the same order)
# A value is lost when every copy not yet discarded is discarded: blind.py's SURVIVE[u][k] are its
# odds with u copies unseen and k queued (set by Search.set_rule).
cdef double SURVIVE[COPIES + 1][COPIES + 1]
cdef int RULE_ROUNDS = 3
cdef double ODDS_POWER = 1.0


cdef void set_weights(survive, double odds_power, int rounds) except *:
    global RULE_ROUNDS, ODDS_POWER
    cdef int u, k
    for u in range(COPIES + 1):
        for k in range(COPIES + 1):
            SURVIVE[u][k] = survive[u][k]
    ODDS_POWER = odds_power
    RULE_ROUNDS = rounds


ctypedef struct Odds:
    int below[TOPV]           # unseen cards of value <= v
    int unseen
    int best1[NQ][TOPV]       # per queue, one card of value r gone (0: none): best fit count,
    int idx1[NQ][TOPV]        # its gap,
    int best2[NQ][TOPV]       # and the second best
    int queued[TOPV]          # cards of value v in the queues
    int copies[NQ][TOPV]      # cards of value v in queue q
    double stay_after[NQ][TOPV]  # stay_value(q, v) and kick_value(v): a draw of v that misses
    double kick_after[TOPV]


cdef inline double survival(int u, int k, int u2, int k2) noexcept nogil:
    """What moving a value's copies from u unseen and k queued to u2 and k2 does to its odds."""
    return SURVIVE[u2][k2] / SURVIVE[u][k]


cdef inline int odds_fit(Odds* o, int lo, int hi, int r) noexcept nogil:
    if lo < 1:
        lo = 1
    if hi > 13:
        hi = 13
    return o.below[hi] - o.below[lo - 1] - (1 if r and lo <= r <= hi else 0)


cdef double kick_value(Pos* p, Odds* o, int v) noexcept nogil:
    """A kick of the drawn v: it is discarded, then a card drawn from the unseen is."""
    cdef double factor = survival(p.counts[v], o.queued[v], p.counts[v] - 1, o.queued[v]), burn = 0.0
    cdef int left = o.unseen - 1, b, n
    if left == 0:
        return factor
    for b in range(1, TOPV):
        n = p.counts[b] - (1 if b == v else 0)
        if n:
            burn += n * survival(n, o.queued[b], n - 1, o.queued[b])
    return factor * burn / left


cdef double stay_value(Pos* p, Odds* o, int q, int v) noexcept nogil:
    """A stay at queue q with the drawn v: the queue's cards are discarded, v starts it again;
    then the best gap's odds, the fresh queue's among them."""
    cdef int left = o.unseen - 1, best = -1, other, i = 0, n, w
    cdef double factor = 1.0
    while i < p.qlen[q]:  # each run of equal values, low to high
        w = p.q[q][i]
        n = o.copies[q][w]
        if w != v:
            factor *= survival(p.counts[w], o.queued[w], p.counts[w], o.queued[w] - n)
        i += n
    factor *= survival(p.counts[v], o.queued[v], p.counts[v] - 1, o.queued[v] - o.copies[q][v] + 1)
    if left == 0:
        return factor
    for other in range(NQ):
        if other != q and o.best1[other][v] > best:
            best = o.best1[other][v]
    best = max3(best, odds_fit(o, 0, v, v), odds_fit(o, v, TOPV, v))
    return factor * pow(<double>best / left, ODDS_POWER)


cdef inline int max3(int a, int b, int c) noexcept nogil:
    if b > a:
        a = b
    return c if c > a else a


cdef void odds_init(Pos* p, Odds* o) noexcept nogil:
    cdef int v, q, g, r, f, b1, i1, b2, i
    memset(o, 0, sizeof(Odds))
    for v in range(1, TOPV):
        o.below[v] = o.below[v - 1] + p.counts[v]
    o.unseen = p.unseen
    for q in range(NQ):
        for i in range(p.qlen[q]):
            o.copies[q][p.q[q][i]] += 1
            o.queued[p.q[q][i]] += 1
        for r in range(TOPV):
            b1 = -1; i1 = -1; b2 = -1
            for g in range(p.qlen[q] + 1):
                f = odds_fit(o, lo_of(p, q, g), hi_of(p, q, g), r)
                if f > b1:
                    b2 = b1; b1 = f; i1 = g
                elif f > b2:
                    b2 = f
            o.best1[q][r] = b1; o.idx1[q][r] = i1; o.best2[q][r] = b2
    for v in range(1, TOPV):
        if p.counts[v]:
            o.kick_after[v] = kick_value(p, o, v)
            for q in range(NQ):
                o.stay_after[q][v] = stay_value(p, o, q, v)


cdef double gap_value(Pos* p, Odds* o, int q, int g) noexcept nogil:
    """The odds of aiming at gap g of queue q: over each value v the next draw may have, the
    best gap's odds after v joins the queue, or after the better of a stay and a kick."""
    cdef int lo = lo_of(p, q, g), hi = hi_of(p, q, g), left = o.unseen - 1, v, n, nmiss = 0, k, best, other
    cdef bint goes_on = left >= 2
    cdef double fitted = 0.0, value = 0.0, total, kick, factor
    cdef int miss_n[TOPV]
    cdef double miss_stay[TOPV]
    cdef double miss_kick[TOPV]
    for v in range(1, TOPV):
        n = p.counts[v]
        if not n:
            continue
        if lo <= v <= hi:
            factor = survival(n, o.queued[v], n - 1, o.queued[v] + 1)
            if left == 0:
                fitted += n * factor
            else:
                best = max3(o.best1[q][v] if o.idx1[q][v] != g else o.best2[q][v],
                            odds_fit(o, lo, v, v), odds_fit(o, v, hi, v))
                for other in range(NQ):
                    if other != q and o.best1[other][v] > best:
                        best = o.best1[other][v]
                fitted += n * factor * pow(<double>best / left, ODDS_POWER)
        else:
            miss_n[nmiss] = n
            miss_stay[nmiss] = o.stay_after[q][v]
            miss_kick[nmiss] = o.kick_after[v]
            nmiss += 1
    for _ in range(RULE_ROUNDS if goes_on else 1):
        total = fitted
        for k in range(nmiss):
            kick = miss_kick[k] * value if goes_on else miss_kick[k]
            total += miss_n[k] * (miss_stay[k] if miss_stay[k] >= kick else kick)
        value = total / o.unseen
    return value


cdef inline bint rule_stays(Pos* p) noexcept nogil:
    """After a miss: stay unless a kick (its discards, then the same gap again) has better odds,
    both valued as from before the draw (the drawn card counted back among the unseen)."""
    cdef Odds o
    cdef Pos before = p[0]
    cdef double kick
    before.counts[p.hand] += 1
    before.unseen += 1
    odds_init(&before, &o)
    kick = o.kick_after[p.hand]
    if p.unseen >= 2:  # the kick burns one card and draws again for the same gap
        kick *= gap_value(&before, &o, p.tq, p.tg)
    return o.stay_after[p.tq][p.hand] >= kick


cdef inline void rule_target(Pos* p) noexcept nogil:
    """The gap with the best odds after the draw; ties to the first in order."""
    cdef Odds o
    cdef int q, g
    cdef double value, best = -1.0
    odds_init(p, &o)
    for q in range(NQ):
        for g in range(p.qlen[q] + 1):
            value = gap_value(p, &o, q, g)
            if value > best:
                best = value
                p.tq = q; p.tg = g
    p.phase = DRAW


cdef int play_out(Pos* p, uint64_t* rng) noexcept nogil:
    """Play to the end with the blind rule; the score on a win, -1 on a loss."""
    while True:
        if p.lost:
            return -1
        if p.phase == CHOOSE:
            if p.unseen == 0:
                return total_in_queues(p)
            rule_target(p)
        elif p.phase == DRAW:
            do_draw(p, sample(p, rng))
        elif p.phase == PENDING:
            if rule_stays(p):
                do_stay(p)
            else:
                do_kick(p)
        else:
            do_burn(p, sample(p, rng))


cdef inline bint better(double ap, double ae, double bp, double be) noexcept nogil:
    if ap - bp > TIE or bp - ap > TIE:
        return ap > bp
    return ae > be + TIE


cdef inline bint memcmp_queue(Pos* p, int a, int b) noexcept nogil:
    cdef int i
    for i in range(p.qlen[a]):
        if p.q[a][i] != p.q[b][i]:
            return 0
    return 1


cdef class Search:
    """One position (set_position) and the searches from it. ``memory_mb`` caps the table (a
    full table is cleared: the game graph is acyclic, so a lost entry is only searched again);
    ``max_states`` stops a search (memory-limit) once that many entries were stored;
    ``time_limit`` stops it (timeout); the clock starts at the first search."""

    cdef Pos pos
    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used
    cdef public uint64_t nodes, stored
    cdef uint64_t max_states
    cdef Clock clock
    cdef public int stopped

    def __cinit__(self, double memory_mb=1024.0, double time_limit=0.0, long long max_states=0):
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 10)
        self.capacity = min(<uint64_t>1 << 12, self.max_capacity)
        self.table = <Entry*>calloc(self.capacity, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        clock_restart(&self.clock, time_limit)
        self.max_states = max_states
        self.nodes = self.stored = self.used = 0
        self.stopped = STOP_NONE

    def __dealloc__(self):
        free(self.table)

    def set_position(self, queues, discards, deck, target=None, hand=0, bint burn=False):
        """queues: 4 sorted sequences of values; discards: counts indexed by value (0 unused);
        deck: the unseen values (order ignored); target: (queue 0-3, gap) or None; hand: the
        card that missed (0 if none); burn: a kick's blind discard comes next."""
        cdef int q, i, v
        memset(&self.pos, 0, sizeof(Pos))
        for q in range(NQ):
            self.pos.qlen[q] = len(queues[q])
            for i, v in enumerate(queues[q]):
                self.pos.q[q][i] = <signed char>v
        for v in range(1, TOPV):
            self.pos.disc[v] = discards[v]
            if self.pos.disc[v] >= COPIES:
                self.pos.lost = 1
        for v in deck:
            self.pos.counts[v] += 1
        self.pos.unseen = len(deck)
        if target is not None:
            self.pos.tq, self.pos.tg = target
        self.pos.hand = hand
        self.pos.phase = BURN if burn else (PENDING if hand else (DRAW if target is not None else CHOOSE))

    def set_rule(self, survive, double odds_power, int rounds):
        """The blind rule's weights (solodeck/games/boba/blind.py SURVIVE, ODDS_POWER, RULE_ROUNDS),
        for every search: until this is called the rule is not set."""
        set_weights(survive, odds_power, rounds)

    def moves(self):
        """The legal moves in the reference's order: ("target", q, g) (q 0-3), "stay", "kick"."""
        cdef int q, g
        if self.pos.lost or self.pos.phase in (DRAW, BURN):
            return []
        if self.pos.phase == PENDING:
            return ["stay", "kick"]
        if self.pos.unseen == 0:
            return []
        return [("target", q, g) for q in range(NQ) for g in range(self.pos.qlen[q] + 1)]

    def baseline_move(self):
        cdef Pos p = self.pos
        if p.lost or p.phase in (DRAW, BURN) or (p.phase == CHOOSE and p.unseen == 0):
            return None
        if p.phase == PENDING:
            return "stay" if baseline_stays(&p) else "kick"
        baseline_target(&p)
        return ("target", p.tq, p.tg)

    def rule_move(self):
        """The blind rule's move (solodeck/games/boba/blind.py rule_move)."""
        cdef Pos p = self.pos
        if p.lost or p.phase in (DRAW, BURN) or (p.phase == CHOOSE and p.unseen == 0):
            return None
        if p.phase == PENDING:
            return "stay" if rule_stays(&p) else "kick"
        rule_target(&p)
        return ("target", p.tq, p.tg)

    cdef void _apply(self, Pos* p, move) noexcept:
        if move == "stay":
            do_stay(p)
        elif move == "kick":
            do_kick(p)
        else:
            p.tq = move[1]; p.tg = move[2]; p.phase = DRAW

    def rule_values(self):
        """The blind rule's odds of each target, in the order of moves() (a decision before a draw)."""
        cdef Odds o
        cdef int q, g
        if self.pos.lost or self.pos.phase != CHOOSE or self.pos.unseen == 0:
            return []
        odds_init(&self.pos, &o)
        return [gap_value(&self.pos, &o, q, g) for q in range(NQ) for g in range(self.pos.qlen[q] + 1)]

    def rule_candidates(self, int count):
        """The ``count`` targets with the best odds by the blind rule (ties: the first in order),
        one of each set of targets that lead to the same positions (the same cards in the queue,
        the same neighbours); every move after a miss."""
        if self.pos.phase != CHOOSE:
            return self.moves()
        moves, values = self.moves(), self.rule_values()
        order = sorted(range(len(moves)), key=lambda i: -values[i])
        out, seen = [], set()
        for i in order:
            q, g = moves[i][1], moves[i][2]
            form = (tuple(self.pos.q[q][j] for j in range(self.pos.qlen[q])), lo_of(&self.pos, q, g),
                    hi_of(&self.pos, q, g))
            if form not in seen:
                seen.add(form)
                out.append(moves[i])
                if len(out) == count:
                    break
        return out

    def rollouts(self, int samples, uint64_t seed, int candidates=0):
        """[(move, wins, score_sum)] for each legal move (or only the rule's ``candidates`` best,
        rule_candidates): the move, then the blind rule, over ``samples`` sampled orders of the
        unseen cards (sample i seeded seed + i)."""
        cdef Pos start, p
        cdef int k, wins, score_sum, r, lo, hi
        cdef uint64_t rng
        out = []
        done = {}
        for move in (self.rule_candidates(candidates) if candidates > 0 else self.moves()):
            if move not in ("stay", "kick"):
                lo = lo_of(&self.pos, move[1], move[2]); hi = hi_of(&self.pos, move[1], move[2])
                if (move[1], lo, hi) in done:  # a twin gap: the very same positions follow
                    out.append((move,) + done[(move[1], lo, hi)])
                    continue
            start = self.pos
            self._apply(&start, move)
            wins = score_sum = 0
            with nogil:
                for k in range(samples):
                    p = start
                    rng = seed + <uint64_t>k
                    r = play_out(&p, &rng)
                    if r >= 0:
                        wins += 1
                        score_sum += r
            self.nodes += samples
            if move not in ("stay", "kick"):
                done[(move[1], lo, hi)] = (wins, score_sum)
            out.append((move, wins, score_sum))
        return out

    # -- exact blind values ------------------------------------------------------------------
    def restart_clock(self, double seconds):
        clock_restart(&self.clock, seconds)

    def blind_value(self):
        """(P(win), E[score x win]) of the position under best blind play, or None if a limit
        stopped the search (``stopped``: 1 time, 2 states)."""
        self.stopped = STOP_NONE
        clock_start(&self.clock)
        cdef double vp, ve
        vp, ve = self._value(&self.pos)
        return None if self.stopped else (vp, ve)

    cdef inline int _tick(self) noexcept nogil:
        self.nodes += 1
        if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
            self.stopped = STOP_TIME
        return self.stopped

    cdef void _key(self, Pos* p, uint64_t* k) noexcept nogil:
        cdef uint64_t codes[NQ], t, target_code = 0
        cdef int q, i, j, idx
        for q in range(NQ):
            codes[q] = 0
            for i in range(p.qlen[q]):
                codes[q] += POW5[p.q[q][i]]
        if p.phase == DRAW or p.phase == BURN:
            target_code = codes[p.tq]
        for i in range(1, NQ):  # insertion sort: the queues are interchangeable
            t = codes[i]
            j = i - 1
            while j >= 0 and codes[j] > t:
                codes[j + 1] = codes[j]
                j -= 1
            codes[j + 1] = t
        k[0] = codes[0] << 32 | codes[1]
        k[1] = codes[2] << 32 | codes[3]
        k[2] = 0
        for i in range(1, TOPV):
            k[2] += POW4[i] * p.disc[i] + (POW5[i] * p.counts[i] << 26)
        k[3] = 1 | (p.phase << 1)
        if p.phase == DRAW or p.phase == BURN:  # the target: its queue (the first of equal ones) and its neighbours
            idx = 0
            while codes[idx] != target_code:
                idx += 1
            k[3] |= (idx << 4) | (lo_of(p, p.tq, p.tg) << 8) | (hi_of(p, p.tq, p.tg) << 12)

    cdef Entry* _slot(self, uint64_t* k) noexcept nogil:
        cdef uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL ^ k[1] * 0xC2B2AE3D27D4EB4FULL ^ k[2] ^ (k[3] << 40)
        h ^= h >> 33
        h *= 0xFF51AFD7ED558CCDULL
        h ^= h >> 33
        cdef uint64_t mask = self.capacity - 1, i = h & mask
        while self.table[i].k4 and not (self.table[i].k4 == k[3] and self.table[i].k1 == k[0]
                                        and self.table[i].k2 == k[1] and self.table[i].k3 == k[2]):
            i = (i + 1) & mask
        return &self.table[i]

    cdef void _store(self, uint64_t* k, double vp, double ve) noexcept:
        cdef Entry* e
        cdef Entry* old
        cdef uint64_t i
        if self.max_states and self.stored >= self.max_states:
            self.stopped = STOP_STATES
            return
        if table_full(self.used, self.capacity):
            old = <Entry*>grow_or_clear(<void**>&self.table, &self.capacity, self.max_capacity, sizeof(Entry))
            if old == NULL:  # cleared
                self.used = 0
            else:
                for i in range(self.capacity // 2):
                    if old[i].k4:
                        e = self._slot(&old[i].k1)
                        e[0] = old[i]
                free(old)
        e = self._slot(k)
        if not e.k4:
            self.used += 1
            self.stored += 1
        e.k1 = k[0]; e.k2 = k[1]; e.k3 = k[2]; e.k4 = k[3]
        e.p = vp; e.e = ve

    cdef (double, double) _value(self, Pos* p) noexcept:
        cdef double bp = 0.0, be = 0.0, cp, ce, sp, se
        cdef int q, g, v, c, r, lo, hi, seen, total
        cdef uint64_t k[4]
        cdef Pos child
        cdef Entry* e
        if p.lost:
            return (0.0, 0.0)
        if p.phase == CHOOSE and p.unseen == 0:
            return (1.0, <double>total_in_queues(p))
        if self._tick():
            return (0.0, 0.0)
        if p.phase == PENDING:
            if not queue_safe(p, p.tq) and p.disc[p.hand] + 1 >= COPIES:
                return (0.0, 0.0)  # both choices discard a fourth card
            child = p[0]
            do_stay(&child)
            bp, be = self._value(&child)
            child = p[0]
            do_kick(&child)
            cp, ce = self._value(&child)
            if better(cp, ce, bp, be):
                bp, be = cp, ce
            return (bp, be)
        self._key(p, k)
        e = self._slot(k)
        if e.k4:
            return (e.p, e.e)
        if p.phase == CHOOSE:
            for q in range(NQ):
                seen = 0  # a queue equal to an earlier one: its targets give the same values
                for r in range(q):
                    if p.qlen[r] == p.qlen[q] and memcmp_queue(p, r, q):
                        seen = 1
                        break
                if seen:
                    continue
                for g in range(p.qlen[q] + 1):
                    if g > 0 and lo_of(p, q, g) == lo_of(p, q, g - 1) and hi_of(p, q, g) == hi_of(p, q, g - 1):
                        continue  # a twin of the gap before it (only between equal cards)
                    child = p[0]
                    child.tq = q; child.tg = g; child.phase = DRAW
                    cp, ce = self._value(&child)
                    if self.stopped:
                        return (0.0, 0.0)
                    if better(cp, ce, bp, be):
                        bp, be = cp, ce
        else:
            total = p.unseen
            sp = se = 0.0
            for v in range(1, TOPV):
                c = p.counts[v]
                if not c:
                    continue
                child = p[0]
                take(&child, v)
                if p.phase == DRAW:
                    do_draw(&child, v)
                else:
                    do_burn(&child, v)
                cp, ce = self._value(&child)
                if self.stopped:
                    return (0.0, 0.0)
                sp += c * cp
                se += c * ce
            bp = sp / total
            be = se / total
        self._store(k, bp, be)
        return (bp, be)
