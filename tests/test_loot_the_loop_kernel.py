"""Loot the Loop's kernel (ext/loot_the_loop.pyx) against the reference engine: the same legal
moves and the same positions after each move along seeded lines, and the same best outcome as the
reference searches (solvers/reach.py, pruned and plain, and a brute force) on endgames they can
finish; the score bound against the brute force; limits that never claim a proof; the same answer
on every run (budgets in states)."""
from __future__ import annotations

import pytest

from conftest import PUZZLES
from solodeck.api import NoWin, Outcome, advance_chance
from solodeck.deals import load_deal
from solodeck.ext import extensions_disabled
from solodeck.games.loot_the_loop import GAME, search
from solodeck.games.loot_the_loop.rules import card_class, card_of
from solodeck.result import Limits
from solodeck.shuffle import SplitMix64
from solodeck.solvers import ReachabilitySolver, make_solver, solve_open
from test_loot_the_loop import ENDGAMES, brute_force, position

kernel = GAME.load_kernel()
needs_kernel = pytest.mark.skipif(kernel is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")


def random_lines(seeds, length=400):
    """The decisions along random legal lines of seeded deals (chance as dealt)."""
    for seed in seeds:
        rng = SplitMix64(seed)
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        for _ in range(length):
            moves = state.legal_moves()
            if not moves:
                break
            yield state
            state = advance_chance(state.play(moves[rng.next() % len(moves)]))


def classes(state):
    return search.kernel_position(state)


def winning_lines(seeds):
    """The decisions along the kernel's winning lines (a budget of 100,000 positions) of seeded deals."""
    for seed in seeds:
        state = advance_chance(GAME.initial_state(GAME.new_deal(seed)))
        result = make_solver(GAME, Limits(None, 100_000)).solve(state)
        for move in result.line:
            yield state
            state = advance_chance(state.play(move))


@needs_kernel
def test_the_kernel_moves_and_positions_are_the_reference_s():
    compared = 0
    for state in list(random_lines(range(1, 41))) + list(winning_lines(range(4))):
        fast = GAME.kernel_moves(state)
        assert sorted(map(str, fast)) == sorted(map(str, state.legal_moves())), str(state)
        deck, notes, _exited = classes(state)
        for kind, value in kernel.Search(1.0).legal_moves(deck, notes):
            move = search.reference_move(state, kind, value)
            after = advance_chance(state.play(move))
            got = kernel.Search(1.0).play(deck, notes, kind, value)
            assert got == (tuple(classes(after)[0]), tuple(sorted(classes(after)[1])), after.exited), (str(state), str(move))
            compared += 1
    assert compared > 2000


def test_kernel_positions_keep_classes_and_faces():
    state = position("(TC) 9S 4C (AD) 7D JK", "5H")
    deck, notes, exited = search.kernel_position(state)
    assert deck[:6] == [card_class(card_of(c)) * 2 + (c & 1) for c in state.deck[:6]]
    assert deck[0] == (10 + 1) * 2 and deck[1] == (9 + 1) * 2 + 1 and notes == [5] and not exited


def endgame_states():
    states = [position(deck, notes) for deck, notes, _won in ENDGAMES]
    states += [GAME.initial_state(load_deal(PUZZLES / "loot-the-loop" / f"{name}.toml"))
               for name in ("win-1", "win-2", "win-3", "lost-1", "lost-2", "lost-3")]
    return states


@needs_kernel
@pytest.mark.parametrize("index", range(14))
def test_the_kernel_s_best_outcome_is_the_reference_s(index):
    state = endgame_states()[index]
    fast = make_solver(GAME, Limits(60)).solve(state)
    assert fast.engine == "kernel"
    plain = ReachabilitySolver(GAME, Limits(120), prune=False).solve(state)
    assert fast.exact and plain.exact
    assert (fast.status, fast.verdict, fast.score) == (plain.status, plain.verdict, plain.score)
    end = GAME.replay_moves(advance_chance(state), fast.line)
    outcome = end.outcome() or end.stop_outcome()
    assert outcome == Outcome(fast.verdict == "winnable", fast.score)
    if len(state.deck) <= 19:
        (won, best), _seen = brute_force(state)
        assert (won == 1, best) == (fast.verdict == "winnable", fast.score)


def small_positions(count, seed):
    """Random endgames: the twelve traps and the joker, up to 4 aces and trinkets in the deck and
    up to 2 in the notes, random faces (aces and trinkets in the deck face up or down)."""
    rng = SplitMix64(seed)
    posts = "JS QS KS JH QH KH JD QD KD JC QC KC JK".split()
    others = "AS AH AD AC 2S 3H 4D 5C 6S 7H 8D 9C TS 2H 5D 9S".split()
    for _ in range(count):
        pool = others[:]
        chosen = []
        for _k in range(1 + rng.next() % 4):
            chosen.append(pool.pop(rng.next() % len(pool)))
        trinkets = [c for c in pool if c[0] not in "A"]
        notes = [trinkets.pop(rng.next() % len(trinkets)) for _k in range(rng.next() % 3)]
        words = posts + chosen
        for i in range(len(words) - 1, 0, -1):
            j = rng.next() % (i + 1)
            words[i], words[j] = words[j], words[i]
        deck = " ".join(w if rng.next() % 3 else f"({w})" for w in words)
        yield deck, " ".join(notes)


@pytest.mark.parametrize("deck, notes", list(small_positions(60, 7)))
def test_the_score_bound_holds_on_brute_forced_endgames(deck, notes):
    """score_bound (two trinkets at least stay in play at a win; with one, nothing more is
    scored) never promises less than the brute force reaches, and the kernel (when built) and the
    pruned reference search find what the brute force finds."""
    state = position(deck, notes)
    (won, best), _seen = brute_force(state)
    assert GAME.bound_utility(state.score_bound()) >= (won, best)
    result = solve_open(GAME, state, Limits(60))
    assert result.exact and (result.verdict == "winnable") == (won == 1) and result.score == best


def test_one_trinket_left_scores_nothing_more():
    """With one trinket in play its own explores never land on it, and after any card it scores
    it lies too deep to be explored again: no win with an ace left, and a win scores the pile."""
    state = position("(AD) 5H (JS) (QS) (KS) (JH) (QH) (KH) (JD) (QD) (KD) (JC) (QC) (KC) JK")
    assert state.score_bound() == NoWin(state.score + 1)
    (won, best), _seen = brute_force(state)
    assert won == 0 and best <= state.score + 1
    ready = position("5H (JS) (QS) (KS) (JH) JK (QH) (KH) (JD) (QD) (KD) (JC) (QC) (KC)")
    assert ready.score_bound() == ready.score == 39
    (won, best), _seen = brute_force(ready)
    assert (won, best) == (1, 39)


@needs_kernel
def test_a_state_budget_gives_the_same_answer_every_run_and_never_a_proof():
    state = GAME.initial_state(GAME.new_deal(0))
    results = [make_solver(GAME, Limits(None, 200_000)).solve(state) for _ in range(2)]
    a, b = results
    assert not a.exact and a.status == "memory-limit"
    assert (a.verdict, a.score, [str(m) for m in a.line]) == (b.verdict, b.score, [str(m) for m in b.line])
    if a.verdict == "winnable":
        assert GAME.replay_moves(advance_chance(state), a.line).won and a.score_bound == 38


@needs_kernel
def test_a_time_limit_never_claims_a_loss_or_a_best_score():
    state = GAME.initial_state(GAME.new_deal(3))
    result = make_solver(GAME, Limits(0.05)).solve(state)
    assert not result.exact and result.verdict in ("winnable", "unknown") and result.status == "timeout"


@needs_kernel
def test_a_stuck_start_is_proven_lost_by_the_kernel():
    seed = next(s for s in range(100) if all(
        card_of(c) == 52 or not 2 <= card_of(c) % 13 + 1 <= 10
        for c in GAME.initial_state(GAME.new_deal(s)).deck[:2]))
    result = make_solver(GAME, Limits(10)).solve(GAME.initial_state(GAME.new_deal(seed)))
    assert result.exact and result.verdict == "unwinnable" and result.score == 0


def test_without_the_kernel_the_generic_search_plays(monkeypatch):
    monkeypatch.setenv("SOLODECK_NO_EXTENSIONS", "1")
    assert extensions_disabled() and GAME.fast_solver(Limits(1)) is None
    assert isinstance(make_solver(GAME, Limits(1)), ReachabilitySolver)


@needs_kernel
def test_a_win_at_the_bound_is_proven_best():
    """Seed 862: the first pass meets a win scoring 38, the bound of every position with two
    trinkets in play, so the search ends there with the best score proven."""
    state = GAME.initial_state(GAME.new_deal(862))
    result = make_solver(GAME, Limits(None, 2_000_000)).solve(state)
    assert result.exact and result.status == "solved" and result.score == 38
    assert GAME.replay_moves(advance_chance(state), result.line).outcome() == Outcome(True, 38)


@needs_kernel
@pytest.mark.parametrize("seed", [185, 477])
def test_each_pass_finds_the_wins_the_other_misses(seed):
    """Seed 185's first win lies beyond 1,000,000 positions in the second pass's order, seed
    477's in the first's: the two passes find both within 2,000,000 positions."""
    state = GAME.initial_state(GAME.new_deal(seed))
    result = make_solver(GAME, Limits(None, 2_000_000)).solve(state)
    assert result.verdict == "winnable" and not result.exact and result.status == "memory-limit"
    assert result.score_bound == 38 and GAME.replay_moves(advance_chance(state), result.line).won
