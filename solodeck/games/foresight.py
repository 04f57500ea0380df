"""Foresight (the trick game of the Foresight deck): the pure-Python reference engine of one hand's
play with every card known. Rules page: docs/rules/foresight.md.

The trick play with Hole cards is shared with Heartburn (solodeck/games/heartburn.py), which
differs in its deal, its first-trick and heart-leading rules and its scoring: :class:`TrickRules`
holds what differs, :class:`TrickState` plays a hand under any of them.

A card is solodeck's int (suit * 13 + rank - 1, suits S H D C; 52 the Joker). Hands and Holes
are bit masks over the 53 cards. In trick play the Ace is high; the Joker is the lowest trump.
A card's back shows the suits of solodeck/games/frozen_novelty.py's default back table (the
Joker's shows all four), and a Hole card follows suit by its back.
"""
from __future__ import annotations

import os

from dataclasses import dataclass
from typing import NamedTuple

from .. import cards as C
from ..cards import cards_of, mask_of
from .. import picture as P
from ..api import Deal, Game, Outcome
from ..api import State as BaseState
from ..api import check_exact_pile, check_position_fields, guarantee_text, position_piles, proven_range
from ..errors import DealError, MoveError
from ..shuffle import shuffled
from ..solvers.paranoid import ParanoidSolver
from .frozen_novelty import default_backs

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


