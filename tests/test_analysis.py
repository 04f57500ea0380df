"""`solodeck analyze` (solodeck/analysis.py): rows, resume after a kill, the engines agree, summary."""
import csv
import json
import signal
import subprocess
import sys
import time

import pytest

from solodeck.api import advance_chance
from solodeck.ext import load
from solodeck.registry import get_game
from solodeck.analysis import Settings, analyze, read_rows, solve_deal, summarize
from solodeck.solvers.blind import BlindPolicy
from solodeck.solvers.stats import wilson_interval


def _results(summary):
    """The part of a summary that must not depend on how the run went (timing does)."""
    return {k: v for k, v in summary.items() if k not in ("timing", "command")}


def _without_seconds(rows):
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in rows),
                  key=lambda r: (r["seed"], r["mode"]))


def test_a_row_is_the_solver_answer():
    row = solve_deal(Settings("syndicate", ["open"]), 4, "open")
    assert row["seed"] == 4 and row["mode"] == "open"
    assert (row["verdict"], row["exact"], row["score"]) == ("winnable", True, 0)  # puzzles/syndicate/seed-4.toml
    assert row["states"] > 0 and row["seconds"] >= 0


# The kill: a subprocess runs `analyze` with each deal slowed down (the test wraps solve_deal, the
# product has no such knob), is killed with SIGKILL once some rows are written, then resumed.
SLOW_RUN = """
import sys, time
import solodeck.analysis as analysis
real = analysis.solve_deal
def slow(*args):
    time.sleep(0.05)
    return real(*args)
analysis.solve_deal = slow
from solodeck.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_killed_run_resumes_and_counts_every_deal_once(tmp_path, cli):
    deals = 40
    args = ["analyze", "syndicate", "--deals", deals, "--jobs", "1", "--quiet"]
    killed = tmp_path / "killed" / "syndicate"
    proc = subprocess.Popen([sys.executable, "-c", SLOW_RUN, *map(str, args), "--out", str(killed)])
    deadline = time.time() + 120
    while time.time() < deadline:
        if (killed / "deals.csv").exists() and len(read_rows(killed / "deals.csv")) >= 10:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    interrupted = read_rows(killed / "deals.csv")
    assert 10 <= len(interrupted) < deals, "the run was not stopped midway"
    assert not (killed / "summary.json").exists()

    again = cli(*args, "--out", killed)
    assert again.returncode == 2 and "--resume" in again.stderr  # never silently starts over
    cli(*args, "--out", killed, "--resume", check=True)
    whole = tmp_path / "whole" / "syndicate"
    cli(*args, "--out", whole, check=True)

    rows = read_rows(killed / "deals.csv")
    assert sorted(r["seed"] for r in rows) == list(range(deals))  # each seed exactly once
    assert _without_seconds(rows) == _without_seconds(read_rows(whole / "deals.csv"))
    summaries = [json.loads((d / "summary.json").read_text()) for d in (killed, whole)]
    assert _results(summaries[0]) == _results(summaries[1])
    assert summaries[0]["command"].startswith("solodeck analyze syndicate")
    assert (killed / "plots.png").stat().st_size > 0
    assert not (tmp_path / "killed" / "README.md").exists()  # analyze writes only inside --out
    cli("report", tmp_path / "killed", check=True)  # the cross-game table, asked for
    assert "Syndicate" in (tmp_path / "killed" / "README.md").read_text()


def test_a_torn_last_line_is_dropped(tmp_path):
    settings = Settings("syndicate", ["open"])
    analyze(settings, range(5), tmp_path, progress=False)
    path = tmp_path / "deals.csv"
    path.write_text(path.read_text() + "5,open,winn")  # killed in the middle of a write
    summary = analyze(settings, range(8), tmp_path, resume=True, progress=False)
    assert sorted(r["seed"] for r in read_rows(path)) == list(range(8))
    assert summary["modes"]["open"]["deals"] == 8


def test_a_resumed_run_must_keep_its_settings(tmp_path, cli):
    cli("analyze", "syndicate", "--deals", 3, "--out", tmp_path, "--quiet", check=True)
    proc = cli("analyze", "syndicate", "--deals", 5, "--out", tmp_path, "--resume", "--time-limit", 3)
    assert proc.returncode == 2 and "time_limit" in proc.stderr and "Traceback" not in proc.stderr


def test_the_local_pool_gives_the_same_rows(tmp_path):
    settings = Settings("syndicate", ["open"])
    one = analyze(settings, range(30), tmp_path / "one", jobs=1, progress=False)
    two = analyze(settings, range(30), tmp_path / "two", jobs=2, progress=False)
    assert _results(one) == _results(two)
    assert _without_seconds(read_rows(tmp_path / "one" / "deals.csv")) == \
        _without_seconds(read_rows(tmp_path / "two" / "deals.csv"))


def test_a_dask_local_cluster_gives_the_same_rows(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    settings = Settings("syndicate", ["open"])
    seeds = range(20)
    local = analyze(settings, seeds, tmp_path / "local", progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = analyze(settings, seeds, tmp_path / "dask", scheduler=cluster.scheduler_address,
                         progress=False, batch=2)
    assert _results(local) == _results(remote)
    assert _without_seconds(read_rows(tmp_path / "local" / "deals.csv")) == \
        _without_seconds(read_rows(tmp_path / "dask" / "deals.csv"))


@pytest.mark.skipif(load("foursquare") is None, reason="kernel not built or SOLODECK_NO_EXTENSIONS=1")
def test_blind_rows_are_the_blind_policy_playing_the_deal(tmp_path):
    summary = analyze(Settings("foursquare", ["open", "blind"], samples=8), range(2), tmp_path, progress=False)
    for row in read_rows(tmp_path / "deals.csv"):
        if row["mode"] == "blind":
            game = get_game("foursquare")
            state = advance_chance(game.initial_state(game.new_deal(row["seed"])))
            chooser = BlindPolicy(game, 8)
            while state.outcome() is None:
                state = advance_chance(state.play(chooser(state)))
            assert row["verdict"] == ("won" if state.outcome().won else "lost")
            assert 0 <= row["win_probability"] <= 1
    assert set(summary["modes"]) == {"open", "blind"} and "cost_of_blindness" in summary


def test_summary_counts_unknowns_both_ways():
    rows = [{"seed": s, "mode": "open", "verdict": v, "exact": v != "unknown", "score": 0 if v == "winnable" else None,
             "win_probability": None, "states": s, "seconds": 0.1 * s, "engine": "dfs"}
            for s, v in enumerate(["winnable"] * 6 + ["unwinnable"] * 2 + ["unknown"] * 2)]
    summary = summarize(rows, Settings("syndicate", ["open"]), range(10))
    m = summary["modes"]["open"]
    assert (m["wins"], m["losses"], m["unknown"], m["win_rate"]) == (6, 2, 2, 0.6)
    assert m["interval"] == [wilson_interval(6, 10)[0], wilson_interval(8, 10)[1]]
    assert m["scores"] == {"0": 6}
    assert [h["seed"] for h in m["hardest"]] == [9, 8, 7, 6, 5]
    assert summary["timing"]["open"]["max"] == pytest.approx(0.9)


def test_bad_requests_are_one_line_errors(tmp_path, cli):
    proc = cli("analyze", "syndicate", "--deals", 2, "--mode", "blind", "--out", tmp_path)
    assert proc.returncode == 2 and "blind" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("analyze", "no-such-game", "--deals", 2, "--out", tmp_path)
    assert proc.returncode == 2 and "unknown game" in proc.stderr
    proc = cli("analyze", "syndicate", "--deals", 0)
    assert proc.returncode == 2
    proc = cli("analyze", "syndicate", "--deals", 2, "--option", "colour=red", "--out", tmp_path)
    assert proc.returncode == 2 and "colour" in proc.stderr and "Traceback" not in proc.stderr


def test_the_csv_has_the_documented_columns(tmp_path):
    analyze(Settings("syndicate", ["open"]), range(2), tmp_path, progress=False)
    with (tmp_path / "deals.csv").open() as f:
        header = next(csv.reader(f))
    assert header == ["seed", "mode", "verdict", "exact", "score", "win_probability", "states", "seconds", "engine",
                      "score_bound"]


def test_redo_solves_again_only_what_a_limit_left_open(tmp_path, cli):
    """An old-format file (no score_bound column) whose seed 1 a limit left unknown: the redo, with
    a larger time limit, solves seed 1 again, keeps seed 0's row as it was, and writes the file in
    the current format. A smaller limit is refused."""
    analyze(Settings("syndicate", ["open"], time_limit=10.0), range(2), tmp_path, progress=False)
    rows = list(csv.DictReader((tmp_path / "deals.csv").open()))
    assert all(r["exact"] == "True" for r in rows)
    rows[1].update(verdict="unknown", exact="False", score="", seconds="10.0")
    old_columns = [c for c in rows[0] if c != "score_bound"]
    (tmp_path / "deals.csv").write_text(",".join(old_columns) + "\n" + "".join(
        ",".join(r[c] for c in old_columns) + "\n" for r in rows))
    proc = cli("analyze", "syndicate", "--deals", 2, "--out", tmp_path, "--redo", "unknown", "--time-limit", 5, "--quiet")
    assert proc.returncode == 2 and "time_limit" in proc.stderr
    proc = cli("analyze", "syndicate", "--deals", 2, "--out", tmp_path, "--redo", "unknown", "--time-limit", 20, "--quiet")
    assert proc.returncode == 0, proc.stderr
    again = list(csv.DictReader((tmp_path / "deals.csv").open()))
    assert [r["seed"] for r in again] == ["0", "1"] and again[0] == {**rows[0], "score_bound": ""}
    assert again[1]["exact"] == "True" and again[1]["verdict"] == "winnable" and again[1]["seconds"] != "10.0"
    assert json.loads((tmp_path / "run.json").read_text())["time_limit"] == 20


def test_the_cross_game_table_marks_the_open_rate_of_games_that_reshuffle():
    """results/README.md: † beside the open rate where the clairvoyant steers later reshuffles."""
    from solodeck.report import RESHUFFLE_MARK, cross_game_table

    summary = {"deals": 10, "modes": {"open": {"win_rate": 0.5, "interval": [0.2, 0.8], "unknown": 0}}}
    skyway, syndicate = cross_game_table([(get_game("skyway"), summary),
                                          (get_game("syndicate"), summary)]).splitlines()[2:]
    assert f"| 50.0%{RESHUFFLE_MARK} (20.0%–80.0%) |" in skyway
    assert RESHUFFLE_MARK not in syndicate and "| 50.0% (20.0%–80.0%) |" in syndicate


def _children(pid: int) -> set:
    """The pids whose parent is ``pid`` (Linux /proc)."""
    from pathlib import Path

    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    from pathlib import Path

    try:  # a zombie has ended: it only waits for its (gone) parent to read its status
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_workers_end_when_analyze_is_killed(tmp_path):
    """kill -9 of `analyze --jobs 2` once left both workers running, orphaned, for over a minute."""
    proc = subprocess.Popen([sys.executable, "-c", SLOW_RUN, "analyze", "syndicate", "--deals", "400",
                             "--jobs", "2", "--quiet", "--out", str(tmp_path / "run")])
    deadline = time.time() + 60
    while time.time() < deadline and len(_children(proc.pid)) < 2:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert len(workers) >= 2, "the pool did not start"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a worker outlived analyze"
