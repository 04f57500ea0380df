"""The live engine: positions kept in a warm process, and questions about any of them.

`solodeck engine` speaks it on stdin/stdout, one JSON object a line (as chess GUIs drive their
engines over UCI); `solodeck serve` (solodeck/server.py) takes the same requests over HTTP; the
Python API (solodeck/__init__.py) returns the same objects. docs/engine.md is the protocol's
guide and solodeck/schema/engine-v1.schema.json its schema: every request is checked against it
before anything else, so a bad request gets one error reply naming what is wrong, and the engine
stays up.

An analysis runs in a child process forked from the engine (imports and compiled kernels already
loaded, so it starts warm): the child sends each move's value as soon as it has it, `stop` kills
the child at once and the reply keeps the values sent so far (the others "unknown", the status
"stopped"), and a crash in a search ends that analysis only. Where fork does not exist, the
analysis runs in a thread of the engine: `stop` answers at once with what it has, but the search
runs on to its time limit, and no other analysis starts before it ends.

No request names a file: deals and positions come inline, as the text of a deal file.
"""
from __future__ import annotations

import ctypes
import json
import math
import multiprocessing
import os
import pickle
import select
import signal
import sys
import threading
import time
from dataclasses import dataclass
from importlib import resources

from .version import __version__
from .api import advance_chance
from .deals import deal_from_data, deal_from_text
from .errors import SolodeckError
from .hints import blind_move_row, found_move_row, open_move_row, ranked_open_rows, seat_move_row, valued_move_row
from .registry import GAMES, get_game
from .result import Limits
from .solvers.stats import unvalued_row

PROTOCOL, VERSION = "solodeck-engine", 1
MAX_REQUEST_BYTES = 1 << 20       # one request line (a deal file's text fits many times over)
MAX_POSITIONS = 10_000            # positions kept (a few kB each); the oldest are forgotten past it
DEFAULT_SECONDS = 5.0             # an analysis without a time limit
PROGRESS_EVERY = 0.2              # seconds between two progress lines of an analysis
GRACE_SECONDS = 2.0               # an analysis past its time limit by this much is ended
ANALYSIS_MEMORY_MB = 512.0        # each analysis's transposition table (each worker's)
DEFAULT_WORKERS = 2               # an open analysis's moves are valued by up to this many processes,
SHARE_AFTER = 0.005               # once it has taken this many seconds (the values do not depend on it)


def schema() -> dict:
    return json.loads(resources.files("solodeck").joinpath(f"schema/engine-v{VERSION}.schema.json").read_text())


class RequestError(SolodeckError):
    """A request the engine cannot answer: its error reply says why."""


