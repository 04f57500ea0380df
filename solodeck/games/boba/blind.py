"""The First Boba Tea Shop's blind play: the baseline policy, the blind rule the rollouts play
(rule_move, and the targets it rolls out, rule_candidates), the rollouts in the kernel or in
Python, the kernel's exact blind values (BlindKernel) and the blind plan."""
from __future__ import annotations

from ...ext import BlindValuer
from ...shuffle import SplitMix64
from ...solvers.plan import BlindPlan
from ...solvers.rollouts import play_out
from .rules import COPIES, KICK, QUEUES, STAY, TOP, VALUES, gap_bounds
from .search import from_kernel, set_kernel_position


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


def baseline_move(state):
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


def plan(kernel) -> BlindPlan:
    """128 rollouts a move (only the rule's best two targets are rolled out: fast_rollouts); the
    policy leaves the rule's move only for more wins in the samples. The exact endgame: 5,000
    states with the kernel (a failed attempt costs a few ms, not the default's tens), else the
    default for Python. ``kernel``: the loaded kernel, or None (Game.load_kernel)."""
    return BlindPlan(samples=128, keep_rule=True, exact_states=5000 if kernel is not None else None)


def fast_rollouts(game, state, samples, seed):
    """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the blind rule, of the
    rule's best targets only (rule_candidates). Without the kernel, the same rollouts in
    Python (the same draws, tests/test_boba_kernel.py): the policy decides the same either way."""
    if not state.legal_moves():
        return None
    kernel = game.load_kernel()
    if kernel is None:
        return _python_rollouts(game, state, samples, seed)
    search = kernel.Search(1.0)
    _set_kernel_position(search, state)
    return [(from_kernel(m), wins, total) for m, wins, total in search.rollouts(samples, seed, ROLLOUT_CANDIDATES)]


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
    search.set_rule(SURVIVE, ODDS_POWER, RULE_ROUNDS)  # the kernel's rule weighs as the reference's does
    set_kernel_position(search, state)


class BlindKernel(BlindValuer):
    """Exact blind values in the kernel, for solvers/expectimax.py. Its table keys hold the
    queues, the discards and the unseen composition, so one table serves every position."""

    def accepts(self, state):
        return True

    def value(self, state):
        """(P(win), E[score x win]), or None if a limit stopped the kernel (see ``status``)."""
        _set_kernel_position(self.search, state)
        return self.search.blind_value()
