"""Blind mode beyond the exact frontier: Monte-Carlo rollouts, and the policies that play games.

**The estimator.** Where the expectimax tree does not fit the limits, each legal move is valued
by *rollouts*: the move, then the game's rollout rule (``game.rollout_move``: its baseline unless
the game names a stronger blind rule) to the end, over ``samples`` random draws of the unseen
cards (each draw weighted by the composition, as a chance node is). The win fraction estimates
P(win | this move, then the rollout rule), with a Wilson 95% interval.
That is the value of a real blind strategy, so it estimates a *lower bound* on the move's exact
blind value; the results say ``exact: false`` and give the sample count. Every move sees the
same samples (sample i draws with the generator seeded ``seed + i``), so the comparison between
moves is sharper than the intervals alone suggest (common random numbers).

**The policies** (``solodeck play``, the benchmarks): ``baseline`` is the game's simple rule
(``game.baseline_move``); ``blind`` plays the exact expectimax move when the tree fits a small
budget and the best rollout move otherwise: one step of policy improvement over the rollout rule
(Bertsekas' rollout algorithm), which never sees the order of the deck.
"""
from __future__ import annotations

import math
import time

from solodeck.errors import UnsupportedError
from solodeck.result import Limits, SolveResult, Status, Verdict, finish_blind
from solodeck.shuffle import SplitMix64  # the kernels' generator too (ext/shared.pxd): the same draws
from .expectimax import ExpectimaxSolver


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) when n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


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


def candidate_moves(game, state) -> list:
    """The moves rollouts value: every legal move, or, for a game that sets ``rollout_moves``,
    that many of search_moves() (one per distinct position, best first by the game's own order),
    with the rollout rule's own move where the game keeps to it (``rollout_keeps_rule``)."""
    if game.rollout_moves is None:
        return state.legal_moves()
    moves = state.search_moves()[:game.rollout_moves]
    if game.rollout_keeps_rule:  # the rule's own move is always valued (Game.rollout_keeps_rule)
        rule = game.rollout_move(state)
        if rule is not None and rule not in moves:
            moves.append(rule)
    return moves


def rollout_stats(game, state, samples: int, seed: int = 0, moves: list | None = None) -> list:
    """[(move, wins, sum of winning scores, sum of losing scores)] for each candidate move of a
    decision state: the move, then the rollout rule (Game.rollout_move), over ``samples`` sampled draws (the
    kernel's when it has one). The last sum only in games whose losses score (Game.scores_losses),
    where it breaks ties between moves. ``moves``: only these (a subset of what a call without
    them values, in its order); a kernel that values every move at once (not Game.rollout_subsets)
    still does, and the others are dropped: the same numbers, at the cost of all."""
    if moves is not None and game.rollout_subsets:
        stats = game.fast_rollouts(state, samples, seed, moves=moves)
    else:
        stats = game.fast_rollouts(state, samples, seed)
    if stats is not None:
        if moves is not None and not game.rollout_subsets:
            wanted = set(moves)
            stats = [row for row in stats if row[0] in wanted]
        return stats
    stats = []
    for move in candidate_moves(game, state) if moves is None else moves:
        wins = total = lost_total = 0
        for i in range(samples):
            final = play_out(game, state.play(move), SplitMix64(seed + i), game.rollout_move)
            outcome = final.outcome() or final.stop_outcome()  # the rule gave up: what it holds
            if outcome is not None and outcome.won:
                wins += 1
                total += outcome.score or 0
            elif outcome is not None:
                lost_total += outcome.score or 0
        stats.append((move, wins, total, lost_total) if game.scores_losses else (move, wins, total))
    return stats


