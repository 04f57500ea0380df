"""Syndicate as an OR-tools CP-SAT model: a second exact engine, independent of the search.

A time-indexed planning encoding. Step t = 0 … T-1 is one promotion (or nothing, once the game
is over); the variables describe the position after each step and the move of each step. The
objective is the fewest sacrifices. A solution is decoded into solodeck's move notation and
replayed under the reference engine before it is reported.

**Horizon, and why "infeasible" proves a deal unwinnable.** Every promotion from rank r uses up
one candidate of rank r. Rank r's candidates are the dealt ones plus the cards promoted from rank
r + 1 into its candidates. Rank r cannot promote before it has three members, and member counts
never fall, so at least need(r) = 3 - members(r) of rank r + 1's promotions went to its members
first. Hence P(r) <= C(r) + P(r + 1) - need(r) (and P(r) = 0 when P(r + 1) < need(r)), from rank 5
up. A game ends at its first promotion from rank 1, so it has at most P(5) + … + P(2) + 1 moves.
From a deal's opening that is 9 + 13 + 15 + 15 + 1 = 53. Any winning line fits in T moves, so a
model with no solution proves that no win exists. The same bounds are added as constraints
(promotions per rank); they are valid for every line, so they cut nothing that could win.

Three cuts keep the model small and change no optimum: the normal form of the move order (see
docs/rules/syndicate.md, "How the solver searches", 3: every line reorders into it with the same
moves), a promoted card is never sacrificed itself (sending it to the candidates is as good), and
rank 5's opening members are chosen in ascending slot order (the slots are interchangeable).
"""
from __future__ import annotations

import time

from ortools.sat.python import cp_model

from solodeck.games.syndicate.rules import Choose, Promote
from solodeck.result import Limits, SolveResult, StopReason, finish_open

RANKS = range(1, 6)
SLOTS = range(3)
VALUES = range(1, 11)
# (a, b, c): members a and b stay, c may replace (its digit is that of a + b or a * b);
# (0, 0, 0) is a step with no move.
REPLACEMENTS = [(a, b, c) for a in VALUES for b in VALUES for c in VALUES
                if c % 10 in ((a + b) % 10, (a * b) % 10)] + [(0, 0, 0)]


def promotion_bounds(members, candidates, opening: bool) -> dict:
    """rank -> the most promotions that rank can make in any game from here (see the module doc)."""
    bounds, arrivals = {}, 0
    for r in range(5, 0, -1):
        need = 0 if (opening and r == 5) else 3 - len(members[r - 1])
        bounds[r] = 0 if arrivals < need else len(candidates[r - 1]) + arrivals - need
        arrivals = bounds[r]
    return bounds


