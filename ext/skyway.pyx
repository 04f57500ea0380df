# cython: language_level=3
"""Skyway's compiled kernel: the chain score, the baseline policy and blind rollouts.

It mirrors solodeck/games/skyway.py (the reference) and is tested equal to it
(tests/test_skyway_kernel.py): the same chain lengths, the same baseline moves, and rollouts that
draw the same cards with the same generator (solvers/sampling.py's play_out), sample for sample.

- ``chain_lengths(grid)``: per suit S H D C, the longest chain (see the reference);
- ``legal_moves(market)``: the (stack, cell) moves its loops try;
- ``baseline_move(grid, market)``: (stack, cell) of the reference's baseline policy;
- ``rollouts(grid, market, deck, discard, passno, final, moves, samples, seed)``: for each
  (stack, cell) of ``moves``, the move then the baseline policy to the end, over ``samples``
  draws (sample i uses the generator seeded seed + i); [(wins, sum of winning scores)].

Blind rollouts draw from the composition of the deck, so the kernel keeps the deck and the
discard pile as 64-bit sets of cards (bit = solodeck.cards' int); a reshuffle moves the discard
set into the deck. Drawing picks the r-th smallest card of the deck, r = next() mod its size,
as the reference's sample_chance does over its sorted outcomes.
"""
from libc.stdint cimport uint64_t
from shared cimport next_random

cdef enum:
    CELLS = 9
    HEIGHT = 3
    MARKET = 5
    PASSES = 3
    WIN_CHAIN = 5

cdef int NEIGHBOURS[9][4]
cdef int DEGREE[9]
cdef int STACK_START[3]
cdef int STACK_END[3]


cdef void _init():
    cdef int i, r, c, k
    for i in range(CELLS):
        r, c = i // 3, i % 3
        k = 0
        if r > 0:
            NEIGHBOURS[i][k] = i - 3; k += 1
        if r < 2:
            NEIGHBOURS[i][k] = i + 3; k += 1
        if c > 0:
            NEIGHBOURS[i][k] = i - 1; k += 1
        if c < 2:
            NEIGHBOURS[i][k] = i + 1; k += 1
        DEGREE[i] = k
    STACK_START[0], STACK_END[0] = 0, 2
    STACK_START[1], STACK_END[1] = 2, 4
    STACK_START[2], STACK_END[2] = 4, 5


_init()


ctypedef struct Pos:
    int cards[9][3]       # each cell bottom first
    int height[9]
    int market[5]
    int nmarket
    uint64_t deck         # the composition of the deck (blind: its order is chance)
    uint64_t discard
    int passno
    int final
    int over


cdef inline void chains(int* cell_of, int* out) noexcept nogil:
    """Per suit, the longest chain; ``cell_of[card]`` is the card's cell or -1."""
    cdef int s, v, c, k, n, length, best
    cdef int ending[9]
    for s in range(4):
        for c in range(CELLS):
            ending[c] = 0
        best = 0
        for v in range(10):
            c = cell_of[s * 13 + v]
            if c < 0:
                continue
            length = 0
            for k in range(DEGREE[c]):
                n = ending[NEIGHBOURS[c][k]]
                if n > length:
                    length = n
            length += 1
            if length > ending[c]:
                ending[c] = length
            if length > best:
                best = length
        out[s] = best


cdef inline void cells_of(Pos* p, int* cell_of) noexcept nogil:
    cdef int i, c
    for i in range(52):
        cell_of[i] = -1
    for c in range(CELLS):
        for i in range(p.height[c]):
            cell_of[p.cards[c][i]] = c


