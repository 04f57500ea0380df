"""Blind mode beyond the exact frontier, by rollouts: each candidate move, then the game's blind
rule (``Game.blind_rule``: its baseline unless the game names a stronger rule just as blind) to
the end, over ``samples`` random draws of the unseen cards (each draw weighted by the
composition, as a chance node is). The win fraction estimates P(win | this move, then the
rule), with a Wilson 95% interval. That is the value of a real blind strategy, so it estimates a
*lower bound* on the move's exact blind value; the rows say ``exact: false`` and give the sample
count. Every move sees the same samples (sample i draws with the generator seeded ``seed + i``),
so the comparison between moves is sharper than the intervals alone suggest (common random
numbers). Which moves, how many draws and how they are shared: the game's BlindPlan
(solvers/plan.py).
"""
from __future__ import annotations

import math

from solodeck.result import Limits
from solodeck.shuffle import SplitMix64  # the kernels' generator too (ext/shared.pxd): the same draws
from .plan import BlindPlan, Estimator, plan_of
from .stats import unvalued_row, unvalued_rows, wilson_interval


def play_out(game, state, rng: SplitMix64, choose):
    """Play ``state`` to the end: chance by ``rng``, decisions by ``choose(state)``. Final state."""
    while state.outcome() is None or state.is_chance():
        if state.is_chance():
            state = state.apply_chance(state.sample_chance(rng))
        else:
            move = choose(state)
            if move is None:
                break
            state = state.play(move)
    return state


def candidate_moves(game, state, plan: BlindPlan | None = None) -> list:
    """The moves rollouts value: the blind rule's own where it decides (Estimator.RULE), every
    legal move, or ``plan.candidates`` of blind_search_moves() (one per distinct position, best
    first by the game's own order, read from what the player knows) with the rule's own move where the plan keeps to it."""
    plan = plan or plan_of(game)
    if plan.estimator == Estimator.RULE:
        rule = game.blind_rule(state)
        return [] if rule is None else [rule]
    if plan.candidates is None:
        return state.legal_moves()
    moves = state.blind_search_moves()[:plan.candidates]
    if plan.keep_rule:
        rule = game.blind_rule(state)
        if rule is not None and rule not in moves:
            moves.append(rule)
    return moves


def rollout_stats(game, state, samples: int, seed: int = 0, moves: list | None = None,
                  plan: BlindPlan | None = None) -> list:
    """[(move, wins, sum of winning scores[, sum of losing scores])] for ``moves`` (default: the
    candidate moves) of a decision state: the move, then the blind rule, over ``samples`` sampled
    draws (the kernel's when it has one: Game.fast_rollouts; a kernel that values more moves than
    asked has the others dropped: the same numbers). The losing scores only where the plan ranks
    by them (BlindPlan.rank_losses)."""
    plan = plan or plan_of(game)
    moves = candidate_moves(game, state, plan) if moves is None else moves
    stats = game.fast_rollouts(state, samples, seed, moves)
    if stats is not None:
        wanted = set(moves)
        return [row for row in stats if row[0] in wanted]
    return [row if plan.rank_losses else row[:3] for row in python_rollout_stats(game, state, samples, seed, moves)]


def python_rollout_stats(game, state, samples: int, seed: int, moves: list) -> list:
    """[(move, wins, sum of winning scores, sum of losing scores)]: each move, then the blind rule
    in Python, sample i drawn by SplitMix64(seed + i) (the draws a kernel's rollouts repeat)."""
    stats = []
    for move in moves:
        wins = total = lost_total = 0
        for i in range(samples):
            final = play_out(game, state.play(move), SplitMix64(seed + i), game.blind_rule)
            outcome = final.outcome() or final.stop_outcome()  # the rule gave up: what it holds
            if outcome is not None and outcome.won:
                wins += 1
                total += outcome.score or 0
            elif outcome is not None:
                lost_total += outcome.score or 0
        stats.append((move, wins, total, lost_total))
    return stats


def rollout_stats_until(game, state, samples: int, seed: int, limits: Limits | None, moves: list | None = None,
                        plan: BlindPlan | None = None):
    """(rollout_stats over the first n of ``samples`` draws, n): all of them, or, when ``limits``
    has a deadline, as many as fit before it (batches that double; at least the first). Draw i
    is the same whichever batch makes it, so the sums are those of one call over n draws."""
    if limits is None or limits.deadline is None:
        return rollout_stats(game, state, samples, seed, moves, plan), samples
    sums, done, batch = {}, 0, min(samples, 16)
    while done < samples and (done == 0 or not limits.expired()):
        n = min(batch, samples - done)
        for move, *counts in rollout_stats(game, state, n, seed + done, moves, plan):
            sums[move] = [a + b for a, b in zip(sums[move], counts)] if move in sums else counts
        done, batch = done + n, 2 * batch
    return [(move, *counts) for move, counts in sums.items()], done


