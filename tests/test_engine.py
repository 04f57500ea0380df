"""The live engine (solodeck/engine.py): the protocol's replies against its schema, moves and
errors, analyses open and blind (forked and inline), stop, the end of input, hostile requests,
the HTTP server (solodeck/server.py) and the Python API's doctest (docs/api.md)."""
from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import jsonschema
import pytest

from solodeck import engine
from solodeck.engine import MAX_REQUEST_BYTES, Engine, schema
from solodeck.registry import get_game
from solodeck.server import serve_in_thread

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = schema()
REPLY = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/reply"})


class Client:
    """An engine driven in the test's process: every reply checked against the schema."""

    def __init__(self, isolate=True):
        self.replies, self.arrived = [], threading.Condition()
        self.engine = Engine(self.emit, isolate=isolate)

    def emit(self, reply):
        REPLY.validate(reply)
        with self.arrived:
            self.replies.append(reply)
            self.arrived.notify_all()

    def ask(self, request, wait_for=None, timeout=60.0):
        """Send ``request``; the first reply with its id of a type in ``wait_for`` (default: any
        but progress)."""
        start = len(self.replies)
        self.engine.handle(request) if isinstance(request, dict) else self.engine.handle_line(request)
        return self.wait(request.get("id") if isinstance(request, dict) else None, start, wait_for, timeout)

    def wait(self, tag, start=0, wait_for=None, timeout=60.0):
        end = time.perf_counter() + timeout
        with self.arrived:
            while True:
                for reply in self.replies[start:]:
                    if reply["id"] == tag and (reply["type"] in wait_for if wait_for else reply["type"] != "progress"):
                        return reply
                left = end - time.perf_counter()
                assert left > 0, f"no reply to {tag} within {timeout} s"
                self.arrived.wait(left)


def test_new_legal_play_and_their_errors():
    c = Client()
    pos = c.ask({"cmd": "new", "game": "syndicate", "seed": 3, "id": "a"})
    assert pos["type"] == "position" and pos["position"] == "p1" and pos["id"] == "a" and pos["legal"]
    legal = c.ask({"cmd": "legal", "position": "p1", "id": 2})
    assert legal["moves"] == pos["legal"]
    after = c.ask({"cmd": "play", "position": "p1", "move": pos["legal"][0], "id": 3})
    assert after["parent"] == "p1" and after["played"] == pos["legal"][0] and after["position"] == "p2"
    bad = c.ask({"cmd": "play", "position": "p1", "move": "choose K K K", "id": 4})
    assert bad["type"] == "error" and "p1" in bad["error"] and "choose K K K" in bad["error"]
    gone = c.ask({"cmd": "legal", "position": "p99", "id": 5})
    assert gone["type"] == "error" and "p99" in gone["error"]
    # the position as a deal file's text, inline
    inline = c.ask({"cmd": "legal", "deal": 'game = "syndicate"\nseed = 3\n', "id": 6})
    assert inline["moves"] == pos["legal"]
    games = c.ask({"cmd": "games"})
    assert any(g["name"] == "syndicate" for g in games["games"])


@pytest.mark.parametrize("isolate", [True, False])
def test_an_open_analysis_values_every_move_exactly_on_an_endgame(isolate):
    """Foursquare's puzzle positions are endgames: every move's value exact, ranked, the best
    first; the value of the best move is the solver's."""
    c = Client(isolate)
    text = (ROOT / "puzzles" / "foursquare" / "win-1.toml").read_text()
    pos = c.ask({"cmd": "new", "deal": text})
    reply = c.ask({"cmd": "analyse", "position": pos["position"], "time_limit": 30, "id": "x"})
    assert reply["type"] == "analysis" and reply["status"] == "solved"
    assert sorted(m["move"] for m in reply["moves"]) == sorted(pos["legal"])
    assert all(m["exact"] for m in reply["moves"]) and reply["moves"][0]["best"]
    assert reply["best"] == reply["moves"][0]["move"] and reply["line"] is None  # exact games: no search for a line
    import solodeck

    solved = solodeck.solve(text)
    assert (reply["moves"][0]["verdict"], reply["moves"][0]["score"]) == (solved.verdict, solved.score)


def test_the_first_hinted_blind_move_plays_the_game_solodeck_play_plays():
    """A frontend that always plays the first move of a blind analysis plays `solodeck play`'s game."""
    seed = 4
    out = subprocess.run([sys.executable, "-m", "solodeck", "play", "foursquare", "--seed", str(seed), "--json"],
                         capture_output=True, text=True, check=True)
    expected = json.loads(out.stdout)["moves"]
    c = Client()
    pid = c.ask({"cmd": "new", "game": "foursquare", "seed": seed})["position"]
    played = []
    while True:
        pos = c.ask({"cmd": "position", "position": pid})
        if pos["outcome"] is not None or not pos["legal"]:
            break
        if len(pos["legal"]) == 1:
            move = pos["legal"][0]
        else:
            move = c.ask({"cmd": "analyse", "position": pid, "mode": "blind", "time_limit": 60})["best"]
        played.append(move)
        pid = c.ask({"cmd": "play", "position": pid, "move": move})["position"]
    assert played == expected


