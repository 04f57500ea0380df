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


# Where positions repeat, a policy can also wander through new positions for ever (rearranging
# face-down cards): after this many decisions it is taken to have given up. Real games
# end far sooner (the longest wins measured take a few hundred).
MAX_DECISIONS = 3000


@dataclass
class Decision:
    state: object          # the position the player faced
    move: object           # the move played
    rows: list | None      # the policy's ranked moves there, when asked for (the first row is ``move``)


def play_episode(state, policy, rank: str = RANK_NEVER):
    """Play ``state`` to the end with ``policy`` (a callable state -> move). ``rank`` says at which
    decisions to ask ``policy.rank(state)`` and play its first row: never, at the first decision
    with a real choice, at every decision with a choice, or always. Returns (decisions, final
    state); a policy that gives up (returns None), comes back to a position it has already
    decided at, or reaches MAX_DECISIONS leaves a final state without an outcome: lost."""
    state = advance_chance(state)
    decisions: list[Decision] = []
    ranked_once = False
    met = set()  # the views decided at: where positions repeat, coming back to one is going round in circles
    while state.outcome() is None:
        view = state.view()
        if view in met or len(met) >= MAX_DECISIONS:  # round in circles, or wandering without end: lost
            break
        met.add(view)
        choice = len(state.legal_moves()) > 1
        wanted = (rank == RANK_ALWAYS or (rank == RANK_CHOICES and choice)
                  or (rank == RANK_FIRST_CHOICE and choice and not ranked_once))
        rows = policy.rank(state) if wanted else None
        if rows:
            ranked_once = True
            move = rows[0]["move"]
        else:
            move = policy(state)
        if move is None:  # the policy gives up (a baseline with only circles left): lost
            break
        decisions.append(Decision(state, move, rows))
        state = advance_chance(state.play(move))
    return decisions, state
