"""The hint viewer (viewer/, `solodeck view`): its server and command line, and the page in a real browser.

The browser tests drive Debian's headless Chromium with Selenium through /usr/bin/chromedriver
(never Selenium Manager, which would download a driver). Without chromium, chromedriver or
selenium they are skipped with the reason; the server and CLI tests still run.

For every game a hint file is made (open mode from a won puzzle or seed 0 within
small limits, and blind mode on the same deal or seed 0 where the game has one); on each the page must load
without console errors, list exactly the file's moves at a decision, mark the move played, and
step forward and back with the buttons and the arrow keys. The hand-made version 2 files in
tests/data/viewer/ check the picture. docs/viewer/make_screenshots.py reuses the helpers here.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from solodeck import registry
from solodeck.deals import load_deal
from solodeck.hints import build_hand_hints, build_blind_hints, build_hints, write_hints
from solodeck.result import Limits
from solodeck.solvers import make_solver
from solodeck.solvers.blind import BlindPolicy
from solodeck.view import address, schema_problem, serve_in_thread, viewer_dir

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "viewer"
GAMES = list(registry.GAMES.values())
OPEN_LIMITS = Limits(max_states=2000, time_limit=0.5)  # a short line is enough to show
OPEN_BUDGET = 3.0  # seconds per game to look for a file with decisions (Dead Center's puzzles are slow)
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,900"]


# -- hint files for every game ----------------------------------------------------------------------
def puzzle_deals(game) -> list:
    """The game's won puzzles (a few games name theirs otherwise: then every puzzle not lost), then seed 0."""
    folder = ROOT / "puzzles" / game.name
    paths = sorted(folder.glob("win-*.toml")) or sorted(p for p in folder.glob("*.toml")
                                                         if not p.name.startswith(("lost-", "seed-")))
    return [load_deal(p) for p in paths] + [game.new_deal(0)]


def open_hints(game) -> dict:
    """An open-mode hint file: the first deal of puzzle_deals whose line the solver finds within
    OPEN_LIMITS; after OPEN_BUDGET seconds the last file made, even one without decisions. Games
    of several players: their first endgame puzzle, every seat's guarantee along it."""
    if game.several_players:
        deal = load_deal(sorted((ROOT / "puzzles" / game.name).glob("*.toml"))[0])
        return build_hand_hints(game, deal, game.solver(Limits(time_limit=10)))
    start, data = time.monotonic(), None
    for deal in puzzle_deals(game):
        # moves not valued within 1.5 s are written unknown (Dead Center's CP-SAT values took 27 s a file)
        solver = make_solver(game, dataclasses.replace(OPEN_LIMITS, deadline=time.perf_counter() + 1.5))
        data = build_hints(game, deal, solver.solve(game.initial_state(deal)), solver)
        if len(data["decisions"]) >= 3 or time.monotonic() - start > OPEN_BUDGET:
            break
    return data


def blind_hints(game, deal=None) -> dict:
    """A blind-mode hint file of ``deal`` (a short one: a puzzle's) if the blind line there has a
    few decisions, else of seed 0; one sample and a tiny exact budget per decision: fast."""
    policy = BlindPolicy(game, samples=1, exact_limits=Limits(max_states=50))
    # 1 s a file, the baseline playing on unvalued after it (as `solve --time-limit` writes them):
    # a rule that weighs odds at every decision (The Emissary's) took 10 s a game
    within = lambda: Limits(deadline=time.perf_counter() + 1)
    data = build_blind_hints(game, deal, policy, within()) if deal is not None else None
    if data is None or len(data["decisions"]) < 3:
        data = build_blind_hints(game, game.new_deal(0), policy, within())
    return data


def hint_files(game, folder: Path) -> dict[str, Path]:
    """{mode: path} of the game's hint files, written into ``folder``."""
    out = {"open": folder / f"{game.name}-open.json"}
    data = open_hints(game)
    write_hints(data, out["open"])
    if "blind" in game.modes:
        out["blind"] = folder / f"{game.name}-blind.json"
        write_hints(blind_hints(game, load_deal_data(game, data["deal"]) if data["decisions"] else None), out["blind"])
    return out


# -- the browser ------------------------------------------------------------------------------------
def load_deal_data(game, deal_data):
    from solodeck.deals import deal_from_data

    return deal_from_data(deal_data, f"{game.name} hint file deal")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium not installed (pip install -e '.[test]')"
    return None


