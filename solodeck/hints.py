"""Hint files: the best line and, at each of its decisions, every legal move with its value.

The format is JSON, versioned, with a JSON Schema in solodeck/schema/ and a guide for frontend
authors in docs/hints.md.
"""
from __future__ import annotations

import json
from importlib import resources

from .version import __version__
from .api import Deal, advance_chance
from .deals import deal_from_data, deal_to_data
from .errors import MoveError, SolodeckError

FORMAT, VERSION = "solodeck-hints", 2
VERSIONS = (1, 2)  # the versions that load: version 1 is version 2 without the pictures


def schema(version: int = VERSION) -> dict:
    return json.loads(resources.files("solodeck").joinpath(f"schema/hints-v{version}.schema.json").read_text())


def verdict_and_score(game, value):
    """(verdict, score) of an open-mode utility: the score of a loss too where the game's losses
    have one (Game.loss_has_score), as `solodeck solve` reports it."""
    if value is None:
        return "unknown", None
    won, signed = value
    score = -signed if game.score_sense == "lower" else signed
    if not won:
        return "unwinnable", score if game.loss_has_score else None
    return "winnable", score


def open_move_row(game, move, value, exact: bool, score_bound=None) -> dict:
    """A move's row in open mode (hint files, the engine): its verdict and score when ``exact``;
    else, where the solver proved one, the best score any win after it can have."""
    verdict, score = verdict_and_score(game, value if exact else None)
    row = {"move": str(move), "verdict": verdict, "exact": exact, "score": score}
    if not exact and score_bound is not None:
        row["score_bound"] = score_bound
    return row


def valued_move_row(game, solver, state, move) -> dict:
    """open_move_row of ``move`` valued by ``solver`` (unknown once its limits' deadline has
    passed), with the bound the solver proves cheaply (``score_bound``, where it has one) when the
    value is not exact."""
    child = state.play(move)
    value, exact = (None, False) if solver.limits.expired() else solver.value(child)
    bound = getattr(solver, "score_bound", None)
    return open_move_row(game, move, value, exact, bound(child) if bound is not None and not exact else None)


def found_move_row(move, result) -> dict:
    """The row of a search's first move (the engine): a win found, not proven, says so (exact
    false) with the best score any win can still have where the search proved one."""
    verdict = getattr(result.verdict, "value", result.verdict)  # an enum in SolveResult, plain text here
    row = {"move": str(move), "verdict": verdict, "exact": result.exact, "score": result.score}
    if result.score_bound is not None and not result.exact:
        row["score_bound"] = result.score_bound
    return row


def ranked_open_rows(game, rows: list) -> list:
    """Open-mode rows best first: wins by score (proven before found), then losses, then the
    unknown; ``best`` marks the exact rows whose value is the highest valued."""
    sense = -1 if game.score_sense == "lower" else 1

    def rank(row):
        known = {"winnable": 2, "valued": 2, "unwinnable": 1}.get(row["verdict"], 0)
        score = row["score"] if row["score"] is not None else (-1 << 30) * sense
        return (known, score * sense if known else 0, row["exact"])

    rows = sorted(rows, key=rank, reverse=True)
    top = rank(rows[0])[:2] if rows else None
    for row in rows:
        row["best"] = row["exact"] and row["verdict"] != "unknown" and rank(row)[:2] == top
    return rows


def seat_move_row(move, value) -> dict:
    """A move's row in a game of several players: the value the seat on turn guarantees after it
    (None: a limit stopped that search)."""
    return {"move": str(move), "verdict": "unknown" if value is None else "valued",
            "exact": value is not None, "score": value}


def blind_move_row(row) -> dict:
    """A blind estimator's or expectimax's row (solvers/blind.py) in the hint files' move format."""
    return {"move": str(row["move"]), "verdict": _blind_verdict(row), "exact": row["exact"], "score": None,
            "win_probability": row["win_probability"], "interval": row["interval"],
            "samples": row["samples"], "expected_score": row["expected_score"]}


def build_hints(game, deal: Deal, result, solver) -> dict:
    """Value every legal move at each decision of ``result.line`` with ``solver`` (its table is reused).

    Moves the solver could not value within its limits, or did not start on because the
    limits' deadline had passed, are written with verdict "unknown"."""
    decisions = []
    state = advance_chance(game.initial_state(deal))
    for ply, played in enumerate(result.line):
        moves = []
        moves = ranked_open_rows(game, [valued_move_row(game, solver, state, move) for move in state.legal_moves()])
        decisions.append({"ply": ply, "position": str(state), "picture": state.picture(), "played": str(played),
                          "moves": moves})
        state = advance_chance(state.play(played))
    data = {
        "format": FORMAT, "version": VERSION, "generator": f"solodeck {__version__}",
        "game": game.name, "deal": deal_to_data(deal), "mode": result.mode, "status": result.status,
        "verdict": result.verdict, "exact": result.exact, "score": result.score,
        "score_name": game.score_name, "score_sense": game.score_sense,
        "line": [str(m) for m in result.line],
        "stats": result.to_json()["stats"], "decisions": decisions,
    }
    validate_hints(data)
    return data


