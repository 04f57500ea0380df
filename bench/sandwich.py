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
import statistics

import chance_bench
from chance_bench import percentile
from solodeck.ext import load
from solodeck.registry import get_game

GAME = get_game("sandwich-guy")


def win_rates(args):
    rows, wall = chance_bench.deal_rows("sandwich-guy", args, memory_mb=512)
    chance_bench.print_win_rates(args, rows, wall, say_none=True)
    times = [r["seconds"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.4f} s, "
          f"p95 {percentile(times, 0.95):.4f} s, max {max(times):.4f} s; {nodes / max(sum(times), 1e-9):,.0f} "
          f"nodes/s over all deals ({nodes:,} nodes)")
    print(chance_bench.exactness_line(rows, " (time-outs)"))
    print("open mode, proven best scores (cards left in hand): "
          + chance_bench.score_counts(r["score"] for r in rows if r["exact"]))
    print("blind policy, scores of its wins: " + chance_bench.score_counts(r["blind_score"] for r in rows))
    print("baseline policy, scores of its wins: " + chance_bench.score_counts(r["baseline_score"] for r in rows))
    print(chance_bench.blind_time_line(rows, args.samples, p95=True))
    print(chance_bench.worker_memory_line())


def frontier_positions(k, count):
    """Decision positions with at most k cards left in the deck, from seeded deals."""
    return chance_bench.frontier_positions(GAME, count, lambda state: len(state.deck) > k,
                                           lambda state: state.deck and len(state.legal_moves()) > 1)


def frontier(args):
    print(f"\nPart 2: blind mode's exact frontier in Python ({args.frontier_positions} positions per k, "
          f"limit {args.frontier_time_limit} s each)")
    chance_bench.frontier_table(GAME, args, frontier_positions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=1, frontier=[3, 5, 7, 9], frontier_time_limit=30.0)
    args = parser.parse_args()
    print(f"The Sandwich Guy benchmark; rollout kernel: {'yes' if load('sandwich') else 'NO (pure Python)'}; "
          "open mode: the generic search (pure Python)")
    if args.deals:
        win_rates(args)
    if args.frontier:
        frontier(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
