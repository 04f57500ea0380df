"""The Emissary (Isaludo): the pure-Python reference engine. Rules page: docs/rules/emissary.md.

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
import time
from dataclasses import dataclass

from .. import cards as C
from .. import picture as P
from ..api import Deal, Game, NoWin, Outcome, advance_chance, check_exact_pile, check_position_fields, position_piles, without_first
from ..api import State as BaseState
from ..errors import DealError, MoveError
from ..result import Limits, StopReason, finish_open
from ..shuffle import shuffled
from ..solvers.plan import BlindPlan, Estimator

KINGDOMS = 8
HAND = 8
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)  # solodeck.cards' suit order
DECK_CARDS = tuple(s * 13 + v for s in range(4) for v in range(8))
RULER_CARDS = tuple(s * 13 + v for s in range(4) for v in (11, 12))     # queens and kings
JACKS = tuple(s * 13 + 10 for s in range(4))
DRAW, CHOOSE, ACT, LEAD, RESPOND, DISCARD = range(6)


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
        ready = [j for j in JACKS if not self.jacks >> suit(j) & 1]
        ready += [self.rulers[k] for k in range(KINGDOMS) if self.visited >> k & 1 and not self.spent >> k & 1]
        clubs = sum(suit(c) == CLUBS for c in DECK_CARDS) - sum(suit(c) == CLUBS for c in self.scoring)
        return sum(clubs if suit(c) == CLUBS else 2 if suit(c) == DIAMONDS else 0 for c in ready) + self.draws

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


MAX_ODDS_HAND = 14  # the most cards the rule values a draw into
SUPPORTER_MARGIN = 0.05
# The chance of kingdoms 1-8 (no ability, the best trump of the four) for a random hand of 8 against
# the other 24 cards: the mean over 400 random hands (generator random.Random(7)). Choosing the
# kingdom whose chance is highest against this is choosing the most likely product over the visits,
# when every later visit would get a typical hand.
TYPICAL_CHANCE = (0.42074, 0.54397, 0.58743, 0.57127, 0.50085, 0.32036, 0.12507, 0.02358)  # a supporter is a point of score and once a game: spent only for a clear gain


# -- the blind rule: the odds of a visit -------------------------------------------------------------
# Every quantity below comes from the player's view: the hand, the trump, the rulers and the
# composition of the unseen cards (the deck as a set; its order is never read).

def visit_table(hand: tuple, trump: int, counts: tuple) -> list:
    """table[mask][w]: the probability that the hand's cards in ``mask`` (bit i: hand[i]; ``hand``
    sorted) win exactly w of the debates they answer, the best response made to each lead, no
    ability used, and each lead drawn from ``counts`` (counts[s][v]: unseen cards of suit s and
    value v, 1-8), the same odds for every lead (draws with replacement: the leads of a visit are
    few beside the unseen cards). The pure-Python reference of ext/emissary.pyx ``visit_table``:
    the same sums in the same order, so the same floats."""
    n = len(hand)
    suits = [suit(c) for c in hand]
    values = [value(c) for c in hand]
    below = [[sum(counts[s][1:v]) for v in range(11)] for s in range(4)]  # below[s][v]: values < v
    totals = [below[s][10] for s in range(4)]
    total = sum(totals)
    table = [None] * (1 << n)
    table[0] = [1.0]
    for mask in range(1, 1 << n):
        cards = [i for i in range(n) if mask >> i & 1]
        k = len(cards)
        children = {i: table[mask ^ 1 << i] for i in cards}

        def get(i, w):
            return children[i][w] if 0 <= w < k else 0.0

        row = [0.0] * (k + 1)
        if total == 0:  # no lead can come: the visit ends with the wins so far
            row[0] = 1.0
            table[mask] = row
            continue
        for w in range(k + 1):
            acc = 0.0
            for s in range(4):
                same = [i for i in cards if suits[i] == s]
                if same:
                    low = 0
                    for j in range(len(same) + 1):
                        high = values[same[j]] if j < len(same) else 9
                        weight = below[s][high] - below[s][low + 1]
                        if weight:
                            best = 0.0
                            for t in range(len(same)):  # higher cards win, lower ones lose
                                p = get(same[t], w - 1) if t >= j else get(same[t], w)
                                if p > best:
                                    best = p
                            acc += weight * best
                        low = high
                elif totals[s]:
                    best = 0.0
                    for i in cards:  # any card: a trump wins a lead of another suit
                        p = get(i, w - 1) if suits[i] == trump and s != trump else get(i, w)
                        if p > best:
                            best = p
                    acc += totals[s] * best
            row[w] = acc / total
        table[mask] = row
    return table


def unseen_counts(cards) -> tuple:
    """counts[s][v] of a composition (the deck as a set)."""
    counts = [[0] * 10 for _ in range(4)]
    for c in cards:
        counts[suit(c)][value(c)] += 1
    return tuple(tuple(row) for row in counts)


def _lead_pool(state) -> tuple:
    """The cards the next leads come from: the deck, or the discard pile it will be made of."""
    return tuple(sorted(state.deck)) or state.discard


def best_kept(hand: tuple, trump: int, counts: tuple, need: int, drop: int) -> float:
    """The best chance of exactly ``need`` wins with the cards left after discarding ``drop`` of
    the hand (0: the hand itself); ext/emissary.pyx has the same."""
    keep = max(len(hand) - drop, 0)
    if need < 0 or need > keep:
        return 0.0
    table = visit_table(hand, trump, counts)
    return max(row[need] for mask, row in enumerate(table) if bin(mask).count("1") == keep)


def _chance_of(hand: tuple, trump: int, counts: tuple, need: int, kept) -> float:
    return kept(hand, trump, counts, need, 0)


def _draw_chance(hand, trump, pool, need, draws, discards, kept, seed) -> float:
    """The chance of exactly ``need`` wins after drawing ``draws`` cards of ``pool`` (every draw
    when there are at most 40, else 24 drawn with a generator seeded by the view) and, for
    diamonds, discarding the best two."""
    import itertools
    from ..shuffle import SplitMix64

    import math

    draws = min(draws, len(pool))
    if len(hand) + draws > MAX_ODDS_HAND:  # the table doubles with each card: not valued
        return -1.0
    if math.comb(len(pool), draws) <= 40:
        combos = list(itertools.combinations(pool, draws))
    else:  # 24 draws of the composition (a partial shuffle each)
        rng, combos = SplitMix64(seed), []
        for _ in range(24):
            cards = list(pool)
            for i in range(draws):
                j = i + rng.next() % (len(cards) - i)
                cards[i], cards[j] = cards[j], cards[i]
            combos.append(tuple(cards[:draws]))
    total = 0.0
    for drawn in combos:
        rest = tuple(c for c in pool if c not in drawn)
        total += kept(tuple(sorted(hand + drawn)), trump, unseen_counts(rest), need, discards)
    return total / len(combos)


def rule_move(game, state, table_of=visit_table, kept=best_kept):
    """The blind rule (Game.blind_rule): see docs/rules/emissary.md, "The blind rule"."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    pool = _lead_pool(state)
    counts = unseen_counts(pool)
    if state.step == CHOOSE:
        open_ = [k for k in range(KINGDOMS) if not state.visited >> k & 1]
        chance = {}
        for move in moves:
            k = move.target - 1
            trumps = {suit(state.rulers[k])}
            if len(open_) > 1:  # the spades jack can make any other open kingdom's ruler trump
                trumps |= {suit(state.rulers[j]) for j in open_}
            own = _chance_of(state.hand, suit(state.rulers[k]), counts, k + 1, kept)
            swapped = max(_chance_of(state.hand, t, counts, k + 1, kept) for t in trumps)
            # every kingdom must be won some time: this hand goes where it beats a typical hand most
            chance[move] = (max(own, swapped) / TYPICAL_CHANCE[k], own, -k)
        return max(moves, key=lambda m: chance[m])
    need = state.kingdom + 1 - len(state.scoring)
    trump = state.trump()
    if state.step == RESPOND:
        table = table_of(state.hand, trump, counts)
        everything = (1 << len(state.hand)) - 1
        best, choice = 0.0, None
        for move in moves:
            i = state.hand.index(move.card)
            w = need - wins_debate(move.card, state.lead, trump)
            row = table[everything ^ 1 << i]
            p = row[w] if 0 <= w < len(row) else 0.0
            if p > best:
                best, choice = p, move
        return choice or game.baseline_move(state)
    if state.step == DISCARD:
        table = table_of(state.hand, trump, counts)
        everything = (1 << len(state.hand)) - 1
        best, choice = 0.0, None
        for move in moves:
            i = state.hand.index(move.card)
            if state.discards >= 2 and len(state.hand) >= 2:  # the best partner for it
                p = max((table[everything ^ 1 << i ^ 1 << j][need] if 0 <= need < len(state.hand) - 1 else 0.0)
                        for j in range(len(state.hand)) if j != i)
            else:
                row = table[everything ^ 1 << i]
                p = row[need] if 0 <= need < len(row) else 0.0
            if p > best:
                best, choice = p, move
        return choice or game.baseline_move(state)
    # ACT: debate now, or the ability that most raises the chance (supporters only by a margin)
    now = _chance_of(state.hand, trump, counts, need, kept)
    seed = hash((state.hand, pool, trump, need, state.jacks)) & 0xFFFFFFFF
    best, choice = now, DEBATE
    for move in moves:
        if move.kind != "use":
            continue
        kind = suit(move.card)
        if kind == HEARTS:
            p = _chance_of(tuple(c for c in state.hand if suit(c) != trump), trump, counts, need, kept)
        elif kind == SPADES:
            p = _chance_of(state.hand, suit(state.rulers[move.target - 1]), counts, need, kept)
        elif kind == CLUBS:
            p = _draw_chance(state.hand, trump, tuple(sorted(state.deck)), need,
                             sum(suit(c) == CLUBS for c in state.hand), 0, kept, seed)
        else:
            p = _draw_chance(state.hand, trump, tuple(sorted(state.deck)), need, 2, 2, kept, seed)
        margin = 1e-9 if move.card in JACKS else SUPPORTER_MARGIN
        if p > best + margin:
            best, choice = p, move
    return choice


