"""Dead Center: every rule clause (placement, kills, the turn, the end), the rule text's examples
rebuilt on cabins of our own, deals, moves, blind support (views, sampled worlds, the score bound)
the card invariant along random seeded games; deal files with positions; the CP-SAT engine
against the generic search; the kernel against the reference; the baseline; the command line.
Rules: seeds/000 p. 19 and RULINGS.md."""
from __future__ import annotations

import json
import random
import tomllib
from functools import cache
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from conftest import PUZZLES, fixed_line_record

from solodeck import cards as C
from solodeck.api import NO_WIN, Outcome, advance_chance
from solodeck.errors import DealError, MoveError
from solodeck.games.dead_center import GAME
from solodeck.games.dead_center.blind import RULE_WEIGHTS, _python_rollouts, rule_move
from solodeck.games.dead_center.rules import (
    CELL_SPACES,
    DEAD,
    DOWN,
    DRAW,
    FACE_CARDS,
    FLIP,
    JOKER,
    KILL,
    NUMBER_CARDS,
    PASS,
    PLACE,
    REVEAL,
    SPACE_CELL,
    SUPPORTS,
    UP,
    Move,
    State,
    fits,
    kills,
    parse_move,
    value_of,
)
from solodeck.deals import deal_from_data, load_deal
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64, shuffled
from solodeck.solvers import DepthFirstSolver, make_solver
from solodeck.solvers.episode import play_episode
from solodeck.solvers.blind import BaselinePolicy, BlindPolicy

JK = JOKER


# -- helpers ----------------------------------------------------------------------------------------
def cards(text):
    return tuple(C.parse_cards(text))


def card(text):
    return C.parse_card(text)


def faces(placed=None):
    """The 12 zombies in space order: ``placed`` maps a space (1-12, as in moves) to a face's text;
    the other spaces take the remaining face cards in canonical order."""
    placed = {space - 1: card(text) for space, text in (placed or {}).items()}
    rest = iter(f for f in FACE_CARDS if f not in placed.values())
    return tuple(placed[s] if s in placed else next(rest) for s in range(12))


def statuses(up=(), dead=(), rest=DOWN):
    """Space statuses: the spaces (1-12) in ``up`` face up, in ``dead`` killed, the others ``rest``."""
    return tuple(UP if s + 1 in up else DEAD if s + 1 in dead else rest for s in range(12))


def position(tops, placed=None, up=(), dead=(), rest=DOWN, deck="", step=REVEAL, drawn=None, cell=-1, jokers=2):
    """A built position: ``tops`` the 9 piles' top cards row by row, ``drawn`` the card to play (at
    PLACE), ``cell`` the pile just played (0-8, at KILL)."""
    return State(cards(tops), faces(placed), statuses(up, dead, rest), cards(deck), step,
                 card(drawn) if drawn else -1, cell, jokers)


def piles(moves):
    """The piles (1-9) of the play moves."""
    return {m.where for m in moves if m.kind == "play"}


def targets(moves):
    """The spaces (1-12) of the kill moves."""
    return {m.where for m in moves if m.kind == "kill"}


def seeded(seed, jokers=2):
    return GAME.initial_state(GAME.new_deal(seed, {"jokers": jokers}))


def random_line(seed, jokers, rng):
    """All states of one line of the seeded deal: random legal moves, chance by the deal."""
    state, line = seeded(seed, jokers), []
    while True:
        line.append(state)
        if state.outcome() is not None:
            return line
        state = state.apply_chance(state.dealt_outcome()) if state.is_chance() else state.play(
            rng.choice(state.legal_moves()))


# The cabin's cells, 0-based, and the zombie spaces, 1-based as in moves (the rulings' order):
#
#              1    2    3
#        12  [0]  [1]  [2]   4
#        11  [3]  [4]  [5]   5
#        10  [6]  [7]  [8]   6
#              9    8    7
BY_HAND_CELL = {1: 0, 2: 1, 3: 2, 4: 2, 5: 5, 6: 8, 7: 8, 8: 7, 9: 6, 10: 6, 11: 3, 12: 0}
BY_HAND_SUPPORTS = {1: {3, 6}, 2: {4, 7}, 3: {5, 8},      # above: the column below
                    4: {0, 1}, 5: {3, 4}, 6: {6, 7},      # right: the row to the left
                    7: {2, 5}, 8: {1, 4}, 9: {0, 3},      # below: the column above
                    10: {7, 8}, 11: {4, 5}, 12: {1, 2}}   # left: the row to the right


# -- placement ----------------------------------------------------------------------------------------
def test_placement_on_an_equal_value():
    assert fits(card("7S"), card("7H")) and fits(card("7H"), card("7S"))
    assert fits(card("3D"), card("3H")) and fits(card("AC"), card("AS")) and fits(card("TD"), card("TC"))


def test_placement_same_colour_needs_the_top_higher():
    """Build down in one colour: a card goes on a higher card of its colour."""
    assert fits(card("3H"), card("7D")) and fits(card("5S"), card("9C")) and fits(card("AC"), card("2S"))
    assert fits(card("9D"), card("TH"))


def test_placement_same_colour_refuses_the_top_lower():
    assert not fits(card("7D"), card("3H")) and not fits(card("9C"), card("5S")) and not fits(card("2S"), card("AC"))
    assert not fits(card("TH"), card("9D"))


def test_placement_opposite_colour_needs_the_top_lower():
    """Build up alternating colours: a card goes on a lower card of the other colour."""
    assert fits(card("7S"), card("3H")) and fits(card("TD"), card("9C")) and fits(card("2H"), card("AS"))


def test_placement_opposite_colour_refuses_the_top_higher():
    assert not fits(card("3H"), card("7S")) and not fits(card("9C"), card("TD")) and not fits(card("AS"), card("2H"))


def test_a_joker_may_be_played_on_anything():
    assert all(fits(JK, top) for top in list(range(52)) + [JK])


def test_anything_may_be_played_on_a_joker():
    assert all(fits(c, JK) for c in list(range(52)) + [JK])


def test_the_legal_plays_are_the_piles_the_card_fits():
    rng = random.Random(5)
    pool = list(NUMBER_CARDS) + [JK, JK]
    for _ in range(200):
        chosen = rng.sample(pool, 10)
        tops, drawn = tuple(chosen[:9]), chosen[9]
        state = State(tops, faces(), statuses(), (), PLACE, drawn)
        expected = {c + 1 for c in range(9) if fits(drawn, tops[c])}
        if expected:
            assert piles(state.legal_moves()) == expected and len(state.legal_moves()) == len(expected)
            assert state.outcome() is None
        else:
            assert state.legal_moves() == [] and state.outcome() == Outcome(False, None)


