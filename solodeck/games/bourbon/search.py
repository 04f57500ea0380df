"""Bourbon's open-hand report: each hand's melds and deadwood beside the position's paranoid value
(solvers/paranoid.py, which Bourbon.solver gives; the game has no search of its own)."""
from __future__ import annotations

from ... import cards as C
from ...api import guarantee_text, seat_values
from ...cards import cards_of
from .rules import best_melds, format_mask, format_melds, knock_deadwood, knock_spreads


def hand_report(deal, state, solver):
    """Each hand's best arrangement and deadwood, and the open-hand value of the position
    (seat 0's net points with best play by both), or unknown when a limit stopped the
    search, with what it had proven. ``solver`` is used only through Game.solver's interface
    (``value``, and ``proven`` through seat_values): the CLI hands in a wrapper."""
    lines, data = [], {"hands": []}
    for s in (0, 1):
        melds, dead = best_melds(state.hands[s])
        lines.append(f"seat {s}{' (dealer)' if _dealer(deal, state) == s else ''}: {format_mask(state.hands[s])}")
        lines.append(f"  best melds: {format_melds(melds)}; deadwood {dead}")
        hand = {"seat": s, "cards": format_mask(state.hands[s]).split(),
                "melds": [C.format_cards(m).split() for m in melds], "deadwood": dead}
        if knock_deadwood(state.hands[s]) != dead:  # a knock spreads the most cards melded (RULINGS)
            spread, kdead = knock_spreads(state.hands[s])[0]
            lines.append(f"  a knock would spread the most cards melded: "
                         f"{format_melds([cards_of(m) for m in spread])}; deadwood {kdead}")
            hand["knock_deadwood"] = kdead
        data["hands"].append(hand)
    (v,), (proven,) = seat_values(state, solver, 1)
    # "valued" or "unknown", as a hint file says of a several-player value
    data["value"], data["proven"], data["verdict"] = v, proven, "unknown" if v is None else "valued"
    if v is None:
        low, high = proven or (None, None)
        known = ("nothing proven of it" if low is None and high is None
                 else f"proven: seat 0's net {guarantee_text(None, proven)}")
        lines.append(f"open-hand value: unknown (a limit stopped the search; {known})")
        data["winner"] = None
    elif v == 0:
        lines.append("open-hand value: 0 (neither seat scores more: a cancelled hand or equal points)")
        data["winner"] = None
    else:
        winner = 0 if v > 0 else 1
        lines.append(f"open-hand value: seat {winner} wins the hand by {abs(v)} points with best play by both")
        data["winner"] = winner
    data["margin"] = None if v is None else abs(v)
    return lines, data


def _dealer(deal, state):
    if deal.position is not None:
        return None
    return deal.options.get("dealer", 1)
