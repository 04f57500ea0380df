"""Friends in High Places' blind play: the baseline, the blind rule the rollouts play (the thinning
rule, search.thinning_move, whose game is also the open search's first win) and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan
from .rules import CLUBS, INFLUENCE, KING_OF_DIAMONDS, PASS, SPHERE, Move, can_take, is_ace, suit, value
from .search import thinning_move


def baseline_move(state):
    """The baseline, a rule a person would use: aim at the best court card the hand can take
    (the K♦, else the highest sphere, then the highest value); at the intrigue remove the two
    lowest other court cards (never the K♦; a hand card only when the court has nothing
    else to give: the lowest club; or, when removing two court cards would leave the court
    fewer than 4, the lowest hand card); at the influence take that card with the fewest
    cards, never one whose purchase leaves the court fewer than 4. It takes the K♦ after an
    intrigue that keeps it takable and loses nothing, when there is one."""
    moves = state.legal_moves()
    if state.step == INFLUENCE:
        king = state.king_takable()
        if king is not None:
            return king
        acquire = [m for m in moves if m.kind == "acquire" and not state.loses(m)]
        if not acquire:
            return PASS
        return max(acquire, key=lambda m: (SPHERE[suit(m.target)], value(m.target), -len(m.cards), m.cards))
    king = state.king_intrigue()
    if king is not None:
        return king
    rank = lambda c: (c == KING_OF_DIAMONDS, SPHERE[suit(c)], value(c))
    takable = [c for c in state.court if can_take(state.hand, c, state.royal_family)]
    target = max(takable, key=rank, default=None)
    if target is None and KING_OF_DIAMONDS not in state.court:
        clubs = [c for c in state.hand if suit(c) == CLUBS and not is_ace(c)]
        if clubs and len(state.player_cards()) > 6:
            return Move("remove", (min(clubs, key=value),))
    others = sorted((c for c in state.court if c != target and c != KING_OF_DIAMONDS), key=rank)
    move = Move("remove", tuple(sorted(others[:2])))
    if state.loses(move):  # the court would fall below 4: its lowest hand card, if that does not lose
        lowest = min(state.hand, key=lambda c: (not is_ace(c), SPHERE[suit(c)], value(c)))
        if not state.loses(Move("remove", (lowest,))):
            return Move("remove", (lowest,))
    return move


def blind_rule(state):
    """Rollouts play the thinning rule (thinning_move), not the baseline: both are blind (they
    see the hand, the court and how many cards the player owns), but the baseline almost never
    wins (0-2 of 1,000 deals a setting) and the thinning rule wins 97-99%. The blind policy is then
    one step of improvement over the thinning rule."""
    return thinning_move(state)


def plan() -> BlindPlan:
    # 4 rollouts per move; search_moves(): one per distinct result (at most 10 intrigues, 5
    # influences). The policy leaves the thinning rule only for a move that wins more of the 4
    # samples and then of 64 fresh ones (confirm): of 140 such moves (lost opportunities, tuning
    # deals 10000-), valued again by 400 paired rollouts each, those picked on 4 samples alone were
    # 3.2 points worse than the rule's move on average; the 52 that also won more of 64 were 3.7
    # points better, the 88 refused 7.3 worse (docs/rules/friends-in-high-places.md, "Blind mode")
    return BlindPlan(samples=4, candidates=16, keep_rule=True, confirm=64)
