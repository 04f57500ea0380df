"""The First Boba Tea Shop's kernel adapter (ext/boba.pyx): a position packed for the kernel, and
the kernel's moves read back. Open mode needs no solver of its own: the generic search reaches the
score bound on its first line."""
from __future__ import annotations

from .rules import KICK, STAY, Target


def set_kernel_position(search, state):
    search.set_position(state.queues, state.discards, state.deck, state.target, state.hand or 0, state.burn)


def from_kernel(move):
    return STAY if move == "stay" else KICK if move == "kick" else Target(move[1] + 1, move[2])


def kernel_moves(kernel, state):
    """The kernel's legal moves (Game.kernel_moves), or None when it is not built."""
    if kernel is None or state.is_chance() or state.outcome() is not None:
        return None
    search = kernel.Search(1.0)
    set_kernel_position(search, state)
    return [from_kernel(m) for m in search.moves()]
