"""Dungeon crawl: readings that land near the author's "about 5%" (distance 4) and "one time in 10"
(distance 3) (a script, not a test).

    python bench/dungeon_author.py [--deals 5000] [--first-seed 0] [--cuts 8,10,12,15]

The author's figures come from "some rough simulations I ran"; the text does not say how his
simulated player chose, how long a game ran, or where the clock of a new card is centred. Our
baseline (steer the path's end towards K♦) wins about four times his figure. This plays the seeded
deals (``solodeck deal dungeon --seed N``) under our rules (RULINGS, reference engine) with

- the baseline, counting the wins within the first R rounds: a simulation that stops a game after
  R rounds;
- a random player (each decision uniformly among the legal moves, SplitMix64 seeded by the deal's
  seed): a simulated player weaker than the baseline;
- the baseline under another geometry, the clock of each new card centred on the middle of the
  last card (the author asks "does the centre of the clock face have to be in the centre of the
  most recent card?"): a card runs one card length from the middle of the one before (the A♠'s
  middle for the first), so the path advances half a card length a card. Everything else is our
  rules; the engine's geometry functions are swapped for the run (``half_clock``).

Win rates with Wilson 95% intervals.
"""
from __future__ import annotations

import argparse
import time
from contextlib import contextmanager

import solodeck.games.dungeon as dungeon

from solodeck.api import advance_chance
from solodeck.registry import get_game
from solodeck.shuffle import SplitMix64
from solodeck.solvers.stats import wilson_interval

GAME = get_game("dungeon")


def play(state, choose):
    """(won?, the round of the win or None, rounds played): ``choose`` picks each move."""
    state, rounds = advance_chance(state), 0
    while state.outcome() is None:
        move = choose(state)
        rounds += move.kind == "pair"
        state = advance_chance(state.play(move))
    won = state.outcome().won
    return won, rounds if won else None, rounds


@contextmanager
def half_clock():
    """The engine with each card's clock centred on the middle of the last card. Coordinates are
    doubled (the engine's exact form (a + b√3)/2 then holds the half-card steps): a step of the
    path is one unit (half a card), a card is two unit segments from the path's point, K♦ is the
    rectangle x in [-2w, 2w], y in [2d, 2d + 2] (two unit-high rectangles), and the path starts
    at the A♠'s middle, y = -1."""
    saved = dungeon.meets, dungeon.gap, dungeon.ORIGIN
    meets, gap, step, width = dungeon.meets, dungeon.gap, dungeon.step_point, 2 * dungeon.HALF_WIDTH

    def half_meets(start, v, distance, half_width=None):
        return any(meets(s, v, d, width) for s in (start, step(start, v)) for d in (2 * distance, 2 * distance + 1))

    def half_gap(point, distance, half_width=None):
        return min(gap(point, d, float(width)) for d in (2 * distance, 2 * distance + 1))

    dungeon.meets, dungeon.gap, dungeon.ORIGIN = half_meets, half_gap, (0, 0, -2, 0)
    try:
        # eight queens reach K♦ at distance 4 (the last from y = 3 to 4, on its bottom edge), not seven
        points = dungeon.path_points([12] * 7)
        assert half_meets(points[-1], 12, 4) and not half_meets(points[-2], 12, 4)
        yield
    finally:
        dungeon.meets, dungeon.gap, dungeon.ORIGIN = saved


def random_chooser(seed):
    rng = SplitMix64(seed)

    def choose(state):
        moves = state.legal_moves()
        return moves[rng.below(len(moves))]
    return choose


def rate(wins, n):
    low, high = wilson_interval(wins, n)
    return f"{wins / n:6.1%} ({low:.1%}-{high:.1%}; {wins} of {n})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--cuts", type=lambda t: [int(x) for x in t.split(",") if x], default=[8, 10, 12, 15])
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.deals)
    print(f"seeds {seeds[0]}..{seeds[-1]}")
    for distance in (4, 3):
        start = time.perf_counter()
        deals = [GAME.new_deal(seed, {"distance": distance}) for seed in seeds]
        base = [play(GAME.initial_state(deal), GAME.baseline_move) for deal in deals]
        rand = [play(GAME.initial_state(deal), random_chooser(seed)) for seed, deal in zip(seeds, deals)]
        with half_clock():
            half = [play(GAME.initial_state(deal), GAME.baseline_move) for deal in deals]
        n = len(seeds)
        print(f"\ndistance {distance} ({time.perf_counter() - start:.0f} s)")
        for name, rows in (("baseline", base), ("random player", rand), ("baseline, half-card clock", half)):
            wins = sorted(r[1] for r in rows if r[0])
            median = f"; its wins come in a median round {wins[len(wins) // 2]}" if wins else ""
            print(f"  {name}, whole games: {rate(len(wins), n)}{median}")
            for cut in args.cuts if rows is base else ():
                print(f"  {name}, cut after {cut:2} rounds: {rate(sum(r[0] and r[1] <= cut for r in rows), n)}")

if __name__ == "__main__":
    main()
