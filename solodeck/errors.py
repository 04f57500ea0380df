"""Errors a user can cause. The command line prints them on one line and exits with status 2."""


class SolodeckError(Exception):
    """Base of every error that is the input's fault, not the program's."""


class DealError(SolodeckError):
    """A deal file (or deal text) is wrong: names the file, the field and what was expected."""

    def __init__(self, source: str, field: str, problem: str):
        self.source, self.field, self.problem = source, field, problem
        where = ": ".join(part for part in (source, f"field '{field}'" if field else "") if part)
        super().__init__(f"{where}: {problem}" if where else problem)


class MoveError(SolodeckError):
    """A move text does not parse, or names a move that is not legal here."""


class UnknownGameError(SolodeckError):
    pass


class UnsupportedError(SolodeckError):
    """The game does not support what was asked (a mode, an engine, a feature)."""
