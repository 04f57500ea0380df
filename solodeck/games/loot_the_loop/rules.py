"""Loot the Loop (Isaludo): the pure-Python reference engine. Rules page: docs/rules/loot-the-loop.md.

The temple is the deck, a loop: ``deck`` is a tuple of codes, top first, code = card * 2 + 1 if
face up (card: solodeck's int, the joker 52). ``notes`` holds the marked paths (face-up
trinkets, sorted). The score pile is everything else: its size is the score.

Positions repeat (explores go round the loop, marks and returns undo each other), so the game is
searched by solvers/reach.py, which handles cycles. The score never goes down, and a line that
repeats forever is worth a loss with its score pile (RULINGS: repetition is no progress):
``stop_outcome()`` says so.

Blind mode: looking around turns cards over, a chance node (``turning``: the deck places still
to turn); open mode takes the dealt face, a blind player any card not seen yet. Every face-down
card has the same back, so ``view()`` shows them all alike and ``sample_world()`` deals the
unseen cards anew onto the face-down places.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import cards as C
from ... import picture as P
from ...api import NoWin, Outcome, check_exact_pile
from ...api import State as BaseState
from ...errors import MoveError
from ...shuffle import shuffled, shuffled_by

NOTES_LIMIT = 3
ACES = frozenset(s * 13 for s in range(4))
# search_moves' rank of each of State._order's kinds of move: a mark goes third
SEARCH_RANK = (0, 1, 3, 4, 5, 6, 2, 7)
# A card's class, all the search needs of it (suits never matter): the joker 0, a trap 1,
# an ace 2, a trinket its value (2..10) + 1.
JOKER_CLASS, TRAP_CLASS, ACE_CLASS = 0, 1, 2


def card_class(card: int) -> int:
    if card == C.JOKER:
        return JOKER_CLASS
    r = card % 13 + 1
    return TRAP_CLASS if r > 10 else (ACE_CLASS if r == 1 else r + 1)


def trinket_value(card: int) -> int:
    """A trinket's value (2..10), 0 for any other card (aces, traps, the joker)."""
    r = C.rank_of(card)
    return r if 2 <= r <= 10 else 0


def is_up(code: int) -> bool:
    return bool(code & 1)


def card_of(code: int) -> int:
    return code >> 1


def full_deck() -> list[int]:
    return C.standard_deck(jokers=1)


@dataclass(frozen=True, order=True)
class Move:
    """``look``, ``explore N``, ``mark`` or ``return CARD`` (a card from the notes)."""

    kind: str
    value: int = 0  # explore: the count; return: the card

    def __str__(self):
        if self.kind == "explore":
            return f"explore {self.value}"
        if self.kind == "return":
            return f"return {C.format_card(self.value)}"
        return self.kind


LOOK, MARK = Move("look"), Move("mark")
_MOVE_RE = re.compile(r"^\s*(look(?:\s+around)?|mark(?:\s+a\s+path)?|explore\s+(\S+)|return\s+(\S+))\s*$", re.I)


def parse_move(text: str) -> Move:
    m = _MOVE_RE.match(text)
    if not m:
        raise MoveError(f"'{text}' is not a Loot the Loop move (expected 'look', 'explore N', 'mark' "
                        "or 'return CARD', e.g. 'return 7C')")
    word = m.group(1).lower()
    if word.startswith("look"):
        return LOOK
    if word.startswith("mark"):
        return MARK
    if m.group(2) is not None:
        count = m.group(2)
        value = 10 if count.upper() in ("T", "10") else (int(count) if count.isdigit() else 0)
        if not 2 <= value <= 10:
            raise MoveError(f"'{text}': explore counts are trinket values, 2 to 10")
        return Move("explore", value)
    try:
        card = C.parse_card(m.group(3))
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None
    if not trinket_value(card):
        raise MoveError(f"'{text}': only trinkets (2-10) are ever in the notes")
    return Move("return", card)


