"""Dead Center's kernel adapter (ext/dead_center.pyx: the legal moves and the rollouts): a state
as the kernel's arguments, and the kernel's moves read back. Open mode's engine is the CP-SAT
model, encodings/dead_center.py (DeadCenter.fast_solver)."""
from __future__ import annotations

from .rules import DOWN, Move


KERNEL_KINDS = ("reveal", "play", "kill", "pass")


def kernel_position(state) -> tuple:
    """The kernel's arguments for ``state``: its faces as the player knows them (the unseen ones as
    a set, in sorted order over the face-down spaces: where each lies is never read)."""
    unseen = iter(sorted(state.unseen_zombies()))
    faces = tuple(next(unseen) if st == DOWN else z for z, st in zip(state.zombies, state.status))
    return state.tops, faces, state.status, state.step, state.card, state.cell


def kernel_moves(kernel, state):
    """The kernel's legal moves (Game.kernel_moves), or None when it is not built."""
    if kernel is None or not state.legal_moves():
        return None
    return [Move(KERNEL_KINDS[k], w) for k, w in kernel.legal_moves(*kernel_position(state))]
