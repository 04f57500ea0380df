"""The Emissary's reference engine: every rule clause on built positions (debates, following suit,
trumps, the four abilities from jacks and from supporting rulers, a visit's end, both kinds of
reshuffle, the score), the rule text's example, deals, moves and the card invariant along random
games. Rules: seeds/000 p. 47, RULINGS.md and docs/rules/emissary.md.

Then the open-mode kernel (ext/emissary.pyx) against the generic search on last-visit
positions (wins, losses, spent supporters, a reshuffle mid-visit), whole deals, time limits, the
baseline, the puzzles and the CLI."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import PUZZLES, fixed_line_record

from solodeck import cards as C
from solodeck.api import NoWin, Outcome
from solodeck.deals import load_deal
from solodeck.errors import DealError, MoveError
from solodeck.api import advance_chance
from solodeck.ext import extensions_disabled
from solodeck.result import Limits
from solodeck.solvers import DepthFirstSolver, make_solver
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.blind import BlindPolicy
from solodeck.games.emissary import GAME
from solodeck.games.emissary.rules import (ACT, CHOOSE, DECK_CARDS, DISCARD, DRAW, JACKS, LEAD, RESPOND, RULER_CARDS,
                                           DEBATE, Move, State, legal_responses, parse_move, wins_debate)
from solodeck.shuffle import shuffled


def cards(text):
    return tuple(C.parse_cards(text))


def card(text):
    return C.parse_card(text)


RULERS = cards("KD QS KH QC KS QH KC QD")  # kingdom 1 K♦ (trump diamonds), 2 Q♠, 3 K♥, ...


def visiting(kingdom, hand, deck="", discard="", scoring="", rulers=RULERS, visited=(), spent=(), jacks=0,
             shuffles=0, seed=0):
    """A position between debates in ``kingdom`` (1-8)."""
    return State(rulers, sum(1 << (k - 1) for k in visited), sum(1 << (k - 1) for k in spent), kingdom - 1,
                 tuple(sorted(cards(hand))), cards(deck), tuple(sorted(cards(discard))),
                 tuple(sorted(cards(scoring))), jacks, ACT, shuffles=shuffles, seed=seed)


def use(text):
    return parse_move(f"use {text}")


def lead(state, text):
    """Ask for the next debate and deal ``text`` as the lead."""
    return state.play(DEBATE).apply_chance(card(text))


# -- debates -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("response, led, trump, won", [
    ("5H", "3H", "S", True),    # higher card of the led suit
    ("3H", "5H", "S", False),   # lower
    ("2C", "2C", "S", False),   # cannot happen (one deck), but equal is not higher
    ("AS", "8H", "S", True),    # a trump on a lead that is not trump
    ("8D", "AH", "S", False),   # neither the led suit nor trump
    ("7S", "4S", "S", True),    # trump led: a higher trump wins
    ("3S", "4S", "S", False),   # trump led: a lower trump loses
    ("8H", "4S", "S", False),   # trump led: another suit never wins
])
def test_who_wins_a_debate(response, led, trump, won):
    assert wins_debate(card(response), card(led), C.SUITS.index(trump)) is won


def test_the_led_suit_must_be_followed_if_possible():
    assert legal_responses(cards("2H 5H 7S"), card("4H")) == cards("2H 5H")
    assert legal_responses(cards("2H 5H 7S"), card("4C")) == cards("2H 5H 7S")


def test_text_example_no_hearts_in_hand_any_card_and_the_diamonds_win():
    """'The ruler just played an 8♥. Since I have no hearts in my hand, I can respond with any card -
    4♦ or 8♦ will win the debate, 6♣ or 7♠ will lose it' (kingdom 4, trump diamonds)."""
    rulers = cards("KS QS KH QD KC QC KD QH")  # kingdom 4: Q♦
    state = lead(visiting(4, "4D 8D 6C 7S", deck="8H AC 2C", rulers=rulers), "8H")
    assert state.step == RESPOND and sorted(m.card for m in state.legal_moves()) == sorted(cards("4D 8D 6C 7S"))
    for response, won in (("4D", True), ("8D", True), ("6C", False), ("7S", False)):
        after = state.play(Move("play", card(response)))
        assert (card(response) in after.scoring) is won and card("8H") in after.discard
        assert (card(response) in after.discard) is not won


