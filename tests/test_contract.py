"""The contract (solodeck/api.py), checked for every game the registry finds.

A new game is picked up here without naming it. Along seeded lines (random play, the game's
baseline policy, the solver's winning lines), every state keeps the contract: legal moves while
the game goes on, none twice, each one's text parsed back to it; stable hashable keys; chance
nodes whose outcomes include the dealt one; score bounds that never promise less than a win
reached; the kernel's move generator equal to the reference's. The declarations are true (kernel,
model, blind mode, aliases, rules page). On small positions the game's solver agrees with the
plain reference search; hint files validate and verify; in blind mode, open play bounds blind
play and the blind policy never sees the order of the unseen cards.

The game-specific rules (the rule text's examples, invariants, notations, puzzles) stay in
tests/test_<game>.py.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import random
import time
from pathlib import Path

import pytest

from blind_oracle import every_order, open_win_rate
from conftest import PUZZLES, random_line, walk
from solodeck.solvers.plan import Estimator, plan_of
from solodeck import registry
from solodeck.api import Game, Outcome, cannot_win
from solodeck.deals import load_deal
from solodeck.encodings import cpsat_solver
from solodeck.ext import extensions_disabled
from solodeck.errors import SolodeckError
from solodeck.hints import build_blind_hints, build_hints, verify_hints
from solodeck.hints import schema as hint_schema
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from solodeck.solvers import DepthFirstSolver, ReachabilitySolver, make_solver, solve_open
from solodeck.solvers.expectimax import ExpectimaxSolver
from solodeck.solvers.blind import BlindPolicy

ROOT = Path(__file__).resolve().parent.parent
# one-player games: games of several players (Game.several_players) have their own contract in
# tests/test_trick_games.py and tests/test_bourbon.py
GAMES = [g for g in registry.GAMES.values() if not g.several_players]
BLIND_GAMES = [g for g in GAMES if "blind" in g.modes]
HIDDEN_GAMES = [g for g in GAMES if g.has_hidden]


def per_game(games):
    """Parametrize over ``games``, each game's tests on one worker (--dist loadgroup): the cached
    lines and positions below are then built once, not in both processes."""
    return pytest.mark.parametrize("game", [pytest.param(g, id=g.name, marks=pytest.mark.xdist_group(g.name))
                                            for g in games])


each_game, each_blind_game, each_hidden_game = per_game(GAMES), per_game(BLIND_GAMES), per_game(HIDDEN_GAMES)

RANDOM_SEEDS = range(12)        # a random line of each of these seeded deals
BASELINE_SEEDS = range(20)      # the baseline policy's lines (games with a blind mode)
SOLVER_SEEDS = range(2)         # the solver's winning lines, when found within SOLVER_LIMITS
SOLVER_LIMITS = Limits(max_states=1000, time_limit=1)  # whole Skyway deals: the anytime search's line
PUZZLE_LIMITS = Limits(max_states=50_000, time_limit=10)
MAX_NODES = 5000                # an acyclic game ends within this many decisions and draws
LISTABLE = 5000                 # a chance node with more outcomes than this is sampled, not listed
SMALL = 500                     # small: the plain reference search decides it within this many states
SMALL_POSITIONS = 8             # small positions per game, half from lines that win
UNSEEN = 3                      # blind mode's small positions: at most this many cards unseen


# -- lines ------------------------------------------------------------------------------------------
@functools.cache
def lines(game):
    """Random lines, the baseline's (blind mode) and the solver's winning lines of seeded deals."""
    out = [random_line(game, seed, random.Random(seed), MAX_NODES) for seed in RANDOM_SEEDS]
    if "blind" in game.modes:
        out += [walk(game, game.new_deal(seed), game.baseline_move, f"baseline {seed}", MAX_NODES)
                for seed in BASELINE_SEEDS]
    out += filter(None, (solver_line(game, game.new_deal(seed), SOLVER_LIMITS, f"solver {seed}")
                         for seed in SOLVER_SEEDS))
    if not any(wins(line) for line in out):  # e.g. The Emissary without its kernel: a won puzzle's line
        won = (solver_line(game, load_deal(path), PUZZLE_LIMITS, f"solver {path.name}")
               for path in sorted((PUZZLES / game.name).glob("win-*.toml")))
        first = next(filter(None, won), None)  # the first won puzzle the solver wins within the limits
        out += [first] if first else []
    return out


def solver_line(game, deal, limits, how):
    """The solver's winning line of ``deal`` walked as a Line, or None if it finds no win within ``limits``."""
    result = make_solver(game, limits).solve(game.initial_state(deal))
    if result.verdict != "winnable":
        return None
    line = iter(result.line)
    return walk(game, deal, lambda _state: next(line), how, MAX_NODES)


