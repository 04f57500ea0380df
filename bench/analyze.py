"""Benchmark: `solodeck analyze` throughput with 1 and with J workers on the same deals (a script).

    python bench/analyze.py [--game foursquare] [--mode blind] [--deals 40] [--jobs 2] [--dask]

Runs the same seeded deals through the analysis engine once with one worker (in this process)
and once with J: the local process pool, or with --dask a Dask LocalCluster of J one-thread
worker processes (the path `--scheduler` takes). Prints deals per second and the speed-up, and
checks that both runs produced the same rows. The rows go to a temporary folder.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from solodeck.analysis import Settings, analyze, read_rows


def timed(settings, seeds, out, **engine):
    start = time.perf_counter()
    analyze(settings, seeds, out, progress=False, **engine)
    return time.perf_counter() - start, read_rows(out / "deals.csv")


def same_rows(a, b):
    def strip(rows):
        return sorted((r["seed"], r["mode"], r["verdict"], r["score"]) for r in rows)
    return strip(a) == strip(b)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="foursquare")
    parser.add_argument("--mode", choices=["open", "blind"], default="blind")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dask", action="store_true", help="J workers on a Dask LocalCluster")
    args = parser.parse_args()
    settings = Settings(args.game, [args.mode])
    seeds = range(args.first_seed, args.first_seed + args.deals)
    with tempfile.TemporaryDirectory() as tmp:
        one_s, one = timed(settings, seeds, Path(tmp) / "one")
        if args.dask:
            from dask.distributed import LocalCluster

            with LocalCluster(n_workers=args.jobs, threads_per_worker=1, dashboard_address=None) as cluster:
                many_s, many = timed(settings, seeds, Path(tmp) / "many", scheduler=cluster.scheduler_address)
            engine = f"Dask LocalCluster, {args.jobs} workers"
        else:
            many_s, many = timed(settings, seeds, Path(tmp) / "many", jobs=args.jobs)
            engine = f"process pool, {args.jobs} workers"
    print(f"{args.game} {args.mode}, seeds {seeds.start}..{seeds.stop - 1}")
    print(f"  1 worker (in process): {one_s:7.2f} s  {args.deals / one_s:7.2f} deals/s")
    print(f"  {engine}: {many_s:7.2f} s  {args.deals / many_s:7.2f} deals/s  speed-up {one_s / many_s:.2f}x")
    print(f"  same rows: {'yes' if same_rows(one, many) else 'NO'}")


if __name__ == "__main__":
    main()
