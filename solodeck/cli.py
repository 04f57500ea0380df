"""The `solodeck` command line. Every input error prints one line and exits with status 2."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

from .version import __version__
from .deals import deal_to_toml, load_deal
from .errors import SolodeckError, UnsupportedError
from .registry import GAMES, get_game, rules_path
from .result import ANYTIME_SECONDS

EPILOG = """\
examples (GAME: a name from `solodeck games`):
  solodeck deal GAME --seed 7 > deal.toml           a deal file for seeded deal 7
  solodeck solve deal.toml                          verdict, best score and the best line
  solodeck solve deal.toml --json                   the same as one JSON object
  solodeck solve deal.toml --hints hints.json       also write every decision's ranked moves
  solodeck solve deal.toml --all-openings           decide every opening exactly: how many still win
  solodeck solve deal.toml --engine race --jobs 2   race the exact search against the CP-SAT model
  solodeck solve deal.toml --mode blind             the best move for a player who cannot see the deck
  solodeck play GAME --seed 3                       watch the blind policy play a seeded game
  solodeck analyze GAME --deals 1000 --mode both    win rates with 95% intervals, open vs blind
  solodeck compare GAME --policy blind --policy rule --seeds 10000-10199   two policies, same deals
  solodeck verify deal.toml hints.json              replay a hint file under the rules
  solodeck view hints.json                          step through a hint file in the browser
  solodeck rules GAME                               the rules as solodeck reads them
  solodeck puzzles GAME                             shipped deal files with known answers; solve one
                                                    from any folder as puzzle:GAME/NAME
