# cython: language_level=3, boundscheck=False, wraparound=False
"""Dead Center's compiled kernel: the legal moves, the blind rule and its rollouts.

It mirrors solodeck/games/dead_center/ (the reference) and is tested equal to it
(tests/test_dead_center.py): the same legal moves, and rollouts that draw the same cards with the
same generator (solvers/rollouts.py's play_out), sample for sample.

- ``legal_moves(tops, faces, status, step, card, cell)``: (kind, where) of every move (kind 0
  reveal, 1 play, 2 kill, 3 pass; where 1-12 or 1-9 as in the reference's moves), in its order;
- ``rollouts(tops, faces, status, deck, step, card, cell, moves, samples, seed, weights)``: for
  each move, the move then the blind rule (the reference's rule_move, its play weighed by
  ``weights``, RULE_WEIGHTS) to the end, over ``samples`` draws (sample i uses the generator
  seeded seed + i); [(wins, sum of winning scores, zombies killed in the lost games)].

Rollouts draw from compositions: the deck as a count per card, the unseen faces as a set. A draw
picks the r-th smallest card (r = next() mod the count), a reveal the r-th smallest unseen face,
as the reference's sample_chance does over its sorted outcomes. Face-down faces are never read.
"""
from libc.stdint cimport uint64_t
from shared cimport next_random

cdef enum:
    CELLS = 9
    SPACES = 12
    JOKER = 52
    DOWN = 0
    UP = 1
    DEAD = 2
    REVEAL = 0
    FLIP = 1
    DRAW = 2
    PLACE = 3
    KILL = 4
    # move kinds
    M_REVEAL = 0
    M_PLAY = 1
    M_KILL = 2
    M_PASS = 3

# The reference's tables (games/dead_center/rules.py): each space's pile and support piles, each pile's spaces.
cdef int SPACE_CELL[12]
cdef int SUPPORT_A[12]
cdef int SUPPORT_B[12]
cdef int CELL_SPACE[9][2]
cdef int CELL_NSPACES[9]


def _init_tables():
    from solodeck.games.dead_center.rules import CELL_SPACES, SPACE_CELL as cells, SUPPORTS
    for s in range(SPACES):
        SPACE_CELL[s] = cells[s]
        SUPPORT_A[s], SUPPORT_B[s] = SUPPORTS[s]
    for c in range(CELLS):
        CELL_NSPACES[c] = len(CELL_SPACES[c])
        for i, s in enumerate(CELL_SPACES[c]):
            CELL_SPACE[c][i] = s


_init_tables()


ctypedef struct Pos:
    int tops[9]
    int face[12]          # the face of a face-up or dead zombie (face-down ones are never read)
    int status[12]
    int unseen[12]        # the face cards not seen yet, as a 0/1 flag per face (index: suit * 3 + rank - 11)
    int nunseen
    int count[53]         # the deck, as a count per card
    int ndeck
    int step
    int card
    int cell


cdef inline int value(int card) noexcept nogil:
    return 0 if card == JOKER else card % 13 + 1


