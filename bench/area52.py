"""Benchmark: Area 52 endgames (exact), whole deals (three win rates), the kernel's rollouts (a
script, not a test).

    python bench/area52.py [--frontier 3,4,5,6,8] [--frontier-positions 5] [--frontier-time-limit 30]
                           [--deals 1000] [--blind-deals N] [--jobs 2] [--open-time-limit 1] [--samples 64]

Part 2, the exact frontier of open mode: wave-2 endgames with k aliens left (the baseline's games
of seeds 0, 1, ... where they get there), solved by the exact search (solvers/dfs.py). Per k: how
many it proved within the time limit, median and maximum time, nodes per second.

Part 1, on the deals of seeds first..first+N-1: open mode (the anytime search with the time limit:
a winning line found is an exact verdict, its score proven only when the exact search finishes),
the blind policy (rollouts of the blind rule in the kernel) and the baseline policy. Win rates with
Wilson 95% intervals, time per deal, nodes per second, peak memory.

Part 3, the kernel against the reference: rollouts (of the blind rule) per second from the first decision
of a few deals, compiled and in pure Python (the same games, sample for sample).
"""
from __future__ import annotations

import argparse
import statistics

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits

GAME = get_game("area-52")


def frontier(args):
    print(f"\nPart 2: exact wave-2 endgames, {args.frontier_positions} per k aliens left, limit "
          f"{args.frontier_time_limit} s each")
    print(f"{'k':>3} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  verdicts and best scores")
    for k in args.frontier:
        positions = chance_bench.frontier_positions(
            GAME, args.frontier_positions, lambda s: not (s.wave == 2 and s.aliens_left() <= k),
            lambda s: s.aliens_left() == k)
        times, nodes, exact, shown = [], 0, 0, []
        for state in positions:
            result = DepthFirstSolver(GAME, Limits(time_limit=args.frontier_time_limit)).solve(state)
            times.append(result.seconds)
            nodes += result.nodes
            exact += result.exact
            shown.append(f"{str(result.verdict)[:3]}{result.score}" if result.exact else "-")
        print(f"{k:>3} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
              f"{nodes / max(sum(times), 1e-9):>10,.0f}  {' '.join(shown)}")


def win_rates(args):
    rows, wall = chance_bench.deal_rows("area-52", args, memory_mb=512)
    n = len(rows)
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, {wall:.0f} s wall")
    print(rate_line("open (verdict)", sum(r["verdict"] == "winnable" for r in rows), n,
                    sum(r["verdict"] == "unknown" for r in rows), say_none=True))
    blind = [r for r in rows if r["blind"] is not None]
    if blind:
        print(rate_line("blind policy", sum(r["blind"] for r in blind), len(blind)) + f"  (first {len(blind)} deals)")
        print(rate_line("baseline, same", sum(r["baseline"] for r in blind), len(blind)))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    times = [r["seconds"] for r in rows]
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.2f} s, "
          f"p95 {percentile(times, 0.95):.2f} s, max {max(times):.2f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} nodes/s")
    print(chance_bench.exactness_line(rows, " (a verdict is decided when a win is found or proven impossible)"))
    print("open mode, best scores found (defenders left): " + chance_bench.score_counts(r["score"] for r in rows))
    print("baseline, scores of its wins: " + chance_bench.score_counts(r["baseline_score"] for r in rows))
    if blind:
        print("blind policy, scores of its wins: " + chance_bench.score_counts(r["blind_score"] for r in blind))
        print(chance_bench.blind_time_line(blind, args.samples, p95=True))
    print(chance_bench.worker_memory_line())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=2, frontier=[3, 4, 5, 6, 8], frontier_time_limit=30.0)
    parser.set_defaults(open_time_limit=1.0)
    parser.add_argument("--blind-deals", type=int, default=None,
                        help="the blind policy plays only the first this many deals (default: all)")
    parser.add_argument("--no-kernel-part", action="store_true", help="skip part 3")
    args = parser.parse_args()
    print("Area 52 benchmark")
    if args.deals:
        win_rates(args)
    if args.frontier:
        frontier(args)
    if not args.no_kernel_part:
        chance_bench.kernel_against_reference(GAME)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
