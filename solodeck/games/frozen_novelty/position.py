"""Frozen Novelty's mid-game positions: the ``[position]`` table of a deal file and back."""
from __future__ import annotations

from ... import cards as C
from ...errors import DealError
from .rules import NAMES, UP, Rules, State, card_of, is_up, rank, suit


def state_from_position(rules: Rules, position: dict, source: str) -> State:
    """``[position]``: D1-D4, U1-U4, W1-W4 = the stack's cards top first, a face-down card in
    parentheses (e.g. "7H 8H (2C) (KD)"); ``foundations`` = the top card of each foundation
    ("5S KD"; the cards below it are implied; a suit not named is empty). Every card once."""
    known = set(NAMES) | {"foundations"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", "unknown field (expected D1-D4, U1-U4, W1-W4, foundations)")
    found = [0, 0, 0, 0]
    text = position.get("foundations", "")
    if not isinstance(text, str):
        raise DealError(source, "position.foundations", "expected a string of top cards, e.g. \"5S KD\"")
    for card in C.parse_cards(text, source=source, field="position.foundations"):
        if card == C.JOKER:
            raise DealError(source, "position.foundations", "Frozen Novelty has no jokers")
        if found[suit(card)]:
            raise DealError(source, "position.foundations", f"two cards for suit {C.SUITS[suit(card)]}")
        found[suit(card)] = rank(card)
    seen = {s * 13 + r for s in range(4) for r in range(found[s])}
    stacks = []
    for j, name in enumerate(NAMES):
        field = f"position.{name}"
        value = position.get(name, "")
        if not isinstance(value, str):
            raise DealError(source, field, "expected a string of cards, top first, face-down ones in parentheses")
        codes = []
        for i, (card, up) in enumerate(C.parse_faced_cards(value, source=source, field=field), start=1):
            if card == C.JOKER:
                raise DealError(source, field, f"card {i}: Frozen Novelty has no jokers")
            if card in seen:
                raise DealError(source, field, f"card {i} '{C.format_card(card)}' is already in the position")
            seen.add(card)
            codes.append(card * 2 + up)
        codes.reverse()  # bottom first inside
        ups = [is_up(c) for c in codes]
        if any(ups[k] and not ups[k + 1] for k in range(len(ups) - 1)):
            raise DealError(source, field, "a face-down card lies on a face-up one (face-down cards never go there)")
        if j in UP and not all(ups):
            raise DealError(source, field, "an Up stack holds only face-up cards")
        up_part = [card_of(c) for c in codes if is_up(c)]
        if any(not rules.builds(up_part[k + 1], up_part[k]) for k in range(len(up_part) - 1)):
            raise DealError(source, field, "the face-up cards must form a run built down "
                                           + ("red/black" if rules.alternate else "in suit"))
        stacks.append(tuple(codes))
    if len(seen) != 52:
        missing = sorted(set(range(52)) - seen)
        raise DealError(source, "position", f"every card must be somewhere; missing: {C.format_cards(missing)}")
    return State(rules, tuple(stacks), tuple(found))


def position_form(state: State) -> dict:
    """The ``[position]`` table of a state (the inverse of state_from_position)."""
    out = {}
    for j, s in enumerate(state.stacks):
        if s:
            out[NAMES[j]] = " ".join(C.format_card(card_of(c)) if is_up(c) else f"({C.format_card(card_of(c))})"
                                     for c in reversed(s))
    tops = [C.format_card(s * 13 + r - 1) for s, r in enumerate(state.found) if r]
    out["foundations"] = " ".join(tops)
    return out
