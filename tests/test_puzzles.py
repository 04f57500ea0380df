"""Every deal file in puzzles/<game>/ is solved and must give its recorded answer ([meta])."""
import tomllib

import pytest

from solodeck.deals import load_deal
from solodeck.registry import GAMES, get_game
from solodeck.solvers import Limits, solve_open

from conftest import PUZZLES


def _puzzles(slow):
    for path in sorted(PUZZLES.glob("*/*.toml")):
        meta = tomllib.loads(path.read_text()).get("meta", {})
        if bool(meta.get("slow")) == slow:
            yield pytest.param(path, meta, id=f"{path.parent.name}/{path.stem}")


def _check_puzzle(path, meta):
    deal = load_deal(path)
    game = get_game(deal.game)
    if game.several_players:  # what each seat can guarantee (tests/test_trick_games.py, test_bourbon.py)
        _lines, data = game.hand_report(deal, game.initial_state(deal), game.solver(Limits(time_limit=600)))
        key = "values" if "values" in meta else "value"  # every seat's; Bourbon: seat 0's net (zero-sum)
        assert data[key] == meta[key]
        return
    result = solve_open(game, game.initial_state(deal), Limits(time_limit=600))
    assert result.exact, f"{path.name}: not decided"
    assert result.verdict == meta["verdict"]
    if "score" in meta:
        assert result.score == meta["score"]
    if result.verdict == "winnable":
        assert game.replay_moves(game.initial_state(deal), result.line).outcome().won


@pytest.mark.parametrize("path, meta", list(_puzzles(slow=False)))
def test_puzzles_with_known_answers(path, meta):
    _check_puzzle(path, meta)


@pytest.mark.slow
@pytest.mark.parametrize("path, meta", list(_puzzles(slow=True)))
def test_slow_puzzles_with_known_answers(path, meta):
    _check_puzzle(path, meta)


@pytest.mark.parametrize("game", [g.name for g in GAMES.values() if not g.several_players])
def test_puzzles_cover_both_directions(game):
    """Every game has puzzles/<game>/ deals with known answers both ways (fast ones)."""
    verdicts = [p.values[1]["verdict"] for p in _puzzles(False) if p.values[0].parent.name == game]
    assert verdicts.count("winnable") >= 3 and verdicts.count("unwinnable") >= 2
