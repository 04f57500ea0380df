"""The Python API for frontends written in Python (docs/api.md): the live engine's requests as
calls, its replies as the same objects (a Position, the analysis dict, a SolveResult).

Each game started keeps its own engine (solodeck/engine.py); its analyses run in the calling
thread's time (no process is forked: a Python frontend may have threads of its own).
"""
from __future__ import annotations

import time
from pathlib import Path

from .api import advance_chance
from .deals import deal_from_text, load_deal
from .engine import DEFAULT_SECONDS, Engine, RequestError
from .errors import UnsupportedError
from .registry import get_game
from .result import ANYTIME_SECONDS, Limits


class Position:
    """A decision of a game, as the engine's position reply: ``game``, ``text`` (what
    `solodeck play` prints), ``picture`` (docs/hints.md), ``legal`` (the moves, as text),
    ``outcome`` (None, or {"won", "score"}), ``played`` and ``parent`` (how it was reached), and in
    games with a blind mode ``seen_text`` / ``seen_picture`` (what the player sees)."""

    def __init__(self, engine: Engine, reply: dict):
        self._engine = engine
        self._reply = {k: v for k, v in reply.items() if k not in ("type", "id")}

    def __getattr__(self, name):
        if name.startswith("_"):  # copy and pickle probe before _reply exists
            raise AttributeError(name)
        try:
            return self._reply[name]
        except KeyError:
            raise AttributeError(name) from None

    def play(self, move: str) -> "Position":
        """The position after ``move`` (in the game's notation) and the draws it leads to."""
        return Position(self._engine, _ask(self._engine, {"cmd": "play", "position": self.position, "move": move}))

    def as_dict(self) -> dict:
        return dict(self._reply)

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"<Position {self.position} of {self.game}: {len(self.legal)} legal moves>"


def new_game(game: str | None = None, seed: int = 0, options: dict | None = None, *, deal: str | None = None):
    engine = Engine(lambda reply: None, isolate=False)
    if deal is not None:
        request = {"cmd": "new", "deal": deal}
    elif game is not None:
        request = {"cmd": "new", "game": game, "seed": seed, **({"options": options} if options else {})}
    else:
        raise RequestError("new_game needs a game (and a seed) or a deal's text")
    return Position(engine, _ask(engine, request))


def analyse(position: Position, mode: str = "open", time_limit: float = DEFAULT_SECONDS, **settings) -> dict:
    """The engine's analysis reply (without its "type" and "id"): every legal move ranked, with
    exact values or estimates and intervals; ``settings``: max_states, samples, every_move."""
    reply = _ask(position._engine, {"cmd": "analyse", "position": position.position, "mode": mode,
                                    "time_limit": time_limit, **settings})
    return {k: v for k, v in reply.items() if k not in ("type", "id")}


def solve(deal, mode: str = "open", time_limit: float | None = None, *, max_states: int | None = None,
          memory_mb: float = 1024.0, samples: int | None = None):
    """`solodeck solve` as a call: ``deal`` is a Position, a deal file's path, or its text."""
    from .solvers import make_solver
    from .solvers.blind import solve_blind

    if isinstance(deal, Position):
        position = deal._engine.positions[deal.position]
        game, state = position.game, position.state
    else:
        text = isinstance(deal, str) and ("\n" in deal or deal.lstrip().startswith("{"))
        loaded = deal_from_text(deal) if text else load_deal(deal)
        game = get_game(loaded.game)
        state = advance_chance(game.initial_state(loaded))
    if game.several_players:
        raise UnsupportedError(f"{game.name} is a game of several players: analyse values each seat's moves")
    if mode not in game.modes:
        raise UnsupportedError(f"{game.name} supports the modes {', '.join(game.modes)} only")
    if time_limit is None and game.anytime and mode == "open":
        time_limit = ANYTIME_SECONDS
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    limits = Limits(time_limit, max_states, memory_mb, deadline)
    if mode == "blind":
        return solve_blind(game, state, limits, samples)
    return make_solver(game, limits).solve(state)


def _ask(engine: Engine, request: dict) -> dict:
    """The engine's reply to ``request`` (for analyse, the final one); an error reply raises."""
    replies = []
    engine.emit = replies.append
    engine.handle(request)
    engine.wait()
    final = [r for r in replies if r["type"] != "progress"]
    if not final:
        raise RequestError(f"no reply to {request['cmd']}")
    if final[-1]["type"] == "error":
        raise RequestError(final[-1]["error"])
    return final[-1]