def test_a_lead_is_the_top_of_the_deck_in_open_mode():
    state = visiting(2, "3S 4S", deck="6S 7H").play(DEBATE)
    assert state.step == LEAD and state.is_chance() and state.dealt_outcome() == card("6S")
    assert sorted(o for o, _w in state.chance_outcomes()) == sorted(cards("6S 7H"))


# -- a visit's end ------------------------------------------------------------------------------------
def test_winning_exactly_the_kingdoms_number_wins_its_support():
    state = lead(visiting(1, "5D", deck="3D 2C 4C"), "3D").play(Move("play", card("5D")))
    assert state.visited == 1 and state.kingdom == -1 and state.step == DRAW and state.draws == 8
    assert state.outcome() is None and state.jacks == 0


@pytest.mark.parametrize("response, kingdom", [("5D", 2), ("2D", 1)])
def test_any_other_count_loses_the_game(response, kingdom):
    state = lead(visiting(kingdom, response, deck="3D 2C 4C"), "3D").play(Move("play", card(response)))
    assert state.lost and state.outcome() == Outcome(False, 0)


def test_after_a_visit_deck_discard_and_scoring_piles_are_reshuffled_together():
    state = lead(visiting(1, "5D", deck="3D 2C 4C", discard="AH", shuffles=2, seed=9), "3D")
    after = state.play(Move("play", card("5D")))
    assert after.deck == tuple(shuffled(tuple(sorted(cards("2C 4C AH 3D 5D"))), 9, 3)) and after.shuffles == 3
    assert after.discard == () and after.scoring == ()


def test_the_last_visit_won_wins_the_game_scoring_kingdoms_and_unused_supporters():
    state = lead(visiting(8, "5D", deck="3D", visited=range(1, 8), spent=(2, 5)), "3D")
    state = State(state.rulers, state.visited, state.spent, state.kingdom, state.hand, state.deck, state.discard,
                  cards("AS 2S 3S 4S 5S 6S 7S"), 0, RESPOND, lead=state.lead)
    final = state.play(Move("play", card("5D")))
    assert final.outcome() == Outcome(True, 8 + 6)


# -- abilities ----------------------------------------------------------------------------------------
def test_hearts_discards_every_trump_in_hand():
    state = visiting(1, "2D 5D 3C 4H")  # trump diamonds
    after = state.play(use("JH"))
    assert after.hand == tuple(sorted(cards("3C 4H"))) and set(cards("2D 5D")) <= set(after.discard)
    assert Move("use", card("JH")) not in after.legal_moves()  # once per visit


def test_clubs_draws_a_card_per_club_in_hand():
    state = visiting(1, "2C 5C 3H", deck="7S 8S 6H").play(use("JC"))
    assert state.step == DRAW and state.draws == 2
    while state.is_chance():
        state = state.apply_chance(state.dealt_outcome())
    assert state.hand == tuple(sorted(cards("2C 5C 3H 7S 8S"))) and state.deck == cards("6H")


def test_spades_swaps_the_ruler_with_an_unvisited_kingdom_and_changes_trump():
    state = visiting(1, "2D 3C", visited=(3,))
    targets = {m.target for m in state.legal_moves() if m.card == card("JS")}
    assert targets == {2, 4, 5, 6, 7, 8}  # neither this kingdom nor a visited one
    after = state.play(Move("use", card("JS"), 2))
    assert after.rulers[0] == RULERS[1] and after.rulers[1] == RULERS[0] and after.trump() == C.SUITS.index("S")


def test_spades_is_not_offered_at_the_last_kingdom():
    state = visiting(5, "2D 3C", visited=(1, 2, 3, 4, 6, 7, 8))
    assert not [m for m in state.legal_moves() if m.kind == "use" and m.card == card("JS")]


