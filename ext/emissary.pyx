# cython: language_level=3, boundscheck=False, wraparound=False
"""The Emissary's open-mode engine: an exact search split at the visits (docs/rules/emissary.md,
"How the solver plays it"). It mirrors solodeck/games/emissary/rules.py (the reference) and is tested
equal to the generic search on it (tests/test_emissary.py).

**Between visits** the hand is empty and the deck, discard and scoring piles are reshuffled
together: the next deck is the seeded shuffle of all 32 cards with the next stream number, so
nothing of the past visit's cards survives. A state between visits is therefore only (the suit
of each unvisited kingdom's ruler, the unspent supporters counted by suit, the shuffle count):
kings and queens of a suit are alike to the rules (trump and abilities go by suit).

**A visit** ends in success or failure. What a success leaves for later is its *label*: the
kingdoms its spades abilities swapped with (in order), the supporters it spent (counted by suit)
and the reshuffles it caused. ``between`` tries each kingdom and each label, best first, and asks
``reach``: can the visit end with exactly the kingdom's number of wins and this label? ``reach``
is a boolean depth-first search with a table that stops at the first line found (open play is
very flexible: most labels succeed quickly). A failure is worth the kingdoms won and the unspent
supporters; ``can_fail`` checks that some line fails without spending a supporter.

A value is WIN + the score for a win, the score for a loss (so a win always comes first, as in
the game's utility). Values are those of solvers/dfs.py's alpha search: exact when above ``alpha``, otherwise an
upper bound at most ``alpha``. Labels that spend more supporters than the score bound allows
(16 less the supporters spent) are never tried.

Cards are indices 0-31 here (suit * 8 + value - 1: S, H, D, C as solodeck.cards); hands are bit
masks. A deck is an id into a table of card tuples with the stream number that shuffled it.
"""
import time

from solodeck.shuffle import shuffled

cdef enum:
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    KINGDOMS = 8
    HAND = 8
    WIN = 32  # a win's value is WIN + its score, a loss's its score (the utility's order: a win first)
    MAX_RESHUFFLES = 7  # labels try this many reshuffles in a visit; a line needing more sets ``truncated``

ctypedef unsigned long long u64

cdef u64 ALL = 0xFFFFFFFFULL
cdef u64 SUITMASK[4]
for _s in range(4):
    SUITMASK[_s] = 0xFFULL << (8 * _s)


WIN_VALUE = WIN


class Stopped(Exception):
    """The time limit was reached."""


