"""An independent second method for solodeck's exact Syndicate solver.

The oracle below re-implements Syndicate's rules from the rule text / RULINGS.md, *without*
importing solodeck's engine (``solodeck.games.syndicate``) or its solvers:

* a state is ``(members, candidates, reserve)`` where ``members`` and ``candidates`` are five
  count vectors (one per rank, rank 1 first) indexed by value - 1 (A=1 ... T=10), and
  ``reserve`` is one such count vector (non-zero only before the first decision);
* the search is a 0-1 breadth-first search over the reachable state graph (edge weight 1 when
  the move sacrifices a card, else 0): the first dequeued state that has a winning move gives
  the minimum number of sacrifices (a deque kept in non-decreasing distance order);
* a second, table-free plain recursion (min over moves of cost + value of the child) checks the
  0-1 BFS itself on the smallest positions.

solodeck is only used as the system under test: ``solve_open`` on positions, and the CLI
(``solodeck deal`` / ``solodeck solve --json``) on the seeded deals. Its reported lines are
parsed from text and replayed by the oracle's own move generator.
"""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tomllib
from collections import deque
from itertools import combinations_with_replacement

import pytest

# ----------------------------------------------------------------------------------------------
# The oracle: rules
# ----------------------------------------------------------------------------------------------
VALUE_TEXT = "A23456789T"
EMPTY = (0,) * 10
WIN = "win"


def digit(v: int) -> int:
    return v % 10


def counts_of(values) -> tuple:
    c = [0] * 10
    for v in values:
        assert 1 <= v <= 10, v
        c[v - 1] += 1
    return tuple(c)


def values_of(counts) -> list:
    return [v for v in range(1, 11) for _ in range(counts[v - 1])]


def bump(counts: tuple, v: int, delta: int) -> tuple:
    c = list(counts)
    c[v - 1] += delta
    assert c[v - 1] >= 0
    return tuple(c)


def make_state(members_by_rank, candidates_by_rank, reserve=()):
    """members_by_rank / candidates_by_rank: {rank (1..5): iterable of values}."""
    mem = tuple(counts_of(members_by_rank.get(r, ())) for r in range(1, 6))
    cand = tuple(counts_of(candidates_by_rank.get(r, ())) for r in range(1, 6))
    return (mem, cand, counts_of(reserve))


def state_from_deck(values):
    """Deal from 40 values, top first: 1-9 rank 5 cands, 10-16 rank 4, 17-21 rank 3, 22-24
    rank 2, 25 rank 1; 26-40 the reserve."""
    assert len(values) == 40
    cands = {5: values[0:9], 4: values[9:16], 3: values[16:21], 2: values[21:24], 1: values[24:25]}
    return make_state({}, cands, values[25:40])


def oracle_moves(state):
    """Every legal move from ``state`` as (move, child, cost) with cost 1 for a sacrifice.

    move = ("choose", (v1, v2, v3)) for the first decision, otherwise
    (rank, member, dest, take, sacrifice) with dest "m" / "c" / "win" and sacrifice a value or
    None. A winning move's child is the string WIN."""
    mem, cand, reserve = state
    out = []
    if any(reserve):
        # First decision: any three reserve cards become rank 5's members; the rest leave.
        rv = values_of(reserve)
        for trio in sorted(set(combinations_with_replacement(sorted(set(rv)), 3))):
            if all(trio.count(v) <= rv.count(v) for v in trio):
                new_mem = mem[:4] + (counts_of(trio),)
                out.append((("choose", trio), (new_mem, cand, EMPTY), 0))
        return out
    for r in range(1, 6):
        here = mem[r - 1]
        if sum(here) != 3:
            continue
        for m in range(1, 11):
            if not here[m - 1]:
                continue
            a, b = values_of(bump(here, m, -1))
            allowed = {(digit(a) + digit(b)) % 10, (digit(a) * digit(b)) % 10}
            for c in range(1, 11):
                if not cand[r - 1][c - 1] or digit(c) not in allowed:
                    continue
                new_here = bump(bump(here, m, -1), c, +1)
                new_cand_here = bump(cand[r - 1], c, -1)
                if r == 1:
                    out.append(((1, m, WIN, c, None), WIN, 0))
                    continue
                base_mem = list(mem)
                base_mem[r - 1] = new_here
                base_cand = list(cand)
                base_cand[r - 1] = new_cand_here
                # m to rank r-1's candidates
                cm = list(base_cand)
                cm[r - 2] = bump(cand[r - 2], m, +1)
                out.append(((r, m, "c", c, None), (tuple(base_mem), tuple(cm), EMPTY), 0))
                # m to rank r-1's members
                above = bump(mem[r - 2], m, +1)
                if sum(above) <= 3:
                    mm = list(base_mem)
                    mm[r - 2] = above
                    out.append(((r, m, "m", c, None), (tuple(mm), tuple(base_cand), EMPTY), 0))
                else:  # four members: one of the four (m included) is sacrificed
                    for victim in range(1, 11):
                        if above[victim - 1]:
                            mm = list(base_mem)
                            mm[r - 2] = bump(above, victim, -1)
                            out.append(((r, m, "m", c, victim), (tuple(mm), tuple(base_cand), EMPTY), 1))
    return out


