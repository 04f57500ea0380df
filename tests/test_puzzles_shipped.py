"""The puzzles ship with the package: `solodeck puzzles [GAME]` lists them, `puzzle:GAME/NAME` names
one wherever a deal file is read (from any folder), and a wrong name is one line that says what
exists, never a traceback. tests/test_puzzles.py checks each puzzle's answer."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from solodeck.deals import load_deal, puzzle_names, puzzle_path, puzzles_dir
from solodeck.errors import DealError

from conftest import PUZZLES, ROOT


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "solodeck", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_every_puzzle_file_is_shipped_and_named():
    files = sorted(f"{p.parent.name}/{p.stem}" for p in PUZZLES.glob("*/*.toml"))
    assert files and puzzle_names() == files
    # in a checkout (an editable install) the package reads puzzles/ itself; installed, its copy
    assert puzzles_dir().is_dir()
    for name in files:
        assert puzzle_path(name).read_bytes() == (PUZZLES / f"{name}.toml").read_bytes()


def test_the_build_ships_them():
    """setup.py copies puzzles/<game>/*.toml into the package (as it does the rules pages and the
    viewer), and MANIFEST.in puts them into a source distribution."""
    setup = (ROOT / "setup.py").read_text()
    assert re.search(r'glob\.glob\(os\.path\.join\("puzzles", "\*", "\*\.toml"\)\)', setup)
    assert '"solodeck", "puzzles"' in setup
    assert "recursive-include puzzles *.toml" in (ROOT / "MANIFEST.in").read_text()


def test_puzzle_form_loads_the_same_deal():
    deal = load_deal("puzzle:syndicate/demo")
    assert deal.source == "puzzle:syndicate/demo"
    assert deal.piles == load_deal(PUZZLES / "syndicate" / "demo.toml").piles
    # an alias for the game, and the file's suffix, are accepted
    assert load_deal("puzzle:synd/demo.toml").piles == deal.piles


@pytest.mark.parametrize("name, expected", [
    ("puzzle:", "expected puzzle:GAME/NAME"),
    ("puzzle:syndicate", "expected puzzle:GAME/NAME"),
    ("puzzle:syndicate/", "expected puzzle:GAME/NAME"),
    ("puzzle:/demo", "expected puzzle:GAME/NAME"),
    ("puzzle:nosuchgame/demo", "unknown game 'nosuchgame'"),
    ("puzzle:syndicate/nosuch", "no puzzle named 'nosuch' for syndicate; expected one of: dead-end, demo,"),
    ("puzzle:syndicate/../../setup", "expected puzzle:GAME/NAME"),
    ("puzzle:syndicate/..", "no puzzle named '..'"),
    ("puzzle:syndicate/*", "no puzzle named '*'"),
])
def test_a_wrong_name_says_what_exists(name, expected):
    with pytest.raises(DealError) as caught:
        load_deal(name)
    assert str(caught.value).startswith(name + ": ") and expected in str(caught.value)


def test_solve_and_verify_take_a_puzzle_from_any_folder(tmp_path):
    solved = cli("solve", "puzzle:syndicate/forced-two", "--hints", "h.json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert "Syndicate: puzzle:syndicate/forced-two" in solved.stdout and "sacrifices: 2 (proven best)" in solved.stdout
    verified = cli("verify", "puzzle:syndicate/forced-two", "h.json", cwd=tmp_path)
    assert verified.returncode == 0 and verified.stdout.startswith("ok"), verified.stdout + verified.stderr


@pytest.mark.parametrize("args", [["solve", "puzzle:nosuch/x"], ["solve", "puzzle:syndicate/x"], ["solve", "puzzle:"],
                                  ["verify", "puzzle:syndicate/x", "h.json"], ["puzzles", "nosuch"],
                                  ["puzzles", "syndicate/x"], ["puzzles", "a/b/c"]])
def test_bad_names_on_the_command_line_are_one_line(tmp_path, args):
    proc = cli(*args, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("solodeck: error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr


def test_puzzles_lists_them_with_their_answers(tmp_path):
    every = cli("puzzles", cwd=tmp_path)
    assert every.returncode == 0
    listed = [line.split()[0] for line in every.stdout.splitlines()]
    assert listed == [f"puzzle:{name}" for name in puzzle_names()]
    one = cli("puzzles", "synd", cwd=tmp_path)
    lines = one.stdout.splitlines()
    assert one.returncode == 0 and len(lines) == len(puzzle_names("syndicate"))
    assert re.match(r"puzzle:syndicate/forced-two +winnable, 2 +Two sacrifices are the price of a win$",
                    next(line for line in lines if "forced-two" in line))
    assert any(re.search(r"winnable, 1 \(slow\)", line) for line in lines)  # a slow one says so
    trick = cli("puzzles", "foresight", cwd=tmp_path)
    assert "values [" in trick.stdout  # several players: each seat's guarantee


def test_puzzles_prints_one_file_to_edit(tmp_path):
    proc = cli("puzzles", "syndicate/demo", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == (PUZZLES / "syndicate" / "demo.toml").read_text(encoding="utf-8")
