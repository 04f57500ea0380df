"""Benchmark: The Emissary's whole deals (three win rates) and the kernel against the generic
search (a script, not a test).

    python bench/emissary.py [--deals 1000] [--blind-deals 200] [--jobs 2] [--samples 16]
                             [--open-time-limit 10] [--against 6]

Part 1, on the deals of seeds first..first+N-1: open mode (the kernel's search split at the
visits, ext/emissary.pyx), the blind policy (exact where the tree fits, else the odds-counting
rule: seconds a game, so on the first ``--blind-deals`` only; ``solodeck analyze emissary --mode
both`` plays all 1,000, results/emissary) and the baseline policy. Win rates with Wilson 95% intervals, time per
deal, the kernel's nodes per second, peak memory.

Part 2, the kernel against the reference: the generic depth-first search (solvers/dfs.py, on the
pure-Python engine) and the kernel on the positions of the last visit used by the tests, and on
whole deals (the generic search with ``--open-time-limit``): how many each decides, alike, and how
fast.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import chance_bench
from chance_bench import percentile
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver

GAME = get_game("emissary")


def win_rates(args):
    rows, wall = chance_bench.deal_rows("emissary", args, memory_mb=512)
    n = len(rows)
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, {wall:.0f} s wall")
    played = chance_bench.print_played_rates(rows)
    times = [r["seconds"] for r in rows]
    print(f"open mode (kernel), time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.3f} s, "
          f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} nodes/s (line included)")
    print(chance_bench.exactness_line(rows))
    print("open mode, best scores: " + chance_bench.score_counts((r["score"] for r in rows), reverse=True))
    print("blind policy, scores of its wins: " + chance_bench.score_counts(r["blind_score"] for r in played))
    print(chance_bench.blind_time_line(played, args.samples, p95=True))
    print(chance_bench.worker_memory_line())


def against(args):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_emissary import last_visit_positions  # the positions the tests compare on

    print("\nPart 2: the kernel against the generic depth-first search")
    for label, positions, limit in (
            ("last-visit positions", last_visit_positions(range(args.against)), 60.0),
            ("whole deals", [GAME.initial_state(GAME.new_deal(s)) for s in range(args.against)], args.open_time_limit)):
        alike = decided = nodes = 0
        generic_times, kernel_times = [], []
        for position in positions:
            start = time.perf_counter()
            reference = DepthFirstSolver(GAME, Limits(time_limit=limit)).solve(position)
            generic_times.append(time.perf_counter() - start)
            nodes += reference.nodes
            start = time.perf_counter()
            result = make_solver(GAME, Limits(time_limit=limit)).solve(position)
            kernel_times.append(time.perf_counter() - start)
            decided += reference.exact
            alike += reference.exact and (reference.verdict, reference.score) == (result.verdict, result.score)
        print(f"{label} ({len(positions)}): the generic search decides {decided} ({alike} alike with the kernel); "
              f"generic median {statistics.median(generic_times):.2f} s, max "
              f"{max(generic_times):.2f} s, {nodes / sum(generic_times):,.0f} nodes/s; kernel median "
              f"{statistics.median(kernel_times) * 1000:.1f} ms, max {max(kernel_times) * 1000:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=2, frontier=[], frontier_time_limit=0)
    parser.set_defaults(open_time_limit=10.0, samples=GAME.blind_samples)
    parser.add_argument("--blind-deals", type=int, default=200, help="the blind policy on the first this many deals")
    parser.add_argument("--against", type=int, default=4, help="part 2: how many seeded lines and deals")
    args = parser.parse_args()
    print("The Emissary benchmark")
    if args.deals:
        win_rates(args)
    if args.against:
        against(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
