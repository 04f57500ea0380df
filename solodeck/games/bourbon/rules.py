"""Bourbon (a Gin Rummy for 2 players, Foresight rules): the pure-Python reference engine, for
open-hand analysis of one hand. Rules page: docs/rules/bourbon.md.

A card is solodeck.cards' int (suit * 13 + rank - 1; suits S H D C; aces low); a set of cards is
a bit mask (bit ``card``). Meld arithmetic works on masks: MELDS lists every group (three or four
of a rank) and every sequence (three or more consecutive ranks of a suit, no wrap), and
``deadwood(mask)`` is the least deadwood of a hand, by a memoised recursion that decides the
lowest card of the hand (deadwood, or the lowest card of one meld that fits in the hand).

A hand is played as plies, two per turn: a draw (``draw up``, ``draw 7H`` for a face-down card,
``pass`` on the first turn's offers of the face-up card) and then ``discard X`` or ``knock X``
(knock, discard X and spread). Seats: 0 and 1; the ``dealer`` option (default 1) says who dealt,
and the other seat has the first turn. The three available face-down cards are a set (``avail``):
whichever is drawn, the deck's next card takes its place, so the slots' identities never matter.

The end of a hand is scored here, not played: after a knock the knocker spreads an arrangement
melding the most cards, the least deadwood among those (RULINGS; ``knock_spreads``: the one best
for them where several tie), and a knock needs that spread's deadwood at most 10
(``knock_deadwood``); the other player then spreads any arrangement and lays off, to their best.
A knock's value is exact minimax over those choices (``knock_net``).

Positions repeat (drawing the face-up card leaves the deck as it is), so a reading makes every
hand finite: the hand is cancelled at the start of a turn once the face-up card was drawn on
each of the last ``face_up_run`` turns (option, default 6: the shortest cycle of positions takes
six face-up draws). With the run length in the state the game is acyclic and
solvers/paranoid.py's alpha-beta with a table is exact for it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import cards as C
from ...cards import cards_of, mask_of
from ... import picture as P
from ...api import Deal, Outcome
from ...api import State as BaseState
from ...errors import DealError, MoveError
from ...shuffle import shuffled

HAND = 10
KNOCK_LIMIT = 10           # deadwood at most this to knock
BOURBON_BONUS = 20
UNDERCUT_BONUS = 10
FACE_BONUS = 3             # per jack, queen or king melded or laid off
ALL = (1 << 52) - 1
FACE_UP_RUN = 6            # default of the face_up_run option


def value(card: int) -> int:
    """Deadwood points: ace 1, 2-10 their face, J Q K 10."""
    return min(card % 13 + 1, 10)


def is_face(card: int) -> bool:
    return card % 13 >= 10


VALUES = tuple(value(c) for c in range(52))
FACES = sum(1 << c for c in range(52) if is_face(c))


def points(mask: int) -> int:
    return sum(VALUES[c] for c in cards_of(mask))


def faces(mask: int) -> int:
    return (mask & FACES).bit_count()


def _all_melds():
    melds = []
    for r in range(13):  # groups: three or four of a rank
        suits = [s * 13 + r for s in range(4)]
        for leave in range(-1, 4):
            chosen = [c for i, c in enumerate(suits) if i != leave]
            melds.append(mask_of(chosen))
    for s in range(4):  # sequences: three or more consecutive ranks of a suit, ace low, no wrap
        for lo in range(13):
            for hi in range(lo + 2, 13):
                melds.append(mask_of(s * 13 + r for r in range(lo, hi + 1)))
    return melds


MELDS = _all_melds()
# melds whose lowest card (in card order) is c: the recursion decides the hand's lowest card
MELDS_FROM = [[m for m in MELDS if (m & -m).bit_length() - 1 == c] for c in range(52)]


def is_group(meld: int) -> bool:
    return len({c % 13 for c in cards_of(meld)}) == 1


def is_meld(mask: int) -> bool:
    return mask in _MELD_SET


_MELD_SET = frozenset(MELDS)

_DEADWOOD: dict = {}


def deadwood(mask: int) -> int:
    """The least deadwood of the cards ``mask`` over every arrangement into melds."""
    d = _DEADWOOD.get(mask)
    if d is not None:
        return d
    if not mask:
        return 0
    low = mask & -mask
    c = low.bit_length() - 1
    best = VALUES[c] + deadwood(mask ^ low)
    for m in MELDS_FROM[c]:
        if m & mask == m and best:
            d = deadwood(mask ^ m)
            if d < best:
                best = d
    if len(_DEADWOOD) > 2_000_000:
        _DEADWOOD.clear()
    _DEADWOOD[mask] = best
    return best


def best_melds(cards) -> tuple[list, int]:
    """(melds, deadwood): an arrangement of ``cards`` (a mask or cards) with the least deadwood,
    each meld a sorted list of cards; among equal deadwood, the most jacks, queens and kings
    melded (the face-card bonus), then the first found."""
    mask = cards if isinstance(cards, int) else mask_of(cards)
    best = None
    for melds, dead in arrangements(mask, deadwood(mask)):
        rank = (dead, -sum(faces(m) for m in melds))
        if best is None or rank < best[0]:
            best = (rank, melds)
    return [sorted(cards_of(m)) for m in best[1]], best[0][0]


def arrangements(mask: int, limit: int = 1000):
    """Every arrangement of ``mask`` into melds (any set of disjoint melds: a player may leave a
    meldable card unmatched) whose deadwood is at most ``limit``: [(melds as masks, deadwood)]."""
    out = []

    def rec(rest, melds, dead):
        if not rest:
            out.append((tuple(melds), dead))
            return
        low = rest & -rest
        c = low.bit_length() - 1
        if dead + deadwood(rest) > limit:
            return
        for m in MELDS_FROM[c]:
            if m & rest == m:
                melds.append(m)
                rec(rest ^ m, melds, dead)
                melds.pop()
        if dead + VALUES[c] <= limit:
            rec(rest ^ low, melds, dead + VALUES[c])

    rec(mask, [], 0)
    return out


_SPREAD: dict = {}


def spread_rank(mask: int) -> tuple:
    """(-cards melded, deadwood), least in that order over every arrangement of ``mask``: the
    knocker's spread melds the most cards and, among those, leaves the least deadwood (RULINGS).
    The same recursion as ``deadwood``: the pair of a split is the sum of its parts' pairs, and a
    sum keeps the order of pairs, so the least pair of each rest makes the least pair."""
    r = _SPREAD.get(mask)
    if r is not None:
        return r
    if not mask:
        return (0, 0)
    low = mask & -mask
    c = low.bit_length() - 1
    n, d = spread_rank(mask ^ low)
    best = (n, d + VALUES[c])
    for m in MELDS_FROM[c]:
        if m & mask == m:
            n, d = spread_rank(mask ^ m)
            cand = (n - m.bit_count(), d)
            if cand < best:
                best = cand
    if len(_SPREAD) > 2_000_000:
        _SPREAD.clear()
    _SPREAD[mask] = best
    return best


def knock_deadwood(mask: int) -> int:
    """The deadwood a knocker holding ``mask`` spreads: that of the arrangement melding the most
    cards (least deadwood among those). A knock needs it at most 10: the text defines deadwood as
    the cards left out of that spread, and the limit is on deadwood."""
    return spread_rank(mask)[1]


def knock_spreads(mask: int) -> list:
    """Every arrangement the knocker may spread: [(melds as masks, deadwood)], each melding the
    most cards ``mask`` can meld, with the least deadwood among those (ties: the knocker picks)."""
    target = spread_rank(mask)
    out = []

    def rec(rest, melds, n, dead):
        if not rest:
            out.append((tuple(melds), dead))
            return
        rn, rd = spread_rank(rest)
        if (n + rn, dead + rd) != target:  # no completion reaches the knocker's pair
            return
        low = rest & -rest
        c = low.bit_length() - 1
        for m in MELDS_FROM[c]:
            if m & rest == m:
                melds.append(m)
                rec(rest ^ m, melds, n - m.bit_count(), dead)
                melds.pop()
        rec(rest ^ low, melds, n, dead + VALUES[c])

    rec(mask, [], 0, 0)
    return out


_FRONTIER: dict = {}


def frontier(mask: int) -> tuple:
    """The (deadwood, face cards melded) pairs of the arrangements of ``mask`` that no other
    arrangement beats on both (less or equal deadwood, at least as many face cards melded)."""
    f = _FRONTIER.get(mask)
    if f is not None:
        return f
    if not mask:
        return ((0, 0),)
    low = mask & -mask
    c = low.bit_length() - 1
    pairs = [(d + VALUES[c], n) for d, n in frontier(mask ^ low)]
    for m in MELDS_FROM[c]:
        if m & mask == m:
            k = faces(m)
            pairs += [(d, n + k) for d, n in frontier(mask ^ m)]
    pairs.sort(key=lambda p: (p[0], -p[1]))
    kept, most = [], -1
    for d, n in pairs:
        if n > most:
            kept.append((d, n))
            most = n
    f = tuple(kept)
    if len(_FRONTIER) > 1_000_000:
        _FRONTIER.clear()
    _FRONTIER[mask] = f
    return f


def _layoff_options(meld: int, other: int) -> list:
    """[mask of cards laid off on ``meld``] the other player (holding ``other``) may choose:
    nothing; the fourth card of a group of three; or, on a sequence, consecutive cards of its
    suit extending it downwards and/or upwards."""
    cs = cards_of(meld)
    if is_group(meld):
        if len(cs) == 4:
            return [0]
        r = cs[0] % 13
        fourth = [s * 13 + r for s in range(4) if not meld >> (s * 13 + r) & 1][0]
        return [0, 1 << fourth] if other >> fourth & 1 else [0]
    s, lo, hi = cs[0] // 13, cs[0] % 13, cs[-1] % 13
    downs, m = [0], 0
    for r in range(lo - 1, -1, -1):
        if not other >> (s * 13 + r) & 1:
            break
        m |= 1 << (s * 13 + r)
        downs.append(m)
    ups, m = [0], 0
    for r in range(hi + 1, 13):
        if not other >> (s * 13 + r) & 1:
            break
        m |= 1 << (s * 13 + r)
        ups.append(m)
    return [d | u for d in downs for u in ups]


def layoff_sets(melds, other: int) -> list:
    """Every set of the other player's cards that can be laid off on the knocker's ``melds``
    together (each card on one meld)."""
    sets = [0]
    for meld in melds:
        options = _layoff_options(meld, other)
        if len(options) > 1:
            sets = [s | o for s in sets for o in options if not s & o]
    return sets


_KNOCK: dict = {}


def knock_net(knocker: int, other: int) -> int:
    """The knocker's points minus the other player's after a knock with the 10 cards
    ``knocker``: the knocker spreads an arrangement melding the most cards (least deadwood among
    those; ``knock_spreads``), the one best for them where several tie, against the other's best
    reply; the other spreads any arrangement and the lay-offs best for them (lay-offs only when
    the knocker did not go bourbon)."""
    key = (knocker, other)
    net = _KNOCK.get(key)
    if net is not None:
        return net
    best = None
    for melds, dk in knock_spreads(knocker):
        if dk > KNOCK_LIMIT:
            break
        fk = sum(faces(m) for m in melds)
        if dk == 0:  # bourbon: no lay-offs, no undercut
            reply = max(FACE_BONUS * n - (BOURBON_BONUS + d) for d, n in frontier(other))
        else:
            reply = None
            for laid in layoff_sets(melds, other):
                fl = faces(laid)
                for d, n in frontier(other & ~laid):
                    win = dk - d + UNDERCUT_BONUS if d <= dk else -(d - dk)
                    v = win + FACE_BONUS * (n + fl)
                    if reply is None or v > reply:
                        reply = v
        v = FACE_BONUS * fk - reply
        if best is None or v > best:
            best = v
    if best is None:
        raise ValueError("knock_net: the knocker's spread leaves more than 10 deadwood")
    if len(_KNOCK) > 500_000:
        _KNOCK.clear()
    _KNOCK[key] = best
    return best


def knock_report(knocker: int, other: int) -> dict:
    """knock_net's choices spelled out: the knocker's spread, the other's spread and lay-offs,
    each side's deadwood and points (for hand reports and tests)."""
    best = None
    for melds, dk in knock_spreads(knocker):
        if dk > KNOCK_LIMIT:
            raise ValueError("knock_report: the knocker's spread leaves more than 10 deadwood")
        fk = sum(faces(m) for m in melds)
        reply = None
        for laid in ([0] if dk == 0 else layoff_sets(melds, other)):
            rest = other & ~laid
            for omelds, d in arrangements(rest):
                n = sum(faces(m) for m in omelds) + faces(laid)
                if dk == 0:
                    kwin, owin = BOURBON_BONUS + d, 0
                elif d <= dk:
                    kwin, owin = 0, dk - d + UNDERCUT_BONUS
                else:
                    kwin, owin = d - dk, 0
                kpts, opts = kwin + FACE_BONUS * fk, owin + FACE_BONUS * n
                if reply is None or opts - kpts > reply[0]:
                    reply = (opts - kpts, omelds, laid, d, kpts, opts)
        if best is None or -reply[0] > best[0]:
            best = (-reply[0], melds, dk, reply)
    net, melds, dk, (_n, omelds, laid, d, kpts, opts) = best
    return {"net": net, "knocker_melds": [sorted(cards_of(m)) for m in melds], "knocker_deadwood": dk,
            "bourbon": dk == 0, "other_melds": [sorted(cards_of(m)) for m in omelds],
            "laid_off": sorted(cards_of(laid)), "other_deadwood": d,
            "knocker_points": kpts, "other_points": opts}


