"""The contract between games and algorithms: :class:`Game` and :class:`State`, each declaring
every capability with its default (OpenSpiel's ``pyspiel.Game`` / ``State`` is the model).

A *game* (a :class:`Game` subclass, one module per game in ``solodeck.games``) describes the
rules' capabilities, its piles and options, builds the initial :class:`State` of a deal, and
names its optional engines (a kernel in ext/, a CP-SAT model in encodings/, a baseline policy).

A *state* is immutable. Every game implements ``legal_moves``, ``play``, ``outcome`` and
``key``; chance, bounds and search hints have defaults a game overrides where it can do better.
Algorithms (``solodeck.solvers``) only use this contract and :meth:`Game.utility`; they never
look inside a state and never probe for methods: what is not overridden has its default here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import cards as C
from .errors import DealError, MoveError, UnsupportedError
from .ext import load as load_extension
from .shuffle import shuffled


@dataclass(frozen=True)
class Outcome:
    won: bool
    score: int | None = None  # the game's score, if it has one (see Game.score_sense)
    scores: tuple | None = None  # games of several players (Game.several_players): each seat's score


@dataclass
class Deal:
    """Everything chance decides, plus the game's options. ``piles`` maps pile name -> cards, top first."""

    game: str
    options: dict = field(default_factory=dict)
    seed: int | None = None
    piles: dict = field(default_factory=dict)
    position: dict | None = None  # a mid-game position, in the game's own form
    source: str = "<deal>"


LOSS_UTILITY = (0, 0)
NO_WIN = "no-win"  # what score_bound() returns when no win is reachable any more


@dataclass(frozen=True)
class NoWin:
    """score_bound() of a state from which no win is reachable, in a game that scores losses too
    (a game that scores every finished grid): ``best`` is the best loss score still reachable."""

    best: int


def cannot_win(bound) -> bool:
    """Does a score_bound() say that no win is reachable?"""
    return bound == NO_WIN or isinstance(bound, NoWin)


