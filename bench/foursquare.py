"""Benchmark: Foursquare in open and blind mode (a script, not a test).

    python bench/foursquare.py --deals 1000 --jobs 2 [--first-seed 0] [--open-time-limit 5]
                               [--samples 64] [--frontier 2,4,6,8] [--frontier-time-limit 60]

Part 1, on the deals of seeds first..first+N-1 (`solodeck deal foursquare --seed N`), the three
win rates with Wilson 95% intervals:
  - open: the exact solver with every card known (an upper bound for any player); deals a
    limit left undecided are counted both ways, which widens the interval;
  - blind policy: `solodeck play --policy blind`, which never sees the deck order (a lower bound
    on the best real play);
  - baseline policy: `solodeck play --policy baseline`.
Also open-mode time per deal (median, 95th percentile, maximum), nodes per second, peak memory.

Part 2, the exact frontier of blind mode: positions with k cards left in the deck (the baseline
policy plays seeded deals until k are left, keeping those still winnable in principle), the
time to the exact blind value of the decision there. Target: k = 6 within 10 s.

Part 3 compares the kernel with the pure-Python reference on a few short open searches.
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
from solodeck.solvers import DepthFirstSolver, Limits, make_solver
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.sampling import BlindPolicy, wilson_interval

GAME = get_game("foursquare")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(seed, chooser):
    state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
    while state.outcome() is None:
        state = advance_chance(state.play(chooser(state)))
    return state.outcome().won


def one_deal(job):
    """Everything part 1 needs about one seed (runs in a worker process)."""
    seed, open_limit, samples = job
    state = GAME.initial_state(GAME.new_deal(seed))
    result = make_solver(GAME, Limits(time_limit=open_limit, memory_mb=512)).solve(state)
    start = time.perf_counter()
    blind_won = play(seed, BlindPolicy(GAME, samples))
    blind_seconds = time.perf_counter() - start
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes, "blind": blind_won,
            "blind_seconds": blind_seconds, "baseline": play(seed, GAME.baseline_move)}


def rate_line(label, wins, n, unknown=0):
    lo, _ = wilson_interval(wins, n)
    _, hi = wilson_interval(wins + unknown, n)
    extra = f", {unknown} undecided counted both ways" if unknown else ""
    return f"{label:<16} {wins / n:7.1%}  (95% interval {lo:.1%}-{hi:.1%}; {wins} of {n}{extra})"


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
    nodes = sum(r["nodes"] for r in rows)
    scores = {}
    for r in rows:
        if r["exact"] and r["score"] is not None:
            scores[r["score"]] = scores.get(r["score"], 0) + 1
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, "
          f"{wall:.0f} s wall")
    print(rate_line("open", open_wins, n, unknown))
    print(rate_line("blind policy", sum(r["blind"] for r in rows), n))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.3f} s, "
          f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; {nodes / max(sum(times), 1e-9):,.0f} "
          f"nodes/s over all deals")
    print(f"open mode: {sum(r['exact'] for r in rows)} of {n} exact (verdict and best score proven), "
          f"{open_wins - sum(r['exact'] and r['verdict'] == 'winnable' for r in rows)} wins with the score unproven, "
          f"{sum(r['verdict'] == 'unwinnable' for r in rows)} proven unwinnable, {unknown} unknown")
    print("open mode, proven best scores (cards left): "
          + ", ".join(f"{s}: {c}" for s, c in sorted(scores.items(), reverse=True)))
    blind_times = [r["blind_seconds"] for r in rows]
    print(f"blind policy, time per game: median {statistics.median(blind_times):.2f} s, "
          f"max {max(blind_times):.2f} s ({args.samples} rollouts per move beyond the exact frontier)")
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory of a worker: {children:.0f} MB")


def frontier_positions(k, count):
    """Decision positions with k cards left in the deck, still winnable in principle."""
    out, seed = [], 0
    while len(out) < count and seed < 10_000:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        seed += 1
        while state.outcome() is None and len(state.deck) > k:
            state = advance_chance(state.play(GAME.baseline_move(state)))
        if state.outcome() is None and state.score_bound() != NO_WIN:
            out.append((seed - 1, state))
    return out


def frontier(args):
    print(f"\nPart 2: blind mode's exact frontier ({args.frontier_positions} positions per k, "
          f"limit {args.frontier_time_limit} s each)")
    print(f"{'k':>3} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  win probabilities")
    for k in args.frontier:
        times, nodes, probabilities, exact = [], 0, [], 0
        for _seed, state in frontier_positions(k, args.frontier_positions):
            solver = ExpectimaxSolver(GAME, Limits(time_limit=args.frontier_time_limit))
            result = solver.solve(state)
            times.append(result.seconds)
            nodes += result.nodes
            exact += result.exact
            probabilities.append(f"{result.win_probability:.3f}" if result.exact else "-")
        print(f"{k:>3} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
              f"{nodes / max(sum(times), 1e-9):>10,.0f}  {' '.join(probabilities)}")


def reference_comparison(args):
    print(f"\nPart 3: open mode, kernel vs pure-Python reference ({args.reference_seconds} s per search)")
    for seed in range(args.reference_deals):
        state = GAME.initial_state(GAME.new_deal(seed))
        limits = Limits(time_limit=args.reference_seconds)
        ref = DepthFirstSolver(GAME, limits).solve(state)
        kernel = make_solver(GAME, limits).solve(state)
        ref_rate, kernel_rate = ref.nodes / ref.seconds, kernel.nodes / max(kernel.seconds, 1e-9)
        print(f"seed {seed}: reference {ref.verdict:<10} {ref.nodes:>9,} nodes {ref.seconds:6.2f} s "
              f"{ref_rate:>9,.0f}/s | kernel {kernel.verdict:<10} {kernel.nodes:>10,} nodes {kernel.seconds:6.2f} s "
              f"{kernel_rate:>11,.0f}/s | {kernel_rate / ref_rate:5.0f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--open-time-limit", type=float, default=5.0)
    parser.add_argument("--samples", type=int, default=64, help="blind policy: rollouts per move")
    parser.add_argument("--frontier", type=lambda t: [int(x) for x in t.split(",")], default=[2, 4, 6, 8])
    parser.add_argument("--frontier-positions", type=int, default=5)
    parser.add_argument("--frontier-time-limit", type=float, default=60.0)
    parser.add_argument("--reference-deals", type=int, default=3)
    parser.add_argument("--reference-seconds", type=float, default=10.0)
    args = parser.parse_args()
    print(f"Foursquare benchmark; compiled kernel: {'yes' if load('foursquare') else 'NO (pure Python)'}")
    if args.deals:
        win_rates(args)
    if args.frontier:
        frontier(args)
    if args.reference_deals:
        reference_comparison(args)
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
