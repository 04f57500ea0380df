"""Blind play beyond the exact frontier (solvers/rollouts.py) and the commands that use it."""
import json

import pytest

from conftest import PUZZLES
from solodeck.api import advance_chance
from solodeck.registry import get_game
from solodeck.solvers import Limits
from solodeck.solvers.blind import exact_rows, solve_blind
from solodeck.solvers.rollouts import estimated_rows
from solodeck.solvers.stats import wilson_interval
from solodeck.shuffle import SplitMix64

GAME = get_game("foursquare")


def early_state(seed, placed=3):
    state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
    for _ in range(placed):
        state = advance_chance(state.play(GAME.baseline_move(state)))
    return state


def test_splitmix64_is_the_published_generator():
    # Reference outputs of splitmix64 seeded 0 (Vigna's splitmix64.c).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and 0.25 < wilson_interval(0, 10)[1] < 0.35
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.kernel_speed
def test_estimates_carry_intervals_and_samples_and_agree_with_exact_values():
    state = early_state(1, placed=34)  # four cards left: the exact tree is small
    exact = exact_rows(GAME, state, Limits())
    estimated = estimated_rows(GAME, state, 400)
    assert exact is not None and all(r["exact"] for r in exact)
    for row in estimated:
        assert not row["exact"] and row["samples"] == 400
        lo, hi = row["interval"]
        assert lo <= row["win_probability"] <= hi
    # rollouts follow the baseline after the move: never better than best blind play, beyond noise
    best_exact = {str(r["move"]): r["win_probability"] for r in exact}
    for row in estimated:
        assert row["interval"][0] <= best_exact[str(row["move"])] + 1e-9


def test_solve_blind_estimates_beyond_the_limits_and_says_so():
    state = early_state(1, placed=1)
    result = solve_blind(GAME, state, Limits(max_states=2000), samples=50)
    assert result.status == "estimated" and not result.exact and result.samples == 50
    assert result.interval[0] <= result.win_probability <= result.interval[1]
    assert [m["win_probability"] for m in result.ranked] == sorted((m["win_probability"] for m in result.ranked),
                                                                   reverse=True)
    assert result.to_json()["samples"] == 50


@pytest.mark.kernel_speed
def test_play_command(cli):
    for policy in ("baseline", "blind"):
        proc = cli("play", "foursquare", "--seed", 2, "--policy", policy, "--samples", 4, "--json")
        assert proc.returncode == 0, proc.stderr
        game = json.loads(proc.stdout)
        final = GAME.replay(GAME.new_deal(2), game["moves"])
        assert final.outcome().won == game["won"]
    text = cli("play", "foursquare", "--seed", 2, "--policy", "baseline", check=True).stdout
    assert "result:" in text and "place" in text
    bad = cli("play", "syndicate", "--seed", 1)
    assert bad.returncode == 2 and "no chance" in bad.stderr


@pytest.mark.kernel_speed
def test_blind_hint_files_validate_and_verify(cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text(cli("deal", "foursquare", "--seed", 4, check=True).stdout)
    hints = tmp_path / "hints.json"
    proc = cli("solve", deal, "--mode", "blind", "--samples", 5, "--max-states", 300, "--hints", hints, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "estimated" in proc.stdout and "95% interval" in proc.stdout
    data = json.loads(hints.read_text())
    assert data["mode"] == "blind" and data["decisions"]
    for decision in data["decisions"]:
        probabilities = [m["win_probability"] for m in decision["moves"]]
        assert decision["played"] == decision["moves"][0]["move"]
        if all(m["exact"] for m in decision["moves"]):
            assert probabilities == sorted(probabilities, reverse=True)
    assert data["status"] == "estimated" and not data["decisions"][0]["moves"][0]["exact"]
    assert data["decisions"][0]["moves"][0]["samples"] == 5
    assert cli("verify", deal, hints).returncode == 0
    data["decisions"][0]["played"] = data["decisions"][0]["moves"][-1]["move"]
    hints.write_text(json.dumps(data))
    assert cli("verify", deal, hints).returncode == 1


def test_blind_hint_files_of_an_endgame_are_exact(cli, tmp_path):
    hints = tmp_path / "hints.json"
    deal = PUZZLES / "foursquare" / "win-2.toml"  # four cards: exact in Python too
    proc = cli("solve", deal, "--mode", "blind", "--hints", hints, "--time-limit", 120, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "(exact)" in proc.stdout
    data = json.loads(hints.read_text())
    assert data["status"] == "solved" and all(m["exact"] for d in data["decisions"] for m in d["moves"])
    for decision in data["decisions"]:
        best = [m for m in decision["moves"] if m["best"]]
        assert best and all(m["win_probability"] == decision["moves"][0]["win_probability"] for m in best)
    assert cli("verify", deal, hints).returncode == 0


def test_a_move_ranked_above_the_rules_is_played_only_if_fresh_draws_confirm_it():
    """BlindPlan.confirm: where the rollouts rank a move above the blind rule's own (keep_rule),
    both are rolled out again on plan.confirm fresh draws (the same worlds for both); the other
    move stays first only if it wins more of them, and both rows then count every draw. Two
    decisions of the thinning rule's games (Friends, lost opportunities) where 4 draws rank another
    move first: 16 more refute it in the first, confirm it in the second."""
    from dataclasses import replace

    from solodeck.solvers.plan import plan_of
    from solodeck.solvers.rollouts import rollout_stats

    game = get_game("friends-in-high-places")
    plain = replace(plan_of(game), confirm=0)
    for seed, decision, confirmed in ((10000, 5, False), (10003, 31, True)):
        state = advance_chance(game.initial_state(game.new_deal(seed, {"lost-opportunities": True})))
        for _ in range(decision - 1):
            state = advance_chance(state.play(game.blind_rule(state)))
        rule, screened = game.blind_rule(state), estimated_rows(game, state, plan=plain)
        assert screened[0]["move"] != rule
        rows = estimated_rows(game, state, plan=replace(plain, confirm=16))
        fresh = {m: wins for m, wins, *_ in rollout_stats(game, state, 16, plain.samples,
                                                          [screened[0]["move"], rule], plain)}
        assert (fresh[screened[0]["move"]] > fresh[rule]) == confirmed
        assert rows[0]["move"] == (screened[0]["move"] if confirmed else rule)
        assert {r["move"]: r["samples"] for r in rows if r["move"] in fresh} == {m: 20 for m in fresh}