class BudgetExceeded(Exception):
    pass


def oracle_search(state, budget=None):
    """0-1 BFS over the reachable state graph (edge weight 1 for a sacrifice, else 0).

    Returns (minimum further sacrifices or None when no win exists, a line of oracle moves
    achieving it or None, states expanded). Raises BudgetExceeded when more than ``budget``
    states would be expanded."""
    dist = {state: 0}
    parent = {state: None}  # state -> (previous state, move)
    queue = deque([(0, state)])
    expanded = 0
    while queue:
        d, s = queue.popleft()
        if d > dist[s]:
            continue  # stale entry: s was reached more cheaply later
        expanded += 1
        if budget is not None and expanded > budget:
            raise BudgetExceeded(expanded)
        moves = oracle_moves(s)
        wins = [mv for mv, child, _ in moves if child == WIN]
        if wins:
            # The deque pops in non-decreasing distance, so d is the minimum.
            line = [wins[0]]
            while parent[s] is not None:
                s, mv = parent[s]
                line.append(mv)
            return d, line[::-1], expanded
        for mv, child, cost in moves:
            nd = d + cost
            if nd < dist.get(child, 1 << 30):
                dist[child] = nd
                parent[child] = (s, mv)
                if cost:
                    queue.append((nd, child))
                else:
                    queue.appendleft((nd, child))
    return None, None, expanded


def oracle_min_sacrifices(state, budget=None):
    return oracle_search(state, budget)[0]


def plain_recursion_min(state, budget=None):
    """Table-free exhaustive recursion (the move graph is acyclic: every move lifts a card a
    rank, or removes the reserve). Returns min further sacrifices or None; raises
    BudgetExceeded after ``budget`` calls."""
    calls = [0]

    def rec(s):
        calls[0] += 1
        if budget is not None and calls[0] > budget:
            raise BudgetExceeded(calls[0])
        best = None
        for _, child, cost in oracle_moves(s):
            if child == WIN:
                return 0  # nothing beats a win with no further sacrifice
            sub = rec(child)
            if sub is not None and (best is None or cost + sub < best):
                best = cost + sub
        return best

    return rec(state)


# ----------------------------------------------------------------------------------------------
# The oracle: text of moves and positions (independent parsers / formatters)
# ----------------------------------------------------------------------------------------------
def vname(v: int) -> str:
    return VALUE_TEXT[v - 1]


def vparse(text: str) -> int:
    t = text.strip().upper()
    if t == "10":
        return 10
    assert len(t) == 1 and t in VALUE_TEXT, text
    return VALUE_TEXT.index(t) + 1


def card_value(card_text: str) -> int:
    """'9S' / 'TD' / '10H' -> 9 / 10 / 10."""
    return vparse(card_text[:-1])


_MOVE_RE = re.compile(r"^promote ([1-5]):(\w+) -> (win|[1-4][mc]), take (\w+)(?:, sacrifice (\w+))?$")


def parse_line_move(text: str):
    t = " ".join(text.split())
    if t.startswith("choose "):
        return ("choose", tuple(sorted(vparse(x) for x in t[7:].split())))
    m = _MOVE_RE.match(t)
    assert m, f"unparseable move {text!r}"
    rank, member, to, take, victim = m.groups()
    rank = int(rank)
    if to == WIN:
        assert rank == 1, text
        dest = WIN
    else:
        assert int(to[0]) == rank - 1, text
        dest = to[1]
    return (rank, vparse(member), dest, vparse(take), vparse(victim) if victim else None)


