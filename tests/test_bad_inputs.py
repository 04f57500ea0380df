"""Every bad input, for every game and every command, is one line naming the file or option and
what was expected, exit status 2: never a traceback. Run in-process (main(argv)): an exception
that escapes main is the traceback a user would have seen."""
import os
import pytest

from solodeck.cli import main
from solodeck.deals import deal_to_toml
from solodeck.registry import GAMES

GAME_NAMES = sorted(GAMES)


def run(argv, capsys):
    """(exit status, stderr) of `solodeck ARGV`."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse's errors
        code = exc.code
    return code, capsys.readouterr().err


def refused(argv, capsys, *expect):
    code, err = run(argv, capsys)
    assert code == 2, f"solodeck {' '.join(map(str, argv))}: exit {code}, stderr {err!r}"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solodeck"), err
    for text in expect:
        assert text in err, f"{text!r} not in {err!r}"
    return err


@pytest.fixture
def files(tmp_path):
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(os.urandom(64) + b"\xff\xfe")
    folder = tmp_path / "folder"
    folder.mkdir()
    existing = tmp_path / "existing.toml"
    existing.write_text("x")
    return tmp_path, garbage, folder, existing


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_command_refuses_bad_input_in_one_line(name, files, capsys):
    tmp, garbage, folder, existing = files
    game = GAMES[name]
    deal = tmp / f"{name}.toml"
    deal.write_text(deal_to_toml(game.new_deal(0), game))
    # solve: output files that cannot be written, and numbers that are not numbers
    refused(["solve", deal, "--hints", tmp / "no" / "such" / "h.json"], capsys, "--hints", "does not exist")
    refused(["solve", deal, "--hints", folder], capsys, "--hints", "is a folder")
    for option, value in (("--time-limit", "nan"), ("--time-limit", "abc"), ("--time-limit", "-1"),
                          ("--time-limit", "inf"), ("--memory", "0"), ("--max-states", "1.5")):
        err = refused(["solve", deal, option, value], capsys, option, "expected")
        assert "_" not in err.split("expected")[0].split(option)[1]  # no internal function name
    refused(["solve", deal, "--memory", "0"], capsys, "megabytes")
    # deal, play, analyze: seeds and counts
    refused(["deal", name, "--seed", "abc"], capsys, "--seed", "a whole number")
    refused(["deal", name, "--seed", "-1"], capsys, "--seed")
    refused(["deal", name, "--seed", 0, "--option", "nonsense"], capsys, "--option")
    refused(["play", name, "--seed", "x"], capsys, "--seed")
    refused(["analyze", name, "--deals", "abc"], capsys, "--deals")
    refused(["analyze", name, "--deals", 2, "--time-limit", "nan"], capsys, "--time-limit")
    refused(["analyze", name, "--deals", 2, "--out", existing, "--quiet"], capsys)
    # compare: seeds, the two policies, the rows file
    for seeds in ("abc", "5-3", "-1", "1-x", "1-2-3"):
        refused(["compare", name, "--policy", "blind", "--policy", "baseline", "--seeds", seeds], capsys, "--seeds")
    refused(["compare", name, "--policy", "blind", "--seeds", "1-2"], capsys, "--policy")
    refused(["compare", name, "--policy", "blind", "--policy", "nonsense", "--seeds", "1-2"], capsys)
    refused(["compare", name, "--policy", "blind", "--policy", "rule", "--seeds", "1", "--option", "x"], capsys,
            "--option")
    refused(["compare", name, "--policy", "blind", "--policy", "rule", "--seeds", "1", "--out", folder], capsys)
    refused(["compare", name, "--policy", "blind", "--policy", "rule", "--seeds", "1", "--out", existing], capsys)
    # verify and view: files that are not hint files
    for bad in (garbage, folder, tmp / "missing.json"):
        refused(["verify", deal, bad], capsys, str(bad))
        refused(["view", bad], capsys, str(bad))
    # rules: the source is cited by title, not by a path outside this repository
    code, _err = run(["rules", name], capsys)
    assert code == 0
    # capsys.readouterr in run() took stdout too: read the page again
    main(["rules", name])
    assert "shared/" not in capsys.readouterr().out


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_hint_file_is_one_line(files, capsys):
    tmp, _garbage, _folder, _existing = files
    locked = tmp / "locked.json"
    locked.write_text("{}")
    locked.chmod(0)
    deal = tmp / "d.toml"
    deal.write_text(deal_to_toml(GAMES["syndicate"].new_deal(0), GAMES["syndicate"]))
    refused(["verify", deal, locked], capsys, "cannot be read")
    refused(["view", locked], capsys, "cannot be read")


def test_resuming_a_damaged_run_is_one_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert run(["analyze", "syndicate", "--deals", 2, "--out", out, "--quiet", "--jobs", 1], capsys)[0] == 0
    csv = out / "deals.csv"
    good = csv.read_text()
    csv.write_text(good + "xx,open,winnable\n")
    refused(["analyze", "syndicate", "--deals", 3, "--out", out, "--resume", "--jobs", 1], capsys,
            "deals.csv, line 4", "seed 'xx'")
    csv.write_text("a,b,c\n" + good.split("\n", 1)[1])
    refused(["analyze", "syndicate", "--deals", 3, "--out", out, "--resume", "--jobs", 1], capsys,
            "deals.csv, line 1", "header")
    (out / "run.json").unlink()
    refused(["analyze", "syndicate", "--deals", 3, "--out", out, "--resume", "--jobs", 1], capsys,
            "run.json", "missing")


def test_a_bad_foursquare_hand_names_its_field(tmp_path, capsys):
    deal = tmp_path / "f.toml"
    deal.write_text('game = "foursquare"\n[position]\npiles = ["0,0: 5/1"]\ndeck = "2 3 4"\nhand = "Z"\n')
    refused(["solve", deal], capsys, "position.hand")
