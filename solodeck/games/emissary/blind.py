"""The Emissary's blind play: the baseline policy, the blind rule (the odds of a visit, from
the player's view; rule_keys values every move, rule_move plays the best), its candidates and
rollouts in the kernel (ext/emissary.pyx computes the same numbers; Python fallback without
it) and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan, Estimator
from ...solvers.rollouts import python_rollout_stats
from .rules import (ACT, CHOOSE, CLUBS, DEBATE, DISCARD, HEARTS, JACKS, KINGDOMS, RESPOND, SPADES, Move, suit, value,
                    wins_debate)


MAX_ODDS_HAND = 14  # the most cards the rule values a draw into
SUPPORTER_MARGIN = 0.05  # a supporter is a point of score and once a game: spent only for a clear gain
# The chance of kingdoms 1-8 (no ability, the best trump of the four) for a random hand of 8 against
# the other 24 cards: the mean over 400 random hands (generator random.Random(7)). Choosing the
# kingdom whose chance is highest against this is choosing the most likely product over the visits,
# when every later visit would get a typical hand.
TYPICAL_CHANCE = (0.42074, 0.54397, 0.58743, 0.57127, 0.50085, 0.32036, 0.12507, 0.02358)
# The choice of a kingdom weighs each trump with one ability of hearts, clubs or diamonds too
# (_open_value). Its typical chance: the mean over 400 hands, each the first 8 cards of
# random.Random(7).sample(DECK_CARDS, 32) against the other 24, of the best trump of the four
# (ext/emissary.pyx kingdom_values). Tuning deals 10000-10299: 77 wins against 66 without it.
CHOOSE_ABILITIES = True
# Without the kernel the choice weighs no ability: in pure Python it fills some 2,000 odds tables,
# about four minutes a choice (0.2 s without), so the package plays the rule as before it.
PYTHON_ABILITIES = False
TYPICAL_OPEN = (0.66891, 0.66669, 0.69039, 0.68356, 0.62403, 0.50672, 0.35723, 0.19245)


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


DRAW_SAMPLES = 24   # draws valued for clubs and diamonds where there are more than COMBO_LIMIT ...
COMBO_LIMIT = 40    # ... else every draw


def _mask(cards) -> int:
    """A set of cards as the kernel's mask (bit suit * 8 + value - 1)."""
    return sum(1 << (suit(c) * 8 + value(c) - 1) for c in cards)


def rule_seed(hand, deck, trump: int, need: int, jacks: int) -> int:
    """The seed of the rule's sampled draws: a function of the view (ext/emissary.pyx rule_seed)."""
    return ((_mask(hand) | _mask(deck) << 32) ^ ((trump + 4 * jacks + 64 * (need + 16)) * 0x9E3779B97F4A7C15)) \
        & 0xFFFFFFFFFFFFFFFF


def _draw_chance(hand, trump, pool, need, draws, discards, kept, seed) -> float:
    """The chance of exactly ``need`` wins after drawing ``draws`` cards of ``pool`` (every draw
    when there are at most COMBO_LIMIT, else DRAW_SAMPLES drawn with a generator seeded by the
    view) and, for diamonds, discarding the best two."""
    import itertools
    import math

    from ...shuffle import SplitMix64

    draws = min(draws, len(pool))
    if len(hand) + draws > MAX_ODDS_HAND:  # the table doubles with each card: not valued
        return -1.0
    if math.comb(len(pool), draws) <= COMBO_LIMIT:
        combos = list(itertools.combinations(pool, draws))
    else:  # sampled draws of the composition (a partial shuffle each)
        rng, combos = SplitMix64(seed), []
        for _ in range(DRAW_SAMPLES):
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


def _open_value(state, trump: int, need: int, counts: tuple, kept, abilities: bool) -> float:
    """The chance of a visit about to start (the choice of a kingdom) with this trump: debating at
    once, or (``abilities``) the best of that and one ability of hearts, clubs or diamonds,
    valued as between debates (ext/emissary.pyx open_value)."""
    hand = state.hand
    value_ = _chance_of(hand, trump, counts, need, kept)
    if not abilities:
        return value_
    seed = rule_seed(hand, state.deck, trump, need, 0)
    pool = tuple(sorted(state.deck))
    if any(suit(c) == trump for c in hand):
        value_ = max(value_, _chance_of(tuple(c for c in hand if suit(c) != trump), trump, counts, need, kept))
    clubs = sum(suit(c) == CLUBS for c in hand)
    if clubs:
        value_ = max(value_, _draw_chance(hand, trump, pool, need, clubs, 0, kept, seed))
    return max(value_, _draw_chance(hand, trump, pool, need, 2, 2, kept, seed))