def oracle_replay(state, moves):
    """Play parsed moves, each of which must be generated by oracle_moves. Returns
    (won, sacrifices)."""
    sacrifices = 0
    for i, move in enumerate(moves, start=1):
        assert state != WIN, f"move {i} {move} after the game was won"
        options = {mv: (child, cost) for mv, child, cost in oracle_moves(state)}
        assert move in options, f"move {i} {move} is not legal for the oracle; legal: {sorted(map(str, options))}"
        state, cost = options[move]
        sacrifices += cost
    return state == WIN, sacrifices


def position_dict(state, sacrificed=0):
    """The oracle state as a solodeck [position] table."""
    mem, cand, reserve = state
    pos = {}
    for r in range(1, 6):
        table = {}
        if any(mem[r - 1]):
            table["members"] = " ".join(vname(v) for v in values_of(mem[r - 1]))
        if any(cand[r - 1]):
            table["candidates"] = " ".join(vname(v) for v in values_of(cand[r - 1]))
        if table:
            pos[f"rank{r}"] = table
    if any(reserve):
        pos["reserve"] = " ".join(vname(v) for v in values_of(reserve))
    pos["sacrificed"] = sacrificed
    return pos


def describe(state, sacrificed=0):
    return json.dumps(position_dict(state, sacrificed))


def move_text(move) -> str:
    """An oracle move in solodeck's move notation (docs/rules/syndicate.md)."""
    if move[0] == "choose":
        return "choose " + " ".join(vname(v) for v in move[1])
    rank, member, dest, take, victim = move
    to = WIN if dest == WIN else f"{rank - 1}{dest}"
    text = f"promote {rank}:{vname(member)} -> {to}, take {vname(take)}"
    return text + (f", sacrifice {vname(victim)}" if victim is not None else "")


# ----------------------------------------------------------------------------------------------
# The system under test
# ----------------------------------------------------------------------------------------------
def syndicate():
    from solodeck.registry import get_game

    return get_game("syndicate")


def solodeck_start(state, sacrificed=0):
    from solodeck.api import Deal

    return syndicate().initial_state(Deal("syndicate", position=position_dict(state, sacrificed)))


def solodeck_solve(state, sacrificed=0, time_limit=30):
    from solodeck.solvers import Limits, solve_open

    start = solodeck_start(state, sacrificed)
    return start, solve_open(syndicate(), start, Limits(time_limit=time_limit))


def solodeck_replays_oracle_line(start, oracle_line):
    """The oracle's optimal line, as text, must be legal in solodeck and give its outcome."""
    game = syndicate()
    return game.replay_moves(start, [game.parse_move(move_text(mv)) for mv in oracle_line]).outcome()


def check_against_solodeck(state, sacrificed, best, line):
    """Compare one position; return a disagreement description or None."""
    where = describe(state, sacrificed)
    start, res = solodeck_solve(state, sacrificed)
    if not res.exact or res.status not in ("solved", "unsolvable"):
        return f"{where}: solodeck did not finish ({res.status})"
    if best is None:
        if res.verdict != "unwinnable":
            return f"{where}: oracle finds no win; solodeck {res.verdict} score {res.score} line {[str(m) for m in res.line]}"
        return None
    if res.verdict != "winnable" or res.score != sacrificed + best:
        return (f"{where}: oracle minimum {sacrifices_text(sacrificed + best)} via {[move_text(m) for m in line]}; "
                f"solodeck {res.verdict} score {res.score}")
    # solodeck's line is legal for the oracle and wins with exactly the claimed score ...
    won, spent = oracle_replay(state, [parse_line_move(str(m)) for m in res.line])
    if not won or sacrificed + spent != res.score:
        return f"{where}: solodeck line {[str(m) for m in res.line]} gives won={won}, sacrifices {sacrificed + spent}"
    # ... and the oracle's line is legal for solodeck and wins with the oracle's score.
    outcome = solodeck_replays_oracle_line(start, line)
    if not outcome.won or outcome.score != sacrificed + best:
        return f"{where}: oracle line {[move_text(m) for m in line]} replays in solodeck as {outcome}"
    return None


def sacrifices_text(n):
    return f"{n} sacrifice" + ("" if n == 1 else "s")


