"""Dead Center: mid-game positions (``[position]`` in a deal file), at the start of a turn."""
from __future__ import annotations

from ... import cards as C
from ...api import check_exact_pile, check_position_fields, position_piles
from ...errors import DealError
from .rules import CELLS, DEAD, DOWN, FACE_CARDS, JOKER, REVEAL, SPACES, UP, State


# -- deal files: a mid-game position (a turn's start) ---------------------------------------------------
_POSITION_FIELDS = {"cabin": "the 9 piles' top cards, row by row", "zombies": "the 12 face cards in space order",
                    "up": "the spaces (1-12) whose zombie is face up", "dead": "the spaces (1-12) killed",
                    "deck": "the cards still to draw, top first"}


def _spaces(position, name, source) -> set:
    spaces = position.get(name, [])
    if not isinstance(spaces, list) or not all(isinstance(x, int) and 1 <= x <= SPACES for x in spaces) \
            or len(set(spaces)) != len(spaces):
        raise DealError(source, f"position.{name}", f"expected a list of distinct spaces 1-{SPACES}, e.g. [1, 5]")
    return {x - 1 for x in spaces}


def state_from_position(position: dict, source: str, jokers: int) -> State:
    """``[position]`` (see _POSITION_FIELDS) at the start of a turn. The cards under the tops are
    gone for good, so they are not given: the cabin and the deck hold distinct number cards and at
    most ``jokers`` jokers; the other spaces' zombies are face down."""
    check_position_fields(position, _POSITION_FIELDS, source)
    piles = position_piles(position, ("cabin", "zombies", "deck"), source)
    if len(piles["cabin"]) != CELLS:
        raise DealError(source, "position.cabin", f"expected {CELLS} top cards, found {len(piles['cabin'])}")
    check_exact_pile(piles["zombies"], list(FACE_CARDS), source, "position.zombies")
    seen: dict = {}
    for name in ("cabin", "deck"):
        for card in piles[name]:
            if card in FACE_CARDS:
                raise DealError(source, f"position.{name}", f"{C.format_card(card)} is a face card: the zombies "
                                                            "hold those")
            if card != JOKER and card in seen:
                raise DealError(source, f"position.{name}", f"{C.format_card(card)} is already in "
                                                            f"position.{seen[card]}")
            seen[card] = name
    count = sum(c == JOKER for c in piles["cabin"] + piles["deck"])
    if count > jokers:
        raise DealError(source, "position", f"{count} jokers, but options.jokers = {jokers}")
    up, dead = _spaces(position, "up", source), _spaces(position, "dead", source)
    if up & dead:
        raise DealError(source, "position.up", f"space {min(up & dead) + 1} is also in position.dead")
    if len(dead) == SPACES:
        raise DealError(source, "position.dead", "every zombie is dead: the game is already won")
    status = tuple(DEAD if s in dead else UP if s in up else DOWN for s in range(SPACES))
    return State(tuple(piles["cabin"]), tuple(piles["zombies"]), status, tuple(piles["deck"]), REVEAL, jokers=jokers)
