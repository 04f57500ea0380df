"""Loot the Loop: how many deals are lost before the player has any choice (a script, not a test).

    python bench/loot_the_loop_forced.py [--deals 100000] [--first-seed 0]

Two counts that are easily confused:

- **stuck starts**: neither of the first two cards is a trinket, so the first look leaves no
  action. Exactly 17·16 / (53·52) = 9.87% (17 non-trinkets: 12 traps, 4 aces, the joker).
- **forced losses**: every move is forced until the loss. From the deal, follow the reference
  engine (solodeck/games/loot_the_loop.py) while the position has exactly one legal move, chance
  taking the dealt card; a deal counts when it ends lost before any position with two or more
  legal moves. A stuck start is one; so is a non-trinket on top with a trinket v under it (the
  only move: explore v, onto a face-down card, then the only move: look) followed by a stuck pair.

Part 1 measures the forced losses on the seeded deals (``GAME.new_deal(seed)``, the deal of
``solodeck deal loot-the-loop --seed N``) with a Wilson 95% interval, and checks on each deal
that the engine agrees with the pair-by-pair rule above.

Part 2 computes the forced losses exactly by enumerating the opening cards: the cards turned up
by a forced line lie at distinct deck places until the line has gone round the deck (a landing or
a look at place 53 or beyond), so until then they are draws without replacement, and the chance
is a sum over the sequences of (non-trinket, trinket v) pairs. The lines that go round the deck
are left unresolved; their whole probability is given, so the exact figure lies between the sum
and the sum plus that mass.
"""
from __future__ import annotations

import argparse
import time
from fractions import Fraction
from functools import lru_cache

from solodeck.api import advance_chance
from solodeck.games.loot_the_loop import trinket_value
from solodeck.registry import get_game
from solodeck.solvers.stats import wilson_interval

GAME = get_game("loot-the-loop")
DECK = 53
NON_TRINKETS = 17  # 12 traps, 4 aces, the joker


def engine_forced_loss(deal) -> tuple[bool, bool]:
    """(lost before any choice?, went round in a forced cycle?), following the reference engine.
    A forced line that repeats a position never ends (RULINGS: never a win); it is reported
    apart rather than counted either way."""
    state, seen = advance_chance(GAME.initial_state(deal)), set()
    while True:
        legal = state.legal_moves()
        if len(legal) != 1:
            outcome = state.outcome()
            return (not legal and outcome is not None and not outcome.won), False
        if state.key() in seen:
            return False, True
        seen.add(state.key())
        state = advance_chance(state.play(legal[0]))


def pair_rule(deck) -> bool | None:
    """The forced-loss rule read off the dealt deck (top first): pairs at places s, s+1 from s = 0;
    (non-trinket, non-trinket) is lost, a trinket on top is a choice, (non-trinket, trinket v)
    moves on to s + v. None when the line would go round the deck (not resolved here)."""
    s = 0
    while True:
        if s + 1 >= DECK:
            return None
        top, second = trinket_value(deck[s]), trinket_value(deck[s + 1])
        if top:
            return False
        if not second:
            return True
        if s + second >= DECK:
            return None
        s += second


def measure(first_seed: int, deals: int) -> None:
    start = time.perf_counter()
    forced = stuck = unresolved = cycles = 0
    for seed in range(first_seed, first_seed + deals):
        deal = GAME.new_deal(seed)
        deck = deal.piles["deck"]
        lost, cycle = engine_forced_loss(deal)
        cycles += cycle
        rule = pair_rule(deck)
        if rule is None:
            unresolved += 1
        elif rule != lost:
            raise SystemExit(f"seed {seed}: the engine says {lost}, the pair rule {rule}")
        forced += lost
        stuck += not trinket_value(deck[0]) and not trinket_value(deck[1])
    low, high = wilson_interval(forced, deals)
    s_low, s_high = wilson_interval(stuck, deals)
    print(f"Part 1: seeds {first_seed}..{first_seed + deals - 1} ({time.perf_counter() - start:.0f} s)")
    print(f"forced losses (every move forced until the loss): {forced} of {deals} = {forced / deals:.2%} "
          f"(95% interval {low:.2%}-{high:.2%})")
    print(f"stuck starts (no trinket among the first two cards): {stuck} of {deals} = {stuck / deals:.2%} "
          f"(95% interval {s_low:.2%}-{s_high:.2%})")
    print(f"the engine and the pair rule agree on every deal ({unresolved} deals' lines go round the deck, "
          f"followed by the engine alone; forced cycles: {cycles})")


def exact() -> tuple[Fraction, Fraction]:
    """(P(forced loss before the line goes round the deck), P(a forced line goes round the deck))."""

    @lru_cache(maxsize=None)
    def value(counts: tuple, non: int, s: int) -> tuple[Fraction, Fraction]:
        # counts[v - 2]: trinkets of value v unseen; non: non-trinkets unseen; s: the place turned up next
        if s + 1 >= DECK:
            return Fraction(0), Fraction(1)
        left = non + sum(counts)
        p_non = Fraction(non, left)
        lost = p_non * Fraction(non - 1, left - 1)  # a second non-trinket under it
        round_ = Fraction(0)
        for i, c in enumerate(counts):
            v = i + 2
            if not c:
                continue
            p = p_non * Fraction(c, left - 1)
            if s + v >= DECK:
                round_ += p
                continue
            after = counts[:i] + (c - 1,) + counts[i + 1:]
            sub_lost, sub_round = value(after, non - 1, s + v)
            lost += p * sub_lost
            round_ += p * sub_round
        return lost, round_

    result = value((4,) * 9, NON_TRINKETS, 0)
    print(f"(positions enumerated: {value.cache_info().currsize:,})")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    measure(args.first_seed, args.deals)
    print("\nPart 2: exact, by enumerating the opening cards")
    stuck = Fraction(NON_TRINKETS * (NON_TRINKETS - 1), DECK * (DECK - 1))
    print(f"stuck starts: {stuck} = {float(stuck):.4%}")
    lost, round_ = exact()
    print(f"forced losses: at least {float(lost):.6%}, at most {float(lost + round_):.6%} "
          f"(the forced lines that go round the deck, left unresolved: {float(round_):.2e})")
    print(f"forced losses that are not stuck starts: {float(lost - stuck):.4%}")


if __name__ == "__main__":
    main()