def wins(line) -> bool:
    outcome = line.final.outcome()
    return outcome is not None and outcome.won


def not_worse(game, bound, score) -> bool:
    """Is the score ``bound`` at least as good as ``score``, in the game's sense?"""
    return bound <= score if game.score_sense == "lower" else bound >= score


# -- 1. the state API along seeded lines ----------------------------------------------------------
@each_game
def test_every_state_along_seeded_lines_keeps_the_contract(game):
    for line in lines(game):
        where = f"{game.name}, {line.how}"
        for state, action in line.nodes:
            assert state.won == bool(state.outcome() and state.outcome().won), where
            if state.is_chance():
                assert state.legal_moves() == [], f"{where}: a chance node offers moves"
                check_chance_node(state, action, where)
                continue
            moves = state.legal_moves()
            assert moves, f"{where}: no legal move, no outcome and no chance at\n{state}"
            assert len(set(moves)) == len(moves), f"{where}: a move listed twice at\n{state}"
            for move in moves:
                assert game.parse_move(str(move)) == move, f"{where}: '{move}' does not parse back to itself"
        final = line.final
        if game.acyclic:
            assert final.outcome() is not None, f"{where}: no end after {MAX_NODES} decisions and draws"
        if final.outcome() is None:
            continue
        assert final.legal_moves() == [] and final.won == final.outcome().won, where
        if game.score_sense is None:
            assert final.outcome().score is None, f"{where}: a score in a game without one"
        elif final.outcome().won:
            assert isinstance(final.outcome().score, int), f"{where}: a win without a score"


def check_chance_node(state, dealt, where):
    """The dealt outcome is one of the outcomes, all weights are positive, the count is right,
    and a sampled outcome is one of them too (or, where listing costs, can be applied)."""
    assert dealt == state.dealt_outcome(), where
    count = state.chance_count()
    if count is not None and count > LISTABLE:
        state.apply_chance(state.sample_chance(SplitMix64(0)))
        return
    outcomes = state.chance_outcomes()
    listed = [o for o, _w in outcomes]
    assert outcomes, f"{where}: a chance node without outcomes"
    assert count is None or count == len(outcomes), f"{where}: chance_count() is not the number of outcomes"
    assert all(isinstance(w, int) and w > 0 for _o, w in outcomes), f"{where}: a weight is not positive"
    assert len(set(listed)) == len(listed), f"{where}: an outcome listed twice"
    assert dealt in listed, f"{where}: the dealt outcome {dealt!r} is not among the outcomes"
    assert state.sample_chance(SplitMix64(1)) in listed, f"{where}: a sampled outcome is not listed"


@each_game
def test_keys_are_hashable_and_stable(game):
    """Two calls give equal keys; the line's texts replayed on the deal dealt again give equal keys
    and moves;
    in an acyclic game no key comes back along a line (the exact search could not take a cycle)."""
    for line in lines(game):
        where = f"{game.name}, {line.how}"
        states = [s for s, _a in line.nodes] + [line.final]
        for state in states:
            hash(state.key())
            assert state.key() == state.key(), where
        again = line.deal if line.deal.position is not None else game.new_deal(line.deal.seed, line.deal.options)
        rebuilt = game.initial_state(again)  # a puzzle's position is read again from its deal
        steps, final = game.read_line(rebuilt, [str(m) for m in line.moves], source=where)
        assert [before.key() for _m, before, _legal in steps] == [s.key() for s in line.decisions], where
        assert [legal for _m, _before, legal in steps] == [s.legal_moves() for s in line.decisions], where
        assert final.key() == line.final.key(), where
        if game.acyclic:
            keys = [s.key() for s in states]
            assert len(set(keys)) == len(keys), f"{where}: a position comes back in an acyclic game"


