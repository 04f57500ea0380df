"""Foresight and Heartburn (the Foresight deck's trick games, every hand open): the rules'
clauses and worked examples, deal files, the paranoid values against brute-force minimax, the
kernel against the reference, hint files."""
import json
import random
import tomllib
from pathlib import Path

import pytest
from conftest import run_cli

from solodeck import cards as C
from solodeck.api import guarantee_text, proven_range
from solodeck.deals import deal_from_data, deal_to_toml, load_deal
from solodeck.errors import DealError, SolodeckError
from solodeck.games.tricks.rules import (BACKS, HEARTBURN_RANGE, NO_TRUMP, Play, TrickRules, TrickState, first_leader,
                                         heartburn_scores, mask_of, parse_trick_move)
from solodeck.games.tricks.search import KernelParanoid
from solodeck.hints import build_hand_hints, verify_hints
from solodeck.registry import get_game
from solodeck.result import Limits
from solodeck.solvers.paranoid import ParanoidSolver

ROOT = Path(__file__).resolve().parent.parent
FORESIGHT, HEARTBURN = get_game("foresight"), get_game("heartburn")
S, H, D, CL = 0, 1, 2, 3


def cards(text):
    return mask_of(C.parse_cards(text))


def state(hands, holes=None, *, trump=S, hearts=False, leader=0, trick="", first=False, broken=False):
    n = len(hands)
    holes = holes or [""] * n
    rules = TrickRules(n, NO_TRUMP if hearts else trump, hearts=hearts)
    return TrickState(rules, tuple(cards(h) for h in hands), tuple(cards(h) for h in holes), leader,
                      trick=tuple(C.parse_cards(trick)), first=first, broken=broken)


def legal(st):
    return sorted(str(m) for m in st.legal_moves())


def brute(st, seat):
    """Plain minimax over every legal card: no table, no cuts, no card merging."""
    outcome = st.outcome()
    if outcome is not None:
        return outcome.scores[seat]
    values = [brute(st.play(m), seat) for m in st.legal_moves()]
    return max(values) if st.to_move() == seat else min(values)


# -- Foresight's rules --------------------------------------------------------------------------
def test_the_text_example_hole_cards_follow_suit_by_their_backs():
    """Amy leads the 4♠; Bayani plays his Hole card showing spades on its back, which turns out to
    be a trump; Colleen, with spades and no such Hole card, must follow from her hand; Dan, void in
    spades, need not play his Hole card showing spades, plays a higher trump and takes the trick.
    The text's trump is hearts, but under the default back table no heart's back shows spades, so
    the example is played with diamonds as trump: the 7♦ and 5♦ show diamonds and spades."""
    assert BACKS[C.parse_card("7D")] == BACKS[C.parse_card("5D")] == (1 << D) | (1 << S)
    st = state(["4S 2C", "6S 3C", "9S TS", "8D 6C"], ["", "7D", "", "5D"], trump=D)
    st = st.play(Play(C.parse_card("4S")))
    assert legal(st) == ["6S", "7D"]  # a spade from the hand, or the Hole card showing spades
    st = st.play(Play(C.parse_card("7D")))
    assert legal(st) == ["9S", "TS"]  # Colleen: spades from the hand only
    st = st.play(Play(C.parse_card("9S")))
    assert legal(st) == ["5D", "6C", "8D"]  # Dan is void in spades: anything, not forced into the Hole
    st = st.play(Play(C.parse_card("8D")))
    assert st.leader == 3 and st.tricks == (0, 0, 0, 1)  # the highest trump wins


def test_a_hole_card_of_another_suit_follows_by_its_back_and_wins_only_as_trump():
    four_hearts = C.parse_card("4H")  # back: hearts and clubs (the default table)
    assert BACKS[four_hearts] == (1 << H) | (1 << CL)
    st = state(["5C 2S", "9C 3S"], ["", "4H"], trump=H)
    st = st.play(Play(C.parse_card("5C")))
    assert legal(st) == ["4H", "9C"]  # the 4H shows clubs on its back: it may follow
    after = st.play(Play(C.parse_card("4H")))
    assert after.leader == 1  # the 4H is a trump: it wins the club trick
    st = state(["5C 2S", "9C 3S"], ["", "4H"], trump=S).play(Play(C.parse_card("5C")))
    assert st.play(Play(C.parse_card("4H"))).leader == 0  # not trump: counts as followed, does not win


