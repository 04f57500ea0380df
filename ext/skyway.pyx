# cython: language_level=3
"""Skyway's compiled kernel: the chain score, the baseline policy, blind rollouts, and the open
search (``Endgame``: the exact endgame search and the pilot method; see its section below).

It mirrors solodeck/games/skyway/ (the reference: rules.py, blind.py) and is tested equal to it
(tests/test_skyway_kernel.py): the same chain lengths, the same baseline moves, and rollouts that
draw the same cards with the same generator (solvers/rollouts.py's play_out), sample for sample.

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


ctypedef fused cell_card:  # a cell's cards: int in Pos (rollouts), unsigned char in Node (the table's nodes)
    int
    unsigned char


cdef inline uint64_t stack_onto(cell_card* cell, cell_card* height, int* market, int stack) noexcept nogil:
    """Stack 0-2 of ``market`` onto a cell (its cards bottom first, ``height[0]`` of them), which
    keeps its top 3; returns the cards discarded, the buried ones and the rest of the market, as bits."""
    cdef int i, h, drop
    cdef int pile[5]
    cdef uint64_t out = 0
    h = height[0]
    for i in range(h):
        pile[i] = cell[i]
    for i in range(STACK_START[stack], STACK_END[stack]):
        pile[h] = market[i]
        h += 1
    drop = h - HEIGHT if h > HEIGHT else 0
    for i in range(drop):
        out |= <uint64_t>1 << pile[i]
    for i in range(drop, h):
        cell[i - drop] = <cell_card>pile[i]
    height[0] = <cell_card>(h - drop)
    for i in range(MARKET):
        if i < STACK_START[stack] or i >= STACK_END[stack]:
            out |= <uint64_t>1 << market[i]
    return out


cdef inline void play(Pos* p, int stack, int cell) noexcept nogil:
    """Take stack 0-2 onto cell 0-8; the rest of the market and the buried cards are discarded."""
    p.discard |= stack_onto(p.cards[cell], &p.height[cell], p.market, stack)
    p.nmarket = 0
    p.over = p.final or (p.passno == PASSES and p.deck == 0)


cdef inline int baseline(Pos* p, int* cell_of, int* allowed=NULL) noexcept nogil:
    """The reference's baseline: most chain cards counting up to 5 per suit, then the highest
    total, then the fewest buried, then the first in (stack, cell) order. Returns stack*9+cell.
    ``cell_of`` holds the grid's cells and is left as it was. ``allowed`` (stack*9+cell, or NULL
    for every move): the moves it chooses among."""
    cdef int stack, cell, i, h, drop, s, capped, total, best = -1
    cdef int best_capped = -1, best_total = -1, best_drop = 0
    cdef int lengths[4]
    for stack in range(3):
        for cell in range(CELLS):
            if allowed != NULL and not allowed[stack * CELLS + cell]:
                continue
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


# -- blind mode: the exact value of the last turn --------------------------------------------------
# A cell keeps the top 3 cards and a stack (at most 2 cards) goes on top, so the stack's own cards
# are never buried: the grid after a move depends on which cards the stack holds, not their
# order. The last turn's value is the best stack's: its best cell, precomputed for every pair and
# every single card the market can hold; each order of the draws is then three lookups.
cdef enum:
    WIN_VALUE_BLIND = 64  # won * 64 + the chain total, as the open search's values

cdef int placed_value(Pos* p, int* cell_of, int a, int b, int cell) noexcept nogil:
    """won * 64 + the chain total of a win (0 for a loss) after cards a and b (b < 0: none) go
    on ``cell``; ``cell_of`` is left as it was."""
    cdef int i, h, drop, s, total = 0, won = 1
    cdef int lengths[4]
    h = p.height[cell] + (2 if b >= 0 else 1)
    drop = h - HEIGHT if h > HEIGHT else 0
    for i in range(drop):
        cell_of[p.cards[cell][i]] = -1
    cell_of[a] = cell
    if b >= 0:
        cell_of[b] = cell
    chains(cell_of, lengths)
    for i in range(drop):
        cell_of[p.cards[cell][i]] = cell
    cell_of[a] = -1
    if b >= 0:
        cell_of[b] = -1
    for s in range(4):
        total += lengths[s]
        if lengths[s] < WIN_CHAIN:
            won = 0
    return WIN_VALUE_BLIND + total if won else 0


cdef void each_order(int* market, int at, uint64_t deck, uint64_t pile, int final, int (*pair_best)[52],
                     int* single_best, long long* sums) noexcept nogil:
    """Every order of the draws that finish ``market`` from position ``at``: the deck's cards,
    then, if the deck runs out, the final shuffle of ``pile``. Every order is equally likely (how
    many cards each draw chooses from is fixed). sums: orders, wins, the chain totals of wins."""
    cdef int best, card, c
    cdef uint64_t rest
    if at == MARKET:
        best = pair_best[market[0]][market[1]]
        if pair_best[market[2]][market[3]] > best:
            best = pair_best[market[2]][market[3]]
        if single_best[market[4]] > best:
            best = single_best[market[4]]
        sums[0] += 1
        if best >= WIN_VALUE_BLIND:
            sums[1] += 1
            sums[2] += best - WIN_VALUE_BLIND
        return
    if deck == 0 and not final:  # the third pass's deck runs out mid-deal: the final shuffle
        deck, pile, final = pile, 0, 1
    rest = deck
    while rest:
        c = 0
        while not (rest >> c) & 1:
            c += 1
        rest &= rest - 1
        market[at] = c
        each_order(market, at + 1, deck & ~(<uint64_t>1 << c), pile, final, pair_best, single_best, sums)


def blind_last_turn(grid, market, deck, discard, int final):
    """(orders, wins, sum of the chain totals of wins) of the last turn in blind mode: every order
    of the draws that finish ``market`` (the deck's cards, a set, then the final shuffle of
    ``discard`` if the deck runs out first), each followed by the best move."""
    cdef Pos p = position(grid, market, deck, discard, PASSES, final)
    cdef int cell_of[52]
    cdef int pair_best[52][52]
    cdef int single_best[52]
    cdef int cards[5]
    cdef long long sums[3]
    cdef int a, b, cell, v, i, j, n = 0
    cdef int pool[52]
    cells_of(&p, cell_of)
    for c in market:
        pool[n] = c
        n += 1
    for c in sorted(set(deck) | (set() if final else set(discard))):
        pool[n] = c
        n += 1
    for i in range(n):
        a = pool[i]
        single_best[a] = 0
        for cell in range(CELLS):
            v = placed_value(&p, cell_of, a, -1, cell)
            if v > single_best[a]:
                single_best[a] = v
        for j in range(i + 1, n):
            b = pool[j]
            pair_best[a][b] = 0
            for cell in range(CELLS):
                v = placed_value(&p, cell_of, a, b, cell)
                if v > pair_best[a][b]:
                    pair_best[a][b] = v
            pair_best[b][a] = pair_best[a][b]
    for i in range(p.nmarket):
        cards[i] = p.market[i]
    sums[0] = sums[1] = sums[2] = 0
    each_order(cards, p.nmarket, p.deck, p.discard, final, pair_best, single_best, sums)
    return sums[0], sums[1], sums[2]


# == the exact open-mode endgame search ===========================================================
# A search node is a turn's start (the market not dealt yet). Its value is won * 64 + the chain
# total (WIN_VALUE above every score). Open mode: the deck's order is known, and so is every
# reshuffle once the discard pile it shuffles is (the seeded shuffle of the sorted pile,
# RULINGS: Common), so dealing is a function of the node.
#
# The transposition table's key folds the 8 symmetries of the square (the grid's smallest image)
# and names the deck by its origin, not its cards: the pile that was shuffled into it (or the
# root's own deck), the shuffle's number and how many cards are left. The discard pile is then
# every card neither in the grid nor in the deck, so the key fixes the whole future.
#
# The bound relaxes the rest of the game: the cards of every turn still to come may go to any cell
# and nothing is ever buried. The next few turns' markets are known (the deck, and a reshuffle
# within the turn being dealt): every choice of one stack per turn is tried (up to ENUM_TURNS
# turns). Later known turns bring at most 2 of their cards each, and turns after a reshuffle
# still to come at most 2 cards of any suit and value; these cards are shared between the suits
# by a small knapsack over how many each suit takes. Children are searched best bound first.
from libc.stdlib cimport free
from libc.string cimport memcpy, memset
from shared cimport (seeded_shuffle, mix64, now, table_calloc, capacity_for, STOP_NONE, STOP_TIME,
                     STOP_STATES)

cdef enum:
    WIN_VALUE = 64
    NO_CARD = 255
    ROOT_DECK = 1         # key flag: the deck is the root's own (not a reshuffle made in the search)

cdef int ENUM_TURNS = 3  # markets whose stack choices the bound enumerates (3^3 = 27 choices)


cdef int SYM[8][9]        # SYM[k][i]: the cell whose stack lands on cell i under symmetry k
cdef int NEIGH[9][4]
cdef int NDEG[9]


cdef void _init_search():
    cdef int k, i, r, c, t, fr, fc, n
    k = 0
    for t in range(2):
        for fr in range(2):
            for fc in range(2):
                for i in range(CELLS):
                    r, c = i // 3, i % 3
                    if t:
                        r, c = c, r
                    if fr:
                        r = 2 - r
                    if fc:
                        c = 2 - c
                    SYM[k][i] = r * 3 + c
                k += 1
    for i in range(CELLS):
        NDEG[i] = DEGREE[i]
        for n in range(DEGREE[i]):
            NEIGH[i][n] = NEIGHBOURS[i][n]


_init_search()


ctypedef struct Node:
    unsigned char cards[9][3]   # bottom first
    unsigned char height[9]
    unsigned char deck[40]      # deck[dpos .. dlen): top first
    int dpos
    int dlen
    uint64_t origin             # the pile shuffled into this deck (40-bit compact set), or 0 for the root's deck
    int root_deck
    uint64_t discard            # solodeck.cards' ints as bits
    int passno
    int reshuffles
    int final
    int over


ctypedef struct Entry:
    uint64_t k0, k1, k2, k3
    short value
    unsigned char flags         # 1: used, 2: exact (else an upper bound)


cdef inline int compact(int card) noexcept nogil:
    """suit * 10 + value - 1: the 40 number cards in canonical order."""
    return (card // 13) * 10 + card % 13


cdef inline void reshuffle(Node* n, uint64_t seed) noexcept nogil:
    """The deck ran out with a market to deal: the sorted discard pile, shuffled with stream
    ``reshuffles + 1`` of the seed, is the new deck (the pass count goes up, or the final flag)."""
    cdef int cards[40]
    cdef int count = 0, card, i
    cdef uint64_t origin = 0
    for card in range(52):
        if n.discard & (<uint64_t>1 << card):
            cards[count] = card
            count += 1
            origin |= <uint64_t>1 << compact(card)
    n.reshuffles += 1
    seeded_shuffle(cards, count, seed, <uint64_t>n.reshuffles)
    for i in range(count):
        n.deck[i] = <unsigned char>cards[i]
    n.dpos, n.dlen, n.origin, n.root_deck, n.discard = 0, count, origin, 0, 0
    if n.passno < PASSES:
        n.passno += 1
    else:
        n.final = 1


cdef inline void deal_market(Node* n, int* market, uint64_t seed) noexcept nogil:
    cdef int k
    for k in range(MARKET):
        if n.dpos == n.dlen:
            reshuffle(n, seed)
        market[k] = n.deck[n.dpos]
        n.dpos += 1


cdef inline void take(Node* n, int* market, int stack, int cell) noexcept nogil:
    """Node ``n`` (its market dealt) after stack 0-2 goes onto cell 0-8: a turn's start again."""
    n.discard |= stack_onto(n.cards[cell], &n.height[cell], market, stack)
    n.over = n.final or (n.passno == PASSES and n.dpos == n.dlen)


