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

**The blind rule** (the second half; solodeck/games/emissary/blind.py rule_keys is the reference,
tests/test_emissary_kernel_rule.py compares them): the odds tables (``fill_odds``: the same sums
in the same order as the reference's visit_table, so the same floats), the rule's valuation of
every move (``rule_keys``), its move and candidates, and rollouts: a move, then the rule to the
end, over draws of the unseen cards from the player's view (the deck as a set), sample i drawn
with splitmix64 seeded seed + i exactly as solvers/rollouts.py's play_out draws.
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


from libc.stdlib cimport malloc, free


# -- the blind rule and its rollouts (solodeck/games/emissary/blind.py rule_move is the reference) --
# The rule's position: the rulers (reference cards, kingdoms 0-7), visited / spent (bits of
# kingdoms), the kingdom visited (-1 between visits), hand / deck / discard / scoring as masks of
# card indices (suit * 8 + value - 1: the bit order is the reference's sorted order), the jacks
# used this visit, the step (rules.py's DRAW .. DISCARD), the lead (an index, -1), the draws and
# discards still due, lost. The deck is a set: blind rollouts draw from its composition (index r
# of the cards in sorted order, r = next() % cards, as State.sample_chance does), never its order.
from libc.stdint cimport uint64_t, uint32_t
from shared cimport next_random

cdef enum:
    R_DRAW = 0
    R_CHOOSE = 1
    R_ACT = 2
    R_LEAD = 3
    R_RESPOND = 4
    R_DISCARD = 5
    K_VISIT = 0
    K_DEBATE = 1
    K_PLAY = 2
    K_DISCARD = 3
    K_USE = 4
    MAX_ODDS = 14      # blind.py MAX_ODDS_HAND: the most cards a draw is valued into
    MAX_MOVES = 64
    MAX_CANDIDATES = 8

ctypedef struct RPos:
    int rulers[8]
    int visited, spent, kingdom
    uint32_t hand, deck, discard, scoring
    int jacks, step, lead, draws, discards, lost

ctypedef struct RMove:
    int kind, card, target    # card: a reference card (play, discard, use); target: kingdom 1-8 or 0

cdef double TYPICAL[8]
cdef double SUPPORTER_MARGIN_C = 0.05
cdef int DRAW_SAMPLES = 24    # blind.py DRAW_SAMPLES: sampled draws where there are more than COMBO_LIMIT
cdef long COMBO_LIMIT = 40
cdef double* STATIC_TAB = NULL
cdef int MAX_HAND = MAX_ODDS  # blind.py MAX_ODDS_HAND


def set_rule(typical, double supporter_margin, int draw_samples, long combo_limit, int max_hand):
    """The rule's weights, from blind.py (so that the two rules weigh alike): TYPICAL_CHANCE,
    SUPPORTER_MARGIN, DRAW_SAMPLES, COMBO_LIMIT, MAX_ODDS_HAND."""
    global SUPPORTER_MARGIN_C, DRAW_SAMPLES, COMBO_LIMIT, MAX_HAND
    if not 0 < max_hand <= MAX_ODDS:
        raise ValueError(f"max_hand: 1 to {MAX_ODDS}")
    MAX_HAND = max_hand
    cdef int k
    for k in range(8):
        TYPICAL[k] = typical[k]
    SUPPORTER_MARGIN_C = supporter_margin
    DRAW_SAMPLES = draw_samples
    COMBO_LIMIT = combo_limit


cdef inline int csuit(int card) noexcept nogil:   # a reference card's suit
    return card // 13


cdef inline int ref_of(int index) noexcept nogil:
    return (index >> 3) * 13 + (index & 7)


cdef inline int index_of(int card) noexcept nogil:
    return (card // 13) * 8 + card % 13


cdef inline int pop32(uint32_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline double dmax(double a, double b) noexcept nogil:
    return b if b > a else a


cdef inline uint32_t canonical(uint32_t mask, uint32_t alike, int n) noexcept nogil:
    """The mask holding as many cards of each run as ``mask`` (fill_odds), the lowest of each: its
    row is the one fill_odds computed for both."""
    cdef uint32_t out = 0
    cdef int i = 0, start, count
    while i < n:
        start = i
        count = mask >> i & 1
        i += 1
        while i < n and alike >> i & 1:
            count += mask >> i & 1
            i += 1
        out |= ((1U << count) - 1) << start
    return out


cdef uint32_t fill_odds(int n, int* suits, int* values, int trump, int* counts, double* tab, int need,
                        int keep) noexcept nogil:
    """visit_table's table for a hand of n cards (suits, values 1-8, sorted) against counts[s * 10 + v]:
    rows of n + 1 doubles. The reference's sums in its order (only the maxima are taken
    differently, and a maximum is exact). ``need`` >= 0: only what the rows of ``keep`` cards need
    at ``need`` wins (a row of k cards at most ``keep - k`` wins from it). A row holds its wins
    wlo .. whi and a zero at whi + 1: all that is read of it.

    Cards of a suit with no unseen card between them (a *run*) win and lose the same leads, so a
    row depends only on how many cards of each run its mask holds: only canonical masks (the
    lowest cards of each run) are computed, each run's highest card standing for the run (the
    others' children are the same rows; the segments between cards of a run weigh nothing and
    are skipped, as in the reference, so the sums are the same sums in the same order). Returns
    the cards alike to the one below them (``canonical`` maps any mask to the row computed)."""
    cdef int stride = n + 1, mask, k, w, s, j, t, i, m, low, high, wlo, whi, nw, w0
    cdef uint32_t alike = 0, tops, rest
    cdef int same[4][MAX_ODDS + 8]
    cdef int nsame[4]
    cdef long below[4][11]
    cdef long totals[4]
    cdef long total = 0, weight
    cdef bint lone
    cdef double* row
    cdef double* c
    # over the wins w = wlo .. whi of a row, index w - wlo: for each suit held, pre[s][t] the best
    # child of a loss among its t lowest cards, suf[s][t] of a win among the others; for a lead of
    # a suit not held, the best child of a trump winning, of another card losing, of any card losing
    cdef double pre[4][MAX_ODDS + 9][MAX_ODDS + 9]
    cdef double suf[4][MAX_ODDS + 9][MAX_ODDS + 9]
    cdef double trump_win[MAX_ODDS + 9]
    cdef double other_lose[MAX_ODDS + 9]
    cdef double all_lose[MAX_ODDS + 9]
    cdef double acc[MAX_ODDS + 9]
    for s in range(4):
        below[s][0] = 0
        below[s][1] = 0
        for j in range(2, 11):
            below[s][j] = below[s][j - 1] + counts[s * 10 + j - 1]
        totals[s] = below[s][10]
        total += totals[s]
    for i in range(1, n):
        if suits[i] == suits[i - 1] and below[suits[i]][values[i]] == below[suits[i]][values[i - 1] + 1]:
            alike |= 1U << i
    for j in range(stride):
        tab[j] = 0.0
    tab[0] = 1.0
    for mask in range(1, 1 << n):
        if <uint32_t>mask & alike & ~(<uint32_t>mask << 1):
            continue  # not canonical: never read
        k = pop32(mask)
        if need >= 0 and k > keep:
            continue
        row = tab + mask * stride
        if total == 0:
            for w in range(stride):
                row[w] = 0.0
            row[0] = 1.0
            continue
        wlo, whi = 0, k
        if need >= 0:
            wlo = need - (keep - k) if need > keep - k else 0
            whi = need if need < k else k
        nw = whi - wlo + 1
        w0 = 1 if wlo == 0 else 0  # a child's entry w is it losing, w - 1 it winning (none at w = 0)
        tops = <uint32_t>mask & ~((<uint32_t>mask & alike) >> 1)  # each run's highest card held
        nsame[0] = nsame[1] = nsame[2] = nsame[3] = 0
        rest = tops
        while rest:
            i = __builtin_ctzll(rest)
            rest &= rest - 1
            same[suits[i]][nsame[suits[i]]] = i
            nsame[suits[i]] += 1
        lone = False  # a suit led that the mask does not hold
        for s in range(4):
            m = nsame[s]
            if not m:
                lone = lone or totals[s] != 0
                continue
            for w in range(nw):
                pre[s][0][w] = 0.0
                suf[s][m][w] = 0.0
            for t in range(m):
                c = tab + (mask ^ (1 << same[s][t])) * stride + wlo
                for w in range(nw):
                    pre[s][t + 1][w] = dmax(pre[s][t][w], c[w])
            for t in range(m - 1, -1, -1):
                c = tab + (mask ^ (1 << same[s][t])) * stride + wlo
                suf[s][t][0] = suf[s][t + 1][0]
                for w in range(w0, nw):
                    suf[s][t][w] = dmax(suf[s][t + 1][w], c[w - 1])
        if lone:
            for w in range(nw):
                trump_win[w] = suf[trump][0][w] if nsame[trump] else 0.0
                other_lose[w] = all_lose[w] = 0.0
            for s in range(4):
                if nsame[s]:
                    for w in range(nw):
                        all_lose[w] = dmax(all_lose[w], pre[s][nsame[s]][w])
                        if s != trump:
                            other_lose[w] = dmax(other_lose[w], pre[s][nsame[s]][w])
        for w in range(nw):
            acc[w] = 0.0
        for s in range(4):
            m = nsame[s]
            if m:
                low = 0
                for j in range(m + 1):
                    high = values[same[s][j]] if j < m else 9
                    weight = below[s][high] - below[s][low + 1]
                    if weight:
                        for w in range(nw):
                            acc[w] += weight * (pre[s][j][w] if pre[s][j][w] > suf[s][j][w] else suf[s][j][w])
                    low = high
            elif totals[s]:
                if s == trump:
                    for w in range(nw):
                        acc[w] += totals[s] * all_lose[w]
                else:
                    for w in range(nw):
                        acc[w] += totals[s] * (trump_win[w] if trump_win[w] > other_lose[w] else other_lose[w])
        for w in range(nw):
            row[wlo + w] = acc[w] / total
        if whi < n:
            row[whi + 1] = 0.0
    return alike


cdef double* big_table(uint32_t hand, int trump, int* counts, int* n_out, uint32_t* alike, int need=-1,
                       int keep=0) noexcept nogil:
    """odds_table for any size (malloc'd beyond MAX_ODDS: the caller frees it if it is not STATIC_TAB);
    ``alike``: fill_odds' runs (read a row at ``canonical(mask, alike, n)``)."""
    cdef int suits[32]
    cdef int values[32]
    cdef int n = 0, i
    cdef double* tab
    for i in range(32):
        if hand >> i & 1:
            suits[n] = i >> 3
            values[n] = (i & 7) + 1
            n += 1
    n_out[0] = n
    tab = STATIC_TAB if n <= MAX_ODDS else <double*>malloc((<size_t>1 << n) * (n + 1) * sizeof(double))
    if tab != NULL:
        alike[0] = fill_odds(n, suits, values, trump, counts, tab, need, keep)
    return tab


cdef inline void counts_of(uint32_t pool, int* counts) noexcept nogil:
    cdef int i
    for i in range(40):
        counts[i] = 0
    for i in range(32):
        if pool >> i & 1:
            counts[(i >> 3) * 10 + (i & 7) + 1] += 1


cdef double kept_c(uint32_t hand, int trump, int* counts, int need, int drop) noexcept nogil:
    """best_kept: the best chance of exactly ``need`` wins with the cards left after discarding
    ``drop`` of the hand."""
    cdef int n = pop32(hand), keep, mask, stride
    cdef uint32_t alike
    cdef double best = 0.0, p
    cdef double* tab
    keep = n - drop if drop < n else 0
    if need < 0 or need > keep:
        return 0.0
    tab = big_table(hand, trump, counts, &n, &alike, need, keep)
    if tab == NULL:
        return 0.0
    stride = n + 1
    if keep == n:
        best = tab[((1 << n) - 1) * stride + need]
    else:
        for mask in range(1 << n):
            if pop32(mask) == keep and not (mask & alike & ~(<uint32_t>mask << 1)):  # canonical rows only
                p = tab[mask * stride + need]
                if p > best:
                    best = p
    if tab != STATIC_TAB:
        free(tab)
    return best


cdef long comb_c(int n, int r) noexcept nogil:
    cdef long out = 1
    cdef int i
    if r < 0 or r > n:
        return 0
    for i in range(r):
        out = out * (n - i) // (i + 1)
    return out


cdef double draw_chance(uint32_t hand, int trump, uint32_t pool, int need, int draws, int discards,
                        uint64_t seed) noexcept nogil:
    """blind.py _draw_chance: the chance after drawing ``draws`` cards of ``pool`` (every draw when
    there are at most COMBO_LIMIT, else DRAW_SAMPLES partial shuffles seeded ``seed``) and, for
    diamonds, discarding the best two."""
    cdef int cards[32]
    cdef int work[32]
    cdef int pick[32]
    cdef int counts[40]
    cdef int npool = 0, i, j, t, c, ncombos = 0
    cdef uint32_t drawn
    cdef double total = 0.0
    cdef uint64_t rng = seed
    for i in range(32):
        if pool >> i & 1:
            cards[npool] = i
            npool += 1
    if draws > npool:
        draws = npool
    if pop32(hand) + draws > MAX_HAND:
        return -1.0
    if comb_c(npool, draws) <= COMBO_LIMIT:
        for i in range(draws):  # itertools.combinations' order
            pick[i] = i
        while True:
            drawn = 0
            for i in range(draws):
                drawn |= 1U << cards[pick[i]]
            counts_of(pool & ~drawn, counts)
            total += kept_c(hand | drawn, trump, counts, need, discards)
            ncombos += 1
            i = draws - 1
            while i >= 0 and pick[i] == i + npool - draws:
                i -= 1
            if i < 0:
                break
            pick[i] += 1
            for j in range(i + 1, draws):
                pick[j] = pick[j - 1] + 1
    else:
        for t in range(DRAW_SAMPLES):
            for i in range(npool):
                work[i] = cards[i]
            drawn = 0
            for i in range(draws):
                j = i + <int>(next_random(&rng) % <uint64_t>(npool - i))
                c = work[i]
                work[i] = work[j]
                work[j] = c
                drawn |= 1U << work[i]
            counts_of(pool & ~drawn, counts)
            total += kept_c(hand | drawn, trump, counts, need, discards)
            ncombos += 1
    return total / ncombos


cdef int CHOOSE_MODE = 0
cdef double TYPICAL2[8]


def set_choose(int mode, typical):
    """blind.py CHOOSE_ABILITIES and TYPICAL_OPEN: the choice of a kingdom weighs one ability too."""
    global CHOOSE_MODE
    cdef int k
    CHOOSE_MODE = mode
    for k in range(8):
        TYPICAL2[k] = typical[k]


cdef double open_value(uint32_t hand, int t, uint32_t deck, int need, int* counts, double now) noexcept nogil:
    """The chance of a visit with trump t at its start, the best of debating and one ability of
    hearts, clubs or diamonds."""
    cdef uint64_t seed = rule_seed(hand, deck, t, need, 0)
    cdef double v = now, x
    cdef uint32_t trumps = hand & (0xFFU << (8 * t))
    cdef int clubs = pop32(hand & (0xFFU << (8 * CLUBS)))
    if trumps:
        x = kept_c(hand & ~trumps, t, counts, need, 0)
        if x > v:
            v = x
    if clubs:
        x = draw_chance(hand, t, deck, need, clubs, 0, seed)
        if x > v:
            v = x
    x = draw_chance(hand, t, deck, need, 2, 2, seed)
    if x > v:
        v = x
    return v


def kingdom_values(uint32_t hand, uint32_t deck):
    """[kingdom][trump] open_value of a hand against the deck (for the typical values)."""
    cdef int counts[40]
    cdef int k, t
    ensure_buffer()
    counts_of(deck, counts)
    return [[open_value(hand, t, deck, k + 1, counts, kept_c(hand, t, counts, k + 1, 0)) for t in range(4)]
            for k in range(8)]


cdef inline uint64_t rule_seed(uint32_t hand, uint32_t pool, int trump, int need, int jacks) noexcept nogil:
    """blind.py rule_seed: the seed of the sampled draws, from the view."""
    return (<uint64_t>hand | (<uint64_t>pool << 32)) ^ (<uint64_t>(trump + 4 * jacks + 64 * (need + 16))
                                                        * 0x9E3779B97F4A7C15ULL)


# -- the rules, as rules.py plays them -------------------------------------------------------------
cdef inline int r_trump(RPos* p) noexcept nogil:
    return csuit(p.rulers[p.kingdom])


cdef inline int card_wins(int response, int lead, int trump) noexcept nogil:   # reference cards
    if response // 13 == lead // 13:
        return response % 13 > lead % 13
    return response // 13 == trump and lead // 13 != trump


cdef void settle(RPos* p) noexcept nogil:
    """State.__init__'s forced steps."""
    while not p.lost:
        if (p.step == R_DRAW or p.step == R_LEAD) and not p.deck and p.discard:
            p.deck = p.discard
            p.discard = 0
            continue
        if p.step == R_DRAW and (not p.draws or not p.deck):
            p.step = R_CHOOSE if p.kingdom < 0 else (R_DISCARD if p.discards else R_ACT)
            p.draws = 0
            continue
        if p.step == R_LEAD and not p.deck:
            p.step = R_ACT
            p.discard |= p.hand
            p.hand = 0
            continue
        if p.step == R_DISCARD and (not p.discards or not p.hand):
            p.step = R_ACT
            p.discards = 0
            continue
        if p.step == R_ACT and not p.hand:
            if pop32(p.scoring) != p.kingdom + 1:
                p.lost = 1
                break
            p.visited |= 1 << p.kingdom
            if p.visited == 255:
                p.deck |= p.discard | p.scoring
                p.discard = p.scoring = 0
                break
            p.deck |= p.discard | p.scoring
            p.discard = p.scoring = 0
            p.kingdom = -1
            p.jacks = 0
            p.step = R_DRAW
            p.draws = HAND
            continue
        break


cdef inline bint finished(RPos* p) noexcept nogil:
    return p.lost or p.visited == 255


cdef inline int final_score(RPos* p) noexcept nogil:
    return pop32(p.visited) + pop32(p.visited & ~p.spent)


cdef int r_moves(RPos* p, RMove* out) noexcept nogil:
    """State.legal_moves, in its order."""
    cdef int n = 0, k, s, i, card, trump
    cdef uint32_t follow, cards
    cdef int ability[12]
    cdef int na = 0
    if finished(p) or p.step == R_DRAW or p.step == R_LEAD:
        return 0
    if p.step == R_CHOOSE:
        for k in range(KINGDOMS):
            if not p.visited >> k & 1:
                out[n].kind = K_VISIT; out[n].card = -1; out[n].target = k + 1
                n += 1
        return n
    if p.step == R_RESPOND or p.step == R_DISCARD:
        cards = p.hand
        if p.step == R_RESPOND:
            follow = p.hand & (0xFFU << (8 * (p.lead >> 3)))
            if follow:
                cards = follow
        for i in range(32):
            if cards >> i & 1:
                out[n].kind = K_PLAY if p.step == R_RESPOND else K_DISCARD
                out[n].card = ref_of(i); out[n].target = 0
                n += 1
        return n
    out[0].kind = K_DEBATE; out[0].card = -1; out[0].target = 0
    n = 1
    for s in range(4):
        if not p.jacks >> s & 1:
            ability[na] = s * 13 + 10
            na += 1
    for k in range(KINGDOMS):
        if p.visited >> k & 1 and not p.spent >> k & 1:
            ability[na] = p.rulers[k]
            na += 1
    trump = r_trump(p)
    for i in range(na):
        card = ability[i]
        s = csuit(card)
        if s == HEARTS:
            if p.hand & (0xFFU << (8 * trump)):
                out[n].kind = K_USE; out[n].card = card; out[n].target = 0
                n += 1
        elif s == CLUBS:
            if p.hand & (0xFFU << (8 * CLUBS)):
                out[n].kind = K_USE; out[n].card = card; out[n].target = 0
                n += 1
        elif s == SPADES:
            for k in range(KINGDOMS):
                if k != p.kingdom and not p.visited >> k & 1:
                    out[n].kind = K_USE; out[n].card = card; out[n].target = k + 1
                    n += 1
        else:
            out[n].kind = K_USE; out[n].card = card; out[n].target = 0
            n += 1
    return n


cdef void r_play(RPos* p, RMove m) noexcept nogil:
    """State.play (a legal move), then the forced steps."""
    cdef int i, k, s, trump, other, t
    cdef uint32_t trumps
    if m.kind == K_VISIT:
        p.kingdom = m.target - 1
        p.step = R_ACT
    elif m.kind == K_DEBATE:
        p.step = R_LEAD
    elif m.kind == K_PLAY:
        i = index_of(m.card)
        p.hand &= ~(1U << i)
        if card_wins(m.card, ref_of(p.lead), r_trump(p)):
            p.scoring |= 1U << i
            p.discard |= 1U << p.lead
        else:
            p.discard |= (1U << p.lead) | (1U << i)
        p.step = R_ACT
        p.lead = -1
    elif m.kind == K_DISCARD:
        i = index_of(m.card)
        p.hand &= ~(1U << i)
        p.discard |= 1U << i
        p.discards -= 1
    else:
        s = csuit(m.card)
        if m.card % 13 == 10:
            p.jacks |= 1 << s
        else:
            for k in range(KINGDOMS):
                if p.rulers[k] == m.card:
                    p.spent |= 1 << k
                    break
        if s == HEARTS:
            trumps = p.hand & (0xFFU << (8 * r_trump(p)))
            p.hand &= ~trumps
            p.discard |= trumps
        elif s == CLUBS:
            p.step = R_DRAW
            p.draws = pop32(p.hand & (0xFFU << (8 * CLUBS)))
        elif s == DIAMONDS:
            p.step = R_DRAW
            p.draws = 2
            p.discards = 2
        else:
            other = m.target - 1
            t = p.rulers[p.kingdom]
            p.rulers[p.kingdom] = p.rulers[other]
            p.rulers[other] = t
    settle(p)


cdef void r_chance(RPos* p, uint64_t* rng) noexcept nogil:
    """State.sample_chance then apply_chance: card r of the deck in sorted order, r = next() % cards."""
    cdef int r = <int>(next_random(rng) % <uint64_t>pop32(p.deck)), i
    for i in range(32):
        if p.deck >> i & 1:
            if r == 0:
                break
            r -= 1
    p.deck &= ~(1U << i)
    if p.step == R_LEAD:
        p.step = R_RESPOND
        p.lead = i
    else:
        p.hand |= 1U << i
        p.draws -= 1
    settle(p)


cdef inline int by_value(int card) noexcept nogil:   # (value, card), as one number
    return (card % 13) * 64 + card


cdef int baseline_answer(RPos* p, RMove* moves, int n) noexcept nogil:
    """baseline_move at RESPOND and DISCARD: the index of its move."""
    cdef int i, need, trump, best = -1, nwin = 0, nlose = 0, bw = -1, bl_lo = -1, bl_hi = -1, v
    if p.step == R_RESPOND:
        need = p.kingdom + 1 - pop32(p.scoring)
        trump = r_trump(p)
        for i in range(n):
            v = by_value(moves[i].card)
            if card_wins(moves[i].card, ref_of(p.lead), trump):
                nwin += 1
                if bw < 0 or v < by_value(moves[bw].card):
                    bw = i
            else:
                nlose += 1
                if bl_lo < 0 or v < by_value(moves[bl_lo].card):
                    bl_lo = i
                if bl_hi < 0 or v > by_value(moves[bl_hi].card):
                    bl_hi = i
        if nwin and (2 * need >= pop32(p.hand) or not nlose) and need > 0:
            return bw
        if nlose:
            return bl_hi if need <= 0 else bl_lo
    for i in range(n):
        if best < 0 or by_value(moves[i].card) < by_value(moves[best].card):
            best = i
    return best


cdef int rule_keys(RPos* p, RMove* moves, int n, double* key1, double* key2) noexcept nogil:
    """rule_move's valuation: key1, key2 of each move (higher first), and the index of the rule's move."""
    cdef int counts[40]
    cdef int i, j, k, s, t, need, trump, nh, choice, stride, full, others, kind, cached_clubs = 0, cached_diamonds = 0
    cdef uint32_t pool = p.deck if p.deck else p.discard, rest, alike
    cdef double own, swapped, best, pv, margin, now, clubs_p = 0.0, diamonds_p = 0.0
    cdef double fullrow[4][33]
    cdef double* tab
    cdef int have[4]
    cdef int open_count = 0, open_suits = 0
    cdef uint64_t seed
    cdef int hearts_done
    cdef double hearts_p = 0.0
    if n == 1:
        key1[0] = key2[0] = 0.0
        return 0
    counts_of(pool, counts)
    if p.step == R_CHOOSE:
        for k in range(KINGDOMS):
            if not p.visited >> k & 1:
                open_count += 1
                open_suits |= 1 << csuit(p.rulers[k])
        for t in range(4):
            have[t] = 0
        nh = pop32(p.hand)
        choice = 0
        for i in range(n):
            k = moves[i].target - 1
            s = csuit(p.rulers[k])
            own = -1.0
            swapped = -1.0
            for t in range(4):
                if t == s or (open_count > 1 and open_suits >> t & 1):
                    if not have[t]:  # the full hand's row with trump t (the chance needs only it)
                        tab = big_table(p.hand, t, counts, &nh, &alike)
                        full = (1 << nh) - 1
                        for j in range(nh + 1):
                            fullrow[t][j] = tab[full * (nh + 1) + j]
                        if tab != STATIC_TAB:
                            free(tab)
                        have[t] = 1
                    pv = fullrow[t][k + 1] if k + 1 <= nh else 0.0
                    if CHOOSE_MODE:
                        pv = open_value(p.hand, t, p.deck, k + 1, counts, pv)
                    if t == s:
                        own = pv
                    if pv > swapped:
                        swapped = pv
            key1[i] = (own if own > swapped else swapped) / (TYPICAL2[k] if CHOOSE_MODE else TYPICAL[k])
            key2[i] = own
            if key1[i] > key1[choice] or (key1[i] == key1[choice] and key2[i] > key2[choice]):
                choice = i
        return choice
    need = p.kingdom + 1 - pop32(p.scoring)
    trump = r_trump(p)
    if p.step == R_RESPOND or p.step == R_DISCARD:
        tab = big_table(p.hand, trump, counts, &nh, &alike)
        if tab == NULL:  # more cards than memory allows a table for (never met): the baseline's answer
            return baseline_answer(p, moves, n)
        stride = nh + 1
        full = (1 << nh) - 1
        best = 0.0
        choice = -1
        for i in range(n):
            j = 0  # the card's place in the hand
            for t in range(index_of(moves[i].card)):
                if p.hand >> t & 1:
                    j += 1
            if p.step == R_RESPOND:
                k = need - card_wins(moves[i].card, ref_of(p.lead), trump)
                pv = tab[canonical(full ^ (1 << j), alike, nh) * stride + k] if 0 <= k < nh else 0.0
            elif p.discards >= 2 and nh >= 2:
                pv = 0.0
                for t in range(nh):
                    if t != j and 0 <= need < nh - 1:
                        own = tab[canonical(full ^ (1 << j) ^ (1 << t), alike, nh) * stride + need]
                        if own > pv:
                            pv = own
            else:
                pv = tab[canonical(full ^ (1 << j), alike, nh) * stride + need] if 0 <= need < nh else 0.0
            key1[i] = pv
            key2[i] = 0.0
            if pv > best:
                best = pv
                choice = i
        if tab != STATIC_TAB:
            free(tab)
        return choice if choice >= 0 else baseline_answer(p, moves, n)
    # ACT
    now = kept_c(p.hand, trump, counts, need, 0)
    seed = rule_seed(p.hand, p.deck, trump, need, p.jacks)
    best = now
    choice = 0
    key1[0] = now
    key2[0] = 0.0
    for t in range(4):
        have[t] = 0
    hearts_done = 0
    for i in range(1, n):
        kind = csuit(moves[i].card)
        if kind == HEARTS:
            if not hearts_done:  # a jack and a supporter alike
                hearts_p = kept_c(p.hand & ~(0xFFU << (8 * trump)), trump, counts, need, 0)
                hearts_done = 1
            pv = hearts_p
        elif kind == SPADES:
            t = csuit(p.rulers[moves[i].target - 1])
            if not have[t]:  # one chance per trump it could bring
                fullrow[t][0] = kept_c(p.hand, t, counts, need, 0)
                have[t] = 1
            pv = fullrow[t][0]
        elif kind == CLUBS:
            if not cached_clubs:
                clubs_p = draw_chance(p.hand, trump, p.deck, need, pop32(p.hand & (0xFFU << (8 * CLUBS))), 0, seed)
                cached_clubs = 1
            pv = clubs_p
        else:
            if not cached_diamonds:
                diamonds_p = draw_chance(p.hand, trump, p.deck, need, 2, 2, seed)
                cached_diamonds = 1
            pv = diamonds_p
        margin = 1e-9 if moves[i].card % 13 == 10 else SUPPORTER_MARGIN_C
        key1[i] = pv - (0.0 if moves[i].card % 13 == 10 else SUPPORTER_MARGIN_C)
        key2[i] = 0.0
        if pv > best + margin:
            best = pv
            choice = i
    return choice


cdef int rule_index(RPos* p, RMove* moves, int n) noexcept nogil:
    cdef double key1[MAX_MOVES]
    cdef double key2[MAX_MOVES]
    return rule_keys(p, moves, n, key1, key2)


cdef int candidates_of(RPos* p, RMove* moves, int n, int count, int* out) noexcept nogil:
    """The rule's move, then the others by the rule's keys (higher first, ties in the legal order):
    the first ``count``."""
    cdef double key1[MAX_MOVES]
    cdef double key2[MAX_MOVES]
    cdef int used[MAX_MOVES]
    cdef int rule = rule_keys(p, moves, n, key1, key2), i, got = 1, best
    for i in range(n):
        used[i] = 0
    out[0] = rule
    used[rule] = 1
    while got < count and got < n:
        best = -1
        for i in range(n):
            if not used[i] and (best < 0 or key1[i] > key1[best] or (key1[i] == key1[best] and key2[i] > key2[best])):
                best = i
        used[best] = 1
        out[got] = best
        got += 1
    return got


cdef void play_rule(RPos* p, uint64_t* rng) noexcept nogil:
    """solvers/rollouts.py play_out with the rule: chance by ``rng``, decisions by the rule."""
    cdef RMove moves[MAX_MOVES]
    cdef int n
    while not finished(p):
        if p.step == R_DRAW or p.step == R_LEAD:
            r_chance(p, rng)
        else:
            n = r_moves(p, moves)
            r_play(p, moves[rule_index(p, moves, n)])


cdef void ensure_buffer() except *:
    global STATIC_TAB
    if STATIC_TAB == NULL:
        STATIC_TAB = <double*>malloc((<size_t>1 << MAX_ODDS) * (MAX_ODDS + 1) * sizeof(double))
        if STATIC_TAB == NULL:
            raise MemoryError()


cdef RPos r_position(position) except *:
    """A position from its Python form (blind.py kernel_position)."""
    cdef RPos p
    cdef int k
    rulers, p.visited, p.spent, p.kingdom, p.hand, p.deck, p.discard, p.scoring, p.jacks, p.step, p.lead, \
        p.draws, p.discards, p.lost = position
    for k in range(KINGDOMS):
        p.rulers[k] = rulers[k]
    return p


cdef tuple move_tuple(RMove m):
    return (m.kind, m.card, m.target)


cdef RMove move_of(tuple move):
    cdef RMove m
    m.kind, m.card, m.target = move
    return m


def rule_moves(position):
    """(legal moves as (kind, card, target), the index of the rule's move)."""
    cdef RPos p = r_position(position)
    cdef RMove moves[MAX_MOVES]
    cdef int n, i
    ensure_buffer()
    n = r_moves(&p, moves)
    if n == 0:
        return [], -1
    i = rule_index(&p, moves, n)
    return [move_tuple(moves[j]) for j in range(n)], i


def rule_candidates(position, int count):
    """The rule's move, then its next best by the rule's own valuation: ``count`` at most."""
    cdef RPos p = r_position(position)
    cdef RMove moves[MAX_MOVES]
    cdef int chosen[MAX_MOVES]
    cdef int n, got
    ensure_buffer()
    n = r_moves(&p, moves)
    if n == 0:
        return []
    got = candidates_of(&p, moves, n, min(count, MAX_MOVES), chosen)
    return [move_tuple(moves[chosen[j]]) for j in range(got)]


cdef (int, int, int) rule_outcomes(RPos* start, int samples, uint64_t seed) noexcept nogil:
    """(wins, sum of winning scores, sum of losing scores) of the rule from ``start`` over
    ``samples`` draws (sample i: splitmix64 seeded seed + i, as SplitMix64(seed + i))."""
    cdef RPos q
    cdef int k, wins = 0, won_sum = 0, lost_sum = 0, score
    cdef uint64_t rng
    for k in range(samples):
        q = start[0]
        rng = seed + <uint64_t>k
        play_rule(&q, &rng)
        score = final_score(&q)
        if not q.lost:
            wins += 1
            won_sum += score
        else:
            lost_sum += score
    return wins, won_sum, lost_sum


def rollouts(position, moves, int samples, uint64_t seed):
    """[(wins, sum of winning scores, sum of losing scores)] for each move: the move, then the rule
    to the end, over ``samples`` draws (rule_outcomes)."""
    cdef RPos start = r_position(position), after
    cdef RMove m
    cdef (int, int, int) outcome
    ensure_buffer()
    out = []
    for move in moves:
        m = move_of(tuple(move))
        after = start
        r_play(&after, m)
        with nogil:
            outcome = rule_outcomes(&after, samples, seed)
        out.append(outcome)
    return out


def rule_games(position, int samples, uint64_t seed):
    """(wins, sum of winning scores, sum of losing scores) of the rule alone from ``position`` (a
    chance node or a decision), over ``samples`` draws: for measuring the rule."""
    cdef RPos start = r_position(position)
    cdef (int, int, int) outcome
    ensure_buffer()
    with nogil:
        outcome = rule_outcomes(&start, samples, seed)
    return outcome


# -- the odds tables for Python (blind.py visit_table / best_kept are the reference) -----------------
cdef uint32_t hand_mask(hand) except? 0:
    cdef uint32_t mask = 0
    for card in hand:
        mask |= 1U << index_of(card)
    return mask


cdef void counts_array(counts, int* out) except *:
    cdef int s, v
    for s in range(4):
        for v in range(10):
            out[s * 10 + v] = counts[s][v] if v < len(counts[s]) else 0


def visit_table(hand, int trump, counts):
    """table[mask][w]: the chance that the hand's cards in ``mask`` win exactly w of the debates
    they answer, each lead drawn from ``counts`` (see the reference, visit_table in
    solodeck/games/emissary/blind.py: the same sums in the same order, so the same floats). ``hand``:
    reference cards (suit * 13 + value - 1), sorted, at most 20."""
    cdef int n = len(hand), stride, mask, w
    cdef uint32_t alike, row
    cdef int c[40]
    cdef double* tab
    if n > 20:
        raise ValueError("visit_table: at most 20 cards")
    counts_array(counts, c)
    ensure_buffer()
    tab = big_table(hand_mask(hand), trump, c, &n, &alike)
    if tab == NULL:
        raise MemoryError()
    stride = n + 1
    try:
        return [[tab[canonical(mask, alike, n) * stride + w] for w in range(pop32(mask) + 1)] for mask in range(1 << n)]
    finally:
        if tab != STATIC_TAB:
            free(tab)


def best_kept(hand, int trump, counts, int need, int drop):
    """The reference's best_kept: the best chance of exactly ``need`` wins left after discarding
    ``drop`` cards of the hand (0: the hand itself)."""
    cdef int c[40]
    if len(hand) > 20:
        raise ValueError("best_kept: at most 20 cards")
    counts_array(counts, c)
    ensure_buffer()
    return kept_c(hand_mask(hand), trump, c, need, drop)