def test_a_drawn_card_that_fits_no_pile_loses():
    """5S refuses black cards below 5 and red cards above it."""
    state = position("AS 2S 3S 4S AC 2C 3C 4C 6H", deck="9D", step=PLACE, drawn="5S")
    assert state.outcome() == Outcome(False, None)
    assert state.outcome().won is False
    assert state.legal_moves() == [] and not state.is_chance()
    with pytest.raises(MoveError):
        state.play(Move("play", 1))
    # the same card with one pile it fits is no loss
    one = position("AS 2S 3S 4S AC 2C 3C 4C 6S", deck="9D", step=PLACE, drawn="5S")
    assert one.outcome() is None and one.legal_moves() == [Move("play", 9)]


# -- the text's placement examples ----------------------------------------------------------------------
# Our copy of the text lost its picture. The examples name 7 (7H), 8, A, Joker, 2D and 10C; we read the
# 3 as red, the 8 as red (8D) and the ace as black (AS), and add three black cards 4-6, which refuse both
# a red 3 and the 7S, so each example's list of piles is exactly the legal set.
EXAMPLE_CABIN = "7H 2D TC JK 8D AS 4C 5S 6C"


@pytest.mark.parametrize("three", ["3H", "3D"])
def test_text_example_a_red_three_goes_on_the_7_8_ace_or_joker(three):
    state = position(EXAMPLE_CABIN, step=PLACE, drawn=three)
    assert piles(state.legal_moves()) == {1, 5, 6, 4}  # 7H, 8D, AS, JK


def test_text_example_7s_goes_on_the_7h_2d_tc_or_joker():
    state = position(EXAMPLE_CABIN, step=PLACE, drawn="7S")
    assert piles(state.legal_moves()) == {1, 2, 3, 4}  # 7H, 2D, TC, JK


def test_text_example_a_joker_goes_anywhere():
    state = position(EXAMPLE_CABIN, step=PLACE, drawn="JK")
    assert piles(state.legal_moves()) == set(range(1, 10))


# One cabin fits both the placement and the kill examples of the text (its pictures are lost):
#      AS 4S 7H / TC 2D 6C / 4C 8D JK
# It needs one reading of a lost suit: the text's "K♠ (10♠ + 4♣)" breaks its own king rule (both
# supports of the king's suit); with the placement example's 10♣ it is K♣ killed by 10♣ + 4♣.
ORIGINAL_CABIN = "AS 4S 7H TC 2D 6C 4C 8D JK"


def test_text_examples_the_reconstructed_cabin_keeps_the_placement_examples():
    assert piles(position(ORIGINAL_CABIN, step=PLACE, drawn="3H").legal_moves()) == {1, 3, 8, 9}  # AS 7H 8D JK
    assert piles(position(ORIGINAL_CABIN, step=PLACE, drawn="7S").legal_moves()) == {3, 4, 5, 9}  # 7H TC 2D JK


# -- kills ------------------------------------------------------------------------------------------------
def test_value_of_cards_and_the_joker():
    assert [value_of(card(r + "S")) for r in "A23456789TJQK"] == list(range(1, 14))
    assert value_of(card("TD")) == 10 and value_of(JK) == 0


def test_a_kill_needs_the_supports_to_sum_at_least_ten():
    assert not kills(card("JS"), card("5H"), card("4C"))   # 9
    assert kills(card("JS"), card("5H"), card("5C"))       # 10
    assert kills(card("JS"), card("TH"), card("9C"))       # 19
    assert not kills(card("KH"), card("5H"), card("4H"))   # the suit is right, the sum is 9
    assert kills(card("KH"), card("5H"), card("5H"))       # 10 (values only: the pair need not be real)
    assert not kills(card("QD"), card("8H"), card("AD"))   # 9
    assert kills(card("QD"), card("8H"), card("2D"))       # 10


def test_a_jack_has_no_suit_condition():
    for jack in ("JS", "JH", "JD", "JC"):
        assert kills(card(jack), card("6S"), card("4H")) and kills(card(jack), card("6D"), card("4C"))
        assert kills(card(jack), card("TC"), card("TD"))


def test_a_queen_needs_both_supports_of_its_colour():
    assert kills(card("QH"), card("6D"), card("5H")) and kills(card("QD"), card("6H"), card("4H"))
    assert not kills(card("QH"), card("6D"), card("5S")) and not kills(card("QH"), card("6S"), card("5D"))
    assert not kills(card("QD"), card("6S"), card("5C"))
    assert kills(card("QS"), card("6C"), card("5S")) and kills(card("QC"), card("TC"), card("TS"))
    assert not kills(card("QS"), card("6H"), card("5C")) and not kills(card("QC"), card("TD"), card("TH"))


def test_a_king_needs_both_supports_of_its_suit():
    assert kills(card("KH"), card("6H"), card("5H")) and kills(card("KC"), card("TC"), card("4C"))
    assert not kills(card("KH"), card("6H"), card("5D"))   # the right colour is not enough
    assert not kills(card("KH"), card("6D"), card("5D"))
    assert not kills(card("KS"), card("TS"), card("4C"))
    assert not kills(card("KC"), card("9S"), card("9H"))


def test_a_joker_counts_zero_and_matches_every_suit_and_colour():
    """A joker must be paired with a ten: with a ten of the king's suit it kills a king of any suit."""
    for suit in "SHDC":
        king, queen, jack = card("K" + suit), card("Q" + suit), card("J" + suit)
        ten, nine = card("T" + suit), card("9" + suit)
        assert kills(king, JK, ten) and kills(king, ten, JK)
        assert not kills(king, JK, nine) and not kills(king, nine, JK)
        assert kills(queen, JK, ten) and kills(jack, JK, ten) and not kills(jack, JK, nine)
        for other in "SHDC".replace(suit, ""):
            assert not kills(king, JK, card("T" + other))  # the ten must still match
    assert kills(card("QH"), JK, card("TD")) and not kills(card("QH"), JK, card("TS"))
    assert not kills(card("JS"), JK, JK)


def test_the_supports_of_every_space_by_hand():
    """The support cells are the two other cells of the line through the pile and the zombie: the
    column for the spaces above and below, the row for the spaces left and right."""
    for space in range(1, 13):
        assert SPACE_CELL[space - 1] == BY_HAND_CELL[space], space
        assert set(SUPPORTS[space - 1]) == BY_HAND_SUPPORTS[space] and len(SUPPORTS[space - 1]) == 2, space


