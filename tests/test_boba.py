"""The First Boba Tea Shop in London: the rule text's examples, stay and kick, notation, invariants,
deal files, open mode (trivial, by the exact machinery), puzzles and blind mode."""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from blind_oracle import blind_value, every_order
from conftest import PUZZLES, fixed_line, random_line, random_position
from solodeck.api import NO_WIN, Deal, advance_chance
from solodeck.errors import MoveError
from solodeck.games.boba.blind import Odds, rule_candidates, rule_move
from solodeck.games.boba.rules import (CARDS, KICK, NO_DISCARDS, STAY, State, Target, fits, gap_bounds, parse_move,
                                       value_name)
from solodeck.registry import get_game
from solodeck.solvers import Limits, solve_open
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.blind import exact_rows
from solodeck.solvers.rollouts import estimated_rows, play_out
from solodeck.shuffle import SplitMix64

GAME = get_game("boba")
PERFT = Path(__file__).parent / "data" / "boba_move_counts.json"


def discards(**counts):
    """Discard counts from keywords such as v8=3."""
    out = list(NO_DISCARDS)
    for name, n in counts.items():
        out[int(name[1:])] = n
    return tuple(out)


def fitting(queue, gap):
    return [v for v in range(1, 14) if fits(queue, gap, v)]


# -- the rule text's examples ------------------------------------------------------------------
def test_the_9_4_4_2_queue():
    """Q1 of the text's midgame: 9-4-4-2 (matching ranks allowed); five gaps from the low end."""
    queue = (2, 4, 4, 9)
    assert [gap_bounds(queue, g) for g in range(5)] == [(0, 2), (2, 4), (4, 4), (4, 9), (9, 14)]
    assert fitting(queue, 0) == [1, 2]
    assert fitting(queue, 1) == [2, 3, 4]
    assert fitting(queue, 2) == [4]                   # between the two 4s only a 4 fits
    assert fitting(queue, 3) == [4, 5, 6, 7, 8, 9]
    assert fitting(queue, 4) == [9, 10, 11, 12, 13]
    state = State((queue, (1, 8), (13,), (5,)), NO_DISCARDS, (4, 7))
    assert len(state.legal_moves()) == 5 + 3 + 2 + 2
    joined = state.play(Target(1, 2)).apply_chance(4)
    assert joined.queues[0] == (2, 4, 4, 4, 9) and joined.target is None
    # the two gaps next to a 4 hold a 4 the same way: one search move for both of gap 2's twins
    assert len(state.search_moves()) == len(state.legal_moves())
    twins = State(((4, 4, 4),) + state.queues[1:], NO_DISCARDS, (4,))
    assert len(twins.legal_moves()) - len(twins.search_moves()) == 1


def test_three_8s_discarded_make_the_8_queue_risky():
    """Q2 = 8, A (eight values wide) with three 8s already discarded: a stay loses at once."""
    state = State(((2, 4, 4, 9), (1, 8), (13,), (5,)), discards(v8=3), (12, 3, 6))
    assert fitting((1, 8), 1) == list(range(1, 9))
    missed = advance_chance(state.play(Target(2, 1)))  # the Q comes: it does not fit
    assert missed.hand == 12 and missed.legal_moves() == [STAY, KICK]
    assert missed.stay_loses() and not missed.kick_loses()
    lost = missed.play(STAY)
    assert lost.outcome().won is False and lost.discards[8] == 4
    # a kick survives the Q, burns the 3 unseen, draws the 6: it fits
    kicked = missed.play(KICK)
    assert kicked.is_chance() and kicked.burn and kicked.discards[12] == 1
    after = advance_chance(kicked)
    assert after.outcome().won and after.queues[1] == (1, 6, 8) and after.discards[3] == 1


def test_a_kicks_blind_discard_can_lose():
    state = State(((2, 9), (7,), (13,), (5,)), discards(v3=3), (12, 3, 6), (0, 1), 11)  # J missed 2-9
    kicked = state.play(KICK)
    assert kicked.is_chance() and dict(kicked.chance_outcomes()) == {12: 1, 3: 1, 6: 1}
    assert kicked.apply_chance(3).outcome().won is False  # the fourth 3 lies in the discard pile
    assert kicked.apply_chance(12).outcome() is None      # any other card: draw again for 2-9
    blind = ExpectimaxSolver(GAME).value(kicked)
    assert blind[0] == pytest.approx(2 / 3)  # 3 burnt loses; Q burnt, 6 drawn fits; 6 burnt, Q drawn: stay wins


