"""Hide and Seek's blind play: the baseline policy, the blind rule's rollouts in the kernel
(fast_rollouts) and the blind plan. The blind rule itself (rule_move) is in rules.py, where
State.search_moves reads it."""
from __future__ import annotations

from ...solvers.plan import BlindPlan
from ...solvers.rollouts import candidate_moves
from .rules import (CELL_SPACES, RULE_DUMP, RULE_LOW, RULE_PLACE, RULE_REVEAL, RULE_REVEAL_EMPTY, RULE_WITHDRAW,
                    WIN_SCORE, State, face_index, space_odds, suit, suit_odds)


# -- the baseline policy --------------------------------------------------------------------------
BASE_T = [0.5, 1.0, 0.2]  # the rule's thresholds (see baseline_move)


def baseline_move(state: State):
    """A simple rule, from what the player sees: the odds of each face-down playmate's suit over
    the grids consistent with the face-up ones (a guess beside several face-down playmates is
    likely to meet its suit among them, and then it scores when that one is revealed):

    1. with the deck empty, reveal the playmate expected to score most;
    2. place the top card in the empty space where the face-down playmates beside it are
       expected to hold its suit most (if at least 0.5 of a playmate);
    3. else reveal the playmate expected to score most, if at least one card (it frees spaces);
    4. else place the top card where it is expected to meet its suit at least 0.2 of a playmate;
    5. else withdraw the guess of the top card's suit least likely to score;
    6. else place it where it does least harm (a dead space first), else reveal.
    """
    moves = state.legal_moves()
    if not moves:
        return None
    faces = state.faces()
    odds, beside = suit_odds(faces), space_odds(faces)
    sp = state.spaces

    def expected(cell):  # the guesses revealing this playmate is expected to score
        return sum(odds[cell][suit(sp[p])] for p in CELL_SPACES[cell] if sp[p] >= 0)

    def chance(p, s):  # the face-down playmates of suit s expected beside space p
        return beside[p][s]

    reveals = sorted((m for m in moves if m.kind == "reveal"), key=lambda m: -expected(m.where))
    top = state.top()
    if top < 0:
        return reveals[0]
    s = suit(top)
    places = sorted((m for m in moves if m.kind == "place"), key=lambda m: -chance(m.where, s))
    withdraws = sorted((m for m in moves if m.kind == "withdraw"), key=lambda m: chance(m.where, s))
    if places and chance(places[0].where, s) >= BASE_T[0]:
        return places[0]
    if reveals and expected(reveals[0].where) >= BASE_T[1]:
        return reveals[0]
    if places and chance(places[0].where, s) >= BASE_T[2]:
        return places[0]
    if withdraws:
        return withdraws[0]
    if places:
        return places[-1]
    return reveals[0]


RULE_THRESHOLDS = (RULE_PLACE, RULE_WITHDRAW, RULE_REVEAL, RULE_REVEAL_EMPTY, RULE_LOW, RULE_DUMP)  # the kernel's
KERNEL_KINDS = ("place", "withdraw", "reveal")  # the kernel's move kinds


def _kernel_view(state: State) -> tuple:
    """The kernel's reading of a decision, from the view only: the face-up mask, each cell's face
    index (-1 face down), each space's guess by suit (-1 empty), the top card (-1: none), the rest
    of the deck as a sorted set (its order is unseen) and the score."""
    faces = tuple(face_index(card) if card >= 0 else -1 for card in state.faces())
    spaces = tuple(suit(card) if card >= 0 else -1 for card in state.spaces)
    return state.up, faces, spaces, state.top(), sorted(state.world.deck[state.pos + 1:]), state.score


def kernel_rollouts(kernel, game, state, samples, seed, moves=None):
    """Game.fast_rollouts in the kernel: the rollouts of ``moves`` (None: candidate_moves), each
    row (move, wins, sum of winning scores, sum of losing scores)."""
    moves = candidate_moves(game, state) if moves is None else moves
    stats = kernel.rollouts(*_kernel_view(state), [(KERNEL_KINDS.index(m.kind), m.where) for m in moves],
                            samples, seed, RULE_THRESHOLDS, WIN_SCORE)
    return [(m, *row) for m, row in zip(moves, stats)]


def plan() -> BlindPlan:
    # The blind rule's rollouts, though faces are hidden (a sampled world solved open costs seconds).
    # Seeds 10000-10199, against the rule alone at 78/200: 256 rollouts per move of the first 6 of
    # search_moves by sequential halving, the rule's own move first among equal wins: 154/200, 1.2 s
    # a deal; 512: 154/200 at 2.9 s; every move, 128: 131/200. Losses score: ranked by it.
    return BlindPlan(samples=256, candidates=6, halving=True, keep_rule=True, exact_states=60, rank_losses=True)
