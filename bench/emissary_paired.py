"""Two blind runs of The Emissary on the same seeded deals, paired (a script, not a test).

    python bench/emissary_paired.py OLD/deals.csv NEW/deals.csv [--mode blind]

Each file is a `solodeck analyze` deals.csv. The seeds in both are paired: each run's win rate with
its Wilson 95% interval, the deals only one run won, and the exact McNemar p-value (two-sided: a
binomial test with p = 1/2 on those deals). `solodeck compare` does the same while playing; this
reads runs already made (e.g. the committed results/emissary against a newer run on fewer deals).
"""
from __future__ import annotations

import argparse
import csv
import math
import sys

from solodeck.solvers.stats import wilson_interval


def wins(path: str, mode: str) -> dict:
    try:
        with open(path, newline="") as f:
            return {int(r["seed"]): r["verdict"] == "won" for r in csv.DictReader(f) if r["mode"] == mode}
    except (OSError, KeyError, ValueError) as exc:
        sys.exit(f"{path}: expected a solodeck analyze deals.csv (seed, mode, verdict columns): {exc}")


def mcnemar(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p: the chance of a split at least this uneven of the discordant deals."""
    n, k = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--mode", default="blind")
    args = ap.parse_args()
    old, new = wins(args.old, args.mode), wins(args.new, args.mode)
    seeds = sorted(set(old) & set(new))
    if not seeds:
        sys.exit(f"{args.old}, {args.new}: no seed in both ({args.mode} rows)")
    print(f"{len(seeds)} deals in both (seeds {seeds[0]}-{seeds[-1]})")
    for name, run in (("old", old), ("new", new)):
        w = sum(run[s] for s in seeds)
        lo, hi = wilson_interval(w, len(seeds))
        print(f"  {name}: won {w}/{len(seeds)} = {100 * w / len(seeds):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)")
    only_old = sum(old[s] and not new[s] for s in seeds)
    only_new = sum(new[s] and not old[s] for s in seeds)
    print(f"paired: only old won {only_old}, only new won {only_new}; exact McNemar p = {mcnemar(only_old, only_new):.3g}")


if __name__ == "__main__":
    main()