def test_never_forced_to_play_from_the_hole_and_the_joker_is_the_lowest_trump():
    st = state(["5C 2S", "3S 7D"], ["", "9C"], trump=S).play(Play(C.parse_card("5C")))
    assert legal(st) == ["3S", "7D", "9C"]  # void in clubs in the hand: anything
    st = state(["5S 2D", "JK 7D"], trump=S).play(Play(C.parse_card("5S")))
    assert legal(st) == ["JK"]  # the Joker is a trump: it must follow a trump lead
    st = state(["5D 2D", "JK 7S"], trump=S).play(Play(C.parse_card("5D"))).play(Play(C.JOKER))
    assert st.leader == 1  # the lowest trump still beats the suit led
    st = state(["2S 2D", "JK 7D"], trump=S).play(Play(C.parse_card("2S"))).play(Play(C.JOKER))
    assert st.leader == 0  # ... and loses to the 2 of trumps


def test_the_leaders_hole_exchange():
    st = state(["AS 2D", "3S 4D"], ["5H", "6H"], trump=S)
    st = TrickState(st.rules, st.hands, st.holes, 0, phase="exchange")
    moves = legal(st)
    assert moves == sorted(["keep", "exchange 5H for AS", "exchange 5H for 2D"])
    after = st.play(parse_trick_move("exchange 5H for AS"))
    assert after.hands[0] == cards("5H 2D") and after.holes[0] == cards("AS") and after.phase == "play"
    assert st.play(parse_trick_move("keep")).hands == st.hands


def test_foresight_scores_are_tricks():
    st = state(["AS", "KS", "QS"], trump=S)
    for card in ("AS", "KS", "QS"):
        st = st.play(Play(C.parse_card(card)))
    assert st.outcome().scores == (1, 0, 0)


# -- Heartburn's rules ---------------------------------------------------------------------------
def test_the_text_scoring_example():
    """Aaron 5 hearts and the Q♠ (18), Megan 3 hearts and the T♦ (-7), Cory 5 hearts, Josh nothing:
    Megan 25, Cory 13, Aaron 0 (the high total), Josh 0 (no bad card)."""
    aaron = cards("2H 3H 4H 5H 6H QS")
    megan = cards("7H 8H 9H TD")
    cory = cards("TH JH QH KH AH")
    assert heartburn_scores((aaron, megan, cory, 0)) == (0, 25, 13, 0)


def test_shooting_the_moon():
    every_heart = cards(" ".join(r + "H" for r in C.RANKS)) | cards("QS")
    assert heartburn_scores((every_heart, cards("TD"), 0, 0)) == (26, 0, 0, 0)


def test_the_lowest_club_in_a_hand_leads_it():
    hands = (cards("5C 9C AH"), cards("3C KS"), cards("4D 4C"))
    assert first_leader(hands) == 1
    st = state(["5C 9C AH", "3C KS", "4D 4C"], hearts=True, leader=1, first=True)
    assert legal(st) == ["3C"]
    with_ace = state(["AC 2C"], hearts=True, first=True)
    assert legal(with_ace) == ["2C"]  # the Ace is the highest club


def test_no_points_on_the_first_trick_unless_the_hand_has_nothing_else():
    st = state(["2C 5D", "QS 4H 9D", "4H TD"], ["", "", "8H"], hearts=True, first=True)
    st = st.play(Play(C.parse_card("2C")))
    assert legal(st) == ["9D"]  # void in clubs: not the Q♠ nor a heart from the hand
    st = st.play(Play(C.parse_card("9D")))
    assert legal(st) == ["4H", "8H", "TD"]  # only point cards in the hand: they may go; the Hole may always