cdef inline int grid_value(Node* n) noexcept nogil:
    """won * 64 + the chain total of the grid."""
    cdef int cell_of[52]
    cdef int lengths[4]
    cdef int c, i, s, total = 0, won = 1
    for i in range(52):
        cell_of[i] = -1
    for c in range(CELLS):
        for i in range(n.height[c]):
            cell_of[n.cards[c][i]] = c
    chains(cell_of, lengths)
    for s in range(4):
        total += lengths[s]
        if lengths[s] < WIN_CHAIN:
            won = 0
    return won * WIN_VALUE + total


cdef inline void node_key(Node* n, uint64_t* key) noexcept nogil:
    """The grid's smallest image under the 8 symmetries (3 words), then the deck's origin, cards
    left, shuffle count, pass and flags."""
    cdef uint64_t code[9]
    cdef uint64_t w0, w1, w2, b0 = 0, b1 = 0, b2 = 0
    cdef int c, i, k
    cdef uint64_t x
    for c in range(CELLS):
        x = 0
        for i in range(n.height[c]):
            x |= <uint64_t>(n.cards[c][i] + 1) << (6 * i)
        code[c] = x
    for k in range(8):
        w0 = code[SYM[k][0]] | (code[SYM[k][1]] << 18) | (code[SYM[k][2]] << 36)
        w1 = code[SYM[k][3]] | (code[SYM[k][4]] << 18) | (code[SYM[k][5]] << 36)
        w2 = code[SYM[k][6]] | (code[SYM[k][7]] << 18) | (code[SYM[k][8]] << 36)
        if k == 0 or w0 < b0 or (w0 == b0 and (w1 < b1 or (w1 == b1 and w2 < b2))):
            b0, b1, b2 = w0, w1, w2
    key[0], key[1], key[2] = b0, b1, b2
    key[3] = (n.origin | (<uint64_t>(n.dlen - n.dpos) << 40) | (<uint64_t>n.reshuffles << 46)
              | (<uint64_t>n.passno << 49) | (<uint64_t>n.final << 51) | (<uint64_t>n.over << 52)
              | (<uint64_t>n.root_deck << 53))


