"""Syndicate (Isaludo): the rules, the pure-Python reference engine. Rules page:
docs/rules/syndicate.md.

Only values matter (suits never do), so a state holds values 1 … 10 (A … T); a value's *digit*
is value mod 10 (A=1, T=0). Ranks are numbered 1 (top) … 5 (bottom) as in the rules; tuples
below are indexed by rank - 1.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from ... import cards as C
from ... import picture as P
from ...api import NO_WIN, Outcome
from ...api import State as BaseState
from ...errors import MoveError

RANK_NAMES = "A23456789T"
# Deal: deck cards 1–9 are rank 5's candidates, 10–16 rank 4's, 17–21 rank 3's, 22–24 rank 2's,
# 25 rank 1's; cards 26–40 are the reserve from which rank 5's three members are chosen.
CANDIDATE_COUNTS = {5: 9, 4: 7, 3: 5, 2: 3, 1: 1}
CARDS_IN_PLAY = 28  # 25 candidates + 3 chosen members; the other 12 reserve cards leave the game


def value_name(v: int) -> str:
    return RANK_NAMES[v - 1]


parse_value = C.parse_number_value


def _values_text(values) -> str:
    return " ".join(value_name(v) for v in values)


def _parse_values(text: str) -> tuple:
    return tuple(sorted(parse_value(t) for t in text.replace(",", " ").split()))


@dataclass(frozen=True, order=True)
class Choose:
    """The first decision: which three reserve cards become rank 5's members."""

    values: tuple

    def __str__(self):
        return "choose " + _values_text(self.values)


@dataclass(frozen=True, order=True)
class Promote:
    """Promote the member ``member`` of ``rank``, replacing it by the candidate ``take``.

    ``dest`` is "m" (to rank-1's members), "c" (to rank-1's candidates) or "win" (from rank 1);
    ``sacrifice`` is the value removed when rank-1's members would number four."""

    rank: int
    member: int
    dest: str
    take: int
    sacrifice: int | None = None

    def __str__(self):
        to = "win" if self.dest == "win" else f"{self.rank - 1}{self.dest}"
        text = f"promote {self.rank}:{value_name(self.member)} -> {to}, take {value_name(self.take)}"
        return text + (f", sacrifice {value_name(self.sacrifice)}" if self.sacrifice is not None else "")


_PROMOTE_RE = re.compile(
    r"^promote\s+([1-5])\s*:\s*(\w+)\s*->\s*(win|[0-4]\s*[mc])\s*,\s*take\s+(\w+)\s*(?:,\s*sacrifice\s+(\w+))?$",
    re.IGNORECASE)


def parse_move(text: str):
    t = " ".join(text.split())
    try:
        if t.lower().startswith("choose "):
            values = _parse_values(t[7:])
            if len(values) != 3:
                raise MoveError(f"'{text}': choose takes exactly three values")
            return Choose(values)
        m = _PROMOTE_RE.match(t)
        if not m:
            raise MoveError(f"'{text}' is not a Syndicate move "
                            "(expected 'choose 4 5 T' or 'promote 5:6 -> 4m, take 9[, sacrifice 7]')")
        rank, member, to, take, sacrifice = m.groups()
        rank = int(rank)
        to = to.replace(" ", "").lower()
        if (to == "win") != (rank == 1) or to != "win" and int(to[0]) != rank - 1:
            raise MoveError(f"'{text}': a member of rank {rank} goes to rank {rank - 1}"
                            + (" (write '-> win')" if rank == 1 else ""))
        return Promote(rank, parse_value(member), "win" if to == "win" else to[-1], parse_value(take),
                       parse_value(sacrifice) if sacrifice else None)
    except ValueError as exc:
        raise MoveError(f"'{text}': {exc}") from None


def _digit_mask(values) -> int:
    mask = 0
    for v in values:
        mask |= 1 << (v % 10)
    return mask


