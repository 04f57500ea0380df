"""The Sandwich Guy: the rule text's examples, draws, notation, invariants, symmetry, deal files,
puzzles checked by an independent search, hint files, and blind mode against brute force."""
import json
import random
import time
import tomllib
from functools import lru_cache
from itertools import combinations, permutations
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from blind_oracle import blind_value, every_order
from conftest import PUZZLES, fixed_line, random_line, random_position
from solodeck.solvers.plan import BlindPlan
from solodeck import cards as C
from solodeck.api import Deal, advance_chance
from solodeck.deals import load_deal
from solodeck.errors import MoveError
from solodeck.games.sandwich.blind import count_sandwiches, outs, rule_move
from solodeck.games.sandwich.rules import SUIT_PERMS, VALUE_MAPS, State, image_table, is_sandwich, parse_move
from solodeck.registry import get_game
from solodeck.solvers import DepthFirstSolver, Limits
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.episode import play_episode
from solodeck.solvers.blind import BlindPolicy, RulePolicy, exact_rows, solve_blind
from solodeck.solvers.rollouts import estimated_rows
from solodeck.shuffle import SplitMix64

GAME = get_game("sandwich")
PERFT = Path(__file__).parent / "data" / "sandwich_move_counts.json"


def cards(text):
    return C.parse_cards(text)


def state(hand, deck="", draw=0):
    return State(cards(hand), tuple(cards(deck)), draw)


def move(text):
    return parse_move(text)


# -- the rule text's examples ---------------------------------------------------------------
def test_the_texts_valid_sandwiches():
    hand = state("AC 3C 5C 8S QS 3S 8H 8D")  # the text's hand ("arranged in order"), plus 8D
    legal = set(hand.legal_moves())
    for text in ("AC 3C 5C",   # difference 2
                 "8S QS 3S",   # difference 4, looping Q-K-A-2-3
                 "8H 8S 8D"):  # difference 0
        assert is_sandwich(*cards(text)) and move(text) in legal


def test_the_texts_invalid_sandwich_and_others():
    assert not is_sandwich(*cards("8H TH 8D"))  # "steps must be increasing"
    assert not is_sandwich(*cards("AS 2S 4S")) and not is_sandwich(*cards("8S 8H 9D"))
    # "more than six steps ... 8, 2, 9 can be rearranged into 9, 2, 8": a sandwich either way
    assert is_sandwich(*cards("8S 2H 9D")) and is_sandwich(*cards("KS AH 2D"))


def test_every_value_triple_against_the_definition():
    """A triple is a sandwich iff some order x, y, z has y - x = z - y (mod 13)."""
    for a in range(1, 14):
        for b in range(1, 14):
            for c in range(1, 14):
                want = any((y - x) % 13 == (z - y) % 13 for x, y, z in permutations((a, b, c)))
                got = is_sandwich(C.make_card(a, "S"), C.make_card(b, "H"), C.make_card(c, "D"))
                assert got == want, (a, b, c)


@pytest.mark.parametrize("hand, discard, drawn", [
    ("AC 3C 5C 7H 9D", "AC 3C 5C", 4),   # one suit: four
    ("8S QS 3C 7H 9D", "8S QS 3C", 3),   # one colour, two suits: three
    ("8H 8S 8D 7H 9D", "8H 8S 8D", 2),   # mixed colours: two
    ("AC 3C 5C 7H 9D KD 2H 4D", "AC 3C 5C", 3),  # eight in hand: the fourth card is ignored
    ("AC 3C 5C 7H 9D KD 2H", "AC 3C 5C", 4),     # seven in hand: four fit
])
def test_draw_counts_and_the_hand_limit(hand, discard, drawn):
    deck = "2S 3S 4S 5S 6S 7S"
    before = state(hand, deck)
    after = before.play(move(discard))
    assert after.is_chance() and after.draw == drawn
    dealt = after.apply_chance(after.dealt_outcome())
    assert dealt.hand == (before.hand - set(cards(discard))) | set(cards(deck)[:drawn])
    assert dealt.deck == tuple(cards(deck)[drawn:]) and len(dealt.hand) <= 8


def test_the_last_card_wins_and_play_continues():
    before = state("AC 3C 5C 7H 9H JH", "2D")  # one card left: a same-suit sandwich draws only it
    after = advance_chance(before.play(move("AC 3C 5C")))
    assert after.deck == () and sorted(after.hand) == sorted(cards("7H 9H JH 2D"))
    assert after.outcome() is None  # a win, but 7H 9H JH is still a sandwich: play continues
    final = after.play(move("7H 9H JH"))
    assert final.outcome().won and final.outcome().score == 1  # perfect


