"""Benchmark: Skyway's exact endgames (three engines) and the proven frontier of real games (a
script, not a test; whole deals and blind play: `python bench/run.py skyway`).

    python bench/skyway.py [--frontier 2,3,4,5,6] [--frontier-positions 5] [--frontier-time-limit 60]
                           [--game-frontier 4,5,6,7,8] [--game-positions 20] [--game-limits 1,10]

Part 1, engines side by side: endgames with k turns left and no reshuffle to come, so every
engine takes them (the baseline's games of seeded deals at a third-pass turn start with 5k cards
in the deck; where baseline play never has one, k >= 5, built from seeded deals), solved by the
kernel's exact search (ext/skyway.pyx, when built), the pure-Python reference (solvers/dfs.py) and
the CP-SAT model (encodings/skyway.py, one worker), each with the time limit. Per k: how many each
proved, median and maximum CPU time, nodes per second, and whether they agree.

Part 1b, the frontier of a real game: the turn start k turns before the end of the baseline's
game of seeds 10000, 10001, ... (second-pass positions from k = 5 on: a reshuffle ahead, which
CP-SAT does not take), solved by the kernel alone. Per k: how many are proven within each of
--game-limits seconds of CPU, the median and maximum time, nodes per second, peak memory.
"""
from __future__ import annotations

import argparse
import statistics
import time

import resource

from solodeck.encodings import cpsat_solver
from solodeck.api import advance_chance
from solodeck.games.skyway.blind import built_endgame, natural_endgame
from solodeck.games.skyway.search import kernel_args
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits, make_solver

GAME = get_game("skyway")


def endgames(turns: int, count: int) -> list:
    """``count`` endgames with ``turns`` turns left and no reshuffle to come: the baseline's games
    of seeds 0, 1, ... where they have one (natural_endgame), else built from seeds 0, 1, ..."""
    out, seed = [], 0
    while len(out) < count and seed < 2000:
        state = natural_endgame(seed, turns)
        seed += 1
        if state is not None:
            out.append(state)
    return out + [built_endgame(seed, turns) for seed in range(count - len(out))]


def timed(engine, state):
    """(result, CPU seconds) of engine.solve(state)."""
    start = time.process_time()
    result = engine.solve(state)
    return result, time.process_time() - start


def frontier(args):
    print(f"\nPart 1: exact endgames, {args.frontier_positions} per k turns left, limit {args.frontier_time_limit} s "
          "per engine and position")
    print(f"{'k':>3} {'engine':>7} {'exact':>6} {'median s':>9} {'max s':>8} {'nodes/s':>10}  verdicts/scores")
    limits = Limits(time_limit=args.frontier_time_limit)
    engines = {"kernel": lambda: make_solver(GAME, limits), "dfs": lambda: DepthFirstSolver(GAME, limits),
               "cpsat": lambda: cpsat_solver(GAME, limits, 1)}
    if GAME.load_kernel() is None:
        del engines["kernel"]
    for k in args.frontier:
        positions = endgames(k, args.frontier_positions)
        answers = {}
        for name, engine in engines.items():
            times, nodes, exact, rows = [], 0, 0, []
            for state in positions:
                result, seconds = timed(engine(), state)
                times.append(seconds)
                nodes += result.nodes
                exact += result.exact
                rows.append((str(result.verdict)[:3], result.score) if result.exact else None)
            answers[name] = rows
            shown = " ".join(f"{r[0]}{r[1]}" if r else "-" for r in rows)
            print(f"{k:>3} {name:>7} {exact:>3}/{len(times):<2} {statistics.median(times):>9.3f} {max(times):>8.3f} "
                  f"{nodes / max(sum(times), 1e-9):>10,.0f}  {shown}")
        proved = [rows for rows in answers.values()]
        agree = sum(len({r for r in column if r}) <= 1 for column in zip(*proved))
        print(f"{'':>3} {'agree':>7} {agree}/{len(positions)} positions (among the engines that proved each)")


def game_positions(turns: int, count: int, first_seed: int = 10000) -> list:
    """The turn start ``turns`` turns before the end of the baseline's game of each seed."""
    out = []
    for seed in range(first_seed, first_seed + count):
        state, starts = GAME.initial_state(GAME.new_deal(seed)), []
        while state.outcome() is None:
            starts.append(state)
            state = advance_chance(state)
            state = state.play(GAME.baseline_move(state))
        out.append(starts[-turns])
    return out


def game_frontier(args):
    kernel = GAME.load_kernel()
    if kernel is None:
        print("\nPart 1b needs the kernel (not built, or SOLODECK_NO_EXTENSIONS=1)")
        return
    limit = max(args.game_limits)
    print(f"\nPart 1b: the frontier, {args.game_positions} positions k turns before the end of the baseline's games "
          f"(seeds 10000-), the kernel's exact search, CPU limit {limit:g} s (wall {3 * limit:g} s)")
    print(f"{'k':>3} {'pass 2':>6} " + " ".join(f"{'<=' + format(s, 'g') + ' s':>8}" for s in args.game_limits)
          + f" {'median s':>9} {'max s':>8} {'nodes/s':>10} {'states':>9}")
    for k in args.game_frontier:
        times, nodes, stored, second_pass = [], 0, 0, 0
        for state in game_positions(k, args.game_positions):
            state = advance_chance(state)
            second_pass += state.passno < 3
            search = kernel.Endgame(state.seed, 1024.0, 3 * limit)
            start = time.process_time()
            found = search.solve(*kernel_args(state))
            seconds = time.process_time() - start
            times.append(seconds if found is not None else float("inf"))
            nodes += search.nodes
            stored = max(stored, search.stored)
        spent = sum(t for t in times if t != float("inf")) or 1e-9
        print(f"{k:>3} {second_pass:>6} " + " ".join(f"{sum(t <= s for t in times):>5}/{len(times):<2}"
                                                      for s in args.game_limits)
              + f" {statistics.median(times):>9.3f} {max(times):>8.3f} {nodes / spent:>10,.0f} {stored:>9,}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frontier", type=lambda t: [int(x) for x in t.split(",") if x], default=[2, 3, 4, 5, 6])
    parser.add_argument("--frontier-positions", type=int, default=5)
    parser.add_argument("--frontier-time-limit", type=float, default=60.0)
    parser.add_argument("--game-frontier", type=lambda t: [int(x) for x in t.split(",") if x], default=[4, 5, 6, 7, 8])
    parser.add_argument("--game-positions", type=int, default=20)
    parser.add_argument("--game-limits", type=lambda t: [float(x) for x in t.split(",") if x], default=[1.0, 10.0])
    args = parser.parse_args()
    print("Skyway benchmark" + ("" if GAME.load_kernel() is not None else " (pure Python: the kernel is not built)"))
    if args.frontier:
        frontier(args)
    if args.game_frontier:
        game_frontier(args)
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
