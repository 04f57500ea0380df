"""The Skyway CP-SAT model (encodings/skyway.py), a second exact engine, agrees with the search.

The search is the kernel's exact search when it is built (tests/test_skyway_kernel.py checks it
equal to the pure-Python reference), else the reference. Endgames come from seeded deals: the
baseline policy plays each deal into the third pass until a turn starts with a deck of 5 x turns
cards (no reshuffle left: every market is fixed). Baseline play reaches the third pass with 3 or
4 such turns at most, so the 5- and 6-turn endgames are built: baseline play of a seeded deal
stops while the grid leaves room for them, and the other cards (deck first, then the discard
pile) become a third-pass deck of 5 x turns cards and a discard pile. Both engines must be exact
and give the same verdict and score.
"""
import pytest

from solodeck import cards as C
from solodeck.api import Outcome, advance_chance
from solodeck.encodings import cpsat_solver
from solodeck.encodings.skyway import CpSatSolver, SkywayModel
from solodeck.errors import UnsupportedError
from solodeck.games.skyway import GAME
from solodeck.games.skyway.blind import built_endgame, natural_endgame
from solodeck.games.skyway.rules import NUMBER_CARDS, State, Take, score_of
from solodeck.solvers import DepthFirstSolver, Limits, make_solver

LIMITS = Limits(time_limit=300)


def both(state, workers=1):
    search = make_solver(GAME, LIMITS).solve(state)  # the kernel's search when built, else the reference
    model = CpSatSolver(GAME, LIMITS, workers=workers).solve(state)
    return search, model


def assert_agree(state, workers=1):
    search, model = both(state, workers)
    assert search.exact and model.exact and model.engine == "cpsat"
    assert (model.verdict, model.score) == (search.verdict, search.score), str(state)
    final = GAME.replay_moves(state, model.line)
    assert final.outcome() == score_of(final.grid) and final.outcome().score == model.score
    return model


# (how, turns left, seed): 6 + 6 + 5 natural endgames (winnable and not), 3 built 5-turn ones.
ENDGAMES = ([("natural", 2, s) for s in (1, 16, 29, 61, 165, 166)]
            + [("natural", 3, s) for s in (62, 74, 104, 112, 134, 195)]
            + [("natural", 4, s) for s in (4, 72, 108, 226, 227)]
            + [("built", 5, s) for s in (3, 5, 8)])
SLOW_ENDGAMES = ([("built", 5, s) for s in (0, 1, 2, 4, 6, 7, 9)]
                 + [("built", 6, s) for s in (0, 1, 3)])


def endgame(how, turns, seed):
    state = natural_endgame(seed, turns) if how == "natural" else built_endgame(seed, turns)
    assert state is not None and state.passno == 3 and len(state.deck) == 5 * turns
    return state


def test_the_endgames_mix_wins_and_losses():
    verdicts = {}
    for how, turns, seed in ENDGAMES:
        if how == "natural":
            result = CpSatSolver(GAME, LIMITS).solve(endgame(how, turns, seed))
            verdicts[result.verdict] = verdicts.get(result.verdict, 0) + 1
    assert verdicts.get("winnable", 0) >= 5 and verdicts.get("unwinnable", 0) >= 5, verdicts


@pytest.mark.parametrize("how,turns,seed", ENDGAMES)
def test_endgames_agree_with_the_search(how, turns, seed):
    state = endgame(how, turns, seed)
    model = assert_agree(state)
    assert len(model.line) == turns


@pytest.mark.slow
@pytest.mark.parametrize("how,turns,seed", SLOW_ENDGAMES)
def test_longer_endgames_agree_with_the_search(how, turns, seed):
    test_endgames_agree_with_the_search(how, turns, seed)


def test_two_workers_agree():
    assert_agree(endgame("natural", 3, 98), workers=2)


def test_the_registry_finds_the_model():
    assert isinstance(cpsat_solver(GAME, LIMITS), CpSatSolver)


def cards(text):
    return tuple(C.parse_cards(text)) if text else ()


def hand_made(deck_text):
    """Spades, hearts and diamonds already chain 5 cards, clubs 4 (AC 2C 3C 4C in cells 3, 2, 5, 4);
    ``deck_text`` is the last market. Cell 1 (AS AH) has room and is next to cell 4's 4C."""
    grid = tuple(cards(t) for t in ["AS AH", "2S AD 2C", "3S AC", "2H 5D 4C", "2D 3C 9S", "4S",
                                    "3H 4D TS", "4H 3D", "5S 5H"])
    deck = cards(deck_text)
    placed = set(sum(grid, ())) | set(deck)
    return State(grid, (), deck, tuple(sorted(c for c in NUMBER_CARDS if c not in placed)), 3, 2, 0)


