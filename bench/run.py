"""The benchmark of every game, in one format (a script, not a test).

    python bench/run.py --list                  # the games, their settings, the deeper benchmarks
    python bench/run.py boba --quick            # a minute or less: a few deals of each part
    python bench/run.py skyway                  # the full run of one game
    python bench/run.py all --quick             # every game
    python bench/run.py dungeon --option distance=3 --open-deals 100 --blind-deals 0

For a game, on seeded deals 0..N-1 (the published deals; nothing here tunes anything):

- **open**: the game's exact engine (solvers.make_solver: its kernel when built) on whole deals,
  each under a time limit: how many it proved exactly (verdict and best score) and how many it
  found a win for, the median and 95th-percentile seconds a deal,
  nodes per second, and the process's peak memory (resident set: the kernels' tables are C memory
  that Python's allocator never sees). Games of several players: every seat's guarantee
  (Game.hand_report), counted by cells decided.
- **blind**: the baseline policy and the blind policy on the same deals (solodeck compare's
  play_deal, the same deals and draws): each win rate with its Wilson 95% interval, the deals
  only one won, the exact McNemar p, and the median seconds a game of each.

Timings depend on the machine and its load: the header says what ran where; quote them with it.
The deeper benchmarks of one game (the exact frontier of Skyway's endgames, the trick kernel's
levers) are their own scripts, listed by --list.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import sys
import time
from dataclasses import dataclass

from solodeck.cli import option_value
from solodeck.errors import SolodeckError
from solodeck.compare import Comparison, play_deal, summarize
from solodeck.registry import GAMES, get_game
from solodeck.result import Limits
from solodeck.solvers import make_solver


@dataclass(frozen=True)
class Budget:
    """How much of a game one run plays: (full, quick) counts, and the open engine's limit a deal."""

    open_deals: tuple = (20, 3)
    blind_deals: tuple = (20, 3)
    seconds: tuple = (10.0, 2.0)  # the open engine's time limit a deal (full, quick)


# Games whose deals or games cost far more or far less than the default: what a run can afford.
BUDGETS = {
    "syndicate": Budget(open_deals=(10, 2), seconds=(60.0, 10.0)),
    "area-52": Budget(seconds=(2.0, 1.0)),
    "skyway": Budget(seconds=(2.0, 1.0)),
    "loot-the-loop": Budget(seconds=(2.0, 1.0)),
    "boba": Budget(open_deals=(100, 10), blind_deals=(100, 6)),
    "sandwich-guy": Budget(open_deals=(100, 10), blind_deals=(100, 10), seconds=(5.0, 2.0)),
    "foursquare": Budget(seconds=(5.0, 2.0)),
    "emissary": Budget(open_deals=(100, 10), blind_deals=(20, 2)),
    "frozen-novelty": Budget(blind_deals=(10, 1)),
    "foresight": Budget(open_deals=(5, 1), seconds=(60.0, 5.0)),
    "heartburn": Budget(open_deals=(5, 1), seconds=(60.0, 5.0)),
    "bourbon": Budget(open_deals=(10, 2), seconds=(10.0, 2.0)),
}
DEEPER = {
    "bench/area52.py": "Area 52: what proving a deal's best score costs, question by question (nodes, endings)",
    "bench/skyway.py": "Skyway: the exact frontier of endgames (search, kernel, CP-SAT) and whole deals",
    "bench/tricks.py": "Foresight, Heartburn: the trick kernel's time per table by hand size, levers on and off",
    "bench/friends_proofs.py": "Friends in High Places: deals whose fewest turns are proven within a time limit, paired",
    "bench/readme_examples.py": "every command of README.md's Examples, timed (not a benchmark of a game)",
}


def peak_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def open_part(game, options: dict, deals: int, seconds: float) -> str:
    """Whole deals by the game's exact engine (several players: every seat's guarantee)."""
    decided = nodes = cells = won = 0
    times = []
    for seed in range(deals):
        deal = game.new_deal(seed, options)
        state = game.initial_state(deal)
        start = time.perf_counter()
        if game.several_players:
            solver = game.solver(Limits(time_limit=seconds))
            _lines, data = game.hand_report(deal, state, solver)
            # every seat's value ("values"; Bourbon: seat 0's "value"; Foresight: a "table" by trump)
            values = ([v for row in data["table"].values() for v in row] if "table" in data
                      else data.get("values", [data.get("value")]))
            decided += sum(v is not None for v in values)
            cells += len(values)
            nodes += solver.nodes
        else:
            result = make_solver(game, Limits(time_limit=seconds)).solve(state)
            decided += result.exact
            won += result.verdict == "winnable"
            nodes += result.nodes
        times.append(time.perf_counter() - start)
    total = sum(times)
    what = (f"{decided}/{cells} seat values decided ({seconds:g} s a search)" if game.several_players
            else f"{decided}/{deals} deals proven exact, {won} won ({seconds:g} s a deal)")
    return (f"open   {what} · median {statistics.median(times):.3f} s, "
            f"p95 {percentile(times, 0.95):.3f} s a deal · {nodes / total if total else 0:,.0f} nodes/s · "
            f"peak {peak_mb():.0f} MB")


