"""OR-tools CP-SAT models, one module per game that has one (imported as solodeck.encodings).

A game names its model in ``Game.model``; the module ``solodeck.encodings.<model>`` offers
``CpSatSolver(game, limits, workers)`` with the exact search's ``solve(state) -> SolveResult``.
"""
import importlib


def cpsat_solver(game, limits, workers: int = 1):
    """The game's CP-SAT engine, or None if the game declares no model."""
    if not game.model:
        return None
    return importlib.import_module(f"solodeck.encodings.{game.model}").CpSatSolver(game, limits, workers)
