"""The Emissary's own open-mode solver: the kernel's search split at the visits
(ext/emissary.pyx) behind DepthFirstSolver's interface (KernelSolver), and the kernel's reading
of the legal moves (kernel_moves)."""
from __future__ import annotations

import time

from ...api import NoWin, Outcome, advance_chance
from ...result import Limits, StopReason, finish_open
from .rules import ACT, CHOOSE, DEBATE, DISCARD, JACKS, KINGDOMS, RESPOND, SPADES, Move, suit, wins_debate


class KernelSolver:
    """DepthFirstSolver's interface (``solve``, ``value``) on the kernel's search. The kernel
    values a decision between visits or between debates; a debate's card and diamonds' discards
    are valued here, one move deeper. Its tables last while the deal's seed does (a hint file
    values every position of a line)."""

    def __init__(self, game, kernel, limits: Limits | None = None):
        self.game, self.kernel, self.limits = game, kernel, limits or Limits()
        self.search = None

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        search = self._search(state)
        stop, line = None, []
        try:
            if state.outcome() is None:
                line = self._line(state, self._root_value(state))
        except self.kernel.Stopped:
            stop, line = StopReason.TIMEOUT, []
        end = self.game.replay_moves(state, line).outcome()
        if stop is None and search.truncated:  # a line may need more reshuffles than were tried
            stop = StopReason.MEMORY_LIMIT
        return finish_open(self.game, state, line, won=bool(end and end.won), stop=stop, nodes=search.nodes,
                           stored=len(search.values), start=start, engine="kernel")

    def value(self, state):
        """(exact utility, True), or (None, False) if the time limit stopped the search."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        search = self._search(state)
        try:
            value = self._value(state, -1)
        except self.kernel.Stopped:
            return None, False
        if search.truncated:
            return None, False
        return self._utility(value), True

    # -- the kernel's values -----------------------------------------------------------------------
    def _search(self, state):
        if self.search is None or self.search.seed != state.seed:
            self.search = self.kernel.Search(state.seed)
        self.search.limit(self.limits.seconds() or 0.0)
        return self.search

    def _utility(self, value: int):
        win = self.kernel.WIN_VALUE
        return self.game.utility(Outcome(value >= win, value - win if value >= win else value))

    def _root_value(self, state) -> int:
        """The exact value, aiming first at the best win still possible, then one point lower each
        time, then (no win at all) at the best loss."""
        bound = state.score_bound()
        if not isinstance(bound, NoWin):
            win = self.kernel.WIN_VALUE
            for aim in range(win + bound, win + KINGDOMS - 1, -1):
                value = self._value(state, aim - 1)
                if value >= aim:
                    return value
        return self._value(state, -1)

    def _value(self, state, alpha: int) -> int:
        """The kernel's value of a state after its dealt chance: exact above ``alpha``, else an upper
        bound at most ``alpha``."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.score + (self.kernel.WIN_VALUE if outcome.won else 0)
        if state.step in (CHOOSE, ACT):
            arr, avail, deck, pos, hand, scoring = self._encode(state)
            if state.step == CHOOSE:
                return self.search.between(arr, avail, deck, pos, hand, alpha)
            return self.search.visit(arr, avail, state.kingdom, deck, pos, hand, scoring, state.jacks,
                                     state.kingdom + 1 - len(state.scoring), alpha)[0]
        best = -1  # a debate's card or a discard: the best child
        for move in state.legal_moves():
            best = max(best, self._value(advance_chance(state.play(move)), max(alpha, best)))
        return best if best > alpha else alpha

    def _line(self, state, value: int) -> list:
        """Moves from ``state`` (exact value ``value``) to the end. Between visits, the kernel's
        stored choice (a kingdom and a label); within a visit, the first move from which the
        kernel can still reach that label (its table holds the line it found)."""
        line = []
        while state.outcome() is None:
            if state.step == CHOOSE:
                self._value(state, value - 1)
                kingdom, label = self.search.choice(*self._encode(state)[:5])
                state = advance_chance(state.play(Move("visit", target=kingdom + 1)))
                line.append(Move("visit", target=kingdom + 1))
            elif state.step == ACT:
                arr, avail, deck, pos, hand, scoring = self._encode(state)
                label = self.search.visit(arr, avail, state.kingdom, deck, pos, hand, scoring, state.jacks,
                                          state.kingdom + 1 - len(state.scoring), value - 1)[1]
            else:  # a debate's card or a discard at the start: the first move that keeps the value
                move = next(m for m in state.legal_moves() if self._value(advance_chance(state.play(m)), value - 1) >= value)
                line.append(move)
                state = advance_chance(state.play(move))
                continue
            moves, state = self._visit_line(state, label)
            line += moves
        return line

    def _visit_line(self, state, label):
        """The moves to the end of the visit under way that end it as ``label`` says, and the state
        after them."""
        if label == "fail":
            goal = None
        else:
            spent, kingdoms, reshuffles = label
            goal = (tuple(kingdoms), tuple(spent), state.shuffles + reshuffles)
        line = []
        while state.outcome() is None and state.kingdom >= 0:
            for move in self._ordered(state):
                if goal is None and move.kind == "use" and move.card not in JACKS:
                    continue  # a failure is worth most spending nothing
                after = goal if goal is None else self._label_after(goal, move)
                if after is False:
                    continue
                child = advance_chance(state.play(move))
                if self._fails(child) if goal is None else self._succeeds(child, after):
                    break
            else:
                raise AssertionError("internal error: the kernel's label has no line")
            line.append(move)
            state, goal = child, after
        return line, state

    def _ordered(self, state) -> list:
        """The moves in the kernel's order (so that its table answers): the debate, then the
        abilities by suit, each suit's jack before its supporters; the cards of a debate that
        win first when the hand needs many wins, else those that lose."""
        if state.step == RESPOND:
            many = 2 * (state.kingdom + 1 - len(state.scoring)) >= len(state.hand)
            return sorted(state.legal_moves(),
                          key=lambda m: (wins_debate(m.card, state.lead, state.trump()) != many, m.card))
        return sorted(state.legal_moves(), key=lambda m: (m.kind != "debate", suit(m.card), m.card not in JACKS))

    @staticmethod
    def _label_after(goal, move):
        """The label left after ``move`` (kingdoms to swap with, supporters to spend per suit,
        the shuffle count to end with), or False if the move is not part of it."""
        kingdoms, spent, shuffles = goal
        if move.kind != "use":
            return goal
        if move.card not in JACKS:
            s = suit(move.card)
            if not spent[s]:
                return False
            spent = spent[:s] + (spent[s] - 1,) + spent[s + 1:]
        if suit(move.card) == SPADES:
            if not kingdoms or move.target - 1 != kingdoms[0]:
                return False
            kingdoms = kingdoms[1:]
        return kingdoms, spent, shuffles

    def _succeeds(self, state, goal) -> bool:
        """Can the visit still end as ``goal`` says (a success)?"""
        kingdoms, spent, shuffles = goal
        if state.outcome() is not None or state.kingdom < 0:  # the visit is over
            ended = state.shuffles - (0 if state.outcome() is not None else 1)
            return not state.lost and not kingdoms and not any(spent) and ended == shuffles
        if state.shuffles > shuffles:
            return False
        if state.step == ACT:
            arr, _avail, deck, pos, hand, scoring = self._encode(state)
            return self.search.reach(deck, pos, hand, scoring, state.trump(), state.jacks,
                                     state.kingdom + 1 - len(state.scoring), self.kernel.swap_code(arr, state.kingdom, kingdoms),
                                     sum(n << 2 * s for s, n in enumerate(spent)), shuffles - state.shuffles)
        return any(self._succeeds(advance_chance(state.play(m)), self._label_after(goal, m))
                   for m in self._ordered(state) if self._label_after(goal, m) is not False)

    def _fails(self, state) -> bool:
        """Can the visit still end in failure, spending no supporter?"""
        if state.outcome() is not None or state.kingdom < 0:
            return state.lost
        if state.step == ACT:
            arr, _avail, deck, pos, hand, scoring = self._encode(state)
            return self.search.can_fail(deck, pos, hand, scoring, state.trump(), state.jacks,
                                        state.kingdom + 1 - len(state.scoring), self.kernel.others(arr, state.kingdom))
        return any(self._fails(advance_chance(state.play(m))) for m in self._ordered(state)
                   if m.kind != "use" or m.card in JACKS)

    def _encode(self, state):
        """The kernel's form of a decision: each kingdom's ruler's suit (-1 once won), the unspent
        supporters per suit, the deck (id, position), the hand and the scoring pile as card masks."""
        k = self.kernel
        arr = tuple(-1 if state.visited >> i & 1 else suit(r) for i, r in enumerate(state.rulers))
        avail = [0] * 4
        for i, ruler in enumerate(state.rulers):
            if state.visited >> i & 1 and not state.spent >> i & 1:
                avail[suit(ruler)] += 1
        if state.shuffles:
            self.search.fresh_deck(state.shuffles)  # so that the deck is found as the rest of a known one
        deck, pos = self.search.locate(state.shuffles, [k.to_index(c) for c in state.deck])
        hand = sum(1 << k.to_index(c) for c in state.hand)
        scoring = sum(1 << k.to_index(c) for c in state.scoring)
        return arr, tuple(avail), deck, pos, hand, scoring


