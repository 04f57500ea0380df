"""The Emissary (Isaludo): the rules, the pure-Python reference engine. Rules page:
docs/rules/emissary.md.

A card is solodeck.cards' int (suit * 13 + value - 1; suits S, H, D, C; aces low). Kingdoms are
0-7 here and 1-8 in moves; a kingdom's number (the debates to win there) is its place + 1.

A visit is a sequence of steps: DRAW (a chance node per card drawn: the initial eight, clubs and
diamonds draws), CHOOSE (the kingdom to visit), ACT (an ability, or ``debate``), LEAD (a chance
node: the ruler's card), RESPOND (the card played) and DISCARD (diamonds' two discards). Draws keep
the rest of the deck in its order (the first copy of the drawn card leaves), so one key serves
open mode (the dealt card) and blind mode (any card of the composition), as in Area 52.

Reshuffles are seeded (RULINGS.md, Common): the pile is sorted and shuffled with stream n of the
deal's seed, n counting the game's reshuffles from 1. When a draw finds the deck empty, the discard
pile is reshuffled into it; after a visit, deck, discard pile and scoring pile are reshuffled
together. Each happens in the constructor, as a forced step.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import cards as C
from ... import picture as P
from ...api import NoWin, Outcome, check_exact_pile, without_first
from ...api import State as BaseState
from ...errors import MoveError
from ...shuffle import shuffled

KINGDOMS = 8
HAND = 8
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)  # solodeck.cards' suit order
DECK_CARDS = tuple(s * 13 + v for s in range(4) for v in range(8))
RULER_CARDS = tuple(s * 13 + v for s in range(4) for v in (11, 12))     # queens and kings
JACKS = tuple(s * 13 + 10 for s in range(4))
DRAW, CHOOSE, ACT, LEAD, RESPOND, DISCARD = range(6)
CLUBS_IN_DECK = 8  # A-8 (draws_ahead, counted once: the search bounds ask it at every state)


def suit(card: int) -> int:
    return card // 13


def value(card: int) -> int:
    return card % 13 + 1


def wins_debate(response: int, lead: int, trump: int) -> bool:
    """A higher card of the led suit wins; so does a trump when the lead is not trump."""
    if suit(response) == suit(lead):
        return value(response) > value(lead)
    return suit(response) == trump and suit(lead) != trump


def legal_responses(hand: tuple, lead: int) -> tuple:
    """The cards of the led suit if the hand has any, else the whole hand."""
    following = tuple(c for c in hand if suit(c) == suit(lead))
    return following or hand


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """``kind``: "visit" (``target`` = kingdom 1-8), "debate", "play" / "discard" (``card``), or
    "use" (``card`` = a jack or a supporting ruler; ``target`` = the kingdom a spades ability
    swaps with, else 0)."""

    kind: str
    card: int = -1
    target: int = 0

    def __str__(self):
        if self.kind == "visit":
            return f"visit {self.target}"
        if self.kind == "debate":
            return "debate"
        text = f"{self.kind} {C.format_card(self.card)}"
        return f"{text} {self.target}" if self.target else text


DEBATE = Move("debate")
_MOVE_RE = re.compile(r"^(visit)\s+(\d)$|^(debate)$|^(play|discard|use)\s+(\S+)(?:\s+(\d))?$", re.IGNORECASE)


def parse_move(text: str) -> Move:
    expected = ("expected 'visit K' (kingdom 1-8), 'debate', 'play 7H', 'discard 4C', 'use JH' (a jack or a "
                "supporting king or queen) or 'use JS 5' (spades: swap with kingdom 5)")
    m = _MOVE_RE.match(text.strip())
    if not m:
        raise MoveError(f"'{text}' is not an Emissary move ({expected})")
    if m.group(1):
        kingdom = int(m.group(2))
        if not 1 <= kingdom <= KINGDOMS:
            raise MoveError(f"'{text}': kingdoms are 1-{KINGDOMS}")
        return Move("visit", target=kingdom)
    if m.group(3):
        return DEBATE
    try:
        card = C.parse_card(m.group(5))
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    kind, target = m.group(4).lower(), int(m.group(6) or 0)
    if kind == "use":
        if card not in JACKS + RULER_CARDS or not 0 <= target <= KINGDOMS or (target and suit(card) != SPADES):
            raise MoveError(f"'{text}' is not an Emissary move ({expected})")
    elif card not in DECK_CARDS or target:
        raise MoveError(f"'{text}': only the cards A-8 are played and discarded ({expected})")
    return Move(kind, card, target)


# -- the state ------------------------------------------------------------------------------------
class State(BaseState):
    """A position. ``rulers``: the 8 kingdoms' rulers; ``visited``: bit k set once kingdom k is
    won; ``spent``: bit k set once kingdom k's ruler's ability is used; ``kingdom``: the kingdom
    visited (-1 between visits); ``hand``, ``discard``, ``scoring``: sorted; ``deck``: top first;
    ``jacks``: bit s set once the jack of suit s is used this visit; ``step``; ``lead``: the
    ruler's card at RESPOND; ``draws`` / ``discards``: still to draw / to discard; ``shuffles``:
    reshuffles so far; ``lost``: a visit failed."""

    __slots__ = ("rulers", "visited", "spent", "kingdom", "hand", "deck", "discard", "scoring", "jacks", "step",
                 "lead", "draws", "discards", "shuffles", "seed", "lost", "_moves", "_key")

    def __init__(self, rulers, visited, spent, kingdom, hand, deck, discard, scoring, jacks, step, lead=-1,
                 draws=0, discards=0, shuffles=0, seed=0, lost=False):
        while not lost:  # the forced steps
            if step in (DRAW, LEAD) and not deck and discard:  # mid-visit: the discard pile becomes the deck
                shuffles += 1
                deck, discard = tuple(shuffled(discard, seed, shuffles)), ()
                continue
            if step == DRAW and (not draws or not deck):  # done (or nothing left anywhere to draw)
                step, draws = (CHOOSE if kingdom < 0 else DISCARD if discards else ACT), 0
                continue
            if step == LEAD and not deck:  # no card anywhere for a lead: the visit ends as it stands
                step = ACT
                hand, discard = (), tuple(sorted(discard + hand))
                continue
            if step == DISCARD and (not discards or not hand):
                step, discards = ACT, 0
                continue
            if step == ACT and not hand:  # the visit is over
                if len(scoring) != kingdom + 1:
                    lost = True
                    break
                visited |= 1 << kingdom
                if visited == (1 << KINGDOMS) - 1:
                    deck, discard, scoring = tuple(sorted(deck + discard + scoring)), (), ()
                    break
                shuffles += 1
                deck = tuple(shuffled(tuple(sorted(deck + discard + scoring)), seed, shuffles))
                discard = scoring = ()
                kingdom, jacks, step, draws = -1, 0, DRAW, HAND
                continue
            break
        self.rulers, self.visited, self.spent, self.kingdom = rulers, visited, spent, kingdom
        self.hand, self.deck, self.discard, self.scoring = hand, deck, discard, scoring
        self.jacks, self.step, self.lead, self.draws, self.discards = jacks, step, lead, draws, discards
        self.shuffles, self.seed, self.lost = shuffles, seed, lost
        self._moves = self._key = None

    def _with(self, **changes) -> "State":
        fields = {name: getattr(self, name) for name in ("rulers", "visited", "spent", "kingdom", "hand", "deck",
                                                         "discard", "scoring", "jacks", "step", "lead", "draws",
                                                         "discards", "shuffles", "seed", "lost")}
        fields.update(changes)
        return State(**fields)

    def trump(self) -> int:
        return suit(self.rulers[self.kingdom])

    def won_count(self) -> int:
        return bin(self.visited).count("1")

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return not self.lost and self.step in (DRAW, LEAD)

    def chance_outcomes(self):
        return [(card, 1) for card in sorted(self.deck)]

    def dealt_outcome(self):
        return self.deck[0]

    def apply_chance(self, card):
        deck = without_first(self.deck, card)
        if self.step == LEAD:
            return self._with(deck=deck, step=RESPOND, lead=card)
        return self._with(deck=deck, hand=tuple(sorted(self.hand + (card,))), draws=self.draws - 1)

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if not self.lost and self.visited != (1 << KINGDOMS) - 1:
            return None
        unused = bin(self.visited & ~self.spent).count("1")
        return Outcome(not self.lost, self.won_count() + unused)

    def abilities(self) -> list:
        """Every ability that changes something now (docs/rules/emissary.md, reading 11): each
        unused jack, each unspent supporting ruler."""
        cards = [j for j in JACKS if not self.jacks >> suit(j) & 1]
        cards += [self.rulers[k] for k in range(KINGDOMS) if self.visited >> k & 1 and not self.spent >> k & 1]
        moves = []
        others = [k for k in range(KINGDOMS) if k != self.kingdom and not self.visited >> k & 1]
        for card in cards:
            kind = suit(card)
            if kind == HEARTS and any(suit(c) == self.trump() for c in self.hand):
                moves.append(Move("use", card))
            elif kind == CLUBS and any(suit(c) == CLUBS for c in self.hand):
                moves.append(Move("use", card))
            elif kind == SPADES:
                moves += [Move("use", card, k + 1) for k in others]
            elif kind == DIAMONDS:
                moves.append(Move("use", card))
        return moves

    def legal_moves(self):
        if self._moves is None:
            if self.outcome() is not None or self.is_chance():
                self._moves = []
            elif self.step == CHOOSE:
                self._moves = [Move("visit", target=k + 1) for k in range(KINGDOMS) if not self.visited >> k & 1]
            elif self.step == ACT:
                self._moves = [DEBATE] + self.abilities()
            elif self.step == RESPOND:
                self._moves = [Move("play", c) for c in legal_responses(self.hand, self.lead)]
            else:
                self._moves = [Move("discard", c) for c in self.hand]
        return self._moves

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        if move.kind == "visit":
            return self._with(kingdom=move.target - 1, step=ACT)
        if move.kind == "debate":
            return self._with(step=LEAD)
        if move.kind == "play":
            hand = tuple(c for c in self.hand if c != move.card)
            if wins_debate(move.card, self.lead, self.trump()):
                return self._with(hand=hand, scoring=tuple(sorted(self.scoring + (move.card,))),
                                  discard=tuple(sorted(self.discard + (self.lead,))), step=ACT, lead=-1)
            return self._with(hand=hand, discard=tuple(sorted(self.discard + (self.lead, move.card))), step=ACT,
                              lead=-1)
        if move.kind == "discard":
            return self._with(hand=tuple(c for c in self.hand if c != move.card),
                              discard=tuple(sorted(self.discard + (move.card,))), discards=self.discards - 1)
        return self._use(move)

    def _use(self, move) -> "State":
        """An ability: the jack or the supporting ruler is spent, then its suit's effect."""
        if move.card in JACKS:
            state = self._with(jacks=self.jacks | 1 << suit(move.card))
        else:
            state = self._with(spent=self.spent | 1 << self.rulers.index(move.card))
        kind = suit(move.card)
        if kind == HEARTS:
            trump = self.trump()
            return state._with(hand=tuple(c for c in self.hand if suit(c) != trump),
                               discard=tuple(sorted(self.discard + tuple(c for c in self.hand if suit(c) == trump))))
        if kind == CLUBS:
            return state._with(step=DRAW, draws=sum(suit(c) == CLUBS for c in self.hand))
        if kind == DIAMONDS:
            return state._with(step=DRAW, draws=2, discards=2)
        rulers = list(self.rulers)
        other = move.target - 1
        rulers[self.kingdom], rulers[other] = rulers[other], rulers[self.kingdom]
        return state._with(rulers=tuple(rulers))

    # -- search support ----------------------------------------------------------------------
    def draws_ahead(self) -> int:
        """At most how many cards abilities can still draw this visit: a clubs ability draws one per
        club in hand (at most the clubs not yet won), a diamonds ability two."""
        supporters = self.visited & ~self.spent
        ready = [suit(self.rulers[k]) for k in range(KINGDOMS) if supporters >> k & 1]
        clubs = ready.count(CLUBS) + (not self.jacks >> CLUBS & 1)
        diamonds = ready.count(DIAMONDS) + (not self.jacks >> DIAMONDS & 1)
        return clubs * (CLUBS_IN_DECK - sum(suit(c) == CLUBS for c in self.scoring)) + 2 * diamonds + self.draws

    def reshuffle_ahead(self) -> bool:
        """Can the deck still run out this visit? Each card drawn is played later against a lead,
        so the visit takes at most hand + 2 x draws cards from the deck (plus a lead on the table
        now, answered already)."""
        return len(self.deck) < len(self.hand) + 2 * self.draws_ahead()

    def key(self):
        """Which cards were won never matters again (the scoring pile only comes back in the
        reshuffle of all 32 cards after the visit), and the discard pile only matters if the deck
        can still run out this visit."""
        if self._key is None:
            self._key = (self.rulers, self.visited, self.spent, self.kingdom, self.hand, self.deck,
                         self.discard if self.kingdom < 0 or self.reshuffle_ahead() else None, len(self.scoring),
                         self.jacks, self.step, self.lead, self.draws, self.discards, self.shuffles, self.lost)
        return self._key

    def table_scope(self):
        return self.seed

    def score_bound(self):
        """A win scores 8 plus the supporters never used: at most 16 less those spent already. A
        visit whose wins passed its target is lost: the score is then the kingdoms won and their
        unspent rulers (spending more only lowers it)."""
        outcome = self.outcome()
        if outcome is not None:
            return outcome.score if outcome.won else NoWin(outcome.score)
        if self.kingdom >= 0 and not 0 <= self.kingdom + 1 - len(self.scoring) <= len(self.hand) + self.draws_ahead():
            return NoWin(self.won_count() + bin(self.visited & ~self.spent).count("1"))
        return 2 * KINGDOMS - bin(self.spent).count("1")

    def picture(self, seen_only=False):
        """The eight kingdoms' rulers (a won kingdom's ruler is a supporter), the hand, the lead,
        the debates won this visit, the deck and the discard pile."""
        piles = [P.pile(f"kingdom {k + 1}", [P.card(r)], group="kingdoms") for k, r in enumerate(self.rulers)]
        piles.append(P.pile("hand", [P.card(c) for c in self.hand], group="hand", spread=True))
        if self.lead >= 0:
            piles.append(P.pile("lead", [P.card(self.lead)], group="debate"))
        piles.append(P.pile("won", [P.card(c) for c in self.scoring], group="debate", spread=True))
        piles += [P.deck("deck", self.deck, seen_only, group="piles"),
                  P.pile("discard", [P.card(c) for c in self.discard], group="piles")]
        facts = {"won kingdoms": " ".join(str(k + 1) for k in range(KINGDOMS) if self.visited >> k & 1) or "-",
                 "reshuffles": self.shuffles}
        if self.kingdom >= 0:
            facts["visiting"] = f"{self.kingdom + 1} (trump {C.SUITS[self.trump()]})"
        return P.picture(piles, **facts)

    def __str__(self):
        lines = ["kingdoms: " + "  ".join(f"{k + 1}:{C.format_card(r)}" + ("*" if self.visited >> k & 1 else "")
                                          + ("!" if k == self.kingdom else "") for k, r in enumerate(self.rulers))]
        if self.kingdom >= 0:
            lines.append(f"visiting {self.kingdom + 1} (trump {C.SUITS[self.trump()]}), won {len(self.scoring)} of "
                         f"{self.kingdom + 1}" + (f", lead {C.format_card(self.lead)}" if self.lead >= 0 else ""))
        lines.append(f"hand: {C.format_cards(self.hand) or '(empty)'}")
        lines.append(f"deck {len(self.deck)}, discard {len(self.discard)}, reshuffles {self.shuffles}")
        outcome = self.outcome()
        if outcome is not None:
            lines.append(f"{'won' if outcome.won else 'lost'} (score {outcome.score})")
        return "\n".join(lines)


# -- the deal -------------------------------------------------------------------------------------
def seeded_piles(seed: int) -> dict:
    """One shuffle of the 52 cards (stream 0), split keeping the order: the kings and queens are
    the rulers, the cards A-8 the deck (the 9s, 10s and jacks are set aside)."""
    pack = shuffled(C.standard_deck(), seed)
    return {"rulers": [c for c in pack if c in RULER_CARDS], "deck": [c for c in pack if c in DECK_CARDS]}


def check_piles(piles: dict, source: str) -> None:
    check_exact_pile(piles["rulers"], list(RULER_CARDS), source, "rulers")
    check_exact_pile(piles["deck"], list(DECK_CARDS), source, "deck")
