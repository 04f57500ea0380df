"""Benchmark: Hide and Seek's whole deals: open mode's exact search (time per deal, nodes/s, the
share decided within 10 s), the three win rates with Wilson 95% intervals, peak memory (a script,
not a test).

    python bench/hide_and_seek.py [--deals 1000] [--blind-deals 50] [--reference-deals 50]
                                  [--dfs-deals 5] [--jobs 2] [--samples 6] [--open-time-limit 10]

Open mode is the search over canonical lines, compiled (ext/hide_and_seek.pyx) when built; its
pure-Python reference (CanonicalSolver, the same nodes) runs on the first ``--reference-deals``
and the generic DFS on the first ``--dfs-deals``, for comparison. The blind policy (rollouts of
the baseline) costs seconds a game, so it plays the first ``--blind-deals``
(`solodeck analyze hide-and-seek --mode both` plays it on every deal).
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile
from solodeck.games.hide_and_seek import CanonicalSolver
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, solve_open
from solodeck.solvers.episode import play_episode
from solodeck.solvers.blind import BlindPolicy

GAME = get_game("hide-and-seek")


def play(seed, chooser):
    final = play_episode(GAME.initial_state(GAME.new_deal(seed)), chooser)[1]
    return final.outcome().won, final.outcome().score


def one_deal(job):
    seed, open_limit, samples, with_blind, with_reference, with_dfs = job
    state = GAME.initial_state(GAME.new_deal(seed))
    result = solve_open(GAME, state, Limits(time_limit=open_limit, memory_mb=2048))
    reference = CanonicalSolver(GAME, Limits(time_limit=open_limit)).solve(state) if with_reference else None
    dfs = DepthFirstSolver(GAME, Limits(time_limit=open_limit)).solve(state) if with_dfs else None
    start = time.perf_counter()
    blind = play(seed, BlindPolicy(GAME, samples)) if with_blind else None
    blind_seconds = time.perf_counter() - start
    start = time.perf_counter()
    baseline = play(seed, GAME.baseline_move)
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes, "engine": result.engine,
            "ref_exact": reference.exact if reference else None, "ref_score": reference.score if reference else None,
            "ref_seconds": reference.seconds if reference else None, "ref_nodes": reference.nodes if reference else None,
            "dfs_exact": dfs.exact if dfs else None, "dfs_seconds": dfs.seconds if dfs else None,
            "blind": blind[0] if blind else None, "blind_score": blind[1] if blind else None,
            "blind_seconds": blind_seconds, "baseline": baseline[0], "baseline_score": baseline[1],
            "baseline_seconds": time.perf_counter() - start}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--blind-deals", type=int, default=50)
    parser.add_argument("--reference-deals", type=int, default=50)
    parser.add_argument("--dfs-deals", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=GAME.blind_samples)
    parser.add_argument("--open-time-limit", type=float, default=10.0)
    args = parser.parse_args()
    first = args.first_seed
    jobs = [(s, args.open_time_limit, args.samples, s < first + args.blind_deals, s < first + args.reference_deals,
             s < first + args.dfs_deals) for s in range(first, first + args.deals)]
    rows, wall = chance_bench.pool_rows(one_deal, jobs, args.jobs)
    n = len(rows)
    print(f"Hide and Seek: seeds {first}..{first + n - 1}, {args.jobs} worker processes, {wall:.0f} s wall")
    played = chance_bench.print_played_rates(rows, f", {args.samples} rollouts per move")
    decided = sum(r["exact"] for r in rows)
    times = [r["seconds"] for r in rows]
    print(f"open mode ({rows[0]['engine']}): {decided} of {n} decided exactly (verdict and best score) within "
          f"{args.open_time_limit} s ({decided / n:.1%}); time per deal median {statistics.median(times):.3f} s, "
          f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} nodes/s")
    ref = [r for r in rows if r["ref_exact"] is not None]
    if ref:
        rt = [r["ref_seconds"] for r in ref]
        agree = all(r["ref_score"] == r["score"] for r in ref if r["ref_exact"] and r["exact"])
        print(f"pure-Python reference (CanonicalSolver) on the first {len(ref)} deals: {sum(r['ref_exact'] for r in ref)} "
              f"decided within {args.open_time_limit} s, median {statistics.median(rt):.3f} s, max {max(rt):.3f} s, "
              f"{sum(r['ref_nodes'] for r in ref) / max(sum(rt), 1e-9):,.0f} nodes/s; the same scores: {agree}; "
              f"on these deals the engine above took median {statistics.median(r['seconds'] for r in ref):.4f} s")
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
