"""Dead Center (Isaludo): the pure-Python reference engine. Rules page: docs/rules/dead-center.md.

A card is solodeck.cards' int (suit * 13 + value - 1) and 52 for a joker. The cabin is 9 piles,
row by row from the top-left; only each pile's top card ever matters again, so a pile is its top
card. The 12 zombie spaces are numbered 1-12 in the rulings' space order (above the top row left
to right, right of the cabin top to bottom, below it right to left, left of it bottom to top).

A turn is up to three decisions with chance between them: reveal a face-down zombie (a chance
node: which face card it is), draw (a chance node: the top card), play the card on a pile, kill a
zombie next to that pile. Open mode takes the dealt outcomes; blind mode any face card not seen
yet, any card left in the deck. A draw keeps the rest of the deck in deal order (the first copy of
the drawn card leaves), so one key serves both modes (as in Skyway). A reveal whose sampled face
differs from the dealt one trades places with the face-down zombie that holds it, so a sampled
world stays consistent (as Frozen Novelty's flips).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import cards as C
from ... import picture as P
from ...api import Deal, Outcome, check_exact_pile, without_first
from ...api import State as BaseState
from ...api import NO_WIN
from ...errors import DealError, MoveError
from ...shuffle import shuffled, shuffled_by

JOKER = C.JOKER
CELLS = 9
SPACES = 12
DOWN, UP, DEAD = 0, 1, 2     # a zombie space: face down, face up, killed
FACE_CARDS = tuple(s * 13 + r for s in range(4) for r in (10, 11, 12))
NUMBER_CARDS = tuple(C.standard_deck(number_cards_only=True))

# The cabin cell each space touches, and whether its line is the cell's column (spaces above and
# below) or its row (spaces left and right).
SPACE_CELL = (0, 1, 2, 2, 5, 8, 8, 7, 6, 6, 3, 0)
SPACE_ON_COLUMN = (True,) * 3 + (False,) * 3 + (True,) * 3 + (False,) * 3
CELL_SPACES = tuple(tuple(s for s in range(SPACES) if SPACE_CELL[s] == c) for c in range(CELLS))


def _supports(space: int) -> tuple:
    """The two other cells of the line through the space's cell and the space."""
    cell = SPACE_CELL[space]
    r, c = divmod(cell, 3)
    line = [r2 * 3 + c for r2 in range(3)] if SPACE_ON_COLUMN[space] else [r * 3 + c2 for c2 in range(3)]
    return tuple(x for x in line if x != cell)


SUPPORTS = tuple(_supports(s) for s in range(SPACES))


def value_of(card: int) -> int:
    """A=1 ... T=10, J=11, Q=12, K=13; a joker 0 (its worth as a support card)."""
    return 0 if card == JOKER else card % 13 + 1


def is_red(card: int) -> bool:
    return card != JOKER and card // 13 in (1, 2)


def fits(card: int, top: int) -> bool:
    """May ``card`` be played on a pile whose top is ``top``? Equal value; same colour and the top
    higher (build down in one colour); the other colour and the top lower (build up alternating);
    a joker goes anywhere and takes anything."""
    if card == JOKER or top == JOKER:
        return True
    v, t = card % 13, top % 13
    if v == t:
        return True
    return t > v if is_red(card) == is_red(top) else t < v


def matches(zombie: int, support: int) -> bool:
    """Is ``support`` of the king's suit, of the queen's colour, a joker, or beside a jack?"""
    rank = zombie % 13 + 1
    if support == JOKER or rank == 11:
        return True
    return support // 13 == zombie // 13 if rank == 13 else is_red(support) == is_red(zombie)


def kills(zombie: int, a: int, b: int) -> bool:
    """Do support cards ``a`` and ``b`` kill ``zombie``? Their values (a joker 0) sum to at least
    10; for a king both are of its suit, for a queen both of its colour (a joker matches all)."""
    return value_of(a) + value_of(b) >= 10 and matches(zombie, a) and matches(zombie, b)


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """``kind``: "reveal" (``where`` = space 1-12), "play" (pile 1-9), "kill" (space 1-12) or
    "pass" (kill nothing; ``where`` 0)."""

    kind: str
    where: int

    def __str__(self):
        return "pass" if self.kind == "pass" else f"{self.kind} {self.where}"


PASS = Move("pass", 0)
_MOVE_RE = re.compile(r"^(reveal|play|kill)\s+(\d+)$|^(pass|no kill|none)$", re.IGNORECASE)