# ----------------------------------------------------------------------------------------------
# Random small positions
# ----------------------------------------------------------------------------------------------
def random_position(rng: random.Random):
    """A small mid-game position on ranks 1-3 or 1-4 (ranks below empty); each value at most
    4 times. Two shapes: a loose one (many unwinnable and sacrifice-free wins) and a crowded one
    (most ranks full, few rank-1 candidates: promotions into full ranks force sacrifices)."""
    pool = [v for v in range(1, 11) for _ in range(4)]
    rng.shuffle(pool)
    members, cands = {}, {}
    if rng.random() < 0.5:
        top = 4 if rng.random() < 0.25 else 3
        for r in range(1, top + 1):
            n_mem = rng.choice([2, 3, 3, 3] if r == 1 else [0, 2, 3, 3, 3, 3])
            n_cand = rng.randint(0, 4 if top == 3 else 3)
            members[r] = [pool.pop() for _ in range(n_mem)]
            cands[r] = [pool.pop() for _ in range(n_cand)]
    else:
        top = rng.choice([3, 3, 4])
        for r in range(1, top + 1):
            n_mem = 3 if rng.random() < 0.85 else rng.choice([0, 1, 2])
            n_cand = rng.randint(0, 1) if r == 1 else rng.randint(1, 4 if top == 3 else 3)
            members[r] = [pool.pop() for _ in range(n_mem)]
            cands[r] = [pool.pop() for _ in range(n_cand)]
    sacrificed = rng.choice([0, 0, 0, 1, 2])  # sacrifices already made before this position
    return make_state(members, cands), sacrificed


N_RANDOM = 800


@pytest.fixture(scope="module")
def random_cases():
    rng = random.Random(20240611)
    cases = []
    for _ in range(N_RANDOM):
        state, sacrificed = random_position(rng)
        best, line, _ = oracle_search(state)
        cases.append((state, sacrificed, best, line))
    return cases


def test_random_positions_match_solodeck(random_cases):
    kinds = {"unwinnable": 0, "win-0": 0, "win-forced-sacrifice": 0, "forced-2+": 0}
    disagreements = []
    for state, sacrificed, best, line in random_cases:
        if best is None:
            kinds["unwinnable"] += 1
        else:
            kinds["win-0" if best == 0 else "win-forced-sacrifice"] += 1
            kinds["forced-2+"] += best >= 2
            # the oracle's own line is legal for the oracle and spends exactly best
            assert oracle_replay(state, line) == (True, best), describe(state, sacrificed)
        problem = check_against_solodeck(state, sacrificed, best, line)
        if problem:
            disagreements.append(problem)
    assert not disagreements, "\n".join(disagreements)
    # The set is not vacuous: every kind is represented, and forced sacrifices occur.
    assert kinds["unwinnable"] >= 50 and kinds["win-0"] >= 50 and kinds["win-forced-sacrifice"] >= 30, kinds
    assert kinds["forced-2+"] >= 1, kinds


def random_large_position(rng: random.Random):
    """A position over all five ranks: crowded (every rank full), loose, or the opening (a
    reserve to choose rank 5's members from, candidates on every rank)."""
    pool = [v for v in range(1, 11) for _ in range(4)]
    rng.shuffle(pool)
    members, cands, reserve = {}, {}, []
    shape = rng.choice(["crowded", "crowded", "loose", "opening"])
    if shape == "crowded":
        for r in range(1, 6):
            members[r] = [pool.pop() for _ in range(3)]
            cands[r] = [pool.pop() for _ in range(1 if r == 1 else rng.randint(1, 2))]
    elif shape == "loose":
        for r in range(1, 6):
            members[r] = [pool.pop() for _ in range(rng.choice([3, 3, 2, 0] if r > 1 else [3, 2, 1, 0]))]
            cands[r] = [pool.pop() for _ in range(rng.randint(0, 2))]
    else:
        for r in range(1, 6):
            cands[r] = [pool.pop() for _ in range(1 if r == 1 else rng.randint(2, 5))]
        reserve = [pool.pop() for _ in range(rng.randint(4, 6))]
    # Prior sacrifices only on mid-game positions: the opening with prior sacrifices is its own
    # test below (test_opening_position_keeps_prior_sacrifices).
    return make_state(members, cands, reserve), 0 if reserve else rng.choice([0, 0, 1])


N_LARGE = 300


