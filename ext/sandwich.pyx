# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Sandwich Guy kernel: blind mode's rollouts (the hot loop of the blind policy) in C.

It mirrors the reference engine (solodeck/games/sandwich/rules.py, blind.py) and solvers/rollouts.py: the same
legal moves in the same order (the hand's cards ascending, triples in lexicographic order), the
same rules (the baseline policy and the blind rule, RULE_* below), and the same sampled draws:
a draw of n cards is a partial Fisher-Yates shuffle of the deck in ascending card order,
position i swapped with i + next() mod (size - i), with splitmix64 seeded seed + i for sample i. Tests compare it with the Python rollouts sample
for sample. Open mode needs no kernel (the generic search takes milliseconds per deal).

Cards are solodeck's ints (suit * 13 + rank - 1); a card's value for the sandwich rule is card % 13.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset
from shared cimport next_random

cdef enum:
    RULE_BASELINE = 0   # SandwichGuy.baseline_move
    RULE_OUTS = 1       # SandwichGuy.blind_rule (rule_move): the blind rule
    HAND_LIMIT = 8
    MAX_HAND = 8
    MAX_DECK = 52

cdef int COMPLETE[13][13]   # bit c set: {a, b, c} is a sandwich (values 0..12)


cdef void _init_complete():
    cdef int a, b
    for a in range(13):
        for b in range(13):
            if a == b:
                COMPLETE[a][b] = 1 << a
            else:
                COMPLETE[a][b] = ((1 << ((2 * b - a + 26) % 13)) | (1 << ((2 * a - b + 26) % 13))
                                  | (1 << ((a + b) * 7 % 13)))

_init_complete()


cdef inline bint sandwich(int a, int b, int c) noexcept nogil:
    return (COMPLETE[a % 13][b % 13] >> (c % 13)) & 1


cdef inline int red(int card) noexcept nogil:
    return card // 13 == 1 or card // 13 == 2


cdef inline int draw_count(int a, int b, int c) noexcept nogil:
    if a // 13 == b // 13 and b // 13 == c // 13:
        return 4
    if red(a) == red(b) and red(b) == red(c):  # black: spades 0, clubs 3; red: hearts 1, diamonds 2
        return 3
    return 2


cdef int count_sandwiches(int* h, int n) noexcept nogil:
    cdef int i, j, k, count = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                count += sandwich(h[i], h[j], h[k])
    return count


cdef int legal_moves(int* h, int n, int* out) noexcept nogil:
    """The sandwiches of the (ascending) hand as index triples, in the reference's order."""
    cdef int i, j, k, m = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if sandwich(h[i], h[j], h[k]):
                    out[3 * m] = i; out[3 * m + 1] = j; out[3 * m + 2] = k
                    m += 1
    return m


cdef int kept_after(int* h, int n, int i, int j, int k, int* kept) noexcept nogil:
    cdef int x, m = 0
    for x in range(n):
        if x != i and x != j and x != k:
            kept[m] = h[x]
            m += 1
    return m


cdef int outs(int* kept, int m, int* unseen) noexcept nogil:
    """The reference's outs(): twice the unseen cards completing a pair of one colour kept in that
    colour, plus those completing a pair of one suit in that suit (``unseen``: counts by suit *
    13 + value)."""
    cdef int x, y, v, suit, mask, total = 0
    cdef int by_suit[4]
    cdef int by_colour[2]
    memset(by_suit, 0, sizeof(by_suit))
    memset(by_colour, 0, sizeof(by_colour))
    for x in range(m):
        for y in range(x + 1, m):
            if red(kept[x]) == red(kept[y]):
                mask = COMPLETE[kept[x] % 13][kept[y] % 13]
                by_colour[red(kept[x])] |= mask
                if kept[x] // 13 == kept[y] // 13:
                    by_suit[kept[x] // 13] |= mask
    for suit in range(4):
        mask = by_colour[suit == 1 or suit == 2]
        for v in range(13):
            total += unseen[suit * 13 + v] * (2 * ((mask >> v) & 1) + ((by_suit[suit] >> v) & 1))
    return total


cdef int choose(int rule, int* h, int n, int* deck, int deck_size, int* bi, int* bj, int* bk) noexcept nogil:
    """The rule's move: the most cards in hand after the draw, then (RULE_BASELINE,
    SandwichGuy.baseline_move) the most sandwiches among the cards kept or (RULE_OUTS, rule_move)
    the most outs, then the first in legal order. 0: no sandwich."""
    cdef int i, j, k, m, drawn, size, second, x, best_size = -1, best_second = -1
    cdef int kept[MAX_HAND]
    cdef int unseen[52]
    if rule == RULE_OUTS:
        memset(unseen, 0, sizeof(unseen))
        for x in range(deck_size):
            unseen[deck[x]] = 1
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if not sandwich(h[i], h[j], h[k]):
                    continue
                m = kept_after(h, n, i, j, k, kept)
                drawn = draw_count(h[i], h[j], h[k])
                if drawn > HAND_LIMIT - m:
                    drawn = HAND_LIMIT - m
                if drawn > deck_size:
                    drawn = deck_size
                size = m + drawn
                if size < best_size:
                    continue
                second = outs(kept, m, unseen) if rule == RULE_OUTS else count_sandwiches(kept, m)
                if size > best_size or second > best_second:
                    best_size = size; best_second = second
                    bi[0] = i; bj[0] = j; bk[0] = k
    return best_size >= 0


cdef int discard_and_draw(int* h, int n, int i, int j, int k, int* deck, int* d, uint64_t* rng) noexcept nogil:
    """Discard h[i], h[j], h[k]; draw the sampled cards; keep hand and deck ascending. New hand size."""
    cdef int tmp[MAX_DECK]
    cdef int taken[52]
    cdef int kept[MAX_HAND + 4]
    cdef int x, y, r, t, m, want = draw_count(h[i], h[j], h[k])
    m = kept_after(h, n, i, j, k, kept)
    if want > HAND_LIMIT - m:
        want = HAND_LIMIT - m
    if want > d[0]:
        want = d[0]
    if want > 0:
        for x in range(d[0]):
            tmp[x] = deck[x]
        memset(taken, 0, sizeof(taken))
        for x in range(want):  # partial Fisher-Yates over the ascending deck (the reference's sample_chance)
            r = x + <int>(next_random(rng) % <uint64_t>(d[0] - x))
            t = tmp[x]; tmp[x] = tmp[r]; tmp[r] = t
            taken[tmp[x]] = 1
        for x in range(want):  # insert into the ascending hand
            t = tmp[x]
            y = m
            while y > 0 and kept[y - 1] > t:
                kept[y] = kept[y - 1]
                y -= 1
            kept[y] = t
            m += 1
        y = 0
        for x in range(d[0]):
            if not taken[deck[x]]:
                deck[y] = deck[x]
                y += 1
        d[0] = y
    for x in range(m):
        h[x] = kept[x]
    return m


cdef int play_out(int rule, int* h, int n, int* deck, int* d, uint64_t* rng, int* score) noexcept nogil:
    """The rule (RULE_*) to the end from a decision; 1 = won (score = cards left in hand)."""
    cdef int i = 0, j = 0, k = 0
    while choose(rule, h, n, deck, d[0], &i, &j, &k):
        n = discard_and_draw(h, n, i, j, k, deck, d, rng)
    score[0] = n
    return d[0] == 0


cdef tuple _arrays(hand, deck, int* h, int* dk):
    hand = sorted(hand)
    deck = sorted(deck)
    if len(hand) > MAX_HAND or len(deck) > MAX_DECK:
        raise ValueError("too many cards")
    for x, c in enumerate(hand):
        h[x] = c
    for x, c in enumerate(deck):
        dk[x] = c
    return len(hand), len(deck)


def legal(hand):
    """[(a, b, c)] the sandwiches of ``hand``, in the reference's legal order."""
    cdef int h[MAX_HAND]
    cdef int dk[1]
    cdef int out[3 * 56]
    cdef int n, m, x
    n, _ = _arrays(hand, (), h, dk)
    m = legal_moves(h, n, out)
    return [(h[out[3 * x]], h[out[3 * x + 1]], h[out[3 * x + 2]]) for x in range(m)]


def rule_move(int rule, hand, deck):
    """The rule's (RULE_*: 0 the baseline, 1 the blind rule) (a, b, c) at the decision (hand,
    deck: the unseen cards, any order), or None without a sandwich."""
    cdef int h[MAX_HAND]
    cdef int dk[MAX_DECK]
    cdef int n, d, i = 0, j = 0, k = 0
    n, d = _arrays(hand, deck, h, dk)
    if not choose(rule, h, n, dk, d, &i, &j, &k):
        return None
    return (h[i], h[j], h[k])


def playout(int rule, hand, deck, uint64_t seed):
    """One game of the rule (RULE_*) from a decision, draws sampled with splitmix64 seeded
    ``seed``: (won, cards left in hand)."""
    cdef int h[MAX_HAND]
    cdef int dk[MAX_DECK]
    cdef int n, d, score = 0
    cdef uint64_t rng = seed
    n, d = _arrays(hand, deck, h, dk)
    won = play_out(rule, h, n, dk, &d, &rng, &score)
    return bool(won), score


def rollouts(int rule, hand, deck, int samples, uint64_t seed, moves=None):
    """[((a, b, c), wins, score_sum)] for each legal move of the decision (hand, deck), or for
    each of ``moves`` (sandwiches of the hand as card triples) in their order: the move, then the
    rule (RULE_*), over ``samples`` sampled draws (sample k seeded seed + k)."""
    cdef int h0[MAX_HAND]
    cdef int d0[MAX_DECK]
    cdef int h[MAX_HAND]
    cdef int dk[MAX_DECK]
    cdef int out[3 * 56]
    cdef int n0, dsize0, m, x, s, n, d, wins, score, total
    cdef uint64_t rng
    n0, dsize0 = _arrays(hand, deck, h0, d0)
    if moves is None:
        m = legal_moves(h0, n0, out)
    else:
        where = {h0[x]: x for x in range(n0)}
        for m, cards in enumerate(moves):
            for x, card in enumerate(sorted(cards)):
                out[3 * m + x] = where[card]
        m = len(moves)
    result = []
    for x in range(m):
        wins = total = 0
        with nogil:
            for s in range(samples):
                rng = seed + <uint64_t>s
                for n in range(n0):
                    h[n] = h0[n]
                for d in range(dsize0):
                    dk[d] = d0[d]
                d = dsize0
                n = discard_and_draw(h, n0, out[3 * x], out[3 * x + 1], out[3 * x + 2], dk, &d, &rng)
                if play_out(rule, h, n, dk, &d, &rng, &score):
                    wins += 1
                    total += score
        result.append(((h0[out[3 * x]], h0[out[3 * x + 1]], h0[out[3 * x + 2]]), wins, total))
    return result
