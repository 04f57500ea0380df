"""Dead Center in open mode as an OR-tools CP-SAT model: the game's exact engine (whole deals in
about a second, where the depth-first search does not finish; docs/rules/dead-center.md).

**What is modelled.** The position is taken after its dealt chance (solodeck.api.advance_chance):
a turn's start (REVEAL), a drawn card to place (PLACE) or a kill to choose (KILL). The draws are
known constants: ``draws[t]`` is the card of turn t (turn 0 is the drawn card at PLACE; at KILL it
is the card just played, already on its pile). Reveals are left out: from a turn's start any
sequence of kills can be revealed in time (reveal the face-down zombies in the order they die: the
j-th kill comes on turn j or later, its reveal on turn j at the latest), so a reveal never limits
a line that starts at a turn's start (rules page, "Reveals do not constrain open play"). Mid-turn,
the turn's reveal is done, so turn 0's kill must be of a face-up zombie.

**Variables.**

- ``active[t]``: turn t is played (the game is not won before it); active[t + 1] implies active[t].
- ``p[t, c]``: turn t's card goes on pile c; exactly one when active, none otherwise.
- ``top[c, t][i]``: pile c's top at the start of turn t is item i (the 9 tops of the position
  are items 0-8, turn t's card is item 9 + t): top[c, t + 1][i] = top[c, t][i] and not p[t, c],
  top[c, t + 1][9 + t] = p[t, c]. Exactly one is true per pile and turn, by induction.
- A card that does not fit item i: not (p[t, c] and top[c, t][i]).
- ``k[t, s]``: zombie s dies on turn t: implies p[t, cell(s)], and for every item i on support
  pile a, top[a, t][i] implies some item j on support pile b with (i, j) killing s. At most one
  kill per turn; every live zombie dies exactly once.

Objective: the fewest turns played, i.e. the most cards left in the deck at the win.

**Why the answers are exact.** Every line of the position gives a solution (its placements, its
tops, its kills; turns after the last kill inactive), and every solution is a line (each active
turn's card fits the top it goes on, each kill has its supports, each zombie dies once and the
reveals can be written in, see above). So OPTIMAL is the best score, INFEASIBLE proves that no
line wins, and anything else (a time limit) is inexact. The decoded line is replayed under the
reference engine (finish_open) and its score must equal the objective's.
"""
from __future__ import annotations

import time

from ortools.sat.python import cp_model

from solodeck.api import Outcome, advance_chance
from solodeck.games.dead_center.rules import (CELLS, DEAD, DOWN, KILL, PASS, PLACE, REVEAL, SPACE_CELL, SPACES,
                                              SUPPORTS, Move, fits, kills)
from solodeck.result import Limits, SolveResult, StopReason, finish_open


