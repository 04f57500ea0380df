"""Cards: parsing, formatting and the canonical card order.

A card is a small int: ``suit * 13 + (rank - 1)`` for the 52 suited cards (suits in the
order S H D C, ranks A=1 … K=13), and 52 for a joker. Games that care only about values
convert with :func:`rank_of`.
"""
from __future__ import annotations

from .errors import DealError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52
_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def make_card(rank: int, suit: str) -> int:
    return SUITS.index(suit) * 13 + rank - 1


def rank_of(card: int) -> int:
    """Rank 1 (ace) … 13 (king); 0 for a joker."""
    return 0 if card == JOKER else card % 13 + 1


def suit_of(card: int) -> str:
    return "" if card == JOKER else SUITS[card // 13]


def is_red(card: int) -> bool:
    return suit_of(card) in ("H", "D")


def format_card(card: int) -> str:
    return "JK" if card == JOKER else RANKS[card % 13] + SUITS[card // 13]


def format_cards(cards) -> str:
    return " ".join(format_card(c) for c in cards)


def parse_card(text: str) -> int:
    """Parse ``AS``, ``10h``, ``T♦``, ``JK``; raise ValueError with a readable reason."""
    t = text.strip()
    if t.upper() in ("JK", "JOKER"):
        return JOKER
    if len(t) < 2:
        raise ValueError(f"'{text}' is not a card (expected rank then suit, like AS, TD, 9H or JK)")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = _SUIT_ALIASES.get(suit_text, suit_text.upper())
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit not in SUITS:
        raise ValueError(f"'{text}' is not a card (ranks A 2-9 T J Q K, suits S H D C, or JK)")
    return make_card(RANKS.index(rank_text) + 1, suit)


def parse_cards(text: str, *, source: str = "", field: str = "") -> list[int]:
    """Parse a space-separated card list; errors name the source, field and the card's position."""
    cards = []
    for i, word in enumerate(text.replace(",", " ").split(), start=1):
        try:
            cards.append(parse_card(word))
        except ValueError as exc:
            raise DealError(source, field, f"card {i}: {exc}") from None
    return cards


def parse_faced_cards(text: str, *, source: str = "", field: str = "") -> list[tuple[int, bool]]:
    """Parse a card list where a face-down card is in parentheses, e.g. ``"7C (KS) JK"``:
    [(card, face up?)]; errors as parse_cards'."""
    cards = []
    for i, word in enumerate(text.replace(",", " ").split(), start=1):
        down = word.startswith("(") and word.endswith(")")
        try:
            cards.append((parse_card(word[1:-1] if down else word), not down))
        except ValueError as exc:
            raise DealError(source, field, f"card {i}: {exc}") from None
    return cards


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask (bit c = card c), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    """The bit mask of some cards (bit c = card c)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def standard_deck(*, number_cards_only: bool = False, jokers: int = 0) -> list[int]:
    """A deck in canonical order: S H D C, each A … K (A … T with number_cards_only), then jokers."""
    top = 10 if number_cards_only else 13
    return [s * 13 + r for s in range(4) for r in range(top)] + [JOKER] * jokers


def parse_number_value(token: str) -> int:
    """A number card's value (A=1 ... T=10) written as a rank (5, T, 10, A) or as a card whose
    suit is ignored (5D): for games where only values matter."""
    t = token.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANKS[:10]:
        return RANKS.index(t) + 1
    try:
        card = parse_card(t)
    except ValueError:
        raise ValueError(f"'{token}' is not a value (A 2-9 T, or a card like 5D)") from None
    if not 1 <= rank_of(card) <= 10:
        raise ValueError(f"'{token}' is not a number card (A-T only)")
    return rank_of(card)