def test_stay_discards_the_queue_and_restarts_it():
    state = State(((2, 4, 4, 9), (1, 8), (13,), (5,)), NO_DISCARDS, (10, 6), (0, 2), 7)  # 7 missed 4|4
    after = state.play(STAY)
    assert after.queues[0] == (7,) and after.target is None and after.hand is None
    assert [after.discards[v] for v in (2, 4, 9)] == [1, 2, 1] and sum(after.discards) == 4
    assert after.deck == (10, 6) and after.outcome() is None


def test_kick_tests_the_same_gap_again_and_can_miss_again():
    state = State(((2, 4, 4, 9), (1, 8), (13,), (5,)), NO_DISCARDS, (10, 11, 4, 3), (0, 2), 7)
    again = advance_chance(state.play(KICK))  # 7 and 10 discarded, J drawn: misses 4|4 again
    assert again.hand == 11 and again.target == (0, 2) and again.discards[7] == 1 and again.discards[10] == 1
    fitted = advance_chance(again.play(KICK))  # J and 4 discarded, 3 drawn: misses; ...
    assert fitted.hand == 3 and fitted.deck == ()
    end = fitted.play(KICK)  # the deck is empty: the kick only discards the 3, the game is won
    assert end.outcome().won and end.outcome().score == 8


def test_kick_at_the_end_of_the_deck():
    last = State(((2, 9), (7,), (13,), (5,)), NO_DISCARDS, (), (0, 1), 11)  # the last card missed
    assert last.play(KICK).outcome().won and last.play(KICK).outcome().score == 5
    assert last.play(STAY).outcome().won and last.play(STAY).outcome().score == 4
    assert last.score_bound() == 5
    one = State(((2, 9), (7,), (13,), (5,)), NO_DISCARDS, (3,), (0, 1), 11)  # one card left: burnt
    burnt = one.play(KICK)
    assert burnt.is_chance() and burnt.apply_chance(3).outcome().won
    assert burnt.apply_chance(3).outcome().score == 5 and burnt.apply_chance(3).discards[3] == 1


def test_loss_on_the_fourth_discard_and_no_win_bound():
    state = State(((2, 9), (7,), (13,), (5,)), discards(v11=3, v2=3), (3,), (0, 1), 11)
    assert state.stay_loses() and state.kick_loses() and state.score_bound() == NO_WIN
    for move in (STAY, KICK):
        assert state.play(move).outcome().won is False
        assert state.play(move).legal_moves() == [] and not state.play(move).is_chance()


def test_win_and_score():
    state = State(((2, 9), (7,), (13,), (5,)), NO_DISCARDS, (8,))
    end = advance_chance(state.play(Target(1, 1)))
    assert end.outcome().won and end.outcome().score == 6 and end.queues[0] == (2, 8, 9)
    assert state.score_bound() == 6


def test_the_deal_starts_four_queues():
    deal = GAME.new_deal(5)
    state = GAME.initial_state(deal)
    assert [q[0] for q in state.queues] == [c % 13 + 1 for c in deal.piles["deck"][:4]]
    assert len(state.deck) == 48 and not state.is_chance() and len(state.legal_moves()) == 8


# -- notation -----------------------------------------------------------------------------
def test_notation_accepts_short_forms():
    assert parse_move("2:1") == Target(2, 1) and parse_move(" KICK ") == KICK


@pytest.mark.parametrize("bad", ["target", "target 2", "put 1:0", "target a:b", "stay 1", "2-1"])
def test_bad_move_text(bad):
    with pytest.raises(MoveError):
        parse_move(bad)


def test_illegal_moves_are_refused():
    state = GAME.initial_state(GAME.new_deal(0))
    for move in (Target(1, 2), Target(5, 0), STAY, KICK):
        with pytest.raises(MoveError):
            state.play(move)


