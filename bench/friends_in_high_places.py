"""Benchmark: Friends in High Places' whole deals under its four option settings (a script, not
a test).

    python bench/friends_in_high_places.py [--deals 20] [--baseline-deals 1000] [--jobs 1]
                                           [--open-time-limit 10] [--samples 4] [--baseline-only]

For each setting (no option, lost-opportunities, royal-family, both), on the seeds
first..first+N-1: open mode (the search by whole turns: the compiled kernel, KernelSolver, when it
is built), the blind policy (rollouts of the thinning rule in Python, ``--samples`` per move) on the
same deals, and the baseline policy and the thinning rule (thinning_move, a second blind rule)
on ``--baseline-deals`` deals. Win rates with Wilson 95%
intervals (open: undecided deals counted both ways), time per deal, nodes per second, peak
memory, and the gap between the root's proven lower bound and the best win found; then the
kernel against the reference (Python TurnSolver) on "a win by turn T?" near winning lines, and
the turn search against the generic depth-first search on the small positions of the tests.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import chance_bench
from chance_bench import percentile, rate_line
from solodeck.games.friends_in_high_places import thinning_move
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits

GAME = get_game("friends-in-high-places")
SETTINGS = [{}, {"lost-opportunities": True}, {"royal-family": True},
            {"lost-opportunities": True, "royal-family": True}]


def label(options):
    return " + ".join(k for k, v in options.items() if v) or "no option"


def one_setting(args, options):
    args.options = options
    rows, wall = chance_bench.deal_rows(GAME.name, args, memory_mb=512)
    n = len(rows)
    start = time.perf_counter()
    seeds = range(args.first_seed, args.first_seed + args.baseline_deals)
    baseline = [chance_bench.play(GAME, seed, GAME.baseline_move, GAME.resolve_options(options, "bench"))
                for seed in seeds]
    baseline_wall = time.perf_counter() - start
    thinning = [chance_bench.play(GAME, seed, thinning_move, GAME.resolve_options(options, "bench")) for seed in seeds]
    print(f"\n== {label(options)}: seeds {args.first_seed}..{args.first_seed + n - 1} ({args.jobs} worker "
          f"process(es), {wall:.0f} s wall); baseline on {len(baseline)} deals ({baseline_wall:.0f} s)")
    print(rate_line("open", sum(r["verdict"] == "winnable" for r in rows), n,
                    sum(r["verdict"] == "unknown" for r in rows), say_none=True))
    print(rate_line("blind policy", sum(r["blind"] for r in rows), n))
    print(rate_line("baseline policy", sum(o.won for o in baseline), len(baseline)))
    print(rate_line("thinning rule", sum(o.won for o in thinning), len(thinning)))
    print("thinning rule, turns of its wins: " + (chance_bench.score_counts(o.score for o in thinning if o.won)
                                                  or "none"))
    times = [r["seconds"] for r in rows]
    print(f"open mode, time per deal (limit {args.open_time_limit} s): median {statistics.median(times):.2f} s, "
          f"p95 {percentile(times, 0.95):.2f} s, max {max(times):.2f} s; "
          f"{sum(r['nodes'] for r in rows) / max(sum(times), 1e-9):,.0f} turn nodes/s")
    print(chance_bench.exactness_line(rows))
    print("open mode, turns of the best win found: " + (chance_bench.score_counts(r["score"] for r in rows) or "none found"))
    gaps = []
    for r in rows:
        if r["score"] is not None:
            gaps.append(r["score"] - root_bound(r["seed"], options))
    if gaps:
        print(f"open mode, best win found less the root's lower bound (turns): median {statistics.median(gaps)}, "
              f"min {min(gaps)}, max {max(gaps)} (0 would be proven at the root)")
    print(chance_bench.blind_time_line(rows, args.samples, p95=True))
    print(chance_bench.worker_memory_line())


def rules_only(args, options):
    """--baseline-only: the two blind rules of one setting, with the thinning rule's turns."""
    resolved = GAME.resolve_options(options, "bench")
    seeds = range(args.first_seed, args.first_seed + args.baseline_deals)
    start = time.perf_counter()
    baseline = [chance_bench.play(GAME, seed, GAME.baseline_move, resolved) for seed in seeds]
    thinning = [chance_bench.play(GAME, seed, thinning_move, resolved) for seed in seeds]
    print(f"\n== {label(options)}: seeds {seeds.start}..{seeds.stop - 1} ({time.perf_counter() - start:.0f} s)")
    print(rate_line("baseline policy", sum(o.won for o in baseline), len(baseline)))
    print(rate_line("thinning rule", sum(o.won for o in thinning), len(thinning)))
    first = [o for seed, o in zip(seeds, thinning) if seed < 150]
    print(rate_line("thinning rule, seeds 0-149", sum(o.won for o in first), len(first)))
    wins = sorted(o.score for o in thinning if o.won)
    print("thinning rule, turns of its wins: " + (chance_bench.score_counts(wins) or "none")
          + (f" (median {statistics.median(wins)})" if wins else ""))


