"""Frozen Novelty's rules: the pure-Python reference engine (constants, the back table, the
variants' Rules, the Move type and its notation, the State with its search and view hooks, and the
deal). The game: solodeck/games/frozen_novelty/__init__.py; rules page: docs/rules/frozen-novelty.md.

Twelve stacks, numbered 0-11: Deck stacks D1-D4 (0-3), Up stacks U1-U4 (4-7), Down stacks W1-W4
(8-11). A stack is a tuple of codes bottom first, code = card * 2 + (1 if face up). Foundations
are the rank (0 = empty) on each suit's foundation, suits in solodeck.cards order S H D C.

Blind mode: turning a card over is a chance node (``pending``): open mode takes the face dealt
there, a blind player any unseen card with the same back. ``view()`` shows face-down cards by
their backs where the player may see them (very easy and easy: every back; else the backs seen on
top of a stack, remembered: ``State.seen``), ``sample_world()`` deals the hidden faces and the
unseen backs anew (docs/rules/frozen-novelty.md, "Blind mode: how the solver plays it").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ... import cards as C
from ... import picture as P
from ...api import Outcome
from ...api import State as BaseState
from ...errors import DealError, MoveError
from ...shuffle import shuffled_by

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
    eager: bool = False  # the search turns cards over as moves of their own (very hard's pre-search)

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

    @property
    def lazy_flips(self):
        """Does the search turn a card over only together with its first use ("Lazy flips" on the
        rules page)? Very hard's own search, where it decides the deals the eager search could
        not; its brief pre-search is the eager one (restricted())."""
        return self.variant == "very-hard" and not self.eager

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
    # Search only (State.search_moves, lazy flips): a flip after which the card turned up must be
    # used at once. Not part of the move: equal to the plain flip, and printed and replayed as one.
    lazy: bool = field(default=False, compare=False, repr=False)

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
    as the card moves). Only the view reads it; key() and the open search leave it out.
    ``fresh``: the search's lazy flips only (never a position of play): the stack whose top card
    the search has just turned over, to be used by the next move (-1: none)."""

    __slots__ = ("rules", "stacks", "found", "pending", "seen", "fresh", "_moves", "_key")

    def __init__(self, rules: Rules, stacks: tuple, found: tuple, pending: int = -1, seen: int = 0,
                 fresh: int = -1):
        self.rules, self.stacks, self.found, self.pending, self.fresh = rules, stacks, found, pending, fresh
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
            return State(self.rules, self.stacks, found, move.src, self.seen, move.src if move.lazy else -1)
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
        return State(self.rules, tuple(stacks), self.found, -1, seen, self.fresh)

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
        # A world is searched eagerly, as before lazy flips: its search_moves() are the blind
        # tie-break's order (solvers/determinized.py), and blind play stays as it was measured.
        rules = Rules(self.rules.variant, self.rules.backs, eager=True) if self.rules.lazy_flips else self.rules
        return State(rules, tuple(map(tuple, stacks)), self.found, self.pending, seen)

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
            if self.fresh >= 0:  # the search's lazy flip: only the card turned up may be used next
                self._key += (("fresh", self.rules.class_of()[self.fresh], self.stacks[self.fresh]),)
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
        """The position under the next stricter variant (STRICTER), whose moves are a subset; in
        very hard, the same rules searched eagerly (every flip a move of its own, as before lazy
        flips), a different search of the same moves whose wins are wins here too."""
        if self.rules.eager:
            return None
        stricter = STRICTER.get(self.rules.variant)
        return State(Rules(stricter, self.rules.backs, eager=stricter == "very-hard"), self.stacks, self.found,
                     self.pending, self.seen) if stricter else None

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
        lazy, fresh = self.rules.lazy_flips, self.fresh
        for m in self.legal_moves():
            if fresh >= 0 and fresh not in (m.src, m.dst):
                continue  # the card a lazy flip turned up is used at once (moved, or built on)
            if lazy and m.kind == "flip":
                if not self._flip_has_use(m.src):
                    continue
                m = Move("flip", m.src, lazy=True)
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

    def _flip_has_use(self, i):
        """Lazy flips: may the face-down top card X of stack i, once turned up, be used at once?
        It goes home (then the safe moves send it), it moves onto a face-up top one higher that
        it builds on or into an empty stack that takes a run, or a run whose bottom card builds on
        X lies on top of another stack. (In open mode X's face is known before it turns up.)"""
        R, stacks = self.rules, self.stacks
        x = card_of(stacks[i][-1])
        if self.found[suit(x)] == rank(x) - 1:
            return True
        for j, t in enumerate(stacks):
            if j == i:
                continue
            if not t:
                if R.empty_takes_up(j):
                    return True
                continue
            if is_up(t[-1]) and R.builds(x, card_of(t[-1])):
                return True
            for n in range(1, self.run_length(j) + 1):
                if R.builds(card_of(t[-n]), x):
                    return True
        return False

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
            if self.rules.lazy_flips:
                # A lazy flip is kept only where its card is used at once (moved, or built on):
                # progress, ranked with a run onto a card.
                return 2
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


# -- search support --------------------------------------------------------------------------
# Stricter rules whose legal moves are, in every position, a subset of the looser rules' (hard only
# removes standard's and easy's uses of an empty Deck stack; very hard only removes face-down moves):
# a win under them is a win here. Searching them first, briefly, finds wins that the looser
# rules' wider search can miss for a long time; if it finds none, the full search runs as before.
# Very hard has no stricter variant: its own moves searched eagerly (Rules.eager) come first there,
# and hard's stricter search is that same eager one, as before lazy flips.
STRICTER = {"standard": "hard", "easy": "hard", "hard": "very-hard", "very-hard": "very-hard"}


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


# -- the deal ---------------------------------------------------------------------------------------
def dealt_state(rules: Rules, deck) -> State:
    """The dealt position: card i of the deck (top first) face down on Deck stack i mod 4."""
    stacks = tuple(tuple(deck[k::4][i] * 2 for i in range(13)) for k in range(4))
    return State(rules, stacks + ((),) * 8, (0, 0, 0, 0))
