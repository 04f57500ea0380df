"""Frozen Novelty (the Foresight deck's solitaire): the pure-Python reference engine and its exact
open-mode search. Rules page: docs/rules/frozen-novelty.md.

Twelve stacks, numbered 0-11: Deck stacks D1-D4 (0-3), Up stacks U1-U4 (4-7), Down stacks W1-W4
(8-11). A stack is a tuple of codes bottom first, code = card * 2 + (1 if face up). Foundations
are the rank (0 = empty) on each suit's foundation, suits in solodeck.cards order S H D C.

The state graph has cycles (face-down cards and runs can move back and forth): the open-mode
search is the generic cycle-aware one, solvers/reach.py (Tarjan's strongly connected
components), helped by this game's safe moves, stricter-rules pre-search and twin stacks
(docs/rules/frozen-novelty.md, "How the solver searches"); the kernel does the same in C.

Blind mode: turning a card over is a chance node (``pending``): open mode takes the face dealt
there, a blind player any unseen card with the same back. ``view()`` shows face-down cards by
their backs where the player may see them (very easy and easy: every back; else the backs seen on
top of a stack, remembered: ``State.seen``), ``sample_world()`` deals the hidden faces and the
unseen backs anew (docs/rules/frozen-novelty.md, "Blind mode: how the solver plays it").
``blind_preference`` orders the sampled worlds' moves for the determinizer: its tie-break, which
decides most early moves (every move wins in every world).
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import cached_property

from .. import cards as C
from .. import picture as P
from ..api import Deal, OneDeckGame, Outcome, advance_chance
from ..api import State as BaseState
from ..result import Limits, StopReason, finish_open
from ..solvers.plan import BlindPlan, Estimator
from ..solvers.reach import VALUE_SECONDS, presearch
from ..errors import DealError, MoveError
from ..shuffle import shuffled_by

VARIANTS = ("standard", "very-easy", "easy", "hard", "very-hard")
NAMES = tuple(f"{k}{i}" for k in "DUW" for i in range(1, 5))  # stack index -> name
DECK, UP, DOWN = range(0, 4), range(4, 8), range(8, 12)
SUIT_CYCLE = "SHCD"  # the back table's cycle: spades, hearts, clubs, diamonds, spades ...
# Suits shown on a back, by rank (A=1 ... K=13): the true suit is always one of them.
BACK_COUNT = {1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 3, 11: 3, 12: 3, 13: 4}
UNSEEN_BACK = -17  # the view of a face-down card whose back the player has not seen (a back is -1 - mask)


def card_of(code: int) -> int:
    return code >> 1


def is_up(code: int) -> bool:
    return bool(code & 1)


def rank(card: int) -> int:
    return card % 13 + 1


def suit(card: int) -> int:
    return card // 13


def red(card: int) -> bool:
    return suit(card) in (1, 2)


def default_backs() -> list[int]:
    """Bitmask of the suits on each card's back (bit s = solodeck.cards suit s)."""
    masks = []
    for card in range(52):
        start = SUIT_CYCLE.index(C.SUITS[suit(card)])
        shown = [SUIT_CYCLE[(start + k) % 4] for k in range(BACK_COUNT[rank(card)])]
        masks.append(sum(1 << C.SUITS.index(s) for s in shown))
    return masks


def parse_backs(value, source: str) -> list[int]:
    """The deal's back table: the default, with the cards named in option ``backs`` overridden.

    ``backs = "KS:SH 7D:DC"`` (or a table ``{KS = "SH"}``): each card, then the suits on its back;
    ``backs = "plain"``: every back shows all four suits (a deck whose backs tell nothing)."""
    if value == "plain":  # backs that tell nothing: every back shows all four suits
        return [15] * 52
    masks = default_backs()
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, str):
        items = []
        for i, token in enumerate(value.replace(",", " ").split(), start=1):
            if token.count(":") != 1:
                raise DealError(source, "options.backs", f"entry {i} '{token}': expected CARD:SUITS such as 'KS:SHDC'")
            items.append(tuple(token.split(":")))
    else:
        raise DealError(source, "options.backs", "expected a string like \"KS:SH 7D:DC\" or a table {KS = \"SH\"}")
    for name, suits in items:
        try:
            card = C.parse_card(str(name))
        except ValueError as exc:
            raise DealError(source, "options.backs", str(exc)) from None
        if card == C.JOKER:
            raise DealError(source, "options.backs", "Frozen Novelty has no jokers")
        mask = 0
        for ch in str(suits):
            s = C._SUIT_ALIASES.get(ch, ch.upper())
            if s not in C.SUITS:
                raise DealError(source, "options.backs", f"{name}: '{ch}' is not a suit (S H D C)")
            mask |= 1 << C.SUITS.index(s)
        if not mask >> suit(card) & 1:
            raise DealError(source, "options.backs", f"{name}: the back must show the card's own suit")
        masks[card] = mask
    return masks


