"""Benchmark: Hide and Seek's whole deals: open mode's exact search (time per deal, nodes/s, the
share decided within 10 s), the three win rates with Wilson 95% intervals, peak memory (a script,
not a test).

    python bench/hide_and_seek.py [--deals 1000] [--blind-deals 50] [--jobs 2] [--samples 6]
                                  [--open-time-limit 10]

Open mode is the search over canonical lines (CanonicalSolver, pure Python: there is no kernel);
the generic DFS is run beside it on the first ``--dfs-deals`` deals for comparison. The blind
policy (rollouts of the baseline) costs seconds a game, so it plays the first ``--blind-deals``.
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, solve_open
from solodeck.solvers.episode import play_episode
from solodeck.solvers.sampling import BlindPolicy

GAME = get_game("hide-and-seek")


def play(seed, chooser):
    final = play_episode(GAME.initial_state(GAME.new_deal(seed)), chooser)[1]
    return final.outcome().won, final.outcome().score


def one_deal(job):
    seed, open_limit, samples, with_blind, with_dfs = job
    state = GAME.initial_state(GAME.new_deal(seed))
    result = solve_open(GAME, state, Limits(time_limit=open_limit, memory_mb=4096))
    dfs = DepthFirstSolver(GAME, Limits(time_limit=open_limit)).solve(state) if with_dfs else None
    start = time.perf_counter()
    blind = play(seed, BlindPolicy(GAME, samples)) if with_blind else None
    blind_seconds = time.perf_counter() - start
    start = time.perf_counter()
    baseline = play(seed, GAME.baseline_move)
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes,
            "dfs_exact": dfs.exact if dfs else None, "dfs_seconds": dfs.seconds if dfs else None,
            "blind": blind[0] if blind else None, "blind_score": blind[1] if blind else None,
            "blind_seconds": blind_seconds, "baseline": baseline[0], "baseline_score": baseline[1],
            "baseline_seconds": time.perf_counter() - start}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--blind-deals", type=int, default=50)
    parser.add_argument("--dfs-deals", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=GAME.blind_samples)
    parser.add_argument("--open-time-limit", type=float, default=10.0)
    args = parser.parse_args()
    first = args.first_seed
    jobs = [(s, args.open_time_limit, args.samples, s < first + args.blind_deals, s < first + args.dfs_deals)
            for s in range(first, first + args.deals)]
    rows, wall = chance_bench.pool_rows(one_deal, jobs, args.jobs)
    n = len(rows)
    print(f"Hide and Seek: seeds {first}..{first + n - 1}, {args.jobs} worker processes, {wall:.0f} s wall")
    played = chance_bench.print_played_rates(rows, f", {args.samples} rollouts per move")
    decided = sum(r["exact"] for r in rows)
    times = [r["seconds"] for r in rows]
    print(f"open mode (canonical search): {decided} of {n} decided exactly (verdict and best score) within "
          f"{args.open_time_limit} s ({decided / n:.1%}); time per deal median {statistics.median(times):.3f} s, "
          f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} nodes/s")
    dfs = [r for r in rows if r["dfs_exact"] is not None]
    if dfs:
        print(f"generic DFS (solvers/dfs.py) on the first {len(dfs)} deals: {sum(r['dfs_exact'] for r in dfs)} decided "
              f"within {args.open_time_limit} s, median {statistics.median(r['dfs_seconds'] for r in dfs):.2f} s")
    print("open mode, best scores: " + chance_bench.score_counts((r["score"] for r in rows), reverse=True))
    print("blind policy, scores: " + chance_bench.score_counts((r["blind_score"] for r in played), reverse=True))
    print("baseline policy, scores: " + chance_bench.score_counts((r["baseline_score"] for r in rows), reverse=True))
    if played:
        bt = [r["blind_seconds"] for r in played]
        print(f"blind policy, time per game: median {statistics.median(bt):.2f} s, max {max(bt):.2f} s; "
              f"baseline {statistics.median(r['baseline_seconds'] for r in rows) * 1000:.1f} ms a game")
    print(chance_bench.worker_memory_line())


if __name__ == "__main__":
    main()