class State(BaseState):
    """A position: ``deck`` (codes, top first), ``notes`` (sorted cards), ``turning`` (the deck
    places being turned face up by a look around, in order: a chance node while not empty),
    ``exited`` (the last explore landed on the face-up joker with every ace scored: won)."""

    __slots__ = ("deck", "notes", "turning", "exited", "_moves", "_key")

    def __init__(self, deck: tuple, notes: tuple = (), turning: tuple = (), exited: bool = False):
        self.deck, self.notes, self.turning, self.exited = deck, notes, turning, exited
        self._moves = None
        self._key = None

    # -- the score and the end -----------------------------------------------------------------
    @property
    def score(self) -> int:
        return 53 - len(self.deck) - len(self.notes)

    def aces_left(self) -> int:
        return sum(1 for code in self.deck if card_of(code) in ACES)

    @property
    def won(self):
        return self.exited

    def outcome(self):
        if self.turning:
            return None
        if self.won:
            return Outcome(True, self.score)
        return None if self.legal_moves() else Outcome(False, self.score)

    def stop_outcome(self):
        """What the position is worth if no progress is ever made from it (RULINGS: a line that
        repeats forever never wins): a loss scoring the pile. The score never goes down, so
        every line from here is worth at least this."""
        return Outcome(False, self.score)

    # -- moves ---------------------------------------------------------------------------------
    def explore_values(self) -> list[int]:
        """The face-up trinket values among the top two cards (each value once)."""
        values = []
        for code in self.deck[:2]:
            v = trinket_value(card_of(code)) if is_up(code) else 0
            if v and v not in values:
                values.append(v)
        return values

    def landing(self, count: int) -> int:
        """The code of the card an explore by ``count`` lands on."""
        return self.deck[count % len(self.deck)]

    def legal_moves(self):
        """Every action the rules allow, except an explore that lands on a face-up trap: that
        ends the game lost with the score pile, which no line from here can do worse than, and
        when nothing else is left the game is lost anyway (RULINGS)."""
        if self._moves is None:
            moves = []
            if not self.turning and not self.won:  # the deck is never empty: traps never leave it
                deck = self.deck
                if not is_up(deck[0]):
                    moves.append(LOOK)
                for v in self.explore_values():
                    land = self.landing(v)
                    if not (is_up(land) and card_class(card_of(land)) == TRAP_CLASS):
                        moves.append(Move("explore", v))
                if is_up(deck[0]) and trinket_value(card_of(deck[0])) and len(self.notes) < NOTES_LIMIT:
                    moves.append(MARK)
                moves += [Move("return", card) for card in self.notes]
            self._moves = moves
        return self._moves

    def play(self, move: Move) -> "State":
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        deck, notes = self.deck, self.notes
        if move.kind == "look":
            turning = (0,) if len(deck) == 1 or is_up(deck[1]) else (0, 1)
            return State(deck, notes, turning)
        if move.kind == "mark":
            return State(deck[1:], tuple(sorted(notes + (card_of(deck[0]),))))
        if move.kind == "return":
            i = notes.index(move.value)
            return State((move.value * 2 + 1,) + deck, notes[:i] + notes[i + 1:])
        k = move.value % len(deck)
        return _land(deck[k:] + deck[:k], notes)

    # -- chance: the faces turned up -----------------------------------------------------------
    def is_chance(self):
        return bool(self.turning)

    def dealt_outcome(self):
        return card_of(self.deck[self.turning[0]])

    def hidden_cards(self) -> list:
        return sorted(card_of(c) for c in self.deck if not is_up(c))

    def chance_outcomes(self):
        """Every card not seen yet, each as likely: all backs are alike."""
        return [(card, 1) for card in self.hidden_cards()]

    def sample_chance(self, rng):
        """As the default (one unseen card, each as likely, in the listed order) without the list."""
        cards = self.hidden_cards()
        return cards[rng.next() % len(cards)]

    def apply_chance(self, card):
        """The card at the first turning place shows ``card``. If ``card`` lay face down
        elsewhere (a sampled outcome), the two trade places: the hidden faces stay a consistent
        world, uniformly distributed if they were."""
        deck, i = list(self.deck), self.turning[0]
        if card_of(deck[i]) != card:
            try:
                j = deck.index(card * 2)
            except ValueError:
                raise MoveError(f"{C.format_card(card)} cannot be the card turned over here") from None
            deck[j] = deck[i]
        deck[i] = card * 2 + 1
        return State(tuple(deck), self.notes, self.turning[1:])

    # -- what the player sees ------------------------------------------------------------------
    def view(self):
        """The deck with every face-down card alike (-1), the notes, the places being turned."""
        return tuple(c if is_up(c) else -1 for c in self.deck), self.notes, self.turning

    def sample_world(self, rng):
        """The unseen cards shuffled (Fisher-Yates, ``rng``) onto the face-down places, top first:
        every world the player cannot tell from this one is equally likely."""
        places = [i for i, c in enumerate(self.deck) if not is_up(c)]
        deck = list(self.deck)
        for i, card in zip(places, shuffled_by(self.hidden_cards(), rng)):
            deck[i] = card * 2
        return State(tuple(deck), self.notes, self.turning)

    def seen_text(self):
        return self._text(lambda code: "##")

    # -- search support --------------------------------------------------------------------------
    def score_bound(self):
        """The best a line from here can still end with. The pile and the aces and trinkets in
        play always make 40 (the 53 cards less the 12 traps and the joker, which never leave the
        deck); a win ends with every ace scored, so it scores 40 less the trinkets still in play
        (deck and notes) at the end. At least two are: after the last card a winning line scores,
        it must still explore (onto the exit), and the trinket of the explore that scored that
        card lies deep in the deck (the deck keeps 14 cards at least and an explore goes 10 at
        most, so it is 4 or more below the top): with no other trinket, in the notes or on top,
        nothing can bring it back to the top two (explores need a trinket there, a mark needs one
        on top, a return a note). So:

        - two trinkets or more in play: a win scores at most 38;
        - one: no card can be scored any more (its own explore cannot land on it), so a win
          scores the pile as it is, and with an ace left there is no win: the pile and the aces
          at best (NoWin);
        - none: nothing moves any more: NoWin, the pile as it is."""
        if self.exited:
            return self.score
        trinkets = len(self.notes) + sum(1 for c in self.deck if trinket_value(card_of(c)))
        if trinkets >= 2:
            return 38
        if trinkets == 1:
            aces = self.aces_left()
            return NoWin(self.score + aces) if aces else self.score
        return NoWin(self.score)

    def search_moves(self):
        """The legal moves, best first: an explore that wins, one that scores an ace, a mark, one
        that scores a trinket, a look around, an explore to a face-down card, one to the exit
        with an ace out, returns (one per value: returning either of two sevens is the same
        position). Marking early keeps a way out in the notes: the first win comes far sooner
        (measured in docs/rules/loot-the-loop.md)."""
        out, values = [], set()
        for m in self.legal_moves():
            if m.kind == "return":
                if trinket_value(m.value) in values:
                    continue
                values.add(trinket_value(m.value))
            out.append(m)
        return sorted(out, key=lambda m: SEARCH_RANK[self._order(m)])

    def _order(self, m):
        """0 an explore that wins, 1 one that scores an ace, 2 a trinket, 3 a look around, 4 an
        explore onto a face-down card, 5 onto the exit with an ace still out, 6 mark, 7 return."""
        if m.kind == "explore":
            land = self.landing(m.value)
            if not is_up(land):
                return 4
            cls = card_class(card_of(land))
            if cls == JOKER_CLASS:
                return 0 if not self.aces_left() else 5
            return 1 if cls == ACE_CLASS else 2
        return 3 if m.kind == "look" else (6 if m.kind == "mark" else 7)

    def key(self):
        """Each card by its class (suits never matter), face up or down; the notes' values."""
        if self._key is None:
            self._key = (bytes(card_class(c >> 1) * 2 + (c & 1) for c in self.deck),
                         bytes(trinket_value(c) for c in self.notes), self.turning, self.exited)
        return self._key

    def picture(self, seen_only=False):
        """The loop of the deck (bottom first, so its top is the last card), the notes and the
        score pile."""
        deck = [P.card(card_of(c)) if is_up(c) else P.card(None if seen_only else card_of(c), down=True)
                for c in reversed(self.deck)]
        gone = set(card_of(c) for c in self.deck) | set(self.notes)
        pile_cards = [c for c in range(53) if c not in gone]
        piles = [P.pile("deck", deck, group="deck", spread=True),
                 P.pile("notes", [P.card(c) for c in self.notes], group="piles", spread=True),
                 P.pile("score pile", [P.card(c) for c in pile_cards], group="piles")]
        return P.picture(piles, score=self.score, **{"aces scored": 4 - self.aces_left()})

    def __str__(self):
        return self._text(lambda code: f"({C.format_card(card_of(code))})")

    def _text(self, face_down):
        shown = " ".join(C.format_card(card_of(c)) if is_up(c) else face_down(c) for c in self.deck)
        lines = [f"deck ({len(self.deck)}, top first): {shown or '-'}",
                 f"notes: {C.format_cards(self.notes) or '-'}",
                 f"score pile: {self.score} ({4 - self.aces_left()} of 4 aces)"]
        if self.turning:
            lines.append(f"(turning over deck card{'s' if len(self.turning) > 1 else ''} "
                         + " and ".join(str(i + 1) for i in self.turning) + ")")
        if self.exited:
            lines.append("(out of the temple with all four jewels: won)")
        return "\n".join(lines)


def _land(deck: tuple, notes: tuple) -> State:
    """The explore's landing on the new top card: a face-up ace or trinket goes to the score
    pile; the face-up joker is the exit once every ace is scored; anything else stays (a
    face-up trap is never landed on: legal_moves leaves those explores out)."""
    top, state = deck[0], State(deck, notes)
    if is_up(top):
        cls = card_class(card_of(top))
        if cls >= ACE_CLASS:
            return State(deck[1:], notes)
        if cls == JOKER_CLASS and not state.aces_left():
            return State(deck, notes, exited=True)
    return state


# -- deals ----------------------------------------------------------------------------------------
def seeded_piles(seed) -> dict:
    return {"deck": shuffled(full_deck(), seed)}


def check_piles(piles, source) -> None:
    check_exact_pile(piles["deck"], full_deck(), source, "deck")


def dealt_state(deck) -> State:
    """The start of a deal: the ``deck`` (cards, top first), every card face down."""
    return State(tuple(card * 2 for card in deck))