cdef inline bint red(int card) noexcept nogil:
    return card != JOKER and (card // 13 == 1 or card // 13 == 2)


cdef inline bint fits(int card, int top) noexcept nogil:
    if card == JOKER or top == JOKER:
        return True
    cdef int v = card % 13, t = top % 13
    if v == t:
        return True
    return t > v if red(card) == red(top) else t < v


cdef inline bint matches(int zombie, int support) noexcept nogil:
    cdef int rank = zombie % 13 + 1
    if support == JOKER or rank == 11:
        return True
    return support // 13 == zombie // 13 if rank == 13 else red(support) == red(zombie)


cdef inline bint kills(int zombie, int a, int b) noexcept nogil:
    return value(a) + value(b) >= 10 and matches(zombie, a) and matches(zombie, b)


cdef inline int face_index(int face) noexcept nogil:
    return (face // 13) * 3 + face % 13 - 10


cdef inline int face_card(int index) noexcept nogil:
    return (index // 3) * 13 + index % 3 + 10


cdef int kill_options(Pos* p, int cell, int* out) noexcept nogil:
    """The face-up zombies next to ``cell`` that its supports kill, in the reference's order."""
    cdef int i, s, n = 0
    for i in range(CELL_NSPACES[cell]):
        s = CELL_SPACE[cell][i]
        if p.status[s] == UP and kills(p.face[s], p.tops[SUPPORT_A[s]], p.tops[SUPPORT_B[s]]):
            out[n] = s
            n += 1
    return n


cdef bint any_status(Pos* p, int which) noexcept nogil:
    cdef int s
    for s in range(SPACES):
        if p.status[s] == which:
            return True
    return False


cdef void fix_step(Pos* p) noexcept nogil:
    """The reference's constructor: a turn with no face-down zombie starts at the draw."""
    if p.step == REVEAL and not any_status(p, DOWN):
        p.step = DRAW


cdef int outcome(Pos* p) noexcept nogil:
    """-1 while playing, 0 lost, 1 won (as the reference's outcome())."""
    cdef int c
    if not any_status(p, DOWN) and not any_status(p, UP):
        return 1
    if (p.step == REVEAL or p.step == FLIP or p.step == DRAW) and p.ndeck == 0:
        return 0
    if p.step == PLACE:
        for c in range(CELLS):
            if fits(p.card, p.tops[c]):
                return -1
        return 0
    return -1


cdef void next_turn(Pos* p) noexcept nogil:
    p.step = REVEAL
    fix_step(p)


cdef void play(Pos* p, int kind, int where) noexcept nogil:
    """A legal move (the caller's duty, as the reference checks it)."""
    cdef int opts[2]
    if kind == M_REVEAL:
        p.step = FLIP
        p.cell = where - 1
    elif kind == M_PLAY:
        p.cell = where - 1
        p.tops[p.cell] = p.card
        p.step = KILL
        if kill_options(p, p.cell, opts) == 0:
            next_turn(p)
    else:
        if kind == M_KILL:
            p.status[where - 1] = DEAD
        next_turn(p)


cdef void chance(Pos* p, uint64_t* rng) noexcept nogil:
    """Sample the chance node (FLIP or DRAW) as the reference's sample_chance does."""
    cdef int r, i, c
    if p.step == FLIP:
        r = <int>(next_random(rng) % <uint64_t>p.nunseen)
        for i in range(SPACES):
            if p.unseen[i]:
                if r == 0:
                    break
                r -= 1
        p.unseen[i] = 0
        p.nunseen -= 1
        p.face[p.cell] = face_card(i)
        p.status[p.cell] = UP
        p.step = DRAW
    else:
        r = <int>(next_random(rng) % <uint64_t>p.ndeck)
        for c in range(53):
            if r < p.count[c]:
                break
            r -= p.count[c]
        p.count[c] -= 1
        p.ndeck -= 1
        p.card = c
        p.step = PLACE


cdef int vdiff(int a, int b) noexcept nogil:
    return a - b if a > b else b - a


cdef int FEATURES = 7
cdef long WEIGHTS[7]   # the rule's weights of play_value's features, set by rollouts()


cdef int odds(Pos* p, int space) noexcept nogil:
    """How many of the unseen faces the supports of ``space`` kill now."""
    cdef int i, n = 0
    for i in range(SPACES):
        if p.unseen[i] and kills(face_card(i), p.tops[SUPPORT_A[space]], p.tops[SUPPORT_B[space]]):
            n += 1
    return n


cdef long play_value(Pos* p, int cell) noexcept nogil:
    """The reference's weighted State.play_features of playing the drawn card on ``cell``: the
    kills it allows, the face-up zombies then ready, how near they are, the live zombies whose
    supports sum to 10 or more, the value gap to the top, a joker covered, the (face-down space,
    unseen face) pairs then killed."""
    cdef int s, a, b, matched, ready = 0, near = 0, strong = 0, down_odds = 0, old = p.tops[cell]
    cdef bint enough
    cdef int opts[2]
    cdef long v
    p.tops[cell] = p.card
    for s in range(SPACES):
        if p.status[s] != DEAD:
            a, b = p.tops[SUPPORT_A[s]], p.tops[SUPPORT_B[s]]
            enough = value(a) + value(b) >= 10
            strong += enough
            if p.status[s] == UP:
                matched = matches(p.face[s], a) + matches(p.face[s], b)
                ready += enough and matched == 2
                near += matched + enough
            elif enough:
                down_odds += odds(p, s)
    v = (WEIGHTS[0] * kill_options(p, cell, opts) + WEIGHTS[1] * ready + WEIGHTS[2] * near
         + WEIGHTS[3] * strong + WEIGHTS[4] * vdiff(value(old), value(p.card)) + WEIGHTS[5] * (old == JOKER)
         + WEIGHTS[6] * down_odds)
    p.tops[cell] = old
    return v


cdef void rule(Pos* p, int* kind, int* where) noexcept nogil:
    """The reference's rule_move: the face-down space whose supports kill the most unseen faces;
    the play of the highest play_value; the first kill (the first of equals each time)."""
    cdef int s, c, n, best = -1, best_n = -1
    cdef long v, best_v = 0
    cdef int opts[2]
    if p.step == REVEAL:
        for s in range(SPACES):
            if p.status[s] == DOWN:
                n = odds(p, s)
                if n > best_n:
                    best, best_n = s, n
        kind[0], where[0] = M_REVEAL, best + 1
    elif p.step == PLACE:
        for c in range(CELLS):
            if fits(p.card, p.tops[c]):
                v = play_value(p, c)
                if best < 0 or v > best_v:
                    best, best_v = c, v
        kind[0], where[0] = M_PLAY, best + 1
    elif kill_options(p, p.cell, opts):
        kind[0], where[0] = M_KILL, opts[0] + 1
    else:
        kind[0], where[0] = M_PASS, 0


cdef int dead_count(Pos* p) noexcept nogil:
    cdef int s, n = 0
    for s in range(SPACES):
        n += p.status[s] == DEAD
    return n


cdef bint play_out(Pos* p, uint64_t* rng, int* score) noexcept nogil:
    """The blind rule to the end; True on a win (``score``: the cards left; after a loss, the
    zombies killed)."""
    cdef int kind, where, result
    while True:
        result = outcome(p)
        if result >= 0:
            score[0] = p.ndeck if result == 1 else dead_count(p)
            return result == 1
        if p.step == FLIP or p.step == DRAW:
            chance(p, rng)
        else:
            rule(p, &kind, &where)
            play(p, kind, where)


cdef Pos position(tops, faces, status, deck, int step, int card, int cell):
    cdef Pos p
    cdef int i
    for i in range(CELLS):
        p.tops[i] = tops[i]
    for i in range(SPACES):
        p.status[i] = status[i]
        p.face[i] = faces[i]
        p.unseen[i] = 0
    p.nunseen = 0
    for i in range(SPACES):
        if status[i] == DOWN:
            p.unseen[face_index(faces[i])] = 1
            p.nunseen += 1
    for i in range(53):
        p.count[i] = 0
    for c in deck:
        p.count[c] += 1
    p.ndeck = len(deck)
    p.step, p.card, p.cell = step, card, cell
    fix_step(&p)
    return p


def legal_moves(tops, faces, status, int step, int card, int cell):
    """(kind, where) of every legal move at a decision, in the reference's order."""
    cdef Pos p = position(tops, faces, status, (), step, card, cell)
    cdef int s, c, n
    cdef int opts[2]
    if p.step == REVEAL:
        return [(M_REVEAL, s + 1) for s in range(SPACES) if p.status[s] == DOWN]
    if p.step == PLACE:
        return [(M_PLAY, c + 1) for c in range(CELLS) if fits(p.card, p.tops[c])]
    if p.step == KILL:
        n = kill_options(&p, p.cell, opts)
        return [(M_KILL, opts[s] + 1) for s in range(n)] + [(M_PASS, 0)]
    return []


def rollouts(tops, faces, status, deck, int step, int card, int cell, moves, int samples, uint64_t seed, weights):
    """[(wins, sum of winning scores, zombies killed in the lost games)] for each (kind, where) of
    ``moves``; ``weights``: the rule's (RULE_WEIGHTS)."""
    cdef Pos start = position(tops, faces, status, deck, step, card, cell)
    cdef Pos p
    cdef uint64_t rng
    cdef int i, wins, total, dead, score, kind, where
    for i in range(FEATURES):
        WEIGHTS[i] = weights[i]
    out = []
    for kind, where in moves:
        wins = total = dead = 0
        for i in range(samples):
            p = start
            rng = seed + <uint64_t>i
            play(&p, kind, where)
            if play_out(&p, &rng, &score):
                wins += 1
                total += score
            else:
                dead += score
        out.append((wins, total, dead))
    return out