def root_bound(seed, options):
    """The kernel's lower bound on the winning turn at the first intrigue of the seeded deal (the
    Python bound without the kernel)."""
    from solodeck.api import advance_chance
    from solodeck.games.friends_in_high_places import flat

    state = advance_chance(GAME.initial_state(GAME.new_deal(seed, options)))
    kernel = GAME.load_kernel()
    if kernel is None:
        return state.score_bound()
    return kernel.Search(state.seed, *state.options).bound_of(
        flat(state.deck), state.discard, state.shuffles, flat(state.court_deck), state.court_discard,
        state.court_shuffles, state.hand, state.court, state.turn)


def kernel_against_reference():
    """"A win by turn T?" (T = the turn .. the turn + 3) on the last four intrigues of the kernel's
    first win in seeds 0-11 (the four option settings in turn): the kernel against the reference's
    TurnSolver in Python, answers and time."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_friends_in_high_places import kernel_args, winning_line_states
    from solodeck.games.friends_in_high_places import TurnSolver

    kernel = GAME.load_kernel()
    if kernel is None:
        print("\nkernel not built: no comparison")
        return
    alike = total = 0
    times = {"kernel": 0.0, "reference": 0.0}
    nodes = {"kernel": 0, "reference": 0}
    for seed in range(12):
        options = {"lost-opportunities": seed % 2 == 1, "royal-family": seed % 4 >= 2}
        for state in winning_line_states(seed, options)[-4:]:
            for extra in range(4):
                reference = TurnSolver(GAME, Limits())
                reference.deadline, reference.cut = None, False
                start = time.perf_counter()
                expected = reference._search(state, state.turn + extra) is not None
                times["reference"] += time.perf_counter() - start
                nodes["reference"] += reference.nodes
                search = kernel.Search(state.seed, *state.options)
                start = time.perf_counter()
                line, _cut = search.within(*kernel_args(state), state.turn + extra)
                times["kernel"] += time.perf_counter() - start
                nodes["kernel"] += search.nodes
                alike += (line is not None) == expected
                total += 1
    print(f"\nThe kernel against the reference TurnSolver, 'a win by turn T?' near 12 winning lines: {alike} of "
          f"{total} alike; kernel {times['kernel']:.3f} s ({nodes['kernel']} nodes), reference "
          f"{times['reference']:.3f} s ({nodes['reference']} nodes)")


def proven_ranges(deals, seconds):
    """KernelSolver on the first ``deals`` seeds (no option) for ``seconds`` each: the range it
    proves for the fewest turns, [no win before lo, best win found at hi]."""
    kernel = GAME.load_kernel()
    if kernel is None:
        return
    ranges = []
    for seed in range(deals):
        solver = GAME.fast_solver(Limits(time_limit=seconds))
        result = solver.solve(GAME.initial_state(GAME.new_deal(seed)))
        ranges.append(solver.range if result.verdict == "winnable" else None)
    shown = ", ".join(f"{seed}: {r[0]}-{r[1]}" if r else f"{seed}: none" for seed, r in enumerate(ranges))
    gaps = [r[1] - r[0] for r in ranges if r]
    print(f"\nProven ranges of the fewest turns after {seconds:g} s (seed: no win before lo - best win hi), no option: "
          f"{shown}; gap hi - lo: median {statistics.median(gaps) if gaps else '-'}, "
          f"{sum(g == 0 for g in gaps)} of {deals} closed (decided)")


def against():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_friends_in_high_places import small_positions  # the positions the tests compare on

    print("\nThe turn search against the generic depth-first search (solvers/dfs.py), small positions")
    alike = 0
    times = {"turns": [], "dfs": []}
    positions = small_positions()
    for state in positions:
        start = time.perf_counter()
        fast = GAME.fast_solver(Limits(time_limit=60)).solve(state)
        times["turns"].append(time.perf_counter() - start)
        start = time.perf_counter()
        generic = DepthFirstSolver(GAME, Limits(time_limit=60)).solve(state)
        times["dfs"].append(time.perf_counter() - start)
        alike += fast.exact and generic.exact and (fast.verdict, fast.score) == (generic.verdict, generic.score)
    print(f"{alike} of {len(positions)} alike (verdict and fewest turns, both exact); total time: "
          f"{'kernel' if GAME.load_kernel() else 'turn search'} "
          f"{sum(times['turns']):.2f} s, generic search {sum(times['dfs']):.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    chance_bench.add_options(parser, jobs=1, frontier=[], frontier_time_limit=10.0)
    parser.set_defaults(deals=20, open_time_limit=10.0, samples=4)
    parser.add_argument("--baseline-deals", type=int, default=1000)
    parser.add_argument("--range-deals", type=int, default=10, help="deals whose proven range is shown")
    parser.add_argument("--baseline-only", action="store_true",
                        help="only the baseline and the thinning rule on --baseline-deals deals a setting, "
                             "and the thinning rule on the blind runs' seeds 0-149 (no open or blind solves)")
    args = parser.parse_args()
    if args.baseline_only:
        for options in SETTINGS:
            rules_only(args, options)
        return
    print(f"Friends in High Places benchmark: {args.deals} deals per setting for open mode and the blind policy, "
          f"{args.baseline_deals} for the baseline")
    for options in SETTINGS:
        one_setting(args, options)
    kernel_against_reference()
    proven_ranges(args.range_deals, args.open_time_limit)
    against()
    print(chance_bench.process_memory_line())


if __name__ == "__main__":
    main()
