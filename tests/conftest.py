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
