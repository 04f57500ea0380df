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
from dataclasses import dataclass

from ... import cards as C
from ... import picture as P
from ...api import NO_WIN, Outcome, check_exact_pile
from ...api import State as BaseState
from ...errors import MoveError
from ...shuffle import shuffled

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


# -- the deal -------------------------------------------------------------------------------------
def seeded_piles(seed) -> dict:
    """One shuffle of the game's 46 cards (stream 0), split keeping the order: the player's
    seven cards are the player's deck, the rest the court deck."""
    pack = shuffled(ALL_CARDS, seed)
    return {"player": [c for c in pack if c in PLAYER_CARDS], "court": [c for c in pack if c in COURT_CARDS]}


def check_piles(piles, source):
    check_exact_pile(piles["player"], list(PLAYER_CARDS), source, "player")
    check_exact_pile(piles["court"], list(COURT_CARDS), source, "court")


def first_state(piles, seed: int, options) -> State:
    """The game's first position: the player's and the court's decks as dealt, turn 1."""
    return State((tuple(piles["player"]),), (), (), (tuple(piles["court"]),), (), (), 1, DRAW_HAND,
                 seed=seed, options=options)
