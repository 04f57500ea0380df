"""Benchmark: Dead Center whole deals (three win rates), the exact engines on endgames, the
kernel's rollouts (a script, not a test).

    python bench/dead_center.py [--deals 1000] [--jokers 2] [--baseline-jokers 2,1,0] [--jobs 2]
                                [--open-time-limit 10] [--samples 256] [--endgames 6]

Part 1, on the deals of seeds first..first+N-1 with ``--jokers``: open mode (the CP-SAT model,
encodings/dead_center.py, one worker), the blind policy (kernel rollouts of the blind rule) and the
baseline policy. Win rates with Wilson 95% intervals, time per deal, CP-SAT branches per second,
peak memory; then the baseline and the blind rule alone for every joker count of ``--baseline-jokers``.

Part 2, the two exact engines on endgames: the position k turns before the end of the model's
best line of seeds 0, 1, ... (two jokers), solved by the generic depth-first search
(solvers/dfs.py, 30 s each) and by the model. Per k: how many both decide alike, the time of each, the
search's nodes per second.

Part 3, the kernel against the reference: baseline rollouts per second from the first decision
of a few deals, compiled and in pure Python (the same games, sample for sample).
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.api import advance_chance
from solodeck.games.dead_center import REVEAL
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver

GAME = get_game("dead-center")


def win_rates(args):
    args.options = {"jokers": args.jokers}
    rows, wall = chance_bench.deal_rows("dead-center", args, memory_mb=512)
    n = len(rows)
    print(f"\nPart 1: {args.jokers} jokers, seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker "
          f"processes, {wall:.0f} s wall")
    print(rate_line("open", sum(r["verdict"] == "winnable" for r in rows), n,
                    sum(r["verdict"] == "unknown" for r in rows), say_none=True))
    print(rate_line("blind policy", sum(r["blind"] for r in rows), n))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    times = [r["seconds"] for r in rows]
    print(f"open mode (CP-SAT, 1 worker), time per deal (limit {args.open_time_limit} s): median "
          f"{statistics.median(times):.2f} s, p95 {percentile(times, 0.95):.2f} s, max {max(times):.2f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} branches/s")
    print(chance_bench.exactness_line(rows))
    print("open mode, best scores (cards left): " + chance_bench.score_counts(r["score"] for r in rows))
    print("blind policy, scores of its wins: " + chance_bench.score_counts(r["blind_score"] for r in rows))
    print("baseline, scores of its wins: " + chance_bench.score_counts(r["baseline_score"] for r in rows))
    print(chance_bench.blind_time_line(rows, args.samples, p95=True))
    print(chance_bench.worker_memory_line())
    for jokers in args.baseline_jokers:
        for name, chooser in (("baseline", GAME.baseline_move), ("blind rule", GAME.blind_rule)):
            start = time.perf_counter()
            won = sum(chance_bench.play(GAME, seed, chooser, {"jokers": jokers}).won
                      for seed in range(args.first_seed, args.first_seed + args.deals))
            print(rate_line(f"{name}, {jokers} jk", won, args.deals)
                  + f"  ({(time.perf_counter() - start) / args.deals * 1000:.1f} ms per game)")


def turn_starts(state, line) -> list:
    """The turn starts (before the reveal) along ``line`` from ``state``."""
    out = []
    for move in line:
        state = advance_chance(state)
        if state.step == REVEAL:
            out.append(state)
        state = state.play(move)
    return out


def engines(args):
    print(f"\nPart 2: endgames k turns before the end of the best line (seeds 0..{args.endgames - 1}, two jokers), "
          "the generic search against the model")
    print(f"{'k':>3} {'agree':>6} {'search median s':>16} {'max s':>7} {'nodes/s':>10} {'model median s':>15}  scores")
    starts = []
    for seed in range(args.endgames):
        state = GAME.initial_state(GAME.new_deal(seed))
        starts.append(turn_starts(state, make_solver(GAME, Limits(time_limit=30)).solve(state).line))
    for k in args.turns_back:
        search_times, model_times, nodes, agree, scores = [], [], 0, 0, []
        for line in starts:
            position = line[-k]
            search = DepthFirstSolver(GAME, Limits(time_limit=30)).solve(position)
            model = make_solver(GAME, Limits(time_limit=60)).solve(position)
            search_times.append(search.seconds)
            model_times.append(model.seconds)
            nodes += search.nodes
            agree += search.exact and model.exact and (search.verdict, search.score) == (model.verdict, model.score)
            scores.append(str(model.score) if model.exact else "-")
        print(f"{k:>3} {agree:>3}/{len(starts):<2} {statistics.median(search_times):>16.3f} {max(search_times):>7.2f} "
              f"{nodes / max(sum(search_times), 1e-9):>10,.0f} {statistics.median(model_times):>15.3f}  "
              f"{' '.join(scores)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=2, frontier=[], frontier_time_limit=0)
    parser.set_defaults(open_time_limit=10.0, samples=GAME.blind_samples)
    parser.add_argument("--jokers", type=int, default=2, choices=(0, 1, 2), help="part 1's deals")
    parser.add_argument("--baseline-jokers", type=lambda t: [int(x) for x in t.split(",") if x], default=[2, 1, 0])
    parser.add_argument("--endgames", type=int, default=6, help="part 2: how many seeded lines")
    parser.add_argument("--turns-back", type=lambda t: [int(x) for x in t.split(",") if x], default=[1, 2, 3])
    args = parser.parse_args()
    print("Dead Center benchmark")
    if args.deals:
        win_rates(args)
    if args.endgames:
        engines(args)
    chance_bench.kernel_against_reference(GAME)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
