"""Dungeon's blind play: the baseline, the rule the rollouts play (the baseline, or the value-table
rule: State.rule_move on values.py's table), the kernel's rollouts of it and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan
from ...solvers.rollouts import candidate_moves
from . import values as DV
from .rules import CHOOSE, DEAL, PAIR, value

# the rule rollouts play: "baseline", or "table" (State.rule_move), a stronger rule alone (24% vs
# 21% at distance 4) whose rollouts tie the baseline's at 1.8 times the time (rules page)
RULES = ("baseline", "table")


def baseline_move(state):
    """The baseline: choose the offered card that would bring the path's end nearest K♦ (the
    lower value on a tie: easier to beat); pair for the round score that leaves the path's
    end nearest K♦ (a win first), the higher score on a tie."""
    if state.step == CHOOSE:
        return min(state.legal_moves(), key=lambda m: (state._promise(m.card, 1), value(m.card), m.card))
    return state.search_moves()[0]


def plan() -> BlindPlan:
    # 256 rollouts per move (in the kernel): wins are rare, few rollouts rank by noise; spent by
    # sequential halving on the moves in contention (rules page). Exact blind values fit only a
    # last round's pairing. search_moves(): one pairing per round score (at most 7).
    return BlindPlan(samples=256, halving=True, exact_states=50, candidates=7)


def blind_rule(game, state):
    """The rule the rollouts play (``game.rule``): the baseline, or the value-table rule
    (State.rule_move: the table of this SKILL and distance instead of the distance to K♦)."""
    if game.rule == "baseline" or state.step not in (CHOOSE, PAIR) or state.result is not None:
        return game.baseline_move(state)
    return state.rule_move(game.value_table(state))


def value_table(state, kernel):
    return DV.value_table(value(state.skill), state.distance, kernel)


def fast_rollouts(game, kernel, state, samples, seed, moves=None):
    """[(move, wins, 0)]: solvers/rollouts.py's rollouts of the blind rule for each candidate move, in the
    kernel (the same draws: sample i uses SplitMix64(seed + i), one draw per card dealt, by the
    deck's counts of values, as State.sample_chance does), of the rule ``game.rule`` names."""
    if kernel is None or state.step not in (CHOOSE, PAIR) or not state.legal_moves():
        return None
    stats, table = [], game.rule == "table"
    for move in candidate_moves(game, state) if moves is None else moves:
        after = state.play(move)
        if after.result is not None:
            stats.append((move, samples if after.result == "won" else 0, 0))
            continue
        counts = [0] * 14
        for card in after.deck:
            counts[value(card)] += 1
        monster = value(after.monster) if after.step == DEAL else -1
        wins = kernel.rollouts(counts, [value(c) for c in after.path], after.extra, monster, value(after.skill),
                               after.distance, samples, seed,
                               game.value_table(after).kernel_args() if table else None)
        stats.append((move, wins, 0))
    return stats
