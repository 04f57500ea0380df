"""Benchmark: Loot the Loop's whole deals (three win rates, the unlucky starts) and the generic
cyclic search on endgames (a script, not a test).

    python bench/loot_the_loop.py [--deals 1000] [--blind-deals 200] [--jobs 2] [--samples 16]
                                  [--open-time-limit 2] [--endgames 12]

Part 1, on the deals of seeds first..first+N-1: open mode (solvers/reach.py's search for the best
outcome reachable, pure Python: there is no kernel), the blind policy (rollouts of the baseline,
a few seconds a game, so on the first ``--blind-deals`` only; ``solodeck analyze loot-the-loop
--mode both`` plays all 1,000, results/loot-the-loop) and the baseline policy. Win rates with
Wilson 95% intervals; how soon open mode finds its first win (the verdict) against the limit it
runs to (the best score, proven only if the search ends), and the deals without a verdict
searched again for 10 s; the stuck starts (no trinket among
the first two cards: lost at the first look), counted and against their exact probability (the
deals lost before any choice are more: bench/loot_the_loop_forced.py).

Part 2, the search on endgames: positions a fixed number of moves before the end of the winning
line open mode found on seeds 0.., searched to the end by the pruned search and the plain one
(no move order, no bound): how many each proves, alike, how fast, and how the work grows with
the cards left in the deck.
"""
from __future__ import annotations

import argparse
import statistics
import time

import chance_bench
from chance_bench import percentile
from solodeck.registry import get_game
from solodeck.solvers import Limits, ReachabilitySolver, solve_open
from solodeck.solvers.episode import play_episode
from solodeck.solvers.blind import BlindPolicy
from solodeck.games.loot_the_loop import trinket_value

GAME = get_game("loot-the-loop")
NON_TRINKETS = 17  # 12 traps, 4 aces, the joker
VERDICT_LIMIT = 10.0  # a deal without a verdict within --open-time-limit is searched again this long


def play(seed, chooser):
    """(won, score) of the seeded deal played to the end by ``chooser``; a policy that gives up
    loses with the pile it holds."""
    final = play_episode(GAME.initial_state(GAME.new_deal(seed)), chooser)[1]
    outcome = final.outcome() or final.stop_outcome()
    return outcome.won, outcome.score


def one_deal(job):
    seed, open_limit, samples, with_blind = job
    deal = GAME.new_deal(seed)
    state = GAME.initial_state(deal)
    solver = ReachabilitySolver(GAME, Limits(time_limit=open_limit, memory_mb=4096))
    result = solver.solve(state)
    verdict_10s = result.verdict
    if result.verdict == "unknown" and open_limit < VERDICT_LIMIT:  # the question: a verdict within 10 s?
        verdict_10s = ReachabilitySolver(GAME, Limits(time_limit=VERDICT_LIMIT, memory_mb=4096)).solve(state).verdict
    start = time.perf_counter()
    blind = play(seed, BlindPolicy(GAME, samples)) if with_blind else None
    blind_seconds = time.perf_counter() - start
    baseline = play(seed, GAME.baseline_move)
    deck = deal.piles["deck"]
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes, "first_win": solver.first_win_seconds,
            "verdict_10s": verdict_10s,
            "stuck_start": not trinket_value(deck[0]) and not trinket_value(deck[1]),
            "blind": blind[0] if blind else None, "blind_score": blind[1] if blind and blind[0] else None,
            "blind_seconds": blind_seconds, "baseline": baseline[0],
            "baseline_score": baseline[1] if baseline[0] else None}


