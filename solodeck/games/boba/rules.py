"""The First Boba Tea Shop in London (Isaludo): the pure-Python reference engine.
Rules page: docs/rules/boba.md.

Only values matter (A=1 ... K=13). A queue is a sorted tuple of values, lowest first; a target
is (queue, gap) with gap 0 below the lowest card and gap len(queue) above the highest. The
discard pile is its count per value (index 1..13). A turn is: choose a target (a decision),
draw (a chance node), and after a miss stay or kick (a decision); a kick discards the drawn
card and burns the top card of the deck (a chance node: the player never sees it first), then
draws again for the same gap (a chance node).

Chance nodes keep the rest of the deck in deal order, and a draw of value v removes the first v
in it. The remaining order then depends only on which cards were drawn, so one key serves open
mode (the dealt card) and blind mode (any card, weighted by the composition), as in Foursquare.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import cards as C
from ... import picture as P
from ...api import NO_WIN, Outcome, value_counts, without_first
from ...api import State as BaseState
from ...errors import MoveError

QUEUES = 4
VALUES = 13
COPIES = 4          # cards of each value in the deck; the fourth discarded loses
CARDS = VALUES * COPIES
TOP = VALUES + 1    # "no upper neighbour": every value is <= TOP
VALUE_NAMES = "A23456789TJQK"


def value_name(v: int) -> str:
    return VALUE_NAMES[v - 1]


def gap_bounds(queue: tuple, gap: int) -> tuple:
    """(lower neighbour, upper neighbour) of a gap; 0 and TOP stand for no neighbour."""
    return (queue[gap - 1] if gap > 0 else 0, queue[gap] if gap < len(queue) else TOP)


def fits(queue: tuple, gap: int, v: int) -> bool:
    lo, hi = gap_bounds(queue, gap)
    return lo <= v <= hi


# -- moves ----------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Target:
    """Aim the next card at queue ``queue`` (1-4), gap ``gap`` (0 = below the lowest card)."""

    queue: int
    gap: int

    def __str__(self):
        return f"target {self.queue}:{self.gap}"


@dataclass(frozen=True)
class Stay:
    """After a miss: discard the whole target queue; the drawn card alone restarts it."""

    def __str__(self):
        return "stay"


@dataclass(frozen=True)
class Kick:
    """After a miss: discard the drawn card and the deck's top card, then draw for the same gap."""

    def __str__(self):
        return "kick"


STAY, KICK = Stay(), Kick()
_TARGET_RE = re.compile(r"^(?:target\s+)?(\d+)\s*:\s*(\d+)$", re.IGNORECASE)


def parse_move(text: str):
    t = text.strip().lower()
    if t == "stay":
        return STAY
    if t == "kick":
        return KICK
    m = _TARGET_RE.match(t)
    if not m:
        raise MoveError(f"'{text}' is not a Boba move (expected 'target Q:G' such as 'target 2:1', 'stay' or 'kick')")
    return Target(int(m.group(1)), int(m.group(2)))


