"""Foursquare's reference engine: the rule text's example, flips, notation, invariants, deal files."""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import fixed_line, random_line, random_position
from solodeck.api import Deal
from solodeck.errors import MoveError
from solodeck.games.foursquare.rules import SYMMETRIES, Place, State, parse_move
from solodeck.registry import get_game

GAME = get_game("foursquare")
PERFT = Path(__file__).parent / "data" / "foursquare_move_counts.json"


def cell(name):
    """'B3' -> (1, 2): the text's columns A-D and rows 1-4, with A1 at the origin."""
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


# The text's example grid (its picture is missing; docs/rules/foursquare.md, ruling 9).
EXAMPLE = {cell("A1"): (9, True, 1), cell("B2"): (7, False, 2), cell("C2"): (6, True, 1),
           cell("D2"): (5, True, 1), cell("C3"): (3, True, 1), cell("D3"): (2, True, 1),
           cell("D4"): (4, True, 1), cell("B4"): (10, True, 1)}


def example(hand=6):
    return State(dict(EXAMPLE), (1, 2, 3), hand)


def flips(before, place):
    """Cells whose top the placement turned over (the placed cell excluded)."""
    after = before.play(place)
    return {c for c in before.piles if c != (place.x, place.y) and before.piles[c][1] != after.piles[c][1]}


def test_text_example_six_on_b3():
    # "Playing the 6 on B3 will flip the 10, 3 and 2 face down, and the top facedown card on B2 face up."
    state = example()
    after = state.play(Place(*cell("B3")))
    assert flips(state, Place(*cell("B3"))) == {cell("B4"), cell("C3"), cell("D3"), cell("B2")}
    assert after.piles[cell("B2")][1] and not any(after.piles[cell(c)][1] for c in ("B4", "C3", "D3"))


def test_text_example_six_on_b1_and_b2():
    state = example()
    # "Playing the 6 on B1 will flip the 9 on A1 and the card on B2" (and, by the rule, B4's 10).
    assert flips(state, Place(*cell("B1"))) == {cell("A1"), cell("B2"), cell("B4")}
    # "Playing the 6 on B2 will flip the 10, but will not affect row 2 (6 is not the uniquely highest)."
    assert flips(state, Place(*cell("B2"))) == {cell("B4")}
    assert state.play(Place(*cell("B2"))).piles[cell("B2")] == (6, True, 3)


def test_text_example_forbidden_places():
    moves = set(example().legal_moves())
    assert Place(*cell("A3")) not in moves  # not orthogonally connected
    assert Place(4, 1) not in moves          # E2: the grid would be five cards wide
    assert Place(*cell("D1")) not in moves   # four cards flip: five face-down tops
    assert {Place(*cell(c)) for c in ("B3", "B1", "B2")} <= moves


def test_no_face_up_card_in_a_line_flips_every_pile_both_ways():
    state = State({(0, 0): (5, False, 1), (1, 0): (8, False, 1), (0, 1): (3, True, 1)}, (), 4)
    after = state.play(Place(2, 0))  # row 0 shows no face-up top: both face-down tops turn up
    assert after.piles[(0, 0)][1] and after.piles[(1, 0)][1] and after.piles[(0, 1)][1]


def test_ties_never_flip():
    state = State({(0, 0): (5, True, 1), (1, 0): (5, True, 1)}, (), 5)
    assert flips(state, Place(2, 0)) == set()


def test_win_and_score():
    piles = {(x, y): (5, True, 1) for x in range(4) for y in range(4) if (x, y) != (3, 3)}
    tie = State(dict(piles), (2, 2, 2), 5)  # a tie flips nothing: 16 face-up piles, a win
    assert tie.play(Place(3, 3)).outcome().won and tie.play(Place(3, 3)).outcome().score == 3
    low = State(dict(piles), (2, 2, 2), 1)  # an ace there would turn six piles face down
    assert Place(3, 3) not in low.legal_moves()


