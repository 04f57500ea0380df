"""Benchmark: the live engine, warm (a script, not a test).

    python bench/engine.py [--positions 100] [--games foursquare,syndicate,boba] [--blind-game boba]
                           [--workers 1]

A warm engine (solodeck/engine.py, in this process, each analysis forked as `solodeck engine` does)
is asked about mid-game positions of seeded games: seeds 0, 1, ... played by the game's baseline
policy, the position halfway through each game reached by `play` requests. Printed: for each game,
the median and 95th-percentile seconds from the open `analyse` request to its final reply, and
how many were solved (every move exact), with the engine's default workers (the cores, at most 2)
and with each count of --workers; the same for blind analyses (64 rollouts a move) of the
blind game; the first reply of a fresh `solodeck engine` process (start to the `new` reply); and
how long `stop` takes to answer during a long search. Seconds depend on the machine and its load:
quote them with both.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time

from solodeck.api import advance_chance
from solodeck.engine import Engine
from solodeck.registry import get_game
from solodeck.solvers.episode import play_episode
from solodeck.solvers.blind import BaselinePolicy


class Asker:
    def __init__(self):
        self.replies, self.cond = [], threading.Condition()
        self.engine = Engine(self.emit)
        self.count = 0

    def emit(self, reply):
        with self.cond:
            self.replies.append(reply)
            self.cond.notify_all()

    def ask(self, request, final=("position", "legal", "analysis", "error", "stopped", "games")):
        self.count += 1
        tag = self.count
        with self.cond:
            start = len(self.replies)
        self.engine.handle({**request, "id": tag})
        with self.cond:
            while True:
                for reply in self.replies[start:]:
                    if reply.get("id") == tag and reply["type"] in final:
                        return reply
                self.cond.wait(60)


def midgame_moves(game, seed: int) -> list:
    """The moves from the deal's start to halfway through a game of its baseline policy (a game
    without one, having no chance: seeded random moves)."""
    start = advance_chance(game.initial_state(game.new_deal(seed)))
    if "blind" in game.modes:
        decisions, _ = play_episode(start, BaselinePolicy(game))
        return [str(d.move) for d in decisions[: len(decisions) // 2]]
    rng, state, moves = random.Random(seed), start, []
    while state.outcome() is None and state.legal_moves():
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = advance_chance(state.play(move))
    return moves[: len(moves) // 2]


def timed_analyses(asker, game_name: str, count: int, mode: str, samples=None, workers=None) -> list:
    game = get_game(game_name)
    times, solved = [], 0
    for seed in range(count):
        pid = asker.ask({"cmd": "new", "game": game_name, "seed": seed})["position"]
        for move in midgame_moves(game, seed):
            pid = asker.ask({"cmd": "play", "position": pid, "move": move})["position"]
        start = time.perf_counter()
        reply = asker.ask({"cmd": "analyse", "position": pid, "mode": mode, "time_limit": 30,
                           **({"samples": samples} if samples else {}),
                           **({"workers": workers} if workers and mode == "open" else {})})
        times.append(time.perf_counter() - start)
        solved += reply.get("status") == "solved"
    return times, solved


def first_reply() -> float:
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "solodeck", "engine"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    process.stdin.write(json.dumps({"cmd": "new", "game": "foursquare", "seed": 1}) + "\n")
    process.stdin.flush()
    while json.loads(process.stdout.readline())["type"] != "position":
        pass
    seconds = time.perf_counter() - start
    process.stdin.close()
    process.wait()
    return seconds


def stop_latency(asker) -> float:
    pid = asker.ask({"cmd": "new", "game": "skyway", "seed": 1})["position"]
    asker.engine.handle({"cmd": "analyse", "position": pid, "time_limit": 600, "id": "long"})
    time.sleep(1.0)
    start = time.perf_counter()
    asker.ask({"cmd": "stop"})
    return time.perf_counter() - start


def line(label, times, solved=None):
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    extra = "" if solved is None else f", {solved}/{len(times)} solved"
    print(f"  {label:<28} median {statistics.median(times) * 1000:7.1f} ms, p95 {p95 * 1000:7.1f} ms{extra}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=100, help="positions per game (default 100)")
    parser.add_argument("--games", default="foursquare,syndicate,boba", help="games of the open analyses")
    parser.add_argument("--blind-game", default="boba", help="the game of the blind analyses")
    parser.add_argument("--workers", default="", help="open analyses also with these worker counts, e.g. 1 "
                        "(default: only the engine's default, the cores up to 2)")
    args = parser.parse_args()
    asker = Asker()
    print(f"warm engine, {args.positions} mid-game positions a game (seeds 0-{args.positions - 1}):")
    for name in args.games.split(","):
        line(f"{name}, open", *timed_analyses(asker, name, args.positions, "open"))
        for workers in filter(None, args.workers.split(",")):
            line(f"{name}, open, {workers} worker(s)", *timed_analyses(asker, name, args.positions, "open",
                                                                       workers=int(workers)))
    line(f"{args.blind_game}, blind, 64 samples", *timed_analyses(asker, args.blind_game, args.positions, "blind", 64))
    print(f"  first reply of a fresh engine: {first_reply() * 1000:.0f} ms (process start to the new reply)")
    print(f"  stop during a whole-deal search: answered in {stop_latency(asker) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
