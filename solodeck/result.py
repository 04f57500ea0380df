"""What every engine returns, the limits it runs under, and the one way an engine finishes a solve.

Status, verdict and stop reason are ``StrEnum``s: they compare equal to their strings, so JSON
and CSV output is the plain text ("solved", "winnable", "timeout", ...).

An open-mode engine ends every solve with :func:`finish_open`: it replays the engine's line
under the reference rules (a line is never reported unreplayed), then maps "exhaustive" or the
stop reason to status, verdict and exactness, the same way for every engine. Blind engines end
with :func:`finish_blind`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum


class Status(StrEnum):
    SOLVED = "solved"              # exact, and a win exists
    UNSOLVABLE = "unsolvable"      # exhaustive proof that no win exists
    TIMEOUT = "timeout"            # a limit stopped the search: never read as a loss
    MEMORY_LIMIT = "memory-limit"
    ESTIMATED = "estimated"        # blind mode beyond the exact frontier: rollouts


class Verdict(StrEnum):
    WINNABLE = "winnable"          # a replayed winning line exists
    UNWINNABLE = "unwinnable"      # proven
    UNKNOWN = "unknown"            # a limit stopped the search before either
    WON = "won"                    # what a policy did on a deal it played (analysis, blind rows)
    LOST = "lost"


class StopReason(StrEnum):
    """Why a limit stopped a search. The kernels report it as a code (ext/shared.pxd)."""

    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory-limit"

    @classmethod
    def from_code(cls, code: int) -> "StopReason":
        """The kernels' ``stopped`` code: 1 time, 2 states (0 means not stopped: no reason)."""
        return cls.TIMEOUT if code == 1 else cls.MEMORY_LIMIT


class SearchStopped(Exception):
    """Raised inside a search when a limit is reached; the engine turns it into a result."""

    def __init__(self, reason: StopReason):
        super().__init__(reason)
        self.reason = reason


ANYTIME_SECONDS = 60.0  # the default time limit of a solve whose whole deals never finish (Game.anytime)


@dataclass
class Limits:
    time_limit: float | None = None   # seconds of wall time; None = no limit
    max_states: int | None = None     # transposition-table entries; None = no limit
    memory_mb: float = 1024.0         # the table's size cap: a full table is a cache (slower, still exact)
    # perf_counter seconds at which the whole command's budget ends (solve and hints together:
    # `solodeck solve --time-limit`); every search started before it stops by it. None: no end.
    deadline: float | None = None
    # positions one search may enter (each value() its own; None = no limit): a budget inside a
    # decision that is the same on every machine. Honored by the cycle-aware search (solvers/reach.py)
    # and the kernels that mirror it, which the determinized estimator asks.
    max_nodes: int | None = None

    def seconds(self, default: float | None = None) -> float | None:
        """The budget of a search that starts now: its own time limit (else ``default``), cut to
        what the deadline leaves (never 0, which the kernels read as "no limit"); None: none."""
        own = self.time_limit if self.time_limit is not None else default
        if self.deadline is None:
            return own
        left = max(self.deadline - time.perf_counter(), 1e-6)
        return left if own is None else min(own, left)

    def value_nodes(self, default: int) -> int | None:
        """The budget of one value() (a hint file values every move): max_nodes, else ``default``
        when no time limit is set, so that a hint file comes out the same on every machine; None
        when only the time limit binds."""
        if self.max_nodes is not None:
            return self.max_nodes
        return default if self.time_limit is None else None

    def expired(self) -> bool:
        """Has the deadline passed (nothing more may be searched)?"""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def check(self, deadline: float | None, stored: int) -> None:
        """Raise SearchStopped past ``deadline`` (perf_counter seconds) or once ``stored`` table
        entries reach ``max_states``: the check a game's own search makes every so many nodes."""
        if deadline is not None and time.perf_counter() > deadline:
            raise SearchStopped(StopReason.TIMEOUT)
        if self.max_states is not None and stored >= self.max_states:
            raise SearchStopped(StopReason.MEMORY_LIMIT)