@each_game
def test_score_bounds_never_promise_less_than_the_end_reached(game):
    """score_bound() (open) and blind_score_bound() (any order of the unseen cards) at every state
    of a line promise at least what the line reached: a win and its score, or, in games that
    score losses, the loss's score."""
    won = 0
    for line in lines(game):
        reached = game.utility(line.final.outcome())
        won += reached[0] == 1
        for state in [s for s, _a in line.nodes] + [line.final]:
            for bound in (state.score_bound(), state.blind_score_bound()):
                promised = game.bound_utility(bound)
                assert promised is None or promised >= reached, \
                    f"{game.name}, {line.how}: bound {bound}, yet the line reaches {line.final.outcome()}, at\n{state}"
    assert won, f"{game.name}: no seeded line wins, so the bounds of wins go unchecked"


# -- 2. the kernel's moves -------------------------------------------------------------------------
@each_game
def test_kernel_moves_equal_the_reference_moves(game):
    if game.kernel is None:
        pytest.skip(f"{game.name} has no kernel")
    if extensions_disabled():
        pytest.skip("SOLODECK_NO_EXTENSIONS=1: no kernel to compare")
    compared = 0
    for line in lines(game):
        for state in line.decisions:
            fast = game.kernel_moves(state)
            if fast is None:
                continue
            reference = state.legal_moves()
            assert len(fast) == len(reference) and set(fast) == set(reference), \
                f"{game.name}, {line.how}: kernel {sorted(map(str, fast))}, reference {sorted(map(str, reference))}"
            compared += 1
    assert compared, f"{game.name}: kernel_moves() never answered"


# -- 3. the declarations are true -------------------------------------------------------------------
@each_game
def test_a_declared_kernel_exists_and_is_built_unless_disabled(game):
    if game.kernel is None:
        assert game.load_kernel() is None
        return
    assert (ROOT / "ext" / f"{game.kernel}.pyx").exists(), f"{game.name}: no ext/{game.kernel}.pyx"
    if extensions_disabled():
        assert game.load_kernel() is None, "SOLODECK_NO_EXTENSIONS=1 must hide the kernel"
    else:
        assert game.load_kernel() is not None, f"a normal install must build ext/{game.kernel}.pyx"


@each_game
def test_a_declared_model_exists_and_gives_an_engine(game):
    engine = cpsat_solver(game, Limits(time_limit=1))
    if game.model is None:
        assert engine is None
        return
    assert (ROOT / "encodings" / f"{game.model}.py").exists(), f"{game.name}: no encodings/{game.model}.py"
    assert engine is not None and callable(engine.solve)


def test_every_kernel_and_every_model_is_some_games():
    every = list(registry.GAMES.values())
    kernels, models = {g.kernel for g in every}, {g.model for g in every}
    for pyx in sorted((ROOT / "ext").glob("*.pyx")):
        assert pyx.stem in kernels, f"ext/{pyx.name} is no game's kernel"
    for model in sorted((ROOT / "encodings").glob("*.py")):  # an engine of its own, or asked by a game's search
        asked = any(f"encodings.{model.stem} import" in path.read_text() for path in (ROOT / "solodeck" / "games").rglob("*.py"))
        used = model.stem in models or asked
        assert model.stem == "__init__" or used, f"encodings/{model.name} is no game's model"


@each_game
def test_modes_score_names_and_the_rules_page(game):
    assert game.score_sense in (None, "lower", "higher")
    assert (game.score_name is None) == (game.score_sense is None), f"{game.name}: a score needs a name and a sense"
    if "blind" in game.modes:
        assert type(game).baseline_move is not Game.baseline_move, f"{game.name}: blind mode without a baseline policy"
        assert game.has_chance or game.has_hidden, f"{game.name}: blind mode, yet nothing is unseen"
    assert registry.rules_path(game).exists(), f"`solodeck rules {game.name}`: no docs/rules/{game.name}.md"


