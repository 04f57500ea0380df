"""The levers of ext/tricks.pyx (issue 43) against the pure-Python reference on many random small
positions: 3 to 6 seats, 3 to 6 cards a seat (Heartburn 3 to 4), sometimes inside a trick, Foresight under every trump
and no trump, Heartburn. Slow (about 2 minutes): the quick checks are tests/test_trick_games.py's."""
import random
import time

import pytest

from solodeck.games.tricks.search import KernelParanoid
from solodeck.registry import get_game
from solodeck.result import Limits
from solodeck.solvers.paranoid import ParanoidSolver

FORESIGHT, HEARTBURN = get_game("foresight"), get_game("heartburn")


def positions(game, count, seed0):
    players = game.options["players"][1]
    for seed in range(seed0, seed0 + count):
        rng = random.Random(seed)
        n = rng.choice(players)
        deal = game.new_deal(seed, {"players": n})
        st = (game.initial_state(deal, trump=rng.randrange(-1, 4), exchange=False) if game is FORESIGHT
              else game.initial_state(deal))
        per_seat = rng.randint(3, 6 if n <= 4 and game is FORESIGHT else 4)  # (Heartburn's reference is slower)
        keep = n * per_seat + (rng.randrange(n) if rng.random() < 0.4 else 0)
        while st.cards_left() > keep:
            st = st.play(rng.choice(st.legal_moves()))
        yield st


@pytest.mark.slow
@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_the_kernel_with_every_lever_equals_the_reference(game):
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    checked = 0
    for st in positions(game, 40, 43000):
        fast = KernelParanoid(kernel, Limits(memory_mb=16))
        plain = ParanoidSolver(Limits(max_states=300_000))
        for seat in range(st.rules.seats):
            want = plain.value(st, seat)
            if want is None:  # the reference's table grew too big: not a check
                continue
            assert fast.value(st, seat) == want, f"{game.name}, seat {seat}\n{st}"
            checked += 1
    assert checked > 80


@pytest.mark.slow
@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_each_lever_alone_leaves_the_values_alone(game):
    """Every feature of the kernel against none of them, and each switched off in turn, on deeper
    positions than the reference can value quickly (5-7 cards a seat)."""
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    every = kernel.FEATURES_ALL
    settings = {"none": 0, **{f"all but {name}": every & ~bit for name, bit in kernel.FEATURES.items()}}
    for st in positions(game, 16, 44000):
        want = [KernelParanoid(kernel, Limits(memory_mb=16)).value(st, seat) for seat in range(st.rules.seats)]
        for label, features in settings.items():
            solver = KernelParanoid(kernel, Limits(memory_mb=16))
            solver.search.features = features
            assert [solver.value(st, seat) for seat in range(st.rules.seats)] == want, f"{game.name}, {label}\n{st}"


def test_a_prefetched_table_gives_the_values_of_one_process():
    """KernelParanoid.prefetch (a Foresight table's searches in two processes) gives back what the
    searches of one process give, each once, and counts the workers' nodes."""
    kernel = FORESIGHT.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    searches = [(st, seat) for st in positions(FORESIGHT, 3, 45000) for seat in range(st.rules.seats)]
    plain = KernelParanoid(kernel, Limits(memory_mb=16))
    want = [plain.value(st, seat) for st, seat in searches]
    ahead = KernelParanoid(kernel, Limits(memory_mb=16))
    ahead.prefetch(searches, processes=2)
    assert len(ahead.known) == len({ahead._known_key(st, seat) for st, seat in searches}) and ahead.nodes > 0
    assert [ahead.value(st, seat) for st, seat in searches] == want and ahead.search.nodes == 0


def test_a_table_whose_deadline_passed_before_a_search_began_leaves_that_value_unknown():
    """Under a whole-command deadline a round may end before some searches had their turn: they
    stay unknown (a race once made the table's answer a traceback)."""
    kernel = FORESIGHT.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    searches = [(st, seat) for st in positions(FORESIGHT, 1, 45000) for seat in range(st.rules.seats)]
    solver = KernelParanoid(kernel, Limits(memory_mb=16, deadline=time.perf_counter() - 1))
    solver.prefetch(searches, processes=1)
    assert solver.known == {}
    want = [KernelParanoid(kernel, Limits(memory_mb=16)).value(st, seat) for st, seat in searches]
    assert all(solver.value(st, seat) in (None, v) for (st, seat), v in zip(searches, want))


@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_issue_55s_levers_alone_and_with_the_rest_equal_the_reference(game):
    """Issue 55's levers (a quick check; the slow tests above switch each off in turn): the coming
    trick already sure for one side at a trick boundary (later), Heartburn's first test at the
    bottom (hb_ascend), the target's leads and cards that surely win the trick first (my_lead,
    my_sure), a trump that would not take the trick last (keep_trumps, my_keep), alone and with
    every other lever, against the reference."""
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    new = sum(kernel.FEATURES[name] for name in ("later", "hb_ascend", "my_lead", "my_sure", "keep_trumps", "my_keep"))
    checked = 0
    for st in positions(game, 12 if game is FORESIGHT else 4, 55000):  # (Heartburn's reference is slower)
        plain = ParanoidSolver(Limits(max_states=100_000))
        want = [plain.value(st, seat) for seat in range(st.rules.seats)]
        for features in (kernel.FEATURES_ALL, new):
            fast = KernelParanoid(kernel, Limits(memory_mb=16))
            fast.search.features = features
            for seat, w in enumerate(want):
                if w is not None:
                    assert fast.value(st, seat) == w, f"{game.name}, seat {seat}, features {features}\n{st}"
                    checked += 1
    assert checked > 20