def parse_request(text):
    """A request line's JSON value, or RequestError. NaN and the infinities are no JSON numbers (a
    NaN time limit would pass every range check), and Python refuses integers of more than 4,300
    digits with a ValueError of its own."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError too
        raise RequestError(f"not a JSON object: {getattr(exc, 'msg', exc)}") from None


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


@dataclass
class KeptPosition:
    """A position the engine keeps under an id: never changed, so an old id is an undo."""
    game: object
    deal: object
    state: object
    parent: str | None = None
    played: str | None = None


class Engine:
    """The protocol without its transport: ``handle(request)`` answers one request through
    ``emit(reply)`` (a callable taking a dict; the analysis's progress and final replies come
    later, from another thread). Thread-safe: the HTTP server calls it from several threads."""

    def __init__(self, emit, *, isolate: bool = True):
        self.emit = emit
        self.isolate = isolate and "fork" in multiprocessing.get_all_start_methods()
        self.positions: dict[str, KeptPosition] = {}
        self.count = 0
        self.lock = threading.RLock()
        self.analysis: _Analysis | None = None
        import jsonschema

        self.validator = jsonschema.Draft202012Validator(schema()["$defs"]["request"])

    # -- requests ---------------------------------------------------------------------------------
    def handle_line(self, line: str) -> bool:
        """One request line; False once the engine is to end (quit)."""
        try:
            request = parse_request(line)
        except RequestError as exc:
            self.emit(error_reply(None, str(exc)))
            return True
        return self.handle(request)

    def handle(self, request) -> bool:
        tag = request.get("id") if isinstance(request, dict) and is_tag(request.get("id")) else None
        try:
            self._check(request)
            return getattr(self, "_" + request["cmd"])(request, tag)
        except SolodeckError as exc:
            self.emit(error_reply(tag, str(exc), request))
        except Exception as exc:  # a bug must not end the engine: say what broke, keep answering
            self.emit(error_reply(tag, f"internal error ({type(exc).__name__}: {exc}); the engine goes on", request))
        return True

    def _check(self, request) -> None:
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object with a \"cmd\" field")
        error = next(iter(sorted(self.validator.iter_errors(request), key=lambda e: len(e.path))), None)
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            raise RequestError(f"{where or 'request'}: {_short(error.message)}")

    def _hello(self, request, tag) -> bool:
        self.emit(ready_reply(tag))
        return True

    def _games(self, request, tag) -> bool:
        self.emit({"type": "games", "id": tag, "games": [game_info(game) for game in GAMES.values()]})
        return True

    def _new(self, request, tag) -> bool:
        self.emit(self.position_reply(self.new_position(request), tag))
        return True

    def _position(self, request, tag) -> bool:
        self.emit(self.position_reply(self.position_of(request), tag))
        return True

    def _legal(self, request, tag) -> bool:
        pid = self.position_of(request)
        state = self.positions[pid].state
        self.emit({"type": "legal", "id": tag, "position": pid, "moves": [str(m) for m in state.legal_moves()]})
        return True

    def _play(self, request, tag) -> bool:
        pid = self.position_of(request)
        self.emit(self.position_reply(self.play(pid, request["move"]), tag))
        return True

    def _analyse(self, request, tag) -> bool:
        pid = self.position_of(request)
        if not math.isfinite(seconds_of(request)):  # a Python caller's NaN
            raise RequestError("time_limit: a number of seconds, more than 0")
        with self.lock:
            if self.analysis is not None and self.analysis.running():
                raise RequestError(f"an analysis is running (of {self.analysis.pid}): send stop first")
            position = self.positions[pid]
            mode = mode_of(request)
            if mode not in position.game.modes:
                raise RequestError(f"{position.game.name} has no {mode} mode (modes: {', '.join(position.game.modes)})")
            self.analysis = _Analysis(self, tag, pid, position, request)
            self.analysis.start()  # under the lock: a stop sent meanwhile finds it started
        return True

    def _stop(self, request, tag) -> bool:
        with self.lock:
            analysis = self.analysis
            stopped = analysis is not None and analysis.stop()
        self.emit({"type": "stopped", "id": tag, "position": analysis.pid if stopped else None})
        return True

    def _quit(self, request, tag) -> bool:
        self.close()
        self.emit({"type": "bye", "id": tag})
        return False

    def close(self) -> None:
        """End a running analysis (its reply says stopped)."""
        if self.analysis is not None:
            self.analysis.stop()

    def wait(self) -> None:
        """Wait for the running analysis to reply (at most its time limit and a grace)."""
        if self.analysis is not None:
            self.analysis.finished.wait(self.analysis.seconds + 2 * GRACE_SECONDS)

    # -- positions -----------------------------------------------------------------------------
    def new_position(self, request) -> str:
        if "deal" in request:
            try:
                deal = deal_from_text(request["deal"], "request.deal")
            except RecursionError:
                raise RequestError("request.deal: nested too deeply to be a deal file") from None
        elif "game" not in request:
            raise RequestError("new needs a game (with a seed, and options) or a deal (a deal file's text)")
        else:
            data = {"game": request["game"], "seed": request.get("seed", 0),
                    **({"options": request["options"]} if "options" in request else {})}
            deal = deal_from_data(data, "request")
        game = get_game(deal.game)
        game.load_kernel()  # loaded once, here: every analysis forked later starts with it
        return self.keep(KeptPosition(game, deal, advance_chance(game.initial_state(deal))))

    def position_of(self, request) -> str:
        """The request's position: its id, or a new one from its inline deal."""
        if "position" in request:
            pid = request["position"]
            if pid not in self.positions:
                raise RequestError(f"no position {pid!r} (ids come from new and play replies; "
                                   f"the oldest are forgotten after {MAX_POSITIONS:,})")
            return pid
        if "deal" in request:
            return self.new_position(request)
        raise RequestError("name a position (\"position\": an id) or give one inline (\"deal\": a deal file's text)")

    def play(self, pid: str, text: str) -> str:
        position = self.positions[pid]
        game, state = position.game, position.state
        if state.outcome() is not None:
            raise RequestError(f"position {pid} is over: no move can be played")
        try:
            move = game.parse_move(text)
        except SolodeckError as exc:
            raise RequestError(f"move {text!r} in position {pid}: {exc}") from None
        legal = state.legal_moves()
        if move not in legal:
            shown = ", ".join(str(m) for m in legal[:12]) + (", ..." if len(legal) > 12 else "")
            raise RequestError(f"move {text!r} is not legal in position {pid} (legal: {shown})")
        return self.keep(KeptPosition(game, position.deal, advance_chance(state.play(move)), pid, str(move)))

    def keep(self, position: KeptPosition) -> str:
        with self.lock:
            self.count += 1
            pid = f"p{self.count}"
            self.positions[pid] = position
            while len(self.positions) > MAX_POSITIONS:
                del self.positions[next(iter(self.positions))]
        return pid

    def position_reply(self, pid: str, tag) -> dict:
        position = self.positions[pid]
        game, state = position.game, position.state
        outcome = state.outcome()
        reply = {"type": "position", "id": tag, "position": pid, "game": game.name, "parent": position.parent,
                 "played": position.played, "text": str(state), "picture": state.picture(),
                 "legal": [str(m) for m in state.legal_moves()],
                 "outcome": None if outcome is None else {
                     "won": outcome.won, "score": outcome.score,
                     **({"scores": list(outcome.scores)} if outcome.scores is not None else {})}}
        if "blind" in game.modes:
            reply["seen_text"] = state.seen_text()
            reply["seen_picture"] = state.picture(seen_only=True)
        if game.several_players:
            reply["player"] = state.to_move() + 1
        return reply