# -- moves -------------------------------------------------------------------------------------
PASS, UP, DOWN, DISCARD, KNOCK = "pass", "up", "down", "discard", "knock"


@dataclass(frozen=True)
class Move:
    kind: str
    card: int = -1

    def __str__(self):
        if self.kind == PASS:
            return "pass"
        if self.kind == UP:
            return "draw up"
        if self.kind == DOWN:
            return "draw " + C.format_card(self.card)
        return f"{self.kind} {C.format_card(self.card)}"


_MOVE_RE = re.compile(r"^\s*(pass|draw|discard|knock)(?:\s+(\S+))?\s*$", re.IGNORECASE)


def parse_move(text: str) -> Move:
    m = _MOVE_RE.match(text)
    if not m:
        raise MoveError(f"'{text}' is not a Bourbon move (expected 'pass', 'draw up', 'draw 7H', "
                        "'discard 7H' or 'knock 7H')")
    word, arg = m.group(1).lower(), m.group(2)
    if word == "pass":
        if arg is not None:
            raise MoveError(f"'{text}': 'pass' takes no card")
        return Move(PASS)
    if arg is None:
        raise MoveError(f"'{text}': '{word}' needs a card (or 'draw up')")
    if word == "draw" and arg.lower() == "up":
        return Move(UP)
    try:
        card = C.parse_card(arg)
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    if card == C.JOKER:
        raise MoveError(f"'{text}': Bourbon has no joker")
    return Move(DOWN if word == "draw" else word, card)