# -- invariants under random play -------------------------------------------------------------
def check_invariants(state):
    cards = state.cards_in_queues + sum(state.discards) + len(state.deck) + (state.hand is not None)
    assert cards == CARDS  # card conservation
    for v in range(1, 14):
        assert sum(q.count(v) for q in state.queues) + state.discards[v] + state.deck.count(v) \
            + (state.hand == v) == 4
    assert all(q and list(q) == sorted(q) for q in state.queues)
    assert state.lost == (max(state.discards) >= 4)
    if state.outcome() is None:
        bound = state.score_bound()
        assert bound == NO_WIN or bound <= state.cards_in_queues + len(state.deck) + 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_random_play_keeps_the_cards_queues_and_bounds(seed, choices):
    """Cards conserved, four of each value, queues sorted, the loss on a fourth discard, the bound
    within the cards still to place, and a win exactly when the deck runs out before a loss (the
    contract test checks the moves, keys and the end of random play for every game)."""
    line = random_line(GAME, seed, choices)
    for state in line.decisions + [line.final]:
        check_invariants(state)
    assert line.final.outcome().won == (not line.final.deck and not line.final.lost)


def test_key_folds_the_order_of_queues():
    rng = random.Random(2)
    for seed in range(10):
        state = random_position(GAME, seed, rng, rng.randint(1, 30))
        order = list(range(4))
        rng.shuffle(order)
        target = None if state.target is None else (order.index(state.target[0]), state.target[1])
        image = State(tuple(state.queues[i] for i in order), state.discards, state.deck, target, state.hand,
                      state.burn)
        assert image.key() == state.key() and image.score_bound() == state.score_bound()


# -- deal files ---------------------------------------------------------------------------------
def test_position_form():
    position = {"queues": ["9 4 4 2", "8 A", "K 7", "5 T"], "deck": "Q 3 6", "hand": "J", "target": "2:0"}
    state = GAME.initial_state(Deal("boba", position=position))
    assert state.queues[0] == (2, 4, 4, 9) and state.deck == (12, 3, 6) and state.hand == 11
    assert state.target == (1, 0) and state.discards[8] == 3 and sum(state.discards) == CARDS - 14
    check_invariants(state)
    # the discard pile may be given, as values or as counts per value, if it accounts for the rest
    rest = " ".join(value_name(v) for v in range(1, 14) for _ in range(state.discards[v]))
    same = GAME.initial_state(Deal("boba", position={**position, "discards": rest}))
    counts = {value_name(v): state.discards[v] for v in range(1, 14)}
    assert same.key() == state.key()
    assert GAME.initial_state(Deal("boba", position={**position, "discards": counts})).key() == state.key()


def test_a_position_already_lost_is_refused():
    from solodeck.deals import deal_from_data
    from solodeck.errors import DealError

    deck = "A A A 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 6 6 6 6 7 7 7 7 9 9 9 T T T T J J J J Q Q Q Q K K K"
    with pytest.raises(DealError, match="already lost"):  # no 8 anywhere: four 8s discarded
        deal_from_data({"game": "boba", "position": {"queues": ["9", "5", "K", "A"], "deck": deck}}, "x")


# -- regression: legal moves along fixed lines ---------------------------------------------------------
def fixed_line_move_counts(seed):
    """Legal moves at each decision along a fixed line: move index 5 * ply mod n; the deal's draws."""
    record, state = fixed_line(GAME, seed)
    return {**record, "won": state.outcome().won}


def test_move_count_regression():
    """Perft-style: the legal moves at each step of fixed lines must not change."""
    expected = json.loads(PERFT.read_text())
    assert len(expected) == 8
    for entry in expected:
        assert fixed_line_move_counts(entry["seed"]) == entry


# -- open mode ------------------------------------------------------------------------------------
def test_open_mode_wins_every_deal_with_all_52_cards():
    """Knowing the next card, the player aims it at its own gap of any queue: it always fits.
    The exact search must find that at once (the score bound is reached on the first line)."""
    for seed in range(20):
        result = solve_open(GAME, GAME.initial_state(GAME.new_deal(seed)))
        assert result.exact and result.verdict == "winnable" and result.score == 52
        assert result.nodes < 5000 and len(result.line) == 48
    # the argument itself: from any decision before a draw, the next card fits some gap of every queue
    rng = random.Random(1)
    for _ in range(200):
        queue = tuple(sorted(rng.randint(1, 13) for _ in range(rng.randint(1, 8))))
        v = rng.randint(1, 13)
        assert any(fits(queue, g, v) for g in range(len(queue) + 1))