class DeadCenterModel:
    """The CP-SAT model of a Dead Center decision state (see the module's note)."""

    def __init__(self, state):
        self.state = state
        self.midturn = state.step in (PLACE, KILL)
        first = {PLACE: (state.card,), KILL: (state.tops[state.cell],)}.get(state.step, ())
        self.draws = first + state.deck
        self.items = state.tops + self.draws
        self.alive = [s for s in range(SPACES) if state.status[s] != DEAD]
        m = self.model = cp_model.CpModel()
        n = len(self.draws)
        self.active = [m.new_bool_var(f"active{t}") for t in range(n)]
        for t in range(n - 1):
            m.add_implication(self.active[t + 1], self.active[t])
        self.p = [[m.new_bool_var(f"p{t}_{c}") for c in range(CELLS)] for t in range(n)]
        for t in range(n):
            m.add(sum(self.p[t]) == self.active[t])
        if state.step == KILL:  # turn 0's card is already on its pile
            m.add(self.p[0][state.cell] == 1)
        top = [[{c: m.new_constant(1)}] for c in range(CELLS)]
        for c in range(CELLS):
            for t in range(n):
                now, placed = top[c][t], self.p[t][c]
                if not (t == 0 and state.step == KILL):
                    for i, lit in now.items():
                        if not fits(self.draws[t], self.items[i]):
                            m.add_bool_or([placed.Not(), lit.Not()])
                after = {}
                for i, lit in now.items():  # after = lit and not placed
                    stays = m.new_bool_var("")
                    m.add_bool_and([lit, placed.Not()]).only_enforce_if(stays)
                    m.add_bool_or([lit.Not(), placed, stays])
                    after[i] = stays
                after[CELLS + t] = placed
                top[c].append(after)
        self.k = [{s: m.new_bool_var(f"k{t}_{s}") for s in self.alive} for t in range(n)]
        for t in range(n):
            m.add_at_most_one(self.k[t].values())
            for s, dies in self.k[t].items():
                if t == 0 and self.midturn and state.status[s] == DOWN:
                    m.add(dies == 0)  # this turn's reveal is done: only a face-up zombie can die
                    continue
                m.add_implication(dies, self.p[t][SPACE_CELL[s]])
                a, b = SUPPORTS[s]
                zombie = state.zombies[s]
                for i, lit in top[a][t].items():
                    partners = [other for j, other in top[b][t].items() if kills(zombie, self.items[i], self.items[j])]
                    m.add_bool_or([dies.Not(), lit.Not()] + partners)
        for s in self.alive:
            m.add_exactly_one(self.k[t][s] for t in range(n))
        m.minimize(sum(self.active))

    def score(self, turns: int) -> int:
        """Cards left in the deck after ``turns`` turns (turn 0 of a mid-turn position drew already)."""
        return len(self.draws) - turns

    def decode(self, solver) -> list:
        """The solution as moves, played along on the reference engine: the reveals are written in
        the order the zombies die, and a kill decision the engine asks for is a kill or ``pass``."""
        turns = []  # (pile, space killed or None) per active turn, up to the last kill
        for t in range(len(self.draws)):
            if not solver.value(self.active[t]):
                break
            pile = next(c for c in range(CELLS) if solver.value(self.p[t][c]))
            turns.append((pile, next((s for s, v in self.k[t].items() if solver.value(v)), None)))
        reveals = [s for _pile, s in turns if s is not None and self.state.status[s] == DOWN]
        state, line = advance_chance(self.state), []
        for pile, space in turns:
            wanted = []
            if state.step == REVEAL:
                wanted.append(Move("reveal", reveals.pop(0) + 1) if reveals else state.legal_moves()[0])
            if state.step != KILL or wanted:
                wanted.append(Move("play", pile + 1))
            wanted.append(Move("kill", space + 1) if space is not None else PASS)
            for move in wanted:
                if move == PASS and PASS not in state.legal_moves():
                    continue  # nothing to kill: the engine asks no kill decision
                line.append(move)
                state = advance_chance(state.play(move))
        return line


class CpSatSolver:
    """DepthFirstSolver's interface (``solve``, ``value``) on the CP-SAT model. ``workers`` CP-SAT
    threads; values are remembered by key (hint files value the same positions again)."""

    def __init__(self, game, limits: Limits | None = None, workers: int = 1):
        self.game, self.limits, self.workers = game, limits or Limits(), workers
        self.values: dict = {}

    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        state = advance_chance(state)
        if state.outcome() is not None:
            return finish_open(self.game, state, [], won=state.outcome().won, start=start, engine="cpsat")
        model, solver, code = self._run(state)
        found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        line = model.decode(solver) if found else []
        result = finish_open(self.game, state, line, won=found,
                             stop=None if code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) else StopReason.TIMEOUT,
                             nodes=solver.num_branches, start=start, engine="cpsat")
        if code == cp_model.OPTIMAL and result.score != model.score(round(solver.objective_value)):
            raise AssertionError("internal error: the CP-SAT objective and the replayed line disagree")
        if result.exact:  # finish_open replayed the line: its score is the line's
            self.values[state.key()] = self.game.utility(Outcome(found, result.score))
        return result

    def value(self, state):
        """(exact utility, True), or (None, False) if the time limit stopped the solver."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        known = self.values.get(state.key())
        if known is not None:
            return known, True
        model, solver, code = self._run(state)
        if code == cp_model.INFEASIBLE:
            value = self.game.utility(None)
        elif code == cp_model.OPTIMAL:
            value = (1, model.score(round(solver.objective_value)))
        else:
            return None, False
        self.values[state.key()] = value
        return value, True

    def _run(self, state):
        model = DeadCenterModel(state)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = max(1, self.workers)
        if self.limits.seconds() is not None:
            solver.parameters.max_time_in_seconds = self.limits.seconds()
        code = solver.solve(model.model)
        if code == cp_model.MODEL_INVALID:
            raise AssertionError("internal error: the Dead Center CP-SAT model is invalid")
        return model, solver, code

