"""Frozen Novelty played blind: the player sees the face-up cards and the backs of the face-down
ones (docs/rules/frozen-novelty.md, "Blind mode"). The view, the chance node where a card is
turned over, the sampler of worlds against enumeration, exact blind values against an
independent brute force, the determinized policy and the baseline, and the command line."""
import itertools
import json
from dataclasses import replace

import pytest

from blind_oracle import world_set_value
from conftest import run_cli

from solodeck import cards as C
from solodeck.api import advance_chance
from solodeck.deals import deal_from_data
from solodeck.games.frozen_novelty.blind import blind_preference
from solodeck.games.frozen_novelty.rules import State, card_of, is_up
from solodeck.registry import get_game
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from solodeck.solvers import solve_open
from solodeck.solvers.determinized import Determinizer
from solodeck.solvers.episode import play_episode
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.blind import BaselinePolicy, BlindPolicy

GAME = get_game("frozen-novelty")


def position(pos, variant="standard", backs=""):
    deal = deal_from_data({"game": "frozen-novelty", "options": {"variant": variant, "backs": backs},
                           "position": pos}, "test.toml")
    return GAME.initial_state(deal)


def card(text):
    return C.parse_card(text)


def hidden_places(state):
    return [(j, d) for j, s in enumerate(state.stacks) for d, c in enumerate(s) if not is_up(c)]


def every_world(state):
    """Every assignment of the hidden cards to the face-down places that shows the same backs,
    found by trying all permutations (independent of sample_world)."""
    places = hidden_places(state)
    cards = [card_of(state.stacks[j][d]) for j, d in places]
    backs = state.rules.backs
    worlds = set()
    for perm in itertools.permutations(cards):
        if all(backs[a] == backs[b] for a, b in zip(perm, cards)):
            stacks = [list(s) for s in state.stacks]
            for (j, d), c in zip(places, perm):
                stacks[j][d] = c * 2
            worlds.add(State(state.rules, tuple(map(tuple, stacks)), state.found, state.pending))
    return sorted(worlds, key=lambda w: w.stacks)


# Two spades face down (6S, 8S: both backs show spades and hearts), the rest of the spades face up.
SMALL = {"D1": "(6S)", "D2": "(8S)", "U1": "9S TS JS QS KS", "U2": "7S", "foundations": "5S KH KD KC"}
# Three face-down cards with one back (4S 6S 8S) and one with its own (KS shows four suits).
THREE = {"D1": "(4S) (KS)", "D2": "(6S)", "D3": "(8S)", "U1": "9S TS JS QS", "U2": "7S", "U3": "5S",
         "foundations": "3S KH KD KC"}


# -- the view ---------------------------------------------------------------------------------------
def test_the_view_shows_backs_not_faces():
    state = position(THREE)
    swapped = position({**THREE, "D2": "(4S)", "D1": "(6S) (KS)"})  # two faces with one back trade places
    assert swapped.key() != state.key() and swapped.view() == state.view()
    other_back = position({**THREE, "D1": "(KS) (4S)"})  # the four-suit back is now on top
    assert other_back.view() != state.view()
    text = state.seen_text()  # standard: the buried king's back is not seen yet
    assert "D1: [?] [SH]" in text and "[SHDC]" not in text and "4S" not in text and "(4S)" in str(state)
    assert "D1: [SHDC] [SH]" in position(THREE, "easy").seen_text()  # easy: every back, any time


def test_plain_backs_show_four_suits_and_hide_even_the_suit():
    state = position(THREE, backs="plain")
    assert set(state.rules.backs) == {15}
    assert position({**THREE, "D1": "(KS) (4S)"}, backs="plain").view() == state.view()


