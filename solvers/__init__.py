"""Generic search algorithms. They know nothing of any game: only the state API (solodeck.api)."""
from .result import SolveResult, Limits
from .dfs import DepthFirstSolver, solve_open

__all__ = ["SolveResult", "Limits", "DepthFirstSolver", "solve_open"]