class _Analysis:
    """One analysis: started by ``start``, its final reply emitted once (done, stopped, or failed)."""

    def __init__(self, engine: Engine, tag, pid: str, position: KeptPosition, request: dict):
        self.engine, self.tag, self.pid, self.position, self.request = engine, tag, pid, position, request
        self.seconds = seconds_of(request)
        self.rows: dict[str, dict] = {}   # move -> its row, as the child sends them
        self.best_line: list | None = None
        self.nodes = 0
        self.started = time.perf_counter()
        self.finished = threading.Event()
        self.replied = False
        self.reply_lock = threading.Lock()
        self.child = self.conn = self.thread = None

    def running(self) -> bool:
        """Until it has replied; an inline analysis (no fork) until its search has ended too."""
        return not self.finished.is_set() or (self.child is None and self.thread is not None
                                             and self.thread.is_alive())

    def start(self) -> None:
        if not self.engine.isolate:  # no fork: here and now
            self.thread = threading.Thread(target=self._inline, daemon=True)
            self.thread.start()
            return
        context = multiprocessing.get_context("fork")
        self.conn, child_end = context.Pipe(duplex=False)
        self.child = context.Process(target=_child, args=(child_end, self.position, self.request), daemon=True)
        self.child.start()
        child_end.close()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _inline(self) -> None:
        try:
            status = analyse(self.position, self.request, self._receive)
            self._finish(status)
        except Exception as exc:
            self._finish("failed", f"{type(exc).__name__}: {exc}")

    def _listen(self) -> None:
        deadline = self.started + self.seconds + GRACE_SECONDS
        try:
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    self._kill()
                    self._finish("timeout", "the analysis overran its time limit and was ended")
                    return
                if not self.conn.poll(min(left, 0.5)):
                    if not self.child.is_alive() and not self.conn.poll(0):
                        self._finish("failed", f"the analysis process ended (exit code {self.child.exitcode})")
                        return
                    continue
                kind, payload = self.conn.recv()
                if kind == "done":
                    self._finish(payload)
                    return
                if kind == "failed":
                    self._finish("failed", payload)
                    return
                self._receive(kind, payload)
        except (EOFError, OSError):
            if not self.replied:
                code = self.child.exitcode if self.child is not None else None
                self._finish("failed", f"the analysis process ended (exit code {code})")
        finally:
            self.conn.close()

    def _receive(self, kind, payload) -> None:
        if kind == "row":
            self.rows[payload["move"]] = payload
        elif kind == "nodes":
            self.nodes = payload
        elif kind == "line":
            self.best_line = payload
        elif kind == "progress":
            self.nodes = payload.get("nodes", self.nodes)
            with self.reply_lock:  # never after the final reply
                if not self.replied:
                    self.engine.emit({"type": "progress", "id": self.tag, "position": self.pid, **payload,
                                      "valued": len(self.rows),
                                      "seconds": round(time.perf_counter() - self.started, 3)})

    def stop(self) -> bool:
        """End it now with what it has (False: it had already replied)."""
        if self.replied:
            return False
        self._kill()
        return self._finish("stopped")

    def _kill(self) -> None:
        if self.child is not None and self.child.is_alive():
            self.child.kill()

    def _finish(self, status: str, problem: str | None = None) -> bool:
        """Reply once (False: another reply came first). Whatever the reply meets (a frontend gone,
        a bug in the reply), the analysis is over: a later analysis may start, wait() returns."""
        with self.reply_lock:
            if self.replied:
                return False
            self.replied = True
        try:
            self.engine.emit(analysis_reply(self, status, problem))
        except Exception:  # the output is gone (the frontend quit): nothing to tell, nobody to tell
            pass
        finally:
            self.finished.set()
        return True


