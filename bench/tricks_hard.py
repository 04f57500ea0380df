"""One hard search of ext/tricks.pyx at a time (issue 43's levers, measured on their own): a seat's
value, or one null-window test "at least t?", at a seeded deal played at random down to some
cards a seat (13: the whole hand as dealt; Foresight under the dealt trump, Holes as dealt, no
exchange). Prints the nodes, the seconds and the answer, with each lever off in turn if asked.

    python bench/tricks_hard.py --seed 1 --seat 1                       # whole hand, seat 1's value
    python bench/tricks_hard.py --seed 2 --seat 2 --test 1 --limit 60   # "at least 1?"
    python bench/tricks_hard.py --seed 1 --seat 1 --without skip_small,dir_ways,their_entry
"""
from __future__ import annotations

import argparse
import time

from bench.tricks import position
from solodeck.games.foresight import HEARTBURN_RANGE
from solodeck.registry import get_game


def run(kernel, st, seat, test, limit, memory, features):
    search = kernel.Search(memory, limit, 0)
    search.features = features
    r = st.rules
    low, high = (test - 1, test) if test is not None else (st.seat_bounds(seat) or HEARTBURN_RANGE)
    start = time.perf_counter()
    v = search.value(r.seats, r.trump, r.hearts, list(st.hands), list(st.holes), st.leader, list(st.trick),
                     list(st.taken), list(st.tricks), st.broken, st.first, seat, low, high)
    seconds = time.perf_counter() - start
    if v is not None and test is not None:
        v = "yes" if v >= test else "no"
    return v, search.nodes, seconds, (search.proven_low, search.proven_high)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="foresight")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seat", type=int, default=1, help="1-based")
    ap.add_argument("--cards", type=int, default=13, help="cards a seat (13: the whole hand)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--test", type=int, default=None, help='one null-window test: "at least TEST?"')
    ap.add_argument("--limit", type=float, default=60.0, help="seconds (default 60)")
    ap.add_argument("--memory", type=float, default=512.0, help="MB of table (default 512)")
    ap.add_argument("--without", default="", help="features to switch off, by name; each alone with --each")
    ap.add_argument("--each", action="store_true", help="each feature of --without off on its own, then none")
    args = ap.parse_args()
    game = get_game(args.game)
    kernel = game.load_kernel()
    st = position(game, args.seed, args.players, args.cards)
    off = [name for name in args.without.split(",") if name]
    runs = [[name] for name in off] + [[]] if args.each else [off]
    for names in runs:
        features = kernel.FEATURES_ALL
        for name in names:
            features &= ~kernel.FEATURES[name]
        v, nodes, seconds, proven = run(kernel, st, args.seat - 1, args.test, args.limit, args.memory, features)
        print(f"{game.name} seed {args.seed} seat {args.seat} cards {args.cards}"
              f"{'' if args.test is None else f' at least {args.test}?'}: {v} ({'' if v is not None else f'proven {proven}, '}"
              f"{nodes:,} nodes, {seconds:.2f} s) without {','.join(names) or 'nothing'}", flush=True)


if __name__ == "__main__":
    main()