class State:
    """The base of every game's state. The first four methods are the game's to write; the rest
    have defaults that are always correct, and a game overrides them to search faster or to
    have chance."""

    __slots__ = ()

    # -- every game writes these -------------------------------------------------------------
    def legal_moves(self) -> list:
        """The moves of the player now (none at a chance node or at the end). Moves are hashable
        and ``str(move)`` round-trips through ``Game.parse_move``."""
        raise NotImplementedError

    def play(self, move) -> "State":
        """The state after a legal move."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else who won and the score."""
        raise NotImplementedError

    def key(self):
        """A canonical hashable for transposition tables: equal keys, equal values (symmetries
        may be folded in: then moves found from one state may need ``transfer_line``)."""
        raise NotImplementedError

    def to_move(self) -> int:
        """The seat (0-based) whose move it is, in games of several players (Game.several_players)."""
        return 0

    def seat_bounds(self, seat: int):
        """(lowest, highest) final score ``seat`` can still end with whatever anyone plays, or None
        (unknown): lets solvers/paranoid.py cut. Games of several players override it."""
        return None

    @property
    def won(self) -> bool:
        outcome = self.outcome()
        return bool(outcome and outcome.won)

    def stop_outcome(self) -> Outcome | None:
        """What the position is worth to a line that makes no more progress from it, in a game
        whose positions repeat and that has a score (None: nothing). solvers/reach.py counts it at
        every position it reaches, so a game offers it only where no line from the position can
        end worse (the score never goes down), e.g. a loss with the score pile it holds."""
        return None

    # -- chance: draws, reveals, reshuffles after the deal (Game.has_chance) --------------------
    def is_chance(self) -> bool:
        return False

    def chance_outcomes(self) -> list:
        """[(outcome, weight)] from the composition of the unseen cards (blind mode)."""
        raise UnsupportedError(f"{type(self).__module__}: no chance node here")

    def dealt_outcome(self):
        """The outcome the deal fixes (open mode)."""
        raise UnsupportedError(f"{type(self).__module__}: no chance node here")

    def apply_chance(self, outcome) -> "State":
        raise UnsupportedError(f"{type(self).__module__}: no chance node here")

    def chance_count(self) -> int | None:
        """How many outcomes chance_outcomes() would list, where listing them costs (a draw of
        several cards at once); None when listing is cheap."""
        return None

    def sample_chance(self, rng):
        """One chance outcome drawn with probability weight / total (``rng``: solodeck.shuffle's
        SplitMix64; outcomes in the listed order). A state whose outcomes are too many to list
        overrides it with a sampler of the same distribution."""
        outcomes = self.chance_outcomes()
        r = rng.next() % sum(w for _o, w in outcomes)
        for outcome, weight in outcomes:
            if r < weight:
                return outcome
            r -= weight
        raise AssertionError("weights do not add up")

    # -- what the player sees (blind mode) -----------------------------------------------------
    def view(self):
        """What the player sees and may count, as a hashable: equal views, equal information.
        Blind algorithms key their tables on it. The default, key(), is right for games whose
        only unseen cards are future draws (chance nodes): nothing on the table is hidden."""
        return self.key()

    def sample_world(self, rng) -> "State":
        """A state drawn uniformly among those with our view (``rng``: solodeck.shuffle's
        SplitMix64), its hidden faces dealt anew: the determinized blind policy's worlds. It
        must depend only on view() and ``rng``, never on the hidden faces themselves. Games with
        hidden faces (Game.has_hidden) override it; the default has nothing to hide."""
        return self

    def seen_text(self) -> str:
        """The position as the player sees it (hidden faces shown by what their backs tell)."""
        return str(self)

    def conform(self, real, rng) -> "State":
        """This sampled world, after the move the real game made, made to show what ``real`` now
        shows where the move showed the player something new outside a chance node (a back
        seen for the first time), keeping the worlds uniform; ``rng``: SplitMix64.
        The default: nothing is ever shown outside a chance node."""
        return self

    def blind_tree_exact(self) -> bool:
        """Is expectimax over the chance nodes the player's whole uncertainty here? False where a
        move may show something hidden outside a chance node (a back never seen
        coming to the top), which the tree would read from this state: blind mode then estimates."""
        return True

    def picture(self, seen_only: bool = False) -> dict:
        """The position as named piles of cards, for frontends (hint files, version 2; the format
        is in docs/hints.md), built with solodeck.picture. ``seen_only``: what the player sees
        (blind hint files): unseen faces face down and unknown, an unseen deck by its size.
        Every game writes it."""
        raise NotImplementedError(f"{type(self).__module__}: no picture()")

    # -- search support: each default is exact; overrides make search faster -------------------
    def score_bound(self):
        """The best score still reachable, optimistic; NO_WIN when no win is reachable (NoWin(s)
        in games that score losses: s bounds the loss score); None when unknown. Lets exact
        search cut branches. Open mode: it may read the order of the deck."""
        return None

    def blind_score_bound(self):
        """score_bound() for every order of the unseen cards (blind mode cuts with it). The
        default is right for games whose score_bound() reads only how many cards are left."""
        return self.score_bound()

    def search_moves(self) -> list:
        """The legal moves that can still matter to the value: a subset of legal_moves() whose
        best value is the same, best first if the game can tell."""
        return self.legal_moves()

    def blind_search_moves(self) -> list:
        """search_moves() in an order that reads only what the player knows: the candidates of
        blind rollouts (solvers/rollouts.py). A game whose search_moves() orders by what the
        unseen cards hold (an open bound that deals the real next cards) overrides it."""
        return self.search_moves()

    def heuristic(self):
        """How promising the position looks, comparable between positions of a game, higher
        better: anytime search (solvers/anytime.py) keeps the best of each step. A guess, never
        used to cut an exact search."""
        return 0

    def safe_move(self):
        """A move that can be made without branching because it never lowers the value, open or
        blind (a dominance that needs no hidden face: e.g. a card to a foundation that nothing
        could ever use; the blind policy plays it too), or None."""
        return None

    def restricted(self) -> "State | None":
        """This position under stricter rules whose legal moves are, in every position, a subset
        of these rules' moves (so a win there is a win here), or None. Searching it briefly first
        can find wins the wider search would be slow to reach."""
        return None

    def table_scope(self):
        """What a stored value depends on beside key(): fixed for a whole game (its options, when
        key() leaves them out). A solver clears its table when this changes."""
        return None

    def line_anchor(self):
        """With transfer_line: what to remember of a state stored with a winning line, so that
        the line can be mapped onto another state with the same key. None: keys fold nothing."""
        return None

    def transfer_line(self, anchor, moves) -> list:
        """``moves`` were found from a state whose line_anchor() is ``anchor`` and whose key is
        ours: the same moves as played here."""
        return moves


