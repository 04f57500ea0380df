"""Boba: two settings of the blind policy, paired on the same deals (a script, not a test).

    python bench/boba_blind.py --seeds 10100-10199 --a 2,128,equal --b 4,64,adaptive

A setting is CANDIDATES,SAMPLES,ALLOCATION: how many of the rule's best targets the kernel's
rollouts value (boba.ROLLOUT_CANDIDATES), rollouts per move, and "equal" or "adaptive"
(sequential halving, solvers/rollouts.py halving_stats). Prints each win rate, the paired
counts, the exact McNemar p and the median seconds a deal; tune only on seeds >= 10000.
"""
from __future__ import annotations

import argparse
import time

import solodeck.games.boba as boba
from solodeck.registry import get_game
from solodeck.solvers.episode import RANK_FIRST_CHOICE, play_episode
from solodeck.solvers.blind import BlindPolicy

from chance_bench import print_paired

GAME = get_game("boba")


def play(setting, seed):
    candidates, samples, allocation = setting
    boba.ROLLOUT_CANDIDATES = candidates
    start = time.perf_counter()
    policy = BlindPolicy(GAME, samples, adaptive=allocation == "adaptive")
    _decisions, final = play_episode(GAME.initial_state(GAME.new_deal(seed)), policy, RANK_FIRST_CHOICE)
    outcome = final.outcome()
    return outcome is not None and outcome.won, time.perf_counter() - start


def parse_setting(text):
    candidates, samples, allocation = text.split(",")
    assert allocation in ("equal", "adaptive")
    return int(candidates), int(samples), allocation


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", required=True, help="FIRST-LAST")
    parser.add_argument("--a", type=parse_setting, required=True)
    parser.add_argument("--b", type=parse_setting, required=True)
    args = parser.parse_args()
    first, last = map(int, args.seeds.split("-"))
    rows = []
    for seed in range(first, last + 1):
        (won_a, secs_a), (won_b, secs_b) = play(args.a, seed), play(args.b, seed)
        rows.append((won_a, won_b, secs_a, secs_b))
        print(f"{seed} {int(won_a)} {int(won_b)} {secs_a:.2f} {secs_b:.2f}", flush=True)
    print_paired(f"A {args.a}", f"B {args.b}", rows)

if __name__ == "__main__":
    main()