def test_corners_touch_two_spaces_edges_one_the_centre_none():
    by_hand = {0: {1, 12}, 1: {2}, 2: {3, 4}, 3: {11}, 4: set(), 5: {5}, 6: {9, 10}, 7: {8}, 8: {6, 7}}
    for cell in range(9):
        assert {s + 1 for s in CELL_SPACES[cell]} == by_hand[cell], cell


FILLERS = cards("AS AH AD AC 2S 2H 2D 2C 3S")  # no two sum to 10


@pytest.mark.parametrize("space", range(1, 13))
def test_kills_read_exactly_the_two_support_piles(space):
    """A jack face up at the space dies from its pile when 5H and 5C top its two support piles, and
    from no other pair of piles (the pile played on is never a support)."""
    pile = BY_HAND_CELL[space]
    for pair in combinations(range(9), 2):
        tops = list(FILLERS)
        tops[pair[0]], tops[pair[1]] = card("5H"), card("5C")
        state = State(tuple(tops), faces({space: "JD"}), statuses(up={space}), (), KILL, cell=pile)
        assert state.kill_options(pile) == ([space - 1] if set(pair) == BY_HAND_SUPPORTS[space] else []), pair


def test_only_face_up_zombies_can_be_killed():
    """Face-down and dead zombies are never kill options, whatever their supports."""
    # cell 0 touches spaces 1 (supports cells 3, 6) and 12 (supports cells 1, 2)
    tops = "3S TH 9H TD 2C 2D 9D 2S 3C"
    placed = {1: "JH", 12: "JC"}
    assert position(tops, placed, up={1, 12}).kill_options(0) == [0, 11]
    assert position(tops, placed, up={1}).kill_options(0) == [0]
    assert position(tops, placed, up={12}).kill_options(0) == [11]
    assert position(tops, placed).kill_options(0) == []
    assert position(tops, placed, dead={1, 12}).kill_options(0) == []
    assert position(tops, placed, up={1}, dead={12}).kill_options(0) == [0]
    after = position(tops, placed, up={12}, dead={1}, deck="5S", step=PLACE, drawn="4H").play(Move("play", 1))
    assert after.step == KILL and after.legal_moves() == [Move("kill", 12), PASS]


@pytest.mark.parametrize("jacks", [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)])
def test_only_zombies_next_to_the_pile_played_can_be_killed(jacks):
    """Every support sum is at least 17 and four jacks are face up (with the other zombies): a
    play kills only the jacks next to its pile; the centre kills nothing."""
    tops = "TS TH TD TC 9S 9H 9D 9C 8S"
    placed = dict(zip(jacks, ("JS", "JH", "JD", "JC")))
    killable = {s for s in range(1, 13) if kills(faces(placed)[s - 1], *(cards(tops)[x] for x in BY_HAND_SUPPORTS[s]))}
    state = position(tops, placed, rest=UP)
    for cell in range(9):
        next_to = {s for s, c in BY_HAND_CELL.items() if c == cell}
        assert {s + 1 for s in state.kill_options(cell)} == next_to & killable, cell
        assert set(jacks) & next_to <= {s + 1 for s in state.kill_options(cell)}
    assert state.kill_options(4) == []


# -- the text's kill examples -------------------------------------------------------------------------------
# Rebuilt on the reconstructed cabin AS 4S 7H / TC 2D 6C / 4C 8D JK (the text's picture is lost): K♣ above
# the AS (space 1, supports TC + 4C), J♠ left of it (space 12, supports 4S + 7H), Q♠ right of the 7H (space
# 4, supports AS + 4S), K♥ below the joker (space 7, supports 7H + 6C), and two more zombies face up that
# nothing kills here: J♥ above the 7H (space 3, 6C + JK = 6) and Q♥ right of the joker (space 6, 4C + 8D
# are black).
KILL_ZOMBIES = {1: "KC", 12: "JS", 4: "QS", 7: "KH", 3: "JH", 6: "QH"}


def example(drawn):
    return position(ORIGINAL_CABIN, KILL_ZOMBIES, up=set(KILL_ZOMBIES), deck="9C 5C", step=PLACE, drawn=drawn)


def test_text_example_a_card_on_the_ace_kills_the_king_or_the_jack_but_not_both():
    state = example("5H").play(Move("play", 1))  # red 5 on the black ace
    assert state.step == KILL and state.legal_moves() == [Move("kill", 1), Move("kill", 12), PASS]
    assert kills(card("KC"), card("TC"), card("4C")) and kills(card("JS"), card("4S"), card("7H"))
    after = state.play(Move("kill", 1))
    assert after.status[0] == DEAD and after.status[11] == UP  # one kill per turn: the jack lives
    assert after.step == REVEAL and {m.kind for m in after.legal_moves()} == {"reveal"}  # the next turn
    after = state.play(Move("kill", 12))
    assert after.status[11] == DEAD and after.status[0] == UP


def test_text_example_the_literal_king_of_spades_with_a_club_support_is_refused():
    """The text as our copy has it, "K♠ (10♠ + 4♣)", contradicts its own king rule: the engine follows
    the rule (see the reconstruction's note)."""
    assert not kills(card("KS"), card("TS"), card("4C"))


def test_text_example_a_card_on_the_7h_cannot_kill_the_queen_of_spades():
    """The supports AS + 4S are the queen's colour but sum 5."""
    state = example("3D").play(Move("play", 3))  # red 3 on the red 7
    assert state.step == REVEAL and state.status == statuses(up=set(KILL_ZOMBIES))  # no kill: the next turn
    assert not kills(card("QS"), card("AS"), card("4S"))


def test_text_example_a_card_on_the_joker_does_not_kill_the_king_of_hearts():
    """The supports 7H + 6C sum 13, but they are not both hearts."""
    state = example("9S").play(Move("play", 9))
    assert state.step == REVEAL and state.status == statuses(up=set(KILL_ZOMBIES))
    assert not kills(card("KH"), card("7H"), card("6C"))
    hearts = position("AS 4S 7H TC 2D 6H 4C 8D JK", KILL_ZOMBIES, up=set(KILL_ZOMBIES), step=PLACE, drawn="9S")
    assert hearts.play(Move("play", 9)).legal_moves() == [Move("kill", 7), PASS]  # with 6H it dies


