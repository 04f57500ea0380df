"""The game registry: names and aliases -> Game instances.

Every seed game has a name from the start, so deal files and hint files can name it. A game is
ready when its module ``solodeck/games/<module>.py`` exists: the module's ``GAME`` is the
instance. A game whose module has not landed yet is listed as planned and refused clearly.
"""
from __future__ import annotations

import importlib
import importlib.util

from .api import Game
from .errors import UnknownGameError, UnsupportedError

# (name, aliases, title, module in solodeck.games), in the order `solodeck games` lists them.
SEED_GAMES = [
    ("syndicate", (), "Syndicate", "syndicate"),
    ("foursquare", ("4square", "4sq"), "Foursquare", "foursquare"),
    ("sandwich-guy", ("sandwich",), "The Sandwich Guy", "sandwich"),
    ("boba", ("boba-tea",), "The First Boba Tea Shop in London", "boba"),
    ("frozen-novelty", ("frozen", "foresight"), "Frozen Novelty", "frozen_novelty"),
    ("skyway", (), "Skyway", "skyway"),
    ("area-52", ("area52",), "Area 52", "area52"),
    ("dead-center", ("deadcenter",), "Dead Center", "dead_center"),
    ("loot-the-loop", ("loot",), "Loot the Loop", "loot_the_loop"),
    ("hide-and-seek", ("hide",), "Hide and Seek", "hide_and_seek"),
    ("emissary", ("the-emissary",), "The Emissary", "emissary"),
    ("friends-in-high-places", ("friends", "fihp"), "Friends in High Places", "friends"),
    ("dungeon", ("dungeon-crawl",), "Dungeon crawl", "dungeon"),
]


def _load(name, aliases, title, module) -> Game:
    if importlib.util.find_spec(f"{__package__}.games.{module}") is not None:
        game = importlib.import_module(f"{__package__}.games.{module}").GAME
        assert game.name == name, f"games/{module}.py: GAME.name is {game.name!r}, the registry says {name!r}"
        return game
    game = Game()  # planned: named, refused with a clear error
    game.name, game.aliases, game.title, game.implemented = name, aliases, title, False
    return game


GAMES: dict[str, Game] = {entry[0]: _load(*entry) for entry in SEED_GAMES}
_ALIASES = {alias: g.name for g in GAMES.values() for alias in (g.name, *g.aliases)}


def get_game(name: str, *, need_implemented: bool = True) -> Game:
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key not in _ALIASES:
        raise UnknownGameError(f"unknown game '{name}' (known: {', '.join(GAMES)})")
    game = GAMES[_ALIASES[key]]
    if need_implemented and not game.implemented:
        raise UnsupportedError(f"{game.name}: not implemented yet (see `solodeck games`)")
    return game