def test_losses_and_scores():
    assert not state("AS 2S 5S 7H", "KD").outcome().won        # no sandwich, cards in the deck: lost
    assert state("AS 2S 5S 7H").outcome().won                    # no sandwich, deck gone: won with 4
    assert state("AS 2S 5S 7H").outcome().score == 4
    assert not state("AS 2S", "3S 4S").outcome().won             # two cards cannot make a sandwich
    assert state("AS 3S 5S 7S", "").score_bound() == 1
    assert state("AS 3S 5S 7S", "KD KC").score_bound() == 0      # (hand + deck) mod 3


def test_initial_state_deals_eight():
    deal = GAME.new_deal(5)
    start = GAME.initial_state(deal)
    assert sorted(start.hand) == sorted(deal.piles["deck"][:8]) and start.deck == tuple(deal.piles["deck"][8:])
    assert not start.is_chance() and start.score_bound() == 1


# -- notation ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, canonical", [
    ("sandwich 3C 5C AC", "sandwich AC 3C 5C"),
    ("8♠ q♠ 3s", "sandwich 3S 8S QS"),
    ("Sandwich 8h, 8s, 8d", "sandwich 8S 8H 8D"),
    ("sandwich 10C JC QC", "sandwich TC JC QC"),
])
def test_notation_round_trips(text, canonical):
    m = parse_move(text)
    assert str(m) == canonical and parse_move(str(m)) == m


@pytest.mark.parametrize("bad", ["sandwich", "sandwich AC 3C", "sandwich AC 3C 5C 7C", "sandwich AC AC 3C",
                                 "sandwich AC 3C XX", "sandwich JK AC 3C", "place 1,0"])
def test_bad_move_text(bad):
    with pytest.raises(MoveError):
        parse_move(bad)


