# cython: language_level=3, boundscheck=False, wraparound=False
"""Area 52's compiled kernel: the legal moves, the baseline policy, the blind rule, blind rollouts,
and the exact open search (``Exact``, at the end of this file; solodeck/games/area52/search.py drives
it and tests/test_area52_kernel.py compares it with the reference's exhaustive search).

It mirrors solodeck/games/area52/ (the reference: rules.py, blind.py) and is tested equal to it
(tests/test_area52.py): the same legal moves, the same baseline moves, and rollouts that draw the
same cards with the same generator (solvers/rollouts.py's play_out), sample for sample.

- ``legal_moves(table, alien, wave)``: (kind, a, b) of every move (kind 0 dual, 1 single,
  2 sacrifice; b = -1 unless a dual), in the reference's order;
- ``baseline_move(table, alien, wave)``: the reference's baseline move, as (kind, a, b);
- ``rule_move(table, attackers, hidden, returned, wave)``: the reference's blind rule (rule_move);
- ``rollouts(table, defenders, attackers, to_flip, hidden, returned, discard, wave, moves, samples,
  seed)``: for each move, the move then the blind rule to the end, over ``samples`` draws
  (sample i uses the generator seeded seed + i); [(wins, sum of winning scores)].

Blind rollouts draw from the composition of a pile, so the kernel keeps the defender deck, the
unseen aliens and the discard pile as 64-bit sets of cards (bit = solodeck.cards' int); wave 2
moves the discard set into the unseen aliens. A draw picks the r-th smallest card of the pile,
r = next() mod its size, as the reference's sample_chance does over its sorted outcomes.
"""
from libc.stdint cimport uint64_t
from shared cimport next_random

cdef enum:
    TABLE = 6
    PER_TURN = 3
    MAX_RETURNED = 128   # sacrifices in a game: at most one per defender ever (52 cards)
    DUAL = 0
    SINGLE = 1
    SACRIFICE = 2


ctypedef struct Pos:
    int table[6]          # sorted by card
    int ntable
    uint64_t defenders    # the defender deck, as a set
    int att[3]            # the flipped aliens, the current one first
    int natt
    int to_flip
    uint64_t hidden       # the unseen aliens, as a set
    int ret[128]          # returned aliens: ret[ret_head : ret_head + ret_len]
    int ret_head
    int ret_len
    uint64_t discard
    int wave


cdef inline int value(int card) noexcept nogil:
    return card % 13 + 1


cdef inline bint red(int card) noexcept nogil:
    return card // 13 == 1 or card // 13 == 2


cdef extern int __builtin_popcountll(unsigned long long) nogil
cdef extern int __builtin_ctzll(unsigned long long) nogil


cdef inline int popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline int nth_card(uint64_t x, int r) noexcept nogil:
    """The r-th smallest card (from 0) of the set x."""
    while r > 0:
        x &= x - 1
        r -= 1
    return __builtin_ctzll(x)


cdef inline void table_add(Pos* p, int card) noexcept nogil:
    cdef int i = p.ntable
    while i > 0 and p.table[i - 1] > card:
        p.table[i] = p.table[i - 1]
        i -= 1
    p.table[i] = card
    p.ntable += 1


cdef inline void table_remove(Pos* p, int card) noexcept nogil:
    cdef int i, k = 0
    for i in range(p.ntable):
        if p.table[i] != card:
            p.table[k] = p.table[i]
            k += 1
    p.ntable = k


cdef inline void normalize(Pos* p) noexcept nogil:
    """The reference State's constructor: a new turn, wave 2's deck, flipping returned aliens."""
    cdef int n
    while True:
        if p.natt == 0 and p.to_flip == 0:
            n = popcount(p.hidden) + p.ret_len
            p.to_flip = n if n < PER_TURN else PER_TURN
            if p.to_flip == 0 and p.wave == 1:
                p.hidden, p.discard, p.wave = p.discard, 0, 2
                continue
        if p.to_flip > 0 and p.hidden == 0 and p.ret_len > 0:
            p.att[p.natt] = p.ret[p.ret_head]
            p.natt += 1
            p.ret_head += 1
            p.ret_len -= 1
            p.to_flip -= 1
            continue
        break


cdef inline int outcome(Pos* p) noexcept nogil:
    """1 won, -1 lost, 0 the game goes on."""
    if p.wave == 2 and p.natt + popcount(p.hidden) + p.ret_len == 0:
        return 1
    if p.ntable == 0 and p.defenders == 0:
        return -1
    return 0


cdef inline bint chance_step(Pos* p, uint64_t* rng) noexcept nogil:
    """Apply the chance node here, if any (a refill first, then the turn's flips)."""
    cdef int card
    if p.ntable < TABLE and p.defenders:
        card = nth_card(p.defenders, <int>(next_random(rng) % <uint64_t>popcount(p.defenders)))
        p.defenders &= ~(<uint64_t>1 << card)
        table_add(p, card)
        return True
    if p.to_flip > 0 and p.hidden:
        card = nth_card(p.hidden, <int>(next_random(rng) % <uint64_t>popcount(p.hidden)))
        p.hidden &= ~(<uint64_t>1 << card)
        p.att[p.natt] = card
        p.natt += 1
        p.to_flip -= 1
        normalize(p)
        return True
    return False


cdef inline int losses(int kind, int a, int b, int alien, int wave) noexcept nogil:
    if kind == SINGLE:
        return 0
    if kind == SACRIFICE:
        return 1
    if wave == 1:
        return 0
    return (red(a) == red(alien)) + (red(b) == red(alien))


cdef inline void play(Pos* p, int kind, int a, int b) noexcept nogil:
    cdef int alien = p.att[0]
    cdef int i
    if kind == DUAL:
        p.discard |= <uint64_t>1 << alien
        if p.wave == 2:
            if red(a) == red(alien):
                table_remove(p, a)
                p.discard |= <uint64_t>1 << a
            if red(b) == red(alien):
                table_remove(p, b)
                p.discard |= <uint64_t>1 << b
    elif kind == SINGLE:
        table_remove(p, a)
        p.discard |= <uint64_t>1 << a
        table_add(p, alien)
    else:
        table_remove(p, a)
        p.discard |= <uint64_t>1 << a
        p.ret[p.ret_head + p.ret_len] = alien
        p.ret_len += 1
    for i in range(1, p.natt):
        p.att[i - 1] = p.att[i]
    p.natt -= 1
    normalize(p)


