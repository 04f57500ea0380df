"""The Emissary's mid-game positions (``[position]`` in a deal file): the fields and the state
they describe (state_from_position)."""
from __future__ import annotations

from ...api import check_exact_pile, check_position_fields, position_piles
from ...errors import DealError
from .rules import ACT, CHOOSE, DECK_CARDS, JACKS, KINGDOMS, RULER_CARDS, State, suit

_POSITION_FIELDS = {
    "rulers": "the 8 kings and queens on kingdoms 1-8", "won": "the kingdoms won, e.g. [1, 4]",
    "used": "the won kingdoms whose ruler's ability is spent", "visiting": "the kingdom visited (omit: choose one)",
    "hand": "the cards in hand", "deck": "the cards still to draw, top first", "discard": "the discard pile",
    "scoring": "the debates won this visit", "jacks": 'the jacks used this visit, e.g. "JH JC"',
    "shuffles": "the reshuffles so far (the next one uses stream shuffles + 1)"}


def _kingdoms(position, name, source) -> int:
    kingdoms = position.get(name, [])
    if not isinstance(kingdoms, list) or not all(isinstance(x, int) and 1 <= x <= KINGDOMS for x in kingdoms) \
            or len(set(kingdoms)) != len(kingdoms):
        raise DealError(source, f"position.{name}", f"expected a list of distinct kingdoms 1-{KINGDOMS}, e.g. [1, 5]")
    return sum(1 << (x - 1) for x in kingdoms)


def state_from_position(position: dict, source: str, seed: int) -> State:
    """``[position]`` (see _POSITION_FIELDS): the choice of a kingdom with the hand drawn, or,
    with ``visiting``, a decision between debates. The cards A-8 are each in exactly one of hand,
    deck, discard and scoring."""
    check_position_fields(position, _POSITION_FIELDS, source)
    piles = position_piles(position, ("rulers", "hand", "deck", "discard", "scoring", "jacks"), source)
    check_exact_pile(piles["rulers"], list(RULER_CARDS), source, "position.rulers")
    if any(c not in JACKS for c in piles["jacks"]) or len(set(piles["jacks"])) != len(piles["jacks"]):
        raise DealError(source, "position.jacks", 'expected distinct jacks, e.g. "JH JC"')
    check_exact_pile(piles["hand"] + piles["deck"] + piles["discard"] + piles["scoring"], list(DECK_CARDS), source,
                     "position (hand, deck, discard and scoring together)")
    won, used = _kingdoms(position, "won", source), _kingdoms(position, "used", source)
    if used & ~won:
        raise DealError(source, "position.used", "a ruler's ability is only used once its kingdom is won")
    if won == (1 << KINGDOMS) - 1:
        raise DealError(source, "position.won", "every kingdom is won: the game is over")
    shuffles = position.get("shuffles", 0)
    if not isinstance(shuffles, int) or shuffles < 0:
        raise DealError(source, "position.shuffles", "expected a whole number, 0 or more")
    visiting = position.get("visiting", 0)
    if not isinstance(visiting, int) or not 0 <= visiting <= KINGDOMS or (visiting and won >> (visiting - 1) & 1):
        raise DealError(source, "position.visiting", f"expected a kingdom 1-{KINGDOMS} not won yet (or no field)")
    if not piles["hand"]:
        raise DealError(source, "position.hand", "the hand is empty: a position is a decision with cards in hand")
    if not visiting and (piles["scoring"] or piles["jacks"] or piles["discard"]):
        raise DealError(source, "position.visiting", "scoring, discard or jacks given but no kingdom visited")
    jacks = sum(1 << suit(j) for j in piles["jacks"])
    return State(tuple(piles["rulers"]), won, used, visiting - 1, tuple(sorted(piles["hand"])), tuple(piles["deck"]),
                 tuple(sorted(piles["discard"])), tuple(sorted(piles["scoring"])), jacks, ACT if visiting else CHOOSE,
                 shuffles=shuffles, seed=seed)
