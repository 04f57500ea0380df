"""Skyway (Isaludo): the pure-Python reference engine. Rules page: docs/rules/skyway.md.

A card is solodeck.cards' int (suit * 13 + value - 1; values A=1 ... T=10). The grid is a tuple
of 9 cells, row by row from the top-left, each a tuple of at most 3 cards, bottom card first.
A turn is five draws (chance nodes: one card each) into the market, then one decision: a stack
and a cell. Draws keep the rest of the deck in deal order (the first copy of the drawn card
leaves), so the remaining order depends only on which cards were drawn: one key serves open
mode (the dealt top card) and blind mode (any unseen card). A reshuffle sorts the discard pile
into the canonical card order and shuffles it with stream ``reshuffles + 1`` of the deal's seed
(RULINGS.md, Common): it depends only on which cards are discarded, so it is no chance node of
its own; blind play simply draws from the new deck's composition.

The chain score (chain_lengths) is the heart of the game: a longest-path DP over each suit's
cards in value order. score_bound relaxes the rest of the game to "which stack each known
market gives", the cards to come free to sit in any cell and nothing ever buried (suit_chains,
_placement_bound; see docs/rules/skyway.md, "How the solver plays it"). Open mode runs in the
kernel when it is built (KernelSolver: the exact endgame search of ext/skyway.pyx, and the
pilot method on whole deals); this module's search is the reference.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

from .. import cards as C
from .. import picture as P
from ..api import Deal, NoWin, NumberDeckGame, Outcome, advance_chance, without_first
from ..api import State as BaseState
from ..errors import DealError, MoveError
from ..shuffle import shuffled
from ..solvers.plan import BlindPlan

CELLS = 9
SIDE = 3
HEIGHT = 3           # a cell keeps at most 3 cards; the ones below are discarded
MARKET = 5           # cards dealt per turn: stack 1 = cards 1-2, stack 2 = cards 3-4, stack 3 = card 5
STACK_SLICES = ((0, 2), (2, 4), (4, 5))
PASSES = 3
SUITS = 4
CHAIN_TO_WIN = 5
MAX_CHAIN = 10       # A ... T
NUMBER_CARDS = C.standard_deck(number_cards_only=True)

ADJACENT = tuple(frozenset(r2 * SIDE + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                           if 0 <= r2 < SIDE and 0 <= c2 < SIDE)
                 for r, c in (divmod(i, SIDE) for i in range(CELLS)))


def _symmetries():
    """The 8 symmetries of the square as cell permutations: ``perm[i]`` is the cell whose
    contents land on cell i (so a grid maps to ``tuple(grid[p] for p in perm)``)."""
    maps = []
    for transpose in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                perm = []
                for i in range(CELLS):
                    r, c = divmod(i, SIDE)
                    if transpose:
                        r, c = c, r
                    if flip_r:
                        r = SIDE - 1 - r
                    if flip_c:
                        c = SIDE - 1 - c
                    perm.append(r * SIDE + c)
                maps.append(tuple(perm))
    return tuple(maps)


SYMMETRIES = _symmetries()


def suit_index(card: int) -> int:
    return card // 13


def value_of(card: int) -> int:
    return card % 13 + 1


# -- the chain score ----------------------------------------------------------------------------
def chain_lengths(grid) -> tuple:
    """Per suit (S H D C), the most cards in a chain of strictly increasing values, each card in a
    cell orthogonally adjacent to the previous card's cell. Any card of a stack may be used, and a
    cell may come back (never twice in a row: adjacent cells differ). Values within a suit are
    distinct, so in value order the longest chain ending at a card extends the longest ending at
    a lower card next door."""
    by_suit = ([], [], [], [])
    for cell, stack in enumerate(grid):
        for card in stack:
            by_suit[card // 13].append((card, cell))
    out = []
    for items in by_suit:
        items.sort()
        ends = []
        for i, (_card, cell) in enumerate(items):
            near = ADJACENT[cell]
            longest = 1
            for j in range(i):
                if items[j][1] in near and ends[j] >= longest:
                    longest = ends[j] + 1
            ends.append(longest)
        out.append(max(ends, default=0))
    return tuple(out)


def promise(lengths) -> tuple:
    """How promising chains look: the cards counting up to 5 per suit (what a win needs), then
    the total (the baseline policy's and the anytime search's ranking)."""
    return sum(min(n, CHAIN_TO_WIN) for n in lengths), sum(lengths)


def stacks_of(market) -> tuple:
    """The market's stacks: cards 1-2, 3-4 and 5, bottom first."""
    return tuple(market[a:b] for a, b in STACK_SLICES)


