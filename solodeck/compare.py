"""Two policies on the same seeded deals: each one's win rate, the paired counts, and an exact
McNemar test of the difference.

``solodeck compare GAME --policy A --policy B --seeds 10000-10999`` plays A and B on every deal
(the same deal for both: the paired design removes the luck of the deal from the difference). The
deals both win or both lose say nothing about which policy is better; the test looks only at the
deals exactly one of them won: if the policies were equally good, each such deal would be A's
with probability 1/2, so the two-sided p-value is twice the binomial tail of the smaller count.

Rows (seed, won_a, won_b, score_a, score_b, seconds_a, seconds_b) may be kept in a CSV file
(``--out``), written as deals finish, so a long comparison is resumed (``--resume``) or audited;
its first line, a comment, names what was compared, and a resumed run must compare the same.

This module names no game: only the registry, the policies and the episode loop.
"""
from __future__ import annotations

import csv
import json
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .analysis import Progress
from .errors import SolodeckError
from .solvers.stats import mcnemar_p, wilson_interval

COLUMNS = ["seed", "won_a", "won_b", "score_a", "score_b", "seconds_a", "seconds_b"]


@dataclass
class Comparison:
    """What a row depends on (a resumed --out file must hold the same)."""

    game: str
    policies: list                # [A, B]: names from solvers.blind.POLICIES
    samples: int | None = None    # the blind policies' samples per decision (None: the game's default)
    options: dict = field(default_factory=dict)


def play_deal(comparison: Comparison, seed: int) -> dict:
    """The row of one deal: both policies play it from the start (runs in whichever worker gets it)."""
    from .registry import get_game
    from .solvers.episode import RANK_FIRST_CHOICE, play_episode
    from .solvers.blind import policy

    game = get_game(comparison.game)
    deal = game.new_deal(seed, comparison.options)
    row = {"seed": seed}
    for tag, name in zip("ab", comparison.policies):
        start = time.perf_counter()
        chooser = policy(game, name, comparison.samples)
        _decisions, final = play_episode(game.initial_state(deal), chooser, RANK_FIRST_CHOICE)  # as analyze plays
        outcome = final.outcome()
        row[f"won_{tag}"] = outcome is not None and outcome.won  # no outcome: the policy gave up, lost
        row[f"score_{tag}"] = outcome.score if outcome is not None else None
        row[f"seconds_{tag}"] = round(time.perf_counter() - start, 4)
    return row


def summarize(rows: list, comparison: Comparison, seeds: range) -> dict:
    n = len(rows)
    summary = {"game": comparison.game, "seeds": [seeds.start, seeds.stop - 1], "deals": n,
               "samples": comparison.samples, "options": comparison.options}
    for tag, name in zip("ab", comparison.policies):
        wins = sum(r[f"won_{tag}"] for r in rows)
        lo, hi = wilson_interval(wins, n)
        summary[tag] = {"policy": name, "wins": wins, "win_rate": wins / n if n else None, "interval": [lo, hi],
                        "median_seconds": statistics.median(r[f"seconds_{tag}"] for r in rows) if rows else None}
    only_a = sum(r["won_a"] and not r["won_b"] for r in rows)
    only_b = sum(r["won_b"] and not r["won_a"] for r in rows)
    both = sum(r["won_a"] and r["won_b"] for r in rows)
    summary["paired"] = {"both": both, "only_a": only_a, "only_b": only_b, "neither": n - both - only_a - only_b}
    summary["mcnemar_p"] = mcnemar_p(only_a, only_b)
    return summary


def summary_text(summary: dict, title: str) -> str:
    first, last = summary["seeds"]
    lines = [f"{title}, seeds {first}-{last} ({summary['deals']} deals, the same deals for both)"]
    width = max(len(summary[t]["policy"]) for t in "ab")
    for tag in "ab":
        s = summary[tag]
        rate = "-" if s["win_rate"] is None else f"{100 * s['win_rate']:.1f}%"
        lo, hi = s["interval"]
        secs = "" if s["median_seconds"] is None else f", median {s['median_seconds']:.2f} s a deal"
        lines.append(f"  {tag.upper()} {s['policy']:<{width}}  won {s['wins']}/{summary['deals']} = {rate} "
                     f"(95% interval {100 * lo:.1f}-{100 * hi:.1f}%){secs}")
    p = summary["paired"]
    lines.append(f"paired: both won {p['both']}, only A {p['only_a']}, only B {p['only_b']}, neither {p['neither']}")
    verdict = ("a significant difference at the 5% level" if summary["mcnemar_p"] < 0.05
               else "no significant difference at the 5% level")
    lines.append(f"exact McNemar p = {summary['mcnemar_p']:.3g} (two-sided, from the "
                 f"{p['only_a'] + p['only_b']} deals only one policy won): {verdict}")
    return "\n".join(lines)


