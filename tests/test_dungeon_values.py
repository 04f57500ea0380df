"""The Dungeon's value table and the blind rule that reads it (solodeck/games/dungeon/values.py,
docs/rules/dungeon.md "The value-table rule"); the kernel's table against the reference's."""
from array import array

import pytest

from solodeck import cards as C
from solodeck.games.dungeon import GAME
from solodeck.games.dungeon import values as DV
from solodeck.games.dungeon.rules import DEAL, DECK_CARDS, State, round_score, value

SMALL = DV.Grid(-2.0, 1.0, 0.5, 9, 13, 4)  # around the K♦ at distance 4 or 3, four rounds: quick in Python


def fight(skill, monster, attacks, hand, path=()):
    named = set(C.parse_cards(f"{skill} {monster} {attacks} {hand}")) | set(path)
    deck = tuple(c for c in DECK_CARDS if c not in named)
    return State(C.parse_card(skill), 4, tuple(path), deck, step=DEAL, monster=C.parse_card(monster),
                 attacks=tuple(C.parse_cards(attacks)), hand=tuple(C.parse_cards(hand)))


def test_a_rounds_classes_are_a_distribution_and_a_sure_round_is_sure():
    """Each monster's classes sum to 1; SKILL K against an ace: every attack (at most 1 + K) loses
    to a card of 2 or more, so +3 is almost sure, and a score of 0 or less needs aces in hand."""
    odds = DV.deck_odds(13)
    assert sum(odds) == pytest.approx(1) and odds[13] == 2 / 49
    classes = DV.round_classes(13, odds)
    for v in range(1, 14):
        assert sum(classes[v]) == pytest.approx(1, abs=1e-12) and classes[v][0] == 0
    assert classes[1][4 * 3] > 0.9
    assert DV._class_of((1, 1, 1), (2, 2, 2)) == 4 * 3        # every card above every attack
    assert DV._class_of((1, 3, 3), (2, 2, 4)) == 4 * 1 + 1    # +1 at best, -1 at worst, never 0


def test_the_kernel_builds_the_references_table_bit_for_bit():
    kernel = GAME.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    for skill, distance in ((7, 4), (2, 3)):
        reference = DV.make_table(skill, distance, SMALL)
        built = DV.make_table(skill, distance, SMALL, kernel)
        assert built.values.tobytes() == reference.values.tobytes()
        assert max(reference.values) > 0.5


def test_values_grow_with_the_rounds_and_the_offer():
    """More rounds or a larger offer is never worse (a choice among more cards; V[0] = 0)."""
    table = DV.make_table(7, 4, SMALL)
    at = lambda r, e, last, cell: table.values[SMALL.index(r, e, last, cell)]
    for cell in range(SMALL.cells()):
        for last in range(DV.LASTS):
            assert at(0, 0, last, cell) == 0
            for r in range(1, SMALL.rounds + 1):
                assert at(r, 0, last, cell) >= at(r - 1, 0, last, cell) - 1e-12
                for e in range(1, 4):
                    assert at(r, e, last, cell) >= at(r, e - 1, last, cell) - 1e-12
    below_the_king = SMALL.cell(0.0, 3.5)  # half a card below the K♦: most cards up win at once
    assert at(1, 0, 0, below_the_king) > 0.05 and at(1, 0, 0, SMALL.cell(2.0, 1.0)) == 0  # 2.3 away, one round
    # a card at 6 o'clock leads straight back up, when a round can lose it
    assert at(2, 0, 6, SMALL.cell(0.0, 2.5)) > at(2, 0, 0, SMALL.cell(0.0, 2.5))


def test_the_rule_takes_a_win_and_otherwise_the_tables_best():
    """A pairing that scores and puts the queen on the K♦ wins; the rule's other pairings go by
    score_worth, whose win is 2 (above any chance)."""
    queens = [C.parse_card(c) for c in ("QH", "QC", "QS")]
    state = fight("KS", "QD", "2H 2C 2S", "3H 3C 3S", path=queens)  # three queens up: the fourth meets K♦
    table = GAME.value_table(state)
    best = state.rule_move(table)
    assert state.score_worth(table, 3) == 2.0 and state.after_round(3).result == "won"
    assert state.play(best).result == "won"
    state = fight("7S", "9D", "4H JH 6C", "7D 2C QC")
    worths = {s: state.score_worth(table, s) for s in state.round_outcomes()}
    chosen = state.rule_move(table)
    assert worths[round_score(value(state.skill), state.monster, chosen.pairs)] == max(worths.values())


def test_the_kernels_rollouts_of_the_table_rule_are_the_references_draw_for_draw():
    """With rule "table", fast_rollouts (the value-table rule in C) wins as Python's
    rollouts of State.rule_move on the same draws (the default rule: tests/test_dungeon.py)."""
    from solodeck.api import advance_chance
    from solodeck.games.dungeon import Dungeon
    from solodeck.solvers import rollouts

    if GAME.load_kernel() is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")

    class TableInPython(Dungeon):
        def fast_rollouts(self, state, samples, seed, moves=None):
            return None

    table, in_python = Dungeon(rule="table"), TableInPython(rule="table")
    compared = 0
    state = advance_chance(table.initial_state(GAME.new_deal(3, {"distance": 3})))
    while state.outcome() is None and compared < 8:
        if len(state.legal_moves()) > 1:
            assert table.fast_rollouts(state, 4, 7) == rollouts.rollout_stats(in_python, state, 4, 7)
            compared += 1
        state = advance_chance(state.play(table.blind_rule(state)))
    assert compared >= 6
