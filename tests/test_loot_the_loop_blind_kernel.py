"""Loot the Loop's blind rule in the kernel (ext/loot_the_loop.pyx, Blind) against the Python rule
(blind.rule_move): the same move at every decision of many seeded games and of random lines, the
same rollouts sample for sample as solvers/rollouts.py's in Python, from the player's view only;
and the blind answers it values (solve_blind)."""
from __future__ import annotations

import pytest

from solodeck.api import advance_chance
from solodeck.games.loot_the_loop import GAME, blind
from solodeck.games.loot_the_loop.blind import from_kernel, kernel_rule, kernel_view, rule_move
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from solodeck.solvers.blind import BlindPolicy, RulePolicy, solve_blind
from solodeck.solvers.episode import play_episode
from solodeck.solvers.rollouts import play_out, rollout_stats

KERNEL = GAME.load_kernel()
pytestmark = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def kernel_move(state):
    move = kernel_rule(KERNEL, state).rule_move()
    return None if move is None else from_kernel(move)


class PythonRule(RulePolicy):
    """The rule played by the Python reference (blind.rule_move), whatever Game.blind_rule uses."""

    def __call__(self, state):
        return rule_move(state)


def rule_games(seeds):
    """The decisions of the Python rule's games on seeded deals (chance as dealt)."""
    for seed in seeds:
        decisions, _final = play_episode(GAME.initial_state(GAME.new_deal(seed)), PythonRule(GAME))
        yield from decisions


def random_lines(seeds, length=150):
    """The decisions along random legal lines (chance drawn from the unseen cards), where the rule
    meets positions its own games never reach."""
    for seed in seeds:
        rng = SplitMix64(seed)
        state = GAME.initial_state(GAME.new_deal(seed))
        for _ in range(length):
            while state.is_chance():
                state = state.apply_chance(state.sample_chance(rng))
            moves = state.legal_moves()
            if not moves:
                break
            yield state
            state = state.play(moves[rng.next() % len(moves)])


@pytest.mark.parametrize("seeds, decisions", [pytest.param(range(40), 2_000, id="games 0-39"),
                                               pytest.param(range(40, 200), 8_000, id="games 40-199",
                                                            marks=pytest.mark.slow)])
def test_the_kernel_rule_makes_the_python_rule_s_move_at_every_decision(seeds, decisions):
    checked = 0
    for decision in rule_games(seeds):
        assert kernel_move(decision.state) == decision.move, str(decision.state)
        checked += 1
    assert checked > decisions


def test_the_kernel_rule_makes_the_python_rule_s_move_along_random_lines():
    checked = 0
    for state in random_lines(range(300, 330)):
        assert kernel_move(state) == rule_move(state), str(state)
        checked += 1
    assert checked > 1000


def test_the_game_s_blind_rule_is_the_kernel_s_when_built():
    decisions, _final = play_episode(GAME.initial_state(GAME.new_deal(10)), RulePolicy(GAME))
    assert [d.move for d in decisions] == [d.move for d in rule_games([10])]


def test_the_kernel_reads_only_the_view():
    """A twin world (the unseen cards dealt anew) gives the kernel the same input."""
    for k, decision in enumerate(rule_games([11])):
        twin = decision.state.sample_world(SplitMix64(k))
        assert kernel_view(twin) == kernel_view(decision.state)
        assert kernel_move(twin) == decision.move


def python_rollouts(state, moves, samples, seed):
    """solvers/rollouts.py's rollouts with the Python rule: (move, wins, winning scores, losing scores)."""
    rows = []
    for move in moves:
        wins = won_total = lost_total = 0
        for i in range(samples):
            final = play_out(GAME, state.play(move), SplitMix64(seed + i), rule_move)
            outcome = final.outcome() or final.stop_outcome()
            if outcome.won:
                wins, won_total = wins + 1, won_total + outcome.score
            else:
                lost_total += outcome.score
        rows.append((move, wins, won_total, lost_total))
    return rows


def late_decisions():
    """Decisions of a few rule games with two moves or more, the later ones (short rollouts)."""
    out = []
    for seed in (2, 4, 6, 10):
        decisions = [d.state for d in rule_games([seed]) if len(d.state.legal_moves()) > 1]
        out += decisions[len(decisions) // 2::max(1, len(decisions) // 6)]
    return out


def test_kernel_rollouts_equal_the_python_rollouts_sample_for_sample():
    compared = wins = 0
    for i, state in enumerate(late_decisions()):
        moves = state.legal_moves()
        fast = GAME.fast_rollouts(state, 4, 50 + i, moves)
        assert fast == python_rollouts(state, moves, 4, 50 + i), str(state)
        compared += len(moves)
        wins += sum(row[1] for row in fast)
    assert compared >= 20 and wins > 0


def test_without_the_kernel_the_rollouts_are_the_same_in_python(monkeypatch):
    state = late_decisions()[0]
    fast = rollout_stats(GAME, state, 3, 7, state.legal_moves())
    monkeypatch.setattr(type(GAME), "load_kernel", lambda self: None)
    assert GAME.fast_rollouts(state, 3, 7, state.legal_moves()) is None
    assert rollout_stats(GAME, state, 3, 7, state.legal_moves()) == fast


def a_decision(moves=3):
    """The first decision of the rule's games (seeds 0 up) with at least ``moves`` moves."""
    return next(d.state for d in rule_games(range(100)) if len(d.state.legal_moves()) >= moves)


def test_a_blind_answer_carries_a_value_for_the_move_and_the_others_ranked():
    state = a_decision()
    result = solve_blind(GAME, state, Limits(max_states=100), samples=40)
    assert result.win_probability is not None and result.interval[0] <= result.win_probability <= result.interval[1]
    assert len(result.line) == 1 and result.samples == 40
    valued = [row for row in result.ranked if row["win_probability"] is not None]
    assert len(valued) >= 2 and valued[0]["move"] == str(result.line[0])
    assert {row["move"] for row in result.ranked} == {str(m) for m in state.legal_moves()}
    assert solve_blind(GAME, state, Limits(max_states=100), samples=40).ranked == result.ranked  # seeded


def test_the_blind_policy_is_the_same_on_a_twin_world():
    """The policy's rollouts read the view: the same ranking with the hidden faces dealt anew."""
    state = a_decision()
    rows = BlindPolicy(GAME, samples=8).rank(state)
    assert BlindPolicy(GAME, samples=8).rank(state.sample_world(SplitMix64(3))) == rows
    assert all(row["win_probability"] is not None for row in rows[:2])
