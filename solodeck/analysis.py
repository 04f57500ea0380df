"""Batch analysis: solve many seeded deals, one CSV row per deal, resumable, on any engine.

``solodeck analyze GAME --deals N`` solves seeds S..S+N-1 in the modes asked for:

- **open**: the exact solver with every card known (the same answer as ``solodeck solve``);
  verdict winnable / unwinnable / unknown (a limit stopped it), the best score, the states searched;
- **blind**: the blind policy (solvers/blind.py, what ``solodeck play --policy blind`` does)
  plays the deal without seeing the order of the deck; verdict won / lost, the score of a win,
  and its win probability at the first decision (exact or estimated, as the policy knew it).

Rows are appended to ``deals.csv`` as deals finish, each in one write, so a run that is stopped
resumes (``resume=True``) with the seeds it has not done; a torn last line is dropped. The work
runs in this process (``jobs=1``), a local process pool (``jobs>1``) or on a Dask distributed
cluster (``scheduler="tcp://host:port"``: seeds batched into tasks, rows streamed back). Every
engine calls the same :func:`solve_deal`, and a deal's row does not depend on which ran it.

This module knows nothing of any game: only the registry, the state API and the solvers.
It is application code (files, processes, Dask, progress bars), so it lives in the package, not
among the generic algorithms of solodeck.solvers.
"""
from __future__ import annotations

import csv
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import SolodeckError, UnsupportedError
from .result import Limits, Verdict
from .solvers.stats import wilson_interval

COLUMNS = ["seed", "mode", "verdict", "exact", "score", "win_probability", "states", "seconds", "engine",
           "score_bound"]
# score_bound: open rows a limit stopped, the best score any win can have, proven (blank: none).
# Files written before it was added lack it; they are read, and rewritten with it on --resume.
OLD_COLUMNS = COLUMNS[:-1]
WON = {"open": Verdict.WINNABLE, "blind": Verdict.WON}  # a won row's verdict, by mode


@dataclass
class Settings:
    """What a row depends on; a resumed run must use the same (run.json keeps them)."""

    game: str
    modes: list
    time_limit: float = 10.0      # open mode: seconds per deal
    memory_mb: float = 512.0      # open mode: the table's cap per worker
    samples: int = 64             # blind mode: rollouts per move beyond the exact frontier
    options: dict = field(default_factory=dict)


# -- one deal ------------------------------------------------------------------------------------
def solve_deal(settings: Settings, seed: int, mode: str) -> dict:
    """The CSV row of one deal in one mode (runs in whichever worker gets it)."""
    from .registry import get_game
    from .solvers import make_solver
    from .solvers.episode import RANK_FIRST_CHOICE, play_episode
    from .solvers.blind import BlindPolicy

    game = get_game(settings.game)
    deal = game.new_deal(seed, settings.options)
    if mode == "open":
        limits = Limits(time_limit=settings.time_limit, memory_mb=settings.memory_mb)
        result = make_solver(game, limits).solve(game.initial_state(deal))
        return _row(seed, mode, result.verdict, result.exact, result.score, None, result.unique_states,
                    result.seconds, result.engine, result.score_bound)
    start = time.perf_counter()
    decisions, final = play_episode(game.initial_state(deal), BlindPolicy(game, settings.samples), RANK_FIRST_CHOICE)
    # what the player could know of the deal at the start: the first real choice's best row
    first = next((d.rows[0] for d in decisions if d.rows), None)
    outcome = final.outcome()
    p = first["win_probability"] if first else None
    won = outcome is not None and outcome.won  # no outcome: the policy gave up
    return _row(seed, mode, Verdict.WON if won else Verdict.LOST, bool(first and first["exact"]),
                outcome.score if outcome is not None else None, p, None, time.perf_counter() - start,
                "blind policy")


def solve_batch(settings: Settings, jobs: list) -> list:
    """Rows for [(seed, mode)]: one Dask task."""
    return [solve_deal(settings, seed, mode) for seed, mode in jobs]


def _row(seed, mode, verdict, exact, score, p, states, seconds, engine, score_bound=None) -> dict:
    return {"seed": seed, "mode": mode, "verdict": str(verdict), "exact": exact, "score": score,
            "win_probability": None if p is None else round(p, 6), "states": states,
            "seconds": round(seconds, 4), "engine": engine, "score_bound": score_bound}


