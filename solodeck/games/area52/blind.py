"""Area 52 played blind: the baseline policy, the blind rule (rule_move) and its helpers, the
kernel's rollouts of the blind rule (fast_rollouts) and the blind plan."""
from __future__ import annotations

from ...solvers.plan import BlindPlan
from .rules import RED, VALUE, Action, losses
from .search import _to_kernel


# -- the baseline policy --------------------------------------------------------------------------
def baseline_move(state):
    """The baseline policy: the move that loses the fewest defenders; among equals a dual
    (lowest pair first), then a single with the lowest defender that can, then a sacrifice of
    the lowest defender."""
    alien = state.attackers[0]
    return min(state.legal_moves(),
               key=lambda m: (losses(m, alien, state.wave), _ORDER[m.kind], [VALUE[c] for c in m.cards]))


# -- the blind rule (Game.blind_rule; docs/rules/area-52.md "Blind mode") ----------------------------
# Losing the fewest defenders comes first, as in the baseline; among equals the rule keeps the table
# that answers most of the aliens still to come without a loss. The player knows their composition
# (the queued attackers, the unseen aliens, the returned ones), never their order, so it counts them.
def free_answers(table: tuple, wave: int) -> tuple:
    """(black, red): bit v set when an alien of that colour and value v has an answer on ``table``
    that loses no defender: a single (the other colour, higher) or a dual (wave 2: of two
    defenders of the other colour)."""
    out = []
    for alien_red in (False, True):
        other = [VALUE[d] for d in table if RED[d] != alien_red]
        pool = other if wave == 2 else [VALUE[d] for d in table]
        mask = (1 << max(other)) - 2 if other else 0  # values 1 .. highest - 1
        for i, a in enumerate(pool):
            for b in pool[i + 1:]:
                mask |= 1 << (a + b)
        out.append(mask)
    return tuple(out)


def covered(table: tuple, wave: int, counts: tuple) -> int:
    """How many of the aliens counted in ``counts`` ((black, red): aliens per value) ``table``
    answers without a loss."""
    masks = free_answers(table, wave)
    return sum(n for colour in (0, 1) for v, n in enumerate(counts[colour]) if n and masks[colour] >> v & 1)


def rule_move(state) -> Action:
    """The blind rule: the fewest defenders lost, then the most aliens to come answered without a
    loss by the table the move leaves (a sacrificed attacker comes back, so it counts too), then
    the baseline's order (dual, single, sacrifice; lower cards first)."""
    alien, wave = state.attackers[0], state.wave
    counts = ([0] * 14, [0] * 14)
    for card in state.attackers[1:] + state.hidden + state.returned:
        counts[RED[card]][VALUE[card]] += 1
    best = best_key = None
    for move in state.legal_moves():
        table = after_move(state.table, move, alien, wave)
        answered = covered(table, wave, counts)
        if move.kind == "sacrifice":
            answered += free_answers(table, wave)[RED[alien]] >> VALUE[alien] & 1
        key = (losses(move, alien, wave), -answered, _ORDER[move.kind], [VALUE[c] for c in move.cards])
        if best_key is None or key < best_key:
            best, best_key = move, key
    return best


_ORDER = {"dual": 0, "single": 1, "sacrifice": 2}


def after_move(table: tuple, move: Action, alien: int, wave: int) -> tuple:
    """The table ``move`` leaves against ``alien``, before the refill (unsorted)."""
    if move.kind == "dual":
        return tuple(d for d in table if not (wave == 2 and d in move.cards and RED[d] == RED[alien]))
    rest = tuple(d for d in table if d != move.cards[0])
    return rest + (alien,) if move.kind == "single" else rest


def plan() -> BlindPlan:
    # no exact attempt: it fits only the last few aliens (5 of 276 decisions at 100 states), where
    # the rule's rollouts decide as well, and cost 40% of the time; among equal rollout wins, the
    # blind rule's own move
    return BlindPlan(exact_states=0, keep_rule=True)


# -- the kernel: rollouts of the blind rule ------------------------------------------------------------
def kernel_rollouts(kernel, state, samples, seed) -> list:
    """Area52.fast_rollouts in the kernel: [(move, wins, score_sum)] of every legal move."""
    moves = state.legal_moves()
    stats = kernel.rollouts(state.table, state.defenders, state.attackers, state.to_flip, state.hidden,
                            state.returned, state.discard, state.wave, [_to_kernel(m) for m in moves],
                            samples, seed)
    return [(m, wins, total) for m, (wins, total) in zip(moves, stats)]
