import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

# The suite starts `python -m solodeck` a few hundred times. Where the environment forbids bytecode
# files (PYTHONDONTWRITEBYTECODE, as on our machines), each start compiled every module again: a
# third of a CLI call's CPU. The tests and their subprocesses keep compiled modules in a cache
# outside the checkout instead (checked against each source's timestamp, so never stale).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "solodeck-tests-pycache"))
sys.dont_write_bytecode, sys.pycache_prefix = False, os.environ["PYTHONPYCACHEPREFIX"]

# CI's second run (.ci/run), on the pure-Python engines (SOLODECK_NO_EXTENSIONS=1), checks that
# the package works without the compiled kernels. What can differ there is the code that chooses a
# kernel or its fallback (make_solver, the blind policies' fast_* hooks, a game's odds tables), and
# these files reach it for every game: the contract, the puzzles' known answers, solve/play/hints
# on the command line, the time budget. The first run has every test, the reference engines' own
# (many of which switch a kernel off to compare it with its reference in the same process).
PURE_PYTHON_RUN = {"test_contract.py", "test_puzzles.py", "test_blind_play.py", "test_solver_and_hints.py",
                   "test_time_budget.py", "test_score_meaning.py", "test_expectimax.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in PURE_PYTHON_RUN:
            item.add_marker(pytest.mark.pure_python_run)


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


def fixed_line(game, seed, max_plies=None):
    """A chance game's move-count regression (tests/data/*_move_counts.json): along a fixed line
    of the seeded deal (move index 5 * ply mod n, the deal's own draws), the legal-move count at
    each decision, for at most ``max_plies`` decisions (a line where positions repeat may go round
    in circles). Returns the record the file keeps, and the final state."""
    from solodeck.api import advance_chance

    state = advance_chance(game.initial_state(game.new_deal(seed)))
    counts, line = [], []
    while state.outcome() is None and (max_plies is None or len(counts) < max_plies):
        moves = state.legal_moves()
        counts.append(len(moves))
        move = moves[(5 * len(counts)) % len(moves)]
        line.append(str(move))
        state = advance_chance(state.play(move))
    return {"seed": seed, "line": line, "counts": counts}, state


def fixed_line_record(game, seed):
    """fixed_line's record with how the line ended: won, and the score."""
    record, final = fixed_line(game, seed)
    return {**record, "won": final.outcome().won, "score": final.outcome().score}


@dataclass
class Line:
    """One line of play from a deal (see ``walk``): ``nodes`` is [(state, the move played or
    the chance outcome taken)] in order, ``final`` the state it ends in."""

    game: object
    deal: object
    how: str
    nodes: list
    final: object

    @property
    def steps(self):
        """[(decision state, the move played there)]."""
        return [(s, a) for s, a in self.nodes if not s.is_chance()]

    @property
    def decisions(self):
        return [s for s, _a in self.steps]

    @property
    def moves(self):
        return [a for _s, a in self.steps]


def walk(game, deal, choose, how="", max_nodes=5000):
    """Play ``deal`` to the end with ``choose(state) -> move``, chance taking the dealt outcome
    (open mode), for at most ``max_nodes`` decisions and draws (a game whose positions repeat
    may never end)."""
    state, nodes = game.initial_state(deal), []
    while len(nodes) < max_nodes:
        if state.is_chance():
            outcome = state.dealt_outcome()
            nodes.append((state, outcome))
            state = state.apply_chance(outcome)
            continue
        if state.outcome() is not None:
            break
        move = choose(state)
        if move is None:  # the policy gives up (Frozen Novelty's baseline with only circles left)
            break
        nodes.append((state, move))
        state = state.play(move)
    return Line(game, deal, how, nodes, state)


def random_line(game, seed, rng, max_nodes=5000):
    """A line of the seeded deal with every move drawn by ``rng`` (random.Random or hypothesis's)."""
    return walk(game, game.new_deal(seed), lambda state: rng.choice(state.legal_moves()), f"random {seed}", max_nodes)


def random_position(game, seed, rng, plies):
    """The position after ``plies`` random moves of the seeded deal (or its end), chance by the deal."""
    from solodeck.api import advance_chance

    state = advance_chance(game.initial_state(game.new_deal(seed)))
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = advance_chance(state.play(rng.choice(state.legal_moves())))
    return state