def test_hearts_are_led_only_once_broken_or_from_the_hole():
    st = state(["4H 5D", "6D 7D"], ["8H", ""], hearts=True)
    assert legal(st) == ["5D", "8H"]  # a Hole card may be led (an unseen heart leads by accident)
    assert legal(state(["4H 5D", "6D 7D"], hearts=True, broken=True)) == ["4H", "5D"]
    assert legal(state(["4H 5H", "6D 7D"], hearts=True)) == ["4H", "5H"]  # nothing but hearts


def test_heartburn_deals_remove_the_texts_cards():
    for n, removed in ((3, "2D"), (5, "2D 2C"), (6, "2C 2S 2D 3D")):
        deal = HEARTBURN.new_deal(7, {"players": n})
        dealt = {c for name in HEARTBURN.piles_for({"players": n}) for c in deal.piles[name]}
        assert not dealt & set(C.parse_cards(removed)) and len(dealt) == 52 - len(removed.split())
        assert all(len(deal.piles[f"hole-{s}"]) == 2 for s in range(1, n + 1))


# -- deals and files -----------------------------------------------------------------------------
@pytest.mark.parametrize("players, hole, hand, out", [(3, 4, 13, 1), (4, 3, 10, 0), (5, 2, 8, 2)])
def test_foresight_seeded_deals(players, hole, hand, out):
    deal = FORESIGHT.new_deal(11, {"players": players})
    assert len(deal.piles["trump"]) == 1 and len(deal.piles.get("out", [])) == out
    for s in range(1, players + 1):
        assert len(deal.piles[f"hole-{s}"]) == hole and len(deal.piles[f"hand-{s}"]) == hand
    FORESIGHT.check_piles(dict(deal.piles), "seeded")


def test_deal_file_errors_name_the_field(tmp_path):
    data = {"game": "foresight", "seed": 1}
    deal = deal_from_data(data)
    bad = {k: C.format_cards(v) for k, v in deal.piles.items()}
    bad["hand-1"] = bad["hand-1"].replace(bad["hand-1"].split()[0], bad["hand-2"].split()[0])
    with pytest.raises(DealError, match="appears twice"):
        deal_from_data({"game": "foresight", **bad})
    with pytest.raises(DealError, match="hand-3"):
        deal_from_data({"game": "foresight", **{k: v for k, v in bad.items() if k != "hand-3"}})
    with pytest.raises(DealError, match="position.leader"):
        deal_from_data({"game": "heartburn", "position": {"hand-1": "2C", "hand-2": "3C", "hand-3": "4C",
                                                          "hand-4": "5C", "leader": 9}})
    with pytest.raises(DealError, match="same number of cards"):
        deal_from_data({"game": "heartburn", "position": {"hand-1": "2C 7C", "hand-2": "3C", "hand-3": "4C",
                                                          "hand-4": "5C"}})


