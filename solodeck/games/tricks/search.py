"""The trick games' own open-hand search: ext/tricks.pyx's paranoid search behind
solvers/paranoid.py's interface (KernelParanoid), its searches valued ahead in two processes, and
Foresight's table of what each seat can guarantee under each trump."""
from __future__ import annotations

import os

from ... import cards as C
from ...api import guarantee_text, proven_range, seat_values
from ...ext import load as load_extension
from .rules import HEARTBURN_RANGE, NO_TRUMP, foresight_state, trump_of


def prefetcher(solver):
    """KernelParanoid.prefetch of ``solver`` (the command line hands in a counting wrapper of it),
    else a function that does nothing."""
    kernel = getattr(solver, "solver", solver)
    return kernel.prefetch if isinstance(kernel, KernelParanoid) else (lambda searches: None)


TABLE_PROCESSES = 2  # KernelParanoid.prefetch: a Foresight table's searches share nothing, so two cores
# Under a whole-command time limit, the searches of a table are widened in rounds: each undecided
# one gets this many nodes, four times more each round, so the cheap ones are decided and every
# one has its cheap tests' proven range before one hard search can spend the whole budget.
FIRST_ROUND_NODES = 20_000


class KernelParanoid:
    """ext/tricks.pyx's paranoid search behind ParanoidSolver's interface."""

    def __init__(self, kernel, limits):
        from ...result import StopReason

        self.limits = limits
        self.search = kernel.Search(limits.memory_mb, limits.seconds() or 0.0, limits.max_states or 0)
        self._reason = StopReason.from_code
        self.stop = None
        self.proven = None
        self.known = {}  # prefetch(): (rules, position, seat) -> (value, proven, stop), each used once
        self.nodes_elsewhere = 0

    @property
    def nodes(self):
        return self.search.nodes + self.nodes_elsewhere

    @staticmethod
    def _known_key(state, seat):
        return (state.rules.seats, state.rules.trump, state.rules.hearts, state.key(), seat)

    def prefetch(self, searches, processes=TABLE_PROCESSES):
        """Value ``searches`` ((state, seat) pairs) ahead, in ``processes`` processes, each with its
        own table, for value() to give back. The searches of a Foresight table share nothing in
        one table anyway (the seat valued and the trump are in every key), so this only buys
        time: the same values, the same limits (each search its own, within the deadline)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        searches = [(st, seat) for st, seat in searches if st.phase == "play"]
        processes = min(processes, len(searches), os.cpu_count() or 1)
        if processes < 2:
            if self.limits.deadline is not None:
                self._keep(searches, self.widen(searches))
            return
        # each process its share, kept for every round (its table keeps what each test proved)
        shares = [searches[i::processes] for i in range(processes)]
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_prefetch_worker, initargs=(self.limits,)) as pool:
            for share, results in zip(shares, pool.map(_prefetch_share, shares)):
                self._keep(share, results)

    def _keep(self, searches, results):
        for (st, seat), result in zip(searches, results):
            if result is None:  # the deadline passed before its turn came: value() says so itself
                continue
            v, proven, stop, nodes = result
            self.known[self._known_key(st, seat)] = (v, proven, stop)
            self.nodes_elsewhere += nodes

    def widen(self, searches) -> list:
        """[(value, proven, stop, nodes)] of each (state, seat): with a whole-command deadline, in
        rounds of FIRST_ROUND_NODES nodes each, four times more each round, until every one is
        decided or the deadline passes (a search's proven range is the tightest of its rounds: each
        is a proof); without one, each search once, with its own time limit."""
        from ...result import StopReason

        results = [None] * len(searches)
        probes = [None] * len(searches)  # _probe(): each search's last first test
        budget = FIRST_ROUND_NODES if self.limits.deadline is not None else 0
        while True:
            widened = False  # a search stopped by this round's budget (not by the table): one more helps
            for i, (st, seat) in enumerate(searches):
                if (results[i] is not None and results[i][0] is not None) or self.limits.expired():
                    continue
                before = self.nodes
                self.search.node_limit = budget
                probes[i] = self._probe(st, seat, results[i], probes[i])
                v = self.value(st, seat, probes[i])
                proven = self.proven
                if results[i] is not None and v is None:  # keep the tightest of the rounds' ranges
                    old = results[i][1]
                    proven = (_tighter(old[0], proven[0], max), _tighter(old[1], proven[1], min))
                spent = self.nodes - before + (results[i][3] if results[i] is not None else 0)
                results[i] = (v, proven, self.stop, spent)
                widened = widened or (v is None and self.stop == StopReason.TIMEOUT)  # the budget stops as time
            self.search.node_limit = 0
            if not budget or not widened or self.limits.expired() or budget > 1 << 50:
                return results
            budget *= 4

    @staticmethod
    def _probe(state, seat, result, last):
        """The first test of a search's next round while its upper bound is weak (none, or only the
        root's static one above halfway): halfway up, then halfway up from the last such test that
        did not finish (the higher the test, the cheaper its "no"), so that it has a useful upper
        bound however the round ends; else the usual order (None)."""
        if result is None:
            return None
        low, high = state.seat_bounds(seat) or HEARTBURN_RANGE
        if result[1][0] is not None:
            low = result[1][0]
        if last is not None and low < last < high:
            low = last
        probe = (low + high + 1) // 2
        return probe if result[1][1] is None or result[1][1] >= probe > low else None

    def has_known(self, state, seat) -> bool:
        """Was this search valued ahead (prefetch)? Its answer stands after the deadline too."""
        return self._known_key(state, seat) in self.known

    @property
    def table(self):
        return range(self.search.stored)

    def value(self, state, seat, probe=None):
        """The seat's value, or None when a limit stopped the search (``self.stop`` says which);
        ``self.proven``: (v, v) when decided, else what the finished tests proved (proven_range).
        ``probe``: the first test's threshold (Search.value), None for the usual order."""
        rules = state.rules
        known = self.known.pop(self._known_key(state, seat), None)
        if known is not None:
            v, self.proven, self.stop = known
            return v
        if state.phase == "exchange":  # the leader's exchange: each choice valued by the kernel
            values, stop = [], None
            for move in state.legal_moves():
                values.append(self.value(state.play(move), seat))
                stop = stop or self.stop
            self.stop, self.proven = stop, (None, None)
            if None in values:
                return None
            v = max(values) if state.to_move() == seat else min(values)
            self.proven = (v, v)
            return v
        self.search.restart_clock(self.limits.seconds() or 0.0)  # each search its own budget, within the deadline
        bounds = state.seat_bounds(seat) or HEARTBURN_RANGE
        v = self.search.value(rules.seats, rules.trump, rules.hearts, list(state.hands), list(state.holes),
                              state.leader, list(state.trick), list(state.taken), list(state.tricks),
                              state.broken, state.first, seat, *bounds, probe or 0)
        if v is not None:
            self.stop, self.proven = None, (v, v)
        else:
            self.stop = self._reason(self.search.stopped)
            self.proven = proven_range(self.search.proven_low, self.search.proven_high, bounds)
        return v

    def move_values(self, state, seat=None):
        seat = state.to_move() if seat is None else seat
        return [(move, self.value(state.play(move), seat)) for move in state.legal_moves()]