def test_stop_ends_a_long_analysis_at_once_with_what_it_has():
    c = Client()
    pid = c.ask({"cmd": "new", "game": "skyway", "seed": 1})["position"]
    start = len(c.replies)
    c.engine.handle({"cmd": "analyse", "position": pid, "time_limit": 600, "id": "long"})
    c.wait("long", start, ("progress",))
    time.sleep(0.3)
    busy = c.ask({"cmd": "analyse", "position": pid, "id": "again"})
    assert busy["type"] == "error" and "stop" in busy["error"]
    asked = time.perf_counter()
    c.engine.handle({"cmd": "stop", "id": "s"})
    reply = c.wait("long", start, ("analysis",), timeout=5)
    assert time.perf_counter() - asked < 0.1
    assert reply["status"] == "stopped" and len(reply["moves"]) == 27
    assert all(not m["exact"] or m["verdict"] != "unknown" for m in reply["moves"])
    assert c.wait("s", start)["type"] == "stopped"
    # the engine goes on
    assert c.ask({"cmd": "legal", "position": pid})["type"] == "legal"


@pytest.mark.parametrize("puzzle", ["foursquare/win-1.toml", "foursquare/win-2.toml", "syndicate/forced-two.toml"])
def test_workers_value_every_move_as_one_process_does(puzzle, monkeypatch):
    """Moves valued side by side (each process takes the next move left) give the same reply,
    in the same order, as one process valuing them all."""
    monkeypatch.setattr(engine, "SHARE_AFTER", 0.0)  # the workers start at once, however quick the puzzle
    c = Client()
    pid = c.ask({"cmd": "new", "deal": (ROOT / "puzzles" / puzzle).read_text()})["position"]
    replies = [c.ask({"cmd": "analyse", "position": pid, "time_limit": 60, "workers": workers, "id": workers})
               for workers in (1, 2, 3)]
    assert replies[0]["status"] == "solved" and len(replies[0]["moves"]) > 1
    assert replies[0]["moves"] == replies[1]["moves"] == replies[2]["moves"]
    assert replies[0]["nodes"] > 0


def _state(pid: int) -> str | None:
    """A process's state letter from /proc (None: no such process)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z")


def _children_of(pid: int) -> set:
    """The live processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_stop_ends_the_workers_of_an_analysis_too():
    c = Client()
    pid = c.ask({"cmd": "new", "game": "foursquare", "seed": 9})["position"]  # a whole deal: minutes
    start = len(c.replies)
    c.engine.handle({"cmd": "analyse", "position": pid, "time_limit": 600, "workers": 2, "id": "long"})
    c.wait("long", start, ("progress",))
    child = c.engine.analysis.child.pid
    end = time.perf_counter() + 10
    while not (workers := _children_of(child)) and time.perf_counter() < end:
        time.sleep(0.05)
    assert workers, "the analysis forked no worker"
    c.engine.handle({"cmd": "stop"})
    assert c.wait("long", start, ("analysis",), timeout=5)["status"] == "stopped"
    end = time.perf_counter() + 5
    while any(_alive(w) for w in workers) and time.perf_counter() < end:
        time.sleep(0.05)
    assert not {w for w in workers if _alive(w)}, "a worker outlived its stopped analysis"


