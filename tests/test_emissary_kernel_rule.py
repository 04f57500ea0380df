"""The Emissary's blind rule in the kernel (ext/emissary.pyx) against the reference
(solodeck/games/emissary/blind.py): the odds tables to the last bit, the rule's move and its
candidates at every decision of seeded games (200 with -m slow), and the rollouts sample for sample (the same
draws: SplitMix64(seed + i), cards by their place in the sorted composition)."""
import random

import pytest

from solodeck.ext import load
from solodeck.games.emissary import blind
from solodeck.games.emissary.rules import ACT, CHOOSE, DECK_CARDS, DISCARD, RESPOND
from solodeck.registry import get_game
from solodeck.shuffle import SplitMix64
from solodeck.solvers.blind import BlindPolicy
from solodeck.solvers.plan import plan_of
from solodeck.solvers.rollouts import play_out

GAME = get_game("emissary")
KERNEL = blind.ready_kernel(load("emissary"))
pytestmark = pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
TABLES = blind.odds_tables(KERNEL) if KERNEL is not None else None  # tested equal to the reference's below


def reference_rule(state):
    """The Python rule (rule_move), its odds tables from the kernel."""
    return blind.rule_move(GAME, state, *TABLES)


def decisions(seeds, follow=0.8):
    """Every decision along seeded games: chance by SplitMix64(seed), the reference rule's move
    most of the time, else a random legal one (so that the games reach varied positions)."""
    for seed in seeds:
        chance, pick = SplitMix64(seed), random.Random(seed)
        state = GAME.initial_state(GAME.new_deal(seed))
        while True:
            while state.is_chance():
                state = state.apply_chance(state.sample_chance(chance))
            if state.outcome() is not None:
                break
            yield state
            move = reference_rule(state) if pick.random() < follow else pick.choice(state.legal_moves())
            state = state.play(move)


def test_the_kernels_odds_tables_equal_the_reference_to_the_last_bit():
    rng = random.Random(1)
    for _ in range(80):
        n = rng.randint(0, 9)
        cards = rng.sample(DECK_CARDS, 32)
        hand = tuple(sorted(cards[:n]))
        counts = blind.unseen_counts(cards[n:n + rng.randint(0, 24)])
        trump = rng.randrange(4)
        assert KERNEL.visit_table(hand, trump, counts) == blind.visit_table(hand, trump, counts)
        for need in range(-1, n + 2):
            for drop in (0, 1, 2):
                assert KERNEL.best_kept(hand, trump, counts, need, drop) == \
                    blind.best_kept(hand, trump, counts, need, drop), (hand, trump, need, drop)


@pytest.mark.parametrize("games", [6, pytest.param(200, marks=pytest.mark.slow)])
def test_the_kernel_rule_makes_the_reference_move_at_every_decision(games):
    """The same move and the same candidates (the rule's move, then its next best) at every
    decision of seeded games (200: several minutes, `pytest -m slow`)."""
    steps, uses, checked = set(), 0, 0
    for state in decisions(range(games)):
        move = reference_rule(state)
        assert blind.kernel_rule_move(KERNEL, state) == move, str(state)
        assert blind.candidates(GAME, state, 3) == blind.rule_candidates(GAME, state, 3, *TABLES), str(state)
        steps.add(state.step)
        uses += move.kind == "use"
        checked += 1
    assert steps == {CHOOSE, ACT, RESPOND, DISCARD} and uses > games // 2 and checked > 25 * games


def test_the_rule_with_the_reference_tables_makes_the_same_moves():
    """The rule's own arithmetic in pure Python (tables too) where it is cheap: answers to a lead."""
    checked = 0
    for state in decisions(range(6)):
        if state.step == RESPOND and len(state.hand) <= 9:
            assert blind.rule_move(GAME, state) == blind.kernel_rule_move(KERNEL, state), str(state)
            checked += 1
    assert checked > 30


def test_candidates_start_with_the_rule_move_and_are_distinct():
    for i, state in enumerate(decisions(range(5))):
        found = blind.candidates(GAME, state, 3)
        assert found[0] == GAME.blind_rule(state)
        assert len(set(found)) == len(found) == min(3, len(state.legal_moves()))


def test_rollouts_equal_the_python_rollouts_sample_for_sample(monkeypatch):
    """fast_rollouts in the kernel, its Python fallback (no kernel) and solvers/rollouts.py's
    play_out with the reference rule: the same wins and scores, draw by draw."""
    states = [s for i, s in enumerate(decisions(range(2, 4), follow=1.0)) if i % 12 == 5][:4]
    assert len(states) == 4
    fast = [GAME.fast_rollouts(state, 2, 50 + i) for i, state in enumerate(states)]
    for i, (state, rows) in enumerate(zip(states, fast)):
        assert [m for m, *_ in rows] == blind.candidates(GAME, state)
        for move, wins, won, lost in rows:
            expected = [0, 0, 0]
            for k in range(2):
                outcome = play_out(GAME, state.play(move), SplitMix64(50 + i + k), reference_rule).outcome()
                expected[0 if outcome.won else 2] += outcome.score
                expected[1] += outcome.won
            assert (wins, won, lost) == (expected[1], expected[0], expected[2]), (str(state), str(move))
    monkeypatch.setattr(GAME, "load_kernel", lambda: None)  # the fallback: the same rollouts in Python
    assert GAME.fast_rollouts(states[0], 2, 50) == fast[0]


def test_rollouts_never_read_the_order_of_the_deck():
    state = next(s for s in decisions([7]) if s.step == ACT and len(s.deck) > 4)
    reordered = state._with(deck=tuple(reversed(state.deck)))
    assert GAME.fast_rollouts(state, 3, 9) == GAME.fast_rollouts(reordered, 3, 9)
    assert GAME.blind_rule(state) == GAME.blind_rule(reordered)


def test_the_rollout_plan_ranks_the_rules_candidates_with_win_probabilities():
    """``blind:estimator=rollouts``: sequential halving over the rule's candidates, the rule's move
    first among equal wins; each valued move has a win probability and an interval."""
    plan = plan_of(GAME).varied("estimator=rollouts,samples=2")
    assert plan.halving and plan.keep_rule and plan.rank_losses
    state = next(decisions([11]))  # the first choice of a kingdom: far beyond the exact tree
    rows = BlindPolicy(GAME, plan=plan).rank(state)
    valued = [r for r in rows if r["win_probability"] is not None]
    assert [r["move"] for r in valued] == blind.candidates(GAME, state) or \
        {r["move"] for r in valued} == set(blind.candidates(GAME, state))
    assert all(r["interval"][0] <= r["win_probability"] <= r["interval"][1] for r in valued)
    assert len(rows) == len(state.legal_moves())
