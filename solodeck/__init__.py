"""solodeck: solve and analyse solo card games played with a standard deck.

The Python API for frontends (docs/api.md): ``new_game`` starts a seeded game or loads a deal's
text, ``Position.play`` moves on, ``analyse`` values every move of a position, ``solve`` gives a
deal's verdict and best line. They return the objects the live engine (`solodeck engine`)
serialises; the functions load the games only when first called.
"""
from .version import __version__


def new_game(game: str | None = None, seed: int = 0, options: dict | None = None, *, deal: str | None = None):
    """A game's first decision (solodeck.frontend.Position): ``game`` and ``seed`` (and its
    ``options``), or ``deal``, the text of a deal file (a mid-game [position] included)."""
    from .frontend import new_game as start
    return start(game, seed, options, deal=deal)


def analyse(position, mode: str = "open", time_limit: float = 5.0, **settings) -> dict:
    """Every legal move of ``position`` valued and ranked: the engine's analysis reply."""
    from .frontend import analyse as run
    return run(position, mode, time_limit, **settings)


def solve(deal, mode: str = "open", time_limit: float | None = None, **settings):
    """A deal's answer (solodeck.result.SolveResult, as `solodeck solve --json` prints it):
    ``deal`` is a path to a deal file, a deal file's text, or a Position."""
    from .frontend import solve as run
    return run(deal, mode, time_limit, **settings)
