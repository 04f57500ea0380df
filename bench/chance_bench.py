"""What the chance-game benchmarks share (bench/foursquare.py, bench/sandwich.py, bench/boba.py;
bench/boba_blind.py and bench/dungeon_blind.py print their paired comparisons with it).

A plain module, not a script: each benchmark is run as `python bench/<game>.py`, which puts this
folder on sys.path. Everything here is the same for the three games; what differs is a parameter,
and every game-specific line of a report stays in its script.

The functions that take ``args`` read the options `add_options` declares, which the three
command lines share: --deals, --first-seed, --jobs, --open-time-limit, --samples (part 1) and
--frontier, --frontier-positions, --frontier-time-limit (part 2).
"""
from __future__ import annotations

import multiprocessing
import resource
import statistics
import time

from tqdm import tqdm

from solodeck.api import advance_chance
from solodeck.registry import get_game
from solodeck.solvers import Limits, make_solver
from solodeck.solvers.episode import play_episode
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.blind import BlindPolicy
from solodeck.solvers.rollouts import rollout_stats
from solodeck.solvers.stats import wilson_interval


def print_paired(label_a, label_b, rows):
    """Two policies played on the same deals, ``rows`` of (won_a, won_b, seconds_a, seconds_b): each
    one's wins with a Wilson interval and median seconds a deal, then the paired counts and the
    exact McNemar p."""
    from solodeck.compare import mcnemar_p

    n = len(rows)
    for label, i in ((label_a, 0), (label_b, 1)):
        wins = sum(r[i] for r in rows)
        lo, hi = wilson_interval(wins, n)
        print(f"{label}: {wins}/{n} = {100 * wins / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%), "
              f"median {statistics.median(r[2 + i] for r in rows):.2f} s a deal")
    only_a = sum(r[0] and not r[1] for r in rows)
    only_b = sum(r[1] and not r[0] for r in rows)
    print(f"paired: both {sum(r[0] and r[1] for r in rows)}, only {label_a} {only_a}, only {label_b} {only_b}, "
          f"exact McNemar p = {mcnemar_p(only_a, only_b):.3g}")


def add_options(parser, *, jobs, frontier, frontier_time_limit):
    """The options the three benchmarks share; the defaults that differ are the script's."""
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=jobs)
    parser.add_argument("--open-time-limit", type=float, default=5.0)
    parser.add_argument("--samples", type=int, default=64, help="blind policy: rollouts per move")
    parser.add_argument("--frontier", type=lambda t: [int(x) for x in t.split(",") if x], default=frontier)
    parser.add_argument("--frontier-positions", type=int, default=5)
    parser.add_argument("--frontier-time-limit", type=float, default=frontier_time_limit)


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rate_line(label, wins, n, unknown=0, say_none=False):
    """A win rate with its Wilson 95% interval; the ``unknown`` deals a limit left undecided count
    as losses for the lower end and as wins for the upper end. ``say_none``: with none undecided,
    say so (", 0 undecided") rather than nothing."""
    lo, _ = wilson_interval(wins, n)
    _, hi = wilson_interval(wins + unknown, n)
    extra = f", {unknown} undecided counted both ways" if unknown else (", 0 undecided" if say_none else "")
    return f"{label:<16} {wins / n:7.1%}  (95% interval {lo:.1%}-{hi:.1%}; {wins} of {n}{extra})"


def play(game, seed, chooser, options=None):
    """The outcome of the seeded deal played to the end by ``chooser(state) -> move``."""
    return play_episode(game.initial_state(game.new_deal(seed, options)), chooser)[1].outcome()


def one_deal(job):
    """Everything part 1 needs about one seed (runs in a worker process): the open solve, and the
    blind (when asked) and baseline policies' games with their scores (None for a loss)."""
    name, seed, open_limit, samples, memory_mb, with_blind, options = job
    game = get_game(name)
    result = make_solver(game, Limits(time_limit=open_limit, memory_mb=memory_mb)).solve(
        game.initial_state(game.new_deal(seed, options)))
    start = time.perf_counter()
    blind = play(game, seed, BlindPolicy(game, samples), options) if with_blind else None
    blind_seconds = time.perf_counter() - start
    baseline = play(game, seed, game.baseline_move, options)
    return {"seed": seed, "verdict": result.verdict, "exact": result.exact, "score": result.score,
            "seconds": result.seconds, "nodes": result.nodes, "blind": blind.won if blind else None,
            "blind_score": blind.score if blind and blind.won else None, "blind_seconds": blind_seconds,
            "baseline": baseline.won, "baseline_score": baseline.score if baseline.won else None}


def deal_rows(name, args, memory_mb):
    """`one_deal` for the seeds of part 1 in ``args.jobs`` worker processes (open solves capped at
    ``memory_mb``): the rows, in the order they finished, and the wall time."""
    seeds = range(args.first_seed, args.first_seed + args.deals)
    blind_deals = getattr(args, "blind_deals", None)  # the blind policy on the first this many only
    options = getattr(args, "options", None)  # the game's options (Dead Center's jokers)
    jobs = [(name, seed, args.open_time_limit, args.samples, memory_mb,
             blind_deals is None or seed < args.first_seed + blind_deals, options) for seed in seeds]
    rows = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for row in tqdm(pool.imap_unordered(one_deal, jobs), total=len(jobs), desc="deals", unit=" deal"):
            rows.append(row)
    return rows, time.perf_counter() - start