def test_random_five_rank_positions_match_solodeck():
    rng = random.Random(7)
    kinds = {"unwinnable": 0, "win-0": 0, "win-forced-sacrifice": 0, "opening-won": 0, "opening-lost": 0}
    disagreements = []
    for _ in range(N_LARGE):
        state, sacrificed = random_large_position(rng)
        best, line, _ = oracle_search(state)
        if any(state[2]):
            kinds["opening-lost" if best is None else "opening-won"] += 1
        kinds["unwinnable" if best is None else "win-0" if best == 0 else "win-forced-sacrifice"] += 1
        problem = check_against_solodeck(state, sacrificed, best, line)
        if problem:
            disagreements.append(problem)
    assert not disagreements, "\n".join(disagreements)
    assert min(kinds.values()) >= 10, kinds


OPENING = make_state({}, {1: [2], 2: [6, 7, 8], 3: [6, 9, 10], 4: [1, 9], 5: [2, 4, 8, 9, 10]},
                     [2, 4, 5, 7])


def test_opening_position_keeps_prior_sacrifices():
    """A position with a reserve (the opening decision still to make) and ``sacrificed = 3``.

    The score is all sacrifices, so a win must score 3 + the oracle's minimum. solodeck may
    instead refuse such a position as impossible (no sacrifice can precede the opening), but
    it must not silently forget the 3 after the ``choose`` move."""
    from solodeck.errors import DealError

    best, line, _ = oracle_search(OPENING)
    assert best == 0 and oracle_replay(OPENING, line) == (True, 0)
    try:
        start, res = solodeck_solve(OPENING, sacrificed=3)
    except DealError:
        return  # refusing the position is a consistent reading
    kept = start.play(syndicate().parse_move(move_text(line[0]))).score_bound()
    assert res.verdict == "winnable" and res.score == 3 + best, (
        f"solodeck score {res.score} (line {[str(m) for m in res.line]}), oracle {3 + best} "
        f"(line {[move_text(m) for m in line]}); after the choose move solodeck's score_bound() is {kept}")
    assert kept >= 3


def test_oracle_bfs_matches_plain_recursion(random_cases):
    """The 0-1 BFS against a table-free recursion, on the random positions small enough."""
    checked, with_sacrifice = 0, 0
    for state, _sacrificed, best, _line in random_cases:
        try:
            plain = plain_recursion_min(state, budget=250)  # 578 of the 800 fit, 31 of them with a sacrifice
        except BudgetExceeded:
            continue  # too big for a recursion without a table
        assert plain == best, describe(state)
        checked += 1
        with_sacrifice += bool(best)
    assert checked >= 250 and with_sacrifice >= 10, (checked, with_sacrifice)


# ----------------------------------------------------------------------------------------------
# The worked example from the rule text
# ----------------------------------------------------------------------------------------------
EXAMPLE = make_state({4: [4, 9, 6], 3: [7, 9, 3], 2: [3, 9, 5], 1: [5, 3]},
                     {4: [5, 4], 3: [7], 1: [8]})
EXAMPLE_LINE = [
    (4, 4, "c", 5, None),   # promote 4 from R4 to R3 candidates, take 5 (9+6=15)
    (4, 5, "m", 4, 7),      # promote 5 from R4 to R3 members, sacrifice 7, take 4 (9x6=54)
    (3, 5, "c", 7, None),   # promote 5 from R3 to R2 candidates, take 7 (9x3=27)
    (2, 3, "m", 5, None),   # promote 3 from R2 to R1 members, take 5 (9x5=45)
    (1, 3, WIN, 8, None),   # promote 3 from R1, take 8 (5+3=8): win
]


def test_worked_example():
    won, spent = oracle_replay(EXAMPLE, EXAMPLE_LINE)
    assert won and spent == 1
    best, line, _ = oracle_search(EXAMPLE)
    assert best == plain_recursion_min(EXAMPLE)
    assert best is not None and best <= 1
    # the text's line is also legal for solodeck and scores 1 there
    outcome = solodeck_replays_oracle_line(solodeck_start(EXAMPLE), EXAMPLE_LINE)
    assert outcome.won and outcome.score == 1
    assert check_against_solodeck(EXAMPLE, 0, best, line) is None
    _start, res = solodeck_solve(EXAMPLE)
    assert res.exact and res.verdict == "winnable" and res.score == best


