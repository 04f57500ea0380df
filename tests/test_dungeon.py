"""Dungeon (seed 004): the text's example, every rule clause, the exact geometry (hits and near
misses), the round search against the generic search, blind mode, deal files and positions."""
import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from solodeck.solvers.rollouts import rollout_stats
from solodeck import cards as C
from solodeck.api import NO_WIN, advance_chance
from solodeck.deals import load_deal
from solodeck.errors import DealError, MoveError
from solodeck.games.dungeon import GAME
from solodeck.games.dungeon.rules import (CHOOSE, DEAL, DECK_CARDS, HALF_WIDTH, OFFER, ORIGIN, PAIR, UNIT, Move, State,
                                          compare, gap, meets, pairing, parse_move, path_points, round_score, sign,
                                          to_float, value)
from solodeck.games.dungeon.search import RoundSolver, reshuffled
from solodeck.shuffle import SplitMix64, shuffled
from solodeck.solvers import DepthFirstSolver, Limits, make_solver
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.blind import BlindPolicy

from conftest import fixed_line_record

DATA = Path(__file__).parent / "data" / "dungeon_move_counts.json"


def cards(text):
    return tuple(C.parse_cards(text))


def card(text):
    return C.parse_card(text)


def start(skill="7S", path="", deck=None, extra=0, distance=4, seed=0, shuffles=0):
    """A round's start: the deck defaults to every card not named, in canonical order."""
    used = set(cards(f"{skill} {path}"))
    deck = cards(deck) if deck is not None else tuple(c for c in DECK_CARDS if c not in used)
    return State(card(skill), distance, cards(path), deck, extra=extra, seed=seed, shuffles=shuffles)


def fight(skill, monster, attacks, hand, path="", distance=4, extra=0):
    """The pairing decision of a round: the other cards in the deck, canonical order."""
    named = set(cards(f"{skill} {monster} {attacks} {hand} {path}"))
    deck = tuple(c for c in DECK_CARDS if c not in named)
    return State(card(skill), distance, cards(path), deck, step=DEAL, monster=card(monster), attacks=cards(attacks),
                 hand=cards(hand), extra=extra)


def path_of(values: str):
    """Path cards of the given values (suits picked to stay distinct)."""
    out, used = [], set()
    for v in values.split():
        c = next(card(v + s) for s in "HCSD" if card(v + s) not in used and card(v + s) not in (card("AS"), card("KD")))
        used.add(c)
        out.append(c)
    return out


def wins_along(values: str, distance: int) -> list:
    """For each card of the path in turn: does its segment meet K♦?"""
    points = (ORIGIN,) + path_points(int(v) for v in values.split())
    return [meets(points[i], int(v), distance) for i, v in enumerate(values.split())]


# -- the text's example ------------------------------------------------------------------------------
def test_text_example_scores_its_pairs_and_the_monster_joins_the_path():
    """SKILL 7, monster 9♦; attacks 4♥ J♥ 6♣; the player's 2♣ 7♦ Q♣ paired 7♦-4♥ (14 v 13, +1),
    2♣-J♥ (9 v 20, -1), Q♣-6♣ (19 v 15, +1). The text totals "+2"; its own pair results add up
    to +1, which is what the rule gives (docs/rules/dungeon.md, reading 1): two cards are offered next."""
    state = fight("7S", "9D", "4H JH 6C", "2C 7D QC")
    move = parse_move("pair 7D:4H 2C:JH QC:6C")
    assert move in state.legal_moves() and round_score(7, card("9D"), move.pairs) == 1
    after = state.play(move)
    assert after.path == cards("9D") and after.extra == 1 and after.step == OFFER
    after = advance_chance(after)
    assert after.step == CHOOSE and len(after.offer) == 2
    assert set(state.round_outcomes()) == {1, -1, -3}  # no pairing of these cards scores +2



def test_text_setup_example_cards_point_at_their_hour():
    """The text's pictures: a 3 lies horizontally, an 8 points down-left, a queen straight up."""
    assert to_float(UNIT[3][:2] + UNIT[3][2:]) == (1.0, 0.0)
    x, y = to_float(UNIT[8])
    assert x < 0 and y < 0 and math.isclose(math.atan2(y, x), math.radians(-150))
    assert to_float(UNIT[12]) == (0.0, 1.0) and to_float(UNIT[6]) == (0.0, -1.0)
    x, y = to_float(UNIT[1])
    assert math.isclose(x, 0.5) and math.isclose(y, math.sqrt(3) / 2)  # an ace: 30° right of up


