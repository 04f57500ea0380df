# cython: language_level=3, boundscheck=False, wraparound=False
"""Area 52's compiled kernel: the legal moves, the baseline policy, the blind rule and blind rollouts.

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
