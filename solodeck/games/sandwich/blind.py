"""The Sandwich Guy's blind play: the baseline, the blind rule (rule_move: outs instead of the
sandwiches kept), the kernel's rollouts of it and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan, Estimator
from ...solvers.rollouts import candidate_moves
from .rules import BLACK, COMPLETE, HAND_LIMIT, Sandwich, draw_count


def baseline_move(state):
    """The baseline policy: the most cards in hand after the draw (same suit, then same
    colour, unless the hand limit or the deck makes them equal), then the most sandwiches
    left among the cards kept, then the first in legal order. None if no sandwich."""
    return fullest_hand_move(state, count_sandwiches)


def plan() -> BlindPlan:
    """The blind policy plays the blind rule (rule_move) where the exact tree does not fit, and
    rolls out only the rule's own move, for its estimated win chance: rollouts of every move
    rank them by noise and did no better than the rule alone (seeds 10000-10299: 64 rollouts
    a move 264/300 wins, the rule 273; 256 by sequential halving 182/200, the rule 184).
    With 5 cards or fewer in the deck the exact tree fits 20,000 states (0.2-0.4 s in Python;
    the default 500 reach 2 or 3 cards). It wins no more deals (seeds 10000-10999: the same 907
    of 1,000) but leaves fewer cards on a win (a mean of 1.04, not 1.13)."""
    return BlindPlan(estimator=Estimator.RULE, exact_states=exact_states)


def blind_rule(state):
    """The blind rule (rule_move): the baseline's first criterion, then the unseen cards that
    would complete a sandwich of one colour or suit, instead of the sandwiches already kept."""
    return rule_move(state)


def fast_rollouts(game, kernel, state, samples, seed, moves=None):
    """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts of the blind rule (rule_move)
    in the kernel (ext/sandwich.pyx), which samples the same draws, of ``moves`` or of the
    candidate moves (only the rule's own: Estimator.RULE); None when it is not built. The
    kernel sorts the deck: the order never reaches the rule."""
    if kernel is None or state.is_chance():
        return None
    moves = candidate_moves(game, state) if moves is None else moves
    rows = kernel.rollouts(KERNEL_BLIND_RULE, sorted(state.hand), list(state.deck), samples, seed,
                           [m.cards for m in moves])
    return [(Sandwich(cards), wins, total) for cards, wins, total in rows]


def exact_states(state):
    """The blind policy's exact attempt: 20,000 states with 5 cards or fewer in the deck (Game.blind_plan),
    else the default."""
    return 20_000 if len(state.deck) <= 5 else None


KERNEL_BLIND_RULE = 1  # ext/sandwich.pyx's RULE_OUTS (0 is the baseline)


def rule_move(state):
    """The blind rule: the most cards in hand after the draw (as the baseline), then the most
    outs (outs()) among the cards kept, then the first in legal order. None if no sandwich.

    What keeps a hand full is a sandwich of one colour (3 cards drawn; at 7 in hand one of one
    suit draws 4: a mixed one draws 2 and the hand shrinks), so the rule keeps the cards that
    unseen cards of their colour, and better of their suit, would turn into such a sandwich. It
    sees only the hand and which cards are unseen (the deck as a set). Alone it wins 90.7% of
    seeds 10000-10999, the baseline 78.0% (docs/rules/sandwich-guy.md: what else was tried)."""
    unseen = [[0] * 13 for _suit in range(4)]
    for card in state.deck:
        unseen[card // 13][card % 13] += 1
    return fullest_hand_move(state, lambda kept: outs(kept, unseen))


def fullest_hand_move(state, tie_break):
    """The move leaving the most cards in hand after the draw, then the highest ``tie_break`` of
    the cards kept (sorted), then the first in legal order: the baseline's and the blind rule's
    shared first criterion. None if no sandwich."""
    best = None
    for move in state.legal_moves():
        kept = sorted(state.hand.difference(move.cards))
        drawn = min(draw_count(move.cards), HAND_LIMIT - len(kept), len(state.deck))
        rank = (len(kept) + drawn, tie_break(kept))
        if best is None or rank > best[0]:
            best = (rank, move)
    return best[1] if best else None


def outs(kept, unseen) -> int:
    """Twice the unseen cards that complete a pair of one colour among ``kept`` in that colour,
    plus those that complete a pair of one suit in that suit (``unseen[suit][value]``: counts).
    Each card counts once however many pairs it completes: an out is a card, not a pair."""
    by_suit = [0] * 4    # bit v: value v completes a pair of this suit
    by_colour = [0, 0]   # the same for a pair of one colour (index: red)
    for i, a in enumerate(kept):
        for b in kept[i + 1:]:
            if is_red(a) == is_red(b):
                mask = COMPLETE[a % 13][b % 13]
                by_colour[is_red(a)] |= mask
                if a // 13 == b // 13:
                    by_suit[a // 13] |= mask
    total = 0
    for suit in range(4):
        colour_mask = by_colour[suit not in BLACK]
        for v in range(13):
            total += unseen[suit][v] * (2 * (colour_mask >> v & 1) + (by_suit[suit] >> v & 1))
    return total


def is_red(card) -> bool:
    return card // 13 not in BLACK


def count_sandwiches(cards) -> int:
    hand = sorted(cards)
    n = 0
    for i, a in enumerate(hand):
        for j in range(i + 1, len(hand)):
            mask = COMPLETE[a % 13][hand[j] % 13]
            for c in hand[j + 1:]:
                n += mask >> (c % 13) & 1
    return n
