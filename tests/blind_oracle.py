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
