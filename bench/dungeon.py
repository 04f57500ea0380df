"""Benchmark: Dungeon's whole deals at both distances (three win rates) and the round search
against the generic search (a script, not a test).

    python bench/dungeon.py [--deals 1000] [--open-deals 1000] [--blind-deals 100] [--samples 16]
                            [--open-time-limit 10] [--distances 4,3] [--jobs 1] [--against 6]
                            [--analysis results/dungeon,results/dungeon/distance-3] [--kernel-deals 20]

Part 1, per distance, on the deals of seeds first..first+N-1: the baseline policy on all N, open
mode (the round search: KernelSolver, or RoundSolver without the kernel) on the first
``--open-deals``, the blind policy (rollouts of the baseline, in the kernel) on the first
``--blind-deals``. With ``--analysis`` (one folder per distance, as `solodeck analyze` wrote
them), the open and blind rows are read from its deals.csv instead of solved again, and open mode
runs here only on the first ``--open-deals`` deals, for its nodes per second. Win rates with
Wilson 95% intervals (undecided open deals counted both ways), time per deal, nodes per second,
peak memory.

Part 1b, the kernel against the reference: KernelSolver and RoundSolver (pure Python) on the
first ``--kernel-deals`` deals with the same time limit: verdicts alike where both decide, times.

Part 2, the round search against the generic depth-first search (solvers/dfs.py over every move
and draw) on positions a few rounds from the end of baseline games: how many each decides, alike.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.analysis import read_rows
from solodeck.api import advance_chance
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver
from solodeck.solvers.blind import BlindPolicy

GAME = get_game("dungeon")


def one_deal(job):
    seed, distance, with_open, with_blind, limit, samples = job
    options = {"distance": distance}
    row = {"seed": seed, "baseline": chance_bench.play(GAME, seed, GAME.baseline_move, options).won}
    if with_open:
        result = make_solver(GAME, Limits(time_limit=limit, memory_mb=512)).solve(
            GAME.initial_state(GAME.new_deal(seed, options)))
        row.update(verdict=result.verdict, seconds=result.seconds, nodes=result.nodes)
    if with_blind:
        start = time.perf_counter()
        row["blind"] = chance_bench.play(GAME, seed, BlindPolicy(GAME, samples), options).won
        row["blind_seconds"] = time.perf_counter() - start
    return row


def analysis_rows(folder, seeds):
    """The open and blind rows of `solodeck analyze`'s deals.csv for ``seeds``, and its run.json."""
    rows = {(r["seed"], r["mode"]): r for r in read_rows(Path(folder) / "deals.csv")}
    settings = json.loads((Path(folder) / "run.json").read_text())
    return ([rows[(s, "open")] for s in seeds if (s, "open") in rows],
            [rows[(s, "blind")] for s in seeds if (s, "blind") in rows], settings)


def win_rates(args, distance, folder=None):
    seeds = range(args.first_seed, args.first_seed + args.deals)
    jobs = [(s, distance, s < args.first_seed + args.open_deals, s < args.first_seed + args.blind_deals and not folder,
             args.open_time_limit, args.samples) for s in seeds]
    rows, wall = chance_bench.pool_rows(one_deal, jobs, args.jobs)
    opened = [r for r in rows if "verdict" in r]
    played = [r for r in rows if "blind" in r]
    print(f"\nPart 1, distance {distance}: seeds {seeds[0]}..{seeds[-1]}, {args.jobs} worker processes, {wall:.0f} s wall")
    if folder:
        read_open, read_blind, settings = analysis_rows(folder, seeds)
        print(f"open and blind rows read from {folder}/deals.csv (solodeck analyze: time limit "
              f"{settings['time_limit']} s, {settings['samples']} rollouts per move)")
        decided = [r for r in read_open if r["verdict"] != "unknown"]
        print(rate_line("open", sum(r["verdict"] == "winnable" for r in read_open), len(read_open),
                        len(read_open) - len(decided), say_none=True))
        print(rate_line("blind policy", sum(r["verdict"] == "won" for r in read_blind), len(read_blind))
              + f"  ({settings['samples']} rollouts per move)")
        print(rate_line("baseline policy", sum(r["baseline"] for r in rows), len(rows)))
        times = [r["seconds"] for r in read_open]
        print(f"open mode, time per deal (limit {settings['time_limit']} s): median {statistics.median(times):.3f} s, "
              f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s")
        print(f"open mode: {sum(r['verdict'] == 'winnable' for r in read_open)} winnable, "
              f"{sum(r['verdict'] == 'unwinnable' for r in read_open)} proven unwinnable, "
              f"{len(read_open) - len(decided)} unknown (the time limit): {len(decided) / len(read_open):.1%} decided; "
              f"decided within 1 s: {sum(r['verdict'] != 'unknown' and r['seconds'] <= 1 for r in read_open)}")
        blind_times = [r["seconds"] for r in read_blind]
        print(f"blind policy, time per game: median {statistics.median(blind_times):.2f} s, "
              f"p95 {percentile(blind_times, 0.95):.2f} s, max {max(blind_times):.2f} s")
        if opened:
            times = [r["seconds"] for r in opened]
            print(f"open mode again here on the first {len(opened)} deals: "
                  f"{sum(r['nodes'] for r in opened) / max(sum(times), 1e-9):,.0f} nodes/s (round starts)")
        print(chance_bench.worker_memory_line())
        return
    if opened:
        print(rate_line("open", sum(r["verdict"] == "winnable" for r in opened), len(opened),
                        sum(r["verdict"] == "unknown" for r in opened), say_none=True)
              + f"  (the first {len(opened)} deals)")
    if played:
        print(rate_line("blind policy", sum(r["blind"] for r in played), len(played))
              + f"  (the first {len(played)} deals, {args.samples} rollouts per move)")
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), len(rows)))
    if opened:
        times = [r["seconds"] for r in opened]
        print(f"open mode (round search), time per deal (limit {args.open_time_limit} s): median "
              f"{statistics.median(times):.3f} s, p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; "
              f"{sum(r['nodes'] for r in opened) / max(sum(times), 1e-9):,.0f} nodes/s (round starts)")
        print(f"open mode: {sum(r['verdict'] == 'winnable' for r in opened)} winnable, "
              f"{sum(r['verdict'] == 'unwinnable' for r in opened)} proven unwinnable, "
              f"{sum(r['verdict'] == 'unknown' for r in opened)} unknown (the time limit); decided within 1 s: "
              f"{sum(r['verdict'] != 'unknown' and r['seconds'] <= 1 for r in opened)}")
    if played:
        print(chance_bench.blind_time_line(played, args.samples, p95=True))
    print(chance_bench.worker_memory_line())


