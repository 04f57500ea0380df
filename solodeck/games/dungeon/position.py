"""Dungeon: mid-game positions (``[position]`` in a deal file)."""
from __future__ import annotations

from ...api import check_exact_pile, check_position_fields, position_piles
from ...errors import DealError
from .rules import DEAL, DECK_CARDS, KING, OFFER, ORIGIN, State, meets, path_points, value

# -- deal files: positions ----------------------------------------------------------------------
_POSITION_FIELDS = {
    "skill": "the SKILL card", "path": "the dungeon's cards from A♠ out", "deck": "the deck, top first",
    "discard": "the discard pile", "extra": "the cards offered beside the monster this round (0-3)",
    "shuffles": "the reshuffles so far (the next one uses stream shuffles + 1)",
    "offer": "the offered cards to choose the monster from", "monster": "the monster",
    "attacks": "the monster's three attacks", "hand": "the player's three cards"}


def state_from_position(position: dict, source: str, seed: int, distance: int) -> State:
    """``[position]`` (see _POSITION_FIELDS): the start of a round, or with ``offer`` the choice of
    the monster, or with ``monster``, ``attacks`` and ``hand`` the pairing. The 50 cards are each
    in exactly one place."""
    check_position_fields(position, _POSITION_FIELDS, source)
    piles = position_piles(position, ("skill", "path", "deck", "discard", "offer", "monster", "attacks", "hand"), source)
    for name, count in (("skill", (1,)), ("monster", (0, 1)), ("attacks", (0, 3)), ("hand", (0, 3))):
        if len(piles[name]) not in count:
            raise DealError(source, f"position.{name}", f"expected {' or '.join(map(str, count))} cards")
    check_exact_pile([c for name in piles for c in piles[name]], list(DECK_CARDS), source,
                     "position (skill, path, deck, discard, offer, monster, attacks and hand together)")
    for name in ("extra", "shuffles"):
        if not isinstance(position.get(name, 0), int) or position.get(name, 0) < 0:
            raise DealError(source, f"position.{name}", "expected a whole number, 0 or more")
    extra, shuffles = position.get("extra", 0), position.get("shuffles", 0)
    if extra > 3:
        raise DealError(source, "position.extra", "a round scores at most 3")
    if any(value(c) == KING for c in piles["path"]):
        raise DealError(source, "position.path", "a king never joins the path")
    if any(meets(p, value(c), distance) for p, c in
                                      zip((ORIGIN,) + path_points(value(c) for c in piles["path"]), piles["path"])):
        raise DealError(source, "position.path", "the path already meets K♦: the game is over")
    fighting = bool(piles["monster"] or piles["attacks"] or piles["hand"])
    if fighting and not (piles["monster"] and len(piles["attacks"]) == 3 and len(piles["hand"]) == 3):
        raise DealError(source, "position.monster", "a pairing needs the monster, three attacks and three cards")
    if piles["offer"] and (fighting or len(piles["offer"]) != 1 + extra or not extra):
        raise DealError(source, "position.offer", f"expected {1 + extra} offered cards (extra + 1, extra > 0), "
                                                  "and no monster yet")
    skill = piles["skill"][0]
    common = dict(discard=tuple(sorted(piles["discard"])), extra=extra, shuffles=shuffles, seed=seed)
    path, deck = tuple(piles["path"]), tuple(piles["deck"])
    if fighting:
        return State(skill, distance, path, deck, step=DEAL, monster=piles["monster"][0],
                     attacks=tuple(piles["attacks"]), hand=tuple(piles["hand"]), **common)
    if piles["offer"]:
        return State(skill, distance, path, deck, step=OFFER, offer=tuple(piles["offer"]), **common)
    return State(skill, distance, path, deck, **common)