@each_game
def test_reshuffles_are_declared_exactly_where_the_seed_reaches_play(game):
    """Game.reshuffles (results/README.md marks the open column): with the piles written out, a
    deal's seed reaches play only through reshuffles (docs/deals.md). So another seed changes some
    baseline line of a game that declares them, and no line of a game that does not."""
    if not game.has_chance:
        assert not game.reshuffles, f"{game.name}: reshuffles without chance"
        return
    from solodeck.solvers.episode import play_episode

    def line(deal):
        decisions, final = play_episode(game.initial_state(deal), game.baseline_move)
        return [str(d.move) for d in decisions], final.key()

    changed = [line(deal) != line(dataclasses.replace(deal, seed=deal.seed + 1000))
               for deal in map(game.new_deal, range(4))]
    assert any(changed) == game.reshuffles, f"{game.name}: reshuffles = {game.reshuffles}, yet seeds changed {changed}"


def test_names_and_aliases_are_unique():
    names = [n for g in registry.GAMES.values() for n in (g.name, *g.aliases)]
    assert len(names) == len(set(names)), "a name or alias names two games"
    for game in registry.GAMES.values():
        assert all(registry.get_game(n) is game for n in (game.name, *game.aliases))


# -- 4. the game's solver against the plain reference search, on small positions ---------------------
def reference_solve(game, state, plain=True):
    """The generic search within SMALL states: unpruned (``plain``), or pruned, still generic."""
    if plain:
        return solve_open(game, state, Limits(max_states=SMALL), prune=False)
    return (DepthFirstSolver if game.acyclic else ReachabilitySolver)(game, Limits(max_states=SMALL)).solve(state)


@functools.cache
def small_positions(game):
    """[(state, the reference's result, where)]: decision states near the end of seeded lines that
    end (a cyclic game's random line may not), half of them from lines that win. From each line's end, 1, 2, 4, ... decisions back while the
    reference decides them within SMALL states; the farthest is kept. The reference is the plain
    search, or the pruned generic one for a line whose last decision the plain search cannot
    decide (Dead Center's wins leave many cards, and the plain search plays every alternative to
    the end of the deck)."""
    out, ended = [], [line for line in lines(game) if line.final.outcome() is not None]
    for group in (filter(wins, ended), (line for line in ended if not wins(line))):
        found = []
        for line in group:
            decisions, farthest, back, plain = line.decisions, None, 1, True
            while back <= len(decisions):
                result = reference_solve(game, decisions[-back], plain)
                if not result.exact and back == 1 and plain:  # the plain search cannot decide even the last one
                    plain = False
                    continue
                if not result.exact:
                    break
                farthest, back = (decisions[-back], result, f"{game.name}, {line.how}, {back} back"), back * 2
            found += [farthest] if farthest else []
            if len(found) == SMALL_POSITIONS // 2:
                break
        out += found
    return out


@each_game
def test_the_game_solver_agrees_with_the_plain_reference_on_small_positions(game):
    """make_solver (the kernel, the model, or the pruned search) against reference_solve: the same
    verdict and score, winning lines that replay to that score, bounds that hold, equal values."""
    positions = small_positions(game)
    verdicts = set()
    for state, reference, where in positions:
        result = make_solver(game, Limits(time_limit=30)).solve(state)
        assert result.exact, f"{where}: the solver did not decide a small position"
        assert (result.verdict, result.score) == (reference.verdict, reference.score), f"{where}:\n{state}"
        verdicts.add(result.verdict)
        if result.verdict == "winnable":
            for found in (result, reference):
                final = game.replay_moves(state, found.line)
                assert final.won and final.outcome().score == result.score, where
            bound = state.score_bound()
            assert not cannot_win(bound), f"{where}: NO_WIN on a winnable position"
            if bound is not None and game.score_sense is not None:
                assert not_worse(game, bound, result.score), f"{where}: bound {bound}, best score {result.score}"
    assert "winnable" in verdicts and "unwinnable" in verdicts, f"{game.name}: small positions of one verdict only"
    for state, reference, where in positions:
        won = reference.verdict == "winnable"
        expected = game.utility(Outcome(won, reference.score))  # a loss's score: None unless the game scores losses
        assert make_solver(game, Limits(time_limit=30)).value(state) == (expected, True), where


