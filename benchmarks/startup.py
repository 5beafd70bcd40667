"""Start-up included: wall time of one fresh ``kamivision`` process per task.

    python benchmarks/startup.py ../shared/data/kami2-journey [--repeat 3] [--shots samples]

Rows: the bare interpreter, ``kamivision --help``, ``--version``, ``solve`` of every
screenshot in ``--shots`` (the whole command: start-up, reading, solving, the doubt, the
picture written to a temporary folder), and ``solve`` of every Journey level's board
file, one fresh process each (the best of ``--repeat`` runs); the table ends with the
median and the total over the levels, and the totals over the levels that are proven
within the limit.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wall(command: list[str], repeat: int) -> tuple[float, str]:
    """The best of ``repeat`` runs (one, when a run takes a second or more) and its output."""
    best, out = float("inf"), ""
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        best = min(best, time.perf_counter() - started)
        out = done.stdout
        if best >= 1.0:
            break
    return best, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("levels", type=Path, help="folder of board files")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--shots", type=Path, default=None, help="folder of screenshots to solve too")
    args = parser.parse_args()
    exe = shutil.which("kamivision") or str(Path(sys.executable).with_name("kamivision"))
    print(f"{'task':<34} {'seconds':>8}")
    print("-" * 43)
    for name, command in (
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("kamivision --help", [exe, "--help"]),
        ("kamivision --version", [exe, "--version"]),
    ):
        print(f"{name:<34} {wall(command, args.repeat)[0]:>8.3f}", flush=True)
    if args.shots is not None:
        with tempfile.TemporaryDirectory() as out:
            for shot in sorted(p for p in args.shots.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg")):
                command = [exe, "solve", str(shot), "-o", str(Path(out) / "answer.png"), "--force"]
                print(f"solve {shot.name:<28} {wall(command, args.repeat)[0]:>8.3f}", flush=True)
    times, proven = [], []
    for path in sorted(args.levels.glob("*.json")):
        seconds, out = wall([exe, "solve", str(path), "--json", "--max-seconds", str(args.max_seconds)], args.repeat)
        times.append(seconds)
        try:
            optimal = json.loads(out)["optimal"]
        except (ValueError, KeyError):
            print(f"solve {path.stem:<28} {'failed':>8}  (not a board file?)")
            continue
        if optimal:
            proven.append(seconds)
        print(f"solve {path.stem:<28} {seconds:>8.3f}{'' if optimal else '  (not proven)'}", flush=True)
    print("-" * 43)
    if times:  # an empty folder: the screenshots' rows alone
        print(
            f"{len(times)} levels: median {statistics.median(times):.3f} s, total {sum(times):.1f} s; "
            f"{len(proven)} proven: total {sum(proven):.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
