"""Benchmark: Frozen Novelty in open mode, every variant (a script, not a test).

    python bench/frozen_novelty.py --deals 1000 [--first-seed 0] [--time-limit 10] [--jobs 1]
                                   [--variants standard,very-hard] [--reference-deals 6]

Part 1, for each variant, on the deals of seeds first..first+N-1 (`solodeck deal frozen --seed N`
with the variant as option): the share of winnable deals with its Wilson 95% interval (deals a
limit left undecided are counted both ways: as losses for the lower end, as wins for the upper),
how many were decided exactly within the time limit (target: 95% within 10 s), time per deal
(median, 95th percentile, maximum), positions per second and peak memory.

Part 2 compares the compiled kernel with the pure-Python reference on the same searches (the two
expand the same positions in the same order, so the node counts agree and the ratio of times is
the ratio of speeds): the seeded deals of Part 1 that took the most positions (at least 5,000, so that
the search and not the set-up is timed) while staying within reach of the reference, and the two
maze puzzles. Target: kernel >= 50x. Part 1's positions per second include each deal's set-up and
the replay of its line under the reference rules, which dominate the easy variants' tiny searches.
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import sys
import time
from pathlib import Path

from solodeck.deals import load_deal
from solodeck.ext import load
from solodeck.games.frozen_novelty import VARIANTS
from solodeck.registry import get_game
from solodeck.solvers import Limits, ReachabilitySolver, make_solver
from solodeck.solvers.sampling import wilson_interval

GAME = get_game("frozen-novelty")
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "frozen-novelty"


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def solve_one(job):
    variant, seed, time_limit, memory = job
    state = GAME.initial_state(GAME.new_deal(seed, {"variant": variant}))
    start = time.perf_counter()
    result = make_solver(GAME, Limits(time_limit=time_limit, memory_mb=memory)).solve(state)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return variant, seed, result.verdict, result.exact, seconds, result.nodes, result.engine, peak


def part1(args, out):
    jobs = [(v, s, args.time_limit, args.memory) for v in args.variants
            for s in range(args.first_seed, args.first_seed + args.deals)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = list(pool.imap(solve_one, jobs, chunksize=4))
    else:
        rows = [solve_one(job) for job in jobs]
    out(f"Part 1: seeds {args.first_seed}-{args.first_seed + args.deals - 1}, {args.time_limit:g} s per deal, "
        f"engine {rows[0][6]}, {args.jobs} job(s), --memory {args.memory:g} MB")
    out(f"{'variant':<10} {'won':>5} {'lost':>5} {'unkn':>5} {'winnable share (95% interval)':<34} "
        f"{'decided':>8} {'median':>8} {'p95':>8} {'max':>8} {'positions/s':>12} {'peak MB':>8}")
    hardest = {}
    for variant in args.variants:
        mine = [r for r in rows if r[0] == variant]
        n = len(mine)
        won = sum(r[2] == "winnable" for r in mine)
        lost = sum(r[2] == "unwinnable" for r in mine)
        unknown = n - won - lost
        lo, hi = wilson_interval(won, n)[0], wilson_interval(won + unknown, n)[1]
        times = [r[4] for r in mine]
        nodes = sum(r[5] for r in mine)
        decided = (won + lost) / n
        out(f"{variant:<10} {won:>5} {lost:>5} {unknown:>5} {won / n:>7.1%} ({lo:.1%} - {hi:.1%}){'':<11} "
            f"{decided:>8.1%} {statistics.median(times):>7.3f}s {percentile(times, 0.95):>7.3f}s "
            f"{max(times):>7.2f}s {nodes / sum(times):>12,.0f} {max(r[7] for r in mine):>8.0f}")
        if unknown:
            out(f"           undecided seeds: {', '.join(str(r[1]) for r in mine if r[2] == 'unknown')}")
        hardest[variant] = sorted((r for r in mine if r[3]), key=lambda r: -r[5])
    return hardest


def part2(args, hardest, out):
    """The same searches in the kernel and the reference."""
    cases = []
    for variant, rows in hardest.items():
        # big enough to measure the search, not the set-up (>= 5,000 positions), small enough
        # for the reference (~args.reference_seconds at its ~6,000 positions per second)
        fitting = [r for r in rows if 5000 <= r[5] <= args.reference_seconds * 6000]
        for r in fitting[:args.reference_deals]:
            cases.append((f"{variant} seed {r[1]}", GAME.initial_state(GAME.new_deal(r[1], {"variant": variant}))))
    for name in ("maze-standard", "maze-hard"):
        deal = load_deal(PUZZLES / f"{name}.toml")
        cases.append((name, GAME.initial_state(deal)))
    kernel = load("frozen_novelty")
    if kernel is None:
        out("Part 2: kernel not built (or SOLODECK_NO_EXTENSIONS=1): skipped")
        return
    from solodeck.games.frozen_novelty import KernelSolver

    out("")
    out("Part 2: kernel against the pure-Python reference, the same searches (same positions, same order)")
    out(f"{'search':<24} {'verdict':<11} {'positions':>10} {'kernel':>9} {'reference':>10} {'kernel/s':>11} "
        f"{'reference/s':>12} {'ratio':>6}")
    ratios = []
    for name, state in cases:
        t = time.perf_counter()
        k = KernelSolver(GAME, kernel, Limits()).solve(state)
        tk = time.perf_counter() - t
        t = time.perf_counter()
        r = ReachabilitySolver(GAME, Limits()).solve(state)
        tr = time.perf_counter() - t
        assert k.verdict == r.verdict and k.nodes == r.nodes, name
        ratios.append(tr / tk)
        out(f"{name:<24} {k.verdict:<11} {k.nodes:>10,} {tk:>8.3f}s {tr:>9.2f}s {k.nodes / tk:>11,.0f} "
            f"{r.nodes / tr:>12,.0f} {tr / tk:>5.0f}x")
    out(f"kernel / reference: median {statistics.median(ratios):.0f}x, min {min(ratios):.0f}x (target >= 50x)")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument("--time-limit", type=float, default=10.0)
    p.add_argument("--memory", type=float, default=1024.0, help="table cap per search, MB")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--reference-deals", type=int, default=3, help="Part 2: seeded deals per variant")
    p.add_argument("--reference-seconds", type=float, default=20.0, help="Part 2: rough cap per reference search")
    p.add_argument("--out", help="also write the report to this file")
    args = p.parse_args(argv)
    args.variants = args.variants.split(",")
    lines = []

    def out(text):
        print(text, flush=True)
        lines.append(text)

    out(f"python bench/frozen_novelty.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    start = time.perf_counter()
    hardest = part1(args, out)
    part2(args, hardest, out)
    out(f"total {time.perf_counter() - start:.0f} s")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
