"""Benchmark: The First Boba Tea Shop in London, open and blind mode (a script, not a test).

    python bench/boba.py --deals 1000 --jobs 1 [--first-seed 0] [--samples 64]
                         [--frontier 2,4,6,8,10] [--frontier-time-limit 60]

Part 1, on the deals of seeds first..first+N-1 (`solodeck deal boba --seed N`), the three win
rates with Wilson 95% intervals:
  - open: the exact solver with every card known (an upper bound for any player; every deal is
    won with all 52 cards, docs/rules/boba.md argues why, and the solver must prove it);
  - blind policy: `solodeck play boba --policy blind`, which never sees the deck order (a real
    strategy, so a lower bound on best blind play);
  - baseline policy: `solodeck play boba --policy baseline`.
Also open-mode time per deal and the blind policy's time per game.

Part 2, the exact frontier of blind mode: decisions (before a draw) with k cards left, reached
by the baseline policy on seeded deals, and the time to their exact blind value.

Part 3, rollouts: the compiled kernel against the pure-Python estimator, on one position.
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time

from tqdm import tqdm

from solodeck.api import NO_WIN, advance_chance
from solodeck.ext import load
from solodeck.registry import get_game
from solodeck.solvers import Limits, make_solver
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.sampling import BlindPolicy, SplitMix64, play_out, wilson_interval

GAME = get_game("boba")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(seed, chooser):
    state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
    while state.outcome() is None:
        state = advance_chance(state.play(chooser(state)))
    return state.outcome()


def one_deal(job):
    """Everything part 1 needs about one seed (runs in a worker process)."""
    seed, open_limit, samples = job
    result = make_solver(GAME, Limits(time_limit=open_limit, memory_mb=256)).solve(
        GAME.initial_state(GAME.new_deal(seed)))
    start = time.perf_counter()
    blind = play(seed, BlindPolicy(GAME, samples))
    blind_seconds = time.perf_counter() - start
    baseline = play(seed, GAME.baseline_move)
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes, "blind": blind.won,
            "blind_score": blind.score, "blind_seconds": blind_seconds, "baseline": baseline.won,
            "baseline_score": baseline.score}


def rate_line(label, wins, n, unknown=0):
    lo, _ = wilson_interval(wins, n)
    _, hi = wilson_interval(wins + unknown, n)
    extra = f", {unknown} undecided counted both ways" if unknown else ""
    return f"{label:<16} {wins / n:7.1%}  (95% interval {lo:.1%}-{hi:.1%}; {wins} of {n}{extra})"


def mean_score(rows, key):
    scores = [r[key + "_score"] for r in rows if r[key]]
    return f"{statistics.mean(scores):.1f}" if scores else "-"


def win_rates(args):
    seeds = range(args.first_seed, args.first_seed + args.deals)
    jobs = [(seed, args.open_time_limit, args.samples) for seed in seeds]
    rows = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for row in tqdm(pool.imap_unordered(one_deal, jobs), total=len(jobs), desc="deals", unit=" deal"):
            rows.append(row)
    wall = time.perf_counter() - start
    n = len(rows)
    open_wins = sum(r["verdict"] == "winnable" for r in rows)
    unknown = sum(r["verdict"] == "unknown" for r in rows)
    times = [r["seconds"] for r in rows]
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, "
          f"{wall:.0f} s wall")
    print(rate_line("open", open_wins, n, unknown))
    print(rate_line("blind policy", sum(r["blind"] for r in rows), n))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    scores = {}
    for r in rows:
        if r["exact"] and r["score"] is not None:
            scores[r["score"]] = scores.get(r["score"], 0) + 1
    print(f"open mode: {sum(r['exact'] for r in rows)} of {n} exact; proven best scores: "
          + ", ".join(f"{s}: {c}" for s, c in sorted(scores.items(), reverse=True)))
    print(f"open mode, time per deal: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms; "
          f"nodes per deal: median {statistics.median(r['nodes'] for r in rows):.0f}, max {max(r['nodes'] for r in rows)}")
    print(f"mean score of wins (cards in queues): blind policy {mean_score(rows, 'blind')}, "
          f"baseline {mean_score(rows, 'baseline')}")
    blind_times = [r["blind_seconds"] for r in rows]
    print(f"blind policy, time per game: median {statistics.median(blind_times):.2f} s, "
          f"max {max(blind_times):.2f} s ({args.samples} rollouts per move beyond the exact frontier)")
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory of a worker: {children:.0f} MB")


def frontier_positions(k, count):
    """Decisions before a draw with k cards left, reached by the baseline policy, not yet lost."""
    out, seed = [], 0
    while len(out) < count and seed < 10_000:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        seed += 1
        while state.outcome() is None and (len(state.deck) > k or state.hand is not None):
            state = advance_chance(state.play(GAME.baseline_move(state)))
        if state.outcome() is None and len(state.deck) == k and state.score_bound() != NO_WIN:
            out.append((seed - 1, state))
    return out


def frontier(args):
    print(f"\nPart 2: blind mode's exact frontier ({args.frontier_positions} positions per k, "
          f"limit {args.frontier_time_limit} s each; kernel: {'yes' if load('boba') else 'no'})")
    print(f"{'k':>3} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  win probabilities")
    for k in args.frontier:
        times, nodes, probabilities, exact = [], 0, [], 0
        for _seed, state in frontier_positions(k, args.frontier_positions):
            result = ExpectimaxSolver(GAME, Limits(time_limit=args.frontier_time_limit)).solve(state)
            times.append(result.seconds)
            nodes += result.nodes
            exact += result.exact
            probabilities.append(f"{result.win_probability:.3f}" if result.exact else "-")
        if not times:
            print(f"{k:>3}  no position found")
            continue
        print(f"{k:>3} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
              f"{nodes / max(sum(times), 1e-9):>10,.0f}  {' '.join(probabilities)}")


def rollout_comparison(args):
    print(f"\nPart 3: rollouts, kernel vs pure Python ({args.rollout_samples} samples per move)")
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    for _ in range(10):
        state = advance_chance(state.play(GAME.baseline_move(state)))
    moves = state.legal_moves()
    start = time.perf_counter()
    fast = GAME.fast_rollouts(state, args.rollout_samples, 0)
    kernel_seconds = time.perf_counter() - start
    start = time.perf_counter()
    slow = []
    for move in moves:
        wins = 0
        for i in range(args.rollout_samples):
            wins += bool(play_out(GAME, state.play(move), SplitMix64(i), GAME.baseline_move).outcome().won)
        slow.append(wins)
    python_seconds = time.perf_counter() - start
    same = fast is not None and [w for _m, w, _s in fast] == slow
    games = len(moves) * args.rollout_samples
    if fast is None:
        print(f"kernel not built; Python: {games} games in {python_seconds:.2f} s")
        return
    print(f"{len(moves)} moves x {args.rollout_samples} samples = {games} games after the move: kernel "
          f"{kernel_seconds * 1000:.1f} ms ({games / kernel_seconds:,.0f} games/s), Python {python_seconds:.2f} s "
          f"({games / python_seconds:,.0f} games/s), {python_seconds / kernel_seconds:.0f}x; "
          f"same wins sample for sample: {same}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--open-time-limit", type=float, default=5.0)
    parser.add_argument("--samples", type=int, default=64, help="blind policy: rollouts per move")
    parser.add_argument("--frontier", type=lambda t: [int(x) for x in t.split(",")], default=[2, 4, 6, 8, 10])
    parser.add_argument("--frontier-positions", type=int, default=5)
    parser.add_argument("--frontier-time-limit", type=float, default=60.0)
    parser.add_argument("--rollout-samples", type=int, default=32)
    args = parser.parse_args()
    print(f"Boba benchmark; compiled kernel: {'yes' if load('boba') else 'NO (pure Python)'}")
    if args.deals:
        win_rates(args)
    if args.frontier:
        frontier(args)
    if args.rollout_samples:
        rollout_comparison(args)
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
