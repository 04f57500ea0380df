"""The Emissary's blind rule in the kernel (ext/emissary.pyx) against the reference
(solodeck/games/emissary/blind.py): the odds tables to the last bit, the rule's move and its
candidates at every decision of seeded games (200 with -m slow), and the rollouts sample for sample (the same
draws: SplitMix64(seed + i), cards by their place in the sorted composition). Then the blind
answer's estimate: the rule's candidates rolled out in analysis (solve and hint files), never in
play, and only where the kernel is built."""
import functools
import random

import pytest

from solodeck.ext import load
from solodeck.games.emissary import blind
from solodeck.games.emissary.rules import ACT, CHOOSE, DECK_CARDS, DISCARD, RESPOND
from solodeck.registry import get_game
from solodeck.shuffle import SplitMix64
from solodeck.result import Limits
from solodeck.solvers.blind import BlindPolicy, analysis_plan, solve_blind
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


def random_visit(rng, hand_sizes, unseen):
    """(hand, trump, counts of the unseen cards): a random hand of one of ``hand_sizes`` cards,
    against ``unseen`` = (fewest, most) unseen cards."""
    n = rng.randint(*hand_sizes)
    cards = rng.sample(DECK_CARDS, 32)
    return tuple(sorted(cards[:n])), rng.randrange(4), blind.unseen_counts(cards[n:n + rng.randint(*unseen)])


def test_the_kernels_odds_tables_equal_the_reference_to_the_last_bit():
    rng = random.Random(1)
    for _ in range(80):
        hand, trump, counts = random_visit(rng, (0, 9), (0, 24))
        n = len(hand)
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


def test_the_kernel_folds_alike_cards_and_keeps_every_bit():
    """Cards of a suit with no unseen card between them (runs) share one row per count: larger
    hands against few unseen cards, where runs are long, give the reference's tables and
    best_kept to the last bit."""
    rng = random.Random(2)
    for _ in range(6):
        hand, trump, counts = random_visit(rng, (10, 11), (2, 10))
        n = len(hand)
        table = blind.visit_table(hand, trump, counts)
        assert KERNEL.visit_table(hand, trump, counts) == table
        for need in range(n + 1):
            kept = [row[need] for mask, row in enumerate(table) if bin(mask).count("1") == n - 2 and need < len(row)]
            assert KERNEL.best_kept(hand, trump, counts, need, 2) == max(kept, default=0.0)


@functools.lru_cache
def late_decision(step):
    """A decision at ``step`` with a choice, late in the rule's own game on seed 2 (in its last
    visits: rollouts from it are short)."""
    return next(s for i, s in enumerate(decisions([2], follow=1.0))
                if i >= 150 and s.step == step and len(s.legal_moves()) > 1)


def test_a_blind_solve_values_the_rules_candidates_with_intervals():
    """solve --mode blind: the rule's move first, it and the rule's next best each valued by the
    same rollouts as fast_rollouts, with a Wilson interval; the other moves unvalued; the same
    answer with the unseen cards in another order."""
    state = late_decision(ACT)
    result = solve_blind(GAME, state, Limits(max_states=50), samples=3)
    assert result.status == "estimated" and result.engine == "rollouts" and result.samples == 3
    valued = [r for r in result.ranked if r["win_probability"] is not None]
    assert valued[0]["move"] == str(GAME.blind_rule(state)) == str(result.line[0])
    rolled = {str(m): wins / 3 for m, wins, *_ in GAME.fast_rollouts(state, 3, 0)}
    assert {r["move"]: r["win_probability"] for r in valued} == rolled and len(rolled) == 2
    for row in valued:
        assert row["samples"] == 3 and row["interval"][0] <= row["win_probability"] <= row["interval"][1]
    assert len(result.ranked) == len(state.legal_moves())
    assert result.win_probability == valued[0]["win_probability"] and result.interval == valued[0]["interval"]
    reordered = state._with(deck=tuple(reversed(state.deck)))  # the view only: the same answer
    assert solve_blind(GAME, reordered, Limits(max_states=50), samples=3).ranked == result.ranked


def test_the_estimate_is_counted_in_rollouts_and_set_by_samples():
    assert analysis_plan(GAME).samples == blind.ANALYSIS_ROLLOUTS and analysis_plan(GAME, 5).samples == 5


def test_in_play_the_rule_moves_unvalued():
    """The blind policy plays the rule's move and rolls nothing out (a rollout at every decision
    would cost seconds a move); analysis rows (every_move) carry the estimate."""
    state = late_decision(ACT)
    rows = BlindPolicy(GAME).rank(state)
    assert rows[0]["move"] == GAME.blind_rule(state) and all(r["win_probability"] is None for r in rows)
    rows = BlindPolicy(GAME, samples=1, every_move=True).rank(state)
    assert rows[0]["move"] == GAME.blind_rule(state) and rows[0]["win_probability"] is not None


def test_without_the_kernel_the_blind_answer_says_it_has_no_estimate(monkeypatch):
    """The Python rule weighs no ability at the choice of a kingdom and takes minutes a rollout:
    without the kernel the answer is the rule's move, and it says it is not estimated."""
    state = late_decision(RESPOND)
    monkeypatch.setattr(GAME, "load_kernel", lambda: None)
    assert plan_of(GAME).analysis_samples == 0
    result = solve_blind(GAME, state, Limits(max_states=50), samples=3)
    assert result.engine == "rule" and result.win_probability is None and result.interval is None
    assert [str(m) for m in result.line] == [str(GAME.blind_rule(state))]
    assert all(r["win_probability"] is None for r in result.ranked)
