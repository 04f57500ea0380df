"""Friends in High Places' own open-mode solvers: the search by whole turns (TurnSolver), the
same in the compiled kernel (KernelSolver, ext/friends_in_high_places.pyx), the thinning rule
whose game gives the kernel its first win, and the kernel's moves as Moves."""
from __future__ import annotations

import time

from ...api import NO_WIN, Outcome, advance_chance
from ...result import Limits, SearchStopped, StopReason, finish_open
from .rules import (COURT, HAND, INFLUENCE, INTRIGUE, KING_OF_DIAMONDS, PASS, SPHERE, Move, can_take,
                    flat, is_ace, suit, value)


def kernel_moves(kernel, state):
    """The kernel's reading of the rules (ext/friends_in_high_places.pyx legal_moves) as
    moves, at an intrigue or an influence; None without the kernel."""
    if kernel is None or state.step not in (INTRIGUE, INFLUENCE) or state.end is not None:
        return None
    out = []
    for m in kernel.legal_moves(3 if state.step == INTRIGUE else 4, state.hand, state.court, state.royal_family):
        if m[0] == "remove":
            out.append(Move("remove", tuple(m[1])))
        elif m[0] == "acquire":
            out.append(Move("acquire", tuple(m[1]), m[2]))
        else:
            out.append(PASS)
    return out


def thinning_move(state):
    """A second simple rule, which thins the deck (what the open search's wins do): at the
    influence, take the K♦ if the hand can, else the court card of the highest sphere, then the
    highest value (with the fewest cards), never one whose purchase leaves the court fewer than 4
    cards. At the intrigue, of the intrigues that keep the K♦ and do not lose at once, the one
    after which the best court card the hand can take is highest; among those, remove the lowest
    hand card (aces lowest) while the player owns more than 4 cards (the deck thins to four: a
    hand card removed while owning 4 loses at once), else the two lowest court cards. It sees only
    the hand, the court and how many cards the player and the court have: a blind policy. (Which
    cards pay never matters: the hand is discarded at the end of the turn; the fewest, then the
    first in order, as in search_moves().)"""
    if state.step == INFLUENCE:
        king = state.king_takable()
        if king is not None:
            return king
        acquire = [m for m in state.legal_moves() if m.kind == "acquire" and not state.loses(m)]
        if not acquire:
            return PASS
        target = max(acquire, key=lambda m: (SPHERE[suit(m.target)], value(m.target))).target
        return min((m for m in acquire if m.target == target), key=lambda m: (len(m.cards), m.cards))
    court_cards = state.court_count()
    rank = lambda c: -1 if is_ace(c) else SPHERE[suit(c)] * 16 + value(c)

    def order(move):
        if state.loses(move):
            return ((-9, 0), False, 0, move.cards)
        hand = [c for c in state.hand if c not in move.cards]
        court = [c for c in state.court if c not in move.cards]
        buy = court_cards - (len(move.cards) == 2) * 2 - 1 >= COURT  # a purchase keeps the court at 4
        takable = [c for c in court if (buy or c == KING_OF_DIAMONDS) and can_take(hand, c, state.royal_family)]
        best = max(((99, 0) if c == KING_OF_DIAMONDS else (SPHERE[suit(c)], value(c)) for c in takable),
                   default=(-1, 0))
        if len(move.cards) == 1:
            return (best, True, -rank(move.cards[0]), move.cards)
        return (best, False, -sum(rank(c) for c in move.cards), move.cards)

    return max((m for m in state.legal_moves() if KING_OF_DIAMONDS not in m.cards), key=order)


# -- the open-mode search by whole turns ----------------------------------------------------------
VALUE_NODES = 5_000  # hint files without a time limit: the turn searches each value may make (pure Python)