"""


def _number(text, kind, parse=float):
    """``text`` parsed as a positive, finite number, or argparse's one-line error saying what was
    expected (argparse would otherwise name the parsing function: "invalid _seconds value")."""
    try:
        value = parse(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected {kind}, got {text!r}")
    return value


def _seconds(text):
    return _number(text, "a positive number of seconds (e.g. 10 or 0.5)")


def _megabytes(text):
    return _number(text, "a positive number of megabytes (e.g. 512)")


def _positive_int(text):
    return _number(text, "a positive whole number", int)


def _seed_range(text):
    """--seeds: ``A-B`` (both included) or one seed, as a range."""
    first, sep, last = text.partition("-")
    try:
        a, b = int(first), int(last) if sep else int(first)
    except ValueError:
        a = b = -1
    if not (0 <= a <= b < 2**64):
        raise argparse.ArgumentTypeError(f"expected seeds A-B (A <= B, both included, e.g. 10000-10999) or one "
                                         f"seed, whole numbers from 0 to 2^64-1, got {text!r}")
    return range(a, b + 1)


def _seed(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"expected a seed, a whole number from 0 to 2^64-1, got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage block above it): the option, what was expected,
    and where the help is."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _option_argument(parser, what: str) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help=f"a game option for {what}, e.g. --option jokers=1 (repeatable; `solodeck rules "
                             "GAME` lists them)")


def _options(game, args) -> dict:
    return game.resolve_options(dict(option_value(text) for text in args.option), "--option")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="solodeck", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
        description="Solve and analyse solo card games played with a standard deck: exact verdicts "
                    "(winnable / unwinnable, proven by exhaustive search), best lines and hint files.")
    parser.add_argument("--version", action="version", version=f"solodeck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("solve", help="solve a deal file: verdict, best score, best line",
                       description="Solve a deal exactly. 'unwinnable' is only ever said after an exhaustive "
                                   "search; when a limit stops the search the verdict is 'unknown' (or "
                                   "'winnable' with an unproven score if a win was already found).")
    p.add_argument("file", help="deal file (TOML or JSON; see `solodeck deal GAME --seed N` for one), "
                                "or puzzle:GAME/NAME, a shipped puzzle (`solodeck puzzles`)")
    p.add_argument("--mode", choices=["open", "blind"], default="open",
                   help="open: the solver sees every card (default); blind: what a real player knows")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--hints", metavar="OUT.json", help="write a hint file: every decision's moves ranked by value")
    p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                   help="stop after this many seconds (verdict 'unknown' unless a win was found)")
    p.add_argument("--max-states", type=_positive_int, metavar="N",
                   help="stop when the transposition table holds N states (status 'memory-limit')")
    p.add_argument("--memory", type=_megabytes, metavar="MB", default=1024.0,
                   help="cap the search's tables at MB megabytes (default 1024); a full table "
                        "forgets old entries: slower, never wrong. Only the positions a search is still "
                        "working on cannot be forgotten (the cycles of games whose positions repeat): if they alone pass the "
                        "cap, the search stops with status 'memory-limit' and verdict 'unknown'")
    p.add_argument("--engine", choices=["dfs", "cpsat", "race"], default="dfs",
                   help="dfs: the game's exact engine (default): the depth-first search, compiled when built, "
                        "or the game's own model where whole deals need it; cpsat: the OR-tools "
                        "CP-SAT model; race: the search and the model in parallel processes, the first exact "
                        "answer wins. "
                        "Hint values and --all-openings always come from the exact search")
    p.add_argument("--jobs", type=_positive_int, default=2, metavar="J",
                   help="CP-SAT worker threads (default 2); in a race the search runs in one more process")
    p.add_argument("--all-openings", action="store_true",
                   help="also decide every distinct first decision exactly (a game whose opening "
                        "is one big choice) and report how many of them still win")
    p.add_argument("--samples", type=_positive_int, default=None, metavar="N",
                   help="blind mode beyond the exact frontier: rollouts per move (default 1000; "
                        "about 1 s with the compiled kernel, minutes without it), or, in games with "
                        "hidden faces, sampled worlds (default 100)")
    p.add_argument("--quiet", action="store_true", help="no progress display")

    p = sub.add_parser("play", help="play one seeded game with a policy and print it",
                       description="Play a seeded deal from start to end with a policy that cannot see the deck "
                                   "order, and print every decision. blind: the exact expectimax move where the "
                                   "tree fits a small budget, else the best move by rollouts; baseline: the "
                                   "game's simple rule (its rules page says which).")
    p.add_argument("game", help="a game name or alias (see `solodeck games`)")
    p.add_argument("--seed", type=_seed, required=True, help="the deal number (0 to 2^64-1)")
    p.add_argument("--policy", choices=["blind", "baseline"], default="blind", help="who plays (default blind)")
    p.add_argument("--samples", type=_positive_int, default=None, metavar="N",
                   help="blind policy: rollouts per move where the exact tree is too big, or "
                        "sampled worlds in games with hidden faces (default: the game's blind plan, `solodeck rules "
                        "GAME` says which)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    _option_argument(p, "the deal")

    p = sub.add_parser("analyze", help="solve many seeded deals: win rates, scores, difficulty",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Solve seeds S..S+N-1 and write, in OUT (default solodeck-results/GAME):\n"
                                   "  deals.csv     a row per deal and mode, appended as each finishes (--resume)\n"
                                   "  summary.json  win rates with Wilson 95% intervals (deals a limit left\n"
                                   "                undecided counted both ways), scores, times, hardest deals\n"
                                   "  plots.png     time per deal and score distribution\n"
                                   "and nothing outside OUT (`solodeck report` redraws a cross-game table).\n\n"
                                   "open: the exact solver with every card known (an upper bound for any player);\n"
                                   "blind: the blind policy plays each deal without seeing the deck order.",
                       epilog="examples:\n"
                              "  solodeck analyze GAME --deals 1000 --jobs 2\n"
                              "  solodeck analyze GAME --deals 1000 --mode both --jobs 2\n"
                              "  solodeck analyze GAME --deals 1000 --resume        continue a stopped run\n"
                              "  solodeck analyze GAME --deals 1000 --redo unproven --time-limit 60\n"
                              "      solve again, with more time, the deals a limit left unproven\n"
                              "  solodeck analyze GAME --deals 100000 --scheduler tcp://10.0.0.5:8786\n"
                              "      (a Dask cluster: `dask scheduler` on one machine, `dask worker "
                              "tcp://10.0.0.5:8786 --nthreads 1 --nworkers N` on each; docs/analysis.md)")
    p.add_argument("game", help="a game name or alias (see `solodeck games`)")
    p.add_argument("--deals", type=_positive_int, required=True, metavar="N", help="how many seeded deals")
    p.add_argument("--first-seed", type=_seed, default=0, metavar="S", help="the first seed (default 0)")
    p.add_argument("--mode", choices=["open", "blind", "both"], default="open",
                   help="open (default), blind, or both on the same deals (the cost of not seeing the deck)")
    p.add_argument("--jobs", type=_positive_int, default=os.cpu_count() or 1, metavar="J",
                   help=f"worker processes on this machine (default: the {os.cpu_count()} cores)")
    p.add_argument("--time-limit", type=_seconds, default=10.0, metavar="SECONDS",
                   help="open mode: per deal (default 10); a deal it stops is 'unknown', never a loss")
    p.add_argument("--memory", type=_megabytes, default=512.0, metavar="MB",
                   help="open mode: the table's cap per worker (default 512)")
    p.add_argument("--samples", type=_positive_int, default=None, metavar="N",
                   help="blind mode: rollouts per move where the exact tree is too big, or "
                        "sampled worlds in games with hidden faces (default: the game's blind plan, `solodeck rules "
                        "GAME` says which)")
    _option_argument(p, "every deal")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run on this Dask distributed scheduler instead of local processes")
    p.add_argument("--out", metavar="DIR", help="output folder (default solodeck-results/GAME); "
                                                "an existing run there needs --resume")
    p.add_argument("--resume", action="store_true",
                   help="continue the run in OUT: only the seeds not yet in its deals.csv are solved")
    p.add_argument("--redo", choices=["unknown", "unproven"],
                   help="resume the run in OUT, solving again the open rows a limit left open: 'unknown' "
                        "those without a verdict, 'unproven' also those whose best score is not proven; "
                        "e.g. with a larger --time-limit (never a smaller one). Proven rows stay")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = sub.add_parser("compare", help="play two policies on the same seeded deals: win rates, paired test",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Play policies A and B on the same seeded deals and print each one's win rate\n"
                                   "with its Wilson 95% interval, the paired counts (both won, only A, only B,\n"
                                   "neither) and the exact McNemar p-value: the chance of a split of the deals only\n"
                                   "one policy won at least this uneven if the two were equally good.\n"
                                   "Policies: blind (the game's blind policy), baseline (its simple rule), rule\n"
                                   "(the rule its rollouts play, alone), blind:FIELD=VALUE,... (the blind policy\n"
                                   "with its plan varied, e.g. blind:samples=256,halving=false; the fields are\n"
                                   "solvers/plan.py's BlindPlan), blind-equal / blind-adaptive (its rollouts\n"
                                   "shared equally / by sequential halving).",
                       epilog="examples:\n"
                              "  solodeck compare GAME --policy blind --policy rule --seeds 10000-10199 --jobs 1\n"
                              "  solodeck compare GAME --policy blind --policy blind:samples=256 "
                              "--seeds 10000-10999 --out cmp.csv\n"
                              "  ... --out cmp.csv --resume        continue a stopped comparison")
    p.add_argument("game", help="a game name or alias (see `solodeck games`)")
    p.add_argument("--policy", action="append", default=[], metavar="NAME",
                   help="give it twice: A, then B (blind, baseline, rule, blind-equal, blind-adaptive)")
    p.add_argument("--seeds", type=_seed_range, required=True, metavar="A-B",
                   help="the deals: seeds A to B, both included (tune on 10000 and up), or one seed")
    p.add_argument("--samples", type=_positive_int, default=None, metavar="N",
                   help="blind policies: rollouts per move (or sampled worlds) per decision (default: the game's)")
    p.add_argument("--jobs", type=_positive_int, default=os.cpu_count() or 1, metavar="J",
                   help=f"worker processes on this machine (default: the {os.cpu_count()} cores)")
    _option_argument(p, "every deal")
    p.add_argument("--out", metavar="FILE.csv", help="keep a row per deal (seed, won_a, won_b, score_a, score_b, "
                                                     "seconds_a, seconds_b) in this file, written as deals finish")
    p.add_argument("--resume", action="store_true", help="continue the comparison in --out: only the seeds not in it")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress display")

    p = sub.add_parser("report", help="redraw the cross-game table of a results folder",
                       description="Rewrite the win-rate table between the markers of RESULTS/README.md (a new "
                                   "README.md if there is none) and RESULTS/winrates.png, from every "
                                   "RESULTS/<game>/summary.json that `solodeck analyze --out RESULTS/<game>` wrote. "
                                   "Nothing else in the folder is changed.",
                       epilog="example:\n  solodeck analyze GAME --deals 100 --out my-results/GAME && "
                              "solodeck report my-results",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", help="the results folder (e.g. results, or my-results)")

    p = sub.add_parser("verify", help="replay a hint file's line under the rules",
                       description="Exit 0 only if the hint file is well formed, made for this deal, and its "
                                   "line replays legally to the claimed result; exit 1 otherwise.")
    p.add_argument("file", help="the deal file, or puzzle:GAME/NAME")
    p.add_argument("hints", help="the hint file to check")
    p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                   help="limit for re-proving an 'unwinnable' claim")

    p = sub.add_parser("view", help="show a hint file in the browser: the position and ranked moves, step by step",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Serve the reference hint viewer (viewer/ in the source) and the hint file on\n"
                                   "127.0.0.1 and print the address to open. The page draws the deal and steps\n"
                                   "through the line (buttons, or the arrow keys; Home/End for the ends): at each\n"
                                   "decision the position, every legal move ranked with its value (blind files: the\n"
                                   "win probability and its interval as a bar), the move played highlighted.\n"
                                   "Nothing is fetched from the network. A file that breaks the schema is shown\n"
                                   "as an error on the page (and named here). Stop with Ctrl-C.",
                       epilog="examples:\n"
                              "  solodeck solve deal.toml --hints hints.json && solodeck view hints.json\n"
                              "  solodeck view hints.json --port 8800      a fixed port (default: a free one)\n"
                              "  open http://127.0.0.1:PORT/#step=5        the fifth decision of the line")
    p.add_argument("hints", help="the hint file (from `solodeck solve DEAL --hints OUT.json`)")
    p.add_argument("--port", type=int, default=0, metavar="N",
                   help="the port on 127.0.0.1 (default 0: any free port; the address is printed)")

    p = sub.add_parser("engine", help="the live engine for frontends: JSON requests on stdin, replies on stdout",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Keep solodeck warm and answer a frontend's questions about any position: one JSON\n"
                                   "object a line on stdin, one a line on stdout (docs/engine.md; the schema is\n"
                                   "solodeck/schema/engine-v1.schema.json). Start a game (new), list and play moves\n"
                                   "(legal, play), value every move (analyse, with progress lines; stop ends it at\n"
                                   "once with what it has). Ends on quit or at the end of input. No request reads or\n"
                                   "writes a file.",
                       epilog="example:\n"
                              "  printf '%s\\n' '{\"cmd\":\"new\",\"game\":\"GAME\",\"seed\":3}' \\\n"
                              "    '{\"cmd\":\"analyse\",\"position\":\"p1\",\"time_limit\":2}' | solodeck engine")

    p = sub.add_parser("serve", help="the live engine over HTTP on 127.0.0.1, with the viewer's play page",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="The engine's requests over HTTP on 127.0.0.1 (POST /api, one JSON request,\n"
                                   "its replies back; GET /api/progress for a running analysis's latest progress),\n"
                                   "and the viewer's page at / to play a seeded game with live hints. Stop with Ctrl-C.",
                       epilog="examples:\n"
                              "  solodeck serve                       any free port; the address is printed\n"
                              "  solodeck serve --port 8800\n"
                              "  curl -s localhost:8800/api -H 'Content-Type: application/json' \\\n"
                              "       -d '{\"cmd\":\"new\",\"game\":\"GAME\",\"seed\":1}'")
    p.add_argument("--port", type=int, default=0, metavar="N",
                   help="the port on 127.0.0.1 (default 0: any free port; the address is printed)")

    p = sub.add_parser("deal", help="print a self-contained deal file for a seeded deal")
    p.add_argument("game", help="a game name or alias (see `solodeck games`)")
    p.add_argument("--seed", type=_seed, required=True, help="the deal number (0 to 2^64-1)")
    p.add_argument("--players", type=_positive_int, metavar="N",
                   help="games of several players: how many; the same as --option players=N")
    _option_argument(p, "the deal")

    p = sub.add_parser("rules", help="print a game's rules page, rulings included")
    p.add_argument("game")

    sub.add_parser("games", help="list the games and what each supports")

    p = sub.add_parser("puzzles", help="list the shipped puzzles (deal files with known answers), or print one",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="The puzzles are deal files with known answers, shipped with the package. Give\n"
                                   "one as puzzle:GAME/NAME wherever a deal file is asked for, from any folder.",
                       epilog="examples:\n"
                              "  solodeck puzzles                         every puzzle, with its known answer\n"
                              "  solodeck puzzles GAME                    those of one game\n"
                              "  solodeck solve puzzle:GAME/NAME          solve one\n"
                              "  solodeck puzzles GAME/NAME > mine.toml   print its file, to edit")
    p.add_argument("which", nargs="?", metavar="GAME or GAME/NAME",
                   help="a game (its puzzles), or one puzzle (its file is printed)")
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except SolodeckError as exc:
        print(f"solodeck: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("solodeck: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # piped into a reader that stopped early (head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _progress(quiet: bool):
    """A tqdm node counter on a terminal; nothing when output is piped or --quiet."""
    if quiet or not sys.stderr.isatty():
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(desc="searching", unit=" nodes", unit_scale=True, leave=False, file=sys.stderr)

    def update(nodes):
        bar.update(nodes - bar.n)

    return update, bar.close


def _check_output_file(path, option) -> None:
    """Refuse, before any work, a file that cannot be written: a folder, or a file in a folder
    that does not exist."""
    from pathlib import Path

    path = Path(path)
    if path.is_dir():
        raise SolodeckError(f"{option} {path}: is a folder; expected a file name, e.g. {path / 'hints.json'}")
    folder = path.parent
    if not folder.is_dir():
        raise SolodeckError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise SolodeckError(f"{option} {path}: the folder {folder} is not writable")




def _deadline(seconds):
    """When a command given ``seconds`` (--time-limit: the budget of the whole command, solve and
    hints together) must be done, in perf_counter seconds; None: no limit."""
    return None if seconds is None else time.perf_counter() + seconds


def _say_unvalued(hints, limits) -> None:
    """Tell how many of the hint file's moves a limit left unvalued (written as unknown)."""
    moves = [m for d in hints["decisions"] for m in d["moves"]]
    # a blind estimate of 0 wins is valued, though its verdict is unknown (a win may still be possible)
    unknown = sum(m["verdict"] == "unknown" and m.get("win_probability") is None for m in moves)
    if unknown:
        if limits.expired():
            why = "the time limit ran out"
        elif hints["mode"] == "open":
            why = "a limit stopped their searches"
        else:
            why = "a limit stopped their searches, or the game's blind estimator values only some moves"
        print(f"hints: {unknown} of {len(moves)} moves not valued ({why}; written as unknown)", file=sys.stderr)


