"""`solodeck compare` (solodeck/compare.py) and the blind policy's adaptive rollouts
(solvers/rollouts.py halving_stats): the exact McNemar test against hand-computed values, a small
real comparison through the command line (text, JSON, a rows file resumed), and sequential
halving's budget and choices, on a synthetic game with known odds and on Skyway's kernel."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from solodeck.api import advance_chance
from solodeck.cli import main
from solodeck.shuffle import SplitMix64
from solodeck.solvers import rollouts
from solodeck.solvers.rollouts import estimated_rows, halving_stats, rollout_stats
from solodeck.solvers.plan import BlindPlan, Estimator, plan_of
from solodeck.solvers.stats import mcnemar_p, wilson_interval

HALVING = BlindPlan(halving=True)


# -- the test ---------------------------------------------------------------------------------------
def test_mcnemar_p_against_hand_computed_values():
    assert mcnemar_p(0, 0) == 1.0                       # no discordant deal: no evidence either way
    assert mcnemar_p(0, 5) == mcnemar_p(5, 0) == 0.0625  # 2 x (1/2)^5
    assert mcnemar_p(2, 8) == 2 * (1 + 10 + 45) / 1024   # 2 x P(X <= 2), X ~ Bin(10, 1/2) = 0.109375
    assert mcnemar_p(1, 4) == 2 * (1 + 5) / 32
    assert mcnemar_p(3, 3) == 1.0 and mcnemar_p(7, 8) == 1.0  # the two-sided p is capped at 1
    # the Emissary pair: 8 deals only ours won, 197 only the rule's
    p = mcnemar_p(8, 197)
    assert 0 < p < 1e-40
    assert p == pytest.approx(2 * sum(math.comb(205, k) for k in range(9)) / 2 ** 205, rel=1e-12)


# -- the command --------------------------------------------------------------------------------------
def _compare(capsys, *argv):
    code = main(["compare", "skyway", *map(str, argv), "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0
    return out


def test_a_small_comparison_through_the_cli(tmp_path, capsys):
    summary = json.loads(_compare(capsys, "--policy", "baseline", "--policy", "rule", "--seeds", "10000-10002",
                                  "--json"))
    assert summary["game"] == "skyway" and summary["deals"] == 3 and summary["seeds"] == [10000, 10002]
    paired = summary["paired"]
    assert set(paired) == {"both", "only_a", "only_b", "neither"} and sum(paired.values()) == 3
    for tag, name in (("a", "baseline"), ("b", "rule")):
        side = summary[tag]
        assert side["policy"] == name
        assert side["wins"] == paired["both"] + paired[f"only_{tag}"]
        assert side["win_rate"] == side["wins"] / 3
        assert side["interval"] == list(wilson_interval(side["wins"], 3))
        assert side["median_seconds"] >= 0
    assert summary["mcnemar_p"] == mcnemar_p(paired["only_a"], paired["only_b"])
    # the same deals played again give the same rows: the text says what the JSON said
    text = _compare(capsys, "--policy", "baseline", "--policy", "rule", "--seeds", "10000-10002", "--quiet")
    assert f"won {summary['a']['wins']}/3" in text and "exact McNemar p" in text
    assert (f"both won {paired['both']}, only A {paired['only_a']}, only B {paired['only_b']}, "
            f"neither {paired['neither']}") in text


def test_a_policy_names_a_variant_of_the_games_blind_plan():
    """`blind:FIELD=VALUE,...` is the game's plan with those fields changed (no class patched);
    blind-equal / blind-adaptive are the same as halving=false / true; a bad field is refused
    with a message that names the fields."""
    from solodeck.errors import UnsupportedError
    from solodeck.solvers.blind import BlindPolicy, policy

    base = plan_of(SKYWAY)
    variant = policy(SKYWAY, "blind:samples=8,halving=false,candidates=3")
    assert isinstance(variant, BlindPolicy)
    assert variant.plan == replace(base, samples=8, halving=False, candidates=3)
    assert plan_of(SKYWAY) == base  # the game's own plan is untouched
    assert policy(SKYWAY, "blind-equal").plan == replace(base, halving=False)
    assert policy(SKYWAY, "blind-adaptive").plan == replace(base, halving=True)
    assert policy(SKYWAY, "blind:samples=8", samples=5).plan.samples == 5  # --samples wins
    assert BlindPlan().varied("estimator=rule,estimate=false,candidates=none") == BlindPlan(
        estimator=Estimator.RULE, estimate=False, candidates=None)
    for bad in ("blind:sample=8", "blind:samples=many", "blind:halving=maybe", "blind:estimator=guess"):
        with pytest.raises(UnsupportedError, match=bad.split(":")[1].split("=")[0]):
            policy(SKYWAY, bad)


def test_two_variants_of_one_plan_through_the_cli(capsys):
    summary = json.loads(_compare(capsys, "--policy", "blind:samples=2", "--policy", "blind:samples=2,halving=false",
                                  "--seeds", "10000-10000", "--json"))
    assert [summary[t]["policy"] for t in "ab"] == ["blind:samples=2", "blind:samples=2,halving=false"]
    assert summary["deals"] == 1


def test_a_rows_file_is_resumed_and_gives_the_same_summary(tmp_path, capsys):
    out = tmp_path / "cmp.csv"
    args = ["--policy", "baseline", "--policy", "rule", "--json", "--out", out]
    _compare(capsys, *args, "--seeds", "10000-10001")
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# solodeck compare") and lines[1].startswith("seed,won_a,won_b")
    assert len(lines) == 4
    resumed = json.loads(_compare(capsys, *args, "--seeds", "10000-10003", "--resume"))
    assert len(out.read_text().splitlines()) == 6  # only the two new seeds were played
    fresh = json.loads(_compare(capsys, *args[:-2], "--seeds", "10000-10003"))
    strip = lambda s: {k: v for k, v in s.items() if k not in ("a", "b")}  # noqa: E731 (timings differ)
    assert strip(resumed) == strip(fresh)
    assert [resumed[t]["wins"] for t in "ab"] == [fresh[t]["wins"] for t in "ab"]
    # another comparison is refused on that file, in one line
    code = main(["compare", "skyway", "--policy", "rule", "--policy", "baseline", "--seeds", "10000-10003",
                 "--out", str(out), "--resume", "--jobs", "1"])
    assert code == 2 and "not this comparison" in capsys.readouterr().err


def test_worker_processes_give_the_same_rows(capsys):
    def played(jobs):
        assert main(["compare", "skyway", "--policy", "baseline", "--policy", "rule", "--seeds", "10000-10003",
                     "--json", "--jobs", str(jobs)]) == 0
        summary = json.loads(capsys.readouterr().out)
        return summary["paired"], [summary[t]["wins"] for t in "ab"]

    assert played(2) == played(1)


# -- sequential halving on a synthetic game with known odds -------------------------------------------
class Odds:
    """A 'game' whose move m wins draw i when SplitMix64(seed + i) says so with probability p[m]:
    the draws of a move depend only on the draw's seed, as real rollouts do."""

    score_sense = None

    def __init__(self, p):
        self.p, self.drawn = p, 0

    def fast_rollouts(self, state, samples, seed, moves=None):
        moves = list(self.p) if moves is None else moves
        self.drawn += samples * len(moves)
        stats = []
        for m in moves:
            wins = 0
            for i in range(samples):
                rng = SplitMix64((seed + i) * 1000 + m)
                wins += rng.next() / 2**64 < self.p[m]
            stats.append((m, wins, 0))
        return stats

    def blind_rule(self, state):
        return None

    def blind_plan(self):
        return BlindPlan()

    def state(self):
        """A decision with these moves (all of them valued, so no row is left unvalued)."""
        moves = list(self.p)
        return type("Decision", (), {"legal_moves": lambda self: moves})()