def build_hand_hints(game, deal: Deal, solver) -> dict:
    """A game of several players, every hand open (Game.several_players): at each decision, every
    legal move with the value the seat on turn can guarantee after it (its score; verdict
    "valued", or "unknown" when a limit stopped that search). The line: each seat plays the move
    of highest value for itself (the first such one listed), so every decision's played move is
    marked best; a decision with an unknown value ends the line there."""
    decisions, line = [], []
    state = advance_chance(game.initial_state(deal))
    while state.outcome() is None:
        seat = state.to_move()
        rows = []
        for move, value in solver.move_values(state, seat):
            rows.append({**seat_move_row(move, value), "_move": move})
        known = [r["score"] for r in rows if r["exact"]]
        top = max(known) if known else None
        for r in rows:
            r["best"] = r["exact"] and r["score"] == top
        decisions.append({"ply": len(line), "player": seat + 1, "position": str(state), "picture": state.picture(),
                          "played": str(next((r["_move"] for r in rows if r["best"]), rows[0]["_move"])),
                          "moves": [{k: v for k, v in r.items() if k != "_move"} for r in rows]})
        if len(known) < len(rows):  # the best move is not known: the line stops here
            break
        move = next(r["_move"] for r in rows if r["best"])
        line.append(move)
        state = advance_chance(state.play(move))
    exact = state.outcome() is not None
    first = decisions[0] if decisions else None
    first_value = max((m["score"] for m in first["moves"] if m["exact"]), default=None) if first else None
    data = {
        "format": FORMAT, "version": VERSION, "generator": f"solodeck {__version__}",
        "game": game.name, "deal": deal_to_data(deal), "mode": "open",
        "status": "solved" if exact else "timeout", "verdict": "valued" if exact else "unknown",
        "exact": exact, "score": first_value if exact else None,
        "score_name": game.score_name, "score_sense": game.score_sense, "line": [str(m) for m in line],
        "players": deal.options.get("players", 2), "stats": {"nodes": solver.nodes}, "decisions": decisions,
    }
    validate_hints(data)
    return data


def build_blind_hints(game, deal: Deal, blind_policy, limits=None) -> dict:
    """Blind mode: play the deal's draws with ``blind_policy`` (solvers/blind.py) and write, at
    each decision, every move ranked by blind win probability: exact where the expectimax tree
    fits the policy's budget, else estimated by rollouts with an interval and a sample count.
    Once ``limits``' deadline has passed, the game's baseline (its simple, cheap rule) plays on
    and its decisions' moves are written unvalued ("unknown").

    The line is what a player who cannot see the deck would play on this deal; the file's verdict
    and score are that line's result (``unwinnable`` only when the first decision is exact at 0)."""
    from .solvers.episode import RANK_ALWAYS, play_episode
    from .solvers.stats import unvalued_rows

    if limits is not None and limits.deadline is not None:
        blind_policy = _UntilDeadline(game, blind_policy, limits)
    played, final = play_episode(game.initial_state(deal), blind_policy, RANK_ALWAYS)
    decisions = []
    for ply, decision in enumerate(played):
        rows = decision.rows
        if rows is None:  # played after the deadline: the move first, nothing valued
            rows = sorted(unvalued_rows(decision.state, []), key=lambda r: r["move"] != decision.move)
        top = rows[0]
        moves = [{**blind_move_row(r), "best": (r is top and r["win_probability"] is not None)
                  or (r["exact"] and top["exact"] and _same_value(r, top))} for r in rows]
        decisions.append({"ply": ply, "position": decision.state.seen_text(),
                          "picture": decision.state.picture(seen_only=True), "played": str(top["move"]),
                          "moves": moves})
    line = [d.move for d in played]
    first = played[0].rows[0] if played and played[0].rows else None
    outcome = final.outcome()
    every_exact = all(m["exact"] for d in decisions for m in d["moves"])
    score = outcome.score if outcome is not None else None  # no outcome: the policy gave up, lost
    if outcome is not None and outcome.won:
        verdict = "winnable"
    else:
        verdict = "unwinnable" if first is not None and first["exact"] and first["win_probability"] == 0 else "unknown"
    data = {
        "format": FORMAT, "version": VERSION, "generator": f"solodeck {__version__}",
        "game": game.name, "deal": deal_to_data(deal), "mode": "blind",
        "status": "solved" if every_exact else "estimated", "verdict": verdict,
        "exact": verdict == "unwinnable", "score": score,
        "score_name": game.score_name, "score_sense": game.score_sense, "line": [str(m) for m in line],
        "win_probability": first["win_probability"] if first else None,
        "interval": first["interval"] if first else None, "samples": first["samples"] if first else None,
        "stats": {}, "decisions": decisions,
    }
    validate_hints(data)
    return data


