"""The Foresight deck's trick games, Foresight and Heartburn: the pure-Python reference engine of
one hand's play with every card known, and each game's deal. Rules pages: docs/rules/foresight.md,
docs/rules/heartburn.md.

The trick play with Hole cards is shared by Foresight and Heartburn; Heartburn differs in its
deal, its first-trick and heart-leading rules and its scoring: :class:`TrickRules` holds what
differs, :class:`TrickState` plays a hand under any of them. Heartburn's trick play is
Foresight's with Heartburn's rules switched on (TrickRules.hearts): no trumps, the lowest club
leads, hearts led only once broken, no point card from the hand on the first trick, and the
scoring of hearts, the Q♠, the T♦ and shooting the moon.

A card is solodeck's int (suit * 13 + rank - 1, suits S H D C; 52 the Joker). Hands and Holes
are bit masks over the 53 cards. In trick play the Ace is high; the Joker is the lowest trump.
A card's back shows the suits of solodeck/games/frozen_novelty/rules.py's default back table
(the Joker's shows all four), and a Hole card follows suit by its back.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ... import cards as C
from ...cards import cards_of, mask_of
from ... import picture as P
from ...api import Deal, Outcome
from ...api import State as BaseState
from ...api import check_exact_pile
from ...errors import DealError, MoveError
from ...shuffle import shuffled
from ..frozen_novelty.rules import default_backs

BACKS = tuple(default_backs()) + (15,)  # suits on each card's back, bit s = suit s; the Joker shows all
NO_TRUMP = -1
ALL_SUITS = 15


def power(card: int) -> int:
    """Trick-taking rank: 2 … K = 2 … 13, the Ace 14; the Joker 1 (the lowest trump)."""
    if card == C.JOKER:
        return 1
    r = card % 13 + 1
    return 14 if r == 1 else r


SUIT_MASK = tuple(mask_of(range(13 * s, 13 * s + 13)) for s in range(4))


class Play(NamedTuple):
    """Play a card (from the hand or the Hole: the card says which). ``str``: ``7S``."""

    card: int

    def __str__(self):
        return C.format_card(self.card)


class Exchange(NamedTuple):
    """The Foresight leader's Hole exchange: pick up Hole card ``take``, put ``give`` (any card of
    the hand, ``take`` included) in the Hole. ``exchange 7S for 3H``; ``keep`` when give == take."""

    take: int
    give: int

    def __str__(self):
        if self.take == self.give:
            return "keep"
        return f"exchange {C.format_card(self.take)} for {C.format_card(self.give)}"


def parse_trick_move(text: str):
    words = text.replace(",", " ").split()
    try:
        if len(words) == 1 and words[0].lower() == "keep":
            return Exchange(-1, -1)
        if len(words) == 4 and words[0].lower() == "exchange" and words[2].lower() == "for":
            return Exchange(C.parse_card(words[1]), C.parse_card(words[3]))
        if len(words) == 2 and words[0].lower() == "play":
            words = words[1:]
        if len(words) == 1:
            return Play(C.parse_card(words[0]))
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    raise MoveError(f"'{text}' is not a move (a card such as 7S, 'keep' or 'exchange 7S for 3H')")


@dataclass(frozen=True)
class TrickRules:
    """What one hand's trick play depends on beside the cards."""

    seats: int
    trump: int = NO_TRUMP          # suit index, or NO_TRUMP
    hearts: bool = False           # Heartburn: its leading and first-trick rules, and its scoring
    exchange: bool = False         # Foresight: the leader's Hole exchange comes first

    def effective_suit(self, card: int) -> int:
        """The suit a card belongs to in play: its own; the Joker's is the trump suit."""
        return self.trump if card == C.JOKER else card // 13


# Heartburn's point cards
QUEEN_OF_SPADES = C.make_card(12, "S")
TEN_OF_DIAMONDS = C.make_card(10, "D")
TWO_OF_CLUBS = C.make_card(2, "C")
HEART_MASK = SUIT_MASK[1]
# Every Heartburn score lies in this range: the highest take is at most 26, and a seat that took a
# bad card took at least -9 (a heart with the T♦), so top minus own is at most 35.
HEARTBURN_RANGE = (0, 35)
POINT_MASK = HEART_MASK | 1 << QUEEN_OF_SPADES | 1 << TEN_OF_DIAMONDS