# -- turning a card over ----------------------------------------------------------------------------
def test_turning_a_card_over_is_a_chance_node_over_the_unseen_cards_with_its_back():
    state = position(THREE)
    turning = state.play(GAME.parse_move("flip D1"))
    assert turning.is_chance() and turning.dealt_outcome() == card("4S")
    outcomes = turning.chance_outcomes()
    assert outcomes == [(card("4S"), 1), (card("6S"), 1), (card("8S"), 1)]  # not KS: another back
    for face, _weight in outcomes:
        after = turning.apply_chance(face)
        assert after.stacks[0][-1] == face * 2 + 1 and not after.is_chance()
        assert sorted(after.hidden_cards()) == sorted(set(state.hidden_cards()) - {face})
        assert after.view() != state.view() and after in {after} and len(every_world(after)) == 2
    with pytest.raises(Exception):
        turning.apply_chance(card("KS"))  # its back shows four suits: it cannot be under a two-suit back


def test_open_mode_takes_the_dealt_face():
    state = advance_chance(position(THREE).play(GAME.parse_move("flip D2")))
    assert state.stacks[1] == (card("6S") * 2 + 1,)


# -- worlds -----------------------------------------------------------------------------------------
def test_sampled_worlds_are_uniform_among_the_consistent_ones():
    state = position(THREE)
    worlds = every_world(state)
    assert len(worlds) == 6  # 3! ways for the three two-suit backs, one for the king
    counts = {w.stacks: 0 for w in worlds}  # not key(): it folds twin stacks
    n = 6000
    for seed in range(n):
        world = state.sample_world(SplitMix64(seed))
        assert world.view() == state.view()
        counts[world.stacks] += 1  # a KeyError would be a world that does not fit the view
    expected = n / len(worlds)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5, counts  # 5 degrees of freedom: exceeded with probability 0.001 if uniform


def test_a_world_brought_through_a_reveal_stays_consistent():
    state = position(THREE)
    world = state.sample_world(SplitMix64(3))
    turning = world.play(GAME.parse_move("flip D1"))
    for face, _w in turning.chance_outcomes():
        after = turning.apply_chance(face)
        real = position(THREE).play(GAME.parse_move("flip D1")).apply_chance(face)
        assert after.view() == real.view()


# -- exact blind values -----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["standard", "very-hard"])
def test_exact_blind_values_equal_brute_force_over_the_worlds(variant):
    """Every move's blind value from ExpectimaxSolver against value iteration over the sets of
    worlds still possible (tests/blind_oracle.py), and open play bounds blind play."""
    state = position(SMALL, variant)
    worlds = every_world(state)
    root, per_move = world_set_value(worlds, per_move=True)
    solver = ExpectimaxSolver(GAME)
    ranked = dict(solver.ranked_moves(state))
    assert set(ranked) == set(per_move)
    for move, value in per_move.items():
        assert ranked[move] == pytest.approx(value, abs=1e-12), move
    assert solver.value(state) == pytest.approx(root, abs=1e-12)
    open_rate = sum(solve_open(GAME, w).verdict == "winnable" for w in worlds) / len(worlds)
    assert open_rate >= root[0] - 1e-12


# -- policies ---------------------------------------------------------------------------------------
def test_the_baseline_ends_every_game_and_never_moves_a_card_back():
    for seed in range(20):
        decisions, final = play_episode(GAME.initial_state(GAME.new_deal(seed)), BaselinePolicy(GAME))
        assert len(decisions) < 400
        for d in decisions:
            assert d.move.kind != "down" or (d.move.src < 4 and d.move.dst >= 8)


def test_the_blind_policy_ranks_every_legal_move_and_keeps_its_worlds_through_a_game():
    policy = BlindPolicy(GAME, samples=4)
    state = advance_chance(GAME.initial_state(GAME.new_deal(3)))
    for _ in range(25):
        rows = policy.rank(state)
        assert {r["move"] for r in rows} == set(state.legal_moves())
        valued = [r for r in rows if r["win_probability"] is not None]
        assert valued and all(r["estimator"] == "determinized" and r["samples"] == 4 for r in valued)
        state = advance_chance(state.play(rows[0]["move"]))
    assert policy.estimator.drawn == 1  # drawn once, then brought along move by move


