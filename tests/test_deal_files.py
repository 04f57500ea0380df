"""Deal files: good ones load, bad ones give one clear line and exit status 2."""
import json

import pytest

from solodeck.deals import deal_to_toml, load_deal
from solodeck.errors import DealError
from solodeck.registry import get_game

GAME = get_game("syndicate")
DECK = "9S 3C 5S 6C 2H 8D 9D 9C 3S 9H 3H AH 3D 6D 5H 4C 7C 4D TD 8C 4H 7S AD 2D 5C 8H 5D TC 7D 2S 8S 4S 6S TS AC 2C 7H TH AS 6H"


def write(tmp_path, text, name="deal.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_seed_only_equals_explicit_deck(tmp_path):
    by_seed = load_deal(write(tmp_path, 'game = "syndicate"\nseed = 0\n'))
    explicit = load_deal(write(tmp_path, f'game = "synd"\ndeck = "{DECK}"\n', "b.toml"))
    assert by_seed.piles == explicit.piles and explicit.game == "syndicate"


def test_json_is_accepted(tmp_path):
    deal = load_deal(write(tmp_path, json.dumps({"game": "syndicate", "deck": DECK}), "deal.json"))
    assert len(deal.piles["deck"]) == 40


def test_deal_file_round_trip(tmp_path):
    deal = GAME.new_deal(31)
    again = load_deal(write(tmp_path, deal_to_toml(deal, GAME)))
    assert again.piles == deal.piles and again.seed == 31


BAD = [
    ("missing", None, "no such file"),
    ("bad toml", 'game = "syndicate"\ndeck = "AS 2S\n', "not valid TOML"),
    ("bad json", '{"game": "syndicate",', "not valid JSON"),
    ("unknown card", f'game = "syndicate"\ndeck = "{DECK.replace("9H", "9X")}"\n', "card 10: '9X' is not a card"),
    ("duplicated card", f'game = "syndicate"\ndeck = "{DECK.replace("6H", "9S")}"\n', "card 40 '9S' appears twice (first as card 1)"),
    ("39 cards", f'game = "syndicate"\ndeck = "{DECK[:-3]}"\n', "expected 40 cards, found 39 (missing: 6H)"),
    ("face card", f'game = "syndicate"\ndeck = "{DECK.replace("6H", "KH")}"\n', "'KH' does not belong in this pile"),
    ("unknown game", 'game = "klondike"\nseed = 1\n', "unknown game 'klondike'"),
    ("no game", 'seed = 1\n', "field 'game': missing"),
    ("unknown field", 'game = "syndicate"\nseed = 1\ndecks = "AS"\n', "field 'decks': unknown field"),
    ("unknown option", 'game = "syndicate"\nseed = 1\n[options]\nfast = true\n', "field 'options.fast': unknown option"),
    ("bad seed", 'game = "syndicate"\nseed = -4\n', "field 'seed': expected a whole number"),
    ("no deck no seed", 'game = "syndicate"\n', "field 'deck': missing"),
    ("bad position", 'game = "syndicate"\n[position]\nrank1 = { members = "A 2 3 4" }\n', "at most 3 members"),
    ("bad position value", 'game = "syndicate"\n[position]\nrank2 = { members = "A Q" }\n', "'Q' is not a value"),
]


@pytest.mark.parametrize("label, text, message", BAD, ids=[b[0] for b in BAD])
def test_bad_deal_files(tmp_path, cli, label, text, message):
    suffix = ".json" if "json" in label else ".toml"
    path = tmp_path / f"deal{suffix}" if text is None else write(tmp_path, text, f"deal{suffix}")
    with pytest.raises(DealError, match=None) as err:
        load_deal(path)
    assert message in str(err.value) and str(path) in str(err.value)
    proc = cli("solve", path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr
    assert proc.stdout == ""
