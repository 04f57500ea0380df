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

from .. import cards as C
from .. import picture as P
from ..api import NO_WIN, Deal, OneDeckGame, Outcome, value_counts, without_first
from ..api import State as BaseState
from ..ext import BlindValuer
from ..errors import DealError, MoveError
from ..shuffle import SplitMix64
from ..solvers.plan import BlindPlan
from ..solvers.rollouts import play_out

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


# -- the blind rule (Game.blind_rule; docs/rules/boba.md "The blind rule") ------------------
# A value is lost once every copy not yet discarded is discarded. The rule takes that to happen
# with odds UNSEEN_RISK for each unseen copy and QUEUED_RISK for each copy in a queue (a queued
# card goes only with a stay), so a value with u copies unseen and k queued survives with odds
# SURVIVE[u][k] = 1 - UNSEEN_RISK^u QUEUED_RISK^k, and a move multiplies the position's odds by
# the ratio of the new odds to the old for each value it moves. Tuned on seeds 10000-13999.
UNSEEN_RISK, QUEUED_RISK = 0.7, 0.4
ODDS_POWER = 0.75  # the next turn's odds (the best gap's share of the unseen) count to this power
RULE_ROUNDS = 8    # rounds of the kick's fixed point (a kick draws for the same gap again)
ROLLOUT_CANDIDATES = 2  # the blind policy's rollouts value the rule's best few targets (rule_candidates)
SURVIVE = tuple(tuple(1.0 - UNSEEN_RISK ** u * QUEUED_RISK ** k for k in range(COPIES + 1))
                for u in range(COPIES + 1))


def survival(u: int, k: int, u2: int, k2: int) -> float:
    """What moving a value's copies from u unseen and k queued to u2 and k2 does to its odds."""
    return SURVIVE[u2][k2] / SURVIVE[u][k]


class Odds:
    """The player's view counted once (the kernel's rule computes the same numbers in the same
    order): unseen cards per value, each queue's best and second best fit count after a card of
    value r is drawn (r = 0: none), and what a stay or a kick of each value drawn would do."""

    def __init__(self, queues, counts):
        self.queues, self.counts = queues, counts
        self.unseen = sum(counts[1:TOP])
        self.below = [0] * TOP  # below[v]: unseen cards of value <= v
        for v in range(1, TOP):
            self.below[v] = self.below[v - 1] + counts[v]
        self.queued = [0] * TOP
        self.copies = [[0] * TOP for _ in queues]
        self.best = []  # best[q][r] = (best fit count, its gap, second best) in queue q
        for q, queue in enumerate(queues):
            for v in queue:
                self.copies[q][v] += 1
                self.queued[v] += 1
            gaps = [gap_bounds(queue, g) for g in range(len(queue) + 1)]
            rows = []
            for r in range(TOP):
                b1, i1, b2 = -1, -1, -1
                for g, (lo, hi) in enumerate(gaps):
                    f = self.fit(lo, hi, r)
                    if f > b1:
                        b1, i1, b2 = f, g, b1
                    elif f > b2:
                        b2 = f
                rows.append((b1, i1, b2))
            self.best.append(rows)
        self.kick_after = [0.0] * TOP
        self.stay_after = [[0.0] * TOP for _ in queues]
        for v in range(1, TOP):
            if counts[v]:
                self.kick_after[v] = self.kick_value(v)
                for q in range(QUEUES):
                    self.stay_after[q][v] = self.stay_value(q, v)

    def fit(self, lo, hi, r=0):
        """Unseen cards that fit between lo and hi, one card of value r gone (r = 0: none)."""
        lo, hi = max(lo, 1), min(hi, VALUES)
        return self.below[hi] - self.below[lo - 1] - (1 if r and lo <= r <= hi else 0)

    def next_turn(self, best, left):
        """The odds of the next turn: the best gap's share of the cards left, to ODDS_POWER."""
        return (best / left) ** ODDS_POWER

    def kick_value(self, v):
        """A kick of the drawn v: it is discarded, then a card drawn from the unseen is."""
        counts, queued = self.counts, self.queued
        factor = survival(counts[v], queued[v], counts[v] - 1, queued[v])
        left = self.unseen - 1
        if left == 0:
            return factor
        burn = 0.0
        for b in range(1, TOP):
            n = counts[b] - (1 if b == v else 0)
            if n:
                burn += n * survival(n, queued[b], n - 1, queued[b])
        return factor * burn / left

    def stay_value(self, q, v):
        """A stay at queue q with the drawn v: the queue's cards are discarded and v starts it
        again; then the next turn, the fresh queue's gaps among the others."""
        counts, queued, copies = self.counts, self.queued, self.copies[q]
        factor = 1.0
        for w in sorted(set(self.queues[q])):  # each run of equal values, low to high
            if w != v:
                factor *= survival(counts[w], queued[w], counts[w], queued[w] - copies[w])
        factor *= survival(counts[v], queued[v], counts[v] - 1, queued[v] - copies[v] + 1)
        left = self.unseen - 1
        if left == 0:
            return factor
        best = max([self.best[other][v][0] for other in range(QUEUES) if other != q]
                   + [self.fit(0, v, v), self.fit(v, TOP, v)])
        return factor * self.next_turn(best, left)

    def gap_value(self, q, g):
        """The odds of aiming at gap g of queue q: over each value v the next draw may have, the
        next turn after v joins the queue, or after the better of a stay and a kick (a kick
        draws for this gap again: a fixed point, RULE_ROUNDS rounds from 0)."""
        lo, hi = gap_bounds(self.queues[q], g)
        left = self.unseen - 1
        goes_on = left >= 2  # a kick then burns one card and draws again for this gap
        fitted, missed = 0.0, []
        for v in range(1, TOP):
            n = self.counts[v]
            if not n:
                continue
            if lo <= v <= hi:
                factor = survival(n, self.queued[v], n - 1, self.queued[v] + 1)
                if left == 0:
                    fitted += n * factor
                else:
                    b1, i1, b2 = self.best[q][v]
                    best = max([b1 if i1 != g else b2, self.fit(lo, v, v), self.fit(v, hi, v)]
                               + [self.best[other][v][0] for other in range(QUEUES) if other != q])
                    fitted += n * factor * self.next_turn(best, left)
            else:
                missed.append((n, self.stay_after[q][v], self.kick_after[v]))
        value = 0.0
        for _ in range(RULE_ROUNDS if goes_on else 1):
            total = fitted
            for n, stay, kick in missed:
                kick = kick * value if goes_on else kick
                total += n * (stay if stay >= kick else kick)
            value = total / self.unseen
        return value


