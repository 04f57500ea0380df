"""The Dungeon's blind policy with rollouts of the value-table rule against the default, whose
rollouts play the baseline (Dungeon.rollout_rule; issue 41), paired on tuning seeds: the same
deals, the same draws, as `solodeck compare` plays them.

    python bench/dungeon_blind.py --seeds 10000-10299 [--distance 3] [--out rows.csv]

Prints each policy's wins with a Wilson interval, the paired counts and the exact McNemar p.
"""
import argparse
import csv
import time

from solodeck.games.dungeon import Dungeon, GAME
from solodeck.solvers.episode import RANK_FIRST_CHOICE, play_episode
from solodeck.solvers.blind import BlindPolicy

from chance_bench import print_paired


class TableRollouts(Dungeon):
    rollout_rule = "table"


def play(game, seed, distance):
    start = time.perf_counter()
    final = play_episode(game.initial_state(game.new_deal(seed, {"distance": distance})),
                         BlindPolicy(game, game.blind_samples), RANK_FIRST_CHOICE)[1]
    return bool(final.outcome() and final.outcome().won), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="10000-10299")
    parser.add_argument("--distance", type=int, default=4)
    parser.add_argument("--out")
    args = parser.parse_args()
    first, last = map(int, args.seeds.split("-"))
    rows = []
    for seed in range(first, last + 1):
        new, new_s = play(TableRollouts(), seed, args.distance)
        old, old_s = play(GAME, seed, args.distance)
        rows.append((seed, new, old, round(new_s, 3), round(old_s, 3)))
        if args.out:
            with open(args.out, "w", newline="") as f:
                csv.writer(f).writerows([("seed", "won_new", "won_old", "seconds_new", "seconds_old")] + rows)
    print_paired("value-table rollouts", "baseline rollouts", [r[1:] for r in rows])

if __name__ == "__main__":
    main()