def test_halving_keeps_the_budget_and_finds_a_clear_best():
    p = {m: 0.3 for m in range(16)} | {11: 0.6}
    game = Odds(p)
    stats, draws, alive = halving_stats(game, game.state(), 40, seed=5)
    assert game.drawn == sum(draws.values()) <= 40 * 16
    assert game.drawn > 0.9 * 40 * 16  # the budget is spent, not saved
    assert draws[11] == max(draws.values()) > 40  # the best move got more than its equal share
    rows = estimated_rows(game, game.state(), 40, seed=5, plan=HALVING)
    assert rows[0]["move"] == 11 and rows[0]["samples"] == draws[11]
    assert sum(r["samples"] for r in rows) <= 40 * 16


def test_halving_never_drops_a_move_within_noise():
    game = Odds({m: 0.5 for m in range(8)})  # all equal: a move dropped is one the noise could not tell
    _stats, draws, alive = halving_stats(game, game.state(), 64, seed=1)
    assert len(alive) >= 2 and game.drawn <= 64 * 8


def test_two_moves_are_valued_equally_draw_for_draw():
    game = Odds({0: 0.4, 1: 0.5})
    adaptive = estimated_rows(game, game.state(), 50, seed=9, plan=HALVING)
    equal = estimated_rows(game, game.state(), 50, seed=9)
    assert adaptive == equal and all(r["samples"] == 50 for r in equal)


