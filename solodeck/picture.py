"""Building blocks of a position's picture (hint files, version 2; the format is in
docs/hints.md, "The picture"): named piles of cards, bottom first, face-down cards marked. Each
game's ``State.picture(seen_only)`` builds its picture from these."""
from __future__ import annotations

from . import cards as C


def card(code: int | None, down: bool = False, back: str | None = None) -> dict:
    """A card (solodeck.cards' integer code), face down if ``down``; ``None``: face down and
    unknown. ``back``: the suits a card's back shows (decks whose backs tell something)."""
    out = {} if code is None else {"card": C.format_card(code)}
    if down or code is None:
        out["down"] = True
    if back is not None:
        out["back"] = back
    return out


def value(v: int, down: bool = False) -> dict:
    """A card of a game that reads values only (its state keeps no suits): its rank alone."""
    out = {"card": C.RANKS[v - 1]}
    if down:
        out["down"] = True
    return out


def pile(name: str, cards: list, *, group: str | None = None, count: int | None = None,
         spread: bool = False) -> dict:
    out = {"name": name, "cards": list(cards)}
    if group is not None:
        out["group"] = group
    if count is not None:
        out["count"] = count
    if spread:
        out["spread"] = True
    return out


def deck(name: str, codes, seen_only: bool, *, top_seen: bool = False, group: str | None = "deck",
         as_value: bool = False) -> dict:
    """A deck given top first: open mode knows its order (every card listed, face down, bottom
    first); the player sees only its size, and its top card when ``top_seen``."""
    codes = list(codes)
    make = value if as_value else card
    if not seen_only:
        cards = [make(c, down=not (top_seen and i == 0)) for i, c in reversed(list(enumerate(codes)))]
        return pile(name, cards, group=group, count=len(codes))
    cards = [make(codes[0])] if top_seen and codes else []
    return pile(name, cards, group=group, count=len(codes))


def picture(piles: list, **facts) -> dict:
    out = {"piles": piles}
    if facts:
        out["facts"] = facts
    return out
