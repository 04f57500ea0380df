"""Hide and Seek: the blind policy's settings against the rule alone, paired on the same deals.

    python bench/hide_and_seek_blind.py --seeds 10000-10199 --samples 32 --moves 12 [--adaptive] [--keeps-rule]

Plays the blind policy (rollouts of the blind rule, solvers/rollouts.py) with the given
samples per move, candidate moves (Game.rollout_moves) and allocation, and the rule alone, on
each seed; prints both win rates, the paired counts, the exact McNemar p and the median seconds a
deal of the blind policy. Tune on seeds 10000 and up only.
"""
import argparse
import statistics
import time

from solodeck.compare import mcnemar_p
from solodeck.games.hide_and_seek import GAME
from solodeck.solvers.episode import RANK_FIRST_CHOICE, play_episode
from solodeck.solvers.blind import policy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="10000-10199")
    parser.add_argument("--samples", type=int, default=GAME.blind_samples)
    parser.add_argument("--moves", type=int, default=GAME.rollout_moves)
    parser.add_argument("--adaptive", action="store_true")
    parser.add_argument("--keeps-rule", action="store_true")
    args = parser.parse_args()
    first, last = map(int, args.seeds.split("-"))
    GAME.rollout_moves = args.moves
    GAME.rollout_adaptive = args.adaptive
    GAME.rollout_keeps_rule = args.keeps_rule
    won = {"blind": [], "rule": []}
    seconds = []
    for seed in range(first, last + 1):
        deal = GAME.new_deal(seed)
        for name in won:
            start = time.perf_counter()
            _decisions, final = play_episode(GAME.initial_state(deal), policy(GAME, name, args.samples),
                                             RANK_FIRST_CHOICE)
            if name == "blind":
                seconds.append(time.perf_counter() - start)
            won[name].append(final.outcome().won)
    pairs = list(zip(won["blind"], won["rule"]))
    only_blind = sum(a and not b for a, b in pairs)
    only_rule = sum(b and not a for a, b in pairs)
    n = len(pairs)
    print(f"samples {args.samples} moves {args.moves} adaptive {args.adaptive} keeps_rule {args.keeps_rule}: "
          f"blind {sum(won['blind'])}/{n}, rule {sum(won['rule'])}/{n}, only blind {only_blind}, "
          f"only rule {only_rule}, p {mcnemar_p(only_blind, only_rule):.3g}, "
          f"median {statistics.median(seconds):.2f} s a deal")


if __name__ == "__main__":
    main()