@dataclass
class SolveResult:
    """status and verdict: see :class:`Status`, :class:`Verdict`. ``exact`` is True only when the
    verdict *and* the score are proven optimal. ``line`` holds move objects (str() each for text)."""

    game: str
    mode: str
    status: Status
    verdict: Verdict
    exact: bool
    score: int | None
    line: list = field(default_factory=list)
    nodes: int = 0
    unique_states: int = 0
    seconds: float = 0.0
    engine: str = "dfs"               # "dfs" (generic search), "kernel", "cpsat", "expectimax", ...
    raced_against: list = field(default_factory=list)  # the engines this one beat in a race
    # blind mode: the win probability of best play, E[score | win], and the moves now, ranked
    win_probability: float | None = None
    expected_score: float | None = None
    ranked: list = field(default_factory=list)
    interval: list | None = None      # blind estimates: Wilson 95% interval of win_probability
    samples: int | None = None        # blind estimates: rollouts per move
    # open mode stopped by a limit with a win found: the best score any win can have, proven (the
    # best win's score lies between it and ``score``); None when the engine proves no such bound
    score_bound: int | None = None

    def to_json(self) -> dict:
        return {
            "game": self.game, "mode": self.mode, "status": str(self.status), "verdict": str(self.verdict),
            "exact": self.exact, "score": self.score, "line": [str(m) for m in self.line],
            "engine": self.engine, **({"raced_against": self.raced_against} if self.raced_against else {}),
            **({"score_bound": self.score_bound} if self.score_bound is not None else {}),
            **({"win_probability": self.win_probability, "expected_score": self.expected_score,
                "interval": self.interval, "samples": self.samples,
                "moves": self.ranked} if self.mode == "blind" else {}),
            "stats": {"nodes": self.nodes, "unique_states": self.unique_states,
                      "seconds": round(self.seconds, 6),
                      "nodes_per_second": round(self.nodes / self.seconds) if self.seconds > 0 else None},
        }


def finish_open(game, state, line, *, won: bool, stop: StopReason | None = None, nodes: int = 0,
                stored: int = 0, start: float, engine: str) -> SolveResult:
    """The result of an open-mode solve of ``state`` (after its dealt chance) that found ``line``.

    ``won``: the engine says ``line`` wins. ``stop``: None when the search was exhaustive (then a
    winning line is the best one and a non-winning line proves no win exists), else why a limit
    stopped it (then only a winning line means anything). The line is replayed under the rules
    first; a claimed win that does not replay to a win is an internal error, never an answer."""
    end = game.replay_moves(state, line)
    outcome = end.outcome()
    if outcome is None and stop is None and not won:
        outcome = end.stop_outcome()  # the best is a line that stops making progress (solvers/reach.py)
    replayed_win = bool(outcome and outcome.won)
    if won != replayed_win and (won or stop is None):
        raise AssertionError(f"internal error: {engine} says its line {'wins' if won else 'loses'}, "
                             f"the rules say otherwise: {[str(m) for m in line]}")
    if stop is None:
        status = Status.SOLVED if won else Status.UNSOLVABLE
        verdict, exact = (Verdict.WINNABLE if won else Verdict.UNWINNABLE), True
    else:
        status, verdict, exact = Status(stop.value), (Verdict.WINNABLE if won else Verdict.UNKNOWN), False
        line = line if won else []
    # A loss's score means something only when the search was exhaustive, in a game that scores losses.
    score = outcome.score if outcome is not None and (won or stop is None) else None
    return SolveResult(game.name, "open", status, verdict, exact, score, list(line),
                       nodes, stored, time.perf_counter() - start, engine=engine)


def finish_blind(game, *, status: Status, verdict: Verdict, exact: bool, line, start: float, nodes: int,
                 stored: int, engine: str, win_probability, expected_score, ranked,
                 interval=None, samples=None) -> SolveResult:
    """The result of a blind-mode answer at a decision (solvers/expectimax.py, solvers/blind.py)."""
    return SolveResult(game.name, "blind", status, verdict, exact, None, list(line), nodes, stored,
                       time.perf_counter() - start, engine=engine, win_probability=win_probability,
                       expected_score=expected_score, ranked=ranked, interval=interval, samples=samples)