def cmd_solve(args) -> int:
    from .solvers import Limits, make_solver, value_first_moves
    from .hints import build_hints, write_hints

    deal = load_deal(args.file)
    game = get_game(deal.game)
    if args.hints:
        _check_output_file(args.hints, "--hints")
    if args.mode not in game.modes:
        raise UnsupportedError(f"{game.name} supports --mode {'/'.join(game.modes)} only"
                               + (" (no chance after the deal: open and blind coincide)" if not game.has_chance else ""))
    if args.mode == "blind":
        return _solve_blind(args, game, deal)
    if game.several_players:
        return _solve_hand(args, game, deal)
    progress, close = _progress(args.quiet or args.json or args.engine != "dfs")
    time_limit = args.time_limit
    if time_limit is None and game.anytime:  # whole deals never finish: stop with the best line found
        time_limit = ANYTIME_SECONDS
    if args.engine == "cpsat" and args.time_limit is None and not (args.quiet or args.json):
        print("(CP-SAT proves endgames in seconds, but a whole deal can take many minutes and shows no "
              "progress meanwhile; --time-limit N bounds it)", file=sys.stderr)
    deadline = _deadline(time_limit)
    if args.hints and game.anytime and time_limit is not None:
        time_limit /= 2  # an anytime search spends all it is given: leave half for valuing the moves
    limits = Limits(time_limit, args.max_states, args.memory, deadline)
    solver = make_solver(game, limits, progress)
    start = game.initial_state(deal)
    try:
        result = _solve_with_engine(args, game, limits, solver, start)
        hints = build_hints(game, deal, result, solver) if args.hints else None
        openings = value_first_moves(solver, start) if args.all_openings else None
    finally:
        close()
    if hints is not None:
        write_hints(hints, args.hints)
        if not (args.quiet or args.json):
            _say_unvalued(hints, limits)
    if args.time_limit is None and game.anytime and result.status == "timeout" and not (args.quiet or args.json):
        print(f"(no --time-limit: {game.title} deals are far too big to exhaust; stopped after "
              f"{ANYTIME_SECONDS:g} s with the best line found; --time-limit N sets another budget)", file=sys.stderr)
    if args.json:
        out = result.to_json()
        if openings is not None:
            out["openings"] = [_opening_json(game, move, value) for move, value in openings]
            out["openings_summary"] = _openings_summary(game, openings)
        print(json.dumps(out))
        return 0
    print(f"{game.title}: {deal.source}" + (f" (seed {deal.seed})" if deal.seed is not None else ""))
    score_name = game.score_name or "score"
    if result.verdict == "winnable":
        how = "proven best" if result.exact else f"best found; not proven optimal ({result.status})"
        if not result.exact and result.score_bound is not None and game.score_sense:
            better = "fewer" if game.score_sense == "lower" else "more"
            how += f"; proven: no win with {better} than {result.score_bound} {score_name}"
        if game.score_name is None:  # a game without a score: the win is the whole answer
            print(f"verdict: winnable ({'proven' if result.exact else result.status})")
        else:
            print(f"verdict: winnable, {score_name}: {result.score} ({how})")
    elif result.verdict == "unwinnable":
        how = "proven by exhaustive search" if result.exact else "proven by the score bound; best score not proven"
        best = f", best {score_name}: {result.score}" if result.score is not None else ""
        print(f"verdict: unwinnable{best} ({how})")
    else:
        print(f"verdict: unknown (search stopped: {result.status}; no win found before the limit)")
    if result.line:
        lost = ""
        if result.verdict == "unwinnable":
            lost = "; every line loses, " + ("this one scores best" if result.score is not None else "this is one of them")
        print(f"line ({len(result.line)} moves{lost}):")
        for i, move in enumerate(result.line, start=1):
            print(f"  {i:3d}. {move}")
    rate = f", {result.nodes / result.seconds:,.0f} nodes/s" if result.seconds > 0 else ""
    raced = f", won the race against {', '.join(result.raced_against)}" if result.raced_against else ""
    counted = "branches" if result.engine == "cpsat" else "nodes"
    print(f"search ({result.engine}{raced}): {result.nodes:,} {counted}, {result.unique_states:,} states stored, "
          f"{result.seconds:.2f} s{rate.replace('nodes', counted)}")
    if openings is not None:
        summary = _openings_summary(game, openings)
        print(f"openings: {summary['distinct']} distinct, {summary['winning']} win, {summary['losing']} proven lost, "
              f"{summary['unknown']} unknown (a limit stopped them)")
        for score, count in summary["winning_by_score"].items():
            print(f"  win with {score_name} {score}: {count}")
    if args.hints:
        print(f"hints written to {args.hints}")
    return 0


