"""OR-tools CP-SAT models, one module per game that has one (imported as solodeck.encodings).

Each module ``solodeck.encodings.<game>`` offers ``CpSatSolver(game, limits, workers)`` with the
exact search's ``solve(state) -> SolveResult`` interface.
"""
import importlib


def cpsat_solver(game, limits, workers: int = 1):
    """The game's CP-SAT engine, or None if the game has no model."""
    name = f"solodeck.encodings.{game.name.replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:  # the model exists but something it needs is missing
            raise
        return None
    return module.CpSatSolver(game, limits, workers)
