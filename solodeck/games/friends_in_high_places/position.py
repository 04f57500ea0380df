"""Friends in High Places: mid-game positions (``[position]`` in a deal file)."""
from __future__ import annotations

from ... import cards as C
from ...api import check_position_fields, position_piles
from ...errors import DealError
from .rules import ALL_CARDS, COURT, HAND, INFLUENCE, INTRIGUE, KING_OF_DIAMONDS, State

_POSITION_FIELDS = {
    "turn": "the turn under way (1 at the first)", "step": '"intrigue" (default) or "influence"',
    "hand": "the player's hand", "court": "the court cards on the table", "deck": "the player's deck, top first",
    "discard": "the player's discard pile", "court-deck": "the court deck, top first",
    "court-discard": "the court discard pile", "shuffles": "the player's reshuffles so far",
    "court-shuffles": "the court's reshuffles so far"}


def _whole(position, name, lo, default, source) -> int:
    x = position.get(name, default)
    if not isinstance(x, int) or isinstance(x, bool) or x < lo:
        raise DealError(source, f"position.{name}", f"expected a whole number, {lo} or more")
    return x


def state_from_position(position: dict, source: str, seed: int, options) -> State:
    """``[position]`` (see _POSITION_FIELDS): a decision of a turn, its hand and court drawn. Cards
    of the game not given anywhere have left it (removed by intrigues or turned up); the K♦ must
    still be in play."""
    check_position_fields(position, _POSITION_FIELDS, source)
    piles = position_piles(position, ("hand", "court", "deck", "discard", "court-deck", "court-discard"), source)
    seen = {}
    for name, cards in piles.items():
        for i, card in enumerate(cards, start=1):
            if card not in ALL_CARDS:
                raise DealError(source, f"position.{name}", f"card {i} '{C.format_card(card)}' is not in this game")
            if card in seen:
                raise DealError(source, f"position.{name}", f"card {i} '{C.format_card(card)}' is also in {seen[card]}")
            seen[card] = name
    step_name = position.get("step", "intrigue")
    if step_name not in ("intrigue", "influence"):
        raise DealError(source, "position.step", 'expected "intrigue" or "influence"')
    step = INTRIGUE if step_name == "intrigue" else INFLUENCE
    hand, court = piles["hand"], piles["court"]
    shapes = [(HAND, COURT)] if step == INTRIGUE else [(HAND - 1, COURT), (HAND, COURT - 2)]
    if (len(hand), len(court)) not in shapes:
        want = " or ".join(f"{h} in hand and {c} in court" for h, c in shapes)
        raise DealError(source, "position.hand", f"at the {step_name} there are {want} (found {len(hand)} and {len(court)})")
    if KING_OF_DIAMONDS not in seen:
        raise DealError(source, "position.court-deck", "the K♦ is nowhere: it must still be in play")
    if KING_OF_DIAMONDS in piles["deck"] + piles["discard"] + hand:
        raise DealError(source, "position.deck", "the K♦ in the player's cards: the game would be won")
    owned = len(hand) + len(piles["deck"]) + len(piles["discard"])
    if owned < HAND:
        raise DealError(source, "position.deck", f"the player owns {owned} cards (hand, deck and discard): "
                        "fewer than 4 has lost already")
    court_cards = len(court) + len(piles["court-deck"]) + len(piles["court-discard"])
    if court_cards < COURT:
        raise DealError(source, "position.court-deck", f"the court has {court_cards} cards (court, court deck and "
                        "court discard): fewer than 4 has lost already")
    turn = _whole(position, "turn", 1, 1, source)
    deck = (tuple(piles["deck"]),) if piles["deck"] else ()
    court_deck = (tuple(piles["court-deck"]),) if piles["court-deck"] else ()
    return State(deck, tuple(sorted(piles["discard"])), tuple(sorted(hand)), court_deck,
                 tuple(sorted(piles["court-discard"])), tuple(sorted(court)), turn, step,
                 _whole(position, "shuffles", 0, 0, source), _whole(position, "court-shuffles", 0, 0, source),
                 seed=seed, options=options)
