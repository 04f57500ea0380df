"""Friends in High Places (seed 002): the pure-Python reference engine. Rules page:
docs/rules/friends-in-high-places.md.

A card is solodeck.cards' int (suit * 13 + value - 1; suits S, H, D, C). The spheres of influence
climb clubs -> hearts -> spades -> diamonds (SPHERE maps a card's suit to 0..3). Values are the
ranks, J=11, Q=12, K♦=13; an ace adds nothing and lowers a target of its own suit by one.

A turn: the player's four cards are drawn (DRAW_HAND, one chance node per card), then the court's
four (DRAW_COURT), the intrigue (INTRIGUE: a decision), the influence (INFLUENCE: a decision),
and the end of the turn (done in play()). With the option lost-opportunities, a court reshuffle is
followed by TURN_UP, a chance node for the first card of the new pile.

A deck is a tuple of *segments*, each a tuple of cards in deal order, top first. The player knows
the order of the segments but not the order inside one: a reshuffle puts the shuffled discards
below the cards still in the deck as a new segment, and lost-opportunities' K♦ sent to the bottom
is a segment of its own. A draw is a chance node over the first segment's composition; it removes
the drawn card and keeps the rest in order, so one key serves open mode (the dealt top card) and
blind mode (any card of the first segment). Reshuffles are seeded (RULINGS.md, Common): the
discards are sorted into the canonical order and shuffled with stream 2k - 1 of the deal's seed
for the player's k-th reshuffle and stream 2k for the court's k-th (each pile counts its own, so a
pile's new order depends only on its cards and its own count).

The loss is the revised "if at any time" (RULINGS.md): a move that leaves the player's cards (deck,
discards, hand) or the court's (court deck, court discards, the table) fewer than 4 loses at once
(State.loses); acquiring the K♦ wins even where it leaves the court 3 (the rules page, reading 8).
"""
from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass

from .. import cards as C
from .. import picture as P
from ..api import NO_WIN, Deal, Game, Outcome, advance_chance, check_exact_pile, check_position_fields, position_piles
from ..api import State as BaseState
from ..errors import DealError, MoveError
from ..result import Limits, SearchStopped, StopReason, finish_open
from ..shuffle import shuffled
from ..solvers.plan import BlindPlan

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)        # solodeck.cards' suit order
SPHERE = {CLUBS: 0, HEARTS: 1, SPADES: 2, DIAMONDS: 3}
HAND = COURT = 4
KING_OF_DIAMONDS = DIAMONDS * 13 + 12
REMOVED = tuple(C.parse_cards("2H 2S 2D KC KS KH"))
PLAYER_CARDS = tuple(sorted(C.parse_cards("AC AH AS AD 2C 3C 4C")))
ALL_CARDS = tuple(c for c in C.standard_deck() if c not in REMOVED)  # the 46 cards of the game
COURT_CARDS = tuple(c for c in ALL_CARDS if c not in PLAYER_CARDS)     # the 39 court cards
ACES = {s: s * 13 for s in range(4)}
DRAW_HAND, DRAW_COURT, TURN_UP, INTRIGUE, INFLUENCE = range(5)
STEP_NAMES = {INTRIGUE: "intrigue", INFLUENCE: "influence"}


def suit(card: int) -> int:
    return card // 13


def value(card: int) -> int:
    return card % 13 + 1


def is_ace(card: int) -> bool:
    return card % 13 == 0


def player_stream(k: int) -> int:
    """The seed stream of the player's k-th reshuffle (k = 1, 2, ...)."""
    return 2 * k - 1


def court_stream(k: int) -> int:
    """The seed stream of the court's k-th reshuffle."""
    return 2 * k