def _child(conn, position: KeptPosition, request: dict) -> None:
    """The forked analysis: every message to the engine through ``conn``, last "done" or "failed"."""
    try:
        lock = threading.Lock()  # worker rows are passed on by a thread of their own

        def send(kind, payload):
            with lock:
                conn.send((kind, payload))

        status = analyse(position, request, send, workers=workers_of(request))
        conn.send(("done", status))
    except BaseException as exc:  # anything: the engine must hear why this analysis ended
        try:
            conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass
    finally:
        conn.close()


def analyse(position: KeptPosition, request: dict, send, workers: int = 1) -> str:
    """Value every legal move of the position; ``send(kind, payload)`` gets each move's row
    ("row"), the best line when the search gave one ("line") and progress ("progress": nodes).
    ``workers``: processes valuing an open position's moves side by side (more than 1 forks, so
    only a forked analysis asks for them). Returns the status: "solved" (every value exact),
    "estimated" or "timeout"."""
    game, state = position.game, position.state
    if state.outcome() is not None or not state.legal_moves():
        return "solved"
    mode, seconds = mode_of(request), seconds_of(request)
    limits = Limits(seconds, request.get("max_states"), ANALYSIS_MEMORY_MB, time.perf_counter() + seconds)
    last = [0.0]

    def progress(nodes):
        now = time.perf_counter()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            send("progress", {"nodes": int(nodes)})

    send("progress", {"nodes": 0})
    if mode == "blind":
        return _analyse_blind(game, state, request, send)
    if game.several_players:
        return _analyse_seats(game, state, limits, send)
    return _analyse_open(game, state, limits, send, progress, workers)


def _analyse_open(game, state, limits, send, progress, workers=1) -> str:
    """Every move's value, exact or unknown. In a game whose whole deals are too big to exhaust
    (Game.anytime) the best line found comes first, with half the time when other moves are left,
    so the move to play is known even where no value is proven."""
    from .solvers import make_solver

    moves = state.legal_moves()
    first, all_exact = None, True
    if game.anytime:
        line_limits = Limits(limits.time_limit / 2 if len(moves) > 1 and limits.time_limit else limits.time_limit,
                             limits.max_states, limits.memory_mb, limits.deadline)
        result = make_solver(game, line_limits, progress).solve(state)
        all_exact = result.exact
        if result.line:
            first = result.line[0]
            send("line", [str(m) for m in result.line])
            send("row", found_move_row(first, result))
    rest = [move for move in moves if move != first]
    claim = _Claims(len(rest))  # each process takes the next move not yet taken: the load balances
    helpers, started = [], time.perf_counter()

    def share_out():
        """After each move: an analysis still busy after SHARE_AFTER forks its workers (a fork
        costs a few ms, more than a quick analysis takes; the values are the same either way)."""
        if not helpers and time.perf_counter() - started >= SHARE_AFTER:
            for _ in range(min(workers - 1, claim.left)):
                pid, reader = _value_in_worker(game, state, rest, claim, limits)
                helpers.append((pid, _Relay(reader, send)))
                helpers[-1][1].start()

    exact, nodes = _value_moves(game, state, rest, claim, limits, send, progress, share_out if workers > 1 else None)
    claim.close()
    for pid, relay in helpers:
        relay.join()
        os.waitpid(pid, 0)
    all_exact = all_exact and exact and all(relay.exact for _, relay in helpers)
    send("nodes", nodes + sum(relay.nodes for _, relay in helpers) + (result.nodes if game.anytime else 0))
    return "solved" if all_exact else "timeout"