def test_hints_and_verify(cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text(cli("deal", "boba", "--seed", 3, check=True).stdout)
    hints = tmp_path / "hints.json"
    proc = cli("solve", deal, "--hints", hints, "--quiet")
    assert proc.returncode == 0 and "winnable, cards in queues: 52 (proven best)" in proc.stdout, proc.stderr
    data = json.loads(hints.read_text())
    assert len(data["decisions"]) == 48 and data["score"] == 52
    first = data["decisions"][0]
    assert any(m["best"] for m in first["moves"]) and any(m["verdict"] == "winnable" and m["score"] < 52
                                                         for m in first["moves"])
    assert cli("verify", deal, hints).returncode == 0
    data["score"] = 51
    hints.write_text(json.dumps(data))
    assert cli("verify", deal, hints).returncode == 1


def boba_puzzles():
    return sorted((PUZZLES / "boba").glob("*.toml"))


@pytest.mark.parametrize("path", boba_puzzles(), ids=lambda p: p.stem)
def test_puzzles_agree_with_the_unpruned_reference(path):
    import tomllib
    from solodeck.deals import load_deal

    meta = tomllib.loads(path.read_text())["meta"]
    state = GAME.initial_state(load_deal(path))
    pruned = solve_open(GAME, state)
    plain = solve_open(GAME, state, prune=False)
    assert pruned.verdict == plain.verdict == meta["verdict"]
    assert pruned.score == plain.score == meta.get("score")


@pytest.mark.parametrize("path", boba_puzzles(), ids=lambda p: p.stem)
def test_blind_play_never_beats_open_play_on_the_puzzles(path):
    """Over every order of the puzzle's deck, the clairvoyant mean bounds best blind play: on each
    order a blind strategy's result (win, score) is at best the open one."""
    from solodeck.deals import load_deal

    state = GAME.initial_state(load_deal(path))
    orders = every_order(state.deck)
    wins = scores = 0
    for order in orders:
        result = solve_open(GAME, State(state.queues, state.discards, order, state.target, state.hand))
        wins += result.verdict == "winnable"
        scores += result.score or 0
    blind = ExpectimaxSolver(GAME).value(state)
    assert blind[0] <= wins / len(orders) + 1e-12 and blind[1] <= scores / len(orders) + 1e-9


# -- blind mode -----------------------------------------------------------------------------------
def endgame(rng, cards_left, pending=False):
    """A small random endgame: short queues, many discards (so fourth cards threaten), ``cards_left``
    cards to come; with ``pending``, a drawn card that missed its target. Not every card of the
    deck is placed: the rules never look at the cards that are nowhere."""
    pool = [v for v in range(1, 14) for _ in range(4)]
    rng.shuffle(pool)
    queues = tuple(tuple(sorted(pool.pop() for _ in range(rng.randint(2, 5)))) for _ in range(4))
    deck = tuple(pool.pop() for _ in range(cards_left))
    d = [0] * 14
    for v in pool:
        if d[v] < 3 and rng.random() < 0.8:
            d[v] += 1
    if not pending:
        return State(queues, tuple(d), deck)
    for _ in range(100):
        q = rng.randrange(4)
        g = rng.randint(0, len(queues[q]))
        hand = rng.randint(1, 13)
        if not fits(queues[q], g, hand) and d[hand] + sum(x.count(hand) for x in queues) + deck.count(hand) < 4:
            return State(queues, tuple(d), deck, (q, g), hand)
    return State(queues, tuple(d), deck)


def blind_cases(n, cards_left, seed):
    rng = random.Random(seed)
    return [endgame(rng, cards_left, pending=i % 2 == 1) for i in range(n)]


@pytest.mark.parametrize("cards_left", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_blind_values_equal_the_brute_force_over_every_order(cards_left):
    uncertain, values = 0, set()
    for state in blind_cases(12, cards_left, seed=cards_left):
        expected = blind_value(state, every_order(state.deck))  # a draw or a kick's blind discard: one card
        got = ExpectimaxSolver(GAME, use_kernel=False).value(state)
        assert got == pytest.approx(expected, abs=1e-9), str(state)
        uncertain += 0 < got[0] < 1
        values.add(got[0])
    # not only sure wins and sure losses (with 1 or 2 cards left, blind play is mostly sure: both kinds)
    assert uncertain >= 1 if cards_left > 2 else {0.0, 1.0} <= values


def test_rollouts_match_the_python_playout():
    """Rollouts are the move then the blind rule over SplitMix64-seeded draws (seed + i)."""
    state = advance_chance(GAME.initial_state(GAME.new_deal(7)))
    for _ in range(30):
        state = advance_chance(state.play(GAME.blind_rule(state)))
    rows = {str(m): (w, s) for m, w, s in __import__("solodeck.solvers.rollouts", fromlist=["x"])
            .rollout_stats(GAME, state, 6, seed=11)}
    assert len(rows) >= 2
    for move in state.legal_moves():
        if str(move) not in rows:  # the rollouts value only the rule's best targets
            continue
        wins = total = 0
        for i in range(6):
            final = play_out(GAME, state.play(move), SplitMix64(11 + i), GAME.blind_rule)
            if final.outcome().won:
                wins, total = wins + 1, total + final.outcome().score
        assert rows[str(move)] == (wins, total)


def test_blind_exact_and_estimated_agree_on_an_endgame():
    state = blind_cases(1, 3, seed=99)[0]
    exact = exact_rows(GAME, state, Limits())
    estimated = estimated_rows(GAME, state, 300)
    best = {str(r["move"]): r["win_probability"] for r in exact}
    valued = [row for row in estimated if row["interval"] is not None]
    assert valued
    for row in valued:  # a rollout follows the rule after the move: never above best play
        assert row["interval"][0] <= best[str(row["move"])] + 1e-9


# -- the blind rule (docs/rules/boba.md "The blind rule") ---------------------------------------
def position(queues, discarded="", hand=None, target=None):
    """A position whose unseen cards are every card not in the queues, the discards (values) or
    the hand, in value order (the rule never looks at the order)."""
    d = list(NO_DISCARDS)
    for v in map(int, discarded.split()):
        d[v] += 1
    placed = [sum(q.count(v) for q in queues) + d[v] + (hand == v) for v in range(14)]
    deck = tuple(v for v in range(1, 14) for _ in range(4 - placed[v]))
    return State(tuple(tuple(sorted(q)) for q in queues), tuple(d), deck, target, hand)


QUEUES = [(2, 9), (5,), (13,), (7, 11)]


def test_the_rule_aims_where_the_cards_to_come_fit():
    """The last card, or three of one value: the rule aims where it fits, and wins."""
    for deck in [(4,), (6, 6, 6)]:
        state = State(((2, 9), (5, 6), (13,), (7, 11)), NO_DISCARDS, deck)
        move = rule_move(state)
        assert fits(state.queues[move.queue - 1], move.gap, deck[0])
        assert _play_dealt(state, rule_move).outcome().score == 7 + len(deck)  # nothing discarded


def test_a_miss_at_a_one_card_queue_stays():
    """The stay discards one card and keeps the drawn one; a kick would discard two."""
    assert rule_move(position(QUEUES, hand=3, target=(1, 1))) == STAY


def test_a_miss_at_a_long_queue_kicks():
    """Six cards to discard against two: kick."""
    state = position([(2, 3, 4, 6, 8, 9)] + QUEUES[1:], hand=12, target=(0, 6))
    assert rule_move(state) == KICK


def test_the_rule_weighs_how_close_the_drawn_value_is_to_its_fourth_discard():
    """A Q misses 2-9: with no Q out, a kick (two cards) beats a stay (two cards and the queue's
    gaps); with two Qs out, the kick would leave one Q between the player and a loss: stay."""
    assert rule_move(position(QUEUES, hand=12, target=(0, 1))) == KICK
    assert rule_move(position(QUEUES, "12 12", hand=12, target=(0, 1))) == STAY


def test_the_rule_never_chooses_a_discard_that_loses_when_the_other_does_not():
    stay_loses = position([(2, 4, 9)] + QUEUES[1:], "4 4 4", hand=12, target=(0, 1))
    assert stay_loses.stay_loses() and not stay_loses.kick_loses()
    assert rule_move(stay_loses) == KICK
    kick_loses = position([(2, 4, 5, 6, 8, 9)] + QUEUES[1:], "12 12 12", hand=12, target=(0, 1))
    assert kick_loses.kick_loses() and not kick_loses.stay_loses()
    assert rule_move(kick_loses) == STAY


def test_a_queued_copy_is_safer_than_an_unseen_one():
    """The rule's odds of a value: each copy not yet discarded must go for a loss, an unseen one
    more likely (a kick's blind discard, a miss) than a queued one (only a stay discards it)."""
    odds = Odds(QUEUES, position(QUEUES).unseen_counts())
    fits_a_2 = odds.gap_value(0, 0)  # below the 2: A or 2
    assert 0 < fits_a_2 < odds.gap_value(1, 1)
    from solodeck.games.boba.blind import SURVIVE
    assert SURVIVE[0][1] > SURVIVE[1][0] and SURVIVE[0][0] == 0.0 and SURVIVE[4][0] > SURVIVE[1][0]


def test_the_rule_and_its_candidates_are_blind():
    """A world with the same view (the unseen cards in another order) gets the same decision."""
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        while state.outcome() is None:
            deck = list(state.deck)
            rng.shuffle(deck)
            twin = State(state.queues, state.discards, tuple(deck), state.target, state.hand)
            assert sorted(twin.deck) == sorted(state.deck)
            assert rule_move(twin) == rule_move(state)
            assert rule_candidates(twin, 3) == rule_candidates(state, 3)
            checked += 1
            state = advance_chance(state.play(rule_move(state) if checked % 3 else rng.choice(state.legal_moves())))
    assert checked > 150


def test_rule_candidates_are_the_rules_best_targets_one_of_each_form():
    state = position([(4, 4, 4), (13,), (13,), (7, 11)])
    candidates = rule_candidates(state, 20)
    assert candidates[0] == rule_move(state)
    forms = {(state.queues[m.queue - 1], gap_bounds(state.queues[m.queue - 1], m.gap)) for m in candidates}
    assert len(forms) == len(candidates) < len(state.legal_moves())  # twins folded, within and across queues
    assert rule_candidates(state, 2) == candidates[:2]
    missed = position(QUEUES, hand=3, target=(1, 1))
    assert rule_candidates(missed, 1) == [STAY, KICK]  # after a miss: both answers


def test_the_rule_wins_more_often_than_the_baseline():
    """On 40 seeded deals (seeds >= 10000: never the results' deals) the rule wins clearly more."""
    def wins(choose):
        won = 0
        for seed in range(10_000, 10_040):
            state = GAME.initial_state(GAME.new_deal(seed))
            won += _play_dealt(state, choose).outcome().won
        return won
    assert wins(rule_move) >= wins(GAME.baseline_move) + 4


def _play_dealt(state, choose):
    """Play the deal as dealt (chance by the deck order), decisions by ``choose``."""
    while state.outcome() is None or state.is_chance():
        state = state.apply_chance(state.dealt_outcome()) if state.is_chance() else state.play(choose(state))
    return state


def test_play_command(cli):
    for policy in ("baseline", "blind"):
        proc = cli("play", "boba", "--seed", 2, "--policy", policy, "--samples", 2, "--json")
        assert proc.returncode == 0, proc.stderr
        game = json.loads(proc.stdout)
        assert game["moves"] and game["game"] == "boba"


def test_blind_solve_and_hint_files(cli, tmp_path):
    deal = PUZZLES / "boba" / "win-kick.toml"
    hints = tmp_path / "hints.json"
    proc = cli("solve", deal, "--mode", "blind", "--hints", hints, "--quiet")
    assert proc.returncode == 0 and "(exact)" in proc.stdout, proc.stderr
    data = json.loads(hints.read_text())
    assert data["mode"] == "blind" and data["status"] == "solved"
    assert cli("verify", deal, hints).returncode == 0
    seeded = tmp_path / "seed.toml"
    seeded.write_text(cli("deal", "boba", "--seed", 4, check=True).stdout)
    proc = cli("solve", seeded, "--mode", "blind", "--samples", 2, "--max-states", 50, "--quiet",
               "--hints", hints)
    assert proc.returncode == 0 and "estimated" in proc.stdout, proc.stderr
    assert cli("verify", seeded, hints).returncode == 0


if __name__ == "__main__":  # regenerate the regression file (only after a deliberate rules change)
    PERFT.write_text(json.dumps([fixed_line_move_counts(s) for s in range(8)], indent=1) + "\n")
