"""Mid-game positions of the trick games (``[position]`` in a deal file): a hand in progress at a
trick boundary, Foresight's or Heartburn's."""
from __future__ import annotations

from ... import cards as C
from ...api import Deal, check_position_fields, position_piles
from ...cards import mask_of
from ...errors import DealError
from .rules import HEART_MASK, NO_TRUMP, TrickRules, TrickState, read_seats


def state_from_position(deal: Deal, trump: int, hearts: bool) -> TrickState:
    """A hand in progress from ``[position]``: each seat's ``hand-N`` and ``hole-N`` (the same
    number of cards each: a trick boundary), ``leader`` (the seat to lead, 1-based) and what
    each seat has won, ``taken-N`` (Foresight: a number of tricks; Heartburn: the cards)."""
    pos, src, n = deal.position, deal.source, deal.options["players"]
    fields = [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole", "taken")] + ["leader"]
    fields += [] if hearts else ["trump"]
    check_position_fields(pos, fields, src)
    piles = position_piles(pos, [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole")], src)
    seen: dict = {}
    for name, cards in piles.items():
        for c in cards:
            if c in seen:
                raise DealError(src, f"position.{name}", f"{C.format_card(c)} is also in {seen[c]}")
            seen[c] = name
    sizes = {len(piles[f"hand-{s}"]) + len(piles[f"hole-{s}"]) for s in range(1, n + 1)}
    if len(sizes) != 1 or not sizes.pop():
        raise DealError(src, "position", "every seat must hold the same number of cards (at least one): "
                        "a position starts a trick")
    leader = pos.get("leader", 1)
    if not isinstance(leader, int) or not 1 <= leader <= n:
        raise DealError(src, "position.leader", f"expected a seat from 1 to {n}")
    tricks, taken = [0] * n, [0] * n
    for s in range(n):
        value = pos.get(f"taken-{s + 1}", "" if hearts else 0)
        if hearts:
            if not isinstance(value, str):
                raise DealError(src, f"position.taken-{s + 1}", 'expected the cards won, e.g. "QS 4H"')
            taken[s] = mask_of(C.parse_cards(value, source=src, field=f"position.taken-{s + 1}"))
        elif not isinstance(value, int) or value < 0:
            raise DealError(src, f"position.taken-{s + 1}", "expected the number of tricks won")
        else:
            tricks[s] = value
    hands, holes = read_seats(Deal(deal.game, deal.options, None, piles), n)
    return TrickState(TrickRules(n, trump, hearts=hearts), hands, holes, leader - 1, taken=tuple(taken),
                      tricks=tuple(tricks), broken=any(t & HEART_MASK for t in taken), first=False)


def position_trump(deal) -> int:
    text = deal.position.get("trump", "")
    if not isinstance(text, str) or text.upper() not in ("S", "H", "D", "C", "NONE"):
        raise DealError(deal.source, "position.trump", 'expected the trump suit: "S", "H", "D", "C" or "none"')
    return NO_TRUMP if text.upper() == "NONE" else C.SUITS.index(text.upper())