class _Claims:
    """Indices 0 .. count - 1 handed out once each, to this process and the workers it forks: a
    pipe filled with them (4 bytes each; reads that small are atomic) and closed for writing, so an
    empty pipe reads as the end."""

    def __init__(self, count: int):
        self.reader, writer = os.pipe()
        os.write(writer, b"".join(i.to_bytes(4, "little") for i in range(count)))  # a few moves: within the pipe's buffer
        os.close(writer)
        self.left = count  # not yet taken, as long as this process alone takes them

    def next(self) -> int | None:
        data = os.read(self.reader, 4)
        self.left -= 1
        return int.from_bytes(data, "little") if data else None

    def close(self) -> None:
        os.close(self.reader)


def _value_moves(game, state, moves, claim, limits, send, progress, after_each=None) -> tuple:
    """Each move claimed from ``moves``, valued, its row sent (then ``after_each()``); (every value
    exact?, nodes searched)."""
    from .solvers import make_solver

    solver = make_solver(game, limits, progress)
    all_exact = True
    while (index := claim.next()) is not None:
        row = valued_move_row(game, solver, state, moves[index])
        all_exact = all_exact and row["exact"]
        send("row", row)
        if after_each is not None:
            after_each()
    nodes = getattr(solver, "nodes", None)
    search = getattr(solver, "search", None)  # a kernel solver counts in its search
    return all_exact, nodes if nodes is not None else getattr(search, "nodes", 0)


def _value_in_worker(game, state, moves, claim, limits) -> tuple:
    """(pid, reader): a forked worker valuing the moves it claims; it writes their rows, then
    ("done", (every value exact?, nodes)), pickled to the pipe read by ``reader``. It dies with
    this process (Linux), so a stopped analysis leaves no worker behind."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid:
        os.close(write_end)
        return pid, os.fdopen(read_end, "rb")
    try:
        os.close(read_end)
        _die_with(parent)
        with os.fdopen(write_end, "wb") as out:
            def send(kind, payload):
                pickle.dump((kind, payload), out)
                out.flush()

            send("done", _value_moves(game, state, moves, claim, limits, send, None))
    finally:
        os._exit(0)  # never back into the analysis's own code


class _Relay(threading.Thread):
    """Passes a worker's rows on as they come, and keeps its summary (exact, nodes)."""

    def __init__(self, reader, send):
        super().__init__(daemon=True)
        self.reader, self.send = reader, send
        self.exact, self.nodes = False, 0

    def run(self) -> None:
        with self.reader:
            while True:
                try:
                    kind, payload = pickle.load(self.reader)
                except (EOFError, OSError, pickle.UnpicklingError):
                    return  # the worker died: the moves it did not send stay unvalued
                if kind == "done":
                    self.exact, self.nodes = payload
                    return
                self.send(kind, payload)


def _die_with(parent: int) -> None:
    """Ask the kernel to end this process when its parent ends (Linux's PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent ended before the request took hold
        os._exit(0)


def _analyse_seats(game, state, limits, send) -> str:
    """A game of several players: each move's value for the seat on turn (what it can guarantee)."""
    solver = game.solver(limits)
    seat = state.to_move()
    every = True
    for move in state.legal_moves():
        value = None if limits.expired() else solver.value(state.play(move), seat)
        every = every and value is not None
        send("row", seat_move_row(move, value))
    send("nodes", getattr(solver, "nodes", 0))
    return "solved" if every else "timeout"


def _analyse_blind(game, state, request, send) -> str:
    """The blind policy's ranking (`solodeck play`'s, so a frontend that plays the first move plays
    its game): exact where the tree fits its budget, else estimated with intervals."""
    from .solvers.blind import BlindPolicy

    policy = BlindPolicy(game, request.get("samples"), 0, every_move=request.get("every_move", False))
    rows = policy.rank(state)
    for row in rows:
        send("row", blind_move_row(row))
    return "solved" if all(r["exact"] for r in rows) else "estimated"