@pytest.mark.parametrize("partner, killed", [("TH", True), ("9H", False), ("TS", False), ("JK", False)])
def test_text_example_a_joker_must_be_paired_with_a_ten(partner, killed):
    """K♥ above the top-left pile; its supports are the joker and ``partner`` below it."""
    state = position(f"2C 3C 4C JK 5C 6C {partner} 7C 8C", {1: "KH"}, up={1}, deck="9C", step=PLACE, drawn="5H")
    after = state.play(Move("play", 1))
    assert (after.step == KILL and after.legal_moves() == [Move("kill", 1), PASS]) if killed else after.step == REVEAL


# -- one kill, optional, and the search shortcuts -----------------------------------------------------------------
def two_kills():
    return example("5H").play(Move("play", 1))


def test_killing_is_optional_pass_is_always_legal():
    """Pass kills nothing and ends the turn; it is legal beside every kill."""
    state = two_kills()
    assert PASS in state.legal_moves() and state.legal_moves()[-1] == PASS
    after = state.play(PASS)
    assert after.status == state.status and after.step == REVEAL and after.deck == state.deck
    single = position("2C 3C 4C TD 5C 6C 9D 7C 8C", {1: "KD"}, up={1}, step=KILL, cell=0)
    assert single.legal_moves() == [Move("kill", 1), PASS]


def test_only_one_kill_per_turn():
    """After a kill the turn is over: the other zombie the play could kill waits for another play."""
    state = two_kills()
    after = state.play(Move("kill", 12))
    assert after.status[0] == UP and after.step == REVEAL and Move("kill", 1) not in after.legal_moves()
    with pytest.raises(MoveError):
        after.play(Move("kill", 1))
    drawn = advance_chance(after.play(Move("reveal", 2)))  # the next turn's reveal and draw
    assert drawn.step == PLACE and Move("kill", 1) not in drawn.legal_moves()


def test_no_possible_kill_goes_straight_to_the_next_turn():
    """If the play leaves nothing to kill, there is no kill decision: the next turn begins."""
    # zombies still face down: the next turn starts with a reveal
    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC", {1: "JH"}, up={1}, deck="AH", step=PLACE, drawn="AS")
    after = state.play(Move("play", 5))  # the centre touches no zombie
    assert after.step == REVEAL and not after.is_chance() and {m.kind for m in after.legal_moves()} == {"reveal"}
    # all revealed: the next turn starts with the draw
    after = position("2C 3C 4C 5C 6C 7C 8C 9C TC", rest=UP, deck="AH", step=PLACE, drawn="AS").play(Move("play", 5))
    assert after.step == DRAW and after.is_chance()
    # a play next to a face-up zombie its supports do not kill: no KILL decision either
    after = position("2C 3C 4C AH 6C 7C AD 8C 9C", {1: "JH"}, up={1}, deck="AH", step=PLACE, drawn="AS")
    assert after.play(Move("play", 1)).step == REVEAL


def test_search_moves_leave_pass_out_when_a_kill_is_possible():
    state = two_kills()
    assert state.search_moves() == [Move("kill", 1), Move("kill", 12)]
    one = position("2C 3C 4C TD 5C 6C 9D 7C 8C", {1: "KD"}, up={1}, step=KILL, cell=0)
    assert one.search_moves() == [Move("kill", 1)]
    nothing = position("2C 3C 4C 5C 5C 6C 6C 7C 8C", {1: "KD"}, up={1}, step=KILL, cell=0)
    assert nothing.legal_moves() == [PASS] and nothing.search_moves() == [PASS]
    place = example("5H")  # plays: all of them, best first for the baseline
    assert sorted(place.search_moves()) == sorted(place.legal_moves())
    assert place.search_moves()[0] == GAME.baseline_move(place)


def test_safe_move_is_the_kill_when_exactly_one_is_possible():
    one = position("2C 3C 4C TD 5C 6C 9D 7C 8C", {1: "KD"}, up={1}, step=KILL, cell=0)
    assert one.safe_move() == Move("kill", 1)
    assert two_kills().safe_move() is None
    assert example("5H").safe_move() is None  # at PLACE
    assert seeded(1).safe_move() is None      # at REVEAL


# -- the turn -------------------------------------------------------------------------------------------------------
def test_a_turn_reveals_then_draws_then_plays_then_kills():
    state = seeded(3)
    assert state.step == REVEAL and not state.is_chance()
    assert state.legal_moves() == [Move("reveal", s) for s in range(1, 13)]  # the player chooses
    flip = state.play(Move("reveal", 5))
    assert flip.step == FLIP and flip.is_chance() and flip.cell == 4 and flip.legal_moves() == []
    assert flip.dealt_outcome() == state.zombies[4]
    drawn = flip.apply_chance(flip.dealt_outcome())
    assert drawn.status == statuses(up={5}) and drawn.zombies == state.zombies
    assert drawn.step == DRAW and drawn.is_chance() and drawn.dealt_outcome() == state.deck[0]
    place = drawn.apply_chance(drawn.dealt_outcome())
    assert place.step == PLACE and place.card == state.deck[0] and place.deck == state.deck[1:]
    assert place.legal_moves() and {m.kind for m in place.legal_moves()} == {"play"}
    after = place.play(place.legal_moves()[0])
    assert after.step in (KILL, REVEAL) and after.tops[place.legal_moves()[0].where - 1] == place.card
    assert after.step == (KILL if after.kill_options(place.legal_moves()[0].where - 1) else REVEAL)


def test_after_the_twelfth_reveal_a_turn_starts_with_the_draw():
    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC", up=set(range(1, 12)), deck="9H 2H", step=REVEAL)
    assert state.step == REVEAL and state.legal_moves() == [Move("reveal", 12)]
    state = advance_chance(state.play(Move("reveal", 12)))
    assert state.step == PLACE and DOWN not in state.status
    after = state.play(Move("play", 5))  # the centre: no kill, the next turn draws at once
    assert after.step == DRAW and after.is_chance()
    after = state.play(Move("play", 1))  # J♠ above: 5C + 8C kill it
    assert after.legal_moves() == [Move("kill", 1), PASS]
    assert after.play(PASS).step == DRAW and after.play(Move("kill", 1)).step == DRAW
    built = position("2C 3C 4C 5C 6C 7C 8C 9C TC", up={1, 2}, dead=set(range(3, 13)), deck="AH", step=REVEAL)
    assert built.step == DRAW and built.is_chance()