# -- geometry ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("p, q, expected", [(0, 0, 0), (1, 0, 1), (0, -1, -1), (-1, 1, 1), (1, -1, -1),
                                            (97, -56, 1), (-97, 56, -1), (-362, 209, -1), (362, -209, 1)])
def test_signs_in_q_sqrt3_are_exact(p, q, expected):
    """97 - 56√3 ≈ +0.0052 and 362 - 209√3 ≈ -0.0029: the squares decide, with no tolerance."""
    assert sign(Fraction(p), Fraction(q)) == expected


def test_every_clock_hand_has_length_one():
    for v, (ax, bx, ay, by) in UNIT.items():
        # x² + y² = ((ax² + 3bx²) + (ay² + 3by²) + 2√3(ax·bx + ay·by)) / 4 = 1 exactly
        assert ax * bx + ay * by == 0 and ax * ax + 3 * bx * bx + ay * ay + 3 * by * by == 4, v


@pytest.mark.parametrize("values, distance, hits", [
    ("12 12 12 12", 4, [False, False, False, True]),       # ends exactly on the bottom edge: touching counts
    ("12 12 12", 3, [False, False, True]),
    ("1 11 12 12 12", 4, [False, False, False, False, True]),  # x = 0 after an ace and a jack
    ("9 12 12 12 12 3", 4, [False] * 5 + [True]),         # along the bottom edge y = 4 from x = -1 to 0
    ("12 12 12 12 12 6", 4, [False, False, False, True, True, True]),
])
def test_segments_that_meet_the_king(values, distance, hits):
    assert wins_along(values, distance) == hits


@pytest.mark.parametrize("values, distance", [
    ("2 11 12 12 12", 4),    # x = (√3 - 1)/2 ≈ 0.366: 0.009 right of the edge 0.357
    ("10 1 12 12 12", 4),    # mirrored: x ≈ -0.366
    ("12 12 12", 4),         # stops one card short
    ("2 11 12 12 12 12", 4),  # passes beside the card, above it too
])
def test_near_misses(values, distance):
    assert not any(wins_along(values, distance))


def test_the_half_width_is_the_rulings_0_357():
    """x = (a + b√3)/2 never lands exactly on ±0.357 (a rational with an odd denominator part),
    so a vertical segment at x ≈ 0.366 misses while one at x = 0 hits; the width is the ruling's."""
    assert HALF_WIDTH == Fraction(357, 1000)
    start = path_points([2, 11, 12, 12])[-1]
    assert not meets(start, 12, 4) and meets(start, 12, 4, Fraction(37, 100))  # a wider card would be met


def test_exact_test_agrees_with_a_fine_float_check_away_from_the_edges():
    """Random paths: where the float distance from the segment to the rectangle is clearly positive
    or clearly negative (inside), the exact test says the same."""
    rng = random.Random(4)
    checked = 0
    for _ in range(1000):
        values = [rng.randint(1, 12) for _ in range(rng.randint(1, 7))]
        points = (ORIGIN,) + path_points(values)
        p, v, d = points[-2], values[-1], rng.choice((3, 4))
        (x0, y0), (x1, y1) = to_float(p), to_float(points[-1])
        # the least distance from the rectangle over 2001 points of the segment
        best = min(_rect_distance(x0 + (x1 - x0) * t / 2000, y0 + (y1 - y0) * t / 2000, d) for t in range(2001))
        if best > 1e-3:
            assert not meets(p, v, d)
            checked += 1
        elif best == 0.0:
            assert meets(p, v, d)
            checked += 1
    assert checked > 830


def _rect_distance(x, y, d):
    h = float(HALF_WIDTH)
    return math.hypot(max(-h - x, 0.0, x - h), max(d - y, 0.0, y - d - 1))


def test_compare_orders_numbers_of_q_sqrt3():
    assert compare((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1, 2))) > 0  # 1 > √3/2
    assert compare((Fraction(0), Fraction(1)), (Fraction(7, 4), Fraction(0))) < 0  # √3 < 1.75


# -- a round's rules -------------------------------------------------------------------------------------
def test_the_first_card_of_the_deck_is_the_skill_and_stays_out():
    deal = GAME.new_deal(5)
    state = GAME.initial_state(deal)
    assert state.skill == deal.piles["deck"][0] and state.skill not in state.deck and len(state.deck) == 49
    pile = deal.piles["deck"]
    assert card("AS") not in pile and card("KD") not in pile and len(pile) == 50


