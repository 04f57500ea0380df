"""Benchmark: Dungeon's whole deals at both distances (three win rates) and the round search
against the generic search (a script, not a test).

    python bench/dungeon.py [--deals 1000] [--open-deals 1000] [--blind-deals 100] [--samples 4]
                            [--open-time-limit 10] [--distances 4,3] [--jobs 1] [--against 6]

Part 1, per distance, on the deals of seeds first..first+N-1: the baseline policy on all N, open
mode (the round search, games/dungeon.py RoundSolver) on the first ``--open-deals``, the blind
policy (rollouts of the baseline, in Python, a few seconds a game) on the first ``--blind-deals``.
Win rates with Wilson 95% intervals (undecided open deals counted both ways), time per deal,
nodes per second, peak memory.

Part 2, the round search against the generic depth-first search (solvers/dfs.py over every move
and draw) on positions a few rounds from the end of baseline games: how many each decides, alike.
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.api import advance_chance
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver
from solodeck.solvers.sampling import BlindPolicy

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


def win_rates(args, distance):
    seeds = range(args.first_seed, args.first_seed + args.deals)
    jobs = [(s, distance, s < args.first_seed + args.open_deals, s < args.first_seed + args.blind_deals,
             args.open_time_limit, args.samples) for s in seeds]
    rows, wall = chance_bench.pool_rows(one_deal, jobs, args.jobs)
    opened = [r for r in rows if "verdict" in r]
    played = [r for r in rows if "blind" in r]
    print(f"\nPart 1, distance {distance}: seeds {seeds[0]}..{seeds[-1]}, {args.jobs} worker processes, {wall:.0f} s wall")
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
    parser.set_defaults(open_time_limit=10.0, samples=4)
    parser.add_argument("--open-deals", type=int, default=1000, help="open mode on the first this many deals")
    parser.add_argument("--blind-deals", type=int, default=100, help="the blind policy on the first this many deals")
    parser.add_argument("--distances", default="4,3")
    parser.add_argument("--against", type=int, default=6, help="part 2: positions per distance from the end")
    args = parser.parse_args()
    print("Dungeon benchmark")
    if args.deals:
        for distance in map(int, args.distances.split(",")):
            win_rates(args, distance)
    if args.against:
        against(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