# -- 5. hint files ---------------------------------------------------------------------------------
@each_game
def test_hint_files_validate_and_verify(game):
    deal = game.new_deal(0)
    # moves it cannot value within the limits, or once 2 s of the whole are spent, are "unknown"
    # (a deadline, as `solve --time-limit`: Dead Center's CP-SAT values took minutes under load)
    limits = dataclasses.replace(SOLVER_LIMITS, deadline=time.perf_counter() + 2)
    solver = make_solver(game, limits)
    result = solver.solve(game.initial_state(deal))
    data = build_hints(game, deal, result, solver)
    assert data["game"] == game.name and len(data["decisions"]) == len(result.line)
    assert verify_hints(game, deal, data, reprove=lambda s: solve_open(game, s).verdict).startswith("ok")


@each_blind_game
def test_blind_hint_files_validate_and_verify(game):
    if plan_of(game).estimator == Estimator.DETERMINIZED and game.load_kernel() is None:
        pytest.skip("a whole blind game solves every move in each world: minutes with the pure-Python "
                    "open search (the kernel run covers it; the hidden-faces tests run on the reference)")
    deal = game.new_deal(0)
    # decisions after 3 s are played by the baseline, unvalued (The Emissary's rule weighs odds for
    # seconds a decision in pure Python: minutes a game under load)
    limits = Limits(deadline=time.perf_counter() + 3)
    data = build_blind_hints(game, deal, BlindPolicy(game, samples=1, exact_limits=Limits(max_states=50)), limits)
    assert data["mode"] == "blind" and data["decisions"]
    assert verify_hints(game, deal, data).startswith("ok")


@each_game
def test_pictures_match_the_schema_at_every_decision(game):
    """picture() and the player's picture(seen_only=True) validate against the hint schema's
    picture along the lines, and open mode shows at least as many faces as the player sees."""
    import jsonschema

    definitions = hint_schema(2)["$defs"]
    validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/picture", "$defs": definitions})
    checked = 0
    for line in lines(game)[:6]:
        for state in line.decisions[:40]:
            full, seen = state.picture(), state.picture(seen_only=True)
            validator.validate(full)
            validator.validate(seen)
            faces = lambda picture: sum("card" in c for p in picture["piles"] for c in p["cards"])
            assert faces(full) >= faces(seen)
            checked += 1
    assert checked


def test_a_version_1_hint_file_still_loads_and_an_unknown_version_is_refused():
    game = registry.get_game("syndicate")
    deal = game.new_deal(0)
    solver = make_solver(game, SOLVER_LIMITS)
    data = build_hints(game, deal, solver.solve(game.initial_state(deal)), solver)
    old = {**data, "version": 1, "decisions": [{k: v for k, v in d.items() if k != "picture"} for d in data["decisions"]]}
    assert verify_hints(game, deal, old).startswith("ok")
    with pytest.raises(SolodeckError, match="schema v1"):
        verify_hints(game, deal, {**old, "decisions": data["decisions"]})  # a picture is not version 1
    with pytest.raises(SolodeckError, match="version 3"):
        verify_hints(game, deal, {**data, "version": 3})


# -- 6. blind mode ----------------------------------------------------------------------------------
def unseen_count(chance_state) -> int:
    """The cards unseen at a chance node: its outcomes are single cards (each weighted by how
    many unseen cards give it) or sets of cards drawn at once (each card once)."""
    outcomes = chance_state.chance_outcomes()
    if isinstance(outcomes[0][0], tuple):
        return len({card for outcome, _w in outcomes for card in outcome})
    return sum(w for _o, w in outcomes)


def before_draws(line):
    """[(index, unseen)]: each decision of ``line`` with a draw ahead, and the most cards unseen
    at any draw still to come (a reshuffle can bring more); decisions before a draw with more
    than LISTABLE outcomes are passed over."""
    out, ahead, listable = [], None, True
    for i in range(len(line.nodes) - 1, -1, -1):
        state = line.nodes[i][0]
        if state.is_chance():
            count = state.chance_count()
            listable = listable and (count is None or count <= LISTABLE)
            ahead = max(ahead or 0, unseen_count(state)) if listable else None
        elif ahead is not None:
            out.append((i, ahead))
    return out[::-1]