def parse_move(text: str) -> Move:
    m = _MOVE_RE.match(text.strip())
    limit = {"reveal": SPACES, "kill": SPACES, "play": CELLS}
    if m and m.group(3):
        return PASS
    if m and 1 <= int(m.group(2)) <= limit[m.group(1).lower()]:
        return Move(m.group(1).lower(), int(m.group(2)))
    raise MoveError(f"'{text}' is not a Dead Center move (expected 'reveal S' or 'kill S' for zombie space S "
                    "1-12, 'play P' for cabin pile P 1-9 row by row, or 'pass' to kill nothing)")


# -- the state ------------------------------------------------------------------------------------
REVEAL, FLIP, DRAW, PLACE, KILL = range(5)   # what happens next in the turn


class State(BaseState):
    """A position. ``tops``: the 9 piles' top cards; ``zombies``: the 12 faces in space order (the
    dealt ones: a face-down zombie's face is what open mode turns up); ``status``: DOWN / UP /
    DEAD per space; ``deck``: top first; ``step``: what happens next (REVEAL, FLIP a chosen
    space, DRAW, PLACE the drawn ``card``, KILL next to pile ``cell``)."""

    __slots__ = ("tops", "zombies", "status", "deck", "step", "card", "cell", "jokers", "_moves", "_key",
                 "_outcome")

    def __init__(self, tops, zombies, status, deck, step, card=-1, cell=-1, jokers=2):
        if step == REVEAL and DOWN not in status:
            step = DRAW
        self.tops, self.zombies, self.status, self.deck = tops, zombies, status, deck
        self.step, self.card, self.cell, self.jokers = step, card, cell, jokers
        self._moves = self._key = self._outcome = None

    def alive(self) -> int:
        return sum(s != DEAD for s in self.status)

    # -- chance ------------------------------------------------------------------------------
    def is_chance(self):
        return self.outcome() is None and self.step in (FLIP, DRAW)

    def dealt_outcome(self):
        return self.zombies[self.cell] if self.step == FLIP else self.deck[0]

    def chance_outcomes(self):
        if self.step == FLIP:
            return [(z, 1) for z in sorted(self.unseen_zombies())]
        return sorted(_counts(self.deck).items())

    def unseen_zombies(self) -> list:
        return [z for z, s in zip(self.zombies, self.status) if s == DOWN]

    def apply_chance(self, outcome):
        if self.step == DRAW:
            return State(self.tops, self.zombies, self.status, without_first(self.deck, outcome), PLACE, outcome,
                         jokers=self.jokers)
        zombies, space = list(self.zombies), self.cell
        if zombies[space] != outcome:  # a sampled face: it trades places with the face-down zombie holding it
            other = next(i for i, (z, s) in enumerate(zip(zombies, self.status)) if z == outcome and s == DOWN)
            zombies[other], zombies[space] = zombies[space], outcome
        status = self.status[:space] + (UP,) + self.status[space + 1:]
        return State(self.tops, tuple(zombies), status, self.deck, DRAW, jokers=self.jokers)

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if self._outcome is None:
            if DOWN not in self.status and UP not in self.status:
                self._outcome = Outcome(True, len(self.deck))
            elif self.step in (REVEAL, FLIP, DRAW) and not self.deck:  # this turn must draw: lost at once
                self._outcome = Outcome(False, None)
            elif self.step == PLACE and not self._places():
                self._outcome = Outcome(False, None)
            else:
                return None
        return self._outcome

    def _places(self):
        return [c for c in range(CELLS) if fits(self.card, self.tops[c])]

    def kill_options(self, cell: int) -> list:
        """The face-up zombies next to pile ``cell`` that its two support cards kill."""
        return [s for s in CELL_SPACES[cell] if self.status[s] == UP
                and kills(self.zombies[s], *(self.tops[x] for x in SUPPORTS[s]))]

    def legal_moves(self):
        if self._moves is None:
            if self.outcome() is not None or self.is_chance():
                self._moves = []
            elif self.step == REVEAL:
                self._moves = [Move("reveal", s + 1) for s in range(SPACES) if self.status[s] == DOWN]
            elif self.step == PLACE:
                self._moves = [Move("play", c + 1) for c in self._places()]
            else:
                self._moves = [Move("kill", s + 1) for s in self.kill_options(self.cell)] + [PASS]
        return self._moves

    def play(self, move):
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        if move.kind == "reveal":
            return State(self.tops, self.zombies, self.status, self.deck, FLIP, cell=move.where - 1, jokers=self.jokers)
        if move.kind == "play":
            cell = move.where - 1
            tops = self.tops[:cell] + (self.card,) + self.tops[cell + 1:]
            after = State(tops, self.zombies, self.status, self.deck, KILL, cell=cell, jokers=self.jokers)
            return after if after.kill_options(cell) else after._next_turn(self.status)
        status = self.status
        if move.kind == "kill":
            space = move.where - 1
            status = status[:space] + (DEAD,) + status[space + 1:]
        return self._next_turn(status)

    def _next_turn(self, status):
        return State(self.tops, self.zombies, status, self.deck, REVEAL, jokers=self.jokers)

    # -- search support ----------------------------------------------------------------------
    def key(self):
        """The tops, the zombies' faces and status, the deck, the step and its card or pile."""
        if self._key is None:
            self._key = (self.tops, self.zombies, self.status, self.deck, self.step, self.card, self.cell)
        return self._key

    def view(self):
        """As key(), with face-down zombies unknown: their faces leave the view, and the deck is
        the composition left (its order is chance)."""
        faces = tuple(z if s != DOWN else -1 for z, s in zip(self.zombies, self.status))
        return (self.tops, faces, self.status, tuple(sorted(self.deck)), self.step, self.card, self.cell)

    def sample_world(self, rng):
        """The unseen faces dealt anew: the face-down zombies' faces shuffled among the face-down
        spaces, then the deck shuffled (Fisher-Yates, ``rng``, each from the sorted cards)."""
        down = [s for s in range(SPACES) if self.status[s] == DOWN]
        zombies = list(self.zombies)
        for space, face in zip(down, shuffled_by(sorted(zombies[s] for s in down), rng)):
            zombies[space] = face
        deck = tuple(shuffled_by(sorted(self.deck), rng))
        return State(self.tops, tuple(zombies), self.status, deck, self.step, self.card, self.cell, self.jokers)

    def seen_text(self):
        return self._text(blind=True)

    def table_scope(self):
        return self.jokers

    def score_bound(self):
        """Each turn draws one card and kills at most one zombie, so a win leaves at most the cards
        in the deck less the zombies alive, plus one once this turn's card is drawn (its kill
        needs no further draw); below zero, no win. It reads only how many cards are left, so it
        holds blind too."""
        outcome = self.outcome()
        if outcome is not None:
            return outcome.score if outcome.won else NO_WIN
        drawn = self.step in (PLACE, KILL)
        best = len(self.deck) - self.alive() + (1 if drawn else 0)
        return best if best >= 0 else NO_WIN

    def search_moves(self):
        """The legal moves, a kill before passing: killing never hurts (a dead zombie asks nothing
        more, so any line that wins with it alive wins as soon with it dead), so pass is left out
        when a kill is possible. Plays come best first by the baseline's ranking (play_rank)."""
        moves = self.legal_moves()
        if self.step == KILL and len(moves) > 1:
            return moves[:-1]
        if self.step == PLACE:
            return sorted(moves, key=self.play_rank)
        return moves

    def play_rank(self, move) -> tuple:
        """How a player who sees only the face-up zombies ranks a play (lower first): the kills it
        makes possible; then the face-up zombies whose supports would kill them (ready for a card
        on their pile); then how near the face-up zombies are (each support of the right suit or
        colour, each pair summing to 10 or more, counts one); then the live zombies whose supports
        sum to 10 or more (a jack's need, the least any zombie needs); then the pile whose top is
        closest in value; then the pile."""
        kills_now, ready, near, strong, gap = self.play_features(move)[:5]
        return -kills_now, -ready, -near, -strong, gap, move.where - 1

    def play_features(self, move) -> tuple:
        """What a play changes, as a player sees it (play_rank and the blind rule weigh these): the
        kills it makes possible now; the face-up zombies then ready; how near the face-up zombies
        are; the live zombies whose supports sum to 10 or more; the value gap between the card and
        the top it covers; whether that top is a joker (a pile that takes anything); the
        (face-down space, unseen face) pairs the supports would then kill: the odds that a
        reveal finds a zombie ready."""
        cell = move.where - 1
        tops = self.tops[:cell] + (self.card,) + self.tops[cell + 1:]
        unseen = self.unseen_zombies()
        kills_now = ready = near = strong = down_odds = 0
        for s in range(SPACES):
            if self.status[s] != DEAD:
                a, b = (tops[x] for x in SUPPORTS[s])
                enough = value_of(a) + value_of(b) >= 10
                strong += enough
                if self.status[s] == UP:
                    matched = matches(self.zombies[s], a) + matches(self.zombies[s], b)
                    killed = enough and matched == 2  # kills(): its supports kill it now
                    ready += killed
                    kills_now += killed and SPACE_CELL[s] == cell
                    near += matched + enough
                elif enough:
                    down_odds += sum(kills(z, a, b) for z in unseen)
        covered = self.tops[cell]
        return (kills_now, ready, near, strong, abs(value_of(covered) - value_of(self.card)), covered == JOKER,
                down_odds)

    def safe_move(self):
        """The one kill possible after a play (killing never hurts, see search_moves)."""
        if self.step == KILL and not self.is_chance() and self.outcome() is None and len(self.legal_moves()) == 2:
            return self.legal_moves()[0]
        return None

    def heuristic(self):
        return -self.alive(), len(self.deck)

    def picture(self, seen_only=False):
        """The cabin's nine piles (their top cards), the twelve zombie spaces (face down, face up,
        or empty once killed), the drawn card and the deck."""
        piles = [P.pile(f"pile {i + 1}", [P.card(top)], group=f"cabin row {i // 3 + 1}") for i, top in enumerate(self.tops)]
        for s in range(SPACES):
            face = self.zombies[s]
            shown = [] if self.status[s] == DEAD else [P.card(None if seen_only and self.status[s] == DOWN else face,
                                                              down=self.status[s] == DOWN)]
            piles.append(P.pile(f"zombie {s + 1}", shown, group="zombies"))
        if self.step in (PLACE, KILL) and self.card >= 0:
            piles.append(P.pile("drawn", [P.card(self.card)], group="deck"))
        piles.append(P.deck("deck", self.deck, seen_only))
        return P.picture(piles, **{"zombies alive": self.alive()})

    def __str__(self):
        return self._text(blind=False)

    def _text(self, blind):
        def zombie(s):
            if self.status[s] == DEAD:
                return "xx"
            if self.status[s] == DOWN:
                return "??" if blind else C.format_card(self.zombies[s]).lower()
            return C.format_card(self.zombies[s])

        def pile(c):
            return C.format_card(self.tops[c])

        lines = ["      " + "  ".join(f"{zombie(s):>3}" for s in (0, 1, 2))]
        for r, (left, right) in enumerate(((11, 3), (10, 4), (9, 5))):
            lines.append(f"{zombie(left):>3}   " + "  ".join(f"{pile(r * 3 + c):>3}" for c in range(3))
                         + f"   {zombie(right)}")
        lines.append("      " + "  ".join(f"{zombie(s):>3}" for s in (8, 7, 6)))
        tail = f"deck {len(self.deck)}"
        if not blind and self.deck:
            tail += f" (next {C.format_card(self.deck[0])})"
        if self.step == PLACE:
            tail += f", to play: {C.format_card(self.card)}"
        elif self.step == KILL:
            tail += f", played on pile {self.cell + 1}"
        outcome = self.outcome()
        if outcome is not None:
            tail += f"  {'won' if outcome.won else 'lost'}" + (f" (score {outcome.score})" if outcome.won else "")
        lines.append(tail)
        return "\n".join(lines)


