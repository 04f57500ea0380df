"""Benchmark: what proving an Area 52 deal's best score costs (a script, not a test; whole deals
and blind play: `python bench/run.py area-52`).

    python bench/area52.py [--deals 2,0] [--above 3,2,1] [--max-nodes 300000000]

For each deal: the best line the open solver finds (`solodeck solve`'s pipeline, 10 s), then the
kernel's branch and bound from below asked "a win above T?" for T = the line's score plus each of
--above, down to the line itself, each from a fresh table and stopped at --max-nodes. Per
question: settled or not, nodes, positions stored, wave-1 endings met (each its own wave-2 deck),
seconds, nodes per second, and the process's peak memory. The nodes are the machine-independent
figure; the seconds depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import resource
import time

from solodeck.api import advance_chance
from solodeck.games.area52.search import WIN, exact_search
from solodeck.registry import get_game
from solodeck.solvers import Limits, make_solver

GAME = get_game("area-52")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="2,0", help="seeds, comma-separated (default 2,0)")
    parser.add_argument("--above", default="3,2,1", help="how far above the best line each question asks")
    parser.add_argument("--max-nodes", type=int, default=300_000_000, help="each question's node budget")
    parser.add_argument("--memory-mb", type=float, default=4000.0, help="each question's table memory")
    args = parser.parse_args()
    kernel = GAME.load_kernel()
    if kernel is None:
        raise SystemExit("bench/area52.py needs the compiled kernel (pip install -e .)")
    for seed in (int(s) for s in args.deals.split(",")):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        found = make_solver(GAME, Limits(time_limit=10.0)).solve(state)
        print(f"deal {seed}: best line {found.score}, proven at most {found.score_bound}", flush=True)
        for above in sorted((int(a) for a in args.above.split(",")), reverse=True):
            target = found.score + above
            search = exact_search(kernel, state, args.memory_mb)
            start = time.perf_counter()
            value = search.prove_above(WIN + target, args.max_nodes)
            seconds = time.perf_counter() - start
            answer = "not settled" if value is None else (
                f"no win above {target}" if value == WIN + target else f"a win of {value - WIN}")
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"  a win above {target}? {answer}: {search.nodes:,} nodes, {search.stored:,} stored, "
                  f"{search.endings:,} endings, {seconds:.1f} s, {search.nodes / max(seconds, 1e-9) / 1e6:.1f} M nodes/s, "
                  f"peak {peak:.0f} MB", flush=True)
            if value is not None and value > WIN + target:
                break


if __name__ == "__main__":
    main()
