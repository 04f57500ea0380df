"""What the knocker's spread ruling changes (issue 38): the knocker spreads an arrangement melding
the most cards (least deadwood among those), where the engine used to let them spread any
arrangement with deadwood at most 10. A script, not a test.

    python bench/bourbon_knocks.py [--seeds 200] [--random 20000] [--endgame-seeds 100] [--time-limit 10]

Part 1, knocks met in play: seeded deals 0..seeds-1, each played twice to the end of the deck
without knocking (greedy: draw and discard for the least deadwood; half-random: half the moves
random with random.Random(seed)); at every discard, every knock the old reading allowed. Each
distinct (knocker's ten cards, other's ten cards) is scored under both readings.

Part 2, random knocks: pairs of ten-card hands from dense pools (as tests/test_bourbon.py draws
them: three suits, ranks from a random one up), random.Random(2026), kept when the old reading
allows the knock.

Part 3, open-hand values: the puzzles in puzzles/bourbon/ and the bench's endgames (the first
turn with at most k face-down cards left, greedy and half-random lines), solved under both
readings with the time limit; a value left unknown by either is counted apart.

The old reading is written out here (``free_*``) and swapped into the engine for part 3.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from solodeck.deals import load_deal
from solodeck.games import bourbon as B
from solodeck.registry import get_game
from solodeck.result import Limits
from solodeck.solvers.paranoid import ParanoidSolver

sys.path.insert(0, str(Path(__file__).parent))
from bourbon import endgame  # noqa: E402  (bench/bourbon.py: the bench's endgame lines)

GAME = get_game("bourbon")
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "bourbon"
NEW = {"knock_net": B.knock_net, "knock_deadwood": B.knock_deadwood}


def free_knock_net(knocker: int, other: int) -> int:
    """The old reading: the knocker spreads any arrangement with deadwood at most 10, the one best
    for them (the engine's knock_net before the ruling, line for line)."""
    best = None
    for melds, dk in B.arrangements(knocker, B.KNOCK_LIMIT):
        fk = sum(B.faces(m) for m in melds)
        if dk == 0:
            reply = max(B.FACE_BONUS * n - (B.BOURBON_BONUS + d) for d, n in B.frontier(other))
        else:
            reply = None
            for laid in B.layoff_sets(melds, other):
                fl = B.faces(laid)
                for d, n in B.frontier(other & ~laid):
                    win = dk - d + B.UNDERCUT_BONUS if d <= dk else -(d - dk)
                    v = win + B.FACE_BONUS * (n + fl)
                    if reply is None or v > reply:
                        reply = v
        v = B.FACE_BONUS * fk - reply
        if best is None or v > best:
            best = v
    return best


def reading(old: bool):
    """Swap the knock rules the engine's states call (knock legality and knock scoring)."""
    B.knock_net = free_knock_net if old else NEW["knock_net"]
    B.knock_deadwood = B.deadwood if old else NEW["knock_deadwood"]
    B._KNOCK.clear()


def compare(pairs):
    """(knocks, now illegal, other net, net changes as (old, new))."""
    illegal, changed = 0, []
    for k, o in pairs:
        old = free_knock_net(k, o)
        if NEW["knock_deadwood"](k) > B.KNOCK_LIMIT:
            illegal += 1
        else:
            new = NEW["knock_net"](k, o)
            if new != old:
                changed.append((old, new))
    return len(pairs), illegal, changed


def say(label, counts):
    n, illegal, changed = counts
    print(f"{label}: {n:,} knocks; {illegal + len(changed):,} change ({100 * (illegal + len(changed)) / max(n, 1):.2f}%): "
          f"{illegal:,} no longer allowed (the most-melded spread leaves more than 10), {len(changed):,} scored "
          f"differently" + (f" (mean change of the knocker's net {sum(b - a for a, b in changed) / len(changed):+.1f})"
                            if changed else ""))


def knocks_in_play(seeds):
    pairs = set()
    for seed in range(seeds):
        for mixed in (False, True):
            rng = random.Random(seed)
            s = GAME.initial_state(GAME.new_deal(seed))
            while s.outcome() is None:
                if s.stage == B.DISCARDING:
                    hand, other = s.hands[s.seat], s.hands[1 - s.seat]
                    for c in B.cards_of(hand):
                        if c != s.taken and B.deadwood(hand & ~(1 << c)) <= B.KNOCK_LIMIT:
                            pairs.add((hand & ~(1 << c), other))
                moves = [m for m in s.search_moves() if m.kind != B.KNOCK]
                if mixed and rng.random() < 0.5:
                    s = s.play(rng.choice(moves))
                else:
                    s = s.play(next((m for m in moves if m.kind != B.PASS), moves[0]))
    return sorted(pairs)


def random_knocks(count):
    rng = random.Random(2026)
    pairs = []
    while len(pairs) < count:
        cards = rng.sample([s * 13 + r for s in rng.sample(range(4), 3) for r in range(rng.randrange(6), 13)], 20)
        k, o = B.mask_of(cards[:10]), B.mask_of(cards[10:])
        if B.deadwood(k) <= B.KNOCK_LIMIT:
            pairs.append((k, o))
    return pairs


def values(label, states, limit):
    same = changed = unknown = 0
    notes = []
    for name, s in states:
        got = []
        for old in (True, False):
            reading(old)
            got.append(ParanoidSolver(Limits(time_limit=limit)).value(s, 0))
        reading(False)
        if None in got:
            unknown += 1
        elif got[0] == got[1]:
            same += 1
        else:
            changed += 1
            notes.append(f"{name}: {got[0]} -> {got[1]}")
    print(f"{label}: {len(states)} positions; {changed} values change, {same} the same, {unknown} unknown under a "
          f"reading within {limit:g} s" + ("; " + ", ".join(notes) if notes else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--random", type=int, default=20000)
    ap.add_argument("--endgame-seeds", type=int, default=100)
    ap.add_argument("--time-limit", type=float, default=10)
    args = ap.parse_args()
    print(f"bench/bourbon_knocks.py --seeds {args.seeds} --random {args.random} --endgame-seeds "
          f"{args.endgame_seeds} --time-limit {args.time_limit:g}")
    t = time.perf_counter()
    say(f"knocks met in play (seeded deals 0-{args.seeds - 1}, greedy and half-random lines, distinct hands)",
        compare(knocks_in_play(args.seeds)))
    say("random knocks (dense pools, random.Random(2026))", compare(random_knocks(args.random)))
    puzzles = [(p.stem, GAME.initial_state(load_deal(p))) for p in sorted(PUZZLES.glob("*.toml"))]
    values("puzzles/bourbon", puzzles, args.time_limit)
    for k in (3, 5):
        for mixed in (False, True):
            states = [(f"seed {s}", endgame(s, k, mixed)) for s in range(args.endgame_seeds)]
            states = [(n, s) for n, s in states if s.outcome() is None]
            how = "half-random" if mixed else "greedy"
            values(f"endgames, {how} lines, at most {k} face-down cards left (seeds 0-{args.endgame_seeds - 1})",
                   states, args.time_limit)
    print(f"{time.perf_counter() - t:.0f} s; load average at the end (1, 5, 15 min): "
          + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