def to_index(card):
    return (card // 13) * 8 + card % 13


def to_card(index):
    return (index // 8) * 13 + index % 8


cdef inline int popcount(u64 x):
    return __builtin_popcountll(x)


cdef extern int __builtin_popcountll(unsigned long long) nogil
cdef extern int __builtin_ctzll(unsigned long long) nogil


cdef inline int wins_debate(int response, int lead, int trump):
    if response // 8 == lead // 8:
        return response % 8 > lead % 8
    return response // 8 == trump and lead // 8 != trump


cdef class Search:
    """One deal's tables (``seed``: the reshuffles' seed). ``time_limit`` in seconds (0: none)."""

    cdef public long long nodes
    cdef public int truncated
    cdef public object seed
    cdef double deadline
    cdef list decks
    cdef list streams
    cdef dict deck_ids
    cdef dict reached
    cdef public dict values
    cdef int _cap

    def __init__(self, seed, double time_limit=0.0):
        self.seed = seed
        self.nodes = 0
        self.truncated = 0
        self.limit(time_limit)
        self.decks, self.streams, self.deck_ids = [], [], {}
        self.reached, self.values = {}, {}

    def limit(self, double seconds):
        """A new time limit from now (0: none); ``Stopped`` is raised when it passes."""
        self.deadline = time.perf_counter() + seconds if seconds > 0 else 0.0

    # -- decks ---------------------------------------------------------------------------------
    def deck_id(self, int stream, cards):
        """The id of a deck (card indices, top first) shuffled with ``stream``."""
        key = (stream, tuple(cards))
        found = self.deck_ids.get(key)
        if found is None:
            found = self.deck_ids[key] = len(self.decks)
            self.decks.append(key[1])
            self.streams.append(stream)
        return found

    def deck_cards(self, int deck):
        return self.decks[deck]

    def deck_stream(self, int deck):
        return self.streams[deck]

    def locate(self, int stream, cards):
        """(deck, pos) for a deck's remaining cards: a known deck of that stream it ends, else a new one."""
        cards = tuple(cards)
        for deck, known in enumerate(self.decks):
            if self.streams[deck] == stream and len(known) >= len(cards) and known[len(known) - len(cards):] == cards:
                return deck, len(known) - len(cards)
        return self.deck_id(stream, cards), 0

    def fresh_deck(self, int stream):
        """The deck of a visit after ``stream`` reshuffles: all 32 cards, sorted, shuffled."""
        cards = shuffled([s * 13 + v for s in range(4) for v in range(8)], self.seed, stream)
        return self.deck_id(stream, [to_index(c) for c in cards])

    cdef int reshuffled(self, int deck, u64 discard):
        """The deck the discard pile becomes when ``deck`` runs out mid-visit."""
        cdef int i
        cards = shuffled([to_card(i) for i in range(32) if discard >> i & 1], self.seed, self.streams[deck] + 1)
        return self.deck_id(self.streams[deck] + 1, [to_index(c) for c in cards])

    cdef tuple draw(self, int deck, int pos, u64 hand, u64 scoring, int count, int reshuffles):
        """(deck, pos, hand, reshuffles left) after drawing ``count`` cards; None if that needs
        more reshuffles than ``reshuffles`` (-1: any number)."""
        cdef tuple cards = self.decks[deck]
        cdef u64 discard
        for _ in range(count):
            if pos == len(cards):
                discard = ALL & ~hand & ~scoring
                if not discard:
                    break  # nothing left anywhere: the draw ends
                if reshuffles == 0:
                    if self._at_cap():
                        self.truncated = 1
                    return None
                deck, pos = self.reshuffled(deck, discard), 0
                if reshuffles > 0:
                    reshuffles -= 1
                cards = self.decks[deck]
            hand |= 1ULL << <int>cards[pos]
            pos += 1
        return deck, pos, hand, reshuffles

    cdef int _at_cap(self):  # reach()'s cap: the label has the most reshuffles tried

        return self._cap

    cdef void tick(self) except *:
        self.nodes += 1
        if self.deadline and self.nodes % 2048 == 0 and time.perf_counter() > self.deadline:
            raise Stopped()

    # -- a visit -------------------------------------------------------------------------------
    cdef int draws_ahead(self, u64 hand, u64 scoring, int jacks, int spent):
        """At most how many cards abilities can still draw this visit (``spent``: the supporters
        that may be used, 2 bits per suit). A diamonds ability draws two; a clubs ability one per
        club in hand, and a club in hand was there or was drawn. The bound plays the diamonds first,
        then each clubs ability as if every card drawn were a club (never more than the clubs not
        won)."""
        cdef int live = 8 - popcount(scoring & SUITMASK[CLUBS])
        cdef int diamonds = ((spent >> 2 * DIAMONDS) & 3) + (0 if jacks >> DIAMONDS & 1 else 1)
        cdef int clubs_uses = ((spent >> 2 * CLUBS) & 3) + (0 if jacks >> CLUBS & 1 else 1)
        cdef int clubs = min(live, popcount(hand & SUITMASK[CLUBS]) + 2 * diamonds), draws = 2 * diamonds
        for _ in range(clubs_uses):
            draws += clubs
            clubs = min(live, 2 * clubs)
        return draws

    cdef int may_win(self, int deck, int pos, u64 hand, int trump, int reshuffles):
        """How many cards in hand could still win a debate with trump fixed: the trumps, and the
        cards with a lower card of their suit still to come from the deck (any card, if the deck
        may be reshuffled)."""
        if reshuffles:
            return popcount(hand)
        cdef tuple cards = self.decks[deck]
        cdef int i, count = popcount(hand & SUITMASK[trump]), s, card
        cdef int lowest[4]
        lowest[0] = lowest[1] = lowest[2] = lowest[3] = 99
        for i in range(pos, len(cards)):
            card = cards[i]
            if card % 8 < lowest[card // 8]:
                lowest[card // 8] = card % 8
        for s in range(4):
            if s != trump:
                for i in range(8):
                    if hand >> (8 * s + i) & 1 and i > lowest[s]:
                        count += 1
        return count

    def reach(self, int deck, int pos, u64 hand, u64 scoring, int trump, int jacks, int need, int swaps, int spent,
              int reshuffles, int cap=0):
        """Can the visit end with ``need`` more wins, doing exactly the label's swaps (``swaps``: 3
        bits per swap, the suit + 1, first lowest), spending exactly ``spent`` supporters (2 bits
        per suit) and reshuffling exactly ``reshuffles`` times? ``cap``: the label has the most reshuffles tried;
        a line that would need more sets ``truncated`` (the answer is then not exact)."""
        self._cap = cap
        return self._reach(deck, pos, hand, scoring, trump, jacks, need, swaps, spent, reshuffles)

    cdef bint _reach(self, int deck, int pos, u64 hand, u64 scoring, int trump, int jacks, int need, int swaps,
                     int spent, int reshuffles) except -1:
        if need < 0:
            return False
        if not hand:
            return need == 0 and swaps == 0 and spent == 0 and reshuffles == 0
        cdef int nswaps = 0, s, x
        x = swaps
        while x:
            nswaps += 1
            x >>= 3
        cdef int spades_spent = spent & 3
        if nswaps < spades_spent or nswaps > spades_spent + (0 if jacks & 1 else 1):
            return False
        cdef int draws = self.draws_ahead(hand, scoring, jacks, spent)
        cdef int in_hand = popcount(hand)
        if need > (in_hand if swaps else self.may_win(deck, pos, hand, trump, reshuffles)) + draws:
            return False
        cdef tuple cards = self.decks[deck]
        # each card drawn is answered to a lead later: the deck gives at most hand + 2 x draws more
        cdef bint may_run_out = len(cards) - pos < in_hand + 2 * draws
        if reshuffles > 0 and not may_run_out:
            return False
        cdef bint scoring_matters = reshuffles > 0
        key = (deck, pos, hand, trump, jacks, need, swaps, spent, reshuffles, scoring if scoring_matters else -1,
               self._cap)
        found = self.reached.get(key)
        if found is not None:
            return found
        self.tick()
        result = self._reach_children(deck, pos, hand, scoring, trump, jacks, need, swaps, spent, reshuffles)
        self.reached[key] = result
        return result

    cdef bint _reach_children(self, int deck, int pos, u64 hand, u64 scoring, int trump, int jacks, int need,
                                int swaps, int spent, int reshuffles) except -1:
        """Does some move lead on to the label?"""
        cdef tuple cards = self.decks[deck]
        cdef int d = deck, p = pos, r = reshuffles, lead, card, s, jack, cost, count, a, b, n
        cdef u64 discard, follow, options, rest, h
        # a debate
        if p == len(cards):
            discard = ALL & ~hand & ~scoring
            if discard and r > 0:
                d, p, r = self.reshuffled(deck, discard), 0, r - 1
            elif discard:
                if self._cap:
                    self.truncated = 1
                d = -1
            elif need == 0 and swaps == 0 and spent == 0 and r == 0:  # no lead anywhere: the visit ends
                return True
            else:
                d = -1
        if d >= 0:
            cards = self.decks[d]
            lead = cards[p]
            follow = hand & SUITMASK[lead // 8]
            options = follow if follow else hand
            # try to win when more wins are needed than cards half the hand, else to lose
            for want in ((1, 0) if 2 * need >= popcount(hand) else (0, 1)):
                rest = options
                while rest:
                    card = __builtin_ctzll(rest)
                    rest &= rest - 1
                    win = wins_debate(card, lead, trump)
                    if win != want:
                        continue
                    if self._reach(d, p + 1, hand & ~(1ULL << card), scoring | (1ULL << card) if win else scoring,
                                   trump, jacks, need - win, swaps, spent, r):
                        return True
        # the abilities: each suit's jack, then a supporter of that suit
        for s in range(4):
            for jack in (1, 0):
                if jack:
                    if jacks >> s & 1:
                        continue
                    j2, sp2 = jacks | 1 << s, spent
                else:
                    if not (spent >> 2 * s) & 3:
                        continue
                    j2, sp2 = jacks, spent - (1 << 2 * s)
                if s == HEARTS:
                    if hand & SUITMASK[trump] and self._reach(deck, pos, hand & ~SUITMASK[trump], scoring, trump, j2,
                                                              need, swaps, sp2, reshuffles):
                        return True
                elif s == SPADES:
                    if swaps and self._reach(deck, pos, hand, scoring, (swaps & 7) - 1, j2, need, swaps >> 3, sp2,
                                             reshuffles):
                        return True
                else:
                    count = popcount(hand & SUITMASK[CLUBS]) if s == CLUBS else 2
                    if not count:
                        continue
                    drawn = self.draw(deck, pos, hand, scoring, count, reshuffles)
                    if drawn is None:
                        continue
                    d, p, h, r = drawn
                    if s == CLUBS:
                        if self._reach(d, p, h, scoring, trump, j2, need, swaps, sp2, r):
                            return True
                        continue
                    n = popcount(h)
                    if n <= 2:  # both discards empty the hand: the visit ends
                        if self._reach(d, p, 0, scoring, trump, j2, need, swaps, sp2, r):
                            return True
                        continue
                    for a in range(32):
                        if not h >> a & 1:
                            continue
                        for b in range(a + 1, 32):
                            if h >> b & 1 and self._reach(d, p, h & ~(1ULL << a) & ~(1ULL << b), scoring, trump, j2,
                                                          need, swaps, sp2, r):
                                return True
        return False

    def can_fail(self, int deck, int pos, u64 hand, u64 scoring, int trump, int jacks, int need, int swap_suits):
        """Can the visit end with a number of wins other than ``need`` more, spending no supporter?
        ``swap_suits``: the suits (bits) of the other unvisited kingdoms' rulers, for the spades jack."""
        if need < 0:
            return True
        if not hand:
            return need != 0
        key = ("fail", deck, pos, hand, scoring, trump, jacks, need, swap_suits)
        found = self.reached.get(key)
        if found is not None:
            return found
        self.tick()
        result = self._fail_children(deck, pos, hand, scoring, trump, jacks, need, swap_suits)
        self.reached[key] = result
        return result

    cdef bint _fail_children(self, int deck, int pos, u64 hand, u64 scoring, int trump, int jacks, int need,
                               int swap_suits) except -1:
        cdef tuple cards = self.decks[deck]
        cdef int d = deck, p = pos, lead, card, s, a, b, count
        cdef u64 discard, follow, options, h
        if p == len(cards):
            discard = ALL & ~hand & ~scoring
            if not discard:
                return need != 0
            d, p = self.reshuffled(deck, discard), 0
            cards = self.decks[d]
        lead = cards[p]
        follow = hand & SUITMASK[lead // 8]
        options = follow if follow else hand
        for card in range(32):
            if options >> card & 1:
                win = wins_debate(card, lead, trump)
                if self.can_fail(d, p + 1, hand & ~(1ULL << card), scoring | (1ULL << card) if win else scoring, trump,
                                 jacks, need - win, swap_suits):
                    return True
        for s in range(4):
            if jacks >> s & 1:
                continue
            if s == HEARTS:
                if hand & SUITMASK[trump] and self.can_fail(deck, pos, hand & ~SUITMASK[trump], scoring, trump,
                                                            jacks | 2, need, swap_suits):
                    return True
            elif s == SPADES:
                for a in range(4):
                    if a != trump and swap_suits >> a & 1 and self.can_fail(deck, pos, hand, scoring, a, jacks | 1,
                                                                            need, 0):
                        return True
            else:
                count = popcount(hand & SUITMASK[CLUBS]) if s == CLUBS else 2
                if not count:
                    continue
                d, p, h, _ = self.draw(deck, pos, hand, scoring, count, -1)
                if s == CLUBS:
                    if self.can_fail(d, p, h, scoring, trump, jacks | 1 << s, need, swap_suits):
                        return True
                    continue
                if popcount(h) <= 2:
                    if self.can_fail(d, p, 0, scoring, trump, jacks | 1 << s, need, swap_suits):
                        return True
                    continue
                for a in range(32):
                    for b in range(a + 1, 32):
                        if h >> a & 1 and h >> b & 1 and self.can_fail(d, p, h & ~(1ULL << a) & ~(1ULL << b), scoring,
                                                                       trump, jacks | 1 << s, need, swap_suits):
                            return True
        return False

    # -- between visits ------------------------------------------------------------------------
    def start(self, int deck):
        """(deck, pos, hand) of a visit whose eight cards are drawn from the top of a full deck."""
        cards = self.decks[deck]
        return deck, HAND, sum(1 << c for c in cards[:HAND])

    def between(self, tuple arr, tuple avail, int deck, int pos, u64 hand, int alpha):
        """The best value from the choice of a kingdom. ``arr``: each kingdom's ruler's suit, -1
        once won; ``avail``: the unspent supporters per suit; the hand was drawn from ``deck``, now
        at ``pos``. Exact when above ``alpha``, else an upper bound at most ``alpha``."""
        cdef int won = arr.count(-1), unused = sum(avail)
        cdef int bound = WIN + 2 * KINGDOMS - won + unused, best = -1, k
        if bound <= alpha:
            return bound
        key = (arr, avail, deck, pos, hand)
        entry = self.values.get(key)
        if entry is not None and (entry[1] or entry[0] <= alpha):
            return entry[0]
        self.tick()
        choice = None
        for k in range(KINGDOMS):
            if arr[k] < 0:
                continue
            if bound <= max(alpha, best):
                break
            value, label = self.visit(arr, avail, k, deck, pos, hand, 0, 0, k + 1, max(alpha, best))
            if value > best:
                best, choice = value, (k, label)
        exact = best > alpha
        self.values[key] = (best if exact else alpha, exact, choice)
        return best if exact else alpha

    def choice(self, tuple arr, tuple avail, int deck, int pos, u64 hand):
        """(kingdom, label) of the best visit ``between`` stored for this decision (solved exactly)."""
        entry = self.values.get((arr, avail, deck, pos, hand))
        return entry[2] if entry is not None and entry[1] else None

    def visit(self, tuple arr, tuple avail, int k, int deck, int pos, u64 hand, u64 scoring, int jacks, int need,
              int alpha):
        """(value, label) of kingdom ``k``'s visit from a decision between debates (``need``: the
        wins still to make). The label is "fail" or (supporters spent per suit, the kingdoms
        swapped with in order, reshuffles). The value is exact when above ``alpha``, else an upper
        bound at most ``alpha`` (and the label None)."""
        cdef int won = arr.count(-1), unused = sum(avail), trump = arr[k]
        cdef int bound = WIN + 2 * KINGDOMS - won + unused, best = -1, r, rmax, total
        choice = None
        usable = sum(n << 2 * s for s, n in enumerate(avail))
        may_reshuffle = len(self.decks[deck]) - pos < popcount(hand) + 2 * self.draws_ahead(hand, scoring, jacks, usable)
        rmax = MAX_RESHUFFLES if may_reshuffle else 0
        for spent in spendings(avail, bound - alpha - 1):
            total = sum(spent)
            if bound - total <= max(alpha, best):
                break  # spendings come cheapest first
            packed = sum(n << 2 * s for s, n in enumerate(spent))
            lowest = spent[SPADES]
            for kingdoms, swaps, after in swap_sequences(arr, k, lowest, lowest + (0 if jacks & 1 else 1)):
                for r in range(rmax + 1):
                    if not self.reach(deck, pos, hand, scoring, trump, jacks, need, swaps, packed, r,
                                      may_reshuffle and r == rmax):
                        continue
                    supporters = [a - n for a, n in zip(avail, spent)]
                    supporters[after[k]] += 1
                    arr2 = after[:k] + (-1,) + after[k + 1:]
                    if won + 1 == KINGDOMS:
                        value = WIN + KINGDOMS + sum(supporters)
                    else:
                        value = self.between(arr2, tuple(supporters), *self.start(self.fresh_deck(self.streams[deck] + r + 1)),
                                             max(alpha, best))
                    if value > best:
                        best, choice = value, (spent, kingdoms, r)
                        if best >= bound - total:  # no label spending as much or more can do better
                            return best, choice
        fail = won + unused
        if fail > max(alpha, best) and self.can_fail(deck, pos, hand, scoring, trump, jacks, need,
                                                     others(arr, k)):
            best, choice = fail, "fail"
        return (best, choice) if best > alpha else (alpha, None)


def spendings(avail, budget):
    """Every way to spend at most ``budget`` supporters (per suit, at most those unspent), fewest first."""
    out = [()]
    for n in avail:
        out = [v + (i,) for v in out for i in range(n + 1)]
    return sorted((v for v in out if sum(v) <= budget), key=sum)


def others(arr, k):
    """The suits (bits) of the rulers of the unvisited kingdoms other than k."""
    return sum(1 << s for s in set(arr[j] for j in range(len(arr)) if j != k and arr[j] >= 0))


def swap_sequences(arr, k, lowest, highest):
    """(kingdoms, swap code, the suits after) of every sequence of lowest..highest spades swaps
    from kingdom k, each with an unvisited kingdom whose ruler is of another suit (a swap within a
    suit changes nothing), shortest first."""
    out = []

    def extend(current, kingdoms, code, shift):
        if len(kingdoms) >= lowest:
            out.append((tuple(kingdoms), code, current))
        if len(kingdoms) == highest:
            return
        for j in range(len(current)):
            if j != k and current[j] >= 0 and current[j] != current[k]:
                after = list(current)
                after[k], after[j] = after[j], after[k]
                extend(tuple(after), kingdoms + [j], code | (current[j] + 1) << shift, shift + 3)

    extend(tuple(arr), [], 0, 0)
    return sorted(out, key=lambda item: len(item[0]))


def swap_code(arr, k, kingdoms):
    """The swap code of a sequence of swaps of kingdom k with ``kingdoms``."""
    current, code, shift = list(arr), 0, 0
    for j in kingdoms:
        code |= (current[j] + 1) << shift
        current[k], current[j] = current[j], current[k]
        shift += 3
    return code


def legal_moves(int step, tuple arr, tuple avail, int k, u64 hand, int jacks, int lead):
    """The rules as the search applies them, for the contract test against the reference: the moves
    of a decision (``step``: 0 choose a kingdom, 1 between debates, 2 answer ``lead``, 3 discard)
    in a neutral form: ("visit", kingdom), ("debate",), ("play", card), ("discard", card),
    ("use", suit, from a jack?, kingdom swapped with or -1), one per supporter of the suit."""
    cdef int s, j, trump
    cdef u64 follow
    if step == 0:
        return [("visit", j) for j in range(KINGDOMS) if arr[j] >= 0]
    if step == 2:
        follow = hand & SUITMASK[lead // 8]
        return [("play", c) for c in range(32) if (follow if follow else hand) >> c & 1]
    if step == 3:
        return [("discard", c) for c in range(32) if hand >> c & 1]
    trump = arr[k]
    out = [("debate",)]
    for s in range(4):
        for jack in ([1] if not jacks >> s & 1 else []) + [0] * avail[s]:
            if s == SPADES:
                out += [("use", s, jack, j) for j in range(KINGDOMS) if j != k and arr[j] >= 0]
            elif s == DIAMONDS or hand & SUITMASK[trump if s == HEARTS else CLUBS]:
                out.append(("use", s, jack, -1))
    return out


# -- the blind rule's odds (solodeck/games/emissary/blind.py visit_table is the reference) ---------
from libc.stdlib cimport malloc, free


cdef double* _fill_table(hand, int trump, counts) except NULL:
    """The table of visit_table (rows of n + 1 doubles, zero beyond a row's wins), malloc'd."""
    cdef int n = len(hand), stride = n + 1, mask, k, w, s, j, t, i, m, low, high, child, ww
    cdef int suits[24]
    cdef int values[24]
    cdef int idx[24]
    cdef int same[4][24]
    cdef int nsame[4]
    cdef long below[4][11]
    cdef long totals[4]
    cdef long total = 0, weight
    cdef double acc, best, p
    cdef double* tab
    if n > 20:
        raise ValueError("visit_table: at most 20 cards")
    for i in range(n):
        suits[i] = hand[i] // 13
        values[i] = hand[i] % 13 + 1
    for s in range(4):
        below[s][0] = 0
        below[s][1] = 0
        for j in range(2, 11):
            below[s][j] = below[s][j - 1] + (<long>counts[s][j - 1] if j - 1 < len(counts[s]) else 0)
        totals[s] = below[s][10]
        total += totals[s]
    tab = <double*>malloc((<size_t>1 << n) * stride * sizeof(double))
    if tab == NULL:
        raise MemoryError()
    for j in range(stride):
        tab[j] = 0.0
    tab[0] = 1.0
    for mask in range(1, 1 << n):
        k = 0
        for s in range(4):
            nsame[s] = 0
        for i in range(n):
            if mask >> i & 1:
                idx[k] = i
                k += 1
                same[suits[i]][nsame[suits[i]]] = i
                nsame[suits[i]] += 1
        for w in range(stride):
            tab[mask * stride + w] = 0.0
        if total == 0:
            tab[mask * stride] = 1.0
            continue
        for w in range(k + 1):
            acc = 0.0
            for s in range(4):
                m = nsame[s]
                if m:
                    low = 0
                    for j in range(m + 1):
                        high = values[same[s][j]] if j < m else 9
                        weight = below[s][high] - below[s][low + 1]
                        if weight:
                            best = 0.0
                            for t in range(m):
                                ww = w - 1 if t >= j else w
                                child = mask ^ (1 << same[s][t])
                                p = tab[child * stride + ww] if 0 <= ww < k else 0.0
                                if p > best:
                                    best = p
                            acc += weight * best
                        low = high
                elif totals[s]:
                    best = 0.0
                    for j in range(k):
                        i = idx[j]
                        ww = w - 1 if suits[i] == trump and s != trump else w
                        child = mask ^ (1 << i)
                        p = tab[child * stride + ww] if 0 <= ww < k else 0.0
                        if p > best:
                            best = p
                    acc += totals[s] * best
            tab[mask * stride + w] = acc / total
    return tab


def visit_table(hand, int trump, counts):
    """table[mask][w]: the chance that the hand's cards in ``mask`` win exactly w of the debates
    they answer, each lead drawn from ``counts`` (see the reference, visit_table in
    solodeck/games/emissary/blind.py: the same sums in the same order, so the same floats). ``hand``:
    reference cards (suit * 13 + value - 1), sorted."""
    cdef int n = len(hand), stride = n + 1, mask, w
    cdef double* tab = _fill_table(hand, trump, counts)
    try:
        return [[tab[mask * stride + w] for w in range(_popcount_int(mask) + 1)] for mask in range(1 << n)]
    finally:
        free(tab)


def best_kept(hand, int trump, counts, int need, int drop):
    """The reference's best_kept: the best chance of exactly ``need`` wins left after discarding
    ``drop`` cards of the hand (0: the hand itself)."""
    cdef int n = len(hand), stride = n + 1, mask, keep = n - drop if drop < n else 0
    cdef double best = 0.0, p
    cdef double* tab
    if need < 0 or need > keep:
        return 0.0
    tab = _fill_table(hand, trump, counts)
    try:
        for mask in range(1 << n):
            if _popcount(mask) == keep:
                p = tab[mask * stride + need]
                if p > best:
                    best = p
        return best
    finally:
        free(tab)


cdef inline int _popcount(unsigned int x):
    return __builtin_popcountll(x)


def _popcount_int(x):
    return bin(x).count("1")
