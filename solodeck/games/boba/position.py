"""The First Boba Tea Shop: mid-game positions (``[position]`` in a deal file)."""
from __future__ import annotations

import re

from ... import cards as C
from ...errors import DealError
from .rules import COPIES, QUEUES, TOP, State, fits, value_name


# -- deal files: the mid-game position --------------------------------------------------------
def _values(text, source, field) -> list:
    try:
        return [_value(t) for t in str(text).replace(",", " ").split()]
    except ValueError as exc:
        raise DealError(source, field, str(exc)) from None


def _value(token: str) -> int:
    """A value written as a rank (5, T, 10, Q) or as a card whose suit is ignored (QD)."""
    t = token.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in C.RANKS:
        return C.RANKS.index(t) + 1
    try:
        card = C.parse_card(t)
    except ValueError:
        raise ValueError(f"'{token}' is not a value (A 2-9 T J Q K, or a card like QD)") from None
    if card == C.JOKER:
        raise ValueError("the game has no jokers")
    return C.rank_of(card)


def state_from_position(position: dict, source: str) -> State:
    """``[position]``: ``queues`` = 4 strings of values (any order; each queue keeps itself
    sorted), ``deck`` = the cards to come, top first, optional ``discards`` = the discard pile as
    values ("8 8 8 K") or a table of counts ({8 = 3}), by default every card not elsewhere;
    optional ``hand`` and ``target``: a drawn card that missed gap G of queue Q ("Q:G")."""
    known = {"queues", "deck", "discards", "hand", "target"}
    for key in position:
        if key not in known:
            raise DealError(source, f"position.{key}", f"unknown field (expected: {', '.join(sorted(known))})")
    texts = position.get("queues")
    if not isinstance(texts, list) or len(texts) != QUEUES:
        raise DealError(source, "position.queues", 'expected a list of 4 queues such as ["9 4 4 2", "8 A", "K", "5"]')
    queues = []
    for i, text in enumerate(texts, start=1):
        values = _values(text, source, f"position.queues[{i}]")
        if not values:
            raise DealError(source, f"position.queues[{i}]", "empty: every queue holds at least one card")
        queues.append(tuple(sorted(values)))
    deck = tuple(_values(position.get("deck", ""), source, "position.deck"))
    hand = target = None
    if ("hand" in position) != ("target" in position):
        raise DealError(source, "position.hand" if "hand" in position else "position.target",
                        "give both 'hand' (the drawn card that missed) and 'target' (its gap, \"Q:G\")")
    if "hand" in position:
        try:
            hand = _value(str(position["hand"]))
        except ValueError as exc:
            raise DealError(source, "position.hand", str(exc)) from None
        m = re.match(r"^\s*(\d+)\s*:\s*(\d+)\s*$", str(position["target"]))
        if not m or not 1 <= int(m.group(1)) <= QUEUES or int(m.group(2)) > len(queues[int(m.group(1)) - 1]):
            raise DealError(source, "position.target", f"'{position['target']}': expected 'Q:G', queue Q 1-4 and "
                                                       "gap G from 0 (below the lowest card) to the queue's length")
        target = (int(m.group(1)) - 1, int(m.group(2)))
        if fits(queues[target[0]], target[1], hand):
            raise DealError(source, "position.hand", f"{value_name(hand)} fits gap {position['target']}: "
                                                     "'hand' is a drawn card that missed its target")
    placed = [0] * (TOP + 1)
    for v in [v for q in queues for v in q] + list(deck) + ([hand] if hand else []):
        placed[v] += 1
    given = position.get("discards")
    if given is None:
        discards = [COPIES - placed[v] if v else 0 for v in range(TOP)]
        field = "position"
    else:
        field = "position.discards"
        discards = [0] * TOP
        if isinstance(given, dict):
            for k, n in given.items():
                try:
                    v = _value(str(k))
                except ValueError as exc:
                    raise DealError(source, field, str(exc)) from None
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < COPIES:
                    raise DealError(source, field, f"{k} = {n!r}: expected a count from 0 to 3")
                discards[v] += n
        else:
            for v in _values(given, source, field):
                discards[v] += 1
    for v in range(1, TOP):
        total = placed[v] + discards[v]
        if total > COPIES or discards[v] < 0:
            raise DealError(source, "position", f"{placed[v] + max(discards[v], 0)} cards of value {value_name(v)}: "
                                                 f"the deck has {COPIES}")
        if total != COPIES:
            raise DealError(source, field, f"value {value_name(v)}: {total} cards in queues, deck and discards, "
                                           f"expected {COPIES} (leave 'discards' out to make it the rest)")
        if discards[v] >= COPIES:
            raise DealError(source, field, f"four {value_name(v)}s discarded: the game is already lost")
    return State(tuple(queues), tuple(discards), deck, target, hand)
