"""The generic exact search (limits are never read as losses), hint files and the command line."""
import json
from pathlib import Path

import jsonschema
import pytest

from solodeck.deals import load_deal
from solodeck.errors import SolodeckError
from solodeck.hints import build_hints, schema, verify_hints
from solodeck.registry import GAMES, get_game
from solodeck.solvers import DepthFirstSolver, Limits, solve_open

from conftest import PUZZLES

GAME = get_game("syndicate")
HARD = Path(__file__).parent / "data" / "syndicate-hard.toml"  # far beyond the Python search's reach


def test_timeout_is_never_a_loss():
    result = DepthFirstSolver(GAME, Limits(time_limit=0.3)).solve(GAME.initial_state(load_deal(HARD)))
    assert result.status == "timeout" and not result.exact
    assert result.verdict in ("unknown", "winnable")  # never "unwinnable"
    if result.verdict == "winnable":  # a win found before the limit is real, its score unproven
        assert GAME.replay_moves(GAME.initial_state(load_deal(HARD)), result.line).outcome().won


def test_state_limit_is_a_memory_limit_not_a_loss():
    result = DepthFirstSolver(GAME, Limits(max_states=500)).solve(GAME.initial_state(load_deal(HARD)))
    assert result.status == "memory-limit" and result.verdict != "unwinnable" and not result.exact


def test_value_reuses_the_table_and_matches_a_fresh_solve():
    deal = load_deal(PUZZLES / "syndicate" / "forced-two.toml")
    state = GAME.initial_state(deal)
    shared = DepthFirstSolver(GAME)
    shared.solve(state)
    for move in state.legal_moves():
        value, exact = shared.value(state.play(move))
        fresh = solve_open(GAME, state.play(move))
        assert exact and value == ((1, -fresh.score) if fresh.verdict == "winnable" else (0, 0))


def _hints_for(path, limits=None):
    deal = load_deal(path)
    solver = DepthFirstSolver(GAME, limits)
    result = solver.solve(GAME.initial_state(deal))
    return deal, build_hints(GAME, deal, result, solver)


@pytest.mark.parametrize("name", ["forced-two", "forced-three", "isaludo-endgame", "dead-end", "forced-one"])
def test_hint_files_validate_and_verify(name):
    deal, data = _hints_for(PUZZLES / "syndicate" / f"{name}.toml")
    jsonschema.validate(data, schema())
    reprove = lambda s: solve_open(GAME, s).verdict  # noqa: E731
    assert verify_hints(GAME, deal, data, reprove=reprove).startswith("ok")
    for decision in data["decisions"]:
        assert decision["moves"][0]["best"] and decision["moves"][0]["exact"]
        assert any(m["move"] == decision["played"] and m["best"] for m in decision["moves"])


def test_hint_values_are_the_exact_values_of_each_move():
    deal, data = _hints_for(PUZZLES / "syndicate" / "forced-two.toml")
    first = data["decisions"][0]
    state = GAME.initial_state(deal)
    for entry in first["moves"]:
        fresh = solve_open(GAME, state.play(GAME.parse_move(entry["move"])))
        assert (entry["verdict"], entry["score"]) == (fresh.verdict, fresh.score)


def test_altered_hint_files_are_rejected():
    deal, data = _hints_for(PUZZLES / "syndicate" / "forced-two.toml")
    for i in range(len(data["line"])):  # alter one move of the line: to another legal move, or garbage
        bad = json.loads(json.dumps(data))
        alternatives = [m["move"] for m in bad["decisions"][i]["moves"] if m["move"] != bad["line"][i]]
        bad["line"][i] = alternatives[0] if alternatives else "promote 5:9 -> 4m, take 9"
        with pytest.raises(SolodeckError):
            verify_hints(GAME, deal, bad)
    bad = json.loads(json.dumps(data))
    bad["score"] = 1
    with pytest.raises(SolodeckError, match="claims 1"):
        verify_hints(GAME, deal, bad)
    bad = json.loads(json.dumps(data))
    del bad["decisions"][0]["moves"][-1]
    with pytest.raises(SolodeckError, match="not the legal moves"):
        verify_hints(GAME, deal, bad)
    other = load_deal(PUZZLES / "syndicate" / "forced-three.toml")
    with pytest.raises(SolodeckError, match="another deal"):
        verify_hints(GAME, other, data)


