"""Area 52's rules: the pure-Python reference engine (the Action move and its notation, the
State, the deal). The game: solodeck/games/area52/__init__.py; rules page: docs/rules/area-52.md.

A card is solodeck.cards' int (suit * 13 + value - 1; values A=1 ... K=13). Defenders are
black at the start, but a single attack puts a red alien among them, and wave 2's aliens are of
both colours, so every rule reads a card's colour, never its pile.

The alien deck is two parts: ``hidden``, the cards never seen (deal order, or wave 2's reshuffle
order), and ``returned``, the sacrificed aliens sent face down to the bottom (the player saw them,
so they are known, in order). A turn flips up to three aliens: from ``hidden`` by chance (a chance
node per card: open mode takes the top card, blind mode any unseen one), then from ``returned``.
Refilling the table from the defender deck is a chance node per card too. Draws keep the rest of
a pile in its order (the first copy of the drawn card leaves), so the remaining order depends only
on which cards were drawn: one key serves open mode and blind mode (as in Skyway).

Wave 2's alien deck is the discard pile sorted and shuffled with stream 1 of the deal's seed
(RULINGS.md, Common): it depends only on which cards were discarded, so it is no chance node of
its own; blind play draws from its composition, which the player saw discarded.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ... import cards as C
from ... import picture as P
from ...api import NoWin, Outcome, check_exact_pile, without_first
from ...api import State as BaseState
from ...errors import MoveError
from ...shuffle import shuffled

TABLE = 6            # defenders face up, refilled after every action while the defender deck lasts
PER_TURN = 3         # aliens flipped per turn
WAVE1_PENALTY = 50   # a loss still in wave 1 scores 50 less
VALUE = tuple(c % 13 + 1 for c in range(52))
RED = tuple(c // 13 in (1, 2) for c in range(52))
BLACK_CARDS = tuple(c for c in range(52) if not RED[c])
RED_CARDS = tuple(c for c in range(52) if RED[c])


def value_of(card: int) -> int:
    return VALUE[card]


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Action:
    """One way to handle the current attacker. ``kind``: "dual" (``cards`` = the two defenders,
    canonical order), "single" or "sacrifice" (``cards`` = the one defender). ``alien``, the
    attacker, is only shown (``dual 5H+3C on 8D``): the position fixes it, so equality ignores it
    and a move written without it is the same move."""

    kind: str
    cards: tuple
    alien: int | None = field(default=None, compare=False)

    def __str__(self):
        on = f" on {C.format_card(self.alien)}" if self.alien is not None else ""
        return f"{self.kind} {'+'.join(C.format_card(c) for c in self.cards)}{on}"


def dual(a: int, b: int, alien: int | None = None) -> Action:
    return Action("dual", (min(a, b), max(a, b)), alien)


def single(d: int, alien: int | None = None) -> Action:
    return Action("single", (d,), alien)


def sacrifice(d: int, alien: int | None = None) -> Action:
    return Action("sacrifice", (d,), alien)


_KINDS = {"dual": "dual", "d": "dual", "single": "single", "s": "single", "sacrifice": "sacrifice",
          "sac": "sacrifice", "x": "sacrifice"}
_MOVE_RE = re.compile(r"^([a-z]+)\s+(.+?)(?:\s+on\s+(\S+))?$", re.IGNORECASE)


def parse_move(text: str) -> Action:
    expected = ("expected 'dual 5H+3C' (two defenders summing to the attacker), 'single 7S' (one defender of "
                "the other colour, higher) or 'sacrifice 3S' (short: d, s, x), optionally followed by 'on' and "
                "the attacker, e.g. 'single 7S on 5H'")
    m = _MOVE_RE.match(text.strip())
    if not m or m.group(1).lower() not in _KINDS:
        raise MoveError(f"'{text}' is not an Area 52 move ({expected})")
    kind = _KINDS[m.group(1).lower()]
    try:
        cards = [C.parse_card(w) for w in m.group(2).replace("+", " ").split()]
        alien = C.parse_card(m.group(3)) if m.group(3) else None
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    if C.JOKER in cards or alien == C.JOKER or len(cards) != (2 if kind == "dual" else 1) \
            or (kind == "dual" and cards[0] == cards[1]):
        raise MoveError(f"'{text}' is not an Area 52 move ({expected})")
    return dual(cards[0], cards[1], alien) if kind == "dual" else Action(kind, (cards[0],), alien)


# -- the state ------------------------------------------------------------------------------------
_RESHUFFLES: dict = {}  # a search meets the same wave-2 deck again and again


def wave2_deck(discard: tuple, seed: int) -> tuple:
    """Wave 2's alien deck: the discard pile (kept sorted: the canonical order) shuffled with
    stream 1 of the deal's seed."""
    memo = (discard, seed)
    deck = _RESHUFFLES.get(memo)
    if deck is None:
        if len(_RESHUFFLES) > 100_000:
            _RESHUFFLES.clear()
        deck = _RESHUFFLES[memo] = tuple(shuffled(discard, seed, 1))
    return deck