def test_a_reveal_in_blind_use_is_any_face_down_face_equally_likely():
    state = seeded(3).play(Move("reveal", 5))
    assert state.chance_outcomes() == [(f, 1) for f in sorted(FACE_CARDS)]
    later = position("2C 3C 4C 5C 6C 7C 8C 9C TC", {1: "KS", 2: "QD", 3: "JH"}, up={1}, dead={2}, deck="AH",
                     step=FLIP, cell=6)
    down = sorted(f for f in FACE_CARDS if f not in cards("KS QD"))
    assert later.chance_outcomes() == [(f, 1) for f in down]


def test_a_revealed_face_other_than_the_dealt_one_swaps_places_with_its_holder():
    base = seeded(3)
    state = base.play(Move("reveal", 5))
    for face in FACE_CARDS:
        after = state.apply_chance(face)
        assert after.zombies[4] == face and after.status == statuses(up={5})
        assert sorted(after.zombies) == sorted(FACE_CARDS)  # every face card stays in one space
        if face != base.zombies[4]:
            holder = base.zombies.index(face)
            assert after.zombies[holder] == base.zombies[4]
            assert all(after.zombies[s] == base.zombies[s] for s in range(12) if s not in (4, holder))
        else:
            assert after.zombies == base.zombies


def test_a_draw_in_blind_use_is_any_card_left_weighted_by_copies():
    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC", deck="AH JK 5D JK 2S", rest=UP, step=DRAW)
    assert state.chance_outcomes() == sorted([(card("AH"), 1), (JK, 2), (card("5D"), 1), (card("2S"), 1)])
    after = state.apply_chance(card("5D"))
    assert after.step == PLACE and after.card == card("5D") and after.deck == cards("AH JK JK 2S")
    after = state.apply_chance(JK)
    assert after.card == JK and after.deck == cards("AH 5D JK 2S")


# -- the end --------------------------------------------------------------------------------------------------------
def last_zombie(deck):
    """One zombie left (J♠ above the top-left pile, supports TC + 4C), the turn's card 5D drawn."""
    return position("AS 4S 7H TC 2D 6C 4C 8D JK", {1: "JS"}, up={1}, dead=set(range(2, 13)), deck=deck,
                    step=PLACE, drawn="5D")


def test_killing_the_twelfth_zombie_wins_scoring_the_cards_left():
    state = last_zombie("9C 3H 2S").play(Move("play", 1))
    assert state.outcome() is None and state.legal_moves() == [Move("kill", 1), PASS]
    end = state.play(Move("kill", 1))
    assert end.outcome() == Outcome(True, 3) and end.legal_moves() == [] and not end.is_chance()
    assert last_zombie("").play(Move("play", 1)).play(Move("kill", 1)).outcome() == Outcome(True, 0)


def test_a_draw_from_an_empty_deck_loses():
    assert last_zombie("").play(Move("play", 1)).play(PASS).outcome() == Outcome(False, None)
    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC", up={1}, deck="", step=DRAW)
    assert state.outcome() == Outcome(False, None) and not state.is_chance() and state.legal_moves() == []
    # with zombies face down the turn would reveal first, but its draw cannot be made: lost at once
    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC", up={1}, deck="", step=REVEAL)
    assert state.outcome() == Outcome(False, None) and state.legal_moves() == []


def test_a_drawn_card_that_fits_nowhere_loses_even_with_cards_left():
    state = position("AS 2S 3S 4S AC 2C 3C 4C 6H", up={1}, deck="5S 8S", step=DRAW)
    lost = state.apply_chance(card("5S"))
    assert lost.outcome() == Outcome(False, None) and lost.legal_moves() == []


# -- deals ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_a_seeded_deal_is_one_shuffle_split_into_zombies_and_deck(jokers):
    for seed in (0, 1, 7, 123):
        deal = GAME.new_deal(seed, {"jokers": jokers})
        pack = shuffled(C.standard_deck(jokers=jokers), seed)
        assert deal.piles["zombies"] == [c for c in pack if c in FACE_CARDS]
        assert deal.piles["deck"] == [c for c in pack if c not in FACE_CARDS]
        assert deal.piles["deck"].count(JK) == jokers and len(deal.piles["deck"]) == 40 + jokers
        GAME.check_piles(deal.piles, deal.source, deal.options)
        state = GAME.initial_state(deal)
        assert state.tops == tuple(deal.piles["deck"][:9]) and state.deck == tuple(deal.piles["deck"][9:])
        assert state.zombies == tuple(deal.piles["zombies"]) and state.status == (DOWN,) * 12
        assert state.step == REVEAL and state.jokers == jokers


def test_the_default_deal_has_two_jokers():
    deal = GAME.new_deal(4)
    assert deal.options == {"jokers": 2} and deal.piles["deck"].count(JK) == 2
    with pytest.raises(DealError) as err:
        GAME.new_deal(4, {"jokers": 3})
    assert err.value.field == "options.jokers"


def good_piles():
    return {"zombies": list(FACE_CARDS), "deck": list(NUMBER_CARDS) + [JK, JK]}


@pytest.mark.parametrize("zombies", [
    list(FACE_CARDS[:-1]),                          # one missing
    list(FACE_CARDS[:-1]) + [card("TS")],           # a number card
    list(FACE_CARDS[:-1]) + [FACE_CARDS[0]],        # a face twice
    list(FACE_CARDS) + [JK],                        # a joker
])
def test_check_piles_refuses_a_wrong_zombies_pile(zombies):
    GAME.check_piles(good_piles(), "t", {"jokers": 2})
    given = dict(good_piles(), zombies=zombies)
    with pytest.raises(DealError) as err:
        GAME.check_piles(given, "t", {"jokers": 2})
    assert err.value.field == "zombies"


@pytest.mark.parametrize("deck", [
    list(NUMBER_CARDS[:-1]) + [JK, JK],                 # one missing
    list(NUMBER_CARDS) + [NUMBER_CARDS[3], JK],         # a card twice
    list(NUMBER_CARDS) + [card("QH")],                  # a face card
    list(NUMBER_CARDS) + [JK, JK, JK],                  # three jokers
])
def test_check_piles_refuses_a_wrong_deck(deck):
    given = dict(good_piles(), deck=deck)
    with pytest.raises(DealError) as err:
        GAME.check_piles(given, "t", {"jokers": 2})
    assert err.value.field == "deck"