# -- on Skyway's kernel ----------------------------------------------------------------------------------
from solodeck.games.skyway import GAME as SKYWAY  # noqa: E402

kernel_built = SKYWAY.load_kernel() is not None


def _positions():
    for seed in (10000, 10001):
        state = advance_chance(SKYWAY.initial_state(SKYWAY.new_deal(seed)))
        for _ in range(6):
            state = advance_chance(state.play(SKYWAY.blind_rule(state)))
        yield state


@pytest.mark.skipif(not kernel_built, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
def test_subsets_and_batches_are_the_same_draws():
    state = next(_positions())
    full = {m: c for m, *c in rollout_stats(SKYWAY, state, 40, 3)}
    some = list(full)[2:7]
    assert {m: c for m, *c in rollout_stats(SKYWAY, state, 40, 3, some)} == {m: full[m] for m in some}
    first, rest = rollout_stats(SKYWAY, state, 15, 3, some), rollout_stats(SKYWAY, state, 25, 18, some)
    assert {m: [a + b for a, b in zip(x, y)] for (m, *x), (_m, *y) in zip(first, rest)} == \
        {m: full[m] for m in some}


def test_python_rollouts_of_a_subset_are_the_same_draws(monkeypatch):
    monkeypatch.setattr(SKYWAY, "fast_rollouts", lambda state, samples, seed, moves=None: None)
    state = next(_positions())
    full = {m: c for m, *c in rollout_stats(SKYWAY, state, 3, 7)}  # BlindPlan.candidates of them, in Python
    some = list(full)[1:3]
    assert {m: c for m, *c in rollout_stats(SKYWAY, state, 3, 7, some)} == {m: full[m] for m in some}


@pytest.mark.skipif(not kernel_built, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
def test_adaptive_picks_what_many_equal_samples_pick(monkeypatch):
    drawn = []
    real = rollouts.rollout_stats

    def counting(game, state, n, seed=0, moves=None, plan=None):
        stats = real(game, state, n, seed, moves, plan)
        drawn.append(n * len(stats))
        return stats

    state = next(_positions())  # seed 10000's: a clear best (0.30 against 0.22 at most, 1000 draws a move)
    big = {r["move"]: r for r in estimated_rows(SKYWAY, state, 1000, plan=replace(plan_of(SKYWAY), halving=False))}
    best = max(big.values(), key=lambda r: r["win_probability"])
    assert best["interval"][0] > max(r["interval"][1] for r in big.values() if r is not best)
    monkeypatch.setattr(rollouts, "rollout_stats", counting)
    rows = estimated_rows(SKYWAY, state, 512, plan=replace(plan_of(SKYWAY), halving=True))
    monkeypatch.setattr(rollouts, "rollout_stats", real)
    assert sum(drawn) == sum(r["samples"] for r in rows) <= 512 * len(big)
    assert rows[0]["move"] == best["move"]


@pytest.mark.parametrize("name", ["foursquare", "sandwich"])
def test_the_adaptive_policy_never_sees_the_order_of_the_unseen_cards(name):
    """The contract's twin test (tests/test_contract.py), with the rollouts by sequential halving:
    the unseen cards in another order, everything seen the same, the same ranking."""
    import random

    from test_contract import blind_positions, reordered
    from solodeck.registry import get_game
    from solodeck.result import Limits
    from solodeck.solvers.blind import BlindPolicy

    game = get_game(name)
    early, _late = blind_positions(game)
    policy = BlindPolicy(game, samples=32, exact_limits=Limits(max_states=1),
                         plan=replace(plan_of(game), halving=True))
    rng = random.Random(5)
    checked = 0
    for line, i, n in early[:3]:
        state = line.nodes[i][0]
        order = list(range(n))
        while n > 1 and order == sorted(order):
            rng.shuffle(order)
        rows = policy.rank(state)
        assert policy.rank(reordered(line, i, n, order)) == rows
        checked += len({r["samples"] for r in rows}) > 1  # the draws were shared unequally
    assert checked, f"{name}: sequential halving never left equal allocation on these positions"