def test_a_one_turn_endgame_wins_before_it_scores():
    # Stack 3 is 5C: on cell 1 it completes clubs (4C in cell 4 -> 5C in cell 1) and buries nothing:
    # the only win, 5 + 5 + 5 + 5 = 20. Cells 5 and 7, also next to cell 4, hold 3 cards: 5C would
    # bury 2D (diamonds A-2-3-4-5 break) or 3H (hearts break). Stack 1 (6S 6H) on cell 6 beside
    # 5S 5H scores more (spades 7 with 9S, hearts 6: 22) but clubs stay at 4: a loss.
    state = hand_made("6S 6H 9D TD 5C")
    assert GAME.replay_moves(state, [Take(1, 6)]).outcome() == Outcome(False, 22)
    model = assert_agree(state)
    assert (model.verdict, model.score, model.line) == ("winnable", 20, [Take(3, 1)])


def test_a_one_turn_endgame_without_a_win_keeps_its_best_score():
    # Without 5C no win exists; stack 1 on cell 6 is the best loss (22), as above.
    model = assert_agree(hand_made("6S 6H 9D TD 7D"))
    assert (model.verdict, model.score, model.line) == ("unwinnable", 22, [Take(1, 6)])


def test_an_empty_grid_breaks_symmetry_without_losing_the_optimum():
    deal = GAME.new_deal(7).piles["deck"]
    state = State(((),) * 9, (), tuple(deal[:15]), tuple(sorted(deal[15:])), 3, 2, 7)
    model = assert_agree(state)
    assert model.line[0].cell in (1, 2, 5)  # one cell per orbit of the square's 8 symmetries


def test_the_last_turn_after_the_final_shuffle():
    # 3 cards left at a turn start of the third pass: the discard pile is shuffled one last time for
    # the market's last 2 cards, and that turn ends the game. Its market is fixed: one turn.
    state = natural_endgame(61, 2)
    state = State(state.grid, (), state.deck[:3], tuple(sorted(state.discard + state.deck[3:])), 3, 2, 61)
    assert advance_chance(state).final
    model = assert_agree(state)
    assert len(model.line) == 1


def test_a_finished_game_is_its_own_answer():
    state = natural_endgame(4, 2)
    while state.outcome() is None:
        state = advance_chance(state)
        state = state.play(GAME.baseline_move(state))
    model = assert_agree(state)
    assert model.line == [] and model.score == score_of(state.grid).score


@pytest.mark.parametrize("case", ["deal", "second pass", "mid-deal reshuffle"])
def test_a_reshuffle_ahead_is_unsupported(case):
    if case == "deal":
        state = GAME.initial_state(GAME.new_deal(0))
    elif case == "second pass":
        state = built_endgame(1, 4)
        state = State(state.grid, (), state.deck, state.discard, 2, 1, 1)
    else:  # 9 cards at a turn start of the third pass: the second market needs the final shuffle
        state = natural_endgame(16, 2)
        state = State(state.grid, (), state.deck[:9], tuple(sorted(state.discard + state.deck[9:])), 3, 2, 16)
    with pytest.raises(UnsupportedError, match="reshuffle.*--engine dfs"):
        CpSatSolver(GAME, LIMITS).solve(state)


def test_a_time_limit_is_never_a_loss():
    state = built_endgame(2, 6)
    result = CpSatSolver(GAME, Limits(time_limit=0.05)).solve(state)
    assert result.status == "timeout" and not result.exact and result.verdict in ("unknown", "winnable")


def test_the_model_grows_with_the_turns_only():
    state = advance_chance(natural_endgame(4, 4))
    model = SkywayModel(state)
    assert model.turns == 4 and len(model.x) == 4 * 3 * 9


def position_file(tmp_path, state):
    fmt = C.format_cards
    grid = ", ".join(f'"{fmt(cell)}"' for cell in state.grid)
    path = tmp_path / "endgame.toml"
    path.write_text(f'game = "skyway"\nseed = {state.seed}\n\n[position]\ngrid = [{grid}]\n'
                    f'deck = "{fmt(state.deck)}"\ndiscard = "{fmt(state.discard)}"\npass = {state.passno}\n'
                    f'reshuffles = {state.reshuffles}\n')
    return path


def test_cli_engines(cli, tmp_path):
    state = natural_endgame(74, 3)
    search = DepthFirstSolver(GAME, LIMITS).solve(state)
    path = position_file(tmp_path, state)
    for engine in ("cpsat", "race"):
        proc = cli("solve", path, "--engine", engine, "--json")
        assert proc.returncode == 0, proc.stderr
        assert f'"verdict": "{search.verdict}"' in proc.stdout and f'"score": {search.score}' in proc.stdout
        assert '"exact": true' in proc.stdout


def test_cli_names_the_reshuffle(cli, tmp_path):
    state = natural_endgame(16, 2)
    state = State(state.grid, (), state.deck[:9], tuple(sorted(state.discard + state.deck[9:])), 3, 2, 16)
    proc = cli("solve", position_file(tmp_path, state), "--engine", "cpsat")
    assert proc.returncode == 2 and "reshuffle" in proc.stderr and "Traceback" not in proc.stderr