def start_browser(width=1280, height=900):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    profile = tempfile.mkdtemp(prefix="solodeck-chromium-")
    options.add_argument(f"--user-data-dir={profile}")  # a fresh profile: nothing left from other runs
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.solodeck_profile = profile
    return driver


def stop_browser(driver):
    driver.quit()
    shutil.rmtree(driver.solodeck_profile, ignore_errors=True)


def open_page(driver, server, suffix="") -> str:
    """Load the page of ``server`` and wait until it is drawn; return its state (ready or error)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(address(server) + suffix)
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return document.body.dataset.state") in ("ready", "error"))
    return driver.execute_script("return document.body.dataset.state")


def console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def step(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.step"))


def shown_moves(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#moves-body tr.move-row td.move code')].map(c => c.textContent)")


def played_move(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#moves-body tr.played td.move code')].map(c => c.textContent)")


@pytest.fixture(scope="session")
def browser():
    why = browser_missing()
    if why:
        pytest.skip(f"browser tests skipped: {why}")
    driver = start_browser()
    yield driver
    stop_browser(driver)


@pytest.fixture(scope="session")
def hint_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("hints")


@pytest.fixture
def served():
    """served(path) -> a running server for that file; all are stopped after the test."""
    servers = []

    def start(path):
        servers.append(serve_in_thread(path))
        return servers[-1]

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def get(url) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


# -- the server and the command line (no browser needed) --------------------------------------------
def test_the_server_serves_the_page_the_file_and_the_schemas_and_nothing_else(served):
    server = served(FIXTURES / "v2-open.json")
    base = address(server)
    assert base.startswith("http://127.0.0.1:")
    status, page = get(base)
    assert status == 200 and b'<script src="viewer.js">' in page
    for name in ("viewer.js", "viewer.css"):
        assert get(base + name) == (200, (viewer_dir() / name).read_bytes())
    assert get(base + "hints.json") == (200, (FIXTURES / "v2-open.json").read_bytes())
    for version in (1, 2):
        status, body = get(f"{base}schema/hints-v{version}.schema.json")
        assert status == 200 and json.loads(body)["properties"]["version"] == {"const": version}
    for path in ("schema/hints-v9.schema.json", "schema/../hints.py", "../setup.py", "etc/passwd", "viewer"):
        assert get(base + path)[0] == 404, path


def test_the_page_uses_nothing_from_the_network():
    for name in ("index.html", "viewer.js", "viewer.css"):
        text = (viewer_dir() / name).read_text(encoding="utf-8")
        urls = [w for w in text.replace('"', " ").replace("'", " ").split() if "://" in w]
        # the only URL: SVG's namespace name, an identifier that is never fetched
        assert set(urls) <= {"http://www.w3.org/2000/svg"}, f"{name}: {urls}"


def test_schema_problem_names_the_place():
    good = json.loads((FIXTURES / "v2-blind.json").read_text())
    assert schema_problem(good) is None
    bad = copy.deepcopy(good)
    bad["decisions"][1]["picture"]["piles"][0]["cards"][0]["card"] = "1X"
    assert "decisions/1/picture/piles/0/cards/0/card" in schema_problem(bad)
    assert "version 7 is not one this solodeck reads" in schema_problem({**good, "version": 7})


def test_view_refuses_a_missing_or_broken_file_in_one_line(cli, tmp_path):
    proc = cli("view", tmp_path / "nope.json")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "no such file" in proc.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    proc = cli("view", broken)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "not valid JSON" in proc.stderr
    proc = cli("view", FIXTURES / "v2-open.json", "--port", "70000")
    assert proc.returncode == 2 and "--port" in proc.stderr


def test_view_help_teaches(cli):
    proc = cli("view", "--help")
    assert proc.returncode == 0
    for words in ("127.0.0.1", "--port", "arrow keys", "Ctrl-C", "solodeck solve deal.toml --hints"):
        assert words in proc.stdout, words


def test_view_serves_until_stopped_and_prints_the_address(tmp_path):
    bad = json.loads((FIXTURES / "v2-open.json").read_text())
    bad["mode"] = "closed"  # served anyway (the page explains), with a warning on the terminal
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = subprocess.Popen([sys.executable, "-m", "solodeck", "view", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = line.split(" at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and get(url + "hints.json") == (200, path.read_bytes())
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=10)
    assert "warning" in err and "mode" in err


# -- the page, in a real browser --------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_page_shows_every_game(game, browser, hint_folder, served):
    files = hint_files(game, hint_folder)
    with_decisions = 0
    for mode, path in files.items():
        data = json.loads(path.read_text())
        where = f"{game.name} {mode}"
        assert open_page(browser, served(path)) == "ready", f"{where}: " + browser.find_element("id", "error").text
        assert console_errors(browser) == [], where
        assert browser.find_element("id", "title").text == game.name
        decisions = data["decisions"]
        assert browser.execute_script("return document.body.dataset.steps") == str(len(decisions))
        assert len(browser.find_elements("css selector", "#line li")) == max(1, len(data["line"]))
        if not decisions:  # the search stopped before it found a line: said, not blank
            assert "no decisions" in browser.find_element("id", "stepinfo").text
            continue
        with_decisions += 1
        # each game's first and last decisions drawn (the buttons and keys: check_steps, once below)
        check_decision(browser, decisions, 1, where)
        browser.find_element("id", "last").click()
        check_decision(browser, decisions, len(decisions), where)
        assert console_errors(browser) == [], where
    assert with_decisions, f"{game.name}: no hint file with decisions to step through"


def check_decision(driver, decisions, number, where):
    """The page shows decision ``number`` (1-based): its moves, in order, and the move played."""
    decision = decisions[number - 1]
    assert step(driver) == number, where
    assert shown_moves(driver) == [m["move"] for m in decision["moves"]], f"{where}, decision {number}"
    assert played_move(driver) == [decision["played"]], f"{where}, decision {number}"
    assert driver.find_element("id", "position").get_attribute("textContent") == decision["position"]
    if "picture" in decision:  # version 2: every pile drawn, in order
        shown = driver.execute_script("return [...document.querySelectorAll('#picture .pile')].map(p => p.dataset.pile)")
        assert shown == [p["name"] for p in decision["picture"]["piles"]], f"{where}, decision {number}"


def check_steps(driver, decisions, where):
    from selenium.webdriver.common.keys import Keys

    body = driver.find_element("tag name", "body")
    last = len(decisions)
    check_decision(driver, decisions, 1, where)
    if last > 1:
        driver.find_element("id", "next").click()
        check_decision(driver, decisions, 2, where)
        driver.find_element("id", "prev").click()
        check_decision(driver, decisions, 1, where)
        body.send_keys(Keys.ARROW_RIGHT)
        check_decision(driver, decisions, 2, where)
        body.send_keys(Keys.ARROW_LEFT)
        check_decision(driver, decisions, 1, where)
    driver.find_element("id", "last").click()
    check_decision(driver, decisions, last, where)
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays
    check_decision(driver, decisions, last, where)
    assert driver.execute_script("return location.hash") == f"#step={last}"
    body.send_keys(Keys.HOME)
    check_decision(driver, decisions, 1, where)
    body.send_keys(Keys.END)
    check_decision(driver, decisions, last, where)
    driver.find_element("id", "first").click()
    check_decision(driver, decisions, 1, where)
    if last > 1:  # a move of the line, clicked: its decision
        driver.find_element("css selector", f'#line li[data-step="{last - 1}"]').click()
        check_decision(driver, decisions, last, where)


@pytest.mark.parametrize("name", ["v2-open.json", "v2-blind.json"])
def test_the_picture_of_a_version_2_file(name, browser, served):
    data = json.loads((FIXTURES / name).read_text())
    server = served(FIXTURES / name)
    for number, decision in enumerate(data["decisions"], start=1):
        assert open_page(browser, server, f"?n={number}#step={number}") == "ready"  # the hash picks the step
        assert console_errors(browser) == []
        check_decision(browser, data["decisions"], number, name)
        piles = decision["picture"]["piles"]
        shown = browser.execute_script("return [...document.querySelectorAll('#picture .pile')].map(p => p.dataset.pile)")
        assert shown == [p["name"] for p in piles]
        groups = browser.execute_script("return [...document.querySelectorAll('#picture .group')].map(g => g.dataset.group)")
        assert groups == list(dict.fromkeys(p.get("group", "") for p in piles))
        drawn = sum(len(p["cards"]) if p.get("spread") else min(1, len(p["cards"])) for p in piles)
        drawn += sum(1 for p in piles if not p["cards"] and p.get("count"))  # an unseen deck: one back
        assert len(browser.find_elements("css selector", "#picture svg.card")) == drawn
        known_down = sum(1 for p in piles for i, c in enumerate(p["cards"])
                         if c.get("down") and "card" in c and (p.get("spread") or i == len(p["cards"]) - 1))
        assert len(browser.find_elements("css selector", "#picture svg.card.down.known")) == known_down
        facts = decision["picture"].get("facts", {})
        assert [e.text for e in browser.find_elements("css selector", "#facts dt")] == list(facts)
        bars = [m for m in decision["moves"] if m.get("win_probability") is not None]
        assert len(browser.find_elements("css selector", "#moves-body .bar")) == len(bars)
        best = [m["move"] for m in decision["moves"] if m.get("best")]
        assert browser.execute_script(
            "return [...document.querySelectorAll('#moves-body tr.best td.move code')].map(c => c.textContent)") == best


def test_a_version_1_file_shows_the_text_position(browser, hint_folder, served):
    data = open_hints(registry.get_game("syndicate"))
    data["version"] = 1  # a file from before the pictures: version 2 without them
    for decision in data["decisions"]:
        decision.pop("picture", None)
    path = hint_folder / "syndicate-v1.json"
    write_hints(data, path)
    assert open_page(browser, served(path)) == "ready"
    assert console_errors(browser) == []
    assert browser.find_element("css selector", "#picture pre.textonly").text == data["decisions"][0]["position"].strip()
    assert browser.find_elements("css selector", "#picture svg.card") == []
    check_steps(browser, data["decisions"], "syndicate v1")


def broken_files(tmp_path):
    """(file name, its text, words the page must show)."""
    good = json.loads((FIXTURES / "v2-blind.json").read_text())
    wrong_verdict = copy.deepcopy(good)
    wrong_verdict["decisions"][2]["moves"][1]["verdict"] = "maybe"
    no_moves = copy.deepcopy(good)
    no_moves["decisions"][0]["moves"] = []
    extra = copy.deepcopy(good)
    extra["decisions"][1]["picture"]["piles"][3]["colour"] = "blue"
    return [
        ("verdict.json", json.dumps(wrong_verdict), ["/decisions/2/moves/1/verdict", '"winnable"', '"maybe"']),
        ("moves.json", json.dumps(no_moves), ["/decisions/0/moves", "at least 1 items"]),
        ("extra.json", json.dumps(extra), ["/decisions/1/picture/piles/3/colour", "unexpected field"]),
        ("version.json", json.dumps({**good, "version": 9}), ["version 9 is not known"]),
        ("format.json", json.dumps({"hello": 1}), ["not a solodeck hint file"]),
    ]


def test_a_file_that_breaks_the_schema_shows_what_is_wrong(browser, served, tmp_path):
    for name, text, words in broken_files(tmp_path):
        path = tmp_path / name
        path.write_text(text)
        assert open_page(browser, served(path)) == "error", name
        message = browser.find_element("id", "error").text
        for word in words:
            assert word in message, f"{name}: {word!r} not in {message!r}"
        assert not browser.find_element("id", "viewer").is_displayed()


def test_a_file_rewritten_as_broken_json_shows_the_parse_error(browser, served, tmp_path):
    path = tmp_path / "hints.json"
    shutil.copy(FIXTURES / "v2-open.json", path)
    server = served(path)  # the server checks the file when it starts; it is re-read on each load
    assert open_page(browser, server) == "ready"
    path.write_text('{"format": "solodeck-hints",')
    assert open_page(browser, server, "?again") == "error"
    assert "not valid JSON" in browser.find_element("id", "error").text


def test_the_pages_validator_agrees_with_jsonschema(browser, served):
    """The page's small validator against the jsonschema package, on the fixtures and mutations
    that break each keyword the schemas use."""
    import jsonschema

    good = json.loads((FIXTURES / "v2-blind.json").read_text())
    schema = json.loads((ROOT / "solodeck" / "schema" / "hints-v2.schema.json").read_text())
    mutations = {
        "valid": lambda d: None,
        "const": lambda d: d.update(format="other"),
        "required": lambda d: d.pop("line"),
        "type": lambda d: d.update(exact="yes"),
        "type list": lambda d: d.update(score=1.5),
        "enum": lambda d: d.update(status="done"),
        "items": lambda d: d["line"].append(3),
        "additional false": lambda d: d.update(colour=1),
        "additional schema": lambda d: d["decisions"][0]["picture"]["facts"].update(x=[1]),
        "ref + pattern": lambda d: d["decisions"][0]["picture"]["piles"][0]["cards"][0].update(back="HS"),
        "minLength": lambda d: d["decisions"][0]["picture"]["piles"][0].update(name=""),
        "minimum": lambda d: d["decisions"][0].update(ply=-1),
        "maximum": lambda d: d["decisions"][0]["moves"][0].update(win_probability=1.5),
        "minItems": lambda d: d["decisions"][0]["moves"][0].update(interval=[0.1]),
        "maxItems": lambda d: d["decisions"][0]["moves"][0].update(interval=[0.1, 0.2, 0.3]),
        "null allowed": lambda d: d["decisions"][0]["moves"][0].update(expected_score=None),
        "integer is a number": lambda d: d["decisions"][0]["moves"][0].update(expected_score=3),
    }
    server = served(FIXTURES / "v2-blind.json")
    assert open_page(browser, server) == "ready"
    for name, mutate in mutations.items():
        data = copy.deepcopy(good)
        mutate(data)
        expected = list(jsonschema.Draft202012Validator(schema).iter_errors(data)) != []
        found = browser.execute_script("return window.solodeckViewer.validate(arguments[0], arguments[1])", schema, data)
        assert bool(found) == expected, f"{name}: page {found}, jsonschema {'invalid' if expected else 'valid'}"
    assert name == "integer is a number" and not expected  # the last ones are valid: no false alarms


# -- the play page of `solodeck serve` ------------------------------------------------------------
def play_by_first_hint(driver, game: str, seed: int, mode: str) -> tuple[list, str]:
    """Open the play page on a seeded game and play it to the end, clicking at each decision with
    a choice the first move of a hint in ``mode`` (the only move where there is one). Returns the
    moves played and the page's final state."""
    from selenium.webdriver.support.ui import WebDriverWait

    from solodeck.server import serve_in_thread as serve_engine

    server = serve_engine()
    try:
        driver.get_log("browser")
        driver.get(address(server) + f"?game={game}&seed={seed}")
        wait = WebDriverWait(driver, 120)
        wait.until(lambda d: d.execute_script("return document.body.dataset.state") in ("ready", "over", "error"))
        driver.execute_script(f"document.getElementById('mode').value = '{mode}'")
        played = []
        while driver.execute_script("return document.body.dataset.state") == "ready":
            position = driver.execute_script("return document.body.dataset.position")
            legal = driver.execute_script("return [...document.querySelectorAll('#moves-body tr.move-row')].length")
            if legal > 1:
                driver.find_element("id", "hint").click()
                wait.until(lambda d: d.execute_script("return document.body.dataset.state") != "thinking"
                           and d.find_elements("css selector", "#moves-body td.rank"))
            row = driver.find_element("css selector", "#moves-body tr.move-row")
            played.append(row.get_attribute("data-move"))
            row.find_element("css selector", "button.play").click()
            wait.until(lambda d: d.execute_script("return document.body.dataset.position") != position
                       or d.execute_script("return document.body.dataset.state") == "error")
        assert console_errors(driver) == []
        return played, driver.execute_script("return document.body.dataset.state")
    finally:
        server.shutdown()
        server.server_close()


def test_the_play_page_plays_the_blind_policy_game_by_its_first_hints(browser):
    """Always clicking the first hinted blind move plays `solodeck play foursquare --seed N`'s game."""
    seed = 4
    out = subprocess.run([sys.executable, "-m", "solodeck", "play", "foursquare", "--seed", str(seed), "--json"],
                         capture_output=True, text=True, check=True)
    played, final = play_by_first_hint(browser, "foursquare", seed, "blind")
    assert final == "over" and played == json.loads(out.stdout)["moves"]


def test_the_play_page_wins_an_open_deal_by_its_hints(browser):
    """Syndicate has no chance: the open hints' first moves win the deal."""
    played, final = play_by_first_hint(browser, "syndicate", 3, "open")
    assert final == "over" and played
    status = browser.find_element("id", "status").text
    assert "won" in status, status
