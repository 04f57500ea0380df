"""The package version (one place: pyproject.toml repeats it)."""
__version__ = "0.1.0"