# -- the state ------------------------------------------------------------------------------
class State(BaseState):
    """A position. ``queues``: 4 sorted tuples; ``discards``: counts per value (index 0 unused);
    ``deck``: the cards to come, top first; ``target``: (queue index 0-3, gap) once chosen;
    ``hand``: a drawn card that missed its target, waiting for stay or kick; ``burn``: a kick
    is about to discard the deck's top card unseen."""

    __slots__ = ("queues", "discards", "deck", "target", "hand", "burn", "lost", "_moves", "_key")

    def __init__(self, queues, discards, deck, target=None, hand=None, burn=False):
        self.queues = queues
        self.discards = discards
        self.deck = deck
        self.target = target
        self.hand = hand
        self.burn = burn
        self.lost = max(discards) >= COPIES
        self._moves = None
        self._key = None

    @property
    def cards_in_queues(self) -> int:
        return sum(len(q) for q in self.queues)

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return not self.lost and (self.burn or (self.target is not None and self.hand is None))

    def chance_outcomes(self):
        return value_counts(self.deck)

    def dealt_outcome(self):
        return self.deck[0]

    def apply_chance(self, v):
        deck = without_first(self.deck, v)
        if self.burn:  # the kick's second discard
            discards = _add(self.discards, v)
            if max(discards) >= COPIES or not deck:  # lost, or the kick emptied the deck: a win
                return State(self.queues, discards, deck)
            return State(self.queues, discards, deck, self.target)
        q, gap = self.target
        queue = self.queues[q]
        if fits(queue, gap, v):
            return State(_replace(self.queues, q, queue[:gap] + (v,) + queue[gap:]), self.discards, deck)
        return State(self.queues, self.discards, deck, self.target, v)

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if self.lost:
            return Outcome(False, None)
        if self.target is None and not self.deck:
            return Outcome(True, self.cards_in_queues)
        return None

    def legal_moves(self):
        if self._moves is None:
            if self.lost or self.burn:
                self._moves = []
            elif self.hand is not None:
                self._moves = [STAY, KICK]
            elif self.target is None and self.deck:
                self._moves = [Target(q + 1, g) for q in range(QUEUES) for g in range(len(self.queues[q]) + 1)]
            else:
                self._moves = []
        return self._moves

    def search_moves(self):
        """The legal moves with equivalent targets folded: two gaps with the same neighbours in
        queues of the same cards lead to the same positions (their keys are equal)."""
        moves = self.legal_moves()
        if self.hand is not None or not moves:
            return moves
        seen, out = set(), []
        for m in moves:
            queue = self.queues[m.queue - 1]
            form = (queue, gap_bounds(queue, m.gap))
            if form not in seen:
                seen.add(form)
                out.append(m)
        return out

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        if isinstance(move, Target):
            return State(self.queues, self.discards, self.deck, (move.queue - 1, move.gap))
        q = self.target[0]
        if isinstance(move, Stay):
            discards = self.discards
            for v in self.queues[q]:
                discards = _add(discards, v)
            return State(_replace(self.queues, q, (self.hand,)), discards, self.deck)
        discards = _add(self.discards, self.hand)  # kick: the drawn card goes first
        if max(discards) >= COPIES or not self.deck:  # lost, or nothing left to burn: the game ends
            return State(self.queues, discards, self.deck)
        return State(self.queues, discards, self.deck, self.target, burn=True)

    def stay_loses(self) -> bool:
        """After a miss: would discarding the target queue put a fourth card of a value out?"""
        queue = self.queues[self.target[0]]
        return any(self.discards[v] + queue.count(v) >= COPIES for v in set(queue))

    def kick_loses(self) -> bool:
        """After a miss: is the drawn card itself the fourth of its value?"""
        return self.discards[self.hand] + 1 >= COPIES

    # -- search support ----------------------------------------------------------------------
    def key(self):
        """The queues as a sorted tuple (they are interchangeable), the target by its queue's
        cards and its neighbours (gaps between equal cards are one gap), the discard counts,
        the deck, the pending card and the phase."""
        if self._key is None:
            target = None
            if self.target is not None:
                queue = self.queues[self.target[0]]
                target = (queue, gap_bounds(queue, self.target[1]))
            self._key = (tuple(sorted(self.queues)), self.discards, self.deck, target, self.hand, self.burn)
        return self._key

    def score_bound(self):
        """The best score (cards in queues at the end) still reachable: every card to come
        joining a queue. After a miss: a stay loses the queue but keeps the card, a kick loses
        the card and the one burnt; NO_WIN when both would discard a fourth card at once."""
        if self.lost:
            return NO_WIN
        total = self.cards_in_queues
        if self.hand is None:
            return total + len(self.deck) - (1 if self.burn else 0)
        options = []
        if not self.stay_loses():
            options.append(total - len(self.queues[self.target[0]]) + 1 + len(self.deck))
        if not self.kick_loses():
            options.append(total + max(len(self.deck) - 1, 0))
        return max(options) if options else NO_WIN

    def unseen_counts(self) -> list:
        """Cards to come per value (index 1-13): what a blind player may count."""
        counts = [0] * (TOP + 1)
        for v in self.deck:
            counts[v] += 1
        return counts

    def picture(self, seen_only=False):
        """The four queues, the discards (counted by value), a drawn card that missed, and the
        deck (values: the game keeps no suits)."""
        piles = [P.pile(f"Q{q + 1}", [P.value(v) for v in queue], group="queues", spread=True)
                 for q, queue in enumerate(self.queues)]
        piles.append(P.pile("discards", [P.value(v) for v in range(1, TOP) for _ in range(self.discards[v])],
                            group="piles", spread=True))
        if self.hand is not None:
            piles.append(P.pile("drawn", [P.value(self.hand)], group="deck"))
        piles.append(P.deck("deck", self.deck, seen_only, as_value=True))
        facts = {"target": f"Q{self.target[0] + 1} gap {self.target[1]}"} if self.target is not None else {}
        return P.picture(piles, **facts)

    def __str__(self):
        lines = []
        for q, queue in enumerate(self.queues):
            mark = ""
            if self.target is not None and self.target[0] == q:
                mark = f"   <- target gap {self.target[1]}"
            lines.append(f"Q{q + 1}: {' '.join(value_name(v) for v in queue)}{mark}")
        out = " ".join(f"{value_name(v)}x{self.discards[v]}" for v in range(1, TOP) if self.discards[v])
        lines.append(f"discards: {out or 'none'}")
        phase = ""
        if self.hand is not None:
            phase = f"; drawn {value_name(self.hand)} missed: stay or kick"
        elif self.burn:
            phase = "; kicking: the top card is discarded next"
        lines.append(f"deck: {len(self.deck)} cards{phase}")
        return "\n".join(lines)


def _add(discards: tuple, v: int) -> tuple:
    return discards[:v] + (discards[v] + 1,) + discards[v + 1:]


def _replace(queues: tuple, q: int, queue: tuple) -> tuple:
    return queues[:q] + (queue,) + queues[q + 1:]


NO_DISCARDS = (0,) * (TOP)  # index 0 unused, 1..13


# -- deals ----------------------------------------------------------------------------------
def dealt_state(deck) -> State:
    """The start of a deal from the shuffled ``deck`` (cards, top first): its first four cards
    start queues 1-4."""
    values = tuple(C.rank_of(c) for c in deck)
    return State(tuple((v,) for v in values[:QUEUES]), NO_DISCARDS, values[QUEUES:])