def test_a_round_deals_the_monster_then_three_attacks_then_three_cards():
    state = start(deck="5H 2C 3C 4C 6C 7C 8C 9C TC")
    state = advance_chance(state)
    assert state.step == PAIR and state.monster == card("5H")
    assert state.attacks == cards("2C 3C 4C") and state.hand == cards("6C 7C 8C")
    assert len(state.legal_moves()) == 6


def test_ties_score_zero_and_a_lost_pair_minus_one():
    assert round_score(5, card("5H"), [(card("3C"), card("3D"))]) == 0
    assert round_score(5, card("6H"), [(card("3C"), card("3D"))]) == -1
    assert round_score(5, card("4H"), [(card("3C"), card("3D"))]) == 1


def test_a_score_of_zero_discards_the_monster_and_offers_one_card():
    state = fight("7S", "7H", "2C 3C 4C", "2D 3D 4D", path="QH")  # every pair ties
    after = state.play(state.legal_moves()[0])
    assert after.path == cards("QH") and card("7H") in after.discard and after.extra == 0
    assert advance_chance(after).step == PAIR  # one card offered: it is the monster


def test_a_negative_score_removes_that_many_cards_from_the_end_of_the_path():
    state = fight("2S", "QH", "9C TC JC", "2D 3D 4D", path="QC QS 3H")
    after = state.play(state.legal_moves()[0])
    assert round_score(2, card("QH"), state.legal_moves()[0].pairs) == -3
    assert after.path == () and set(cards("QC QS 3H QH")) <= set(after.discard)
    state = fight("2S", "2H", "9C TC 4C", "2D 3D 4D", path="QC QS 3H")  # 4♦ ties 4♣; every other pair loses
    scores = {round_score(2, card("2H"), m.pairs): state.play(m).path for m in state.legal_moves()}
    assert scores[-2] == cards("QC") and scores[-3] == ()


def test_the_ace_of_spades_stays_when_more_cards_should_go_than_the_path_holds():
    state = fight("2S", "QH", "9C TC JC", "2D 3D 4D", path="QC")
    after = state.play(state.legal_moves()[0])
    assert after.path == () and after.end() == ORIGIN and after.result is None


def test_a_king_that_is_beaten_is_discarded_but_still_widens_the_offer():
    state = fight("QS", "KH", "AC 2C 3C", "9D TD JD")
    after = state.play(state.legal_moves()[0])
    assert after.path == () and card("KH") in after.discard and after.extra == 3


def test_the_offer_returns_the_other_cards_and_the_deck_is_reshuffled_by_its_seed():
    state = advance_chance(start(extra=2, seed=9, shuffles=4))
    assert state.step == CHOOSE and len(state.offer) == 3
    moves = state.legal_moves()
    assert [m.card for m in moves] == list(state.offer)
    chosen = state.play(moves[1])
    expected = tuple(shuffled(sorted(state.deck + (state.offer[0], state.offer[2])), 9, 5))
    assert chosen.deck == expected and chosen.shuffles == 5 and chosen.monster == state.offer[1]


def test_after_a_round_the_fight_cards_go_back_and_the_deck_is_reshuffled():
    state = fight("7S", "9D", "4H JH 6C", "2C 7D QC")
    after = state.play(parse_move("pair 7D:4H 2C:JH QC:6C"))
    contents = sorted(state.deck + state.attacks + state.hand)
    assert after.deck == tuple(shuffled(contents, 0, 1)) and after.shuffles == 1


def test_a_reshuffle_depends_only_on_the_cards_in_the_pile():
    pile = list(DECK_CARDS[:20])
    assert reshuffled(tuple(sorted(pile)), 3, 2) == reshuffled(tuple(sorted(reversed(pile))), 3, 2)


def test_a_round_that_cannot_be_dealt_in_full_is_lost():
    state = start(deck="5H 2C 3C 4C 6C 7C")  # six cards: a round needs seven
    assert state.outcome() is not None and not state.won
    assert start(deck="5H 2C 3C 4C 6C 7C 8C").outcome() is None


def test_the_game_is_won_when_the_new_card_meets_the_king():
    state = fight("QS", "QH", "AC 2C 3C", "9D TD JD", path="QC QD QS".replace("QS", "JS"))
    # the path Q, Q, J ends at x = -1/2, y = 2 + √3/2 ≈ 2.87: a queen from there misses at d = 4
    assert not state.play(state.legal_moves()[0]).won
    state = fight("JS", "QH", "AC 2C 3C", "9D TD JD", path="QC QD QS")
    won = state.play(state.legal_moves()[0])
    assert won.won and won.outcome().won and won.legal_moves() == []