class _UntilDeadline:
    """A blind policy while ``limits``' deadline lasts; after it, the game's baseline, which ranks
    nothing (a rollout rule may itself be costly: one that weighs odds at every decision)."""

    def __init__(self, game, policy, limits):
        self.game, self.policy, self.limits = game, policy, limits

    def rank(self, state):
        return None if self.limits.expired() else self.policy.rank(state)

    def __call__(self, state):
        return self.game.baseline_move(state) if self.limits.expired() else self.policy(state)


def _blind_verdict(row) -> str:
    if row["win_probability"] is None:  # passed over by the estimator (BlindPlan.candidates, BlindPlan.estimate)
        return "unknown"
    if row["win_probability"] > 0:  # exact, or some sampled draw was won: a win is possible
        return "winnable"
    return "unwinnable" if row["exact"] else "unknown"


def _same_value(a, b) -> bool:
    return (abs(a["win_probability"] - b["win_probability"]) < 1e-12
            and abs((a["expected_score"] or 0) - (b["expected_score"] or 0)) < 1e-9)


def validate_hints(data: dict) -> None:
    """Raise SolodeckError naming the first place where ``data`` breaks the schema of its version."""
    import jsonschema

    version = data.get("version") if isinstance(data, dict) else None
    if version not in VERSIONS:
        raise SolodeckError(f"hint file version {version!r} is not one this solodeck reads "
                            f"({', '.join(map(str, VERSIONS))})")
    try:
        jsonschema.validate(data, schema(version))
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(top level)"
        raise SolodeckError(f"hint file does not match schema v{version} at {where}: {exc.message}") from None


def verify_hints(game, deal: Deal, data: dict, *, reprove=None) -> str:
    """Check a hint file against the rules; return a one-line summary or raise SolodeckError.

    Checks: the schema; the file's deal is this deal; the line replays legally to the claimed
    verdict and score; each decision lists exactly the legal moves there and marks the played
    move best. An "unwinnable" claim cannot be replayed: ``reprove(state)`` must confirm it."""
    validate_hints(data)
    if data["game"] != game.name:
        raise SolodeckError(f"hint file is for '{data['game']}', the deal is '{game.name}'")
    if deal_from_data(data["deal"], "hint file deal").piles != deal.piles or data["deal"].get("position") != deal.position:
        raise SolodeckError("hint file was made for another deal")
    try:
        steps, state = game.read_line(game.initial_state(deal), data["line"])
    except MoveError as exc:
        raise SolodeckError(str(exc)) from None
    decisions = {d["ply"]: d for d in data["decisions"]}
    for ply, (move, _before, legal) in enumerate(steps):
        if ply in decisions:
            _check_decision(game, decisions[ply], legal, move, ply, data["exact"])
    outcome = state.outcome()
    claim = data["verdict"]
    if claim == "winnable":
        if outcome is None or not outcome.won:
            raise SolodeckError("the line does not end in a win")
        if data["score"] != outcome.score:
            raise SolodeckError(f"the line wins with score {outcome.score}, the file claims {data['score']}")
        if game.score_name is None:
            return f"ok: the line of {len(data['line'])} moves wins"
        return f"ok: the line of {len(data['line'])} moves wins with {game.score_name or 'score'} {outcome.score}"
    if claim == "valued":  # several players: the values are guarantees, the line each seat's best
        if outcome is None:
            raise SolodeckError("the line does not reach the end of the hand")
        return f"ok: the line of {len(data['line'])} moves is legal and plays the hand out"
    if claim == "unwinnable":
        if reprove is None or reprove(advance_chance(game.initial_state(deal))) != "unwinnable":
            raise SolodeckError("the claim 'unwinnable' was not confirmed by a new exhaustive search")
        return "ok: unwinnable, confirmed by a new exhaustive search"
    return f"ok: the line of {len(data['line'])} moves is legal (verdict unknown)"


def _check_decision(game, decision, legal, move, ply, proven):
    if decision["played"] != str(move):
        raise SolodeckError(f"decision at ply {ply}: 'played' is {decision['played']!r}, the line has '{move}'")
    listed = {}
    for m in decision["moves"]:
        try:
            listed[game.parse_move(m["move"])] = m
        except MoveError as exc:
            raise SolodeckError(f"decision at ply {ply}: {exc}") from None
    if set(listed) != set(legal):
        raise SolodeckError(f"decision at ply {ply}: the moves listed are not the legal moves "
                            f"({len(listed)} listed, {len(legal)} legal)")
    # a line proven best plays a best move everywhere; a line found before a limit stopped the
    # search need not (valuing the moves may then find better ones)
    if proven and not listed[move].get("best", True) and listed[move]["exact"]:
        raise SolodeckError(f"decision at ply {ply}: the played move '{move}' is not marked best")


def write_hints(data: dict, path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")


def read_hints(path) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise SolodeckError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SolodeckError(f"{path}: is a folder; expected a hint file (JSON)") from None
    except OSError as exc:
        raise SolodeckError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise SolodeckError(f"{path}: not a hint file (not UTF-8 text; expected JSON)") from None
    except json.JSONDecodeError as exc:
        raise SolodeckError(f"{path}: not valid JSON: {exc.msg} (at line {exc.lineno}, column {exc.colno})") from None