def rollout_stats_until(game, state, samples: int, seed: int, limits: Limits | None, moves: list | None = None):
    """(rollout_stats over the first n of ``samples`` draws, n): all of them, or, when ``limits``
    has a deadline, as many as fit before it (batches that double; at least the first). Draw i
    is the same whichever batch makes it, so the sums are those of one call over n draws."""
    if limits is None or limits.deadline is None:
        return rollout_stats(game, state, samples, seed, moves), samples
    sums, done, batch = {}, 0, min(samples, 16)
    while done < samples and (done == 0 or not limits.expired()):
        n = min(batch, samples - done)
        for move, *counts in rollout_stats(game, state, n, seed + done, moves):
            sums[move] = [a + b for a, b in zip(sums[move], counts)] if move in sums else counts
        done, batch = done + n, 2 * batch
    return [(move, *counts) for move, counts in sums.items()], done


def rule_decides(game) -> bool:
    """The game's blind policy plays its rollout rule's move (``rollout_moves = 0``): rollouts of the
    other moves ranked them by noise, so the policy rolls out only the rule's move, for its estimate."""
    return game.rollout_moves == 0


def estimated_rows(game, state, samples: int, seed: int = 0, limits: Limits | None = None,
                   adaptive: bool = False, every_move: bool = False) -> list:
    """The estimator's ranked moves: dicts with move, win_probability, its interval, samples and
    expected_score (on a win); best first (win fraction, then the rollout rule's own move where
    Game.rollout_keeps_rule, then the winning scores, then the losing scores, then the legal order). Moves
    the rollouts passed over (Game.rollout_moves) follow with win_probability None. ``limits``
    with a deadline: fewer draws where the deadline comes first (rollout_stats_until).
    ``adaptive``: the same budget spent by sequential halving (halving_stats): the moves still in
    contention first, each row with its own sample count. ``every_move`` (analysis: solve and
    hint files): where the rule decides (rule_decides), every legal move is rolled out too, for
    its estimate, and ranked after the rule's move, which the policy plays."""
    rows = []
    sense = -1 if game.score_sense == "lower" else 1
    # Game.rollout_keeps_rule: the rule's own move first among equal wins (then the scores)
    decides = rule_decides(game)
    rule = game.rollout_move(state) if game.rollout_keeps_rule or decides else None
    first = rule if decides else None  # ranked first whatever the rollouts say
    moves = state.legal_moves() if every_move and decides else None
    if adaptive:
        stats, draws, alive = halving_stats(game, state, samples, seed, limits, moves)
    else:
        stats, n = rollout_stats_until(game, state, samples, seed, limits, moves)
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
    return rows + unvalued_rows(state, rows)


def _rank_key(move, n, wins, total, lost, rule, sense) -> tuple:
    """Higher is better: win fraction, the rule's own move, winning then losing scores per draw
    (with equal draws, the order of the plain sums)."""
    return wins / n, move == rule, sense * total / n, sense * sum(lost) / n


NOISE_Z = 1.96  # sequential halving keeps a move whose paired difference to the leader is within this many s.e.


def halving_stats(game, state, samples: int, seed: int = 0, limits: Limits | None = None,
                  moves: list | None = None):
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
    sense = -1 if game.score_sense == "lower" else 1
    rule = game.rollout_move(state) if game.rollout_keeps_rule else None
    first, done = rollout_stats_until(game, state, 1, seed, limits, moves)  # draw 0 of round 1 names the moves
    sums = {move: list(counts) for move, *counts in first}
    moves = list(sums)
    if len(moves) <= 2:
        if samples > 1 and not (limits is not None and limits.expired()):
            more, n = rollout_stats_until(game, state, samples - 1, seed + 1, limits, moves)
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
            more, got = rollout_stats_until(game, state, n, seed + done, limits, alive)
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


def unvalued_rows(state, rows) -> list:
    """Rows for the legal moves an estimator passed over (Game.rollout_moves): last, unvalued."""
    valued = {r["move"] for r in rows}
    return [{"move": move, "win_probability": None, "interval": None, "samples": None, "expected_score": None,
             "exact": False} for move in state.legal_moves() if move not in valued]


def exact_rows(game, state, limits: Limits):
    """The exact ranked moves as in estimated_rows, or None if the tree does not fit ``limits``
    (or is not the player's: State.blind_tree_exact)."""
    if not state.blind_tree_exact():
        return None
    solver = ExpectimaxSolver(game, limits)
    ranked = solver.ranked_moves(state)
    if any(v is None for _m, v in ranked):
        return None
    return [{"move": m, "win_probability": v[0], "interval": [v[0], v[0]], "samples": None,
             "expected_score": v[1] / v[0] if v[0] > 0 else None, "exact": True} for m, v in ranked]


