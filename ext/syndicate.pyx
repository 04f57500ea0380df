# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Syndicate kernel: packed position, make/unmake, and an exact normal-form search in C.

It mirrors the reference engine (solodeck/games/syndicate/rules.py): the same moves (tests compare
the move lists state by state) and the same values (tests compare with the reference search).
The search and why each of its cuts is exact: docs/rules/syndicate.md, "How the solver searches".

In short, ``search(p, b)`` returns the fewest *future* sacrifices of a win from the current
position when that is at most ``b`` (or ``b`` is UNLIMITED), else INF. ``p`` is the rank of the
last move: the normal form allows next a move at a rank <= p, or a sacrificing promotion from
rank p + 1. Ranks that can never move again within the budget are left out of the table key.
With b = 0 the lowest rank still able to move plays until it is stuck.

Moves are ints: rank | member << 3 | take << 7 | dest << 11 | victim << 13 (values 1..10;
dest 0 = win, 1 = to the members above, 2 = to the candidates above; victim 0 = none).
"""
from libc.stdlib cimport calloc, free
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t
from shared cimport (STOP_NONE, STOP_TIME, STOP_STATES, Clock, clock_restart, clock_start, clock_expired,
                     capacity_for)

cdef enum:
    INF = 99
    UNLIMITED = 63
    MAX_MOVES = 400
    BUCKET = 4
    CHECK_EVERY = 0x3FFF
    DEST_WIN = 0
    DEST_MEMBERS = 1
    DEST_CANDIDATES = 2

INF_VALUE = INF
UNLIMITED_BUDGET = UNLIMITED

ctypedef struct Position:
    int members[6][3]     # by rank 1..5, sorted ascending; only the first n_members are used
    int n_members[6]
    int candidates[6][11] # counts by value 1..10
    int n_candidates[6]
    uint64_t candidate_code[6]  # sum of count(v) * 5^(v-1): the key's candidate part, kept up to date

ctypedef struct Entry:    # 32 bytes: the key (3 words), the best move, the value, work, used
    uint64_t key[3]
    uint32_t move
    uint8_t value
    uint8_t work
    uint8_t used

cdef uint16_t PRODUCIBLE[1024]   # digit mask -> digits a+b or a*b (mod 10), a, b in the mask
cdef uint64_t POW5[11]
cdef uint16_t TRIPLE_CODE[11][11][11]  # sorted members (0 = empty slot) -> 0..285


cdef void _init_tables():
    cdef int m, a, b, c, code = 0
    cdef uint16_t out
    for m in range(1024):
        out = 0
        for a in range(10):
            if m >> a & 1:
                for b in range(10):
                    if m >> b & 1:
                        out |= (1 << ((a + b) % 10)) | (1 << ((a * b) % 10))
        PRODUCIBLE[m] = out
    POW5[1] = 1  # 5^(v-1): ten base-5 digits fit in 24 bits
    for a in range(2, 11):
        POW5[a] = POW5[a - 1] * 5
    for a in range(11):
        for b in range(a, 11):
            for c in range(b, 11):  # sorted, empty slots (0) first: 286 codes
                TRIPLE_CODE[a][b][c] = code
                code += 1

_init_tables()


cdef inline int _member_digits(Position* s, int r) noexcept nogil:
    cdef int i, mask = 0
    for i in range(s.n_members[r]):
        mask |= 1 << (s.members[r][i] % 10)
    return mask


cdef inline int _candidate_digits(Position* s, int r) noexcept nogil:
    cdef int v, mask = 0
    for v in range(1, 11):
        if s.candidates[r][v]:
            mask |= 1 << (v % 10)
    return mask


cdef int frozen_rank(Position* s, int top) noexcept nogil:
    """The smallest-numbered rank that can never promote again (6: none). Ranks above ``top``
    cannot move within the budget. The same digit-closure bound as State.first_frozen_rank."""
    cdef int r, v, need, arrivals = 0, arrival_digits = 0, digits, fuel, producible, promotions
    cdef int frozen = top + 1
    for r in range(top, 0, -1):
        need = 3 - s.n_members[r]
        if arrivals < need:
            promotions = 0
            digits = 0
        else:
            digits = _member_digits(s, r) | (arrival_digits if arrivals else 0)
            fuel = _candidate_digits(s, r) | (arrival_digits if arrivals > need else 0)
            while digits | (fuel & PRODUCIBLE[digits]) != digits:
                digits |= fuel & PRODUCIBLE[digits]
            producible = PRODUCIBLE[digits]
            promotions = 0
            for v in range(1, 11):
                if producible >> (v % 10) & 1:
                    promotions += s.candidates[r][v]
            if arrival_digits & producible:
                promotions += arrivals - need
        if promotions == 0:
            frozen = r
        arrivals = promotions
        arrival_digits = digits
    return frozen


# -- moves --------------------------------------------------------------------------------------

cdef inline uint32_t encode(int rank, int member, int take, int dest, int victim) noexcept nogil:
    return rank | (member << 3) | (take << 7) | (dest << 11) | (victim << 13)


cdef int generate(Position* s, int r, uint32_t* out, int n, bint quiet, bint sacrifices,
                  bint self_sacrifice) noexcept nogil:
    """Append rank r's promotions to ``out`` from index n; return the new count.
    quiet: moves without a sacrifice; sacrifices: moves with one; self_sacrifice: also the
    sacrifice of the promoted value itself (dominated by sending it to the candidates, so the
    search leaves it out; the full legal-move list, for tests, keeps it)."""
    cdef int i, j, k, m, a, b, digits, v, w, above
    if s.n_members[r] != 3:
        return n
    above = s.n_members[r - 1] if r > 1 else 0
    for i in range(3):
        m = s.members[r][i]
        if i > 0 and m == s.members[r][i - 1]:
            continue
        a = s.members[r][(i + 1) % 3]
        b = s.members[r][(i + 2) % 3]
        digits = (1 << ((a + b) % 10)) | (1 << ((a * b) % 10))
        for v in range(1, 11):
            if not s.candidates[r][v] or not (digits >> (v % 10) & 1):
                continue
            if r == 1:
                if quiet:
                    out[n] = encode(1, m, v, DEST_WIN, 0)
                    n += 1
                continue
            if above < 3:
                if quiet:
                    out[n] = encode(r, m, v, DEST_MEMBERS, 0)
                    n += 1
            elif sacrifices:
                for j in range(3):
                    w = s.members[r - 1][j]
                    if j > 0 and w == s.members[r - 1][j - 1]:
                        continue
                    if w == m and not self_sacrifice:
                        continue
                    out[n] = encode(r, m, v, DEST_MEMBERS, w)
                    n += 1
                if self_sacrifice:  # m's value is not among the members above
                    k = 0
                    for j in range(3):
                        if s.members[r - 1][j] == m:
                            k = 1
                    if not k:
                        out[n] = encode(r, m, v, DEST_MEMBERS, m)
                        n += 1
            if quiet:
                out[n] = encode(r, m, v, DEST_CANDIDATES, 0)
                n += 1
    return n


cdef inline void _insert_member(Position* s, int r, int v) noexcept nogil:
    cdef int i = s.n_members[r]
    while i > 0 and s.members[r][i - 1] > v:
        s.members[r][i] = s.members[r][i - 1]
        i -= 1
    s.members[r][i] = v
    s.n_members[r] += 1


cdef inline void _remove_member(Position* s, int r, int v) noexcept nogil:
    cdef int i = 0, n = s.n_members[r]
    while s.members[r][i] != v:
        i += 1
    while i < n - 1:
        s.members[r][i] = s.members[r][i + 1]
        i += 1
    s.members[r][n - 1] = 0
    s.n_members[r] = n - 1


cdef inline void make(Position* s, uint32_t move) noexcept nogil:
    cdef int r = move & 7, m = (move >> 3) & 15, v = (move >> 7) & 15
    cdef int dest = (move >> 11) & 3, w = (move >> 13) & 15
    _remove_member(s, r, m)
    _insert_member(s, r, v)
    s.candidates[r][v] -= 1
    s.n_candidates[r] -= 1
    s.candidate_code[r] -= POW5[v]
    if dest == DEST_MEMBERS and w != m:  # (w == m: the promoted card itself is sacrificed)
        if w:
            _remove_member(s, r - 1, w)
        _insert_member(s, r - 1, m)
    elif dest == DEST_CANDIDATES:
        s.candidates[r - 1][m] += 1
        s.n_candidates[r - 1] += 1
        s.candidate_code[r - 1] += POW5[m]


cdef inline void unmake(Position* s, uint32_t move) noexcept nogil:
    cdef int r = move & 7, m = (move >> 3) & 15, v = (move >> 7) & 15
    cdef int dest = (move >> 11) & 3, w = (move >> 13) & 15
    if dest == DEST_MEMBERS and w != m:
        _remove_member(s, r - 1, m)
        if w:
            _insert_member(s, r - 1, w)
    elif dest == DEST_CANDIDATES:
        s.candidates[r - 1][m] -= 1
        s.n_candidates[r - 1] -= 1
        s.candidate_code[r - 1] -= POW5[m]
    s.candidates[r][v] += 1
    s.n_candidates[r] += 1
    s.candidate_code[r] += POW5[v]
    _remove_member(s, r, v)
    _insert_member(s, r, m)


# -- the table ----------------------------------------------------------------------------------

cdef inline void put_bits(uint64_t* key, int* at, uint64_t value, int bits) noexcept nogil:
    cdef int word = at[0] >> 6, shift = at[0] & 63
    key[word] |= value << shift
    if shift + bits > 64:
        key[word + 1] |= value >> (64 - shift)
    at[0] += bits


cdef inline void make_key(Position* s, int p, int b, int top, uint64_t* key) noexcept nogil:
    """p, b and ranks 1..top (9 bits of members, 24 of candidate counts in base 5 each)."""
    cdef int r, at = 0
    cdef int m0, m1, m2
    key[0] = 0
    key[1] = 0
    key[2] = 0
    put_bits(key, &at, p, 3)
    put_bits(key, &at, b, 6)
    for r in range(1, top + 1):
        m0 = m1 = m2 = 0
        if s.n_members[r] == 1:
            m2 = s.members[r][0]
        elif s.n_members[r] == 2:
            m1 = s.members[r][0]
            m2 = s.members[r][1]
        elif s.n_members[r] == 3:
            m0 = s.members[r][0]
            m1 = s.members[r][1]
            m2 = s.members[r][2]
        put_bits(key, &at, TRIPLE_CODE[m0][m1][m2], 9)
        put_bits(key, &at, s.candidate_code[r], 24)


cdef inline uint64_t mix(uint64_t* key) noexcept nogil:
    cdef uint64_t h = key[0] * 0x9E3779B97F4A7C15ULL ^ key[1]
    h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL ^ key[2]
    h = (h ^ (h >> 30)) * 0x94D049BB133111EBULL
    return h ^ (h >> 29)


cdef inline bint same_key(Entry* e, uint64_t* key) noexcept nogil:
    return e.key[0] == key[0] and e.key[1] == key[1] and e.key[2] == key[2]


cdef class Search:
    """A Syndicate search with its own table (kept across calls, so valuing every move of a
    line for hint files reuses what solving found). ``memory_mb`` caps the table: when a bucket
    is full the entry with the least work below it is replaced (the state graph is acyclic, so a
    forgotten entry is only searched again). ``max_states`` stops the search (status
    memory-limit) when that many entries were stored; ``time_limit`` stops it (timeout)."""

    cdef Position pos
    cdef Entry* table
    cdef uint64_t n_buckets, max_buckets, used
    cdef public uint64_t nodes, stored, overwritten
    cdef uint64_t max_states
    cdef Clock clock                 # the time limit; it starts with the first search
    cdef public int stopped          # 0, 1 = time, 2 = states
    cdef uint32_t path[256]
    cdef int depth, path_sacrifices
    cdef public int best_found       # fewest future sacrifices of a win met while searching
    cdef uint32_t win_line[256]
    cdef int found_length

    def __cinit__(self, double memory_mb=1024.0, double time_limit=0.0, long long max_states=0):
        self.max_buckets = capacity_for(memory_mb, sizeof(Entry) * BUCKET, 1)
        # Start small and double while under the cap: pages are only touched as they fill.
        self.n_buckets = min(self.max_buckets, 1 << 12)
        self.table = <Entry*>calloc(self.n_buckets * BUCKET, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError(f"cannot allocate the search table")
        self.max_states = max_states if max_states > 0 else 0
        clock_restart(&self.clock, time_limit)
        self.used = 0
        self.reset_counters()

    def __dealloc__(self):
        free(self.table)

    @property
    def table_bytes(self):
        return self.n_buckets * BUCKET * sizeof(Entry)

    def reset_counters(self):
        self.nodes = self.stored = self.overwritten = 0
        self.stopped = STOP_NONE
        self.best_found = INF
        self.found_length = 0

    # -- Python interface -------------------------------------------------------------------
    def set_position(self, members, candidates):
        """members[r - 1]: tuple of values (at most 3); candidates[r - 1]: tuple of values."""
        cdef int r, v
        for r in range(6):
            self.pos.n_members[r] = 0
            self.pos.n_candidates[r] = 0
            self.pos.candidate_code[r] = 0
            for v in range(3):
                self.pos.members[r][v] = 0
            for v in range(11):
                self.pos.candidates[r][v] = 0
        for r in range(1, 6):
            for v in sorted(members[r - 1]):
                _insert_member(&self.pos, r, v)
            for v in candidates[r - 1]:
                self.pos.candidates[r][v] += 1
                self.pos.n_candidates[r] += 1
                self.pos.candidate_code[r] += POW5[v]

    def position(self):
        return (tuple(tuple(self.pos.members[r][i] for i in range(self.pos.n_members[r])) for r in range(1, 6)),
                tuple(tuple(v for v in range(1, 11) for _ in range(self.pos.candidates[r][v])) for r in range(1, 6)))

    def legal_moves(self):
        """Every legal move of the position (as the reference lists them), as move ints."""
        cdef uint32_t moves[MAX_MOVES]
        cdef int r, n = 0
        for r in range(5, 0, -1):
            n = generate(&self.pos, r, moves, n, True, True, True)
        return [moves[i] for i in range(n)]

    def play(self, uint32_t move):
        make(&self.pos, move)

    def undo(self, uint32_t move):
        unmake(&self.pos, move)

    def frozen(self, int top=5):
        return frozen_rank(&self.pos, top)

    def search(self, int p=5, int budget=UNLIMITED):
        """Fewest future sacrifices of a win within ``budget`` (INF if none, or if stopped)."""
        cdef int result
        clock_start(&self.clock)
        self.depth = 0
        self.path_sacrifices = 0
        self.found_length = 0
        self.best_found = INF
        with nogil:
            result = self._search(p, budget)
        return result

    def best_move(self, int p, int budget):
        """The stored best move of the current position searched with (p, budget), or 0."""
        cdef uint64_t key[3]
        cdef Entry* e
        cdef int top = 5 if budget >= UNLIMITED else min(5, p + budget)
        make_key(&self.pos, p, budget, top, key)
        e = self._find(key)
        return e.move if e != NULL else 0

    def found_line(self):
        """The line (from the last ``search`` call's position) of the best win met, if any."""
        return [self.win_line[i] for i in range(self.found_length)]

    # -- the search -------------------------------------------------------------------------
    cdef Entry* _find(self, uint64_t* key) noexcept nogil:
        cdef Entry* bucket = self.table + (mix(key) & (self.n_buckets - 1)) * BUCKET
        cdef int i
        for i in range(BUCKET):
            if bucket[i].used and same_key(&bucket[i], key):
                return &bucket[i]
        return NULL

    cdef void _grow(self) noexcept nogil:
        """Double the table (below the cap), keeping every entry; on failure stay as we are."""
        cdef Entry* old = self.table
        cdef uint64_t i, old_buckets = self.n_buckets
        cdef Entry* fresh = <Entry*>calloc(old_buckets * 2 * BUCKET, sizeof(Entry))
        if fresh == NULL:
            self.max_buckets = old_buckets
            return
        self.table = fresh
        self.n_buckets = old_buckets * 2
        self.used = 0
        for i in range(old_buckets * BUCKET):
            if old[i].used:
                self._place(&old[i])
        free(old)

    cdef void _place(self, Entry* source) noexcept nogil:
        """Put an entry in its bucket: a free slot, else over the one with the least work."""
        cdef Entry* bucket = self.table + (mix(source.key) & (self.n_buckets - 1)) * BUCKET
        cdef Entry* e = &bucket[0]
        cdef int i
        for i in range(BUCKET):
            if not bucket[i].used:
                e = &bucket[i]
                break
            if bucket[i].work < e.work:
                e = &bucket[i]
        if e.used:
            self.overwritten += 1
        else:
            self.used += 1
        e[0] = source[0]

    cdef void _store(self, uint64_t* key, int value, uint32_t move, uint64_t work) noexcept nogil:
        cdef Entry entry
        cdef int w = 0
        while work > 1 and w < 63:
            work >>= 1
            w += 1
        if self.used * 2 > self.n_buckets * BUCKET and self.n_buckets < self.max_buckets:
            self._grow()
        entry.key[0] = key[0]
        entry.key[1] = key[1]
        entry.key[2] = key[2]
        entry.value = value
        entry.move = move
        entry.work = w
        entry.used = 1
        self._place(&entry)
        self.stored += 1
        if self.max_states and self.stored >= self.max_states:
            self.stopped = STOP_STATES

    cdef int _search(self, int p, int b) noexcept nogil:
        cdef Position* s = &self.pos
        cdef uint32_t moves[MAX_MOVES]
        cdef uint64_t key[3]
        cdef uint64_t start_nodes = self.nodes
        cdef int top, frozen, n = 0, i, r, limit, child, cost, value, best = INF
        cdef uint32_t move, best_move = 0
        cdef Entry* e
        self.nodes += 1
        if clock_expired(&self.clock, self.nodes, CHECK_EVERY):
            self.stopped = STOP_TIME
        if self.stopped:
            return INF
        top = 5 if b >= UNLIMITED else min(5, p + b)
        make_key(s, p, b, top, key)
        e = self._find(key)
        if e != NULL:
            return e.value
        frozen = frozen_rank(s, top)
        if frozen == 1:
            return INF
        if b == 0:
            # Budget 0: the lowest rank that can move plays until it is stuck (dominance).
            r = min(p, frozen - 1)
            while r >= 1 and n == 0:
                n = generate(s, r, moves, 0, True, False, False)
                r -= 1
        else:
            for r in range(min(p, frozen - 1), 0, -1):
                n = generate(s, r, moves, n, True, False, False)
            if p < 5 and p + 1 < frozen:
                n = generate(s, p + 1, moves, n, False, True, False)
            for r in range(min(p, frozen - 1), 1, -1):
                n = generate(s, r, moves, n, False, True, False)
        for i in range(n):
            move = moves[i]
            r = move & 7
            if r == 1:  # a promotion from rank 1 wins at once
                best, best_move = 0, move
                self._found_win(move)
                break
            cost = 1 if (move >> 13) else 0
            if b >= UNLIMITED and best >= INF:
                child = UNLIMITED
            else:
                limit = b if best >= INF else min(b, best - 1)
                child = limit - cost
                if child < 0:
                    continue
            make(s, move)
            self.path[self.depth] = move
            self.depth += 1
            self.path_sacrifices += cost
            value = self._search(r, child)
            self.path_sacrifices -= cost
            self.depth -= 1
            unmake(s, move)
            if self.stopped:
                return INF
            if value < INF and value + cost < best:
                best, best_move = value + cost, move
                if best == 0:
                    break
        self._store(key, best, best_move, self.nodes - start_nodes)
        return best

    cdef void _found_win(self, uint32_t move) noexcept nogil:
        cdef int i
        if self.path_sacrifices < self.best_found:
            self.best_found = self.path_sacrifices
            for i in range(self.depth):
                self.win_line[i] = self.path[i]
            self.win_line[self.depth] = move
            self.found_length = self.depth + 1
