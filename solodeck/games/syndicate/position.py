"""Syndicate's mid-game positions (``[position]`` in a deal file): the fields and the state
they describe (state_from_position)."""
from __future__ import annotations

from ...errors import DealError
from .rules import State, _parse_values, value_name


def state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``rank1`` … ``rank5`` tables with ``members`` / ``candidates`` strings of
    values (or cards), ``sacrificed`` (default 0), or ``reserve`` for the opening decision."""
    known = {f"rank{r}" for r in range(1, 6)} | {"sacrificed", "reserve"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    members, candidates = [()] * 5, [()] * 5
    for rank in range(1, 6):
        table = position.get(f"rank{rank}", {})
        field = f"position.rank{rank}"
        if not isinstance(table, dict) or set(table) - {"members", "candidates"}:
            raise DealError(source, field, "expected a table with 'members' and/or 'candidates'")
        for name, store in (("members", members), ("candidates", candidates)):
            try:
                store[rank - 1] = _parse_values(str(table.get(name, "")))
            except ValueError as exc:
                raise DealError(source, f"{field}.{name}", str(exc)) from None
        if len(members[rank - 1]) > 3:
            raise DealError(source, f"{field}.members", "a rank has at most 3 members")
    try:
        reserve = _parse_values(str(position.get("reserve", "")))
    except ValueError as exc:
        raise DealError(source, "position.reserve", str(exc)) from None
    if reserve and (any(members) or len(reserve) < 3):
        raise DealError(source, "position.reserve",
                        "a reserve (at least 3 values) is only for the opening, before any member is chosen")
    sacrificed = position.get("sacrificed", 0)
    if not isinstance(sacrificed, int) or sacrificed < 0:
        raise DealError(source, "position.sacrificed", f"expected a whole number >= 0, got {sacrificed!r}")
    everything = [v for group in members + candidates for v in group] + list(reserve)
    for v in set(everything):
        if everything.count(v) > 4:
            raise DealError(source, "position", f"value {value_name(v)} appears {everything.count(v)} times (at most 4)")
    return State(tuple(members), tuple(candidates), reserve, sacrificed)
