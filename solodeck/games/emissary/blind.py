"""The Emissary's blind play: the baseline policy, the blind rule (the odds of a visit, from
the player's view) and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan, Estimator
from .rules import (ACT, CHOOSE, CLUBS, DEBATE, DISCARD, HEARTS, JACKS, KINGDOMS, RESPOND, SPADES, suit, value,
                    wins_debate)


MAX_ODDS_HAND = 14  # the most cards the rule values a draw into
SUPPORTER_MARGIN = 0.05
# The chance of kingdoms 1-8 (no ability, the best trump of the four) for a random hand of 8 against
# the other 24 cards: the mean over 400 random hands (generator random.Random(7)). Choosing the
# kingdom whose chance is highest against this is choosing the most likely product over the visits,
# when every later visit would get a typical hand.
TYPICAL_CHANCE = (0.42074, 0.54397, 0.58743, 0.57127, 0.50085, 0.32036, 0.12507, 0.02358)  # a supporter is a point of score and once a game: spent only for a clear gain


# -- the blind rule: the odds of a visit -------------------------------------------------------------
# Every quantity below comes from the player's view: the hand, the trump, the rulers and the
# composition of the unseen cards (the deck as a set; its order is never read).

def visit_table(hand: tuple, trump: int, counts: tuple) -> list:
    """table[mask][w]: the probability that the hand's cards in ``mask`` (bit i: hand[i]; ``hand``
    sorted) win exactly w of the debates they answer, the best response made to each lead, no
    ability used, and each lead drawn from ``counts`` (counts[s][v]: unseen cards of suit s and
    value v, 1-8), the same odds for every lead (draws with replacement: the leads of a visit are
    few beside the unseen cards). The pure-Python reference of ext/emissary.pyx ``visit_table``:
    the same sums in the same order, so the same floats."""
    n = len(hand)
    suits = [suit(c) for c in hand]
    values = [value(c) for c in hand]
    below = [[sum(counts[s][1:v]) for v in range(11)] for s in range(4)]  # below[s][v]: values < v
    totals = [below[s][10] for s in range(4)]
    total = sum(totals)
    table = [None] * (1 << n)
    table[0] = [1.0]
    for mask in range(1, 1 << n):
        cards = [i for i in range(n) if mask >> i & 1]
        k = len(cards)
        children = {i: table[mask ^ 1 << i] for i in cards}

        def get(i, w):
            return children[i][w] if 0 <= w < k else 0.0

        row = [0.0] * (k + 1)
        if total == 0:  # no lead can come: the visit ends with the wins so far
            row[0] = 1.0
            table[mask] = row
            continue
        for w in range(k + 1):
            acc = 0.0
            for s in range(4):
                same = [i for i in cards if suits[i] == s]
                if same:
                    low = 0
                    for j in range(len(same) + 1):
                        high = values[same[j]] if j < len(same) else 9
                        weight = below[s][high] - below[s][low + 1]
                        if weight:
                            best = 0.0
                            for t in range(len(same)):  # higher cards win, lower ones lose
                                p = get(same[t], w - 1) if t >= j else get(same[t], w)
                                if p > best:
                                    best = p
                            acc += weight * best
                        low = high
                elif totals[s]:
                    best = 0.0
                    for i in cards:  # any card: a trump wins a lead of another suit
                        p = get(i, w - 1) if suits[i] == trump and s != trump else get(i, w)
                        if p > best:
                            best = p
                    acc += totals[s] * best
            row[w] = acc / total
        table[mask] = row
    return table


def unseen_counts(cards) -> tuple:
    """counts[s][v] of a composition (the deck as a set)."""
    counts = [[0] * 10 for _ in range(4)]
    for c in cards:
        counts[suit(c)][value(c)] += 1
    return tuple(tuple(row) for row in counts)


def _lead_pool(state) -> tuple:
    """The cards the next leads come from: the deck, or the discard pile it will be made of."""
    return tuple(sorted(state.deck)) or state.discard


def best_kept(hand: tuple, trump: int, counts: tuple, need: int, drop: int) -> float:
    """The best chance of exactly ``need`` wins with the cards left after discarding ``drop`` of
    the hand (0: the hand itself); ext/emissary.pyx has the same."""
    keep = max(len(hand) - drop, 0)
    if need < 0 or need > keep:
        return 0.0
    table = visit_table(hand, trump, counts)
    return max(row[need] for mask, row in enumerate(table) if bin(mask).count("1") == keep)


def _chance_of(hand: tuple, trump: int, counts: tuple, need: int, kept) -> float:
    return kept(hand, trump, counts, need, 0)


def _draw_chance(hand, trump, pool, need, draws, discards, kept, seed) -> float:
    """The chance of exactly ``need`` wins after drawing ``draws`` cards of ``pool`` (every draw
    when there are at most 40, else 24 drawn with a generator seeded by the view) and, for
    diamonds, discarding the best two."""
    import itertools
    from ...shuffle import SplitMix64

    import math

    draws = min(draws, len(pool))
    if len(hand) + draws > MAX_ODDS_HAND:  # the table doubles with each card: not valued
        return -1.0
    if math.comb(len(pool), draws) <= 40:
        combos = list(itertools.combinations(pool, draws))
    else:  # 24 draws of the composition (a partial shuffle each)
        rng, combos = SplitMix64(seed), []
        for _ in range(24):
            cards = list(pool)
            for i in range(draws):
                j = i + rng.next() % (len(cards) - i)
                cards[i], cards[j] = cards[j], cards[i]
            combos.append(tuple(cards[:draws]))
    total = 0.0
    for drawn in combos:
        rest = tuple(c for c in pool if c not in drawn)
        total += kept(tuple(sorted(hand + drawn)), trump, unseen_counts(rest), need, discards)
    return total / len(combos)


def rule_move(game, state, table_of=visit_table, kept=best_kept):
    """The blind rule (Game.blind_rule): see docs/rules/emissary.md, "The blind rule"."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    pool = _lead_pool(state)
    counts = unseen_counts(pool)
    if state.step == CHOOSE:
        open_ = [k for k in range(KINGDOMS) if not state.visited >> k & 1]
        chance = {}
        for move in moves:
            k = move.target - 1
            trumps = {suit(state.rulers[k])}
            if len(open_) > 1:  # the spades jack can make any other open kingdom's ruler trump
                trumps |= {suit(state.rulers[j]) for j in open_}
            own = _chance_of(state.hand, suit(state.rulers[k]), counts, k + 1, kept)
            swapped = max(_chance_of(state.hand, t, counts, k + 1, kept) for t in trumps)
            # every kingdom must be won some time: this hand goes where it beats a typical hand most
            chance[move] = (max(own, swapped) / TYPICAL_CHANCE[k], own, -k)
        return max(moves, key=lambda m: chance[m])
    need = state.kingdom + 1 - len(state.scoring)
    trump = state.trump()
    if state.step == RESPOND:
        table = table_of(state.hand, trump, counts)
        everything = (1 << len(state.hand)) - 1
        best, choice = 0.0, None
        for move in moves:
            i = state.hand.index(move.card)
            w = need - wins_debate(move.card, state.lead, trump)
            row = table[everything ^ 1 << i]
            p = row[w] if 0 <= w < len(row) else 0.0
            if p > best:
                best, choice = p, move
        return choice or game.baseline_move(state)
    if state.step == DISCARD:
        table = table_of(state.hand, trump, counts)
        everything = (1 << len(state.hand)) - 1
        best, choice = 0.0, None
        for move in moves:
            i = state.hand.index(move.card)
            if state.discards >= 2 and len(state.hand) >= 2:  # the best partner for it
                p = max((table[everything ^ 1 << i ^ 1 << j][need] if 0 <= need < len(state.hand) - 1 else 0.0)
                        for j in range(len(state.hand)) if j != i)
            else:
                row = table[everything ^ 1 << i]
                p = row[need] if 0 <= need < len(row) else 0.0
            if p > best:
                best, choice = p, move
        return choice or game.baseline_move(state)
    # ACT: debate now, or the ability that most raises the chance (supporters only by a margin)
    now = _chance_of(state.hand, trump, counts, need, kept)
    seed = hash((state.hand, pool, trump, need, state.jacks)) & 0xFFFFFFFF
    best, choice = now, DEBATE
    for move in moves:
        if move.kind != "use":
            continue
        kind = suit(move.card)
        if kind == HEARTS:
            p = _chance_of(tuple(c for c in state.hand if suit(c) != trump), trump, counts, need, kept)
        elif kind == SPADES:
            p = _chance_of(state.hand, suit(state.rulers[move.target - 1]), counts, need, kept)
        elif kind == CLUBS:
            p = _draw_chance(state.hand, trump, tuple(sorted(state.deck)), need,
                             sum(suit(c) == CLUBS for c in state.hand), 0, kept, seed)
        else:
            p = _draw_chance(state.hand, trump, tuple(sorted(state.deck)), need, 2, 2, kept, seed)
        margin = 1e-9 if move.card in JACKS else SUPPORTER_MARGIN
        if p > best + margin:
            best, choice = p, move
    return choice