class TurnSolver:
    """DepthFirstSolver's interface (``solve``, ``value``) on an iterative deepening over whole
    turns (docs/rules/friends-in-high-places.md, "How the solver plays it"). Threshold T = the
    root's score_bound(), then T + 1, ...: "is there a win by turn T?", the first yes is the fewest
    turns. A turn is one intrigue and one influence (search_moves(): one per court card taken).
    A failure is remembered per position with the turns it had left; the key leaves out a discard
    pile that cannot be reshuffled within those turns, so lines that differ only in which court
    cards went there meet. An iteration in which nothing was cut by the threshold proves that no
    win exists at all."""

    # KernelSolver's, kept where a stop may leave them: the best line found so far (from the state
    # searched) and the proven range (lo, hi) of the fewest turns, or None
    best = None
    range = None

    def __init__(self, game, limits: Limits | None = None, progress=None):
        self.game, self.limits, self.progress = game, limits or Limits(), progress
        self.nodes = 0
        self.node_end = None  # value(): the node count that stops it (Limits.value_nodes)
        self.failed: dict = {}
        self.scope = None

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        stop, line, won = None, [], False
        try:
            found = self._deepen(state)
            if found is not None:
                line, won = found, True
        except SearchStopped as stopped:
            stop = stopped.reason
        return finish_open(self.game, state, line, won=won, stop=stop, nodes=self.nodes, stored=len(self.failed),
                           start=start, engine="turns")

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        nodes = self.limits.value_nodes(VALUE_NODES)
        self.node_end = None if nodes is None else self.nodes + nodes
        try:
            line = self._deepen(state)
        except SearchStopped:
            return None, False
        finally:
            self.node_end = None
        if line is None:
            return self.game.utility(Outcome(False, None)), True
        return self.game.utility(self.game.replay_moves(state, line).outcome()), True

    # -- the search --------------------------------------------------------------------------
    def _deepen(self, state):
        """A line to the fewest-turns win, or None when no win exists; SearchStopped at a limit."""
        if state.outcome() is not None:
            return [] if state.outcome().won else None
        if self.scope != state.table_scope():
            self.failed, self.scope = {}, state.table_scope()
        self.deadline = time.perf_counter() + self.limits.seconds() if self.limits.seconds() else None
        prefix = []
        if state.step == INFLUENCE:  # a position given after its intrigue: finish the turn by hand
            return self._from_influence(state)
        bound = state.score_bound()
        if bound == NO_WIN:
            return None
        threshold = bound
        while True:
            self.cut = False
            line = self._search(state, threshold)
            if line is not None:
                return prefix + line
            if not self.cut:  # nothing was left out for lack of turns: no win at all
                return None
            threshold += 1

    def _from_influence(self, state):
        best = None
        for move in state.search_moves():
            after = advance_chance(state.play(move))
            try:
                line = [] if after.won else (None if after.outcome() is not None else self._deepen_child(after))
            except SearchStopped:
                # a limit inside this child: the best win from here is the better of the children's
                # before it and this child's best so far (in self.best, as a line from the child); a
                # child's proven range says nothing of this position's
                line, self.range = self.best, None
                if line is not None:
                    best = self._better(best, after, move, line)
                self.best = None if best is None else best[1]
                raise
            if line is not None:
                best = self._better(best, after, move, line)
        return None if best is None else best[1]

    def _better(self, best, after, move, line):
        """(score, line) of the better of ``best`` and ``move`` followed by ``line`` from ``after``."""
        end = self.game.replay_moves(after, line).outcome()
        return best if best is not None and best[0] <= end.score else (end.score, [move] + line)

    def _deepen_child(self, state):
        saved = self.deadline
        try:
            return self._deepen(state)
        finally:
            self.deadline = saved

    def _search(self, state, threshold: int):
        """A winning line of at most ``threshold`` turns from ``state`` (an intrigue), or None."""
        self.nodes += 1
        if self.nodes % 256 == 0:
            self._check()
        left = threshold - state.turn + 1
        bound = state.score_bound()
        if bound == NO_WIN:
            return None
        if bound > threshold:
            self.cut = True
            return None
        key = self._key(state, left)
        stored = self.failed.get(key, 0)
        if stored >= left:
            self.cut = self.cut or stored != float("inf")  # a failure for lack of turns is a threshold cut
            return None
        children = self._children(state)
        cut_before = self.cut
        self.cut = False
        for moves, child in children:
            if child.won:
                return list(moves)
            if child.outcome() is not None:
                continue
            line = self._search(child, threshold)
            if line is not None:
                return list(moves) + line
        if not self.cut:
            self.failed[key] = float("inf")  # lost whatever the turns: nothing was cut below
        else:
            self.failed[key] = max(self.failed.get(key, 0), left)
        self.cut = self.cut or cut_before
        return None

    def _children(self, state):
        """Every turn (intrigue, influence) from ``state``, one per distinct result, best first."""
        seen, out = set(), []
        for first in state.search_moves():
            middle = state.play(first)
            if middle.outcome() is not None:  # lost at the intrigue
                continue
            for second in middle.search_moves():
                child = advance_chance(middle.play(second))
                if child.won:
                    return [((first, second), child)]
                key = child.key()
                if key in seen:
                    continue
                seen.add(key)
                out.append(((first, second), child))
        # the highest court card taken first, and no hand card removed before removing court cards
        out.sort(key=lambda mc: (-(SPHERE[suit(mc[0][1].target)] * 16 + value(mc[0][1].target))
                                 if mc[0][1].target >= 0 else 0, len(mc[0][0].cards) == 1))
        return out

    def _key(self, state, left: int):
        """The position without the turn number; a discard pile that no reshuffle within ``left``
        turns can bring back is left out (with its pile's reshuffle count) but for its size."""
        court_deck, deck = flat(state.court_deck), flat(state.deck)
        court_back = 1 + len(court_deck) // COURT < left
        player_back = 1 + len(deck) // HAND < left
        # (the size: the loss below 4 cards counts the pile)
        return (deck, state.discard if player_back else len(state.discard), state.shuffles if player_back else None,
                state.hand, court_deck, state.court_discard if court_back else len(state.court_discard),
                state.court_shuffles if court_back else None, state.court, tuple(state.court_deck[-1:]) == ((KING_OF_DIAMONDS,),))

    def _check(self):
        if self.progress is not None:
            self.progress(self.nodes)
        self.limits.check(self.deadline, len(self.failed))
        if self.node_end is not None and self.nodes >= self.node_end:
            raise SearchStopped(StopReason.MEMORY_LIMIT)


