"""Blind mode's value by brute force, for the tests of the chance games (imported as conftest is).

The check stands apart from the solvers under test: it never calls ExpectimaxSolver, and never
asks a state for its ``chance_outcomes()``. It enumerates every order of the cards still to come,
each order equally likely: at a chance node, the orders are grouped by the cards they draw next
and each group weighs as many orders as it holds; at a decision, the best move for the orders
still possible. It uses only the value order of solvers/expectimax.py (``better``, ``LOSS``), so
that the two agree on what a tie is.
"""
from itertools import permutations

from solodeck.solvers.expectimax import LOSS, better


def every_order(cards):
    """Every distinct order of ``cards``, each as likely as any other (repeated values are one)."""
    return sorted(set(permutations(cards)))


def one_card(state, order):
    """A draw of one card: the chance outcome is the order's first card."""
    return order[0], order[1:]


def blind_value(state, orders, draw=one_card, lower=False):
    """The blind value (P(win), E[score x win]) of ``state`` when the cards to come are in one of
    ``orders``. ``draw(state, order) -> (outcome, rest)`` is what the next chance node takes from an
    order; ``lower``: the game's score is better lower."""
    outcome = state.outcome()
    if outcome is not None:
        return (1.0, float(outcome.score)) if outcome.won else LOSS
    if state.is_chance():
        groups = {}
        for order in orders:
            drawn, rest = draw(state, order)
            groups.setdefault(drawn, []).append(rest)
        p = s = 0.0
        for drawn, rest in groups.items():
            cp, cs = blind_value(state.apply_chance(drawn), rest, draw, lower)
            p += len(rest) / len(orders) * cp
            s += len(rest) / len(orders) * cs
        return p, s
    best = LOSS
    for move in state.legal_moves():
        value = blind_value(state.play(move), orders, draw, lower)
        if better(value, best, lower=lower):
            best = value
    return best


def open_win_rate(orders, wins):
    """The clairvoyant (open-mode) win rate: the mean over ``orders`` of ``wins(order)``. Each order
    being equally likely, it bounds the blind win probability from above."""
    return sum(bool(wins(order)) for order in orders) / len(orders)


def world_set_value(worlds, per_move: bool = False):
    """Blind value (P(win), E[score x win]) of a decision for a player who knows only that the
    game is one of ``worlds`` (full-information states, equally likely), for games with hidden
    faces; with ``per_move``, also the value after each legal move: (value, {move: value}).

    It never asks a state for its view or its chance outcomes: at a chance node the worlds are
    grouped by the face each one deals (each group weighing as many worlds as it holds), at a
    decision every world takes the same move. Positions may repeat (Frozen Novelty), so the
    values are found by value iteration from "lost" over the graph of world sets, which
    converges to the least fixed point: what best play can guarantee."""
    def key_of(ws):
        return frozenset(w.key() for w in ws)

    nodes, todo = {}, [list(worlds)]
    while todo:
        ws = todo.pop()
        k = key_of(ws)
        if k in nodes:
            continue
        first = ws[0]
        outcome = first.outcome()
        if outcome is not None:
            assert all(w.outcome() == outcome for w in ws), "worlds that look alike end differently"
            nodes[k] = ("end", (1.0, float(outcome.score or 0)) if outcome.won else LOSS)
        elif first.is_chance():
            groups = {}
            for w in ws:
                groups.setdefault(w.dealt_outcome(), []).append(w.apply_chance(w.dealt_outcome()))
            nodes[k] = ("chance", [(len(g) / len(ws), key_of(g)) for g in groups.values()])
            todo += groups.values()
        else:
            moves = first.legal_moves()
            assert all(w.legal_moves() == moves for w in ws), "worlds that look alike offer different moves"
            children = [[w.play(m) for w in ws] for m in moves]
            nodes[k] = ("max", [key_of(c) for c in children])
            todo += children
    value = {k: (node[1] if node[0] == "end" else LOSS) for k, node in nodes.items()}
    changed = True
    while changed:
        changed = False
        for k, (kind, data) in nodes.items():
            if kind == "chance":
                new = (sum(p * value[c][0] for p, c in data), sum(p * value[c][1] for p, c in data))
            elif kind == "max":
                new = LOSS
                for c in data:
                    if better(value[c], new):
                        new = value[c]
            else:
                continue
            if abs(new[0] - value[k][0]) > 1e-13 or abs(new[1] - value[k][1]) > 1e-13:
                value[k], changed = new, True
    root = value[key_of(worlds)]
    if not per_move:
        return root
    return root, {m: value[key_of([w.play(m) for w in worlds])] for m in worlds[0].legal_moves()}
