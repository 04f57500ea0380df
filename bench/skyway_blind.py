"""Skyway: a blind policy setting played on seeded deals, one row per deal, and paired comparisons
of two such runs.

    python bench/skyway_blind.py run --seeds 10000-10199 --samples 32 --out A.csv
    python bench/skyway_blind.py pair A.csv B.csv

``run`` plays the blind policy (solvers/rollouts.py) with the given rollouts a move and allocation
(--adaptive: sequential halving) and, with --no-exact, without the exact blind values of the last two
turns (LastTurnValuer: rollouts alone, the policy before issue 41), appending
seed,won,score,seconds rows as deals finish (a rerun skips the seeds already there). ``pair``
prints both win rates on their common seeds, the paired counts and the exact McNemar p, and each
run's median seconds a deal. Tune on seeds 10000 and up only.
"""
import argparse
import csv
import statistics
import time
from pathlib import Path

from solodeck.compare import mcnemar_p
from solodeck.games.skyway import GAME
from solodeck.solvers.episode import RANK_FIRST_CHOICE, play_episode
from solodeck.solvers.blind import BlindPolicy
from solodeck.solvers.stats import wilson_interval


def private_kernel():
    """The kernel as built now, loaded from a private copy: a rebuild while a run goes on leaves it alone."""
    import importlib.util
    import shutil
    import tempfile

    import solodeck.ext.skyway as built

    folder = tempfile.mkdtemp(prefix="skyway-kernel-")
    path = shutil.copy(built.__file__, folder)
    spec = importlib.util.spec_from_file_location("skyway", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(args):
    kernel = private_kernel()
    GAME.load_kernel = lambda: kernel
    if args.no_exact:
        GAME.fast_expectimax = lambda limits: None
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {int(r["seed"]) for r in csv.DictReader(out.open())}
    else:
        out.write_text("seed,won,score,seconds\n")
    first, last = map(int, args.seeds.split("-"))
    for seed in range(first, last + 1):
        if seed in done:
            continue
        start = time.perf_counter()
        chooser = BlindPolicy(GAME, args.samples, adaptive=args.adaptive)
        _decisions, final = play_episode(GAME.initial_state(GAME.new_deal(seed)), chooser, RANK_FIRST_CHOICE)
        outcome = final.outcome()
        with out.open("a") as f:
            f.write(f"{seed},{int(outcome.won)},{outcome.score},{time.perf_counter() - start:.3f}\n")


def pair(args):
    runs = [{int(r["seed"]): r for r in csv.DictReader(open(path))} for path in (args.a, args.b)]
    seeds = sorted(set(runs[0]) & set(runs[1]))
    won = [[runs[k][s]["won"] == "1" for s in seeds] for k in (0, 1)]
    n = len(seeds)
    for k, path in enumerate((args.a, args.b)):
        wins = sum(won[k])
        lo, hi = wilson_interval(wins, n)
        secs = statistics.median(float(runs[k][s]["seconds"]) for s in seeds)
        print(f"{'AB'[k]} {path}: {wins}/{n} = {100 * wins / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%), "
              f"median {secs:.2f} s a deal")
    only_a = sum(a and not b for a, b in zip(*won))
    only_b = sum(b and not a for a, b in zip(*won))
    both = sum(a and b for a, b in zip(*won))
    print(f"seeds {seeds[0]}-{seeds[-1]}: both {both}, only A {only_a}, only B {only_b}, "
          f"neither {n - both - only_a - only_b}, McNemar p {mcnemar_p(only_a, only_b):.3g}")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--seeds", default="10000-10199")
    r.add_argument("--samples", type=int, default=GAME.blind_samples)
    r.add_argument("--no-exact", action="store_true")
    r.add_argument("--adaptive", action="store_true")
    r.add_argument("--out", required=True)
    p = sub.add_parser("pair")
    p.add_argument("a")
    p.add_argument("b")
    args = parser.parse_args()
    run(args) if args.command == "run" else pair(args)


if __name__ == "__main__":
    main()