class KernelSolver(TurnSolver):
    """TurnSolver's iterative deepening run by the compiled kernel (ext/friends_in_high_places.pyx)
    from an intrigue, with the kernel's stronger bound; a position given at its influence is
    finished turn by turn here as in TurnSolver. The kernel returns its line as (cards removed,
    court card acquired) per turn; the moves are rebuilt here and replayed under the rules by
    finish_open before anything is printed."""

    def __init__(self, game, kernel, limits: Limits | None = None, progress=None):
        super().__init__(game, limits, progress)
        self.kernel_module = kernel
        self.search, self._nodes_before = None, 0
        self.deadline = None  # TurnSolver's; the kernel keeps its own clock

    @property
    def stored_count(self):
        return self.search.stored if self.search is not None else 0

    LONGEST = 64  # no game lasts this many turns: a search by this turn is cut only by a loss

    def solve(self, state):
        """As TurnSolver.solve, but a limit keeps the best win found so far (winnable, its
        score unproven) instead of answering unknown."""
        start = time.perf_counter()
        state = advance_chance(state)
        self.best, stop, self.range = None, None, None
        try:
            found = self._deepen(state)
        except SearchStopped as stopped:
            found, stop = self.best, stopped.reason
        result = finish_open(self.game, state, found or [], won=found is not None, stop=stop, nodes=self.nodes,
                             stored=self.stored_count, start=start, engine="turns-kernel")
        if result.verdict == "winnable" and not result.exact and self.range:
            result.score_bound = self.range[0]  # no win before turn lo: proven
        return result

    FIRST_SLICE = 150_000  # nodes of the first share of "a win by turn lo?" (doubled each time it is
    # stopped by its share): a question's share is counted in nodes, so a solve's path does not
    # depend on the machine's speed; only the time limit of the whole solve is in seconds
    PROBE_SHARE = 2  # each look for a better win gets this fraction (1 / PROBE_SHARE) of lo's share

    def _deepen(self, state):
        """The fewest-turns winning line from ``state``, or None when no win exists.

        From an intrigue: the thinning rule's game, played with the cards dealt, gives a first win
        when it wins; else the kernel asks for any win by turn + LONGEST (no game lasts that long,
        so a no proves the deal unwinnable). Then it narrows [lo, hi], lo = the kernel's
        lower bound (no win before it), hi = the best win found: "a win by turn lo?" first, with
        a share of nodes (FIRST_SLICE); when its share stops it, "a win by the middle?" and "by
        hi - 1?" (those strictly between lo and hi) with half that share each (PROBE_SHARE), then
        lo again with twice the share. A yes lowers hi to that win's turn; a no (an exhaustive
        search) raises lo to T + 1; a question stopped by its share changes nothing (its stored
        failures stay valid). The lowest question first, as iterative deepening: the proof needs
        it anyway, and its failures serve the next threshold; the cheaper looks keep the best win
        improving (the win shown when the limit stops the solve). lo = hi proves the best win the
        fewest turns. SearchStopped at the limit (``self.best`` keeps the best line found)."""
        if state.outcome() is not None:
            return [] if state.outcome().won else None
        if state.step == INFLUENCE:
            return self._from_influence(state)
        if self.scope != state.table_scope() or self.search is None:
            self.scope = state.table_scope()
            self._nodes_before = self.nodes
            self.search = self.kernel_module.Search(state.seed, state.options[0], state.options[1],
                                                    self.limits.memory_mb, 0.0, self.limits.max_states or 0)
        args = (flat(state.deck), state.discard, state.shuffles, flat(state.court_deck), state.court_discard,
                state.court_shuffles, state.hand, state.court, state.turn)
        limit = self.limits.seconds() or 0.0
        deadline = time.perf_counter() + limit if limit else None
        self.best = None
        best = None

        def ask(threshold, budget):
            """(line or None, finished): "a win by turn ``threshold``?" within ``budget`` nodes (0:
            until the time limit). A question stopped by its budget changes nothing but the
            failures it stored (each proven); a stop by the time limit (or the table) ends the solve."""
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                self._stop(state, best, 1)
            self.search.restart_clock(left or 0.0)
            self.search.node_budget = self.search.nodes + budget if budget else 0
            try:
                line, _cut = self.search.within(*args, threshold)
                return line, True
            except self.kernel_module.Stopped:
                if self.search.stopped != getattr(self.kernel_module, "BUDGET_SPENT", -1):
                    self._stop(state, best, self.search.stopped)
                return None, False
            finally:
                self.nodes = self._nodes_before + self.search.nodes

        rule = self._thinning_line(state)
        if rule is not None:  # a win to start from: the thinning rule's game, played open
            best, hi = rule, self.game.replay_moves(state, rule).outcome().score
        else:
            line, _done = ask(state.turn + self.LONGEST, 0)
            if line is None:
                return None
            best = self._moves(state, line)
            hi = state.turn + len(line) - 1
        lo = self.search.bound_of(*args)
        if lo > hi:  # a lower bound above a win that replays: a bug, never an answer
            raise AssertionError(f"internal error: the kernel's bound (turn {lo}) is after a win at turn {hi}")
        slice_ = self.FIRST_SLICE
        while lo < hi:
            self.range = (lo, hi)  # no win before turn lo; the best win found, at turn hi
            # the lowest open question first (its failures serve the next); while its share stops
            # it, cheaper looks for a better win: the middle, and just below the best win
            looks = sorted(t for t in {(lo + hi) // 2, hi - 1} if lo < t < hi)
            for threshold, budget in [(lo, slice_)] + [(t, slice_ // self.PROBE_SHARE) for t in looks]:
                line, done = ask(threshold, budget)
                if line is not None:
                    best, hi = self._moves(state, line), state.turn + len(line) - 1
                    break
                if done:
                    lo = threshold + 1
                    break
                if threshold == lo:
                    slice_ *= 2
        self.range = (hi, hi)
        return best

    @staticmethod
    def _thinning_line(state):
        """The moves of thinning_move's game from ``state`` (the dealt cards drawn), if it wins."""
        moves, end = [], state
        while end.outcome() is None:
            move = thinning_move(end)
            moves.append(move)
            end = advance_chance(end.play(move))
        return moves if end.outcome().won else None

    def _stop(self, state, best, code):
        self.best = best
        raise SearchStopped(StopReason.from_code(code))

    @staticmethod
    def _moves(state, line):
        """The kernel's line as moves from ``state`` (an intrigue)."""
        moves = []
        for removed, target in line:
            if target == KING_OF_DIAMONDS:  # (the kernel takes it only after such an intrigue)
                intrigue = state.king_intrigue() or Move("remove", tuple(sorted(c for c in state.court
                                                                               if c != KING_OF_DIAMONDS)[:2]))
            else:
                intrigue = Move("remove", tuple(sorted(removed)))
            middle = state.play(intrigue)
            if target < 0:
                influence = PASS
            else:
                influence = min((m for m in middle.legal_moves() if m.kind == "acquire" and m.target == target),
                                key=lambda m: (len(m.cards), m.cards))
            moves += [intrigue, influence]
            state = advance_chance(middle.play(influence))
        return moves
