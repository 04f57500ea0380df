"""The game registry: names and aliases -> Game instances.

Games register themselves: every package of ``solodeck.games`` (one a game, or one a family of
games: the trick games) defines a ``GAME`` instance, or a tuple ``GAMES`` of them, whose class
declares its name, aliases, title, kernel and model (solodeck/api.py), and this module finds them
all; adding a game edits no shared file. The seed games not written yet are listed
in PLANNED, so deal files and `solodeck games` can name them; each leaves the list when its
module lands (a test checks that no name is both).
"""
from __future__ import annotations

import importlib
import pkgutil

from . import games as _games_package
from .api import Game
from .errors import UnknownGameError, UnsupportedError

# (name, aliases, title) of the seed games still to come: none now, every seed game has landed.
PLANNED: list = []


def _discover() -> dict[str, Game]:
    found = {}
    for package in sorted(m.name for m in pkgutil.iter_modules(_games_package.__path__)):
        module = importlib.import_module(f"{_games_package.__name__}.{package}")
        for game in getattr(module, "GAMES", None) or (module.GAME,):
            assert game.name and game.name not in found, f"games/{package}: GAME.name {game.name!r} missing or taken"
            found[game.name] = game
    for name, aliases, title in PLANNED:
        assert name not in found, f"{name} has landed: remove it from registry.PLANNED"
        game = Game()  # planned: named, refused with a clear error
        game.name, game.aliases, game.title, game.implemented = name, aliases, title, False
        found[name] = game
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


def get_game(name: str, *, need_implemented: bool = True) -> Game:
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key not in _ALIASES:
        raise UnknownGameError(f"unknown game '{name}' (known: {', '.join(GAMES)})")
    game = GAMES[_ALIASES[key]]
    if need_implemented and not game.implemented:
        raise UnsupportedError(f"{game.name}: not implemented yet (see `solodeck games`)")
    return game