def _counts(deck) -> dict:
    counts: dict = {}
    for card in deck:
        counts[card] = counts.get(card, 0) + 1
    return counts


# -- deals ----------------------------------------------------------------------------------------
def seeded_piles(seed, options) -> dict:
    """One shuffle of the whole pack (the 52 cards and the jokers, stream 0), split keeping the
    order: the face cards are the zombies, the rest the deck."""
    pack = shuffled(C.standard_deck(jokers=options["jokers"]), seed)
    return {"zombies": [c for c in pack if c in FACE_CARDS], "deck": [c for c in pack if c not in FACE_CARDS]}


def check_piles(piles, source) -> None:
    check_exact_pile(piles["zombies"], list(FACE_CARDS), source, "zombies")
    jokers = sum(c == JOKER for c in piles["deck"])
    if jokers > 2:
        raise DealError(source, "deck", f"{jokers} jokers: at most 2")
    check_exact_pile(piles["deck"], list(NUMBER_CARDS) + [JOKER] * jokers, source, "deck")


def dealt_state(deal: Deal, jokers: int) -> State:
    """The start of a deal: the first 9 cards of the deck are the cabin, every zombie face down."""
    deck = tuple(deal.piles["deck"])
    if sum(c == JOKER for c in deck) != jokers:
        raise DealError(deal.source, "deck", f"{sum(c == JOKER for c in deck)} jokers, but options.jokers = "
                                             f"{jokers}")
    return State(deck[:CELLS], tuple(deal.piles["zombies"]), (DOWN,) * SPACES, deck[CELLS:], REVEAL, jokers=jokers)
