"""Benchmark: exact Syndicate solves on seeded deals (a script, not a test).

    python bench/syndicate.py --deals 20 [--first-seed 0] [--time-limit 60]

Prints one row per deal (verdict, score, nodes, states, seconds) and a summary: median, 95th
percentile and maximum time, nodes per second, and the peak memory of the process.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time

from solodeck.registry import get_game
from solodeck.solvers import Limits, solve_open


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args(argv)
    game = get_game("syndicate")
    print(f"{'seed':>6} {'status':<13}{'verdict':<11}{'score':>5} {'nodes':>11} {'states':>10} {'seconds':>9}")
    times, nodes, undecided = [], 0, 0
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.deals):
        r = solve_open(game, game.initial_state(game.new_deal(seed)), Limits(time_limit=args.time_limit))
        times.append(r.seconds)
        nodes += r.nodes
        undecided += not r.exact
        score = "-" if r.score is None else r.score
        print(f"{seed:>6} {r.status:<13}{r.verdict:<11}{score:>5} {r.nodes:>11,} {r.unique_states:>10,} {r.seconds:>9.3f}",
              flush=True)
    total = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{args.deals} deals, {undecided} not decided exactly (limit {args.time_limit:g} s)")
    print(f"time per deal: median {statistics.median(times):.3f} s, p95 {percentile(times, 0.95):.3f} s, "
          f"max {max(times):.3f} s; total {total:.1f} s")
    print(f"nodes per second: {nodes / sum(times):,.0f}; peak memory {peak_mb:,.0f} MB")


if __name__ == "__main__":
    sys.exit(main())
