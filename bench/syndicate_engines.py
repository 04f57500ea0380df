"""Benchmark: the exact search against the CP-SAT model, and who wins the race (a script).

    python bench/syndicate_engines.py --deals 10 [--first-seed 0] [--puzzles] [--time-limit 120] [--jobs 2]

For each deal (seeds first..first+N-1, then with --puzzles every file in puzzles/syndicate/):
the search's time (the compiled kernel when built), CP-SAT's time with --jobs workers, whether
they agree, and the winner of an actual race (`solve --engine race`). Then how often each engine
won the race, and the deals where CP-SAT was faster.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solodeck.deals import load_deal
from solodeck.encodings import cpsat_solver
from solodeck.registry import get_game
from solodeck.solvers import Limits, make_solver
from solodeck.solvers.portfolio import race

GAME = get_game("syndicate")
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "syndicate"


def describe(result):
    score = "" if result.score is None else f" {result.score}"
    exact = "" if result.exact else f" ({result.status})"
    return f"{result.verdict}{score}{exact}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--puzzles", action="store_true", help="also every deal file in puzzles/syndicate/")
    parser.add_argument("--time-limit", type=float, default=120.0, help="per engine and deal")
    parser.add_argument("--jobs", type=int, default=2, help="CP-SAT worker threads")
    args = parser.parse_args(argv)
    limits = Limits(time_limit=args.time_limit)
    cases = [(f"seed {s}", GAME.initial_state(GAME.new_deal(s)))
             for s in range(args.first_seed, args.first_seed + args.deals)]
    if args.puzzles:
        cases += [(path.stem, GAME.initial_state(load_deal(path))) for path in sorted(PUZZLES.glob("*.toml"))]
    wins, cpsat_faster, disagreements = {}, [], []
    print(f"{'deal':<18}{'search':<26}{'s':>9}  {'cp-sat':<26}{'s':>8}  race winner")
    for name, state in cases:
        search = make_solver(GAME, limits).solve(state)
        model = cpsat_solver(GAME, limits, args.jobs).solve(state)
        winner = race(GAME, {"search": lambda: make_solver(GAME, limits),
                       "cpsat": lambda: cpsat_solver(GAME, limits, args.jobs)}, state)
        wins[winner.engine] = wins.get(winner.engine, 0) + 1
        if model.exact and (not search.exact or model.seconds < search.seconds):
            cpsat_faster.append(name)
        if search.exact and model.exact and (search.verdict, search.score) != (model.verdict, model.score):
            disagreements.append(name)
        print(f"{name:<18}{describe(search):<26}{search.seconds:>9.4f}  {describe(model):<26}"
              f"{model.seconds:>8.2f}  {winner.engine}{'' if winner.exact else ' (inexact)'}", flush=True)
    print(f"\n{len(cases)} deals; race won by: {', '.join(f'{k} {v}' for k, v in sorted(wins.items()))}")
    print(f"CP-SAT faster on: {', '.join(cpsat_faster) or 'none'}")
    print(f"disagreements: {', '.join(disagreements) or 'none'}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