def test_abilities_that_change_nothing_are_not_offered():
    state = visiting(1, "2S 3H")  # no diamond (trump), no club
    used = {m.card for m in state.legal_moves() if m.kind == "use"}
    assert card("JH") not in used and card("JC") not in used and card("JD") in used


def test_diamonds_draws_two_then_discards_two():
    state = visiting(1, "2C", deck="7S 8S 6H").play(use("JD"))
    while state.is_chance():
        state = state.apply_chance(state.dealt_outcome())
    assert state.step == DISCARD and state.hand == tuple(sorted(cards("2C 7S 8S")))
    state = state.play(Move("discard", card("8S"))).play(Move("discard", card("2C")))
    assert state.step == ACT and state.hand == cards("7S") and set(cards("8S 2C")) <= set(state.discard)


def test_a_supporting_ruler_is_used_once_per_game_and_costs_its_point():
    state = visiting(2, "2C 3C", deck="7S 8S 6H", visited=(1,))  # kingdom 1's K♦ supports
    assert Move("use", card("KD")) in state.legal_moves()
    after = state.play(Move("use", card("KD")))
    assert after.spent == 1
    while after.is_chance():
        after = after.apply_chance(after.dealt_outcome())
    for _ in range(2):
        after = after.play(Move("discard", after.hand[0]))
    assert Move("use", card("KD")) not in after.legal_moves()


def test_jacks_recover_after_a_visit():
    state = lead(visiting(1, "5D", deck="3D 2C 4C", jacks=0b1111), "3D").play(Move("play", card("5D")))
    assert state.jacks == 0


def test_an_empty_deck_mid_visit_reshuffles_the_discard_pile():
    state = visiting(3, "2C 5C", deck="", discard="AH 4S 7D", shuffles=1, seed=4).play(DEBATE)
    assert state.deck == tuple(shuffled(tuple(sorted(cards("AH 4S 7D"))), 4, 2))
    assert state.shuffles == 2 and state.discard == ()


# -- deals and moves ----------------------------------------------------------------------------------
def test_a_seeded_deal_is_one_shuffle_split_into_rulers_and_deck():
    deal = GAME.new_deal(7)
    pack = shuffled(C.standard_deck(), 7)
    assert deal.piles["rulers"] == [c for c in pack if c in RULER_CARDS]
    assert deal.piles["deck"] == [c for c in pack if c in DECK_CARDS]
    state = GAME.initial_state(deal)
    assert state.step == DRAW and state.draws == 8 and state.seed == 7


def test_the_game_starts_by_drawing_eight_then_choosing_a_kingdom():
    state = GAME.initial_state(GAME.new_deal(1))
    while state.is_chance():
        state = state.apply_chance(state.dealt_outcome())
    assert state.step == CHOOSE and len(state.hand) == 8 and len(state.deck) == 24
    assert [m.target for m in state.legal_moves()] == list(range(1, 9))


def test_check_piles_refuses_wrong_piles():
    with pytest.raises(DealError, match="rulers"):
        GAME.check_piles({"rulers": list(RULER_CARDS[:7]) + [JACKS[0]], "deck": list(DECK_CARDS)}, "x")
    with pytest.raises(DealError, match="deck"):
        GAME.check_piles({"rulers": list(RULER_CARDS), "deck": list(DECK_CARDS[:-1]) + [card("9S")]}, "x")


@pytest.mark.parametrize("text", ["visit 3", "debate", "play 7H", "discard 4C", "use JH", "use QS 5", "use KD"])
def test_moves_round_trip(text):
    assert str(parse_move(text)) == text


@pytest.mark.parametrize("text", ["visit 9", "play KH", "use 5H", "use JH 3", "discard 9S", "fly"])
def test_bad_moves_are_refused(text):
    with pytest.raises(MoveError):
        parse_move(text)


def test_an_illegal_move_raises():
    with pytest.raises(MoveError):
        visiting(1, "2C").play(Move("play", card("2C")))


