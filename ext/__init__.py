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