HAND_SECONDS = 10.0  # several players: the default limit of each seat's search


class _CountedSearches:
    """A several-player solver with a tqdm count of its searches on a terminal (a whole
    table is a few dozen searches, each up to the time limit)."""

    def __init__(self, solver, quiet, limits):
        self.solver, self.limits = solver, limits
        self.bar = None
        self.undecided = 0  # searches a limit stopped
        self.skipped = False  # the last value() was not searched: the budget was spent
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(desc="searches", unit=" search", leave=False, file=sys.stderr)

    @property
    def nodes(self):
        return self.solver.nodes

    @property
    def proven(self):
        """What the last value() proved (api.seat_values), if the solver says."""
        return None if self.skipped else getattr(self.solver, "proven", None)

    def value(self, state, seat):
        known = getattr(self.solver, "has_known", None)  # a search valued ahead stands after the deadline
        self.skipped = self.limits.expired() and not (known is not None and known(state, seat))
        value = None if self.skipped else self.solver.value(state, seat)
        self.undecided += value is None
        if self.bar is not None:
            self.bar.update(1)
        return value

    def move_values(self, state, seat=None):
        seat = state.to_move() if seat is None else seat
        return [(move, self.value(state.play(move), seat)) for move in state.legal_moves()]

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _solve_hand(args, game, deal) -> int:
    """A game of several players, every hand open: what each seat can guarantee (solvers/paranoid.py),
    the game's own tables (Game.hand_report) and, with --hints, every legal move's value for the
    seat on turn along the line where each seat plays for its own guarantee."""
    from .hints import build_hand_hints, write_hints
    from .solvers import Limits

    limits = Limits(args.time_limit or HAND_SECONDS, args.max_states, args.memory, _deadline(args.time_limit))
    solver = _CountedSearches(game.solver(limits), args.quiet or args.json, limits)
    start = time.perf_counter()
    state = game.initial_state(deal)
    try:
        lines, data = game.hand_report(deal, state, solver)
        hints = build_hand_hints(game, deal, solver) if args.hints else None
    finally:
        solver.close()
    seconds = time.perf_counter() - start
    if hints is not None:
        write_hints(hints, args.hints)
        if not (args.quiet or args.json):
            _say_unvalued(hints, limits)
    if args.json:
        print(json.dumps({"game": game.name, "mode": "open", **data,
                          "stats": {"nodes": solver.nodes, "seconds": round(seconds, 6)},
                          **({"line": hints["line"]} if hints else {})}))
        return 0
    print(f"{game.title}: {deal.source}" + (f" (seed {deal.seed})" if deal.seed is not None else ""))
    for line in lines:
        print(line)
    if solver.undecided:
        budget = (f"--time-limit {args.time_limit:g} s for the whole command" if args.time_limit
                  else f"{limits.time_limit:g} s each; --time-limit sets a budget for the whole command")
        print(f"('?': a limit stopped that search or the budget ran out before it ({budget}; "
              "--max-states or --memory if they stopped it), so the value is not known: never a guess; "
              "'>=1', '<=2', '1..2': what it had proven by then)")
    if hints is not None:
        print(f"line ({len(hints['line'])} moves, each seat playing for its own guarantee): {' '.join(hints['line'])}")
    print(f"search ({'kernel' if game.load_kernel() else 'paranoid alpha-beta'}): {solver.nodes:,} nodes, "
          f"{seconds:.2f} s")
    if args.hints:
        print(f"hints written to {args.hints}")
    return 0