# -- the bound ----------------------------------------------------------------------------------
cdef enum:
    CHAIN_CACHE = 1 << 14  # 16-byte entries: 256 kB, within a core's cache

ctypedef struct ChainMemo:
    uint64_t key             # 0: unused (the key of no card at all, whose chains are all 0)
    uint64_t gains           # gain[k] in bits 4k .. 4k + 3


cdef ChainMemo* CHAIN_MEMO = <ChainMemo*>table_calloc(CHAIN_CACHE, sizeof(ChainMemo))


cdef inline void suit_chains(uint64_t old_cells, int free_mask, int cost_mask, int layers,
                             unsigned char* gain) noexcept nogil:
    """gain[k], k < layers: one suit's longest chain with its cards in the grid where they are
    (``old_cells``: 4 bits per value, cell + 1 or 0), the values of ``free_mask`` in any cells, and
    at most k more of the values of ``cost_mask``, in any cells; nothing buried. Memoised: siblings
    in a search share most suits."""
    cdef uint64_t key = (old_cells | (<uint64_t>free_mask << 40) | (<uint64_t>cost_mask << 50)
                         | (<uint64_t>(layers - 1) << 60))
    cdef uint64_t slot = mix64(key) & (CHAIN_CACHE - 1)
    cdef ChainMemo* m = &CHAIN_MEMO[slot]
    cdef int k, c, v, j, x, old, top
    cdef int best[11][9]
    cdef int near[11][9]
    if m.key == key and key:
        for k in range(layers):
            gain[k] = (m.gains >> (4 * k)) & 15
        return
    for k in range(layers):
        for c in range(CELLS):
            best[k][c] = 0
    for v in range(10):
        old = <int>((old_cells >> (4 * v)) & 15) - 1
        if old < 0 and not (free_mask >> v) & 1 and not (cost_mask >> v) & 1:
            continue
        for k in range(layers):
            for c in range(CELLS):
                top = 0
                for j in range(NDEG[c]):
                    x = best[k][NEIGH[c][j]]
                    if x > top:
                        top = x
                near[k][c] = top + 1
        if (free_mask >> v) & 1:
            for k in range(layers):
                for c in range(CELLS):
                    if near[k][c] > best[k][c]:
                        best[k][c] = near[k][c]
        else:
            if (cost_mask >> v) & 1:
                for k in range(layers - 1, 0, -1):
                    for c in range(CELLS):
                        if near[k - 1][c] > best[k][c]:
                            best[k][c] = near[k - 1][c]
            if old >= 0:
                for k in range(layers):
                    if near[k][old] > best[k][old]:
                        best[k][old] = near[k][old]
    top = 0
    for k in range(layers):
        for c in range(CELLS):
            if best[k][c] > top:
                top = best[k][c]
        gain[k] = <unsigned char>top
    m.key, m.gains = key, 0
    for k in range(layers):
        m.gains |= <uint64_t>gain[k] << (4 * k)