cdef inline bint better(int kind, int a, int b, int loss, int best_kind, int best_a, int best_b,
                        int best_loss) noexcept nogil:
    """The reference baseline's order: fewer losses, then dual < single < sacrifice, then the
    cards' values in card order (lexicographic); ties keep the first."""
    if loss != best_loss:
        return loss < best_loss
    if kind != best_kind:
        return kind < best_kind
    if value(a) != value(best_a):
        return value(a) < value(best_a)
    return kind == DUAL and value(b) < value(best_b)


cdef void baseline(Pos* p, int* out_kind, int* out_a, int* out_b) noexcept nogil:
    """The reference's baseline_move over the legal moves in its order (duals, singles, sacrifices)."""
    cdef int alien = p.att[0]
    cdef int v = value(alien)
    cdef int i, j, a, b, loss
    cdef int best_kind = -1, best_a = -1, best_b = -1, best_loss = 99
    for i in range(p.ntable):
        for j in range(i + 1, p.ntable):
            a, b = p.table[i], p.table[j]
            if value(a) + value(b) == v:
                loss = losses(DUAL, a, b, alien, p.wave)
                if best_kind < 0 or better(DUAL, a, b, loss, best_kind, best_a, best_b, best_loss):
                    best_kind, best_a, best_b, best_loss = DUAL, a, b, loss
    for i in range(p.ntable):
        a = p.table[i]
        if red(a) != red(alien) and value(a) > v:
            if best_kind < 0 or better(SINGLE, a, -1, 0, best_kind, best_a, best_b, best_loss):
                best_kind, best_a, best_b, best_loss = SINGLE, a, -1, 0
    for i in range(p.ntable):
        a = p.table[i]
        if best_kind < 0 or better(SACRIFICE, a, -1, 1, best_kind, best_a, best_b, best_loss):
            best_kind, best_a, best_b, best_loss = SACRIFICE, a, -1, 1
    out_kind[0], out_a[0], out_b[0] = best_kind, best_a, best_b


cdef int free_answers(int* table, int n, int wave, bint alien_red) noexcept nogil:
    """The reference's free_answers for aliens of one colour: bit v set when an alien of value v
    has an answer on ``table`` that loses no defender."""
    cdef int i, j, a, b, high = 0, mask
    for i in range(n):
        if red(table[i]) != alien_red and value(table[i]) > high:
            high = value(table[i])
    mask = (1 << high) - 2 if high else 0
    for i in range(n):
        a = table[i]
        if wave == 2 and red(a) == alien_red:
            continue
        for j in range(i + 1, n):
            b = table[j]
            if wave == 2 and red(b) == alien_red:
                continue
            mask |= 1 << (value(a) + value(b))
    return mask


cdef int answered_after(Pos* p, int kind, int a, int b, int* once, int* twice) noexcept nogil:
    """The reference rule's count for a move: the aliens to come (``once``/``twice``: per colour,
    the values with at least one, with two) the table it leaves answers without a loss."""
    cdef int t[7]
    cdef int n = 0, i, d, alien = p.att[0], colour, mask, result = 0
    for i in range(p.ntable):
        d = p.table[i]
        if kind == DUAL:
            if p.wave == 2 and (d == a or d == b) and red(d) == red(alien):
                continue
        elif d == a:
            continue
        t[n] = d
        n += 1
    if kind == SINGLE:
        t[n] = alien
        n += 1
    for colour in range(2):
        if once[colour] == 0:
            continue
        mask = free_answers(t, n, p.wave, colour)
        result += popcount(<uint64_t>(mask & once[colour])) + popcount(<uint64_t>(mask & twice[colour]))
        if kind == SACRIFICE and colour == red(alien):
            result += mask >> value(alien) & 1
    if kind == SACRIFICE and once[red(alien)] == 0:
        result += free_answers(t, n, p.wave, red(alien)) >> value(alien) & 1
    return result


cdef inline void count_alien(int card, int* once, int* twice) noexcept nogil:
    cdef int bit = 1 << value(card), colour = red(card)
    twice[colour] |= once[colour] & bit   # a value has at most two cards of a colour
    once[colour] |= bit


cdef void rule(Pos* p, int* out_kind, int* out_a, int* out_b) noexcept nogil:
    """The reference's rule_move: of the moves that lose the fewest defenders (the baseline's
    order: kind, then the cards' values), the first that answers the most aliens to come."""
    cdef int kinds[30]
    cdef int firsts[30]
    cdef int seconds[30]
    cdef int once[2]
    cdef int twice[2]
    cdef int alien = p.att[0]
    cdef int v = value(alien)
    cdef int i, j, a, b, loss, ans, n = 0, fewest = 99, best = -1, best_ans = -1
    cdef uint64_t rest = p.hidden
    # the moves that lose the fewest defenders, in the reference's legal order
    for i in range(p.ntable):
        for j in range(i + 1, p.ntable):
            a, b = p.table[i], p.table[j]
            if value(a) + value(b) == v:
                loss = losses(DUAL, a, b, alien, p.wave)
                if loss < fewest:
                    fewest, n = loss, 0
                if loss == fewest:
                    kinds[n], firsts[n], seconds[n] = DUAL, a, b
                    n += 1
    for i in range(p.ntable):
        a = p.table[i]
        if red(a) != red(alien) and value(a) > v:
            if 0 < fewest:
                fewest, n = 0, 0
            kinds[n], firsts[n], seconds[n] = SINGLE, a, -1
            n += 1
    if fewest >= 1:
        if fewest > 1:
            fewest, n = 1, 0
        for i in range(p.ntable):
            kinds[n], firsts[n], seconds[n] = SACRIFICE, p.table[i], -1
            n += 1
    if n > 1:
        once[0] = once[1] = twice[0] = twice[1] = 0
        for i in range(1, p.natt):
            count_alien(p.att[i], once, twice)
        while rest:
            count_alien(__builtin_ctzll(rest), once, twice)
            rest &= rest - 1
        for i in range(p.ret_len):
            count_alien(p.ret[p.ret_head + i], once, twice)
    for i in range(n):
        ans = answered_after(p, kinds[i], firsts[i], seconds[i], once, twice) if n > 1 else 0
        if best < 0 or ans > best_ans or (ans == best_ans and better(
                kinds[i], firsts[i], seconds[i], fewest, kinds[best], firsts[best], seconds[best], fewest)):
            best, best_ans = i, ans
    out_kind[0], out_a[0], out_b[0] = kinds[best], firsts[best], seconds[best]


