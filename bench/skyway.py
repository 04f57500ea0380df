"""Benchmark: Skyway endgames (exact, two engines) and whole deals (a script, not a test).

    python bench/skyway.py [--frontier 2,3,4,5,6] [--frontier-positions 5] [--frontier-time-limit 60]
                           [--deals 1000] [--blind-deals 100] [--jobs 2] [--open-time-limit 2]

Part 1, the exact frontier of open mode: endgames with k turns left and no reshuffle to come, so
both engines take them (the baseline's games of seeded deals at a third-pass turn start with 5k
cards in the deck; where baseline play never has one, k >= 5, built from seeded deals), solved by the exact search
(solvers/dfs.py) and by the CP-SAT model (encodings/skyway.py, one worker), each with the time
limit. Per k: how many each proved, median and maximum time, nodes per second, and whether the
two agree. Targets: k = 4 in a median of 1 s, k = 6 in 10 s.

Part 2, on the deals of seeds first..first+N-1: open mode (the anytime search with the time
limit: a best line found, proven only when the exact search finishes) and the baseline policy on
all N deals; the blind policy (rollouts, pure Python) on the first --blind-deals of them. Win
rates with Wilson 95% intervals, time per deal, peak memory.
"""
from __future__ import annotations

import argparse
import statistics

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.encodings import cpsat_solver
from solodeck.games.skyway import built_endgame, natural_endgame
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits

GAME = get_game("skyway")


def endgames(turns: int, count: int) -> list:
    """``count`` endgames with ``turns`` turns left and no reshuffle to come: the baseline's games
    of seeds 0, 1, ... where they have one (natural_endgame), else built from seeds 0, 1, ..."""
    out, seed = [], 0
    while len(out) < count and seed < 2000:
        state = natural_endgame(seed, turns)
        seed += 1
        if state is not None:
            out.append(state)
    return out + [built_endgame(seed, turns) for seed in range(count - len(out))]


def frontier(args):
    print(f"\nPart 1: exact endgames, {args.frontier_positions} per k turns left, limit {args.frontier_time_limit} s "
          "per engine and position")
    print(f"{'k':>3} {'engine':>7} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  verdicts/scores")
    limits = Limits(time_limit=args.frontier_time_limit)
    for k in args.frontier:
        positions = endgames(k, args.frontier_positions)
        answers = {}
        for name in ("dfs", "cpsat"):
            times, nodes, exact, rows = [], 0, 0, []
            for state in positions:
                engine = DepthFirstSolver(GAME, limits) if name == "dfs" else cpsat_solver(GAME, limits, 1)
                result = engine.solve(state)
                times.append(result.seconds)
                nodes += result.nodes
                exact += result.exact
                rows.append((str(result.verdict)[:3], result.score) if result.exact else None)
            answers[name] = rows
            shown = " ".join(f"{r[0]}{r[1]}" if r else "-" for r in rows)
            print(f"{k:>3} {name:>7} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
                  f"{nodes / max(sum(times), 1e-9):>10,.0f}  {shown}")
        both = [(a, b) for a, b in zip(answers["dfs"], answers["cpsat"]) if a and b]
        print(f"{'':>3} {'agree':>7} {sum(a == b for a, b in both)}/{len(both)} positions both proved")


def win_rates(args):
    rows, wall = chance_bench.deal_rows("skyway", args, memory_mb=512)
    n = len(rows)
    open_wins = sum(r["verdict"] == "winnable" for r in rows)
    unknown = sum(r["verdict"] == "unknown" for r in rows)
    print(f"\nPart 2: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, {wall:.0f} s wall")
    print(rate_line("open (best found)", open_wins, n, unknown))
    blind = [r for r in rows if r["blind"] is not None]
    if blind:
        print(rate_line("blind policy", sum(r["blind"] for r in blind), len(blind)) + f"  (first {len(blind)} deals)")
        print(rate_line("baseline, same", sum(r["baseline"] for r in blind), len(blind)))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    times = [r["seconds"] for r in rows]
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.2f} s, "
          f"p95 {percentile(times, 0.95):.2f} s, max {max(times):.2f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} nodes/s")
    print(chance_bench.exactness_line(rows))
    print("open mode, best scores found: " + chance_bench.score_counts(r["score"] for r in rows))
    if blind:
        print(chance_bench.blind_time_line(blind, args.samples))
    print(chance_bench.worker_memory_line())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=2, frontier=[2, 3, 4, 5, 6], frontier_time_limit=60.0)
    parser.set_defaults(open_time_limit=2.0, samples=16)
    parser.add_argument("--blind-deals", type=int, default=100,
                        help="the blind policy plays only the first this many deals (Python rollouts are slow)")
    args = parser.parse_args()
    print("Skyway benchmark (pure Python: no compiled kernel yet)")
    if args.frontier:
        frontier(args)
    if args.deals:
        win_rates(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