# -- the card invariant -------------------------------------------------------------------------------
def test_every_card_stays_in_one_place_along_random_games():
    for seed in range(30):
        state, rng = GAME.initial_state(GAME.new_deal(seed)), random.Random(seed)
        while True:
            held = state.hand + state.deck + state.discard + state.scoring + ((state.lead,) if state.lead >= 0 else ())
            assert sorted(held) == sorted(DECK_CARDS), str(state)
            assert sorted(state.rulers) == sorted(RULER_CARDS)
            if state.outcome() is not None:
                break
            state = state.apply_chance(state.dealt_outcome()) if state.is_chance() else state.play(
                rng.choice(state.legal_moves()))


def test_the_score_bound_holds_along_random_games():
    for seed in range(30):
        state, rng, bounds = GAME.initial_state(GAME.new_deal(seed)), random.Random(seed + 100), []
        while state.outcome() is None:
            bounds.append(state.score_bound())
            state = state.apply_chance(state.dealt_outcome()) if state.is_chance() else state.play(
                rng.choice(state.legal_moves()))
        final = state.outcome()
        for bound in bounds:
            if isinstance(bound, NoWin):
                assert not final.won and bound.best >= final.score
            else:
                assert bound >= final.score


def test_a_visit_past_its_target_is_a_certain_loss():
    state = lead(visiting(1, "5D 6D", deck="3D 2D 4C", scoring="AH"), "3D").play(Move("play", card("5D")))
    assert state.score_bound() == NoWin(0)



# -- the open-mode kernel ------------------------------------------------------------------------------
needs_kernel = pytest.mark.skipif(extensions_disabled() or GAME.load_kernel() is None, reason="kernel not built")


def kernel_solver(limits=None):
    solver = make_solver(GAME, limits or Limits(time_limit=60))
    assert type(solver).__name__ == "KernelSolver"
    return solver


def rest_discarded(state):
    """``state`` with every card A-8 not placed yet in the discard pile (the search reads the
    discard pile as the cards not anywhere else, as in any real position)."""
    placed = set(state.hand + state.deck + state.discard + state.scoring + ((state.lead,) if state.lead >= 0 else ()))
    return state._with(discard=tuple(sorted(state.discard + tuple(c for c in DECK_CARDS if c not in placed))))


def last_visit_positions(seeds=range(3), per_line=6):
    """Decisions of the last visit: along the kernel's winning line of a seeded deal, then random
    moves from there (supporters spent, debates lost or won past the target)."""
    out = []
    for seed in seeds:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        result = kernel_solver().solve(state)
        rng = random.Random(seed)
        for move in result.line:
            if state.won_count() == 7 and state.kingdom >= 0 and len(state.hand) <= 4:
                break
            state = advance_chance(state.play(move))
        for _ in range(per_line):
            position = state
            for _ in range(rng.randrange(4)):
                if position.outcome() is not None:
                    break
                position = advance_chance(position.play(rng.choice(position.legal_moves())))
            if position.outcome() is None:
                out.append(position)
    return out


def generic(position):
    """The generic depth-first search (bounds and a table, nothing of the kernel's): the reference.
    The unpruned one takes minutes here (jacks draw from a deck of 20 cards); this one about 25 s
    alone on a core, so its limit is only a guard against a hang, far above that."""
    return DepthFirstSolver(GAME, Limits(time_limit=600)).solve(position)


@needs_kernel
def test_the_kernel_values_last_visit_positions_as_the_generic_search_does():
    verdicts, scores = set(), set()
    for position in last_visit_positions():
        reference = generic(position)
        assert reference.exact
        result = kernel_solver().solve(position)
        assert (result.verdict, result.score, result.exact) == (reference.verdict, reference.score, True), str(position)
        assert kernel_solver().value(position) == (GAME.utility(Outcome(reference.verdict == "winnable",
                                                                         reference.score)), True)
        verdicts.add(result.verdict)
        scores.add(result.score)
    assert verdicts == {"winnable", "unwinnable"} and len(scores) >= 3, (verdicts, scores)