def acquires(using, target: int, royal_family: bool = False) -> bool:
    """Do the hand cards ``using`` acquire ``target``? The cards other than the target suit's ace
    are all of one suit X and sum to T; the target (worth its value, less one with its suit's ace
    among ``using``) is of suit X and worth <= T, or of the next sphere and worth <= T // 2.
    Royal family: the K♦ only with diamonds."""
    ace = ACES[suit(target)]
    summed = [c for c in using if c != ace]
    if not summed or any(is_ace(c) for c in summed) or len({suit(c) for c in summed}) != 1:
        return False
    worth = value(target) - (1 if ace in using else 0)
    total = sum(value(c) for c in summed)
    step = SPHERE[suit(target)] - SPHERE[suit(summed[0])]
    if target == KING_OF_DIAMONDS and royal_family and step != 0:
        return False
    return (step == 0 and total >= worth) or (step == 1 and total // 2 >= worth)


def can_take(hand, target: int, royal_family: bool = False) -> bool:
    """Some subset of ``hand`` acquires ``target`` (the best one: every card of the summed suit)."""
    s = suit(target)
    ace = ACES[s] in hand
    worth = value(target) - (1 if ace else 0)
    same = sum(value(c) for c in hand if suit(c) == s and not is_ace(c))
    if same and same >= worth:
        return True
    if target == KING_OF_DIAMONDS and royal_family or SPHERE[s] == 0:
        return False
    prev_suit = next(x for x in range(4) if SPHERE[x] == SPHERE[s] - 1)
    prev = sum(value(c) for c in hand if suit(c) == prev_suit and not is_ace(c))
    return bool(prev) and prev // 2 >= worth


def king_ready(cards, royal_family: bool) -> bool:
    """Could some 4 of ``cards`` acquire the K♦? Diamonds (with the A♦: the 3 best) summing to 13
    (12 with the ace), or, without royal family, spades whose half reaches that."""
    ace = ACES[DIAMONDS] in cards
    for s, factor in ((DIAMONDS, 1), (SPADES, 2)):
        if s == SPADES and royal_family:
            continue
        values = sorted((value(c) for c in cards if suit(c) == s and not is_ace(c)), reverse=True)
        if sum(values[:4]) // factor >= 13 or (ace and values and sum(values[:3]) // factor >= 12):
            return True
    return False


_NEEDED: dict = {}
MOST_NEEDED = 6
FRONTIER_CAP = 200  # the relaxation's states per level; beyond, its answer so far
_BELOW = {CLUBS: CLUBS, HEARTS: CLUBS, SPADES: HEARTS, DIAMONDS: SPADES}  # the previous sphere's suit


def _reach(tops, aces, s: int, royal_king: bool = False) -> int:
    """The highest worth of a suit-``s`` card that some 4 cards with these per-suit best values
    (``tops``: 4 tuples, highest first) can acquire, its own ace counted as one more."""
    own = tops[s]
    best = max(sum(own), sum(own[:3]) + 1 if aces >> s & 1 else 0) if own else 0
    if SPHERE[s] > 0 and not royal_king:
        prev = tops[_BELOW[s]]
        if prev:
            best = max(best, sum(prev) // 2, sum(prev[:3]) // 2 + 1 if aces >> s & 1 else 0)
    return best


def acquisitions_needed(owned: tuple, in_play: tuple, royal_family: bool) -> int:
    """A lower bound on the acquisitions the player must still make before a hand can acquire the
    K♦: the fewest in a relaxation where any 4 owned cards can make a hand and every court card
    still in play can be taken at any time (at most MOST_NEEDED). Per suit only the highest card
    that can be taken is tried: it leaves every later sum at least as high as a lower one would."""
    key = (owned, in_play, royal_family)
    found = _NEEDED.get(key)
    if found is not None:
        return found
    tops = tuple(tuple(sorted((value(c) for c in owned if suit(c) == s and not is_ace(c)), reverse=True)[:4])
                 for s in range(4))
    aces = sum(1 << suit(c) for c in owned if is_ace(c))
    avail = tuple(tuple(sorted((value(c) for c in in_play if suit(c) == s and c != KING_OF_DIAMONDS), reverse=True))
                  for s in range(4))
    frontier = {(tops, avail)}
    needed = 0
    while needed < MOST_NEEDED:
        if any(_reach(t, aces, DIAMONDS, royal_family) >= 13 for t, _a in frontier):
            break
        needed += 1
        nxt = set()
        for t, av in frontier:
            for s in range(4):
                reach = _reach(t, aces, s)
                v = next((x for x in av[s] if x <= reach), None)
                if v is None:
                    continue
                rest = list(av[s])
                rest.remove(v)
                new_top = tuple(sorted(t[s] + (v,), reverse=True)[:4])
                nxt.add((t[:s] + (new_top,) + t[s + 1:], av[:s] + (tuple(rest),) + av[s + 1:]))
        if not nxt:
            needed = MOST_NEEDED
            break
        if len(nxt) > FRONTIER_CAP:  # every smaller count was refuted: ``needed`` is still a lower bound
            break
        frontier = nxt
    if len(_NEEDED) > 200_000:
        _NEEDED.clear()
    _NEEDED[key] = needed
    return needed


def flat(deck) -> tuple:
    return tuple(c for segment in deck for c in segment)


def deck_size(deck) -> int:
    return sum(len(segment) for segment in deck)


def draw_from(deck, card: int) -> tuple:
    """The deck after drawing ``card`` from its first segment: the rest stays in order."""
    first = deck[0]
    i = first.index(card)
    rest = first[:i] + first[i + 1:]
    return ((rest,) if rest else ()) + deck[1:]


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """``kind``: "remove" (``cards``: two court cards, or one hand card), "acquire" (``target``
    with the hand cards ``cards``) or "pass" (no influence)."""

    kind: str
    cards: tuple = ()
    target: int = -1

    def __str__(self):
        if self.kind == "remove":
            return "remove " + C.format_cards(self.cards)
        if self.kind == "acquire":
            return f"acquire {C.format_card(self.target)} with {C.format_cards(self.cards)}"
        return "pass"


PASS = Move("pass")
_MOVE_RE = re.compile(r"^remove\s+(\S+)(?:\s+(\S+))?$|^acquire\s+(\S+)\s+with\s+(.+)$|^pass$", re.IGNORECASE)
_EXPECTED = "expected 'remove 7S 9H' (two court cards), 'remove AC' (one hand card), 'acquire 5C with 2C 3C' or 'pass'"


def parse_move(text: str) -> Move:
    m = _MOVE_RE.match(" ".join(text.strip().split()))
    if not m:
        raise MoveError(f"'{text}' is not a Friends in High Places move ({_EXPECTED})")
    try:
        if m.group(1):
            cards = tuple(sorted(C.parse_card(t) for t in (m.group(1), m.group(2)) if t))
            if len(set(cards)) != len(cards):
                raise MoveError(f"'{text}': the same card twice")
            return Move("remove", cards)
        if m.group(3):
            target = C.parse_card(m.group(3))
            using = tuple(sorted(C.parse_card(t) for t in m.group(4).replace(",", " ").split()))
            if len(set(using)) != len(using) or target in using:
                raise MoveError(f"'{text}': the same card twice")
            return Move("acquire", using, target)
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    return PASS


# -- the state ------------------------------------------------------------------------------------
class State(BaseState):
    """A position. ``deck`` / ``court_deck``: segments (see the module doc); ``discard`` /
    ``court_discard`` / ``hand`` / ``court``: sorted; ``turn``: the turn under way (1 at the
    first); ``step``; ``shuffles`` / ``court_shuffles``: each pile's reshuffles so far; ``options``:
    (lost opportunities, royal family); ``end``: None, "won" or "lost"."""

    __slots__ = ("deck", "discard", "hand", "court_deck", "court_discard", "court", "turn", "step", "shuffles",
                 "court_shuffles", "seed", "options", "end", "_moves", "_key")

    def __init__(self, deck, discard, hand, court_deck, court_discard, court, turn, step, shuffles=0,
                 court_shuffles=0, seed=0, options=(False, False), end=None):
        lost_opportunities = options[0]
        while end is None:  # the forced steps: loss checks and reshuffles before a draw
            if step == DRAW_HAND and not hand and deck_size(deck) < HAND:
                if deck_size(deck) + len(discard) < HAND:
                    end = "lost"
                    break
                shuffles += 1
                deck = deck + (tuple(shuffled(discard, seed, player_stream(shuffles))),)
                discard = ()
                continue
            if step == DRAW_HAND and len(hand) == HAND:
                step = DRAW_COURT
                continue
            if step == DRAW_COURT and not court and deck_size(court_deck) < COURT:
                if deck_size(court_deck) + len(court_discard) < COURT:
                    end = "lost"
                    break
                court_shuffles += 1
                court_deck = court_deck + (tuple(shuffled(court_discard, seed, court_stream(court_shuffles))),)
                court_discard = ()
                if lost_opportunities:
                    step = TURN_UP
                continue
            if step == DRAW_COURT and len(court) == COURT:
                step = INTRIGUE
                continue
            break
        self.deck, self.discard, self.hand = deck, discard, hand
        self.court_deck, self.court_discard, self.court = court_deck, court_discard, court
        self.turn, self.step, self.shuffles, self.court_shuffles = turn, step, shuffles, court_shuffles
        self.seed, self.options, self.end = seed, options, end
        self._moves = self._key = None

    def _with(self, **changes) -> "State":
        fields = {name: getattr(self, name) for name in ("deck", "discard", "hand", "court_deck", "court_discard",
                                                         "court", "turn", "step", "shuffles", "court_shuffles",
                                                         "seed", "options", "end")}
        fields.update(changes)
        return State(**fields)

    @property
    def royal_family(self) -> bool:
        return self.options[1]

    def player_cards(self) -> tuple:
        return flat(self.deck) + self.discard + self.hand

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return self.end is None and self.step in (DRAW_HAND, DRAW_COURT, TURN_UP)

    def _chance_pile(self):
        if self.step == DRAW_HAND:
            return self.deck[0]
        if self.step == DRAW_COURT:
            return self.court_deck[0]
        return self.court_deck[-1]  # TURN_UP: the first card of the pile just shuffled

    def chance_outcomes(self):
        return [(card, 1) for card in sorted(self._chance_pile())]

    def dealt_outcome(self):
        return self._chance_pile()[0]

    def apply_chance(self, card):
        if self.step == DRAW_HAND:
            return self._with(deck=draw_from(self.deck, card), hand=tuple(sorted(self.hand + (card,))))
        if self.step == DRAW_COURT:
            return self._with(court_deck=draw_from(self.court_deck, card), court=tuple(sorted(self.court + (card,))))
        # TURN_UP: the K♦ goes to the bottom (a segment of its own), any other card leaves the game
        last = self.court_deck[-1]
        i = last.index(card)
        rest = last[:i] + last[i + 1:]
        deck = self.court_deck[:-1] + ((rest,) if rest else ()) + (((card,),) if card == KING_OF_DIAMONDS else ())
        if deck_size(deck) < COURT:  # the whole court deck has fewer than 4 cards
            return self._with(court_deck=deck, step=DRAW_COURT, end="lost")
        return self._with(court_deck=deck, step=DRAW_COURT)

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if self.end is None:
            return None
        return Outcome(self.end == "won", self.turn if self.end == "won" else None)

    def influence_moves(self) -> list:
        """Every (hand cards, court card) that acquires: one suit's cards (any non-empty subset of
        its non-aces) with or without the target suit's ace, then pass."""
        moves = []
        by_suit = {s: [c for c in self.hand if suit(c) == s and not is_ace(c)] for s in range(4)}
        for target in self.court:
            ace = ACES[suit(target)]
            for s in range(4):
                step = SPHERE[suit(target)] - SPHERE[s]
                if step not in (0, 1) or not by_suit[s]:
                    continue
                for n in range(1, len(by_suit[s]) + 1):
                    for summed in itertools.combinations(by_suit[s], n):
                        for extra in ((), (ace,)) if ace in self.hand else ((),):
                            using = tuple(sorted(summed + extra))
                            if acquires(using, target, self.royal_family):
                                moves.append(Move("acquire", using, target))
        return moves + [PASS]

    def legal_moves(self):
        if self._moves is None:
            if self.end is not None or self.is_chance():
                self._moves = []
            elif self.step == INTRIGUE:
                self._moves = [Move("remove", pair) for pair in itertools.combinations(self.court, 2)] + \
                              [Move("remove", (c,)) for c in self.hand]
            else:
                self._moves = self.influence_moves()
        return self._moves

    def player_count(self) -> int:
        """The cards the player owns: deck, discards and hand."""
        return deck_size(self.deck) + len(self.discard) + len(self.hand)

    def court_count(self) -> int:
        """The court's cards: court deck, court discards and the cards on the table."""
        return deck_size(self.court_deck) + len(self.court_discard) + len(self.court)

    def loses(self, move) -> bool:
        """Does ``move`` lose at once ("if at any time", RULINGS.md): the player left owning fewer
        than 4 cards (a hand card removed while owning 4), or the court fewer than 4 (two court
        cards removed, or a court card acquired). Acquiring the K♦ wins (reading 8)."""
        if move.kind == "remove":
            if len(move.cards) == 1:
                return self.player_count() - 1 < HAND
            return self.court_count() - 2 < COURT
        return move.kind == "acquire" and move.target != KING_OF_DIAMONDS and self.court_count() - 1 < COURT

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        end = "lost" if self.loses(move) else None
        if move.kind == "remove":
            if len(move.cards) == 2:
                return self._with(court=tuple(c for c in self.court if c not in move.cards), step=INFLUENCE, end=end)
            return self._with(hand=tuple(c for c in self.hand if c != move.cards[0]), step=INFLUENCE, end=end)
        if move.kind == "acquire" and move.target == KING_OF_DIAMONDS:
            return self._with(court=tuple(c for c in self.court if c != move.target),
                              discard=tuple(sorted(self.discard + self.hand + (move.target,))), hand=(), end="won")
        # the end of the turn: the acquired card, the hand and the court go to their discard piles
        gained = (move.target,) if move.kind == "acquire" else ()
        court = tuple(c for c in self.court if c not in gained)
        if end is not None:  # the court fell below 4 cards with this purchase
            return self._with(discard=tuple(sorted(self.discard + gained)), court=court, end=end)
        return self._with(discard=tuple(sorted(self.discard + self.hand + gained)), hand=(),
                          court_discard=tuple(sorted(self.court_discard + court)), court=(),
                          turn=self.turn + 1, step=DRAW_HAND)

    def key(self):
        if self._key is None:
            self._key = (self.deck, self.discard, self.hand, self.court_deck, self.court_discard, self.court,
                         self.turn, self.step, self.shuffles, self.court_shuffles, self.end)
        return self._key

    def table_scope(self):
        return (self.seed, self.options)

    # -- search support ----------------------------------------------------------------------
    def king_takable(self) -> Move | None:
        """At the influence, a move that acquires the K♦ (the fewest cards), if any."""
        if self.step != INFLUENCE or KING_OF_DIAMONDS not in self.court:
            return None
        moves = [m for m in self.legal_moves() if m.kind == "acquire" and m.target == KING_OF_DIAMONDS]
        return min(moves, key=lambda m: (len(m.cards), m.cards)) if moves else None

    def king_intrigue(self) -> Move | None:
        """At the intrigue, one that keeps the K♦ takable and does not lose (two other court cards
        while the court keeps 4, else the first hand card the K♦ can do without), if any."""
        if self.step != INTRIGUE or KING_OF_DIAMONDS not in self.court or \
                not can_take(self.hand, KING_OF_DIAMONDS, self.royal_family):
            return None
        if self.court_count() - 2 >= COURT:
            others = sorted(c for c in self.court if c != KING_OF_DIAMONDS)
            return Move("remove", tuple(others[:2]))
        if self.player_count() - 1 >= HAND:
            for c in self.hand:
                if can_take(tuple(x for x in self.hand if x != c), KING_OF_DIAMONDS, self.royal_family):
                    return Move("remove", (c,))
        return None

    def safe_move(self):
        """Acquiring the K♦ wins this turn (at the intrigue: an intrigue that keeps it takable and
        loses nothing): nothing can do better (fewest turns, and a sure win)."""
        king = self.king_takable()
        return king if king is not None else self.king_intrigue()

    def search_moves(self):
        """One move per court card acquired (which hand cards pay never matters: all of them are
        discarded at the end of the turn), best first; and no intrigue that removes the K♦ (it
        can never be won again). The K♦'s acquisition alone when it is possible."""
        if self.end is not None:
            return []
        king = self.king_takable()
        if king is not None:
            return [king]
        if self.step == INTRIGUE:
            safe = self.king_intrigue()
            if safe is not None:  # the K♦ stays takable and nothing is lost: the fewest turns
                return [safe]
            moves = [m for m in self.legal_moves() if KING_OF_DIAMONDS not in m.cards]
            return sorted(moves, key=self._intrigue_order)
        seen, moves = set(), []
        for move in self.legal_moves():
            if move.kind == "acquire" and move.target not in seen:
                seen.add(move.target)
                moves.append(min((m for m in self.legal_moves() if m.target == move.target),
                                 key=lambda m: (len(m.cards), m.cards)))
        moves.sort(key=lambda m: (-SPHERE[suit(m.target)], -value(m.target)))
        return moves + [PASS]

    def _intrigue_order(self, move):
        """Keep the K♦ takable, then the best court card; remove low cards first."""
        court = [c for c in self.court if c not in move.cards]
        hand = [c for c in self.hand if c not in move.cards]
        takable = [c for c in court if can_take(hand, c, self.royal_family)]
        best = max(((SPHERE[suit(c)], value(c)) for c in takable), default=(-1, 0))
        return (-best[0], -best[1], len(move.cards) == 1, sum(value(c) for c in move.cards))

    def score_bound(self):
        return self._bound(blind=False)

    def blind_score_bound(self):
        return self._bound(blind=True)

    def _bound(self, blind: bool):
        """The fewest turns still possible (docs/rules/friends-in-high-places.md, "How the solver
        plays it"): the later of the first turn the K♦ can be in the court and the first turn the
        player's hand can hold cards that acquire it. NO_WIN once the K♦ has left the game."""
        outcome = self.outcome()
        if outcome is not None:
            return outcome.score if outcome.won else NO_WIN
        t = self.turn
        drawn_court = self.step in (INTRIGUE, INFLUENCE)
        to_draw = 0 if drawn_court else COURT - len(self.court)  # court cards still to come this turn
        cdeck = flat(self.court_deck)
        if self.step == TURN_UP and not blind:  # the first card of the new pile is about to go
            turned = self.court_deck[-1][0]
            cdeck = flat(self.court_deck[:-1]) + self.court_deck[-1][1:] + ((turned,) if turned == KING_OF_DIAMONDS else ())
        king = KING_OF_DIAMONDS
        if king in self.court and drawn_court:
            king_turn = t if can_take(self.hand, king, self.royal_family) else self._after_reshuffle(len(cdeck), 0)
        elif king in self.court:
            king_turn = t
        elif king in cdeck:
            if blind:  # only the segment is known: the earliest place of the K♦'s segment
                p = 0
                for segment in self.court_deck:
                    if king in segment:
                        break
                    p += len(segment)
            else:
                p = cdeck.index(king)
            king_turn = t if p < to_draw else t + 1 + (p - to_draw) // COURT
        elif king in self.court_discard:
            king_turn = self._after_reshuffle(len(cdeck), to_draw)
        else:
            return NO_WIN
        return max(king_turn, self._ready_turn())

    def _after_reshuffle(self, cards_in_deck: int, to_draw: int) -> int:
        """The first turn whose court can hold a card now in the court discards (or to be
        discarded at the end of this turn): the turn of the next court reshuffle."""
        if cards_in_deck < to_draw:
            return self.turn
        return self.turn + 1 + (cards_in_deck - to_draw) // COURT

    def _ready_turn(self) -> int:
        """The first turn the player's hand can acquire the K♦. Cards acquired later come back
        only after the next reshuffle of the player's discards; a hand short of the K♦ needs at
        least one acquisition per missing card (counted by the highest sphere owned)."""
        t = self.turn
        if self.step in (INTRIGUE, INFLUENCE) and can_take(self.hand, KING_OF_DIAMONDS, self.royal_family):
            return t
        owned = self.player_cards()
        if king_ready(owned, self.royal_family):
            return t + 1 if self.step in (INTRIGUE, INFLUENCE) else t
        top = max((SPHERE[suit(c)] for c in owned if not is_ace(c)), default=0)
        left = deck_size(self.deck) - (HAND - len(self.hand) if self.step == DRAW_HAND else 0)
        back = t + 1 + left // HAND  # a card acquired this turn or later is in hand at this turn at the earliest
        in_play = tuple(sorted(flat(self.court_deck) + self.court_discard + self.court))
        # one acquisition a turn, from this turn on; the last one must come back before the K♦
        counted = t + acquisitions_needed(tuple(sorted(owned)), in_play, self.royal_family)
        if top >= 2:  # a spade or diamond owned: one more acquisition at least
            return max(back, counted)
        if top == 1:  # hearts: a spade that comes back to buy a diamond, or three spades on three turns
            return max(counted, back + 1 if self.royal_family else min(back + 1, max(back, t + 3)))
        # clubs only: a heart first, which must come back to buy a spade, which must come back to
        # buy a diamond (or two more spades on the next turns)
        return max(counted, back + 2)

    def picture(self, seen_only=False):
        """The hand and the court on the table; the player's deck and discards, the court deck and
        the court discards."""
        piles = [P.pile("hand", [P.card(c) for c in self.hand], group="table", spread=True),
                 P.pile("court", [P.card(c) for c in self.court], group="table", spread=True),
                 P.deck("deck", flat(self.deck), seen_only, group="player"),
                 P.pile("discard", [P.card(c) for c in self.discard], group="player"),
                 P.deck("court deck", flat(self.court_deck), seen_only, group="court piles"),
                 P.pile("court discard", [P.card(c) for c in self.court_discard], group="court piles")]
        return P.picture(piles, turn=self.turn)

    def __str__(self):
        lines = [f"turn {self.turn}" + (f", {STEP_NAMES[self.step]}" if self.step in STEP_NAMES else "")]
        lines.append(f"hand: {C.format_cards(self.hand) or '(none)'}    court: {C.format_cards(self.court) or '(none)'}")
        lines.append(f"deck {deck_size(self.deck)}, discard {len(self.discard)}; court deck {deck_size(self.court_deck)}, "
                     f"court discard {len(self.court_discard)}; reshuffles {self.shuffles} + {self.court_shuffles}")
        if self.end is not None:
            lines.append(f"{self.end}" + (f" in {self.turn} turns" if self.end == "won" else ""))
        return "\n".join(lines)


# -- the game -------------------------------------------------------------------------------------
class FriendsInHighPlaces(Game):
    name = "friends-in-high-places"
    aliases = ("friends", "fihp")
    title = "Friends in High Places"
    source = "seed 002 (a solo deck-builder, December 2015)"
    has_chance = True
    reshuffles = True    # the player's and the court's discards
    score_name = "turns"  # turns taken to acquire the K♦ (RULINGS: the text has no score)
    score_sense = "lower"
    modes = ("open", "blind")
    options = {"lost-opportunities": (False, (False, True)), "royal-family": (False, (False, True))}
    piles = {"player": "the player's 7 cards (A♣ A♥ A♠ A♦ 2♣ 3♣ 4♣), top first",
             "court": "the other 39 cards, top first"}

    def seeded_piles(self, seed, options):
        """One shuffle of the game's 46 cards (stream 0), split keeping the order: the player's
        seven cards are the player's deck, the rest the court deck."""
        pack = shuffled(ALL_CARDS, seed)
        return {"player": [c for c in pack if c in PLAYER_CARDS], "court": [c for c in pack if c in COURT_CARDS]}

    def check_piles(self, piles, source, options=None):
        check_exact_pile(piles["player"], list(PLAYER_CARDS), source, "player")
        check_exact_pile(piles["court"], list(COURT_CARDS), source, "court")

    def initial_state(self, deal: Deal) -> State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        options = (bool(deal.options.get("lost-opportunities")), bool(deal.options.get("royal-family")))
        if deal.position is not None:
            return _state_from_position(deal.position, deal.source, seed, options)
        return State((tuple(deal.piles["player"]),), (), (), (tuple(deal.piles["court"]),), (), (), 1, DRAW_HAND,
                     seed=seed, options=options)

    def parse_move(self, text):
        return parse_move(text)

    kernel = "friends_in_high_places"  # ext/friends_in_high_places.pyx: TurnSolver's search in C

    def fast_solver(self, limits, progress=None):
        """The search by whole turns: iterative deepening on the turn of the win, where the
        generic search over single moves does not finish a deal. Compiled (KernelSolver) when the
        kernel is built, else TurnSolver in Python."""
        kernel = self.load_kernel()
        if kernel is None:
            return TurnSolver(self, limits, progress)
        return KernelSolver(self, kernel, limits, progress)

    def kernel_moves(self, state):
        """The kernel's reading of the rules (ext/friends_in_high_places.pyx legal_moves) as
        moves, at an intrigue or an influence; None without the kernel."""
        kernel = self.load_kernel()
        if kernel is None or state.step not in (INTRIGUE, INFLUENCE) or state.end is not None:
            return None
        out = []
        for m in kernel.legal_moves(3 if state.step == INTRIGUE else 4, state.hand, state.court, state.royal_family):
            if m[0] == "remove":
                out.append(Move("remove", tuple(m[1])))
            elif m[0] == "acquire":
                out.append(Move("acquire", tuple(m[1]), m[2]))
            else:
                out.append(PASS)
        return out

    def baseline_move(self, state):
        """The baseline, a rule a person would use: aim at the best court card the hand can take
        (the K♦, else the highest sphere, then the highest value); at the intrigue remove the two
        lowest other court cards (never the K♦; a hand card only when the court has nothing
        else to give: the lowest club; or, when removing two court cards would leave the court
        fewer than 4, the lowest hand card); at the influence take that card with the fewest
        cards, never one whose purchase leaves the court fewer than 4. It takes the K♦ after an
        intrigue that keeps it takable and loses nothing, when there is one."""
        moves = state.legal_moves()
        if state.step == INFLUENCE:
            king = state.king_takable()
            if king is not None:
                return king
            acquire = [m for m in moves if m.kind == "acquire" and not state.loses(m)]
            if not acquire:
                return PASS
            return max(acquire, key=lambda m: (SPHERE[suit(m.target)], value(m.target), -len(m.cards), m.cards))
        king = state.king_intrigue()
        if king is not None:
            return king
        rank = lambda c: (c == KING_OF_DIAMONDS, SPHERE[suit(c)], value(c))
        takable = [c for c in state.court if can_take(state.hand, c, state.royal_family)]
        target = max(takable, key=rank, default=None)
        if target is None and KING_OF_DIAMONDS not in state.court:
            clubs = [c for c in state.hand if suit(c) == CLUBS and not is_ace(c)]
            if clubs and len(state.player_cards()) > 6:
                return Move("remove", (min(clubs, key=value),))
        others = sorted((c for c in state.court if c != target and c != KING_OF_DIAMONDS), key=rank)
        move = Move("remove", tuple(sorted(others[:2])))
        if state.loses(move):  # the court would fall below 4: its lowest hand card, if that does not lose
            lowest = min(state.hand, key=lambda c: (not is_ace(c), SPHERE[suit(c)], value(c)))
            if not state.loses(Move("remove", (lowest,))):
                return Move("remove", (lowest,))
        return move

    def blind_plan(self, options=None):
        # 4 rollouts per move: a rollout plays the rest of the game in Python (~10 ms); search_moves():
        # one per distinct result (at most 10 intrigues, 5 influences); the policy leaves the thinning
        # rule only for more wins in the samples
        return BlindPlan(samples=4, candidates=16, keep_rule=True)

    def blind_rule(self, state):
        """Rollouts play the thinning rule (thinning_move), not the baseline: both are blind (they
        see the hand, the court and how many cards the player owns), but the baseline almost never
        wins (0-2 of 1,000 deals a setting) and the thinning rule wins 97-99%. The blind policy is then
        one step of improvement over the thinning rule."""
        return thinning_move(state)


def thinning_move(state):
    """A second simple rule, which thins the deck (what the open search's wins do): at the
    influence, take the K♦ if the hand can, else the court card of the highest sphere, then the
    highest value (with the fewest cards), never one whose purchase leaves the court fewer than 4
    cards. At the intrigue, of the intrigues that keep the K♦ and do not lose at once, the one
    after which the best court card the hand can take is highest; among those, remove the lowest
    hand card (aces lowest) while the player owns more than 4 cards (the deck thins to four: a
    hand card removed while owning 4 loses at once), else the two lowest court cards. It sees only
    the hand, the court and how many cards the player and the court have: a blind policy. (Which
    cards pay never matters: the hand is discarded at the end of the turn; the fewest, then the
    first in order, as in search_moves().)"""
    if state.step == INFLUENCE:
        king = state.king_takable()
        if king is not None:
            return king
        acquire = [m for m in state.legal_moves() if m.kind == "acquire" and not state.loses(m)]
        if not acquire:
            return PASS
        target = max(acquire, key=lambda m: (SPHERE[suit(m.target)], value(m.target))).target
        return min((m for m in acquire if m.target == target), key=lambda m: (len(m.cards), m.cards))
    court_cards = state.court_count()
    rank = lambda c: -1 if is_ace(c) else SPHERE[suit(c)] * 16 + value(c)

    def order(move):
        if state.loses(move):
            return ((-9, 0), False, 0, move.cards)
        hand = [c for c in state.hand if c not in move.cards]
        court = [c for c in state.court if c not in move.cards]
        buy = court_cards - (len(move.cards) == 2) * 2 - 1 >= COURT  # a purchase keeps the court at 4
        takable = [c for c in court if (buy or c == KING_OF_DIAMONDS) and can_take(hand, c, state.royal_family)]
        best = max(((99, 0) if c == KING_OF_DIAMONDS else (SPHERE[suit(c)], value(c)) for c in takable),
                   default=(-1, 0))
        if len(move.cards) == 1:
            return (best, True, -rank(move.cards[0]), move.cards)
        return (best, False, -sum(rank(c) for c in move.cards), move.cards)

    return max((m for m in state.legal_moves() if KING_OF_DIAMONDS not in m.cards), key=order)


GAME = FriendsInHighPlaces()  # the registry's instance (solodeck/registry.py)

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


def _state_from_position(position: dict, source: str, seed: int, options) -> State:
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


# -- the open-mode search by whole turns ----------------------------------------------------------
class TurnSolver:
    """DepthFirstSolver's interface (``solve``, ``value``) on an iterative deepening over whole
    turns (docs/rules/friends-in-high-places.md, "How the solver plays it"). Threshold T = the
    root's score_bound(), then T + 1, ...: "is there a win by turn T?", the first yes is the fewest
    turns. A turn is one intrigue and one influence (search_moves(): one per court card taken).
    A failure is remembered per position with the turns it had left; the key leaves out a discard
    pile that cannot be reshuffled within those turns, so lines that differ only in which court
    cards went there meet. An iteration in which nothing was cut by the threshold proves that no
    win exists at all."""

    # KernelSolver's, kept where a stop may leave them: the best line found so far (from the state
    # searched) and the proven range (lo, hi) of the fewest turns, or None
    best = None
    range = None

    def __init__(self, game, limits: Limits | None = None, progress=None):
        self.game, self.limits, self.progress = game, limits or Limits(), progress
        self.nodes = 0
        self.failed: dict = {}
        self.scope = None

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        stop, line, won = None, [], False
        try:
            found = self._deepen(state)
            if found is not None:
                line, won = found, True
        except SearchStopped as stopped:
            stop = stopped.reason
        return finish_open(self.game, state, line, won=won, stop=stop, nodes=self.nodes, stored=len(self.failed),
                           start=start, engine="turns")

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        try:
            line = self._deepen(state)
        except SearchStopped:
            return None, False
        if line is None:
            return self.game.utility(Outcome(False, None)), True
        return self.game.utility(self.game.replay_moves(state, line).outcome()), True

    # -- the search --------------------------------------------------------------------------
    def _deepen(self, state):
        """A line to the fewest-turns win, or None when no win exists; SearchStopped at a limit."""
        if state.outcome() is not None:
            return [] if state.outcome().won else None
        if self.scope != state.table_scope():
            self.failed, self.scope = {}, state.table_scope()
        self.deadline = time.perf_counter() + self.limits.seconds() if self.limits.seconds() else None
        prefix = []
        if state.step == INFLUENCE:  # a position given after its intrigue: finish the turn by hand
            return self._from_influence(state)
        bound = state.score_bound()
        if bound == NO_WIN:
            return None
        threshold = bound
        while True:
            self.cut = False
            line = self._search(state, threshold)
            if line is not None:
                return prefix + line
            if not self.cut:  # nothing was left out for lack of turns: no win at all
                return None
            threshold += 1

    def _from_influence(self, state):
        best = None
        for move in state.search_moves():
            after = advance_chance(state.play(move))
            try:
                line = [] if after.won else (None if after.outcome() is not None else self._deepen_child(after))
            except SearchStopped:
                # a limit inside this child: the best win from here is the better of the children's
                # before it and this child's best so far (in self.best, as a line from the child); a
                # child's proven range says nothing of this position's
                line, self.range = self.best, None
                if line is not None:
                    best = self._better(best, after, move, line)
                self.best = None if best is None else best[1]
                raise
            if line is not None:
                best = self._better(best, after, move, line)
        return None if best is None else best[1]

    def _better(self, best, after, move, line):
        """(score, line) of the better of ``best`` and ``move`` followed by ``line`` from ``after``."""
        end = self.game.replay_moves(after, line).outcome()
        return best if best is not None and best[0] <= end.score else (end.score, [move] + line)

    def _deepen_child(self, state):
        saved = self.deadline
        try:
            return self._deepen(state)
        finally:
            self.deadline = saved

    def _search(self, state, threshold: int):
        """A winning line of at most ``threshold`` turns from ``state`` (an intrigue), or None."""
        self.nodes += 1
        if self.nodes % 256 == 0:
            self._check()
        left = threshold - state.turn + 1
        bound = state.score_bound()
        if bound == NO_WIN:
            return None
        if bound > threshold:
            self.cut = True
            return None
        key = self._key(state, left)
        stored = self.failed.get(key, 0)
        if stored >= left:
            self.cut = self.cut or stored != float("inf")  # a failure for lack of turns is a threshold cut
            return None
        children = self._children(state)
        cut_before = self.cut
        self.cut = False
        for moves, child in children:
            if child.won:
                return list(moves)
            if child.outcome() is not None:
                continue
            line = self._search(child, threshold)
            if line is not None:
                return list(moves) + line
        if not self.cut:
            self.failed[key] = float("inf")  # lost whatever the turns: nothing was cut below
        else:
            self.failed[key] = max(self.failed.get(key, 0), left)
        self.cut = self.cut or cut_before
        return None

    def _children(self, state):
        """Every turn (intrigue, influence) from ``state``, one per distinct result, best first."""
        seen, out = set(), []
        for first in state.search_moves():
            middle = state.play(first)
            if middle.outcome() is not None:  # lost at the intrigue
                continue
            for second in middle.search_moves():
                child = advance_chance(middle.play(second))
                if child.won:
                    return [((first, second), child)]
                key = child.key()
                if key in seen:
                    continue
                seen.add(key)
                out.append(((first, second), child))
        # the highest court card taken first, and no hand card removed before removing court cards
        out.sort(key=lambda mc: (-(SPHERE[suit(mc[0][1].target)] * 16 + value(mc[0][1].target))
                                 if mc[0][1].target >= 0 else 0, len(mc[0][0].cards) == 1))
        return out

    def _key(self, state, left: int):
        """The position without the turn number; a discard pile that no reshuffle within ``left``
        turns can bring back is left out (with its pile's reshuffle count) but for its size."""
        court_deck, deck = flat(state.court_deck), flat(state.deck)
        court_back = 1 + len(court_deck) // COURT < left
        player_back = 1 + len(deck) // HAND < left
        # (the size: the loss below 4 cards counts the pile)
        return (deck, state.discard if player_back else len(state.discard), state.shuffles if player_back else None,
                state.hand, court_deck, state.court_discard if court_back else len(state.court_discard),
                state.court_shuffles if court_back else None, state.court, tuple(state.court_deck[-1:]) == ((KING_OF_DIAMONDS,),))

    def _check(self):
        if self.progress is not None:
            self.progress(self.nodes)
        self.limits.check(self.deadline, len(self.failed))


class KernelSolver(TurnSolver):
    """TurnSolver's iterative deepening run by the compiled kernel (ext/friends_in_high_places.pyx)
    from an intrigue, with the kernel's stronger bound; a position given at its influence is
    finished turn by turn here as in TurnSolver. The kernel returns its line as (cards removed,
    court card acquired) per turn; the moves are rebuilt here and replayed under the rules by
    finish_open before anything is printed."""

    def __init__(self, game, kernel, limits: Limits | None = None, progress=None):
        super().__init__(game, limits, progress)
        self.kernel_module = kernel
        self.search, self._nodes_before = None, 0
        self.deadline = None  # TurnSolver's; the kernel keeps its own clock

    @property
    def stored_count(self):
        return self.search.stored if self.search is not None else 0

    LONGEST = 64  # no game lasts this many turns: a search by this turn is cut only by a loss

    def solve(self, state):
        """As TurnSolver.solve, but a limit keeps the best win found so far (winnable, its
        score unproven) instead of answering unknown."""
        start = time.perf_counter()
        state = advance_chance(state)
        self.best, stop, self.range = None, None, None
        try:
            found = self._deepen(state)
        except SearchStopped as stopped:
            found, stop = self.best, stopped.reason
        result = finish_open(self.game, state, found or [], won=found is not None, stop=stop, nodes=self.nodes,
                             stored=self.stored_count, start=start, engine="turns-kernel")
        if result.verdict == "winnable" and not result.exact and self.range:
            result.score_bound = self.range[0]  # no win before turn lo: proven
        return result

    FIRST_SLICE = 0.05  # seconds of the first narrowing questions (doubled after a round without progress)

    def _deepen(self, state):
        """The fewest-turns winning line from ``state``, or None when no win exists.

        From an intrigue: the thinning rule's game, played with the cards dealt, gives a first win
        when it wins; else the kernel asks for any win by turn + LONGEST (no game lasts that long,
        so a no proves the deal unwinnable). Then it narrows [lo, hi], lo = the kernel's
        lower bound (no win before it), hi = the best win found: "a win by turn T?" for T = lo,
        the middle and hi - 1, each with a slice of time. A yes lowers hi to that win's turn; a
        no (an exhaustive search) raises lo to T + 1; a question stopped by its slice changes
        nothing (its stored failures stay valid). A round without progress doubles the slice.
        lo = hi proves the best win the fewest turns. SearchStopped at the limit (``self.best``
        keeps the best line found)."""
        if state.outcome() is not None:
            return [] if state.outcome().won else None
        if state.step == INFLUENCE:
            return self._from_influence(state)
        if self.scope != state.table_scope() or self.search is None:
            self.scope = state.table_scope()
            self._nodes_before = self.nodes
            self.search = self.kernel_module.Search(state.seed, state.options[0], state.options[1],
                                                    self.limits.memory_mb, 0.0, self.limits.max_states or 0)
        args = (flat(state.deck), state.discard, state.shuffles, flat(state.court_deck), state.court_discard,
                state.court_shuffles, state.hand, state.court, state.turn)
        limit = self.limits.seconds() or 0.0
        deadline = time.perf_counter() + limit if limit else None
        self.best = None
        best = None

        def ask(threshold, seconds):
            """(line or None, finished): "a win by turn ``threshold``?" within ``seconds``."""
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                self._stop(state, best, 1)
            self.search.restart_clock(seconds if left is None else (min(seconds, left) if seconds else left))
            try:
                line, _cut = self.search.within(*args, threshold)
                return line, True
            except self.kernel_module.Stopped:
                if self.search.stopped != 1 or (left is not None and seconds and left <= seconds) or not seconds:
                    self._stop(state, best, self.search.stopped)
                return None, False
            finally:
                self.nodes = self._nodes_before + self.search.nodes

        rule = self._thinning_line(state)
        if rule is not None:  # a win to start from: the thinning rule's game, played open
            best, hi = rule, self.game.replay_moves(state, rule).outcome().score
        else:
            line, _done = ask(state.turn + self.LONGEST, 0.0)
            if line is None:
                return None
            best = self._moves(state, line)
            hi = state.turn + len(line) - 1
        lo = self.search.bound_of(*args)
        if lo > hi:  # a lower bound above a win that replays: a bug, never an answer
            raise AssertionError(f"internal error: the kernel's bound (turn {lo}) is after a win at turn {hi}")
        slice_ = self.FIRST_SLICE
        while lo < hi:
            self.range = (lo, hi)  # no win before turn lo; the best win found, at turn hi
            progress = False
            for threshold in sorted({lo, (lo + hi) // 2, hi - 1}):
                if threshold >= hi or threshold < lo:
                    continue
                line, done = ask(threshold, slice_)
                if line is not None:
                    best, hi, progress = self._moves(state, line), state.turn + len(line) - 1, True
                    break
                if done:
                    lo, progress = threshold + 1, True
                    break
                self.range = (lo, hi)
            if not progress:
                slice_ *= 2
        self.range = (hi, hi)
        return best

    @staticmethod
    def _thinning_line(state):
        """The moves of thinning_move's game from ``state`` (the dealt cards drawn), if it wins."""
        moves, end = [], state
        while end.outcome() is None:
            move = thinning_move(end)
            moves.append(move)
            end = advance_chance(end.play(move))
        return moves if end.outcome().won else None

    def _stop(self, state, best, code):
        self.best = best
        raise SearchStopped(StopReason.from_code(code))

    @staticmethod
    def _moves(state, line):
        """The kernel's line as moves from ``state`` (an intrigue)."""
        moves = []
        for removed, target in line:
            if target == KING_OF_DIAMONDS:  # (the kernel takes it only after such an intrigue)
                intrigue = state.king_intrigue() or Move("remove", tuple(sorted(c for c in state.court
                                                                               if c != KING_OF_DIAMONDS)[:2]))
            else:
                intrigue = Move("remove", tuple(sorted(removed)))
            middle = state.play(intrigue)
            if target < 0:
                influence = PASS
            else:
                influence = min((m for m in middle.legal_moves() if m.kind == "acquire" and m.target == target),
                                key=lambda m: (len(m.cards), m.cards))
            moves += [intrigue, influence]
            state = advance_chance(middle.play(influence))
        return moves