@functools.cache
def blind_positions(game):
    """From the baseline lines, (line, index, unseen) of decisions with a draw ahead: ``early``,
    the first of each line; ``late``, per line that gets there, those with at most UNSEEN cards
    unseen."""
    early, late = [], []
    for line in lines(game):
        if line.how.startswith("baseline"):
            points = before_draws(line)
            early += [(line, *p) for p in points[:1]]
            late += [[(line, i, n) for i, n in points if n <= UNSEEN]]
    return early, [points for points in late if points]


# Games whose last unseen cards are no deal pile's bottom, so reordered() cannot build the twins:
# Skyway (every decision sees a market of 5 still to deal, and the last turns come from a
# reshuffle), Area 52 (wave 2 is a reshuffle of the discard pile), The Emissary (every visit's deck
# is a reshuffle), Friends in High Places (both piles are reshuffled every few turns) and Dungeon
# (every round's deck is a reshuffle). Their own tests check blind mode on positions built for it.
OWN_LATE_POSITIONS = {"skyway": "tests/test_skyway.py::test_blind_mode_on_last_turns",
                      "area-52": "tests/test_area52.py::test_open_play_bounds_blind_play_and_the_policy_never_sees_the_order",
                      "emissary": "tests/test_emissary.py::test_open_play_bounds_blind_play_and_the_policy_never_sees_the_order",
                      "friends-in-high-places": "tests/test_friends_in_high_places.py::"
                                                "test_the_blind_policy_never_sees_the_order_of_the_unseen_cards",
                      "dungeon": "tests/test_dungeon.py::test_open_play_bounds_blind_play_and_the_policy_never_sees_the_order"}


def skip_without_late_positions(game, late):
    if game.has_hidden:  # unseen faces on the table, not the bottom of a pile: tests 7 below
        pytest.skip(f"{game.name} hides faces: the hidden-face tests below, and the game's own tests check "
                    "open play bounds blind play on small positions")
    if game.name in OWN_LATE_POSITIONS:
        pytest.skip(f"{game.name}: its last unseen cards are a reshuffle, not a pile's bottom; "
                    f"see {OWN_LATE_POSITIONS[game.name]}")


def retrace(line, deal, stop):
    """Replay the first ``stop`` nodes of ``line`` on ``deal``: the line's moves, the deal's own
    draws. Returns the state reached and what the player saw on the way (the legal moves at each
    decision, each draw's outcome)."""
    state, seen = line.game.initial_state(deal), []
    for _state, move in line.nodes[:stop]:
        if state.is_chance():
            seen.append(state.dealt_outcome())
            state = state.apply_chance(seen[-1])
        else:
            seen.append(state.legal_moves())
            state = state.play(move)
    return state, seen


def reordered(line, stop, n, order):
    """The position ``line.nodes[stop]`` reached on the line's deal with the last ``n`` cards of
    a pile (piles are top first: the cards not drawn yet) put in ``order``, a permutation of
    range(n). Fails unless everything seen up to there stays the same."""
    expected_state, expected = retrace(line, line.deal, stop)
    for name, pile in line.deal.piles.items():
        if len(pile) >= n:
            head, tail = list(pile[:len(pile) - n]), list(pile[len(pile) - n:])
            deal = dataclasses.replace(line.deal, piles={**line.deal.piles, name: head + [tail[k] for k in order]})
            state, seen = retrace(line, deal, stop)
            if seen == expected and state.legal_moves() == expected_state.legal_moves():
                return state
    raise AssertionError(f"{line.game.name}, {line.how}: reordering the last {n} cards of a pile changes what was "
                         "seen; this test takes the cards still to draw to be the bottom of a pile")


@each_blind_game
def test_open_play_bounds_blind_play_on_small_positions(game):
    """Each order of the unseen cards is equally likely, and on each one the clairvoyant player
    does at least as well as any blind strategy: the mean open win is at least blind P(win)."""
    _early, late = blind_positions(game)
    skip_without_late_positions(game, late)
    assert len(late) >= 4, f"{game.name}: too few baseline lines get to {UNSEEN} unseen cards"
    for line, i, n in [points[0] for points in late[:4]]:
        state = line.nodes[i][0]
        blind = ExpectimaxSolver(game).value(state)[0]
        orders = every_order(range(n))
        open_wins = {}
        for order in orders:
            result = solve_open(game, reordered(line, i, n, order))
            assert result.exact
            open_wins[order] = result.verdict == "winnable"
        assert open_win_rate(orders, open_wins.get) >= blind - 1e-12, f"{game.name}, {line.how}:\n{state}"