# -- invariants under random play ----------------------------------------------------------
def check_invariants(s, discarded):
    assert len(s.hand) + len(s.deck) + len(discarded) == 52
    assert not (s.hand & set(s.deck)) and not (s.hand & discarded) and not (set(s.deck) & discarded)
    assert len(s.hand) <= 8
    assert (len(s.hand) + len(s.deck)) % 3 == 1  # 52 = 1 (mod 3), and every turn removes three


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_random_play_keeps_the_cards_sandwiches_and_draws(seed, choices):
    """Cards conserved, at most 8 in hand, every sandwich listed and only sandwiches, the draw by
    suits and colours within the hand limit, a win exactly when the deck is gone (the contract
    test checks the moves, keys and the end of random play for every game)."""
    line = random_line(GAME, seed, choices)
    discarded = set()
    for s, m in line.steps:
        check_invariants(s, discarded)
        assert len(s.legal_moves()) == count_sandwiches(s.hand)
        assert all(is_sandwich(*move.cards) for move in s.legal_moves())
        suits = {c // 13 for c in m.cards}
        expected = 4 if len(suits) == 1 else 3 if len({C.is_red(c) for c in m.cards}) == 1 else 2
        assert s.play(m).draw == min(expected, 8 - (len(s.hand) - 3), len(s.deck))
        discarded |= set(m.cards)
    s = line.final
    check_invariants(s, discarded)
    outcome = s.outcome()
    assert outcome.won == (not s.deck)
    assert not outcome.won or outcome.score == len(s.hand) and outcome.score % 3 == 1


# -- symmetry ------------------------------------------------------------------------------------
def test_the_symmetry_groups():
    colours = lambda p: {frozenset(p[s] for s in (0, 3)), frozenset(p[s] for s in (1, 2))}  # noqa: E731
    assert len(set(SUIT_PERMS)) == 8 and all(colours(p) == {frozenset((0, 3)), frozenset((1, 2))} for p in SUIT_PERMS)
    assert len(set(VALUE_MAPS)) == 156


def image(s, a, b, perm):
    t = image_table(a, b, perm)
    return State([t[c] for c in s.hand], tuple(t[c] for c in s.deck), s.draw)


def random_positions(n, rng, steps=(0, 14)):
    return [random_position(GAME, 100 + seed, rng, rng.randint(*steps)) for seed in range(n)]


def test_symmetric_positions_share_keys_moves_and_values():
    rng = random.Random(6)
    for s in random_positions(12, rng) + [state("AC 3C 5C 8S QS 3S 8H"), state("2S 3H 4D 5C 9S")]:
        value = DepthFirstSolver(GAME).value(s)
        for _ in range(6):
            a, b = rng.choice(VALUE_MAPS)
            other = image(s, a, b, rng.choice(SUIT_PERMS))
            assert other.key() == s.key()
            assert sorted(map(draw_of, other.legal_moves())) == sorted(map(draw_of, s.legal_moves()))
            assert DepthFirstSolver(GAME).value(other) == value


def draw_of(m):
    return len({c // 13 for c in m.cards}), len({C.is_red(c) for c in m.cards})


def test_different_positions_have_different_keys():
    # the key is an image of the position, so only symmetric positions can share it
    a, b = state("AS 2S 3S 9H", "5D 6D"), state("AS 2S 3S 9H", "6D 5D")
    assert a.key() != b.key()
    assert state("AS 2S 3S").key() != state("AS 2S 4S").key()
    assert state("AS 2S 3S").key() == state("5H 7H 9H").key() and state("AS 2S 3S").key() == state("KD QD JD").key()


# -- deal files ----------------------------------------------------------------------------------
def test_deal_file_errors(tmp_path, cli):
    path = tmp_path / "d.toml"
    full = C.format_cards(C.standard_deck())
    for body, message in [
        ('deck = "AS 2S"', "expected 52 cards"),
        (f'deck = "{full} AS"', "twice"),
        (f'deck = "{full.replace("KC", "XX")}"', "is not a card"),
        ('[position]\nhand = "AS 2S 3S 4S 5S 6S 7S 8S 9S"', "at most 8"),
        ('[position]\nhand = "AS 2S 3S"\ndeck = "4S AS"', "appears twice"),
        ('[position]\nhand = "AS 2S JK"', "no joker"),
        ('[position]\ndeck = "AS 2S"', "missing"),
        ('[position]\nhand = "AS 2S 3S"\nplayed = 3', "unknown field"),
        ('[position]\nhand = ["AS"]', "expected a string"),
        ('[position]\nhand = "AS 2S 1S"', "card 3"),
    ]:
        path.write_text(f'game = "sandwich-guy"\n{body}\n')
        proc = cli("solve", path)
        assert proc.returncode == 2 and message in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
        assert str(path) in proc.stderr


def test_position_and_seed_deals():
    s = GAME.initial_state(Deal("sandwich-guy", position={"hand": "ac 3♣ 5C", "deck": "KD, 2H"}))
    assert s.hand == frozenset(cards("AC 3C 5C")) and s.deck == tuple(cards("KD 2H")) and not s.draw
    assert GAME.new_deal(7).piles == GAME.new_deal(7).piles != GAME.new_deal(8).piles


# -- the move-count regression ---------------------------------------------------------------
def fixed_line_move_counts(seed):
    """The legal-move count at each decision along a fixed line (move index 5 * ply mod n)."""
    return fixed_line(GAME, seed)[0]


def test_move_count_regression():
    """Perft-style: the legal-move counts along fixed seeded lines must not change."""
    expected = json.loads(PERFT.read_text())
    assert len(expected) >= 8
    for entry in expected:
        assert fixed_line_move_counts(entry["seed"]) == entry


# -- puzzles, cross-checked by an independent search ------------------------------------------
RANK = {c: C.rank_of(c) for c in range(52)}
SUIT = {c: C.suit_of(c) for c in range(52)}


def oracle(hand, deck):
    """Best final hand size from (hand, deck) with the deck's order known, or None if every line
    loses. Written from the rule text alone: no engine code, no bounds; a plain memo on (hand,
    cards drawn) (open mode draws from the top, so the deck left is a suffix)."""

    def sandwich(x, y, z):
        return any((RANK[q] - RANK[p]) % 13 == (RANK[r] - RANK[q]) % 13 for p, q, r in permutations((x, y, z)))

    def drawn(triple):
        suits = {SUIT[c] for c in triple}
        if len(suits) == 1:
            return 4
        return 3 if suits <= {"S", "C"} or suits <= {"H", "D"} else 2

    @lru_cache(maxsize=None)
    def best(hand, at):
        scores = []
        for triple in combinations(sorted(hand), 3):
            if sandwich(*triple):
                rest = hand - frozenset(triple)
                n = min(drawn(triple), 8 - len(rest), len(deck) - at)
                scores.append(best(rest | frozenset(deck[at:at + n]), at + n))
        if not scores:
            return len(hand) if at == len(deck) else None
        wins = [s for s in scores if s is not None]
        return min(wins) if wins else None

    return best(frozenset(hand), 0)


def puzzle_files():
    return sorted((PUZZLES / "sandwich-guy").glob("*.toml"))


def puzzle_params():
    # a whole deal takes the exhaustive oracle over a minute: behind -m slow
    return [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem.startswith("seed-") else [])
            for p in puzzle_files()]


@pytest.mark.parametrize("path", puzzle_params())
def test_puzzles_agree_with_the_independent_search(path):
    meta = tomllib.loads(path.read_text())["meta"]
    s = GAME.initial_state(load_deal(path))
    expected = oracle(s.hand, s.deck)
    assert meta["verdict"] == ("unwinnable" if expected is None else "winnable")
    if expected is not None:
        assert meta["score"] == expected


@pytest.mark.slow
@pytest.mark.parametrize("path", puzzle_params())
def test_puzzles_agree_with_the_unpruned_generic_search(path):
    meta = tomllib.loads(path.read_text())["meta"]
    unpruned = DepthFirstSolver(GAME, prune=False).solve(GAME.initial_state(load_deal(path)))
    assert unpruned.verdict == meta["verdict"] and unpruned.score == meta.get("score")


def test_a_puzzle_has_a_proven_best_that_is_not_perfect():
    # (both verdicts among the puzzles: tests/test_puzzles.py, for every game)
    metas = [tomllib.loads(p.read_text())["meta"] for p in puzzle_files()]
    assert any(m.get("score", 1) > 1 for m in metas)


def test_open_mode_agrees_with_the_oracle_on_seeded_positions():
    rng = random.Random(11)
    for s in random_positions(12, rng, steps=(8, 12)):  # about 20 cards left in the deck
        if s.outcome() is not None:
            continue
        result = DepthFirstSolver(GAME).solve(s)
        assert result.exact and result.score == oracle(s.hand, s.deck)
        if result.score is not None:
            assert GAME.replay_moves(s, result.line).outcome().score == result.score


# -- hint files ---------------------------------------------------------------------------------
def test_open_hint_files_validate_and_verify(cli, tmp_path):
    deal = PUZZLES / "sandwich-guy" / "four-left.toml"
    hints = tmp_path / "h.json"
    proc = cli("solve", deal, "--hints", hints, "--quiet")
    assert proc.returncode == 0 and "cards left in hand: 4 (proven best)" in proc.stdout, proc.stderr
    data = json.loads(hints.read_text())
    assert data["exact"] and data["score"] == 4 and data["decisions"]
    assert cli("verify", deal, hints).returncode == 0
    data["score"] = 1
    hints.write_text(json.dumps(data))
    assert cli("verify", deal, hints).returncode == 1
    lost = PUZZLES / "sandwich-guy" / "lost-3.toml"
    proc = cli("solve", lost, "--hints", hints, "--quiet")
    assert "unwinnable" in proc.stdout and cli("verify", lost, hints).returncode == 0


# -- blind mode ---------------------------------------------------------------------------------
def endgame(rng, hand_size, deck_size):
    """A random decision position: ``hand_size`` cards in hand, ``deck_size`` in the deck."""
    deck = list(range(52))
    rng.shuffle(deck)
    return State(deck[:hand_size], tuple(deck[hand_size:hand_size + deck_size]))


def draw_set(s, order):
    """Sandwich draws ``s.draw`` cards at once: the chance outcome is the set on top of the order
    (sorted, as apply_chance takes it), not its first card, so the orders are grouped by that set."""
    return tuple(sorted(order[:s.draw])), order[s.draw:]


def blind_cases(n, deck_size, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = endgame(rng, rng.randint(3, 6), deck_size)  # small hands: the draws decide
        if s.legal_moves():
            out.append(s)
    return out


@pytest.mark.parametrize("deck_size", [3, 4, 5])
def test_blind_values_equal_the_brute_force_over_every_order(deck_size):
    positive = 0
    for s in blind_cases(8, deck_size, seed=deck_size):
        # lower: among equal win chances, fewer cards left in hand is better
        expected = blind_value(s, every_order(s.deck), draw=draw_set, lower=True)
        got = ExpectimaxSolver(GAME).value(s)
        assert got == pytest.approx(expected, abs=1e-9), str(s)
        positive += 0 < got[0] < 1
    assert positive >= 1  # not only certain wins and hopeless positions


def test_sampled_draws_are_uniform_sets_and_ignore_the_deck_order():
    s = state("AS 2S 3S", "4H 5H 6H 7H 8H", draw=2)
    counts = {}
    for i in range(2000):
        drawn = s.sample_chance(SplitMix64(i))
        assert len(drawn) == 2 and set(drawn) <= set(s.deck)
        counts[drawn] = counts.get(drawn, 0) + 1
    assert len(counts) == 10 and all(150 < c < 250 for c in counts.values())  # C(5, 2) sets, ~200 each
    reordered = State(s.hand, tuple(reversed(s.deck)), 2)
    assert all(reordered.sample_chance(SplitMix64(i)) == s.sample_chance(SplitMix64(i)) for i in range(50))
    assert sorted(o for o, _w in s.chance_outcomes()) == sorted(counts) and {w for _o, w in s.chance_outcomes()} == {1}


def test_blind_solve_and_hint_files(cli, tmp_path):
    deal = tmp_path / "endgame.toml"
    deal.write_text('game = "sandwich-guy"\n[position]\nhand = "AC 3C 5C 8S QS 3S 8H"\ndeck = "8D 2H 9C KS"\n')
    hints = tmp_path / "h.json"
    proc = cli("solve", deal, "--mode", "blind", "--hints", hints, "--quiet")
    assert proc.returncode == 0 and "(exact)" in proc.stdout, proc.stderr
    data = json.loads(hints.read_text())
    assert data["mode"] == "blind" and data["status"] == "solved"
    assert cli("verify", deal, hints).returncode == 0
    data["decisions"][0]["played"] = data["decisions"][0]["moves"][-1]["move"]
    hints.write_text(json.dumps(data))
    assert cli("verify", deal, hints).returncode == 1


def test_blind_mode_prefers_fewer_cards_left(monkeypatch):
    """With the deck gone, blind and open coincide: among wins the best move leaves the fewest
    cards, in the exact ranking and in the rollout estimator's when it values every move (the
    blind policy values only the rule's own move and keeps to it: SandwichGuy.blind_plan)."""
    every_move = BlindPlan()
    rng = random.Random(12)
    checked = 0
    for _ in range(40):
        s = endgame(rng, 7, 0)
        scores = {m: oracle(s.play(m).hand, ()) for m in s.legal_moves()}
        if len(set(scores.values())) < 2:
            continue
        checked += 1
        exact = exact_rows(GAME, s, Limits())
        assert exact[0]["expected_score"] == min(scores.values())
        assert [r["expected_score"] for r in exact] == sorted(scores.values())
        assert estimated_rows(GAME, s, 4, plan=every_move)[0]["expected_score"] == min(scores.values())
    assert checked >= 3


def test_limits_are_never_answers_and_estimates_say_so():
    s = GAME.initial_state(GAME.new_deal(0))  # 44 cards to come: far beyond an exact tree
    start = time.perf_counter()
    result = ExpectimaxSolver(GAME, Limits(max_states=500)).solve(s)
    assert result.status == "memory-limit" and not result.exact and result.verdict == "unknown"
    assert time.perf_counter() - start < 5  # C(44, 4) draws are never listed under a small budget
    assert ExpectimaxSolver(GAME, Limits(time_limit=0.2)).solve(s).status == "timeout"
    estimate = solve_blind(GAME, s, Limits(max_states=500), samples=8)
    assert estimate.status == "estimated" and not estimate.exact and estimate.samples == 8
    assert estimate.interval[0] <= estimate.win_probability <= estimate.interval[1]


def test_blind_rule_counts_outs_of_one_colour_and_suit():
    """A and 3 complete with 5, Q or 2 (A-3-5, Q-A-3, A-2-3). Kept AH 3H (one suit) and 7S: an
    unseen 5H completes them in their suit (2 + 1), 5D in their colour (2), 2H in their suit,
    QS only across colours (0); 7S pairs with nothing of its colour."""
    unseen = [[0] * 13 for _suit in range(4)]
    for card in cards("5H 5D 2H QS 9C"):
        unseen[card // 13][card % 13] += 1
    assert outs(cards("AH 3H 7S"), unseen) == 3 + 2 + 3
    assert outs(cards("AH 3D 7S"), unseen) == 2 + 2 + 2  # one colour, two suits: no suit outs
    assert outs(cards("AH 3S 7D"), unseen) == 0


def test_blind_rule_sees_only_the_unseen_set_and_the_policy_values_its_move():
    s = GAME.initial_state(GAME.new_deal(5))
    shuffled = list(s.deck)
    random.Random(1).shuffle(shuffled)
    assert rule_move(State(s.hand, tuple(shuffled))) == rule_move(s)
    rows = BlindPolicy(GAME, samples=16).rank(s)
    assert rows[0]["move"] == rule_move(s) and rows[0]["samples"] == 16
    assert len(rows) == len(s.legal_moves()) and all(r["win_probability"] is None for r in rows[1:])
    full = state("AS 3S 5S 7S 9S 8H 2D", "KS 4S 6H TC QD")  # 7 in hand: one suit draws 4, back to 8
    assert len({c // 13 for c in rule_move(full).cards}) == 1


def test_analysis_values_every_move_and_still_plays_the_rule():
    """Hint files and `solve --mode blind` roll out every move for its estimate; the rule's move
    stays first (the move played), with the policy's numbers, even where a noisy estimate of
    another move is higher (seed 0: 13 of 16 draws for it, 15 for two others)."""
    s = GAME.initial_state(GAME.new_deal(0))
    played = BlindPolicy(GAME, samples=16).rank(s)[0]
    rows = BlindPolicy(GAME, samples=16, every_move=True).rank(s)
    assert rows[0] == played and played["move"] == rule_move(s)
    assert sorted(r["move"] for r in rows) == sorted(s.legal_moves())
    assert all(r["samples"] == 16 for r in rows)
    rest = [r["win_probability"] for r in rows[1:]]
    assert rest == sorted(rest, reverse=True) and max(rest) > played["win_probability"]
    first = solve_blind(GAME, s, Limits(max_states=500), samples=16)
    assert first.line == [rule_move(s)] and all(r["win_probability"] is not None for r in first.ranked)


def test_exact_endgame_from_five_cards_in_the_deck():
    """The blind policy's exact attempt grows to 20,000 states once the deck holds 5 cards
    (SandwichGuy.blind_plan's exact_states): there it is exact where the default 500 is not."""
    decisions, _final = play_episode(GAME.initial_state(GAME.new_deal(3)), RulePolicy(GAME))
    five = next(d.state for d in decisions if len(d.state.deck) == 5)
    plan = GAME.blind_plan()
    assert plan.exact_states_at(five, False) == 20_000 and plan.exact_states_at(decisions[0].state, False) == 500
    assert BlindPolicy(GAME, samples=4).rank(five)[0]["exact"]
    assert not BlindPolicy(GAME, samples=4, exact_limits=Limits(max_states=500)).rank(five)[0]["exact"]


def test_play_command(cli):
    proc = cli("play", "sandwich", "--seed", 2, "--policy", "baseline", "--json")
    assert proc.returncode == 0, proc.stderr
    game = json.loads(proc.stdout)
    final = GAME.replay(GAME.new_deal(2), game["moves"])
    assert final.outcome().won == game["won"]


if __name__ == "__main__":  # regenerate the regression file (only after a deliberate rules change)
    PERFT.write_text(json.dumps([fixed_line_move_counts(s) for s in range(8)], indent=1) + "\n")


def test_blind_searches_store_the_same_states_for_positions_a_player_cannot_tell_apart():
    """Two positions that differ only in the order of the unseen deck have the same view, and the
    blind policy's exact attempt stores as many states in both (an audit found the open key's
    symmetry, chosen from the deck's order, splitting them)."""
    from solodeck.solvers.expectimax import ExpectimaxSolver

    game = get_game("sandwich-guy")
    rng = random.Random(11)
    compared = 0
    for seed in range(8):
        state = advance_chance(game.initial_state(game.new_deal(seed)))
        for _ in range(rng.randrange(1, 4)):
            if state.outcome() is not None or not state.legal_moves():
                break
            state = advance_chance(state.play(rng.choice(state.legal_moves())))
        if state.outcome() is not None or len(state.deck) < 2:
            continue
        deck = list(state.deck)
        rng.shuffle(deck)
        twin = State(state.hand, tuple(deck), state.draw)
        assert twin.view() == state.view()
        counts = []
        for position in (state, twin):
            solver = ExpectimaxSolver(game, Limits(max_states=2_000))
            solver.solve(position)
            counts.append(solver.unique_states if hasattr(solver, "unique_states") else len(solver.table))
        assert counts[0] == counts[1]
        compared += 1
    assert compared >= 4
