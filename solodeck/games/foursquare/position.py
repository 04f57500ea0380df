"""Foursquare's mid-game positions: the ``[position]`` table of a deal file."""
from __future__ import annotations

import re

from ... import cards as C
from ...errors import DealError
from .rules import CARDS_IN_DECK, MAX_FACE_DOWN, MAX_HEIGHT, SIDE, State


_PILE_RE = re.compile(r"^(-?\d+)\s*,\s*(-?\d+)\s*:\s*(\(?)\s*(\w+)\s*\)?\s*(?:/\s*(\d))?$")


def state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``piles`` = list of "X,Y: V/H" strings (V in parentheses when face down,
    H the height, default 1), ``deck`` = the cards still in the deck, top first (values or cards),
    optional ``hand`` = the drawn card waiting to be placed."""
    known = {"piles", "deck", "hand"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    piles = {}
    for i, text in enumerate(position.get("piles", []), start=1):
        m = _PILE_RE.match(str(text).strip())
        if not m:
            raise DealError(source, f"position.piles[{i}]", f"'{text}': expected 'X,Y: V/H' such as '0,1: 7/2' "
                                                             "or '1,0: (5)/1' for a face-down top")
        x, y, down, v, h = m.groups()
        try:
            value = C.parse_number_value(v)
        except ValueError as exc:
            raise DealError(source, f"position.piles[{i}]", str(exc)) from None
        height = int(h or 1)
        if not 1 <= height <= MAX_HEIGHT:
            raise DealError(source, f"position.piles[{i}]", f"height {height}: expected 1 to {MAX_HEIGHT}")
        if (int(x), int(y)) in piles:
            raise DealError(source, f"position.piles[{i}]", f"a second pile at {x},{y}")
        piles[(int(x), int(y))] = (value, not down, height)
    if piles and (0, 0) not in piles:
        raise DealError(source, "position.piles", "the first card's pile must be at 0,0")
    for axis in (0, 1):
        coords = [c[axis] for c in piles]
        if coords and max(coords) - min(coords) >= SIDE:
            raise DealError(source, "position.piles", "the piles do not fit in a 4 x 4 grid")
    if sum(1 for _v, up, _h in piles.values() if not up) > MAX_FACE_DOWN:
        raise DealError(source, "position.piles", f"more than {MAX_FACE_DOWN} face-down tops")
    try:
        deck = tuple(C.parse_number_value(t) for t in str(position.get("deck", "")).replace(",", " ").split())
    except ValueError as exc:
        raise DealError(source, "position.deck", str(exc)) from None
    try:
        hand = C.parse_number_value(str(position["hand"])) if "hand" in position else None
    except ValueError as exc:
        raise DealError(source, "position.hand", str(exc)) from None
    cards_used = sum(h for _v, _u, h in piles.values()) + len(deck) + (hand is not None)
    if cards_used > CARDS_IN_DECK:
        raise DealError(source, "position", f"{cards_used} cards: more than the deck's {CARDS_IN_DECK}")
    if not piles and hand is not None:
        raise DealError(source, "position.hand", "the first card needs no decision: leave 'hand' out")
    return State(piles, deck, hand)