def estimated_rows(game, state, samples: int | None = None, seed: int = 0, limits: Limits | None = None,
                   every_move: bool = False, plan: BlindPlan | None = None) -> list:
    """The estimator's ranked moves: dicts with move, win_probability, its interval, samples and
    expected_score (on a win); best first (win fraction, then the blind rule's own move where the
    plan keeps to it, then the winning scores, then the losing scores, then the legal order).
    Moves the rollouts passed over follow with win_probability None. ``samples``: draws per move
    (default: the plan's). ``limits`` with a deadline: fewer draws where the deadline comes first
    (rollout_stats_until). ``plan.halving``: the same budget spent by sequential halving
    (halving_stats): the moves still in contention first, each row with its own sample count.
    Where the rule decides (Estimator.RULE) its move is ranked first whatever the rollouts say;
    ``every_move`` (analysis: solve and hint files) rolls out every legal move there too, for its
    estimate."""
    plan = plan or plan_of(game)
    samples = plan.samples if samples is None else samples
    rows = []
    sense = -1 if game.score_sense == "lower" else 1
    decides = plan.estimator == Estimator.RULE
    rule = game.blind_rule(state) if plan.keep_rule or decides else None
    first = rule if decides else None  # ranked first whatever the rollouts say
    moves = state.legal_moves() if every_move and decides else None
    if plan.halving:
        stats, draws, alive = halving_stats(game, state, samples, seed, limits, moves, plan)
    else:
        stats, n = rollout_stats_until(game, state, samples, seed, limits, moves, plan)
        draws, alive = {row[0]: n for row in stats}, {row[0] for row in stats}
    for move, wins, total, *lost in stats:
        n = draws[move]
        lo, hi = wilson_interval(wins, n)
        rows.append({"move": move, "win_probability": wins / n, "interval": [lo, hi],
                     "samples": n, "expected_score": total / wins if wins else None, "exact": False,
                     "_rank": (move in alive, move == first, *_rank_key(move, n, wins, total, lost, rule, sense))})
    rows.sort(key=lambda r: r["_rank"], reverse=True)  # stable: ties keep the legal order
    for r in rows:
        del r["_rank"]
    if plan.confirm and rule is not None and rows and rows[0]["move"] != rule and not decides:
        rows = _confirmed(game, state, rows, rule, seed + max(draws.values()), limits, plan)
    return rows + unvalued_rows(state, rows)


def _confirmed(game, state, rows, rule, seed, limits, plan) -> list:
    """``rows`` after the move ranked first, not the rule's, is put to the test of plan.confirm
    fresh draws (the same worlds for both, from ``seed``): it stays first only if it wins more of
    them than the rule's move, else the rule's move goes first. Both rows then count every draw."""
    top, mine = rows[0], next((r for r in rows if r["move"] == rule), None)
    if mine is None:
        return rows
    stats, n = rollout_stats_until(game, state, plan.confirm, seed, limits, [top["move"], rule], plan)
    if not n:  # the deadline came first: the ranking stands as it is
        return rows
    counts = {move: (wins, total) for move, wins, total, *_ in stats}
    for row in (top, mine):
        wins, total = counts[row["move"]]
        before = round(row["win_probability"] * row["samples"])
        won, drawn = before + wins, row["samples"] + n
        scores = (row["expected_score"] or 0) * before + total
        row.update(win_probability=won / drawn, interval=list(wilson_interval(won, drawn)), samples=drawn,
                   expected_score=scores / won if won else None)
    if counts[top["move"]][0] > counts[rule][0]:
        return rows
    return [mine] + [r for r in rows if r is not mine]


def _rank_key(move, n, wins, total, lost, rule, sense) -> tuple:
    """Higher is better: win fraction, the rule's own move, winning then losing scores per draw
    (with equal draws, the order of the plain sums)."""
    return wins / n, move == rule, sense * total / n, sense * sum(lost) / n


NOISE_Z = 1.96  # sequential halving keeps a move whose paired difference to the leader is within this many s.e.


