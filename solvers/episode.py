"""One episode: a policy plays a deal to the end, chance taking the dealt outcomes.

This is the loop behind `solodeck play`, blind hint files, blind analysis rows and the
benchmarks' win rates. The policy never sees more than the state shows it; the deal's order only
reaches the game through ``advance_chance`` (open chance: the dealt outcome).
"""
from __future__ import annotations

from dataclasses import dataclass

from solodeck.api import advance_chance

# When the policy's ranking of the moves is wanted (policy.rank(state): rows, best first):
RANK_NEVER, RANK_FIRST_CHOICE, RANK_CHOICES, RANK_ALWAYS = "never", "first-choice", "choices", "always"


@dataclass
class Decision:
    state: object          # the position the player faced
    move: object           # the move played
    rows: list | None      # the policy's ranked moves there, when asked for (the first row is ``move``)


def play_episode(state, policy, rank: str = RANK_NEVER):
    """Play ``state`` to the end with ``policy`` (a callable state -> move). ``rank`` says at which
    decisions to ask ``policy.rank(state)`` and play its first row: never, at the first decision
    with a real choice, at every decision with a choice, or always. Returns (decisions, final state)."""
    state = advance_chance(state)
    decisions: list[Decision] = []
    ranked_once = False
    while state.outcome() is None:
        choice = len(state.legal_moves()) > 1
        wanted = (rank == RANK_ALWAYS or (rank == RANK_CHOICES and choice)
                  or (rank == RANK_FIRST_CHOICE and choice and not ranked_once))
        rows = policy.rank(state) if wanted else None
        if rows:
            ranked_once = True
            move = rows[0]["move"]
        else:
            move = policy(state)
        decisions.append(Decision(state, move, rows))
        state = advance_chance(state.play(move))
    return decisions, state