# The exact attempt's budget, in states (the same answer on every machine; --time-limit still stops
# the whole command): at the first decision before the estimator takes over (with the game's
# compiled valuer; the pure-Python one is about 100 times slower, so it gets 50 times fewer: a few
# seconds), and at each decision of a blind hint file.
BLIND_EXACT_STATES = 1_000_000
PYTHON_BLIND_EXACT_STATES = 20_000
HINT_EXACT_STATES = 100_000


def _solve_blind(args, game, deal) -> int:
    """The best move at the deal's first decision for a player who cannot see the deck order:
    exact expectimax within the limits, else the game's estimator (solvers/blind.py)."""
    from .api import advance_chance
    from .hints import build_blind_hints, write_hints
    from .solvers import Limits
    from .solvers.blind import BlindPolicy, solve_blind

    for flag, name in ((args.all_openings, "--all-openings"), (args.engine != "dfs", "--engine")):
        if flag:
            raise UnsupportedError(f"{name} is not available in blind mode")
    deadline = _deadline(args.time_limit)
    compiled = game.fast_expectimax(Limits(memory_mb=1)) is not None
    exact_states = args.max_states or (BLIND_EXACT_STATES if compiled else PYTHON_BLIND_EXACT_STATES)
    limits = Limits(None, exact_states, args.memory, deadline)
    progress, close = _progress(args.quiet or args.json)
    try:
        state = advance_chance(game.initial_state(deal))  # the cards seen before the first decision
        result = solve_blind(game, state, limits, args.samples, 0, progress)
        # each decision's exact attempt, and nothing once the command's time is spent; where the first
        # decision was exact, every later tree is a subtree of it: the same budget proves it
        per_decision = Limits(None, exact_states if result.exact else min(exact_states, HINT_EXACT_STATES),
                              args.memory, deadline)
        hint_policy = BlindPolicy(game, args.samples, 0, per_decision, every_move=True)
        hints = build_blind_hints(game, deal, hint_policy, per_decision) if args.hints else None
    finally:
        close()
    if hints is not None:
        write_hints(hints, args.hints)
        if not (args.quiet or args.json):
            _say_unvalued(hints, per_decision)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{game.title}: {deal.source}" + (f" (seed {deal.seed})" if deal.seed is not None else ""))
    print("mode: blind (the player sees the face-up cards and the backs, not the hidden faces)" if game.has_hidden
          else "mode: blind (the player knows which cards are left, not their order)")
    if result.exact:
        score = f", {game.score_name} on a win {result.expected_score:.2f}" if result.expected_score is not None else ""
        print(f"win probability with best play: {result.win_probability:.6f}{score} (exact)")
    elif result.status == "estimated" and result.engine == "determinized":
        lo, hi = result.interval
        print(f"win probability: at most about {result.win_probability:.3f} (95% interval {lo:.3f}-{hi:.3f}, "
              f"{result.samples} sampled worlds; estimated: the exact tree is beyond the limits)")
        print("  (determinized: the share of worlds consistent with what is seen in which the move still wins "
              "with every face known; an upper estimate of best blind play)")
    elif result.status == "estimated" and result.engine == "rule":
        print("win probability: not estimated (beyond the exact tree the game's blind rule picks the move: "
              "rolling it out is too dear)")
    elif result.status == "estimated":
        lo, hi = result.interval
        print(f"win probability: about {result.win_probability:.3f} (95% interval {lo:.3f}-{hi:.3f}, "
              f"{result.samples} rollouts per move; estimated: the exact tree is beyond the limits)")
        print("  (rollouts: the move, then the game's blind rule; a lower estimate of best blind play)")
    else:
        print(f"win probability: unknown (a limit stopped the search: {result.status})")
    if result.ranked:
        scored = game.score_name is not None
        print("moves now, best first (win probability" + (", expected score on a win):" if scored else "):"))
        for row in result.ranked:
            p = "not valued" if row["win_probability"] is None else f"{row['win_probability']:.6f}"
            if row.get("interval") and not row.get("exact", True):
                p += f"  [{row['interval'][0]:.3f}, {row['interval'][1]:.3f}]"
            e = "" if row["expected_score"] is None or not scored else f"{row['expected_score']:.2f}"
            print(f"  {row['move']:<14} {p:>10} {e:>7}")
    print(f"search ({result.engine}): {result.nodes:,} nodes, {result.unique_states:,} states stored, {result.seconds:.2f} s")
    if args.hints:
        print(f"hints written to {args.hints}")
    return 0


