"""Benchmark: exact Syndicate solves on seeded deals (a script, not a test).

    python bench/syndicate.py --deals 200 --openings 50 [--first-seed 0] [--time-limit 60]

Part 1 solves the deals of seeds first..first+N-1 (the deals of `solodeck deal syndicate --seed
N`) with the compiled kernel and, on the same deals, with the pure-Python reference search: a row
per deal (verdict, score, nodes, states stored, seconds of each), then median, 95th percentile and
maximum time, nodes per second, peak memory, and the kernel/reference ratios.

Part 2 decides every opening of the first K deals (`solve --all-openings`): time per deal (median
and maximum) for the kernel, and for the reference on the first few deals (--reference-openings).

Part 3 (--deep SECONDS) runs both engines for that long on tests/data/syndicate-hard.toml, a
position that needs ~126 M kernel nodes, for raw throughput on one long search.

Without the compiled kernel (or with SOLODECK_NO_EXTENSIONS=1) only the reference runs.
"""
from __future__ import annotations

import argparse
import resource
from pathlib import Path
import statistics
import sys
import time

from solodeck.deals import load_deal
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver, value_first_moves

GAME = get_game("syndicate")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def summary(label, times, nodes):
    print(f"{label}: median {statistics.median(times):.4f} s, p95 {percentile(times, 0.95):.4f} s, "
          f"max {max(times):.4f} s, total {sum(times):.2f} s; {nodes / max(sum(times), 1e-9):,.0f} nodes/s")


def solve_deals(args, seeds, has_kernel):
    print(f"{'seed':>6} {'verdict':<11}{'score':>5} | {'kernel nodes':>12} {'states':>8} {'seconds':>9} |"
          f" {'ref nodes':>10} {'ref s':>8}")
    k_times, k_nodes, r_times, r_nodes, pairs, undecided = [], 0, [], 0, [], 0
    for seed in seeds:
        state = GAME.initial_state(GAME.new_deal(seed))
        ref = DepthFirstSolver(GAME, Limits(time_limit=args.time_limit)).solve(state)
        if ref.exact:
            r_times.append(ref.seconds)
            r_nodes += ref.nodes
        kernel = make_solver(GAME, Limits(time_limit=args.time_limit)).solve(state) if has_kernel else ref
        undecided += not kernel.exact
        if has_kernel:
            k_times.append(kernel.seconds)
            k_nodes += kernel.nodes
            if ref.exact:
                pairs.append((ref.seconds, kernel.seconds))
        score = "-" if kernel.score is None else kernel.score
        ref_cols = f"{ref.nodes:>10,} {ref.seconds:>8.3f}" + ("" if ref.exact else f" ({ref.status})")
        print(f"{seed:>6} {kernel.verdict:<11}{score:>5} | {kernel.nodes:>12,} {kernel.unique_states:>8,} "
              f"{kernel.seconds:>9.4f} | {ref_cols}", flush=True)
    print(f"\n{len(seeds)} deals, {undecided} not decided exactly (limit {args.time_limit:g} s)")
    if has_kernel:
        summary("kernel   ", k_times, k_nodes)
    if r_times:
        summary("reference", r_times, r_nodes)
    if pairs:
        speedups = sorted(r / k for r, k in pairs)
        print(f"time-to-answer speedup on the {len(pairs)} deals both decided: median {statistics.median(speedups):.1f}x, "
              f"total {sum(r for r, _ in pairs) / sum(k for _, k in pairs):.1f}x")


def all_openings(args, seeds, has_kernel):
    def decide(solver, seed):
        state = GAME.initial_state(GAME.new_deal(seed))
        values = value_first_moves(solver, state)
        return values, solver

    print(f"\nevery opening (solve --all-openings), seeds {seeds[0]}-{seeds[-1]}:")
    print(f"{'seed':>6} {'openings':>8} {'win':>5} {'lost':>5} {'unknown':>7} {'nodes':>11} {'seconds':>9}")
    rows = []
    if has_kernel:
        for seed in seeds:
            (values, solver), seconds = timed(lambda: decide(make_solver(GAME, Limits(time_limit=args.time_limit)), seed))
            win = sum(1 for _, v in values if v and v[0])
            lost = sum(1 for _, v in values if v is not None and not v[0])
            rows.append((seconds, solver.search.nodes))
            print(f"{seed:>6} {len(values):>8} {win:>5} {lost:>5} {len(values) - win - lost:>7} "
                  f"{solver.search.nodes:>11,} {seconds:>9.3f}", flush=True)
        summary("kernel, all openings, per deal", [r[0] for r in rows], sum(r[1] for r in rows))
    ref_rows = []
    for seed in seeds[:args.reference_openings]:
        solver = DepthFirstSolver(GAME, Limits(time_limit=args.time_limit))
        (values, _), seconds = timed(lambda: decide(solver, seed))
        unknown = sum(1 for _, v in values if v is None)
        ref_rows.append((seconds, solver.nodes, unknown))
        print(f"reference, seed {seed}: {len(values)} openings in {seconds:.2f} s, {solver.nodes:,} nodes, "
              f"{unknown} undecided (limit {args.time_limit:g} s for the whole deal)", flush=True)
    if ref_rows and has_kernel:
        k_time = sum(r[0] for r in rows[:len(ref_rows)])
        r_time = sum(r[0] for r in ref_rows)
        print(f"all openings, same {len(ref_rows)} deals: reference {r_time:.2f} s, kernel {k_time:.3f} s "
              f"({r_time / max(k_time, 1e-9):.0f}x); nodes/s reference "
              f"{sum(r[1] for r in ref_rows) / r_time:,.0f}, kernel "
              f"{sum(r[1] for r in rows[:len(ref_rows)]) / max(k_time, 1e-9):,.0f}")


def deep(args, has_kernel):
    state = GAME.initial_state(load_deal(Path(__file__).resolve().parent.parent / "tests" / "data" / "syndicate-hard.toml"))
    print(f"\none long search (tests/data/syndicate-hard.toml), {args.deep:g} s each:")
    rates = {}
    engines = [("reference", DepthFirstSolver(GAME, Limits(time_limit=args.deep)))]
    if has_kernel:
        engines.append(("kernel", make_solver(GAME, Limits(time_limit=args.deep))))
    for name, solver in engines:
        result = solver.solve(state)
        rates[name] = result.nodes / result.seconds
        print(f"{name:>9}: {result.nodes:,} nodes in {result.seconds:.1f} s = {rates[name]:,.0f} nodes/s ({result.status})")
    if len(rates) == 2:
        print(f"kernel/reference nodes per second: {rates['kernel'] / rates['reference']:.0f}x")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="deals to solve (part 1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--openings", type=int, default=0, help="deals whose every opening is decided (part 2)")
    parser.add_argument("--reference-openings", type=int, default=3,
                        help="of those, how many the pure-Python reference also decides")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per solve (per deal in part 2)")
    parser.add_argument("--deep", type=float, default=0.0, metavar="SECONDS", help="part 3: one long search")
    args = parser.parse_args(argv)
    has_kernel = type(make_solver(GAME)).__name__ == "KernelSolver"
    print(f"engine: {'compiled kernel + pure-Python reference' if has_kernel else 'pure-Python reference only'}")
    seeds = range(args.first_seed, args.first_seed + args.deals)
    if args.deals:
        solve_deals(args, list(seeds), has_kernel)
    if args.openings:
        all_openings(args, list(range(args.first_seed, args.first_seed + args.openings)), has_kernel)
    if args.deep:
        deep(args, has_kernel)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (whole process): {peak_mb:,.0f} MB")


if __name__ == "__main__":
    sys.exit(main())