def placed(grid, market, move) -> tuple:
    """(the grid after ``move`` puts its stack on its cell, the cards that fall off the bottom)."""
    a, b = STACK_SLICES[move.stack - 1]
    cell = move.cell - 1
    stacked = grid[cell] + market[a:b]
    return grid[:cell] + (stacked[-HEIGHT:],) + grid[cell + 1:], stacked[:-HEIGHT]


def score_of(grid) -> Outcome:
    lengths = chain_lengths(grid)
    return Outcome(all(n >= CHAIN_TO_WIN for n in lengths), sum(lengths))


_BOUNDS: dict = {}  # score_bound of dealt states by key (no seed: their reshuffles are made): asked twice
_RESHUFFLES: dict = {}  # a search meets the same reshuffle again and again


def _reshuffled(discard: tuple, seed: int, stream: int) -> tuple:
    """The new deck of a reshuffle: the discard pile (kept sorted: the canonical order) shuffled
    with stream ``stream`` of the deal's seed."""
    memo = (discard, seed, stream)
    deck = _RESHUFFLES.get(memo)
    if deck is None:
        if len(_RESHUFFLES) > 100_000:
            _RESHUFFLES.clear()
        deck = _RESHUFFLES[memo] = tuple(shuffled(discard, seed, stream))
    return deck


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Take:
    """Take market stack ``stack`` (1-3) and put it on cell ``cell`` (1-9, row by row)."""

    stack: int
    cell: int

    def __str__(self):
        return f"{self.stack}>{self.cell}"


_TAKE_RE = re.compile(r"^(?:take\s+)?(?:stack\s+)?([1-3])\s*(?:>|to|on|:|\s)\s*(?:cell\s+)?([1-9])$", re.IGNORECASE)
MOVES = tuple(Take(s, c) for s in (1, 2, 3) for c in range(1, CELLS + 1))


def parse_move(text: str) -> Take:
    m = _TAKE_RE.match(text.strip())
    if not m:
        raise MoveError(f"'{text}' is not a Skyway move (expected 'S>C': market stack S 1-3 onto cell C 1-9, "
                        "row by row from the top-left, e.g. '2>5')")
    return Take(int(m.group(1)), int(m.group(2)))