# -- the rows file --------------------------------------------------------------------------------
def _header(comparison: Comparison) -> str:
    return "# solodeck compare " + json.dumps(asdict(comparison), sort_keys=True) + "\n"


def read_rows(path: Path, comparison: Comparison) -> list:
    """The rows already in ``path`` (a torn last line is cut off); refused if it compared something else."""
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    lines = text.splitlines()
    if not lines:
        return []
    if lines[0] + "\n" != _header(comparison):
        raise SolodeckError(f"{path}, line 1: {lines[0][:120]!r} is not this comparison "
                            f"({_header(comparison).strip()}); resume with the same game, policies, "
                            "samples and options, or choose another --out")
    if len(lines) > 1 and lines[1].split(",") != COLUMNS:
        raise SolodeckError(f"{path}, line 2: the header is {lines[1]!r}; expected {','.join(COLUMNS)}")
    rows = []
    for number, raw in enumerate(csv.DictReader(lines[1:]), start=3):
        try:
            rows.append({"seed": int(raw["seed"]), "won_a": _bool(raw["won_a"]), "won_b": _bool(raw["won_b"]),
                         "score_a": _score(raw["score_a"]), "score_b": _score(raw["score_b"]),
                         "seconds_a": float(raw["seconds_a"]), "seconds_b": float(raw["seconds_b"])})
        except (KeyError, TypeError, ValueError):
            raise SolodeckError(f"{path}, line {number}: expected seed,won_a,won_b,score_a,score_b,seconds_a,"
                                "seconds_b as solodeck compare writes them (fix or delete that line)") from None
    return rows


def _bool(text):
    if text not in ("True", "False"):
        raise ValueError(text)
    return text == "True"


def _score(text):
    return None if text == "" else int(text)


def _append(path: Path, rows: list, comparison: Comparison) -> None:
    import io

    new = not path.exists() or path.stat().st_size == 0
    buf = io.StringIO()
    writer = csv.DictWriter(buf, COLUMNS, lineterminator="\n")
    if new:
        buf.write(_header(comparison))
        writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row[k] is None else row[k] for k in COLUMNS})
    with path.open("a", newline="") as f:
        f.write(buf.getvalue())  # one write of whole lines: a kill tears at most the last one
        f.flush()
        os.fsync(f.fileno())


# -- the run --------------------------------------------------------------------------------------
def compare(comparison: Comparison, seeds: range, *, jobs: int = 1, out=None, resume: bool = False,
            progress: bool = True) -> dict:
    """Play every seed not yet in ``out`` (when given), then summarize the rows of ``seeds``."""
    rows = []
    if out is not None:
        out = Path(out)
        if out.exists() and not resume:
            raise SolodeckError(f"--out {out}: exists; add --resume to continue that comparison, "
                                "or choose another file")
        rows = read_rows(out, comparison) if out.exists() else []
    done = {r["seed"] for r in rows}
    rows = [r for r in rows if r["seed"] in seeds]
    todo = [seed for seed in seeds if seed not in done]
    bar = _Progress(comparison, len(todo), len(seeds), rows, progress)
    try:
        for row in _engine(comparison, todo, jobs):
            if out is not None:
                _append(out, [row], comparison)
            rows.append(row)
            bar.update(row)
    finally:
        bar.close()
    return summarize(sorted(rows, key=lambda r: r["seed"]), comparison, seeds)


def _engine(comparison, todo, jobs):
    """Yield the rows in the order they finish: here, or in a pool of ``jobs`` processes."""
    if jobs <= 1:
        for seed in todo:
            yield play_deal(comparison, seed)
        return
    from .analysis import _end_with_parent

    with ProcessPoolExecutor(jobs, initializer=_end_with_parent, initargs=(os.getpid(),)) as pool:
        futures = [pool.submit(play_deal, comparison, seed) for seed in todo]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


class _Progress(Progress):
    """compare's progress: each policy's wins so far."""

    def __init__(self, comparison, todo, total, rows, enabled):
        super().__init__("compare", todo, total, enabled)
        self.names = comparison.policies
        self.wins = [sum(r["won_a"] for r in rows), sum(r["won_b"] for r in rows)]

    def update(self, row):
        self.wins[0] += row["won_a"]
        self.wins[1] += row["won_b"]
        self.advance(1, f"A {self.names[0]} won {self.wins[0]}, B {self.names[1]} won {self.wins[1]}")
