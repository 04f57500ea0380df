"""Dead Center's blind play: the baseline policy, the blind rule the rollouts play (it weighs
State.play_features and the odds of the unseen faces), the rollouts in the kernel or in Python,
and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan
from ...solvers.rollouts import candidate_moves, play_out
from .rules import DEAD, DOWN, PLACE, REVEAL, SPACES, SUPPORTS, Move, kills
from .search import KERNEL_KINDS, kernel_position


# -- the blind rule (Game.blind_rule; docs/rules/dead-center.md "Blind mode") -------------------------
# Its play weighs State.play_features, tuned on seeds 10000 and up (the rule's own wins in rollouts
# from each deal's start): kills now, ready, near, strong supports, the value gap, a joker covered,
# the odds of a ready reveal. The kills come far first; a joker on top takes any card, so covering
# one costs a little.
RULE_WEIGHTS = (100000, 5000, 300, 20, -5, -100, 10)


def rule_move(state):
    """The blind rule: reveal where the supports already kill the most of the unseen faces; play
    where the weighted play_features are highest (the first pile of equals); kill the first zombie
    possible. It reads the unseen faces only as a set, as the player knows them."""
    moves = state.legal_moves()
    if state.step == REVEAL:
        return Move("reveal", reveal_by_odds(state) + 1)
    if state.step == PLACE:
        return max(moves, key=lambda m: sum(w * f for w, f in zip(RULE_WEIGHTS, state.play_features(m))))
    return moves[0]


def reveal_by_odds(state) -> int:
    """The face-down space (0-11) whose two supports now kill the most of the unseen faces (the
    first of equals): the reveal most likely to find a zombie that dies at the next card on its pile."""
    unseen = state.unseen_zombies()
    odds = [sum(kills(z, *(state.tops[x] for x in SUPPORTS[s])) for z in unseen) if state.status[s] == DOWN else -1
            for s in range(SPACES)]
    return odds.index(max(odds))


def _python_rollouts(game, state, samples, seed, moves) -> list:
    """The kernel's rollouts of ``moves`` in Python (fast_rollouts without it): the same draws,
    the same rows."""
    from ...shuffle import SplitMix64

    stats = []
    for move in moves:
        wins = total = dead = 0
        for i in range(samples):
            final = play_out(game, state.play(move), SplitMix64(seed + i), game.blind_rule)
            outcome = final.outcome()
            if outcome.won:
                wins, total = wins + 1, total + outcome.score
            else:
                dead += sum(s == DEAD for s in final.status)
        stats.append((move, wins, total, dead))
    return stats


def baseline_move(state):
    """The baseline policy: reveal the first face-down space; play first by State.play_rank
    (kills now, zombies made ready, near, strong supports, the closest top, the first pile);
    kill the first zombie possible."""
    moves = state.legal_moves()
    return min(moves, key=state.play_rank) if state.step == PLACE else moves[0]


def plan() -> BlindPlan:
    # Rollouts, though the faces are hidden: a hidden face turns up only at a chance node over the
    # unseen faces, so rollouts sample it as the player would meet it. No exact attempt: it fits
    # only the last five cards or so, and on 280 deals (seeds 10000-10279) it changed no game's
    # outcome, at 30 ms a decision. 256 rollouts per move, spent by sequential halving on the moves
    # in contention: 256 won 39 deals 128 lost and lost 16 it won (133 tuning deals, p 0.003). Every
    # move (at most 12 reveals) is valued, in search_moves' order: the baseline's, so a tie in
    # rollouts goes its way.
    return BlindPlan(exact_states=0, samples=256, halving=True, candidates=SPACES)


def fast_rollouts(game, state, samples, seed, moves=None):
    """[(move, wins, sum of winning scores, zombies killed in the lost games)]: rollouts of
    the blind rule for every candidate move (solvers/rollouts.py ranks equal wins by the
    winning scores, then by the kills of the losses: where wins are rare, how near a move's
    games came). In the kernel; without it, the same draws in Python. Face-down faces go in
    only as the set of unseen faces. ``moves``: only these."""
    if not state.legal_moves():
        return None
    moves = candidate_moves(game, state) if moves is None else moves
    kernel = game.load_kernel()
    if kernel is None:
        return _python_rollouts(game, state, samples, seed, moves)
    tops, faces, status, step, card, cell = kernel_position(state)
    stats = kernel.rollouts(tops, faces, status, state.deck, step, card, cell,
                            [(KERNEL_KINDS.index(m.kind), m.where) for m in moves], samples, seed, RULE_WEIGHTS)
    return [(m, *row) for m, row in zip(moves, stats)]