def test_distance_three_is_one_card_nearer():
    assert fight("JS", "QH", "AC 2C 3C", "9D TD JD", path="QC QD", distance=3).play(
        parse_move("pair 9D:AC TD:2C JD:3C")).won
    assert not fight("JS", "QH", "AC 2C 3C", "9D TD JD", path="QC QD", distance=4).play(
        parse_move("pair 9D:AC TD:2C JD:3C")).won


# -- moves -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["monster 9D", "pair 7D:4H 2C:JH QC:6C", "monster TC"])
def test_moves_round_trip(text):
    assert str(parse_move(text)) == text or parse_move(str(parse_move(text))) == parse_move(text)


def test_pairs_are_written_in_the_attacks_order_whatever_the_input_order():
    assert parse_move("pair QC:6C 7D:4H 2C:JH") == parse_move("pair 7D:4H 2C:JH QC:6C")


@pytest.mark.parametrize("text", ["monster", "monster 1Z", "pair 7D:4H 2C:JH", "pair 7D:4H 7D:JH QC:6C",
                                  "pair 7D-4H 2C:JH QC:6C", "fight"])
def test_bad_moves_are_refused(text):
    with pytest.raises(MoveError):
        parse_move(text)


def test_an_illegal_move_raises():
    state = fight("7S", "9D", "4H JH 6C", "2C 7D QC")
    with pytest.raises(MoveError):
        state.play(Move("monster", card("9D")))
    with pytest.raises(MoveError):
        state.play(pairing(cards("2C 7D 3C"), state.attacks))


def test_every_card_stays_in_one_place_along_random_games():
    rng = random.Random(1)
    for seed in range(5):
        state = GAME.initial_state(GAME.new_deal(seed, {"distance": 3}))
        while state.outcome() is None:
            if state.is_chance():
                state = state.apply_chance(state.sample_chance(SplitMix64(rng.randrange(1 << 30))))
            else:
                state = state.play(rng.choice(state.legal_moves()))
            fighting = (state.monster,) if state.monster >= 0 and state.step in (DEAL, PAIR) else ()
            everything = ((state.skill,) + state.path + state.deck + state.discard + state.offer + state.attacks
                          + state.hand + fighting)
            assert sorted(everything) == sorted(DECK_CARDS), state


# -- the search ----------------------------------------------------------------------------------------
def end_positions(count, rounds_back, distance=4):
    """Pairing decisions ``rounds_back`` rounds before the end of the baseline's games."""
    out, seed = [], 0
    while len(out) < count:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed, {"distance": distance})))
        seed += 1
        pairs = []
        while state.outcome() is None:
            if state.step == PAIR:
                pairs.append(state)
            state = advance_chance(state.play(GAME.baseline_move(state)))
        if len(pairs) > rounds_back:
            out.append(pairs[-1 - rounds_back])
    return out


def before_wins(seed, distance, rounds=(1, 2)):
    """Pairing decisions the given number of rounds before the win of the round search's line."""
    state = GAME.initial_state(GAME.new_deal(seed, {"distance": distance}))
    line = make_solver(GAME, Limits(time_limit=60)).solve(state).line
    pairs = []
    for move in line:
        state = advance_chance(state)
        if state.step == PAIR:
            pairs.append(state)
        state = state.play(move)
    return [pairs[-1 - back] for back in rounds if back < len(pairs)]


@pytest.mark.parametrize("distance", [4, 3])
def test_the_round_search_agrees_with_the_generic_search(distance):
    verdicts = set()
    for back in (0, 1, 2):
        for position in end_positions(4, back, distance) + (before_wins(5, distance) if back == 0 else []):
            reference = DepthFirstSolver(GAME, Limits(time_limit=60)).solve(position)  # every move and draw
            result = make_solver(GAME, Limits(time_limit=60)).solve(position)
            assert reference.exact and result.exact and result.engine in ("rounds", "rounds-kernel")
            assert result.verdict == reference.verdict, f"{back} back:\n{position}"
            verdicts.add(result.verdict)
    assert verdicts == {"winnable", "unwinnable"}


