"""Benchmark: Frozen Novelty in open mode, every variant, and played blind (a script, not a test).

    python bench/frozen_novelty.py --deals 1000 [--first-seed 0] [--time-limit 10] [--jobs 1]
                                   [--variants standard,very-hard] [--reference-deals 6]
                                   [--parts 1,2,3] [--blind-deals 20] [--baseline-deals 1000]

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

Part 3 plays blind (the player sees the faces turned up and the backs): the baseline policy on
--baseline-deals deals and the blind policy (solvers/determinized.py, --samples worlds) on
--blind-deals deals, for the standard and very-hard variants and standard with plain backs: win
rates with Wilson 95% intervals, time per game and per decision the policy deliberates on (on one
core; target: a blind game <= 20 s on average), and world valuations (open searches of a
sampled world, kernel) per second. The 500-deal win rates are `solodeck analyze` runs
(results/frozen-novelty/).
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
from solodeck.solvers.stats import wilson_interval

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


BLIND_SETTINGS = (("standard", {}), ("very-hard", {"variant": "very-hard"}), ("plain backs", {"backs": "plain"}))


def part3(args, out):
    from solodeck.solvers.episode import play_episode
    from solodeck.solvers.blind import BaselinePolicy, BlindPolicy

    out("")
    out(f"Part 3: blind play, seeds {args.first_seed}-; baseline on {args.baseline_deals} deals, blind policy "
        f"({args.samples} worlds) on {args.blind_deals}")
    out(f"{'setting':<12} {'baseline (95% interval)':<26} {'blind policy (95% interval)':<28} {'s/game':>7} "
        f"{'max':>6} {'s/decision':>10} {'decisions':>9} {'valuations/s':>12}")
    for name, options in BLIND_SETTINGS:
        seeds = range(args.first_seed, args.first_seed + max(args.baseline_deals, args.blind_deals))
        base = sum(_won(play_episode(GAME.initial_state(GAME.new_deal(s, options)), BaselinePolicy(GAME))[1])
                   for s in seeds[:args.baseline_deals])
        wins, times, ranked, valued, busy = 0, [], 0, 0, 0.0
        for seed in seeds[:args.blind_deals]:
            policy = BlindPolicy(GAME, args.samples, 0)
            timed = _Timed(policy)
            start = time.perf_counter()
            _decisions, final = play_episode(GAME.initial_state(GAME.new_deal(seed, options)), timed)
            times.append(time.perf_counter() - start)
            wins += _won(final)
            ranked += timed.calls
            busy += timed.seconds
            valued += policy.estimator.valued
        lo, hi = wilson_interval(base, args.baseline_deals)
        blo, bhi = wilson_interval(wins, args.blind_deals)
        out(f"{name:<12} {base / args.baseline_deals:6.1%} ({lo:.1%}-{hi:.1%}){'':<6} "
            f"{wins / args.blind_deals:6.1%} ({blo:.1%}-{bhi:.1%}){'':<8} {statistics.mean(times):7.2f} "
            f"{max(times):6.1f} {busy / max(1, ranked):10.3f} {ranked / args.blind_deals:9.0f} {valued / sum(times):12,.0f}")


class _Timed:
    """The policy, with the decisions it deliberated on (more than one legal move) timed."""

    def __init__(self, policy):
        self.policy, self.calls, self.seconds = policy, 0, 0.0

    def rank(self, state):
        return None

    def __call__(self, state):
        start = time.perf_counter()
        move = self.policy(state)
        if len(state.legal_moves()) > 1:
            self.calls += 1
            self.seconds += time.perf_counter() - start
        return move


def _won(final):
    outcome = final.outcome()
    return bool(outcome is not None and outcome.won)


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
    p.add_argument("--parts", default="1,2,3", help="which parts to run, e.g. 3")
    p.add_argument("--blind-deals", type=int, default=20, help="Part 3: deals the blind policy plays per setting")
    p.add_argument("--baseline-deals", type=int, default=1000, help="Part 3: deals the baseline plays per setting")
    p.add_argument("--samples", type=int, default=6, help="Part 3: the blind policy's sampled worlds")
    p.add_argument("--out", help="also write the report to this file")
    args = p.parse_args(argv)
    args.variants = args.variants.split(",")
    parts = {int(x) for x in args.parts.split(",")}
    lines = []

    def out(text):
        print(text, flush=True)
        lines.append(text)

    out(f"python bench/frozen_novelty.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    start = time.perf_counter()
    if 1 in parts or 2 in parts:
        hardest = part1(args, out)
        if 2 in parts:
            part2(args, hardest, out)
    if 3 in parts:
        part3(args, out)
    out(f"total {time.perf_counter() - start:.0f} s")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