# -- the run ----------------------------------------------------------------------------------------
class Run:
    """An analysis folder: run.json (the settings), deals.csv (the rows), summary.json, plots."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.csv = self.out / "deals.csv"
        self.settings_file = self.out / "run.json"

    def start(self, settings: Settings, resume: bool, redo: str | None = None) -> list:
        """Prepare the folder; return the rows already done (resume) or [] (a new run).
        ``redo``: drop the open rows a limit left without a verdict ("unknown") or without a
        proven best score too ("unproven"), to be solved again (the limits may then grow: a proof
        made under smaller limits stands under larger ones)."""
        if self.out.exists() and not self.out.is_dir():
            raise SolodeckError(f"--out {self.out}: is a file; expected a folder (new, or a run to --resume)")
        if resume and self.csv.exists() and not self.settings_file.exists():
            raise SolodeckError(f"{self.settings_file}: missing, so the run in {self.out} cannot be resumed "
                                "(its settings are unknown); start a new run with another --out")
        if self.csv.exists() and not resume:
            raise SolodeckError(f"{self.csv} exists: add --resume to continue that run, or choose "
                                "another --out (or delete the folder) to start again")
        self.out.mkdir(parents=True, exist_ok=True)
        if resume and self.settings_file.exists():
            before = json.loads(self.settings_file.read_text())
            now = asdict(settings)
            for key in ("game", "time_limit", "memory_mb", "samples", "options"):
                if before.get(key) == now[key]:
                    continue
                if redo and key in ("time_limit", "memory_mb") and now[key] > before.get(key, now[key]):
                    continue
                raise SolodeckError(f"{self.settings_file}: the run being resumed has {key} = "
                                    f"{before.get(key)!r}, this command {now[key]!r}; resume with the same settings"
                                    + (" (--redo: or larger limits)" if redo else ""))
            settings.modes = sorted(set(before["modes"]) | set(settings.modes))
        self.settings_file.write_text(json.dumps(asdict(settings), indent=2) + "\n")
        if not resume:
            return []
        rows = read_rows(self.csv)
        kept = [r for r in rows if not (redo and r["mode"] == "open" and not r["exact"]
                                        and (redo == "unproven" or r["verdict"] == Verdict.UNKNOWN))]
        if self.csv.exists() and (len(kept) < len(rows) or _header(self.csv) != COLUMNS):
            temporary = self.csv.with_suffix(".csv.new")  # replaced whole: a kill leaves the old file
            temporary.write_text(_csv_text(kept, header=True))
            os.replace(temporary, self.csv)
        return kept

    def append(self, rows: list) -> None:
        new = not self.csv.exists() or self.csv.stat().st_size == 0
        with self.csv.open("a", newline="") as f:
            text = _csv_text(rows, header=new)
            f.write(text)  # one write per batch of whole lines: a kill tears at most the last one
            f.flush()
            os.fsync(f.fileno())


def _csv_text(rows, header: bool) -> str:
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if row[k] is None else row[k]) for k in COLUMNS})
    return buf.getvalue()


def read_rows(path: Path) -> list:
    """The rows of a deals.csv; a torn last line (a run killed mid-write) is cut off the file."""
    if not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    lines = text.splitlines()
    if lines and lines[0].split(",") not in (COLUMNS, OLD_COLUMNS):
        raise SolodeckError(f"{path}, line 1: the header is {lines[0]!r}; expected {','.join(COLUMNS)} "
                            "(not a deals.csv of solodeck analyze?)")
    rows = []
    for number, raw in enumerate(csv.DictReader(lines), start=2):
        try:
            rows.append(_parse_row(raw))
        except (KeyError, TypeError, ValueError) as exc:
            raise SolodeckError(f"{path}, line {number}: {exc}; expected a row as solodeck analyze writes it "
                                "(fix or delete that line, then --resume)") from None
    return rows


def _parse_row(raw: dict) -> dict:
    """A deals.csv row as written by _csv_text; ValueError naming the field that is not."""
    def field(name, parse, blank_ok=False):
        text = raw[name]
        if text is None or (text == "" and not blank_ok):
            raise ValueError(f"{name} is missing")
        try:
            return parse(text) if text != "" else None
        except ValueError:
            expected = {int: "a whole number", float: "a number", _bool: "True or False"}[parse]
            raise ValueError(f"{name} {text!r} is not {expected}") from None

    row = {"seed": field("seed", int), "mode": raw["mode"], "verdict": raw["verdict"],
           "exact": field("exact", _bool), "score": field("score", int, True),
           "win_probability": field("win_probability", float, True), "states": field("states", int, True),
           "seconds": field("seconds", float), "engine": raw["engine"],
           "score_bound": field("score_bound", int, True) if raw.get("score_bound") is not None else None}
    if row["mode"] not in WON:
        raise ValueError(f"mode {row['mode']!r} is not open or blind")
    if row["verdict"] not in {v.value for v in Verdict}:
        raise ValueError(f"verdict {row['verdict']!r} is not one of {', '.join(v.value for v in Verdict)}")
    return row


def _header(path: Path) -> list:
    with path.open() as f:
        return f.readline().rstrip("\n").split(",")


def _bool(text: str) -> bool:
    if text not in ("True", "False"):
        raise ValueError(text)
    return text == "True"


def analyze(settings: Settings, seeds: range, out, *, jobs: int = 1, scheduler: str | None = None,
            resume: bool = False, redo: str | None = None, progress: bool = True,
            batch: int | None = None, command: str | None = None) -> dict:
    """Solve every (seed, mode) not yet in ``out``/deals.csv, then write the summary (with the
    ``command`` that made it, if given). Returns it."""
    from .registry import get_game

    game = get_game(settings.game)
    for mode in settings.modes:
        if mode not in game.modes:
            raise UnsupportedError(f"{game.name} has no {mode} mode (it has: {', '.join(game.modes)})")
    run = Run(out)
    rows = run.start(settings, resume or bool(redo), redo)
    done = {(r["seed"], r["mode"]) for r in rows}
    todo = [(seed, mode) for seed in seeds for mode in settings.modes if (seed, mode) not in done]
    bar = _Progress(len(todo), len(seeds) * len(settings.modes), rows, enabled=progress)
    try:
        for new in _engine(settings, todo, jobs, scheduler, batch):
            run.append(new)
            rows.extend(new)
            bar.update(new)
    finally:
        bar.close()
    wanted = {(seed, mode) for seed in seeds for mode in settings.modes}
    summary = summarize([r for r in rows if (r["seed"], r["mode"]) in wanted], settings, seeds)
    if command is not None:
        summary["command"] = command
    (run.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _engine(settings, todo, jobs, scheduler, batch):
    """Yield lists of finished rows, in the order they finish."""
    if scheduler:
        yield from _dask(settings, todo, scheduler, batch)
    elif jobs <= 1:
        for seed, mode in todo:
            yield [solve_deal(settings, seed, mode)]
    else:
        with ProcessPoolExecutor(jobs, initializer=_end_with_parent, initargs=(os.getpid(),)) as pool:
            futures = [pool.submit(solve_deal, settings, seed, mode) for seed, mode in todo]
            try:
                for future in as_completed(futures):
                    yield [future.result()]
            finally:
                for future in futures:
                    future.cancel()


def _end_with_parent(parent: int) -> None:
    """In a worker: end when the analyze process that started it dies (kill -9 included), instead
    of running on, orphaned. Linux asks the kernel for a signal at the parent's death; a watcher
    thread covers other systems (and a parent that died before the request)."""
    import signal
    import threading

    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _dask(settings, todo, address, batch):
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        raise UnsupportedError("--scheduler needs Dask: pip install 'solodeck[analysis]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise SolodeckError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        # About ten batches per worker keep them all busy to the end (a worker finishing early
        # takes another), yet each task carries enough deals to make its overhead small.
        size = batch or max(1, min(20, len(todo) // (10 * workers)))
        batches = [todo[i:i + size] for i in range(0, len(todo), size)]
        futures = [client.submit(solve_batch, settings, b, pure=False) for b in batches]
        try:
            for future in dask_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
    finally:
        client.close()


class Progress:
    """How far a batch of deals is: a tqdm bar on a terminal, else (a log, a pipe) a line as it
    starts and one every LINE_EVERY seconds. The caller counts its own wins (``advance``)."""

    LINE_EVERY = 15.0

    def __init__(self, label, todo, total, enabled):
        self.label, self.total, self.count = label, total, total - todo
        self.bar, self.lines = None, bool(enabled and todo and not sys.stderr.isatty())
        self.last_line = time.perf_counter()
        if enabled and todo and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=total - todo, desc="deals", unit=" deal", file=sys.stderr)
        elif self.lines:
            print(f"{label}: {todo} of {total} deal runs to do (a line every {self.LINE_EVERY:g} s)",
                  file=sys.stderr, flush=True)

    def advance(self, n, wins):
        self.count += n
        if self.bar is not None:
            self.bar.set_postfix_str(wins, refresh=False)
            self.bar.update(n)
        elif self.lines and time.perf_counter() - self.last_line >= self.LINE_EVERY:
            self.last_line = time.perf_counter()
            print(f"{self.label}: {self.count}/{self.total} done; {wins}", file=sys.stderr, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()


class _Progress(Progress):
    """analyze's progress: wins so far by mode."""

    def __init__(self, todo, total, rows, enabled):
        super().__init__("analyze", todo, total, enabled)
        self.wins = {m: sum(r["verdict"] == WON[r["mode"]] for r in rows if r["mode"] == m) for m in WON}
        self.done = {m: sum(r["mode"] == m for r in rows) for m in WON}

    def update(self, rows):
        for r in rows:
            self.done[r["mode"]] += 1
            self.wins[r["mode"]] += r["verdict"] == WON[r["mode"]]
        self.advance(len(rows), ", ".join(f"{m} wins {self.wins[m]}/{self.done[m]}" for m in WON if self.done[m]))


