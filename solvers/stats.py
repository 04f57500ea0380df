"""The statistics every blind estimate and comparison uses: the Wilson interval of a proportion,
the exact McNemar test of two policies on the same deals, and the rows of moves left unvalued.
A leaf module: it imports nothing of solodeck."""
from __future__ import annotations

import math


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) when n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_p(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar p-value: under "equally good" each of the n = only_a + only_b
    discordant deals is A's with probability 1/2; twice the tail of the smaller count, at most 1."""
    n = only_a + only_b
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2 ** n)  # integer arithmetic to the last division: no underflow on the way


def unvalued_row(move) -> dict:
    """A ranked move with no value: an estimator passed it over."""
    return {"move": move, "win_probability": None, "interval": None, "samples": None, "expected_score": None,
            "exact": False}


def unvalued_rows(state, rows) -> list:
    """Rows for the legal moves an estimator passed over (BlindPlan.candidates): last, unvalued."""
    valued = {r["move"] for r in rows}
    return [unvalued_row(move) for move in state.legal_moves() if move not in valued]