def rule_candidates(state, count):
    """The ``count`` targets with the best odds by the blind rule (ties: the first in order), one
    of each set that lead to the same positions (State.search_moves' folding); every move after a
    miss. The blind policy's rollouts value only these (Boba.fast_rollouts)."""
    moves = state.legal_moves()
    if state.hand is not None or not moves:
        return moves
    odds = Odds(state.queues, state.unseen_counts())
    values = [odds.gap_value(m.queue - 1, m.gap) for m in moves]
    out, seen = [], set()
    for i in sorted(range(len(moves)), key=lambda i: -values[i]):
        queue = state.queues[moves[i].queue - 1]
        form = (queue, gap_bounds(queue, moves[i].gap))
        if form not in seen:
            seen.add(form)
            out.append(moves[i])
            if len(out) == count:
                break
    return out


def rule_move(state):
    """The blind rule (docs/rules/boba.md "The blind rule"): the gap with the best odds over the
    next draw; after a miss, the better of a stay and a kick by the same odds, valued as before
    the draw (the drawn card counted back among the unseen)."""
    moves = state.legal_moves()
    if not moves:
        return None
    counts = state.unseen_counts()
    if state.hand is not None:
        counts[state.hand] += 1
        odds = Odds(state.queues, counts)
        q, g = state.target
        kick = odds.kick_after[state.hand]
        if len(state.deck) >= 2:  # the kick burns one card and draws again for the same gap
            kick *= odds.gap_value(q, g)
        return STAY if odds.stay_after[q][state.hand] >= kick else KICK
    odds = Odds(state.queues, counts)
    best, best_value = None, -1.0
    for m in moves:
        value = odds.gap_value(m.queue - 1, m.gap)
        if value > best_value:
            best, best_value = m, value
    return best


