"""Skyway endgames as an OR-tools CP-SAT model: a second exact engine, independent of the search.

**Scope.** Only positions whose every future market is already fixed: the third pass with a
number of cards still to deal that is a multiple of 5 (the deck runs out exactly at the end of a
turn, so the game ends there with no reshuffle), the last turn after the final shuffle, or a
game that is over. Any other position has a reshuffle ahead whose cards depend on which cards
the line discards, so its markets cannot be constants of a model: UnsupportedError.

**Variables.** The position is taken after its dealt chance (solodeck.api.advance_chance): turn
0's market is on the table, turns 1 … T-1 are the deck's next groups of five. The stack sizes
are 2, 2 and 1 (STACK_SLICES), the same every turn.

- ``x[t, s, c]``: turn t takes stack s onto cell c; exactly one per turn. Every line of the
  position is one assignment of x and every assignment is a line (all 27 moves are always legal).
- ``R[t, c]`` (a linear expression, not a variable): the cards put on cell c in turns t … T-1.
- ``fits[t, c, b]`` implies R[t, c] <= b. A cell keeps its top 3 cards, so a card lies in the final
  grid iff fewer than 3 - depth cards went on top of it later: an old card at depth a from the top
  of its cell is in the final grid iff R[0, c] <= 2 - a, and a card of turn t's stack at depth a
  within the stack (its top card has depth 0) iff its stack went onto c and R[t + 1, c] <= 2 - a.
- ``at[k, c]``: card k is in cell c at the end. Old cards: at = fits[0, c, 2 - a]. New cards:
  at[k, c] implies x[t, s, c] and fits[t + 1, c, 2 - a]. Cards are distinct, so k is one card.
- The chains, per suit: ``used[k]`` (card k is on the suit's chain), ``first[k]`` (it starts the
  chain) and ``edge[i, j]`` for cards i < j of the suit (in value order: chains climb, so the
  graph is acyclic): j follows i. used[j] = first[j] + (edges into j), (edges out of i) <= used[i],
  at most one first. In a DAG, in- and out-degrees <= 1 make the used cards disjoint paths, each
  with one card without a predecessor, its first: one first, so one path. An edge needs its two
  cards in orthogonally adjacent cells: for each cell c of i, edge[i, j] and at[i, c] imply at[j, c']
  for some neighbour c' of c (a clause). A used card is in some cell. L_s = sum of used.
- ``win`` implies every L_s >= 5. Objective: maximise 100 * win + sum of L_s.

**Why the optimum is exact.** Every constraint on at, fits and win is one-directional (each true
literal implies a fact of the final grid); the converse never restricts a solution. So (a) every
solution's x is a line whose final grid holds a chain of each suit of at least L_s cards, and wins
if ``win`` is set: the objective never overstates the line (soundness); and (b) for every line,
setting fits and at to the true facts of its final grid, and used / first / edge along a longest
chain of each suit, satisfies every constraint with L_s the true chain lengths and win the true
verdict (completeness). Hence the maximum of the objective is max over lines of 100 * win + score,
and since a score is at most 40 < 100, that is the lexicographic "win first, then the score"
(the best loss score when no line wins). The decoded line is replayed under the reference engine
(finish_open) and its score must equal the objective's.

**Symmetry.** The 8 symmetries of the square keep every chain. Those that map the current grid
onto itself (all 8 for an empty grid) map any line to a line with the same score, so turn 0's cell
is restricted to the smallest cell of its orbit under them: this cuts no optimum.
"""
from __future__ import annotations

import time

from ortools.sat.python import cp_model

from solodeck.api import advance_chance
from solodeck.errors import UnsupportedError
from solodeck.games.skyway.rules import (ADJACENT, CELLS, CHAIN_TO_WIN, HEIGHT, MARKET, PASSES, STACK_SLICES,
                                         SUITS, SYMMETRIES, Take, chain_lengths)
from solodeck.result import Limits, SolveResult, StopReason, finish_open

WIN_WEIGHT = 100  # above any score (4 suits x at most 10 cards)
STACKS = range(len(STACK_SLICES))


def fixed_markets(state) -> list:
    """The market of every turn left (each a tuple of 5 cards, bottom of stack 1 first) of a
    decision state whose future has no reshuffle; UnsupportedError otherwise."""
    if state.final:
        return [state.market]
    if state.passno != PASSES or len(state.deck) % MARKET:
        why = (f"pass {state.passno} of {PASSES}" if state.passno != PASSES
               else f"{len(state.deck)} cards left to deal, not a multiple of {MARKET}")
        raise UnsupportedError(f"skyway: the CP-SAT model needs every future market fixed, but a reshuffle is "
                               f"still ahead here ({why}) and its cards depend on the line played; "
                               "use --engine dfs")
    deck = state.deck
    return [state.market] + [deck[i:i + MARKET] for i in range(0, len(deck), MARKET)]