def test_solve_blind_and_play_on_the_command_line(tmp_path):
    deal = tmp_path / "small.toml"
    deal.write_text('game = "frozen-novelty"\n[options]\nvariant = "very-hard"\n[position]\n'
                    + "".join(f'{k} = "{v}"\n' for k, v in SMALL.items()))
    out = run_cli("solve", str(deal), "--mode", "blind", "--time-limit", "120", check=True).stdout
    assert "sees the face-up cards and the backs" in out and "(exact)" in out
    out = run_cli("solve", str(deal), "--mode", "blind", "--time-limit", "120", "--json", check=True).stdout
    assert json.loads(out)["exact"] is True
    seeded = tmp_path / "seeded.toml"
    seeded.write_text('game = "frozen-novelty"\nseed = 5\n')
    out = run_cli("solve", str(seeded), "--mode", "blind", "--samples", "2", "--time-limit", "0.2", check=True).stdout
    assert "sampled worlds" in out and "upper estimate" in out
    out = run_cli("play", "frozen-novelty", "--seed", "1", "--policy", "baseline", check=True).stdout
    assert "[S" in out and "result:" in out


# -- which backs the player sees (RULINGS.md, Frozen Novelty: the revised ruling) ---------------------
def shown_backs(picture):
    """The backs a picture shows, pile by pile (None: a face-down card whose back is not shown)."""
    return [[c.get("back") for c in pile["cards"] if c.get("down")] for pile in picture["piles"]]


@pytest.mark.parametrize("variant, backs", [("standard", 4), ("hard", 4), ("very-hard", 4),
                                             ("very-easy", 52), ("easy", 52)])
def test_a_fresh_deal_shows_the_backs_the_ruling_lets_the_player_see(variant, backs):
    """Standard, hard, very hard: the back of each Deck stack's top card, 4 in all; very easy and
    easy: "the back of any card at any time", all 52."""
    for seed in range(3):
        state = GAME.initial_state(GAME.new_deal(seed, {"variant": variant}))
        seen = [b for pile in shown_backs(state.picture(seen_only=True)) for b in pile]
        assert len(seen) == 52 and sum(b is not None for b in seen) == backs
        assert all(b is not None for pile in shown_backs(state.picture()) for b in pile)  # open: all
        assert state.seen_text().count("[?]") == 52 - backs


# D1: 4S on top, under it KS and 6S (top first); the buried two are not seen in standard.
BURIED = {"D1": "(4S) (KS) (6S)", "D2": "(8S)", "D3": "(QS)", "U1": "9S TS JS", "U2": "7S", "U3": "5S",
          "foundations": "3S KH KD KC"}


def test_a_buried_back_shows_once_its_card_reaches_the_top_and_stays_known_as_it_moves():
    state = position(BURIED)
    assert "D1: [?] [?] [SH]" in state.seen_text()
    state = state.play(GAME.parse_move("down D1 -> W1"))  # 4S off: the king comes to the top
    assert "D1: [?] [SHDC]" in state.seen_text() and "W1: [SH]" in state.seen_text()
    state = state.play(GAME.parse_move("down D2 -> W1"))  # 8S covers 4S: 4S's back stays known
    assert "W1: [SH] [SH]" in state.seen_text()
    state = state.play(GAME.parse_move("down D1 -> W2"))  # the king moves on, 6S comes up
    text = state.seen_text()
    assert "W2: [SHDC]" in text and "D1: [SH]" in text and "[?]" not in text
    state = state.play(GAME.parse_move("down D3 -> W2"))  # QS covers the king: still known
    assert "W2: [SHDC] [SHC]" in state.seen_text()
    pictured = {pile["name"]: backs for pile, backs in zip(state.picture(seen_only=True)["piles"],
                                                            shown_backs(state.picture(seen_only=True)))}
    assert pictured["W1"] == ["SH", "SH"] and pictured["W2"] == ["SHDC", "SHC"] and pictured["D1"] == ["SH"]
    assert state.blind_tree_exact()  # every back known now: the exact blind tree is the player's
    assert not position(BURIED).blind_tree_exact()
    assert "D1: [SH] [SHDC] [SH]" in position(BURIED, "easy").seen_text()  # easy: every back


