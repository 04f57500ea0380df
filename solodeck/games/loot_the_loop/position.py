"""Loot the Loop: mid-game positions (``[position]`` in a deal file), and a state's position table."""
from __future__ import annotations

from ... import cards as C
from ...errors import DealError
from .rules import ACE_CLASS, NOTES_LIMIT, State, card_class, card_of, full_deck, is_up, trinket_value


# -- deal files: positions ----------------------------------------------------------------------
def state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``deck`` = the deck top first, face-down cards in parentheses (e.g.
    "7C (KS) JK (2H)"); ``notes`` = the marked paths; ``score`` = the score pile. Every one of
    the 53 cards in exactly one of them."""
    known = ("deck", "notes", "score")
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(known)})")
    seen: dict = {}
    piles = {}
    for name in known:
        value = position.get(name, "")
        field = f"position.{name}"
        if not isinstance(value, str):
            raise DealError(source, field, "expected a string of cards, e.g. \"7C (KS) JK\"")
        codes = []
        for i, (card, up) in enumerate(C.parse_faced_cards(value, source=source, field=field), start=1):
            word = C.format_card(card)
            if not up and name != "deck":
                raise DealError(source, field, f"card {i} '({word})': only deck cards can be face down")
            if card in seen:
                raise DealError(source, field, f"card {i} '{word}' appears twice (first in {seen[card]})")
            seen[card] = f"{field}, card {i}"
            codes.append(card * 2 + up)
        piles[name] = codes
    notes = [card_of(c) for c in piles["notes"]]
    for i, card in enumerate(notes, start=1):
        if not trinket_value(card):
            raise DealError(source, "position.notes", f"card {i} '{C.format_card(card)}': the notes hold trinkets (2-10) only")
    if len(notes) > NOTES_LIMIT:
        raise DealError(source, "position.notes", f"{len(notes)} cards: at most {NOTES_LIMIT} marked paths")
    for i, code in enumerate(piles["score"], start=1):
        if card_class(card_of(code)) < ACE_CLASS:
            raise DealError(source, "position.score", f"card {i} '{C.format_card(card_of(code))}': "
                                                      "only aces and trinkets are ever scored")
    if len(seen) != 53:
        missing = [c for c in full_deck() if c not in seen]
        raise DealError(source, "position", f"every card must be in the deck, the notes or the score pile; "
                                            f"missing: {C.format_cards(missing)}")
    if not piles["deck"]:
        raise DealError(source, "position.deck", "the deck is never empty (the joker and the traps stay in it)")
    return State(tuple(piles["deck"]), tuple(sorted(notes)))


def position_form(state: State) -> dict:
    """The ``[position]`` table of a state (the inverse of state_from_position)."""
    in_play = {card_of(c) for c in state.deck} | set(state.notes)
    return {"deck": " ".join(C.format_card(card_of(c)) if is_up(c) else f"({C.format_card(card_of(c))})"
                             for c in state.deck),
            "notes": C.format_cards(state.notes),
            "score": C.format_cards(c for c in full_deck() if c not in in_play)}
