"""A portfolio: race several exact engines on one position in parallel processes.

The first *exact* answer wins and the others are stopped. If no engine is exact (every one hit
its limit), the best inexact answer is kept: a replayed win beats "unknown". No engine's
answer is ever upgraded: a race reports exactly what the winning engine proved.
"""
from __future__ import annotations

import multiprocessing
import queue as queue_module

from solodeck.api import Outcome
from solodeck.result import SolveResult, Verdict


def _run(name, make_engine, state, results):
    try:
        results.put((name, make_engine().solve(state), None))
    except Exception as exc:  # reported to the parent, which raises it if no engine answers
        results.put((name, None, f"{type(exc).__name__}: {exc}"))


def race(game, engines: dict, state) -> SolveResult:
    """``engines``: name -> a function returning an engine with ``solve(state)``. Returns the
    winner's result (its ``engine`` names it), with ``raced_against`` naming the others. Inexact
    answers are ranked by ``game.utility`` (a replayed win first, then its score in the game's sense)."""
    context = multiprocessing.get_context("fork")  # the engine factories need not be picklable
    results = context.Queue()
    processes = [context.Process(target=_run, args=(name, make, state, results), daemon=True)
                 for name, make in engines.items()]
    for process in processes:
        process.start()
    answers, errors = [], []
    try:
        while len(answers) + len(errors) < len(processes):
            try:
                name, result, error = results.get(timeout=1.0)
            except queue_module.Empty:
                if not any(p.is_alive() for p in processes) and results.empty():
                    break  # an engine died without answering (killed, out of memory)
                continue
            if error:
                errors.append(f"{name}: {error}")
                continue
            if result.exact:
                return _named(result, name, engines)
            answers.append((name, result))
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()
    if not answers:
        raise RuntimeError("every engine of the race failed: " + "; ".join(errors))
    name, best = max(answers, key=lambda a: game.utility(
        Outcome(True, a[1].score) if a[1].verdict == Verdict.WINNABLE else None))
    return _named(best, name, engines)


def _named(result: SolveResult, winner: str, engines: dict) -> SolveResult:
    result.raced_against = [name for name in engines if name != winner]
    return result