def consistent_worlds(state):
    """Every assignment of the hidden cards to the face-down places that shows what the player
    sees: a known back takes a card with that back, an unseen one any card (all permutations,
    independent of sample_world)."""
    places = hidden_places(state)
    cards = [card_of(state.stacks[j][d]) for j, d in places]
    known = [state.back_known(state.stacks[j][d]) for j, d in places]
    backs = state.rules.backs
    worlds = set()
    for perm in itertools.permutations(cards):
        if all(backs[a] == backs[b] for a, b, k in zip(perm, cards, known) if k):
            stacks = [list(s) for s in state.stacks]
            for (j, d), c in zip(places, perm):
                stacks[j][d] = c * 2
            worlds.add(tuple(map(tuple, stacks)))
    return worlds


def chi2_uniform(counts):
    expected = sum(counts.values()) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts.values())


def test_sampled_worlds_draw_the_unseen_backs_too_uniformly():
    """BURIED in standard: the two buried places take any card, so the buried king's place may
    hold a spade with a two-suit back; 3 two-suit cards for 2 known two-suit places, QS fixed:
    3 * 2 * 2 = 12 worlds, each as likely. In easy every back is known: the buried places keep
    their backs and only 3! worlds remain."""
    state = position(BURIED)
    worlds = consistent_worlds(state)
    assert len(worlds) == 12
    counts = dict.fromkeys(worlds, 0)
    for seed in range(6000):
        world = state.sample_world(SplitMix64(seed))
        assert world.view() == state.view() and world.seen_text() == state.seen_text()
        counts[world.stacks] += 1  # a KeyError would be a world that does not fit the view
    assert chi2_uniform(counts) < 31.3  # 11 degrees of freedom: exceeded with probability 0.001
    easy = position(BURIED, "easy")
    assert len(consistent_worlds(easy)) == 6
    assert {easy.sample_world(SplitMix64(seed)).stacks for seed in range(300)} == consistent_worlds(easy)


def test_a_world_follows_a_back_seen_for_the_first_time_and_stays_uniform():
    """Worlds drawn before "down D1 -> W1" (which brings the buried king to the top), moved along
    and conformed to the back the real game shows, are spread as worlds drawn afresh after it:
    uniform over the consistent ones."""
    move = GAME.parse_move("down D1 -> W1")
    real = position(BURIED).play(move)
    after = consistent_worlds(real)
    assert len(after) == 6  # KS and QS fixed; 3 two-suit cards for W1, D2 (known) and the unseen place
    counts = dict.fromkeys(after, 0)
    for seed in range(4000):
        world = position(BURIED).sample_world(SplitMix64(seed)).play(move).conform(real, SplitMix64(seed, 99))
        assert world.seen_text() == real.seen_text()
        counts[world.stacks] += 1
    assert chi2_uniform(counts) < 20.5  # 5 degrees of freedom, probability 0.001


def permuted_twin(state, rng):
    """The state with its unseen faces and never-seen backs permuted, independently of
    sample_world: the cards at known backs permuted within each back, the cards at never-seen
    backs permuted among themselves (whatever their backs)."""
    backs, groups = state.rules.backs, {}
    for j, d in hidden_places(state):
        code = state.stacks[j][d]
        groups.setdefault(backs[card_of(code)] if state.back_known(code) else None, []).append((j, d))
    stacks = [list(s) for s in state.stacks]
    for places in groups.values():
        cards = [state.stacks[j][d] for j, d in places]
        for (j, d), code in zip(places, [cards[k] for k in rng.permutation(len(cards))]):
            stacks[j][d] = code
    seen = sum(1 << card_of(stacks[j][d]) for j, d in hidden_places(state) if state.back_known(state.stacks[j][d]))
    return State(state.rules, tuple(map(tuple, stacks)), state.found, state.pending, seen)


