"""Hide and Seek (Isaludo): the rule text as tests, the seeded grid, positions, the searches
against the plain reference, blind mode's view and sampling, the move-count regression, the CLI."""
import json
import random
from collections import Counter
from fractions import Fraction
from itertools import permutations, product
from pathlib import Path

import pytest

from conftest import fixed_line_record
from solodeck import cards as C
from solodeck.api import Deal, Outcome, advance_chance
from solodeck.deals import deal_from_data, load_deal
from solodeck.errors import DealError, MoveError
from solodeck.games.hide_and_seek import GAME
from solodeck.games.hide_and_seek.blind import KERNEL_KINDS, RULE_THRESHOLDS, _kernel_view
from solodeck.games.hide_and_seek.position import position_form
from solodeck.games.hide_and_seek.rules import (SPACE_CELLS, Move, assignments, cell_odds, consistent, face_card,
                                                face_index, parse_move, rule_move, seeded_grid, space_live, suit_odds)
from solodeck.games.hide_and_seek.search import CanonicalSolver, KernelSolver
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from solodeck.solvers import solve_open
from solodeck.solvers.rollouts import rollout_stats

COUNTS = Path(__file__).parent / "data" / "hide_and_seek_move_counts.json"
GRID = "JH QD KC QC QS KS QH KH KD JC JS JD"  # seed 0's grid: columns JH QS KD, QD KS JC, KC QH JS, QC KH JD


def position(playmates=" ".join(f"({w})" for w in GRID.split()), spaces="", deck=None, score="", discard=""):
    """A [position] state; the deck defaults to every number card not given elsewhere."""
    given = set(C.parse_cards(" ".join(w.split("=")[-1] for w in spaces.split()) + " " + score + " " + discard))
    if deck is None:
        deck = " ".join(C.format_card(c) for c in C.standard_deck(number_cards_only=True) if c not in given)
    table = {"playmates": playmates, "spaces": spaces, "deck": deck, "score": score, "discard": discard}
    return GAME.initial_state(Deal(GAME.name, {}, None, {}, table, "test.toml"))


def play(state, *texts):
    for text in texts:
        state = advance_chance(state.play(parse_move(text)))
    return state


def all_cards_but(*cards):
    skip = set(C.parse_cards(" ".join(cards)))
    return " ".join(C.format_card(c) for c in C.standard_deck(number_cards_only=True) if c not in skip)


# -- the rules -----------------------------------------------------------------------------------
def test_place_puts_the_top_card_into_an_empty_space_and_shows_the_next():
    state = GAME.initial_state(GAME.new_deal(0))
    assert C.format_card(state.top()) == "9S"
    after = play(state, "place T2")
    assert C.format_card(after.spaces[1]) == "9S" and C.format_card(after.top()) == "3C"
    assert Move("place", 1) not in after.legal_moves()  # each space holds one card


def test_reveal_scores_every_matching_guess_of_its_row_and_column_and_leaves_the_rest():
    # R2C2 is KS: its row's spaces L2 R2, its column's T2 B2. 7S and 8S match; 7H does not; T1 is elsewhere.
    state = position(playmates="(JH) (QD) (KC) (QC) (QS) (KS) (QH) (KH) (KD) (JC) (JS) (JD)",
                     spaces="L2=7S T2=8S B2=7H T1=9S")
    after = play(state, "reveal R2C2")
    assert sorted(C.format_card(c) for c in after.scored) == ["7S", "8S"]
    assert C.format_card(after.spaces[5]) == "7H" and C.format_card(after.spaces[0]) == "9S"
    assert after.spaces[9] == -1 and after.spaces[1] == -1 and after.up == 1 << 5


def test_reveal_scores_at_most_four_cards():
    state = position(playmates="(JH) (QD) (KC) (QC) (QS) (KS) (QH) (KH) (KD) (JC) (JS) (JD)",
                     spaces="L2=2S R2=3S T2=4S B2=5S")
    assert play(state, "reveal R2C2").score == 4


