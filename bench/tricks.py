"""Benchmark of the paranoid search of the Foresight deck's trick games (ext/tricks.pyx, with
solvers/paranoid.py as the reference): Foresight and Heartburn.

For each game and hand size (cards a seat still holds, at a trick boundary of a seeded deal played
at random down to that size; 13 is the whole hand as dealt, 4 players), the time of one table
(every seat's guarantee; Foresight under the dealt trump, Holes as dealt), how many tables were
decided within the limit per seat, nodes per second and peak memory; and the kernel against the
pure-Python reference on small positions.

    python bench/tricks.py                      # the committed results/tricks-bench.txt
    python bench/tricks.py --deals 3 --limit 2  # quicker
    python bench/tricks.py --without skip_small # a lever of the kernel (Search.features) switched off
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from solodeck.games.tricks.search import KernelParanoid
from solodeck.registry import get_game
from solodeck.result import Limits
from solodeck.solvers.paranoid import ParanoidSolver


def position(game, seed, players, per_seat):
    deal = game.new_deal(seed, {"players": players})
    st = game.initial_state(deal, exchange=False) if game.name == "foresight" else game.initial_state(deal)
    rng = random.Random(seed)
    while st.cards_left() > per_seat * players or st.trick:
        st = st.play(rng.choice(st.legal_moves()))
    return st


def table(solver, st):
    start = time.perf_counter()
    values = [solver.value(st, seat) for seat in range(st.rules.seats)]
    return values, time.perf_counter() - start


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=8, help="deals per hand size (whole hands: half as many)")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per seat's search (default 10)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--sizes", default="4,6,8,10,13", help="cards a seat holds (13: the whole hand)")
    ap.add_argument("--games", default="foresight,heartburn")
    ap.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    ap.add_argument("--memory", type=float, default=512, help="MB of table per search (default 512)")
    ap.add_argument("--without", default="", help="the kernel's features (Search.features) to switch off, by name")
    ap.add_argument("--nodes", type=float, default=0, help="nodes per seat's search instead of seconds (the "
                    "machine's load leaves it alone; e.g. 2.4e6, about 1 s on a quiet machine)")
    ap.add_argument("--no-check", action="store_true", help="skip the kernel against the reference")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for name in args.games.split(","):
        game = get_game(name)
        kernel = game.load_kernel()
        print(f"== {game.title}: {args.players} players, kernel {'built' if kernel else 'NOT built'}, "
              f"{args.limit:g} s per seat" + (f", {args.nodes:,.0f} nodes per seat" if args.nodes else ""))
        off = [name for name in args.without.split(",") if name]
        print(f"{'cards':>5} {'deals':>5} {'decided':>8} {'median s':>9} {'p95 s':>7} {'max s':>7} {'nodes/s':>10} "
              f"{'nodes':>13} {'seats':>7}" + (f"  without {','.join(off)}" if off else ""))
        for size in sizes:
            deals = args.deals if size < 13 else max(1, args.deals // 2)
            times, decided, nodes, spent, seats, seats_decided = [], 0, 0, 0.0, 0, 0
            for seed in range(args.first, args.first + deals):
                st = position(game, seed, args.players, size)
                solver = KernelParanoid(kernel, Limits(time_limit=args.limit, memory_mb=args.memory)) if kernel else \
                    ParanoidSolver(Limits(time_limit=args.limit))
                for name in off:
                    solver.search.features &= ~kernel.FEATURES[name]
                if args.nodes:
                    solver.search.node_limit = int(args.nodes)
                values, seconds = table(solver, st)
                times.append(seconds)
                decided += None not in values
                seats += len(values)
                seats_decided += sum(v is not None for v in values)
                nodes += solver.nodes
                spent += seconds
            print(f"{size:>5} {deals:>5} {decided:>4}/{deals:<3} {statistics.median(times):>9.3f} "
                  f"{percentile(times, 0.95):>7.2f} {max(times):>7.2f} {nodes / spent:>10,.0f} {nodes:>13,} {seats_decided:>3}/{seats:<3}", flush=True)
        if kernel and not args.no_check:
            st_times = {"kernel": 0.0, "reference": 0.0}
            for seed in range(args.deals):
                st = position(game, seed, args.players, 4)
                for label, solver in (("kernel", KernelParanoid(kernel, Limits())), ("reference", ParanoidSolver())):
                    values, seconds = table(solver, st)
                    st_times[label] += seconds
            print(f"kernel against reference, {args.deals} tables of 4 cards a seat: "
                  f"{st_times['kernel']:.3f} s against {st_times['reference']:.3f} s "
                  f"({st_times['reference'] / max(st_times['kernel'], 1e-9):.0f}x)")
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