def _how_estimated(row) -> str:
    if row["exact"]:
        return "(exact)"
    if row.get("estimator") == "determinized":
        return f"(won by open play in that share of {row['samples']} sampled worlds)"
    return f"(estimated, {row['samples']} rollouts)"


def cmd_play(args) -> int:
    from .solvers.episode import RANK_CHOICES, play_episode
    from .solvers.blind import policy as make_policy

    game = get_game(args.game)
    if not game.has_chance:
        raise UnsupportedError(f"{game.name} has no chance after the deal: `solodeck solve` gives its best line")
    chooser = make_policy(game, args.policy, args.samples)
    decisions, state = play_episode(game.initial_state(game.new_deal(args.seed, _options(game, args))), chooser,
                                    RANK_CHOICES)
    steps = []
    for d in decisions:
        row = d.rows[0] if d.rows else None
        note = ("" if row is None or row["win_probability"] is None
                else f"win probability {row['win_probability']:.3f} {_how_estimated(row)}")
        steps.append({"position": d.state.seen_text(), "move": str(d.move), "note": note})
    outcome = state.outcome()
    won = outcome is not None and outcome.won
    if args.json:
        print(json.dumps({"game": game.name, "seed": args.seed, "policy": args.policy, "won": won,
                          "score": outcome.score if outcome is not None else None,
                          "moves": [s["move"] for s in steps]}))
        return 0
    print(f"{game.title}, seed {args.seed}, {args.policy} policy")
    for i, step in enumerate(steps, start=1):
        print(f"\n{step['position']}\n  {i:3d}. {step['move']}   {step['note']}")
    print(f"\n{state}")
    scored = f", {game.score_name} {outcome.score}" if outcome is not None and outcome.score is not None else ""
    result = ("won" + scored if won else "lost" + scored) if outcome is not None else \
        "lost (the policy sees no move that gets anywhere and gives up)"
    print(f"result: {result} after {len(steps)} decisions")
    return 0