cdef bint play_out(Pos* p, uint64_t* rng, int* score) noexcept nogil:
    """The blind rule to the end, chance by ``rng``. Won? (``score``: a win's score.)"""
    cdef int kind, a, b, result
    while True:
        result = outcome(p)
        if result != 0:
            if result > 0:
                score[0] = p.ntable + popcount(p.defenders)
            return result > 0
        if chance_step(p, rng):
            continue
        rule(p, &kind, &a, &b)
        play(p, kind, a, b)


cdef uint64_t as_set(cards) except? 0:
    cdef uint64_t s = 0
    for c in cards:
        s |= <uint64_t>1 << <int>c
    return s


cdef Pos position(table, defenders, attackers, int to_flip, hidden, returned, discard, int wave) except *:
    cdef Pos p
    cdef int i
    if len(table) > TABLE or len(attackers) > PER_TURN or len(returned) > MAX_RETURNED // 2:
        raise ValueError("not an Area 52 position")
    p.ntable = 0
    for c in table:
        table_add(&p, c)
    p.defenders = as_set(defenders)
    p.natt = len(attackers)
    for i in range(p.natt):
        p.att[i] = attackers[i]
    p.to_flip = to_flip
    p.hidden = as_set(hidden)
    p.ret_head, p.ret_len = 0, len(returned)
    for i in range(p.ret_len):
        p.ret[i] = returned[i]
    p.discard = as_set(discard)
    p.wave = wave
    return p


def legal_moves(table, int alien, int wave):
    """(kind, a, b) of every move, in the reference's order."""
    cdef list t = sorted(table)
    cdef int v = value(alien)
    out = [(DUAL, t[i], t[j]) for i in range(len(t)) for j in range(i + 1, len(t)) if value(t[i]) + value(t[j]) == v]
    out += [(SINGLE, a, -1) for a in t if red(a) != red(alien) and value(a) > v]
    out += [(SACRIFICE, a, -1) for a in t]
    return out


def baseline_move(table, int alien, int wave):
    cdef Pos p = position(table, (), (alien,), 0, (), (), (), wave)
    cdef int kind, a, b
    baseline(&p, &kind, &a, &b)
    return kind, a, b


def rule_move(table, attackers, hidden, returned, int wave):
    """The reference's rule_move at a decision, as (kind, a, b)."""
    cdef Pos p = position(table, (), attackers, 0, hidden, returned, (), wave)
    cdef int kind, a, b
    rule(&p, &kind, &a, &b)
    return kind, a, b


def rollouts(table, defenders, attackers, int to_flip, hidden, returned, discard, int wave, moves, int samples,
             uint64_t seed):
    """[(wins, sum of winning scores)] for each (kind, a, b) of ``moves``."""
    cdef Pos start = position(table, defenders, attackers, to_flip, hidden, returned, discard, wave)
    cdef Pos p
    cdef uint64_t rng
    cdef int i, wins, total, score, kind, a, b
    out = []
    for kind, a, b in moves:
        wins = total = 0
        for i in range(samples):
            p = start
            rng = seed + <uint64_t>i
            play(&p, kind, a, b)
            if play_out(&p, &rng, &score):
                wins += 1
                total += score
        out.append((wins, total))
    return out


# == open mode: the exact search of whole deals (Exact) =============================================
#
# In open mode every draw is the top card, so a position is few numbers. The defender deck is the
# root's deck less its first ``k`` cards. The aliens still to handle form one first-in first-out
# queue: the attackers flipped, then the unseen aliens, then the returned ones, and a sacrifice
# sends the current attacker to its back (a turn flips the front of that queue, so the turns
# themselves never show in open play). The queue is a fixed part (the root's attackers and unseen
# aliens, or wave 2's deck) less its first ``h`` cards, followed by the returned aliens ``r``.
# A position is (table, k, h, r, wave), plus in wave 2 which deck the wave-1 ending reshuffled.
#
# Wave 1 ends when the queue is empty; every card not among the defenders left (table and deck) is
# then in the discard pile, and wave 2's deck is that set sorted and shuffled with stream 1 of the
# seed (ruling 6): the ending (table, k) fixes the deck, kept once per ending in ``ends``.
#
# The key. Wave 1: the table as a set of cards (suits matter: they fix wave 2's deck), k, h, r.
# Wave 2 reads no card's suit (actions read value and colour, and nothing is reshuffled again),
# so its key holds the table as (colour, value) pairs, k, h, r as (colour, value), and the ending's
# id; once the fixed part is spent (h at its end) the id is left out too, so the last aliens'
# endgames are shared by every wave-2 deck. Keys are stored whole (no hash-only match).

from libc.stdlib cimport malloc, free, realloc
from libc.string cimport memcpy
from shared cimport mix64, seeded_shuffle, now, Clock, clock_restart, clock_start, clock_expired
from shared cimport table_calloc, capacity_for, STOP_NONE, STOP_TIME, STOP_STATES

cdef enum:
    MAXR = 20            # returned aliens a key holds (a longer queue's positions are not stored)
    WIN = 1000           # value of a win: WIN + score
    LOSS = 500           # value of a loss: LOSS + score (score < 0)
    NEG = 0              # below every value
    BUCKET = 4           # table entries per bucket


ctypedef struct XPos:
    uint64_t tbl         # the table, as a set of cards
    int k                # defenders drawn from the root's deck
    int h                # aliens of the fixed part handled
    int nr               # returned aliens r[0 .. nr): the back of the queue
    int wave
    int end              # wave 2: the ending's id (its deck), 1 for a root already in wave 2
    signed char r[64]


