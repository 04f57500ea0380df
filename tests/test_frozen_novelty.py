"""Frozen Novelty's reference engine and search: the deal, every action of the rule text with its
back checks, the five variants, notation, deal files, verdicts in both directions, safe moves
against the unpruned search, limits, hint files, and the legal-move-count regression."""
import json
import random
from pathlib import Path

import pytest

from solodeck import cards as C
from solodeck.api import advance_chance
from solodeck.deals import deal_from_data, load_deal
from solodeck.errors import DealError, MoveError
from solodeck.games.frozen_novelty.rules import (DOWN, UP, VARIANTS, Move, Rules, State,
                                                 default_backs, parse_backs, parse_move)
from solodeck.hints import build_hints, validate_hints, verify_hints
from solodeck.registry import get_game
from solodeck.solvers import Limits, ReachabilitySolver, make_solver

GAME = get_game("frozen-novelty")
COUNTS = Path(__file__).parent / "data" / "frozen_novelty_move_counts.json"


def card(text):
    return C.parse_card(text)


def position(pos, variant="standard", backs=""):
    deal = deal_from_data({"game": "frozen-novelty", "options": {"variant": variant, "backs": backs},
                           "position": pos}, "test.toml")
    return GAME.initial_state(deal)


def moves(state):
    return {str(m) for m in state.legal_moves()}


# Hand-built positions (docs/rules/frozen-novelty.md explains each; puzzles/frozen-novelty/ too).
# A: the J♥ on D1 covers the 2♠ everything waits for; every Up and Down stack is blocked and D2-D4
# are empty. Only an empty Deck stack can take the J♥: face down in standard (an extra Down
# stack), face up in easy and very easy (an extra Up stack); in hard and very hard it is useless.
EMPTY_DECK = {"U1": "KH", "U2": "KD", "U3": "KC", "U4": "KS", "W1": "4S", "W2": "6S", "W3": "8S", "W4": "TS",
              "D1": "(JH) (2S) (3S) (5S) (7S) (9S) (JS) (QS) (TH) (QD) (QH) (QC)", "foundations": "AS 9H JD JC"}
# B: as A, but D2 holds a face-down Q♦ whose back (D S H) fits the J♥'s (H C D): hard lets the J♥
# go face down onto it (Deck to Deck); very hard only allows Deck to Down, and the Q♦ turned up
# only finds the K♦, which frees no stack that could take the J♥.
DECK_TO_DECK = dict(EMPTY_DECK, D2="(QD)", D1="(JH) (2S) (3S) (5S) (7S) (9S) (JS) (QS) (TH) (JD) (QH) (QC)",
                    foundations="AS 9H TD JC")
# C: as A, but the 10 of spades on W4 is face down: its back (S H C) fits the J of hearts' (H C D),
# so the J goes face down onto it, Deck to Down, legal even in very hard; the 4, 6 and 8 of spades
# then go home and free Down stacks for the cards that cover the 10.
DOWN_FITS = dict(EMPTY_DECK, W4="(TS)")
# Z: every stack blocked; the only moves turn up or shuffle the 3♠ and 5♠, which go nowhere.
STUCK = {"U1": "KH", "U2": "KD", "U3": "KC", "U4": "KS", "D1": "JS (2S) (4S) (6S)", "D2": "JH (8S) (TS) (QS)",
         "D3": "JD (TH) (QH)", "D4": "JC (TD) (QD) (TC) (QC)", "W1": "9S", "W2": "7S", "W3": "(5S)", "W4": "(3S)",
         "foundations": "AS 9H 9D 9C"}
KNOWN = [  # (position, variant, winnable?)
    (EMPTY_DECK, "standard", True), (EMPTY_DECK, "easy", True), (EMPTY_DECK, "very-easy", True),
    (EMPTY_DECK, "hard", False), (EMPTY_DECK, "very-hard", False),
    (DECK_TO_DECK, "hard", True), (DECK_TO_DECK, "standard", True), (DECK_TO_DECK, "very-hard", False),
    (DOWN_FITS, "very-hard", True), (DOWN_FITS, "hard", True),
    *[(STUCK, v, False) for v in VARIANTS],
]