class State(BaseState):
    """A position. ``table``: the face-up defenders, sorted (where they lie never matters);
    ``defenders``: the defender deck, top first; ``attackers``: the flipped aliens not handled
    yet, the current one first; ``to_flip``: aliens still to flip this turn; ``hidden`` and
    ``returned``: the alien deck (see the module's docstring); ``discard``: sorted; ``wave``:
    1 or 2."""

    __slots__ = ("table", "defenders", "attackers", "to_flip", "hidden", "returned", "discard", "wave", "seed",
                 "_moves", "_key", "_outcome")

    def __init__(self, table, defenders, attackers, to_flip, hidden, returned, discard, wave, seed):
        while True:  # the forced steps: a new turn, wave 2's reshuffle, flipping known returned aliens
            if not attackers and not to_flip:
                to_flip = min(PER_TURN, len(hidden) + len(returned))
                if not to_flip and wave == 1:  # wave 1 beaten: the discard pile is wave 2
                    hidden, discard, wave = wave2_deck(discard, seed), (), 2
                    continue
            if to_flip and not hidden and returned:
                attackers, returned, to_flip = attackers + returned[:1], returned[1:], to_flip - 1
                continue
            break
        self.table, self.defenders, self.attackers, self.to_flip = table, defenders, attackers, to_flip
        self.hidden, self.returned, self.discard, self.wave, self.seed = hidden, returned, discard, wave, seed
        self._moves = self._key = self._outcome = None

    def aliens_left(self) -> int:
        """Aliens of this wave not defeated yet, the flipped ones included."""
        return len(self.attackers) + len(self.hidden) + len(self.returned)

    def defenders_left(self) -> int:
        return len(self.table) + len(self.defenders)

    # -- chance: refills first, then the turn's flips --------------------------------------------
    def is_chance(self):
        if self.outcome() is not None:
            return False
        return (len(self.table) < TABLE and bool(self.defenders)) or (self.to_flip > 0 and bool(self.hidden))

    def _refilling(self):
        return len(self.table) < TABLE and bool(self.defenders)

    def chance_outcomes(self):
        pile = self.defenders if self._refilling() else self.hidden
        return [(card, 1) for card in sorted(pile)]

    def dealt_outcome(self):
        return self.defenders[0] if self._refilling() else self.hidden[0]

    def apply_chance(self, card):
        if self._refilling():
            return State(tuple(sorted(self.table + (card,))), without_first(self.defenders, card), self.attackers,
                         self.to_flip, self.hidden, self.returned, self.discard, self.wave, self.seed)
        return State(self.table, self.defenders, self.attackers + (card,), self.to_flip - 1,
                     without_first(self.hidden, card), self.returned, self.discard, self.wave, self.seed)

    # -- decisions ---------------------------------------------------------------------------
    def outcome(self):
        if self._outcome is None:
            if self.wave == 2 and not self.aliens_left():
                self._outcome = Outcome(True, self.defenders_left())
            elif not self.table and not self.defenders:  # an alien is still to come, nobody to face it
                self._outcome = Outcome(False, -self.aliens_left() - (WAVE1_PENALTY if self.wave == 1 else 0))
            else:
                return None
        return self._outcome

    def legal_moves(self):
        if self._moves is None:
            if self.outcome() is not None or self.is_chance():
                self._moves = []
            else:
                self._moves = actions(self.table, self.attackers[0])
        return self._moves

    def play(self, move):
        if move not in self.legal_moves() or move.alien not in (None, self.attackers[0]):
            raise MoveError(f"'{move}' is not legal here")
        alien, rest = self.attackers[0], self.attackers[1:]
        table, returned, gone = self.table, self.returned, ()
        if move.kind == "dual":
            gone = (alien,) + (tuple(d for d in move.cards if RED[d] == RED[alien]) if self.wave == 2 else ())
            table = tuple(d for d in table if d not in gone)
        elif move.kind == "single":
            gone = move.cards
            table = tuple(sorted([d for d in table if d != gone[0]] + [alien]))
        else:
            gone = move.cards
            table = tuple(d for d in table if d != gone[0])
            returned = returned + (alien,)
        discard = tuple(sorted(self.discard + gone))
        return State(table, self.defenders, rest, self.to_flip, self.hidden, returned, discard, self.wave, self.seed)

    # -- search support ----------------------------------------------------------------------
    def key(self):
        """Everything but the discard pile (the cards found nowhere else) and the seed (fixed for
        a game: table_scope)."""
        if self._key is None:
            self._key = (self.table, self.defenders, self.attackers, self.to_flip, self.hidden, self.returned,
                         self.wave)
        return self._key

    def table_scope(self):
        return self.seed

    def score_bound(self):
        """A win scores the defenders left, and no action ever adds one: at most those there are
        now, less forced_losses(). Fewer defenders than that: no win (a loss leaves at least one
        alien: score at most -1, or -51 in wave 1). It reads compositions only, so it holds
        blind too."""
        outcome = self.outcome()
        if outcome is not None:
            return outcome.score if outcome.won else NoWin(outcome.score)
        best = self.defenders_left() - self.forced_losses()
        if best < 0:
            return NoWin(-1 - (WAVE1_PENALTY if self.wave == 1 else 0))
        return best

    def forced_losses(self) -> int:
        """A lower bound on the defenders still to lose. An alien is beaten without a loss only
        by a single (a defender of the other colour, higher) or a dual of two defenders of the
        other colour, and in wave 2 every future defender is on the table, in the defender deck or
        among the aliens left: an alien with no such card or pair among them costs one. So does
        the current attacker when nothing on the table beats it without a loss now."""
        moves = self.legal_moves()
        now = 1 if moves and all(losses(m, self.attackers[0], self.wave) for m in moves) else 0
        if self.wave == 1:
            return now
        high, sums = [0, 0], [0, 0]  # by colour (black, red): the highest value, the pair sums (bit v)
        seen = [0, 0]
        for card in self.table + self.defenders + self.attackers + self.hidden + self.returned:
            red, v = RED[card], VALUE[card]
            if v > high[red]:
                high[red] = v
            sums[red] |= seen[red] << v  # v plus every value seen before, as bits
            seen[red] |= 1 << v
        forced = 0
        for i, alien in enumerate(self.attackers + self.hidden + self.returned):
            other, v = not RED[alien], VALUE[alien]
            if high[other] <= v and not sums[other] >> v & 1:  # no single, no dual without a loss
                forced += 1
            elif i == 0 and self.attackers:
                forced += now
        return forced

    def search_moves(self):
        """The legal moves, those that lose no defender first (duals that discard none, singles),
        then by defenders lost."""
        moves = self.legal_moves()
        if len(moves) <= 1:
            return moves
        alien = self.attackers[0]
        return sorted(moves, key=lambda m: losses(m, alien, self.wave))

    def heuristic(self):
        """Defenders left against aliens still to come (in wave 1, wave 2's too: the discard pile
        so far plus a card per wave-1 alien left): about one defender is lost per two aliens."""
        future = self.aliens_left() + (len(self.discard) + self.aliens_left() if self.wave == 1 else 0)
        return 2 * self.defenders_left() - future

    def seen_text(self):
        return self._text(blind=True)

    def picture(self, seen_only=False):
        """The defenders on the table, the attackers flipped, the alien deck (returned aliens,
        seen once, lie face down at its bottom), the defender deck and the discard pile."""
        aliens = [P.card(c, down=True) for c in reversed(self.returned)]
        aliens += [P.card(None if seen_only else c, down=True) for c in reversed(self.hidden)]
        piles = [P.pile("defenders", [P.card(c) for c in self.table], group="table", spread=True),
                 P.pile("attackers", [P.card(c) for c in reversed(self.attackers)], group="table", spread=True),
                 P.pile("alien deck", aliens, group="decks", count=len(aliens)),
                 P.deck("defender deck", self.defenders, seen_only, group="decks"),
                 P.pile("discard", [P.card(c) for c in self.discard], group="decks")]
        return P.picture(piles, wave=self.wave, **{"aliens left": self.aliens_left()})

    def __str__(self):
        return self._text(blind=False)

    def _text(self, blind):
        out = self.outcome()
        lines = [f"wave {self.wave}, aliens left {self.aliens_left()}, defender deck {len(self.defenders)}"
                 + (f"  {'won' if out.won else 'lost'} (score {out.score})" if out else "")]
        lines.append(f"defenders: {C.format_cards(self.table) or '(none)'}")
        lines.append(f"attackers: {C.format_cards(self.attackers) or '(to flip)'}")
        if blind:
            lines.append(f"alien deck: {len(self.hidden)} unseen"
                         + (f" + returned {C.format_cards(self.returned)}" if self.returned else ""))
        else:
            lines.append(f"alien deck: {C.format_cards(self.hidden + self.returned) or '(empty)'}")
            lines.append(f"defender deck: {C.format_cards(self.defenders) or '(empty)'}")
        return "\n".join(lines)


