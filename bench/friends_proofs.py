"""Friends in High Places, open mode: on how many deals the kernel proves the fewest turns within a
time limit (issue 52), per option setting; one process, one deal at a time (a script, not a test).

    python bench/friends_proofs.py [--time-limit 10] [--sample results/friends-in-high-places/proofs-10s.jsonl]
                                   [--out rows.jsonl] [--compare before.jsonl]

--sample reruns the (setting, seed) pairs of a rows file (default: seeds 0-49 with no option, 0-19
with each option). A row per deal: verdict, exact (the fewest turns proven), score, wall and CPU
seconds, nodes and the proven range [lo, hi]. --compare prints the paired counts against an
earlier rows file of the same deals.
"""
from __future__ import annotations

import argparse
import json
import time

from solodeck.registry import get_game
from solodeck.result import Limits

GAME = get_game("friends-in-high-places")
OPTIONS = {"no option": {}, "lost-opportunities": {"lost-opportunities": True},
           "royal-family": {"royal-family": True}, "both": {"lost-opportunities": True, "royal-family": True}}


def sample(path):
    if path is None:
        return [(name, seed) for name in OPTIONS for seed in range(50 if name == "no option" else 20)]
    return [(row["setting"], row["seed"]) for row in map(json.loads, open(path))]


def solve(setting, seed, time_limit):
    solver = GAME.fast_solver(Limits(time_limit=time_limit, memory_mb=512))
    cpu = time.process_time()
    result = solver.solve(GAME.initial_state(GAME.new_deal(seed, OPTIONS[setting])))
    return {"setting": setting, "seed": seed, "verdict": str(result.verdict), "exact": result.exact,
            "score": result.score, "seconds": round(result.seconds, 2),
            "cpu": round(time.process_time() - cpu, 2), "nodes": result.nodes,
            "range": list(solver.range) if solver.range else None}


def compare(before_path, rows):
    before = {(r["setting"], r["seed"]): r for r in map(json.loads, open(before_path))}
    pairs = [(before[(r["setting"], r["seed"])]["exact"], r["exact"]) for r in rows
             if (r["setting"], r["seed"]) in before]
    both = sum(b and a for b, a in pairs)
    print(f"# paired on {len(pairs)} deals: proven before {sum(b for b, _ in pairs)}, after "
          f"{sum(a for _, a in pairs)}; both {both}, only after {sum(a and not b for b, a in pairs)}, "
          f"only before {sum(b and not a for b, a in pairs)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--sample", default=None, help="rerun the (setting, seed) pairs of this rows file")
    parser.add_argument("--out", default=None, help="write the rows here (JSON lines)")
    parser.add_argument("--compare", default=None, help="paired counts against this rows file")
    args = parser.parse_args()
    out = open(args.out, "w") if args.out else None
    rows = []
    for setting, seed in sample(args.sample):
        row = solve(setting, seed, args.time_limit)
        rows.append(row)
        print(json.dumps(row), flush=True)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    for setting in OPTIONS:
        mine = [r for r in rows if r["setting"] == setting]
        if mine:
            print(f"# {setting}: the fewest turns proven for {sum(r['exact'] for r in mine)} of {len(mine)} "
                  f"within {args.time_limit} s", flush=True)
    print(f"# all: {sum(r['exact'] for r in rows)} of {len(rows)}")
    if args.compare:
        compare(args.compare, rows)


if __name__ == "__main__":
    main()