def test_first_card_starts_the_grid_and_loss_when_stuck():
    state = GAME.initial_state(GAME.new_deal(0))
    assert state.is_chance() and not state.legal_moves()
    first = state.apply_chance(state.dealt_outcome())
    assert list(first.piles) == [(0, 0)] and first.is_chance()
    stuck = State({(x, y): (5, (x + y) % 2 == 0, 4) for x in range(4) for y in range(4)}, (), 3)
    assert stuck.outcome() is not None and not stuck.outcome().won


@pytest.mark.parametrize("bad", ["place", "place 1", "put 1,0", "place a,b"])
def test_bad_move_text(bad):
    with pytest.raises(MoveError):
        parse_move(bad)


def check_invariants(state):
    on_table = sum(h for _v, _u, h in state.piles.values())
    assert on_table + len(state.deck) + (state.hand is not None) == 40
    xs = [x for x, _ in state.piles]
    ys = [y for _, y in state.piles]
    assert max(xs) - min(xs) < 4 and max(ys) - min(ys) < 4
    assert all(1 <= h <= 4 for _v, _u, h in state.piles.values())
    assert sum(1 for _v, up, _h in state.piles.values() if not up) <= 4


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_random_play_keeps_the_cards_and_the_grid(seed, choices):
    """Cards conserved, the grid within 4 x 4, heights 1-4, at most four face-down tops (the
    contract test checks the moves, keys and the end of random play for every game)."""
    line = random_line(GAME, seed, choices)
    for state in line.decisions + [line.final]:
        check_invariants(state)


def test_key_folds_the_symmetries_of_the_square():
    rng = random.Random(4)
    for seed in range(20):
        state = random_position(GAME, seed, rng, rng.randint(1, 12))
        for sym in SYMMETRIES:
            image = State({sym(x, y): p for (x, y), p in state.piles.items()}, state.deck, state.hand)
            assert image.key() == state.key()
            assert len(image.legal_moves()) == len(state.legal_moves())


def test_deal_from_seed_and_position_errors(tmp_path, cli):
    path = tmp_path / "p.toml"
    for body, message in [
        ('piles = ["0,0: 7", "5,0: 3"]', "do not fit"),
        ('piles = ["1,0: 7"]', "must be at 0,0"),
        ('piles = ["0,0: Q"]', "is not a value"),
        ('piles = ["0,0: 7/5"]', "height 5"),
        ('piles = ["0,0 7"]', "expected 'X,Y: V/H'"),
        ('piles = ["0,0: (A)", "1,0: (2)", "2,0: (3)", "3,0: (4)", "0,1: (5)"]', "face-down"),
        ('piles = ["0,0: 7"]\ncolour = "red"', "unknown field"),
    ]:
        path.write_text(f'game = "foursquare"\n[position]\n{body}\n')
        proc = cli("solve", path)
        assert proc.returncode == 2 and message in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
    state = GAME.initial_state(Deal("foursquare", position={"piles": ["0,0: 7/2", "1,0: (5)"], "deck": "3 9 A", "hand": "8"}))
    assert state.piles == {(0, 0): (7, True, 2), (1, 0): (5, False, 1)} and state.deck == (3, 9, 1) and state.hand == 8


def fixed_line_move_counts(seed):
    """The number of legal moves at each decision along a fixed line (move index = 5 * ply mod n)."""
    return fixed_line(GAME, seed)[0]


def test_move_count_regression():
    """Perft-style: the number of legal moves at each step of fixed lines must not change."""
    expected = json.loads(PERFT.read_text())
    assert expected
    for entry in expected:
        assert fixed_line_move_counts(entry["seed"]) == entry


if __name__ == "__main__":  # regenerate the regression file (only after a deliberate rules change)
    PERFT.write_text(json.dumps([fixed_line_move_counts(s) for s in range(8)], indent=1) + "\n")
