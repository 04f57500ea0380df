"""Bourbon: mid-game positions (``[position]`` in a deal file), at the start of a turn."""
from __future__ import annotations

from ... import cards as C
from ...api import check_position_fields, position_piles
from ...cards import mask_of
from ...errors import DealError
from .rules import DRAW, HAND, State

_POSITION_FIELDS = ("hand0", "hand1", "faceup", "facedown", "deck", "to_move", "run")


def state_from_position(position: dict, source: str, limit: int) -> State:
    """``[position]``: the start of a turn (the draw). ``hand0``, ``hand1`` (ten cards each),
    ``faceup`` (one card), ``facedown`` (the face-down cards one may draw: three, or fewer with
    an empty deck), ``deck`` (the face-down cards below them, top first), ``to_move`` (0 or 1),
    ``run`` (turns in a row that drew the face-up card, default 0). Cards discarded earlier and
    buried under the face-up card are left out."""
    check_position_fields(position, _POSITION_FIELDS, source)
    piles = position_piles(position, ("hand0", "hand1", "faceup", "facedown", "deck"), source)
    seen = {}
    for name, cards in piles.items():
        for i, card in enumerate(cards, start=1):
            if card == C.JOKER:
                raise DealError(source, f"position.{name}", f"card {i}: Bourbon has no joker")
            if card in seen:
                raise DealError(source, f"position.{name}",
                                f"card {i} '{C.format_card(card)}' appears twice (first in {seen[card]})")
            seen[card] = f"position.{name}, card {i}"
    for name in ("hand0", "hand1"):
        if len(piles[name]) != HAND:
            raise DealError(source, f"position.{name}", f"expected {HAND} cards, found {len(piles[name])}")
    if len(piles["faceup"]) != 1:
        raise DealError(source, "position.faceup", f"expected 1 card, found {len(piles['faceup'])}")
    if len(piles["facedown"]) > 3 or (piles["deck"] and len(piles["facedown"]) != 3):
        raise DealError(source, "position.facedown",
                        "expected the three face-down cards one may draw (fewer only when the deck is empty)")
    seat = position.get("to_move", 0)
    if seat not in (0, 1) or isinstance(seat, bool):
        raise DealError(source, "position.to_move", f"expected 0 or 1, got {seat!r}")
    run = position.get("run", 0)
    if not isinstance(run, int) or isinstance(run, bool) or not 0 <= run:
        raise DealError(source, "position.run", f"expected a whole number, 0 or more, got {run!r}")
    return State((mask_of(piles["hand0"]), mask_of(piles["hand1"])), piles["faceup"][0], mask_of(piles["facedown"]),
                 tuple(piles["deck"]), seat, DRAW, -1, run, limit)