@dataclass(frozen=True)
class Rules:
    """What a variant changes: how the tableau builds, what an empty Deck stack is, which
    face-down moves exist; plus the deal's back table."""

    variant: str
    backs: tuple

    @property
    def alternate(self):  # very-easy builds red/black
        return self.variant == "very-easy"

    @cached_property
    def backs_alike(self):
        """Every card has the same back (``backs=plain``): a back tells nothing of its face."""
        return len(set(self.backs)) == 1

    @cached_property
    def every_back(self):
        """Does the player know every face-down card's back? Very easy and easy: "you may look at
        the back of any card at any time"; any variant whose backs are all alike (``backs=plain``)
        shows nothing by them. Else only the backs seen on top of a stack are known (RULINGS.md)."""
        return self.variant in ("very-easy", "easy") or self.backs_alike

    def builds(self, lower: int, upper: int) -> bool:
        """May face-up card ``lower`` lie on face-up card ``upper`` in the tableau?"""
        if rank(upper) != rank(lower) + 1:
            return False
        return red(lower) != red(upper) if self.alternate else suit(lower) == suit(upper)

    def empty_takes_down(self, j: int) -> bool:
        return j in DOWN or (j in DECK and self.variant == "standard")

    def empty_takes_up(self, j: int) -> bool:
        return j in UP or (j in DECK and self.variant in ("easy", "very-easy"))

    def backs_fit(self, mover: int, dest: int) -> bool:
        """A face-down card may go on a face-down card if their backs share a suit and the mover
        shows as many suits as the destination or one fewer (it MIGHT build down on it)."""
        a, b = self.backs[mover], self.backs[dest]
        return bool(a & b) and bin(b).count("1") - bin(a).count("1") in (0, 1)

    def classes(self):
        """Groups of stacks that behave the same (the table key sorts within each group)."""
        if self.variant == "standard":
            return (tuple(DECK) + tuple(DOWN), tuple(UP))
        if self.variant in ("easy", "very-easy"):
            return (tuple(DECK) + tuple(UP), tuple(DOWN))
        return (tuple(DECK), tuple(UP), tuple(DOWN))

    def class_of(self):
        out = [0] * 12
        for n, group in enumerate(self.classes()):
            for j in group:
                out[j] = n
        return tuple(out)