# -- the state ------------------------------------------------------------------------------------
class State(BaseState):
    """A position. ``market``: the cards dealt this turn (stack 1 = the first two, bottom first);
    ``deck``: top first; ``discard``: sorted (its order never matters: a reshuffle sorts it);
    ``passno``: 1-3; ``reshuffles``: how many so far; ``final``: the last shuffle of the third
    pass was made (the game ends after this turn); ``over``: the game has ended."""

    __slots__ = ("grid", "market", "deck", "discard", "passno", "reshuffles", "final", "over", "seed",
                 "_moves", "_key", "_outcome")

    def __init__(self, grid, market, deck, discard, passno, reshuffles, seed, final=False, over=False):
        if not over and len(market) < MARKET and not deck:
            # The deck ran out with a market to deal: reshuffle the discard pile (RULINGS: Skyway).
            reshuffles += 1
            deck = _reshuffled(discard, seed, reshuffles)
            discard = ()
            if passno < PASSES:
                passno += 1
            else:
                final = True  # deal only enough to finish this market, play it, and stop
        self.grid, self.market, self.deck, self.discard = grid, market, deck, discard
        self.passno, self.reshuffles, self.seed, self.final, self.over = passno, reshuffles, seed, final, over
        self._moves = self._key = self._outcome = None

    def stacks(self) -> tuple:
        return stacks_of(self.market)

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return not self.over and len(self.market) < MARKET

    def chance_outcomes(self):
        return [(card, 1) for card in sorted(self.deck)]

    def dealt_outcome(self):
        return self.deck[0]

    def apply_chance(self, card):
        return State(self.grid, self.market + (card,), without_first(self.deck, card), self.discard,
                     self.passno, self.reshuffles, self.seed, self.final)

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if not self.over:
            return None
        if self._outcome is None:
            self._outcome = score_of(self.grid)
        return self._outcome

    def legal_moves(self):
        if self._moves is None:
            self._moves = list(MOVES) if not self.over and len(self.market) == MARKET else []
        return self._moves

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        grid, buried = placed(self.grid, self.market, move)
        a, b = STACK_SLICES[move.stack - 1]
        discard = tuple(sorted(self.discard + self.market[:a] + self.market[b:] + buried))
        over = self.final or (self.passno == PASSES and not self.deck)
        return State(grid, (), self.deck, discard, self.passno, self.reshuffles, self.seed, self.final, over)

    # -- search support ----------------------------------------------------------------------
    def key(self):
        """The grid up to the 8 symmetries of the square (they leave every chain unchanged, and
        nothing else depends on where a cell is), the market, the deck, the discard pile and the
        pass. The seed is fixed for a game (table_scope)."""
        if self._key is None:
            grid = self.grid
            canonical = min(tuple(grid[p] for p in perm) for perm in SYMMETRIES)
            self._key = (canonical, self.market, self.deck, self.discard, self.passno, self.reshuffles,
                         self.final, self.over)
        return self._key

    def table_scope(self):
        return self.seed

    def search_moves(self):
        """The legal moves, one per distinct child up to symmetry, best bound first (then the best
        immediate chain score): the exact search cuts the rest once one of them reaches its bound."""
        moves = self.legal_moves()
        if len(moves) <= 1:
            return moves
        seen, ranked = set(), []
        for move in moves:
            child = self.play(move)
            key = child.key()
            if key in seen:
                continue
            seen.add(key)
            bound = GAME.bound_utility(child.score_bound())
            ranked.append((bound, child.heuristic(), -len(ranked), move))  # ties keep the legal order
        ranked.sort(reverse=True)
        return [move for _b, _h, _i, move in ranked]

    def heuristic(self):
        """Chain cards counting up to 5 per suit (what a win needs), then the chain total."""
        return promise(chain_lengths(self.grid))

    def turns_left(self) -> int:
        """Turns still to play, the current one included, when no reshuffle can change how many
        (the third pass); otherwise an upper bound (later passes deal at most the cards not in
        the grid now: the grid never shrinks)."""
        if self.over:
            return 0
        to_deal = MARKET - len(self.market)
        rest = len(self.deck) - to_deal
        if self.final or (self.passno == PASSES and rest <= 0):
            return 1
        if self.passno == PASSES:
            return 1 + -(-rest // MARKET)
        in_grid = sum(len(s) for s in self.grid)
        later = max(rest, 0) + (PASSES - self.passno) * (len(NUMBER_CARDS) - in_grid)
        return 2 + -(-later // MARKET)

    def future_markets(self):
        """(the markets known now, how many later turns are not): each market is 5 cards, None
        for a card that a reshuffle still to come will deal (its pile depends on the line). The
        market being dealt is finished from the deck, or from the reshuffle of today's discard
        pile (known: dealing discards nothing), then come the deck's groups of five, then its
        last cards as a market the next reshuffle finishes. In the first two passes the later
        turns are bounded above: they deal at most the cards outside today's grid, which never
        shrinks, each pass."""
        if self.over:
            return [], 0
        if self.is_chance():
            return advance_chance(self).future_markets()
        markets = [self.market]
        if self.final:
            return markets, 0
        rest = len(self.deck) % MARKET
        markets += [self.deck[i:i + MARKET] for i in range(0, len(self.deck) - rest, MARKET)]
        if rest:
            markets.append(self.deck[len(self.deck) - rest:] + (None,) * (MARKET - rest))
        if self.passno == PASSES:
            return markets, 0
        in_grid = sum(len(s) for s in self.grid)
        return markets, (rest + (PASSES - self.passno) * (len(NUMBER_CARDS) - in_grid)) // MARKET + (0 if rest else 1)

    def score_bound(self):
        """The best score still reachable (NoWin with the best loss score when no win is), by a
        relaxation of the rest of the game (docs/rules/skyway.md, "How the solver plays it"):
        the cards to come may go to any cell and nothing is ever buried (_placement_bound over
        future_markets; the kernel's bound is the same)."""
        if self.over:
            outcome = self.outcome()
            return outcome.score if outcome.won else NoWin(outcome.score)
        if self.is_chance():  # open mode: the dealt market is known (a reshuffle within it too)
            return advance_chance(self).score_bound()
        key = self.key()
        found = _BOUNDS.get(key)
        if found is None:  # search_moves asks first, the search again at the same dealt state
            if len(_BOUNDS) > 200_000:
                _BOUNDS.clear()
            found = _BOUNDS[key] = _placement_bound(self, *self.future_markets())
        return found

    def blind_score_bound(self):
        """score_bound() for any order of the unseen cards: only the market dealt is fixed. None
        (unknown) before the last turn, where it costs more than it cuts."""
        if self.over:
            return self.score_bound()
        if self.turns_left() > 1:
            return None
        if self.is_chance():
            markets, open_turns = [], self.turns_left()
        else:
            markets, open_turns = [self.market], self.turns_left() - 1
        return _placement_bound(self, markets, open_turns)

    def picture(self, seen_only=False):
        """The 3x3 grid's stacks (cells 1-9, bottom first), the market's three stacks, the deck
        and the discard pile."""
        piles = [P.pile(str(i + 1), [P.card(c) for c in stack], group=f"row {i // SIDE + 1}", spread=True)
                 for i, stack in enumerate(self.grid)]
        if not self.over:
            piles += [P.pile(f"market {i}", [P.card(c) for c in s], group="market", spread=True)
                      for i, s in enumerate(self.stacks(), start=1)]
        piles += [P.deck("deck", self.deck, seen_only), P.pile("discard", [P.card(c) for c in self.discard], group="deck")]
        return P.picture(piles, score=sum(chain_lengths(self.grid)), **{"pass": self.passno})

    def __str__(self):
        lines = []
        for r in range(SIDE):
            row = []
            for c in range(SIDE):
                stack = self.grid[r * SIDE + c]
                row.append(f"{r * SIDE + c + 1}:{C.format_cards(stack) or '.':<9}")
            lines.append("  ".join(row))
        if not self.over:
            stacks = "  ".join(f"[{i}] {C.format_cards(s)}" for i, s in enumerate(self.stacks(), start=1) if s)
            lines.append(f"market: {stacks or '(to deal)'}")
        lengths = chain_lengths(self.grid)
        lines.append("chains: " + " ".join(f"{s}{n}" for s, n in zip(C.SUITS, lengths)) + f"  (score {sum(lengths)})")
        end = "  game over" if self.over else ("  last turn (final shuffle)" if self.final else "")
        lines.append(f"pass {self.passno}, deck {len(self.deck)}, discard {len(self.discard)}{end}")
        return "\n".join(lines)


NEIGHBOURS = tuple(tuple(sorted(a)) for a in ADJACENT)
ENUMERATED_MARKETS = 3  # the bound tries every choice of stacks of this many markets (27 choices)
ANY_VALUE = frozenset(range(1, MAX_CHAIN + 1))


def _neighbour_best(row):
    """For each cell, the best of ``row`` over its orthogonal neighbours (the 3 x 3 grid unrolled)."""
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = row
    return (max(r1, r3), max(r0, r2, r4), max(r1, r5), max(r0, r4, r6), max(r1, r3, r5, r7),
            max(r2, r4, r8), max(r3, r7), max(r4, r6, r8), max(r5, r7))


_SUIT_CHAINS: dict = {}  # suit_chains' memo: siblings in a search share most suits' cards


def suit_chains(old, free, cost, layers: int) -> tuple:
    """gain[k] for k < ``layers``: one suit's longest chain from its ``old`` cards ((value, cell),
    ...) where they are, the values ``free`` in any cells, and at most k more of the values
    ``cost`` in any cells; nothing buried. A DP in value order over the cell a chain ends in and
    the costly cards it used (ext/skyway.pyx's suit_chains is the same)."""
    memo = (old, free, cost, layers)
    found = _SUIT_CHAINS.get(memo)
    if found is not None:
        return found
    where = dict(old)
    best = [[0] * CELLS for _ in range(layers)]  # best[k][c]: longest chain ending in c, k costly cards
    for v in range(1, MAX_CHAIN + 1):
        if v not in where and v not in free and v not in cost:
            continue
        near = [[n + 1 for n in _neighbour_best(row)] for row in best]  # after the lower values only
        for k in range(layers):
            row, cells = best[k], []
            if v in free:
                cells = range(CELLS)
                reach = near[k]
            else:
                if v in cost and k:
                    for c in range(CELLS):
                        row[c] = max(row[c], near[k - 1][c])
                if v in where:
                    cells, reach = (where[v],), near[k]
            for c in cells:
                row[c] = max(row[c], reach[c])
    gains, top = [], 0
    for row in best:
        top = max(top, max(row))
        gains.append(top)
    if len(_SUIT_CHAINS) > 500_000:
        _SUIT_CHAINS.clear()
    _SUIT_CHAINS[memo] = found = tuple(gains)
    return found


def free_chain(old, new, free: int) -> int:
    """The longest chain of one suit from ``old`` cards ((value, cell), ...), ``new`` card values
    that may go to any cell, and up to ``free`` more cards of any values at any cells."""
    return suit_chains(tuple(old), frozenset(new), ANY_VALUE, free + 1)[free]


def _placement_bound(state, markets, unknown_turns):
    """State.score_bound() when ``markets`` (5 cards each, None for a card a reshuffle still to
    come deals) are known and ``unknown_turns`` more turns may follow: for every choice of one
    stack in each of the first ENUMERATED_MARKETS markets, the chosen cards may go to any cell;
    the later markets bring two of their cards a turn, the later turns two cards of any suit and
    value, and a chosen None one card of any suit and value: these costly cards are one budget
    shared by the suits (a knapsack over how many each takes). Nothing is ever buried."""
    old = [[] for _ in range(SUITS)]
    for cell, stack in enumerate(state.grid):
        for card in stack:
            old[card // 13].append((value_of(card), cell))
    old = [tuple(sorted(cards)) for cards in old]
    # far from the end (more than two turns after a reshuffle to come) the choices are not worth
    # their cost: only the first market's are tried
    enumerate_first = ENUMERATED_MARKETS if unknown_turns <= 2 else 1
    enumerated, later = markets[:enumerate_first], markets[enumerate_first:]
    base = 2 * (len(later) + unknown_turns)
    if unknown_turns or any(None in market for market in later):
        later_cost = [ANY_VALUE] * SUITS
    else:
        later_cost = [frozenset(value_of(c) for market in later for c in market if c // 13 == s) for s in range(SUITS)]
    picks = [((), 0)]  # (chosen cards, how many of them are None)
    for market in enumerated:
        picks = [(cards + tuple(c for c in stack if c is not None), wild + stack.count(None))
                 for cards, wild in picks for stack in stacks_of(market)]
    best_win = best_any = -1
    for cards, wild in picks:
        budget = min(base + wild, 4 * MAX_CHAIN)
        layers = min(budget, MAX_CHAIN) + 1
        gains = [suit_chains(old[s], frozenset(value_of(c) for c in cards if c // 13 == s),
                             ANY_VALUE if wild else later_cost[s], layers) for s in range(SUITS)]
        if budget >= SUITS * (layers - 1):  # enough for every suit's best: nothing to share
            any_best = [sum(gain[-1] for gain in gains)]
            win_best = [any_best[0] if all(gain[-1] >= CHAIN_TO_WIN for gain in gains) else -1]
            best_any, best_win = max(best_any, any_best[0]), max(best_win, win_best[0])
            continue
        any_best, win_best = [0] * (budget + 1), [0] * (budget + 1)  # by costly cards used
        for gain in gains:
            any_best = [max(any_best[b - k] + gain[k] for k in range(min(layers, b + 1))) for b in range(budget + 1)]
            win_best = [max((win_best[b - k] + gain[k] for k in range(min(layers, b + 1))
                             if win_best[b - k] >= 0 and gain[k] >= CHAIN_TO_WIN), default=-1)
                        for b in range(budget + 1)]
        best_any = max(best_any, any_best[budget])
        best_win = max(best_win, win_best[budget])
    return best_win if best_win >= 0 else NoWin(best_any)


# -- the game -------------------------------------------------------------------------------------
class Skyway(NumberDeckGame):
    name = "skyway"
    title = "Skyway"
    source = "Isaludo (seeds/000), p. 7"
    has_chance = True
    reshuffles = True    # the discards at each new pass
    score_name = "chain total"
    score_sense = "higher"
    loss_has_score = True
    modes = ("open", "blind")
    anytime = True
    model = "skyway"
    kernel = "skyway"
    piles = {"deck": "the 40 number cards A-T, top first"}

    def initial_state(self, deal: Deal) -> State:
        seed = deal.seed if deal.seed is not None else 0  # RULINGS: no seed, reshuffles use seed 0
        if deal.position is not None:
            return _state_from_position(deal.position, deal.source, seed)
        return State(((),) * CELLS, (), tuple(deal.piles["deck"]), (), 1, 0, seed)

    def parse_move(self, text):
        return parse_move(text)

    def blind_plan(self, options=None):
        # Exact blind values fit only the last turn (27 moves, no draw after) and, with the kernel
        # (LastTurnValuer), the turn before: beyond, a single turn's draws are too many. The kernel rolls
        # out all 27 moves; Python only 6 (all 27 take half a minute a decision). Sequential halving:
        # the moves in contention get the draws (rules page).
        return BlindPlan(exact_states=30, candidates=None if self.load_kernel() is not None else 6, halving=True)

    def baseline_move(self, state):
        """The baseline policy: the move whose grid has the most chain cards counting up to 5 per
        suit, then the highest chain total, then the fewest cards buried, then the first in order."""
        best, best_rank = None, None
        for move in state.legal_moves():
            grid, buried = placed(state.grid, state.market, move)
            rank = (*promise(chain_lengths(grid)), -len(buried))
            if best_rank is None or rank > best_rank:
                best, best_rank = move, rank
        return best

    # -- the compiled kernel (ext/skyway.pyx): the open search and rollouts; None when it is not built --
    def fast_solver(self, limits, progress=None):
        """The kernel's open search (KernelSolver); without it solvers.make_solver runs the
        anytime search of solvers/anytime.py."""
        kernel = self.load_kernel()
        return KernelSolver(self, kernel, limits, progress) if kernel is not None else None

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.over or state.is_chance():
            return None
        return [Take(stack, cell) for stack, cell in kernel.legal_moves(state.market)]

    def fast_expectimax(self, limits):
        """The kernel's exact blind value of the last turn (LastTurnValuer), or None."""
        kernel = self.load_kernel()
        return LastTurnValuer(kernel) if kernel is not None else None

    def fast_rollouts(self, state, samples, seed, moves=None):
        """[(move, wins, score_sum)]: solvers/rollouts.py's rollouts with the baseline policy, for
        every legal move (the kernel affords all 27) or only ``moves`` (rollout_subsets: sequential
        halving's later rounds; a move's draws are the same either way)."""
        kernel = self.load_kernel()
        if kernel is None or not state.legal_moves():
            return None
        moves = state.legal_moves() if moves is None else moves
        stats = kernel.rollouts(state.grid, state.market, state.deck, state.discard, state.passno, state.final,
                                [(m.stack, m.cell) for m in moves], samples, seed)
        return [(m, wins, total) for m, (wins, total) in zip(moves, stats)]


GAME = Skyway()  # the registry's instance (solodeck/registry.py)


class LastTurnValuer:
    """Exact blind values of the last turn in the kernel (ext/skyway.pyx, blind_last_turn), for
    solvers/expectimax.py: every order of the draws that finish the last market, each followed by
    the best move. The turn before the last is then valued exactly too (27 moves, one kernel call
    each), where rollouts would only sample it."""

    status = None  # no limit ever stops it

    def __init__(self, kernel):
        self.kernel, self.nodes, self.stored = kernel, 0, 0

    def accepts(self, state):
        return state.is_chance() and state.turns_left() == 1

    def value(self, state):
        """(P(win), E[score x win])."""
        orders, wins, total = self.kernel.blind_last_turn(state.grid, state.market, state.deck, state.discard,
                                                          int(state.final))
        self.nodes += orders
        return wins / orders, total / orders


# -- open mode in the kernel: exact endgames, and the best line of a whole deal ----------------------
REACH_TURNS = 6       # the exact search proves a line's ending from this many turns before the end
TRY_TURNS = 9         # a position with at most this many turns left is tried exactly first (bench/skyway.py)
VALUE_SECONDS = 1.0   # each value of a hint file, when the command gives no time limit
WIN_VALUE = 64        # the kernel's value: won * 64 + the chain total
NESTED_SHARE = 0.8    # of a whole deal's time: the nested pilot method; the rest proves the ending


def kernel_utility(value: int) -> tuple:
    """The game's utility (won, score) of the kernel's value."""
    return (1, value - WIN_VALUE) if value >= WIN_VALUE else (0, value)


def kernel_args(state) -> tuple:
    """A decision state (or a finished one) as the kernel's Endgame takes it."""
    return (state.grid, state.market, state.deck, state.discard, state.passno, state.reshuffles,
            int(state.final), int(state.over))


def within_reach(state) -> bool:
    """Few enough turns left for the exact search (turns_left is exact in the third pass, an
    upper bound before it)."""
    return state.turns_left() <= REACH_TURNS


class KernelSolver:
    """Open mode with the kernel (ext/skyway.pyx), with DepthFirstSolver's interface.

    Within reach of the end (REACH_TURNS) the exact search answers. Otherwise, or when a limit
    stops it, the pilot method plays a line (at each decision, every move followed by the
    baseline with the deck known: a clairvoyant rollout of the blind policy's rule), one level
    up while time lasts (every move followed by the pilot method itself), and the exact search
    then replaces the line's last turns by the best ending from where it is within reach: the
    line found ends in a proven-best endgame."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.kernel, self.limits, self.progress = game, kernel, limits, progress
        self.search, self.seed = None, None

    def _engine(self, seed):
        if self.search is None or self.seed != seed:  # the table holds one seed's reshuffles
            self.search, self.seed = self.kernel.Endgame(seed, self.limits.memory_mb), seed
        return self.search

    def _exact(self, state, seconds):
        """(value, line) by the exact search, or None when a limit stopped it."""
        search = self._engine(state.seed)
        search.set_limits(seconds or 0.0, self.limits.max_states or 0)
        found = search.solve(*kernel_args(state))
        if self.progress is not None:
            self.progress(search.nodes)
        return found

    def solve(self, state):
        from ..result import StopReason, finish_open

        start = time.perf_counter()
        state = advance_chance(state)
        seconds = self.limits.seconds()
        nodes = 0
        if state.outcome() is None and state.turns_left() <= TRY_TURNS:
            # beyond reach the exact search may still finish: it gets half the time
            found = self._exact(state, seconds if within_reach(state) or seconds is None else seconds / 2)
            nodes = self.search.nodes
            if found is not None:
                value, line = found
                return finish_open(self.game, state, [Take(s, c) for s, c in line], won=value >= WIN_VALUE,
                                   nodes=nodes, stored=self.search.stored, start=start, engine="kernel")
            stop = StopReason.from_code(self.search.stopped)
        elif state.outcome() is None:
            stop = StopReason.TIMEOUT  # a whole deal: too big to exhaust
        else:
            return finish_open(self.game, state, [], won=state.won, start=start, engine="kernel")
        deadline = None if seconds is None else start + seconds
        value, line, spent = self.best_line(state, deadline)
        return finish_open(self.game, state, line, won=value >= WIN_VALUE, stop=stop, nodes=nodes + spent,
                           stored=self.search.stored if self.search else 0, start=start, engine="kernel")

    def best_line(self, state, deadline):
        """(value, line, nodes): the nested pilot method's line (NESTED_SHARE of the time left; the
        pilot method alone without a time limit), its ending replaced by the exact best from the
        first position along it within reach (when the search finishes in time)."""
        search = self._engine(state.seed)
        if deadline is None:
            value, moves = search.pilot(*kernel_args(state))
        else:
            value, moves = search.nested(*kernel_args(state), NESTED_SHARE * (deadline - time.perf_counter()))
        line = [Take(s, c) for s, c in moves]
        nodes = len(line) * len(MOVES)
        at = advance_chance(state)
        for i, move in enumerate(line):
            if within_reach(at):
                left = None if deadline is None else deadline - time.perf_counter()
                if left is not None and left <= 0:
                    break
                found = self._exact(at, left)
                nodes += search.nodes
                if found is not None and found[0] >= value:
                    value, line = found[0], line[:i] + [Take(s, c) for s, c in found[1]]
                break
            at = advance_chance(at.play(move))
        return value, line, nodes

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search. Without a time
        limit each value gets VALUE_SECONDS of its own (hint files value every move)."""
        state = advance_chance(state)
        if state.outcome() is not None:
            return self.game.utility(state.outcome()), True
        found = self._exact(state, self.limits.seconds(VALUE_SECONDS))
        return (kernel_utility(found[0]), True) if found is not None else (None, False)


# -- endgames for tests and benchmarks ----------------------------------------------------------------
def natural_endgame(seed: int, turns: int):
    """The baseline's game of deal ``seed`` at the start of a third-pass turn with ``turns`` turns
    of 5 cards left (no reshuffle to come), or None if that game never has one."""
    state = GAME.initial_state(GAME.new_deal(seed))
    while state.outcome() is None:
        if (state.is_chance() and not state.market and state.passno == PASSES and len(state.deck) % MARKET == 0
                and len(state.deck) // MARKET == turns):
            return state
        state = advance_chance(state)
        if state.outcome() is None:
            state = state.play(GAME.baseline_move(state))
    return None


def built_endgame(seed: int, turns: int):
    """An endgame with ``turns`` turns left where baseline play rarely gets one (5 and more): the
    baseline plays deal ``seed`` while the grid leaves 5 x ``turns`` cards outside it; the other
    cards, deck first, become a third-pass deck of 5 x ``turns`` cards and a discard pile."""
    state = GAME.initial_state(GAME.new_deal(seed))
    while True:
        after = advance_chance(state)
        after = after.play(GAME.baseline_move(after))
        if after.outcome() is not None or sum(map(len, after.grid)) > len(NUMBER_CARDS) - MARKET * turns:
            break
        state = after
    rest = state.deck + state.discard
    return State(state.grid, (), rest[:MARKET * turns], tuple(sorted(rest[MARKET * turns:])), PASSES, PASSES - 1, seed)


def random_endgame(seed: int, grid_cards: int, deck_cards: int, passno: int):
    """A turn start of pass ``passno`` with ``deck_cards`` in the deck: the baseline plays deal
    ``seed`` until the grid holds at least ``grid_cards`` cards (at most 27), and the other cards,
    in an order drawn from ``seed``, are the deck and then the discard pile. Earlier passes have
    a reshuffle ahead whose cards depend on the line. None if the game ends first."""
    import random

    state = GAME.initial_state(GAME.new_deal(seed))
    while sum(map(len, state.grid)) < grid_cards:
        state = advance_chance(state)
        if state.outcome() is not None:
            return None
        state = state.play(GAME.baseline_move(state))
    grid = state.grid
    rest = [c for c in NUMBER_CARDS if not any(c in stack for stack in grid)]
    random.Random(seed).shuffle(rest)
    if deck_cards > len(rest):
        return None
    return State(grid, (), tuple(rest[:deck_cards]), tuple(sorted(rest[deck_cards:])), passno, passno - 1, seed,
                 over=passno == PASSES and not deck_cards)


# -- deal files: the endgame position ---------------------------------------------------------------
def _cards(text, source, field) -> list:
    if not isinstance(text, str):
        raise DealError(source, field, 'expected a string of cards such as "3C 7H 6C"')
    cards = C.parse_cards(text, source=source, field=field)
    for i, card in enumerate(cards, start=1):
        if card == C.JOKER or value_of(card) > 10:
            raise DealError(source, field, f"card {i} '{C.format_card(card)}': Skyway uses only the number cards A-T")
    return cards


def _whole(position, name, lo, hi, default, source):
    value = position.get(name, default)
    if value is None or not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DealError(source, f"position.{name}", f"expected a whole number from {lo} to {hi}, got {value!r}")
    return value


def _state_from_position(position: dict, source: str, seed: int) -> State:
    """``[position]``: ``grid`` = 9 strings, row by row from the top-left, each a cell's cards
    bottom card first (at most 3; "" for an empty cell); ``deck`` (top first), ``discard``,
    ``pass`` (1-3) and ``reshuffles`` (made so far; default pass - 1). The 40 number cards must
    each be in exactly one of them. The position is a turn's start: the market is dealt next."""
    known = {"grid", "deck", "discard", "pass", "reshuffles"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    cells = position.get("grid")
    if not isinstance(cells, list) or len(cells) != CELLS:
        raise DealError(source, "position.grid", 'expected a list of 9 cells, row by row from the top-left, each '
                                                 'a string of cards bottom first, e.g. ["3C 7H 6C", "", "AS", ...]')
    grid = []
    for i, text in enumerate(cells, start=1):
        stack = _cards(text, source, f"position.grid[{i}]")
        if len(stack) > HEIGHT:
            raise DealError(source, f"position.grid[{i}]", f"{len(stack)} cards: a cell holds at most {HEIGHT}")
        grid.append(tuple(stack))
    deck = _cards(position.get("deck", ""), source, "position.deck")
    discard = _cards(position.get("discard", ""), source, "position.discard")
    passno = _whole(position, "pass", 1, PASSES, 1, source)
    reshuffles = _whole(position, "reshuffles", 0, PASSES - 1, passno - 1, source)
    seen = {}
    for field, cards in [(f"position.grid[{i}]", s) for i, s in enumerate(grid, start=1)] + [
            ("position.deck", deck), ("position.discard", discard)]:
        for card in cards:
            if card in seen:
                raise DealError(source, field, f"{C.format_card(card)} is already in {seen[card]}")
            seen[card] = field
    missing = [c for c in NUMBER_CARDS if c not in seen]
    if missing:
        raise DealError(source, "position", f"{len(missing)} number cards are nowhere (each of the 40 must be in "
                                            f"the grid, the deck or the discard pile): {C.format_cards(missing)}")
    over = passno == PASSES and not deck  # the third pass's deck ran out at the end of a turn
    return State(tuple(grid), (), tuple(deck), tuple(sorted(discard)), passno, reshuffles, seed, over=over)
