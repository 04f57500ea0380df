import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


def run_cli(*args, check=False):
    """Run `python -m solodeck ARGS` and return the CompletedProcess (text mode)."""
    proc = subprocess.run([sys.executable, "-m", "solodeck", *map(str, args)],
                          capture_output=True, text=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"solodeck {' '.join(map(str, args))} failed:\n{proc.stderr}")
    return proc


@pytest.fixture
def cli():
    return run_cli


def fixed_line(game, seed):
    """A chance game's move-count regression (tests/data/*_move_counts.json): along a fixed line
    of the seeded deal (move index 5 * ply mod n, the deal's own draws), the legal-move count at
    each decision. Returns the record the file keeps, and the final state."""
    from solodeck.api import advance_chance

    state = advance_chance(game.initial_state(game.new_deal(seed)))
    counts, line = [], []
    while state.outcome() is None:
        moves = state.legal_moves()
        counts.append(len(moves))
        move = moves[(5 * len(counts)) % len(moves)]
        line.append(str(move))
        state = advance_chance(state.play(move))
    return {"seed": seed, "line": line, "counts": counts}, state
