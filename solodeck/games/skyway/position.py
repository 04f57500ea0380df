"""Skyway's mid-game positions: the ``[position]`` table of a deal file (a turn's start)."""
from __future__ import annotations

from ... import cards as C
from ...errors import DealError
from .rules import CELLS, HEIGHT, NUMBER_CARDS, PASSES, State, value_of


# -- deal files: the endgame position ---------------------------------------------------------------
def _cards(text, source, field) -> list:
    if not isinstance(text, str):
        raise DealError(source, field, 'expected a string of cards such as "3C 7H 6C"')
    cards = C.parse_cards(text, source=source, field=field)
    for i, card in enumerate(cards, start=1):
        if card == C.JOKER or value_of(card) > 10:
            raise DealError(source, field, f"card {i} '{C.format_card(card)}': Skyway uses only the number cards A-T")
    return cards


def _whole(position, name, lo, hi, default, source):
    value = position.get(name, default)
    if value is None or not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DealError(source, f"position.{name}", f"expected a whole number from {lo} to {hi}, got {value!r}")
    return value


def state_from_position(position: dict, source: str, seed: int) -> State:
    """``[position]``: ``grid`` = 9 strings, row by row from the top-left, each a cell's cards
    bottom card first (at most 3; "" for an empty cell); ``deck`` (top first), ``discard``,
    ``pass`` (1-3) and ``reshuffles`` (made so far; default pass - 1). The 40 number cards must
    each be in exactly one of them. The position is a turn's start: the market is dealt next."""
    known = {"grid", "deck", "discard", "pass", "reshuffles"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    cells = position.get("grid")
    if not isinstance(cells, list) or len(cells) != CELLS:
        raise DealError(source, "position.grid", 'expected a list of 9 cells, row by row from the top-left, each '
                                                 'a string of cards bottom first, e.g. ["3C 7H 6C", "", "AS", ...]')
    grid = []
    for i, text in enumerate(cells, start=1):
        stack = _cards(text, source, f"position.grid[{i}]")
        if len(stack) > HEIGHT:
            raise DealError(source, f"position.grid[{i}]", f"{len(stack)} cards: a cell holds at most {HEIGHT}")
        grid.append(tuple(stack))
    deck = _cards(position.get("deck", ""), source, "position.deck")
    discard = _cards(position.get("discard", ""), source, "position.discard")
    passno = _whole(position, "pass", 1, PASSES, 1, source)
    reshuffles = _whole(position, "reshuffles", 0, PASSES - 1, passno - 1, source)
    seen = {}
    for field, cards in [(f"position.grid[{i}]", s) for i, s in enumerate(grid, start=1)] + [
            ("position.deck", deck), ("position.discard", discard)]:
        for card in cards:
            if card in seen:
                raise DealError(source, field, f"{C.format_card(card)} is already in {seen[card]}")
            seen[card] = field
    missing = [c for c in NUMBER_CARDS if c not in seen]
    if missing:
        raise DealError(source, "position", f"{len(missing)} number cards are nowhere (each of the 40 must be in "
                                            f"the grid, the deck or the discard pile): {C.format_cards(missing)}")
    over = passno == PASSES and not deck  # the third pass's deck ran out at the end of a turn
    return State(tuple(grid), (), tuple(deck), tuple(sorted(discard)), passno, reshuffles, seed, over=over)
