"""Loot the Loop's blind play: the baseline policy, the blind rule (a plan over the moves whose
outcome is known, ending in the best step into the unknown), the blind plan (rollouts of the rule),
and the rule and its rollouts in the kernel (ext/loot_the_loop.pyx, Blind), which read only the
player's view."""
from __future__ import annotations

import threading

from ...solvers.plan import BlindPlan, Estimator
from ...solvers.rollouts import candidate_moves
from .rules import ACE_CLASS, JOKER_CLASS, LOOK, MARK, TRAP_CLASS, Move, card_class, card_of, is_up, trinket_value


def baseline_move(state):
    """The baseline policy, first that applies: an explore that wins; one that scores (an ace
    first, then the larger count); a look around; a mark, if what is left on top offers such a
    move or an explore to a face-down card (a path in the notes is a way out later); an
    explore to a face-down card (the larger count); a return that offers one of these next.
    Each choice
    scores, turns a card up, or sets up a move that does, so the policy never goes round in
    circles; with none left it gives up (None): lost for this player."""
    moves = state.legal_moves()
    if not moves:
        return None
    order = sorted((m for m in moves if m.kind != "return" and m.kind != "mark"),
                   key=lambda m: (state._order(m), -m.value))
    if order and state._order(order[0]) <= 3:
        return order[0]
    if MARK in moves and _progress_next(state.play(MARK)):
        return MARK  # a path in the notes is a way out when the top two offer none
    if order and state._order(order[0]) == 4:
        return order[0]
    for m in moves:
        if m.kind in ("return", "mark") and _progress_next(state.play(m)):
            return m
    return None


def plan() -> BlindPlan:
    # Rollouts of the blind rule in the kernel (ext/loot_the_loop.pyx, Blind: about 0.6 ms a
    # rollout from the deal, against 0.3 s in Python): 32 draws a move over the first two of
    # search_moves and the rule's own move, by sequential halving; the policy leaves the rule's
    # move only for more wins in the samples (keep_rule: among moves tied on wins the rule's comes
    # first, so ties never lead round in circles, which play loses). No exact blind values: within
    # a cycle every position has its best way out's value, and moves tied on it can lead round in
    # circles (with 50 positions, on seeds 10000-10499 they lost 5 deals the rule won and won none
    # it lost). Losses score: ranked by it. Seeds 10010-10209: 122 wins against the rule's 108
    # (only the rule 35, only the policy 49), 3.1 s a game (median); deals 0-999: 56.3% against
    # 47.9% (only the rule 139, only the policy 223), 2.9 s. Without the kernel the same rollouts
    # run in Python: the same moves, some 500 times slower (docs/rules/loot-the-loop.md).
    return BlindPlan(estimator=Estimator.ROLLOUTS, samples=32, candidates=2, keep_rule=True, halving=True,
                     exact_states=0, rank_losses=True)


# -- the blind rule (Game.blind_rule): docs/rules/loot-the-loop.md, "The blind rule" --------------
PLAN_NODES = 400      # the most positions the rule's plan search enters at one decision
WIN_NODES = 5000      # ... while it has found no step into the unknown (a win may still be further on)
ACE_WORTH = 100       # a leaf's worth per ace scored: every ace is needed to win
ALIVE_WORTH = 200     # ... times the chance the next look leaves a way on
NOTE_WORTH = 60       # ... per note held (a way out later)


def _known_landing(state, move) -> bool:
    """Is ``move`` a mark, a return or an explore onto a face-up card: its outcome is known."""
    return move.kind in ("mark", "return") or (move.kind == "explore" and is_up(state.landing(move.value)))


def _class_odds(state) -> list:
    """[(class, count)] of the unseen cards (the face-down places): what a look may turn up."""
    counts = {}
    for code in state.deck:
        if not is_up(code):
            cls = card_class(card_of(code))
            counts[cls] = counts.get(cls, 0) + 1
    return sorted(counts.items())


# the worth of an explore by its landing (the rule's odds): onto an ace, or the exit with every ace
# scored; a way on after it (the worth of where it leaves the player, _standing_worth)
LAND_ACE, LAND_ON = 1.0, 0.6


def _standing_worth(deck, j: int, dead_odds: float) -> float:
    """Without notes, the worth of standing at deck place ``j`` (its top then): a face-down card is
    looked at, and leaves no way on when it (and the face-down card after it) turn up no trinket,
    ``dead_odds`` the chance of one such card; a face-up trinket on top or second goes on; two
    face-up cards that are not trinkets are the end."""
    n = len(deck)
    top, second = deck[j % n], deck[(j + 1) % n]
    if not is_up(top):
        if is_up(second):
            return LAND_ON if trinket_value(card_of(second)) else LAND_ON * (1 - dead_odds)
        return LAND_ON * (1 - dead_odds * dead_odds)
    if trinket_value(card_of(top)) or (is_up(second) and trinket_value(card_of(second))):
        return LAND_ON
    return 0.0


def _landing_worth(deck, i: int, aces_left: int, dead_odds: float) -> float:
    """The worth of an explore that lands on deck place ``i`` (the top two face up)."""
    i %= len(deck)
    land = deck[i]
    if i < 2:  # one of the two cards being turned: whatever it shows, a way on is likely
        return LAND_ON
    if not is_up(land):
        return _standing_worth(deck, i, dead_odds)
    land_cls = card_class(card_of(land))
    if land_cls == TRAP_CLASS:
        return 0.0
    if land_cls == ACE_CLASS or (land_cls == JOKER_CLASS and not aces_left):
        return LAND_ACE
    # a trinket scored (the next card on top), or the exit with an ace out (stuck on it)
    return _standing_worth(deck, i + (land_cls > ACE_CLASS), dead_odds)