def test_initial_state_refuses_a_deck_whose_jokers_differ_from_the_option():
    deal = GAME.new_deal(2, {"jokers": 1})
    deal.piles["deck"] = [c for c in deal.piles["deck"] if c != JK]
    with pytest.raises(DealError) as err:
        GAME.initial_state(deal)
    assert err.value.field == "deck"


# -- moves ----------------------------------------------------------------------------------------------------------
def test_parse_move_round_trips_every_kind():
    moves = ([Move("reveal", s) for s in range(1, 13)] + [Move("play", p) for p in range(1, 10)]
             + [Move("kill", s) for s in range(1, 13)] + [PASS])
    for move in moves:
        assert parse_move(str(move)) == move
    assert [str(parse_move(t)) for t in ("reveal 5", "play 9", "kill 12", "pass")] == \
        ["reveal 5", "play 9", "kill 12", "pass"]
    assert parse_move("  Reveal 5 ") == Move("reveal", 5) and parse_move("PASS") == PASS
    assert GAME.parse_move("play 3") == Move("play", 3)


@pytest.mark.parametrize("text", ["reveal 13", "reveal 0", "play 0", "play 10", "kill", "kill 13", "attack 3",
                                  "", "play", "pass 3", "play 1 2", "reveal -1"])
def test_parse_move_refuses_bad_text(text):
    with pytest.raises(MoveError):
        parse_move(text)


def test_playing_an_illegal_move_raises():
    start = seeded(3)
    for move in (Move("play", 1), Move("kill", 1), PASS):
        with pytest.raises(MoveError):
            start.play(move)
    revealed = advance_chance(start.play(Move("reveal", 1)))
    assert revealed.step == PLACE
    with pytest.raises(MoveError):
        revealed.play(Move("reveal", 2))
    refused = [Move("play", p) for p in range(1, 10) if Move("play", p) not in revealed.legal_moves()]
    for move in refused:
        with pytest.raises(MoveError):
            revealed.play(move)
    with pytest.raises(MoveError):
        two_kills().play(Move("kill", 4))  # the Q♠ is not next to the pile
    with pytest.raises(MoveError):
        position("2C 3C 4C 5C 6C 7C 8C 9C TC", up={1}).play(Move("reveal", 1))  # already face up


# -- blind support --------------------------------------------------------------------------------------------------
def hidden_twin(state):
    """The same view with other hidden cards: the face-down faces rotated among their spaces and
    the deck reversed."""
    down = [s for s in range(12) if state.status[s] == DOWN]
    zombies = list(state.zombies)
    for s, face in zip(down, [state.zombies[d] for d in down[1:] + down[:1]]):
        zombies[s] = face
    return State(state.tops, tuple(zombies), state.status, state.deck[::-1], state.step, state.card, state.cell,
                 state.jokers)


def sample_states():
    """States of a few seeded random lines, chance nodes and decisions alike."""
    out = []
    for seed, jokers in ((1, 2), (2, 1), (3, 0)):
        line = random_line(seed, jokers, random.Random(seed))
        out.extend(line[::3])
    return out


def test_view_hides_face_down_faces_and_the_deck_order():
    state = seeded(6)
    twin = hidden_twin(state)
    assert twin.key() != state.key() and twin.view() == state.view()
    half = advance_chance(state.play(Move("reveal", 2)))
    assert hidden_twin(half).view() == half.view() and hidden_twin(half).key() != half.key()
    # what the player sees does change the view: a face-up face, a top, the deck's composition
    swapped = list(half.zombies)
    down = next(s for s in range(12) if half.status[s] == DOWN)
    swapped[1], swapped[down] = swapped[down], swapped[1]
    assert State(half.tops, tuple(swapped), half.status, half.deck, half.step, half.card).view() != half.view()
    other_tops = (half.deck[0],) + half.tops[1:]
    assert State(other_tops, half.zombies, half.status, half.deck, half.step, half.card).view() != half.view()
    assert State(half.tops, half.zombies, half.status, half.deck[1:], half.step, half.card).view() != half.view()


def test_sample_world_keeps_the_view_and_the_legal_moves_and_reads_only_the_view():
    changed = 0
    for state in sample_states():
        twin = hidden_twin(state)
        assert twin.view() == state.view()
        for k in range(3):
            world = state.sample_world(SplitMix64(k))
            assert world.view() == state.view()
            assert world.legal_moves() == state.legal_moves() and world.is_chance() == state.is_chance()
            assert world.outcome() == state.outcome()
            assert sorted(world.zombies) == sorted(FACE_CARDS)
            assert world.key() == twin.sample_world(SplitMix64(k)).key()  # the same view, the same world
            changed += world.key() != state.key()
    assert changed  # it does deal the hidden cards anew


def test_score_bound_formula_on_built_positions():
    """The deck less the zombies alive, plus one once the turn's card is drawn; below zero, no win."""
    tops = "2C 3C 4C 5C 6C 7C 8C 9C TC"
    deck20 = " ".join(["AH"] * 20)
    assert position(tops, up={1, 2}, dead=set(range(3, 13)), deck=deck20, step=DRAW).score_bound() == 18
    assert position(tops, up={1, 2}, dead=set(range(3, 13)), deck=deck20, step=PLACE, drawn="JK").score_bound() == 19
    assert position(tops, up={1}, dead=set(range(2, 13)), deck=deck20, step=KILL, cell=0).score_bound() == 20
    assert position(tops, deck=deck20, step=REVEAL).score_bound() == 8                       # 12 alive
    assert position(tops, up={5}, deck=deck20, step=FLIP, cell=0).score_bound() == 8
    assert position(tops, deck=" ".join(["AH"] * 12), step=REVEAL).score_bound() == 0        # just possible
    assert position(tops, deck=" ".join(["AH"] * 11), step=REVEAL).score_bound() == NO_WIN
    assert position(tops, deck=" ".join(["AH"] * 11), rest=UP, step=PLACE, drawn="JK").score_bound() == 0
    assert position(tops, deck=" ".join(["AH"] * 10), rest=UP, step=PLACE, drawn="JK").score_bound() == NO_WIN
    assert position(tops, up={1}, deck="", step=DRAW).score_bound() == NO_WIN                # lost
    won = position(tops, dead=set(range(1, 13)), deck="AH 2H 3H", step=DRAW)
    assert won.outcome() == Outcome(True, 3) and won.score_bound() == 3