def halving_stats(game, state, samples: int, seed: int = 0, limits: Limits | None = None,
                  moves: list | None = None, plan: BlindPlan | None = None):
    """(stats, draws per move, the moves still in contention): rollout_stats of every candidate
    move with the budget of ``samples`` draws each spent by sequential halving. Over
    ceil(log2 moves) rounds of equal budget, the moves in contention share each round, so their
    draws about double; after a round the better half stays (ranked as estimated_rows ranks),
    and so does every move whose difference to the leader is within noise. Draw i of every move
    is the same world (SplitMix64(seed + i): common random numbers), so the difference of two
    win fractions is a paired difference; its spread is bounded from the counts alone (the pairs
    that disagree are at most min(p + q, 2 - p - q)), so the test keeps more than it must, never
    fewer. Two moves or fewer: the equal allocation, draw for draw. Never more than ``samples`` x
    moves draws in all; a deadline in ``limits`` ends it early (rollout_stats_until). ``moves``:
    these, not the candidate moves."""
    plan = plan or plan_of(game)
    sense = -1 if game.score_sense == "lower" else 1
    rule = game.blind_rule(state) if plan.keep_rule else None
    first, done = rollout_stats_until(game, state, 1, seed, limits, moves, plan)  # draw 0 of round 1 names the moves
    sums = {move: list(counts) for move, *counts in first}
    moves = list(sums)
    if len(moves) <= 2:
        if samples > 1 and not (limits is not None and limits.expired()):
            more, n = rollout_stats_until(game, state, samples - 1, seed + 1, limits, moves, plan)
            for move, *counts in more:
                sums[move] = [a + b for a, b in zip(sums[move], counts)]
            done += n
        return [(m, *sums[m]) for m in moves], {m: done for m in moves}, set(moves)
    budget, rounds = samples * len(moves), math.ceil(math.log2(len(moves)))
    draws, alive = {m: done for m in moves}, moves
    for r in range(rounds):
        # this round's share of what is left, split among the moves in contention
        n = (budget - sum(draws.values())) // ((rounds - r) * len(alive))
        if n > 0 and not (limits is not None and limits.expired()):
            more, got = rollout_stats_until(game, state, n, seed + done, limits, alive, plan)
            for move, *counts in more:
                sums[move] = [a + b for a, b in zip(sums[move], counts)]
            done += got
            draws.update((move, done) for move in alive)
            if got < n:
                break  # the deadline
        if r == rounds - 1:
            break
        alive = _contenders(alive, sums, done, rule, sense)
        if len(alive) == 1:
            break
    return [(m, *sums[m]) for m in moves], draws, set(alive)


def _contenders(alive, sums, n, rule, sense) -> list:
    """The better half of ``alive`` (n draws each), and any other move within noise of the leader."""
    ranked = sorted(alive, key=lambda m: _rank_key(m, n, sums[m][0], sums[m][1], sums[m][2:], rule, sense),
                    reverse=True)
    leader = (sums[ranked[0]][0] + 1) / (n + 2)  # add-one: a few draws all won or all lost are not certainty
    keep = ranked[:math.ceil(len(ranked) / 2)]
    for move in ranked[len(keep):]:
        p = (sums[move][0] + 1) / (n + 2)
        differ = min(leader + p, 2 - leader - p)  # the most pairs that can disagree, as a fraction
        spread = math.sqrt(max(0.0, differ - (leader - p) ** 2) / n)
        if (sums[ranked[0]][0] - sums[move][0]) / n <= NOISE_Z * spread:
            keep.append(move)
    return [m for m in alive if m in keep]  # the legal order, as the equal allocation's


class RolloutEstimator:
    """Estimator.ROLLOUTS and Estimator.RULE behind the estimators' interface (``name``,
    ``rows(state, limits, every_move)``, ``moved(state, move)``)."""

    def __init__(self, game, plan: BlindPlan, seed: int = 0):
        self.game, self.plan, self.seed = game, plan, seed
        # the rule's own move, unvalued: rolling it out is too dear (BlindPlan.estimate), in play
        # (rows without every_move) or everywhere (analysis_samples 0)
        unvalued = plan.estimator == Estimator.RULE and not plan.estimate
        self.name = "rule" if unvalued and plan.analysis_samples == 0 else "rollouts"
        self.unvalued_in_play = unvalued

    def rows(self, state, limits: Limits | None = None, every_move: bool = False) -> list:
        if self.name == "rule" or (self.unvalued_in_play and not every_move):
            rows = [unvalued_row(self.game.blind_rule(state))]
            return rows + unvalued_rows(state, rows)
        return estimated_rows(self.game, state, None, self.seed, limits, every_move, self.plan)

    def moved(self, state, move) -> None:
        """Rollouts remember nothing between decisions."""