DEFAULT_OUT = "solodeck-results"  # analyze's default folder: never the project's committed results/


def cmd_analyze(args) -> int:
    import shlex
    from pathlib import Path

    from .report import plot_game, summary_text
    from .analysis import Settings, analyze, read_rows
    from .solvers.plan import plan_of

    game = get_game(args.game)
    if game.several_players:
        raise UnsupportedError(f"{game.name} is a game of several players: analyze measures one player's win rate. "
                               f"`solodeck solve DEAL` gives each seat's guarantee (bench/ measures many deals)")
    if args.mode == "both":
        modes = ["open", "blind"] if "blind" in game.modes else ["open"]
        if len(modes) == 1:
            print(f"note: {game.name} has no chance after the deal: open and blind coincide, open only",
                  file=sys.stderr)
    else:
        modes = [args.mode]
    out = Path(args.out or Path(DEFAULT_OUT) / game.name)
    options = _options(game, args)
    samples = args.samples or plan_of(game).samples  # recorded in run.json: a resumed run must match
    settings = Settings(game.name, modes, args.time_limit, args.memory, samples, options)
    seeds = range(args.first_seed, args.first_seed + args.deals)
    summary = analyze(settings, seeds, out, jobs=args.jobs, scheduler=args.scheduler, resume=args.resume,
                      redo=args.redo, progress=not (args.quiet or args.json),
                      command="solodeck " + " ".join(shlex.quote(a) for a in sys.argv[1:]))
    plot_game(summary, read_rows(out / "deals.csv"), out, game.title, game.score_name)
    if args.json:
        print(json.dumps(summary))
    else:
        print(summary_text(summary, game.title, game.score_name))
        # `solodeck report RESULTS` reads RESULTS/<game>/summary.json: name it only where it will find this run
        table = (f"the cross-game table of a results folder: `solodeck report {out.parent}`" if out.name == game.name
                 else f"for the cross-game table of `solodeck report RESULTS`, write into RESULTS/{game.name}")
        print(f"written: {out / 'deals.csv'}, {out / 'summary.json'}, {out / 'plots.png'} ({table})")
    return 0


def cmd_compare(args) -> int:
    from .compare import Comparison, compare, summary_text
    from .solvers.blind import POLICIES, policy

    game = get_game(args.game)
    options = _options(game, args)
    if len(args.policy) != 2:
        raise SolodeckError(f"--policy: given {len(args.policy)} times; expected exactly two, A then B "
                            f"(e.g. --policy blind --policy baseline; one of {', '.join(POLICIES)})")
    for name in args.policy:
        policy(game, name)  # an unknown name, or a game without blind mode: refused before any deal
    if args.out:
        _check_output_file(args.out, "--out")
    comparison = Comparison(game.name, list(args.policy), args.samples, options)
    summary = compare(comparison, args.seeds, jobs=args.jobs, out=args.out, resume=args.resume,
                      progress=not (args.quiet or args.json))
    print(json.dumps(summary) if args.json else summary_text(summary, game.title))
    return 0


def cmd_report(args) -> int:
    from pathlib import Path

    from .report import update_cross_game

    results = Path(args.results)
    if not results.is_dir():
        raise SolodeckError(f"{results}: not a folder; expected a results folder holding <game>/summary.json")
    readme = update_cross_game(results)
    print(f"written: the table in {readme}, and {results / 'winrates.png'}")
    return 0