def test_the_old_foresight_alias_of_frozen_novelty_says_what_changed(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text('game = "foresight"\nseed = 3\ndeck = "AS 2S"\n')
    with pytest.raises(DealError, match="frozen-novelty"):
        load_deal(old)
    assert get_game("frozen").name == "frozen-novelty"


# -- the values ----------------------------------------------------------------------------------
def endgames(game, count=6, most=None):
    """Seeded deals played at random to 2 or 3 cards a seat (any number of players; Foresight
    under each trump in turn), to at most ``most`` cards in all if given."""
    out = []
    players = FORESIGHT.options["players"][1] if game is FORESIGHT else HEARTBURN.options["players"][1]
    for seed in range(count):
        n = players[seed % len(players)]
        deal = game.new_deal(seed, {"players": n})
        st = (game.initial_state(deal, trump=seed % 4, exchange=False) if game is FORESIGHT  # every trump suit
              else game.initial_state(deal))
        rng = random.Random(seed)
        keep = n * (2 + seed % 2) + seed % n  # sometimes in the middle of a trick
        keep = keep if most is None else min(keep, most)
        while st.cards_left() > keep:
            st = st.play(rng.choice(st.legal_moves()))
        out.append(st)
    return out


@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_paranoid_values_equal_brute_force_minimax(game):
    for st in endgames(game, most=16):  # brute force on 6 seats of 3 cards and a half trick: 97 s
        solver = ParanoidSolver()
        for seat in range(st.rules.seats):
            assert solver.value(st, seat) == brute(st, seat), f"{game.name}, seat {seat}\n{st}"


@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_the_kernel_equals_the_reference(game):
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    for st in endgames(game, 10):
        fast, plain = KernelParanoid(kernel, Limits()), ParanoidSolver()
        for seat in range(st.rules.seats):
            assert fast.value(st, seat) == plain.value(st, seat), f"{game.name}, seat {seat}\n{st}"
        r = st.rules
        moves = fast.search.legal_moves(r.seats, r.trump, r.hearts, list(st.hands), list(st.holes), st.leader,
                                        list(st.trick), list(st.taken), list(st.tricks), st.broken, st.first)
        assert sorted(moves) == sorted(m.card for m in st.legal_moves())


def middle_games(game, count, per_seat=4):
    """Seeded deals played at random to ``per_seat`` cards a seat, sometimes into a trick (3 to 6
    players; Foresight under each trump and no trump in turn): deeper than endgames(), for the
    kernel's cuts against each other."""
    out = []
    players = FORESIGHT.options["players"][1] if game is FORESIGHT else HEARTBURN.options["players"][1]
    for seed in range(count):
        n = players[seed % len(players)]
        deal = game.new_deal(seed, {"players": n})
        st = (game.initial_state(deal, trump=seed % 5 - 1, exchange=False) if game is FORESIGHT
              else game.initial_state(deal))
        rng = random.Random(seed)
        keep = n * per_seat + (seed % n if seed % 3 == 0 else 0)
        while st.cards_left() > keep:
            st = st.play(rng.choice(st.legal_moves()))
        out.append(st)
    return out


@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_each_of_the_kernels_cuts_leaves_the_values_alone(game):
    """Each cut, bound and ordering of ext/tricks.pyx (Search.features) switched off in turn, and
    all of them: the same values as with all of them, on positions of four cards a seat."""
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    every = kernel.FEATURES_ALL
    settings = {"none": 0, **{f"all but {name}": every & ~bit for name, bit in kernel.FEATURES.items()}}
    for st in middle_games(game, 24):
        full = KernelParanoid(kernel, Limits(memory_mb=32))
        want = [full.value(st, seat) for seat in range(st.rules.seats)]
        for label, features in settings.items():
            solver = KernelParanoid(kernel, Limits(memory_mb=32))
            solver.search.features = features
            got = [solver.value(st, seat) for seat in range(st.rules.seats)]
            assert got == want, f"{game.name}, {label}\n{st}"


def test_search_moves_keep_one_of_each_equivalent_set_and_the_trick_matters():
    st = state(["9S 8S TS 2D", "JS 3D"], trump=H)
    assert sorted(str(m) for m in st.search_moves()) == ["2D", "8S"]  # 8-9-10: one card (the lowest); the 2D
    st2 = state(["9S 3D", "8S TS 2D"], trump=H).play(Play(C.parse_card("9S")))
    assert sorted(str(m) for m in st2.search_moves()) == ["8S", "TS"]  # the 9S in the trick splits them


def test_a_limit_gives_no_value():
    deal = FORESIGHT.new_deal(3)
    st = FORESIGHT.initial_state(deal, exchange=False)
    solver = ParanoidSolver(Limits(max_states=50))
    assert solver.value(st, 0) is None and solver.stop is not None


@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_a_stopped_kernel_search_says_only_what_it_proved(game):
    """A search stopped by its table's size gives no value, but the range its finished tests
    proved (api.proven_range), and the exact value lies in it."""
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    stopped = narrowed = 0
    for st in middle_games(game, 12, per_seat=5):
        exact = KernelParanoid(kernel, Limits(memory_mb=32))
        for seat in range(st.rules.seats):
            want = exact.value(st, seat)
            for states in (30, 300, 3000):
                solver = KernelParanoid(kernel, Limits(memory_mb=32, max_states=states))
                got = solver.value(st, seat)
                low, high = solver.proven
                assert got in (None, want) and (low is None or low <= want) and (high is None or want <= high)
                stopped += got is None
                narrowed += got is None and (low, high) != (None, None)
    assert stopped and narrowed  # the limits did stop searches, and some had proven something


@pytest.mark.parametrize("game", [FORESIGHT, HEARTBURN], ids=["foresight", "heartburn"])
def test_a_first_test_from_the_top_proves_an_upper_bound(game):
    """KernelParanoid.value's probe (the first test of a widened round whose upper bound is weak):
    the value is the same, and a search stopped after it still has an upper bound; the bounds of
    the root alone (no node searched) are proofs too."""
    kernel = game.load_kernel()
    if kernel is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    upper = 0
    for st in middle_games(game, 8, per_seat=5):
        exact = KernelParanoid(kernel, Limits(memory_mb=32))
        for seat in range(st.rules.seats):
            want = exact.value(st, seat)
            low, high = st.seat_bounds(seat) or HEARTBURN_RANGE
            probe = (low + high + 1) // 2
            assert KernelParanoid(kernel, Limits(memory_mb=32)).value(st, seat, probe) == want
            for nodes in (1, 2000):
                solver = KernelParanoid(kernel, Limits(memory_mb=32))
                solver.search.node_limit = nodes
                got = solver.value(st, seat, probe)
                lo, hi = solver.proven
                assert got in (None, want) and (lo is None or lo <= want) and (hi is None or want <= hi)
                upper += got is None and hi is not None
    assert upper


def test_a_table_cell_says_what_is_proven():
    assert [guarantee_text(3), guarantee_text(None), guarantee_text(None, (None, None))] == ["3", "?", "?"]
    assert [guarantee_text(None, (1, None)), guarantee_text(None, (None, 2)), guarantee_text(None, (1, 2))] == \
        [">=1", "<=2", "1..2"]
    assert proven_range(1, 13, (0, 13)) == (1, None) and proven_range(0, 4, (0, 13)) == (None, 4)


@pytest.mark.parametrize("path", sorted((ROOT / "puzzles").glob("*/endgame-*.toml")), ids=lambda p: p.parent.name + "/" + p.stem)
def test_endgame_puzzles(path):
    meta = tomllib.loads(path.read_text())["meta"]
    deal = load_deal(path)
    game = get_game(deal.game)
    st = game.initial_state(deal)
    assert [brute(st, s) for s in range(st.rules.seats)] == meta["values"]
    _lines, data = game.hand_report(deal, st, game.solver(Limits(time_limit=30)))
    assert data["values"] == meta["values"]


# -- hint files and the command line -------------------------------------------------------------
def test_hint_files_value_every_card_and_verify():
    deal = load_deal(ROOT / "puzzles" / "heartburn" / "endgame-1.toml")
    data = build_hand_hints(HEARTBURN, deal, HEARTBURN.solver(Limits(time_limit=30)))
    assert data["verdict"] == "valued" and data["exact"] and data["players"] == 4
    st = HEARTBURN.initial_state(deal)
    for decision in data["decisions"]:
        seat = decision["player"] - 1
        assert seat == st.to_move()
        for m in decision["moves"]:
            assert m["score"] == brute(st.play(parse_trick_move(m["move"])), seat)
        assert next(m for m in decision["moves"] if m["move"] == decision["played"])["best"]
        st = st.play(parse_trick_move(decision["played"]))
    assert verify_hints(HEARTBURN, deal, data).startswith("ok")
    data["line"] = data["line"][:-1]
    with pytest.raises(SolodeckError, match="end of the hand"):
        verify_hints(HEARTBURN, deal, data)


def test_cli_solves_a_position_and_deals_by_players(tmp_path):
    cli = run_cli
    proc = cli("solve", ROOT / "puzzles" / "foresight" / "endgame-2.toml", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["values"] == [5, 5, 6]
    proc = cli("deal", "foresight", "--players", 5, "--seed", 2)
    assert proc.returncode == 0 and "hand-5" in proc.stdout and "players = 5" in proc.stdout
    proc = cli("deal", "syndicate", "--players", 3, "--seed", 2)
    assert proc.returncode == 2 and "players" in proc.stderr


def test_cli_cells_of_stopped_searches_say_what_was_proven(tmp_path):
    """A whole Foresight hand under a tiny table cap (deterministic, unlike a time limit): cells
    are values, `>=k`, `<=k`, `j..k` or `?`, the note explains them, and the JSON's proven ranges
    agree (the root's static bounds are proofs too, so an undecided cell may have both ends)."""
    if FORESIGHT.load_kernel() is None:
        pytest.skip("the kernel is not built (or SOLODECK_NO_EXTENSIONS=1)")
    deal = tmp_path / "deal.toml"
    deal.write_text(run_cli("deal", "foresight", "--seed", 2, check=True).stdout)
    text = run_cli("solve", deal, "--max-states", 3000, check=True).stdout
    assert ">=" in text and "<=" in text and "what it had proven by then" in text
    data = json.loads(run_cli("solve", deal, "--max-states", 3000, "--json", check=True).stdout)
    for name, values in data["table"].items():
        for value, (low, high) in zip(values, data["proven"][name]):
            assert (low, high) == (value, value) if value is not None else low is None or high is None or low < high
    assert any(value is None and low is not None
               for name, values in data["table"].items() for value, (low, _) in zip(values, data["proven"][name]))


class HandTrumps:
    """A stand-in valuer for the table's logic: a seat's value is how many trumps its hand (not its
    Hole) holds; ``unknown`` seats get None, as after a limit."""

    def __init__(self, unknown=()):
        self.unknown = set(unknown)

    def value(self, st, seat):
        if seat in self.unknown:
            return None
        trump = st.rules.trump
        return sum(1 for c in range(53) if st.hands[seat] >> c & 1 and st.rules.effective_suit(c) == trump)


def test_the_foresight_table_and_the_leaders_best_exchange():
    deal = FORESIGHT.new_deal(5)
    lines, data = FORESIGHT.hand_report(deal, FORESIGHT.initial_state(deal), HandTrumps())
    dealt = data["trump"]
    assert list(data["table"])[0] == dealt and len(data["table"]) == 4 + (dealt == "NT")
    assert any(line.lstrip().startswith("1 ") for line in lines)
    leader = deal.options["leader"] - 1
    best = data["exchange"]
    hole_trumps = sum(1 for c in deal.piles["hole-1"] if C.suit_of(c) == dealt or c == C.JOKER)
    # taking a Hole trump into the hand for a card that is not one raises the count by one, if it can
    assert best["value"] == data["table"][dealt][leader] + (1 if hole_trumps and dealt != "NT" else 0)
    assert best["after"][leader] == best["value"]
    _lines, data = FORESIGHT.hand_report(deal, FORESIGHT.initial_state(deal), HandTrumps(unknown={2}))
    assert data["table"][dealt][2] is None and data["exchange"] is None


@pytest.mark.skipif(FORESIGHT.load_kernel() is None, reason="the trick kernel is not built")
def test_a_table_under_a_command_limit_is_widened_in_rounds(tmp_path):
    """Under a whole-command deadline the searches of a table are widened in rounds of node
    budgets: each finishes with the value a plain search gives (the rounds only share the time),
    and a short limit still leaves proven values or ranges rather than a blank table."""
    import time

    deal = FORESIGHT.new_deal(3, {"players": 4})
    state = FORESIGHT.initial_state(deal, exchange=False)
    for _ in range(16):  # four tricks in: every search small
        state = state.play(state.legal_moves()[0])
    searches = [(state, seat) for seat in range(4)]
    plain = [KernelParanoid(FORESIGHT.load_kernel(), Limits(60)).value(st, seat) for st, seat in searches]
    widened = KernelParanoid(FORESIGHT.load_kernel(), Limits(60, deadline=time.perf_counter() + 60)).widen(searches)
    assert [v for v, _proven, _stop, _nodes in widened] == plain
    assert all(proven == (v, v) for v, proven, _stop, _nodes in widened)
    path = tmp_path / "deal.toml"
    path.write_text(deal_to_toml(deal, FORESIGHT))
    out = json.loads(run_cli("solve", path, "--json", "--time-limit", "3", check=True).stdout)
    cells = [(v, r) for column in out["table"] for v, r in zip(out["table"][column], out["proven"][column])]
    assert any(v is not None or r != [None, None] for v, r in cells)