def test_withdraw_discards_the_top_card_and_a_guess_of_its_suit():
    state = position(spaces="T1=7S T2=7H", deck="2S " + all_cards_but("7S", "7H", "2S"))
    moves = {str(m) for m in state.legal_moves()}
    assert "withdraw T1" in moves and "withdraw T2" not in moves  # only the top card's suit
    after = play(state, "withdraw T1")
    assert after.spaces[0] == -1 and sorted(C.format_cards(after.discard).split()) == ["2S", "7S"]
    with pytest.raises(MoveError):
        state.play(parse_move("withdraw T2"))


def test_illegal_moves_are_refused():
    state = position(playmates="JH (QD) KC QC QS KS QH KH KD JC JS JD", spaces="T1=7S")
    for text in ("place T1", "reveal R1C1", "withdraw B1"):
        with pytest.raises(MoveError):
            state.play(parse_move(text))
    for text in ("place X9", "reveal R4C1", "jump T1", "reveal T1"):
        with pytest.raises(MoveError):
            parse_move(text)


def test_with_the_deck_empty_only_reveals_remain():
    state = position(playmates="JH (QD) KC QC QS KS QH KH KD JC JS (JD)", spaces="T2=7D", deck="",
                     discard=all_cards_but("7D"))
    assert {m.kind for m in state.legal_moves()} == {"reveal"}


def test_the_game_ends_at_the_last_reveal_with_the_score_pile_and_20_wins():
    # Only R3C4 (JD) is face down; 19 cards scored already.
    scored = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS AH 2H 3H 4H 5H 6H 7H 8H 9H"
    state = position(playmates="JH QD KC QC QS KS QH KH KD JC JS (JD)", spaces="B4=2D", score=scored)
    end = play(state, "reveal R3C4")
    assert end.outcome().won and end.outcome().score == 20 and not end.legal_moves()
    state = position(playmates="JH QD KC QC QS KS QH KH KD JC JS (JD)", spaces="B4=2C", score=scored)
    end = play(state, "reveal R3C4")
    assert not end.outcome().won and end.outcome().score == 19
    assert end.outcome() is not None and len(end.world.deck) - end.pos > 0  # cards may be left in the deck


def test_moves_print_and_parse_back():
    for move in GAME.initial_state(GAME.new_deal(1)).legal_moves():
        assert parse_move(str(move)) == move
    assert str(parse_move("reveal r2c3")) == "reveal R2C3" and str(parse_move("PLACE b4")) == "place B4"