def hostile_requests(rng: random.Random, count: int) -> list:
    """Malformed or hostile request lines: bad JSON, unknown commands, wrong types, huge numbers,
    illegal moves, path names where deals or games go."""
    base = [
        "", "{", "[]", "null", "42", '"new"', "{}", '{"cmd": 5}', '{"cmd": "bogus"}', '{"cmd": "NEW"}',
        '{"cmd": "new"}', '{"cmd": "new", "game": "nosuchgame"}', '{"cmd": "new", "game": "../../etc/passwd"}',
        '{"cmd": "new", "deal": "/etc/passwd"}', '{"cmd": "new", "deal": "game = \\"/etc/passwd\\""}',
        '{"cmd": "new", "game": "syndicate", "seed": -1}', '{"cmd": "new", "game": "syndicate", "seed": 1e400}',
        '{"cmd": "new", "game": "syndicate", "seed": 99999999999999999999999999}',
        '{"cmd": "new", "game": "syndicate", "seed": "3"}', '{"cmd": "new", "game": "syndicate", "options": [1]}',
        '{"cmd": "new", "game": "syndicate", "options": {"nope": 1}}', '{"cmd": "play", "position": "p1"}',
        '{"cmd": "play", "position": "p1", "move": "x"}', '{"cmd": "play", "position": "p1", "move": 7}',
        '{"cmd": "play", "position": "../p1", "move": "x"}', '{"cmd": "legal"}', '{"cmd": "legal", "position": null}',
        '{"cmd": "analyse", "position": "p1", "time_limit": -1}', '{"cmd": "analyse", "position": "p1", "time_limit": 1e308}',
        '{"cmd": "analyse", "position": "p1", "mode": "psychic"}', '{"cmd": "analyse", "position": "p1", "samples": 0}',
        '{"cmd": "analyse", "position": "p1", "max_states": 1e20}', '{"cmd": "new", "game": "syndicate", "extra": 1}',
        '{"cmd": "new", "deal": "game = \\"syndicate\\"\\n[position]\\nnonsense = 1"}', "\x00\x01\x02",
        '{"cmd": "new", "deal": 3}', '{"cmd": "new", "game": "syndicate", "id": {"a": 1}}',
        '{"cmd": "quit", "id": [1]}' .replace("quit", "qui t"), "[" * 5000 + "]" * 5000, '{"cmd": "stop", "position": 3}',
        '{"cmd": "analyse", "position": "p1", "time_limit": NaN}', '{"cmd": "analyse", "position": "p1", "time_limit": Infinity}',
        '{"cmd": "games", "id": ' + "9" * 5000 + "}", '{"cmd": "new", "game": "syndicate", "seed": ' + "9" * 5000 + "}",
        '{"cmd": "new", "deal": "' + "[" * 3000 + '"}',
    ]
    out = list(base)
    fields = ["cmd", "game", "seed", "deal", "position", "move", "mode", "time_limit", "samples", "options", "id"]
    values = [None, True, -1, 0, 2**70, 1e308, "", "p0", "p1", "x" * 300, "../../x", "/dev/zero", [], {}, "analyse",
              "new", "legal", "play", "syndicate", "foursquare", "blind", "open"]
    while len(out) < count:
        request = {rng.choice(fields): rng.choice(values) for _ in range(rng.randint(1, 4))}
        if rng.random() < 0.3:
            request["cmd"] = rng.choice(["new", "legal", "play", "analyse", "position", "bogus", 3])
        if request.get("cmd") in ("quit", "stop", "games", "hello"):
            request["cmd"] = "bogus"
        if request.get("cmd") == "analyse" and not (isinstance(request.get("time_limit"), (int, float))
                                                    and 0 < request["time_limit"] <= 1):
            request["time_limit"] = "slow"   # hostile, never a real search
        line = json.dumps(request)
        if rng.random() < 0.1:
            line = line[: rng.randrange(len(line))]
        out.append(line)
    return out[:count]


def test_a_thousand_hostile_requests_get_one_error_each_and_the_engine_stays_up():
    c = Client()
    rng = random.Random(53)
    pid = c.ask({"cmd": "new", "game": "syndicate", "seed": 1})["position"]
    for line in hostile_requests(rng, 1000):
        start = len(c.replies)
        c.engine.handle_line(line)
        c.engine.wait()
        replies = [r for r in c.replies[start:] if r["type"] not in ("progress",)]
        assert replies, line[:80]
        for reply in replies:
            assert "Traceback" not in json.dumps(reply)
            assert reply["type"] != "error" or "internal error" not in reply["error"], (line[:120], reply)
    assert c.ask({"cmd": "legal", "position": pid})["type"] == "legal"


def test_the_stdio_engine_answers_line_by_line_and_ends_at_the_end_of_input():
    requests = [{"cmd": "new", "game": "syndicate", "seed": 2, "id": 1}, "not json",
                {"cmd": "analyse", "position": "p1", "time_limit": 5, "id": 2}]
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solodeck", "engine"], input=lines, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    for reply in replies:
        REPLY.validate(reply)
    assert [r["type"] for r in replies if r["type"] != "progress"] == ["ready", "position", "error", "analysis"]
    assert replies[-1]["status"] == "solved" and time.perf_counter() - start < 60
    # quit ends a running analysis at once
    quit_lines = (json.dumps({"cmd": "new", "game": "skyway", "seed": 2}) + "\n"
                  + json.dumps({"cmd": "analyse", "position": "p1", "time_limit": 300}) + "\n"
                  + json.dumps({"cmd": "quit"}) + "\n")
    done = subprocess.run([sys.executable, "-m", "solodeck", "engine"], input=quit_lines, capture_output=True,
                          text=True, timeout=60)
    types = [json.loads(line)["type"] for line in done.stdout.splitlines()]
    assert done.returncode == 0 and types[-1] == "bye" and "analysis" in types


