"""The Sandwich Guy: mid-game positions (``[position]`` in a deal file)."""
from __future__ import annotations

from ... import cards as C
from ...errors import DealError
from .rules import HAND_LIMIT, State


def state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``hand`` = the cards in hand (any order), ``deck`` = the cards still in the
    deck, top first (empty or absent: the deck has run out)."""
    known = {"hand", "deck"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    if "hand" not in position:
        raise DealError(source, "position.hand", "missing: the cards in hand, e.g. hand = \"AC 3C 5C 8H\"")
    piles = {}
    for name in ("hand", "deck"):
        value = position.get(name, "")
        if not isinstance(value, str):
            raise DealError(source, f"position.{name}", "expected a string of cards (e.g. \"AS 7H TD\")")
        piles[name] = C.parse_cards(value, source=source, field=f"position.{name}")
        for i, card in enumerate(piles[name], start=1):
            if card == C.JOKER:
                raise DealError(source, f"position.{name}", f"card {i}: the game has no joker")
    seen = {}
    for name in ("hand", "deck"):
        for i, card in enumerate(piles[name], start=1):
            if card in seen:
                raise DealError(source, f"position.{name}",
                                f"card {i} '{C.format_card(card)}' appears twice (first in {seen[card]})")
            seen[card] = f"position.{name}, card {i}"
    if len(piles["hand"]) > HAND_LIMIT:
        raise DealError(source, "position.hand", f"{len(piles['hand'])} cards: the hand holds at most {HAND_LIMIT}")
    return State(piles["hand"], tuple(piles["deck"]))
