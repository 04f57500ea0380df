"""Skyway played blind: the baseline policy, the kernel's rollouts (fast_rollouts) and exact
values of the last turn (LastTurnValuer, fast_expectimax), the blind plan; and the endgames the
tests and benchmarks build by playing the baseline."""
from __future__ import annotations

from ...api import advance_chance
from ...solvers.plan import BlindPlan
from .rules import MARKET, NUMBER_CARDS, PASSES, State, chain_lengths, placed, promise, seeded_state


# -- the baseline policy ------------------------------------------------------------------------------
def baseline_move(state):
    """The baseline policy: the move whose grid has the most chain cards counting up to 5 per
    suit, then the highest chain total, then the fewest cards buried, then the first in order."""
    best, best_rank = None, None
    for move in state.legal_moves():
        grid, buried = placed(state.grid, state.market, move)
        rank = (*promise(chain_lengths(grid)), -len(buried))
        if best_rank is None or rank > best_rank:
            best, best_rank = move, rank
    return best


def plan(kernel=None) -> BlindPlan:
    """The blind plan; ``kernel``: the compiled kernel, None when it is not built."""
    # Exact blind values fit only the last turn (27 moves, no draw after) and, with the kernel
    # (LastTurnValuer), the turn before: beyond, a single turn's draws are too many. The kernel rolls
    # out all 27 moves; Python only 6 (all 27 take half a minute a decision). Sequential halving:
    # the moves in contention get the draws (rules page).
    return BlindPlan(exact_states=30, candidates=None if kernel is not None else 6, halving=True)


# -- the kernel: rollouts and the exact last turn --------------------------------------------------
def kernel_rollouts(kernel, state, samples, seed, moves=None) -> list:
    """Skyway.fast_rollouts in the kernel: [(move, wins, score_sum)] of every legal move, or of
    only ``moves``."""
    moves = state.legal_moves() if moves is None else moves
    stats = kernel.rollouts(state.grid, state.market, state.deck, state.discard, state.passno, state.final,
                            [(m.stack, m.cell) for m in moves], samples, seed)
    return [(m, wins, total) for m, (wins, total) in zip(moves, stats)]


class LastTurnValuer:
    """Exact blind values of the last turn in the kernel (ext/skyway.pyx, blind_last_turn), for
    solvers/expectimax.py: every order of the draws that finish the last market, each followed by
    the best move. The turn before the last is then valued exactly too (27 moves, one kernel call
    each), where rollouts would only sample it."""

    status = None  # no limit ever stops it

    def __init__(self, kernel):
        self.kernel, self.nodes, self.stored = kernel, 0, 0

    def accepts(self, state):
        return state.is_chance() and state.turns_left() == 1

    def value(self, state):
        """(P(win), E[score x win])."""
        orders, wins, total = self.kernel.blind_last_turn(state.grid, state.market, state.deck, state.discard,
                                                          int(state.final))
        self.nodes += orders
        return wins / orders, total / orders


# -- endgames for tests and benchmarks ----------------------------------------------------------------
def natural_endgame(seed: int, turns: int):
    """The baseline's game of deal ``seed`` at the start of a third-pass turn with ``turns`` turns
    of 5 cards left (no reshuffle to come), or None if that game never has one."""
    state = seeded_state(seed)
    while state.outcome() is None:
        if (state.is_chance() and not state.market and state.passno == PASSES and len(state.deck) % MARKET == 0
                and len(state.deck) // MARKET == turns):
            return state
        state = advance_chance(state)
        if state.outcome() is None:
            state = state.play(baseline_move(state))
    return None


def built_endgame(seed: int, turns: int):
    """An endgame with ``turns`` turns left where baseline play rarely gets one (5 and more): the
    baseline plays deal ``seed`` while the grid leaves 5 x ``turns`` cards outside it; the other
    cards, deck first, become a third-pass deck of 5 x ``turns`` cards and a discard pile."""
    state = seeded_state(seed)
    while True:
        after = advance_chance(state)
        after = after.play(baseline_move(after))
        if after.outcome() is not None or sum(map(len, after.grid)) > len(NUMBER_CARDS) - MARKET * turns:
            break
        state = after
    rest = state.deck + state.discard
    return State(state.grid, (), rest[:MARKET * turns], tuple(sorted(rest[MARKET * turns:])), PASSES, PASSES - 1, seed)


def random_endgame(seed: int, grid_cards: int, deck_cards: int, passno: int):
    """A turn start of pass ``passno`` with ``deck_cards`` in the deck: the baseline plays deal
    ``seed`` until the grid holds at least ``grid_cards`` cards (at most 27), and the other cards,
    in an order drawn from ``seed``, are the deck and then the discard pile. Earlier passes have
    a reshuffle ahead whose cards depend on the line. None if the game ends first."""
    import random

    state = seeded_state(seed)
    while sum(map(len, state.grid)) < grid_cards:
        state = advance_chance(state)
        if state.outcome() is not None:
            return None
        state = state.play(baseline_move(state))
    grid = state.grid
    rest = [c for c in NUMBER_CARDS if not any(c in stack for stack in grid)]
    random.Random(seed).shuffle(rest)
    if deck_cards > len(rest):
        return None
    return State(grid, (), tuple(rest[:deck_cards]), tuple(sorted(rest[deck_cards:])), passno, passno - 1, seed,
                 over=passno == PASSES and not deck_cards)