class SyndicateModel:
    """The CP-SAT model of a Syndicate position (the opening included when a reserve is left)."""

    def __init__(self, state):
        self.state = state
        self.opening = bool(state.reserve)
        self.bounds = promotion_bounds(state.members, state.candidates, self.opening)
        self.horizon = T = sum(self.bounds[r] for r in range(2, 6)) + 1
        m = self.model = cp_model.CpModel()

        # s[t, r, k]: the value in member slot k of rank r after t steps (0 = empty). Slots fill
        # in order 0, 1, 2 and never empty again; a replacement takes its promoted card's slot.
        s = self.slot = {(t, r, k): m.new_int_var(0, 10, f"s{t}_{r}_{k}")
                         for t in range(T + 1) for r in RANKS for k in SLOTS}
        # filled[t, r, k] <=> slot k of rank r holds a card after t steps
        filled = {}
        for key, var in s.items():
            filled[key] = b = m.new_bool_var(f"f{key}")
            m.add(var >= 1).only_enforce_if(b)
            m.add(var == 0).only_enforce_if(~b)
        # n[t, r, v]: rank r's candidates of value v after t steps
        n = {(t, r, v): m.new_int_var(0, 4, f"n{t}_{r}_{v}") for t in range(T + 1) for r in RANKS for v in VALUES}

        # The position before the first step.
        for r in RANKS:
            for v in VALUES:
                m.add(n[0, r, v] == state.candidates[r - 1].count(v))
            if self.opening and r == 5:
                self._choose_opening(s, state.reserve)
                continue
            padded = list(state.members[r - 1]) + [0] * (3 - len(state.members[r - 1]))
            for k in SLOTS:
                m.add(s[0, r, k] == padded[k])

        self.act, self.pick, self.into, self.to_members, self.sacrifice = {}, {}, {}, {}, {}
        self.take = {}
        for t in range(T):
            # act[t, r]: the step promotes from rank r; pick[t, r, k]: the card in slot k
            act = {r: m.new_bool_var(f"act{t}_{r}") for r in RANKS}
            moved = sum(act.values())
            m.add(moved <= 1)
            pick = {(r, k): m.new_bool_var(f"pick{t}_{r}_{k}") for r in RANKS for k in SLOTS}
            for r in RANKS:
                m.add(sum(pick[r, k] for k in SLOTS) == act[r])
                m.add_implication(act[r], filled[t, r, 2])  # exactly three members (slot 2 fills last)
            # the promoted value, the two that stay, the replacement: one table for the digit rule
            promoted, stay_a, stay_b, take = (m.new_int_var(0, 10, f"{x}{t}") for x in "MABC")
            m.add_allowed_assignments([stay_a, stay_b, take], REPLACEMENTS)
            for (r, k), p in pick.items():
                m.add(promoted == s[t, r, k]).only_enforce_if(p)
                m.add(stay_a == s[t, r, (k + 1) % 3]).only_enforce_if(p)
                m.add(stay_b == s[t, r, (k + 2) % 3]).only_enforce_if(p)
            # one-hot copies of the replacement and promoted values, for the candidate counts
            take_is = {v: m.new_bool_var(f"c{t}_{v}") for v in VALUES}
            promoted_is = {v: m.new_bool_var(f"m{t}_{v}") for v in VALUES}
            m.add(sum(take_is.values()) == moved)
            m.add(sum(promoted_is.values()) == moved)
            m.add(take == sum(v * b for v, b in take_is.items()))
            m.add(promoted == sum(v * b for v, b in promoted_is.items()))

            # Where the promoted card goes: rank r - 1's members (to_members) or candidates.
            to_members = m.new_bool_var(f"tom{t}")
            m.add(to_members + act[1] <= moved)  # a rank-1 promotion wins: it goes nowhere
            # into[q, k]: it enters slot k of rank q = r - 1's members
            into = {(q, k): m.new_bool_var(f"into{t}_{q}_{k}") for q in range(1, 5) for k in SLOTS}
            sacrifice = m.new_bool_var(f"sac{t}")
            for q in range(1, 5):
                arrives = _and(m, act[q + 1], to_members, f"arr{t}_{q}")
                m.add(sum(into[q, k] for k in SLOTS) == arrives)
                for k in SLOTS:
                    # the first empty slot, if there is one ...
                    for j in range(k):
                        m.add_bool_or([~into[q, k], filled[t, q, k], filled[t, q, j]])
                    # ... else (three members) one member is replaced: a sacrifice
                    m.add_bool_or([~into[q, k], ~filled[t, q, k], filled[t, q, 2]])
                    m.add_bool_or([~into[q, k], ~filled[t, q, k], sacrifice])
                    m.add(s[t, q, k] != promoted).only_enforce_if([into[q, k], filled[t, q, k]])

            # The position after the step.
            for r in RANKS:
                for k in SLOTS:
                    moves_in = into.get((r, k))
                    keep = m.new_bool_var(f"keep{t}_{r}_{k}")
                    m.add(pick[r, k] + (moves_in if moves_in is not None else 0) + keep == 1)
                    m.add(s[t + 1, r, k] == take).only_enforce_if(pick[r, k])
                    if moves_in is not None:
                        m.add(s[t + 1, r, k] == promoted).only_enforce_if(moves_in)
                    m.add(s[t + 1, r, k] == s[t, r, k]).only_enforce_if(keep)
                for v in VALUES:
                    used = _and(m, act[r], take_is[v], f"use{t}_{r}_{v}")
                    if r < 5:  # a card promoted from rank r + 1 into rank r's candidates
                        arrived = _and(m, act[r + 1], promoted_is[v], f"pc{t}_{r}_{v}", unless=to_members)
                        m.add(n[t + 1, r, v] == n[t, r, v] - used + arrived)
                    else:
                        m.add(n[t + 1, r, v] == n[t, r, v] - used)
            self.act[t], self.pick[t], self.into[t] = act, pick, into
            self.to_members[t], self.sacrifice[t], self.take[t] = to_members, sacrifice, take

        # Normal form (docs/rules/syndicate.md, "How the solver searches", 3): the next move is at
        # a rank no lower than the last one's, or enters the last rank's full members with a
        # sacrifice. Every line can be reordered so, keeping its moves, so this cuts no win.
        rank_of = [sum(r * a for r, a in self.act[t].items()) for t in range(T)]
        for t in range(T - 1):
            climbs = m.new_bool_var(f"climb{t}")
            m.add(rank_of[t + 1] <= rank_of[t]).only_enforce_if(~climbs)
            m.add(rank_of[t + 1] == rank_of[t] + 1).only_enforce_if(climbs)
            m.add_implication(climbs, self.sacrifice[t + 1])
            m.add_implication(climbs, self.to_members[t + 1])

        # The game: moves form a prefix of the steps and end with one win.
        for t in range(T - 1):
            m.add(sum(self.act[t + 1].values()) + self.act[t][1] <= sum(self.act[t].values()))
        m.add(sum(self.act[t][1] for t in range(T)) == 1)
        for r in RANKS:  # the horizon's bounds, as valid cuts
            m.add(sum(self.act[t][r] for t in range(T)) <= self.bounds[r])
        m.minimize(sum(self.sacrifice.values()))

    def _choose_opening(self, s, reserve):
        """Rank 5's members are any three reserve cards, in ascending slot order."""
        m = self.model
        choices = []  # choices[k][v]: slot k holds value v
        for k in SLOTS:
            is_value = {v: m.new_bool_var(f"open{k}_{v}") for v in set(reserve)}
            m.add_exactly_one(is_value.values())
            m.add(s[0, 5, k] == sum(v * b for v, b in is_value.items()))
            choices.append(is_value)
        for v in set(reserve):
            m.add(sum(choice[v] for choice in choices) <= reserve.count(v))
        m.add(s[0, 5, 0] <= s[0, 5, 1])
        m.add(s[0, 5, 1] <= s[0, 5, 2])

    def decode(self, solver) -> list:
        """The solution's line in solodeck's move notation."""
        value = solver.value
        line = []
        if self.opening:
            line.append(Choose(tuple(sorted(value(self.slot[0, 5, k]) for k in SLOTS))))
        for t in range(self.horizon):
            rank = next((r for r in RANKS if value(self.act[t][r])), None)
            if rank is None:
                break
            k = next(k for k in SLOTS if value(self.pick[t][rank, k]))
            member, take = value(self.slot[t, rank, k]), value(self.take[t])
            if rank == 1:
                line.append(Promote(1, member, "win", take))
                break
            if not value(self.to_members[t]):
                line.append(Promote(rank, member, "c", take))
                continue
            slot = next(j for j in SLOTS if value(self.into[t][rank - 1, j]))
            victim = value(self.slot[t, rank - 1, slot]) or None
            line.append(Promote(rank, member, "m", take, victim))
        return line