def kernel_against_reference(args, distance):
    """KernelSolver and RoundSolver on the first deals, the same time limit each."""
    from solodeck.games.dungeon import KernelSolver, RoundSolver

    kernel = GAME.load_kernel()
    if kernel is None or not args.kernel_deals:
        return
    alike = both = 0
    counts = {"kernel": {}, "reference": {}}
    times = {"kernel": [], "reference": []}
    nodes = {"kernel": 0, "reference": 0}
    for seed in range(args.first_seed, args.first_seed + args.kernel_deals):
        state = GAME.initial_state(GAME.new_deal(seed, {"distance": distance}))
        limits = Limits(time_limit=args.open_time_limit, memory_mb=512)
        results = {"kernel": KernelSolver(GAME, kernel, limits).solve(state),
                   "reference": RoundSolver(GAME, limits).solve(state)}
        for name, r in results.items():
            counts[name][str(r.verdict)] = counts[name].get(str(r.verdict), 0) + 1
            times[name].append(r.seconds)
            nodes[name] += r.nodes
        if all(r.exact for r in results.values()):
            both += 1
            alike += results["kernel"].verdict == results["reference"].verdict
    print(f"\nPart 1b, distance {distance}: the kernel against the reference round search (pure Python), "
          f"seeds {args.first_seed}..{args.first_seed + args.kernel_deals - 1}, limit {args.open_time_limit} s each")
    for name in ("kernel", "reference"):
        print(f"{name:<10} {dict(sorted(counts[name].items()))}; time per deal median {statistics.median(times[name]):.3f} s, "
              f"max {max(times[name]):.2f} s; {nodes[name] / max(sum(times[name]), 1e-9):,.0f} nodes/s")
    print(f"both decided {both} deals, alike on {alike}")


def end_positions(count, rounds_back):
    """Decision states ``rounds_back`` rounds before the end of the baseline's games, seeds 0, 1, ..."""
    out, seed = [], 0
    while len(out) < count:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        seed += 1
        states = []
        while state.outcome() is None:
            states.append(state)
            state = advance_chance(state.play(GAME.baseline_move(state)))
        pairs = [s for s in states if s.step == 3]  # the pairing decisions, one a round
        if len(pairs) > rounds_back:
            out.append(pairs[-1 - rounds_back])
    return out


def against(args):
    print("\nPart 2: the round search against the generic depth-first search (every move and draw)")
    for back in (1, 2, 3):
        alike = decided = 0
        generic_times, fast_times = [], []
        for position in end_positions(args.against, back):
            start = time.perf_counter()
            reference = DepthFirstSolver(GAME, Limits(time_limit=30)).solve(position)
            generic_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = make_solver(GAME, Limits(time_limit=30)).solve(position)
            fast_times.append(time.perf_counter() - start)
            decided += reference.exact
            alike += reference.exact and result.exact and reference.verdict == result.verdict
        print(f"{back + 1} rounds from the end ({len(generic_times)} positions): the generic search decides "
              f"{decided} ({alike} alike with the round search); generic median {statistics.median(generic_times):.3f} s, "
              f"max {max(generic_times):.2f} s; round search median {statistics.median(fast_times) * 1000:.1f} ms, "
              f"max {max(fast_times) * 1000:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=1, frontier=[], frontier_time_limit=0)
    parser.set_defaults(open_time_limit=10.0, samples=16)
    parser.add_argument("--open-deals", type=int, default=1000, help="open mode on the first this many deals")
    parser.add_argument("--blind-deals", type=int, default=100, help="the blind policy on the first this many deals")
    parser.add_argument("--distances", default="4,3")
    parser.add_argument("--against", type=int, default=6, help="part 2: positions per distance from the end")
    parser.add_argument("--analysis", default="", help="per distance, the analysis folder to read open and blind rows from")
    parser.add_argument("--kernel-deals", type=int, default=20, help="part 1b: deals per distance")
    args = parser.parse_args()
    print("Dungeon benchmark")
    folders = args.analysis.split(",") if args.analysis else []
    if args.deals:
        for i, distance in enumerate(map(int, args.distances.split(","))):
            win_rates(args, distance, folders[i] if i < len(folders) else None)
            kernel_against_reference(args, distance)
    if args.against:
        against(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