def actions(table: tuple, alien: int) -> list:
    """Every way to handle ``alien`` with the defenders ``table`` (sorted): duals, singles, then
    sacrifices, each in card order."""
    v, red = VALUE[alien], RED[alien]
    moves = []
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            if VALUE[a] + VALUE[b] == v:
                moves.append(Action("dual", (a, b), alien))
    moves += [Action("single", (d,), alien) for d in table if RED[d] != red and VALUE[d] > v]
    moves += [Action("sacrifice", (d,), alien) for d in table]
    return moves


def losses(move: Action, alien: int, wave: int) -> int:
    """Defenders ``move`` costs against ``alien``: a single swaps one for the alien, a sacrifice
    loses one, a wave-2 dual loses those of the alien's colour."""
    if move.kind == "single":
        return 0
    if move.kind == "sacrifice":
        return 1
    return sum(RED[d] == RED[alien] for d in move.cards) if wave == 2 else 0


# -- the deal -------------------------------------------------------------------------------------
def seeded_piles(seed: int) -> dict:
    """One shuffle of the 52 cards (stream 0), split by colour keeping the order: as a player
    separates a shuffled deck into its two piles."""
    deck = shuffled(C.standard_deck(), seed)
    return {"defenders": [c for c in deck if not RED[c]], "aliens": [c for c in deck if RED[c]]}


def check_piles(piles: dict, source: str) -> None:
    check_exact_pile(piles["defenders"], list(BLACK_CARDS), source, "defenders")
    check_exact_pile(piles["aliens"], list(RED_CARDS), source, "aliens")


def dealt_state(defenders, aliens, seed: int) -> State:
    """A deal's first position: the defender deck and the alien deck, top first; nothing dealt yet."""
    return State((), tuple(defenders), (), 0, tuple(aliens), (), (), 1, seed)