def option_value(text: str) -> tuple:
    """(key, value) of ``--option KEY=VALUE``: a whole number, true/false, or the text as it is."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UnsupportedError(f"--option {text!r}: expected KEY=VALUE, e.g. variant=hard")
    value = value.strip()
    if value.lower() in ("true", "false"):
        return key.strip(), value.lower() == "true"
    return key.strip(), int(value) if value.lstrip("-").isdigit() else value


def _solve_with_engine(args, game, limits, solver, start):
    from .encodings import cpsat_solver
    from .solvers import DepthFirstSolver, ReachabilitySolver, make_solver
    from .solvers.portfolio import race

    if args.engine == "dfs":
        return solver.solve(start)
    model = cpsat_solver(game, limits, args.jobs)
    if model is None:
        raise UnsupportedError(f"{game.name} has no CP-SAT model yet (use --engine dfs)")
    if args.engine == "cpsat":
        return model.solve(start)
    def search():
        engine = make_solver(game, limits)
        if isinstance(engine, type(model)):  # the game's own engine is its model: race the generic search against it
            return (DepthFirstSolver if game.acyclic else ReachabilitySolver)(game, limits)
        return engine

    return race(game, {"search": search, "cpsat": lambda: model}, start)


def _opening_json(game, move, value):
    from .hints import verdict_and_score

    verdict, score = verdict_and_score(game, value)
    return {"move": str(move), "verdict": verdict, "exact": value is not None, "score": score}


def _openings_summary(game, openings) -> dict:
    rows = [_opening_json(game, move, value) for move, value in openings]
    by_score: dict = {}
    for row in rows:
        if row["verdict"] == "winnable":
            by_score[row["score"]] = by_score.get(row["score"], 0) + 1
    return {"distinct": len(rows), "winning": sum(by_score.values()),
            "losing": sum(r["verdict"] == "unwinnable" for r in rows),
            "unknown": sum(r["verdict"] == "unknown" for r in rows),
            "winning_by_score": dict(sorted(by_score.items()))}


def cmd_verify(args) -> int:
    from .solvers import Limits, solve_open
    from .hints import read_hints, verify_hints

    deal = load_deal(args.file)
    game = get_game(deal.game)
    data = read_hints(args.hints)

    def reprove(state):
        return solve_open(game, state, Limits(args.time_limit)).verdict

    try:
        print(verify_hints(game, deal, data, reprove=reprove))
    except SolodeckError as exc:
        print(f"rejected: {exc}")
        return 1
    return 0


def cmd_view(args) -> int:
    from .hints import read_hints
    from .view import address, make_server, schema_problem

    if not 0 <= args.port < 65536:
        raise SolodeckError(f"--port {args.port}: a port is 0 (any free one) to 65535")
    problem = schema_problem(read_hints(args.hints))
    try:
        server = make_server(args.hints, args.port)
    except OSError as exc:  # the port is taken, or not ours to bind
        raise SolodeckError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
    if problem:
        print(f"solodeck: warning: {args.hints}: {problem} (the page shows the details)", file=sys.stderr)
    print(f"viewing {args.hints} at {address(server)}  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def cmd_engine(args) -> int:
    from .engine import run_stdio

    return run_stdio(sys.stdin, sys.stdout)


def cmd_serve(args) -> int:
    from .server import serve

    return serve(args.port)


def cmd_deal(args) -> int:
    game = get_game(args.game)
    if args.players is not None:
        if "players" not in game.options:
            raise UnsupportedError(f"{game.name} is a game of one player: --players is for games of several")
        args.option.append(f"players={args.players}")
    deal = game.new_deal(args.seed, _options(game, args))
    sys.stdout.write(deal_to_toml(deal, game, f"{game.title}, seeded deal {args.seed} (piles top card first)"))
    return 0


def cmd_rules(args) -> int:
    game = get_game(args.game)
    path = rules_path(game)
    if not path.exists():
        raise UnsupportedError(f"{game.name}: no rules page yet")
    sys.stdout.write(path.read_text(encoding="utf-8"))
    return 0


def _puzzle_about(text: str, width: int = 80) -> str:
    """A puzzle file's opening comment, first sentence, shortened to about ``width`` characters."""
    import re

    comment = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comment.append(line.lstrip("#").strip())
    about = re.split(r"\.\s+(?=[A-Z])", " ".join(comment), maxsplit=1)[0].rstrip(".")
    if len(about) > width:
        cut = max((about.rfind(mark, 0, width) for mark in (": ", "; ", ", ", " (")), default=-1)
        about = about[:cut] if cut > 0 else about[:width].rsplit(" ", 1)[0] + " ..."
    return about


def cmd_puzzles(args) -> int:
    import tomllib

    from .deals import PUZZLE_PREFIX, puzzle_names, puzzle_path

    if args.which and "/" in args.which:  # one puzzle: its file
        sys.stdout.write(puzzle_path(args.which).read_text(encoding="utf-8"))
        return 0
    names = puzzle_names(args.which)
    if not names:
        raise UnsupportedError(f"{get_game(args.which).name if args.which else 'solodeck'}: no puzzles shipped")
    rows = []
    for name in names:
        text = puzzle_path(name).read_text(encoding="utf-8")
        meta = tomllib.loads(text).get("meta", {})
        if "values" in meta or "value" in meta:  # games of several players: what each seat can guarantee
            answer = f"values {meta['values']}" if "values" in meta else f"value {meta['value']}"
        else:
            answer = str(meta.get("verdict", "?")) + (f", {meta['score']}" if "score" in meta else "")
        answer += " (slow)" if meta.get("slow") else ""
        rows.append((PUZZLE_PREFIX + name, answer, _puzzle_about(text)))
    widths = [max(len(row[i]) for row in rows) + 2 for i in range(2)]
    for row in rows:
        print((row[0].ljust(widths[0]) + row[1].ljust(widths[1]) + row[2]).rstrip())
    return 0


def cmd_games(args) -> int:
    rows = [("name", "title", "aliases", "modes", "score")]
    for game in GAMES.values():
        modes = "/".join(game.modes)
        score = f"{game.score_name} ({game.score_sense} is better)" if game.score_name else "-"
        rows.append((game.name, game.title, ", ".join(game.aliases) or "-", modes, score))
    widths = [max(len(row[i]) for row in rows) + 2 for i in range(len(rows[0]) - 1)]  # never cut a title
    for row in rows:
        print("".join(cell.ljust(width) for cell, width in zip(row, widths)) + row[-1])
    return 0


COMMANDS = {"solve": cmd_solve, "play": cmd_play, "analyze": cmd_analyze, "compare": cmd_compare, "report": cmd_report, "verify": cmd_verify,
            "view": cmd_view, "engine": cmd_engine, "serve": cmd_serve, "deal": cmd_deal, "rules": cmd_rules, "games": cmd_games, "puzzles": cmd_puzzles}

if __name__ == "__main__":
    sys.exit(main())