# -- the game -------------------------------------------------------------------------------
class Boba(OneDeckGame):
    name = "boba"
    aliases = ("boba-tea",)
    title = "The First Boba Tea Shop in London"
    source = "Isaludo (seeds/000), The First Boba Tea Shop in London"
    has_chance = True
    score_name = "cards in queues"
    score_sense = "higher"
    modes = ("open", "blind")
    kernel = "boba"
    piles = {"deck": "the 52 cards, top first; the first four start queues 1-4"}

    def blind_plan(self, options=None):
        """128 rollouts a move (only the rule's best two targets are rolled out: fast_rollouts); the
        policy leaves the rule's move only for more wins in the samples. The exact endgame: 5,000
        states with the kernel (a failed attempt costs a few ms, not the default's tens), else the
        default for Python."""
        return BlindPlan(samples=128, keep_rule=True, exact_states=5000 if self.load_kernel() is not None else None)

    def initial_state(self, deal: Deal) -> State:
        if deal.position is not None:
            return _state_from_position(deal.position, deal.source)
        values = tuple(C.rank_of(c) for c in deal.piles["deck"])
        return State(tuple((v,) for v in values[:QUEUES]), NO_DISCARDS, values[QUEUES:])

    def parse_move(self, text):
        return parse_move(text)

    def baseline_move(self, state):
        """The baseline policy (docs/rules/boba.md). Target: the gap that the most cards to come
        fit; ties to a queue a stay could clear without losing, then to the shorter queue, then
        the first in order. After a miss: stay when that is safe and costs no more cards than a
        kick (the queue holds at most 2); otherwise kick unless the drawn card would be the fourth
        discarded; otherwise stay."""
        moves = state.legal_moves()
        if not moves:
            return None
        if state.hand is not None:
            stay_ok, kick_ok = not state.stay_loses(), not state.kick_loses()
            if stay_ok and (len(state.queues[state.target[0]]) <= 2 or not kick_ok):
                return STAY
            return KICK if kick_ok else STAY
        counts = state.unseen_counts()
        below = [0] * (TOP + 2)  # below[v] = cards to come with value < v
        for v in range(1, TOP + 1):
            below[v + 1] = below[v] + counts[v]
        d = state.discards
        safe = [all(d[v] + queue.count(v) < COPIES for v in set(queue)) for queue in state.queues]
        best, best_rank = None, None
        for m in moves:
            queue = state.queues[m.queue - 1]
            lo, hi = gap_bounds(queue, m.gap)
            rank = (below[min(hi, VALUES) + 1] - below[max(lo, 1)], safe[m.queue - 1], -len(queue))
            if best_rank is None or rank > best_rank:
                best, best_rank = m, rank
        return best


    def blind_rule(self, state):
        """The blind rule (rule_move): the rollouts play it, and so does the policy "rule"."""
        return rule_move(state)

    # -- the compiled kernel (ext/boba.pyx); each hook returns None when it is not built -------
    # Open mode needs none: the generic search reaches the score bound on its first line.
    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.is_chance() or state.outcome() is not None:
            return None
        search = kernel.Search(1.0)
        _set_kernel_position(search, state)
        return [_from_kernel(m) for m in search.moves()]

    def fast_expectimax(self, limits):
        kernel = self.load_kernel()
        return BlindKernel(kernel, limits) if kernel is not None else None

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the blind rule, of the
        rule's best targets only (rule_candidates). Without the kernel, the same rollouts in
        Python (the same draws, tests/test_boba_kernel.py): the policy decides the same either way."""
        if not state.legal_moves():
            return None
        kernel = self.load_kernel()
        if kernel is None:
            return _python_rollouts(self, state, samples, seed)
        search = kernel.Search(1.0)
        _set_kernel_position(search, state)
        return [(_from_kernel(m), wins, total) for m, wins, total in search.rollouts(samples, seed, ROLLOUT_CANDIDATES)]


GAME = Boba()  # the registry's instance (solodeck/registry.py)


def _python_rollouts(game, state, samples, seed):
    """The kernel's rollouts (Search.rollouts with ROLLOUT_CANDIDATES) in pure Python."""

    stats = []
    for move in rule_candidates(state, ROLLOUT_CANDIDATES):
        wins = total = 0
        for i in range(samples):
            outcome = play_out(game, state.play(move), SplitMix64(seed + i), rule_move).outcome()
            if outcome.won:
                wins, total = wins + 1, total + outcome.score
        stats.append((move, wins, total))
    return stats


def _set_kernel_position(search, state):
    search.set_rule(SURVIVE, ODDS_POWER, RULE_ROUNDS)  # the kernel's rule weighs as this one  # the kernel's rule weighs as the reference's does
    search.set_position(state.queues, state.discards, state.deck, state.target, state.hand or 0, state.burn)


def _from_kernel(move):
    return STAY if move == "stay" else KICK if move == "kick" else Target(move[1] + 1, move[2])


