"""Foursquare's CP-SAT model (encodings/foursquare.py): "a win in exactly B placements?" from a
deal's start. Its "yes" lines replay to a win under the reference engine; its answers equal the
kernel's depth-first search (itself checked against the reference, test_foursquare_kernel.py) on
shuffled decks, both ways."""
import random

import pytest

from solodeck.api import advance_chance
from solodeck.encodings.foursquare import win_in_exactly
from solodeck.ext import load
from solodeck.games.foursquare.rules import Place
from solodeck.games.foursquare.search import KernelSolver, _deal_cards
from solodeck.registry import get_game
from solodeck.solvers import Limits

GAME = get_game("foursquare")
KERNEL = load("foursquare")


def test_a_yes_is_a_line_that_wins_under_the_rules():
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    cards = _deal_cards(state)
    answer, places = win_in_exactly(cards[:16])
    assert answer == "yes" and len(places) == 15
    end = GAME.replay_moves(state, [Place(x, y) for x, y in places])
    assert end.outcome().won and end.outcome().score == 24


def test_only_a_deal_start_goes_to_the_model():
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    assert _deal_cards(state)[:2] == [state.piles[(0, 0)][0], state.hand]
    assert _deal_cards(advance_chance(state.play(state.legal_moves()[0]))) is None


def kernel_within(cards, budget, node_cap=300_000):
    """The kernel's answer to "a win within ``budget``?" from the start ``cards`` make (None: not
    decided within ``node_cap`` nodes)."""
    search = KERNEL.Search(64.0)
    search.set_position([(0, 0, cards[0], True, 1)], cards[1:budget + 1])
    found = search.win_within(budget, node_cap)
    return None if found < 0 else found == 1


def lone_extreme(cards):
    """Is the last card strictly below or above every other (the kernel's cut at once)?"""
    return all(cards[-1] < c for c in cards[:-1]) or all(cards[-1] > c for c in cards[:-1])


@pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
@pytest.mark.parametrize("each_way, searched_no, node_cap", [
    (4, 0, 300_000), pytest.param(4, 3, 3_000_000, marks=pytest.mark.slow)])
def test_the_model_answers_as_the_kernel_both_ways(each_way, searched_no, node_cap):
    """"A win with 24 cards left" (B = 15, every placement a new pile) on shuffled decks: the
    model's answers equal the kernel's, ``each_way`` of each kind, of which ``searched_no`` "no"s
    the kernel proved by search (its last card no lone extreme, which the kernel cuts at once)."""
    rng = random.Random(66)
    answers = {True: 0, False: 0}
    searched = 0
    for _ in range(2000):
        if min(answers.values()) >= each_way and searched >= searched_no:
            break
        cards = [v for v in range(1, 11) for _ in range(4)]
        rng.shuffle(cards)
        lone = lone_extreme(cards[:16])
        wanted = {True: answers[True] < each_way,
                  False: answers[False] < each_way or (not lone and searched < searched_no)}
        if not any(wanted.values()):
            continue
        within = kernel_within(cards, 15, node_cap)
        if within is None or not wanted[within]:
            continue  # a question the kernel did not settle, or an answer of a kind already had
        answer, _places = win_in_exactly(cards[:16])
        assert answer == ("yes" if within else "no"), cards[:16]
        answers[within] += 1
        searched += not within and not lone
    assert min(answers.values()) >= each_way and searched >= searched_no, (answers, searched)


@pytest.mark.skipif(KERNEL is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
def test_a_deal_the_cheap_questions_leave_open_is_proven_by_the_model():
    """Seed 22: the kernel's cheap questions do not settle a perfect win; the model finds one."""
    result = KernelSolver(GAME, KERNEL, Limits()).solve(GAME.initial_state(GAME.new_deal(22)))
    assert result.exact and result.score == 24 and result.engine == "kernel+cpsat"