def test_a_negative_round_can_bring_the_path_back_near_the_king():
    """The path Q Q J A ends at (0, 2 + √3) ≈ (0, 3.73), then three 6s take it down to y ≈ 0.73,
    3.27 from K♦ with two rounds left. A forced -3 cuts the 6s; the next card (Q, J or A) from
    (0, 3.73) can meet K♦. A cut on the path's end alone would call this lost; the cut on the
    nearest point of the path does not. Seeds 0 and 2 deal a winning last round, 1 does not."""
    named = "9S QH 9C TC JH AD 2D AH QC QD JC AC 6C 6D 6S QS".split()
    discard = tuple(c for c in DECK_CARDS if C.format_card(c) not in named)
    for seed, verdict in ((0, "winnable"), (2, "winnable"), (1, "unwinnable")):
        state = State(card("9S"), 4, cards("QC QD JC AC 6C 6D 6S"), cards("QS"), discard, step=DEAL,
                      monster=card("QH"), attacks=cards("9C TC JH"), hand=cards("AD 2D AH"), seed=seed)
        assert set(state.round_outcomes()) == {-3} and state.rounds_left() == 2 and gap(state.end(), 4) > 3
        plain = DepthFirstSolver(GAME, Limits(time_limit=60), prune=False).solve(state)
        assert plain.verdict == verdict
        assert make_solver(GAME).solve(state).verdict == verdict
        assert DepthFirstSolver(GAME).solve(state).verdict == verdict  # the pruned generic search, score_bound's cut


def test_the_score_bound_never_cuts_a_win():
    for position in end_positions(10, 2) + end_positions(10, 1, 3):
        result = make_solver(GAME, Limits(time_limit=60)).solve(position)
        if result.verdict == "winnable":
            assert position.score_bound() == 0


@pytest.mark.parametrize("seed, distance", [(0, 4), (0, 3), (5, 4)])
def test_whole_deals_are_won_with_a_line_that_replays(seed, distance):
    deal = GAME.new_deal(seed, {"distance": distance})
    result = make_solver(GAME, Limits(time_limit=60)).solve(GAME.initial_state(deal))
    assert result.verdict == "winnable" and result.exact
    assert GAME.replay_moves(GAME.initial_state(deal), result.line).won


def test_a_time_limit_gives_unknown_never_unwinnable():
    deal = GAME.new_deal(1)  # SKILL 2: far from decided in a few milliseconds
    result = RoundSolver(GAME, Limits(time_limit=0.01)).solve(GAME.initial_state(deal))
    assert result.verdict == "unknown" and not result.exact


def test_pairings_with_one_score_are_searched_once():
    state = fight("7S", "9D", "4H JH 6C", "2C 7D QC")
    scores = [round_score(7, state.monster, m.pairs) for m in state.search_moves()]
    assert len(scores) == len(set(scores)) and set(scores) == {round_score(7, state.monster, m.pairs)
                                                               for m in state.legal_moves()}


# -- blind mode ----------------------------------------------------------------------------------------
def last_choice(offer, deck, path="QC QD QS", skill="9S", distance=4):
    """The last round's choice of the monster: after it, the six cards left are exactly the round's."""
    named = set(cards(f"{skill} {offer} {deck} {path}"))
    discard = tuple(c for c in DECK_CARDS if c not in named)
    return State(card(skill), distance, cards(path), cards(deck), discard, extra=1, offer=cards(offer))


def open_win_rate(state):
    """The clairvoyant player's win rate over every order of the six cards the round deals: an order
    wins if some choice of the monster has a winning pairing in it."""
    wins = orders = 0
    for order in itertools.permutations(range(6)):
        orders += 1
        for move in state.legal_moves():
            pile = sorted(state.deck + tuple(c for c in state.offer if c != move.card))
            dealt = [pile[i] for i in order]
            pair = State(state.skill, state.distance, state.path, (), step=DEAL, monster=move.card,
                         attacks=tuple(dealt[:3]), hand=tuple(dealt[3:]))
            if any(pair.play(m).won for m in pair.legal_moves()):
                wins += 1
                break
    return wins / orders