def _producible(mask: int) -> int:
    """The digits a+b or a*b (mod 10) with a, b digits in ``mask`` (a = b allowed: an over-estimate)."""
    digits = [d for d in range(10) if mask >> d & 1]
    out = 0
    for a in digits:
        for b in digits:
            out |= 1 << ((a + b) % 10) | 1 << ((a * b) % 10)
    return out


PRODUCIBLE = tuple(_producible(m) for m in range(1024))  # digit mask -> producible digit mask


def _remove(values: tuple, v: int) -> tuple:
    i = values.index(v)
    return values[:i] + values[i + 1:]


def _add(values: tuple, v: int) -> tuple:
    return tuple(sorted(values + (v,)))


class State(BaseState):
    """A Syndicate position. Immutable; ``members``/``candidates`` are indexed by rank - 1."""

    __slots__ = ("members", "candidates", "reserve", "sacrificed", "won", "_moves")

    def __init__(self, members, candidates, reserve=(), sacrificed=0, won=False):
        self.members = members
        self.candidates = candidates
        self.reserve = reserve
        self.sacrificed = sacrificed
        self.won = won
        self._moves = None

    # -- the state API ---------------------------------------------------------------------------
    def key(self):
        # Sacrifices so far are implied by the cards left, so they need not be in the key.
        return (self.members, self.candidates, self.reserve, self.won)

    def score_bound(self):
        # Sacrifices never come back, so the final score is at least the count so far.
        if not self.reserve and self.first_frozen_rank() == 1:
            return NO_WIN
        return self.sacrificed

    def first_frozen_rank(self):
        """The highest rank (smallest number) that can never promote again, or 6 if none.

        P(r), the promotions rank r can still make, is bounded from rank 5 up. Member counts
        never fall (a promotion replaces its card, a fourth member is sacrificed), so rank r
        must first receive need(r) = 3 - members arrivals; and every promotion uses up a
        candidate whose digit is a+b or a*b of two members. The digits rank r's members can
        ever show lie in D(r), the closure of its members' digits and the arrivals' digits
        D(r+1) under "add a candidate whose digit is a+b or a*b (mod 10) of two digits in D(r)".
        Only candidates with such a digit are fuel, so
            P(r) <= usable candidates + (P(r+1) - need(r) if arrivals can be fuel, else 0),
        and P(r) = 0 when P(r+1) < need(r). A win is a promotion from rank 1: it needs P(1) >= 1.
        (Seeded openings such as members 6 6 8 stay even for ever: this proves them lost at once.)"""
        frozen, arrivals, arrival_digits = 6, 0, 0
        for rank in range(5, 0, -1):
            members, candidates = self.members[rank - 1], self.candidates[rank - 1]
            need = 3 - len(members)
            if arrivals < need:
                promotions, digits = 0, 0
            else:
                digits = _digit_mask(members) | (arrival_digits if arrivals else 0)
                fuel_digits = _digit_mask(candidates) | (arrival_digits if arrivals > need else 0)
                while digits | (fuel_digits & PRODUCIBLE[digits]) != digits:
                    digits |= fuel_digits & PRODUCIBLE[digits]
                producible = PRODUCIBLE[digits]
                promotions = sum(1 for c in candidates if producible >> (c % 10) & 1)
                if arrival_digits & producible:
                    promotions += arrivals - need
            if promotions == 0:
                frozen = rank
            arrivals, arrival_digits = promotions, digits
        return frozen

    def search_moves(self):
        """Moves below a frozen rank only shuffle cards that can never reach rank 1: skip them."""
        if self.reserve:
            return self.legal_moves()
        frozen = self.first_frozen_rank()
        return [m for m in self.legal_moves() if m.rank < frozen]

    def outcome(self):
        if self.won:
            return Outcome(True, self.sacrificed)
        if not self.legal_moves():
            return Outcome(False, None)
        return None

    def legal_moves(self):
        if self._moves is None:
            self._moves = self._opening_moves() if self.reserve else self._promotions()
        return self._moves

    def play(self, move):
        if isinstance(move, Choose):
            members = self.members[:4] + (move.values,)
            return State(members, self.candidates, (), self.sacrificed)
        r = move.rank - 1
        members, candidates = list(self.members), list(self.candidates)
        members[r] = _add(_remove(members[r], move.member), move.take)
        candidates[r] = _remove(candidates[r], move.take)
        sacrificed = self.sacrificed
        if move.dest == "c":
            candidates[r - 1] = _add(candidates[r - 1], move.member)
        elif move.dest == "m":
            members[r - 1] = _add(members[r - 1], move.member)
            if move.sacrifice is not None:
                members[r - 1] = _remove(members[r - 1], move.sacrifice)
                sacrificed += 1
        return State(tuple(members), tuple(candidates), (), sacrificed, move.dest == "win")

    # -- move generation -------------------------------------------------------------------------
    def _opening_moves(self):
        return [Choose(v) for v in sorted(set(combinations(self.reserve, 3)))]

    def _promotions(self):
        moves = []
        for rank in range(1, 6):
            members = self.members[rank - 1]
            if len(members) != 3:
                continue
            candidates = set(self.candidates[rank - 1])
            for i, member in enumerate(sorted(set(members))):
                i = members.index(member)
                a, b = members[(i + 1) % 3], members[(i + 2) % 3]
                digits = {(a + b) % 10, (a * b) % 10}
                for take in sorted(c for c in candidates if c % 10 in digits):
                    if rank == 1:
                        moves.append(Promote(1, member, "win", take))
                        continue
                    above = self.members[rank - 2]
                    if len(above) < 3:
                        moves.append(Promote(rank, member, "m", take))
                    else:  # four members above: one of the four (the promoted card included) dies
                        for victim in sorted(set(above) | {member}):
                            moves.append(Promote(rank, member, "m", take, victim))
                    moves.append(Promote(rank, member, "c", take))
        # Search order, measured (bench): lower ranks first (building supply below before
        # spending it above finds wins ~8x sooner than top-down), moves without a sacrifice first.
        moves.sort(key=lambda m: (-m.rank, m.sacrifice is not None))
        return moves

    def picture(self, seen_only=False):
        """Each rank's members and candidates as rows of values (the game keeps no suits), and the
        reserve while the opening is chosen. Nothing is hidden: the player's picture is the same."""
        row = lambda values: [P.value(v) for v in values]
        piles = [P.pile("reserve", row(self.reserve), group="reserve", spread=True)] if self.reserve else []
        for rank in range(1, 6):
            piles.append(P.pile(f"R{rank} members", row(self.members[rank - 1]), group=f"rank {rank}", spread=True))
            piles.append(P.pile(f"R{rank} candidates", row(self.candidates[rank - 1]), group=f"rank {rank}", spread=True))
        return P.picture(piles, sacrificed=self.sacrificed)

    def __str__(self):
        lines = []
        if self.reserve:
            lines.append(f"reserve (choose 3): {_values_text(self.reserve)}")
        for rank in range(1, 6):
            members = _values_text(self.members[rank - 1]) or "-"
            candidates = _values_text(self.candidates[rank - 1]) or "-"
            lines.append(f"R{rank}  members: {members:<7} candidates: {candidates}")
        lines.append(f"sacrificed: {self.sacrificed}" + ("  (won)" if self.won else ""))
        return "\n".join(lines)


# -- the deal -------------------------------------------------------------------------------------
def state_from_deck(deck) -> State:
    """The opening decision: the deck's values dealt from the top as the candidates of ranks 5, 4,
    3, 2, 1 (CANDIDATE_COUNTS), the rest the reserve."""
    values = [C.rank_of(c) for c in deck]
    candidates, at = [()] * 5, 0
    for rank in (5, 4, 3, 2, 1):
        n = CANDIDATE_COUNTS[rank]
        candidates[rank - 1] = tuple(sorted(values[at:at + n]))
        at += n
    return State(((),) * 5, tuple(candidates), tuple(sorted(values[at:])))
