"""Cython kernels (imported as solodeck.ext). Each mirrors a pure-Python reference engine.

:func:`load` returns a compiled kernel module, or None when it is not built or when
SOLODECK_NO_EXTENSIONS=1 asks for the pure-Python reference; callers then fall back.
"""
import importlib
import os


def extensions_disabled() -> bool:
    return os.environ.get("SOLODECK_NO_EXTENSIONS", "") not in ("", "0")


def load(name: str):
    if extensions_disabled():
        return None
    try:
        return importlib.import_module(f"solodeck.ext.{name}")
    except ImportError:
        return None


class BlindValuer:
    """The base of a game's ``fast_expectimax`` adapter (solvers/expectimax.py): a kernel
    ``Search`` under the limits, its counters, and why a limit stopped it. A game adds
    ``accepts(state)`` and ``value(state)``."""

    def __init__(self, kernel, limits):
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)

    @property
    def status(self):
        from solodeck.result import StopReason

        return StopReason.from_code(self.search.stopped)

    @property
    def nodes(self):
        return self.search.nodes

    @property
    def stored(self):
        return self.search.stored