cdef inline int popcount(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int nth_card(uint64_t x, int r) noexcept nogil:
    """The r-th smallest card (from 0) of the set x."""
    cdef int card = 0
    while True:
        if x & (<uint64_t>1 << card):
            if r == 0:
                return card
            r -= 1
        card += 1


cdef inline void deal(Pos* p, uint64_t* rng) noexcept nogil:
    """Fill the market: a draw per card, reshuffling the discard pile when the deck runs out."""
    cdef int card
    while p.nmarket < MARKET:
        if p.deck == 0:
            p.deck, p.discard = p.discard, 0
            if p.passno < PASSES:
                p.passno += 1
            else:
                p.final = 1
        card = nth_card(p.deck, <int>(next_random(rng) % <uint64_t>popcount(p.deck)))
        p.deck &= ~(<uint64_t>1 << card)
        p.market[p.nmarket] = card
        p.nmarket += 1


cdef inline void play(Pos* p, int stack, int cell) noexcept nogil:
    """Take stack 0-2 onto cell 0-8; the rest of the market and the buried cards are discarded."""
    cdef int i, h, drop
    cdef int pile[5]
    h = p.height[cell]
    for i in range(h):
        pile[i] = p.cards[cell][i]
    for i in range(STACK_START[stack], STACK_END[stack]):
        pile[h] = p.market[i]
        h += 1
    drop = h - HEIGHT if h > HEIGHT else 0
    for i in range(drop):
        p.discard |= <uint64_t>1 << pile[i]
    for i in range(drop, h):
        p.cards[cell][i - drop] = pile[i]
    p.height[cell] = h - drop
    for i in range(MARKET):
        if i < STACK_START[stack] or i >= STACK_END[stack]:
            p.discard |= <uint64_t>1 << p.market[i]
    p.nmarket = 0
    p.over = p.final or (p.passno == PASSES and p.deck == 0)


cdef inline int baseline(Pos* p, int* cell_of) noexcept nogil:
    """The reference's baseline: most chain cards counting up to 5 per suit, then the highest
    total, then the fewest buried, then the first in (stack, cell) order. Returns stack*9+cell.
    ``cell_of`` holds the grid's cells and is left as it was."""
    cdef int stack, cell, i, h, drop, s, capped, total, best = -1
    cdef int best_capped = -1, best_total = -1, best_drop = 0
    cdef int lengths[4]
    for stack in range(3):
        for cell in range(CELLS):
            h = p.height[cell] + STACK_END[stack] - STACK_START[stack]
            drop = h - HEIGHT if h > HEIGHT else 0
            for i in range(drop):
                cell_of[p.cards[cell][i]] = -1
            for i in range(STACK_START[stack], STACK_END[stack]):
                cell_of[p.market[i]] = cell
            chains(cell_of, lengths)
            for i in range(drop):
                cell_of[p.cards[cell][i]] = cell
            for i in range(STACK_START[stack], STACK_END[stack]):
                cell_of[p.market[i]] = -1
            capped = total = 0
            for s in range(4):
                total += lengths[s]
                capped += lengths[s] if lengths[s] < WIN_CHAIN else WIN_CHAIN
            if (capped > best_capped or (capped == best_capped and (total > best_total or
                    (total == best_total and drop < best_drop)))):
                best, best_capped, best_total, best_drop = stack * CELLS + cell, capped, total, drop
    return best


cdef inline int play_out(Pos* p, uint64_t* rng, int* score) noexcept nogil:
    """Deal and play the baseline policy to the end; returns 1 for a win, the score in ``score``."""
    cdef int cell_of[52]
    cdef int lengths[4]
    cdef int move, s, won = 1
    while not p.over:
        deal(p, rng)
        cells_of(p, cell_of)
        move = baseline(p, cell_of)
        play(p, move // CELLS, move % CELLS)
    cells_of(p, cell_of)
    chains(cell_of, lengths)
    score[0] = 0
    for s in range(4):
        score[0] += lengths[s]
        if lengths[s] < WIN_CHAIN:
            won = 0
    return won


cdef Pos position(grid, market, deck, discard, int passno, int final) except *:
    cdef Pos p
    cdef int c, i
    for c in range(CELLS):
        p.height[c] = len(grid[c])
        for i in range(p.height[c]):
            p.cards[c][i] = grid[c][i]
    p.nmarket = len(market)
    for i in range(p.nmarket):
        p.market[i] = market[i]
    p.deck = p.discard = 0
    for c in deck:
        p.deck |= <uint64_t>1 << <int>c
    for c in discard:
        p.discard |= <uint64_t>1 << <int>c
    p.passno, p.final, p.over = passno, final, 0
    return p


def chain_lengths(grid):
    """Per suit S H D C, the longest chain of the grid (9 cells of cards, bottom first)."""
    cdef Pos p = position(grid, (), (), (), 1, 0)
    cdef int cell_of[52]
    cdef int lengths[4]
    cells_of(&p, cell_of)
    chains(cell_of, lengths)
    return tuple(lengths[s] for s in range(4))


def baseline_move(grid, market):
    """(stack 1-3, cell 1-9) of the baseline policy with a full market."""
    cdef Pos p = position(grid, market, (), (), 1, 0)
    cdef int cell_of[52]
    cells_of(&p, cell_of)
    cdef int move = baseline(&p, cell_of)
    return move // CELLS + 1, move % CELLS + 1


def legal_moves(market):
    """(stack 1-3, cell 1-9) of every move the kernel's loops try: all 27 with a full market."""
    return [(stack + 1, cell + 1) for stack in range(3) for cell in range(CELLS)] if len(market) == MARKET else []


def rollouts(grid, market, deck, discard, int passno, int final, moves, int samples, uint64_t seed):
    """[(wins, sum of winning scores)] for each (stack 1-3, cell 1-9) of ``moves``."""
    cdef Pos start = position(grid, market, deck, discard, passno, final)
    cdef Pos p
    cdef uint64_t rng
    cdef int i, wins, total, score, stack, cell
    out = []
    for stack, cell in moves:
        wins = total = 0
        for i in range(samples):
            p = start
            rng = seed + <uint64_t>i
            play(&p, stack - 1, cell - 1)
            if play_out(&p, &rng, &score):
                wins += 1
                total += score
        out.append((wins, total))
    return out
