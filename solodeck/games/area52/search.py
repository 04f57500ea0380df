"""Area 52's moves in the compiled kernel (ext/area52.pyx): the conversions both ways. Open mode
has no search of its own: solvers.make_solver runs the generic anytime search."""
from __future__ import annotations

from .rules import Action


_KERNEL_KINDS = ("dual", "single", "sacrifice")


def _to_kernel(move: Action) -> tuple:
    return _KERNEL_KINDS.index(move.kind), move.cards[0], move.cards[1] if move.kind == "dual" else -1


def _from_kernel(move, alien=None) -> Action:
    kind, a, b = move
    return Action(_KERNEL_KINDS[kind], (a, b) if b >= 0 else (a,), alien)


def kernel_moves(kernel, state) -> list:
    """The kernel's legal moves against the current attacker, as Actions."""
    alien = state.attackers[0]
    return [_from_kernel(m, alien) for m in kernel.legal_moves(state.table, alien, state.wave)]