def kernel_moves(kernel, state) -> list:
    """Game.kernel_moves at a decision: the kernel's legal moves (ext/emissary.pyx legal_moves) as
    reference moves."""
    arr = tuple(-1 if state.visited >> i & 1 else suit(r) for i, r in enumerate(state.rulers))
    supporters = [[r for i, r in enumerate(state.rulers) if state.visited >> i & 1 and not state.spent >> i & 1
                   and suit(r) == s] for s in range(4)]
    step = {CHOOSE: 0, ACT: 1, RESPOND: 2, DISCARD: 3}[state.step]
    hand = sum(1 << kernel.to_index(c) for c in state.hand)
    moves, used = [], [0] * 4
    others = sum(1 for j in range(KINGDOMS) if j != state.kingdom and arr[j] >= 0)
    for kind, *rest in kernel.legal_moves(step, arr, tuple(map(len, supporters)), state.kingdom, hand,
                                          state.jacks, kernel.to_index(state.lead) if state.lead >= 0 else 0):
        if kind == "visit":
            moves.append(Move("visit", target=rest[0] + 1))
        elif kind == "debate":
            moves.append(DEBATE)
        elif kind in ("play", "discard"):
            moves.append(Move(kind, kernel.to_card(rest[0])))
        else:
            s, jack, other = rest
            if jack:
                ability = JACKS[s]
            else:  # the supporters of a suit one after the other, a spades one with each other kingdom
                ability = supporters[s][used[s] // (others if s == SPADES else 1)]
                used[s] += 1
            moves.append(Move("use", ability, other + 1 if other >= 0 else 0))
    return moves
