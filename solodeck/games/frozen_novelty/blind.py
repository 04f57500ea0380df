"""Frozen Novelty played blind: the baseline policy, the worlds' order and the blind plan
(docs/rules/frozen-novelty.md, "Blind mode: how the solver plays it").

``blind_preference`` orders the sampled worlds' moves for the determinizer: its tie-break, which
decides most early moves (every move wins in every world).
"""
from __future__ import annotations

from ...solvers.plan import BlindPlan, Estimator
from .rules import DECK, DOWN, Move, State, card_of, is_up, rank, suit


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


def baseline_move(state):
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


def plan() -> BlindPlan:
    # 6 sampled worlds a decision (results/frozen-novelty), each valuing the 10 first candidates;
    # the exact blind attempt: only the last few face-down cards fit
    return BlindPlan(estimator=Estimator.DETERMINIZED, samples=6, candidates=10, exact_states=60,
                     preference=blind_preference)