def test_open_play_bounds_blind_play_and_the_policy_never_sees_the_order():
    """The last round's choice: the blind value is at most the clairvoyant's mean win over the
    orders of the cards dealt, and the policy's ranking is the same whatever the seed that fixes
    the order of the reshuffle."""
    state = last_choice("QH 3H", "2C 5C 8C TD 9D")
    blind = ExpectimaxSolver(GAME).value(state)[0]
    assert 0 < blind <= open_win_rate(state) + 1e-12
    policy = BlindPolicy(GAME, samples=4, exact_limits=Limits(max_states=20_000))
    rows = [policy.rank(State(state.skill, 4, state.path, state.deck, state.discard, extra=1, offer=state.offer,
                              seed=seed)) for seed in range(4)]
    assert all(r == rows[0] for r in rows) and rows[0][0]["exact"]
    assert rows[0][0]["move"] == Move("monster", card("QH"))  # a queen up from the path's end wins; a 3 cannot


def test_the_view_counts_the_deck_and_hides_its_order():
    state = advance_chance(start(extra=1, seed=2))
    other = State(state.skill, 4, state.path, tuple(reversed(state.deck)), extra=1, offer=state.offer, seed=7)
    assert other.view() == state.view() and other.key() != state.key()


def test_the_baseline_chooses_the_card_that_brings_the_path_nearest():
    state = last_choice("QH 3H", "2C 5C 8C TD 9D")
    assert GAME.baseline_move(state) == Move("monster", card("QH"))


def test_the_baseline_refuses_a_monster_that_leads_away_when_it_can():
    state = fight("7S", "6H", "2C 3C 4C", "AD 2D 9D", path="QC")  # a 6 points down
    assert 0 in state.round_outcomes()
    move = GAME.baseline_move(state)
    assert round_score(7, card("6H"), move.pairs) == 0  # the path stays as it is
    state = fight("7S", "QH", "2C 3C 4C", "9D TD JD", path="QC")  # a queen points at K♦
    assert round_score(7, card("QH"), GAME.baseline_move(state).pairs) > 0


def test_a_pairing_is_safe_only_when_nothing_turns_on_it():
    """The blind policy skips its rollouts where every pairing scores alike or no win is left."""
    alike = fight("KS", "AH", "2C 3C 4C", "QD JD TD")  # SKILL 13 + a queen, jack or ten beats every attack
    assert len(alike.search_moves()) == 1 and alike.safe_move() == alike.search_moves()[0]
    choice = fight("7S", "6H", "2C 3C 4C", "AD 2D 9D", path="QC")
    assert len(choice.search_moves()) > 1 and choice.safe_move() is None
    assert advance_chance(start(extra=1, seed=2)).safe_move() is None  # the choice of the monster: never
    named = set(cards("7S 6H 2C 3C 4C AD 2D 9D"))
    few = tuple(c for c in DECK_CARDS if c not in named)[:2]  # three rounds left; the K♦ is 4 away
    last = State(card("7S"), 4, (), few, step=DEAL, monster=card("6H"), attacks=cards("2C 3C 4C"),
                 hand=cards("AD 2D 9D"))
    assert len(last.search_moves()) > 1 and last.score_bound() == NO_WIN
    assert last.safe_move() == last.search_moves()[0]


# -- deal files ----------------------------------------------------------------------------------------
POSITION = """game = "dungeon"
seed = 4

[options]
distance = 3

[position]
skill = "9S"
path = "QC QD"
deck = "{deck}"
discard = "3H"
extra = 1
shuffles = 6
offer = "QH 2H"
"""


def position_text(**changes):
    named = set(cards("9S QC QD 3H QH 2H"))
    deck = [c for c in DECK_CARDS if c not in named]
    for old, new in changes.values():
        if "KH" in new:  # the king moves from the deck to the path, the queen back to the deck
            deck[deck.index(card("KH"))] = card("QD")
    text = POSITION.format(deck=C.format_cards(deck))
    for old, new in changes.values():
        text = text.replace(old, new)
    return text