@needs_kernel
@pytest.mark.parametrize("hand, deck, kingdom, spent", [
    pytest.param("5C 6C 7C", "2H 3H", 8, (), marks=pytest.mark.slow),  # the jack of clubs draws three: the deck
                                                                        # runs out, a reshuffle (the reference: a minute)
    pytest.param("5C 6C 7C 8C", "2H", 8, (1, 2), marks=pytest.mark.slow),  # a supporter spent already; clubs
                                                                             # and diamonds both draw (10 s)
    ("AS 2S 3S", "4S 5S 6S 7S", 8, ()),     # every card must win, the leads are all below
    ("4D 8S", "AD 2D 3D", 1, ()),           # kingdom 1 (trump diamonds): exactly one win
])
def test_the_kernel_agrees_with_the_generic_search_on_built_last_visits(hand, deck, kingdom, spent):
    visited = [k for k in range(1, 9) if k != kingdom]
    position = rest_discarded(visiting(kingdom, hand, deck, visited=visited, spent=spent, shuffles=3, seed=5))
    reference = generic(position)
    result = kernel_solver().solve(position)
    assert (result.verdict, result.score) == (reference.verdict, reference.score) and result.exact


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_whole_deals_win_with_every_supporter_unused(seed):
    """Open play is that flexible: every deal of the 1,000 of results/emissary scores 16 (the most
    there is, so the line found is the proof)."""
    state = GAME.initial_state(GAME.new_deal(seed))
    result = kernel_solver(Limits(time_limit=10)).solve(state)
    assert (result.verdict, result.score, result.exact) == ("winnable", 16, True)
    assert GAME.replay_moves(state, result.line).outcome() == Outcome(True, 16)


@needs_kernel
def test_a_time_limit_gives_unknown_never_unwinnable():
    result = kernel_solver(Limits(time_limit=1e-9)).solve(GAME.initial_state(GAME.new_deal(0)))
    assert result.verdict in ("unknown", "winnable")
    if result.verdict == "unknown":
        assert not result.exact and result.line == []


@needs_kernel
def test_the_kernel_reads_the_rules_as_the_reference_does_along_random_games():
    compared = 0
    for seed in range(10):
        state, rng = advance_chance(GAME.initial_state(GAME.new_deal(seed))), random.Random(seed)
        while state.outcome() is None:
            fast, reference = GAME.kernel_moves(state), state.legal_moves()
            assert sorted(fast) == sorted(reference), str(state)
            compared += 1
            state = advance_chance(state.play(rng.choice(reference)))
    assert compared > 100


# -- the baseline ------------------------------------------------------------------------------------
def test_the_baseline_visits_the_kingdom_its_hand_looks_good_for():
    state = State(RULERS, 0, 0, -1, cards("AD 2D 3D 4D 8S 8H AC 2C"), (), (), (), 0, CHOOSE)
    assert GAME.baseline_move(state) == Move("visit", target=2)  # trump spades: 8S + half of 8H = 1.5, nearest 2
    state = State(RULERS, 1 << 1 | 1 << 4, 0, -1, state.hand, (), (), (), 0, CHOOSE)
    assert GAME.baseline_move(state) == Move("visit", target=4)  # spades' kingdoms won: clubs counts 3, nearest 4


def test_the_baseline_wins_while_wins_are_needed_and_loses_after():
    needing = lead(visiting(3, "4H 7H 2C", deck="3H 5H"), "3H")  # trump hearts, 3 wins to make of 3 cards
    assert GAME.baseline_move(needing) == Move("play", card("4H"))
    done = lead(visiting(1, "4H 7H 2C", deck="5H 3H", scoring="5S"), "5H")  # kingdom 1's one win made
    assert GAME.baseline_move(done) == Move("play", card("4H"))  # 7H would win


def test_the_baseline_discards_trumps_it_does_not_need_with_the_jack_of_hearts():
    state = visiting(1, "AD 5D 2C 3S", scoring="8S")         # kingdom 1 (trump diamonds) won already
    assert GAME.baseline_move(state) == Move("use", JACKS[1])