def _and(model, a, b, name, unless=None):
    """A new bool equal to a AND b (AND NOT unless)."""
    z = model.new_bool_var(name)
    parts = [a, b] + ([~unless] if unless is not None else [])
    for x in parts:
        model.add_implication(z, x)
    model.add_bool_or([z] + [~x for x in parts])
    return z


class CpSatSolver:
    """DepthFirstSolver's ``solve`` interface on the CP-SAT model. ``workers`` CP-SAT threads."""

    def __init__(self, game, limits: Limits | None = None, workers: int = 1):
        self.game, self.limits, self.workers = game, limits or Limits(), workers

    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        if state.outcome() is not None:
            return finish_open(self.game, state, [], won=state.outcome().won, start=start, engine="cpsat")
        model = SyndicateModel(state)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        if self.limits.seconds():
            solver.parameters.max_time_in_seconds = self.limits.seconds()
        code = solver.solve(model.model)
        # The horizon is a proven bound on any game's length, so OPTIMAL and INFEASIBLE are proofs;
        # FEASIBLE is a win whose optimality a limit left unproven.
        line = model.decode(solver) if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) else []
        exhaustive = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        won = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        result = finish_open(self.game, state, line, won=won, stop=None if exhaustive else StopReason.TIMEOUT,
                             nodes=solver.num_branches, start=start, engine="cpsat")
        if result.exact and result.line and result.score != state.sacrificed + round(solver.objective_value):
            raise AssertionError("CP-SAT objective and the replayed line disagree")
        return result
