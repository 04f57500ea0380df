"""How the blind policy plays a game: :class:`BlindPlan`, the solvers' settings, which a game
picks for itself (``Game.blind_plan``) and a study varies (``solodeck compare --policy
blind:samples=256,halving=false``) without touching the game. Every field is documented here,
once. A leaf module: it imports nothing of solodeck."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Callable


class Estimator(StrEnum):
    """How a decision beyond the exact expectimax tree is valued."""

    ROLLOUTS = "rollouts"          # each candidate move, then the game's blind rule to the end, over
                                   # sampled draws of the unseen cards (solvers/rollouts.py)
    DETERMINIZED = "determinized"  # sampled worlds of the hidden faces, each solved open by the game's
                                   # exact engine (solvers/determinized.py)
    RULE = "rule"                  # the blind rule's own move is played; rollouts value it alone (every
                                   # move in analysis: solve and hint files) unless BlindPlan.estimate is off


@dataclass(frozen=True)
class BlindPlan:
    estimator: Estimator = Estimator.ROLLOUTS
    samples: int = 64              # per decision: rollouts per move (ROLLOUTS, RULE), or sampled worlds
                                   # (DETERMINIZED, each far dearer than a rollout)
    candidates: int | None = None  # how many of State.search_moves() (best first) the estimator values;
                                   # None: every legal move. The others are listed last, unvalued
    estimate: bool = True          # RULE: roll the rule's move out for its value; False where a rollout
                                   # costs too much to spend at every decision of play (the rule weighs odds at
                                   # every step): it goes unvalued there, and only analysis (solve and hint
                                   # files) rolls out, unless analysis_samples is 0
    analysis_samples: int | None = None
                                   # rollouts per move (or sampled worlds) of `solve --mode blind`'s answer;
                                   # None: 1,000 (100 sampled worlds); 0: with estimate off, analysis rolls
                                   # nothing out either (a game whose rollouts exist only in its kernel)
    keep_rule: bool = False        # the blind rule's own move is always a candidate and, among moves of
                                   # equal wins, first: the policy leaves the rule only for more wins
    confirm: int = 0               # with keep_rule: a move the rollouts rank above the rule's is played only
                                   # if it also wins more of this many fresh draws, the rule's move on the
                                   # same ones (the best of many noisy estimates is biased up: without it
                                   # Friends' policy left its rule for worse moves; 0: no confirmation)
    halving: bool = False          # the rollouts' budget (samples x moves) spent by sequential halving on
                                   # the moves still in contention, not shared equally (rollouts.halving_stats)
    rank_losses: bool = False      # Python rollouts sum the scores of their lost games too, and no exact
                                   # answer is taken where nothing wins (the losses' scores decide, and only
                                   # rollouts measure them): games whose losses score and are rarely won.
                                   # (Moves of equal wins are ranked by a fourth column wherever rollouts
                                   # give one: a kernel may give its own, e.g. how near its lost games came.)
    exact_states: int | Callable | None = None
                                   # states the exact attempt at a decision may store before the estimator
                                   # takes over: a number (0: no exact attempt), None (20,000 with the
                                   # game's compiled valuer, about 30 ms; else 500, the Python valuer
                                   # being ~100x slower), or a function of the decision
                                   # returning either (a game whose trees shrink late affords more there)
    preference: Callable | None = None
                                   # (state, move) -> float, read from what the player sees: the
                                   # determinizer orders each world's moves by it (higher first) before
                                   # the world's own order, so it breaks ties between moves winning in as
                                   # many worlds. None: no preference

    def exact_states_at(self, state, compiled: bool) -> int:
        """The exact attempt's budget at this decision (see ``exact_states``)."""
        states = self.exact_states(state) if callable(self.exact_states) else self.exact_states
        return (20_000 if compiled else 500) if states is None else states

    def varied(self, spec: str) -> "BlindPlan":
        """This plan with the fields of ``spec`` changed: "samples=256,halving=false,candidates=6"
        (whole numbers, true/false, none where a field may be None, an estimator's name). Raises
        ValueError naming a bad field or value."""
        known = {f.name: f for f in fields(self) if f.name not in ("exact_states", "preference")}
        changes = {}
        for item in filter(None, (part.strip() for part in spec.split(","))):
            name, _, text = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in known or not text:
                raise ValueError(f"'{item}': expected FIELD=VALUE with FIELD one of {', '.join(known)}")
            changes[name] = _parse_field(known[name], text.strip().lower())
        return replace(self, **changes)


def _parse_field(field, text: str):
    """A field's value from its text, by the field's type (from its default and annotation)."""
    if field.name == "estimator":
        try:
            return Estimator(text)
        except ValueError:
            raise ValueError(f"estimator={text}: expected one of {', '.join(e.value for e in Estimator)}") from None
    if isinstance(field.default, bool):
        if text not in ("true", "false"):
            raise ValueError(f"{field.name}={text}: expected true or false")
        return text == "true"
    if text == "none" and "None" in str(field.type):
        return None
    least = 1 if field.name == "samples" else 0
    if not text.isdigit() or int(text) < least:
        raise ValueError(f"{field.name}={text}: expected a whole number of at least {least}"
                         + (" or none" if "None" in str(field.type) else ""))
    return int(text)


def plan_of(game) -> BlindPlan:
    """The game's blind plan (Game.blind_plan), or the default one."""
    return game.blind_plan() or BlindPlan()