def test_score_bound_is_tight_along_a_built_winning_line():
    """Two zombies left; draw 5D, play on AS, kill J♠ (TC + 4C); draw 4H, play on 5D, kill J♥ (4S + 7H):
    the win scores 1, and the bound says 1 all along."""
    state = position("AS 4S 7H TC 2D 6C 4C 8D JK", {1: "JS", 12: "JH"}, up={1, 12}, dead=set(range(2, 12)),
                     deck="5D 4H 9C", step=DRAW)
    bounds = [state.score_bound()]
    for move in (Move("play", 1), Move("kill", 1), Move("play", 1), Move("kill", 12)):
        state = advance_chance(state)
        bounds.append(state.score_bound())
        state = state.play(move)
        bounds.append(state.score_bound())
    assert state.outcome() == Outcome(True, 1)
    assert bounds == [1] * len(bounds)


def test_score_bound_never_rises_along_random_lines():
    """The bound holds for every line: it never rises from a state to the next (NO_WIN is the lowest),
    so it is never below the score a line reaches; it equals the score at a win. Random lines
    rarely win (the game is hard), so the built line above checks the win itself."""
    def rank(bound):
        return -1 if bound == NO_WIN else bound

    for seed in range(6):
        for jokers in (0, 2):
            line = random_line(seed, jokers, random.Random(100 + seed))
            bounds = [rank(s.score_bound()) for s in line]
            assert all(b is not None for b in bounds)
            assert all(later <= earlier for earlier, later in pairwise(bounds)), (seed, jokers)
            end = line[-1].outcome()
            if end.won:
                assert all(b >= end.score for b in bounds) and bounds[-1] == end.score
            else:
                assert bounds[-1] == -1


# -- the card invariant ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_every_card_stays_in_one_place_along_random_games(jokers):
    for seed in range(5):
        line = random_line(seed, jokers, random.Random(seed * 7 + jokers))
        for state in line:
            assert sorted(state.zombies) == sorted(FACE_CARDS)
            visible = list(state.deck) + list(state.tops) + ([state.card] if state.step == PLACE else [])
            numbers = [c for c in visible if c != JK]
            assert len(numbers) == len(set(numbers)) and set(numbers) <= set(NUMBER_CARDS)
            assert visible.count(JK) <= jokers
            assert len(state.status) == 12 and set(state.status) <= {DOWN, UP, DEAD}
        assert line[-1].outcome() is not None


# -- deal files: positions ------------------------------------------------------------------------------------------
POSITION = {"cabin": "TC 9S 2D 7D 5D 8H 9H 6C TH", "zombies": "JD QH QD QS KD JH JS KS KC QC KH JC",
            "up": [4, 6, 7], "dead": [1, 3, 5], "deck": "3C 3H 7H 8S JK AH"}