class Game:
    """A game's description. Subclasses set the class attributes and implement the methods."""

    name: str = ""               # the registry finds the module's GAME and files it under these
    aliases: tuple = ()
    title: str = ""
    source: str = ""             # which seed text holds the rules
    former_meaning: str = ""     # said with a deal-file error: what this name meant before (a moved alias)
    has_chance: bool = False     # chance nodes after the deal (draws, reveals, reshuffles)
    reshuffles: bool = False     # piles reshuffled during play, their order fixed by the deal (docs/deals.md):
                                 # open mode's choices pick what they deal (results/README.md marks it)
    has_hidden: bool = False     # faces on the table the player cannot see (not only future draws):
                                 # the state offers view() and sample_world() (blind mode's worlds)
    score_name: str | None = None
    score_sense: str | None = None  # "lower" or "higher" is better; None: the game has no score
    loss_has_score: bool = False  # a lost game has a score too (Outcome.score): solve, play, analyze and
                                  # hint files all report it; elsewhere a loss's score is null
    modes: tuple = ("open",)     # "blind" too: the game then has a baseline_move policy and a blind plan
    aspiration: bool = True      # exact search aims first at the optimistic bound (solvers/dfs.py);
                                 # off where that bound is far above typical wins
    anytime: bool = False        # whole deals are far too big to exhaust: make_solver gives the anytime
                                 # search (solvers/anytime.py), which needs State.heuristic()
    acyclic: bool = True         # no move sequence returns to a position (solvers/dfs.py); False:
                                 # positions repeat, solvers/reach.py searches (games without a score)
    options: dict = {}           # option name -> (default, allowed values)
    piles: dict = {}             # pile name -> description, for errors and docs
    several_players: bool = False  # a game of several players, analysed with every hand open
                                 # (solvers/paranoid.py: what each seat can guarantee against all the
                                 # others together); its states give to_move() and Outcome.scores
    kernel: str | None = None    # its compiled kernel: solodeck.ext.<kernel> (ext/<kernel>.pyx)
    kernel_solver = None         # the class that searches open mode in that kernel (fast_solver)
    model: str | None = None     # its CP-SAT model: solodeck.encodings.<model> (encodings/<model>.py)

    # -- deals -------------------------------------------------------------------------------
    def seeded_piles(self, seed: int, options: dict) -> dict:
        raise UnsupportedError(f"{self.name}: not implemented yet")

    def piles_for(self, options: dict) -> list:
        """The piles a deal with these options has (some games' piles depend on an option, such as
        the number of players): every one of ``piles`` by default."""
        return list(self.piles)

    def check_piles(self, piles: dict, source: str) -> None:
        """Raise DealError unless every pile holds exactly the cards it must."""

    def initial_state(self, deal: Deal):
        raise UnsupportedError(f"{self.name}: not implemented yet")

    def parse_move(self, text: str):
        raise MoveError(f"{self.name}: cannot parse moves")

    # -- optional engines: each default means "not offered"; the generic algorithms run instead --
    def load_kernel(self):
        """The compiled kernel module ``solodeck.ext.<kernel>``, or None (not built, or
        SOLODECK_NO_EXTENSIONS=1)."""
        return load_extension(self.kernel) if self.kernel else None

    def fast_solver(self, limits, progress=None):
        """A compiled exact open-mode solver with DepthFirstSolver's interface (``solve(state)``,
        ``value(state)``), or None: then solvers.make_solver picks the generic search. The default
        builds ``kernel_solver`` (game, kernel, limits, progress) when the kernel is built."""
        kernel = self.load_kernel() if self.kernel_solver is not None else None
        return self.kernel_solver(self, kernel, limits, progress) if kernel is not None else None

    def fast_expectimax(self, limits):
        """A compiled blind valuer (``accepts``, ``value``, ``status``, ``nodes``, ``stored``; see
        solvers/expectimax.py), or None."""
        return None

    def fast_rollouts(self, state, samples: int, seed: int, moves: list | None = None):
        """[(move, wins, sum of winning scores[, sum of losing scores])] of rollouts of ``blind_rule``
        in a kernel (the same draws as solvers/rollouts.py's), or None. ``moves``: the moves to value
        (None: the blind plan's candidates); a kernel that values others as well may return them too."""
        return None

    def kernel_moves(self, state) -> list | None:
        """The kernel's legal moves at ``state`` as reference moves (any order), or
        None (no kernel, not built, or a position the kernel does not take). The contract test
        checks them equal to ``state.legal_moves()`` along random lines."""
        return None

    # -- games of several players (several_players) ---------------------------------------------
    def solver(self, limits, progress=None):
        """The engine of each seat's guarantee (``value(state, seat)``, ``move_values(state)``,
        ``nodes``): solvers/paranoid.py, or the game's compiled one. Games of several players only."""
        raise UnsupportedError(f"{self.name} is not a game of several players")

    def hand_report(self, deal: Deal, state, solver) -> tuple:
        """(text lines, JSON data) of ``solodeck solve``: every seat's guarantee from ``state``
        (data["values"], None where a limit stopped the search); games add their own tables."""
        values, proven = seat_values(state, solver, deal.options.get("players", 2))
        lines = [f"{self.score_name or 'score'} each seat can guarantee against all the others together:"]
        lines += [f"  seat {s + 1}: {guarantee_text(v, r)}" for s, (v, r) in enumerate(zip(values, proven))]
        return lines, {"values": values, "proven": proven}

    # -- blind mode ("blind" in modes) ----------------------------------------------------------
    def baseline_move(self, state):
        """The baseline policy: a simple rule a person would use. Every game with a blind mode
        has one."""
        raise UnsupportedError(f"{self.name} has no baseline policy")

    def blind_rule(self, state):
        """The game's blind rule: what rollouts play after the move they value, and what the blind
        policy improves on (solvers/blind.py). The baseline by default; a game whose baseline is far
        weaker than another rule of its own that is just as blind (it reads only what the player
        sees) names that rule. A compiled ``fast_rollouts`` must play this same rule."""
        return self.baseline_move(state)

    def blind_plan(self):
        """How the blind policy plays this game: a solvers.plan.BlindPlan, or None for the default
        plan (rollouts of the blind rule, every move, 64 samples)."""
        return None

    # -- values --------------------------------------------------------------------------------
    def utility(self, outcome: Outcome | None) -> tuple:
        """A totally ordered value, higher is better: win first, then the score in its sense."""
        if outcome is None:
            return LOSS_UTILITY
        score = outcome.score or 0
        return (1 if outcome.won else 0, -score if self.score_sense == "lower" else score)

    def bound_utility(self, score_bound) -> tuple | None:
        """The utility of the best outcome a state whose score_bound() is given could still reach."""
        return bound_utility(score_bound, self.score_sense)

    def new_deal(self, seed: int, options: dict | None = None) -> Deal:
        opts = self.resolve_options(options or {}, "<seed>")
        return Deal(self.name, opts, seed, self.seeded_piles(seed, opts), source=f"{self.name} seed {seed}")

    def resolve_options(self, given: dict, source: str) -> dict:
        out = {}
        for key, value in given.items():
            if key not in self.options:
                known = ", ".join(self.options) or "none"
                raise DealError(source, f"options.{key}", f"unknown option for {self.name} (known: {known})")
            allowed = self.options[key][1]
            if allowed and value not in allowed:
                raise DealError(source, f"options.{key}", f"expected one of {list(allowed)}, got {value!r}")
            out[key] = value
        for key, (default, _allowed) in self.options.items():
            out.setdefault(key, default)
        return out

    def replay_moves(self, state, moves):
        """Play move objects from ``state`` (open mode), checking each is legal; return the end state."""
        state = advance_chance(state)
        for i, move in enumerate(moves, start=1):
            if state.outcome() is not None or move not in state.legal_moves():
                raise MoveError(f"move {i} '{move}' is not legal here")
            state = advance_chance(state.play(move))
        return state

    def read_line(self, state, move_texts, *, source: str = "line"):
        """Play a line of move texts from ``state`` (open mode: chance takes the dealt outcome).
        Returns ([(move, the state before it, its legal moves)], the final state); raises
        MoveError naming the first text that does not parse or is not legal."""
        steps = []
        for ply, text in enumerate(move_texts, start=1):
            state = advance_chance(state)
            if state.outcome() is not None:
                raise MoveError(f"{source} move {ply} '{text}': the game is already over")
            try:
                move = self.parse_move(text)
            except MoveError as exc:
                raise MoveError(f"{source} move {ply}: {exc}") from None
            legal = state.legal_moves()
            if move not in legal:
                raise MoveError(f"{source} move {ply} '{text}' is not legal here")
            steps.append((move, state, legal))
            state = state.play(move)
        return steps, advance_chance(state)

    def replay(self, deal: Deal, move_texts, *, source: str = "line"):
        """Play a line of move texts from the deal; return the final state."""
        return self.read_line(self.initial_state(deal), move_texts, source=source)[1]