@each_blind_game
def test_the_players_picture_never_shows_the_order_of_the_unseen_cards(game):
    early, late = blind_positions(game)
    skip_without_late_positions(game, late)
    for line, i, n in early[:2] + late[0]:
        order = list(range(n))[::-1]
        assert reordered(line, i, n, order).picture(seen_only=True) == line.nodes[i][0].picture(seen_only=True)


@each_blind_game
def test_the_blind_policy_never_sees_the_order_of_the_unseen_cards(game):
    """The unseen cards in another order, everything seen the same: the blind policy ranks the
    moves the same, estimated early and exact late (every late decision of two lines)."""
    early, late = blind_positions(game)
    skip_without_late_positions(game, late)
    policy = BlindPolicy(game, samples=4, exact_limits=Limits(max_states=2000))
    rng = random.Random(5)
    exact = estimated = 0
    for line, i, n in early[:2] + late[0] + late[-1]:
        state = line.nodes[i][0]
        order = list(range(n))
        while n > 1 and order == sorted(order):
            rng.shuffle(order)
        rows = policy.rank(state)
        assert policy.rank(reordered(line, i, n, order)) == rows, \
            f"{game.name}, {line.how}: the ranking changed with the order of the unseen cards at\n{state}"
        exact += rows[0]["exact"]
        estimated += not rows[0]["exact"]
    assert exact and estimated, f"{game.name}: exact {exact}, estimated {estimated}"


class RacingClock:
    """A clock that runs 1,000 s a reading: any budget in seconds is spent at its first check."""

    def __init__(self):
        self.now = 1e6

    def __call__(self) -> float:
        self.now += 1000.0
        return self.now

    @staticmethod
    def install(monkeypatch) -> None:
        """Every clock the searches may read becomes a racing one."""
        for name in ("perf_counter", "monotonic", "time", "process_time"):
            monkeypatch.setattr(time, name, RacingClock())


def spy_on_seconds(monkeypatch) -> list:
    """The budgets in seconds searches are given from now on (Limits.seconds, which also hands
    the kernels their time limits), appended to the list returned."""
    timed, seconds = [], Limits.seconds
    monkeypatch.setattr(Limits, "seconds", lambda self, default=None: timed.append(seconds(self, default)) or timed[-1])
    return timed


