"""Dungeon, the solo dungeon crawl (seed 004): the pure-Python reference engine. Rules page:
docs/rules/dungeon.md.

A card is solodeck.cards' int (suit * 13 + value - 1). A♠ and K♦ are set aside; the other 50
cards are the deck, its first card the SKILL. Only values ever matter (suits only fix the
canonical order of the seeded reshuffles).

A round is a sequence of steps: OFFER (a chance node per card: the monster, or 1 + s cards to
choose it from), CHOOSE (the monster among the offer; the rest go back and the deck is
reshuffled), DEAL (a chance node per card: three attacks, then the player's three) and PAIR (how
the player's cards meet the attacks). After the pairing the attacks and the player's cards go
back and the deck is reshuffled. Draws keep the rest of the deck in its order (the first copy of
the drawn value leaves), so one key serves open mode (the dealt card) and blind mode (any value
of the composition), as in The Emissary.

Reshuffles are seeded (RULINGS.md, Common): the pile is sorted and shuffled with stream n of the
deal's seed, n counting the game's reshuffles from 1. They happen in the constructor, as forced
steps, like the monster of a one-card offer.

Geometry (exact, no tolerance): a path point is (ax + bx·√3)/2, (ay + by·√3)/2 with integers
ax, bx, ay, by; a card adds its clock hand's unit vector, whose coordinates are 0, ±1/2, ±√3/2
or ±1. Whether a card's segment meets the K♦ rectangle is decided by the separating-axis test
with every comparison made exactly in Q(√3) (``meets``).
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ... import cards as C
from ... import picture as P
from ...api import NO_WIN, Outcome, check_exact_pile, without_first
from ...api import State as BaseState
from ...errors import MoveError
from ...shuffle import shuffled
from . import values as DV

ACE_OF_SPADES = C.make_card(1, "S")
KING_OF_DIAMONDS = C.make_card(13, "D")
DECK_CARDS = tuple(c for c in C.standard_deck() if c not in (ACE_OF_SPADES, KING_OF_DIAMONDS))
KING = 13
ROUND_CARDS = 6          # three attacks and the player's three cards
HALF_WIDTH = Fraction(357, 1000)  # RULINGS: x in [-0.357, 0.357] (the card's width 2.5/3.5, halved and rounded)
DISTANCES = (4, 3)
OFFER, CHOOSE, DEAL, PAIR = range(4)
SQRT3 = math.sqrt(3.0)

# A clock hand's unit vector as (ax, bx, ay, by): x = (ax + bx√3)/2, y = (ay + by√3)/2; value v
# points at v o'clock (12 straight up, 3 right), i.e. (sin 30v°, cos 30v°).
UNIT = {12: (0, 0, 2, 0), 1: (1, 0, 0, 1), 2: (0, 1, 1, 0), 3: (2, 0, 0, 0), 4: (0, 1, -1, 0),
        5: (1, 0, 0, -1), 6: (0, 0, -2, 0), 7: (-1, 0, 0, -1), 8: (0, -1, -1, 0), 9: (-2, 0, 0, 0),
        10: (0, -1, 1, 0), 11: (-1, 0, 0, 1)}
ORIGIN = (0, 0, 0, 0)

def value(card: int) -> int:
    return card % 13 + 1


def step_point(point: tuple, v: int) -> tuple:
    u = UNIT[v]
    return (point[0] + u[0], point[1] + u[1], point[2] + u[2], point[3] + u[3])


def path_points(values) -> tuple:
    """The end point of each path card in turn (the path starts at A♠'s top edge, the origin)."""
    points, point = [], ORIGIN
    for v in values:
        point = step_point(point, v)
        points.append(point)
    return tuple(points)


def to_float(point: tuple) -> tuple[float, float]:
    return (point[0] + point[1] * SQRT3) / 2, (point[2] + point[3] * SQRT3) / 2


# -- exact arithmetic in Q(√3): a number is (p, q), meaning p + q√3 with p, q rational ----------------
def sign(p, q) -> int:
    """The sign of p + q√3, exactly: when p and q differ in sign, compare p² with 3q² (never equal
    unless both are 0, as √3 is irrational)."""
    if p >= 0 and q >= 0:
        return 0 if p == 0 and q == 0 else 1
    if p <= 0 and q <= 0:
        return -1
    return (1 if p > 0 else -1) if p * p > 3 * q * q else (1 if q > 0 else -1)


def compare(a, b) -> int:
    """-1, 0 or 1 as a <, =, > b (numbers of Q(√3))."""
    return sign(a[0] - b[0], a[1] - b[1])


def _half(a: int, b: int):
    """(a + b√3)/2 as a number."""
    return (Fraction(a, 2), Fraction(b, 2))


def _times(unit, number):
    """(a + b√3)/2 × (p + q√3) for a unit coordinate (a, b)."""
    a, b = unit
    p, q = number
    return (Fraction(a * p + 3 * b * q) / 2, Fraction(a * q + b * p) / 2)


def _plus(x, y):
    return (x[0] + y[0], x[1] + y[1])


def _separated(values, low, high) -> bool:
    """Do the numbers ``values`` lie all below ``low`` or all above ``high``?"""
    return all(compare(v, low) < 0 for v in values) or all(compare(v, high) > 0 for v in values)


@lru_cache(maxsize=1 << 16)
def meets(start: tuple, v: int, distance: int, half_width: Fraction = HALF_WIDTH) -> bool:
    """Does the segment of length 1 from ``start`` towards v o'clock meet the closed rectangle
    x in [-w, w], y in [d, d + 1]? Touching an edge or a corner counts. Two convex sets are
    disjoint exactly when their projections on one of the axes x, y or the segment's normal are
    (separating-axis theorem: a rectangle's edges are normal to x and y, the segment's to n)."""
    u = UNIT[v]
    end = step_point(start, v)
    px, py = _half(start[0], start[1]), _half(start[2], start[3])
    qx, qy = _half(end[0], end[1]), _half(end[2], end[3])
    w = (half_width, Fraction(0))
    if _separated((px, qx), (-w[0], Fraction(0)), w):
        return False
    if _separated((py, qy), (Fraction(distance), Fraction(0)), (Fraction(distance + 1), Fraction(0))):
        return False
    # n = (-uy, ux), each coordinate (a + b√3)/2; the segment projects to the single number n·P
    nx, ny = (-u[2], -u[3]), (u[0], u[1])
    c = _plus(_times(nx, px), _times(ny, py))
    corners = [_plus(_times(nx, (x, Fraction(0))), _times(ny, (Fraction(y), Fraction(0))))
               for x in (-half_width, half_width) for y in (distance, distance + 1)]
    return not (all(compare(k, c) < 0 for k in corners) or all(compare(k, c) > 0 for k in corners))


@lru_cache(maxsize=1 << 16)
def gap(point: tuple, distance: int, half_width: float = float(HALF_WIDTH)) -> float:
    """The Euclidean distance from a point to the rectangle (a float: only ever used with a margin)."""
    x, y = to_float(point)
    dx = max(-half_width - x, 0.0, x - half_width)
    dy = max(distance - y, 0.0, y - distance - 1)
    return math.sqrt(dx * dx + dy * dy)  # not math.hypot: the kernel's C sqrt gives the same bits


def nearest(points, distance: int) -> float:
    """The least distance from K♦ of the path's points, the origin included: a winning path keeps
    some part of this one (up to one of these points; negative rounds can cut back to any) and
    adds cards of length 1 from there, so it needs at least this many more cards."""
    return min(gap(ORIGIN, distance), *(gap(p, distance) for p in points)) if points else gap(ORIGIN, distance)


def round_score(skill: int, monster: int, pairs) -> int:
    """+1 for each pair (attack, player's card) where the player's SKILL + card beats the monster's
    SKILL + attack, -1 for each it loses, 0 for a tie."""
    total = 0
    for attack, mine in pairs:
        ours, theirs = skill + value(mine), value(monster) + value(attack)
        total += (ours > theirs) - (ours < theirs)
    return total


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """``monster`` (``card`` = the offered card chosen) or ``pair`` (``pairs`` = ((attack,
    player's card), ...) sorted by the attack)."""

    kind: str
    card: int = -1
    pairs: tuple = ()

    def __str__(self):
        if self.kind == "monster":
            return f"monster {C.format_card(self.card)}"
        return "pair " + " ".join(f"{C.format_card(mine)}:{C.format_card(attack)}" for attack, mine in self.pairs)


def pairing(mine, attacks) -> Move:
    """The move that sets ``mine[i]`` against ``attacks[i]``."""
    return Move("pair", pairs=tuple(sorted(zip(attacks, mine))))


_EXPECTED = "expected 'monster 9D' or 'pair 7D:4H 2C:JH QC:6C' (each of your cards : the attack it meets)"


def parse_move(text: str) -> Move:
    words = text.strip().split()
    if len(words) == 2 and words[0].lower() == "monster":
        try:
            return Move("monster", C.parse_card(words[1]))
        except ValueError as exc:
            raise MoveError(f"'{text}': {exc}") from None
    if len(words) == 4 and words[0].lower() == "pair":
        pairs = []
        for word in words[1:]:
            m = re.fullmatch(r"([^:]+):([^:]+)", word)
            if not m:
                raise MoveError(f"'{text}': '{word}' is not a pair ({_EXPECTED})")
            try:
                pairs.append((C.parse_card(m.group(2)), C.parse_card(m.group(1))))
            except ValueError as exc:
                raise MoveError(f"'{text}': {exc}") from None
        if len({c for p in pairs for c in p}) != 6:
            raise MoveError(f"'{text}': six different cards are paired ({_EXPECTED})")
        return Move("pair", pairs=tuple(sorted(pairs)))
    raise MoveError(f"'{text}' is not a Dungeon move ({_EXPECTED})")


# -- the state ------------------------------------------------------------------------------------
class State(BaseState):
    """A position. ``skill``: the SKILL card; ``distance``: the rows of cards between A♠ and K♦;
    ``path``: the dungeon's cards from A♠ out; ``points``: each path card's end point; ``deck``:
    top first; ``discard``: sorted; ``extra``: the cards offered beside the monster this round
    (the previous round's score if positive); ``offer``, ``monster``, ``attacks``, ``hand``: this
    round's cards as dealt; ``shuffles``: reshuffles so far; ``result``: "won", "lost" or None."""

    __slots__ = ("skill", "distance", "path", "points", "deck", "discard", "extra", "step", "offer", "monster",
                 "attacks", "hand", "shuffles", "seed", "result", "_moves", "_key")

    def __init__(self, skill, distance, path, deck, discard=(), extra=0, step=OFFER, offer=(), monster=-1,
                 attacks=(), hand=(), shuffles=0, seed=0, result=None, points=None):
        while result is None:  # the forced steps
            if step == OFFER and not offer and len(deck) < 1 + ROUND_CARDS:
                result = "lost"  # RULINGS: a round that cannot be dealt in full is a loss
            elif step == OFFER and len(offer) == 1 + extra:
                if extra:
                    step = CHOOSE
                else:  # nothing to choose: the one card is the monster
                    step, monster, offer = DEAL, offer[0], ()
            elif step == DEAL and len(attacks) + len(hand) == ROUND_CARDS:
                step = PAIR
            else:
                break
        self.skill, self.distance, self.path = skill, distance, path
        self.points = points if points is not None else path_points(value(c) for c in path)
        self.deck, self.discard, self.extra, self.step = deck, discard, extra, step
        self.offer, self.monster, self.attacks, self.hand = offer, monster, attacks, hand
        self.shuffles, self.seed, self.result = shuffles, seed, result
        self._moves = self._key = None

    def _with(self, **changes) -> "State":
        fields = {name: getattr(self, name) for name in ("skill", "distance", "path", "deck", "discard", "extra",
                                                         "step", "offer", "monster", "attacks", "hand", "shuffles",
                                                         "seed", "result", "points")}
        fields.update(changes)
        return State(**fields)

    def end(self) -> tuple:
        """The path's end point (A♠'s top edge, the origin, when the path is empty)."""
        return self.points[-1] if self.points else ORIGIN

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return self.result is None and self.step in (OFFER, DEAL)

    def chance_outcomes(self):
        """A card of each value in the deck (the first one), weighted by how many the deck holds:
        only values matter."""
        counts, first = {}, {}
        for card in self.deck:
            v = value(card)
            counts[v] = counts.get(v, 0) + 1
            first.setdefault(v, card)
        return [(first[v], counts[v]) for v in sorted(counts)]

    def dealt_outcome(self):
        return self.deck[0]

    def apply_chance(self, card):
        first = next(c for c in self.deck if value(c) == value(card))  # the value's first copy leaves
        deck = without_first(self.deck, first)
        if self.step == OFFER:
            return self._with(deck=deck, offer=self.offer + (first,))
        if len(self.attacks) < 3:
            return self._with(deck=deck, attacks=self.attacks + (first,))
        return self._with(deck=deck, hand=self.hand + (first,))

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if self.result is None:
            return None
        return Outcome(self.result == "won")

    def legal_moves(self):
        if self._moves is None:
            if self.result is not None or self.is_chance():
                self._moves = []
            elif self.step == CHOOSE:
                self._moves = [Move("monster", c) for c in self.offer]
            else:
                self._moves = sorted({pairing(p, self.attacks) for p in itertools.permutations(self.hand)})
        return self._moves

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        if move.kind == "monster":
            rest = tuple(c for c in self.offer if c != move.card)
            shuffles = self.shuffles + 1  # the other offered cards go back; the deck is shuffled
            deck = tuple(shuffled(sorted(self.deck + rest), self.seed, shuffles))
            return self._with(step=DEAL, offer=(), monster=move.card, deck=deck, shuffles=shuffles)
        return self.after_round(round_score(value(self.skill), self.monster, move.pairs))

    def after_round(self, score: int) -> "State":
        """The end of the round the pairing scored ``score``: the monster to the path (a win if it
        meets K♦) or the discard pile, path cards removed, the round's cards back, a reshuffle."""
        path, points, discard, result = self.path, self.points, self.discard, None
        if score > 0 and value(self.monster) != KING:
            start = self.end()
            path = path + (self.monster,)
            points = points + (step_point(start, value(self.monster)),)
            if meets(start, value(self.monster), self.distance):
                result = "won"
        else:
            discard = discard + (self.monster,)
            if score < 0:  # the last -score cards of the path go; A♠ stays
                keep = max(0, len(path) + score)
                discard, path, points = discard + path[keep:], path[:keep], points[:keep]
        shuffles, deck = self.shuffles, self.deck
        if result is None:
            shuffles += 1
            deck = tuple(shuffled(sorted(deck + self.attacks + self.hand), self.seed, shuffles))
        return State(self.skill, self.distance, path, deck, tuple(sorted(discard)), max(score, 0), OFFER,
                     shuffles=shuffles, seed=self.seed, result=result, points=points)

    # -- search support ----------------------------------------------------------------------
    def deck_at_round_start(self) -> int:
        """The deck's size when this round began."""
        if self.step in (OFFER, CHOOSE):
            return len(self.deck) + len(self.offer)
        return len(self.deck) + 1 + len(self.attacks) + len(self.hand)

    def rounds_left(self) -> int:
        """At most how many rounds (this one included) can still be played: each takes its
        monster out of the deck, and a round needs 7 cards."""
        return max(0, self.deck_at_round_start() - ROUND_CARDS)

    def score_bound(self):
        """No score: 0 while a win is possible, NO_WIN when every point of the path (the origin
        included) is farther from K♦ than the cards that rounds still to come could add (each adds
        at most one, of length 1; a winning path is a part of this one up to some point, then new
        cards). The float distance is compared with a margin far above its rounding error."""
        if self.result is not None:
            return 0 if self.result == "won" else NO_WIN
        if nearest(self.points, self.distance) > self.rounds_left() + 1e-9:
            return NO_WIN
        return 0

    def safe_move(self):
        """A pairing when nothing can turn on it (the blind policy then skips its rollouts): every
        pairing scores alike (they all lead to the same position), or no win is possible at all
        (score_bound: every point of the path farther from K♦ than the rounds left)."""
        if self.result is not None or self.step != PAIR:
            return None
        moves = self.search_moves()
        if len(moves) == 1 or self.score_bound() == NO_WIN:
            return moves[0]
        return None

    def round_outcomes(self) -> dict:
        """{score: a pairing that scores it} over every pairing: pairings with equal scores lead to
        the same position (the score alone decides what the round does)."""
        out = {}
        for move in self.legal_moves():
            out.setdefault(round_score(value(self.skill), self.monster, move.pairs), move)
        return out

    def search_moves(self):
        """One pairing per round score; the moves that bring the path's end nearest K♦ first
        (a win first of all), then the larger score (a larger offer next round)."""
        if self.step == CHOOSE:
            return sorted(self.legal_moves(), key=lambda m: self._promise(m.card, 1))
        outcomes = self.round_outcomes()
        return [outcomes[s] for s in sorted(outcomes, key=lambda s: (self._promise(self.monster, s), -s))]

    def _promise(self, monster: int, score: int) -> float:
        """How far from K♦ the path's end would be after ``monster`` scored ``score`` (a win -1)."""
        if score > 0 and value(monster) != KING:
            if meets(self.end(), value(monster), self.distance):
                return -1.0
            return gap(step_point(self.end(), value(monster)), self.distance)
        if score < 0:
            keep = max(0, len(self.points) + score)
            return gap(self.points[keep - 1] if keep else ORIGIN, self.distance)
        return gap(self.end(), self.distance)

    def heuristic(self):
        return -gap(self.end(), self.distance)

    # -- the blind rule (Dungeon.blind_rule, blind.py; values.py's table) --------------------
    def _table_value(self, table, extra: int, keep: int) -> float:
        """The table after this round, the path cut to its first ``keep`` cards."""
        last = value(self.path[keep - 1]) if keep else 0
        return table.value(self.rounds_left(), extra, last, to_float(self.points[keep - 1] if keep else ORIGIN))

    def choice_worth(self, table, v: int) -> float:
        """The rule's worth of taking an offered monster of value v: the table's round against it
        (values.monster_worth) from the real path: its end, the point before it, and
        whether v's card meets K♦ (tested exactly)."""
        length = len(self.path)
        stay = self._table_value(table, 0, length)
        back = self._table_value(table, 0, length - 1) if length else stay
        up = [0.0] * 4
        for t in range(1, 4):
            if v == KING:
                up[t] = self._table_value(table, t, length)
            elif meets(self.end(), v, self.distance):
                up[t] = 1.0
            else:
                up[t] = table.value(self.rounds_left(), t, v, to_float(step_point(self.end(), v)))
        return DV.monster_worth(table.classes, v, stay, back, up)

    def score_worth(self, table, score: int) -> float:
        """The rule's worth of ending the round with ``score``: 2 for a win (above any chance), else
        the table at the path's new end (cut back, exactly) with the offer the score makes."""
        v, length = value(self.monster), len(self.path)
        if score > 0 and v != KING:
            if meets(self.end(), v, self.distance):
                return 2.0
            return table.value(self.rounds_left(), score, v, to_float(step_point(self.end(), v)))
        return self._table_value(table, max(score, 0), max(0, length + min(score, 0)))

    def rule_move(self, table):
        """The blind rule: the offered monster and the round score of the best worth in the value
        table (choice_worth, score_worth); among equal worths the baseline's move."""
        if self.step == CHOOSE:
            return min(self.legal_moves(), key=lambda m: (-self.choice_worth(table, value(m.card)),
                                                          self._promise(m.card, 1), value(m.card), m.card))
        outcomes = self.round_outcomes()
        order = sorted(outcomes, key=lambda s: (self._promise(self.monster, s), -s))  # the baseline's
        return outcomes[max(order, key=lambda s: self.score_worth(table, s))]  # the first of the best

    def key(self):
        """The deck in its order (it fixes the future, reshuffles included, with the shuffle
        count); the path by values (its cards are out of the deck wherever they go); the round's
        cards; the discard pile never matters again."""
        if self._key is None:
            self._key = (self.step, self.deck, tuple(value(c) for c in self.path), self.extra, self.offer,
                         value(self.monster) if self.monster >= 0 else 0, self.attacks, self.hand, self.shuffles,
                         self.result)
        return self._key

    def view(self):
        """What a blind player knows: the deck by the number of cards of each value (its order is
        chance), the path, the offer and the round's cards by values."""
        counts = [0] * 14
        for card in self.deck:
            counts[value(card)] += 1
        return (self.step, tuple(counts), tuple(value(c) for c in self.path), self.extra,
                tuple(sorted(value(c) for c in self.offer)), value(self.monster) if self.monster >= 0 else 0,
                tuple(sorted(value(c) for c in self.attacks)), tuple(sorted(value(c) for c in self.hand)),
                value(self.skill), self.distance, self.result)

    def table_scope(self):
        return (self.seed, self.skill, self.distance)

    def picture(self, seen_only=False):
        """SKILL, the A♠ and the path from it (in order), the offer or the round's monster,
        attacks and your cards, the deck and the discard pile; the path's end as a fact."""
        x, y = to_float(self.end())
        piles = [P.pile("SKILL", [P.card(self.skill)], group="dungeon"),
                 P.pile("path", [P.card(c) for c in self.path], group="dungeon", spread=True)]
        if self.step == CHOOSE:
            piles.append(P.pile("offer", [P.card(c) for c in self.offer], group="round", spread=True))
        elif self.monster >= 0:
            piles += [P.pile("monster", [P.card(self.monster)], group="round"),
                      P.pile("attacks", [P.card(c) for c in self.attacks], group="round", spread=True),
                      P.pile("yours", [P.card(c) for c in self.hand], group="round", spread=True)]
        piles += [P.deck("deck", self.deck, seen_only, group="piles"),
                  P.pile("discard", [P.card(c) for c in self.discard], group="piles")]
        return P.picture(piles, distance=self.distance, **{"path end": f"x {x:+.3f}, y {y:.3f}"})

    def __str__(self):
        x, y = to_float(self.end())
        lines = [f"SKILL {C.format_card(self.skill)}, distance {self.distance}, deck {len(self.deck)}, "
                 f"reshuffles {self.shuffles}",
                 f"path: {C.format_cards(self.path) or '(empty)'}  (end at x {x:+.3f}, y {y:.3f})"]
        if self.step == CHOOSE:
            lines.append(f"offer: {C.format_cards(self.offer)}")
        elif self.monster >= 0:
            lines.append(f"monster {C.format_card(self.monster)}; attacks {C.format_cards(self.attacks)}; "
                         f"yours {C.format_cards(self.hand)}")
        if self.result is not None:
            lines.append(self.result)
        return "\n".join(lines)


# -- the deal -------------------------------------------------------------------------------------
def seeded_piles(seed) -> dict:
    return {"deck": shuffled(list(DECK_CARDS), seed)}


def check_piles(piles, source):
    check_exact_pile(piles["deck"], list(DECK_CARDS), source, "deck")


def first_state(piles, seed: int, distance: int) -> State:
    """The game's first position: the deck's first card is the SKILL, the rest the deck."""
    deck = tuple(piles["deck"])
    return State(deck[0], distance, (), deck[1:], seed=seed)
