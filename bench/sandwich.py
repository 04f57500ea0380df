"""Benchmark: The Sandwich Guy in open and blind mode (a script, not a test).

    python bench/sandwich.py --deals 1000 --jobs 1 [--first-seed 0] [--open-time-limit 5]
                             [--samples 64] [--frontier 3,5,7,9] [--frontier-time-limit 30]

Part 1, on the deals of seeds first..first+N-1 (`solodeck deal sandwich-guy --seed N`), the
three win rates with Wilson 95% intervals:
  - open: the exact search with every card known (an upper bound for any player); deals a limit
    left undecided are counted both ways, which widens the interval;
  - blind policy: `solodeck play --policy blind`, which never sees the deck order (a lower bound
    on the best real play);
  - baseline policy: `solodeck play --policy baseline`.
Also open-mode time per deal (median, 95th percentile, maximum), nodes per second, the proven
best scores, time per blind game, peak memory.

Part 2, blind mode's exact frontier: decision positions with k cards left in the deck (the
baseline policy plays seeded deals until at most k are left), the time to the exact blind value.
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time

from tqdm import tqdm

from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.registry import get_game
from solodeck.solvers import Limits, make_solver
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.sampling import BlindPolicy, wilson_interval

GAME = get_game("sandwich-guy")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(seed, chooser):
    state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
    while state.outcome() is None:
        state = advance_chance(state.play(chooser(state)))
    return state.outcome()


def one_deal(job):
    """Everything part 1 needs about one seed (runs in a worker process)."""
    seed, open_limit, samples = job
    state = GAME.initial_state(GAME.new_deal(seed))
    result = make_solver(GAME, Limits(time_limit=open_limit, memory_mb=512)).solve(state)
    start = time.perf_counter()
    blind = play(seed, BlindPolicy(GAME, samples))
    blind_seconds = time.perf_counter() - start
    baseline = play(seed, GAME.baseline_move)
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes, "blind": blind.won,
            "blind_score": blind.score if blind.won else None, "blind_seconds": blind_seconds,
            "baseline": baseline.won, "baseline_score": baseline.score if baseline.won else None}


def rate_line(label, wins, n, unknown=0):
    lo, _ = wilson_interval(wins, n)
    _, hi = wilson_interval(wins + unknown, n)
    extra = f", {unknown} undecided counted both ways" if unknown else ", 0 undecided"
    return f"{label:<16} {wins / n:7.1%}  (95% interval {lo:.1%}-{hi:.1%}; {wins} of {n}{extra})"


def scores_line(rows, key):
    counts = {}
    for r in rows:
        if r[key] is not None:
            counts[r[key]] = counts.get(r[key], 0) + 1
    return ", ".join(f"{s}: {c}" for s, c in sorted(counts.items()))


def win_rates(args):
    seeds = range(args.first_seed, args.first_seed + args.deals)
    jobs = [(seed, args.open_time_limit, args.samples) for seed in seeds]
    rows = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for row in tqdm(pool.imap_unordered(one_deal, jobs), total=len(jobs), desc="deals", unit=" deal"):
            rows.append(row)
    wall = time.perf_counter() - start
    n = len(rows)
    open_wins = sum(r["verdict"] == "winnable" for r in rows)
    unknown = sum(r["verdict"] == "unknown" for r in rows)
    times = [r["seconds"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, "
          f"{wall:.0f} s wall")
    print(rate_line("open", open_wins, n, unknown))
    print(rate_line("blind policy", sum(r["blind"] for r in rows), n))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.4f} s, "
          f"p95 {percentile(times, 0.95):.4f} s, max {max(times):.4f} s; {nodes / max(sum(times), 1e-9):,.0f} "
          f"nodes/s over all deals ({nodes:,} nodes)")
    print(f"open mode: {sum(r['exact'] for r in rows)} of {n} exact (verdict and best score proven), "
          f"{open_wins - sum(r['exact'] and r['verdict'] == 'winnable' for r in rows)} wins with the score unproven, "
          f"{sum(r['verdict'] == 'unwinnable' for r in rows)} proven unwinnable, {unknown} unknown (time-outs)")
    print("open mode, proven best scores (cards left in hand): "
          + scores_line([r for r in rows if r["exact"]], "score"))
    print("blind policy, scores of its wins: " + scores_line(rows, "blind_score"))
    print("baseline policy, scores of its wins: " + scores_line(rows, "baseline_score"))
    blind_times = [r["blind_seconds"] for r in rows]
    print(f"blind policy, time per game: median {statistics.median(blind_times):.2f} s, "
          f"p95 {percentile(blind_times, 0.95):.2f} s, max {max(blind_times):.2f} s "
          f"({args.samples} rollouts per move beyond the exact frontier)")
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory of a worker: {children:.0f} MB")


def frontier_positions(k, count):
    """Decision positions with at most k cards left in the deck, from seeded deals."""
    out, seed = [], 0
    while len(out) < count and seed < 10_000:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        seed += 1
        while state.outcome() is None and len(state.deck) > k:
            state = advance_chance(state.play(GAME.baseline_move(state)))
        if state.outcome() is None and state.deck and len(state.legal_moves()) > 1:
            out.append(state)
    return out


def frontier(args):
    print(f"\nPart 2: blind mode's exact frontier in Python ({args.frontier_positions} positions per k, "
          f"limit {args.frontier_time_limit} s each)")
    print(f"{'k':>3} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  win probabilities")
    for k in args.frontier:
        times, nodes, probabilities, exact = [], 0, [], 0
        for state in frontier_positions(k, args.frontier_positions):
            result = ExpectimaxSolver(GAME, Limits(time_limit=args.frontier_time_limit)).solve(state)
            times.append(result.seconds)
            nodes += result.nodes
            exact += result.exact
            probabilities.append(f"{result.win_probability:.3f}" if result.exact else "-")
        print(f"{k:>3} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
              f"{nodes / max(sum(times), 1e-9):>10,.0f}  {' '.join(probabilities)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--open-time-limit", type=float, default=5.0)
    parser.add_argument("--samples", type=int, default=64, help="blind policy: rollouts per move")
    parser.add_argument("--frontier", type=lambda t: [int(x) for x in t.split(",") if x], default=[3, 5, 7, 9])
    parser.add_argument("--frontier-positions", type=int, default=5)
    parser.add_argument("--frontier-time-limit", type=float, default=30.0)
    args = parser.parse_args()
    print(f"The Sandwich Guy benchmark; rollout kernel: {'yes' if load('sandwich') else 'NO (pure Python)'}; "
          "open mode: the generic search (pure Python)")
    if args.deals:
        win_rates(args)
    if args.frontier:
        frontier(args)
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