def blind_part(game, options: dict, deals: int, samples: int | None) -> list:
    """The baseline and the blind policy on the same deals, paired."""
    comparison = Comparison(game.name, ["baseline", "blind"], samples, options)
    rows = [play_deal(comparison, seed) for seed in range(deals)]
    summary = summarize(rows, comparison, range(deals))
    lines = []
    for tag in "ab":
        s = summary[tag]
        lo, hi = s["interval"]
        lines.append(f"{'blind' if tag == 'a' else '':6} {s['policy']:<8} won {s['wins']}/{deals} = "
                     f"{100 * s['win_rate']:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%) · "
                     f"median {s['median_seconds']:.3f} s a game")
    p = summary["paired"]
    lines.append(f"       paired: only baseline {p['only_a']}, only blind {p['only_b']}, exact McNemar p "
                 f"{summary['mcnemar_p']:.3g} · peak {peak_mb():.0f} MB")
    return lines


def run_game(name: str, quick: bool, args) -> None:
    game = get_game(name)
    budget = BUDGETS.get(game.name, Budget())
    k = 1 if quick else 0
    options = game.resolve_options(dict(args.option), "--option")
    open_deals = budget.open_deals[k] if args.open_deals is None else args.open_deals
    blind_deals = budget.blind_deals[k] if args.blind_deals is None else args.blind_deals
    seconds = budget.seconds[k] if args.time_limit is None else args.time_limit
    kernel = "kernel built" if game.load_kernel() is not None else "no kernel (pure Python)"
    print(f"== {game.title} ({game.name}) · options {options or '{}'} · seeds from 0 · {kernel}", flush=True)
    start = time.perf_counter()
    if open_deals:
        print(open_part(game, options, open_deals, seconds), flush=True)
    if blind_deals and "blind" in game.modes:
        print("\n".join(blind_part(game, options, blind_deals, args.samples)), flush=True)
    elif "blind" not in game.modes:
        print("blind  no blind mode")
    print(f"       ({time.perf_counter() - start:.1f} s)", flush=True)


def option(text: str) -> tuple:
    """--option KEY=VALUE as the command line reads it, refused in argparse's words."""
    try:
        return option_value(text)
    except SolodeckError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Counts default to the game's budget (--list shows them).")
    parser.add_argument("game", nargs="?", help="a game name or alias, or 'all'")
    parser.add_argument("--list", action="store_true", help="list the games, their budgets and the deeper benchmarks")
    parser.add_argument("--quick", action="store_true", help="a few deals of each part (a minute or less a game)")
    parser.add_argument("--open-deals", type=int, metavar="N", help="open mode: whole deals 0..N-1")
    parser.add_argument("--blind-deals", type=int, metavar="N", help="blind mode: games 0..N-1 of each policy")
    parser.add_argument("--time-limit", type=float, metavar="S", help="open mode: seconds a deal")
    parser.add_argument("--samples", type=int, metavar="N", help="the blind policy's samples (default: the game's blind plan)")
    parser.add_argument("--option", type=option, action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. --option distance=3 (repeatable)")
    args = parser.parse_args(argv)
    if args.list:
        print(f"{'game':<24} {'open deals':>11} {'s a deal':>9} {'blind games':>12}  (full / --quick)")
        for name, game in GAMES.items():
            budget = BUDGETS.get(name, Budget())
            blind = f"{budget.blind_deals[0]} / {budget.blind_deals[1]}" if "blind" in game.modes else "-"
            print(f"{name:<24} {budget.open_deals[0]:>5} / {budget.open_deals[1]:<3} "
                  f"{budget.seconds[0]:>4g} / {budget.seconds[1]:<3g} {blind:>12}")
        print("\ndeeper benchmarks:")
        for script, what in DEEPER.items():
            print(f"  python {script:<26} {what}")
        return 0
    if not args.game:
        parser.error("name a game (or 'all'), or --list")
    print(f"# {platform.node()} · {platform.processor() or platform.machine()} · {os.cpu_count()} cores · "
          f"Python {platform.python_version()} · load {os.getloadavg()[0]:.1f} · {time.strftime('%Y-%m-%d %H:%M')}")
    for name in (GAMES if args.game == "all" else [args.game]):
        run_game(name, args.quick, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