# -- the grid --------------------------------------------------------------------------------------
def test_there_are_576_column_assignments_each_valid():
    assert len(assignments()) == 576 == len(set(assignments()))
    for columns in assignments():
        assert sum(bin(m).count("1") for m in columns) == 12 and len(set().union(*[{m} for m in columns])) == 4
        for mask in columns:
            faces = [i for i in range(12) if mask >> i & 1]
            assert sorted(i % 3 for i in faces) == [0, 1, 2] and len({i // 3 for i in faces}) == 3


def test_seeded_grids_are_valid_and_every_assignment_comes_up_about_evenly():
    counts = Counter()
    for seed in range(11520):
        grid = seeded_grid(seed)
        GAME.check_piles({"playmates": grid, "deck": C.standard_deck(number_cards_only=True)}, "seed")
        columns = tuple(sum(1 << face_index(grid[r * 4 + c]) for r in range(3)) for c in range(4))
        counts[columns] += 1
    assert set(counts) == set(assignments())  # every valid assignment is reachable
    chi2 = sum((n - 20) ** 2 / 20 for n in counts.values())  # 575 degrees of freedom: 575 +- 34
    assert chi2 < 575 + 5 * 34


def test_rows_within_a_column_are_shuffled_evenly():
    rows = Counter(seeded_grid(seed)[0] % 13 for seed in range(3000))  # the rank atop column 1
    assert set(rows) == {10, 11, 12} and min(rows.values()) > 850


@pytest.mark.parametrize("grid, message", [
    ("JH QS KD QD KS JC KC QH JS QC KH JD", "column 1 (JH KS JS) has two cards of the same rank"),
    ("JH QD KC QC JS KS QH KH KD JC QS JD", "column 1 (JH JS KD) has two cards of the same rank"),
    ("JH QD KC QC QH KS JS KH KD JC QS JD", "column 1 (JH QH KD) has two cards of the same suit"),
    ("JH QD KC QC QS KS QH KH KD JC JS JD".replace("KS", "XX").replace("QH", "KS").replace("XX", "QH"),
     "column 2 (QD QH JC) has two cards of the same rank"),
])
def test_a_grid_breaking_the_column_rule_is_refused_naming_the_column(grid, message):
    with pytest.raises(DealError) as err:
        GAME.check_piles({"playmates": C.parse_cards(grid), "deck": C.standard_deck(number_cards_only=True)}, "d.toml")
    assert "playmates" in str(err.value) and message in str(err.value)


def test_deal_files_with_explicit_piles():
    deal = deal_from_data({"game": "hide", "playmates": GRID, "deck": all_cards_but()}, "d.toml")
    assert GAME.initial_state(deal).world.grid == tuple(C.parse_cards(GRID))
    with pytest.raises(DealError, match="deck"):
        deal_from_data({"game": "hide", "playmates": GRID, "deck": all_cards_but("7S")}, "d.toml")


# -- positions ---------------------------------------------------------------------------------------
def test_a_position_round_trips():
    state = play(GAME.initial_state(GAME.new_deal(2)), "place T1", "place L2", "reveal R2C1", "place B3")
    again = position(**position_form(state))
    assert again.view() == state.view() and again.legal_moves() == state.legal_moves()


@pytest.mark.parametrize("change, field", [
    ({"spaces": "Q9=7S"}, "position.spaces"),
    ({"spaces": "T1=7S T1=8S"}, "position.spaces"),
    ({"spaces": "T1=JS"}, "position.spaces"),
    ({"playmates": "JH QD KC"}, "position.playmates"),
    ({"playmates": "JH QS KD QD KS JC KC QH JS QC KH JD"}, "position.playmates"),
    ({"playmates": "JH QD KC QC QS KS QH KH KD JC JS JD"}, "position.playmates"),  # all face up: over
    ({"score": "7S", "spaces": "T1=7S"}, "position.score"),
    ({"deck": "7S"}, "position"),
    ({"colour": "red"}, "position.colour"),
])
def test_position_errors_name_the_field(change, field):
    table = {"playmates": "(JH) QD KC QC QS KS QH KH KD JC JS JD", "deck": all_cards_but()}
    table.update(change)
    if "spaces" in change and "deck" not in change:
        table["deck"] = all_cards_but(*[w.split("=")[1] for w in change["spaces"].split() if "=" in w
                                        and w.split("=")[1][0] not in "JQK"])
    with pytest.raises(DealError) as err:
        GAME.initial_state(Deal(GAME.name, {}, None, {}, table, "p.toml"))
    assert f"p.toml: {field}" in str(err.value) or f"{field}:" in str(err.value) or field in str(err.value)


# -- the searches --------------------------------------------------------------------------------------
def small_positions(count=10, winning=4):
    """Positions from random lines of seeded deals, with at most 5 cards in the deck and at most
    5 playmates face down: small enough for the plain search; and ``winning`` winning_positions()."""
    out = []
    for seed in range(40):
        rng = random.Random(seed)
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        while state.outcome() is None:
            moves = state.legal_moves()
            reveals = [m for m in moves if m.kind == "reveal"]
            deck_left = len(state.world.deck) - state.pos
            if deck_left <= 5 and 12 - bin(state.up).count("1") <= 5:
                out.append(state)
                break
            others = [m for m in moves if m.kind != "reveal"]
            pick = reveals if deck_left <= 6 and rng.random() < 0.6 or not others else others
            state = advance_chance(state.play(rng.choice(pick)))
        if len(out) == count:
            break
    return out + winning_positions(winning)


def winning_positions(count=4):
    """Positions 6 cards from the end of the deck along the best lines of seeded deals."""
    out = []
    for seed in range(count):
        start = GAME.initial_state(GAME.new_deal(seed))
        state = advance_chance(start)
        for move in solve_open(GAME, start, Limits(time_limit=60)).line:
            if len(state.world.deck) - state.pos <= 6:
                break
            state = advance_chance(state.play(move))
        out.append(state)
    return out


def test_the_canonical_search_and_the_generic_one_agree_with_the_plain_search():
    positions = small_positions(winning=2)  # the plain search takes 16-17 s on each of the other two
    assert len(positions) >= 8
    verdicts = set()
    for state in positions:
        plain = solve_open(GAME, state, Limits(time_limit=60), prune=False)
        assert plain.exact
        fast = CanonicalSolver(GAME, Limits(time_limit=60)).solve(state)
        from solodeck.solvers import DepthFirstSolver
        generic = DepthFirstSolver(GAME, Limits(time_limit=60)).solve(state)
        assert (fast.verdict, fast.score) == (generic.verdict, generic.score) == (plain.verdict, plain.score), str(state)
        assert GAME.replay_moves(state, fast.line).outcome().score == plain.score
        verdicts.add(plain.verdict)
    assert verdicts == {"winnable", "unwinnable"}


def test_whole_seeded_deals_are_solved_exactly():
    for seed in range(3):
        result = solve_open(GAME, GAME.initial_state(GAME.new_deal(seed)), Limits(time_limit=60))
        assert result.exact and result.verdict == "winnable" and result.score == 40
        assert GAME.replay_moves(GAME.initial_state(GAME.new_deal(seed)), result.line).outcome().score == 40


def test_the_score_bound_holds_along_the_baseline():
    for seed in range(10):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        states = [state]
        while state.outcome() is None:
            state = advance_chance(state.play(GAME.baseline_move(state)))
            states.append(state)
        for s in states[:-1]:
            for bound in (s.score_bound(), s.blind_score_bound()):
                assert (bound if isinstance(bound, int) else bound.best) >= state.score


# -- blind mode --------------------------------------------------------------------------------------
def test_reveal_odds_count_the_consistent_grids():
    faces = (-1,) * 12
    assert sum(w for _a, w in consistent(faces)) == 576 * 6 ** 4
    weights = cell_odds(faces)[0]
    assert len(set(weights)) == 1 and sum(weights) == 576 * 6 ** 4  # every face equally likely at first
    state = position(playmates="JH (QD) (KC) (QC) QS (KS) (QH) (KH) KD (JC) (JS) (JD)")
    # Column 1 is JH QS KD (all face up), so R1C2 can hold none of them.
    outcomes = dict(state.play(parse_move("reveal R1C2")).chance_outcomes())
    assert not {C.parse_card(t) for t in ("JH", "QS", "KD")} & set(outcomes)
    assert C.parse_card("QD") in outcomes and all(w > 0 for w in outcomes.values())


def test_a_draw_is_any_unseen_card_and_apply_chance_keeps_a_consistent_world():
    state = GAME.initial_state(GAME.new_deal(3)).play(parse_move("place T1"))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 39 and all(w == 1 for _o, w in outcomes)
    card = outcomes[7][0]
    after = state.apply_chance(card)
    assert after.top() == card and sorted(after.world.deck) == sorted(state.world.deck)
    reveal = after.play(parse_move("reveal R2C2"))
    for face, _w in reveal.chance_outcomes():
        shown = reveal.apply_chance(face)
        assert shown.world.grid[5] == face and shown.faces()[5] == face
        assert GAME.check_piles({"playmates": list(shown.world.grid), "deck": list(shown.world.deck)}, "w") is None


def test_sampled_worlds_keep_the_view_and_are_valid():
    state = play(GAME.initial_state(GAME.new_deal(4)), "place T1", "reveal R1C1", "place L2")
    for k in range(20):
        world = state.sample_world(SplitMix64(k))
        assert world.view() == state.view()
        GAME.check_piles({"playmates": list(world.world.grid), "deck": list(world.world.deck)}, "w")
        assert world.top() == state.top()


def test_the_baseline_reads_only_the_view():
    state = play(GAME.initial_state(GAME.new_deal(5)), "place T1", "place L1", "reveal R1C1")
    choices = {GAME.baseline_move(state.sample_world(SplitMix64(k))) for k in range(8)}
    assert choices == {GAME.baseline_move(state)}


def test_the_baseline_wins_some_deals():
    wins = 0
    for seed in range(60):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        while state.outcome() is None:
            state = advance_chance(state.play(GAME.baseline_move(state)))
        wins += state.outcome().won
    assert 0 < wins < 60


# -- the move-count regression, the command line -------------------------------------------------------
def test_move_count_regression():
    expected = json.loads(COUNTS.read_text())
    assert len(expected) == 6
    for entry in expected:
        assert fixed_line_record(GAME, entry["seed"]) == entry


def test_cli_deal_solve_and_play(cli, tmp_path):
    path = tmp_path / "d3.toml"
    path.write_text(cli("deal", "hide-and-seek", "--seed", 3, check=True).stdout)
    assert load_deal(path).piles == GAME.new_deal(3).piles
    out = json.loads(cli("solve", path, "--time-limit", 60, "--json", check=True).stdout)
    assert out["verdict"] == "winnable" and out["exact"] is True and out["score"] == 40
    out = cli("play", "hide", "--seed", "3", "--policy", "baseline", check=True).stdout
    assert "reveal" in out


def test_cli_malformed_deal_file_is_a_one_line_error(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "hide"\nplaymates = "JH QS KD QD KS JC KC QH JS QC KH JD"\nseed = 1\n')
    proc = cli("solve", bad)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "bad.toml" in proc.stderr and "playmates" in proc.stderr and "column 1" in proc.stderr


if __name__ == "__main__":  # regenerate the regression file: python tests/test_hide_and_seek.py
    COUNTS.write_text(json.dumps([fixed_line_record(GAME, s) for s in range(6)], indent=1) + "\n")


def test_every_solve_and_value_has_its_own_time_budget():
    """A solver reused after its time limit has passed still answers (hint files value each move
    with the solver that solved the deal)."""
    import time

    state = GAME.initial_state(load_deal(Path(__file__).parent.parent / "puzzles" / "hide-and-seek" / "win-2.toml"))
    solver = CanonicalSolver(GAME, Limits(time_limit=5))
    assert solver.solve(state).exact
    solver._deadline = time.perf_counter() - 1  # as if the first budget were long spent
    solver.table.clear()
    value, exact = solver.value(state)
    assert exact and value[0] == 1


# -- the compiled kernel (ext/hide_and_seek.pyx) ------------------------------------------------------
def kernel_or_skip():
    kernel = GAME.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    return kernel


def mid_game_positions():
    """Decisions along the baseline's lines of a few seeded deals, every tenth move."""
    out = []
    for seed in range(6):
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        ply = 0
        while state.outcome() is None:
            if ply % 10 == 0:
                out.append(state)
            state = advance_chance(state.play(GAME.baseline_move(state)))
            ply += 1
    return out


def test_the_kernel_searches_the_same_nodes_as_the_reference():
    """The same search in C: the same value, the same number of nodes, the same line, on small
    endgames, whole seeded deals and positions along the baseline's lines (those the reference,
    ~200,000 nodes/s, searches in a fraction of a second: a value far below the bound costs millions)."""
    kernel = kernel_or_skip()
    positions = small_positions() + mid_game_positions() + [GAME.initial_state(GAME.new_deal(s)) for s in range(3)]
    scores, compared = set(), 0
    for state in positions:
        fast = KernelSolver(GAME, kernel, Limits(time_limit=60)).solve(state)
        assert fast.exact and fast.engine == "canonical-kernel"
        if fast.nodes > 40_000:  # the reference: a second a position beyond
            continue
        reference = CanonicalSolver(GAME, Limits(time_limit=60)).solve(state)
        assert (fast.verdict, fast.score, fast.nodes) == (reference.verdict, reference.score, reference.nodes), str(state)
        assert list(map(str, fast.line)) == list(map(str, reference.line))
        scores.add(fast.score)
        compared += 1
    assert compared >= 25 and len(scores) >= 5  # winning and losing values, not one kind of position


def test_the_kernel_stops_at_its_limits_and_never_calls_that_a_loss():
    kernel = kernel_or_skip()
    hard = GAME.initial_state(GAME.new_deal(545))  # about 11 million nodes
    timed_out = KernelSolver(GAME, kernel, Limits(time_limit=0.001)).solve(hard)
    assert (timed_out.status, timed_out.verdict, timed_out.exact) == ("timeout", "unknown", False)
    capped = KernelSolver(GAME, kernel, Limits(max_states=1000)).solve(hard)
    assert (capped.status, capped.verdict) == ("memory-limit", "unknown")
    solver = KernelSolver(GAME, kernel, Limits(time_limit=30))  # the same solver, a fresh budget
    assert solver.solve(hard).exact and solver.value(hard) == (GAME.utility(Outcome(True, 40)), True)


# -- the blind rule (rule_move) and its kernel rollouts ---------------------------------------------
FULL = "T2=2S B2=3S T3=4S B3=5S T4=6S B4=7S L1=2H L2=3H R1=4H R2=5H"  # ten guesses; the tests add four more


def consistent_grids(faces):
    """Every valid grid agreeing with ``faces``, by brute force over assignments and column orders."""
    grids = []
    for a, _ways in consistent(faces):
        columns = []
        for c in range(4):
            rows = [r for r in range(3) if faces[r * 4 + c] < 0]
            free = [face_card(i) for i in range(12) if a[c] >> i & 1 and face_card(i) not in faces]
            columns.append([dict(zip(rows, order)) for order in permutations(free)])
        for pick in product(*columns):
            grid = list(faces)
            for c, placed in enumerate(pick):
                for r, card in placed.items():
                    grid[r * 4 + c] = card
            grids.append(grid)
    return grids


def test_live_chances_count_the_consistent_grids():
    state = position(playmates="JH (QD) (KC) QC (QS) KS (QH) (KH) (KD) (JC) JS (JD)")
    faces = state.faces()
    grids = consistent_grids(faces)
    live = space_live(faces)
    for p in range(14):
        cells = [c for c in range(12) if SPACE_CELLS[p] >> c & 1 and faces[c] < 0]
        for s in range(4):
            hits = sum(any(g[c] // 13 == s for c in cells) for g in grids)
            assert live[p][s] == pytest.approx(float(Fraction(hits, len(grids))), abs=1e-12), (p, s)
    assert live[0][0 + 1] == 0.0  # column 1 shows JH: no heart is left beside T1
    everywhere = space_live((-1,) * 12)
    assert everywhere[0] == (0.75,) * 4  # a column holds three of the four suits


def test_the_rule_first_places_where_a_card_is_likeliest_to_score():
    state = advance_chance(GAME.initial_state(GAME.new_deal(0)))
    # every suit is live above a column with chance 3/4, beside a row with less (0.70)
    assert str(rule_move(state)) == "place T1"


def test_the_rule_withdraws_a_dead_guess_that_blocks_a_good_space():
    # JH is face up in column 1: the hearts above and below it can never score, and the top card is a heart
    state = position(playmates="JH (QD) (KC) (QC) (QS) (KS) (QH) (KH) (KD) (JC) (JS) (JD)",
                     spaces="T1=7H B1=8H L3=4D R3=5D " + FULL.replace("L1=2H L2=3H R1=4H R2=5H", "L1=2D L2=3D R1=6D R2=7D"),
                     deck="2H " + all_cards_but("7H", "8H", "4D", "5D", "2S", "3S", "4S", "5S", "6S", "7S", "2D", "3D",
                                                "6D", "7D", "2H"))
    assert str(rule_move(state)) == "withdraw T1"


def test_with_every_space_full_the_rule_reveals_the_playmate_expected_to_score_most():
    # column 1 shows JH and QS: R3C1 is KD or KC, and four diamonds wait beside it
    playmates = "JH (QD) (KC) (QC) QS (KS) (QH) (KH) (KD) (JC) (JS) (JD)"
    spaces = "T1=2D B1=3D L3=4D R3=5D " + FULL
    used = ("2D", "3D", "4D", "5D", "2S", "3S", "4S", "5S", "6S", "7S", "2H", "3H", "4H", "5H")
    state = position(playmates=playmates, spaces=spaces, deck="2C " + all_cards_but(*used, "2C"))
    assert suit_odds(state.faces())[8][2] == 0.5 and str(rule_move(state)) == "reveal R3C1"
    empty = position(playmates=playmates, spaces=spaces, deck="", discard=all_cards_but(*used))
    assert str(rule_move(empty)) == "reveal R3C1"  # the deck is empty: reveals only, the best first


def test_the_rule_keeps_the_last_playmate_face_down_while_it_can_wait():
    # only R3C4 is face down, and it must be JD (column 4 shows QC KH, and JS is at R3C3)
    playmates = "JH QD KC QC QS KS QH KH KD JC JS (JD)"
    spaces = "T4=2D L3=3D T2=2S B2=3S T3=4S B3=5S L1=2H L2=3H R1=4H R2=5H"
    used = ("2D", "3D", "2S", "3S", "4S", "5S", "2H", "3H", "4H", "5H")
    spade = position(playmates=playmates, spaces=spaces, deck="6S " + all_cards_but(*used, "6S"))
    assert str(rule_move(spade)) == "place T1"  # into a dead space: revealing would end the game
    diamond = position(playmates=playmates, spaces=spaces, deck="6D " + all_cards_but(*used, "6D"))
    assert str(rule_move(diamond)) == "place B4"  # beside JD: it will score
    full = position(playmates=playmates, spaces=spaces + " T1=6S B1=7S B4=8S R3=9S",
                    deck="2C " + all_cards_but(*used, "6S", "7S", "8S", "9S", "2C"))
    assert str(rule_move(full)) == "reveal R3C4"  # nowhere to go and nothing to withdraw


def test_the_rule_wins_far_more_often_than_the_baseline():
    wins = {"rule": 0, "baseline": 0}
    for seed in range(10000, 10060):
        for name, choose in (("rule", rule_move), ("baseline", GAME.baseline_move)):
            state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
            while state.outcome() is None:
                state = advance_chance(state.play(choose(state)))
            wins[name] += state.outcome().won
    assert wins["rule"] >= 2 * wins["baseline"] and wins["rule"] >= 12, wins


def rule_decisions(seeds=range(3), every=3):
    """Decisions along the rule's lines and along random lines of a few seeded deals."""
    out = []
    for seed in seeds:
        for how in ("rule", "random"):
            rng = random.Random(seed)
            state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
            ply = 0
            while state.outcome() is None:
                if ply % every == 0:
                    out.append(state)
                move = rule_move(state) if how == "rule" else rng.choice(state.legal_moves())
                state = advance_chance(state.play(move))
                ply += 1
    return out


def test_the_rule_reads_only_the_view():
    for state in rule_decisions(every=7):
        move = rule_move(state)
        assert {rule_move(state.sample_world(SplitMix64(k))) for k in range(4)} == {move}, state.seen_text()


def test_the_kernel_plays_the_rule_move_for_move():
    kernel = kernel_or_skip()
    decisions = rule_decisions(seeds=range(8), every=1)
    assert len(decisions) > 500
    for state in decisions:
        kind, where = kernel.rule_move(*_kernel_view(state), RULE_THRESHOLDS)
        assert Move(KERNEL_KINDS[kind], where) == rule_move(state), state.seen_text()


def test_the_kernel_rollouts_are_the_references_draw_for_draw(monkeypatch):
    kernel_or_skip()
    positions = rule_decisions(every=9)[::2]
    fast = [GAME.fast_rollouts(state, 6, 100 + k) for k, state in enumerate(positions)]
    monkeypatch.setattr(GAME, "load_kernel", lambda: None)  # the reference: Python rollouts
    for k, (state, stats) in enumerate(zip(positions, fast)):
        assert stats == rollout_stats(GAME, state, 6, 100 + k), state.seen_text()
    assert len(positions) >= 8 and any(wins for stats in fast for _m, wins, *_r in stats)


def test_the_kernel_rollouts_read_only_the_view():
    kernel_or_skip()
    for state in rule_decisions(every=11):
        stats = GAME.fast_rollouts(state, 16, 5)
        assert all(GAME.fast_rollouts(state.sample_world(SplitMix64(k)), 16, 5) == stats for k in range(3))