class TrickGame(Game):
    """What Foresight and Heartburn share: several players, every hand open."""

    several_players = True
    score_sense = "higher"
    most_seats = 5

    def parse_move(self, text):
        return parse_trick_move(text)

    def position_state(self, deal: Deal, trump: int, hearts: bool) -> TrickState:
        """A hand in progress from ``[position]``: each seat's ``hand-N`` and ``hole-N`` (the same
        number of cards each: a trick boundary), ``leader`` (the seat to lead, 1-based) and what
        each seat has won, ``taken-N`` (Foresight: a number of tricks; Heartburn: the cards)."""
        pos, src, n = deal.position, deal.source, deal.options["players"]
        fields = [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole", "taken")] + ["leader"]
        fields += [] if hearts else ["trump"]
        check_position_fields(pos, fields, src)
        piles = position_piles(pos, [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole")], src)
        seen: dict = {}
        for name, cards in piles.items():
            for c in cards:
                if c in seen:
                    raise DealError(src, f"position.{name}", f"{C.format_card(c)} is also in {seen[c]}")
                seen[c] = name
        sizes = {len(piles[f"hand-{s}"]) + len(piles[f"hole-{s}"]) for s in range(1, n + 1)}
        if len(sizes) != 1 or not sizes.pop():
            raise DealError(src, "position", "every seat must hold the same number of cards (at least one): "
                            "a position starts a trick")
        leader = pos.get("leader", 1)
        if not isinstance(leader, int) or not 1 <= leader <= n:
            raise DealError(src, "position.leader", f"expected a seat from 1 to {n}")
        tricks, taken = [0] * n, [0] * n
        for s in range(n):
            value = pos.get(f"taken-{s + 1}", "" if hearts else 0)
            if hearts:
                if not isinstance(value, str):
                    raise DealError(src, f"position.taken-{s + 1}", 'expected the cards won, e.g. "QS 4H"')
                taken[s] = mask_of(C.parse_cards(value, source=src, field=f"position.taken-{s + 1}"))
            elif not isinstance(value, int) or value < 0:
                raise DealError(src, f"position.taken-{s + 1}", "expected the number of tricks won")
            else:
                tricks[s] = value
        hands, holes = read_seats(Deal(deal.game, deal.options, None, piles), n)
        return TrickState(TrickRules(n, trump, hearts=hearts), hands, holes, leader - 1, taken=tuple(taken),
                          tricks=tuple(tricks), broken=any(t & HEART_MASK for t in taken), first=False)

    def solver(self, limits, progress=None):
        """The kernel's paranoid search when built (same interface), else solvers/paranoid.py."""
        kernel = self.load_kernel()
        return KernelParanoid(kernel, limits) if kernel is not None else ParanoidSolver(limits, progress)

    def hand_report(self, deal, state, solver):
        """Every seat's guarantee (Game.hand_report), the seats valued ahead in two processes."""
        prefetcher(solver)([(state, seat) for seat in range(deal.options["players"])])
        return super().hand_report(deal, state, solver)


def prefetcher(solver):
    """KernelParanoid.prefetch of ``solver`` (the command line hands in a counting wrapper of it),
    else a function that does nothing."""
    kernel = getattr(solver, "solver", solver)
    return kernel.prefetch if isinstance(kernel, KernelParanoid) else (lambda searches: None)


TABLE_PROCESSES = 2  # KernelParanoid.prefetch: a Foresight table's searches share nothing, so two cores


class KernelParanoid:
    """ext/tricks.pyx's paranoid search behind ParanoidSolver's interface."""

    def __init__(self, kernel, limits):
        from ..result import StopReason

        self.limits = limits
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)
        self._reason = StopReason.from_code
        self.stop = None
        self.proven = None
        self.known = {}  # prefetch(): (rules, position, seat) -> (value, proven, stop), each used once
        self.nodes_elsewhere = 0

    @property
    def nodes(self):
        return self.search.nodes + self.nodes_elsewhere

    @staticmethod
    def _known_key(state, seat):
        return (state.rules.seats, state.rules.trump, state.rules.hearts, state.key(), seat)

    def prefetch(self, searches, processes=TABLE_PROCESSES):
        """Value ``searches`` ((state, seat) pairs) ahead, in ``processes`` processes, each with its
        own table, for value() to give back. The searches of a Foresight table share nothing in
        one table anyway (the seat valued and the trump are in every key), so this only buys
        time: the same values, the same limits (each search its own, within the deadline)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        searches = [(st, seat) for st, seat in searches if st.phase == "play"]
        processes = min(processes, len(searches), os.cpu_count() or 1)
        if processes < 2:
            return
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_prefetch_worker, initargs=(self.limits,)) as pool:
            for (st, seat), (v, proven, stop, nodes) in zip(searches, pool.map(_prefetch_value, searches)):
                self.known[self._known_key(st, seat)] = (v, proven, stop)
                self.nodes_elsewhere += nodes

    @property
    def table(self):
        return range(self.search.stored)

    def value(self, state, seat):
        """The seat's value, or None when a limit stopped the search (``self.stop`` says which);
        ``self.proven``: (v, v) when decided, else what the finished tests proved (proven_range)."""
        rules = state.rules
        known = self.known.pop(self._known_key(state, seat), None)
        if known is not None:
            v, self.proven, self.stop = known
            return v
        if state.phase == "exchange":  # the leader's exchange: each choice valued by the kernel
            values, stop = [], None
            for move in state.legal_moves():
                values.append(self.value(state.play(move), seat))
                stop = stop or self.stop
            self.stop, self.proven = stop, (None, None)
            if None in values:
                return None
            v = max(values) if state.to_move() == seat else min(values)
            self.proven = (v, v)
            return v
        self.search.restart_clock(self.limits.seconds() or 0.0)  # each search its own budget, within the deadline
        bounds = state.seat_bounds(seat) or HEARTBURN_RANGE
        v = self.search.value(rules.seats, rules.trump, rules.hearts, list(state.hands), list(state.holes),
                              state.leader, list(state.trick), list(state.taken), list(state.tricks),
                              state.broken, state.first, seat, *bounds)
        if v is not None:
            self.stop, self.proven = None, (v, v)
        else:
            self.stop = self._reason(self.search.stopped)
            self.proven = proven_range(self.search.proven_low, self.search.proven_high, bounds)
        return v

    def move_values(self, state, seat=None):
        seat = state.to_move() if seat is None else seat
        return [(move, self.value(state.play(move), seat)) for move in state.legal_moves()]


_WORKER = None  # a prefetch process's own KernelParanoid (its table serves all its searches)


def _prefetch_worker(limits):
    global _WORKER
    from ..registry import get_game

    _WORKER = KernelParanoid(get_game("foresight").load_kernel(), limits)


def _prefetch_value(search):
    state, seat = search
    before = _WORKER.nodes
    v = _WORKER.value(state, seat)
    return v, _WORKER.proven, _WORKER.stop, _WORKER.nodes - before


class Foresight(TrickGame):
    name = "foresight"
    title = "Foresight (the trick game, 3-5 players)"
    source = "Foresight (House of Slack Games, 2002), seeds/001"
    score_name = "tricks"
    kernel = "tricks"
    former_meaning = ("'foresight' used to name Frozen Novelty and now names the Foresight trick game: "
                      "a Frozen Novelty deal file says game = \"frozen-novelty\"")
    options = {"players": (4, (3, 4, 5)), "leader": (1, (1, 2, 3, 4, 5))}
    piles = {"trump": "the card dealt aside: its suit is trump (the Joker: no trump)",
             **seat_piles(5), "out": "the left-over cards, out of play (3 players: 1, 5 players: 2)"}

    def piles_for(self, options):
        n = options.get("players", 4)
        return ["trump"] + [f"{k}-{s}" for s in range(1, n + 1) for k in ("hand", "hole")] + (["out"] if n != 4 else [])

    def seeded_piles(self, seed, options):
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

    def check_piles(self, piles, source):
        n = self._players(piles)
        check_seat_piles(piles, n, HAND_SIZE[n] - HOLE_SIZE[n], HOLE_SIZE[n], source)
        piles.setdefault("out", [])
        everything = [c for name in self.piles_for({"players": n}) for c in piles[name]]
        check_exact_pile(everything, C.standard_deck(jokers=1), source, "the deal's piles together")
        if len(piles["trump"]) != 1:
            raise DealError(source, "trump", f"expected 1 card, found {len(piles['trump'])}")

    def _players(self, piles):
        return max(int(name[5:]) for name in piles if name.startswith("hand-"))

    def trump_of(self, deal) -> int:
        card = deal.piles["trump"][0]
        return NO_TRUMP if card == C.JOKER else card // 13

    def initial_state(self, deal: Deal, trump: int | None = None, exchange: bool = True):
        n = deal.options["players"]
        leader = deal.options["leader"]
        if leader > n:
            raise DealError(deal.source, "options.leader", f"a deal of {n} players has seats 1 to {n}")
        if deal.position is not None:
            return self.position_state(deal, self._position_trump(deal) if trump is None else trump, False)
        if f"hand-{n}" not in deal.piles or f"hand-{n + 1}" in deal.piles:
            raise DealError(deal.source, "options.players", f"{n} players, but the deal has hands 1 to "
                            f"{self._players(deal.piles)} (set players = {self._players(deal.piles)})")
        hands, holes = read_seats(deal, n)
        rules = TrickRules(n, self.trump_of(deal) if trump is None else trump, exchange=exchange)
        return TrickState(rules, hands, holes, leader - 1, phase="exchange" if exchange else "play")


    def _position_trump(self, deal) -> int:
        text = deal.position.get("trump", "")
        if not isinstance(text, str) or text.upper() not in ("S", "H", "D", "C", "NONE"):
            raise DealError(deal.source, "position.trump", 'expected the trump suit: "S", "H", "D", "C" or "none"')
        return NO_TRUMP if text.upper() == "NONE" else C.SUITS.index(text.upper())

    def _table_lines(self, deal, table, proven, names, dealt_name):
        cells = {nm: [guarantee_text(v, r) for v, r in zip(table[nm], proven[nm])] for nm in names}
        width = max(4, *(len(c) for nm in names for c in cells[nm]))
        lines = [f"tricks each seat can guarantee against all the others together (leader: seat "
                 f"{deal.options['leader']}, Holes as dealt; *: the dealt trump):",
                 "  seat  " + " ".join(f"{('*' if nm == dealt_name else '') + nm:>{width}}" for nm in names)]
        for s in range(deal.options["players"]):
            lines.append(f"  {s + 1:>4}  " + " ".join(f"{cells[nm][s]:>{width}}" for nm in names))
        return lines

    def hand_report(self, deal, state, solver):
        """The double-dummy-style table: a row per seat, a column per trump suit (and no trump when
        the Joker was turned), as dealt; then the leader's best Hole exchange under the dealt trump
        and every seat's value after it."""
        if deal.position is not None:
            return super().hand_report(deal, state, solver)
        dealt = self.trump_of(deal)
        trumps = [dealt] + [t for t in (0, 1, 2, 3) if t != dealt]  # the dealt trump's column first
        names = ["NT" if t == NO_TRUMP else C.SUITS[t] for t in trumps]
        table, proven = {}, {}
        seats = deal.options["players"]
        columns = [self.initial_state(deal, trump=t, exchange=False) for t in trumps]
        prefetch = prefetcher(solver)
        prefetch([(st, seat) for st in columns for seat in range(seats)])
        for name, st in zip(names, columns):
            table[name], proven[name] = self.seat_values(st, solver, seats)
        dealt_name = names[0]
        lines = self._table_lines(deal, table, proven, names, dealt_name)
        data = {"trump": dealt_name, "table": table, "proven": proven, "exchange": None}
        if None in table[dealt_name]:  # the exchange is valued only once the dealt trump's row is
            lines.append("the leader's Hole exchange: not valued (the dealt trump's row was not all "
                         "decided within the limits)")
            return lines, data
        leader = state.to_move()
        prefetch([(state.play(move), leader) for move in state.legal_moves()])
        values = {move: solver.value(state.play(move), leader) for move in state.legal_moves()}
        if None in values.values():
            unknown = sum(v is None for v in values.values())
            lines.append(f"the leader's Hole exchange: {unknown} of {len(values)} choices not decided within the limits")
            return lines, data
        best = max(values, key=values.get)  # the first of the best, in the listed order
        prefetch([(state.play(best), seat) for seat in range(seats)])
        after, after_proven = self.seat_values(state.play(best), solver, deal.options["players"])
        lines.append(f"the leader's best Hole exchange: {best} -> seat {leader + 1} guarantees {values[best]}; "
                     "after it: " + ", ".join(f"seat {s + 1} {guarantee_text(v, r)}"
                                               for s, (v, r) in enumerate(zip(after, after_proven))))
        data["exchange"] = {"best": str(best), "value": values[best], "after": after, "after_proven": after_proven}
        return lines, data


GAME = Foresight()
