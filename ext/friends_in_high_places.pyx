# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Friends in High Places' open-mode engine: TurnSolver's iterative deepening on whole turns
(solodeck/games/friends_in_high_places/search.py, the reference; docs/rules/friends-in-high-places.md,
"How the solver plays it") in C, with the same reading of the rules and stronger exact bounds.

A node is a turn's intrigue with its hand and court drawn: the player's deck (top first), the
player's discards (a set: a reshuffle sorts them first), the court deck and its discards, each
pile's reshuffle count, the hand and the court. The seeded reshuffle (solodeck/shuffle.py) is
redone here (ext/shared.pxd's seeded_shuffle), one permutation per stream and size.

``within`` answers "is there a win by turn T?"; KernelSolver (solodeck/games/friends_in_high_places/search.py)
asks it for the thresholds that narrow the proven range of the fewest turns. A failure is stored
under a 128-bit key (two independent 64-bit hashes of the position without its turn number, and
without a discard pile no reshuffle can bring back within the turns left) with the turns it had
left; a failure with nothing cut below it is stored as lost whatever the turns (127).

The loss is the revised "if at any time" (RULINGS.md): a turn whose intrigue or purchase leaves
the player (deck, discards, hand) or the court (deck, discards, table) fewer than 4 cards is no
child, and the K♦ is taken only after an intrigue that loses nothing (king_safe). The key holds
both discard piles' sizes, which the loss counts. Every bound and cut below relaxes the lines of
the earlier reading (a loss only at a draw); the revised reading's winning lines are a subset of
those, so each bound stays a lower bound and each cut exact.

Cards are solodeck.cards' ints (suit * 13 + value - 1; suits S, H, D, C); sets are 64-bit masks.
"""
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

from shared cimport (STOP_NONE, STOP_STATES, STOP_TIME, Clock, capacity_for, clock_expired,
                     clock_restart, clock_start, grow_or_clear, mix64, seeded_shuffle, table_full)

cdef enum:
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    KD = 38           # the King of Diamonds
    NO_WIN = 10000
    INF_LEFT = 127
    MAXDEPTH = 64
    CHECK_EVERY = 1023
    MAX_CHILDREN = 64
    MAX_STREAMS = 130     # the reshuffle streams whose permutations are kept (64 turns: < 130)
    STOP_BUDGET = 3       # ``node_budget`` reached: one question's share, not a limit of the command


cdef int SPHERE[4]
SPHERE[CLUBS] = 0
SPHERE[HEARTS] = 1
SPHERE[SPADES] = 2
SPHERE[DIAMONDS] = 3
cdef int BELOW[4]   # the previous sphere's suit (-1: none)
BELOW[CLUBS] = -1
BELOW[HEARTS] = CLUBS
BELOW[SPADES] = HEARTS
BELOW[DIAMONDS] = SPADES

cdef uint64_t SUITMASK[4]
cdef uint64_t NONACE[4]
for _s in range(4):
    SUITMASK[_s] = 0x1FFFULL << (13 * _s)
    NONACE[_s] = 0x1FFEULL << (13 * _s)

cdef uint64_t ZA[64]
cdef uint64_t ZB[64]
_z = 0x1234567ULL
for _i in range(64):
    _z = (_z + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    ZA[_i] = mix64(_z)
    _z = (_z + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    ZB[_i] = mix64(_z) | 1


BUDGET_SPENT = STOP_BUDGET  # Search.stopped when a question's node budget ran out


class Stopped(Exception):
    """A limit was reached (``Search.stopped`` says which)."""


ctypedef struct Node:
    int8_t deck[48]     # the player's deck, top first (deck[0 .. dn))
    int8_t cdeck[48]    # the court deck, top first
    int dn, cn
    uint64_t pdis, cdis  # the discard piles (sets)
    uint64_t hand, court
    int ps, cs          # each pile's reshuffles so far
    int turn


ctypedef struct Entry:
    uint64_t a      # hash a with bit 63 set (0: an empty slot)
    uint64_t b
    int left        # no win within this many turns (INF_LEFT: none at all)


ctypedef struct Child:
    uint64_t removed
    int target      # the court card acquired, -1: none
    int order


# -- the rules ------------------------------------------------------------------------------------
cdef inline int popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_ctz(unsigned int) nogil


cdef inline int suit_sum(uint64_t cards, int s) noexcept nogil:
    """The total of suit s's non-ace cards among ``cards``."""
    cdef uint64_t m = (cards & NONACE[s]) >> (13 * s)
    cdef int total = 0
    while m:
        total += __builtin_ctzll(m) + 1
        m &= m - 1
    return total


cdef inline bint can_take(uint64_t hand, int target, bint royal) noexcept nogil:
    """Some subset of ``hand`` acquires ``target`` (the reference's can_take)."""
    cdef int s = target // 13
    cdef int worth = target % 13 + 1
    cdef int same, prev
    if hand >> (13 * s) & 1:
        worth -= 1
    same = suit_sum(hand, s)
    if same and same >= worth:
        return True
    if (target == KD and royal) or SPHERE[s] == 0:
        return False
    prev = suit_sum(hand, BELOW[s])
    return prev > 0 and prev // 2 >= worth


cdef inline int top_sum(uint64_t cards, int s, int k) noexcept nogil:
    """The total of the k highest non-ace cards of suit s among ``cards``."""
    cdef uint64_t m = (cards & NONACE[s]) >> (13 * s)
    cdef int total = 0, v
    while m and k:
        v = 63 - __builtin_clzll(m)
        total += v + 1
        m &= ~(1ULL << v)
        k -= 1
    return total


cdef inline bint king_ready(uint64_t cards, bint royal) noexcept nogil:
    """Could some 4 of ``cards`` acquire the K♦ (the reference's king_ready)?"""
    cdef bint ace = cards >> (13 * DIAMONDS) & 1
    cdef int d4 = top_sum(cards, DIAMONDS, 4), d3 = top_sum(cards, DIAMONDS, 3)
    if d4 >= 13 or (ace and d3 > 0 and d3 >= 12):
        return True
    if royal:
        return False
    d4 = top_sum(cards, SPADES, 4) // 2
    d3 = top_sum(cards, SPADES, 3)
    return d4 >= 13 or (ace and d3 > 0 and d3 // 2 >= 12)


cdef inline uint64_t turns_to(int k) noexcept nogil:
    """Bits 0 .. k (none below 0, all from 63 on)."""
    if k < 0:
        return 0
    return ~0ULL if k >= 63 else (2ULL << k) - 1


cdef inline uint64_t first_cards(int8_t* pile, int n, int k) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(k):
        if i < n:
            m |= 1ULL << pile[i]
    return m


cdef inline void pop_front(int8_t* pile, int* n, int k) noexcept nogil:
    cdef int i
    for i in range(n[0] - k):
        pile[i] = pile[i + k]
    n[0] -= k


# -- the search -----------------------------------------------------------------------------------
cdef class Search:
    """The open search of one deal: ``seed`` (of the reshuffles), ``lost_opportunities``,
    ``royal_family``. ``time_limit`` (0: none) applies from the next ``within`` call;
    ``max_states`` (0: none) stops a search once that many failures are stored."""

    cdef uint64_t seed
    cdef bint lost, royal
    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used, max_states
    cdef Clock clock
    cdef public uint64_t nodes
    cdef public int stopped
    cdef public uint64_t node_budget  # stop (STOP_BUDGET) once ``nodes`` reaches it (0: none)
    cdef public int order_mode
    cdef public int cuts         # 1: the timed plan (timed_allows); 2: no count bound (the timed plan
                                 # implies it); 4: the timed plan before the chain bound; 16: no chain
                                 # bound in the search (after the timed plan it cut no node in 960
                                 # questions: the same nodes, 12% less time; bound_of keeps it).
                                 # 32: the K♦'s turns after a court reshuffle (king_turns).
                                 # 64: the children removing two court cards and taking the same
                                 # card refuted together first (pairs_refuted).
                                 # 0: the bounds before the timed plan, for the tests' comparisons
    cdef public int timed_depth  # the timed plan is tried with at most this many turns left
    cdef bint cut
    cdef Child line[MAXDEPTH]
    cdef int line_len
    cdef int8_t* perm      # [stream][size][i]: the canonical index a reshuffle of size cards puts at i
    cdef int8_t* place     # [stream][size][k]: where it puts the canonical k-th (the inverse)
    cdef uint8_t* perm_done
    cdef uint64_t king_mask                     # king_turns of the node ...
    cdef bint king_known                        # ... when bound computed it (the timed plan reuses it)
    cdef uint64_t parent_mask                   # pairs_refuted: the parent's king_turns, for the
    cdef int parent_rc                          # court reshuffle at this turn (-1: none)
    cdef uint64_t st[12][16]                     # measurement: per kind, per turns before the threshold
    cdef int last_cut                           # cut_bound's: 1 the first bound, 2 the timed plan

    def __cinit__(self, seed, bint lost_opportunities, bint royal_family, double memory_mb=1024.0,
                  double time_limit=0.0, long long max_states=0):
        self.seed = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        self.lost, self.royal = lost_opportunities, royal_family
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 16)
        self.capacity = min(1 << 16, self.max_capacity)
        self.table = <Entry*>calloc(self.capacity, sizeof(Entry))
        self.perm = <int8_t*>calloc(MAX_STREAMS * 48 * 48, 1)
        self.place = <int8_t*>calloc(MAX_STREAMS * 48 * 48, 1)
        self.perm_done = <uint8_t*>calloc(MAX_STREAMS * 48, 1)
        self.used = 0
        self.max_states = max_states
        self.nodes = 0
        self.stopped = STOP_NONE
        self.order_mode = 1
        self.cuts = 119
        self.parent_rc = -1
        self.timed_depth = 64
        clock_restart(&self.clock, time_limit)

    def __dealloc__(self):
        free(self.table)
        free(self.perm)
        free(self.place)
        free(self.perm_done)

    @property
    def stored(self):
        return self.used

    def stats(self):
        """Measurement: per kind (entered, cut by the first bound, by the timed plan, by the table,
        opened, children listed, pair groups refuted), per turns before the threshold (0..15)."""
        return [[self.st[k][d] for d in range(16)] for k in range(12)]

    def restart_clock(self, double seconds):
        clock_restart(&self.clock, seconds)

    # -- drawing -----------------------------------------------------------------------------
    cdef bint draw(self, Node* n) noexcept nogil:
        """Steps 1-2 of n's turn (its hand and court empty): reshuffles, turn-up, draws. False:
        the game is lost."""
        cdef int k
        cdef int8_t first
        if n.dn < 4:
            if n.dn + popcount(n.pdis) < 4:
                return False
            n.ps += 1
            n.dn += self.shuffle(n.deck + n.dn, n.pdis, 2 * n.ps - 1)
            n.pdis = 0
        n.hand = first_cards(n.deck, n.dn, 4)
        pop_front(n.deck, &n.dn, 4)
        if n.cn < 4:
            if n.cn + popcount(n.cdis) < 4:
                return False
            n.cs += 1
            k = n.cn
            n.cn += self.shuffle(n.cdeck + n.cn, n.cdis, 2 * n.cs)
            n.cdis = 0
            if self.lost:  # the first card of the shuffled pile: the K♦ to the bottom, else out
                first = n.cdeck[k]
                for k in range(k, n.cn - 1):
                    n.cdeck[k] = n.cdeck[k + 1]
                if first == KD:
                    n.cdeck[n.cn - 1] = first
                else:
                    n.cn -= 1
                if n.cn < 4:
                    return False
        n.court = first_cards(n.cdeck, n.cn, 4)
        pop_front(n.cdeck, &n.cn, 4)
        return True

    # -- the bound ---------------------------------------------------------------------------
    cdef inline uint64_t hand_at(self, Node* n, int turn) noexcept nogil:
        """The hand of ``turn`` (before the next player reshuffle: it is dealt from the deck)."""
        cdef int i = 4 * (turn - n.turn - 1)
        return first_cards(n.deck + i, n.dn - i, 4)

    cdef int bound(self, Node* n, int limit) noexcept nogil:
        """The fewest turns still possible (a lower bound; "How the solver plays it"): the first
        turn at which the K♦ can be in the court (king_turns after the next court reshuffle) and
        a hand can take it (the known hands before the next player reshuffle, after it what the
        cards owned allow). Turns after ``limit`` are not looked at: limit + 1 then."""
        cdef int t = n.turn
        cdef int rp = t + 1 + n.dn // 4   # the turn of the next player reshuffle
        cdef int rc = t + 1 + n.cn // 4   # ... and of the next court reshuffle
        cdef int kt = -1, tau, r, top, s, p
        cdef bint here, have_mask = False
        cdef uint64_t owned, mask = 0
        self.king_known = False
        if n.court >> KD & 1:
            if can_take(n.hand, KD, self.royal):
                return t
        elif not n.cdis >> KD & 1:
            for p in range(n.cn):
                if n.cdeck[p] == KD:
                    kt = t + 1 + p // 4
                    break
            if kt < 0:
                return NO_WIN
        # from the next player reshuffle on the hands are not known: what the cards allow
        owned = n.hand | n.pdis
        for p in range(n.dn):
            owned |= 1ULL << n.deck[p]
        if king_ready(owned, self.royal):
            r = rp
        else:
            top = 0
            for s in range(4):
                if owned & NONACE[s] and SPHERE[s] > top:
                    top = SPHERE[s]
            if top >= 2:
                r = rp
            elif top == 1:
                r = rp + 1 if self.royal else min(rp + 1, max(rp, t + 3))
            else:
                r = rp + 2
        for tau in range(t + 1, t + MAXDEPTH):
            if tau > limit:
                return tau
            if tau < rc:
                here = tau == kt
            else:
                if not have_mask:
                    mask, have_mask = self.king_turns_at(n, rc, turns_to(limit - rc)) if self.cuts & 32 else ~0ULL, True
                    self.king_mask, self.king_known = mask, True
                    if not mask:
                        return NO_WIN
                here = tau - rc >= 63 or (mask >> (tau - rc)) & 1 != 0
            if here and (can_take(self.hand_at(n, tau), KD, self.royal) if tau < rp else tau >= r):
                return tau
        return NO_WIN

    # -- the seeded reshuffle, one permutation per stream and size ---------------------------
    cdef int8_t* permutation(self, int stream, int size) noexcept nogil:
        """solodeck.shuffle's Fisher-Yates of ``size`` cards on ``stream``, as the canonical
        index put at each place (perm) and the place of each canonical index (place): its
        draws depend only on the seed, the stream and the size, never on which cards they are.
        Kept for the streams below MAX_STREAMS (row MAX_STREAMS - 1 is redone for the others)."""
        cdef int i, row
        cdef int shuffled[48]
        cdef int8_t* order
        row = stream
        if row >= MAX_STREAMS - 1:
            row = MAX_STREAMS - 1
            self.perm_done[row * 48 + size] = False
        order = self.perm + (row * 48 + size) * 48
        if not self.perm_done[row * 48 + size]:
            for i in range(size):
                shuffled[i] = i
            seeded_shuffle(shuffled, size, self.seed, stream)
            for i in range(size):
                order[i] = shuffled[i]
                self.place[(row * 48 + size) * 48 + shuffled[i]] = i
            self.perm_done[row * 48 + size] = True
        return order

    cdef int shuffle(self, int8_t* out, uint64_t cards, int stream) noexcept nogil:
        """solodeck.shuffle.shuffled(sorted cards, seed, stream) written to ``out``; the count."""
        cdef int8_t canonical[48]
        cdef int n = 0, i
        cdef int8_t* order
        while cards:
            canonical[n] = __builtin_ctzll(cards)
            n += 1
            cards &= cards - 1
        order = self.permutation(stream, n)
        for i in range(n):
            out[i] = canonical[order[i]]
        return n

    # -- the K♦ after the court reshuffle ----------------------------------------------------
    cdef inline int shuffled_place(self, int k, int size, int rank) noexcept nogil:
        """Where the court's k-th reshuffle (stream 2k) puts the rank-th lowest of ``size`` cards."""
        cdef int row = min(2 * k, MAX_STREAMS - 1)
        self.permutation(2 * k, size)
        return self.place[(row * 48 + size) * 48 + rank]

    cdef uint32_t drop_options(self, uint64_t court, uint64_t hand, bint known) noexcept nogil:
        """How many of ``court`` (the K♦ left out) a turn can take out of the game: bit 4a + b for
        a cards below the K♦ (in the canonical order) and b above it. Two removed, with or
        without one acquired; one acquired (a hand card removed); none. With the hand ``known``
        only the cards it can take (after removing a hand card, for the one acquired alone),
        else any."""
        cdef int8_t cs[4]
        cdef bint full[4]
        cdef int nc = 0, i, j, k, x, a
        cdef uint64_t m = court, rest
        cdef uint32_t opts = 1
        cdef bint ok
        while m:
            cs[nc] = __builtin_ctzll(m)
            full[nc] = not known or can_take(hand, cs[nc], False)
            nc += 1
            m &= m - 1
        for k in range(nc):
            ok = not known
            rest = hand if full[k] else 0  # a hand card fewer takes no more
            while rest and not ok:
                x = __builtin_ctzll(rest)
                rest &= rest - 1
                ok = can_take(hand & ~(1ULL << x), cs[k], False)
            if ok:
                opts |= 1U << (4 if cs[k] < KD else 1)
        for i in range(nc):
            for j in range(i + 1, nc):
                a = (cs[i] < KD) + (cs[j] < KD)
                opts |= 1U << (4 * a + 2 - a)
                for k in range(nc):
                    if k != i and k != j and full[k]:
                        opts |= 1U << (4 * a + 2 - a + (4 if cs[k] < KD else 1))
        return opts

    cdef uint64_t king_turns(self, Node* n, int rc, uint64_t want) noexcept nogil:
        """The turns from rc, the next court reshuffle, at which the K♦ may be in the court: bit i
        for turn rc + i, bit 63 for every later turn too (0: the game is lost at rc whatever
        the player does).

        The reshuffle puts the k-th lowest of N shuffled cards at a place that depends on k and N
        only: the shuffle's draws depend on the count, not on the cards (permutation). N and the K♦'s k are
        fixed by how many court cards below and above the K♦ (in the canonical order) leave the
        game, removed or acquired, before rc: the sums (A, B) of each turn's (a, b) in
        drop_options. The courts before rc are known (dealt from the court deck), and so are
        the hands before the next player reshuffle (dealt from the deck). The K♦ is in the
        shuffled pile (from the discards, the court now or the court of a turn before rc) or
        among the cards left in the deck, drawn first at rc. After its place in the new deck it
        comes back no sooner than the reshuffle after, at rc + (the new deck's size) // 4. It
        stops once every turn of ``want`` is in: the bits beyond it may then be missing."""
        cdef int t = n.turn, tau, A, B, a, b, size, rank, place, deck, turn, top = 0
        cdef int rp = t + 1 + n.dn // 4
        cdef int lo = 0, hi = 0, left = n.cn % 4
        cdef uint64_t court, hand, below_kd = (1ULL << KD) - 1, mask = 0, kd = 1ULL << KD, m
        cdef uint64_t sums[48]   # sums[A]: bit B when (A, B) can be taken out
        cdef uint64_t nxt[48]
        cdef uint32_t opts, o
        cdef bint shuffled = not first_cards(n.cdeck + n.cn - left, left, left) & kd
        sums[0] = 1
        for tau in range(t, rc):
            court = self.court_at(n, tau) & ~kd
            lo += popcount(court & below_kd)
            hi += popcount(court & ~below_kd)
            hand = n.hand if tau == t else (self.hand_at(n, tau) if tau < rp else 0)
            opts = self.drop_options(court, hand, tau < rp)
            for A in range(top + 4):
                nxt[A] = 0
            for A in range(top + 1):
                if sums[A]:
                    o = opts
                    while o:
                        a = __builtin_ctz(o)
                        o &= o - 1
                        nxt[A + a // 4] |= sums[A] << (a % 4)
            top += 3
            for A in range(top + 1):
                sums[A] = nxt[A]
        for A in range(top + 1):
            m = sums[A]
            while m:
                B = __builtin_ctzll(m)
                m &= m - 1
                size = popcount(n.cdis & ~kd) + lo + hi - A - B + shuffled
                rank = popcount(n.cdis & below_kd) + lo - A
                deck = left + size
                if shuffled:
                    place = self.shuffled_place(n.cs + 1, size, rank)
                    if self.lost:  # the first shuffled card turned: the K♦ to the bottom, else out
                        if place == 0:
                            place = size - 1
                        else:
                            place -= 1
                            deck -= 1
                    turn = (left + place) // 4
                else:  # the K♦ is among the cards left, drawn at rc
                    deck -= self.lost
                    turn = 0
                if deck >= 4:  # else the game is lost at rc
                    mask |= 1ULL << turn | ~0ULL << (deck // 4)
                    if mask & want == want:
                        return mask
        return mask

    cdef inline uint64_t king_turns_at(self, Node* n, int rc, uint64_t want) noexcept nogil:
        """king_turns, or the parent's when pairs_refuted lent it (for the same reshuffle)."""
        return self.parent_mask if rc == self.parent_rc else self.king_turns(n, rc, want)

    # -- the chain bound ---------------------------------------------------------------------
    cdef inline int court_time(self, Node* n, int y, int tau, int rc, int* ty) noexcept nogil:
        """The first turn >= tau at which court card y can be in the court: the court now is
        this turn's; a court-deck card comes at its known turn (ty[y]), else only from the turn
        of the next court reshuffle (rc) on (after its known turn if that is rc itself)."""
        cdef int t = n.turn, k
        if n.court >> y & 1:
            return t if tau <= t else max(tau, rc)
        if ty[y] >= 0:
            k = ty[y]
            if tau <= k:
                return k
            return max(tau, rc if k < rc else k + 1)
        return max(tau, rc)

    cdef int first_cycle(self, Node* n, int y, int rp, int rc, int* ty) noexcept nogil:
        """The first turn before the next player reshuffle (rp) whose hand (known: dealt from
        the deck) can acquire court card y while y can be in the court; 10000 if none."""
        cdef int tau = n.turn
        cdef uint64_t h
        while tau < rp:
            tau = self.court_time(n, y, tau, rc, ty)
            if tau >= rp:
                break
            h = n.hand if tau == n.turn else self.hand_at(n, tau)
            if can_take(h, y, self.royal):
                return tau
            tau += 1
        return NO_WIN

    cdef int pay_time(self, int y, int* E, int* ct, int* c4, int* c3, int* cn) noexcept nogil:
        """The first turn from which cards with E <= that turn (at most 4 in a hand, the target
        suit's ace in one slot) can acquire y, by its own suit or the suit below; 10000: never."""
        cdef int s = y // 13
        cdef int worth = y % 13 + 1
        cdef int ace = E[13 * s]
        cdef int best = NO_WIN, k, b, f, need
        for f in range(2):
            if f == 0:
                b = s
            else:
                if SPHERE[s] == 0 or (y == KD and self.royal):
                    break
                b = BELOW[s]
            for k in range(cn[b]):
                if ct[b * 13 + k] >= best:
                    break
                if (c4[b * 13 + k] if f == 0 else c4[b * 13 + k] // 2) >= worth:
                    best = ct[b * 13 + k]
                    break
                if ace < NO_WIN and (c3[b * 13 + k] if f == 0 else c3[b * 13 + k] // 2) >= worth - 1:
                    k = max(ct[b * 13 + k], ace)
                    if k < best:
                        best = k
        return best

    cdef int chain_bound(self, Node* n, int cap) noexcept nogil:
        """The first turn the K♦ can be acquired when each card needs its payers in hand and the
        court card itself in the court (court_time), an acquired card comes back no sooner than
        the next player reshuffle, and the turns before that reshuffle use their known hands.
        Relaxed: any cards owned by a turn may share a hand, many acquisitions a turn. A card
        that cannot be in a hand by turn ``cap`` is not followed (it cannot pay for a K♦ taken by
        then): the answer is then exact up to cap, and cap + 1 stands for anything later."""
        cdef int t = n.turn
        cdef int rp = t + 1 + n.dn // 4
        cdef int rc = t + 1 + n.cn // 4
        cdef int E[52]
        cdef int ty[52]
        cdef int ct[52]
        cdef int c4[52]
        cdef int c3[52]
        cdef int cn[4]
        cdef int top[4]
        cdef int i, j, y, s, v, e, a, tp, rounds
        cdef uint64_t owned = n.hand | n.pdis, inplay, m
        cdef bint changed
        for i in range(n.dn):
            owned |= 1ULL << n.deck[i]
        for i in range(52):
            E[i] = rp if owned >> i & 1 else NO_WIN
            ty[i] = -1
        for i in range(n.cn):
            ty[n.cdeck[i]] = t + 1 + i // 4
        inplay = n.court | n.cdis
        for i in range(n.cn):
            inplay |= 1ULL << n.cdeck[i]
        if not inplay >> KD & 1:
            return NO_WIN
        a = self.first_cycle(n, KD, rp, rc, ty)
        if a < NO_WIN:
            return a
        m = inplay & ~(1ULL << KD)
        while m:
            y = __builtin_ctzll(m)
            m &= m - 1
            if self.first_cycle(n, y, rp, rc, ty) < NO_WIN:
                E[y] = rp
        changed = True
        rounds = 0
        while changed and rounds < 16:
            changed = False
            rounds += 1
            for s in range(4):  # the curves: per suit, cards by E, running sums of the best 4 and 3
                cn[s] = 0
                top[0] = top[1] = top[2] = top[3] = 0
                for v in range(1, 13):
                    i = 13 * s + v
                    if E[i] >= NO_WIN:
                        continue
                    j = cn[s]
                    while j > 0 and ct[13 * s + j - 1] > E[i]:
                        ct[13 * s + j] = ct[13 * s + j - 1]
                        c4[13 * s + j] = c4[13 * s + j - 1]  # (values for now, sums below)
                        j -= 1
                    ct[13 * s + j] = E[i]
                    c4[13 * s + j] = v + 1
                    cn[s] += 1
                for j in range(cn[s]):
                    v = c4[13 * s + j]
                    # insert v into top (descending)
                    for i in range(4):
                        if v > top[i]:
                            e = top[i]
                            top[i] = v
                            v = e
                    c4[13 * s + j] = top[0] + top[1] + top[2] + top[3]
                    c3[13 * s + j] = top[0] + top[1] + top[2]
                # equal times: the sums at the last card of a time hold for all of them
                for j in range(cn[s] - 2, -1, -1):
                    if ct[13 * s + j] == ct[13 * s + j + 1]:
                        c4[13 * s + j] = c4[13 * s + j + 1]
                        c3[13 * s + j] = c3[13 * s + j + 1]
            m = inplay & ~(1ULL << KD)
            while m:
                y = __builtin_ctzll(m)
                m &= m - 1
                if E[y] <= rp + 1:
                    continue
                tp = self.pay_time(y, E, ct, c4, c3, cn)
                if tp >= NO_WIN:
                    continue
                a = self.court_time(n, y, max(tp, rp), rc, ty) + 1
                if a < E[y] and a <= cap:
                    E[y] = a
                    changed = True
        tp = self.pay_time(KD, E, ct, c4, c3, cn)
        if tp >= NO_WIN:
            return NO_WIN if cap >= NO_WIN else cap + 1
        return self.court_time(n, KD, max(tp, rp), rc, ty)

    # -- the count of acquisitions -----------------------------------------------------------
    cdef int reach(self, int* tops, uint64_t aces, int s, bint royal_king) noexcept nogil:
        """The highest worth of a suit-s card that 4 cards with these per-suit best values can
        acquire (the reference's _reach: its own ace counted as one more)."""
        cdef int best = 0, own4, own3, b
        own4 = tops[4 * s] + tops[4 * s + 1] + tops[4 * s + 2] + tops[4 * s + 3]
        own3 = own4 - tops[4 * s + 3]
        if tops[4 * s]:
            best = own4
            if aces >> s & 1 and own3 + 1 > best:
                best = own3 + 1
        if SPHERE[s] > 0 and not royal_king:
            b = BELOW[s]
            if tops[4 * b]:
                own4 = tops[4 * b] + tops[4 * b + 1] + tops[4 * b + 2] + tops[4 * b + 3]
                own3 = own4 - tops[4 * b + 3]
                if own4 // 2 > best:
                    best = own4 // 2
                if aces >> s & 1 and own3 // 2 + 1 > best:
                    best = own3 // 2 + 1
        return best

    cdef bint ready_within(self, int* tops, uint64_t aces, int* avail, int d) noexcept nogil:
        """Can the K♦ be acquired after at most d acquisitions, when any 4 owned cards make a hand
        and every court card in play can be taken at any turn (the reference's
        acquisitions_needed)? Per suit only the highest card that can be taken is tried."""
        cdef int s, r, v, i, savail
        cdef int saved[4]
        if self.reach(tops, aces, DIAMONDS, self.royal) >= 13:
            return True
        if d == 0:
            return False
        for s in range(4):
            r = self.reach(tops, aces, s, False)
            v = min(r, 12)
            while v >= 2 and not avail[s] >> (v - 1) & 1:
                v -= 1
            if v < 2:
                continue
            for i in range(4):
                saved[i] = tops[4 * s + i]
            savail = avail[s]
            avail[s] &= ~(1 << (v - 1))
            # insert v among the best 4 (descending)
            for i in range(4):
                if v > tops[4 * s + i]:
                    r = tops[4 * s + i]
                    tops[4 * s + i] = v
                    v = r
            if self.ready_within(tops, aces, avail, d - 1):
                for i in range(4):
                    tops[4 * s + i] = saved[i]
                avail[s] = savail
                return True
            for i in range(4):
                tops[4 * s + i] = saved[i]
            avail[s] = savail
        return False

    cdef bint count_allows(self, Node* n, int d) noexcept nogil:
        """False when more than d acquisitions are needed before the K♦ (ready_within)."""
        cdef int tops[16]
        cdef int avail[4]
        cdef uint64_t owned = n.hand | n.pdis, inplay = n.court | n.cdis, aces = 0
        cdef int i, s, v, k
        for i in range(n.dn):
            owned |= 1ULL << n.deck[i]
        for i in range(n.cn):
            inplay |= 1ULL << n.cdeck[i]
        inplay &= ~(1ULL << KD)
        for s in range(4):
            if owned >> (13 * s) & 1:
                aces |= 1ULL << s
            k = 0
            for i in range(4):
                tops[4 * s + i] = 0
            for v in range(12, 0, -1):
                if k < 4 and owned >> (13 * s + v) & 1:
                    tops[4 * s + k] = v + 1
                    k += 1
            avail[s] = <int>((inplay >> (13 * s)) & 0x1FFF)
        return self.ready_within(tops, aces, avail, d)

    # -- the timed plan ----------------------------------------------------------------------
    cdef inline uint64_t court_at(self, Node* n, int tau) noexcept nogil:
        """The court of turn ``tau`` before the next court reshuffle: known (dealt from the deck)."""
        if tau == n.turn:
            return n.court
        return first_cards(n.cdeck + 4 * (tau - n.turn - 1), 4, 4)

    cdef inline int mask_reach(self, uint64_t cards, int s, bint royal_king) noexcept nogil:
        """The highest worth of a suit-s card that some 4 of ``cards`` can acquire (reach() on
        the cards' per-suit best values)."""
        cdef int best = 0, own4, own3, b
        cdef bint ace = cards >> (13 * s) & 1
        own4 = top_sum(cards, s, 4)
        if own4:
            own3 = top_sum(cards, s, 3)
            best = own4
            if ace and own3 + 1 > best:
                best = own3 + 1
        if SPHERE[s] > 0 and not royal_king:
            b = BELOW[s]
            own4 = top_sum(cards, b, 4)
            if own4:
                own3 = top_sum(cards, b, 3)
                if own4 // 2 > best:
                    best = own4 // 2
                if ace and own3 // 2 + 1 > best:
                    best = own3 // 2 + 1
        return best

    cdef inline int forced_reach(self, uint64_t cards, uint64_t forced, int nf, int s, bint royal_king) noexcept nogil:
        """mask_reach when the hand must hold the ``nf`` cards ``forced`` (the cards left in the
        deck at a reshuffle are drawn first) and 4 - nf more of ``cards``."""
        cdef int best = 0, f, b, tot, tota, slots = 4 - nf
        cdef uint64_t rest = cards & ~forced
        cdef bint ace_f = forced >> (13 * s) & 1, ace_r = rest >> (13 * s) & 1
        for f in range(2):
            if f == 0:
                b = s
            else:
                if SPHERE[s] == 0 or royal_king:
                    break
                b = BELOW[s]
            tot = suit_sum(forced, b) + top_sum(rest, b, slots)
            tota = -1
            if ace_f:
                tota = tot
            elif ace_r and slots >= 1:
                tota = suit_sum(forced, b) + top_sum(rest, b, slots - 1)
            if tot > 0:
                best = max(best, tot if f == 0 else tot // 2)
            if tota > 0:
                best = max(best, tota + 1 if f == 0 else tota // 2 + 1)
        return best

    cdef inline int plan_reach(self, Node* n, int tau, int rp, uint64_t usable, int s, bint royal_king) noexcept nogil:
        """What a hand of turn tau >= rp may reach: at rp the cards left in the deck are in it."""
        cdef int nf = n.dn % 4
        if tau == rp and nf:
            return self.forced_reach(usable, first_cards(n.deck + (n.dn - nf), nf, nf), nf, s, royal_king)
        return self.mask_reach(usable, s, royal_king)

    cdef inline bint king_here(self, Node* n, int tau, int rc) noexcept nogil:
        """May the K♦ be in the plan's court of turn tau (known before rc, then king_mask)?"""
        if tau < rc:
            return (self.court_at(n, tau) >> KD & 1) != 0
        return tau - rc >= 63 or (self.king_mask >> (tau - rc)) & 1 != 0

    cdef inline bint king_taken(self, Node* n, int tau, int rp, uint64_t usable, int* reach) noexcept nogil:
        """Can the plan's hand of turn tau take the K♦: the known hand before rp, after it what
        4 usable cards reach (``reach``: mask_reach's per suit, when known)?"""
        if tau < rp:
            return can_take(n.hand if tau == n.turn else self.hand_at(n, tau), KD, self.royal)
        if reach != NULL and not self.royal:
            return reach[DIAMONDS] >= 13
        return self.plan_reach(n, tau, rp, usable, DIAMONDS, self.royal) >= 13

    cdef bint plan_from(self, Node* n, int tau, int T, int rp, int rc, uint64_t usable, uint64_t pending,
                        uint64_t avail, int owned, int reshuffle, int* reach_in) noexcept nogil:
        """The timed plan (timed_allows) from turn ``tau``: ``usable`` the cards a hand of this
        turn may hold from rp on (the owned ones and the cards bought before the last player
        reshuffle), ``pending`` the cards bought since (in the discards until ``reshuffle``, the
        turn of the next player reshuffle), ``avail`` the court cards in play not bought (never
        the K♦), ``owned`` the fewest cards the player can own at this turn, ``reach_in`` per suit
        what a hand reaches (mask_reach of ``usable``) when the caller has it (else NULL)."""
        cdef uint64_t hand = 0, court, m, best, useful
        cdef int c, s, v, r, reshuffles
        cdef bint known = tau < rp, ok
        cdef int reach_now[4]        # per suit, what a hand of this turn reaches (from rp on) ...
        cdef int* reach = reach_in   # ... the caller's while the usable cards are the same
        cdef int* reach_next
        if tau == reshuffle:  # the discards come back; the next reshuffle after floor(owned / 4) turns
            usable |= pending
            pending = 0
            reshuffle = tau + owned // 4
            reach = NULL
        if known:
            hand = n.hand if tau == n.turn else self.hand_at(n, tau)
        elif reach == NULL and tau < T:  # (at T only the K♦ is asked for, below)
            for s in range(4):
                reach_now[s] = self.plan_reach(n, tau, rp, usable, s, False)
            reach = reach_now
        reach_next = NULL if known or tau == rp else reach  # (rp's hand holds the deck's last cards;
                                                             # a caller before rp passes NULL)
        if tau >= rc and tau - rc < 63 and not (self.king_mask >> (tau - rc)) & turns_to(T - tau):
            return False  # the K♦ is not in the court again by T
        if self.king_here(n, tau, rc) and self.king_taken(n, tau, rp, usable, reach):
            return True
        if tau >= T:
            return False
        # a card bought now is in a hand after the next player reshuffle, so it can help only
        # through as many reshuffles as come by T (at most one a turn after the next): a diamond
        # or a spade takes the K♦ after one, a heart buys a spade, a club a heart (royal family:
        # a spade buys a diamond); with none left, nothing bought or passed changes a hand by T
        reshuffles = 0 if reshuffle > T else T - reshuffle + 1
        if reshuffles == 0:
            return self.plan_from(n, tau + 1, T, rp, rc, usable, pending, avail, owned, reshuffle, reach_next)
        useful = avail & (SUITMASK[DIAMONDS] | (SUITMASK[SPADES] if not self.royal else 0))
        if reshuffles >= 2:
            useful |= avail & (SUITMASK[SPADES] | (SUITMASK[HEARTS] if not self.royal else 0))
        if reshuffles >= 3:
            useful |= avail & (SUITMASK[HEARTS] | (SUITMASK[CLUBS] if not self.royal else 0))
        if reshuffles >= 4:
            useful = avail
        if tau < rc:  # the court is known: any card of it the hand can take
            court = self.court_at(n, tau) & useful
            m = court
            best = 0
            while m:
                c = __builtin_ctzll(m)
                m &= m - 1
                if known:
                    ok = can_take(hand, c, False)
                else:
                    ok = reach[c // 13] >= c % 13 + 1
                if ok:
                    best |= 1ULL << c
        else:  # any card in play: per suit the highest the hand can take
            best = 0
            for s in range(4):
                m = useful >> (13 * s) & 0x1FFE  # bit v: the card of value v + 1 (no ace)
                if not known:  # worth v + 1 <= what the hand reaches
                    m &= (1ULL << min(13, reach[s])) - 1
                while m:
                    v = 63 - __builtin_clzll(m)
                    if not known or can_take(hand, 13 * s + v, False):
                        best |= 1ULL << (13 * s + v)
                        break
                    m &= ~(1ULL << v)
        if tau == T - 1:  # the last turn (written out: most of the plan's steps are here and at T)
            if not self.king_here(n, T, rc):
                return False
            if T != reshuffle or not best:  # (what 4 cards reach only grows with the cards)
                return self.king_taken(n, T, rp, usable | pending if T == reshuffle else usable,
                                       NULL if T == reshuffle else reach_next)
            m = best
            while m:
                c = __builtin_ctzll(m)
                m &= m - 1
                if self.king_taken(n, T, rp, usable | pending | (1ULL << c), NULL):
                    return True
            return False
        # a pass (the player owns one card fewer after removing a hand card) can matter only
        # where it may make a later reshuffle sooner: with 8 or more cards
        if not best or owned >= 8:
            if self.plan_from(n, tau + 1, T, rp, rc, usable, pending, avail, max(4, owned - 1), reshuffle, reach_next):
                return True
        m = best
        while m:
            c = __builtin_ctzll(m)
            m &= m - 1
            if self.plan_from(n, tau + 1, T, rp, rc, usable, pending | (1ULL << c), avail & ~(1ULL << c),
                              owned, reshuffle, reach_next):
                return True
        return False

    cdef bint timed_allows(self, Node* n, int T) noexcept nogil:
        """False when no win by turn T exists even in this relaxation (the timed plan, an exact
        cut). A plan buys at most one court card a turn and takes the K♦ at some turn <= T:

        - hands: before the next player reshuffle (rp) the known ones dealt from the deck (an
          intrigue only takes a card away); at rp the cards left in the deck (dn % 4, known) and
          any 4 - dn % 4 others; later any 4 of the usable cards: the owned ones and those bought
          before the last player reshuffle (a bought card waits in the discards for one);
        - player reshuffles: rp, then each after floor(N / 4) turns, N the cards owned at the
          reshuffle (the deck is then all N cards, 4 drawn a turn, reshuffled below 4). The plan's
          N is the fewest possible: every turn a hand card removed unless the player would own
          fewer than 4, so N never grows and its reshuffles come no later than any real line's
          (by induction: a real line's reshuffle at turn u follows its previous one, where the
          plan reshuffled too or later, with at least the plan's N);
        - courts: before the next court reshuffle (rc) the known ones dealt from the court deck
          (an intrigue only takes cards away); from rc on any card in play not bought (a card
          passed over, or in the discards, comes back no sooner than rc), the K♦ too.

        Every real line is such a plan (removals only ever take away, so ignoring which card a
        removal takes keeps every plan), so no plan, no win. Searched: at a known court every
        takable card; from rc on per suit only the highest takable card (taking it now and a
        lower one later, where a plan took them the other way round, holds at least as high
        cards at every turn); a pass only when nothing can be bought or the player owns 8 cards
        or more (below 8, a reshuffle comes every turn whatever N is, so one more usable card
        never hurts: what 4 of them reach only grows)."""
        cdef int t = n.turn, i
        cdef int rp = t + 1 + n.dn // 4
        cdef int rc = t + 1 + n.cn // 4
        cdef uint64_t usable = n.hand | n.pdis, avail = n.court | n.cdis
        for i in range(n.dn):
            usable |= 1ULL << n.deck[i]
        for i in range(n.cn):
            avail |= 1ULL << n.cdeck[i]
        if not avail >> KD & 1:
            return False
        if rc > T or not self.cuts & 32:
            self.king_mask = ~0ULL
        elif not self.king_known:  # (bound, just before on the same node, may have it)
            self.king_mask = self.king_turns_at(n, rc, turns_to(T - rc))
        return self.plan_from(n, t, T, rp, rc, usable, 0, avail & ~(1ULL << KD), popcount(usable), rp, NULL)

    # -- the table ---------------------------------------------------------------------------
    cdef void keys(self, Node* n, int left, uint64_t* ka, uint64_t* kb) noexcept nogil:
        cdef uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL
        cdef int i
        cdef bint player_back = 1 + n.dn // 4 < left
        cdef bint court_back = 1 + n.cn // 4 < left
        cdef uint64_t sizes
        for i in range(n.dn):
            a = mix64(a ^ ZA[n.deck[i]]) + <uint64_t>i
            b = b * 0x100000001B3ULL ^ ZB[n.deck[i]]
        a = mix64(a ^ 0x5555ULL)
        b = b * 0x100000001B3ULL ^ 0xABCDULL
        for i in range(n.cn):
            a = mix64(a ^ ZA[n.cdeck[i]]) + <uint64_t>i
            b = b * 0x100000001B3ULL ^ ZB[n.cdeck[i]]
        a = mix64(a ^ n.hand) ^ mix64(n.court + 0x7777ULL)
        b = (b ^ mix64(n.hand * 3 + 1)) * 0x9E3779B97F4A7C15ULL ^ mix64(n.court * 5 + 2)
        # the discard piles' sizes, even where a pile is left out: the loss below 4 counts them
        sizes = <uint64_t>(popcount(n.pdis) * 64 + popcount(n.cdis))
        a = mix64(a ^ (sizes << 44))
        b = b ^ mix64(sizes * 13 + 0x3333ULL)
        if player_back:
            a = mix64(a ^ n.pdis ^ (<uint64_t>(n.ps + 1) << 56))
            b = mix64(b + n.pdis * 7 + <uint64_t>(n.ps + 1)) ^ 0x1111ULL
        if court_back:
            a = mix64(a ^ n.cdis ^ (<uint64_t>(n.cs + 1) << 57))
            b = mix64(b + n.cdis * 11 + <uint64_t>(n.cs + 1)) ^ 0x2222ULL
        ka[0] = a | (1ULL << 63)
        kb[0] = b

    cdef Entry* probe(self, uint64_t a, uint64_t b) noexcept nogil:
        cdef uint64_t mask = self.capacity - 1
        cdef uint64_t i = (a ^ (a >> 29)) & mask
        while self.table[i].a != 0:
            if self.table[i].a == a and self.table[i].b == b:
                return &self.table[i]
            i = (i + 1) & mask
        return &self.table[i]

    cdef void store(self, uint64_t a, uint64_t b, int left) noexcept nogil:
        cdef Entry* e = self.probe(a, b)
        cdef Entry* old
        cdef uint64_t oldcap, i
        if e.a != 0:
            if left > e.left:
                e.left = left
            return
        if table_full(self.used, self.capacity):
            oldcap = self.capacity
            old = <Entry*>grow_or_clear(<void**>&self.table, &self.capacity, self.max_capacity, sizeof(Entry))
            if old != NULL:
                for i in range(oldcap):
                    if old[i].a != 0:
                        self.probe(old[i].a, old[i].b)[0] = old[i]
                free(old)
            else:
                self.used = 0
            e = self.probe(a, b)
        e.a, e.b, e.left = a, b, left
        self.used += 1

    # -- the search by whole turns -----------------------------------------------------------
    cdef int children(self, Node* n, Child* out) noexcept nogil:
        """Every turn from n (an intrigue and an influence), the highest card acquired first, and
        the intrigues by two court cards before those by a hand card. The K♦ is never removed."""
        cdef int count = 0, i, j, k, c, x
        cdef int8_t court[4]
        cdef int8_t hand[4]
        cdef uint64_t m, removed, h, cl
        cdef int nc = 0, nh = 0
        m = n.court
        while m:
            court[nc] = __builtin_ctzll(m)
            nc += 1
            m &= m - 1
        m = n.hand
        while m:
            hand[nh] = __builtin_ctzll(m)
            nh += 1
            m &= m - 1
        for i in range(nc + nh):
            for j in range(i + 1, nc + nh + 1):
                if i < nc and j < nc:
                    if court[i] == KD or court[j] == KD:
                        continue
                    removed = (1ULL << court[i]) | (1ULL << court[j])
                    x = 0 if self.order_mode != 1 else 40
                elif i >= nc and j == i + 1:
                    removed = 1ULL << hand[i - nc]
                    x = 1 if self.order_mode == 0 else (0 if self.order_mode == 1 else 1 + hand[i - nc] % 13 + (SPHERE[hand[i - nc] // 13] * 13 if self.order_mode == 3 else 0))
                else:
                    continue
                h = n.hand & ~removed
                cl = n.court & ~removed
                m = cl
                while m:
                    c = __builtin_ctzll(m)
                    m &= m - 1
                    if c != KD and can_take(h, c, self.royal):
                        out[count].removed = removed
                        out[count].target = c
                        out[count].order = -(SPHERE[c // 13] * 16 + c % 13 + 1) * 64 + x
                        count += 1
                out[count].removed = removed
                out[count].target = -1
                out[count].order = x
                count += 1
        # insertion sort on order (stable)
        cdef Child tmp
        for i in range(1, count):
            tmp = out[i]
            j = i - 1
            while j >= 0 and out[j].order > tmp.order:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = tmp
        return count

    cdef int cut_bound(self, Node* n, int threshold) noexcept nogil:
        """The fewest turns still possible by the bounds that Search.cuts switches on (bound
        first, then the dearer ones, the cheapest first): threshold + 1 when a cut refutes."""
        cdef int b = self.bound(n, threshold)
        self.last_cut = 1
        if b <= threshold and b != n.turn:  # the dearer bounds, the cheapest first
            self.last_cut = 2
            if self.cuts & 4 and self.cuts & 1 and threshold - n.turn <= self.timed_depth \
                    and not self.timed_allows(n, threshold):
                b = threshold + 1
            elif not self.cuts & 2 and threshold - n.turn < 4 and not self.count_allows(n, threshold - n.turn):
                b = threshold + 1
            else:
                if not self.cuts & 16:
                    b = max(b, self.chain_bound(n, threshold))
                if b <= threshold and not self.cuts & 2 and 4 <= threshold - n.turn < 6 \
                        and not self.count_allows(n, threshold - n.turn):
                    b = threshold + 1
                if b <= threshold and not self.cuts & 4 and self.cuts & 1 and threshold - n.turn <= self.timed_depth \
                        and not self.timed_allows(n, threshold):
                    b = threshold + 1
        return b

    cdef int pairs_refuted(self, Node* n, int target, int threshold, uint64_t mask, int rc) noexcept nogil:
        """Are all of n's children that remove two court cards and acquire ``target`` (-1: none)
        refuted at once? They differ only in which court cards go to the discards: the player's
        side is the same. The child whose intrigue sends them all there (removes none) holds every
        card any of them can buy later, so its cut_bound holds for all, with the K♦'s turns of
        n (``mask``: king_turns counts every intrigue of this turn) for its own, whose counts are
        not theirs; only while the draw does not reshuffle the court (the discards differ). 1: no
        win by threshold for any, 2: all lost (the K♦ out of play, or the draw fails), 0: not shown."""
        cdef Node v = n[0]
        cdef int b
        v.pdis |= n.hand
        v.cdis |= n.court
        if target >= 0:
            v.pdis |= 1ULL << target
            v.cdis &= ~(1ULL << target)
        v.hand = v.court = 0
        v.turn += 1
        self.nodes += 1
        if not self.draw(&v):  # (their court piles are smaller: they cannot draw either)
            return 2
        if v.cs != n.cs:
            return 0
        self.parent_mask, self.parent_rc = mask, rc
        b = self.cut_bound(&v, threshold)
        self.parent_rc = -1
        return 2 if b == NO_WIN else b > threshold

    cdef bint king_safe(self, Node* n, int owned, int court_cards) noexcept nogil:
        """With the K♦ takable at n: an intrigue that keeps it takable and loses nothing (two
        other court cards while the court keeps 4, or a hand card it can do without while the
        player keeps 4; acquiring the K♦ wins, whatever it leaves the court)."""
        cdef uint64_t m = n.hand
        cdef int x
        if court_cards - 2 >= 4:
            return True
        if owned - 1 < 4:
            return False
        while m:
            x = __builtin_ctzll(m)
            m &= m - 1
            if can_take(n.hand & ~(1ULL << x), KD, self.royal):
                return True
        return False

    cdef int dfs(self, Node* n, int threshold, int depth) noexcept nogil:
        """1: a win by turn ``threshold`` (its line in self.line from ``depth``), 0: none, -1:
        a limit stopped the search."""
        cdef int b, left, stored, count, i, r
        cdef uint64_t ka, kb, tried = 0, refuted = 0, mask = ~0ULL, bit
        cdef int rc = n.turn + 1 + n.cn // 4
        cdef Entry* e
        cdef Child kids[MAX_CHILDREN]
        cdef Node child
        cdef bint cut_before, have_mask = False
        cdef int owned = n.dn + popcount(n.pdis) + popcount(n.hand)    # "if at any time": below 4
        cdef int court_cards = n.cn + popcount(n.cdis) + popcount(n.court)  # cards on either side loses
        cdef int kept, sd
        cdef uint64_t opened_before
        self.nodes += 1
        if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
            self.stopped = STOP_TIME
            return -1
        if self.node_budget and self.nodes >= self.node_budget:
            self.stopped = STOP_BUDGET
            return -1
        b = self.cut_bound(n, threshold)
        sd = min(max(threshold - n.turn, 0), 15)
        self.st[0][sd] += 1
        if self.king_known:  # bound's king_turns, complete to the threshold: pairs_refuted's too
            mask, have_mask = self.king_mask, True
        if b == NO_WIN:
            self.st[self.last_cut][sd] += 1
            return 0
        if b > threshold:
            self.st[self.last_cut][sd] += 1
            self.cut = True
            return 0
        if b == n.turn and n.court >> KD & 1 and can_take(n.hand, KD, self.royal) \
                and self.king_safe(n, owned, court_cards):
            self.line_len = depth + 1
            self.line[depth].removed = 0
            self.line[depth].target = KD
            return 1
        left = threshold - n.turn + 1
        self.keys(n, left, &ka, &kb)
        e = self.probe(ka, kb)
        if e.a != 0 and e.left >= left:
            self.st[3][sd] += 1
            if e.left != INF_LEFT:
                self.cut = True
            return 0
        count = self.children(n, kids)
        opened_before = self.st[4][sd - 1 if sd > 0 else 0]
        self.st[4][sd] += 1
        self.st[5][sd] += count
        cut_before = self.cut
        self.cut = False
        for i in range(count):
            # a turn that leaves either side fewer than 4 cards loses at once: no child
            if kids[i].removed & n.hand:
                if owned - 1 < 4:
                    continue
                kept = court_cards
            else:
                kept = court_cards - 2
            if kept - (kids[i].target >= 0) < 4:
                continue
            if self.cuts & 64 and not kids[i].removed & n.hand:  # two court cards removed
                bit = 1ULL << (kids[i].target + 1)
                if not tried & bit:
                    tried |= bit
                    if not have_mask:
                        have_mask = True
                        if rc <= threshold and self.cuts & 32:
                            mask = self.king_turns(n, rc, turns_to(threshold - rc))
                    r = self.pairs_refuted(n, kids[i].target, threshold, mask, rc)
                    if r:
                        self.st[6][sd] += 1
                        refuted |= bit
                        self.cut = self.cut or r == 1
                if refuted & bit:
                    continue
            child = n[0]
            child.pdis |= (n.hand & ~kids[i].removed)
            child.cdis |= (n.court & ~kids[i].removed)
            if kids[i].target >= 0:
                child.pdis |= 1ULL << kids[i].target
                child.cdis &= ~(1ULL << kids[i].target)
            child.hand = 0
            child.court = 0
            child.turn += 1
            if not self.draw(&child):
                continue
            r = self.dfs(&child, threshold, depth + 1)
            if r != 0:
                if r == 1:
                    self.line[depth] = kids[i]
                return r
        if sd > 0 and self.st[4][sd - 1] == opened_before:  # no child opened
            self.st[8 + (n.dn < 4) + 2 * (n.cn < 4)][sd] += 1
        # lost whatever the turns only if nothing was cut and the key holds both discard piles
        self.store(ka, kb, INF_LEFT if not self.cut and 1 + n.dn // 4 < left and 1 + n.cn // 4 < left else left)
        if self.max_states and self.used >= self.max_states:
            self.stopped = STOP_STATES
            return -1
        self.cut = self.cut or cut_before
        return 0

    cdef Node make(self, deck, discard, int shuffles, court_deck, court_discard, int court_shuffles,
                   hand, court, int turn):
        cdef Node n
        cdef int i
        n.dn = len(deck)
        for i in range(n.dn):
            n.deck[i] = deck[i]
        n.cn = len(court_deck)
        for i in range(n.cn):
            n.cdeck[i] = court_deck[i]
        n.pdis = n.cdis = n.hand = n.court = 0
        for c in discard:
            n.pdis |= 1ULL << c
        for c in court_discard:
            n.cdis |= 1ULL << c
        for c in hand:
            n.hand |= 1ULL << c
        for c in court:
            n.court |= 1ULL << c
        n.ps, n.cs, n.turn = shuffles, court_shuffles, turn
        return n

    def bound_of(self, deck, discard, int shuffles, court_deck, court_discard, int court_shuffles, hand, court,
                 int turn):
        """The kernel's lower bound on the turn of the win (NO_WIN: 10000) at an intrigue."""
        cdef Node n = self.make(deck, discard, shuffles, court_deck, court_discard, court_shuffles, hand, court, turn)
        cdef int b = self.bound(&n, NO_WIN)
        if b != n.turn and b != NO_WIN:
            b = max(b, self.chain_bound(&n, NO_WIN))
        if b != n.turn and b != NO_WIN and self.cuts & 1:  # no win by b in the timed plan: none by b
            while b < n.turn + self.timed_depth and not self.timed_allows(&n, b):
                b += 1
        return b

    def king_turns_of(self, deck, discard, int shuffles, court_deck, court_discard, int court_shuffles, hand,
                      court, int turn):
        """(rc, mask): the turn of the next court reshuffle and king_turns' mask (bit i: the K♦
        may be in the court at turn rc + i; bit 63: at every later turn too)."""
        cdef Node n = self.make(deck, discard, shuffles, court_deck, court_discard, court_shuffles, hand, court, turn)
        cdef int rc = n.turn + 1 + n.cn // 4
        return rc, self.king_turns(&n, rc, ~0ULL)

    def within(self, deck, discard, int shuffles, court_deck, court_discard, int court_shuffles, hand, court,
               int turn, int threshold):
        """Is there a win by turn ``threshold`` from this intrigue? (line or None, cut): ``cut``
        says some line was left out for lack of turns (False with no line: no win at all)."""
        cdef Node n = self.make(deck, discard, shuffles, court_deck, court_discard, court_shuffles, hand, court, turn)
        cdef int r
        clock_start(&self.clock)
        self.cut = False
        self.stopped = STOP_NONE
        with nogil:
            r = self.dfs(&n, threshold, 0)
        if r < 0:
            raise Stopped()
        if r == 0:
            return None, bool(self.cut)
        return [(self._cards(self.line[i].removed), self.line[i].target) for i in range(self.line_len)], True

    cdef list _cards(self, uint64_t m):
        out = []
        while m:
            out.append(__builtin_ctzll(m))
            m &= m - 1
        return out


# -- the rules for the tests -------------------------------------------------------------------------
def kernel_can_take(hand, int target, bint royal):
    cdef uint64_t h = 0
    for c in hand:
        h |= 1ULL << c
    return can_take(h, target, royal)


def legal_moves(int step, hand, court, bint royal):
    """The reference's legal moves at an intrigue (step 3) or an influence (step 4): ("remove",
    cards) and ("acquire", using, target) / ("pass",), every set of paying cards counted."""
    cdef list out = []
    cdef uint64_t h = 0
    cdef int c, s, t, ace, step_up, worth, total, v, bits, nb
    cdef list by
    hand = sorted(hand)
    court = sorted(court)
    if step == 3:
        for i in range(len(court)):
            for j in range(i + 1, len(court)):
                out.append(("remove", (court[i], court[j])))
        for c in hand:
            out.append(("remove", (c,)))
        return out
    for t in court:
        ace = (t // 13) * 13
        for s in range(4):
            step_up = SPHERE[t // 13] - SPHERE[s]
            by = [c for c in hand if c // 13 == s and c % 13 != 0]
            if step_up not in (0, 1) or not by:
                continue
            nb = len(by)
            for bits in range(1, 1 << nb):
                total = 0
                for v in range(nb):
                    if bits >> v & 1:
                        total += by[v] % 13 + 1
                for with_ace in ([0, 1] if ace in hand else [0]):
                    worth = t % 13 + 1 - (1 if with_ace else 0)
                    if t == KD and royal and step_up != 0:
                        continue
                    if (step_up == 0 and total >= worth) or (step_up == 1 and total // 2 >= worth):
                        using = tuple(sorted([by[v] for v in range(nb) if bits >> v & 1] + ([ace] if with_ace else [])))
                        out.append(("acquire", using, t))
    out.append(("pass",))
    return out
