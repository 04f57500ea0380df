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
import statistics

import chance_bench
from chance_bench import percentile
from solodeck.api import NO_WIN
from solodeck.ext import load
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver

GAME = get_game("foursquare")


def win_rates(args):
    rows, wall = chance_bench.deal_rows("foursquare", args, memory_mb=512)
    chance_bench.print_win_rates(args, rows, wall)
    times = [r["seconds"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.3f} s, "
          f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; {nodes / max(sum(times), 1e-9):,.0f} "
          f"nodes/s over all deals")
    print(chance_bench.exactness_line(rows))
    print("open mode, proven best scores (cards left): "
          + chance_bench.score_counts((r["score"] for r in rows if r["exact"]), reverse=True))
    print(chance_bench.blind_time_line(rows, args.samples))
    print(chance_bench.worker_memory_line())


def frontier_positions(k, count):
    """Decision positions with k cards left in the deck, still winnable in principle."""
    return chance_bench.frontier_positions(GAME, count, lambda state: len(state.deck) > k,
                                           lambda state: state.score_bound() != NO_WIN)


def frontier(args):
    print(f"\nPart 2: blind mode's exact frontier ({args.frontier_positions} positions per k, "
          f"limit {args.frontier_time_limit} s each)")
    chance_bench.frontier_table(GAME, args, frontier_positions)


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
    chance_bench.add_options(parser, jobs=2, frontier=[2, 4, 6, 8], frontier_time_limit=60.0)
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
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