cdef inline int last_turn_value(Node* n, int* market) noexcept nogil:
    """The exact value of the last turn's node ``n`` with ``market`` dealt: its best move."""
    cdef Node child
    cdef int s, c, v, best = 0
    for s in range(3):
        for c in range(CELLS):
            child = n[0]
            take(&child, market, s, c)
            v = grid_value(&child)
            if v > best:
                best = v
    return best


# -- the grid's capacity ---------------------------------------------------------------------------
# The score is at most the cards in the final grid (a card is in at most one chain), and how many
# cards the grid can still hold depends only on counts: each turn puts a stack of 1 or 2 cards on
# one cell (at most 3 kept), and the number of turns left depends on how many cards the grid holds
# at each reshuffle (they are not dealt again). CAPACITY[passno][deck][n1][n2][n3], n_h the cells of
# height h (the others empty), is the most cards the final grid can hold from a turn's start with
# ``deck`` cards left; -1 until computed. The search's cells and cards play no part, so it bounds
# every line: far from the end it is 27, but within the last eight turns often 25 or 26 where the
# relaxed bound still says 27 (it never buries a card).
cdef signed char CAPACITY[PASSES + 1][41][10][10][10]
memset(CAPACITY, -1, sizeof(CAPACITY))


cdef int capacity(int passno, int deck, int n1, int n2, int n3) noexcept nogil:
    """The most cards the final grid can hold from a turn start (see above)."""
    cdef int in_grid = n1 + 2 * n2 + 3 * n3, d2, p2, last = 0, s, h, best = 0, v, grid
    cdef int count[4]
    if CAPACITY[passno][deck][n1][n2][n3] >= 0:
        return CAPACITY[passno][deck][n1][n2][n3]
    if deck >= MARKET:
        d2, p2 = deck - MARKET, passno
    elif passno < PASSES:  # the discard pile (every card outside the grid and deck) finishes the market
        d2, p2 = 40 - in_grid - MARKET, passno + 1
    else:  # the final shuffle finishes it: this turn is the last
        d2, p2, last = 0, PASSES, 1
    for s in range(1, 3):
        for h in range(4):
            count[0], count[1], count[2], count[3] = 9 - n1 - n2 - n3, n1, n2, n3
            if count[h] == 0 or (h == 3 and s == 2):  # (a full cell takes 1 or 2 alike)
                continue
            count[h] -= 1
            count[h + s if h + s < 3 else 3] += 1
            grid = count[1] + 2 * count[2] + 3 * count[3]
            if last or (d2 == 0 and p2 == PASSES):
                v = grid
            elif d2 == 0:  # the deck ran out with the turn: the discards make the next pass's deck
                v = capacity(p2 + 1, 40 - grid, count[1], count[2], count[3])
            else:
                v = capacity(p2, d2, count[1], count[2], count[3])
            if v > best:
                best = v
    CAPACITY[passno][deck][n1][n2][n3] = <signed char>best
    return best


cdef inline int node_capacity(Node* n) noexcept nogil:
    """capacity() of turn-start node ``n``."""
    cdef int count[4]
    cdef int c
    count[0] = count[1] = count[2] = count[3] = 0
    for c in range(CELLS):
        count[n.height[c]] += 1
    if n.over:  # the final grid itself
        return count[1] + 2 * count[2] + 3 * count[3]
    return capacity(n.passno, n.dlen - n.dpos, count[1], count[2], count[3])


def capacity_of(int passno, int deck, heights):
    """capacity(): the most cards the final grid can hold from a turn's start (the search's bound
    uses it; the tests compare it with the reference's turn_capacity)."""
    cdef int count[4]
    count[0] = count[1] = count[2] = count[3] = 0
    for h in heights:
        count[h] += 1
    return capacity(passno, deck, count[1], count[2], count[3])