# -- the baseline policy ---------------------------------------------------------------------------
def baseline_move(state):
    """The baseline: a rule a person would use, reading only the hand, the rulers and the score.

    - Visit the kingdom whose number is nearest the debates the hand looks good for (a trump
      counts one, an 8 of another suit a half), the lowest on a tie.
    - Between debates, with the jacks only (supporters are points, never spent): hearts when
      the hand holds more trumps than wins to make and enough other cards to make them;
      clubs when wins to make are about as many as the cards; else debate.
    - Answer a lead by winning, with the lowest card that wins, when at least half the cards
      left must win; else by losing, with the lowest card that loses (the highest once no
      win is needed: strong cards could force a win later). When that is impossible, the
      lowest card.
    - Diamonds' discards (never chosen here): the lowest card."""
    moves = state.legal_moves()
    if state.step == CHOOSE:
        def gap(move):
            trump = suit(state.rulers[move.target - 1])
            strong = sum(1 if suit(c) == trump else 0.5 if value(c) == 8 else 0 for c in state.hand)
            return abs(move.target - strong), move.target
        return min(moves, key=gap)
    need = state.kingdom + 1 - len(state.scoring) if state.kingdom >= 0 else 0
    if state.step == ACT:
        trumps = sum(suit(c) == state.trump() for c in state.hand)
        for move in moves:
            if move.kind == "use" and move.card in JACKS:
                if suit(move.card) == HEARTS and trumps > need and len(state.hand) - trumps >= need:
                    return move
                if suit(move.card) == CLUBS and need >= len(state.hand) - 1 and need > 0:
                    return move
        return DEBATE
    if state.step == RESPOND:
        winning = [m for m in moves if wins_debate(m.card, state.lead, state.trump())]
        losing = [m for m in moves if m not in winning]
        by_value = lambda m: (value(m.card), m.card)
        if winning and (2 * need >= len(state.hand) or not losing) and need > 0:
            return min(winning, key=by_value)
        if losing:
            return max(losing, key=by_value) if need <= 0 else min(losing, key=by_value)
    return min(moves, key=lambda m: (value(m.card), m.card))


def odds_tables(kernel) -> tuple:
    """(visit_table, best_kept) for the blind rule: the kernel's where it is built (``kernel``;
    None: not built), else the reference's above; visit_table with a small memo."""
    import functools

    source = kernel if kernel is not None and hasattr(kernel, "best_kept") else None
    return (functools.lru_cache(maxsize=1024)(source.visit_table if source else visit_table),
            source.best_kept if source else best_kept)


def plan() -> BlindPlan:
    # The blind policy plays the rule's move beyond the exact tree, unvalued: a rollout of the rule
    # plays the rest of the game in Python (~2 s under load), so 16 per move would cost minutes a
    # decision. Exact blind values fit only the last debates of the last visit. Blind wins are rare:
    # where nothing wins, the kingdoms won decide (rank_losses).
    return BlindPlan(estimator=Estimator.RULE, estimate=False, samples=16, exact_states=100, rank_losses=True)
