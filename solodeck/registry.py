"""The game registry: names and aliases -> Game instances, and each game's rules page.

Games register themselves: every package of ``solodeck.games`` (one a game, or one a family of
games: the trick games) defines a ``GAME`` instance, or a tuple ``GAMES`` of them, whose class
declares its name, aliases, title, kernel and model (solodeck/api.py), and this module finds them
all; adding a game edits no shared file.
"""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from . import games as _games_package
from .api import Game
from .errors import UnknownGameError


def _discover() -> dict[str, Game]:
    found = {}
    for package in sorted(m.name for m in pkgutil.iter_modules(_games_package.__path__) if m.ispkg):
        module = importlib.import_module(f"{_games_package.__name__}.{package}")
        for game in getattr(module, "GAMES", None) or (module.GAME,):
            assert game.name and game.name not in found, f"games/{package}: GAME.name {game.name!r} missing or taken"
            found[game.name] = game
    return found


def _alias_table(games) -> dict[str, str]:
    table = {}
    for game in games.values():
        for alias in (game.name, *game.aliases):
            assert alias not in table, f"'{alias}' names both {table[alias]} and {game.name}"
            table[alias] = game.name
    return table


GAMES: dict[str, Game] = _discover()
_ALIASES = _alias_table(GAMES)


def get_game(name: str) -> Game:
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key not in _ALIASES:
        raise UnknownGameError(f"unknown game '{name}' (known: {', '.join(GAMES)})")
    return GAMES[_ALIASES[key]]


def rules_path(game: Game) -> Path:
    """The game's rules page: the copy installed in the package, else docs/rules/ of a source checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "rules" / f"{game.name}.md"
    return installed if installed.exists() else here.parent / "docs" / "rules" / f"{game.name}.md"