# -- the deal ---------------------------------------------------------------------------------
def test_deal_card_i_goes_on_deck_stack_i_mod_4():
    deck = C.standard_deck()
    state = GAME.initial_state(deal_from_data({"game": "frozen", "deck": C.format_cards(deck)}, "d"))
    for k in range(4):
        assert [c >> 1 for c in state.stacks[k]] == deck[k::4]  # bottom first: card k was dealt first
        assert all(not c & 1 for c in state.stacks[k]) and len(state.stacks[k]) == 13
    assert [state.stacks[k][-1] >> 1 for k in range(4)] == deck[48:]  # the last four dealt are the tops
    assert all(not state.stacks[j] for j in (*UP, *DOWN)) and state.found == (0, 0, 0, 0)


def test_seeded_deal_is_the_project_shuffle_and_the_first_moves_are_flips_and_face_down_moves():
    from solodeck.shuffle import shuffled

    deal = GAME.new_deal(5)
    assert deal.piles["deck"] == shuffled(C.standard_deck(), 5)
    state = GAME.initial_state(deal)
    kinds = {m.kind for m in state.legal_moves()}
    assert kinds <= {"flip", "down"} and "flip" in kinds


# -- the back table ---------------------------------------------------------------------------
def test_default_backs_count_and_cycle():
    backs = default_backs()
    counts = {1: 4, 13: 4, 12: 3, 11: 3, 10: 3, 9: 2, 4: 2, 3: 1, 2: 1}
    for c in range(52):
        r = c % 13 + 1
        assert backs[c] >> (c // 13) & 1  # the true suit is shown
        if r in counts:
            assert bin(backs[c]).count("1") == counts[r]
    # the cycle S -> H -> C -> D -> S: a two-suit back shows one red and one black suit
    assert backs[card("7S")] == 0b0011                  # S H
    assert backs[card("7H")] == (1 << 1) | (1 << 3)      # H C
    assert backs[card("7C")] == (1 << 3) | (1 << 2)      # C D
    assert backs[card("7D")] == (1 << 2) | (1 << 0)      # D S
    assert backs[card("QD")] == (1 << 2) | (1 << 0) | (1 << 1)  # D S H


def test_back_table_override_and_its_errors():
    masks = parse_backs("KS:SH 7D:DC", "f.toml")
    assert masks[card("KS")] == 0b0011 and masks[card("7D")] == (1 << 2) | (1 << 3)
    assert parse_backs({"KS": "SH"}, "f.toml")[card("KS")] == 0b0011
    for bad, words in (("KS:HD", "own suit"), ("KS", "CARD:SUITS"), ("XX:S", "not a card"), ("KS:SX", "not a suit")):
        with pytest.raises(DealError, match=words) as exc:
            parse_backs(bad, "f.toml")
        assert "f.toml" in str(exc.value) and "options.backs" in str(exc.value)


def test_override_changes_what_may_go_face_down():
    pos = {"D1": "(5S)", "D2": "(7H) (8H) (9H) (TH) (JH) (QH) (KH)", "D3": "(6S) (7S) (8S) (9S) (TS) (JS) (QS) (KS)",
           "foundations": "4S 6H KD KC"}
    # 5S (S H) onto 7H (H C): they share hearts, two suits each
    assert "down D1 -> D2" in moves(position(pos, "hard"))
    # with 5S's back made (S D), the backs share no suit
    assert "down D1 -> D2" not in moves(position(pos, "hard", backs="5S:SD"))


# -- the four actions -------------------------------------------------------------------------
REST = "(2S) (3S) (4S) (6S) (7S) (8S) (9S) (TS) (JS) (QS) (KS)"  # the spades below, never reached


def test_flip_turns_the_face_down_top_over_where_it_lies():
    state = position({"D1": "(5S) " + REST, "foundations": "AS KH KD KC"}, "hard")
    turning = state.play(parse_move("flip D1"))
    assert turning.is_chance() and not turning.legal_moves() and turning.outcome() is None
    assert turning.dealt_outcome() == card("5S")  # open mode: the face dealt there
    after = advance_chance(turning)
    assert after.stacks[0][-1] == card("5S") * 2 + 1 and after.stacks[0][:-1] == state.stacks[0][:-1]
    assert "flip D1" not in moves(after)  # a face-up card is never turned down again


def test_found_needs_the_next_card_of_its_suit():
    state = position({"D1": "2S (3S) (4S) (5S) (6S) (7S) (8S) (9S) (TS) (JS) (QS) (KS)", "foundations": "AS KH KD KC"})
    assert "found D1" in moves(state)
    after = state.play(parse_move("found D1"))
    assert after.found == (2, 13, 13, 13) and "found D1" not in moves(after)  # 3S is face down
    stuck = position({"D1": "3S (2S) (4S) (5S) (6S) (7S) (8S) (9S) (TS) (JS) (QS) (KS)", "foundations": "AS KH KD KC"})
    assert not any(m.startswith("found") for m in moves(stuck))


def test_runs_move_onto_the_next_higher_card_of_their_suit_or_into_an_empty_up_stack():
    pos = {"D1": "5H 6H 7H (2S)", "D2": "8H (3S)", "D3": "8D (4S)", "U1": "9H",
           "D4": "(5S) (6S) (7S) (8S) (9S) (TS) (JS) (QS) (KS)", "foundations": "AS 4H 7D KC",
           "W1": "TH JH QH KH", "W2": "9D TD JD QD KD"}
    state = position(pos, "hard")
    m = moves(state)
    assert "move 3 D1 -> D2" in m                       # 5-6-7 of hearts onto the 8 of hearts
    assert "move D1 -> D2" not in m and "move 2 D1 -> D2" not in m  # only the run ending in the 7 fits
    assert "move 3 D1 -> D3" not in m                   # in suit: not onto the 8 of diamonds
    assert {"move D1 -> U2", "move 2 D1 -> U2", "move 3 D1 -> U2"} <= m  # any part of the run, into an empty Up stack
    assert not any(x.endswith("-> W3") for x in m if x.startswith("move"))  # never face up into an empty Down stack
    assert "move D2 -> U1" in m                          # the 8 of hearts onto the 9 of hearts in an Up stack
    after = state.play(parse_move("move 3 D1 -> D2"))
    assert [c >> 1 for c in after.stacks[1][-4:]] == [card(x) for x in ("8H", "7H", "6H", "5H")]
    assert after.stacks[0] == (card("2S") * 2,)
    # a face-up run never goes onto a face-down card
    assert not any(x.startswith("move") and x.endswith("-> D4") for x in m)


def test_face_down_moves_and_their_back_checks():
    # backs: 5S (S H, 2 suits), 7H (H C, 2), 3S (S, 1), TC (C D S, 3), KD (4), 2H (H, 1), 4C (C D, 2)
    pos = {"D1": "(5S)", "D2": "(7H)", "D3": "(3S)", "D4": "(TC)", "W1": "(KD)", "W2": "(2H)", "W3": "(4C)",
           "foundations": "AS AH 9D 3C"}
    pos["W4"] = "(2S) (4S) (6S) (7S) (8S) (9S) (TS) (JS) (QS) (KS) (3H) (4H) (5H) (6H) (8H) (9H) (TH) (JH) (QH) (KH) " \
                "(TD) (JD) (QD) (5C) (6C) (7C) (8C) (9C) (JC) (QC) (KC)"
    m = moves(position(pos, "hard"))
    assert "down D1 -> D2" in m      # 5S (S H) on 7H (H C): share H, same count
    assert "down D2 -> D1" in m      # and back
    assert "down D3 -> D1" in m      # 3S (S) on 5S (S H): share S, one fewer
    assert "down D1 -> D3" not in m  # 5S on 3S: one more suit than the destination
    assert "down D3 -> D2" not in m  # 3S on 7H: no shared suit
    assert "down D1 -> D4" in m      # 5S (S H) on TC (C D S): share S, one fewer
    assert "down D1 -> W1" not in m  # 5S (2) on KD (4): two fewer
    assert "down D4 -> W1" in m      # TC (3) on KD (4)
    assert "down W2 -> D2" in m      # 2H (H) on 7H (H C)
    assert "down W2 -> D3" not in m  # 2H on 3S: one suit each, not the same one
    assert "down W3 -> D2" in m      # 4C (C D) on 7H (H C)
    assert "down W1 -> D1" not in m  # KD (4) on 5S (2)
    # nothing goes face down onto a face-up card, into an empty Up stack, or face up onto a face-down card
    up = position(dict(pos, D2="7H"), "hard")
    assert "down D1 -> D2" not in moves(up) and not any("-> U" in x for x in moves(up) if x.startswith("down"))


def test_face_down_card_into_an_empty_down_stack_without_back_checks():
    pos = {"D1": "(KS) " + "(2S) (3S) (4S) (5S) (6S) (7S) (8S) (9S) (TS) (JS) (QS)", "foundations": "AS KH KD KC"}
    m = moves(position(pos, "hard"))
    assert {"down D1 -> W1", "down D1 -> W2", "down D1 -> W3", "down D1 -> W4"} <= m


# -- the variants ---------------------------------------------------------------------------
def test_empty_deck_stack_by_variant():
    """Standard: an extra Down stack; easy and very easy: an extra Up stack; hard: useless."""
    down = {"D1": "(9S) (2S) (3S) (4S) (5S) (6S) (7S) (8S) (TS) (JS) (QS) (KS)", "foundations": "AS KH KD KC"}
    up = dict(down, D1="9S (2S) (3S) (4S) (5S) (6S) (7S) (8S) (TS) (JS) (QS) (KS)")
    for variant, takes_down, takes_up in (("standard", True, False), ("easy", False, True), ("very-easy", False, True),
                                          ("hard", False, False), ("very-hard", False, False)):
        assert ("down D1 -> D2" in moves(position(down, variant))) == takes_down, variant
        assert ("move D1 -> D2" in moves(position(up, variant))) == takes_up, variant
        assert ("move D1 -> U1" in moves(position(up, variant)))  # an Up stack always takes it
        assert ("down D1 -> W1" in moves(position(down, variant)))  # a Down stack always takes it


def test_very_hard_moves_face_down_cards_only_from_a_deck_to_a_down_stack():
    pos = {"D1": "(9S)", "D2": "(TS)", "W1": "(8S)", "W2": "(JS)",
           "D3": "(2S) (3S) (4S) (5S) (6S) (7S) (QS) (KS)", "foundations": "AS KH KD KC"}
    hard, very_hard = moves(position(pos, "hard")), moves(position(pos, "very-hard"))
    assert {"down D1 -> D2", "down W1 -> D1", "down W1 -> W2", "down D1 -> W2"} <= hard
    assert "down D1 -> W2" in very_hard and "down D1 -> W3" in very_hard
    assert not {"down D1 -> D2", "down W1 -> D1", "down W1 -> W2", "down W2 -> W3"} & very_hard


def test_very_easy_builds_red_on_black():
    pos = {"D1": "7H (2S)", "D2": "8S (3S)", "D3": "8D (4S)", "D4": "(5S) (6S) (7S) (9S) (TS) (JS) (QS) (KS)",
           "W1": "(8H) (9H) (TH) (JH) (QH) (KH)", "W2": "(9D) (TD) (JD) (QD) (KD)", "foundations": "AS 6H 7D KC"}
    assert "move D1 -> D2" in moves(position(pos, "very-easy"))
    assert "move D1 -> D3" not in moves(position(pos, "very-easy"))
    assert "move D1 -> D2" not in moves(position(pos, "easy"))
    with pytest.raises(DealError, match="red/black"):
        position({**pos, "U1": "7H 8H", "D1": "(2S)"}, "very-easy")


def test_red_black_safe_home_waits_for_the_other_colour():
    rules = Rules("very-easy", tuple(default_backs()))
    s = [()] * 12
    s[0] = (card("5H") * 2 + 1,)
    s[1] = (card("4S") * 2,)
    state = State(rules, tuple(s), (3, 4, 13, 13))  # 4S not home: a 4 of spades could still want the 5H
    assert state.safe_move() is None and Move("found", 0) in state.legal_moves()
    s[1] = ()
    state = State(rules, tuple(s), (4, 4, 13, 13))
    assert state.safe_move() == Move("found", 0)


# -- notation and deal files -----------------------------------------------------------------
@pytest.mark.parametrize("text", ["flip D3", "found U2", "move D1 -> U3", "move 3 D1 -> U3", "down D2 -> W1"])
def test_notation_round_trips(text):
    assert str(parse_move(text)) == text
    assert str(GAME.parse_move("  " + text.lower() + " ")) == text


@pytest.mark.parametrize("text", ["flip", "flip D5", "move D1", "found U2 -> U3", "down 2 D1 -> W1", "move 0 D1 -> U1", "jump D1"])
def test_bad_moves_are_refused(text):
    with pytest.raises(MoveError):
        parse_move(text)


@pytest.mark.parametrize("pos, field, words", [
    ({"D1": "AS"}, "position", "missing"),
    ({"D5": "AS"}, "position.D5", "unknown field"),
    ({"U1": "(AS)", "foundations": "KH KD KC"}, "position.U1", "only face-up"),
    ({"D1": "(2S) AS", "foundations": "KH KD KC"}, "position.D1", "face-down card lies on a face-up"),
    ({"D1": "AS 3S", "foundations": "KH KD KC"}, "position.D1", "run"),
    ({"D1": "AS", "D2": "AS", "foundations": "KH KD KC"}, "position.D2", "already"),
    ({"D1": "ZZ"}, "position.D1", "not a card"),
    ({"foundations": "KS QS"}, "position.foundations", "two cards"),
    ({"D1": 7}, "position.D1", "expected a string"),
])
def test_position_errors_name_file_field_and_expectation(pos, field, words):
    with pytest.raises(DealError, match=words) as exc:
        position(pos)
    assert "test.toml" in str(exc.value) and field in str(exc.value)


def test_deal_file_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "frozen"\ndeck = "AS 2S"\n')
    with pytest.raises(DealError, match="expected 52 cards") as exc:
        load_deal(bad)
    assert "bad.toml" in str(exc.value) and "deck" in str(exc.value)
    bad.write_text('game = "frozen"\nseed = 1\n[options]\nvariant = "nightmare"\n')
    with pytest.raises(DealError, match="options.variant"):
        load_deal(bad)


def test_cli_errors_are_one_line(tmp_path, cli):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "frozen"\nseed = 1\n[options]\nbacks = "KS:HD"\n')
    proc = cli("solve", bad)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "bad.toml" in proc.stderr and "options.backs" in proc.stderr


# -- verdicts ----------------------------------------------------------------------------------
@pytest.mark.parametrize("pos, variant, winnable", KNOWN,
                         ids=[f"{['empty-deck', 'deck-to-deck', 'down-fits', 'stuck'][[EMPTY_DECK, DECK_TO_DECK, DOWN_FITS, STUCK].index(p)]}-{v}"
                              for p, v, _w in KNOWN])
def test_known_verdicts_pruned_unpruned_and_fastest(pos, variant, winnable):
    state = position(pos, variant)
    for solver in (ReachabilitySolver(GAME), ReachabilitySolver(GAME, prune=False), make_solver(GAME, Limits())):
        result = solver.solve(state)
        assert result.exact and result.verdict == ("winnable" if winnable else "unwinnable")
        if winnable:
            assert GAME.replay_moves(state, result.line).won


@pytest.mark.parametrize("variant", VARIANTS)
def test_seeded_deals_are_won(variant):
    state = GAME.initial_state(GAME.new_deal(0, {"variant": variant}))
    result = make_solver(GAME, Limits(time_limit=30)).solve(state)
    assert result.verdict == "winnable" and GAME.replay_moves(state, result.line).won


def cards_left(rng, left):
    """(foundations, the ``left`` cards above them in a random order): ``left`` cards taken back
    from complete foundations, each from a random suit that still has one."""
    found = [13, 13, 13, 13]
    for _ in range(left):
        s = rng.choice([s for s in range(4) if found[s] > 0])
        found[s] -= 1
    cards = [s * 13 + r - 1 for s in range(4) for r in range(found[s] + 1, 14)]
    rng.shuffle(cards)
    return found, cards


def small_position(rng, variant, left):
    """A random position with ``left`` cards out of the foundations, dealt face down over the
    Deck and Down stacks, some tops turned up."""
    found, cards = cards_left(rng, left)
    stacks = [[] for _ in range(12)]
    for c in cards:
        stacks[rng.choice([0, 1, 2, 3, 8, 9, 10, 11])].append(c * 2)
    for s in stacks:
        if s and rng.random() < 0.4:
            s[-1] |= 1
    return State(Rules(variant, tuple(default_backs())), tuple(map(tuple, stacks)), tuple(found))


def perturbed(rng):
    """The blocked positions above with two cards swapped between stacks, in every variant: many
    losses, some of them only seen after thousands of positions."""
    for pos in (EMPTY_DECK, DECK_TO_DECK, STUCK):
        base = position(pos)
        for variant in VARIANTS:
            for _ in range(4):
                stacks = [list(s) for s in base.stacks]
                a, b = rng.sample([j for j in range(12) if stacks[j] and j not in UP], 2)
                i, k = rng.randrange(len(stacks[a])), rng.randrange(len(stacks[b]))
                up_a, up_b = stacks[a][i] & 1, stacks[b][k] & 1
                stacks[a][i], stacks[b][k] = (stacks[b][k] & ~1) | up_a, (stacks[a][i] & ~1) | up_b
                yield State(Rules(variant, tuple(default_backs())), tuple(map(tuple, stacks)), base.found)


def compare_pruned_with_plain(cap):
    rng = random.Random(2026)
    verdicts = []
    states = [small_position(rng, VARIANTS[i % 5], rng.randint(4, 10)) for i in range(150)]
    for state in states + list(perturbed(rng)):
        plain = ReachabilitySolver(GAME, Limits(max_states=cap), prune=False).solve(state)
        if plain.exact:  # the plain search may be cut off by the cap on big losses
            pruned = ReachabilitySolver(GAME).solve(state)
            assert pruned.exact and plain.verdict == pruned.verdict
            verdicts.append((plain.verdict, plain.nodes))
    return verdicts


def test_safe_moves_and_move_pruning_never_change_the_verdict():
    """The pruned search (safe moves, symmetric moves dropped, ordering) against the plain one."""
    verdicts = compare_pruned_with_plain(3_000)  # the plain search decides these within 2,000 states or not within 12,000
    assert len(verdicts) >= 200
    assert sum(v == "unwinnable" for v, _n in verdicts) >= 20 and sum(v == "winnable" for v, _n in verdicts) >= 150


@pytest.mark.slow
def test_safe_moves_never_change_the_verdict_on_the_big_losses():
    verdicts = compare_pruned_with_plain(1_000_000)
    assert sum(v == "unwinnable" and n > 10_000 for v, n in verdicts) >= 4


def test_stricter_rules_allow_a_subset_of_the_moves():
    """The pre-search under stricter rules is sound: hard's legal moves are standard's and easy's
    minus some, very hard's are hard's minus some, position by position along random lines."""
    from solodeck.games.frozen_novelty.rules import STRICTER

    rng = random.Random(11)
    checked = 0
    for seed in range(12):
        for loose, strict in STRICTER.items():
            state = GAME.initial_state(GAME.new_deal(seed, {"variant": loose}))
            for _ in range(80):
                legal = state.legal_moves()
                twin = State(Rules(strict, state.rules.backs), state.stacks, state.found)
                assert set(twin.legal_moves()) <= set(legal)
                checked += 1
                if not legal:
                    break
                state = advance_chance(state.play(rng.choice(legal)))
    assert checked > 2000


def test_standard_deal_the_wide_search_misses_is_won_under_hard_rules():
    state = GAME.initial_state(GAME.new_deal(588))  # standard: the plain search ran out of memory
    result = make_solver(GAME, Limits(time_limit=60)).solve(state)
    assert result.verdict == "winnable" and GAME.replay_moves(state, result.line).won


def test_search_handles_cycles_and_keeps_only_proven_losses():
    # Runs can go back and forth between empty Up stacks: the graph has cycles
    state = position(STUCK, "easy")
    solver = ReachabilitySolver(GAME)
    assert solver.solve(state).verdict == "unwinnable"
    assert all(entry[0] == "lost" for entry in solver.table.values())
    win = position(EMPTY_DECK, "standard")
    solver = ReachabilitySolver(GAME)
    assert solver.solve(win).verdict == "winnable"
    assert solver.value(win) == ((1, 0), True)
    lost_child = win.play(parse_move("flip D1"))  # the J of hearts turned up can never leave D1
    assert solver.value(lost_child) == ((0, 0), True)


def test_key_folds_interchangeable_stacks():
    state = position(EMPTY_DECK, "standard")
    b = state.play(parse_move("down D1 -> D2"))
    c = state.play(parse_move("down D1 -> D3"))
    assert b.stacks != c.stacks and b.key() == c.key()  # D2 and D3 are both empty Deck stacks
    assert len(state.key()) == 2  # standard: Deck and Down stacks are one group, Up the other
    for variant in ("hard", "very-hard"):  # Deck, Up and Down stacks are three groups there
        s = position(DECK_TO_DECK, variant)
        assert len(s.key()) == 3


# -- limits --------------------------------------------------------------------------------
def test_limits_give_an_honest_unknown(cli, tmp_path):
    state = GAME.initial_state(GAME.new_deal(0))
    result = make_solver(GAME, Limits(max_states=20)).solve(state)
    assert result.verdict == "unknown" and not result.exact and result.status == "memory-limit"
    deal = tmp_path / "d.toml"
    deal.write_text('game = "frozen"\nseed = 0\n')
    out = json.loads(cli("solve", deal, "--max-states", "20", "--json", check=True).stdout)
    assert out["verdict"] == "unknown" and out["exact"] is False


def test_time_limit_gives_unknown_not_unwinnable():
    state = GAME.initial_state(GAME.new_deal(10, {"variant": "very-hard"}))
    result = make_solver(GAME, Limits(time_limit=1e-6)).solve(state)
    assert result.verdict in ("unknown", "winnable")
    if result.verdict == "unknown":
        assert result.status == "timeout" and not result.exact


# -- hint files ----------------------------------------------------------------------------
def test_hint_file_validates_and_verifies(cli, tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('game = "frozen"\n[options]\nvariant = "standard"\n[position]\n'
                    + "".join(f'{k} = "{v}"\n' for k, v in EMPTY_DECK.items()))
    hints = tmp_path / "h.json"
    proc = cli("solve", path, "--hints", hints, check=True)
    assert "winnable" in proc.stdout
    data = json.loads(hints.read_text())
    validate_hints(data)
    assert all(any(m["best"] for m in d["moves"]) for d in data["decisions"])
    # the flip that loses is valued as such
    first = data["decisions"][0]
    verdicts = {m["move"]: m["verdict"] for m in first["moves"]}
    assert verdicts["flip D1"] == "unwinnable" and verdicts["down D1 -> D2"] == "winnable"
    assert cli("verify", path, hints).returncode == 0
    data["line"] = data["line"][:-1]
    hints.write_text(json.dumps(data))
    assert cli("verify", path, hints).returncode == 1


def test_unwinnable_hint_file_is_reproved(tmp_path):
    deal = deal_from_data({"game": "frozen", "options": {"variant": "hard"}, "position": EMPTY_DECK}, "x")
    solver = make_solver(GAME, Limits())
    result = solver.solve(GAME.initial_state(deal))
    data = build_hints(GAME, deal, result, solver)
    assert data["verdict"] == "unwinnable"
    assert "confirmed" in verify_hints(GAME, deal, data, reprove=lambda s: make_solver(GAME).solve(s).verdict)


# -- the legal-move-count regression ---------------------------------------------------------
def fixed_line(variant, seed, plies):
    """Legal-move counts along a fixed pseudo-random line from a seeded deal (preferring home
    and flips a little, so the line goes somewhere)."""
    state = GAME.initial_state(GAME.new_deal(seed, {"variant": variant}))
    rng = random.Random(f"{variant}-{seed}")
    counts, line = [], []
    for _ in range(plies):
        legal = state.legal_moves()
        counts.append(len(legal))
        if not legal:
            break
        good = [m for m in legal if m.kind == "found"] or legal
        move = rng.choice(good if rng.random() < 0.5 else legal)
        line.append(str(move))
        state = advance_chance(state.play(move))
    return counts, line


def test_move_counts_along_fixed_lines():
    data = json.loads(COUNTS.read_text())
    assert set(data) == set(VARIANTS)
    for variant, rows in data.items():
        for row in rows:
            counts, line = fixed_line(variant, row["seed"], len(row["counts"]))
            assert line[:len(row["line"])] == row["line"], (variant, row["seed"])
            assert counts == row["counts"], (variant, row["seed"])


if __name__ == "__main__":  # regenerate the regression file: python tests/test_frozen_novelty.py
    out = {v: [dict(zip(("counts", "line"), fixed_line(v, seed, 150)), seed=seed) for seed in (0, 1)] for v in VARIANTS}
    COUNTS.write_text(json.dumps(out, indent=1) + "\n")


def test_one_solver_reused_across_variants_answers_each_under_its_own_rules():
    solver = ReachabilitySolver(GAME)  # keys leave the rules out, so the table must not carry over
    assert solver.solve(position(DECK_TO_DECK, "very-hard")).verdict == "unwinnable"
    assert solver.solve(position(DECK_TO_DECK, "hard")).verdict == "winnable"
