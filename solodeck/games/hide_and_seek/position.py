"""Hide and Seek's mid-game positions (``[position]`` in a deal file): the fields, the state
they describe (state_from_position) and back (position_form)."""
from __future__ import annotations

from ... import cards as C
from ...api import check_exact_pile, check_position_fields
from ...errors import DealError
from .rules import ALL_UP, SPACE_INDEX, SPACE_NAMES, State, World, column_problem, face_cards, number_cards

# -- deal files: positions ----------------------------------------------------------------------
POSITION_FIELDS = ("playmates", "spaces", "deck", "score", "discard")


def state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``playmates`` = the 12 face cards row by row, face-down ones in parentheses;
    ``spaces`` = the guesses, e.g. "T1=7S L2=3H"; ``deck`` = the deck, top first (the top card is
    seen); ``score`` and ``discard`` = those piles. Every number card in exactly one of the last
    four."""
    check_position_fields(position, POSITION_FIELDS, source)
    for key in POSITION_FIELDS:
        if not isinstance(position.get(key, ""), str):
            raise DealError(source, f"position.{key}", "expected a string")
    grid, up = _read_playmates(position.get("playmates"), source)
    seen: dict = {}

    def take(card, where):
        field = where.split(",")[0]
        if card in seen:
            raise DealError(source, field, f"{C.format_card(card)} appears twice (first in {seen[card]})")
        if C.rank_of(card) > 10:
            raise DealError(source, field, f"{C.format_card(card)} is a face card: only number cards here")
        seen[card] = where

    spaces = [-1] * 14
    for i, word in enumerate(position.get("spaces", "").replace(",", " ").split(), start=1):
        name, _eq, text = word.partition("=")
        field = "position.spaces"
        if name.upper() not in SPACE_INDEX or not text:
            raise DealError(source, field, f"entry {i} '{word}': expected SPACE=CARD, e.g. T1=7S (spaces T1-T4, B1-B4, L1-L3, R1-R3)")
        p = SPACE_INDEX[name.upper()]
        if spaces[p] >= 0:
            raise DealError(source, field, f"entry {i} '{word}': {name.upper()} is given twice")
        card = _card(text, source, field, i)
        take(card, f"{field}, entry {i}")
        spaces[p] = card
    piles = {}
    for name in ("deck", "score", "discard"):
        field = f"position.{name}"
        piles[name] = C.parse_cards(position.get(name, ""), source=source, field=field)
        for i, card in enumerate(piles[name], start=1):
            take(card, f"{field}, card {i}")
    missing = [c for c in number_cards() if c not in seen]
    if missing:
        raise DealError(source, "position", "every number card must be in the spaces, the deck, the score pile or "
                                            f"the discard pile; missing: {C.format_cards(missing)}")
    if up == ALL_UP:
        raise DealError(source, "position.playmates", "every playmate is face up: the game is over")
    return State(World(grid, piles["deck"]), 0, up, tuple(spaces), tuple(piles["score"]), tuple(piles["discard"]))


def _card(word, source, field, i):
    try:
        return C.parse_card(word)
    except ValueError as exc:
        raise DealError(source, field, f"card {i}: {exc}") from None


def _read_playmates(text, source):
    field = "position.playmates"
    if not text:
        raise DealError(source, field, "missing: the 12 face cards row by row, face-down ones in parentheses")
    cards = C.parse_faced_cards(text, source=source, field=field)
    if len(cards) != 12:
        raise DealError(source, field, f"expected 12 face cards (3 rows of 4), found {len(cards)}")
    grid, up = [], 0
    for i, (card, face_up) in enumerate(cards):
        if C.rank_of(card) <= 10:
            raise DealError(source, field, f"card {i + 1} '{C.format_card(card)}' is not a face card")
        grid.append(card)
        up |= face_up << i
    check_exact_pile(grid, face_cards(), source, field)
    problem = column_problem(grid)
    if problem:
        raise DealError(source, field, f"column {problem[0]} has {problem[1]}: each column must hold a J, a Q "
                                       "and a K of three different suits")
    return grid, up


def position_form(state: State) -> dict:
    """The ``[position]`` table of a decision state (the inverse of state_from_position)."""
    grid, up = state.world.grid, state.up
    return {"playmates": " ".join(C.format_card(grid[c]) if up >> c & 1 else f"({C.format_card(grid[c])})"
                                  for c in range(12)),
            "spaces": " ".join(f"{SPACE_NAMES[p]}={C.format_card(card)}" for p, card in enumerate(state.spaces)
                               if card >= 0),
            "deck": C.format_cards(state.world.deck[state.pos:]),
            "score": C.format_cards(state.scored),
            "discard": C.format_cards(state.discard)}