def test_a_position_in_a_deal_file_is_the_state_it_says(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(position_text())
    state = GAME.initial_state(load_deal(path))
    assert (state.step, state.distance, state.extra, state.shuffles, state.seed) == (CHOOSE, 3, 1, 6, 4)
    assert state.path == cards("QC QD") and state.offer == cards("QH 2H") and value(state.skill) == 9
    won = advance_chance(state.play(Move("monster", card("QH"))))
    assert any(won.play(m).won for m in won.legal_moves()) or not won.round_outcomes().get(1)


@pytest.mark.parametrize("change, field", [
    (('extra = 1', 'extra = 5'), "position.extra"),
    (('extra = 1', 'extra = 2'), "position.offer"),
    (('shuffles = 6', 'shuffles = -1'), "position.shuffles"),
    (('discard = "3H"', 'discard = ""'), "position (skill"),
    (('skill = "9S"', 'skill = "9S 3H"'), "position.skill"),
    (('path = "QC QD"', 'path = "QC KH"'), "position.path"),
    (("seed = 4", "seed = 4\n[position.extra_field]"), "position.extra_field"),
])
def test_a_bad_position_names_its_field(tmp_path, change, field):
    path = tmp_path / "p.toml"
    path.write_text(position_text(c=change))
    with pytest.raises(DealError, match=field.replace("(", r"\(")):
        GAME.initial_state(load_deal(path))


def test_a_bad_distance_is_refused_naming_the_option(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text('game = "dungeon"\nseed = 3\n[options]\ndistance = 5\n')
    with pytest.raises(DealError, match="options.distance"):
        load_deal(path)


def test_a_deck_with_the_ace_of_spades_is_refused(tmp_path):
    deck = list(GAME.new_deal(0).piles["deck"])
    deck[10] = card("AS")
    path = tmp_path / "d.toml"
    path.write_text(f'game = "dungeon"\n[piles]\ndeck = "{C.format_cards(deck)}"\n')
    with pytest.raises(DealError, match="deck"):
        load_deal(path)


def test_move_count_regression():
    """The legal-move counts along a fixed line of seeded deal 3, both distances (tests/data/)."""
    expected = json.loads(DATA.read_text())
    assert [fixed_line_record(GAME, record["seed"]) for record in expected[:1]] == expected[:1]
    three = expected[1]
    from conftest import fixed_line
    game_three = _with_distance(3)
    record, final = fixed_line(game_three, three["seed"])
    assert {**record, "won": final.outcome().won, "score": final.outcome().score} == three


def _with_distance(distance):
    """The game with another default distance (fixed_line deals with the defaults)."""
    import copy

    game = copy.copy(GAME)
    game.options = {"distance": (distance, (4, 3))}
    return game


def test_cli_solves_and_plays(cli):
    proc = cli("solve", "puzzles/dungeon/win-1.toml")
    assert proc.returncode == 0 and "winnable" in proc.stdout
    proc = cli("play", "dungeon", "--seed", "3", "--policy", "baseline", "--option", "distance=3")
    assert proc.returncode == 0, proc.stderr


# -- the compiled kernel (ext/dungeon.pyx) ---------------------------------------------------------------
def kernel_or_skip():
    kernel = GAME.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    return kernel


def test_the_kernel_geometry_is_the_references():
    """The integer test against the reference's Fraction test, on random segments (many of them
    near the rectangle) and on the hits and near misses above; the float gaps bit for bit."""
    kernel = kernel_or_skip()
    rnd = random.Random(4)
    met = 0
    for _ in range(20_000):
        point = (rnd.randint(-4, 4), rnd.randint(-3, 3), rnd.randint(2, 12), rnd.randint(-2, 5))
        v, distance = rnd.randint(1, 12), rnd.choice((3, 4))
        assert kernel.meets(point, v, distance) == meets(point, v, distance), (point, v, distance)
        assert kernel.gap(point, distance) == gap(point, distance)
        met += meets(point, v, distance)
    assert 500 < met < 19_500  # both outcomes, many times
    for values, distance in [((12, 12, 12), 4), ((12, 12), 3), ((1, 12, 12, 11), 4), ((2, 10, 12), 3)]:
        points = (ORIGIN,) + path_points(values[:-1])
        assert kernel.meets(points[-1], values[-1], distance) == meets(points[-1], values[-1], distance)


def test_the_kernel_reshuffles_and_scores_are_the_references():
    kernel = kernel_or_skip()
    rnd = random.Random(5)
    for _ in range(300):
        pile = tuple(sorted(rnd.sample(DECK_CARDS, rnd.randint(2, 45))))
        seed, stream = rnd.randrange(1 << 64), rnd.randint(1, 90)
        assert kernel.reshuffled(list(pile), seed, stream) == list(reshuffled(pile, seed, stream))
        seven = rnd.sample(DECK_CARDS, 7)
        skill = rnd.randint(1, 13)
        assert kernel.round_scores(skill, seven[0], seven[1:4], seven[4:]) == sorted(
            {round_score(skill, seven[0], pairing(p, seven[1:4]).pairs) for p in itertools.permutations(seven[4:])},
            reverse=True)


def test_the_kernels_kept_permutations_deal_every_pile_of_a_count_as_the_reshuffle():
    # the search deals decks from one permutation per (reshuffle count, card count): right only if
    # the shuffle's draws never depend on which cards are shuffled
    kernel = kernel_or_skip()
    rnd = random.Random(7)
    seed = rnd.randrange(1 << 64)
    search = kernel.Search(seed, 5, 4)
    for _ in range(400):
        count, stream = rnd.randint(1, 12), rnd.choice((1, 2, 3, 130))  # 130: beyond the kept streams
        pile = tuple(sorted(rnd.sample(DECK_CARDS, 38 + count)))
        assert search.dealt(list(pile), stream) == list(reshuffled(pile, seed, stream))


def test_the_kernel_legal_moves_are_the_references_along_random_games():
    kernel_or_skip()
    rnd = random.Random(6)
    checked = 0
    for seed in range(6):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed, {"distance": 3 + seed % 2})))
        while state.outcome() is None:
            moves = GAME.kernel_moves(state)
            assert len(moves) == len(state.legal_moves()) and sorted(moves) == sorted(state.legal_moves())
            checked += 1
            state = advance_chance(state.play(rnd.choice(state.legal_moves())))
    assert checked > 100


