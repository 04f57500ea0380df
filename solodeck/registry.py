"""The game registry: names and aliases -> Game instances.

Every seed game has a name from the start, so deal files and hint files can name it; a game
whose module has not landed yet is listed as planned and refused with a clear error.
"""
from __future__ import annotations

from .api import Game
from .errors import UnknownGameError, UnsupportedError
from .games.foursquare import Foursquare
from .games.syndicate import Syndicate

_PLANNED = [
    ("sandwich-guy", ("sandwich",), "The Sandwich Guy"),
    ("boba", ("boba-tea",), "The First Boba Tea Shop in London"),
    ("frozen-novelty", ("frozen", "foresight"), "Frozen Novelty"),
    ("skyway", (), "Skyway"),
    ("area-52", ("area52",), "Area 52"),
    ("dead-center", ("deadcenter",), "Dead Center"),
    ("loot-the-loop", ("loot",), "Loot the Loop"),
    ("hide-and-seek", ("hide",), "Hide and Seek"),
    ("emissary", ("the-emissary",), "The Emissary"),
    ("friends-in-high-places", ("friends", "fihp"), "Friends in High Places"),
    ("dungeon", ("dungeon-crawl",), "Dungeon crawl"),
]


def _planned(name, aliases, title) -> Game:
    game = Game()
    game.name, game.aliases, game.title, game.implemented = name, aliases, title, False
    return game


GAMES: dict[str, Game] = {g.name: g for g in [Syndicate(), Foursquare()] + [_planned(*p) for p in _PLANNED]}
_ALIASES = {alias: g.name for g in GAMES.values() for alias in (g.name, *g.aliases)}


def get_game(name: str, *, need_implemented: bool = True) -> Game:
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key not in _ALIASES:
        raise UnknownGameError(f"unknown game '{name}' (known: {', '.join(GAMES)})")
    game = GAMES[_ALIASES[key]]
    if need_implemented and not game.implemented:
        raise UnsupportedError(f"{game.name}: not implemented yet (see `solodeck games`)")
    return game