# -- blind mode ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kingdom, hand, deck", [(2, "5H 2C 7S", "4H 6C 3S"), (1, "5H 2C 7S", "4H 6C 8S")])
def test_open_play_bounds_blind_play_and_the_policy_never_sees_the_order(kingdom, hand, deck):
    """Last debates with three cards unseen (jacks spent, so no draw reaches the discard pile): the
    blind value is at most the mean open win over the six orders of the deck, and the blind policy
    ranks the moves the same whatever the order."""
    visited = [k for k in range(1, 9) if k != kingdom]
    orders = [" ".join(p) for p in __import__("itertools").permutations(deck.split())]
    positions = [rest_discarded(visiting(kingdom, hand, order, visited=visited, spent=visited, jacks=15))
                 for order in orders]
    open_wins = sum(DepthFirstSolver(GAME).solve(p).verdict == "winnable" for p in positions) / len(positions)
    blind = ExpectimaxSolver(GAME).value(positions[0])[0]
    assert 0 < blind <= open_wins + 1e-12
    policy = BlindPolicy(GAME, samples=4)
    rows = [policy.rank(p) for p in positions]
    assert all(r == rows[0] for r in rows)


# -- positions in deal files -------------------------------------------------------------------------
POSITION = """game = "emissary"
seed = 4

[position]
rulers = "KD QS KH QC KS QH KC QD"
won = [2, 5]
used = [5]
visiting = 3
hand = "AS 3H 7C"
deck = "2S 4S 5S 6S 7S 8S AH 2H 4H 5H 6H 7H 8H AD 2D 3D 4D 5D 6D 7D 8D AC 2C 3C 4C 5C 6C"
discard = "8C"
scoring = "3S"
jacks = "JS"
shuffles = 2
"""