class OneDeckGame(Game):
    """A game dealt from one shuffled pile, ``deck``: the 52 cards."""

    piles = {"deck": "the 52 cards, top first"}
    number_cards_only = False

    def seeded_piles(self, seed, options):
        return {"deck": shuffled(C.standard_deck(number_cards_only=self.number_cards_only), seed)}

    def check_piles(self, piles, source):
        check_exact_pile(piles["deck"], C.standard_deck(number_cards_only=self.number_cards_only), source, "deck")


class NumberDeckGame(OneDeckGame):
    """One pile of the 40 number cards A-T."""

    piles = {"deck": "the 40 number cards A-T, top first"}
    number_cards_only = True


def value_counts(deck) -> list:
    """[(value, how many)] of a deck of values, sorted: the outcomes of drawing one of them."""
    counts: dict = {}
    for v in deck:
        counts[v] = counts.get(v, 0) + 1
    return sorted(counts.items())


def without_first(deck: tuple, v) -> tuple:
    """The deck after drawing value ``v``: its first ``v`` leaves. The rest stays in deal order, so
    the remaining order depends only on which values were drawn, never on the order they came in:
    one key serves open mode (the dealt card) and blind mode (any card of the composition)."""
    i = deck.index(v)
    return deck[:i] + deck[i + 1:]