# -- the summary ------------------------------------------------------------------------------------
def summarize(rows: list, settings: Settings, seeds: range) -> dict:
    """Per mode: win rate with a Wilson 95% interval (unknowns counted both ways: as losses for the
    lower end, as wins for the upper), score distribution, the hardest deals; timing apart, since
    it is the one part that differs between two runs of the same deals."""
    summary = {"game": settings.game, "first_seed": seeds.start, "deals": len(seeds),
               "settings": asdict(settings), "modes": {}, "timing": {}}
    by_mode = {m: sorted((r for r in rows if r["mode"] == m), key=lambda r: r["seed"]) for m in settings.modes}
    for mode, mine in by_mode.items():
        n = len(mine)
        wins = sum(r["verdict"] == WON[mode] for r in mine)
        unknown = sum(r["verdict"] == Verdict.UNKNOWN for r in mine)
        lo, _ = wilson_interval(wins, n)
        _, hi = wilson_interval(wins + unknown, n)
        scores: dict = {}
        for r in mine:
            if r["verdict"] == WON[mode] and r["score"] is not None:
                scores[r["score"]] = scores.get(r["score"], 0) + 1
        entry = {"deals": n, "wins": wins, "losses": n - wins - unknown, "unknown": unknown,
                 "win_rate": wins / n if n else None, "interval": [lo, hi],
                 "exact": sum(r["exact"] for r in mine),
                 "scores": {str(k): scores[k] for k in sorted(scores)}}
        if mode == "open":
            hardest = sorted((r for r in mine if r["states"] is not None), key=lambda r: -r["states"])[:5]
            entry["hardest"] = [{"seed": r["seed"], "states": r["states"], "verdict": r["verdict"]} for r in hardest]
            # what a limit left open, with what was proven: the best found and the best possible
            entry["unproven"] = [{"seed": r["seed"], "verdict": r["verdict"], "score": r["score"],
                                  "score_bound": r.get("score_bound")} for r in mine if not r["exact"]]
        else:
            ps = [r["win_probability"] for r in mine if r["win_probability"] is not None]
            entry["mean_first_win_probability"] = statistics.fmean(ps) if ps else None
        summary["modes"][mode] = entry
        times = [r["seconds"] for r in mine]
        if times:
            summary["timing"][mode] = {"median": statistics.median(times), "p95": _percentile(times, 0.95),
                                       "max": max(times), "total": sum(times)}
    if {"open", "blind"} <= set(by_mode):
        won_open = {r["seed"] for r in by_mode["open"] if r["verdict"] == WON["open"]}
        won_blind = {r["seed"] for r in by_mode["blind"] if r["verdict"] == WON["blind"]}
        summary["cost_of_blindness"] = {
            "won_open_lost_blind": len(won_open - won_blind),
            "win_rate_difference": summary["modes"]["open"]["win_rate"] - summary["modes"]["blind"]["win_rate"]}
    return summary


def _percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