def test_unwinnable_claim_needs_a_new_proof():
    deal, data = _hints_for(PUZZLES / "syndicate" / "forced-two.toml")
    data["verdict"], data["score"], data["line"], data["decisions"] = "unwinnable", None, [], []
    with pytest.raises(SolodeckError, match="not confirmed"):
        verify_hints(GAME, deal, data, reprove=lambda s: solve_open(GAME, s).verdict)


def test_hint_file_under_a_tight_limit_marks_unvalued_moves_unknown():
    deal, data = _hints_for(HARD, Limits(time_limit=0.5))
    jsonschema.validate(data, schema())
    for decision in data["decisions"]:
        for m in decision["moves"]:
            assert m["exact"] or (m["verdict"] == "unknown" and m["score"] is None)


# -- the command line -----------------------------------------------------------------------------

def test_cli_solve_json_and_verify_round_trip(cli, tmp_path):
    deal = tmp_path / "deal.toml"  # a position: valuing all of a full deal's openings is the kernel's job
    deal.write_text((PUZZLES / "syndicate" / "forced-three.toml").read_text())
    assert cli("deal", "syndicate", "--seed", 3, check=True).stdout.count("deck = ") == 1
    hints = tmp_path / "hints.json"
    out = json.loads(cli("solve", deal, "--json", "--hints", hints, check=True).stdout)
    assert {"game", "mode", "verdict", "exact", "score", "line", "stats"} <= set(out)
    assert out["game"] == "syndicate" and out["mode"] == "open" and out["verdict"] == "winnable"
    assert out["exact"] and out["score"] == 3
    assert {"nodes", "seconds"} <= set(out["stats"])
    ok = cli("verify", deal, hints)
    assert ok.returncode == 0 and ok.stdout.startswith("ok")
    data = json.loads(hints.read_text())
    data["line"][3] = data["line"][2]
    hints.write_text(json.dumps(data))
    bad = cli("verify", deal, hints)
    assert bad.returncode == 1 and bad.stdout.startswith("rejected")


def test_cli_text_output_and_limits(cli):
    proc = cli("solve", PUZZLES / "syndicate" / "dead-end.toml", check=True)
    assert "verdict: unwinnable (proven by exhaustive search)" in proc.stdout
    proc = cli("solve", HARD, "--json", "--time-limit", "0.2", check=True)
    out = json.loads(proc.stdout)
    assert out["verdict"] != "unwinnable" and out["exact"] is False


def test_cli_errors_are_one_line(cli, tmp_path):
    proc = cli("solve", PUZZLES / "syndicate" / "demo.toml", "--mode", "blind")
    assert proc.returncode == 2 and "open and blind coincide" in proc.stderr and len(proc.stderr.splitlines()) == 1
    proc = cli("deal", "nosuchgame", "--seed", 1)
    assert proc.returncode == 2 and "unknown game 'nosuchgame'" in proc.stderr
    proc = cli("verify", PUZZLES / "syndicate" / "demo.toml", tmp_path / "none.json")
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_cli_rules_and_games(cli):
    rules = cli("rules", "synd", check=True).stdout
    assert rules.startswith("# Syndicate") and "## Rulings" in rules
    games = cli("games", check=True).stdout
    for name in GAMES:
        assert name in games


def test_every_subpackage_imports():
    import solodeck.encodings
    import solodeck.ext
    import solodeck.solvers

    assert solodeck.solvers.DepthFirstSolver and solodeck.ext.load and solodeck.encodings.__doc__



def test_output_into_a_closed_pipe_is_not_an_error(monkeypatch):
    """`solodeck ... | head -1`: the reader stops early; no traceback, exit 0."""
    import io
    import os

    from solodeck.cli import main

    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with a broken pipe
    stdout = io.TextIOWrapper(os.fdopen(write_end, "wb"), write_through=True)
    monkeypatch.setattr("sys.stdout", stdout)
    assert main(["rules", "syndicate"]) == 0


def test_the_default_limit_is_mentioned_only_when_it_was_hit(cli):
    """A Skyway endgame proven in a second says nothing of the 60 s default; CP-SAT says as it
    starts that a whole deal can take minutes."""
    proven = cli("solve", PUZZLES / "skyway" / "win-1.toml", "--engine", "race", check=True)
    assert "proven" in proven.stdout and "no --time-limit" not in proven.stderr
    model = cli("solve", PUZZLES / "syndicate" / "stuck.toml", "--engine", "cpsat", check=True)
    assert "unwinnable" in model.stdout and "--time-limit N bounds it" in model.stderr