# -- moves ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """kind: "flip" (turn the face-down top of ``src`` up), "found" (the face-up top of ``src`` to
    its foundation), "move" (the top ``n`` face-up cards of ``src``, a run, onto ``dst``), "down"
    (the face-down top of ``src`` onto ``dst``)."""

    kind: str
    src: int
    dst: int = -1
    n: int = 1

    def __str__(self):
        if self.kind in ("flip", "found"):
            return f"{self.kind} {NAMES[self.src]}"
        if self.kind == "move" and self.n > 1:
            return f"move {self.n} {NAMES[self.src]} -> {NAMES[self.dst]}"
        return f"{self.kind} {NAMES[self.src]} -> {NAMES[self.dst]}"


_MOVE_RE = re.compile(r"^(flip|found|move|down)\s+(?:(\d+)\s+)?([DUW][1-4])(?:\s*->\s*([DUW][1-4]))?$", re.I)


def parse_move(text: str) -> Move:
    m = _MOVE_RE.match(" ".join(text.strip().split()))
    bad = MoveError(f"'{text}' is not a Frozen Novelty move (expected 'flip D3', 'found U2', "
                    "'move W1 -> U3', 'move 3 D1 -> U3' for a run of 3, or 'down D2 -> W1')")
    if not m:
        raise bad
    kind, n, src, dst = m.group(1).lower(), m.group(2), m.group(3).upper(), m.group(4)
    if (kind in ("flip", "found")) != (dst is None) or (n is not None and kind != "move"):
        raise bad
    count = int(n) if n is not None else 1
    if count < 1:
        raise bad
    return Move(kind, NAMES.index(src), NAMES.index(dst.upper()) if dst else -1, count)


# -- the state ------------------------------------------------------------------------------------
class State(BaseState):
    """A position: ``stacks`` (12 tuples of codes, bottom first), ``found`` (4 ranks), and
    ``pending``: the stack whose face-down top is being turned over (a chance node: which face
    it shows is chance for a player who cannot see it; -1 at a decision). ``seen``: bit c set if
    the player has seen card c's back (a face-down card on top of a stack shows it; it stays known
    as the card moves). Only the view reads it; key() and the open search leave it out."""

    __slots__ = ("rules", "stacks", "found", "pending", "seen", "_moves", "_key")

    def __init__(self, rules: Rules, stacks: tuple, found: tuple, pending: int = -1, seen: int = 0):
        self.rules, self.stacks, self.found, self.pending = rules, stacks, found, pending
        for s in stacks:  # the face-down tops show their backs
            if s and not s[-1] & 1:
                seen |= 1 << (s[-1] >> 1)
        self.seen = seen
        self._moves = None
        self._key = None

    @property
    def won(self):
        return sum(self.found) == 52

    def outcome(self):
        if self.won:
            return Outcome(True, None)
        return None if self.pending >= 0 or self.legal_moves() else Outcome(False, None)

    def run_length(self, i: int) -> int:
        """How many face-up cards on top of stack i form a run (0 if its top is face down)."""
        s, n = self.stacks[i], 0
        while n < len(s) and is_up(s[-1 - n]):
            if n and not self.rules.builds(card_of(s[-n]), card_of(s[-1 - n])):
                break
            n += 1
        return n

    def legal_moves(self):
        if self._moves is None:
            self._moves = [] if self.won or self.pending >= 0 else self._generate()
        return self._moves

    def _generate(self):
        R, stacks, moves = self.rules, self.stacks, []
        for i, s in enumerate(stacks):
            if not s:
                continue
            top = s[-1]
            if not is_up(top):
                moves.append(Move("flip", i))
                if R.variant == "very-hard" and i not in DECK:
                    continue  # very hard: face-down cards only go from a Deck to a Down stack
                for j, t in enumerate(stacks):
                    if j == i or (R.variant == "very-hard" and j not in DOWN):
                        continue
                    if (R.empty_takes_down(j) if not t else
                            not is_up(t[-1]) and R.backs_fit(card_of(top), card_of(t[-1]))):
                        moves.append(Move("down", i, j))
                continue
            card = card_of(top)
            if self.found[suit(card)] == rank(card) - 1:
                moves.append(Move("found", i))
            run = self.run_length(i)
            for n in range(1, run + 1):
                base = card_of(s[-n])
                for j, t in enumerate(stacks):
                    if j != i and (R.empty_takes_up(j) if not t else
                                   is_up(t[-1]) and R.builds(base, card_of(t[-1]))):
                        moves.append(Move("move", i, j, n))
        return moves

    def play(self, move: Move) -> "State":
        if move not in self.legal_moves():
            raise MoveError(f"'{move}' is not legal here")
        return self._apply(move)

    def _apply(self, move: Move) -> "State":
        stacks, found = list(self.stacks), self.found
        s = stacks[move.src]
        if move.kind == "flip":  # turned over: its face is the chance node's (apply_chance)
            return State(self.rules, self.stacks, found, move.src, self.seen)
        if move.kind == "found":
            card = card_of(s[-1])
            stacks[move.src] = s[:-1]
            found = found[:suit(card)] + (rank(card),) + found[suit(card) + 1:]
        else:
            n = move.n
            stacks[move.src] = s[:-n]
            stacks[move.dst] = stacks[move.dst] + s[-n:]
        return State(self.rules, tuple(stacks), found, -1, self.seen)

    # -- the face turned up: chance for a player who cannot see it ----------------------------
    def is_chance(self):
        return self.pending >= 0

    def dealt_outcome(self):
        return card_of(self.stacks[self.pending][-1])

    def chance_outcomes(self):
        """Every unseen card whose back is the one being turned over, each as likely: the
        player knows the backs and the cards not seen yet, so these are all it can be."""
        back = self.rules.backs[self.dealt_outcome()]
        return [(card, 1) for card in sorted(self.hidden_cards()) if self.rules.backs[card] == back]

    def apply_chance(self, card):
        """The turned card shows ``card``. Where ``card`` was another face-down card with the
        same back (sampled outcome), the two trade places: the hidden faces stay a consistent
        world, uniformly distributed if they were (docs/rules/frozen-novelty.md, "Blind mode"). The
        place keeps whether its back was seen: the card moved there takes over ``card``'s bit."""
        stacks, j, seen = list(self.stacks), self.pending, self.seen
        top = stacks[j][-1]
        if card_of(top) != card:
            where = [(i, d) for i, s in enumerate(stacks) for d, c in enumerate(s) if c == card * 2]
            if not where or self.rules.backs[card] != self.rules.backs[card_of(top)]:
                raise MoveError(f"{C.format_card(card)} cannot be the card turned over here")
            (i, d), = where
            stacks[i] = stacks[i][:d] + (top,) + stacks[i][d + 1:]
            seen = (seen & ~(1 << card_of(top))) | ((seen >> card & 1) << card_of(top)) | 1 << card
        stacks[j] = stacks[j][:-1] + (card * 2 + 1,)
        return State(self.rules, tuple(stacks), self.found, -1, seen)

    def hidden_cards(self) -> list:
        return [card_of(c) for s in self.stacks for c in s if not is_up(c)]

    # -- what the player sees ------------------------------------------------------------------
    def back_known(self, code: int) -> bool:
        """Does the player know the back of this face-down card (RULINGS.md, Frozen Novelty)?"""
        return self.rules.every_back or bool(self.seen >> (code >> 1) & 1)

    def _masked(self):
        """The stacks with each face-down card replaced by its back (-1 - mask), or by UNSEEN_BACK
        where the player has not seen it: what is seen."""
        backs = self.rules.backs
        return tuple(tuple(c if c & 1 else (-1 - backs[c >> 1] if self.back_known(c) else UNSEEN_BACK)
                           for c in s) for s in self.stacks)

    def blind_tree_exact(self):
        """Expectimax is the player's value only where no unseen back can come to the top."""
        return all(c & 1 or self.back_known(c) for s in self.stacks for c in s)

    def view(self):
        """The stacks as seen (backs for face-down cards), sorted like key(); the foundations;
        the stack being turned over."""
        masked = self._masked()
        base = tuple(tuple(sorted(masked[j] for j in group)) for group in self.rules.classes())
        turning = None if self.pending < 0 else (self.rules.class_of()[self.pending], masked[self.pending])
        return base, self.found, turning

    def sample_world(self, rng):
        """The face-down cards dealt anew: for each back (in order), the unseen cards with that
        back shuffled (Fisher-Yates, ``rng``), the first onto the face-down places known to show
        it, taken stack by stack, bottom up; the cards left over, of every back, shuffled onto the
        places whose back the player has not seen. Every consistent world is equally likely (a
        known back says which cards a place may hold, an unseen one nothing). Where every back is
        known this is the draw of the earlier reading, generator draw for generator draw."""
        backs, known, unseen, cards, hidden = self.rules.backs, {}, [], {}, 0
        for j, s in enumerate(self.stacks):
            for d, c in enumerate(s):
                if not c & 1:
                    hidden |= 1 << (c >> 1)
                    cards.setdefault(backs[c >> 1], []).append(c >> 1)
                    (known.setdefault(backs[c >> 1], []) if self.back_known(c) else unseen).append((j, d))
        stacks, seen, rest = [list(s) for s in self.stacks], self.seen & ~hidden, []
        for back in sorted(cards):
            places = known.get(back, [])
            dealt = shuffled_by(sorted(cards[back]), rng)
            for (j, d), card in zip(places, dealt):
                stacks[j][d] = card * 2
                seen |= 1 << card
            rest += dealt[len(places):]
        for (j, d), card in zip(unseen, shuffled_by(sorted(rest), rng)):
            stacks[j][d] = card * 2
        return State(self.rules, tuple(map(tuple, stacks)), self.found, self.pending, seen)

    def conform(self, real, rng):
        """This world, after the real game's move, where the move brought a card whose back was
        never seen to the top: if this world's card there shows another back than the real one,
        it trades places with a card showing the real back, drawn (``rng``) among this world's
        cards at places whose back is still unseen. A uniform world stays uniform among those
        consistent with the new view (each such card is equally likely to be the one)."""
        if self.rules.every_back or [len(s) for s in self.stacks] != [len(s) for s in real.stacks]:
            return self
        backs, stacks, seen = self.rules.backs, None, self.seen
        for j, s in enumerate(real.stacks):
            for d, c in enumerate(s):
                mine = self.stacks[j][d]
                if c & 1 or mine & 1 or not real.back_known(c) or backs[mine >> 1] == backs[c >> 1]:
                    continue
                stacks = stacks or [list(t) for t in self.stacks]
                swaps = [(i, e) for i, t in enumerate(stacks) for e, x in enumerate(t)
                         if not x & 1 and not seen >> (x >> 1) & 1 and backs[x >> 1] == backs[c >> 1]]
                if not swaps:
                    return self  # no consistent world: the worlds are drawn afresh
                i, e = swaps[rng.below(len(swaps))]
                other = stacks[i][e]
                stacks[i][e], stacks[j][d] = mine, other
                seen = (seen & ~(1 << (mine >> 1))) | 1 << (other >> 1)
        if stacks is None:
            return self
        return State(self.rules, tuple(map(tuple, stacks)), self.found, self.pending, seen)

    def seen_text(self):
        """As __str__, each face-down card shown by the suits on its back, e.g. [SH], or [?]
        where the player has not seen its back."""
        backs = self.rules.backs
        return self._text(lambda code: "[" + ("".join(C.SUITS[k] for k in range(4) if backs[code >> 1] >> k & 1)
                                              if self.back_known(code) else "?") + "]")

    # -- search support ----------------------------------------------------------------------
    def key(self):
        """The stacks, sorted within each group of interchangeable stacks (Rules.classes). The
        foundations follow from which cards are still in the stacks. A chance node adds the
        stack being turned over (by its group and contents: twins are interchangeable)."""
        if self._key is None:
            self._key = tuple(tuple(sorted(self.stacks[j] for j in group)) for group in self.rules.classes())
            if self.pending >= 0:
                self._key += ((self.rules.class_of()[self.pending], self.stacks[self.pending]),)
        return self._key

    def safe_move(self):
        """A foundation move that can never hurt (docs/rules/frozen-novelty.md, "Safe moves"), or None.

        In suit, nothing can ever be put on a face-up card whose one-lower same-suit card is home,
        so sending it home loses nothing. Red/black (very easy) needs both one-lower cards of the
        other colour home."""
        if self.pending >= 0:
            return None
        for i, s in enumerate(self.stacks):
            if s and is_up(s[-1]):
                card = card_of(s[-1])
                r = rank(card)
                if self.found[suit(card)] == r - 1:
                    if not self.rules.alternate or r == 1 or all(
                            self.found[o] >= r - 1 for o in range(4) if (o in (1, 2)) != red(card)):
                        return Move("found", i)
        return None

    def restricted(self):
        """The position under the next stricter variant (STRICTER), whose moves are a subset."""
        stricter = STRICTER.get(self.rules.variant)
        return State(Rules(stricter, self.rules.backs), self.stacks, self.found, self.pending,
                     self.seen) if stricter else None

    def table_scope(self):
        return self.rules  # keys leave the rules out: a table holds one variant's answers

    def line_anchor(self):
        return self.stacks

    def transfer_line(self, anchor, moves):
        """Keys fold interchangeable stacks: map the stacks of the twin that stored ``moves`` onto ours."""
        perm = twin_map(self.rules, anchor, self.stacks)
        return [Move(m.kind, perm[m.src], perm[m.dst] if m.dst >= 0 else -1, m.n) for m in moves]

    def search_moves(self):
        """The legal moves that can matter, best first: moves into empty stacks of one group are
        the same position up to the key's symmetry, so only the first is kept, and moving a
        whole stack into an empty stack of its own group is no move at all."""
        cls = self.rules.class_of()
        seen, out = set(), []
        for m in self.legal_moves():
            if m.dst >= 0 and not self.stacks[m.dst]:
                whole = m.n == len(self.stacks[m.src]) or (m.kind == "down" and len(self.stacks[m.src]) == 1)
                if whole and cls[m.src] == cls[m.dst]:
                    continue
                tag = (m.kind, m.src, m.n, cls[m.dst])
                if tag in seen:
                    continue
                seen.add(tag)
            out.append(m)
        need = self._needed_depths()
        out.sort(key=lambda m: self._order(m, need))
        return out

    def _order(self, m, need):
        """Move ordering, goal first: dig towards the cards the foundations need next (moves off
        a stack that holds one, onto a stack that holds none), then the rest; within each,
        home, flips of a card that goes home, building onto a card, face-down moves, flips, and
        moves into empty stacks last."""
        if m.kind == "found":
            return 0
        s, stacks = self.stacks[m.src], self.stacks
        digs = need[m.src] is not None
        if m.kind == "flip":
            card = card_of(s[-1])
            if self.found[suit(card)] == rank(card) - 1:
                return 1
            return 6 if digs else 9
        buries = m.dst >= 0 and need[m.dst] is not None
        base = 0 if digs and not buries else (10 if not buries else 20)
        if m.kind == "move":
            return base + (2 if stacks[m.dst] else 4)
        if not stacks[m.dst]:
            return base + 5
        if self.rules.variant != "very-hard":
            return base + 3
        # Very hard: a card put in a Down stack stays there until it is turned up, so it had
        # better be wanted before the card it covers: a lower rank first.
        return base + (3 if rank(card_of(stacks[m.dst][-1])) > rank(card_of(s[-1])) else 6)

    def _needed_depths(self):
        """Per stack: how many cards lie above the shallowest card a foundation needs next (None
        if the stack holds none)."""
        out = []
        for s in self.stacks:
            depth = None
            for d in range(len(s)):
                card = card_of(s[-1 - d])
                if self.found[suit(card)] == rank(card) - 1:
                    depth = d
                    break
            out.append(depth)
        return out

    def picture(self, seen_only=False):
        """The foundations and the twelve stacks, bottom first; a face-down card shows the suits on
        its back (in the player's view only where the player has seen it), and its face in open mode."""
        backs = self.rules.backs

        def shown(code):
            card = card_of(code)
            if is_up(code):
                return P.card(card)
            if seen_only and not self.back_known(code):
                return P.card(None, down=True)
            back = "".join(C.SUITS[k] for k in range(4) if backs[card] >> k & 1)
            return P.card(None if seen_only else card, down=True, back=back)

        piles = [P.pile(f"foundation {C.SUITS[s]}", [P.card(s * 13 + r - 1)] if r else [], group="foundations")
                 for s, r in enumerate(self.found)]
        groups = {"D": "deck stacks", "U": "up stacks", "W": "down stacks"}
        piles += [P.pile(NAMES[j], [shown(c) for c in s], group=groups[NAMES[j][0]], spread=True)
                  for j, s in enumerate(self.stacks)]
        return P.picture(piles, **({"turning over": NAMES[self.pending]} if self.pending >= 0 else {}))

    def __str__(self):
        return self._text(lambda code: f"({C.format_card(card_of(code))})")

    def _text(self, face_down):
        def show(code):
            return C.format_card(card_of(code)) if is_up(code) else face_down(code)

        lines = ["found: " + " ".join(f"{C.SUITS[s]}{C.RANKS[r - 1] if r else '-'}" for s, r in enumerate(self.found))]
        for j, s in enumerate(self.stacks):
            lines.append(f"{NAMES[j]}: " + (" ".join(show(c) for c in s) if s else "-"))
        if self.pending >= 0:
            lines.append(f"(turning over the top of {NAMES[self.pending]})")
        lines.append("(bottom first; a card in parentheses or brackets is face down)")
        return "\n".join(lines)