class SkywayModel:
    """The CP-SAT model of a Skyway decision state whose markets are all fixed (see the module doc)."""

    def __init__(self, state):
        self.state = state
        self.markets = markets = fixed_markets(state)
        self.turns = T = len(markets)
        m = self.model = cp_model.CpModel()
        sizes = [b - a for a, b in STACK_SLICES]

        # The moves.
        x = self.x = {(t, s, c): m.new_bool_var(f"x{t}_{s}_{c}")
                      for t in range(T) for s in STACKS for c in range(CELLS)}
        for t in range(T):
            m.add_exactly_one(x[t, s, c] for s in STACKS for c in range(CELLS))
        self._break_symmetry(state.grid)

        # fits[t, c, b] => (cards put on c in turns t ... T-1) <= b
        fits = {}

        def fit(t, c, b):
            if t == T:  # nothing comes after the last turn: always fits
                return None
            if (t, c, b) not in fits:
                fits[t, c, b] = f = m.new_bool_var(f"fit{t}_{c}_{b}")
                later = sum(sizes[s] * x[u, s, c] for u in range(t, T) for s in STACKS)
                m.add(later <= b).only_enforce_if(f)
            return fits[t, c, b]

        # at[card] = {cell: literal "the card is in that cell at the end"}
        at = self.at = {}
        for c, stack in enumerate(state.grid):
            for i, card in enumerate(stack):
                depth = len(stack) - 1 - i
                at[card] = {c: fit(0, c, HEIGHT - 1 - depth)}
        for t, market in enumerate(markets):
            for s, (a, b) in enumerate(STACK_SLICES):
                for i, card in enumerate(market[a:b]):
                    depth = b - a - 1 - i
                    cells = {}
                    for c in range(CELLS):
                        cells[c] = lit = m.new_bool_var(f"at{card}_{c}")
                        m.add_implication(lit, x[t, s, c])
                        room = fit(t + 1, c, HEIGHT - 1 - depth)
                        if room is not None:
                            m.add_implication(lit, room)
                    at[card] = cells

        # The chains.
        self.length = []
        for suit in range(SUITS):
            cards = sorted(card for card in at if card // 13 == suit)
            used = {k: m.new_bool_var(f"used{k}") for k in cards}
            first = {k: m.new_bool_var(f"first{k}") for k in cards}
            ins = {k: [] for k in cards}
            outs = {k: [] for k in cards}
            for n, i in enumerate(cards):
                for j in cards[n + 1:]:
                    # can i and j lie in adjacent cells at all?
                    if not any(c2 in at[j] for c in at[i] for c2 in ADJACENT[c]):
                        continue
                    e = m.new_bool_var(f"edge{i}_{j}")
                    for c, lit in at[i].items():
                        m.add_bool_or([~e, ~lit] + [at[j][c2] for c2 in ADJACENT[c] if c2 in at[j]])
                    outs[i].append(e)
                    ins[j].append(e)
            for k in cards:
                m.add(sum(ins[k]) + first[k] == used[k])
                m.add(sum(outs[k]) <= used[k])
                m.add_bool_or([~used[k]] + list(at[k].values()))
            m.add(sum(first.values()) <= 1)
            self.length.append(sum(used.values()))
        self.win = m.new_bool_var("win")
        for length in self.length:
            m.add(length >= CHAIN_TO_WIN).only_enforce_if(self.win)
        m.maximize(WIN_WEIGHT * self.win + sum(self.length))

    def _break_symmetry(self, grid):
        """Turn 0's cell is the smallest of its orbit under the symmetries that keep the grid."""
        keep = [perm for perm in SYMMETRIES if all(grid[perm[i]] == grid[i] for i in range(CELLS))]
        for c in range(CELLS):
            if min(perm[c] for perm in keep) < c:
                for s in STACKS:
                    self.model.add(self.x[0, s, c] == 0)

    def decode(self, solver) -> list:
        """The solution's line: one Take per turn."""
        line = []
        for t in range(self.turns):
            s, c = next((s, c) for s in STACKS for c in range(CELLS) if solver.value(self.x[t, s, c]))
            line.append(Take(s + 1, c + 1))
        return line


class CpSatSolver:
    """DepthFirstSolver's ``solve`` interface on the CP-SAT model. ``workers`` CP-SAT threads."""

    def __init__(self, game, limits: Limits | None = None, workers: int = 1):
        self.game, self.limits, self.workers = game, limits or Limits(), workers

    def solve(self, state) -> SolveResult:
        start = time.perf_counter()
        state = advance_chance(state)
        if state.outcome() is not None:
            return finish_open(self.game, state, [], won=state.outcome().won, start=start, engine="cpsat")
        model = SkywayModel(state)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = max(1, self.workers)
        if self.limits.seconds() is not None:
            solver.parameters.max_time_in_seconds = self.limits.seconds()
        code = solver.solve(model.model)
        if code in (cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
            # Every line is a solution (all 27 moves are always legal): this is a bug, not an answer.
            raise AssertionError(f"internal error: the Skyway CP-SAT model is {solver.status_name(code)}")
        found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        line = model.decode(solver) if found else []
        won = found and bool(solver.value(model.win))
        result = finish_open(self.game, state, line, won=won,
                             stop=None if code == cp_model.OPTIMAL else StopReason.TIMEOUT,
                             nodes=solver.num_branches, start=start, engine="cpsat")
        if code == cp_model.OPTIMAL:
            final = self.game.replay_moves(state, line)
            if round(solver.objective_value) != WIN_WEIGHT * won + sum(chain_lengths(final.grid)):
                raise AssertionError("internal error: CP-SAT objective and the replayed line disagree")
        return result
