"""README.md as a newcomer reads it: short, the quick start first, every example run from a folder
outside the checkout (with the package's own puzzles, `puzzle:GAME/NAME`), every sample output
still what the command prints, every link and puzzle name alive, no issue numbers. Also the
documents the README sends readers to (docs/games.md, performance.md, analysis.md, development.md)."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solodeck.deals import puzzle_path
from solodeck.registry import GAMES

from conftest import ROOT

README = ROOT / "README.md"
MOVED_DOCS = [ROOT / "docs" / name for name in ("games.md", "performance.md", "analysis.md", "development.md")]


def readme() -> str:
    return README.read_text(encoding="utf-8")


def blocks(text: str, language: str) -> list:
    """The fenced blocks of a language, as lists of lines."""
    return [block.splitlines() for block in re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)]


def commands(block: list) -> list:
    """The commands of a ```sh block, comments removed."""
    return [re.split(r"\s+#\s", line, maxsplit=1)[0].strip() for line in block if line.strip()]


def examples() -> list:
    """The commands of the Examples section's first ```sh block (bench/readme_examples.py reads the same)."""
    section = readme().split("## Examples", 1)[1].split("\n## ", 1)[0]
    return commands(blocks(section, "sh")[0])


def quick_start() -> list:
    section = readme().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return commands(blocks(section, "sh")[0])


# -- the shape ---------------------------------------------------------------------------------------

def test_short_with_the_quick_start_first():
    lines = readme().splitlines()
    assert len(lines) < 250, f"README.md has {len(lines)} lines (target: under 250)"
    head = "\n".join(lines[:40])
    assert "## Quick start" in head
    for command in quick_start():
        assert command in head, f"the quick start's {command!r} is not within the first 40 lines"


def test_quick_start_is_two_commands_and_the_second_is_what_ci_runs():
    first, second = quick_start()  # exactly two
    ci = (ROOT / ".ci" / "run").read_text().split("# README, quick start, second command:\n", 1)[1].splitlines()[0]
    assert second == ci.strip()
    install, _, run = first.partition(" && ")
    assert install == "python3 -m pip install -e ." and run.startswith("solodeck solve puzzle:")


def test_no_issue_numbers_in_user_facing_text():
    for path in [README, *MOVED_DOCS, ROOT / "results" / "README.md"]:
        found = re.findall(r"\bissues? #?\d+", path.read_text(encoding="utf-8"), flags=re.I)
        assert not found, f"{path.relative_to(ROOT)}: {found}"


def test_rules_pages_cite_no_missing_file():
    """The project's rulings are restated on each rules page; no page sends readers to a file the
    repository does not have."""
    for page in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert "RULINGS.md" not in text, f"{page.name} cites RULINGS.md"
        for name in re.findall(r"`([\w./-]+\.md)`", text):
            assert (ROOT / name).exists() or (page.parent / name).exists(), f"{page.name} cites {name}"


@pytest.mark.parametrize("path", [README, *MOVED_DOCS], ids=lambda p: p.name)
def test_links_and_puzzle_names_resolve(path):
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (path.parent / target).exists(), f"{path.relative_to(ROOT)}: a link to {target} leads nowhere"
    for name in set(re.findall(r"puzzle:([a-z0-9-]+/[a-z0-9-]+)", text)):
        assert puzzle_path(name).is_file()


def test_counts_the_readme_states():
    text = readme()
    assert f"{len(GAMES)} games" in text
    kernels = len(list((ROOT / "ext").glob("*.pyx")))
    assert f"{kernels} Cython kernels" in text


def test_every_measured_figure_moved_is_still_somewhere():
    """The figures the README used to carry live in docs/performance.md, docs/games.md and
    results/README.md: a sample of them, one a game, with the machine they were measured on."""
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    for figure in ["2 cores, 24 GiB, x86_64, Python 3.11.7, gcc 12", "median 0.6 ms, p95 1.2 ms",
                   "98.7% (987 wins, 13 undecided at 5 s)", "88.5% | 86.4%–90.3%", "347 k games/s",
                   "| very-hard | 99.5% (98.8%–100.0%, 5 undecided)", "12 of 12 proven within 1 s",
                   "93.6% of deals within 0.5 s", "median 0.72 s a deal", "about 195 k nodes/s",
                   "301, 302, 208 and 205 of 1,000", "12.51% of all deals", "11.4 M nodes/s",
                   "99.8% / 100% of deals within 10 s", "| 10 | 0.53 s / 0.9 s | 6/6 | 6.7 s / 12 s | 3/6 |",
                   "about 71,000 random 10-card hands", "process pool: 2.00x"]:
        assert figure in performance, figure
    games = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    for figure in ["52.2% of standard deals", "989–1,000 of 1,000", "832 of seeds 0–999 won", "median of 0.004 s"]:
        assert figure in games, figure


# -- the examples, run -----------------------------------------------------------------------------

def _shims(folder: Path) -> dict:
    """An environment whose `solodeck` and `python3` are this interpreter's (the suite's install)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    for name, line in (("solodeck", f'exec "{sys.executable}" -m solodeck "$@"'),
                       ("python3", f'exec "{sys.executable}" "$@"')):
        (bin_dir / name).write_text(f"#!/bin/sh\n{line}\n")
        (bin_dir / name).chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def _run(command: str, cwd: Path, env: dict) -> tuple:
    """(exit status, stdout) of a README command; `solodeck view` serves until stopped, so it
    counts as done once it prints its address."""
    if command.startswith("solodeck view"):
        proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=cwd, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            line = proc.stdout.readline()
            assert "viewing" in line and "http://127.0.0.1:" in line, line + proc.stderr.read()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        return 0, line
    proc = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{command}: exit {proc.returncode}\n{proc.stderr}"
    return proc.returncode, proc.stdout