# -- blind play: the worlds' order ---------------------------------------------------------------
def blind_preference(state: State, m: Move) -> float:
    """How much a blind player wants ``m``, from the view alone (higher first): a card home (3);
    a run onto a card (2.5); a move that shows a back never seen (2): the worlds, and so the
    decisions, are only as good as what the player knows of the backs; a flip by the chance that
    the face goes home or onto a face-up top at once (1 to 2; none: 0), where the backs tell it
    (with backs all alike every flip looks the same, and preferring flips turned cards up early
    into Up stacks that could not place them: plain backs, seeds 10000-10319, 7 wins against 17
    without the preference, 20 with it but for flips); anything else 0."""
    s = state.stacks[m.src]
    if m.kind == "found":
        return 3.0
    if m.kind == "move" and state.stacks[m.dst]:
        return 2.5
    if m.kind == "flip":
        use = 0.0 if state.rules.backs_alike else flip_use(state, card_of(s[-1]))
        return 1.0 + use if use else 0.0
    below = s[-m.n - 1] if len(s) > m.n else None
    return 2.0 if below is not None and not is_up(below) and not state.back_known(below) else 0.0


def flip_use(state: State, top: int) -> float:
    """The chance that ``top``, a face-down card whose back is seen, turns up as a card that goes
    home or onto a face-up top: its face is any hidden card with that back, each as likely."""
    backs = state.rules.backs
    faces = [c for c in state.hidden_cards() if backs[c] == backs[top]]
    ups = [card_of(s[-1]) for s in state.stacks if s and is_up(s[-1])]
    useful = sum(state.found[suit(c)] == rank(c) - 1 or any(state.rules.builds(c, up) for up in ups) for c in faces)
    return useful / len(faces)