# -- the game -------------------------------------------------------------------------------------
class Emissary(Game):
    name = "emissary"
    aliases = ("the-emissary",)
    title = "The Emissary"
    source = "Isaludo (seeds/000), p. 47"
    kernel = "emissary"
    has_chance = True
    reshuffles = True    # after each visit, and the discards when the deck runs out
    score_name = "score"  # kingdoms won + supporting rulers never used (16 at most), for a loss too
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    _tables = None  # table_of()'s memo
    piles = {"rulers": "the 8 kings and queens, on kingdoms 1-8 from left to right",
             "deck": "the 32 cards A-8, top first"}

    def seeded_piles(self, seed, options):
        """One shuffle of the 52 cards (stream 0), split keeping the order: the kings and queens are
        the rulers, the cards A-8 the deck (the 9s, 10s and jacks are set aside)."""
        pack = shuffled(C.standard_deck(), seed)
        return {"rulers": [c for c in pack if c in RULER_CARDS], "deck": [c for c in pack if c in DECK_CARDS]}

    def check_piles(self, piles, source, options=None):
        check_exact_pile(piles["rulers"], list(RULER_CARDS), source, "rulers")
        check_exact_pile(piles["deck"], list(DECK_CARDS), source, "deck")

    def initial_state(self, deal: Deal) -> State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        if deal.position is not None:
            return _state_from_position(deal.position, deal.source, seed)
        return State(tuple(deal.piles["rulers"]), 0, 0, -1, (), tuple(deal.piles["deck"]), (), (), 0, DRAW,
                     draws=HAND, seed=seed)

    def parse_move(self, text):
        return parse_move(text)

    def baseline_move(self, state):
        """The baseline: a rule a person would use, reading only the hand, the rulers and the score.

        - Visit the kingdom whose number is nearest the debates the hand looks good for (a trump
          counts one, an 8 of another suit a half), the lowest on a tie.
        - Between debates, with the jacks only (supporters are points, never spent): hearts when
          the hand holds more trumps than wins to make and enough other cards to make them;
          clubs when wins to make are about as many as the cards; else debate.
        - Answer a lead by winning, with the lowest card that wins, when at least half the cards
          left must win; else by losing, with the lowest card that loses (the highest once no
          win is needed: strong cards could force a win later). When that is impossible, the
          lowest card.
        - Diamonds' discards (never chosen here): the lowest card."""
        moves = state.legal_moves()
        if state.step == CHOOSE:
            def gap(move):
                trump = suit(state.rulers[move.target - 1])
                strong = sum(1 if suit(c) == trump else 0.5 if value(c) == 8 else 0 for c in state.hand)
                return abs(move.target - strong), move.target
            return min(moves, key=gap)
        need = state.kingdom + 1 - len(state.scoring) if state.kingdom >= 0 else 0
        if state.step == ACT:
            trumps = sum(suit(c) == state.trump() for c in state.hand)
            for move in moves:
                if move.kind == "use" and move.card in JACKS:
                    if suit(move.card) == HEARTS and trumps > need and len(state.hand) - trumps >= need:
                        return move
                    if suit(move.card) == CLUBS and need >= len(state.hand) - 1 and need > 0:
                        return move
            return DEBATE
        if state.step == RESPOND:
            winning = [m for m in moves if wins_debate(m.card, state.lead, state.trump())]
            losing = [m for m in moves if m not in winning]
            by_value = lambda m: (value(m.card), m.card)
            if winning and (2 * need >= len(state.hand) or not losing) and need > 0:
                return min(winning, key=by_value)
            if losing:
                return max(losing, key=by_value) if need <= 0 else min(losing, key=by_value)
        return min(moves, key=lambda m: (value(m.card), m.card))

    def blind_plan(self, options=None):
        # The blind policy plays the rule's move beyond the exact tree, unvalued: a rollout of the rule
        # plays the rest of the game in Python (~2 s under load), so 16 per move would cost minutes a
        # decision. Exact blind values fit only the last debates of the last visit. Blind wins are rare:
        # where nothing wins, the kingdoms won decide (rank_losses).
        return BlindPlan(estimator=Estimator.RULE, estimate=False, samples=16, exact_states=100, rank_losses=True)

    def blind_rule(self, state):
        """The blind rule (docs/rules/emissary.md, "The blind rule"): the chance of ending the visit
        with exactly the wins it needs, the leads drawn from the unseen cards, computed for each
        kingdom and trump it could reach, each response and each ability. It never reads the
        order of the deck."""
        return rule_move(self, state, *self.odds())

    def odds(self):
        """(visit_table, best_kept): compiled where the kernel is built, with a small memo."""
        if self._tables is None:
            import functools

            kernel = self.load_kernel()
            source = kernel if kernel is not None and hasattr(kernel, "best_kept") else None
            self._tables = (functools.lru_cache(maxsize=1024)(source.visit_table if source else visit_table),
                            source.best_kept if source else best_kept)
        return self._tables

    def kernel_moves(self, state):
        """The kernel's reading of the rules (ext/emissary.pyx legal_moves) as reference moves."""
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        arr = tuple(-1 if state.visited >> i & 1 else suit(r) for i, r in enumerate(state.rulers))
        supporters = [[r for i, r in enumerate(state.rulers) if state.visited >> i & 1 and not state.spent >> i & 1
                       and suit(r) == s] for s in range(4)]
        step = {CHOOSE: 0, ACT: 1, RESPOND: 2, DISCARD: 3}[state.step]
        hand = sum(1 << kernel.to_index(c) for c in state.hand)
        moves, used = [], [0] * 4
        others = sum(1 for j in range(KINGDOMS) if j != state.kingdom and arr[j] >= 0)
        for kind, *rest in kernel.legal_moves(step, arr, tuple(map(len, supporters)), state.kingdom, hand,
                                              state.jacks, kernel.to_index(state.lead) if state.lead >= 0 else 0):
            if kind == "visit":
                moves.append(Move("visit", target=rest[0] + 1))
            elif kind == "debate":
                moves.append(DEBATE)
            elif kind in ("play", "discard"):
                moves.append(Move(kind, kernel.to_card(rest[0])))
            else:
                s, jack, other = rest
                if jack:
                    ability = JACKS[s]
                else:  # the supporters of a suit one after the other, a spades one with each other kingdom
                    ability = supporters[s][used[s] // (others if s == SPADES else 1)]
                    used[s] += 1
                moves.append(Move("use", ability, other + 1 if other >= 0 else 0))
        return moves

    def fast_solver(self, limits, progress=None):
        """The kernel's search split at the visits (ext/emissary.pyx): whole deals in about a
        second, where the generic search over every move does not finish."""
        kernel = self.load_kernel()
        return KernelSolver(self, kernel, limits) if kernel is not None else None


GAME = Emissary()  # the registry's instance (solodeck/registry.py)

_POSITION_FIELDS = {
    "rulers": "the 8 kings and queens on kingdoms 1-8", "won": "the kingdoms won, e.g. [1, 4]",
    "used": "the won kingdoms whose ruler's ability is spent", "visiting": "the kingdom visited (omit: choose one)",
    "hand": "the cards in hand", "deck": "the cards still to draw, top first", "discard": "the discard pile",
    "scoring": "the debates won this visit", "jacks": 'the jacks used this visit, e.g. "JH JC"',
    "shuffles": "the reshuffles so far (the next one uses stream shuffles + 1)"}


def _kingdoms(position, name, source) -> int:
    kingdoms = position.get(name, [])
    if not isinstance(kingdoms, list) or not all(isinstance(x, int) and 1 <= x <= KINGDOMS for x in kingdoms) \
            or len(set(kingdoms)) != len(kingdoms):
        raise DealError(source, f"position.{name}", f"expected a list of distinct kingdoms 1-{KINGDOMS}, e.g. [1, 5]")
    return sum(1 << (x - 1) for x in kingdoms)


def _state_from_position(position: dict, source: str, seed: int) -> State:
    """``[position]`` (see _POSITION_FIELDS): the choice of a kingdom with the hand drawn, or,
    with ``visiting``, a decision between debates. The cards A-8 are each in exactly one of hand,
    deck, discard and scoring."""
    check_position_fields(position, _POSITION_FIELDS, source)
    piles = position_piles(position, ("rulers", "hand", "deck", "discard", "scoring", "jacks"), source)
    check_exact_pile(piles["rulers"], list(RULER_CARDS), source, "position.rulers")
    if any(c not in JACKS for c in piles["jacks"]) or len(set(piles["jacks"])) != len(piles["jacks"]):
        raise DealError(source, "position.jacks", 'expected distinct jacks, e.g. "JH JC"')
    check_exact_pile(piles["hand"] + piles["deck"] + piles["discard"] + piles["scoring"], list(DECK_CARDS), source,
                     "position (hand, deck, discard and scoring together)")
    won, used = _kingdoms(position, "won", source), _kingdoms(position, "used", source)
    if used & ~won:
        raise DealError(source, "position.used", "a ruler's ability is only used once its kingdom is won")
    if won == (1 << KINGDOMS) - 1:
        raise DealError(source, "position.won", "every kingdom is won: the game is over")
    shuffles = position.get("shuffles", 0)
    if not isinstance(shuffles, int) or shuffles < 0:
        raise DealError(source, "position.shuffles", "expected a whole number, 0 or more")
    visiting = position.get("visiting", 0)
    if not isinstance(visiting, int) or not 0 <= visiting <= KINGDOMS or (visiting and won >> (visiting - 1) & 1):
        raise DealError(source, "position.visiting", f"expected a kingdom 1-{KINGDOMS} not won yet (or no field)")
    if not piles["hand"]:
        raise DealError(source, "position.hand", "the hand is empty: a position is a decision with cards in hand")
    if not visiting and (piles["scoring"] or piles["jacks"] or piles["discard"]):
        raise DealError(source, "position.visiting", "scoring, discard or jacks given but no kingdom visited")
    jacks = sum(1 << suit(j) for j in piles["jacks"])
    return State(tuple(piles["rulers"]), won, used, visiting - 1, tuple(sorted(piles["hand"])), tuple(piles["deck"]),
                 tuple(sorted(piles["discard"])), tuple(sorted(piles["scoring"])), jacks, ACT if visiting else CHOOSE,
                 shuffles=shuffles, seed=seed)


class KernelSolver:
    """DepthFirstSolver's interface (``solve``, ``value``) on the kernel's search. The kernel
    values a decision between visits or between debates; a debate's card and diamonds' discards
    are valued here, one move deeper. Its tables last while the deal's seed does (a hint file
    values every position of a line)."""

    def __init__(self, game, kernel, limits: Limits | None = None):
        self.game, self.kernel, self.limits = game, kernel, limits or Limits()
        self.search = None

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        search = self._search(state)
        stop, line = None, []
        try:
            if state.outcome() is None:
                line = self._line(state, self._root_value(state))
        except self.kernel.Stopped:
            stop, line = StopReason.TIMEOUT, []
        end = self.game.replay_moves(state, line).outcome()
        if stop is None and search.truncated:  # a line may need more reshuffles than were tried
            stop = StopReason.MEMORY_LIMIT
        return finish_open(self.game, state, line, won=bool(end and end.won), stop=stop, nodes=search.nodes,
                           stored=len(search.values), start=start, engine="kernel")

    def value(self, state):
        """(exact utility, True), or (None, False) if the time limit stopped the search."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        search = self._search(state)
        try:
            value = self._value(state, -1)
        except self.kernel.Stopped:
            return None, False
        if search.truncated:
            return None, False
        return self._utility(value), True

    # -- the kernel's values -----------------------------------------------------------------------
    def _search(self, state):
        if self.search is None or self.search.seed != state.seed:
            self.search = self.kernel.Search(state.seed)
        self.search.limit(self.limits.seconds() or 0.0)
        return self.search

    def _utility(self, value: int):
        win = self.kernel.WIN_VALUE
        return self.game.utility(Outcome(value >= win, value - win if value >= win else value))

    def _root_value(self, state) -> int:
        """The exact value, aiming first at the best win still possible, then one point lower each
        time, then (no win at all) at the best loss."""
        bound = state.score_bound()
        if not isinstance(bound, NoWin):
            win = self.kernel.WIN_VALUE
            for aim in range(win + bound, win + KINGDOMS - 1, -1):
                value = self._value(state, aim - 1)
                if value >= aim:
                    return value
        return self._value(state, -1)

    def _value(self, state, alpha: int) -> int:
        """The kernel's value of a state after its dealt chance: exact above ``alpha``, else an upper
        bound at most ``alpha``."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.score + (self.kernel.WIN_VALUE if outcome.won else 0)
        if state.step in (CHOOSE, ACT):
            arr, avail, deck, pos, hand, scoring = self._encode(state)
            if state.step == CHOOSE:
                return self.search.between(arr, avail, deck, pos, hand, alpha)
            return self.search.visit(arr, avail, state.kingdom, deck, pos, hand, scoring, state.jacks,
                                     state.kingdom + 1 - len(state.scoring), alpha)[0]
        best = -1  # a debate's card or a discard: the best child
        for move in state.legal_moves():
            best = max(best, self._value(advance_chance(state.play(move)), max(alpha, best)))
        return best if best > alpha else alpha

    def _line(self, state, value: int) -> list:
        """Moves from ``state`` (exact value ``value``) to the end. Between visits, the kernel's
        stored choice (a kingdom and a label); within a visit, the first move from which the
        kernel can still reach that label (its table holds the line it found)."""
        line = []
        while state.outcome() is None:
            if state.step == CHOOSE:
                self._value(state, value - 1)
                kingdom, label = self.search.choice(*self._encode(state)[:5])
                state = advance_chance(state.play(Move("visit", target=kingdom + 1)))
                line.append(Move("visit", target=kingdom + 1))
            elif state.step == ACT:
                arr, avail, deck, pos, hand, scoring = self._encode(state)
                label = self.search.visit(arr, avail, state.kingdom, deck, pos, hand, scoring, state.jacks,
                                          state.kingdom + 1 - len(state.scoring), value - 1)[1]
            else:  # a debate's card or a discard at the start: the first move that keeps the value
                move = next(m for m in state.legal_moves() if self._value(advance_chance(state.play(m)), value - 1) >= value)
                line.append(move)
                state = advance_chance(state.play(move))
                continue
            moves, state = self._visit_line(state, label)
            line += moves
        return line

    def _visit_line(self, state, label):
        """The moves to the end of the visit under way that end it as ``label`` says, and the state
        after them."""
        if label == "fail":
            goal = None
        else:
            spent, kingdoms, reshuffles = label
            goal = (tuple(kingdoms), tuple(spent), state.shuffles + reshuffles)
        line = []
        while state.outcome() is None and state.kingdom >= 0:
            for move in self._ordered(state):
                if goal is None and move.kind == "use" and move.card not in JACKS:
                    continue  # a failure is worth most spending nothing
                after = goal if goal is None else self._label_after(goal, move)
                if after is False:
                    continue
                child = advance_chance(state.play(move))
                if self._fails(child) if goal is None else self._succeeds(child, after):
                    break
            else:
                raise AssertionError("internal error: the kernel's label has no line")
            line.append(move)
            state, goal = child, after
        return line, state

    def _ordered(self, state) -> list:
        """The moves in the kernel's order (so that its table answers): the debate, then the
        abilities by suit, each suit's jack before its supporters; the cards of a debate that
        win first when the hand needs many wins, else those that lose."""
        if state.step == RESPOND:
            many = 2 * (state.kingdom + 1 - len(state.scoring)) >= len(state.hand)
            return sorted(state.legal_moves(),
                          key=lambda m: (wins_debate(m.card, state.lead, state.trump()) != many, m.card))
        return sorted(state.legal_moves(), key=lambda m: (m.kind != "debate", suit(m.card), m.card not in JACKS))

    @staticmethod
    def _label_after(goal, move):
        """The label left after ``move`` (kingdoms to swap with, supporters to spend per suit,
        the shuffle count to end with), or False if the move is not part of it."""
        kingdoms, spent, shuffles = goal
        if move.kind != "use":
            return goal
        if move.card not in JACKS:
            s = suit(move.card)
            if not spent[s]:
                return False
            spent = spent[:s] + (spent[s] - 1,) + spent[s + 1:]
        if suit(move.card) == SPADES:
            if not kingdoms or move.target - 1 != kingdoms[0]:
                return False
            kingdoms = kingdoms[1:]
        return kingdoms, spent, shuffles

    def _succeeds(self, state, goal) -> bool:
        """Can the visit still end as ``goal`` says (a success)?"""
        kingdoms, spent, shuffles = goal
        if state.outcome() is not None or state.kingdom < 0:  # the visit is over
            ended = state.shuffles - (0 if state.outcome() is not None else 1)
            return not state.lost and not kingdoms and not any(spent) and ended == shuffles
        if state.shuffles > shuffles:
            return False
        if state.step == ACT:
            arr, _avail, deck, pos, hand, scoring = self._encode(state)
            return self.search.reach(deck, pos, hand, scoring, state.trump(), state.jacks,
                                     state.kingdom + 1 - len(state.scoring), self.kernel.swap_code(arr, state.kingdom, kingdoms),
                                     sum(n << 2 * s for s, n in enumerate(spent)), shuffles - state.shuffles)
        return any(self._succeeds(advance_chance(state.play(m)), self._label_after(goal, m))
                   for m in self._ordered(state) if self._label_after(goal, m) is not False)

    def _fails(self, state) -> bool:
        """Can the visit still end in failure, spending no supporter?"""
        if state.outcome() is not None or state.kingdom < 0:
            return state.lost
        if state.step == ACT:
            arr, _avail, deck, pos, hand, scoring = self._encode(state)
            return self.search.can_fail(deck, pos, hand, scoring, state.trump(), state.jacks,
                                        state.kingdom + 1 - len(state.scoring), self.kernel.others(arr, state.kingdom))
        return any(self._fails(advance_chance(state.play(m))) for m in self._ordered(state)
                   if m.kind != "use" or m.card in JACKS)

    def _encode(self, state):
        """The kernel's form of a decision: each kingdom's ruler's suit (-1 once won), the unspent
        supporters per suit, the deck (id, position), the hand and the scoring pile as card masks."""
        k = self.kernel
        arr = tuple(-1 if state.visited >> i & 1 else suit(r) for i, r in enumerate(state.rulers))
        avail = [0] * 4
        for i, ruler in enumerate(state.rulers):
            if state.visited >> i & 1 and not state.spent >> i & 1:
                avail[suit(ruler)] += 1
        if state.shuffles:
            self.search.fresh_deck(state.shuffles)  # so that the deck is found as the rest of a known one
        deck, pos = self.search.locate(state.shuffles, [k.to_index(c) for c in state.deck])
        hand = sum(1 << k.to_index(c) for c in state.hand)
        scoring = sum(1 << k.to_index(c) for c in state.scoring)
        return arr, tuple(avail), deck, pos, hand, scoring