def test_the_stdio_engine_answers_each_hostile_line_once_and_stays_up():
    lines = [json.dumps({"cmd": "new", "game": "syndicate", "seed": 1})]
    lines += [line.replace("\n", " ") for line in hostile_requests(random.Random(54), 1000)]
    lines += [json.dumps({"cmd": "legal", "position": "p1", "id": "last"})]
    done = subprocess.run([sys.executable, "-m", "solodeck", "engine"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == ""
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    final = [r for r in replies if r["type"] != "progress"]
    assert len(final) == 1 + sum(1 for line in lines if line.strip())  # the ready line, then one a request
    assert final[-1]["type"] == "legal" and final[-1]["id"] == "last"
    assert not any("internal error" in r.get("error", "") for r in final)


def post(server, body, host=None, headers=None):
    port = server.server_address[1]
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api", data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    if host:
        request.add_header("Host", host)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        body = exc.read()
        try:
            return exc.code, json.loads(body)
        except json.JSONDecodeError:
            return exc.code, body


def test_the_http_server_answers_the_same_requests():
    server = serve_in_thread()
    try:
        status, pos = post(server, {"cmd": "new", "game": "foursquare", "seed": 2, "id": "mine"})
        assert status == 200 and pos["type"] == "position" and pos["id"] == "mine"
        REPLY.validate(pos)
        status, played = post(server, {"cmd": "play", "position": pos["position"], "move": pos["legal"][0]})
        assert status == 200 and played["parent"] == pos["position"]
        status, reply = post(server, {"cmd": "analyse", "position": played["position"], "mode": "blind"})
        assert status == 200 and reply["type"] == "analysis" and reply["best"] in played["legal"]
        status, error = post(server, {"cmd": "play", "position": pos["position"], "move": "place 9,9"})
        assert status == 400 and error["type"] == "error"
        status, _ = post(server, b"{not json")
        assert status == 400
        status, body = post(server, {"cmd": "games"}, host="evil.example:80")
        assert status == 403
        # a page of another origin: refused, and a plain-text post (no preflight) too
        assert post(server, {"cmd": "games"}, headers={"Origin": "http://evil.example"})[0] == 403
        assert post(server, {"cmd": "games"}, headers={"Content-Type": "text/plain"})[0] == 415
        rng = random.Random(5)
        for line in hostile_requests(rng, 1000):
            status, reply = post(server, line.encode())
            assert status in (200, 400, 413), (line[:80], status)
            assert "Traceback" not in (reply if isinstance(reply, bytes) else json.dumps(reply).encode()).decode("utf-8", "replace")
        status, games = post(server, {"cmd": "games"})
        assert status == 200 and games["games"]
        port = server.server_address[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/progress", timeout=10) as response:
            json.loads(response.read())
        too_big = b'{"cmd": "games", "id": "' + b"x" * MAX_REQUEST_BYTES + b'"}'
        assert post(server, too_big)[0] == 413
    finally:
        server.shutdown()


def test_the_python_api_doctest():
    failures, tried = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried > 5 and failures == 0


def test_every_game_starts_and_lists_its_moves():
    c = Client()
    games = c.ask({"cmd": "games"})["games"]
    for info in games:
        pos = c.ask({"cmd": "new", "game": info["name"], "seed": 1})
        assert pos["type"] == "position", (info["name"], pos)
        assert pos["game"] == get_game(info["name"]).name


def test_the_readmes_frontend_examples_run():
    """The README's "Use solodeck from a frontend" block: the engine pipeline and the Python
    line run from any folder (the server line is test_the_http_server_answers_the_same_requests)."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Use solodeck from a frontend", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    lines = section.strip().splitlines()
    pipeline = lines[0].rstrip("\\").strip() + " " + lines[1].split("#", 1)[0].strip()
    python_line = next(line for line in lines if line.startswith("python3 -c"))
    for command in (pipeline, python_line):
        done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120, cwd="/")
        assert done.returncode == 0 and done.stderr == "", (command, done.stderr)
        assert done.stdout.strip(), command
    assert any(json.loads(line)["type"] == "analysis" for line in
               subprocess.run(pipeline, shell=True, capture_output=True, text=True, cwd="/").stdout.splitlines())


def test_a_frontend_that_goes_away_mid_analysis_ends_the_engine():
    """The frontend closes both pipes while an analysis runs: the engine ends at once, exit 0."""
    process = subprocess.Popen([sys.executable, "-m", "solodeck", "engine"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write(json.dumps({"cmd": "new", "game": "skyway", "seed": 1}) + "\n"
                        + json.dumps({"cmd": "analyse", "position": "p1", "time_limit": 60}) + "\n")
    process.stdin.flush()
    process.stdout.readline(), process.stdout.readline()
    process.stdout.close()
    process.stdin.close()  # the end of input at once: the engine must see that nobody reads
    assert process.wait(timeout=30) == 0
    assert "Traceback" not in process.stderr.read()
