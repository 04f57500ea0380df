"""The Sandwich Guy's kernel adapter for open mode: the kernel's legal moves as moves. (Open mode
needs no solver of its own: the generic search takes milliseconds per deal.)"""
from __future__ import annotations

from .rules import Sandwich


def kernel_moves(kernel, state):
    if kernel is None or state.is_chance() or state.outcome() is not None:
        return None
    return [Sandwich(cards) for cards in kernel.legal(sorted(state.hand))]
