"""Friends in High Places, open mode: how many whole deals the kernel decides (the fewest turns
proven, or unwinnable) within a time limit, in the four option settings (a script, not a test).

    python bench/friends_in_high_places_proofs.py [--time-limit 10] [--first-seed 0] [--deals 20]
                                                  [--settings "no option,both"]
                                                  [--out results/friends-in-high-places/proofs-10s.jsonl]

One process, one deal at a time: KernelSolver (GAME.fast_solver) at the limit; a row per deal
with its verdict, whether it is exact (decided), the best win's turns and the proven range
[lo, hi] when the limit stopped it (no win before turn lo; the best win found at turn hi).
"""
from __future__ import annotations

import argparse
import json
import statistics

from solodeck.registry import get_game
from solodeck.result import Limits

GAME = get_game("friends-in-high-places")
SETTINGS = [("no option", {}), ("lost-opportunities", {"lost-opportunities": True}),
            ("royal-family", {"royal-family": True}),
            ("both", {"lost-opportunities": True, "royal-family": True})]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--settings", default=",".join(name for name, _ in SETTINGS),
                        help="the option settings to run, comma-separated (default: all four)")
    parser.add_argument("--out", default=None, help="write the rows here (JSON lines)")
    args = parser.parse_args()
    rows = []
    chosen = [s.strip() for s in args.settings.split(",")]
    unknown = [s for s in chosen if s not in dict(SETTINGS)]
    if unknown:
        parser.error(f"--settings: unknown {', '.join(unknown)} (expected some of: "
                     f"{', '.join(name for name, _ in SETTINGS)})")
    for name, options in SETTINGS:
        if name not in chosen:
            continue
        mine = []
        for seed in range(args.first_seed, args.first_seed + args.deals):
            solver = GAME.fast_solver(Limits(time_limit=args.time_limit, memory_mb=512))
            solver.range = None
            result = solver.solve(GAME.initial_state(GAME.new_deal(seed, options)))
            row = {"setting": name, "seed": seed, "verdict": str(result.verdict), "exact": result.exact,
                   "score": result.score, "seconds": round(result.seconds, 2),
                   "range": list(solver.range) if getattr(solver, "range", None) else None}
            mine.append(row)
            print(json.dumps(row), flush=True)
        gaps = [r["range"][1] - r["range"][0] for r in mine if r["range"]]
        print(f"# {name}: {sum(r['exact'] for r in mine)} of {len(mine)} decided within {args.time_limit} s; "
              f"proven range hi - lo: median {statistics.median(gaps) if gaps else '-'}", flush=True)
        rows += mine
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)


if __name__ == "__main__":
    main()