def rule_keys(game, state, table_of=visit_table, kept=best_kept, abilities=CHOOSE_ABILITIES):
    """The rule's valuation of every legal move: (moves, keys, the index of the rule's move), a
    key a tuple, higher better (the chance the move leaves; at the choice of a kingdom its ratio
    to a typical hand's, then its own trump's chance; a supporter's ability less
    SUPPORTER_MARGIN). ext/emissary.pyx rule_keys computes the same numbers."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves, [(0.0, 0.0)], 0
    pool = _lead_pool(state)
    counts = unseen_counts(pool)
    if state.step == CHOOSE:
        open_ = [k for k in range(KINGDOMS) if not state.visited >> k & 1]
        keys = []
        for move in moves:
            k = move.target - 1
            trumps = {suit(state.rulers[k])}
            if len(open_) > 1:  # the spades jack can make any other open kingdom's ruler trump
                trumps |= {suit(state.rulers[j]) for j in open_}
            own = _open_value(state, suit(state.rulers[k]), k + 1, counts, kept, abilities)
            swapped = max(_open_value(state, t, k + 1, counts, kept, abilities) for t in trumps)
            # every kingdom must be won some time: this hand goes where it beats a typical hand most
            typical = TYPICAL_OPEN if abilities else TYPICAL_CHANCE
            keys.append((max(own, swapped) / typical[k], own))
        return moves, keys, max(range(len(moves)), key=lambda i: keys[i])
    need = state.kingdom + 1 - len(state.scoring)
    trump = state.trump()
    if state.step in (RESPOND, DISCARD):
        table = table_of(state.hand, trump, counts)
        everything = (1 << len(state.hand)) - 1
        best, choice, keys = 0.0, None, []
        for m, move in enumerate(moves):
            i = state.hand.index(move.card)
            if state.step == RESPOND:
                w = need - wins_debate(move.card, state.lead, trump)
                row = table[everything ^ 1 << i]
                p = row[w] if 0 <= w < len(row) else 0.0
            elif state.discards >= 2 and len(state.hand) >= 2:  # the best partner for it
                p = max((table[everything ^ 1 << i ^ 1 << j][need] if 0 <= need < len(state.hand) - 1 else 0.0)
                        for j in range(len(state.hand)) if j != i)
            else:
                row = table[everything ^ 1 << i]
                p = row[need] if 0 <= need < len(row) else 0.0
            keys.append((p, 0.0))
            if p > best:
                best, choice = p, m
        if choice is None:  # no card leaves any chance: the baseline's answer
            choice = moves.index(game.baseline_move(state))
        return moves, keys, choice
    # ACT: debate now, or the ability that most raises the chance (supporters only by a margin)
    now = _chance_of(state.hand, trump, counts, need, kept)
    seed = rule_seed(state.hand, state.deck, trump, need, state.jacks)
    best, choice, keys, drawn = now, 0, [(now, 0.0)], {}
    for m, move in enumerate(moves[1:], 1):
        kind = suit(move.card)
        if kind == HEARTS:
            p = _chance_of(tuple(c for c in state.hand if suit(c) != trump), trump, counts, need, kept)
        elif kind == SPADES:
            p = _chance_of(state.hand, suit(state.rulers[move.target - 1]), counts, need, kept)
        elif kind not in drawn:  # clubs or diamonds (a jack and a supporter draw alike)
            if kind == CLUBS:
                p = _draw_chance(state.hand, trump, tuple(sorted(state.deck)), need,
                                 sum(suit(c) == CLUBS for c in state.hand), 0, kept, seed)
            else:
                p = _draw_chance(state.hand, trump, tuple(sorted(state.deck)), need, 2, 2, kept, seed)
            drawn[kind] = p
        else:
            p = drawn[kind]
        margin = 1e-9 if move.card in JACKS else SUPPORTER_MARGIN
        keys.append((p - (0.0 if move.card in JACKS else SUPPORTER_MARGIN), 0.0))
        if p > best + margin:
            best, choice = p, m
    return moves, keys, choice


def rule_move(game, state, table_of=visit_table, kept=best_kept, abilities=CHOOSE_ABILITIES):
    """The blind rule (Game.blind_rule): see docs/rules/emissary.md, "The blind rule"."""
    moves, _keys, choice = rule_keys(game, state, table_of, kept, abilities)
    return moves[choice]


def rule_candidates(game, state, count: int, table_of=visit_table, kept=best_kept,
                    abilities=CHOOSE_ABILITIES) -> list:
    """The rule's move, then the other moves by the rule's keys (ties in the legal order): the
    first ``count``. The blind policy's rollouts value only these (fast_rollouts)."""
    moves, keys, choice = rule_keys(game, state, table_of, kept, abilities)
    rest = sorted((i for i in range(len(moves)) if i != choice), key=lambda i: keys[i], reverse=True)
    return [moves[i] for i in [choice] + rest[:max(count - 1, 0)]]


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


