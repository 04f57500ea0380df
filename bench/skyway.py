"""Benchmark: Skyway endgames (exact, three engines), the frontier, and whole deals (a script, not a test).

    python bench/skyway.py [--frontier 2,3,4,5,6] [--frontier-positions 5] [--frontier-time-limit 60]
                           [--game-frontier 4,5,6,7,8] [--game-positions 20] [--game-limits 1,10]
                           [--deals 1000] [--blind-deals 100] [--jobs 2] [--open-time-limit 2]

Part 1, engines side by side: endgames with k turns left and no reshuffle to come, so every
engine takes them (the baseline's games of seeded deals at a third-pass turn start with 5k cards
in the deck; where baseline play never has one, k >= 5, built from seeded deals), solved by the
kernel's exact search (ext/skyway.pyx, when built), the pure-Python reference (solvers/dfs.py) and
the CP-SAT model (encodings/skyway.py, one worker), each with the time limit. Per k: how many each
proved, median and maximum CPU time, nodes per second, and whether they agree.

Part 1b, the frontier of a real game: the turn start k turns before the end of the baseline's
game of seeds 10000, 10001, ... (second-pass positions from k = 5 on: a reshuffle ahead, which
CP-SAT does not take), solved by the kernel alone. Per k: how many are proven within each of
--game-limits seconds of CPU, the median and maximum time, nodes per second, peak memory.

Part 2, on the deals of seeds first..first+N-1: open mode (the game's solver with the time
limit: a best line found, proven only when the exact search finishes) and the baseline policy on
all N deals; the blind policy on the first --blind-deals of them. Win rates with Wilson 95%
intervals, time per deal, peak memory.
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.encodings import cpsat_solver
from solodeck.api import advance_chance
from solodeck.games.skyway import built_endgame, kernel_args, natural_endgame
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver

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


def timed(engine, state):
    """(result, CPU seconds) of engine.solve(state)."""
    start = time.process_time()
    result = engine.solve(state)
    return result, time.process_time() - start


def frontier(args):
    print(f"\nPart 1: exact endgames, {args.frontier_positions} per k turns left, limit {args.frontier_time_limit} s "
          "per engine and position")
    print(f"{'k':>3} {'engine':>7} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  verdicts/scores")
    limits = Limits(time_limit=args.frontier_time_limit)
    engines = {"kernel": lambda: make_solver(GAME, limits), "dfs": lambda: DepthFirstSolver(GAME, limits),
               "cpsat": lambda: cpsat_solver(GAME, limits, 1)}
    if GAME.load_kernel() is None:
        del engines["kernel"]
    for k in args.frontier:
        positions = endgames(k, args.frontier_positions)
        answers = {}
        for name, engine in engines.items():
            times, nodes, exact, rows = [], 0, 0, []
            for state in positions:
                result, seconds = timed(engine(), state)
                times.append(seconds)
                nodes += result.nodes
                exact += result.exact
                rows.append((str(result.verdict)[:3], result.score) if result.exact else None)
            answers[name] = rows
            shown = " ".join(f"{r[0]}{r[1]}" if r else "-" for r in rows)
            print(f"{k:>3} {name:>7} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
                  f"{nodes / max(sum(times), 1e-9):>10,.0f}  {shown}")
        proved = [rows for rows in answers.values()]
        agree = sum(len({r for r in column if r}) <= 1 for column in zip(*proved))
        print(f"{'':>3} {'agree':>7} {agree}/{len(positions)} positions (among the engines that proved each)")


def game_positions(turns: int, count: int, first_seed: int = 10000) -> list:
    """The turn start ``turns`` turns before the end of the baseline's game of each seed."""
    out = []
    for seed in range(first_seed, first_seed + count):
        state, starts = GAME.initial_state(GAME.new_deal(seed)), []
        while state.outcome() is None:
            starts.append(state)
            state = advance_chance(state)
            state = state.play(GAME.baseline_move(state))
        out.append(starts[-turns])
    return out


def game_frontier(args):
    kernel = GAME.load_kernel()
    if kernel is None:
        print("\nPart 1b needs the kernel (not built, or SOLODECK_NO_EXTENSIONS=1)")
        return
    limit = max(args.game_limits)
    print(f"\nPart 1b: the frontier, {args.game_positions} positions k turns before the end of the baseline's games "
          f"(seeds 10000-), the kernel's exact search, CPU limit {limit:g} s (wall {3 * limit:g} s)")
    print(f"{'k':>3} {'pass 2':>6} " + " ".join(f"{'<=' + format(s, 'g') + ' s':>8}" for s in args.game_limits)
          + f" {'median s':>9} {'max s':>8} {'nodes/s':>10} {'states':>9}")
    for k in args.game_frontier:
        times, nodes, stored, second_pass = [], 0, 0, 0
        for state in game_positions(k, args.game_positions):
            state = advance_chance(state)
            second_pass += state.passno < 3
            search = kernel.Endgame(state.seed, 1024.0, 3 * limit)
            start = time.process_time()
            found = search.solve(*kernel_args(state))
            seconds = time.process_time() - start
            times.append(seconds if found is not None else float("inf"))
            nodes += search.nodes
            stored = max(stored, search.stored)
        spent = sum(t for t in times if t != float("inf")) or 1e-9
        print(f"{k:>3} {second_pass:>6} " + " ".join(f"{sum(t <= s for t in times):>5}/{len(times):<2}"
                                                      for s in args.game_limits)
              + f" {statistics.median(times):>9.3f} {max(times):>8.3f} {nodes / spent:>10,.0f} {stored:>9,}")


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
    parser.add_argument("--game-frontier", type=lambda t: [int(x) for x in t.split(",") if x], default=[4, 5, 6, 7, 8])
    parser.add_argument("--game-positions", type=int, default=20)
    parser.add_argument("--game-limits", type=lambda t: [float(x) for x in t.split(",") if x], default=[1.0, 10.0])
    parser.add_argument("--blind-deals", type=int, default=100,
                        help="the blind policy plays only the first this many deals (Python rollouts are slow)")
    args = parser.parse_args()
    print("Skyway benchmark" + ("" if GAME.load_kernel() is not None else " (pure Python: the kernel is not built)"))
    if args.frontier:
        frontier(args)
    if args.game_frontier:
        game_frontier(args)
    if args.deals:
        win_rates(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
