# What the kernels (ext/*.pyx) have in common: the sampling generator, the stop codes, the clock
# behind the time limit, and the sizing and growing of their hash tables. Each kernel keeps its own
# table entry, key and probing. Everything here is a `cdef inline` function, an enum or a struct,
# so it is compiled into every kernel that cimports it (`from shared cimport ...`, with ext/ on
# Cython's include path, see setup.py) and there is no `shared` module at run time.

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

# Why a search stopped, in each kernel's public ``stopped``: Python maps 1 to the status
# "timeout" and 2 to "memory-limit" (ext.BlindValuer.status, the games' adapters).
cdef enum:
    STOP_NONE = 0
    STOP_TIME = 1
    STOP_STATES = 2


cdef inline uint64_t next_random(uint64_t* s) noexcept nogil:
    """splitmix64: solodeck.shuffle.SplitMix64 is the same generator in Python (tests
    compare the kernels' rollouts with it sample for sample)."""
    s[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = s[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t below(uint64_t* s, uint64_t n) noexcept nogil:
    """solodeck.shuffle's ``below``: uniform in [0, n) by rejection (no modulo bias)."""
    cdef uint64_t r = (<uint64_t>0 - n) % n  # 2^64 mod n
    cdef uint64_t x
    while True:
        x = next_random(s)
        if r == 0 or x < <uint64_t>0 - r:
            return x % n


cdef inline void seeded_shuffle(int* a, int n, uint64_t seed, uint64_t stream) noexcept nogil:
    """The seeded reshuffle (RULINGS, Common; solodeck.shuffle) of a[0 .. n) in place: Fisher-Yates
    driven by SplitMix64 from seed + stream * 0xD1B54A32D192ED03. Its draws depend on n only, never
    on what is shuffled: kernels keep one permutation per (stream, count)."""
    cdef uint64_t s = seed + stream * 0xD1B54A32D192ED03ULL
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = <int>below(&s, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """murmur3's 64-bit finaliser: every bit of z reaches every bit of the result."""
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL
    return z ^ (z >> 33)


# -- the clock ----------------------------------------------------------------------------------
cdef inline double now() noexcept nogil:
    """Monotonic seconds."""
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


ctypedef struct Clock:
    double limit        # seconds; 0: no time limit
    double deadline     # 0: not started yet (the clock starts with the next search)


cdef inline void clock_restart(Clock* c, double seconds) noexcept nogil:
    """A fresh time limit (0: none) that starts with the next search."""
    c.limit = seconds
    c.deadline = 0.0


cdef inline void clock_start(Clock* c) noexcept nogil:
    """At the start of a search: start the clock unless it already runs."""
    if c.deadline == 0.0 and c.limit > 0:
        c.deadline = now() + c.limit


cdef inline bint clock_expired(Clock* c, uint64_t nodes, uint64_t every) noexcept nogil:
    """Past the deadline? The clock is read only when ``nodes & every`` is 0 (every: a power of
    two minus one), so the check costs next to nothing per node."""
    return (nodes & every) == 0 and c.deadline > 0 and now() > c.deadline


# -- hash tables --------------------------------------------------------------------------------
cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #ifdef __linux__
    #include <sys/mman.h>
    #endif
    /* A zeroed table. A big one is aligned to 2 MB and offered huge pages: a search's table is
       read at random, and with 4 kB pages nearly every probe also misses the TLB. */
    static void* solodeck_table_calloc(size_t count, size_t size) {
        size_t bytes = count * size, huge = (size_t)2 << 20;
        void* p = NULL;
        if (bytes < huge)
            return calloc(count, size);
        if (posix_memalign(&p, huge, bytes) != 0)
            return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);
        return p;
    }
    """
    void* table_calloc "solodeck_table_calloc" (size_t count, size_t size) nogil


cdef inline uint64_t capacity_for(double memory_mb, size_t entry_size, uint64_t floor) noexcept nogil:
    """The largest power of two times ``floor`` (itself a power of two) whose entries of
    ``entry_size`` bytes fit in ``memory_mb``; ``floor`` if none does."""
    cdef uint64_t entries = <uint64_t>(memory_mb * 1048576.0 / entry_size)
    cdef uint64_t capacity = floor
    while capacity * 2 <= entries:
        capacity *= 2
    return capacity


cdef inline bint table_full(uint64_t used, uint64_t capacity) noexcept nogil:
    """Would one more entry fill an open-addressing table beyond three quarters? (For a capacity
    that is a multiple of 4, as every kernel's is, the same as ``used * 4 >= capacity * 3``.)"""
    return (used + 1) * 4 > capacity * 3


cdef inline void* grow_or_clear(void** table, uint64_t* capacity, uint64_t max_capacity,
                                size_t entry_size) noexcept nogil:
    """For a table that is only a cache (the state graph is acyclic: a lost entry is only searched
    again). Below ``max_capacity``: ``*table`` becomes a zeroed table twice as big and the old
    one is returned, for the caller to re-insert its entries under its own hashing and free. At
    the cap, or without memory for the bigger one: the table is zeroed in place and NULL
    returned (the caller resets its count of used slots)."""
    cdef void* old = table[0]
    cdef void* fresh
    if capacity[0] < max_capacity:
        fresh = table_calloc(capacity[0] * 2, entry_size)
        if fresh != NULL:
            table[0] = fresh
            capacity[0] *= 2
            return old
    memset(old, 0, capacity[0] * entry_size)
    return NULL