def test_a_position_in_a_deal_file_is_the_state_it_says(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(POSITION)
    state = GAME.initial_state(load_deal(path))
    assert (state.step, state.kingdom, state.visited, state.spent, state.jacks, state.shuffles, state.seed) == \
        (ACT, 2, 0b10010, 0b10000, 0b1, 2, 4)
    assert state.hand == tuple(sorted(cards("AS 3H 7C"))) and state.scoring == cards("3S")
    assert Move("use", card("KS")) not in state.legal_moves()  # kingdom 5's ruler is spent
    assert Move("use", card("QS"), 1) in state.legal_moves()  # kingdom 2's supports, and swaps


@pytest.mark.parametrize("change, field", [
    (("won = [2, 5]", "won = [2, 9]"), "position.won"),
    (("used = [5]", "used = [4]"), "position.used"),
    (("visiting = 3", "visiting = 2"), "position.visiting"),
    (('discard = "8C"', 'discard = ""'), "position (hand, deck, discard and scoring together)"),
    (('jacks = "JS"', 'jacks = "QS"'), "position.jacks"),
    (("shuffles = 2", "shuffles = -1"), "position.shuffles"),
    (('rulers = "KD', 'rulers = "JD'), "position.rulers"),
    (("seed = 4", "seed = 4\n[position.extra]"), "position.extra"),
])
def test_a_bad_position_names_its_field(tmp_path, change, field):
    path = tmp_path / "p.toml"
    path.write_text(POSITION.replace(*change))
    with pytest.raises(DealError, match=field.replace("(", r"\(").replace(")", r"\)")):
        GAME.initial_state(load_deal(path))


# -- the move-count regression and the command line -----------------------------------------------------
COUNTS = Path(__file__).parent / "data" / "emissary_move_counts.json"


def test_move_count_regression():
    """Perft-style: the legal-move counts along a fixed line of each seeded deal must not change."""
    expected = json.loads(COUNTS.read_text())
    assert len(expected) == 8
    for entry in expected:
        assert fixed_line_record(GAME, entry["seed"]) == entry


@needs_kernel
def test_cli_solves_deals_and_positions(cli, tmp_path):
    out = cli("solve", PUZZLES / "emissary" / "seed-3.toml", "--quiet", check=True).stdout
    assert "winnable" in out and "16 (proven best)" in out
    out = cli("solve", PUZZLES / "emissary" / "lost-1.toml", "--json", check=True).stdout
    assert json.loads(out)["verdict"] == "unwinnable" and json.loads(out)["score"] == 14
    bad = tmp_path / "bad.toml"
    bad.write_text(POSITION.replace("visiting = 3", "visiting = 5"))
    result = cli("solve", bad)
    assert result.returncode == 2 and "position.visiting" in result.stderr and "Traceback" not in result.stderr


def test_cli_plays_with_the_baseline(cli):
    out = cli("play", "emissary", "--seed", "3", "--policy", "baseline", check=True).stdout
    assert "visit" in out


# -- the blind rule (Game.blind_rule) -------------------------------------------------------------
def rule_decisions(seeds=range(3), per_game=40):
    """Decisions met when the rule plays seeded deals with the dealt cards (a spread of each game)."""
    out = []
    for seed in seeds:
        state, met = advance_chance(GAME.initial_state(GAME.new_deal(seed))), []
        while state.outcome() is None:
            met.append(state)
            state = advance_chance(state.play(GAME.blind_rule(state)))
        out += met[:: max(1, len(met) // per_game)]
    return out


@pytest.mark.skipif(GAME.load_kernel() is None, reason="the rule's odds in pure Python take ~2 s a decision "
                    "(minutes here); test_the_blind_rules_odds_kernel_equals_the_reference ties the two")
def test_the_blind_rule_never_sees_the_order_of_the_deck():
    """The deck in another order (the same composition, everything seen the same): the rule makes
    the same decision, at every step kind it meets."""
    rng, steps = random.Random(3), set()
    for state in rule_decisions(per_game=15):
        order = list(state.deck)
        rng.shuffle(order)
        twin = state._with(deck=tuple(order))
        assert twin.view() != state.view() or len(set(state.deck)) < 2 or order == list(state.deck)
        assert GAME.blind_rule(twin) == GAME.blind_rule(state), str(state)
        steps.add(state.step)
    assert {CHOOSE, ACT, RESPOND} <= steps


def test_the_blind_rules_odds_kernel_equals_the_reference():
    """ext/emissary.pyx visit_table and best_kept give the reference's floats exactly, on hands of
    0-10 cards, every trump, decks of every size (an empty one too)."""
    from solodeck.ext import load
    from solodeck.games.emissary import blind as E

    kernel = load("emissary")
    if kernel is None:
        pytest.skip("kernels disabled")
    rng = random.Random(11)
    for n in list(range(0, 9)) * 3 + [9, 10]:  # the reference's table doubles with each card
        cards_ = list(DECK_CARDS)
        rng.shuffle(cards_)
        hand, unseen = tuple(sorted(cards_[:n])), cards_[n:n + rng.randrange(0, 33 - n)]
        counts, trump = E.unseen_counts(unseen), rng.randrange(4)
        assert kernel.visit_table(hand, trump, counts) == E.visit_table(hand, trump, counts)
        for need in range(-1, n + 2):
            for drop in (0, 1, 2):
                assert kernel.best_kept(hand, trump, counts, need, drop) == E.best_kept(hand, trump, counts, need, drop)


def test_the_blind_rules_odds_on_a_worked_example():
    """The 5S alone, spades trump, a lead from AS 2S 7S 8S AH 3C: it beats the AS and the 2S, loses
    to the 7S and the 8S, and trumps the AH and the 3C (a lead of a suit it cannot follow)."""
    from solodeck.games.emissary import blind as E

    counts = E.unseen_counts(cards("AS 2S 7S 8S AH 3C"))
    table = E.visit_table(cards("5S"), 0, counts)  # trump spades
    assert table[1] == [pytest.approx(2 / 6), pytest.approx(4 / 6)]
    assert E.visit_table(cards("5S"), 1, counts)[1] == [pytest.approx(4 / 6), pytest.approx(2 / 6)]  # trump hearts
