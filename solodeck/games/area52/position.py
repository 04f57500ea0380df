"""Area 52's mid-game positions: the ``[position]`` table of a deal file."""
from __future__ import annotations

from ... import cards as C
from ...api import check_position_fields
from ...errors import DealError
from .rules import PER_TURN, TABLE, State


# -- deal files: a mid-game position ------------------------------------------------------------------
_POSITION_FIELDS = {"wave": "1 or 2", "table": "the face-up defenders", "defenders": "the defender deck, top first",
                    "attackers": "the flipped aliens not handled yet, the current one first",
                    "aliens": "the alien deck's unseen cards, top first",
                    "returned": "the sacrificed aliens at the bottom of the alien deck, in order",
                    "discard": "the discard pile"}


def _cards(position, name, source) -> list:
    text = position.get(name, "")
    field = f"position.{name}"
    if not isinstance(text, str):
        raise DealError(source, field, 'expected a string of cards such as "7S 3C"')
    cards = C.parse_cards(text, source=source, field=field)
    if C.JOKER in cards:
        raise DealError(source, field, "Area 52 has no jokers")
    return cards


def state_from_position(position: dict, source: str, seed: int) -> State:
    """``[position]``: see _POSITION_FIELDS; the 52 cards must each be in exactly one field. With
    ``attackers`` empty the position is a turn's start (the next aliens are flipped next)."""
    check_position_fields(position, _POSITION_FIELDS, source)
    wave = position.get("wave", 1)
    if wave not in (1, 2) or isinstance(wave, bool):
        raise DealError(source, "position.wave", f"expected 1 or 2, got {wave!r}")
    piles = {name: _cards(position, name, source) for name in _POSITION_FIELDS if name != "wave"}
    seen = {}
    for name, cards in piles.items():
        for card in cards:
            if card in seen:
                raise DealError(source, f"position.{name}", f"{C.format_card(card)} is already in position.{seen[card]}")
            seen[card] = name
    if len(piles["table"]) > TABLE:
        raise DealError(source, "position.table", f"{len(piles['table'])} defenders: at most {TABLE} face up")
    if len(piles["attackers"]) > PER_TURN:
        raise DealError(source, "position.attackers", f"{len(piles['attackers'])} attackers: at most {PER_TURN} a turn")
    missing = [c for c in range(52) if c not in seen]
    if missing:
        raise DealError(source, "position", f"{len(missing)} cards are nowhere (each of the 52 must be in one of "
                                            f"{', '.join(piles)}): {C.format_cards(missing)}")
    if not piles["attackers"] and not (piles["aliens"] or piles["returned"]) and wave == 2:
        raise DealError(source, "position", "wave 2 with no alien left: the game is already won")
    return State(tuple(sorted(piles["table"])), tuple(piles["defenders"]), tuple(piles["attackers"]), 0,
                 tuple(piles["aliens"]), tuple(piles["returned"]), tuple(sorted(piles["discard"])), wave, seed)
