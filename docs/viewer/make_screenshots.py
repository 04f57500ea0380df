"""Screenshots of the hint viewer, one per game: docs/viewer/<game>.png (linked from docs/games.md).

    python docs/viewer/make_screenshots.py            every implemented game
    python docs/viewer/make_screenshots.py boba skyway
    python docs/viewer/make_screenshots.py --time-limit 3 syndicate hide-and-seek

``--time-limit S``: open files valued with S seconds a search instead of the tests' small limits,
so every move shows its value (the committed Syndicate and Hide and Seek pictures: 3 s).

Each game's hint file is made as in tests/test_viewer.py (open mode from a won puzzle or seed 0
within small limits; blind mode on seed 0 where the open file has no line), served with
solodeck.view, opened in Debian's headless Chromium at the decision halfway through the line,
and captured at the page's full height. Needs chromium, chromium-driver and selenium.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))  # the hint files and the browser, as the tests make them

from test_viewer import GAMES, browser_missing, hint_files, open_page, start_browser, stop_browser  # noqa: E402

from solodeck.view import serve_in_thread  # noqa: E402

WIDTH = 1200


def main(names) -> int:
    if names[:1] == ["--time-limit"]:
        import test_viewer
        from solodeck.result import Limits

        test_viewer.OPEN_LIMITS = Limits(time_limit=float(names[1]))
        names = names[2:]
    why = browser_missing()
    if why:
        print(f"make_screenshots: {why}", file=sys.stderr)
        return 2
    games = [g for g in GAMES if not names or g.name in names]
    driver = start_browser(WIDTH, 900)
    try:
        with tempfile.TemporaryDirectory() as folder:
            for game in games:
                files = hint_files(game, Path(folder))
                mode = "open" if json.loads(files["open"].read_text())["decisions"] else "blind"
                data = json.loads(files[mode].read_text())
                server = serve_in_thread(files[mode])
                try:
                    step = len(data["decisions"]) // 2 + 1
                    assert open_page(driver, server, f"#step={step}") == "ready", game.name
                    height = driver.execute_script("return document.documentElement.scrollHeight")
                    driver.set_window_size(WIDTH, min(height + 120, 2400))  # + the window's frame
                    out = HERE / f"{game.name}.png"
                    driver.save_screenshot(str(out))
                    print(f"{out.relative_to(HERE.parent.parent)}: {mode}, decision {step} of {len(data['decisions'])}")
                finally:
                    server.shutdown()
                    server.server_close()
    finally:
        stop_browser(driver)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