def test_oracle_generator_basics():
    """Hand-checked facts of the generator (so the oracle is not trusted blindly)."""
    # The rule text's replacement example: R5 members 6 5 4, promoting 6 leaves 5 and 4: 9 or T.
    s = make_state({5: [6, 5, 4]}, {5: [9, 10, 2, 1]})
    takes = {mv[3] for mv, _, _ in oracle_moves(s) if mv[1] == 6}
    assert takes == {9, 10}
    # No move from a rank with 2 members; the promoted card may itself be the sacrifice.
    s = make_state({2: [1, 1, 2], 1: [5, 5, 7]}, {2: [2, 3]})
    moves = [mv for mv, _, _ in oracle_moves(s)]
    assert all(mv[0] == 2 for mv in moves)          # rank 1 has no candidate: cannot promote
    assert (2, 1, "m", 3, 1) in moves and (2, 1, "m", 3, 5) in moves and (2, 1, "m", 3, 7) in moves
    assert (2, 2, "m", 2, 2) in moves               # 1+1=2: promote 2, take 2, sacrifice the promoted 2
    # Opening: choose any 3 of the reserve.
    s = make_state({}, {5: [1]}, [2, 2, 3, 9])
    assert sorted(mv[1] for mv, _, _ in oracle_moves(s)) == [(2, 2, 3), (2, 2, 9), (2, 3, 9)]


# ----------------------------------------------------------------------------------------------
# The 20 seeded deals through the CLI
# ----------------------------------------------------------------------------------------------
SEEDS = range(20)
DEAL_BUDGET = 200_000  # states the oracle may expand per deal to re-derive the minimum


def _cli(*args, timeout=180):
    proc = subprocess.run([sys.executable, "-m", "solodeck", *args], capture_output=True, text=True,
                          timeout=timeout, cwd="/")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_deal_cli(seed, tmp_path):
    text = _cli("deal", "syndicate", "--seed", str(seed))
    path = tmp_path / f"syndicate-{seed}.toml"
    path.write_text(text)
    data = tomllib.loads(text)
    values = [card_value(c) for c in data["deck"].split()]
    assert len(values) == 40 and all(values.count(v) == 4 for v in range(1, 11))
    state = state_from_deck(values)

    out = json.loads(_cli("solve", str(path), "--json", "--time-limit", "60"))
    assert out["game"] == "syndicate" and out["mode"] == "open"
    assert out["verdict"] == "winnable" and out["exact"] is True, out
    score = out["score"]
    # solodeck's line, parsed from text, is legal move by move for the oracle and wins with score.
    won, spent = oracle_replay(state, [parse_line_move(t) for t in out["line"]])
    assert won, f"seed {seed}: line does not end in a win"
    assert spent == score, f"seed {seed}: line spends {spent}, reported {score}"
    # Minimality: the oracle re-derives the minimum under a state budget.
    try:
        best, line, expanded = oracle_search(state, DEAL_BUDGET)
    except BudgetExceeded:
        if score == 0:
            return  # nothing can be lower than 0: minimality holds without the search
        pytest.skip(f"seed {seed}: oracle budget of {DEAL_BUDGET} states exceeded; score {score} unconfirmed")
    assert best == score, f"seed {seed}: oracle minimum {best}, solodeck {score}"
    assert oracle_replay(state, line) == (True, best)


def test_seed_90_oracle_finds_sacrifice_free_win():
    """Seed 90 (outside 0..19): the oracle's 0-1 BFS finds a sacrifice-free win after a few hundred
    states, while solodeck's depth-first search needs about a minute to prove it (at
    ``--time-limit 60`` it stopped with an unproven score of 1). Under a short limit solodeck may
    stop early, but anything it reports must be consistent with the oracle's minimum of 0."""
    text = _cli("deal", "syndicate", "--seed", "90")
    state = state_from_deck([card_value(c) for c in tomllib.loads(text)["deck"].split()])
    best, line, expanded = oracle_search(state, DEAL_BUDGET)
    assert best == 0 and oracle_replay(state, line) == (True, 0)

    from solodeck.deals import deal_from_data
    from solodeck.solvers import Limits, solve_open

    deal = deal_from_data(tomllib.loads(text))
    game = syndicate()
    start = game.initial_state(deal)
    outcome = solodeck_replays_oracle_line(start, line)
    assert outcome.won and outcome.score == 0
    res = solve_open(game, start, Limits(time_limit=3))
    if res.exact:
        assert res.verdict == "winnable" and res.score == 0
    else:
        assert res.status in ("timeout", "memory-limit") and res.verdict in ("winnable", "unknown")
        if res.verdict == "winnable":
            won, spent = oracle_replay(state, [parse_line_move(str(m)) for m in res.line])
            assert won and spent == res.score >= 0
