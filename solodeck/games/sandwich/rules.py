"""The Sandwich Guy (Isaludo): the pure-Python reference engine. Rules page: docs/rules/sandwich-guy.md.

A card is solodeck's int (suit * 13 + rank - 1, suits S H D C). For the sandwich test a card's
value is ``card % 13`` (A=0 ... K=12): the rule is "y - x = z - y (mod 13)", which a shift of
every value leaves unchanged, so rank - 1 serves as well as rank.

A position is the hand (a set), the deck (top first) and the number of cards still to draw after
the last discard (``draw`` > 0: a chance node). The draw is one chance node over *sets*: every
``draw``-subset of the deck is equally likely (weight 1). Drawing removes those cards and keeps
the rest of the deck in deal order, so the remaining order depends only on which cards were
drawn, and one key serves open mode (the deck's next cards) and blind mode (any subset).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from math import comb

from ... import cards as C
from ... import picture as P
from ...api import Outcome
from ...api import State as BaseState
from ...errors import MoveError

HAND_LIMIT = 8
HAND_START = 8
DRAW_SUIT, DRAW_COLOUR, DRAW_MIXED = 4, 3, 2
BLACK = (0, 3)  # spades, clubs (suit index in cards.SUITS = "SHDC"); hearts 1, diamonds 2 are red


def _completions():
    """COMPLETE[a][b]: the values c (0..12) that make {a, b, c} a sandwich, as a bit mask."""
    table = [[0] * 13 for _ in range(13)]
    for a in range(13):
        for b in range(13):
            if a == b:
                table[a][b] = 1 << a  # three of one value
            else:  # a or b in the middle, or c = the midpoint (2 is invertible mod 13: 2 * 7 = 14)
                for c in ((2 * b - a) % 13, (2 * a - b) % 13, (a + b) * 7 % 13):
                    table[a][b] |= 1 << c
    return table


COMPLETE = _completions()


def is_sandwich(a: int, b: int, c: int) -> bool:
    """Do the cards a, b, c (card ints) form a sandwich?"""
    return bool(COMPLETE[a % 13][b % 13] >> (c % 13) & 1)


def draw_count(cards) -> int:
    """Cards drawn after discarding ``cards`` (before the hand limit and the deck's size)."""
    suits = {c // 13 for c in cards}
    if len(suits) == 1:
        return DRAW_SUIT
    if len({s in BLACK for s in suits}) == 1:
        return DRAW_COLOUR
    return DRAW_MIXED


@dataclass(frozen=True, order=True)
class Sandwich:
    """Discard three hand cards (kept in solodeck's canonical card order)."""

    cards: tuple

    def __str__(self):
        return "sandwich " + C.format_cards(self.cards)


_MOVE_RE = re.compile(r"^\s*(?:sandwich\s+)?(.*)$", re.IGNORECASE)


def parse_move(text: str) -> Sandwich:
    words = _MOVE_RE.match(text).group(1).replace(",", " ").split()
    try:
        cards = [C.parse_card(w) for w in words]
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    if len(cards) != 3 or len(set(cards)) != 3 or C.JOKER in cards:
        raise MoveError(f"'{text}' is not a Sandwich Guy move (expected 'sandwich' and three different "
                        "cards, e.g. 'sandwich AC 3C 5C')")
    return Sandwich(tuple(sorted(cards)))


# -- symmetries ----------------------------------------------------------------------------
# Values: v -> a*v + b (mod 13), a != 0 (156 maps). Suits: the 8 permutations that keep the
# colours apart (rename within a colour, swap the colours). IMAGE[vm][sp][card] is the image.
VALUE_MAPS = [(a, b) for a in range(1, 13) for b in range(13)]
SUIT_PERMS = [p for p in ((0, 1, 2, 3), (3, 1, 2, 0), (0, 2, 1, 3), (3, 2, 1, 0),
                          (1, 0, 3, 2), (2, 0, 3, 1), (1, 3, 0, 2), (2, 3, 0, 1))]
_INVERSE = {a: pow(a, -1, 13) for a in range(1, 13)}
_IMAGES: dict = {}


def image_table(a: int, b: int, perm) -> tuple:
    """The 52-entry table of card -> its image under v -> a*v+b, suits permuted by ``perm``."""
    key = (a, b, perm)
    table = _IMAGES.get(key)
    if table is None:
        table = _IMAGES[key] = tuple(perm[c // 13] * 13 + (a * (c % 13) + b) % 13 for c in range(52))
    return table


def _value_candidates(deck):
    """Value maps sending the deck's first value to 0 and its first other value to 1."""
    if not deck:
        return None  # every map: the hand decides
    u0 = deck[0] % 13
    for c in deck:
        if c % 13 != u0:
            a = _INVERSE[(c % 13 - u0) % 13]
            return [(a, -a * u0 % 13)]
    return [(a, -a * u0 % 13) for a in range(1, 13)]


def _suit_candidates(deck):
    """Suit permutations sending the deck's first suit to S and the first suit of the other
    colour to H (suits are 0..3 in cards.SUITS order)."""
    if not deck:
        return None
    s0 = deck[0] // 13
    perms = [p for p in SUIT_PERMS if p[s0] == 0]
    for c in deck:
        if (c // 13 in BLACK) != (s0 in BLACK):
            return [p for p in perms if p[c // 13] == 1]
    return perms


_HAND_KEYS: dict = {}


def _hand_only_key(hand):
    """The canonical form of a hand with no deck: the least sorted image over all 1,248 maps.
    The least image starts with a card mapped to AS (value 0, suit S), so only maps sending some
    hand card there are tried (24 per card)."""
    key = _HAND_KEYS.get(hand)
    if key is None:
        best = None
        for c in hand:
            v, s = c % 13, c // 13
            for a in range(1, 13):
                for perm in SUIT_PERMS:
                    if perm[s] == 0:
                        table = image_table(a, -a * v % 13, perm)
                        form = tuple(sorted(table[x] for x in hand))
                        if best is None or form < best:
                            best = form
        key = best or ()
        if len(_HAND_KEYS) > 200_000:
            _HAND_KEYS.clear()
        _HAND_KEYS[hand] = key
    return key


def canonical(hand: frozenset, deck: tuple):
    """(hand image sorted, deck image in order) under a canonical symmetry. The deck fixes the
    map almost always (its first value -> A, its first other value -> 2, its first suit -> S, the
    first suit of the other colour -> H); the few maps it leaves are compared on the hand."""
    if not deck:
        return _hand_only_key(hand), ()
    candidates = [(a, b, p) for a, b in _value_candidates(deck) for p in _suit_candidates(deck)]
    best = None
    for a, b, p in candidates:
        table = image_table(a, b, p)
        form = (tuple(sorted(table[c] for c in hand)), tuple(table[c] for c in deck))
        if best is None or form < best:
            best = form
    return best


class State(BaseState):
    """A Sandwich Guy position: ``hand`` (frozenset of cards), ``deck`` (top first), ``draw``
    (cards still to draw after the last discard; 0 at a decision)."""

    __slots__ = ("hand", "deck", "draw", "_moves", "_key")

    def __init__(self, hand, deck: tuple, draw: int = 0):
        self.hand = frozenset(hand)
        self.deck = tuple(deck)
        self.draw = draw
        self._moves = None
        self._key = None

    # -- chance --------------------------------------------------------------------------------
    def is_chance(self):
        return self.draw > 0

    def chance_outcomes(self):
        """Every ``draw``-subset of the deck, weight 1 each (the subsets are equally likely)."""
        return [(combo, 1) for combo in combinations(sorted(self.deck), self.draw)]

    def chance_count(self):
        return comb(len(self.deck), self.draw)

    def sample_chance(self, rng):
        """A uniform ``draw``-subset without listing them all: a partial Fisher-Yates shuffle of
        the deck in canonical card order (never its dealt order), position i swapped with
        i + next() mod (n - i). ext/sandwich.pyx samples the same way."""
        cards = sorted(self.deck)
        n = len(cards)
        for i in range(self.draw):
            j = i + rng.next() % (n - i)
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(sorted(cards[:self.draw]))

    def dealt_outcome(self):
        return tuple(sorted(self.deck[:self.draw]))

    def apply_chance(self, drawn):
        drawn = set(drawn)
        return State(self.hand | drawn, tuple(c for c in self.deck if c not in drawn), 0)

    # -- decisions -----------------------------------------------------------------------------
    def legal_moves(self):
        if self._moves is None:
            moves = []
            if not self.draw:
                hand = sorted(self.hand)
                for i, a in enumerate(hand):
                    for j in range(i + 1, len(hand)):
                        mask = COMPLETE[a % 13][hand[j] % 13]
                        for c in hand[j + 1:]:
                            if mask >> (c % 13) & 1:
                                moves.append(Sandwich((a, hand[j], c)))
            self._moves = moves
        return self._moves

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        hand = self.hand.difference(move.cards)
        n = min(draw_count(move.cards), HAND_LIMIT - len(hand), len(self.deck))
        return State(hand, self.deck, n)

    def outcome(self):
        if self.draw or self.legal_moves():
            return None
        if not self.deck:  # the last card was drawn: a win, scored by the cards left in hand
            return Outcome(True, len(self.hand))
        return Outcome(False, None)

    # -- search support ------------------------------------------------------------------------
    def key(self):
        """The position under a canonical symmetry (suits within and across colours, affine value
        maps; see canonical()), and the cards still to draw."""
        if self._key is None:
            self._key = (*canonical(self.hand, self.deck), self.draw)
        return self._key

    def view(self):
        """What a blind player knows: the hand and the deck's composition, never its order (key()
        reads the order), under a symmetry chosen from the composition alone. Blind searches key
        on it, so two positions a player cannot tell apart store the same states."""
        return (*canonical(self.hand, tuple(sorted(self.deck))), self.draw)

    def score_bound(self):
        """Hand plus deck drops by exactly 3 a turn (three discarded, draws only move cards from
        the deck to the hand), so the final hand is congruent to it mod 3: the least possible."""
        if not self.draw and not self.deck and not self.legal_moves():
            return len(self.hand)
        return (len(self.hand) + len(self.deck)) % 3

    def picture(self, seen_only=False):
        """The hand and the deck."""
        hand = sorted(self.hand, key=lambda c: (c % 13, c // 13))
        piles = [P.pile("hand", [P.card(c) for c in hand], group="hand", spread=True),
                 P.deck("deck", self.deck, seen_only)]
        return P.picture(piles, **({"to draw": self.draw} if self.draw else {}))

    def __str__(self):
        hand = C.format_cards(sorted(self.hand, key=lambda c: (c % 13, c // 13)))
        deck = f"deck: {len(self.deck)} cards" if self.deck else "deck: run out"
        pending = f"; {self.draw} to draw" if self.draw else ""
        return f"hand ({len(self.hand)}): {hand}\n{deck}{pending}"


def first_state(piles) -> State:
    """The game's first position: the deck's top 8 cards are the hand."""
    deck = list(piles["deck"])
    return State(deck[:HAND_START], tuple(deck[HAND_START:]))