class BlindKernel(BlindValuer):
    """Exact blind values in the kernel, for solvers/expectimax.py. Its table keys hold the
    queues, the discards and the unseen composition, so one table serves every position."""

    def accepts(self, state):
        return True

    def value(self, state):
        """(P(win), E[score x win]), or None if a limit stopped the kernel (see ``status``)."""
        _set_kernel_position(self.search, state)
        return self.search.blind_value()


# -- deal files: the mid-game position --------------------------------------------------------
def _values(text, source, field) -> list:
    try:
        return [_value(t) for t in str(text).replace(",", " ").split()]
    except ValueError as exc:
        raise DealError(source, field, str(exc)) from None


def _value(token: str) -> int:
    """A value written as a rank (5, T, 10, Q) or as a card whose suit is ignored (QD)."""
    t = token.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in C.RANKS:
        return C.RANKS.index(t) + 1
    try:
        card = C.parse_card(t)
    except ValueError:
        raise ValueError(f"'{token}' is not a value (A 2-9 T J Q K, or a card like QD)") from None
    if card == C.JOKER:
        raise ValueError("the game has no jokers")
    return C.rank_of(card)


def _state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``queues`` = 4 strings of values (any order; each queue keeps itself
    sorted), ``deck`` = the cards to come, top first, optional ``discards`` = the discard pile as
    values ("8 8 8 K") or a table of counts ({8 = 3}), by default every card not elsewhere;
    optional ``hand`` and ``target``: a drawn card that missed gap G of queue Q ("Q:G")."""
    known = {"queues", "deck", "discards", "hand", "target"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    texts = position.get("queues")
    if not isinstance(texts, list) or len(texts) != QUEUES:
        raise DealError(source, "position.queues", 'expected a list of 4 queues such as ["9 4 4 2", "8 A", "K", "5"]')
    queues = []
    for i, text in enumerate(texts, start=1):
        values = _values(text, source, f"position.queues[{i}]")
        if not values:
            raise DealError(source, f"position.queues[{i}]", "empty: every queue holds at least one card")
        queues.append(tuple(sorted(values)))
    deck = tuple(_values(position.get("deck", ""), source, "position.deck"))
    hand = target = None
    if ("hand" in position) != ("target" in position):
        raise DealError(source, "position.hand" if "hand" in position else "position.target",
                        "give both 'hand' (the drawn card that missed) and 'target' (its gap, \"Q:G\")")
    if "hand" in position:
        try:
            hand = _value(str(position["hand"]))
        except ValueError as exc:
            raise DealError(source, "position.hand", str(exc)) from None
        m = re.match(r"^\s*(\d+)\s*:\s*(\d+)\s*$", str(position["target"]))
        if not m or not 1 <= int(m.group(1)) <= QUEUES or int(m.group(2)) > len(queues[int(m.group(1)) - 1]):
            raise DealError(source, "position.target", f"'{position['target']}': expected 'Q:G', queue Q 1-4 and "
                                                       "gap G from 0 (below the lowest card) to the queue's length")
        target = (int(m.group(1)) - 1, int(m.group(2)))
        if fits(queues[target[0]], target[1], hand):
            raise DealError(source, "position.hand", f"{value_name(hand)} fits gap {position['target']}: "
                                                     "'hand' is a drawn card that missed its target")
    placed = [0] * (TOP + 1)
    for v in [v for q in queues for v in q] + list(deck) + ([hand] if hand else []):
        placed[v] += 1
    given = position.get("discards")
    if given is None:
        discards = [COPIES - placed[v] if v else 0 for v in range(TOP)]
        field = "position"
    else:
        field = "position.discards"
        discards = [0] * TOP
        if isinstance(given, dict):
            for k, n in given.items():
                try:
                    v = _value(str(k))
                except ValueError as exc:
                    raise DealError(source, field, str(exc)) from None
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < COPIES:
                    raise DealError(source, field, f"{k} = {n!r}: expected a count from 0 to 3")
                discards[v] += n
        else:
            for v in _values(given, source, field):
                discards[v] += 1
    for v in range(1, TOP):
        total = placed[v] + discards[v]
        if total > COPIES or discards[v] < 0:
            raise DealError(source, "position", f"{placed[v] + max(discards[v], 0)} cards of value {value_name(v)}: "
                                                 f"the deck has {COPIES}")
        if total != COPIES:
            raise DealError(source, field, f"value {value_name(v)}: {total} cards in queues, deck and discards, "
                                           f"expected {COPIES} (leave 'discards' out to make it the rest)")
        if discards[v] >= COPIES:
            raise DealError(source, field, f"four {value_name(v)}s discarded: the game is already lost")
    return State(tuple(queues), tuple(discards), deck, target, hand)
