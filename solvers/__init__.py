"""Generic search algorithms. They know nothing of any game: only the state API (solodeck.api)."""
from .result import SolveResult, Limits
from .dfs import DepthFirstSolver, make_solver, solve_open, value_first_moves

__all__ = ["SolveResult", "Limits", "DepthFirstSolver", "make_solver", "solve_open", "value_first_moves"]