# -- the rule and its rollouts in the kernel (ext/emissary.pyx) ------------------------------------
ROLLOUT_CANDIDATES = 2  # the blind policy's rollouts value the rule's move and its next best (rule_candidates)
_KINDS = ("visit", "debate", "play", "discard", "use")


def kernel_position(state) -> tuple:
    """The kernel's form of a decision: what the player sees (the deck as a set of cards)."""
    return (state.rulers, state.visited, state.spent, state.kingdom, _mask(state.hand), _mask(state.deck),
            _mask(state.discard), _mask(state.scoring), state.jacks, state.step,
            suit(state.lead) * 8 + value(state.lead) - 1 if state.lead >= 0 else -1, state.draws, state.discards,
            int(state.lost))


def _from_kernel(move) -> Move:
    kind, card, target = move
    return DEBATE if kind == 1 else Move(_KINDS[kind], card, target)


def _to_kernel(move) -> tuple:
    return (_KINDS.index(move.kind), move.card, move.target)


def ready_kernel(kernel):
    """The kernel with the rule's weights set (once), or None."""
    if kernel is not None and not getattr(kernel, "_rule_set", False):
        kernel.set_rule(TYPICAL_CHANCE, SUPPORTER_MARGIN, DRAW_SAMPLES, COMBO_LIMIT, MAX_ODDS_HAND)
        kernel.set_choose(int(CHOOSE_ABILITIES), TYPICAL_OPEN)
        kernel._rule_set = True
    return kernel


def kernel_rule_move(kernel, state):
    """The blind rule's move computed in the kernel (tests/test_emissary_kernel_rule.py: the same
    move as rule_move at every decision)."""
    moves, choice = kernel.rule_moves(kernel_position(state))
    return _from_kernel(moves[choice]) if moves else None


def candidates(game, state, count: int = ROLLOUT_CANDIDATES) -> list:
    """rule_candidates, in the kernel where it is built."""
    kernel = ready_kernel(game.load_kernel())
    if kernel is not None:
        return [_from_kernel(m) for m in kernel.rule_candidates(kernel_position(state), count)]
    return rule_candidates(game, state, count, *game.odds(), abilities=PYTHON_ABILITIES)


def fast_rollouts(game, state, samples, seed, moves=None):
    """[(move, wins, sum of winning scores, sum of losing scores)]: solvers/rollouts.py's rollouts
    with the blind rule, of the rule's best moves only (``candidates``; those of them in
    ``moves`` when given). In the kernel where it is built, else the same rollouts in Python (the
    same draws and moves, tests/test_emissary_kernel_rule.py): the policy decides the same either way."""
    if not state.legal_moves():
        return None
    chosen = candidates(game, state)
    if moves is not None:
        wanted = set(moves)
        chosen = [m for m in chosen if m in wanted]
    kernel = ready_kernel(game.load_kernel())
    if kernel is None:
        return python_rollout_stats(game, state, samples, seed, chosen)
    rows = kernel.rollouts(kernel_position(state), [_to_kernel(m) for m in chosen], samples, seed)
    return [(m, *row) for m, row in zip(chosen, rows)]


ANALYSIS_ROLLOUTS = 8  # rollouts per candidate of `solve --mode blind` (--samples) and of each decision of a hint file


def plan(kernel=None) -> BlindPlan:
    # The blind policy plays the rule's move beyond the exact tree. In play it goes unvalued: a
    # rollout from a deal's first choice costs 0.2-0.6 s even in the kernel (the rule fills some
    # 1,500 odds tables at each choice of a kingdom), too dear at every decision. Analysis
    # (solve and hint files) rolls out the rule's move and its next best (fast_rollouts), the rule's
    # move ranked first; without the kernel nothing, as the Python rule differs at the choice of a
    # kingdom (PYTHON_ABILITIES) and takes minutes a rollout. ``blind:estimator=rollouts`` plays by
    # them (sequential halving, the rule's move first among equal wins). Exact blind values fit only
    # the last debates of the last visit. Blind wins are rare: where nothing wins, the kingdoms won
    # decide (rank_losses).
    return BlindPlan(estimator=Estimator.RULE, estimate=False, samples=ANALYSIS_ROLLOUTS, halving=True,
                     keep_rule=True, exact_states=100, rank_losses=True,
                     analysis_samples=ANALYSIS_ROLLOUTS if kernel is not None else 0)