@pytest.mark.skipif(GAME.load_kernel() is None,
                    reason="the pure-Python open search takes minutes a world here (no clock may cut a "
                           "valuation); the contract's hidden-faces test runs on the reference")
def test_the_blind_policy_ignores_the_unseen_faces_and_the_never_seen_backs():
    """Standard deals a few decisions in: permuting the unseen faces and the never-seen backs
    among themselves leaves the view, the picture and the blind policy's ranking unchanged
    (each world's search has a budget in positions, so no valuation depends on the clock)."""
    import numpy as np

    moved_backs = 0
    for seed in (0,):  # one deal: each ranking solves every move in each world, with no clock (~50 s under load)
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        baseline = BaselinePolicy(GAME)
        for _ in range(6):  # a few baseline moves in, some buried backs seen, most not
            state = advance_chance(state.play(baseline(state)))
        twin = permuted_twin(state, np.random.default_rng(seed))
        assert twin.view() == state.view() and twin.seen_text() == state.seen_text()
        assert twin.picture(seen_only=True) == state.picture(seen_only=True)
        moved_backs += shown_backs(twin.picture()) != shown_backs(state.picture())
        rows = BlindPolicy(GAME, samples=2).rank(state)
        again = BlindPolicy(GAME, samples=2).rank(twin)
        assert again == rows, state.seen_text()
        assert baseline(twin) == baseline(state)
    assert moved_backs == 1  # the twin does differ in backs the player has not seen


def test_flips_are_preferred_only_where_the_backs_tell_something():
    """A flip is preferred by the chance its face is playable at once, computed from its back;
    with plain backs (all alike) that says nothing, and flips get no preference."""
    flips = {}
    for backs in ("", "plain"):
        state = advance_chance(GAME.initial_state(GAME.new_deal(3, {"backs": backs})))
        baseline = BaselinePolicy(GAME)
        prefs = []
        for _ in range(30):
            moves = state.legal_moves()
            if not moves or state.outcome() is not None:
                break
            prefs += [blind_preference(state, m) for m in moves if m.kind == "flip"]
            state = advance_chance(state.play(baseline(state) or moves[0]))
        flips[backs] = prefs
    assert flips[""] and max(flips[""]) > 1.0
    assert flips["plain"] and set(flips["plain"]) == {0.0}


def test_worlds_put_the_blind_preference_first_and_it_reads_only_the_view():
    """The determinizer orders each world's moves for its tie-break by the blind preference
    first (the same in every world with the view: it reads no hidden face and no unseen back),
    then by the open search's own order in that world."""
    state = advance_chance(GAME.initial_state(GAME.new_deal(3)))
    baseline = BaselinePolicy(GAME)
    for _ in range(6):
        state = advance_chance(state.play(baseline(state)))
    wanted = {m: blind_preference(state, m) for m in state.legal_moves()}
    assert 2.0 in wanted.values()  # a move that shows a back never seen
    worlds = [state.sample_world(SplitMix64(i)) for i in range(4)]
    for world in worlds:
        assert {m: GAME.blind_plan().preference(world, m) for m in world.legal_moves()} == wanted
    for world in worlds[:1]:  # one world: the Borda count is that world's order
        order = Determinizer(GAME, replace(GAME.blind_plan(), samples=1), 0).candidates(state, [world])
        prefs = [wanted[m] for m in order]
        assert prefs == sorted(prefs, reverse=True)
        same = [m for m in order if wanted[m] == prefs[-1]]
        assert same == [m for m in world.search_moves() if m in same]  # then the open search's order