# -- states ------------------------------------------------------------------------------------
OFFER_FIRST, OFFER_DEALER, FIRST_DOWN, DRAW, DISCARDING, KNOCKED = range(6)
STAGE_NAMES = ("offer to the non-dealer", "offer to the dealer", "first face-down draw", "draw", "discard",
               "knocked")


class State(BaseState):
    """A Bourbon position: ``hands`` (two masks), ``up`` (the face-up card, -1 if none), ``avail``
    (mask of the face-down cards one may draw), ``deck`` (the face-down cards below them, top
    first), ``seat`` (on turn; the knocker once knocked), ``stage``, ``taken`` (the face-up card
    just drawn, which may not be discarded this turn, else -1), ``run`` (turns in a row that
    drew the face-up card), ``limit`` (the face_up_run option)."""

    __slots__ = ("hands", "up", "avail", "deck", "seat", "stage", "taken", "run", "limit", "_moves", "_key",
                 "_outcome")

    def __init__(self, hands, up, avail, deck, seat, stage, taken=-1, run=0, limit=FACE_UP_RUN):
        self.hands, self.up, self.avail, self.deck = tuple(hands), up, avail, tuple(deck)
        self.seat, self.stage, self.taken, self.run, self.limit = seat, stage, taken, run, limit
        self._moves = self._key = None
        self._outcome = False  # not computed yet

    def facedown_count(self) -> int:
        return self.avail.bit_count() + len(self.deck)

    def to_move(self):
        return self.seat

    # -- the rules -----------------------------------------------------------------------------
    def _cancelled(self) -> bool:
        """At the start of a turn: fewer than three face-down cards (the rules), or the face-up
        card drawn on each of the last ``limit`` turns (our reading, for a finite game)."""
        return self.stage == DRAW and (self.facedown_count() < 3 or self.run >= self.limit)

    def legal_moves(self):
        if self._moves is None:
            self._moves = [] if self.outcome() is not None else self._list_moves()
        return self._moves

    def _list_moves(self):
        st = self.stage
        if st in (OFFER_FIRST, OFFER_DEALER):
            return [Move(UP), Move(PASS)]
        if st in (FIRST_DOWN, DRAW):
            moves = [Move(UP)] if st == DRAW and self.up >= 0 else []
            return moves + [Move(DOWN, c) for c in cards_of(self.avail)]
        hand = self.hands[self.seat]
        moves = []
        for c in cards_of(hand):
            if c == self.taken:
                continue
            moves.append(Move(DISCARD, c))
            if knock_deadwood(hand & ~(1 << c)) <= KNOCK_LIMIT:
                moves.append(Move(KNOCK, c))
        return moves

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        return self._play(move)

    def _play(self, move):
        seat, st = self.seat, self.stage
        hands = list(self.hands)
        if move.kind == PASS:
            if st == OFFER_FIRST:
                return State(hands, self.up, self.avail, self.deck, 1 - seat, OFFER_DEALER, limit=self.limit)
            return State(hands, self.up, self.avail, self.deck, 1 - seat, FIRST_DOWN, limit=self.limit)
        if move.kind == UP:
            hands[seat] |= 1 << self.up
            return State(hands, -1, self.avail, self.deck, seat, DISCARDING, self.up, self.run + 1, self.limit)
        if move.kind == DOWN:
            hands[seat] |= 1 << move.card
            avail, deck = self.avail & ~(1 << move.card), self.deck
            if deck:
                avail, deck = avail | 1 << deck[0], deck[1:]
            return State(hands, self.up, avail, deck, seat, DISCARDING, -1, 0, self.limit)
        hands[seat] &= ~(1 << move.card)
        if move.kind == KNOCK:
            return State(hands, move.card, self.avail, self.deck, seat, KNOCKED, -1, self.run, self.limit)
        return State(hands, move.card, self.avail, self.deck, 1 - seat, DRAW, -1, self.run, self.limit)

    def outcome(self):
        if self._outcome is False:
            if self.stage == KNOCKED:
                net = knock_net(self.hands[self.seat], self.hands[1 - self.seat])
                s0 = net if self.seat == 0 else -net
                self._outcome = Outcome(s0 > 0, s0, (s0, -s0))
            elif self._cancelled():
                self._outcome = Outcome(False, 0, (0, 0))
            else:
                self._outcome = None
        return self._outcome

    def cancelled(self) -> bool:
        return self.stage != KNOCKED and self.outcome() is not None

    # -- search support ------------------------------------------------------------------------
    def key(self):
        if self._key is None:
            self._key = (self.hands, self.up, self.avail, self.deck, self.seat, self.stage, self.taken, self.run,
                         self.limit)
        return self._key

    def search_moves(self):
        """Every legal move, likelier-better first: knocks (least deadwood left first), then
        discards (least deadwood left first); draws by the least deadwood they allow."""
        moves = self.legal_moves()
        if self.stage == DISCARDING:
            hand = self.hands[self.seat]
            return sorted(moves, key=lambda m: (m.kind != KNOCK, deadwood(hand & ~(1 << m.card))))
        if self.stage in (DRAW, FIRST_DOWN):
            hand = self.hands[self.seat]

            def after(m):
                c = self.up if m.kind == UP else m.card
                h = hand | 1 << c
                return min(deadwood(h & ~(1 << x)) for x in cards_of(h) if x != c or m.kind == DOWN)
            return sorted(moves, key=after)
        return moves

    def table_scope(self):
        return self.limit

    # -- pictures ------------------------------------------------------------------------------
    def picture(self, seen_only=False):
        """Both hands, the face-down cards one may draw, the deck below them and the face-up
        card. ``seen_only``: what the seat on turn sees (its own hand and the face-up card; the
        other hand and the face-down cards by their number)."""
        piles = []
        for s in (0, 1):
            cs = sorted(cards_of(self.hands[s]), key=lambda c: (c // 13, c % 13))
            hidden = seen_only and s != self.seat
            piles.append(P.pile(f"seat {s}", [P.card(None if hidden else c, down=hidden) for c in cs],
                                group="hands", spread=True))
        down = cards_of(self.avail)
        piles.append(P.pile("face-down", [P.card(None if seen_only else c, down=True) for c in down], group="draw"))
        piles.append(P.deck("deck", self.deck, seen_only, group="draw"))
        piles.append(P.pile("face-up", [P.card(self.up)] if self.up >= 0 else [], group="draw"))
        facts = {"to move": f"seat {self.seat}", "stage": STAGE_NAMES[self.stage]}
        if self.run:
            facts["face-up draws in a row"] = self.run
        return P.picture(piles, **facts)

    def __str__(self):
        lines = []
        for s in (0, 1):
            melds, dead = best_melds(self.hands[s])
            lines.append(f"seat {s}: {format_mask(self.hands[s])}  (deadwood {dead})")
        up = C.format_card(self.up) if self.up >= 0 else "-"
        lines.append(f"face-up: {up}; face-down: {format_mask(self.avail)}; deck: {len(self.deck)} cards")
        lines.append(f"seat {self.seat}, {STAGE_NAMES[self.stage]}" + (f"; face-up draws in a row: {self.run}"
                                                                      if self.run else ""))
        return "\n".join(lines)


def format_mask(mask: int) -> str:
    return C.format_cards(sorted(cards_of(mask), key=lambda c: (c // 13, c % 13)))


def format_melds(melds) -> str:
    return " | ".join(C.format_cards(m) for m in melds) or "none"


# -- deals ---------------------------------------------------------------------------------------
PILE_SIZES = {"hand0": 10, "hand1": 10, "beside": 2, "faceup": 1, "deck": 29}


def seeded_piles(seed, options=None) -> dict:
    cards = shuffled(C.standard_deck(), seed)
    return {"hand0": cards[0:20:2], "hand1": cards[1:20:2], "beside": cards[20:22], "faceup": cards[22:23],
            "deck": cards[23:]}


def check_piles(piles, source) -> None:
    seen = {}
    for name, size in PILE_SIZES.items():
        cards = piles[name]
        for i, card in enumerate(cards, start=1):
            if card == C.JOKER:
                raise DealError(source, name, f"card {i}: Bourbon has no joker")
            if card in seen:
                raise DealError(source, name, f"card {i} '{C.format_card(card)}' appears twice (first in {seen[card]})")
            seen[card] = f"{name}, card {i}"
        if len(cards) != size:
            raise DealError(source, name, f"expected {size} cards, found {len(cards)}")


def dealt_state(deal: Deal, limit: int) -> State:
    """The hand as dealt: the face-up card is offered to the non-dealer first."""
    p = deal.piles
    dealer = deal.options.get("dealer", 1)
    return State((mask_of(p["hand0"]), mask_of(p["hand1"])), p["faceup"][0],
                 mask_of(p["beside"]) | 1 << p["deck"][0], tuple(p["deck"][1:]), 1 - dealer, OFFER_FIRST,
                 limit=limit)