class TrickState(BaseState):
    """One hand in play. ``hands``/``holes``: a mask per seat; ``trick``: the cards played to the
    trick so far (in seat order from ``leader``); ``taken``: per seat, the mask of cards won (for
    Foresight only their number counts, see ``tricks``); ``phase``: "exchange" before Foresight's
    Hole exchange, else "play"."""

    __slots__ = ("rules", "hands", "holes", "leader", "trick", "taken", "tricks", "broken", "first", "phase")

    def __init__(self, rules, hands, holes, leader, trick=(), taken=None, tricks=None, broken=False,
                 first=True, phase="play"):
        self.rules, self.hands, self.holes, self.leader, self.trick = rules, hands, holes, leader, trick
        self.taken = taken if taken is not None else (0,) * rules.seats
        self.tricks = tricks if tricks is not None else (0,) * rules.seats
        self.broken, self.first, self.phase = broken, first, phase

    def _replace(self, **changes):
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return TrickState(**fields)

    # -- who and what -------------------------------------------------------------------------
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.seats

    def cards_left(self) -> int:
        return sum(bin(h | o).count("1") for h, o in zip(self.hands, self.holes))

    def legal_moves(self):
        if self.outcome() is not None:
            return []
        seat = self.to_move()
        if self.phase == "exchange":
            hole, hand = self.holes[seat], self.hands[seat]
            moves = [Exchange(take, give) for take in cards_of(hole) for give in cards_of(hand) + [take]]
            return [Exchange(-1, -1)] + [m for m in moves if m.take != m.give]
        return [Play(c) for c in cards_of(self.playable(seat))]

    def playable(self, seat: int) -> int:
        """The mask of cards ``seat`` may play now."""
        rules, hand, hole = self.rules, self.hands[seat], self.holes[seat]
        if not self.trick:
            return self._leads(hand, hole)
        led = rules.effective_suit(self.trick[0])
        in_suit = self._suit_cards(hand, led)
        if in_suit:  # must follow: the suit from the hand, or a Hole card showing it on its back
            allowed = in_suit | mask_of(c for c in cards_of(hole) if BACKS[c] >> led & 1)
        else:
            allowed = hand | hole
        if rules.hearts and self.first and hand & ~POINT_MASK:
            allowed &= ~(hand & POINT_MASK)  # no point card from the hand on the first trick
            if not allowed:  # only possible when the must-follow cards are all points: then they may go
                allowed = in_suit
        return allowed

    def _leads(self, hand, hole):
        rules = self.rules
        if not rules.hearts:
            return hand | hole
        if self.first:  # the 2 of clubs, else the lowest club in a hand, leads the hand
            clubs = cards_of(hand & SUIT_MASK[3])
            return 1 << min(clubs, key=power) if clubs else hand | hole
        if self.broken or not hand & ~HEART_MASK:
            return hand | hole
        return (hand & ~HEART_MASK) | hole  # a Hole card may be led: an unseen heart leads by accident

    def _suit_cards(self, hand: int, suit: int) -> int:
        m = SUIT_MASK[suit] & hand if suit >= 0 else 0
        if suit == self.rules.trump and hand >> C.JOKER & 1:
            m |= 1 << C.JOKER
        return m

    def play(self, move):
        seat = self.to_move()
        if isinstance(move, Exchange):
            if move.take < 0:
                return self._replace(phase="play")
            hand = (self.hands[seat] | 1 << move.take) & ~(1 << move.give)
            hole = (self.holes[seat] & ~(1 << move.take)) | 1 << move.give
            return self._replace(hands=_set(self.hands, seat, hand), holes=_set(self.holes, seat, hole), phase="play")
        card = move.card
        bit = 1 << card
        hands = _set(self.hands, seat, self.hands[seat] & ~bit)
        holes = _set(self.holes, seat, self.holes[seat] & ~bit)
        broken = self.broken or card // 13 == 1 and card != C.JOKER
        trick = self.trick + (card,)
        if len(trick) < self.rules.seats:
            return self._replace(hands=hands, holes=holes, trick=trick, broken=broken)
        winner = (self.leader + self.winning_index(trick)) % self.rules.seats
        won = mask_of(trick)
        return self._replace(hands=hands, holes=holes, trick=(), leader=winner, broken=broken, first=False,
                             taken=_set(self.taken, winner, self.taken[winner] | won),
                             tricks=_set(self.tricks, winner, self.tricks[winner] + 1))

    def winning_index(self, trick) -> int:
        """Which card of a full trick wins it: the highest trump, else the highest of the suit led."""
        rules = self.rules
        led = rules.effective_suit(trick[0])

        def strength(card):
            s = rules.effective_suit(card)
            return (2 if s == rules.trump and s >= 0 else 1 if s == led else 0, power(card))

        return max(range(len(trick)), key=lambda i: strength(trick[i]))

    def outcome(self):
        if any(self.hands) or any(self.holes) or self.trick:
            return None
        return Outcome(False, None, scores=self.final_scores())

    def final_scores(self) -> tuple:
        if not self.rules.hearts:
            return self.tricks
        return heartburn_scores(self.taken)

    def key(self):
        summary = self.tricks if not self.rules.hearts else tuple(heartburn_take(t) for t in self.taken)
        return (self.hands, self.holes, self.leader, self.trick, summary, self.broken, self.first, self.phase)

    def seat_bounds(self, seat):
        if self.rules.hearts:
            return None
        left = (self.cards_left() + len(self.trick)) // self.rules.seats
        return self.tricks[seat], self.tricks[seat] + left

    def search_moves(self):
        """One card of each set of equivalent cards: same holding (hand, or Hole with the same
        back), same suit, same points, and no card of another seat ranking between them (those
        between are played or held by this seat): such cards win and lose the same tricks."""
        moves = self.legal_moves()
        if self.phase != "play" or len(moves) < 2:
            return moves
        seat = self.to_move()
        held = self.hands[seat] | self.holes[seat]
        out_of_play = held | ~(self._in_play() | mask_of(self.trick))
        kept, last = [], None
        for move in sorted(moves, key=lambda m: (self._holding(seat, m.card), m.card // 13, power(m.card))):
            c = move.card
            sig = (self._holding(seat, c), c // 13, _points(c), c == C.JOKER)
            if last is not None and last[0] == sig and _between_all(last[1], c, out_of_play):
                last = (sig, c)
                continue
            kept.append(move)
            last = (sig, c)
        return kept

    def _holding(self, seat, card):
        return -1 if self.hands[seat] >> card & 1 else BACKS[card]

    def _in_play(self) -> int:
        m = 0
        for h, o in zip(self.hands, self.holes):
            m |= h | o
        return m

    # -- display ------------------------------------------------------------------------------
    def __str__(self):
        lines = []
        trump = "none" if self.rules.trump < 0 else C.SUITS[self.rules.trump]
        lines.append(f"trump: {trump}; {'exchange first' if self.phase == 'exchange' else 'play'}; "
                     f"seat {self.to_move() + 1} to move")
        for s in range(self.rules.seats):
            got = f"{self.tricks[s]} tricks" if not self.rules.hearts else f"took {C.format_cards(cards_of(self.taken[s] & POINT_MASK)) or '-'}"
            lines.append(f"seat {s + 1}: hand {C.format_cards(_sorted(self.hands[s])) or '-'} | "
                         f"hole {C.format_cards(_sorted(self.holes[s])) or '-'} | {got}")
        if self.trick:
            lines.append("trick: " + " ".join(f"{C.format_card(c)}(seat {(self.leader + i) % self.rules.seats + 1})"
                                              for i, c in enumerate(self.trick)))
        return "\n".join(lines)

    def picture(self, seen_only: bool = False) -> dict:
        piles = []
        for s in range(self.rules.seats):
            seat = f"seat {s + 1}"  # each seat's hand beside its Hole
            piles.append(P.pile(f"hand {s + 1}", [P.card(c) for c in _sorted(self.hands[s])], group=seat, spread=True))
            piles.append(P.pile(f"hole {s + 1}", [P.card(c, down=True, back=_back_text(c)) for c in _sorted(self.holes[s])],
                                group=seat, spread=True))
        piles.append(P.pile("trick", [P.card(c) for c in self.trick], group="table", spread=True))
        facts = {"to move": f"seat {self.to_move() + 1}",
                 "trump": "none" if self.rules.trump < 0 else C.SUITS[self.rules.trump]}
        for s in range(self.rules.seats):
            facts[f"seat {s + 1} took"] = (self.tricks[s] if not self.rules.hearts
                                           else heartburn_take(self.taken[s])[0])
        return P.picture(piles, **facts)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _sorted(mask: int) -> list:
    return sorted(cards_of(mask), key=lambda c: (c // 13, -power(c)))


def _back_text(card: int) -> str:
    return "".join(s for i, s in enumerate(C.SUITS) if BACKS[card] >> i & 1)


def _points(card: int) -> int:
    if card == QUEEN_OF_SPADES:
        return 13
    if card == TEN_OF_DIAMONDS:
        return -10
    return 1 if card // 13 == 1 and card != C.JOKER else 0


def _between_all(a: int, b: int, out_of_play: int) -> bool:
    """Every card of the suit ranking strictly between a and b (same suit, power(a) < power(b))
    is in ``out_of_play`` (played, or the mover's own)."""
    if a == C.JOKER or b == C.JOKER:
        return False
    suit = a // 13
    for p in range(power(a) + 1, power(b)):
        c = suit * 13 + (0 if p == 14 else p - 1)
        if not out_of_play >> c & 1:
            return False
    return True


def heartburn_take(taken: int) -> tuple:
    """(points taken, took a bad card?, took every heart and the Q♠?) of a seat's won cards."""
    hearts = bin(taken & HEART_MASK).count("1")
    queen = taken >> QUEEN_OF_SPADES & 1
    ten = taken >> TEN_OF_DIAMONDS & 1
    return hearts + 13 * queen - 10 * ten, bool(hearts or queen), hearts == 13 and bool(queen)


def heartburn_scores(taken: tuple) -> tuple:
    """Heartburn's score of each seat from the cards it won (rules page: the score)."""
    takes = [heartburn_take(t) for t in taken]
    for s, (_p, _bad, moon) in enumerate(takes):
        if moon:
            return tuple(26 if t == s else 0 for t in range(len(taken)))
    top = max(p for p, _b, _m in takes)
    return tuple(top - p if bad else 0 for p, bad, _m in takes)


# -- deals ----------------------------------------------------------------------------------------
HOLE_SIZE = {3: 4, 4: 3, 5: 2}
HAND_SIZE = {3: 17, 4: 13, 5: 10}
SEATS = (1, 2, 3, 4, 5, 6)


def seat_piles(most_seats: int) -> dict:
    piles = {}
    for s in range(1, most_seats + 1):
        piles[f"hand-{s}"] = f"seat {s}'s hand (seat 1 sits left of the dealer)"
        piles[f"hole-{s}"] = f"seat {s}'s Hole cards"
    return piles


def read_seats(deal: Deal, seats: int):
    hands = tuple(mask_of(deal.piles[f"hand-{s}"]) for s in range(1, seats + 1))
    holes = tuple(mask_of(deal.piles[f"hole-{s}"]) for s in range(1, seats + 1))
    return hands, holes


def check_seat_piles(piles, seats, hand_size, hole_size, source):
    for s in range(1, seats + 1):
        for name, size in ((f"hand-{s}", hand_size), (f"hole-{s}", hole_size)):
            if name not in piles:
                raise DealError(source, name, f"missing: {seats} players need hands and Holes 1 to {seats}")
            if len(piles[name]) != size:
                raise DealError(source, name, f"expected {size} cards, found {len(piles[name])}")
    for name in piles:
        if name.startswith(("hand-", "hole-")) and int(name[5:]) > seats:
            raise DealError(source, name, f"a deal of {seats} players has no seat {name[5:]}")



# -- Foresight's deal ------------------------------------------------------------------------------
def foresight_piles_for(options) -> list:
    n = options.get("players", 4)
    return ["trump"] + [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole")] + (["out"] if n != 4 else [])


def foresight_seeded_piles(seed, options) -> dict:
    n = options["players"]
    deck = shuffled(C.standard_deck(jokers=1), seed)
    piles = {"trump": deck[:1]}
    holes, hand = HOLE_SIZE[n], HAND_SIZE[n]
    rest = deck[1:]
    for s in range(n):  # dealt round the table from seat 1: the first rounds are the Holes
        dealt = rest[s::n][:hand]
        piles[f"hole-{s + 1}"] = dealt[:holes]
        piles[f"hand-{s + 1}"] = dealt[holes:]
    piles["out"] = rest[n * hand:]
    return piles


def foresight_check_piles(piles, source) -> None:
    n = players(piles)
    check_seat_piles(piles, n, HAND_SIZE[n] - HOLE_SIZE[n], HOLE_SIZE[n], source)
    piles.setdefault("out", [])
    everything = [c for name in foresight_piles_for({"players": n}) for c in piles[name]]
    check_exact_pile(everything, C.standard_deck(jokers=1), source, "the deal's piles together")
    if len(piles["trump"]) != 1:
        raise DealError(source, "trump", f"expected 1 card, found {len(piles['trump'])}")


def players(piles) -> int:
    return max(int(name[5:]) for name in piles if name.startswith("hand-"))


def trump_of(deal) -> int:
    card = deal.piles["trump"][0]
    return NO_TRUMP if card == C.JOKER else card // 13


def check_leader(deal) -> None:
    """The leader (options.leader) must be one of the deal's seats."""
    n = deal.options["players"]
    leader = deal.options["leader"]
    if leader > n:
        raise DealError(deal.source, "options.leader", f"a deal of {n} players has seats 1 to {n}")


def foresight_state(deal: Deal, trump: int | None = None, exchange: bool = True) -> TrickState:
    """The hand as dealt (no ``[position]``), under the dealt trump unless ``trump`` says another."""
    n = deal.options["players"]
    leader = deal.options["leader"]
    if f"hand-{n}" not in deal.piles or f"hand-{n + 1}" in deal.piles:
        raise DealError(deal.source, "options.players", f"{n} players, but the deal has hands 1 to "
                        f"{players(deal.piles)} (set players = {players(deal.piles)})")
    hands, holes = read_seats(deal, n)
    rules = TrickRules(n, trump_of(deal) if trump is None else trump, exchange=exchange)
    return TrickState(rules, hands, holes, leader - 1, phase="exchange" if exchange else "play")


# -- Heartburn's deal ------------------------------------------------------------------------------
# The cards taken out for each number of players (the text's "remove ..." list).
REMOVED = {3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2C", "2S", "2D", "3D")}
HOLES = 2  # every player holds two Hole cards in play (one dealt, one passed; both dealt in a hold hand)


def deck_for(players: int) -> list:
    removed = {C.parse_card(c) for c in REMOVED[players]}
    return [c for c in C.standard_deck() if c not in removed]


def hand_size(players: int) -> int:
    return len(deck_for(players)) // players


def heartburn_piles_for(options) -> list:
    n = options.get("players", 4)
    return [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole")]


def heartburn_seeded_piles(seed, options) -> dict:
    """A hold hand (no passing): two Hole cards dealt to each seat, then the hands, round the table."""
    n = options["players"]
    deck = shuffled(deck_for(n), seed)
    piles = {}
    for s in range(n):
        dealt = deck[s::n]
        piles[f"hole-{s + 1}"] = dealt[:HOLES]
        piles[f"hand-{s + 1}"] = dealt[HOLES:]
    return piles


def heartburn_check_piles(piles, source) -> None:
    n = max(int(name[5:]) for name in piles if name.startswith("hand-"))
    if n not in REMOVED:
        raise DealError(source, f"hand-{n}", "Heartburn is for 3 to 6 players")
    check_seat_piles(piles, n, hand_size(n) - HOLES, HOLES, source)
    everything = [c for name in heartburn_piles_for({"players": n}) for c in piles[name]]
    check_exact_pile(everything, deck_for(n), source, "the hands and Holes together")


def heartburn_state(deal: Deal) -> TrickState:
    """The hand as dealt (no ``[position]``): the lowest club in a hand leads."""
    n = deal.options["players"]
    if f"hand-{n}" not in deal.piles or f"hand-{n + 1}" in deal.piles:
        raise DealError(deal.source, "options.players", f"{n} players, but the deal's hands are for another number")
    hands, holes = read_seats(deal, n)
    return TrickState(TrickRules(n, NO_TRUMP, hearts=True), hands, holes, first_leader(hands))


def first_leader(hands) -> int:
    """The seat holding the lowest club in its hand (the 2♣ when no Hole holds it)."""
    best = None
    for seat, hand in enumerate(hands):
        for c in cards_of(hand & SUIT_MASK[3]):
            if best is None or power(c) < best[0]:
                best = (power(c), seat)
    if best is None:
        raise DealError("<deal>", "hands", "no club in any hand: no seat can lead the first trick")
    return best[1]