cdef inline int relaxed_bound(Node* n, uint64_t seed) noexcept nogil:
    """An upper bound on the value of turn-start node ``n`` (see the section's comment)."""
    cdef Node m = n[0]
    cdef int markets[12][5]   # a card, or -1: dealt by a reshuffle whose pile the line decides
    cdef int known, rest, unknown = 0, in_grid = 0, c, i, s, t, v, k, b, budget, base, layers, enum_turns
    cdef int combo, combos, pick, card, wild, any_wild = 0
    cdef uint64_t old[4]
    cdef int cost[4]
    cdef int freem[4]
    cdef unsigned char gains[4][11]
    cdef int any_best[41]
    cdef int win_best[41]
    cdef int any_next[41]
    cdef int win_next[41]
    cdef int best_any = 0, best_win = -1, total, won, cap
    cdef uint64_t key
    cdef uint64_t last[4]
    for s in range(4):
        old[s] = 0
        cost[s] = 0
        last[s] = <uint64_t>-1
    for c in range(CELLS):
        in_grid += n.height[c]
        for i in range(n.height[c]):
            card = n.cards[c][i]
            old[card // 13] |= <uint64_t>(c + 1) << (4 * (card % 13))
    # the markets known now: the one being dealt (a reshuffle within it shuffles today's pile),
    # the deck's groups of five, and the deck's last cards with the reshuffle's part unknown
    deal_market(&m, markets[0], seed)
    known = 1
    if not m.final:
        while m.dlen - m.dpos >= MARKET and known < 11:
            for i in range(MARKET):
                markets[known][i] = m.deck[m.dpos + i]
            m.dpos += MARKET
            known += 1
        rest = m.dlen - m.dpos
        if rest > 0:
            for i in range(MARKET):
                markets[known][i] = m.deck[m.dpos + i] if i < rest else -1
            known += 1
            any_wild = 1
        if m.passno < PASSES:  # later passes deal at most the cards outside today's grid (it never shrinks)
            unknown = (rest + (PASSES - m.passno) * (40 - in_grid)) // MARKET + (0 if rest > 0 else 1)
    enum_turns = known if known < ENUM_TURNS else ENUM_TURNS
    for t in range(enum_turns, known):
        for i in range(MARKET):
            card = markets[t][i]
            if card >= 0:
                cost[card // 13] |= 1 << (card % 13)
    if unknown or (any_wild and known > enum_turns):
        for s in range(4):
            cost[s] = 1023
    base = 2 * (known - enum_turns + unknown)
    combos = 1
    for t in range(enum_turns):
        combos *= 3
    for combo in range(combos):
        for s in range(4):
            freem[s] = 0
        pick = combo
        wild = 0
        for t in range(enum_turns):
            for i in range(STACK_START[pick % 3], STACK_END[pick % 3]):
                card = markets[t][i]
                if card >= 0:
                    freem[card // 13] |= 1 << (card % 13)
                else:
                    wild += 1
            pick //= 3
        budget = base + wild
        if budget > 40:
            budget = 40
        layers = (budget if budget < 10 else 10) + 1
        for s in range(4):  # consecutive choices often leave a suit's cards as they were
            key = (<uint64_t>freem[s] << 32) | (<uint64_t>(1023 if wild else cost[s]) << 8) | <uint64_t>layers
            if key != last[s]:
                suit_chains(old[s], freem[s], 1023 if wild else cost[s], layers, gains[s])
                last[s] = key
        if budget == 0 or budget >= 4 * (layers - 1):  # nothing to share: each suit its best
            total, won = 0, 1
            for s in range(4):
                total += gains[s][layers - 1]
                if gains[s][layers - 1] < WIN_CHAIN:
                    won = 0
            if total > best_any:
                best_any = total
            if won and total > best_win:
                best_win = total
            continue
        # the knapsack: the best total over the suits with at most ``budget`` costly cards in all
        for b in range(budget + 1):
            any_best[b] = 0
            win_best[b] = 0
        for s in range(4):
            for b in range(budget + 1):
                any_next[b] = -1
                win_next[b] = -1
                for k in range(layers if layers <= b + 1 else b + 1):
                    v = any_best[b - k] + gains[s][k]
                    if v > any_next[b]:
                        any_next[b] = v
                    if win_best[b - k] >= 0 and gains[s][k] >= WIN_CHAIN:
                        v = win_best[b - k] + gains[s][k]
                        if v > win_next[b]:
                            win_next[b] = v
            for b in range(budget + 1):
                any_best[b] = any_next[b]
                win_best[b] = win_next[b]
        if any_best[budget] > best_any:
            best_any = any_best[budget]
        if win_best[budget] > best_win:
            best_win = win_best[budget]
    cap = node_capacity(n)  # the cards the final grid can hold bound every total (a win needs 20)
    if best_any > cap:
        best_any = cap
    if best_win > cap:
        best_win = cap if cap >= 4 * WIN_CHAIN else -1
    return WIN_VALUE + best_win if best_win >= 0 else best_any


# -- the baseline in open mode (the pilot method's rollouts) ----------------------------------------
cdef inline int node_baseline(Node* n, int* market, int target) noexcept nogil:
    """The baseline policy's move (stack * 9 + cell) at node ``n`` with ``market`` dealt, among
    the moves after which the grid can still hold ``target`` cards (every move when none can, or
    target is 0): with a target of 26 or 27 the rollouts steer to lines of 18 or 19 turns, the
    only ones that can fill the grid; the plain baseline's lines mostly end after 17 (at most 26)."""
    cdef Pos p
    cdef int cell_of[52]
    cdef int allowed[27]
    cdef int c, i, s, any_allowed = 0
    cdef Node child
    if target > 0:
        for s in range(3):
            for c in range(CELLS):
                child = n[0]
                take(&child, market, s, c)
                allowed[s * CELLS + c] = node_capacity(&child) >= target
                any_allowed |= allowed[s * CELLS + c]
    for c in range(CELLS):
        p.height[c] = n.height[c]
        for i in range(n.height[c]):
            p.cards[c][i] = n.cards[c][i]
    for i in range(MARKET):
        p.market[i] = market[i]
    cells_of(&p, cell_of)
    return baseline(&p, cell_of, allowed if any_allowed else NULL)


cdef inline int baseline_end(Node* n, uint64_t seed, int target) noexcept nogil:
    """The value (won * 64 + chain total) the baseline policy (node_baseline with ``target``)
    reaches from turn-start node ``n`` with the deck known."""
    cdef Node m = n[0]
    cdef int market[5]
    cdef int move
    while not m.over:
        deal_market(&m, market, seed)
        move = node_baseline(&m, market, target)
        take(&m, market, move // CELLS, move % CELLS)
    return grid_value(&m)


cdef int pilot_run(Node* start, int* market, uint64_t seed, int* line, int* length, int target) noexcept nogil:
    """The pilot method from decision node ``start``: at each decision every move is followed by
    the baseline policy to the end with the deck known (one deal, no samples), and the move of
    the best such line is played. The best line met is kept (its value returned, its moves, stack
    * 9 + cell, in ``line``), so the result is never worse than the baseline's own line.""" 
    cdef Node n = start[0]
    cdef Node child
    cdef int cards[5]
    cdef int later[5]
    cdef int s, c, i, v, best, best_move, kept = -1, played = 0
    for i in range(MARKET):
        cards[i] = market[i]
    length[0] = 0
    while not n.over:
        best, best_move = -1, 0
        for s in range(3):
            for c in range(CELLS):
                child = n
                take(&child, cards, s, c)
                v = baseline_end(&child, seed, target)
                if v > best:
                    best, best_move = v, s * CELLS + c
        line[played] = best_move
        # Each decision's moves include the kept line's own, so best >= kept: the kept line is
        # always the moves played, this one, then the baseline (ties take the first move tried).
        if best >= kept:
            kept = best
            length[0] = played + 1
            child = n
            take(&child, cards, best_move // CELLS, best_move % CELLS)
            while not child.over:
                deal_market(&child, later, seed)
                line[length[0]] = node_baseline(&child, later, target)
                take(&child, later, line[length[0]] // CELLS, line[length[0]] % CELLS)
                length[0] += 1
        played += 1
        take(&n, cards, best_move // CELLS, best_move % CELLS)
        if not n.over:
            deal_market(&n, cards, seed)
    return kept


cdef int nested_run(Node* start, int* market, uint64_t seed, int* line, int* length, double deadline,
                    int* targets, int ntargets) noexcept nogil:
    """The pilot method one level up, until ``deadline`` (now() seconds): at each decision every
    distinct move (up to symmetry) is followed by pilot_run to the end, and the best line met is
    kept and followed. It starts from pilot_run's own line, so it is never worse; when time runs
    out the kept line stands as it is."""
    cdef Node n = start[0]
    cdef Node child
    cdef int cards[5]
    cdef int later[5]
    cdef int tail[64]
    cdef uint64_t keys[27][4]
    cdef int s, c, i, j, t, v, dup, count, tail_length, played = 0
    cdef int kept = pilot_run(start, market, seed, line, length, targets[0])
    for t in range(1, ntargets):
        v = pilot_run(start, market, seed, tail, &tail_length, targets[t])
        if v > kept:
            kept, length[0] = v, tail_length
            for i in range(tail_length):
                line[i] = tail[i]
    for i in range(MARKET):
        cards[i] = market[i]
    while not n.over and now() < deadline:
        count = 0
        for s in range(3):
            for c in range(CELLS):
                child = n
                take(&child, cards, s, c)
                node_key(&child, keys[count])
                dup = 0
                for j in range(count):
                    if (keys[j][0] == keys[count][0] and keys[j][1] == keys[count][1]
                            and keys[j][2] == keys[count][2] and keys[j][3] == keys[count][3]):
                        dup = 1
                        break
                if dup:
                    continue
                count += 1
                if not child.over:
                    deal_market(&child, later, seed)
                for t in range(1 if child.over else ntargets):  # a finished child has one value
                    if child.over:
                        v, tail_length = grid_value(&child), 0
                    else:
                        v = pilot_run(&child, later, seed, tail, &tail_length, targets[t])
                    if v > kept:  # a better line: the moves played, this one, then its pilot line
                        kept = v
                        line[played] = s * CELLS + c
                        for i in range(tail_length):
                            line[played + 1 + i] = tail[i]
                        length[0] = played + 1 + tail_length
                if now() > deadline:
                    break
            if now() > deadline:
                break
        take(&n, cards, line[played] // CELLS, line[played] % CELLS)  # follow the kept line
        played += 1
        if not n.over:
            deal_market(&n, cards, seed)
    return kept


# -- the search ---------------------------------------------------------------------------------
cdef enum:
    MOVES = 27


ctypedef struct Child:
    Node node
    uint64_t key[4]
    int bound        # its value when exact, else an upper bound
    int exact
    int move         # stack * 9 + cell


cdef class Endgame:
    """Exact open-mode values of Skyway positions (see the section's comment), with a time limit
    and a cap on stored states; the table is kept between calls with the same seed and deck."""

    cdef Entry* table
    cdef uint64_t capacity, max_capacity, used
    cdef uint64_t seed
    cdef double deadline, seconds
    cdef uint64_t max_states
    cdef uint64_t node_budget, node_stop  # nodes a solve() may search (0: no limit), and its last
    cdef public uint64_t nodes
    cdef public int stopped
    cdef object root_deck

    def __cinit__(self, uint64_t seed, double memory_mb=256.0, double seconds=0.0, uint64_t max_states=0):
        self.seed = seed
        self.max_capacity = capacity_for(memory_mb, sizeof(Entry), 1 << 12)
        self.capacity = self.max_capacity if self.max_capacity < (1 << 16) else (1 << 16)
        self.table = <Entry*>table_calloc(self.capacity, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        self.used = 0
        self.seconds, self.max_states = seconds, max_states
        self.nodes, self.stopped = 0, STOP_NONE
        self.root_deck = None

    def __dealloc__(self):
        free(self.table)

    @property
    def stored(self):
        return self.used

    def set_limits(self, double seconds, uint64_t max_states=0, uint64_t nodes=0):
        """For the next calls: a time limit in seconds, a cap on stored states, and the nodes
        each solve() may search (the same on every machine); 0: none."""
        self.seconds, self.max_states, self.node_budget = seconds, max_states, nodes

    # -- the table ------------------------------------------------------------------------------
    cdef Entry* probe(self, uint64_t* key) noexcept nogil:
        cdef uint64_t mask = self.capacity - 1
        cdef uint64_t i = mix64(key[0] ^ mix64(key[1] ^ mix64(key[2] ^ mix64(key[3])))) & mask
        cdef Entry* e
        while True:
            e = &self.table[i]
            if not e.flags or (e.k0 == key[0] and e.k1 == key[1] and e.k2 == key[2] and e.k3 == key[3]):
                return e
            i = (i + 1) & mask

    cdef void store(self, uint64_t* key, int value, int exact) noexcept nogil:
        cdef Entry* e = self.probe(key)
        cdef Entry* old
        cdef uint64_t old_capacity, i
        if not e.flags:
            if (self.used + 1) * 4 > self.capacity * 3:
                if self.capacity < self.max_capacity:
                    old, old_capacity = self.table, self.capacity
                    self.table = <Entry*>table_calloc(self.capacity * 2, sizeof(Entry))
                    if self.table == NULL:
                        self.table = old
                        memset(self.table, 0, self.capacity * sizeof(Entry))
                        self.used = 0
                    else:
                        self.capacity *= 2
                        for i in range(old_capacity):
                            if old[i].flags:
                                self.probe(&old[i].k0)[0] = old[i]
                        free(old)
                else:  # the graph is acyclic: a forgotten entry is only searched again
                    memset(self.table, 0, self.capacity * sizeof(Entry))
                    self.used = 0
                e = self.probe(key)
            self.used += 1
            e.k0, e.k1, e.k2, e.k3 = key[0], key[1], key[2], key[3]
        e.value = <short>value
        e.flags = 3 if exact else 1

    cdef inline int limits_hit(self) noexcept nogil:
        if self.stopped:
            return 1
        if (self.nodes & 1023) == 0 and self.deadline > 0 and now() > self.deadline:
            self.stopped = STOP_TIME
        elif (self.max_states and self.used >= self.max_states) or (self.node_stop and self.nodes >= self.node_stop):
            self.stopped = STOP_STATES
        return self.stopped

    # -- children -------------------------------------------------------------------------------
    cdef int children(self, Node* n, int* market, Child* out, int* order) noexcept nogil:
        """The distinct children (up to symmetry) of node ``n`` with its market dealt, in ``out``,
        and their indices best bound first in ``order``; returns how many."""
        cdef int count = 0, s, c, j, dup
        cdef Child* ch
        cdef Entry* e
        for s in range(3):
            for c in range(CELLS):
                ch = &out[count]
                ch.node = n[0]
                take(&ch.node, market, s, c)
                ch.move = s * CELLS + c
                if ch.node.over:
                    ch.key[0] = ch.key[1] = ch.key[2] = ch.key[3] = 0
                    node_key(&ch.node, ch.key)
                else:
                    node_key(&ch.node, ch.key)
                dup = 0
                for j in range(count):
                    if (out[j].key[0] == ch.key[0] and out[j].key[1] == ch.key[1] and out[j].key[2] == ch.key[2]
                            and out[j].key[3] == ch.key[3]):
                        dup = 1
                        break
                if dup:
                    continue
                if ch.node.over:
                    ch.bound, ch.exact = grid_value(&ch.node), 1
                else:
                    e = self.probe(ch.key)
                    if e.flags & 2:
                        ch.bound, ch.exact = e.value, 1
                    else:
                        ch.bound, ch.exact = relaxed_bound(&ch.node, self.seed), 0
                        if e.flags and e.value < ch.bound:
                            ch.bound = e.value
                count += 1
        # insertion sort of the indices, best bound first (stable: ties keep the move order)
        for s in range(count):
            order[s] = s
            j = s - 1
            while j >= 0 and out[order[j]].bound < out[s].bound:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = s
        return count

    cdef int expand(self, Node* n, int* market, int alpha, int* best_move) noexcept nogil:
        """The value of node ``n`` with its market dealt when above ``alpha``, else an upper bound
        at most ``alpha`` (fail-soft)."""
        cdef Child kids[MOVES]
        cdef int order[MOVES]
        cdef int count = self.children(n, market, kids, order)
        cdef int i, v, best = -1, floor
        cdef Child* kid
        best_move[0] = -1
        for i in range(count):
            kid = &kids[order[i]]
            floor = best if best > alpha else alpha
            if kid.bound <= floor:
                if best <= alpha and kid.bound > best:
                    best = kid.bound  # the best the rest could reach: an upper bound
                break
            if kid.exact:
                v = kid.bound
            else:
                v = self.search(&kid.node, kid.key, floor)
                if self.stopped:
                    return -1
            if v > best:
                best = v
                best_move[0] = kid.move
        return best

    cdef int search(self, Node* n, uint64_t* key, int alpha) noexcept nogil:
        """The value of turn-start node ``n`` (key ``key``) when above ``alpha``, else an upper
        bound at most ``alpha``."""
        cdef Entry* e
        cdef Node dealt
        cdef int market[5]
        cdef int value, move
        self.nodes += 1
        if self.limits_hit():
            return -1
        e = self.probe(key)
        if e.flags and (e.flags & 2 or e.value <= alpha):
            return e.value
        dealt = n[0]
        deal_market(&dealt, market, self.seed)
        if dealt.final or (dealt.passno == PASSES and dealt.dpos == dealt.dlen):
            value = last_turn_value(&dealt, market)  # the last turn: no keys, no bounds
        else:
            value = self.expand(&dealt, market, alpha, &move)
        if self.stopped:
            return -1
        self.store(key, value, value > alpha)
        return value

    # -- from Python ------------------------------------------------------------------------------
    cdef Node decision(self, grid, market, deck, discard, int passno, int reshuffles, int final, int over,
                       int* cards) except *:
        """The node of a decision state (its market dealt into ``cards``), keeping the table when
        the deck is the rest of the previous root's deck."""
        cdef Node n
        cdef int c, i
        deck = tuple(deck)
        known = self.root_deck
        if known is None or len(deck) > len(known) or known[len(known) - len(deck):] != deck:
            memset(self.table, 0, self.capacity * sizeof(Entry))
            self.used = 0
            self.root_deck = deck
        memset(&n, 0, sizeof(Node))
        for c in range(CELLS):
            n.height[c] = len(grid[c])
            for i in range(n.height[c]):
                n.cards[c][i] = grid[c][i]
        for i, c in enumerate(deck):
            n.deck[i] = c
        n.dpos, n.dlen, n.origin, n.root_deck = 0, len(deck), 0, ROOT_DECK
        for c in discard:
            n.discard |= <uint64_t>1 << <int>c
        n.passno, n.reshuffles, n.final, n.over = passno, reshuffles, final, over
        for i in range(len(market)):
            cards[i] = market[i]
        return n

    cdef int root_value(self, Node* n, int* market) noexcept nogil:
        """The exact value of a decision node: the search looks only for lines at least as good
        as the pilot method's, whose value is reached (so the answer is never a fail-low)."""
        cdef int line[64]
        cdef int length, move
        if n.over:
            return grid_value(n)
        return self.expand(n, market, pilot_run(n, market, self.seed, line, &length, 0) - 1, &move)

    def solve(self, grid, market, deck, discard, int passno, int reshuffles, int final, int over):
        """(value, [(stack 1-3, cell 1-9), ...]) of a decision state: won * 64 + the chain total
        and a line reaching it; None when a limit stopped the search (``stopped`` says which)."""
        cdef int cards[5]
        cdef Node n = self.decision(grid, market, deck, discard, passno, reshuffles, final, over, cards)
        cdef Node child
        cdef int value, v, s, c, found
        cdef uint64_t key[4]
        self.stopped = STOP_NONE
        self.deadline = now() + self.seconds if self.seconds > 0 else 0.0
        self.node_stop = self.nodes + self.node_budget if self.node_budget else 0
        with nogil:
            value = self.root_value(&n, cards)
        if self.stopped:
            return None
        line = []
        while not n.over:  # follow the values: the first move whose child reaches the value
            found = 0
            for s in range(3):
                for c in range(CELLS):
                    child = n
                    take(&child, cards, s, c)
                    if child.over:
                        v = grid_value(&child)
                    else:
                        node_key(&child, key)
                        with nogil:
                            v = self.search(&child, key, value - 1)
                        if self.stopped:
                            return None
                    if v >= value:
                        found = 1
                        break
                if found:
                    break
            if not found:
                raise AssertionError("skyway kernel: no move reaches the position's value")
            line.append((s + 1, c + 1))
            n = child
            if not n.over:
                deal_market(&n, cards, self.seed)
        return value, line

    def decision_bound(self, grid, market, deck, discard, int passno, int reshuffles, int final, int over):
        """An upper bound on the value of a decision state: its best child's, exact where the game
        ends there or the table knows it, else the relaxed bound or the table's smaller upper bound
        (what a stopped search proved), never above a won full grid (27 cards, each in at most one
        chain)."""
        cdef int cards[5]
        cdef Child kids[MOVES]
        cdef int order[MOVES]
        cdef Node n = self.decision(grid, market, deck, discard, passno, reshuffles, final, over, cards)
        cdef int best
        if n.over:
            return grid_value(&n)
        self.children(&n, cards, kids, order)
        best = kids[order[0]].bound
        return best if best < WIN_VALUE + CELLS * 3 else WIN_VALUE + CELLS * 3

    def pilot(self, grid, market, deck, discard, int passno, int reshuffles, int final, int over,
              int target=0):
        """(value, line) of the pilot method from a decision state (pilot_run, its rollouts
        steered to grids that can hold ``target`` cards)."""
        cdef int cards[5]
        cdef int moves[64]
        cdef int length, value, i
        cdef Node n = self.decision(grid, market, deck, discard, passno, reshuffles, final, over, cards)
        value = pilot_run(&n, cards, self.seed, moves, &length, target)
        return value, [(moves[i] // CELLS + 1, moves[i] % CELLS + 1) for i in range(length)]

    def nested(self, grid, market, deck, discard, int passno, int reshuffles, int final, int over,
               double seconds, targets=(0,)):
        """(value, line) of nested_run from a decision state within ``seconds``, each move
        followed by the pilot method with each of ``targets`` (pilot_run)."""
        cdef int cards[5]
        cdef int moves[64]
        cdef int goals[8]
        cdef int length, value, i, count = len(targets)
        cdef double deadline = now() + seconds
        cdef Node n = self.decision(grid, market, deck, discard, passno, reshuffles, final, over, cards)
        if not 1 <= count <= 8:
            raise ValueError("nested: 1 to 8 targets")
        for i in range(count):
            goals[i] = targets[i]
        with nogil:
            value = nested_run(&n, cards, self.seed, moves, &length, deadline, goals, count)
        return value, [(moves[i] // CELLS + 1, moves[i] % CELLS + 1) for i in range(length)]

    def bound(self, grid, deck, discard, int passno, int reshuffles):
        """The relaxed bound of a turn-start position (tests check it against exact values)."""
        cdef int cards[5]
        cdef Node n = self.decision(grid, (), deck, discard, passno, reshuffles, 0, 0, cards)
        return relaxed_bound(&n, self.seed)