# -- the game -------------------------------------------------------------------------------------
class FrozenNovelty(OneDeckGame):
    name = "frozen-novelty"
    aliases = ("frozen",)
    title = "Frozen Novelty"
    source = "Foresight (House of Slack Games, 2002), seeds/001"
    has_chance = True    # turning a card over: open mode takes the dealt face, blind mode any unseen
    has_hidden = True    # card with that back; the face-down cards are hidden, their backs seen
    modes = ("open", "blind")
    acyclic = False  # moves can undo each other: solvers/reach.py and the kernel handle cycles
    kernel = "frozen_novelty"
    options = {"variant": ("standard", VARIANTS), "backs": ("", ())}
    piles = {"deck": "the 52 cards, top first; card i goes face down on Deck stack i mod 4"}

    def rules_for(self, options: dict, source: str) -> Rules:
        return Rules(options.get("variant", "standard"), tuple(parse_backs(options.get("backs", ""), source)))

    def initial_state(self, deal: Deal) -> State:
        rules = self.rules_for(deal.options, deal.source)
        if deal.position is not None:
            return _state_from_position(rules, deal.position, deal.source)
        deck = deal.piles["deck"]
        stacks = tuple(tuple(deck[k::4][i] * 2 for i in range(13)) for k in range(4))
        return State(rules, stacks + ((),) * 8, (0, 0, 0, 0))

    def parse_move(self, text):
        return parse_move(text)

    def kernel_moves(self, state):
        kernel = self.load_kernel()
        if kernel is None or state.is_chance():
            return None
        search = kernel_search(kernel, state.rules, Limits(memory_mb=1))
        search.set_position([list(s) for s in state.stacks], list(state.found))
        return [kernel_move(t) for t in search.legal_moves()]

    def blind_plan(self, options=None):
        # 6 sampled worlds a decision (results/frozen-novelty), each valuing the 10 first candidates;
        # the exact blind attempt: only the last few face-down cards fit
        return BlindPlan(estimator=Estimator.DETERMINIZED, samples=6, candidates=10, exact_states=60,
                         preference=blind_preference)

    def baseline_move(self, state):
        """A simple rule a person would use, first that applies: a card home; a run onto a card
        it builds on (unless it lies on one already: very easy offers two); a face-down Deck top
        into an empty Down stack or onto a face-down Down top whose back shows one suit more (it
        might build on it); turn a
        face-down top over; a run that covers a card moved to an empty stack that takes it (to
        turn that card over next). Each of these
        undoes nothing (a card home, a run on its successor, a card out of the Deck stacks, a
        face turned up, a run taken off a card it does not belong on all stay so), so the policy
        cannot go round in circles; with none left it gives up (None): lost for this player."""
        stacks, backs = state.stacks, state.rules.backs

        def suits(code):
            return bin(backs[card_of(code)]).count("1")

        def placed(m):  # the run already lies on a card it builds on (very easy: either of two)
            below = stacks[m.src][-m.n - 1] if len(stacks[m.src]) > m.n else None
            return (below is not None and is_up(below)
                    and state.rules.builds(card_of(stacks[m.src][-m.n]), card_of(below)))

        rules = (lambda m: m.kind == "found",
                 lambda m: m.kind == "move" and bool(stacks[m.dst]) and not placed(m),
                 lambda m: (m.kind == "down" and m.src in DECK and m.dst in DOWN
                            and (not stacks[m.dst] or suits(stacks[m.dst][-1]) == suits(stacks[m.src][-1]) + 1)),
                 lambda m: m.kind == "flip",
                 lambda m: m.kind == "move" and m.n == state.run_length(m.src) < len(stacks[m.src]))
        moves = state.legal_moves()
        return next((m for rule in rules for m in moves if rule(m)), None)

    def fast_solver(self, limits, progress=None):
        """The kernel when built; else solvers.make_solver runs solvers/reach.py."""
        kernel = self.load_kernel()
        return KernelSolver(self, kernel, limits, progress) if kernel is not None else None


