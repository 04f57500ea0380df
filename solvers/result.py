"""What every solver returns, and the limits it runs under."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Limits:
    time_limit: float | None = None   # seconds of wall time; None = no limit
    max_states: int | None = None     # transposition-table entries; None = no limit
    memory_mb: float = 1024.0         # the table's size cap: a full table is a cache (slower, still exact)


@dataclass
class SolveResult:
    """status: "solved" (exact, winnable), "unsolvable" (exhaustive proof of no win),
    "timeout" / "memory-limit" (a limit stopped the search: never read as a loss).

    verdict is "winnable" (a replayable winning line is in ``line``), "unwinnable" (proven) or
    "unknown". ``exact`` is True only when the verdict *and* the score are proven optimal."""

    game: str
    mode: str
    status: str
    verdict: str
    exact: bool
    score: int | None
    line: list = field(default_factory=list)  # move objects; str() each for text
    nodes: int = 0
    unique_states: int = 0
    seconds: float = 0.0
    engine: str = "dfs"               # "dfs" (generic search), "kernel", "cpsat"
    raced_against: list = field(default_factory=list)  # the engines this one beat in a race
    # blind mode: the win probability of best play, E[score | win], and the moves now, ranked
    win_probability: float | None = None
    expected_score: float | None = None
    ranked: list = field(default_factory=list)
    interval: list | None = None      # blind estimates: Wilson 95% interval of win_probability
    samples: int | None = None        # blind estimates: rollouts per move

    def to_json(self) -> dict:
        return {
            "game": self.game, "mode": self.mode, "status": self.status, "verdict": self.verdict,
            "exact": self.exact, "score": self.score, "line": [str(m) for m in self.line],
            "engine": self.engine, **({"raced_against": self.raced_against} if self.raced_against else {}),
            **({"win_probability": self.win_probability, "expected_score": self.expected_score,
                "interval": self.interval, "samples": self.samples,
                "moves": self.ranked} if self.mode == "blind" else {}),
            "stats": {"nodes": self.nodes, "unique_states": self.unique_states,
                      "seconds": round(self.seconds, 6),
                      "nodes_per_second": round(self.nodes / self.seconds) if self.seconds > 0 else None},
        }
