"""Run every command of README.md's Examples block, in order, in a scratch folder, and time each:
seconds to the first output (stdout or stderr) and seconds to the end. The brief: every example
finishes within a minute on this machine and says something within a few seconds.

    python bench/readme_examples.py [--limit 60] [--out results/readme-examples.txt]

`solodeck view` serves until stopped: it counts as done once it prints its address.
"""
import argparse
import os
import re
import selectors
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def examples() -> list:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Examples", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        if command:
            commands.append(command)
    return commands


def run(command: str, cwd: Path, limit: float):
    """(seconds to the first output or None, seconds in all, exit status or 'killed', last line)."""
    start = time.perf_counter()
    proc = subprocess.Popen(["bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    selector.register(proc.stderr, selectors.EVENT_READ)
    first, last, status, open_pipes = None, "", None, 2
    while open_pipes and time.perf_counter() - start < limit:
        for key, _ in selector.select(timeout=0.2):
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                selector.unregister(key.fileobj)
                open_pipes -= 1
                continue
            first = first if first is not None else time.perf_counter() - start
            lines = [l for l in data.decode(errors="replace").splitlines() if l.strip()]
            last = lines[-1] if lines else last
            if command.startswith("solodeck view") and "viewing" in last:
                status = "serving"
                open_pipes = 0
                break
    if status is None:  # the output is closed: the command is ending
        try:
            proc.wait(timeout=max(0.0, limit - (time.perf_counter() - start)))
        except subprocess.TimeoutExpired:
            pass
    if proc.poll() is None:
        proc.kill()
        status = status or "killed"
    proc.wait()
    return first, time.perf_counter() - start, status if status else proc.returncode, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before a command is killed")
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        (work / "puzzles").symlink_to(ROOT / "puzzles")
        for command in examples():
            first, total, status, last = run(command, work, args.limit)
            ok = status in (0, "serving") and total <= args.limit
            rows.append(f"{'ok ' if ok else 'NO '} {'-' if first is None else f'{first:5.1f}'} {total:6.1f}  "
                        f"{status!s:>7}  {command}")
            print(rows[-1], flush=True)
    load = os.getloadavg()[0]
    footer = f"(first output, total seconds; limit {args.limit:g} s; load average at the end {load:.1f} on {os.cpu_count()} cores)"
    print(footer)
    if args.out:
        args.out.write_text("ok? first  total   status  command\n" + "\n".join(rows) + "\n" + footer + "\n")
    return 0 if all(r.startswith("ok") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