def analysis_reply(analysis: _Analysis, status: str, problem: str | None) -> dict:
    """The final reply: every legal move, valued ones ranked first (open: by value, exact before
    found; blind: as the policy ranked them), the rest "unknown"."""
    game, state = analysis.position.game, analysis.position.state
    mode = mode_of(analysis.request)
    rows = list(analysis.rows.values())
    if mode != "blind":  # in the legal moves' order (the found line's move first) whatever order they came in
        order = {str(m): i for i, m in enumerate(state.legal_moves())}
        line_move = analysis.best_line[0] if analysis.best_line else None
        rows.sort(key=lambda r: (r["move"] != line_move, order.get(r["move"], len(order))))
    valued = {r["move"] for r in rows}
    unvalued = [m for m in state.legal_moves() if str(m) not in valued]
    if mode == "blind":  # the policy's order; its first move is the one to play, valued or not (a rule's)
        best = rows[0]["move"] if rows else None
        rows = rows + [blind_move_row(unvalued_row(m)) for m in unvalued]
        for i, r in enumerate(rows):
            r["best"] = i == 0 and r["win_probability"] is not None
    else:
        rows = ranked_open_rows(game, rows + [open_move_row(game, m, None, False) for m in unvalued])
        best = rows[0]["move"] if rows and rows[0]["verdict"] != "unknown" else None  # a win found counts
    if unvalued and status in ("solved", "estimated"):
        status = "timeout"
    reply = {"type": "analysis", "id": analysis.tag, "position": analysis.pid, "mode": mode, "status": status,
             "moves": rows, "best": best,
             "line": analysis.best_line, "nodes": analysis.nodes,
             "seconds": round(time.perf_counter() - analysis.started, 3)}
    if problem:
        reply["problem"] = problem
    return reply


# -- replies and helpers ------------------------------------------------------------------------
def mode_of(request) -> str:
    return request.get("mode", "open")


def workers_of(request) -> int:
    """Processes valuing an open analysis's moves: the request's, else the cores this process may
    use, at most DEFAULT_WORKERS."""
    if "workers" in request:
        return request["workers"]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(DEFAULT_WORKERS, cores))


def seconds_of(request) -> float:
    """An analysis's time limit, in seconds."""
    return float(request.get("time_limit", DEFAULT_SECONDS))


def ready_reply(tag=None) -> dict:
    return {"type": "ready", "id": tag, "protocol": PROTOCOL, "version": VERSION, "solodeck": __version__}


def error_reply(tag, message: str, request=None) -> dict:
    reply = {"type": "error", "id": tag, "error": message}
    if isinstance(request, dict) and isinstance(request.get("cmd"), str) and len(request["cmd"]) <= 40:
        reply["cmd"] = request["cmd"]
    return reply


def game_info(game) -> dict:
    return {"name": game.name, "title": game.title, "modes": list(game.modes),
            "several_players": bool(game.several_players), "score_name": game.score_name,
            "score_sense": game.score_sense,
            "options": {name: {"default": default, "allowed": list(allowed)}
                        for name, (default, allowed) in game.options.items()}}


def is_tag(value) -> bool:
    """A request's "id" is echoed back only when it is a short string or an integer."""
    return (isinstance(value, str) and len(value) <= 200) or (isinstance(value, int) and not isinstance(value, bool)
                                                              and abs(value) < 1 << 53)


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + " ..."


def _reader_gone(stream) -> bool:
    """Has the reader of ``stream`` (a pipe) gone away? poll() tells without writing a byte."""
    try:
        poller = select.poll()
        poller.register(stream.fileno(), select.POLLERR | select.POLLHUP)
        return bool(poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll() (Windows), or no descriptor
        return False


def run_stdio(stdin, stdout) -> int:
    """`solodeck engine`: requests from ``stdin``, replies to ``stdout``, until quit or the end of input."""
    lock = threading.Lock()
    gone = threading.Event()  # the frontend closed our output: nobody to answer, quit

    def emit(reply: dict) -> None:
        text = json.dumps(reply, separators=(",", ":"))
        with lock:
            try:
                stdout.write(text + "\n")
                stdout.flush()
            except (OSError, ValueError):  # a broken pipe, a closed file
                gone.set()

    emit(ready_reply())
    engine = Engine(emit)
    try:
        while not gone.is_set():
            line = stdin.readline(MAX_REQUEST_BYTES + 1)
            if not line:  # the end of input: a running analysis still replies (quit ends it at once)
                analysis = engine.analysis
                while analysis is not None and analysis.running() and not gone.is_set() \
                        and not _reader_gone(stdout):  # nobody left to read the reply: end now
                    analysis.finished.wait(0.2)
                break
            if len(line) > MAX_REQUEST_BYTES and not line.endswith("\n"):
                while line and not line.endswith("\n"):  # the rest of the oversized line is dropped
                    line = stdin.readline(MAX_REQUEST_BYTES)
                emit(error_reply(None, f"request longer than {MAX_REQUEST_BYTES:,} bytes"))
                continue
            if line.strip() and not engine.handle_line(line):
                break
    except KeyboardInterrupt:
        pass
    finally:
        engine.close()
        if gone.is_set():  # stdout is broken: keep the interpreter's last flush quiet
            try:
                sys.stdout = open(os.devnull, "w")
            except OSError:
                pass
    return 0