def proven_range(low, high, bounds) -> tuple:
    """[low, high], the range a seat's value is proven to lie in, as (low or None, high or None):
    an end no tighter than the game's own ``bounds`` says nothing and is None."""
    return (low if low > bounds[0] else None, high if high < bounds[1] else None)


def bound_utility(score_bound, score_sense: str | None) -> tuple | None:
    """Game.bound_utility for a game scored in ``score_sense``, for a game's own rules that rank
    moves by it (the Game sits above them)."""
    if score_bound is None:
        return None
    if score_bound == NO_WIN:
        return LOSS_UTILITY
    if isinstance(score_bound, NoWin):
        return (0, -score_bound.best if score_sense == "lower" else score_bound.best)
    return (1, -score_bound if score_sense == "lower" else score_bound)


def seat_values(state, solver, seats: int) -> tuple:
    """Each seat's value at ``state`` (None: a limit stopped that search), and what the search
    proved of each (``solver.proven``: (v, v) when decided, else proven_range; None where the
    solver does not say)."""
    values, proven = [], []
    for seat in range(seats):
        values.append(solver.value(state, seat))
        proven.append(getattr(solver, "proven", None))
    return values, proven


def guarantee_text(value, proven=None) -> str:
    """A seat's value for a table: the value, else what is proven of it (``proven_range``), else ?."""
    if value is not None:
        return str(value)
    low, high = proven or (None, None)
    if low is not None and high is not None:
        return f"{low}..{high}"
    return f">={low}" if low is not None else f"<={high}" if high is not None else "?"


def advance_chance(state):
    """Open mode: let chance take the dealt outcome until a player decision (or the end)."""
    while state.is_chance():
        state = state.apply_chance(state.dealt_outcome())
    return state


def check_position_fields(position: dict, known, source: str) -> None:
    """Refuse a ``[position]`` field the game does not know, naming it and the known ones."""
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(known)})")


def position_piles(position: dict, names, source: str) -> dict:
    """{name: cards} of the ``[position]`` fields ``names``, each a string of cards (absent: none)."""
    piles = {}
    for name in names:
        text = position.get(name, "")
        if not isinstance(text, str):
            raise DealError(source, f"position.{name}", 'expected a string of cards such as "7S 3C"')
        piles[name] = C.parse_cards(text, source=source, field=f"position.{name}")
    return piles


def check_exact_pile(cards: list, expected: list, source: str, field: str) -> None:
    """Raise a DealError unless ``cards`` is exactly the multiset ``expected``, naming the first problem."""
    seen: dict[int, int] = {}
    first: dict[int, int] = {}
    allowed = {c: expected.count(c) for c in set(expected)}
    for i, card in enumerate(cards, start=1):
        name = C.format_card(card)
        if card not in allowed:
            raise DealError(source, field, f"card {i} '{name}' does not belong in this pile")
        if seen.get(card, 0) >= allowed[card]:
            again = f"twice (first as card {first[card]})" if allowed[card] == 1 else "more often than the deck has it"
            raise DealError(source, field, f"card {i} '{name}' appears {again}")
        seen[card] = seen.get(card, 0) + 1
        first.setdefault(card, i)
    if len(cards) != len(expected):
        missing = [c for c in allowed if seen.get(c, 0) < allowed[c]]
        raise DealError(source, field, f"expected {len(expected)} cards, found {len(cards)}"
                        f" (missing: {C.format_cards(sorted(missing))})")
