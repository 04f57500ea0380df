"""Skyway's rules: the pure-Python reference engine (the grid, the chain score, the Take move and
its notation, the State with its search hooks and score bound, and the deal). The game:
solodeck/games/skyway/__init__.py; rules page: docs/rules/skyway.md.

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
kernel when it is built (search.py's KernelSolver: the exact endgame search of ext/skyway.pyx,
and the pilot method on whole deals); this module's search is the reference.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ... import cards as C
from ... import picture as P
from ...api import NoWin, Outcome, advance_chance, bound_utility, without_first
from ...api import State as BaseState
from ...errors import MoveError
from ...shuffle import shuffled

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
            bound = bound_utility(child.score_bound(), "higher")
            ranked.append((bound, child.heuristic(), -len(ranked), move))  # ties keep the legal order
        ranked.sort(reverse=True)
        return [move for _b, _h, _i, move in ranked]

    def blind_search_moves(self):
        """The legal moves, one per distinct grid up to symmetry, the best immediate chain score
        first: search_moves() without its bound, which deals the real next market."""
        moves = self.legal_moves()
        seen, ranked = set(), []
        for move in moves:
            grid, _buried = placed(self.grid, self.market, move)
            key = min(tuple(grid[p] for p in perm) for perm in SYMMETRIES)  # the other cards follow from it
            if key in seen:
                continue
            seen.add(key)
            ranked.append((promise(chain_lengths(grid)), -len(ranked), move))  # ties keep the legal order
        ranked.sort(reverse=True)
        return [move for _h, _i, move in ranked]

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


@lru_cache(maxsize=None)
def turn_capacity(heights: tuple, deck: int, passno: int) -> int:
    """The most cards the final grid can hold from a turn's start with ``deck`` cards left in pass
    ``passno`` and cells of ``heights`` (sorted). Only counts matter: each turn puts a stack of 1
    or 2 cards on one cell (at most 3 kept), and how many turns are left depends on how many cards
    the grid holds at each reshuffle (they are not dealt again). The score is at most this: a
    card is in at most one chain. (The kernel's CAPACITY table is the same.)"""
    in_grid, total = sum(heights), len(NUMBER_CARDS)
    last = False
    if deck >= MARKET:
        after, next_pass = deck - MARKET, passno
    elif passno < PASSES:  # the discard pile (every card outside the grid and deck) finishes the market
        after, next_pass = total - in_grid - MARKET, passno + 1
    else:  # the final shuffle finishes it: this turn is the last
        after, next_pass, last = 0, PASSES, True
    best = 0
    for size in (1, 2):
        for i, height in enumerate(heights):
            if i and heights[i - 1] == height:
                continue
            placed = tuple(sorted(heights[:i] + (min(HEIGHT, height + size),) + heights[i + 1:]))
            grid = sum(placed)
            if last or (after == 0 and next_pass == PASSES):
                best = max(best, grid)
            elif after == 0:  # the deck ran out with the turn: the discards make the next pass's deck
                best = max(best, turn_capacity(placed, total - grid, next_pass + 1))
            else:
                best = max(best, turn_capacity(placed, after, next_pass))
    return best


def grid_capacity(state) -> int:
    """turn_capacity() of ``state``: a turn's start, a market partly dealt or a decision. Its
    market counts as dealt from the deck, as at the turn's start (a reshuffle within it leaves
    the same cards to come); after the final shuffle this turn is the last."""
    heights = tuple(sorted(map(len, state.grid)))
    if state.over:
        return sum(heights)
    return turn_capacity(heights, 0 if state.final else len(state.deck) + len(state.market), state.passno)


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
    capacity = grid_capacity(state)  # the cards the final grid can hold bound every total (a win needs 20)
    best_any = min(best_any, capacity)
    best_win = min(best_win, capacity) if capacity >= SUITS * CHAIN_TO_WIN else -1
    return best_win if best_win >= 0 else NoWin(best_any)


# -- the deal ---------------------------------------------------------------------------------------
def dealt_state(deck, seed: int) -> State:
    """A deal's first position: the empty grid, the whole ``deck`` (top first), the first pass."""
    return State(((),) * CELLS, (), tuple(deck), (), 1, 0, seed)


def seeded_state(seed: int) -> State:
    """The first position of deal ``seed``, as Skyway.new_deal and initial_state give it: the 40
    number cards shuffled by the seed (NumberDeckGame.seeded_piles)."""
    return dealt_state(shuffled(NUMBER_CARDS, seed), seed)
