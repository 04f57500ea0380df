"""Friends in High Places, open mode: how many whole deals the kernel decides (the fewest turns
proven, or unwinnable) within a time limit, in the four option settings (a script, not a test).

    python bench/friends_in_high_places_proofs.py [--time-limit 10] [--first-seed 0] [--deals 20]
                                                  [--settings "no option,both"]
                                                  [--out results/friends-in-high-places/proofs-10s.jsonl]
    python bench/friends_in_high_places_proofs.py --unknown-in results/friends-in-high-places

With --unknown-in, only the deals whose verdict a committed 1,000-deal open run (its open-<setting>/
deals.csv) left unknown are run, and it prints how many deals of that run have their verdict
(winnable or unwinnable) decided within the limit: the run's decided deals (decided within its own,
shorter limit) plus those the rerun decides.

One process, one deal at a time: KernelSolver (GAME.fast_solver) at the limit; a row per deal
with its verdict, whether it is exact (decided), the best win's turns and the proven range
[lo, hi] when the limit stopped it (no win before turn lo; the best win found at turn hi).
"""
from __future__ import annotations

import argparse
import csv
import json
import statistics
from pathlib import Path

from solodeck.registry import get_game
from solodeck.result import Limits

GAME = get_game("friends-in-high-places")
FOLDERS = {"no option": "open-none", "lost-opportunities": "open-lost-opportunities",
           "royal-family": "open-royal-family", "both": "open-both"}
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
    parser.add_argument("--unknown-in", metavar="FOLDER", default=None,
                        help="run only the deals left unknown by FOLDER/open-<setting>/deals.csv "
                             "(instead of --first-seed/--deals) and count the verdicts decided")
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
        if args.unknown_in:
            run = read_run(parser, Path(args.unknown_in) / FOLDERS[name] / "deals.csv")
            seeds = [seed for seed, verdict in run if verdict == "unknown"]
        else:
            seeds = range(args.first_seed, args.first_seed + args.deals)
        for seed in seeds:
            solver = GAME.fast_solver(Limits(time_limit=args.time_limit, memory_mb=512))
            result = solver.solve(GAME.initial_state(GAME.new_deal(seed, options)))
            row = {"setting": name, "seed": seed, "verdict": str(result.verdict), "exact": result.exact,
                   "score": result.score, "seconds": round(result.seconds, 2),
                   "range": list(solver.range) if solver.range else None}
            mine.append(row)
            print(json.dumps(row), flush=True)
        if args.unknown_in:
            decided = len(run) - len(seeds) + sum(r["verdict"] != "unknown" for r in mine)
            print(f"# {name}: verdict decided for {decided} of {len(run)} deals ({len(run) - len(seeds)} by the "
                  f"run, {len(seeds)} rerun at {args.time_limit} s)", flush=True)
        gaps = [r["range"][1] - r["range"][0] for r in mine if r["range"]]
        if mine:
            print(f"# {name}: the fewest turns proven (decided) for {sum(r['exact'] for r in mine)} of {len(mine)} "
                  f"within {args.time_limit} s; proven range hi - lo: median "
                  f"{statistics.median(gaps) if gaps else '-'}", flush=True)
        rows += mine
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)


def read_run(parser, path):
    """(seed, verdict) of each deal of an open run's deals.csv."""
    try:
        with open(path, newline="") as f:
            return [(int(row["seed"]), row["verdict"]) for row in csv.DictReader(f) if row["mode"] == "open"]
    except (OSError, KeyError, ValueError) as error:
        parser.error(f"--unknown-in: {path}: not an open run's deals.csv ({error})")


if __name__ == "__main__":
    main()
