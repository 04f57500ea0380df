"""Syndicate's reference engine: the rule text's examples, notation, invariants, known puzzles."""
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from solodeck.api import Deal
from solodeck.deals import load_deal
from solodeck.errors import MoveError
from solodeck.games.syndicate.rules import CARDS_IN_PLAY, Choose, Promote, parse_move
from solodeck.registry import get_game
from solodeck.solvers import solve_open

from conftest import PUZZLES, random_line

GAME = get_game("syndicate")
PERFT = Path(__file__).parent / "data" / "syndicate_move_counts.json"


def position(**ranks):
    """position(rank1=("5 3", "8"), ...) -> a State."""
    pos = {r: {"members": m, "candidates": c} for r, (m, c) in ranks.items()}
    return GAME.initial_state(Deal("syndicate", position=pos))


def test_text_replacement_example():
    # "If I promote 6 from R5 to R4, the remaining members are 5 and 4. The replacement can be
    # either the 9 (5 + 4 = 9) or the 10 (5 x 4 = 20 -> 0)."
    state = position(rank5=("6 5 4", "9 T 3 7 2 A"))
    takes = {m.take for m in state.legal_moves() if m.member == 6}
    assert takes == {9, 10}


def test_text_worked_endgame_line_wins_with_one_sacrifice():
    deal = load_deal(PUZZLES / "syndicate" / "isaludo-endgame.toml")
    line = ["promote 4:4 -> 3c, take 5",             # 9 + 6 = 15
            "promote 4:5 -> 3m, take 4, sacrifice 7",  # 9 x 6 = 54
            "promote 3:5 -> 2c, take 7",             # 9 x 3 = 27
            "promote 2:3 -> 1m, take 5",             # 9 x 5 = 45
            "promote 1:3 -> win, take 8"]            # 5 + 3 = 8
    final = GAME.replay(deal, line)
    assert final.outcome().won and final.outcome().score == 1
    best = solve_open(GAME, GAME.initial_state(deal))
    assert best.exact and best.verdict == "winnable" and best.score == 0  # the text's line is not optimal


def test_promotion_needs_exactly_three_members_and_a_matching_candidate():
    state = position(rank1=("5 3", "8"), rank2=("3 9 5", "6"))
    assert state.legal_moves() == []  # digits reachable from rank 2: 4 5 8 2 7; only a 6 is there
    assert state.outcome().won is False


def test_sacrifice_choices_include_the_promoted_card():
    state = position(rank3=("2 4 6", ""), rank4=("A 2 7", "3 9"))
    to_full = {m.sacrifice for m in state.legal_moves() if m.dest == "m" and m.member == 7}
    assert to_full == {2, 4, 6, 7}
    assert all(m.sacrifice is not None for m in state.legal_moves() if m.dest == "m")


def test_rank_one_promotion_wins_at_once():
    state = position(rank1=("5 3 3", "8"))
    (move,) = [m for m in state.legal_moves() if m.member == 3]
    assert move == Promote(1, 3, "win", 8) and state.play(move).outcome().won


def test_opening_offers_every_distinct_choice_and_discards_the_rest():
    state = GAME.initial_state(GAME.new_deal(0))
    moves = state.legal_moves()
    assert all(isinstance(m, Choose) for m in moves) and len(moves) == len(set(moves))
    after = state.play(moves[0])
    cards = sum(len(g) for g in after.members + after.candidates)
    assert cards == CARDS_IN_PLAY and after.sacrificed == 0 and after.reserve == ()


@pytest.mark.parametrize("bad", ["promote 5:6 -> 3m, take 9", "promote 1:3 -> 0m, take 8", "choose 4 5",
                                 "advance 5:6", "promote 5:Q -> 4m, take 9"])
def test_bad_move_text(bad):
    with pytest.raises(MoveError):
        parse_move(bad)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_random_play_keeps_the_cards_and_the_ranks(seed, choices):
    """Random play: cards are conserved (in play + sacrificed), ranks hold at most 3 members (the
    contract test checks the moves, keys and the end of random play for every game)."""
    line = random_line(GAME, seed, choices, max_nodes=200)
    for state in line.decisions[1:] + [line.final]:  # from the opening on
        assert all(len(m) <= 3 for m in state.members)
        on_board = sum(len(g) for g in state.members + state.candidates)
        assert on_board + state.sacrificed + state.won == CARDS_IN_PLAY  # the winner left for "rank 0"


def fixed_line_move_counts(seed, plies=60):
    """Legal-move counts along a fixed line: at ply k play move number (7k mod n) in text order."""
    state, counts, line = GAME.initial_state(GAME.new_deal(seed)), [], []
    for ply in range(plies):
        moves = sorted(state.legal_moves(), key=str)  # independent of the engine's search order
        counts.append(len(moves))
        if not moves or state.outcome() is not None:
            break
        move = moves[(7 * ply) % len(moves)]
        line.append(str(move))
        state = state.play(move)
    return {"seed": seed, "line": line, "counts": counts}


def test_move_count_regression():
    """Perft-style: the number of legal moves at each step of fixed lines must not change."""
    expected = json.loads(PERFT.read_text())
    assert expected, "regression file is empty"
    for entry in expected:
        assert fixed_line_move_counts(entry["seed"]) == entry


if __name__ == "__main__":  # regenerate the regression file (only after a deliberate rules change)
    PERFT.write_text(json.dumps([fixed_line_move_counts(s) for s in range(8)], indent=1) + "\n")