def _landing_worths(state) -> tuple:
    """({trinket class: the worth of an explore by its value}, the worth of the best note returned
    and explored by) once the top two are face up: a note returned on top lands one card short."""
    deck, aces_left = state.deck, state.aces_left()
    odds = _class_odds(state)
    unseen = sum(c for _cls, c in odds)
    dead_odds = sum(c for cls, c in odds if cls <= ACE_CLASS) / unseen if unseen else 1.0
    worths = {cls: _landing_worth(deck, cls - 1, aces_left, dead_odds) for cls in range(ACE_CLASS + 1, ACE_CLASS + 10)}
    by_note = max((_landing_worth(deck, trinket_value(card) - 1, aces_left, dead_odds) for card in state.notes),
                  default=0.0)
    return worths, by_note


def _look_odds(state) -> float:
    """The worth of looking around at ``state`` (its top card face down), 0..1: over the classes of
    the unseen cards the look may turn up, each as likely as the unseen cards make it, the best
    way on from the two cards on top (the better explore, or a note to return)."""
    odds = _class_odds(state)
    total = sum(c for _cls, c in odds)
    worths, floor = _landing_worths(state)
    worth_x = [(worths.get(cls, 0.0), cls, c) for cls, c in odds]
    if len(state.deck) < 2 or is_up(state.deck[1]):  # the second card is known
        second = card_class(card_of(state.deck[1])) if len(state.deck) > 1 else JOKER_CLASS
        known = max(worths.get(second, 0.0), floor)
        return sum(c * max(w, known) for w, _cls, c in worth_x) / total
    pairs = 0.0
    for wx, cls_x, cx in worth_x:
        for wy, cls_y, cy in worth_x:
            pairs += cx * (cy - (cls_y == cls_x)) * max(wx, wy, floor)
    return pairs / (total * (total - 1)) if total > 1 else 0.0


def _leaf_worth(node, move) -> float:
    """The worth of a progress move from a position of the plan: a look around there, or an
    explore onto a face-down card (then a look around where it lands)."""
    after = node if move.kind == "look" else node.play(move)
    return (ACE_WORTH * (4 - node.aces_left()) + ALIVE_WORTH * _look_odds(after)
            + NOTE_WORTH * len(node.notes))


def _plan_key(node):
    """A position of the rule's plan as the player sees it: State.key() with every face-down card
    alike (the plan keeps the face-down cards where they are, so this only makes sure that no
    hidden face ever tells two positions apart)."""
    return (bytes(card_class(c >> 1) * 2 + 1 if c & 1 else 0 for c in node.deck),
            bytes(trinket_value(c) for c in node.notes), node.exited)


def rule_move(state):
    """The blind rule (Game.blind_rule): see docs/rules/loot-the-loop.md, "The blind rule"."""
    moves = state.legal_moves()
    if not moves:
        return None
    # breadth first over the moves whose outcome is known: the shortest way to each position
    first = {_plan_key(state): None}
    queue = [state]
    best, best_first = None, None
    for node in queue:
        via = first[_plan_key(node)]
        if node.exited:
            return via
        for move in node.legal_moves():
            if _known_landing(node, move):
                if len(first) < (PLAN_NODES if best is not None else WIN_NODES):
                    child = node.play(move)
                    key = _plan_key(child)
                    if key not in first:
                        first[key] = via or move
                        queue.append(child)
            else:  # a look around, or an explore onto a face-down card: a leaf of the plan
                worth = _leaf_worth(node, move)
                if best is None or worth > best:
                    best, best_first = worth, via or move
    return best_first


def _progress_next(state) -> bool:
    """Does the position offer a look around, or an explore that lands face down, scores or wins?"""
    return any(m.kind == "look" or (m.kind == "explore" and state._order(m) <= 4) for m in state.legal_moves())


# -- the rule in the kernel (ext/loot_the_loop.pyx, Blind): the same moves, and its rollouts ------
def kernel_view(state):
    """What the kernel's rule reads, all of it seen by the player: the deck top first (a face-up
    card as its card, a face-down one as -1), the notes, and the unseen cards (their composition)."""
    return ([card_of(c) if is_up(c) else -1 for c in state.deck], list(state.notes), state.hidden_cards())


def from_kernel(kernel_move):
    """A reference move from the kernel's (kind, value) (a return names its card)."""
    kind, value = kernel_move
    if kind == "look":
        return LOOK
    if kind == "mark":
        return MARK
    return Move(kind, value)


_BLINDS = threading.local()  # one kernel Blind per thread (its plan's memory is allocated once)


def kernel_rule(kernel, state):
    """The kernel's Blind set at ``state`` (its view only)."""
    rule = getattr(_BLINDS, "rule", None)
    if rule is None or type(rule) is not kernel.Blind:
        rule = _BLINDS.rule = kernel.Blind()
    rule.set_position(*kernel_view(state))
    return rule


def rule_move_with(kernel, state):
    """The blind rule's move (rule_move), in the kernel when it is built: the same move."""
    if kernel is None:
        return rule_move(state)
    move = kernel_rule(kernel, state).rule_move()
    return None if move is None else from_kernel(move)


def fast_rollouts(game, kernel, state, samples, seed, moves=None):
    """Game.fast_rollouts: [(move, wins, sum of winning scores, sum of losing scores)] for
    ``moves`` (None: the plan's candidates), each then the rule to the end, solvers/rollouts.py's
    draws (the same numbers as its Python rollouts: tests/test_loot_the_loop_blind_kernel.py)."""
    moves = candidate_moves(game, state) if moves is None else moves
    rule = kernel_rule(kernel, state)
    stats = rule.rollouts([(m.kind, m.value) for m in moves], samples, seed)
    return [(m, *row) for m, row in zip(moves, stats)]