def win_rates(args):
    jobs = [(seed, args.open_time_limit, args.samples, seed < args.first_seed + args.blind_deals)
            for seed in range(args.first_seed, args.first_seed + args.deals)]
    rows, wall = chance_bench.pool_rows(one_deal, jobs, args.jobs)
    n = len(rows)
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, {wall:.0f} s wall")
    played = chance_bench.print_played_rates(rows)
    stuck = sum(r["stuck_start"] for r in rows)
    print(f"stuck starts (no trinket among the first two cards: lost at the first look): {stuck} of {n} "
          f"({stuck / n:.1%}); exact probability {NON_TRINKETS * 16}/{53 * 52} = {NON_TRINKETS * 16 / (53 * 52):.2%}")
    firsts = [r["first_win"] for r in rows if r["first_win"] is not None]
    decided = sum(r["verdict"] != "unknown" for r in rows)
    decided_10s = sum(r["verdict_10s"] != "unknown" for r in rows)
    print(f"open mode, the verdict: {decided} of {n} decided within {args.open_time_limit} s, {decided_10s} "
          f"within {max(VERDICT_LIMIT, args.open_time_limit)} s "
          f"({sum(r['verdict'] == 'unwinnable' for r in rows)} proven unwinnable); the first win found in a median "
          f"{statistics.median(firsts):.3f} s, p95 {percentile(firsts, 0.95):.3f} s, max {max(firsts):.3f} s")
    times = [r["seconds"] for r in rows]
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.3f} s, "
          f"p95 {percentile(times, 0.95):.3f} s, max {max(times):.3f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} nodes/s (line included)")
    print(chance_bench.exactness_line(rows))
    print("open mode, best scores found: " + chance_bench.score_counts((r["score"] for r in rows), reverse=True))
    print("blind policy, scores of its wins: " + chance_bench.score_counts(r["blind_score"] for r in played))
    print("baseline policy, scores of its wins: " + chance_bench.score_counts(r["baseline_score"] for r in rows))
    print(chance_bench.blind_time_line(played, args.samples, p95=True))
    print(chance_bench.worker_memory_line())


def endgames(args):
    """Positions ``back`` moves before the end of open mode's winning line on seeds 0, 1, ..."""
    print(f"\nPart 2: endgames, searched to the end (limit {args.endgame_time_limit} s each)")
    print(f"{'back':>5} {'deck':>5} {'proved':>7} {'alike':>6} {'pruned median s':>16} {'plain median s':>15} "
          f"{'positions entered (median)':>27} {'nodes/s':>9}")
    starts = [GAME.initial_state(GAME.new_deal(seed)) for seed in range(args.endgames)]
    lines = [solve_open(GAME, start, Limits(time_limit=2)).line for start in starts]
    for back in (10, 20, 30, 40, 50):
        cards, proved, alike, times, plain_times, entered, nodes = [], 0, 0, [], [], [], 0
        for start, line in zip(starts, lines):
            if len(line) <= back:
                continue
            position = GAME.replay_moves(start, line[:len(line) - back])
            cards.append(len(position.deck))
            pruned = solve_open(GAME, position, Limits(time_limit=args.endgame_time_limit))
            plain = solve_open(GAME, position, Limits(time_limit=args.endgame_time_limit), prune=False)
            proved += pruned.exact
            alike += pruned.exact and plain.exact and (pruned.verdict, pruned.score) == (plain.verdict, plain.score)
            times.append(pruned.seconds)
            plain_times.append(plain.seconds)
            entered.append(pruned.unique_states)
            nodes += pruned.nodes
        if times:
            print(f"{back:>5} {statistics.median(cards):>5.0f} {proved:>3}/{len(times):<3} {alike:>6} "
                  f"{statistics.median(times):>16.3f} {statistics.median(plain_times):>15.3f} "
                  f"{statistics.median(entered):>27,.0f} {nodes / sum(times):>9,.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chance_bench.add_options(parser, jobs=2, frontier=[], frontier_time_limit=0)
    parser.set_defaults(open_time_limit=2.0, samples=GAME.blind_samples)
    parser.add_argument("--blind-deals", type=int, default=200, help="the blind policy on the first this many deals")
    parser.add_argument("--endgames", type=int, default=12, help="part 2: seeds whose winning lines give endgames")
    parser.add_argument("--endgame-time-limit", type=float, default=30.0)
    args = parser.parse_args()
    print("Loot the Loop benchmark")
    if args.deals:
        win_rates(args)
    if args.endgames:
        endgames(args)
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