def _normal(line: str) -> str:
    """A sample line without what changes between runs: times, speeds, which engine ran."""
    line = re.sub(r"^search \(.*", "search (...", line.rstrip())
    return re.sub(r"\d+(?:\.\d+)? s\b", "T s", line)


def _check_sample(sample: list, output: str) -> None:
    """The sample's lines ("..." skips) appear in the output, in order."""
    got = [_normal(line) for line in output.splitlines()]
    at = 0
    for line in sample:
        if line.strip() in ("...", ""):
            continue
        want = _normal(line)
        assert want in got[at:], f"sample line {line!r} is not in the output:\n{output}"
        at = got.index(want, at) + 1


def test_examples_run_from_any_folder_and_the_samples_are_current(tmp_path):
    """Every command of the Examples (and the quick start's, after its install) in order, in a
    folder outside the checkout; each must exit 0, and each sample output (a ```text block
    opening with `$ COMMAND`) must still be what COMMAND prints. The quick start leaves nothing behind."""
    env = _shims(tmp_path)
    scratch = tmp_path / "anywhere"
    scratch.mkdir()
    outputs = {}
    start = time.perf_counter()
    run = quick_start()[0].partition(" && ")[2]
    outputs[run] = _run(run, scratch, env)[1]
    assert list(scratch.iterdir()) == [], "the quick start leaves files behind"
    for command in examples():
        outputs[command] = _run(command, scratch, env)[1]
    samples = [b for b in blocks(readme(), "text") if b and b[0].startswith("$ ")]
    assert len(samples) >= 3
    for sample in samples:
        command = sample[0][2:].strip()
        assert command in outputs, f"a sample of {command!r}, which is not among the README's commands"
        _check_sample(sample[1:], outputs[command])
    print(f"{len(outputs)} commands in {time.perf_counter() - start:.0f} s")


def test_quick_start_sample_matches(tmp_path):
    """The first sample is the quick start's: it names the command the quick start runs."""
    first = next(b for b in blocks(readme(), "text") if b and b[0].startswith("$ "))
    assert first[0][2:].strip() == quick_start()[0].partition(" && ")[2]


def test_analyze_names_a_report_command_that_finds_its_run(tmp_path):
    """`analyze --out DIR/x` (a folder not named after the game) must not suggest `solodeck
    report DIR`, which would find nothing; `--out DIR/GAME` suggests it, and it works."""
    env = _shims(tmp_path)
    odd = _run(f"solodeck analyze syndicate --deals 1 --jobs 1 --quiet --out {shlex.quote(str(tmp_path / 'r' / 'x'))}",
               tmp_path, env)[1]
    assert f"solodeck report {tmp_path / 'r'}`" not in odd and "RESULTS/syndicate" in odd
    good = _run(f"solodeck analyze syndicate --deals 1 --jobs 1 --quiet --out {shlex.quote(str(tmp_path / 'r' / 'syndicate'))}",
                tmp_path, env)[1]
    suggested = re.search(r"`(solodeck report [^`]+)`", good).group(1)
    assert "written: the table" in _run(suggested, tmp_path, env)[1]