class BaselinePolicy:
    """The game's simple rule (``game.baseline_move``), as a policy. It ranks nothing."""

    def __init__(self, game):
        self.game = game

    def rank(self, state):
        return None

    def __call__(self, state):
        return self.game.baseline_move(state)


def _decision_view(state):
    """The view of the decision a move leads to (a move whose only consequence is a forced one,
    e.g. one legal move back, comes back to where it started just the same)."""
    for _ in range(8):
        if state.is_chance() or state.outcome() is not None or len(state.legal_moves()) != 1:
            break
        state = state.play(state.legal_moves()[0])
    return state.view()


class BlindPolicy:
    """Plays the exact blind move when the tree fits ``exact_limits``, else the best estimated
    move: rollouts, or, in games with hidden faces, determinization (solvers/determinized.py).
    Only what the player sees is used (the view, the composition of the unseen cards): the
    order of the deck and the hidden faces never reach it (every search draws from the view).

    Where positions repeat (``Game.acyclic = False``) the policy remembers the views it has
    decided at and ranks the moves back to one of them last: coming back teaches nothing, and
    a policy that did would go round in circles."""

    def __init__(self, game, samples: int = 64, seed: int = 0, exact_limits: Limits | None = None,
                 adaptive: bool | None = None, every_move: bool = False):
        from .determinized import Determinizer

        self.game, self.samples, self.seed = game, samples, seed
        # rollouts by sequential halving (halving_stats) or equally; None: as the game says
        self.adaptive = game.rollout_adaptive if adaptive is None else adaptive
        self.every_move = every_move  # for analysis (hint files): estimated_rows' every_move
        self.endgame_budget = exact_limits is None  # the game's larger budget where its trees shrink
        if exact_limits is None:  # about 30 ms of the compiled valuer; the Python one is ~100x slower
            compiled = game.fast_expectimax(Limits(memory_mb=1)) is not None
            states = game.blind_exact_states
            states = (20_000 if compiled else 500) if states is None else states  # 0: no exact attempt
            exact_limits = Limits(max_states=states, memory_mb=64)
        self.exact_limits = exact_limits
        self.determinizer = Determinizer(game, samples, seed) if game.estimator() == "determinized" else None
        self._met: set = set()

    def rank(self, state) -> list:
        """Every legal move as a row (move, win_probability, interval, samples, expected_score,
        exact), best first: the first row is the move the policy plays."""
        states = self.game.blind_exact_states_at(state) if self.endgame_budget else None
        rows = exact_rows(self.game, state, self.exact_limits if states is None
                          else Limits(max_states=states, memory_mb=self.exact_limits.memory_mb))
        if rows is not None and self.game.scores_losses and rows[0]["win_probability"] == 0:
            rows = None  # no win anywhere: the losing scores decide, and only the estimator measures them
        if rows is None and self.game.estimator() == "rule":  # the rule's own move, not rolled out
            rows = [{"move": self.game.rollout_move(state), "win_probability": None, "interval": None,
                     "samples": None, "expected_score": None, "exact": False}]
            rows += unvalued_rows(state, rows)
        if rows is None:
            rows = (self.determinizer.rows(state) if self.determinizer is not None
                    else estimated_rows(self.game, state, self.samples, self.seed, adaptive=self.adaptive,
                                        every_move=self.every_move))
        if not self.game.acyclic:  # among the valued moves, those back to a view met go last
            self._met.add(state.view())
            valued = [r for r in rows if r["win_probability"] is not None]
            back = [r for r in valued if _decision_view(state.play(r["move"])) in self._met]
            rows = [r for r in valued if r not in back] + back + rows[len(valued):]
        self._moving(state, rows[0]["move"])
        return rows

    def __call__(self, state):
        moves = state.legal_moves()
        forced = moves[0] if len(moves) == 1 else state.safe_move()  # a safe move is a dominance
        if forced is not None or not moves:
            if forced is not None:
                self._moving(state, forced)
            return forced
        return self.rank(state)[0]["move"]

    def _moving(self, state, move):
        """Remember where the player was, and tell the determinizer's worlds which move it makes."""
        if not self.game.acyclic:
            self._met.add(state.view())
        if self.determinizer is not None:
            self.determinizer.worlds_for(state)
            self.determinizer.moved(move)


