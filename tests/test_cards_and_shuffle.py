import pytest

from solodeck import cards as C
from solodeck.shuffle import SplitMix64, shuffled
from solodeck.registry import get_game


def test_parse_and_format_round_trip_every_card():
    for card in C.standard_deck(jokers=1):
        assert C.parse_card(C.format_card(card)) == card


@pytest.mark.parametrize("text, expected", [("10h", "TH"), ("T♦", "TD"), ("as", "AS"), ("JK", "JK"),
                                            ("q♣", "QC"), ("9♠", "9S")])
def test_input_aliases(text, expected):
    assert C.format_card(C.parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["1S", "ZZ", "S", "11H", "AX", ""])
def test_bad_cards_are_refused_with_a_reason(bad):
    with pytest.raises(ValueError, match="not a card"):
        C.parse_card(bad)


def test_colours_and_values():
    assert C.is_red(C.parse_card("5H")) and C.is_red(C.parse_card("KD"))
    assert not C.is_red(C.parse_card("5S")) and not C.is_red(C.parse_card("AC"))
    assert [C.rank_of(C.parse_card(t)) for t in ("AS", "TD", "JH", "KC")] == [1, 10, 11, 13]


def test_splitmix64_reference_vector():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_shuffle_vectors_from_docs():
    assert shuffled(range(10), 1) == [4, 2, 8, 1, 9, 3, 0, 6, 7, 5]
    deck = C.format_cards(get_game("syndicate").new_deal(0).piles["deck"]).split()
    assert deck[:10] == "9S 3C 5S 6C 2H 8D 9D 9C 3S 9H".split()
    assert deck[-6:] == "AC 2C 7H TH AS 6H".split()


def test_streams_differ_and_shuffle_is_a_permutation():
    a, b = shuffled(range(52), 7, 0), shuffled(range(52), 7, 1)
    assert a != b and sorted(a) == sorted(b) == list(range(52))


def test_below_is_unbiased_enough():
    rng = SplitMix64(123)
    counts = [0] * 3
    for _ in range(30000):
        counts[rng.below(3)] += 1
    assert all(abs(c - 10000) < 400 for c in counts)  # ~4 standard deviations