_WORKER = None  # a prefetch process's own KernelParanoid (its table serves all its searches)


def _prefetch_worker(limits):
    global _WORKER
    _WORKER = KernelParanoid(load_extension("tricks"), limits)  # Foresight's and Heartburn's kernel


def _prefetch_share(searches):
    return _WORKER.widen(searches)


def _tighter(a, b, pick):
    """The tighter of two ends of proven ranges (None: nothing proven at that end)."""
    return b if a is None else a if b is None else pick(a, b)



def table_lines(deal, table, proven, names, dealt_name):
    cells = {nm: [guarantee_text(v, r) for v, r in zip(table[nm], proven[nm])] for nm in names}
    width = max(4, *(len(c) for nm in names for c in cells[nm]))
    lines = [f"tricks each seat can guarantee against all the others together (leader: seat "
             f"{deal.options['leader']}, Holes as dealt; *: the dealt trump):",
             "  seat  " + " ".join(f"{('*' if nm == dealt_name else '') + nm:>{width}}" for nm in names)]
    for s in range(deal.options["players"]):
        lines.append(f"  {s + 1:>4}  " + " ".join(f"{cells[nm][s]:>{width}}" for nm in names))
    return lines


def foresight_table(deal, state, solver):
    """The double-dummy-style table: a row per seat, a column per trump suit (and no trump when
    the Joker was turned), as dealt; then the leader's best Hole exchange under the dealt trump
    and every seat's value after it (Foresight.hand_report, for a hand as dealt)."""
    dealt = trump_of(deal)
    trumps = [dealt] + [t for t in (0, 1, 2, 3) if t != dealt]  # the dealt trump's column first
    names = ["NT" if t == NO_TRUMP else C.SUITS[t] for t in trumps]
    table, proven = {}, {}
    seats = deal.options["players"]
    columns = [foresight_state(deal, trump=t, exchange=False) for t in trumps]
    prefetch = prefetcher(solver)
    prefetch([(st, seat) for st in columns for seat in range(seats)])
    for name, st in zip(names, columns):
        table[name], proven[name] = seat_values(st, solver, seats)
    dealt_name = names[0]
    lines = table_lines(deal, table, proven, names, dealt_name)
    data = {"trump": dealt_name, "table": table, "proven": proven, "exchange": None}
    if None in table[dealt_name]:  # the exchange is valued only once the dealt trump's row is
        lines.append("the leader's Hole exchange: not valued (the dealt trump's row was not all "
                     "decided within the limits)")
        return lines, data
    leader = state.to_move()
    prefetch([(state.play(move), leader) for move in state.legal_moves()])
    values = {move: solver.value(state.play(move), leader) for move in state.legal_moves()}
    if None in values.values():
        unknown = sum(v is None for v in values.values())
        lines.append(f"the leader's Hole exchange: {unknown} of {len(values)} choices not decided within the limits")
        return lines, data
    best = max(values, key=values.get)  # the first of the best, in the listed order
    prefetch([(state.play(best), seat) for seat in range(seats)])
    after, after_proven = seat_values(state.play(best), solver, deal.options["players"])
    lines.append(f"the leader's best Hole exchange: {best} -> seat {leader + 1} guarantees {values[best]}; "
                 "after it: " + ", ".join(f"seat {s + 1} {guarantee_text(v, r)}"
                                           for s, (v, r) in enumerate(zip(after, after_proven))))
    data["exchange"] = {"best": str(best), "value": values[best], "after": after, "after_proven": after_proven}
    return lines, data