class RulePolicy(BaselinePolicy):
    """The game's rollout rule (``game.rollout_move``) played alone: what the rollouts play."""

    def __call__(self, state):
        return self.game.rollout_move(state)


# blind-equal / blind-adaptive: the blind policy with its rollouts shared equally between the moves
# or by sequential halving, whatever the game's default (Game.rollout_adaptive), to measure the two
POLICIES = ("blind", "baseline", "rule", "blind-equal", "blind-adaptive")


def policy(game, name: str, samples: int = 64, seed: int = 0):
    """A policy by name (POLICIES). A policy maps a decision state to a move
    (``policy(state)``) and may rank the moves (``policy.rank(state)``: rows, or None)."""
    if "blind" not in game.modes:
        raise UnsupportedError(f"{game.name} has no blind mode yet, so no policies")
    if name == "baseline":
        return BaselinePolicy(game)
    if name == "rule":
        return RulePolicy(game)
    if name in ("blind", "blind-equal", "blind-adaptive"):
        return BlindPolicy(game, samples, seed, adaptive={"blind": None, "blind-equal": False}.get(name, True))
    raise UnsupportedError(f"unknown policy '{name}' (expected: {', '.join(POLICIES)})")


def solve_blind(game, state, limits: Limits, samples: int, seed: int = 0, progress=None) -> SolveResult:
    """Blind mode's answer at a decision: exact expectimax within ``limits``; where the tree does
    not fit, the estimator (status "estimated", exact false, intervals and sample count): rollouts,
    or determinization in games with hidden faces."""
    start = time.perf_counter()
    decided = state.blind_tree_exact() or not state.legal_moves()  # else the tree would read hidden state
    exact = ExpectimaxSolver(game, limits, progress).solve(state) if decided else None
    if exact is not None and (exact.exact or not state.legal_moves()):
        return exact
    if game.estimator() == "rule":  # the rule's own move, not rolled out (Game.blind_estimator)
        rows = [{"move": game.rollout_move(state), "win_probability": None, "interval": None, "samples": None,
                 "expected_score": None, "exact": False}]
        rows += unvalued_rows(state, rows)
        return finish_blind(game, status=Status.ESTIMATED, verdict=Verdict.UNKNOWN, exact=False,
                            line=[rows[0]["move"]], start=start, nodes=exact.nodes if exact else 0,
                            stored=exact.unique_states if exact else 0, engine="rule", win_probability=None,
                            expected_score=None, ranked=[{**r, "move": str(r["move"])} for r in rows])
    if game.estimator() == "determinized":
        from .determinized import Determinizer

        rows, engine = Determinizer(game, samples, seed).rows(state), "determinized"
    else:
        rows, engine = estimated_rows(game, state, samples, seed, limits, every_move=True), "rollouts"
        samples = rows[0]["samples"]  # as many as the deadline let through
    best = rows[0]
    return finish_blind(
        game, status=Status.ESTIMATED,
        # winnable: a blind player wins with a positive probability (a sampled world won with every
        # face known is a world the player may be in, and playing its line wins there)
        verdict=Verdict.WINNABLE if best["win_probability"] > 0 else Verdict.UNKNOWN, exact=False,
        line=[best["move"]], start=start, nodes=(exact.nodes if exact else 0) + samples * len(rows),
        stored=exact.unique_states if exact else 0,
        engine=engine, win_probability=best["win_probability"], expected_score=best["expected_score"],
        ranked=[{**r, "move": str(r["move"])} for r in rows], interval=best["interval"], samples=samples)