GAME = FrozenNovelty()


# -- deal files: positions ----------------------------------------------------------------------
def _state_from_position(rules: Rules, position: dict, source: str) -> State:
    """``[position]``: D1-D4, U1-U4, W1-W4 = the stack's cards top first, a face-down card in
    parentheses (e.g. "7H 8H (2C) (KD)"); ``foundations`` = the top card of each foundation
    ("5S KD"; the cards below it are implied; a suit not named is empty). Every card once."""
    known = set(NAMES) | {"foundations"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", "unknown field (expected D1-D4, U1-U4, W1-W4, foundations)")
    found = [0, 0, 0, 0]
    text = position.get("foundations", "")
    if not isinstance(text, str):
        raise DealError(source, "position.foundations", "expected a string of top cards, e.g. \"5S KD\"")
    for card in C.parse_cards(text, source=source, field="position.foundations"):
        if card == C.JOKER:
            raise DealError(source, "position.foundations", "Frozen Novelty has no jokers")
        if found[suit(card)]:
            raise DealError(source, "position.foundations", f"two cards for suit {C.SUITS[suit(card)]}")
        found[suit(card)] = rank(card)
    seen = {s * 13 + r for s in range(4) for r in range(found[s])}
    stacks = []
    for j, name in enumerate(NAMES):
        field = f"position.{name}"
        value = position.get(name, "")
        if not isinstance(value, str):
            raise DealError(source, field, "expected a string of cards, top first, face-down ones in parentheses")
        codes = []
        for i, (card, up) in enumerate(C.parse_faced_cards(value, source=source, field=field), start=1):
            if card == C.JOKER:
                raise DealError(source, field, f"card {i}: Frozen Novelty has no jokers")
            if card in seen:
                raise DealError(source, field, f"card {i} '{C.format_card(card)}' is already in the position")
            seen.add(card)
            codes.append(card * 2 + up)
        codes.reverse()  # bottom first inside
        ups = [is_up(c) for c in codes]
        if any(ups[k] and not ups[k + 1] for k in range(len(ups) - 1)):
            raise DealError(source, field, "a face-down card lies on a face-up one (face-down cards never go there)")
        if j in UP and not all(ups):
            raise DealError(source, field, "an Up stack holds only face-up cards")
        up_part = [card_of(c) for c in codes if is_up(c)]
        if any(not rules.builds(up_part[k + 1], up_part[k]) for k in range(len(up_part) - 1)):
            raise DealError(source, field, "the face-up cards must form a run built down "
                                           + ("red/black" if rules.alternate else "in suit"))
        stacks.append(tuple(codes))
    if len(seen) != 52:
        missing = sorted(set(range(52)) - seen)
        raise DealError(source, "position", f"every card must be somewhere; missing: {C.format_cards(missing)}")
    return State(rules, tuple(stacks), tuple(found))


def position_form(state: State) -> dict:
    """The ``[position]`` table of a state (the inverse of _state_from_position)."""
    out = {}
    for j, s in enumerate(state.stacks):
        if s:
            out[NAMES[j]] = " ".join(C.format_card(card_of(c)) if is_up(c) else f"({C.format_card(card_of(c))})"
                                     for c in reversed(s))
    tops = [C.format_card(s * 13 + r - 1) for s, r in enumerate(state.found) if r]
    out["foundations"] = " ".join(tops)
    return out


# -- search support --------------------------------------------------------------------------
# Stricter rules whose legal moves are, in every position, a subset of the looser rules' (hard only
# removes standard's and easy's uses of an empty Deck stack; very hard only removes face-down moves):
# a win under them is a win here. Searching them first, briefly, finds wins that the looser
# rules' wider search can miss for a long time; if it finds none, the full search runs as before.
STRICTER = {"standard": "hard", "easy": "hard", "hard": "very-hard"}


def twin_map(rules, origin, stacks):
    """stack index in ``origin`` -> the index of the same stack in ``stacks`` (same key): equal
    contents within a group; empty stacks of a group in order."""
    cls = rules.class_of()
    free = list(range(12))
    perm = [0] * 12
    for j in sorted(range(12), key=lambda j: not origin[j]):  # non-empty stacks first
        k = next(k for k in free if cls[k] == cls[j] and stacks[k] == origin[j])
        free.remove(k)
        perm[j] = k
    return perm


# -- the compiled kernel (ext/frozen_novelty.pyx) -----------------------------------------------
KINDS = ("flip", "found", "move", "down")


def kernel_move(t) -> Move:
    kind, src, dst, n = t
    return Move(KINDS[kind], src, dst if KINDS[kind] in ("move", "down") else -1, n)


def kernel_tuple(m: Move):
    return (KINDS.index(m.kind), m.src, m.dst, m.n)


def kernel_search(kernel, rules: Rules, limits):
    return kernel.Search(VARIANTS.index(rules.variant), list(rules.backs), limits.memory_mb,
                         limits.seconds() or 0.0, limits.max_states or 0)


class KernelSolver:
    """The same search in the kernel, with DepthFirstSolver's interface. One kernel table per
    rule set serves every solve and value (hint files): settled positions stay settled."""

    def __init__(self, game, kernel, limits, progress=None):
        self.game, self.kernel, self.limits, self.progress = game, kernel, limits, progress
        self.search, self._rules = None, None
        self.extra_nodes = 0  # positions of the searches under stricter rules

    def _load(self, state):
        if self.search is None or self._rules != state.rules:
            self.search, self._rules = kernel_search(self.kernel, state.rules, self.limits), state.rules
        self.search.set_position([list(s) for s in state.stacks], list(state.found))

    def solve(self, state):
        start = time.perf_counter()
        state = advance_chance(state)
        pre = presearch(lambda lim: KernelSolver(self.game, self.kernel, lim), state, self.limits, start)
        self.extra_nodes += pre.nodes if pre is not None else 0
        self._load(state)
        if pre is not None and pre.verdict == "winnable":
            found, line = 1, pre.line
        else:
            if self.limits.seconds() is None:
                self.search.restart_clock(0.0)  # a value() before may have set its own budget
            else:  # the clock starts now: leave the pre-search's share out
                self.search.restart_clock(max(1e-9, self.limits.seconds() - (time.perf_counter() - start)))
            found = self.search.solve()
            line = [kernel_move(t) for t in self.search.line()] if found == 1 else []
        if self.progress is not None:
            self.progress(self.search.nodes + self.extra_nodes)
        return finish_open(self.game, state, line, won=found == 1,
                           stop=StopReason.from_code(self.search.stopped) if found < 0 else None,
                           nodes=self.search.nodes + self.extra_nodes, stored=self.search.stored,
                           start=start, engine="kernel")

    def value(self, state):
        """(exact utility, True), or (None, False) if a limit stopped the search. Each call has
        its own budget: the limits' time, else VALUE_SECONDS."""
        self._load(advance_chance(state))
        self.search.restart_clock(self.limits.seconds(VALUE_SECONDS))
        found = self.search.solve()
        if found < 0:
            return None, False
        return self.game.utility(Outcome(True, None) if found else None), True
