"""The one portable seeded shuffle every game uses (docs/deals.md writes it out for other languages).

    state  = (seed + stream * 0xD1B54A32D192ED03) mod 2^64     # stream 0 = the deal, k = k-th reshuffle
    next() = SplitMix64 step on state
    below(n): limit = 2^64 - (2^64 mod n); draw x = next() until x < limit; return x mod n
    shuffle: for i = n-1 down to 1: j = below(i + 1); swap a[i], a[j]

The input list is the pile in canonical card order (solodeck.cards); the output is top card first.
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STREAM_STEP = 0xD1B54A32D192ED03


class SplitMix64:
    def __init__(self, seed: int, stream: int = 0):
        self.state = (seed + stream * STREAM_STEP) & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n) without modulo bias (rejection sampling)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled(cards, seed: int, stream: int = 0) -> list:
    """Fisher–Yates shuffle of ``cards`` (given in canonical order) driven by SplitMix64."""
    return shuffled_by(cards, SplitMix64(seed, stream))


def shuffled_by(cards, rng: SplitMix64) -> list:
    """Fisher–Yates shuffle of ``cards`` with the draws of ``rng``."""
    a = list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = rng.below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a
