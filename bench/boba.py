"""Benchmark: The First Boba Tea Shop in London, open and blind mode (a script, not a test).

    python bench/boba.py --deals 1000 --jobs 1 [--first-seed 0] [--samples 64]
                         [--frontier 2,4,6,8,10] [--frontier-time-limit 60]

Part 1, on the deals of seeds first..first+N-1 (`solodeck deal boba --seed N`), the three win
rates with Wilson 95% intervals:
  - open: the exact solver with every card known (an upper bound for any player; every deal is
    won with all 52 cards, docs/rules/boba.md argues why, and the solver must prove it);
  - blind policy: `solodeck play boba --policy blind`, which never sees the deck order (a real
    strategy, so a lower bound on best blind play);
  - baseline policy: `solodeck play boba --policy baseline`.
Also open-mode time per deal and the blind policy's time per game.

Part 2, the exact frontier of blind mode: decisions (before a draw) with k cards left, reached
by the baseline policy on seeded deals, and the time to their exact blind value.

Part 3, rollouts of the blind rule: the compiled kernel against the pure-Python estimator, on one position.
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile
from solodeck.api import NO_WIN, advance_chance
from solodeck.ext import load
from solodeck.games.boba import ROLLOUT_CANDIDATES, rule_candidates
from solodeck.registry import get_game
from solodeck.solvers.rollouts import play_out
from solodeck.shuffle import SplitMix64

GAME = get_game("boba")


def mean_score(rows, key):
    scores = [r[key + "_score"] for r in rows if r[key]]
    return f"{statistics.mean(scores):.1f}" if scores else "-"


def win_rates(args):
    rows, wall = chance_bench.deal_rows("boba", args, memory_mb=256)
    chance_bench.print_win_rates(args, rows, wall)
    times = [r["seconds"] for r in rows]
    print(f"open mode: {sum(r['exact'] for r in rows)} of {len(rows)} exact; proven best scores: "
          + chance_bench.score_counts((r["score"] for r in rows if r["exact"]), reverse=True))
    print(f"open mode, time per deal: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms; "
          f"nodes per deal: median {statistics.median(r['nodes'] for r in rows):.0f}, max {max(r['nodes'] for r in rows)}")
    print(f"mean score of wins (cards in queues): blind policy {mean_score(rows, 'blind')}, "
          f"baseline {mean_score(rows, 'baseline')}")
    print(chance_bench.blind_time_line(rows, args.samples))
    print(chance_bench.worker_memory_line())


def frontier_positions(k, count):
    """Decisions before a draw with k cards left, reached by the baseline policy, not yet lost."""
    return chance_bench.frontier_positions(
        GAME, count, lambda state: len(state.deck) > k or state.hand is not None,
        lambda state: len(state.deck) == k and state.score_bound() != NO_WIN)


def frontier(args):
    print(f"\nPart 2: blind mode's exact frontier ({args.frontier_positions} positions per k, "
          f"limit {args.frontier_time_limit} s each; kernel: {'yes' if load('boba') else 'no'})")
    chance_bench.frontier_table(GAME, args, frontier_positions)


def rollout_comparison(args):
    print(f"\nPart 3: rollouts of the blind rule, kernel vs pure Python ({args.rollout_samples} samples per move)")
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    for _ in range(10):
        state = advance_chance(state.play(GAME.blind_rule(state)))
    moves = rule_candidates(state, ROLLOUT_CANDIDATES)  # what the rollouts value
    start = time.perf_counter()
    fast = GAME.fast_rollouts(state, args.rollout_samples, 0) if load("boba") is not None else None
    kernel_seconds = time.perf_counter() - start
    start = time.perf_counter()
    slow = []
    for move in moves:
        wins = 0
        for i in range(args.rollout_samples):
            wins += bool(play_out(GAME, state.play(move), SplitMix64(i), GAME.blind_rule).outcome().won)
        slow.append(wins)
    python_seconds = time.perf_counter() - start
    same = fast is not None and [w for _m, w, _s in fast] == slow
    games = len(moves) * args.rollout_samples
    if fast is None:
        print(f"kernel not built; Python: {games} games in {python_seconds:.2f} s")
        return
    print(f"{len(moves)} moves x {args.rollout_samples} samples = {games} games after the move: kernel "
          f"{kernel_seconds * 1000:.1f} ms ({games / kernel_seconds:,.0f} games/s), Python {python_seconds:.2f} s "
          f"({games / python_seconds:,.0f} games/s), {python_seconds / kernel_seconds:.0f}x; "
          f"same wins sample for sample: {same}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=2, frontier=[2, 4, 6, 8, 10], frontier_time_limit=60.0)
    parser.add_argument("--rollout-samples", type=int, default=32)
    args = parser.parse_args()
    print(f"Boba benchmark; compiled kernel: {'yes' if load('boba') else 'NO (pure Python)'}")
    if args.deals:
        win_rates(args)
    if args.frontier:
        frontier(args)
    if args.rollout_samples:
        rollout_comparison(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
