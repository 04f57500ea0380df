"""Benchmark: Bourbon, open-hand analysis (a script, not a test).

    python bench/bourbon.py [--hands 20000] [--deals 8] [--time-limit 10] [--endgames 3,5,7,9]

Part 1, the meld arrangement: the least deadwood (``deadwood``, memoised) and the best arrangement
(``best_melds``) of random 10- and 11-card hands, hands per second from a cold table.

Part 2, the open-hand value of whole seeded deals (`solodeck deal bourbon --seed N`) from the
first turn: how many the paranoid search decides within the time limit, nodes per second.

Part 3, endgames: seeded deals played greedily (each player draws and discards for the least
deadwood and never knocks), or with half the moves random, to the first turn with at most k
face-down cards left; how many the search decides within the limit, time per position (median,
max of the decided), nodes/s. Greedy lines mostly reach hands ready to knock (quick to decide);
half-random ones less often.
Peak memory is the process's maximum resident size.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import statistics
import time

from solodeck.games import bourbon as B
from solodeck.registry import get_game
from solodeck.result import Limits
from solodeck.solvers.paranoid import ParanoidSolver

GAME = get_game("bourbon")


def melds(hands):
    rng = random.Random(2025)
    for size in (10, 11):
        sample = [B.mask_of(rng.sample(range(52), size)) for _ in range(hands)]
        B._DEADWOOD.clear()
        t = time.perf_counter()
        for h in sample:
            B.deadwood(h)
        cold = time.perf_counter() - t
        t = time.perf_counter()
        for h in sample[:hands // 10]:
            B.best_melds(h)
        arranged = time.perf_counter() - t
        print(f"{size}-card hands: deadwood {hands / cold:,.0f} hands/s (cold table, {hands:,} random hands); "
              f"best_melds with the arrangement (deadwood table warm) {hands // 10 / arranged:,.0f} hands/s")


def greedy(state):
    moves = [m for m in state.search_moves() if m.kind not in (B.KNOCK, B.PASS)]
    return moves[0] if moves else state.search_moves()[0]


def endgame(seed, facedown, mixed=False):
    """Greedy play to the first turn with at most ``facedown`` face-down cards left; ``mixed``: half
    the moves random (random.Random(seed), never a knock), so fewer hands are ready to knock."""
    rng = random.Random(seed)
    s = GAME.initial_state(GAME.new_deal(seed))
    while s.outcome() is None and not (s.stage == B.DRAW and s.facedown_count() <= facedown):
        if mixed and rng.random() < 0.5:
            s = s.play(rng.choice([m for m in s.legal_moves() if m.kind != B.KNOCK] or s.legal_moves()))
        else:
            s = s.play(greedy(s))
    return s


def solve_rows(states, limit):
    rows = []
    for seed, s in states:
        solver = ParanoidSolver(Limits(time_limit=limit))
        t = time.perf_counter()
        v = solver.value(s, 0)
        rows.append((seed, v, solver.nodes, time.perf_counter() - t, len(solver.table)))
    return rows


def report(label, rows, limit):
    decided = [r for r in rows if r[1] is not None]
    nodes, secs = sum(r[2] for r in rows), sum(r[3] for r in rows)
    line = f"{label}: decided {len(decided)}/{len(rows)} within {limit:g} s"
    if decided:
        times = [r[3] for r in decided]
        line += f"; time of the decided: median {statistics.median(times):.3f} s, max {max(times):.3f} s"
    line += f"; {nodes / max(secs, 1e-9):,.0f} nodes/s ({nodes:,} nodes); largest table {max(r[4] for r in rows):,}"
    print(line)
    print("  values (seat 0's net; None = unknown): " + ", ".join(f"seed {r[0]}: {r[1]}" for r in rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--time-limit", type=float, default=10)
    ap.add_argument("--endgames", default="3,5,7,9")
    args = ap.parse_args()
    print(f"bench/bourbon.py --hands {args.hands} --deals {args.deals} --time-limit {args.time_limit:g} "
          f"--endgames {args.endgames}")
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"one process, pure Python (no kernel)")
    melds(args.hands)
    seeds = range(args.deals)
    report("whole deals from the first turn", solve_rows([(s, GAME.initial_state(GAME.new_deal(s))) for s in seeds],
                                                         args.time_limit), args.time_limit)
    for mixed in (False, True):
        how = "half-random lines" if mixed else "greedy lines"
        for k in (int(x) for x in args.endgames.split(",")):
            states = [(s, endgame(s, k, mixed)) for s in seeds]
            ended = sum(st.outcome() is not None for _s, st in states)
            live = [(s, st) for s, st in states if st.outcome() is None]
            report(f"endgames, {how}, at most {k} face-down cards left ({ended} lines ended before)",
                   solve_rows(live, args.time_limit), args.time_limit)
    print(f"peak memory (max resident): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    # timings are wall-clock: on a shared machine the load says how far to trust them
    print(f"load average at the end (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