def kernel_solver(limits=None, **settings):
    from solodeck.games.dungeon.search import KernelSolver

    solver = KernelSolver(GAME, kernel_or_skip(), limits or Limits(time_limit=60))
    for name, value_ in settings.items():
        setattr(solver, name, value_)
    return solver


@pytest.mark.parametrize("distance", [4, 3])
def test_the_kernel_search_agrees_with_the_reference_round_search(distance):
    """Positions the pure-Python round search finishes: a few rounds from the end of baseline
    games, and before the wins of whole deals. The kernel, with its cuts and without them, with
    and without its beams, gives the same verdicts; its winning lines replay (finish_open)."""
    verdicts = set()
    positions = [p for back in (1, 3, 5, 8) for p in end_positions(4, back, distance)] + before_wins(5, distance, (2, 4, 6))
    for position in positions:
        reference = RoundSolver(GAME, Limits(time_limit=120)).solve(position)
        assert reference.exact
        for solver in (kernel_solver(), kernel_solver(widths=()), kernel_solver(widths=(), cuts=False)):
            result = solver.solve(position)
            assert result.exact and result.engine == "rounds-kernel"
            assert result.verdict == reference.verdict, str(position)
        verdicts.add(reference.verdict)
    assert verdicts == {"winnable", "unwinnable"}


def test_the_kernel_proves_whole_deals_lost_and_won():
    """Seed 1 (SKILL 2) is proven unwinnable by the kernel within seconds, seed 972 at distance 4 is
    won by a line of more than 20 rounds that replays under the reference engine."""
    lost = kernel_solver().solve(GAME.initial_state(GAME.new_deal(1)))
    assert lost.verdict == "unwinnable" and lost.exact
    state = GAME.initial_state(GAME.new_deal(972))
    won = kernel_solver().solve(state)
    assert won.verdict == "winnable" and GAME.replay_moves(state, won.line).won
    assert sum(m.kind == "pair" for m in won.line) > 20


def test_the_kernel_stops_at_its_limits_and_never_calls_that_a_loss():
    state = GAME.initial_state(GAME.new_deal(1))
    timed_out = kernel_solver(Limits(time_limit=0.001), widths=()).solve(state)
    assert timed_out.verdict == "unknown" and not timed_out.exact
    capped = kernel_solver(Limits(max_states=1000), widths=()).solve(state)
    assert capped.verdict == "unknown" and not capped.exact


def test_the_kernel_rollouts_are_the_references_draw_for_draw():
    """solvers/rollouts.py's rollouts (the baseline in Python, SplitMix64(seed + i) draws) against
    fast_rollouts, at choices and pairings along baseline games at both distances."""
    kernel_or_skip()
    compared = 0
    for seed in range(4):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed, {"distance": 3 + seed % 2})))
        while state.outcome() is None:
            if len(state.legal_moves()) > 1 and compared < 40:
                fast = GAME.fast_rollouts(state, 6, 11 + seed)
                slow = [(m, w, t) for m, w, t in _python_rollouts(state, 6, 11 + seed)]
                assert fast == slow
                compared += 1
            state = advance_chance(state.play(GAME.baseline_move(state)))
    assert compared >= 20


def _python_rollouts(state, samples, seed):
    class NoKernel(type(GAME)):
        def fast_rollouts(self, state, samples, seed, moves=None):
            return None

    return rollout_stats(NoKernel(), state, samples, seed)
