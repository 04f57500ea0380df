# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# The paranoid open-hand search of the Foresight deck's trick games (Foresight, Heartburn): the
# same rules as solodeck/games/tricks/rules.py's TrickState, and the same value as
# solvers/paranoid.py (the final score one seat can guarantee against all the others together).
#
# Cards are solodeck's ints (suit * 13 + rank - 1, suits S H D C; 52 the Joker); every holding
# is a 64-bit mask. The search is fail-soft alpha-beta on a do/undo position. Its table holds
# bounds at trick boundaries only (a trick in progress is searched through), by partition search
# (Search.search): an entry serves every position with the same shape (how many cards of each suit
# each holder has, where the Joker is, who leads, whose value it is, in Heartburn what each seat
# has taken) and the same holders of the top cards of each suit its result rested on. In Foresight
# a bound is stored relative to the tricks the seat already has, so positions reached by
# different histories share it. Shapes and patterns are 64-bit hashes: two positions are taken as
# one only if both agree in all 64 bits.

from libc.stdint cimport uint64_t, int16_t, uint8_t, uint16_t, int8_t

cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Zeroed memory for a big table: on Linux an anonymous mapping (pages zeroed as first
       touched), else calloc. Free with tricks_free. */
    static void* tricks_alloc(size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    #else
        return calloc(bytes, 1);
    #endif
    }
    /* Ask for huge pages from now on (Linux): a long search's random probes then miss the TLB
       far less. Not from the start: every huge page a probe first touches is zeroed whole, which
       a short search pays for without gain. */
    static void tricks_huge(void* p, size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (p != NULL) madvise(p, bytes, MADV_HUGEPAGE);
    #endif
    }
    static void tricks_free(void* p, size_t bytes) {
        if (p == NULL) return;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        munmap(p, bytes);
    #else
        free(p);
    #endif
    }
    """
    void* tricks_alloc(size_t bytes) nogil
    void tricks_free(void* p, size_t bytes) nogil
    void tricks_huge(void* p, size_t bytes) nogil
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, Clock, clock_restart, clock_start, clock_expired,
                     capacity_for, mix64, next_random)

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

DEF JOKER = 52
DEF MAXSEATS = 6
DEF INF = 10000

# The cuts a Search may use (``Search.features``, all by default; the tests compare a search with
# each of them against one without, and with the reference)
DEF F_TRUMP_MATCH = 1      # trump_bounds: the target's trumps no other trump can be matched against
DEF F_THEIR_CASH = 2       # cashing_bounds: the quick tricks of another player on lead
DEF F_ASCEND = 4           # value(): Foresight's null-window tests from the bottom up
DEF F_PARTITION = 8        # table entries for every position alike in the cards that mattered
DEF F_POINT_BOUNDS = 16    # heartburn_bounds: the score from the points still out
DEF F_ORDER = 32           # ordered(): the others' leads, and their cards before the target's
DEF F_SHAPE_HINT = 64      # Search.search: with no entry's card, the card of the shape's last search
DEF F_TRICK_SURE = 128     # trick_decided(): in a trick, the target's win or loss of it already sure
DEF F_HB_ORDER = 256       # order_hearts(): Heartburn's own move order
DEF F_TRICK_TRUMPS = 512   # trick_decided(): a sure win, then the trump bound's tricks
DEF F_TRICK_QUICK = 1024   # trick_decided(): a sure win, then the target's quick tricks on lead
DEF F_KILLER = 2048        # Search.search: the others' lead in the suit that last refuted at the same trick
DEF F_PARTNER_LOW = 4096   # ordered(): the others, when a partner holds the trick, a card that does not overtake it first
DEF F_PARTNER_AFTER = 8192 # ordered(): the others, the target played and a partner after can beat it: as if it held it
DEF F_DISCARDS = 16384     # ordered(): the others' discards, from the hand before the Hole, a trump last
DEF F_SKIP_SMALL = 32768   # Search.search: a card below every rank a sibling's result rested on is not searched
DEF F_DIR_WAYS = 65536     # Search.dir_find: DIR_WAYS shapes a directory slot, the least work replaced
DEF F_LATER = 131072       # lead_decided(): at a trick boundary, the coming trick already sure for one side
DEF F_HB_ASCEND = 262144   # value(): Heartburn's first null-window test at the bottom too
DEF F_MY_LEAD = 524288     # ordered(): the target's leads that surely win the trick first
DEF F_MY_SURE = 1048576    # ordered(): the target following, its cards that surely win the trick first
DEF F_KEEP_TRUMPS = 2097152  # ordered(): trumps led, the others' trump that does not take the trick last
DEF F_MY_KEEP = 4194304    # ordered(): the target's trump that does not take the trick last
FEATURES_ALL = (F_MY_KEEP | F_KEEP_TRUMPS | F_MY_SURE | F_MY_LEAD | F_HB_ASCEND | F_LATER
                | F_SKIP_SMALL | F_DIR_WAYS | F_TRUMP_MATCH | F_THEIR_CASH | F_ASCEND | F_PARTITION | F_POINT_BOUNDS | F_ORDER | F_SHAPE_HINT
                | F_TRICK_SURE | F_HB_ORDER | F_TRICK_TRUMPS | F_TRICK_QUICK | F_KILLER | F_PARTNER_LOW
                | F_PARTNER_AFTER | F_DISCARDS)
DEF NO_BOUND = -INF - 1
DEF HB_ORDER_MAX = 9       # order_hearts() for a mover of at most this many cards (hand and Hole)
FEATURES = {"trump_match": F_TRUMP_MATCH, "their_cash": F_THEIR_CASH, "ascend": F_ASCEND,
            "partition": F_PARTITION, "point_bounds": F_POINT_BOUNDS, "order": F_ORDER,
            "shape_hint": F_SHAPE_HINT, "trick_sure": F_TRICK_SURE, "hb_order": F_HB_ORDER,
            "trick_trumps": F_TRICK_TRUMPS, "trick_quick": F_TRICK_QUICK, "killer": F_KILLER,
            "partner_low": F_PARTNER_LOW, "partner_after": F_PARTNER_AFTER,
            "discards": F_DISCARDS, "skip_small": F_SKIP_SMALL, "dir_ways": F_DIR_WAYS,
            "later": F_LATER, "hb_ascend": F_HB_ASCEND, "my_lead": F_MY_LEAD, "my_sure": F_MY_SURE, "keep_trumps": F_KEEP_TRUMPS, "my_keep": F_MY_KEEP}
DEF NONE_RELEVANT = 15     # a relevance threshold above every power: no card of the suit matters
DEF HUGE_AFTER = 2000000   # nodes (of one Search, every call) before it asks for huge pages
DEF BUCKET = 2             # entries looked at for one class (the slot and the next)
DEF KILLER_SLOTS = 20      # Search.killer: one a trick (tricks played so far)
DEF SHAPE_RS = 30          # the relevance vectors a shape's directory remembers
DEF DIR_WAYS = 4           # the shapes a directory slot holds (F_DIR_WAYS; else one, the last stored)

cdef int POWER[53]
cdef int QS = 11          # Q of spades: suit 0, rank 12
cdef int TD = 2 * 13 + 9  # T of diamonds
cdef uint64_t HEARTS = ((<uint64_t>1 << 13) - 1) << 13
cdef uint64_t POINTS = HEARTS | (<uint64_t>1 << 11) | (<uint64_t>1 << (2 * 13 + 9))
cdef uint64_t CLUB_ACE = <uint64_t>1 << 39

cdef int _c
for _c in range(52):
    POWER[_c] = 14 if _c % 13 == 0 else _c % 13 + 1
POWER[JOKER] = 1


ctypedef struct Entry:
    uint64_t key      # the shape (Search.search): which positions may share the entry; 0 empty
    uint64_t pattern  # who holds each of the top r[suit] cards still out of each suit
    int16_t low
    int16_t high
    int16_t best      # the card that decided the last search here (tried first next time), or -1
    uint8_t r[4]
    uint16_t work     # log2 of the nodes searched for it: the entry of least work is replaced


ctypedef struct Directory:
    uint64_t key      # a shape, or 0
    uint16_t r[SHAPE_RS]  # the relevance vectors (4 bits a suit) of its entries (a table entry
    uint16_t n        # of a shape is found by trying each: its slot hashes the shape and pattern)
    uint16_t next     # the one to replace when full
    int8_t hint_suit  # the card that decided the shape's last search stored with a card (as a suit,
    int8_t hint_rank  # and how many of the mover's moves of that suit rank above it), or -1
    uint16_t work     # the most work (Entry.work) of an entry stored for it: the least is replaced


ctypedef fused Replaceable:
    Entry
    Directory


cdef inline int least_work(Replaceable* slots, int n) noexcept nogil:
    """Which of ``n`` slots to claim: the first empty one (key 0), else the one of least work."""
    cdef int j, victim = 0
    for j in range(n):
        if slots[j].key == 0:
            return j
        if slots[j].work < slots[victim].work:
            victim = j
    return victim


cdef inline int popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline int lowest(uint64_t x) noexcept nogil:
    return __builtin_ctzll(x)

cdef inline void sort_by_keys(int* order, int* keys, int n) noexcept nogil:
    """Sort ``order`` by ``keys`` (both reordered), ties kept in place: an insertion sort, for a
    dozen moves at most."""
    cdef int i, j, key, c
    for i in range(1, n):
        key, c, j = keys[i], order[i], i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1], order[j + 1] = keys[j], order[j]
            j -= 1
        keys[j + 1], order[j + 1] = key, c


cdef class Search:
    """``value(...)``: the paranoid value of ``seat`` at a position given as TrickState's fields,
    or None when a limit stopped the search (``stopped``: 1 time, 2 states)."""

    cdef int seats, trump, hearts, target
    cdef int back[53]
    cdef uint64_t back_mask[4]     # the cards whose back shows suit s
    cdef uint64_t same_back[16]    # the cards (not the Joker) whose back shows exactly the suits b
    cdef uint64_t zshape[4 * 1024] # a random number per suit and holder_code
    cdef uint64_t suit_mask[4]     # the cards of suit s in play (the Joker counts as a trump)
    cdef uint64_t zlead[MAXSEATS]
    cdef uint64_t ztarget[MAXSEATS]
    cdef uint64_t hand[MAXSEATS]
    cdef uint64_t hole[MAXSEATS]
    cdef int trick[MAXSEATS]
    cdef int ntrick, leader, broken, first
    cdef int tricks[MAXSEATS]
    cdef int hearts_taken[MAXSEATS]
    cdef int queen_taken[MAXSEATS]
    cdef int ten_taken[MAXSEATS]
    cdef uint64_t rules_hash
    cdef int owner[53]             # where each card lies: 1 + 2 * seat + (1 in the Hole), 0 once played
    cdef Entry* table
    cdef Directory* directory
    cdef uint64_t dir_capacity
    cdef uint64_t capacity, used, max_states
    cdef Clock clock
    cdef public uint64_t nodes
    cdef public int stopped
    cdef public int features
    cdef public uint64_t node_limit  # nodes a value() may search (0: no limit; a stop as by time),
    cdef uint64_t node_stop          # for measures that the machine's load leaves alone
    cdef readonly int proven_low, proven_high  # value(): the range the value is proven to lie in (a stop leaves it open)
    cdef int rel[4]                # the relevance of the last search (Search.search)
    cdef int low_thr[4]            # the relevance (Search.search) of the last static bounds:
    cdef int high_thr[4]           # of the lower, of the upper one
    cdef int run_stop              # top_run(): the relevance its count rests on
    cdef int minus_one             # safe_leads(): the seats whose hands count one card fewer
    cdef uint64_t merged           # reduced(): the moves kept for a set of more than one card
    cdef int group_top[53]         # reduced(): for each of those, the set's highest card
    cdef int killer[KILLER_SLOTS]  # per trick (tricks played so far): the suit of the others' last
                                   # lead that cut off there, or -1

    def __cinit__(self, double memory_mb=1024.0, double time_limit=0.0, long long max_states=0):
        cdef uint64_t rng = 0x5EED7A1C
        cdef int c, l
        for l in range(MAXSEATS):
            self.zlead[l] = next_random(&rng)
            self.ztarget[l] = next_random(&rng)
        from solodeck.games.tricks.rules import BACKS
        for c in range(53):
            self.back[c] = BACKS[c]
        for l in range(16):
            self.same_back[l] = 0
        for l in range(4 * 1024):
            self.zshape[l] = next_random(&rng)
        for c in range(52):
            self.same_back[self.back[c]] |= <uint64_t>1 << c
        self.capacity = capacity_for(memory_mb * 0.75, sizeof(Entry), 1 << 12)
        self.table = <Entry*> tricks_alloc(self.capacity * sizeof(Entry))
        self.dir_capacity = capacity_for(memory_mb * 0.25, sizeof(Directory), 1 << 10)
        self.directory = <Directory*> tricks_alloc(self.dir_capacity * sizeof(Directory))
        if self.table == NULL or self.directory == NULL:
            raise MemoryError()
        self.used = 0
        self.max_states = max_states
        self.nodes = 0
        self.stopped = STOP_NONE
        self.features = FEATURES_ALL
        clock_restart(&self.clock, time_limit)

    def __dealloc__(self):
        tricks_free(self.table, self.capacity * sizeof(Entry))
        tricks_free(self.directory, self.dir_capacity * sizeof(Directory))

    @property
    def stored(self):
        return self.used

    def restart_clock(self, time_limit=None):
        clock_restart(&self.clock, self.clock.limit if time_limit is None else time_limit)

    cdef setup(self, int seats, int trump, bint hearts, hands, holes, int leader, trick, taken, tricks,
                    bint broken, bint first):
        cdef int s, c
        cdef uint64_t t
        self.seats, self.trump, self.hearts = seats, trump, hearts
        # the rules are part of every key, so one table serves every trump and both games
        self.rules_hash = mix64(<uint64_t>(seats * 16 + (trump + 1) * 2 + hearts) + 0x5851F42D4C957F2DULL)
        for s in range(4):
            self.back_mask[s] = 0
            self.suit_mask[s] = ((<uint64_t>1 << 13) - 1) << (13 * s)
        if trump >= 0:
            self.suit_mask[trump] |= <uint64_t>1 << JOKER
        for c in range(53):
            for s in range(4):
                if self.back[c] >> s & 1:
                    self.back_mask[s] |= <uint64_t>1 << c
        for c in range(53):
            self.owner[c] = 0
        for s in range(seats):
            self.hand[s] = hands[s]
            self.hole[s] = holes[s]
            self.tricks[s] = tricks[s]
            t = taken[s]
            self.hearts_taken[s] = popcount(t & HEARTS)
            self.queen_taken[s] = <int>(t >> QS & 1)
            self.ten_taken[s] = <int>(t >> TD & 1)
            for c in range(53):
                if self.hand[s] >> c & 1:
                    self.owner[c] = 1 + 2 * s
                if self.hole[s] >> c & 1:
                    self.owner[c] = 2 + 2 * s
        self.ntrick = len(trick)
        for s in range(self.ntrick):
            self.trick[s] = trick[s]
        self.leader, self.broken, self.first = leader, broken, first
        for s in range(KILLER_SLOTS):
            self.killer[s] = -1

    def value(self, int seats, int trump, bint hearts, hands, holes, int leader, trick, taken, tricks,
              bint broken, bint first, int seat, int low, int high, int probe=0):
        """The value, known to lie in [low, high], found by null-window tests (MTD(f)-style
        bisection): each asks only "is it at least t?", which alpha-beta cuts far more than a
        full window, and every test's bounds stay in the table for the next. ``probe``: the
        first test's t instead of the usual one (0), e.g. one from the top so that a search a
        limit stops has proved an upper bound too."""
        self.setup(seats, trump, hearts, hands, holes, leader, trick, taken, tricks, broken, first)
        self.target = seat
        self.stopped = STOP_NONE
        clock_start(&self.clock)
        self.node_stop = self.nodes + self.node_limit if self.node_limit else 0
        cdef int t, v, low0, bl, bh
        bl, bh = self.root_bounds()  # proofs that cost nothing: a stopped search still has them
        if bl > low:
            low = min(bl, high)
        if bh < high:
            high = max(bh, low)
        low0 = low
        self.proven_low, self.proven_high = low, high
        while low < high:
            # Foresight from the bottom up: the static bounds settle the first tests at once, and the
            # values are mostly near the bottom (a seat against three), so few tests follow; the
            # tests that fail near the value are the dear ones, and from the top down each of them
            # is paid for (whole hands, 7 seats: 31M nodes from the top down, 15M from the bottom up)
            # Heartburn: the first test at the bottom (most seats are held to 0), then halving
            # (whole hands, seats decided by both: 4.30M -> 3.12M nodes; 10 cards 3.04M -> 1.56M)
            t = low + 1 if (self.features & F_ASCEND if not hearts else self.features & F_HB_ASCEND and low == low0) \
                else (low + high + 1) // 2
            if low < probe <= high:
                t, probe = probe, 0
            v = self.search(t - 1, t)
            if self.stopped != STOP_NONE:
                return None
            if v >= t:
                low = v if v < high else high
            else:
                high = v if v > low else low
            self.proven_low, self.proven_high = low, high
        return low

    cdef (int, int) root_bounds(self) noexcept nogil:
        """The static bounds of search() at a trick boundary (else none)."""
        cdef int left = 0, s, bl, bh
        if self.ntrick:
            return -INF, INF
        for s in range(self.seats):
            left += popcount(self.hand[s] | self.hole[s])
        if left == 0:
            return self.final_score(), self.final_score()
        if self.hearts:
            if self.features & F_POINT_BOUNDS:
                return self.heartburn_bounds()
            return -INF, INF
        bl, bh = self.trump_bounds(self.tricks[self.target], left // self.seats)
        return self.cashing_bounds(bl, bh)

    def legal_moves(self, int seats, int trump, bint hearts, hands, holes, int leader, trick, taken, tricks,
                    bint broken, bint first):
        """The legal cards of the seat on turn (the kernel-moves contract test)."""
        self.setup(seats, trump, hearts, hands, holes, leader, trick, taken, tricks, broken, first)
        cdef uint64_t m = self.playable((leader + self.ntrick) % seats)
        out = []
        while m:
            out.append(lowest(m))
            m &= m - 1
        return out

    # -- rules ---------------------------------------------------------------------------------
    cdef inline int effective_suit(self, int card) noexcept nogil:
        return self.trump if card == JOKER else card // 13

    cdef uint64_t playable(self, int seat) noexcept nogil:
        cdef uint64_t hand = self.hand[seat], hole = self.hole[seat], in_suit, allowed, clubs
        cdef int led
        if self.ntrick == 0:
            if not self.hearts:
                return hand | hole
            if self.first:
                clubs = hand & self.suit_mask[3]
                if clubs == 0:
                    return hand | hole
                if clubs & ~CLUB_ACE:
                    clubs &= ~CLUB_ACE
                return clubs & (~clubs + 1)
            if self.broken or not (hand & ~HEARTS):
                return hand | hole
            return (hand & ~HEARTS) | hole
        led = self.effective_suit(self.trick[0])
        in_suit = hand & self.suit_mask[led] if led >= 0 else 0
        if in_suit:
            allowed = in_suit | (hole & self.back_mask[led])
        else:
            allowed = hand | hole
        if self.hearts and self.first and (hand & ~POINTS):
            allowed &= ~(hand & POINTS)
            if not allowed:
                allowed = in_suit
        return allowed

    cdef int holding(self, int led, int* top) noexcept nogil:
        """The place in the trick (so far) of the card that holds it, the first of the strongest;
        its strength() in ``top`` (-1 and place 0 before any card)."""
        cdef int i, k, place = 0
        top[0] = -1
        for i in range(self.ntrick):
            k = self.strength(self.trick[i], led)
            if k > top[0]:
                top[0], place = k, i
        return place

    cdef int points(self, int s) noexcept nogil:
        return self.hearts_taken[s] + 13 * self.queen_taken[s] - 10 * self.ten_taken[s]

    cdef int final_score(self) noexcept nogil:
        cdef int s, top = -INF, p
        if not self.hearts:
            return self.tricks[self.target]
        for s in range(self.seats):
            if self.hearts_taken[s] == 13 and self.queen_taken[s]:
                return 26 if s == self.target else 0
        for s in range(self.seats):
            p = self.points(s)
            if p > top:
                top = p
        if self.hearts_taken[self.target] or self.queen_taken[self.target]:
            return top - self.points(self.target)
        return 0

    # -- moves: one card of each set of equivalent cards, as TrickState.search_moves ------------
    cdef uint64_t reduced(self, int seat, uint64_t allowed) noexcept nogil:
        cdef uint64_t in_play = 0, out, keep = 0, group, rest
        cdef int s, suit, c, prev, p, between_ok, q, kept = -1
        self.merged = 0
        for s in range(self.seats):
            in_play |= self.hand[s] | self.hole[s]
        for s in range(self.ntrick):
            in_play |= <uint64_t>1 << self.trick[s]
        out = self.hand[seat] | self.hole[seat] | ~in_play
        if allowed >> JOKER & 1:
            keep |= <uint64_t>1 << JOKER
        rest = allowed & ~(<uint64_t>1 << JOKER)
        while rest:  # one group at a time: the hand's cards, or the Hole cards of one back
            c = lowest(rest)
            if self.hand[seat] >> c & 1:
                group = rest & self.hand[seat]
            else:
                group = rest & ~self.hand[seat] & self.same_back[self.back[c]]
            rest &= ~group
            for suit in range(4):
                prev = -1
                for p in range(2, 15):  # ascending power within the suit
                    c = suit * 13 + (0 if p == 14 else p - 1)
                    if not group >> c & 1:
                        continue
                    if prev >= 0 and self.card_points(prev) == self.card_points(c):
                        between_ok = 1
                        for q in range(POWER[prev] + 1, p):
                            if not out >> (suit * 13 + (0 if q == 14 else q - 1)) & 1:
                                between_ok = 0
                                break
                        if between_ok:
                            prev = c
                            self.merged |= <uint64_t>1 << kept
                            self.group_top[kept] = c
                            continue
                    keep |= <uint64_t>1 << c
                    kept = c
                    prev = c
        return keep

    cdef inline int card_points(self, int c) noexcept nogil:
        if not self.hearts:
            return 0
        if c == QS:
            return 13
        if c == TD:
            return -10
        return 1 if c // 13 == 1 else 0

    # -- the search ----------------------------------------------------------------------------
    cdef inline uint64_t holder_code(self, int c) noexcept nogil:
        """Who holds card ``c`` as far as play can tell: the seat, hand or Hole (a Hole card with
        its back, which says which leads it may follow), and in Heartburn its points."""
        cdef uint64_t code = <uint64_t>self.owner[c]
        if not self.owner[c] & 1:
            code |= <uint64_t>self.back[c] << 4
        if self.hearts:  # the points: 0, a heart's, the Q♠'s, the T♦'s
            code |= <uint64_t>(1 if c // 13 == 1 else 2 if c == QS else 3 if c == TD else 0) << 8
        return code

    cdef uint64_t shape(self, uint64_t* ph, int* pw, int* count) noexcept nogil:
        """The position's shape: how many cards of each suit each holder (holder_code) has, where
        the Joker lies; and, suit by suit, the cards still out from the top: ``pw[13 * suit + i]``
        the power of the i-th highest, ``ph[14 * suit + i]`` a hash of the holders of the i
        highest (the pattern of a table entry, Search.pattern), ``count[suit]`` how many."""
        cdef uint64_t shape = 0x9E3779B97F4A7C15ULL, h, code, out = 0, bits
        cdef int suit, p, c, n, b
        for n in range(self.seats):
            out |= self.hand[n] | self.hole[n]
        for suit in range(4):
            h = 0xCBF29CE484222325ULL + <uint64_t>suit
            n = 0
            ph[14 * suit] = h
            bits = out >> (13 * suit) & 0x1FFF
            while bits:  # the Ace (bit 0) first, then from the King (bit 12) down
                b = 0 if bits & 1 else 63 - __builtin_clzll(bits)
                bits &= ~(<uint64_t>1 << b)
                c = suit * 13 + b
                p = 14 if b == 0 else b + 1
                code = self.holder_code(c)
                shape += self.zshape[suit * 1024 + code]  # a sum: a multiset of (suit, holder)
                h = (h ^ code) * 0x100000001B3ULL
                pw[13 * suit + n] = p
                n += 1
                ph[14 * suit + n] = h
            count[suit] = n
        return mix64(shape ^ (<uint64_t>self.owner[JOKER] << 56))

    cdef inline uint64_t pattern(self, uint64_t* ph, uint8_t* r) noexcept nogil:
        return mix64(ph[r[0]] ^ (ph[14 + r[1]] << 13 | ph[14 + r[1]] >> 51)
                     ^ (ph[28 + r[2]] << 29 | ph[28 + r[2]] >> 35) ^ (ph[42 + r[3]] << 43 | ph[42 + r[3]] >> 21)
                     ^ (<uint64_t>(r[0] | r[1] << 4 | r[2] << 8 | r[3] << 12) * 0xD6E8FEB86659FD93ULL))

    cdef uint64_t summary(self) noexcept nogil:
        """What the value depends on beside the cards and the leader: Heartburn's takes."""
        cdef uint64_t packed = 0
        cdef int s
        if not self.hearts:
            return 0
        for s in range(self.seats):
            packed = packed << 6 | <uint64_t>(self.hearts_taken[s] << 2 | self.queen_taken[s] << 1 | self.ten_taken[s])
        packed = packed << 2 | <uint64_t>(self.broken << 1 | self.first)
        return mix64(packed + 0x9E3779B97F4A7C15ULL)

    cdef int search(self, int alpha, int beta):
        """Fail-soft alpha-beta; besides the value it leaves in ``self.rel`` its *relevance*: per
        suit a power such that the result holds for every position that differs from this one
        only below it (partition search, Ginsberg; bridge solvers' "winning ranks").

        Why that is sound. Take two positions A and B at a trick boundary with the same shape
        (Search.shape: per suit, the same number of cards with each holder, the Joker with the
        same holder; the same leader, target and takes) and the same holders of the top r cards
        of each suit still out. Pair each card of A with one of B: the top r by place, the others
        (the "small" ones) of each holder and suit in rank order. Paired cards have the same
        suit, holder, back and points, so the same cards are legal, and a line of play in A is a
        line in B. A trick ends alike in both unless it was won by rank against a card of the
        same suit with a small card; so the winner of such a trick is made relevant (with every
        card above it: relevance is a top segment of a suit, which the pairing keeps in order).
        Cards that only decided by rank in a bound are made relevant with it: the static bounds
        (their suits whole), a table entry (its r), Heartburn's first trick (everything: its lead
        is the lowest club). A node's result rests on all its moves unless one cut off (then on
        that one only); a move that stood for a set of equivalent cards stood for cards that are
        alike in A only, so its own rank is made relevant (and every card of the set with it).
        The entry is stored for the shape, r and the holders of those r cards: it holds for every
        B so paired with A."""
        cdef int seat, i, v, best, a, b, low, high, base, left, c, maximising, n, s, decided = -1, j
        cdef int bl, bh, cut = 0, hint = -1, hinted = 0, slot = -1
        cdef int order[53]
        cdef int gtop[53]
        cdef int rel[4]
        cdef int lrel[4]
        cdef int hrel[4]
        cdef int all_rel[4]
        cdef int pw[52]
        cdef int count[4]
        cdef uint64_t ph[56]
        cdef uint8_t r[4]
        cdef uint64_t moves, merged, bits, key = 0, pat, nodes_before = self.nodes
        cdef Entry* e
        cdef Entry* bucket
        cdef Directory* d = NULL
        cdef int k, stored = 0, fresh = 0, low_used = 0, high_used = 0, nsearched = 0, skip
        cdef uint16_t packed
        cdef int done_card[53]          # the moves searched so far (F_SKIP_SMALL): each card and
        cdef int done_rel[53]           # the relevance of its suit in the result below it
        self.nodes += 1
        if self.nodes == HUGE_AFTER:  # a long search: huge pages from now on
            tricks_huge(self.table, self.capacity * sizeof(Entry))
            tricks_huge(self.directory, self.dir_capacity * sizeof(Directory))
        for s in range(4):
            rel[s] = NONE_RELEVANT
            all_rel[s] = NONE_RELEVANT
            lrel[s] = NONE_RELEVANT
            hrel[s] = NONE_RELEVANT
        if clock_expired(&self.clock, self.nodes, 1023) or (self.node_stop and self.nodes >= self.node_stop):
            self.stopped = STOP_TIME
        if self.stopped != STOP_NONE:
            return 0
        seat = (self.leader + self.ntrick) % self.seats
        if self.ntrick > 0 and not self.hearts and self.features & F_TRICK_SURE:
            v = self.trick_decided(alpha, beta)
            if v != NO_BOUND:
                return v
        base = 0
        low, high = -INF, INF
        if self.ntrick == 0:
            left = 0
            for i in range(self.seats):
                left += popcount(self.hand[i] | self.hole[i])
            if left == 0:
                self.set_rel(rel)
                return self.final_score()
            if self.hearts and self.first:  # its lead is the lowest club: every rank matters
                for s in range(4):
                    rel[s] = 2
            if self.hearts and self.features & F_POINT_BOUNDS:
                low, high = self.heartburn_bounds()  # (they rest on no rank)
            if not self.hearts:  # Foresight: the seat ends with between its tricks and all the rest
                base = self.tricks[self.target]
                left //= self.seats  # (tricks left)
                if base >= beta or base + left <= alpha:
                    # settled by the count alone, before any bound or table probe (no rank mattered)
                    self.set_rel(rel)
                    return base if base >= beta else base + left
                for s in range(4):
                    self.low_thr[s] = self.high_thr[s] = NONE_RELEVANT
                bl, bh = self.trump_bounds(base, left)
                low, high = self.cashing_bounds(bl, bh)
                for s in range(4):
                    lrel[s] = self.low_thr[s]
                    hrel[s] = self.high_thr[s]
                if self.features & F_LATER and low < beta and high > alpha:
                    v = self.lead_decided(base, left, alpha, beta)
                    if v != NO_BOUND:
                        return v
            key = (mix64(self.shape(ph, pw, count) ^ self.rules_hash) ^ self.zlead[self.leader]
                   ^ self.ztarget[self.target] ^ self.summary()) | 1
            d = self.dir_find(key, 0)
            for k in range(d.n if d != NULL else 0):
                for s in range(4):
                    r[s] = d.r[k] >> (4 * s) & 15
                pat = self.pattern(ph, r)
                e = self.find(key, pat)
                if e == NULL:
                    continue
                bl = e.low + base if e.low > -INF else -INF
                bh = e.high + base if e.high < INF else INF
                if bl > low:  # the best lower bound so far: it rests on this entry's ranks alone
                    low = bl
                    for s in range(4):
                        lrel[s] = pw[13 * s + e.r[s] - 1] if e.r[s] else NONE_RELEVANT
                if bh < high:
                    high = bh
                    for s in range(4):
                        hrel[s] = pw[13 * s + e.r[s] - 1] if e.r[s] else NONE_RELEVANT
                if e.best >= 0:
                    hint = e.best
            # A bound that cuts is all the result rests on; one that narrows the window, or is
            # stored, is part of it; one that does neither is left out (its ranks do not matter).
            if low >= beta or low == high:
                for s in range(4):
                    rel[s] = min(rel[s], lrel[s] if low >= beta else min(lrel[s], hrel[s]))
                self.set_rel(rel)
                return low
            if high <= alpha:
                for s in range(4):
                    rel[s] = min(rel[s], hrel[s])
                self.set_rel(rel)
                return high
            low_used, high_used = low > alpha, high < beta
            if not low_used:
                low = -INF
            if not high_used:
                high = INF
            alpha, beta = max(alpha, low), min(beta, high)
            stored = 1
        a, b = alpha, beta
        maximising = seat == self.target
        best = -INF if maximising else INF
        moves = self.reduced(seat, self.playable(seat))
        merged = self.merged
        bits = merged
        while bits:
            i = lowest(bits)
            bits &= bits - 1
            gtop[i] = self.group_top[i]
        n = self.ordered(seat, moves, order)
        if hint >= 0:  # the card that decided here last time first
            hinted = 1
            for i in range(1, n):
                if order[i] == hint:
                    order[0], order[i] = order[i], order[0]
                    break
        if hint < 0 and d != NULL and d.key == key and d.hint_suit >= 0 and self.features & F_SHAPE_HINT:
            # no entry of this class knows a card (its cards differ below the ranks that mattered,
            # or it was never searched): the card in the same place as the one that decided the
            # shape's last search, first (an order only: the value cannot change). The search's
            # waste is mostly the others' leads tried before one that refutes.
            bits = self.by_power(moves, d.hint_suit)
            k = popcount(bits) - 1 - d.hint_rank
            while bits and k > 0:
                bits &= bits - 1
                k -= 1
            if bits and k == 0:
                k = lowest(bits)  # a power - 1
                c = (JOKER if k == 0 else d.hint_suit * 13 + (0 if k == 13 else k))
                hinted = 1
                for i in range(1, n):
                    if order[i] == c:
                        order[0], order[i] = order[i], order[0]
                        break
        if self.ntrick == 0 and seat != self.target and self.features & F_KILLER:
            # the others' lead (the killer heuristic): the suit of their last lead that refuted at
            # the same trick elsewhere in the tree, first after any hint (an order only: the value
            # cannot change). Their wrong first leads are mostly in another suit than the one that
            # refutes, and siblings are often refuted alike.
            slot = 0
            for i in range(self.seats):
                slot += self.tricks[i]
            if slot >= KILLER_SLOTS:
                slot = -1
            elif self.killer[slot] >= 0:
                for i in range(hinted, n):
                    if self.effective_suit(order[i]) == self.killer[slot]:
                        c = order[i]
                        for j in range(i, hinted, -1):
                            order[j] = order[j - 1]
                        order[hinted] = c
                        break
        decided = order[0] if n else -1
        for i in range(n):
            c = order[i]
            if nsearched and self.features & F_SKIP_SMALL and self.small_sibling(seat, c, gtop[c] if merged >> c & 1 else c,
                                                                                 done_card, done_rel, nsearched):
                continue
            v = self.play_and_search(seat, c, a, b)
            if self.stopped != STOP_NONE:
                return 0
            if merged >> c & 1 and self.rel[c // 13] <= POWER[gtop[c]] and POWER[c] < self.rel[c // 13]:
                self.rel[c // 13] = POWER[c]
            if c != JOKER:
                done_card[nsearched] = c
                done_rel[nsearched] = self.rel[c // 13]
                nsearched += 1
            for s in range(4):
                if self.rel[s] < all_rel[s]:
                    all_rel[s] = self.rel[s]
            if maximising:
                if v > best:
                    best, decided = v, c
                if v > a:
                    a = v
            else:
                if v < best:
                    best, decided = v, c
                if v < b:
                    b = v
            if a >= b:
                cut = 1
                if slot >= 0:
                    self.killer[slot] = self.effective_suit(c)
                break
        # cut off: the result rests on the last move (its relevance is in self.rel); else on all
        for s in range(4):
            if not cut and all_rel[s] < rel[s]:
                rel[s] = all_rel[s]
            elif cut and self.rel[s] < rel[s]:
                rel[s] = self.rel[s]
            if low_used and lrel[s] < rel[s]:
                rel[s] = lrel[s]
            if high_used and hrel[s] < rel[s]:
                rel[s] = hrel[s]
        if stored:
            if best >= beta:
                low = max(low, best)
            elif best <= alpha:
                high = min(high, best)
            else:
                low = high = best
            for s in range(4):
                if not self.features & F_PARTITION:
                    rel[s] = 2
                r[s] = 0
                while r[s] < count[s] and pw[13 * s + r[s]] >= rel[s]:
                    r[s] += 1
            pat = self.pattern(ph, r)
            e = self.find(key, pat)  # the same class again: both bounds hold for all of it
            if e != NULL:
                bl = e.low + base if e.low > -INF else -INF
                bh = e.high + base if e.high < INF else INF
                low, high = max(low, bl), min(high, bh)
            else:  # else an empty entry, else the one of least work
                bucket = &self.table[mix64(key ^ pat) & (self.capacity - BUCKET)]
                e = &bucket[least_work(bucket, BUCKET)]
                fresh = 1
                packed = <uint16_t>(r[0] | r[1] << 4 | r[2] << 8 | r[3] << 12)
                if d == NULL or d.key != key:  # the shape's directory (it may have been replaced below)
                    d = self.dir_find(key, 1)
                for k in range(d.n):
                    if d.r[k] == packed:
                        break
                else:
                    if d.n < SHAPE_RS:
                        d.r[d.n] = packed
                        d.n += 1
                    else:
                        d.r[d.next] = packed
                        d.next = (d.next + 1) % SHAPE_RS
                if e.key == 0:
                    self.used += 1
                    if self.max_states and self.used >= self.max_states:
                        self.stopped = STOP_STATES
                e.key = key
                e.pattern = pat
                for s in range(4):
                    e.r[s] = r[s]
            # a move that cut off, or was best in an exact result; not where every move failed (the
            # target's all below alpha, the others' all above beta): that "best" means little
            if best > alpha if maximising else best < beta:
                e.best = <int16_t>decided
                if decided >= 0 and d != NULL and d.key == key:
                    k = self.effective_suit(decided)  # (-1: the Joker without trumps, no hint)
                    d.hint_suit = <int8_t>k
                    if k >= 0:
                        bits = self.by_power(moves, k) & ~((<uint64_t>2 << (POWER[decided] - 1)) - 1)
                        d.hint_rank = <int8_t>popcount(bits)
            elif fresh:
                e.best = -1
            e.work = <uint16_t>(64 - __builtin_clzll(self.nodes - nodes_before))
            if d != NULL and d.key == key and e.work > d.work:
                d.work = e.work
            e.low = <int16_t>max(-INF, low - base) if low > -INF else -INF
            e.high = <int16_t>min(INF, high - base) if high < INF else INF
        self.set_rel(rel)
        return best

    cdef inline int small_sibling(self, int seat, int c, int top, int* done_card, int* done_rel, int n) noexcept nogil:
        """Is move ``c`` (standing for the cards of its set up to ``top``) one already searched in
        effect (F_SKIP_SMALL; DDS's winning ranks, after Kuijf)? It is when a card searched before
        it, from the same holding (the hand, or Hole cards of the same back) and suit and of the
        same points, and the whole set of ``c``, lie below the relevance of that card's result:
        the two positions after them differ only below it (the two cards swap places, with the
        same holder), so the same result holds for ``c``, resting on the same ranks, and it
        cannot be better for the mover than the one already had (the window only narrowed)."""
        cdef int i, d, suit
        cdef uint64_t group
        if c == JOKER:
            return 0
        suit = c // 13
        if self.hand[seat] >> c & 1:
            group = self.hand[seat]
        else:
            group = self.hole[seat] & self.same_back[self.back[c]]
        for i in range(n):
            d = done_card[i]
            if d // 13 == suit and POWER[d] < done_rel[i] and POWER[top] < done_rel[i] and group >> d & 1 \
                    and self.card_points(d) == self.card_points(c):
                return 1
        return 0

    cdef inline uint64_t by_power(self, uint64_t m, int suit) noexcept nogil:
        """The cards of ``m`` in ``suit`` (the Joker with the trumps) as a mask of powers: bit
        power - 1 (the Joker bit 0, the 2 bit 1, ..., the Ace bit 13)."""
        cdef uint64_t b = m >> (13 * suit) & 0x1FFF
        b = (b >> 1 | (b & 1) << 12) << 1
        if suit == self.trump and m >> JOKER & 1:
            b |= 1
        return b

    cdef Directory* dir_find(self, uint64_t key, bint claim) noexcept nogil:
        """The directory of shape ``key``, or NULL; with ``claim``, made if missing in place of
        an empty one, else of the one of least work in the slot (F_DIR_WAYS; else a slot holds
        one shape, the last one claimed)."""
        cdef int ways = DIR_WAYS if self.features & F_DIR_WAYS else 1, j
        cdef Directory* slot = &self.directory[(key >> 20) & (self.dir_capacity - <uint64_t>ways)]
        for j in range(ways):
            if slot[j].key == key:
                return &slot[j]
        if not claim:
            return NULL
        slot = &slot[least_work(slot, ways)]
        slot.key, slot.n, slot.next, slot.work = key, 0, 0, 0
        slot.hint_suit = -1
        return slot

    cdef inline Entry* find(self, uint64_t key, uint64_t pat) noexcept nogil:
        cdef Entry* bucket = &self.table[mix64(key ^ pat) & (self.capacity - BUCKET)]
        cdef int j
        for j in range(BUCKET):
            if bucket[j].key == key and bucket[j].pattern == pat:
                return &bucket[j]
        return NULL

    cdef inline void set_rel(self, int* rel) noexcept nogil:
        cdef int s
        for s in range(4):
            self.rel[s] = rel[s]

    cdef (int, int) heartburn_bounds(self) noexcept nogil:
        """Bounds on the target's Heartburn score at a trick boundary from the points still out
        (H hearts, the Q♠ if out, the T♦ if out), which only cards' holders decide (so they need no
        relevance). With no point card left the score is decided. Else, in a hand nobody shoots,
        the score is 0 unless the target takes a heart or the Q♠, and then top - own: the top is
        at most the best of the others now plus H + 13 (all of it to one of them) or else the
        target's own (a score of 0), at least the best of the others now less 10 (the T♦); its own
        at most its points now plus H + 13, at least its points now less 10. A target that can
        still shoot (no one else took a heart or the Q♠) may score 26; when another still can, the
        target may score 0."""
        cdef uint64_t out = 0
        cdef int s, h, q, d, top = -INF, own, hi, lo, moon_me = 1, moon_other = 0, took_bad, plus, t
        for s in range(self.seats):
            out |= self.hand[s] | self.hole[s]
        if not out & POINTS:
            return self.final_score(), self.final_score()
        h = popcount(out & HEARTS)
        q = <int>(out >> QS & 1)
        d = <int>(out >> TD & 1)
        own = self.points(self.target)
        took_bad = self.hearts_taken[self.target] or self.queen_taken[self.target]
        for s in range(self.seats):
            if s != self.target:
                if self.points(s) > top:
                    top = self.points(s)
                if self.hearts_taken[s] or self.queen_taken[s]:
                    moon_me = 0
                    # another seat may still shoot if it took every bad card taken so far
                    moon_other = 1
                    for t in range(self.seats):
                        if t != s and (self.hearts_taken[t] or self.queen_taken[t]):
                            moon_other = 0
        if not took_bad:
            for s in range(self.seats):
                if self.hearts_taken[s] or self.queen_taken[s]:
                    break
            else:
                moon_other = 1  # nobody took a bad card yet: anyone may still shoot
        plus = h + 13 * q
        hi = top + plus - (own - 10 * d)
        if hi < 0:
            hi = 0
        if moon_me and hi < 26:
            hi = 26
        if took_bad and not moon_other:
            lo = (top - 10 * d) - (own + plus)
            if moon_me and lo > 26:
                lo = 26
            if lo < 0:
                lo = 0
        else:
            lo = 0
        return lo, hi

    cdef (int, int) trump_bounds(self, int base, int left) noexcept nogil:
        """Bounds on the target's final tricks from the trumps still out. A trump higher than
        every trump of the other side wins the trick it falls in, whenever that is. So each of the
        target's trumps above all the others' is a trick of its own (it plays one card a trick),
        and the others' trumps above all the target's give them at least one trick for every
        (seats - 1) of them (they may have to drop several on one trick).

        Better for the target (F_TRUMP_MATCH): each of its trumps wins the trick it falls in unless
        a higher trump falls in the same trick, and each of the others' trumps falls in one trick
        only, so it beats at most one of the target's. The target's trumps that lose are matched,
        one to one, to higher trumps of the others: at most a largest such matching of them (taken
        greedily from the top: every trump of theirs seen so far is higher than the target's trump
        at hand). All its trumps are played by the end, so the rest win a trick each."""
        cdef uint64_t mine, theirs
        cdef int s, c, p, best_mine = 0, best_theirs = 0, above_mine = 0, above_theirs = 0
        cdef int free_theirs = 0, unmatched = 0, lowest_mine = 15
        if self.trump < 0:
            return base, base + left
        mine = (self.hand[self.target] | self.hole[self.target]) & self.suit_mask[self.trump]
        theirs = 0
        for s in range(self.seats):
            if s != self.target:
                theirs |= (self.hand[s] | self.hole[s]) & self.suit_mask[self.trump]
        for p in range(1, 15):  # ascending: the Joker (power 1), then 2 ... Ace
            c = JOKER if p == 1 else self.trump * 13 + (0 if p == 14 else p - 1)
            if mine >> c & 1:
                best_mine = p
                if p < lowest_mine:
                    lowest_mine = p
            if theirs >> c & 1:
                best_theirs = p
        for p in range(1, 15):
            c = JOKER if p == 1 else self.trump * 13 + (0 if p == 14 else p - 1)
            if mine >> c & 1 and p > best_theirs:
                above_theirs += 1
            if theirs >> c & 1 and p > best_mine:
                above_mine += 1
        if self.features & F_TRUMP_MATCH:
            for p in range(14, 0, -1):
                c = JOKER if p == 1 else self.trump * 13 + (0 if p == 14 else p - 1)
                if theirs >> c & 1:
                    free_theirs += 1
                elif mine >> c & 1:
                    if free_theirs:
                        free_theirs -= 1
                    else:
                        unmatched += 1
        # what the bounds rest on (besides how many trumps each side holds, and the Joker): the
        # target's trumps above the others' top one, down to it; the matching, down to the
        # target's lowest trump (the whole suit if that is the Joker); the others' trumps above
        # the target's top one, down to it
        if unmatched > above_theirs:
            above_theirs = unmatched
            self.low_thr[self.trump] = lowest_mine if lowest_mine > 1 else 2
        elif above_theirs and best_theirs > 1:
            self.low_thr[self.trump] = best_theirs
        if above_mine and best_mine > 1:
            self.high_thr[self.trump] = best_mine
        return base + above_theirs, base + left - (above_mine + self.seats - 2) // (self.seats - 1)

    cdef int top_run(self, uint64_t own, uint64_t other, int suit) noexcept nogil:
        """How many of ``own``'s cards of ``suit`` rank above every card of ``other`` in it."""
        cdef int p, c, run = 0
        self.run_stop = NONE_RELEVANT  # no card of ``other`` in it: the count is all
        for p in range(14, 0, -1):
            c = (JOKER if suit == self.trump else -1) if p == 1 else suit * 13 + (0 if p == 14 else p - 1)
            if c < 0:
                continue
            if other >> c & 1:
                if p > 1:  # (the Joker, the lowest trump: again the count is all)
                    self.run_stop = p
                break
            if own >> c & 1:
                run += 1
        return run

    cdef int safe_leads(self, int p, int suit, int k) noexcept nogil:
        """Of ``k`` leads of ``suit`` in a row, how many player ``p`` surely cannot trump: all of
        them if p holds no trump (or the suit is trumps); else as many as p's hand holds cards of
        the suit (p must follow each, from the hand or with a Hole card showing the suit, and
        never runs out), unless a Hole card of p showing the suit is a trump (it may follow and
        trump at once): then none."""
        cdef uint64_t held = self.hand[p] | self.hole[p], trumps
        cdef int n
        if self.trump < 0 or suit == self.trump:
            return k
        trumps = held & self.suit_mask[self.trump]
        if not trumps:
            return k
        if self.hole[p] & self.back_mask[suit] & trumps:
            return 0
        n = popcount(self.hand[p] & self.suit_mask[suit]) - (self.minus_one >> p & 1)
        if n < 0:
            n = 0
        return n if n < k else k

    cdef int cashing(self, int leader, uint64_t own, uint64_t rest, int* stop) noexcept nogil:
        """The quick tricks of ``leader`` on lead with the cards ``own`` against ``rest``: per suit
        its run of cards above all of rest's, cut to what every other seat follows safely
        (safe_leads), summed over the suits. stop[suit]: the card that ends the counted run
        (NONE_RELEVANT where the suit counts none), what a bound from it rests on."""
        cdef int suit, s, k, safe, quick = 0
        for suit in range(4):
            k = self.top_run(own & self.suit_mask[suit], rest & self.suit_mask[suit], suit)
            stop[suit] = self.run_stop
            for s in range(self.seats):
                if k and s != leader:
                    safe = self.safe_leads(s, suit, k)
                    k = safe if safe < k else k
            quick += k
            if not k:
                stop[suit] = NONE_RELEVANT
        return quick

    cdef (int, int) cashing_bounds(self, int low, int high) noexcept nogil:
        """Quick tricks of the side on lead. A card of the leader's above every card of the other
        side in its suit wins when led, unless the other side trumps it (safe_leads). The target,
        winning with its own card, keeps the lead: for each suit it takes at least as many such
        cards as every other player surely cannot trump, and following one suit never costs the
        others the cards of another, so the suits add up (a lower bound). One of the others on
        lead is sure of one such trick only: a partner may have to overtake it and take the lead
        away (an upper bound one below the tricks left)."""
        cdef uint64_t target = self.hand[self.target] | self.hole[self.target], others = 0, own, rest
        cdef int s, suit, quick = 0, left = 0
        cdef int stop[4]
        # (what a bound rests on goes to self.low_thr, self.high_thr: each run's count, down to the
        # card that ends it)
        for s in range(self.seats):
            if s != self.target:
                others |= self.hand[s] | self.hole[s]
            left += popcount(self.hand[s] | self.hole[s])
        left //= self.seats
        if self.leader == self.target:
            quick = self.cashing(self.target, target, others, stop)
            if quick > left:
                quick = left
            if self.tricks[self.target] + quick > low:
                for suit in range(4):  # the new bound rests on the runs alone (not on the trumps')
                    self.low_thr[suit] = stop[suit]
                low = self.tricks[self.target] + quick
            return low, high
        own = self.hand[self.leader] | self.hole[self.leader]
        if self.features & F_THEIR_CASH:
            # Another player on lead, with cards above those of everyone else (partners too) in a
            # suit: led one after another they win, and the lead stays, as long as no one can
            # trump them. A partner is never made to win a trick it need not win, and the target
            # and the partners follow at least safe_leads of them, so the others together take
            # that many tricks (suits add up as for the target): an upper bound on the target's.
            rest = 0
            for s in range(self.seats):
                if s != self.leader:
                    rest |= self.hand[s] | self.hole[s]
            quick = self.cashing(self.leader, own, rest, stop)
            if quick > 1:
                if quick > left:
                    quick = left
                if self.tricks[self.target] + left - quick < high:
                    for suit in range(4):
                        self.high_thr[suit] = stop[suit]
                    high = self.tricks[self.target] + left - quick
        for suit in range(4):
            if self.top_run(own & self.suit_mask[suit], target & self.suit_mask[suit], suit) \
                    and self.safe_leads(self.target, suit, 1):
                if self.tricks[self.target] + left - 1 < high:
                    for s in range(4):
                        self.high_thr[s] = NONE_RELEVANT
                    self.high_thr[suit] = self.run_stop
                    high = self.tricks[self.target] + left - 1
                return low, high
        return low, high

    cdef int strength(self, int card, int led) noexcept nogil:
        cdef int s = self.effective_suit(card)
        if s == self.trump and s >= 0:
            return 200 + POWER[card]
        if s == led:
            return 100 + POWER[card]
        return 0

    cdef int ordered(self, int seat, uint64_t moves, int* order) noexcept nogil:
        """The moves best first for the mover's side (the target, or everyone else together):
        leading, the highest card (the target: those that surely win the trick first, F_MY_LEAD);
        following, when the side already wins the trick the lowest card (the others: the lowest
        that does not overtake, F_PARTNER_LOW), else the lowest card that takes the lead (the
        target: one that no card still to come can beat first, F_MY_SURE), then the lowest of
        the rest; a trump that would not take the trick after the rest (F_KEEP_TRUMPS, F_MY_KEEP)."""
        cdef int n = 0, p, suit, c, i, j, led, top = -1, top_seat = -1, mine, beats, tmp, overtake_last, x, discards, later
        cdef int keys[53]
        for p in range(1, 15):
            for suit in range(4):
                if p == 1:
                    if suit > 0 or not moves >> JOKER & 1:
                        continue
                    c = JOKER
                else:
                    c = suit * 13 + (0 if p == 14 else p - 1)
                    if not moves >> c & 1:
                        continue
                order[n] = c
                n += 1
        if self.hearts and self.features & F_HB_ORDER and popcount(self.hand[seat] | self.hole[seat]) <= HB_ORDER_MAX:
            self.order_hearts(seat, order, n)
            return n
        if self.ntrick == 0:  # leading: highest first
            for i in range(n // 2):
                tmp = order[i]
                order[i] = order[n - 1 - i]
                order[n - 1 - i] = tmp
            if seat != self.target and self.features & F_ORDER and not self.hearts:
                self.order_their_lead(seat, order, n)
            elif seat == self.target and self.features & F_MY_LEAD and not self.hearts:
                self.order_my_lead(seat, order, n)
            return n
        led = self.effective_suit(self.trick[0])
        top_seat = (self.leader + self.holding(led, &top)) % self.seats
        mine = (top_seat == self.target) == (seat == self.target)
        if seat != self.target and self.features & F_ORDER and not self.hearts \
                and (self.target - self.leader + self.seats) % self.seats > self.ntrick:
            # the target still to play: a card of the others' is only safe if the target cannot
            # beat it either; the lowest such card first, else the lowest
            tbest = self.best_strength(self.target, led)
            if tbest > top:
                top = tbest
                mine = 0
        if not mine and seat != self.target and not self.hearts and self.features & F_PARTNER_AFTER \
                and (self.target - self.leader + self.seats) % self.seats < self.ntrick:
            # the target holds the trick but has played, and a partner still to play can beat its
            # card: the trick is theirs whatever this card is, so it is played as when a partner
            # holds it (whole hands, 7 seats: 11.2M -> 7.7M nodes; 10 cards 9.1M -> 8.6M)
            for i in range(self.ntrick + 1, self.seats):
                if self.best_strength((self.leader + i) % self.seats, led) > top:
                    mine = 1
                    break
        # a partner of the others' holds the trick (and the target cannot beat it): a card that does
        # not overtake it first, its lowest (the lowest card of all may be a trump that ruffs the
        # partner's card for nothing; whole hands, 7 seats: 14.5M -> 11.2M nodes)
        overtake_last = mine and seat != self.target and not self.hearts and self.features & F_PARTNER_LOW
        discards = seat != self.target and not self.hearts and self.features & F_DISCARDS
        # the target following: a card that takes the lead for good first (the proofs that it gets
        # its tricks cut with its first card 92% of the time before; seats decided by both at 2.4M
        # nodes a seat: 10 cards 4.94M -> 4.52M nodes, 11 cards 9.01M -> 8.21M, whole hands -1.3%)
        later = -1  # (the best card of those still to play after it)
        if seat == self.target and not self.hearts and self.features & F_MY_SURE:
            for i in range(self.ntrick + 1, self.seats):
                later = max(later, self.best_strength((self.leader + i) % self.seats, led))
        for i in range(n):  # ascending power already; winners first when the side is not winning
            beats = self.strength(order[i], led) > top
            keys[i] = i + ((1000 if beats and overtake_last else 0) if mine else (0 if beats else 1000))
            if beats and later >= 0 and self.strength(order[i], led) <= later:
                keys[i] += 500  # it takes the lead, but a card still to come may take it back
            if not beats and self.trump >= 0 and self.effective_suit(order[i]) == self.trump and (
                    led == self.trump and discards and self.features & F_KEEP_TRUMPS
                    or seat == self.target and not self.hearts and self.features & F_MY_KEEP):
                # a trump that would not take the trick, last: after any card that follows by its
                # back (a Hole card of another suit) when trumps are led, so the trump is kept (the
                # others' discards have their own rule, F_DISCARDS). Seats decided by both at 2.4M
                # nodes a seat, the others' rule and the target's each alone: whole hands -24% and
                # -26% (seeds 3-5: -58% with one seat more decided, and -10%), 10 cards -9% and -16%
                keys[i] += 300
            x = self.effective_suit(order[i]) if discards and not beats else led
            if x != led:
                # the others' discards (and under-ruffs): a Hole card (it may follow later leads by
                # its back) after the hand's, a trump (it may ruff later) last; whole hands, 7 seats:
                # 7.7M -> 6.7M nodes, 10 cards 8.6M -> 8.3M
                keys[i] += (200 if x == self.trump and x >= 0 else 0) + (100 if self.hole[seat] >> order[i] & 1 else 0)
        sort_by_keys(order, keys, n)
        return n

    cdef void order_hearts(self, int seat, int* order, int n) noexcept nogil:
        """Heartburn's move order (F_HB_ORDER; ``order`` comes in ascending power). Taking tricks is
        nobody's aim there: the target wants to give points away and take few; the others want
        it to take them (or none at all). Leading: the target its lowest card, point cards last;
        the others their highest, point cards last. Following: the target a card that stays
        under the card holding the trick, the one of most points, then the highest, before any
        card that takes the trick (the highest of those first); the others, when the target
        holds the trick, their lowest card that takes it from the target, else their lowest card
        (dumping points on it first instead was better at 8 cards and far worse at whole hands);
        else their lowest card, point cards last. Only for a mover of at most HB_ORDER_MAX cards:
        earlier in a hand the plain order (ordered()) did better (whole hands, seeds 0-5: 5.4M
        nodes instead of 50M for seed 0's table, as many seats decided in 10 s, 13 of 24; at
        10 cards a seat, seed 2's table decided in 15M nodes, undecided with either order alone)."""
        cdef int i, c, led, top = -1, top_seat = -1, st, beats, pts
        cdef int keys[53]
        if self.ntrick == 0:
            for i in range(n):
                c = order[i]
                pts = 50 if self.card_points(c) != 0 else 0
                keys[i] = (POWER[c] if seat == self.target else 100 - POWER[c]) + pts
            sort_by_keys(order, keys, n)
            return
        led = self.effective_suit(self.trick[0])
        top_seat = (self.leader + self.holding(led, &top)) % self.seats
        for i in range(n):
            c = order[i]
            st = self.strength(c, led)
            beats = st > top
            # the points a card gives the trick's winner, by weight: the Q♠ 3, a heart its power
            pts = 3 if c == QS else (POWER[c] if c != JOKER and c // 13 == 1 else 0)
            if seat == self.target:
                keys[i] = (400 - st) if beats else 100 - 3 * pts - POWER[c]
            elif top_seat == self.target:
                keys[i] = i + (0 if beats else 100)
            else:
                keys[i] = i + (50 if pts else 0)
        sort_by_keys(order, keys, n)

    cdef int trick_decided(self, int alpha, int beta) noexcept nogil:
        """Foresight, in a trick: is the target's win or loss of it already sure? A sure win (at
        least its tricks + 1): its card, played or the best it may play, beats the card holding
        the trick and every card that anyone still to play may play. A sure loss (at most its
        tricks + the tricks after this one): its card, played or every one it may play, is beaten
        by the card holding the trick or by a card that one of the others still to play may
        play (they play it). Returns the bound when it cuts, else NO_BOUND. What it rests on:
        the deciding card's rank in its suit (relevant down to it); who may play a trump, and a
        card of the suit led, is the shape's.

        A sure win that is not enough adds what surely follows it (each bound against the
        others' cards now, a superset of theirs after the trick, which can only cost the target):
        the trump bound of the target's trumps left (F_TRICK_TRUMPS), or its quick tricks, since
        it leads next (F_TRICK_QUICK; cashing(), with each of the others still to play to this
        trick holding one card fewer of every suit in hand, as it may drop one)."""
        cdef int led = self.effective_suit(self.trick[0]), top = -1, top_i = 0, i, k, tpos, later
        cdef int mine, mine_card, other = -1, other_card = -1, c, can_win, can_lose, trumps_too, bl, bh
        cdef uint64_t bit, hand, hole, others
        cdef int stop[4]
        tpos = (self.target - self.leader + self.seats) % self.seats
        later = popcount(self.hand[self.target] | self.hole[self.target]) - (0 if tpos < self.ntrick else 1)
        can_win = self.tricks[self.target] + 1 >= beta
        can_lose = self.tricks[self.target] + later <= alpha
        trumps_too = (not can_win and self.features & (F_TRICK_TRUMPS | F_TRICK_QUICK)
                      and self.tricks[self.target] + 1 + later >= beta)
        if not (can_win or can_lose or trumps_too):
            return NO_BOUND
        for i in range(4):
            self.rel[i] = NONE_RELEVANT
        top_i = self.holding(led, &top)
        if tpos >= self.ntrick:  # still to play: its best card against the others'
            mine_card = self.best_card(self.target, led)
            mine = self.strength(mine_card, led)
            other, other_card = top, self.trick[top_i]
        elif top_i == tpos:
            mine, mine_card = top, self.trick[top_i]
        else:
            mine, mine_card = -1, -1
            other, other_card = top, self.trick[top_i]
        for i in range(self.ntrick, self.seats + 1):
            if other > mine:  # a sure loss
                if not can_lose:
                    return NO_BOUND
                self.mark_rank(other_card)
                return self.tricks[self.target] + later
            if i == self.seats:
                break
            if i == tpos:
                continue
            c = self.best_card((self.leader + i) % self.seats, led)
            k = self.strength(c, led)
            if k > other:
                other, other_card = k, c
        # a sure win
        if can_win:
            self.mark_rank(mine_card)
            return self.tricks[self.target] + 1
        if not trumps_too:
            return NO_BOUND
        # then the target's trumps' tricks (trump_bounds): it may only gain by the others' trumps
        # that fall in this trick, so counting them all is a lower bound
        bit = <uint64_t>1 << mine_card if tpos >= self.ntrick else 0
        hand, hole = self.hand[self.target], self.hole[self.target]
        self.hand[self.target] &= ~bit
        self.hole[self.target] &= ~bit
        for i in range(4):
            self.low_thr[i] = self.high_thr[i] = NONE_RELEVANT
        bl = self.tricks[self.target] + 1
        if self.features & F_TRICK_TRUMPS:
            bl, bh = self.trump_bounds(self.tricks[self.target] + 1, later)
        if bl < beta and self.features & F_TRICK_QUICK:
            # the target leads next: its quick tricks, against the others' cards now, each still
            # to play to this trick following one card fewer of every suit
            others = 0
            for i in range(self.seats):
                if i != self.target:
                    others |= self.hand[i] | self.hole[i]
                    if (i - self.leader + self.seats) % self.seats >= self.ntrick:
                        self.minus_one |= 1 << i
            k = self.cashing(self.target, self.hand[self.target] | self.hole[self.target], others, stop)
            self.minus_one = 0
            if k > later:
                k = later
            if self.tricks[self.target] + 1 + k >= beta:
                self.hand[self.target], self.hole[self.target] = hand, hole
                for i in range(4):
                    self.rel[i] = stop[i]
                self.mark_rank(mine_card)
                return self.tricks[self.target] + 1 + k
        self.hand[self.target], self.hole[self.target] = hand, hole
        if bl < beta:
            return NO_BOUND
        for i in range(4):
            self.rel[i] = self.low_thr[i]
        self.mark_rank(mine_card)
        return bl

    cdef int lead_decided(self, int base, int left, int alpha, int beta) noexcept nogil:
        """Foresight, at a trick boundary: is the coming trick already sure for one side (F_LATER,
        after DDS's LaterTricks)? Another seat leading: the target surely wins it (at least base +
        1) when, for every suit the leader may lead, the target's best card there beats the
        leader's best card of the suit and every card a partner may play to it; the target surely
        loses it (at most base + left - 1) when for some suit the others' best beats the target's
        best. The target leading: it surely loses when for every suit it may lead the others'
        best beats its best card of the suit. Returns the bound when it cuts, else NO_BOUND. It
        rests on the deciding cards' ranks (mark_rank), the rest (who may lead, follow or trump
        what) is the shape's."""
        cdef int can_win = base + 1 >= beta, can_lose = base + left - 1 <= alpha, x, p, c, k, mine, theirs, their_card
        cdef int mine_card, lead_top, lead_card, won = 0, suits = 0
        cdef int deciding[5]
        cdef uint64_t own, m
        if not (can_win or can_lose):
            return NO_BOUND
        if self.leader == self.target and not can_lose:
            return NO_BOUND
        own = self.hand[self.leader] | self.hole[self.leader]
        if self.trump < 0 and own >> JOKER & 1:  # the Joker led without trumps holds the trick
            if self.leader == self.target or not can_lose:
                return NO_BOUND
            for k in range(4):
                self.rel[k] = NONE_RELEVANT
            return base + left - 1
        for x in range(4):
            m = own & self.suit_mask[x]
            if not m:
                continue
            lead_card = self.strongest(m, x)  # the leader's best card of the suit
            lead_top = self.strength(lead_card, x) if lead_card >= 0 else -1
            if self.leader == self.target:
                mine, mine_card = lead_top, lead_card
                theirs, their_card = -1, -1
            else:
                mine_card = self.best_card(self.target, x)
                mine = self.strength(mine_card, x) if mine_card >= 0 else -1
                theirs, their_card = lead_top, lead_card
            for p in range(self.seats):
                if p != self.target and p != self.leader:
                    c = self.best_card(p, x)
                    if c >= 0 and self.strength(c, x) > theirs:
                        theirs, their_card = self.strength(c, x), c
            if mine > theirs:
                deciding[suits] = mine_card
                suits += 1
                won = 1
            elif self.leader != self.target:  # a lead the target cannot win
                if not can_lose:
                    return NO_BOUND
                for k in range(4):
                    self.rel[k] = NONE_RELEVANT
                self.mark_rank(their_card)
                return base + left - 1
            else:
                deciding[suits] = their_card
                suits += 1
        for k in range(4):
            self.rel[k] = NONE_RELEVANT
        if self.leader != self.target:  # every lead won by the target
            if not can_win:
                return NO_BOUND
            for k in range(suits):
                self.mark_rank(deciding[k])
            return base + 1
        if won:  # the target leading has a lead the others cannot beat
            return NO_BOUND
        for k in range(suits):
            self.mark_rank(deciding[k])
        return base + left - 1

    cdef int best_card(self, int seat, int led) noexcept nogil:
        """The strongest card ``seat`` may play to a trick led in ``led`` (strength()), or -1 if it
        holds none."""
        cdef uint64_t m = self.hand[seat] & self.suit_mask[led] if led >= 0 else 0
        if m:
            m |= self.hole[seat] & self.back_mask[led]
        else:
            m = self.hand[seat] | self.hole[seat]
        return self.strongest(m, led)

    cdef inline int strongest(self, uint64_t m, int led) noexcept nogil:
        """The card of ``m`` strongest to a trick led in ``led`` (the lowest of equals), -1 if none."""
        cdef int best = -1, best_c = -1, c, v
        while m:
            c = lowest(m)
            m &= m - 1
            v = self.strength(c, led)
            if v > best:
                best, best_c = v, c
        return best_c

    cdef inline void mark_rank(self, int c) noexcept nogil:
        """Make card ``c``'s suit relevant down to ``c`` (the Joker: the whole trump suit)."""
        cdef int s = self.effective_suit(c)
        if s >= 0 and POWER[c] < self.rel[s]:
            self.rel[s] = POWER[c] if c != JOKER else 2

    cdef int best_strength(self, int seat, int led) noexcept nogil:
        """The strongest card ``seat`` may play to a trick led in ``led`` (strength()); 0 with none."""
        cdef int c = self.best_card(seat, led)
        return max(0, self.strength(c, led)) if c >= 0 else 0

    cdef void order_their_lead(self, int seat, int* order, int n) noexcept nogil:
        """The others' leads, best first for them (a stable sort): first the suits one of them
        holds a card of above all the target's and the target must follow (or cannot trump),
        last those the target can trump; within a suit, the leader's card that beats all the
        target's highest first, else its lowest (a partner may win it)."""
        cdef int i, j, c, x, tb, cb, s, key, ruff
        cdef int keys[53]
        cdef uint64_t theirs = 0, tall = self.hand[self.target] | self.hole[self.target]
        for s in range(self.seats):
            if s != self.target:
                theirs |= self.hand[s] | self.hole[s]
        for i in range(n):
            c = order[i]
            x = self.effective_suit(c)
            if x < 0:
                keys[i] = 300 + i
                continue
            tb = self.top_power(tall & self.suit_mask[x])
            cb = self.top_power(theirs & self.suit_mask[x])
            ruff = x != self.trump and self.trump >= 0 and not (self.hand[self.target] & self.suit_mask[x]) \
                and (tall & self.suit_mask[self.trump]) != 0
            key = 200 if ruff else (0 if cb > tb else 100)
            keys[i] = key + (i if POWER[c] > tb else 60 - POWER[c])
        sort_by_keys(order, keys, n)

    cdef void order_my_lead(self, int seat, int* order, int n) noexcept nogil:
        """The target's leads (``order`` highest first, a stable sort): first those that surely
        win the trick (the card beats every card each other player may play to it), then the
        rest (seats decided by both at 2.4M nodes a seat: 8 cards -3.7% nodes, 10 cards 5.38M ->
        4.94M, 11 cards -2.9%, whole hands the same; the rest lowest first was worse)."""
        cdef int i, j, c, x, best
        cdef int keys[53]
        cdef int theirs[4]
        for x in range(4):
            theirs[x] = -2  # not yet known
        for i in range(n):
            c = order[i]
            x = self.effective_suit(c)
            if x < 0:  # the Joker without trumps holds the trick it leads
                keys[i] = i
                continue
            if theirs[x] == -2:
                best = -1
                for j in range(self.seats):
                    if j != seat and self.best_strength(j, x) > best:
                        best = self.best_strength(j, x)
                theirs[x] = best
            keys[i] = i + (0 if self.strength(c, x) > theirs[x] else 100)
        sort_by_keys(order, keys, n)

    cdef inline int top_power(self, uint64_t m) noexcept nogil:
        """The highest power among the cards of ``m`` (one suit, the Joker with the trumps), 0 if none."""
        cdef int best = 0, c
        while m:
            c = lowest(m)
            m &= m - 1
            if POWER[c] > best:
                best = POWER[c]
        return best

    cdef int play_and_search(self, int seat, int c, int alpha, int beta):
        cdef uint64_t bit = <uint64_t>1 << c
        cdef int from_hole = 0 if self.hand[seat] & bit else 1
        cdef int saved_broken = self.broken, saved_first = self.first, saved_leader = self.leader
        cdef int w, winner, i, v, t, top
        cdef int saved_trick[MAXSEATS]
        if from_hole:
            self.hole[seat] &= ~bit
        else:
            self.hand[seat] &= ~bit
        self.owner[c] = 0
        if c != JOKER and c // 13 == 1:
            self.broken = 1
        self.trick[self.ntrick] = c
        self.ntrick += 1
        if self.ntrick < self.seats:
            v = self.search(alpha, beta)
            self.ntrick -= 1
        else:
            w = self.holding(self.effective_suit(self.trick[0]), &top)
            winner = (self.leader + w) % self.seats
            for i in range(self.seats):
                saved_trick[i] = self.trick[i]
            self.tricks[winner] += 1
            for i in range(self.seats):
                t = self.trick[i]
                if t != JOKER and t // 13 == 1:
                    self.hearts_taken[winner] += 1
                elif t == QS:
                    self.queen_taken[winner] += 1
                elif t == TD:
                    self.ten_taken[winner] += 1
            self.ntrick = 0
            self.leader = winner
            self.first = 0
            v = self.search(alpha, beta)
            t = saved_trick[w]  # won by rank against a card of its own suit: its rank mattered
            if t != JOKER and POWER[t] < self.rel[t // 13]:
                for i in range(self.seats):
                    if i != w and self.effective_suit(saved_trick[i]) == self.effective_suit(t):
                        self.rel[t // 13] = POWER[t]
                        break
            self.leader = saved_leader
            self.first = saved_first
            for i in range(self.seats):
                self.trick[i] = saved_trick[i]
                t = self.trick[i]
                if t != JOKER and t // 13 == 1:
                    self.hearts_taken[winner] -= 1
                elif t == QS:
                    self.queen_taken[winner] -= 1
                elif t == TD:
                    self.ten_taken[winner] -= 1
            self.tricks[winner] -= 1
            self.ntrick = self.seats - 1
        self.broken = saved_broken
        self.owner[c] = 1 + 2 * seat + from_hole
        if from_hole:
            self.hole[seat] |= bit
        else:
            self.hand[seat] |= bit
        return v