def pool_rows(one, jobs, workers):
    """``one(job)`` for every job in ``workers`` processes, with a progress bar: (rows, wall time)."""
    start = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        rows = list(tqdm(pool.imap_unordered(one, jobs), total=len(jobs), desc="deals", unit=" deal"))
    return rows, time.perf_counter() - start


def print_played_rates(rows, note=""):
    """The three win rates when the blind policy played only some deals (rows whose "blind" is
    not None): open (undecided counted both ways), blind policy on those, baseline on all."""
    n = len(rows)
    played = [r for r in rows if r["blind"] is not None]
    print(rate_line("open", sum(r["verdict"] == "winnable" for r in rows), n,
                    sum(r["verdict"] == "unknown" for r in rows), say_none=True))
    print(rate_line("blind policy", sum(r["blind"] for r in played), len(played))
          + f"  (the first {len(played)} deals{note})")
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n))
    return played


def print_win_rates(args, rows, wall, say_none=False):
    """Part 1's heading and its three win rates: open, blind policy, baseline policy."""
    n = len(rows)
    open_wins = sum(r["verdict"] == "winnable" for r in rows)
    unknown = sum(r["verdict"] == "unknown" for r in rows)
    print(f"\nPart 1: seeds {args.first_seed}..{args.first_seed + n - 1}, {args.jobs} worker processes, "
          f"{wall:.0f} s wall")
    print(rate_line("open", open_wins, n, unknown, say_none))
    print(rate_line("blind policy", sum(r["blind"] for r in rows), n, say_none=say_none))
    print(rate_line("baseline policy", sum(r["baseline"] for r in rows), n, say_none=say_none))


def exactness_line(rows, unknown_note=""):
    """How many open solves were exact, wins with the score unproven, unwinnable, unknown."""
    open_wins = sum(r["verdict"] == "winnable" for r in rows)
    return (f"open mode: {sum(r['exact'] for r in rows)} of {len(rows)} exact (verdict and best score proven), "
            f"{open_wins - sum(r['exact'] and r['verdict'] == 'winnable' for r in rows)} wins with the score "
            f"unproven, {sum(r['verdict'] == 'unwinnable' for r in rows)} proven unwinnable, "
            f"{sum(r['verdict'] == 'unknown' for r in rows)} unknown{unknown_note}")


def score_counts(scores, reverse=False):
    """"score: count, ..." over the scores given (None skipped), in increasing order or ``reverse``."""
    counts = {}
    for s in scores:
        if s is not None:
            counts[s] = counts.get(s, 0) + 1
    return ", ".join(f"{s}: {c}" for s, c in sorted(counts.items(), reverse=reverse))


def blind_time_line(rows, samples, p95=False):
    times = [r["blind_seconds"] for r in rows]
    middle = f"p95 {percentile(times, 0.95):.2f} s, " if p95 else ""
    return (f"blind policy, time per game: median {statistics.median(times):.2f} s, {middle}"
            f"max {max(times):.2f} s ({samples} rollouts per move beyond the exact frontier)")


def worker_memory_line():
    return f"peak memory of a worker: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MB"


def process_memory_line():
    return f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"


def frontier_positions(game, count, walking, keep):
    """Up to ``count`` positions from the seeded deals 0, 1, ... (10,000 at most): the baseline
    policy plays while the game is on and ``walking(state)``; where it stops, the position is kept
    if the game is still on and ``keep(state)``."""
    out, seed = [], 0
    while len(out) < count and seed < 10_000:
        state = advance_chance(game.initial_state(game.new_deal(seed)))
        seed += 1
        while state.outcome() is None and walking(state):
            state = advance_chance(state.play(game.baseline_move(state)))
        if state.outcome() is None and keep(state):
            out.append(state)
    return out


def frontier_table(game, args, positions):
    """Part 2's table: for each k of ``args.frontier``, the exact blind value (ExpectimaxSolver,
    ``args.frontier_time_limit`` each) of ``positions(k, args.frontier_positions)``."""
    print(f"{'k':>3} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  win probabilities")
    for k in args.frontier:
        times, nodes, probabilities, exact = [], 0, [], 0
        for state in positions(k, args.frontier_positions):
            result = ExpectimaxSolver(game, Limits(time_limit=args.frontier_time_limit)).solve(state)
            times.append(result.seconds)
            nodes += result.nodes
            exact += result.exact
            probabilities.append(f"{result.win_probability:.3f}" if result.exact else "-")
        if not times:
            print(f"{k:>3}  no position found")
            continue
        print(f"{k:>3} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
              f"{nodes / max(sum(times), 1e-9):>10,.0f}  {' '.join(probabilities)}")


def kernel_against_reference(game, deals=3, samples=200):
    """Part 3 of the benchmarks of games with compiled rollouts: baseline rollouts per second from
    the first decision of seeds 0..deals-1, in the kernel and in pure Python (the same games)."""
    print(f"\nPart 3: baseline rollouts from the first decision of seeds 0..{deals - 1}, {samples} per move")
    for label, kernel in (("kernel", game.kernel), ("reference", None)):
        saved, game.kernel = game.kernel, kernel
        try:
            if kernel is not None and game.load_kernel() is None:
                print(f"{label:>10}: not built (SOLODECK_NO_EXTENSIONS=1 or a failed build)")
                continue
            games, start = 0, time.perf_counter()
            for seed in range(deals):
                state = advance_chance(game.initial_state(game.new_deal(seed)))
                games += samples * len(rollout_stats(game, state, samples, seed))
            seconds = time.perf_counter() - start
            print(f"{label:>10}: {games:,} games in {seconds:.2f} s, {games / seconds:,.0f} games/s")
        finally:
            game.kernel = saved