ctypedef struct XEntry:
    uint64_t k0
    uint64_t k1
    uint64_t k2
    short value
    unsigned char exact
    unsigned char work   # log2 of the nodes searched under it: the cheapest is replaced first


ctypedef struct EndEntry:
    uint64_t key         # the wave-1 ending: table | k << 52, plus 1 << 63 (0: an empty slot)
    int id


cdef inline int code2(int card) noexcept nogil:
    """A card as wave 2 reads it: 1 + colour * 13 + value - 1 (1 .. 26)."""
    return 1 + (13 if red(card) else 0) + value(card) - 1


cdef class Exact:
    """Exact open-mode search of one root position (a whole deal or any position): the best
    outcome, proven, within a node budget, by depth-first search with a transposition table and
    branch and bound on the score (see the rules page, "How the solver plays it").

    ``Exact(table, defenders, queue, returned, wave, seed, memory_mb)``: the root after its
    refills (``queue``: the attackers then the unseen aliens, top first). ``solve(max_nodes,
    seconds)`` returns the value (WIN + score or LOSS + score) or None when a limit stopped it;
    then ``upper`` is the best value still possible (proven) and ``stopped`` why it stopped."""

    cdef int D[52]
    cdef int nD
    cdef int A1[64]
    cdef int nA1
    cdef XPos root
    cdef uint64_t seed
    cdef XEntry* table
    cdef uint64_t capacity, max_capacity, used
    cdef EndEntry* ends_index
    cdef uint64_t ends_capacity
    cdef unsigned char* decks     # deck of ending id: decks[id * 52 ...], its length lens[id]
    cdef unsigned char* lens
    cdef int nends, max_ends, deck_room
    cdef int perm[53][52]
    cdef bint have_perm[53]
    cdef public uint64_t nodes, max_nodes
    cdef public int stopped, upper, incumbent
    cdef int depth, best_len
    cdef uint64_t cap, sub_end
    cdef int guide_len
    cdef int guide_k[256]
    cdef int guide_a[256]
    cdef int guide_b[256]
    cdef bint on_guide[257]
    cdef int path_k[256]
    cdef int path_a[256]
    cdef int path_b[256]
    cdef int best_k[256]
    cdef int best_a[256]
    cdef int best_b[256]
    cdef Clock clock
    cdef uint64_t all_cards

    def __cinit__(self, table, defenders, queue, returned, int wave, uint64_t seed, double memory_mb):
        cdef int i
        if len(defenders) > 52 or len(queue) > 52 or len(returned) > 52 or len(table) > TABLE:
            raise ValueError("not an Area 52 position")
        self.seed = seed
        self.nD = len(defenders)
        for i in range(self.nD):
            self.D[i] = defenders[i]
        self.nA1 = len(queue)
        for i in range(self.nA1):
            self.A1[i] = queue[i]
        self.root.tbl = as_set(table)
        self.root.k = 0
        self.root.h = 0
        self.root.nr = len(returned)
        for i in range(self.root.nr):
            self.root.r[i] = returned[i]
        self.root.wave = wave
        self.root.end = 1 if wave == 2 else 0
        self.all_cards = (<uint64_t>1 << 52) - 1
        for i in range(53):
            self.have_perm[i] = False
        # the table: 4/5 of the memory, the endings the rest (52 + 1 bytes a deck, 16 an index slot)
        self.max_capacity = capacity_for(memory_mb * 0.8, sizeof(XEntry), 1024)
        self.capacity = 1 << 16 if self.max_capacity > (1 << 16) else self.max_capacity
        self.table = <XEntry*>table_calloc(self.capacity, sizeof(XEntry))
        self.max_ends = <int>(memory_mb * 0.2 * 1048576.0 / (53 + 2 * sizeof(EndEntry)))
        if self.max_ends < 1024:
            self.max_ends = 1024
        if self.max_ends > (1 << 21) - 4:
            self.max_ends = (1 << 21) - 4
        self.ends_capacity = 4096   # grows with the endings met (twice their count at least)
        self.deck_room = 2048
        self.ends_index = <EndEntry*>table_calloc(self.ends_capacity, sizeof(EndEntry))
        self.decks = <unsigned char*>malloc(<size_t>self.deck_room * 52)
        self.lens = <unsigned char*>malloc(<size_t>self.deck_room)
        if self.table == NULL or self.ends_index == NULL or self.decks == NULL or self.lens == NULL:
            raise MemoryError()
        self.nends = 2   # id 0: no fixed part left; id 1: the root's own wave-2 deck
        if wave == 2:
            self.lens[1] = self.nA1
            for i in range(self.nA1):
                self.decks[52 + i] = queue[i]
        self.used = 0
        self.nodes = 0
        self.incumbent = NEG
        self.depth = 0
        self.best_len = 0
        self.cap = 0
        self.sub_end = 0
        self.guide_len = 0
        self.on_guide[0] = True
        self.max_nodes = 0
        self.stopped = STOP_NONE

    def __dealloc__(self):
        free(self.table)
        free(self.ends_index)
        free(self.decks)
        free(self.lens)

    @property
    def stored(self):
        return self.used

    @property
    def endings(self):
        return self.nends - 2

    # -- the queue ---------------------------------------------------------------------------------
    cdef inline int fixed_len(self, XPos* p) noexcept nogil:
        if p.wave == 2:
            return self.lens[p.end] if p.end > 0 else 0
        return self.nA1

    cdef inline int fixed_card(self, XPos* p, int i) noexcept nogil:
        if p.wave == 2:
            return self.decks[p.end * 52 + i]
        return self.A1[i]

    cdef inline int queue_len(self, XPos* p) noexcept nogil:
        return self.fixed_len(p) - p.h + p.nr

    cdef inline int front(self, XPos* p) noexcept nogil:
        if p.h < self.fixed_len(p):
            return self.fixed_card(p, p.h)
        return p.r[0]

    cdef inline void pop_front(self, XPos* p) noexcept nogil:
        cdef int i
        if p.h < self.fixed_len(p):
            p.h += 1
            if p.wave == 2 and p.h == self.fixed_len(p):
                p.end, p.h = 0, 0   # the deck is spent: only the returned aliens are left
        else:
            for i in range(1, p.nr):
                p.r[i - 1] = p.r[i]
            p.nr -= 1

    cdef inline uint64_t deck_set(self, int k) noexcept nogil:
        cdef uint64_t s = 0
        cdef int i
        for i in range(k, self.nD):
            s |= <uint64_t>1 << self.D[i]
        return s

    # -- wave 2's decks, one per wave-1 ending -------------------------------------------------------
    cdef bint make_room(self) noexcept nogil:
        """Room for one more ending: the index at most half full, a deck's room. False: no memory."""
        cdef EndEntry* old
        cdef EndEntry* fresh
        cdef uint64_t n, i, j
        cdef unsigned char* d
        cdef unsigned char* l
        if <uint64_t>(self.nends + 1) * 2 > self.ends_capacity:
            n = self.ends_capacity * 2
            fresh = <EndEntry*>table_calloc(n, sizeof(EndEntry))
            if fresh == NULL:
                return False
            old = self.ends_index
            for i in range(self.ends_capacity):
                if old[i].key != 0:
                    j = mix64(old[i].key) & (n - 1)
                    while fresh[j].key != 0:
                        j = (j + 1) & (n - 1)
                    fresh[j] = old[i]
            self.ends_index, self.ends_capacity = fresh, n
            free(old)
        if self.nends + 1 > self.deck_room:
            d = <unsigned char*>realloc(self.decks, <size_t>self.deck_room * 2 * 52)
            if d == NULL:
                return False
            self.decks = d
            l = <unsigned char*>realloc(self.lens, <size_t>self.deck_room * 2)
            if l == NULL:
                return False
            self.lens = l
            self.deck_room *= 2
        return True

    cdef int ending(self, uint64_t tbl, int k) noexcept nogil:
        """The id of the ending (table, k): its deck is the discard pile, sorted, shuffled with
        stream 1 (solodeck.shuffle: the swaps depend on the count only, so one permutation per
        count serves every pile). -1 when the endings fill their share of the memory."""
        cdef uint64_t key = tbl | (<uint64_t>k << 52) | (<uint64_t>1 << 63)
        cdef uint64_t mask = self.ends_capacity - 1
        cdef uint64_t i = mix64(key) & mask
        cdef uint64_t discard
        cdef int n, j, id
        cdef int sorted_cards[52]
        while self.ends_index[i].key != 0:
            if self.ends_index[i].key == key:
                return self.ends_index[i].id
            i = (i + 1) & mask
        if self.nends >= self.max_ends or not self.make_room():
            return -1
        i = mix64(key) & (self.ends_capacity - 1)
        while self.ends_index[i].key != 0:
            i = (i + 1) & (self.ends_capacity - 1)
        id = self.nends
        self.nends += 1
        self.ends_index[i].key = key
        self.ends_index[i].id = id
        discard = self.all_cards & ~tbl & ~self.deck_set(k)
        n = 0
        while discard:
            sorted_cards[n] = __builtin_ctzll(discard)
            n += 1
            discard &= discard - 1
        if not self.have_perm[n]:
            for j in range(n):
                self.perm[n][j] = j
            seeded_shuffle(self.perm[n], n, self.seed, 1)
            self.have_perm[n] = True
        self.lens[id] = n
        for j in range(n):
            self.decks[id * 52 + j] = sorted_cards[self.perm[n][j]]
        return id

    def root_bound(self):
        """The bound of the root: the best value it can still reach (tests hold it to the truth)."""
        cdef XPos p = self.root
        return self.bound(&p)

    def ending_deck(self, table, int k):
        """Wave 2's deck after a wave-1 ending with ``table`` and the root's deck less its first
        ``k`` cards (tests compare it with rules.wave2_deck)."""
        cdef int id = self.ending(as_set(table), k)
        if id < 0:
            raise MemoryError("area52 kernel: the wave-1 endings are full")
        return [self.decks[id * 52 + i] for i in range(self.lens[id])]

    # -- making a move -----------------------------------------------------------------------------
    cdef inline void refill(self, XPos* p) noexcept nogil:
        while popcount(p.tbl) < TABLE and p.k < self.nD:
            p.tbl |= <uint64_t>1 << self.D[p.k]
            p.k += 1

    cdef int apply(self, XPos* p, int kind, int a, int b) noexcept nogil:
        """Play (kind, a, b) against the front of the queue, refill, and settle what follows:
        returns the final value if the game is over, else 0 (-1: the endings are full)."""
        cdef int alien = self.front(p)
        if kind == DUAL:
            if p.wave == 2:
                if red(a) == red(alien):
                    p.tbl &= ~(<uint64_t>1 << a)
                if red(b) == red(alien):
                    p.tbl &= ~(<uint64_t>1 << b)
            self.pop_front(p)
        elif kind == SINGLE:
            p.tbl &= ~(<uint64_t>1 << a)
            p.tbl |= <uint64_t>1 << alien
            self.pop_front(p)
        else:
            p.tbl &= ~(<uint64_t>1 << a)
            self.pop_front(p)
            p.r[p.nr] = alien
            p.nr += 1
        self.refill(p)
        return self.settle(p)

    cdef int settle(self, XPos* p) noexcept nogil:
        """The end of wave 1 (wave 2's deck), and the outcome: its value, or 0 while it goes on."""
        cdef int n = self.queue_len(p), id
        if n == 0:
            if p.wave == 1:
                id = self.ending(p.tbl, p.k)
                if id < 0:
                    return -1
                p.wave, p.end, p.h, p.nr = 2, id, 0, 0
                n = self.lens[id]
                if n == 0:   # no discard at all (impossible in a deal): wave 2 is won at once
                    p.end = 0
                    return WIN + popcount(p.tbl) + self.nD - p.k
            else:
                return WIN + popcount(p.tbl) + self.nD - p.k
        if p.tbl == 0 and p.k >= self.nD:
            return LOSS - n - (50 if p.wave == 1 else 0)
        return 0

    # -- the bound ----------------------------------------------------------------------------------
    cdef int bound(self, XPos* p) noexcept nogil:
        """The best value still reachable (optimistic): a win scores at most the defenders left
        less the losses still forced (the rules page, "The score bound"). No win: a loss, at most -1.

        The queue's aliens are first faced in queue order (a sacrifice sends its alien behind all
        of them), the i-th after exactly i actions. When the i-th is first faced, the table can
        only hold cards of the table now, aliens ahead of it in the queue (put there by singles)
        and the cards drawn since, which are the deck's first d: no more than the losses so far,
        and no more than i actions could lose (one each in wave 1, two in wave 2). An alien with
        no loss-free answer (a single or, in wave 2, a dual of the other colour; in wave 1 a dual
        of any colours) among those cards costs at least one defender at that first facing; one
        that no single can answer then never joins the table before the aliens behind it.
        With F(m) those aliens counted when m deck cards may be drawn, the losses L to come draw
        at most L cards, so L >= F(L) (F never grows with m): L is at least the least m with
        F(m) <= m."""
        cdef int q[128]
        cdef int n = self.queue_len(p), fixed = self.fixed_len(p), left, m, i
        cdef int per_action = 2 if p.wave == 2 else 1
        for i in range(n):
            q[i] = self.fixed_card(p, p.h + i) if p.h + i < fixed else p.r[p.h + i - fixed]
        left = popcount(p.tbl) + self.nD - p.k
        m = 0
        while self.forced(p, q, n, m, per_action) > m:
            m += 1
            if m > left:
                return LOSS - 1
        return WIN + left - m

    cdef int forced(self, XPos* p, int* q, int n, int m, int per_action) noexcept nogil:
        """F(m) of ``bound``: the aliens of the queue ``q`` with no loss-free answer among the
        cards that can be on the table when each is first faced, m deck cards drawn at most."""
        cdef int high[2]
        cdef uint64_t sums[2]
        cdef uint64_t seen[2]
        cdef uint64_t tb = p.tbl
        cdef int i, c, v, other, drawn = 0, count = 0, deck_left = self.nD - p.k
        high[0] = high[1] = 0
        sums[0] = sums[1] = 0
        seen[0] = seen[1] = 0
        while tb:
            c = __builtin_ctzll(tb)
            tb &= tb - 1
            self.add_defender(p.wave, c, high, sums, seen)
        for i in range(n):
            # the deck's cards that can have been drawn before the i-th alien is first faced
            while drawn < m and drawn < per_action * i and drawn < deck_left:
                self.add_defender(p.wave, self.D[p.k + drawn], high, sums, seen)
                drawn += 1
            c = q[i]
            v = value(c)
            other = 0 if red(c) else 1
            if high[other] > v:
                self.add_defender(p.wave, c, high, sums, seen)   # a single can put it on the table
            elif not (sums[other] >> v) & 1:
                count += 1
        return count

    cdef inline void add_defender(self, int wave, int card, int* high, uint64_t* sums, uint64_t* seen) noexcept nogil:
        """Count ``card`` among the cards that can defend: the highest of its colour (singles) and
        the sums of two cards (duals: of one colour in wave 2, of any colours in wave 1, where
        both colours' sums are kept alike)."""
        cdef int col = red(card), v = value(card)
        if v > high[col]:
            high[col] = v
        if wave == 2:
            sums[col] |= seen[col] << v
            seen[col] |= <uint64_t>1 << v
        else:
            sums[0] |= seen[0] << v
            seen[0] |= <uint64_t>1 << v
            sums[1] = sums[0]

    # -- the key and the table ------------------------------------------------------------------------
    cdef bint make_key(self, XPos* p, uint64_t* key) noexcept nogil:
        """The position's key (three words), False when it does not fit (then it is not stored)."""
        cdef uint64_t k0 = 0, w
        cdef int codes[6]
        cdef int n = 0, i, j, c, t
        cdef uint64_t tb
        if p.nr > MAXR:
            return False
        if p.wave == 1:
            if p.h >= 32:
                return False
            k0 = p.tbl | (<uint64_t>p.k << 52) | (<uint64_t>p.h << 58)
        else:
            tb = p.tbl
            while tb:
                c = code2(__builtin_ctzll(tb))
                tb &= tb - 1
                j = n
                while j > 0 and codes[j - 1] > c:
                    codes[j] = codes[j - 1]
                    j -= 1
                codes[j] = c
                n += 1
            for i in range(n):
                k0 |= <uint64_t>codes[i] << (5 * i)
            k0 |= (<uint64_t>p.h << 30) | (<uint64_t>p.k << 36) | (<uint64_t>p.end << 42) | (<uint64_t>1 << 63)
        key[0] = k0
        key[1] = key[2] = 0
        for i in range(p.nr):
            c = p.r[i] + 1 if p.wave == 1 else code2(p.r[i])
            key[1 + i // 10] |= <uint64_t>c << (6 * (i % 10))
        return True

    cdef inline uint64_t slot(self, uint64_t* key) noexcept nogil:
        return (mix64(key[0] ^ mix64(key[1] ^ mix64(key[2] + 0x9E3779B97F4A7C15ULL))) & (self.capacity - 1)) & ~(<uint64_t>BUCKET - 1)

    cdef XEntry* probe(self, uint64_t* key) noexcept nogil:
        cdef uint64_t s = self.slot(key)
        cdef int i
        cdef XEntry* e
        for i in range(BUCKET):
            e = &self.table[s + i]
            if e.work == 0:
                return NULL
            if e.k0 == key[0] and e.k1 == key[1] and e.k2 == key[2]:
                return e
        return NULL

    cdef void grow(self) noexcept nogil:
        cdef XEntry* old = self.table
        cdef uint64_t old_capacity = self.capacity, i, s
        cdef XEntry* fresh = <XEntry*>table_calloc(self.capacity * 2, sizeof(XEntry))
        cdef uint64_t key[3]
        cdef int j
        if fresh == NULL:
            self.max_capacity = self.capacity
            return
        self.table = fresh
        self.capacity *= 2
        for i in range(old_capacity):
            if old[i].work == 0:
                continue
            key[0], key[1], key[2] = old[i].k0, old[i].k1, old[i].k2
            s = self.slot(key)
            for j in range(BUCKET):
                if self.table[s + j].work == 0:
                    self.table[s + j] = old[i]
                    break
        free(old)

    cdef void store(self, uint64_t* key, int value, bint exact, uint64_t work) noexcept nogil:
        cdef uint64_t s
        cdef int i, victim = -1
        cdef XEntry* e
        cdef unsigned char w = 1
        while work > 1 and w < 250:
            work >>= 1
            w += 1
        if self.used * 4 >= self.capacity * 3 and self.capacity < self.max_capacity:
            self.grow()
        s = self.slot(key)
        for i in range(BUCKET):
            e = &self.table[s + i]
            if e.work == 0 or (e.k0 == key[0] and e.k1 == key[1] and e.k2 == key[2]):
                if e.work == 0:
                    self.used += 1
                victim = i
                break
            if victim < 0 or e.work < self.table[s + victim].work:
                victim = i
        e = &self.table[s + victim]
        e.k0, e.k1, e.k2 = key[0], key[1], key[2]
        e.value = <short>value
        e.exact = exact
        e.work = w

    # -- the search ----------------------------------------------------------------------------------
    cdef int moves(self, XPos* p, int* kinds, int* firsts, int* seconds) noexcept nogil:
        """The moves against the front of the queue that lead to different positions, those that
        lose fewer defenders first (then duals, singles from the highest defender, sacrifices from
        the lowest). A dual's position depends only on the defenders it discards: in wave 1 every
        dual gives the same one (only the alien is discarded), in wave 2 the pairs that discard
        the same (colour, value) cards give the same. Wave 2 reads no suit: a single or a sacrifice
        of a card alike in value and colour to one already listed is left out."""
        cdef int alien = self.front(p), v = value(alien), ra = red(alien)
        cdef int t[6]
        cdef int sigs[40]
        cdef int n = 0, m = 0, i, j, a, b, loss, pass_, sig, x, i1, i2
        cdef uint64_t tb = p.tbl
        cdef bint dup
        while tb:
            t[n] = __builtin_ctzll(tb)
            tb &= tb - 1
            n += 1
        for pass_ in range(3):   # moves losing 0, 1, 2 defenders
            for i in range(n):
                for j in range(i + 1, n):
                    a, b = t[i], t[j]
                    if value(a) + value(b) != v:
                        continue
                    if p.wave == 1:
                        loss, sig = 0, 0
                    else:
                        loss = (red(a) == ra) + (red(b) == ra)
                        i1 = code2(a) if red(a) == ra else 0
                        i2 = code2(b) if red(b) == ra else 0
                        sig = i1 * 27 + i2 if i1 <= i2 else i2 * 27 + i1
                    if loss != pass_:
                        continue
                    dup = False
                    for x in range(m):
                        if kinds[x] == DUAL and sigs[x] == sig:
                            dup = True
                            break
                    if dup:
                        continue
                    kinds[m], firsts[m], seconds[m], sigs[m] = DUAL, a, b, sig
                    m += 1
            if pass_ == 0:
                for i in range(n - 1, -1, -1):
                    a = t[i]
                    if red(a) != ra and value(a) > v:
                        if p.wave == 2 and self.seen_code(code2(a), kinds, firsts, m, SINGLE):
                            continue
                        kinds[m], firsts[m], seconds[m], sigs[m] = SINGLE, a, -1, 0
                        m += 1
            if pass_ == 1:
                for i in range(n):
                    a = t[i]
                    if p.wave == 2 and self.seen_code(code2(a), kinds, firsts, m, SACRIFICE):
                        continue
                    kinds[m], firsts[m], seconds[m], sigs[m] = SACRIFICE, a, -1, 0
                    m += 1
        return m

    cdef inline bint seen_code(self, int code, int* kinds, int* firsts, int m, int kind) noexcept nogil:
        cdef int i
        for i in range(m):
            if kinds[i] == kind and code2(firsts[i]) == code:
                return True
        return False

    def set_guide(self, moves):
        """A line to try first (the line search's first line): (kind, a, b) moves from the root."""
        cdef int i
        self.guide_len = min(len(moves), 255)
        for i in range(self.guide_len):
            self.guide_k[i], self.guide_a[i], self.guide_b[i] = moves[i]

    cdef bint same_move(self, XPos* p, int kind, int a, int b, int d) noexcept nogil:
        """Is (kind, a, b) the guide's move at depth d (in wave 2, alike in values and colours)?"""
        cdef int ga = self.guide_a[d], gb = self.guide_b[d]
        if kind != self.guide_k[d]:
            return False
        if a == ga and b == gb:
            return True
        if p.wave == 1 and kind == DUAL:
            return True   # every wave-1 dual gives the same position
        if p.wave == 2:
            if kind != DUAL:
                return code2(a) == code2(ga)
            return (code2(a) == code2(ga) and code2(b) == code2(gb)) or (code2(a) == code2(gb) and code2(b) == code2(ga))
        return False

    cdef void guide_first(self, XPos* p, int* kinds, int* firsts, int* seconds, int m) noexcept nogil:
        cdef int i, j
        for i in range(m):
            if self.same_move(p, kinds[i], firsts[i], seconds[i], self.depth):
                for j in range(i, 0, -1):
                    kinds[j], kinds[j - 1] = kinds[j - 1], kinds[j]
                    firsts[j], firsts[j - 1] = firsts[j - 1], firsts[j]
                    seconds[j], seconds[j - 1] = seconds[j - 1], seconds[j]
                return

    cdef void record(self, int value) noexcept nogil:
        """A line from the root reaching ``value``, better than any before: the incumbent."""
        cdef int i
        self.incumbent = value
        self.best_len = self.depth
        for i in range(self.depth):
            self.best_k[i], self.best_a[i], self.best_b[i] = self.path_k[i], self.path_a[i], self.path_b[i]

    def incumbent_line(self):
        """The moves of the incumbent's line (NEG: none found)."""
        return [(self.best_k[i], self.best_a[i], self.best_b[i]) for i in range(self.best_len)]

    cdef int search(self, XPos* p, int alpha) noexcept nogil:
        """The exact value of the (live) position p when it is above alpha, else an upper bound
        no higher than alpha (fail-soft). Nothing is stored once a limit stops the search."""
        cdef uint64_t key[3]
        cdef bint keyed
        cdef XEntry* e
        cdef int b, best = NEG, value_, m, i, child_alpha, end
        cdef int kinds[40]
        cdef int firsts[40]
        cdef int seconds[40]
        cdef XPos c
        cdef uint64_t start_nodes = self.nodes
        self.nodes += 1
        if (self.max_nodes and self.nodes > self.max_nodes):
            self.stopped = STOP_STATES
            return NEG
        if clock_expired(&self.clock, self.nodes, 4095):
            self.stopped = STOP_TIME
            return NEG
        if self.sub_end and self.nodes > self.sub_end:
            return NEG   # the line search's cap on one wave-2 deck: its value is not known
        if self.incumbent > alpha:
            alpha = self.incumbent
        keyed = self.make_key(p, key)
        if keyed:
            e = self.probe(key)
            if e != NULL and (e.exact or e.value <= alpha):
                return e.value
        b = self.bound(p)
        if b <= alpha:
            return b
        m = self.moves(p, kinds, firsts, seconds)
        if self.on_guide[self.depth] and self.depth < self.guide_len:
            self.guide_first(p, kinds, firsts, seconds, m)
        for i in range(m):
            c = p[0]
            end = self.apply(&c, kinds[i], firsts[i], seconds[i])
            if end < 0:
                self.stopped = STOP_STATES
                return NEG
            if self.incumbent > alpha:
                alpha = self.incumbent
            child_alpha = best if best > alpha else alpha
            if self.depth >= 255:
                self.stopped = STOP_STATES
                return NEG
            self.path_k[self.depth], self.path_a[self.depth], self.path_b[self.depth] = kinds[i], firsts[i], seconds[i]
            self.on_guide[self.depth + 1] = self.on_guide[self.depth] and i == 0 and self.depth < self.guide_len \
                and self.same_move(p, kinds[0], firsts[0], seconds[0], self.depth)
            self.depth += 1
            if end > 0:
                value_ = end
                if end > self.incumbent:
                    self.record(end)
            elif self.cap and c.wave == 2 and p.wave == 1:
                self.sub_end = self.nodes + self.cap
                value_ = self.search(&c, child_alpha)
                self.sub_end = 0
            else:
                value_ = self.search(&c, child_alpha)
            self.depth -= 1
            if self.stopped:
                return NEG
            if value_ > best:
                best = value_
                if best >= b:
                    break
        if keyed:
            self.store(key, best, best > alpha, self.nodes - start_nodes)
        return best

    # -- the root ------------------------------------------------------------------------------------
    cdef void begin(self, uint64_t max_nodes, double seconds) noexcept:
        """A search from the root starts: its node budget (0: none) and its time limit (0: none)."""
        self.max_nodes = self.nodes + max_nodes if max_nodes else 0
        self.stopped = STOP_NONE
        clock_restart(&self.clock, seconds)
        clock_start(&self.clock)
        self.depth = 0

    def below(self, uint64_t max_nodes=0, double seconds=0.0, uint64_t cap=0):
        """Branch and bound from below: the value (exact) or None when a limit stopped it; the
        incumbent and its line are the best found either way. ``cap`` > 0 makes it a line search
        only: each wave-2 deck reached from wave 1 gets at most ``cap`` nodes, so many wave-1
        endings are tried; the value returned then proves nothing (and this table must not serve
        an exact search)."""
        cdef XPos p = self.root
        cdef int v
        self.cap = cap
        self.sub_end = 0
        self.begin(max_nodes, seconds)
        v = self.search(&p, NEG)
        if self.stopped:
            return None
        return v

    def solve(self, uint64_t max_nodes=0, double seconds=0.0, int floor=NEG):
        """The root's exact value, or None when a limit stopped the search (``stopped``: 1 time,
        2 nodes or memory); ``upper`` is then the best value still possible, proven. ``floor``: a
        value some known line reaches (the search only has to rule out better ones).

        Aspiration from the top: is the value the root's bound u? The search with alpha = u - 1
        either finds it (exact) or returns a lower bound u' on what is possible, proven: then
        u' is tried, and so on (the table keeps what each try proved). Once no win is possible the
        best loss is searched with branch and bound alone."""
        cdef XPos p = self.root
        cdef int v
        self.begin(max_nodes, seconds)
        self.upper = self.bound(&p)
        while True:
            if floor >= self.upper:
                return floor
            if self.upper < WIN:   # no win: the best loss
                v = self.search(&p, NEG if floor < NEG else floor)
                if self.stopped:
                    return None
                return v if v > floor else floor
            v = self.search(&p, self.upper - 1)
            if self.stopped:
                return None
            if v >= self.upper:
                return v
            self.upper = v

    def prove_above(self, int floor, uint64_t max_nodes=0, double seconds=0.0):
        """Branch and bound from below with ``floor`` (a value some line reaches) as the alpha: the
        root's exact value when it beats ``floor``, else ``floor`` proven best (None: stopped)."""
        cdef XPos p = self.root
        cdef int v
        self.begin(max_nodes, seconds)
        v = self.search(&p, floor)
        if self.stopped:
            return None
        return v if v > floor else floor

    def best_line(self, int value):
        """The moves (kind, a, b) of a line from the root reaching ``value`` (solved before)."""
        cdef XPos p = self.root
        cdef XPos c
        cdef int kinds[40]
        cdef int firsts[40]
        cdef int seconds[40]
        cdef int m, i, end, v
        out = []
        self.max_nodes = 0
        self.stopped = STOP_NONE
        clock_restart(&self.clock, 0.0)
        self.depth = 0
        self.incumbent = NEG   # a child's value is read exactly only against alpha = value - 1
        while True:
            m = self.moves(&p, kinds, firsts, seconds)
            for i in range(m):
                c = p
                end = self.apply(&c, kinds[i], firsts[i], seconds[i])
                v = end if end != 0 else self.search(&c, value - 1)
                if v >= value:
                    break
            else:
                raise AssertionError("area52 kernel: no move reaches the value solved")
            out.append((kinds[i], firsts[i], seconds[i]))
            if end != 0:
                return out
            p = c
