"""Blind mode (solvers/expectimax.py) on Foursquare endgames, against independent computations.

* A brute force (tests/blind_oracle.py) that enumerates every order of the remaining cards: at a draw, each distinct
  next card is weighted by the number of orders that start with it (never by the state's own
  ``chance_outcomes``); at a decision, the best move for the orders still possible.

Open >= blind (the clairvoyant mean over every order bounds the blind win probability) is checked
for every game with a blind mode in tests/test_contract.py.
"""
import random

import pytest

from blind_oracle import blind_value, every_order
from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.games.foursquare.rules import State
from solodeck.registry import get_game
from solodeck.solvers import Limits
from solodeck.solvers.expectimax import ExpectimaxSolver

GAME = get_game("foursquare")
needs_kernel = pytest.mark.skipif(load("foursquare") is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def endgame(rng, cards_left):
    """A random late position inside the 4 x 4 grid, with 0 or 1 card to spare beyond the piles
    still missing, at most one top face down, ``cards_left`` cards in the deck, none drawn yet."""
    cells = [(x, y) for x in range(4) for y in range(4)]
    rng.shuffle(cells)
    missing = max(1, cards_left - rng.randint(0, 1))
    cells = [(0, 0)] + [c for c in cells if c != (0, 0)][:15 - missing]
    down = set(rng.sample(cells[1:], rng.randint(0, 1)))
    deck = [v for v in range(1, 11) for _ in range(4)]
    rng.shuffle(deck)
    piles = {c: (deck.pop(), c not in down, rng.randint(1, 2)) for c in cells}
    return State(piles, tuple(deck[:cards_left]))


def cases(n, cards_left, seed):
    rng = random.Random(seed)
    return [endgame(rng, cards_left) for _ in range(n)]


ENGINES = ["reference", pytest.param("kernel", marks=needs_kernel)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("cards_left", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_blind_values_equal_the_brute_force_over_every_order(cards_left, engine):
    positive = 0
    for state in cases(15, cards_left, seed=cards_left):
        expected = blind_value(state, every_order(state.deck))
        got = ExpectimaxSolver(GAME, use_kernel=engine == "kernel").value(state)
        assert got == pytest.approx(expected, abs=1e-9), str(state)
        positive += got[0] > 0
    assert positive >= 1  # not only hopeless positions (k = 2, 3: 4 and 3 of the 15 can win)


@pytest.mark.parametrize("engine", ENGINES)
def test_repeated_values_weigh_by_their_count(engine):
    """A draw's outcomes weigh by how many unseen cards give them: with a value twice in a
    three-card deck, weighing the values equally gives other numbers. Only positions whose blind
    value lies strictly between 0 and 1 can tell the two apart, so the test keeps those."""
    rng, telling = random.Random(7), 0
    while telling < 5:
        state = endgame(rng, 3)
        a, b, _c = state.deck
        state = State(state.piles, (a, a, b))  # a value twice, another once
        expected = blind_value(state, every_order(state.deck))
        if not 0 < expected[0] < 1 or a == b:
            continue
        got = ExpectimaxSolver(GAME, use_kernel=engine == "kernel").value(state)
        assert got == pytest.approx(expected, abs=1e-9), str(state)
        telling += 1


def test_ranked_moves_and_result():
    state = advance_chance(cases(1, 3, seed=99)[0])
    result = ExpectimaxSolver(GAME).solve(state)
    assert result.mode == "blind" and result.exact and result.engine.startswith("expectimax")
    probabilities = [m["win_probability"] for m in result.ranked]
    assert probabilities == sorted(probabilities, reverse=True)
    assert result.win_probability == probabilities[0] if probabilities else True


def test_a_limit_is_never_an_answer():
    state = GAME.initial_state(GAME.new_deal(0))  # 40 cards: far beyond an exact tree
    result = ExpectimaxSolver(GAME, Limits(time_limit=0.3)).solve(state)
    assert not result.exact and result.status == "timeout" and result.verdict == "unknown"
    assert ExpectimaxSolver(GAME, Limits(max_states=200)).solve(state).status == "memory-limit"