def test_a_position_loads_at_a_turns_start(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('game = "dead-center"\n[options]\njokers = 1\n[position]\n'
                    + "".join(f"{k} = {json.dumps(v)}\n" for k, v in POSITION.items()))
    state = GAME.initial_state(load_deal(path))
    assert state.tops == cards(POSITION["cabin"]) and state.deck == cards(POSITION["deck"])
    assert state.status == statuses(up={4, 6, 7}, dead={1, 3, 5}) and state.step == REVEAL and state.jokers == 1


@pytest.mark.parametrize("change, field", [
    ({"cabin": "TC 9S 2D"}, "position.cabin"),
    ({"cabin": "TC 9S 2D 7D 5D 8H 9H 6C KH"}, "position.cabin"),        # a face card in the cabin
    ({"deck": "3C 3C"}, "position.deck"),                               # twice
    ({"deck": "9S"}, "position.deck"),                                  # already in the cabin
    ({"deck": "JK JK JK"}, "position"),                                 # more jokers than the option
    ({"zombies": "JD QH"}, "position.zombies"),
    ({"up": [4, 13]}, "position.up"),
    ({"up": [1]}, "position.up"),                                       # also dead
    ({"dead": list(range(1, 13)), "up": []}, "position.dead"),          # already won
    ({"table": "AS"}, "position.table"),                                # unknown field
])
def test_bad_positions_name_the_field(change, field):
    with pytest.raises(DealError, match=field.replace(".", r"\.")):
        GAME.initial_state(deal_from_data({"game": "dead-center", "options": {"jokers": 2},
                                           "position": {**POSITION, **change}}))


# -- the CP-SAT engine against the generic search ------------------------------------------------------------------
@cache  # two tests read the same three lines: each deal is solved once
def line_decisions(seed, jokers):
    """The decisions of the model's best line of a seeded deal, and the line's result (the
    states are immutable, so the cached list is shared safely)."""
    state = seeded(seed, jokers)
    result = make_solver(GAME, Limits(time_limit=60)).solve(state)
    out = []
    for move in result.line:
        state = advance_chance(state)
        out.append(state)
        state = state.play(move)
    return out, result


def small_end_positions():
    """Decisions of three seeded deals' best lines, from a few turns before the end, with the
    deck as dealt (wins) and cut short (mostly losses), and turn starts with zombies face down."""
    out = []
    for seed, jokers in ((0, 2), (1, 1), (2, 0)):
        decisions, _result = line_decisions(seed, jokers)
        for state in decisions[-8:]:
            out.append(state)
            out.append(State(state.tops, state.zombies, state.status, state.deck[:state.alive()], state.step,
                             state.card, state.cell, state.jokers))
            if state.step == PLACE:  # the same turn from its start, the live zombies face down
                down = tuple(DOWN if st == UP else st for st in state.status)
                out.append(State(state.tops, state.zombies, down, (state.card,) + state.deck, REVEAL,
                                 jokers=state.jokers))
    return out


def test_whole_deals_are_solved_exactly_and_the_line_replays_to_the_score():
    for seed, jokers in ((0, 2), (1, 1), (2, 0)):
        decisions, result = line_decisions(seed, jokers)
        assert result.exact and result.verdict == "winnable" and result.engine == "cpsat"
        final = GAME.replay_moves(seeded(seed, jokers), result.line)
        assert final.outcome() == Outcome(True, result.score)
        reveals = [m.where for m in result.line if m.kind == "reveal"]
        killed = [m.where for m in result.line if m.kind == "kill"]
        assert sorted(reveals) == list(range(1, 13)) and set(killed) == set(range(1, 13))


def test_the_model_values_positions_as_the_generic_search_does():
    """At turn starts, mid-turn (a card to place: this turn's kill needs a face-up zombie) and at
    kill decisions, won and lost: the same utility."""
    steps, verdicts = set(), set()
    for state in small_end_positions():
        expected = DepthFirstSolver(GAME, Limits(time_limit=60)).value(state)
        assert expected[1], f"the generic search did not decide\n{state}"
        assert make_solver(GAME, Limits(time_limit=60)).value(state) == expected, str(state)
        steps.add(state.step)
        verdicts.add(expected[0][0])
    assert steps == {REVEAL, PLACE, KILL} and verdicts == {0, 1}


def test_mid_turn_only_a_face_up_zombie_can_die_this_turn():
    """The last zombie, a jack, face down at space 1 with its supports ready (9D + AD): this
    turn's reveal is spent, so the kill waits for the next card (one left, not two)."""
    state = State(cards("2C 3C 4C 9D 5C 6C AD 7C 8C"), faces({1: "JH"}), statuses(dead=range(2, 13)),
                  cards("AH 2H"), PLACE, card("AS"), jokers=0)
    expected = ((1, 1), True)
    assert DepthFirstSolver(GAME, Limits()).value(state) == expected
    assert make_solver(GAME, Limits()).value(state) == expected


def test_a_time_limit_gives_unknown_never_unwinnable():
    result = make_solver(GAME, Limits(time_limit=0.001)).solve(seeded(4, 2))
    assert result.verdict in ("winnable", "unknown")
    assert result.exact is False or result.verdict == "winnable"


def test_the_puzzles_agree_with_the_generic_search():
    """Every endgame puzzle (the whole deals are beyond the generic search) both ways."""
    for path in sorted((PUZZLES / "dead-center").glob("*.toml")):
        deal = load_deal(path)
        if deal.position is None and path.stem != "lost-1":
            continue
        state = GAME.initial_state(deal)
        meta = tomllib.loads(path.read_text())["meta"]
        result = DepthFirstSolver(GAME, Limits(time_limit=60)).solve(state)
        assert result.exact and (result.verdict, result.score) == (meta["verdict"], meta.get("score")), path.name


# -- the kernel against the reference -------------------------------------------------------------------------------
def test_the_kernel_rolls_out_the_same_games_as_the_reference():
    """Along the blind rule's own games (positions it can still win), every few decisions."""
    if GAME.load_kernel() is None:
        pytest.skip("the kernel is not built (SOLODECK_NO_EXTENSIONS=1 or no compiler)")
    compared, wins, dead = 0, 0, 0
    for seed, jokers in ((0, 2), (1, 1), (2, 0)):
        state = advance_chance(seeded(seed, jokers))
        for step in range(1000):
            if state.outcome() is not None:
                break
            if step % 4 == 0:
                fast = GAME.fast_rollouts(state, 8, seed)
                assert fast == _python_rollouts(GAME, state, 8, seed, [row[0] for row in fast]), str(state)
                compared += 1
                wins += sum(row[1] for row in fast)
                dead += sum(row[3] for row in fast)
            state = advance_chance(state.play(rule_move(state)))
    assert compared >= 20 and wins > 0 and dead > 0


def test_the_rule_reveals_where_the_supports_kill_the_most_unseen_faces():
    """Only space 5's supports (5C + 5S, piles 4 and 5) reach 10: they kill the four jacks and
    the two black queens, no king (two suits). The baseline reveals space 1."""
    state = position("AH 2H AD 5C 5S 2D AC 3H 2S", deck="9C 5C")
    assert rule_move(state) == Move("reveal", 5) and GAME.baseline_move(state) == Move("reveal", 1)
    state = position("AH 2H AD 5C 5S 2D AC 3H 2S", up={5}, deck="9C 5C")  # space 5 already up: no odds left
    assert rule_move(state) == Move("reveal", 1)


def test_the_rule_plays_the_highest_weighted_features_and_kills_first():
    state = example("5H")
    weighed = {m: sum(w * f for w, f in zip(RULE_WEIGHTS, state.play_features(m))) for m in state.legal_moves()}
    assert rule_move(state) == Move("play", 1) and weighed[Move("play", 1)] == max(weighed.values())
    assert state.play_features(Move("play", 1))[0] == 2  # the king at space 1 and the jack at space 12
    assert rule_move(two_kills()) == Move("kill", 1)


def test_baseline_plays_by_play_rank_and_reveals_the_first_face_down_space():
    state = example("5H")
    assert GAME.baseline_move(state) == min(state.legal_moves(), key=state.play_rank)
    start = advance_chance(seeded(0, 2))
    assert GAME.baseline_move(start) == Move("reveal", 1)
    kill = two_kills()
    assert GAME.baseline_move(kill) == kill.legal_moves()[0]


def test_the_blind_policy_beats_the_baseline_on_a_few_deals():
    """A smoke test of the policies (the win rates are measured by `python bench/run.py dead-center`)."""
    blind = baseline = 0
    for seed in range(12):
        blind += play_episode(seeded(seed, 2), BlindPolicy(GAME, 16, 0))[1].won
        baseline += play_episode(seeded(seed, 2), BaselinePolicy(GAME))[1].won
    assert blind > baseline


# -- the move-count regression and the command line -----------------------------------------------------------------
COUNTS = Path(__file__).parent / "data" / "dead_center_move_counts.json"


def test_move_count_regression():
    """Perft-style: the legal-move counts along a fixed line of each seeded deal must not change."""
    expected = json.loads(COUNTS.read_text())
    assert len(expected) == 8
    for entry in expected:
        assert fixed_line_record(GAME, entry["seed"]) == entry


def test_cli_solves_deals_and_positions(cli, tmp_path):
    out = cli("solve", PUZZLES / "dead-center" / "win-3.toml", "--quiet", check=True).stdout
    assert "winnable" in out and "13 (proven best)" in out
    out = cli("solve", PUZZLES / "dead-center" / "lost-1.toml", "--json", check=True).stdout
    assert json.loads(out)["verdict"] == "unwinnable"
    deal = cli("deal", "dead-center", "--seed", "3", "--option", "jokers=1", check=True).stdout
    assert "jokers = 1" in deal and deal.count("JK") == 1
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "dead-center"\n[position]\ncabin = "AS"\n')
    proc = cli("solve", bad)
    assert proc.returncode == 2 and "position.cabin" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_plays_a_seeded_game(cli):
    out = cli("play", "dead-center", "--seed", "1", "--policy", "baseline", check=True).stdout
    assert "result:" in out and "??" in out


if __name__ == "__main__":  # regenerate the regression file (only after a deliberate rules change)
    COUNTS.write_text(json.dumps([fixed_line_record(GAME, s) for s in range(8)], indent=1) + "\n")