@each_blind_game
def test_blind_decisions_never_read_the_clock(game, monkeypatch):
    """Every budget inside a blind decision is counted in states, worlds or rollouts, never in
    seconds, so the same decision comes out on any machine under any load: no search inside it is
    given seconds (Limits.seconds, which also hands the kernels their time limits, answers None),
    and with a racing clock a fresh policy ranks the moves exactly as with the real one (with the
    game's own budgets)."""
    baseline = [line for line in lines(game) if line.how.startswith("baseline") and line.decisions]
    decisions = [baseline[0].decisions[0], baseline[1].decisions[0],
                 baseline[0].decisions[len(baseline[0].decisions) // 2]]
    decisions = [d for d in decisions if len(d.legal_moves()) > 1] or decisions[:1]
    timed = spy_on_seconds(monkeypatch)
    real = [BlindPolicy(game, samples=8).rank(state) for state in decisions]
    assert not [t for t in timed if t is not None], f"{game.name}: a search inside a blind decision was timed"
    RacingClock.install(monkeypatch)
    raced = [BlindPolicy(game, samples=8).rank(state) for state in decisions]
    assert raced == real, f"{game.name}: a blind decision changed with the clock"



@each_game
def test_hint_values_never_read_the_clock(game, monkeypatch):
    """Without a time limit each value of a hint file has a budget in positions (Limits.value_nodes),
    so a hint file is the same on every machine: no value() is given seconds, and with a racing
    clock the values of a random line's last positions come out the same."""
    line = random_line(game, 0, random.Random(0), MAX_NODES)
    states = [d for d in line.decisions if d.outcome() is None][-3:]
    timed = spy_on_seconds(monkeypatch)
    real = [make_solver(game, Limits()).value(state) for state in states]
    assert not [t for t in timed if t is not None], f"{game.name}: a value was given seconds"
    RacingClock.install(monkeypatch)
    assert [make_solver(game, Limits()).value(state) for state in states] == real, f"{game.name}: a value changed with the clock"

@each_blind_game
@pytest.mark.kernel_speed
def test_the_blind_game_is_the_same_alone_and_under_load(game):
    """The same seeded blind game, `solodeck play GAME --seed 11`, alone and as two copies at once
    (beside whatever else the suite runs): the same moves, whatever the machine's load."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "solodeck", "play", game.name, "--seed", "11", "--json"]
    alone = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    together = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    moves = [json.loads(out)["moves"] for out in [alone, *(p.communicate()[0] for p in together)]]
    assert moves[0] and moves[0] == moves[1] == moves[2], f"{game.name}: the game changed with the load"


# -- 7. hidden faces: the player's view -------------------------------------------------------------
def hidden_decisions(game, per_line=4):
    """Decisions of the baseline lines (and the random ones) with hidden faces, a few per line."""
    out = []
    for line in lines(game):
        picked = [s for s in line.decisions if s.view() != s.key()]
        out += picked[:: max(1, len(picked) // per_line)][:per_line]
    return out


@each_hidden_game
def test_sampled_worlds_keep_the_view_and_depend_only_on_it(game):
    """sample_world() redeals the hidden faces and nothing else: the same view and legal moves; and
    drawn from another world with the same view and the same generator, the same world."""
    checked = 0
    for state in hidden_decisions(game):
        world = state.sample_world(SplitMix64(1))
        assert world.view() == state.view() and world.legal_moves() == state.legal_moves()
        other = state.sample_world(SplitMix64(2))
        assert other.sample_world(SplitMix64(1)).key() == world.key()
        checked += 1
    assert checked >= 4


@each_hidden_game
def test_the_players_picture_never_shows_a_hidden_face(game):
    """Another world with the same view: the player's picture is the same, the open one is not."""
    differs = 0
    for state in hidden_decisions(game):
        twin = state.sample_world(SplitMix64(3))
        assert twin.picture(seen_only=True) == state.picture(seen_only=True), state.seen_text()
        differs += twin.picture() != state.picture()
    assert differs


@each_hidden_game
def test_the_blind_policy_never_sees_the_hidden_faces(game):
    """The hidden faces dealt anew, everything seen the same: a fresh blind policy ranks the
    moves the same (estimated: the worlds it samples come from the view alone, and each world's
    search has a budget in positions, not seconds)."""
    early = hidden_decisions(game, per_line=1)[:3]
    unseen_backs = backs_moved = 0
    for state in early:
        policy = BlindPolicy(game, samples=2, exact_limits=Limits(max_states=20))
        rows = policy.rank(state)
        twin = state.sample_world(SplitMix64(7))
        assert twin.key() != state.key() or len(twin.view()) == 0
        # Backs the player has not seen (Frozen Novelty's standard, hard, very hard) are dealt anew too.
        unseen_backs += _backs(state.picture(seen_only=True)) != _backs(state.picture())
        backs_moved += _backs(twin.picture()) != _backs(state.picture())
        policy_again = BlindPolicy(game, samples=2, exact_limits=Limits(max_states=20))
        again = policy_again.rank(twin)
        if policy.estimator.name == "determinized":  # a budget in positions: the same searches cut in both
            assert policy.estimator.capped == policy_again.estimator.capped
        assert again == rows, f"{game.name}: the ranking changed with the hidden faces at\n{state.seen_text()}"
    assert early
    assert backs_moved or not unseen_backs, f"{game.name}: no twin dealt the backs the player has not seen anew"


def _backs(picture):
    """The backs a picture shows on its face-down cards, in order (cards that show none: left out;
    games whose backs tell nothing show none)."""
    return [c["back"] for pile in picture["piles"] for c in pile["cards"] if c.get("down") and c.get("back")]
