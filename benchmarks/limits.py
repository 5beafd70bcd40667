"""Do the limits hold?  Each case is one fresh ``kamivision`` process with a time limit:
wall time against the promise T + max(1 s, 10 % of T), whether it answered (or refused in
one line), and its peak memory (target: under 2 GB).

    python benchmarks/limits.py [--seconds 10] [--only NAME ...]

The cases (seeded, written to a temporary folder):

* large random KAMI and Flood-It boards up to 200 x 200 with 64 colors, and a 1 x 100,000
  strip, under ``--seconds`` (or their own limit);
* a 300 x 300 Flood-It board in the 99problems format, a 20 x 20 tile board with two
  repeated labels, Threegrid6 with a limit of 0 s (when ../shared is there), a 35 MP
  screenshot, a 64 x 64 Safe Zone level with 500 zones, a beam of width 100,000;
* Flood-It and 8-puzzle collections of a million lines under ``--total-seconds``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kamivision.board import make_board, write_board

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def random_board(rng: random.Random, lattice: str, rows: int, columns: int, colors: int, rules: str):
    cells = [[rng.randrange(colors) for _ in range(columns)] for _ in range(rows)]
    return make_board(cells, lattice=lattice, rules=rules, palette=None)


def board_case(folder: Path, name: str, lattice: str, rows: int, columns: int, colors: int, rules: str) -> list[str]:
    board = random_board(random.Random(name), lattice, rows, columns, colors, rules)
    return ["solve", str(write_board(board, folder / f"{name}.json")), "--json"]


def floodit_99(folder: Path) -> list[str]:
    rng, n = random.Random(2), 300
    (folder / "p300").mkdir()
    (folder / "p300" / "300_300_08").write_text(
        f"{n} {n} 8\n" + " ".join(str(rng.randint(1, 8)) for _ in range(n * n)) + "\n"
    )
    return ["solve", str(folder / "p300"), "--rules", "pivot"]


def tile_board(folder: Path) -> list[str]:
    rng, n = random.Random(4), 20
    goal = list(range(1, n * n - 2)) + [5, 5, 0]  # two repeated labels
    cells, blank = goal[:], n * n - 1
    for _ in range(20_000):  # a random walk of the empty cell: solvable
        r, c = divmod(blank, n)
        rr, cc = rng.choice(
            [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= r + dr < n and 0 <= c + dc < n]
        )
        other = rr * n + cc
        cells[blank], cells[other], blank = cells[other], cells[blank], other
    grid = lambda a: [a[i * n : (i + 1) * n] for i in range(n)]  # noqa: E731
    path = folder / "tile20.json"
    path.write_text(
        json.dumps({"format": "kamivision.slide/1", "rows": n, "columns": n, "cells": grid(cells), "goal": grid(goal)})
    )
    return ["solve", str(path)]


def huge_screenshot(folder: Path) -> list[str]:
    from PIL import Image

    path = folder / "huge.png"
    Image.open(ROOT / "samples" / "delta.jpg").convert("RGB").resize((4320, 9120)).save(path)  # 39 MP
    return ["solve", str(path), "-o", str(folder / "huge-out.png")]


def safe_zone(folder: Path) -> list[str]:
    rng, n = random.Random(3), 64
    cells = [[1] * n for _ in range(n)]
    picked = rng.sample(range(n * n), 1000)
    for k, cell in enumerate(picked):
        cells[cell // n][cell % n] = 4 if k < 500 else 2  # 500 zones, 500 blocks
    path = folder / "sz64.json"
    path.write_text(json.dumps({"format": "kamivision.safezone/1", "rows": n, "columns": n, "cells": cells}))
    return ["solve", str(path)]


def beam(folder: Path) -> list[str]:
    return board_case(folder, "pivot-40x40-8c", "square", 40, 40, 8, "pivot")[:2] + ["--beam", "100000"]


def collection(folder: Path, kind: str) -> list[str]:
    rng = random.Random(5)
    if kind == "floodit":
        line = "".join(str(rng.randrange(4)) for _ in range(16))
    else:
        line = "1 2 3 4 0 5 6 7 8"  # an 8-puzzle
    path = folder / f"{kind}-million.txt"
    with open(path, "w") as handle:
        handle.writelines(line + "\n" for _ in range(1_000_000))
    return ["solve", str(path)] + (["--rules", "pivot"] if kind == "floodit" else [])


def cases(seconds: float):
    """(name, limit in seconds, maker of the command's arguments, limit option)."""
    out = [
        ("kami2-29x10-5c", seconds, lambda f: board_case(f, "kami2-29x10-5c", "triangle", 29, 10, 5, "free")),
        ("tri-100x100-64c", seconds, lambda f: board_case(f, "tri-100x100-64c", "triangle", 100, 100, 64, "free")),
        ("sq-100x100-10c", seconds, lambda f: board_case(f, "sq-100x100-10c", "square", 100, 100, 10, "free")),
        ("kami-200x200-64c", 10, lambda f: board_case(f, "kami-200x200-64c", "square", 200, 200, 64, "free")),
        ("pivot-200x200-64c", 10, lambda f: board_case(f, "pivot-200x200-64c", "square", 200, 200, 64, "pivot")),
        ("strip-1x100000-6c", 5, lambda f: board_case(f, "strip-1x100000-6c", "square", 1, 100_000, 6, "free")),
        ("99problems-300x300", 3, floodit_99),
        ("tile-20x20-repeats", 3, tile_board),
        ("screenshot-39MP", 1, huge_screenshot),
        ("safezone-64x64-500z", 2, safe_zone),
        ("beam-100000", 2, beam),
        ("floodit-1e6-lines", 3, lambda f: collection(f, "floodit")),
        ("8puzzle-1e6-lines", 3, lambda f: collection(f, "korf")),
    ]
    threegrid = SHARED / "kami2-journey" / "18-6-Threegrid6.json"
    if threegrid.is_file():
        out.append(("threegrid6", 0, lambda f: ["solve", str(threegrid)]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="the limit of the random-board cases")
    parser.add_argument("--only", nargs="*", help="run only these cases")
    args = parser.parse_args()
    exe = shutil.which("kamivision") or str(Path(sys.executable).with_name("kamivision"))
    timer = shutil.which("time") or "/usr/bin/time"
    header = f"{'case':<22} {'limit':>6} {'allowed':>8} {'wall':>7} {'held':>5} {'answer':>9} {'MB':>6}"
    print(header)
    print("-" * len(header))
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for name, limit, make in cases(args.seconds):
            if args.only and name not in args.only:
                continue
            option = "--total-seconds" if "lines" in name else "--max-seconds"
            command = [timer, "-f", "%M", exe, *make(folder), option, f"{limit:g}"]
            allowed = limit + max(1.0, 0.1 * limit)
            cap = limit * 5 + 60
            started = time.perf_counter()
            process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
            )
            try:
                out, err = process.communicate(timeout=cap)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # the solver too, not only the timer
                process.communicate()
                print(
                    f"{name:<22} {limit:>6g} {allowed:>8.1f} {'>' + format(cap, '.0f'):>7} {'NO':>5} {'killed':>9}",
                    flush=True,
                )
                failures += 1
                continue
            wall = time.perf_counter() - started
            lines = err.strip().splitlines()
            try:
                mb = int(lines[-1]) / 1024
            except (ValueError, IndexError):
                mb = 0.0
            answer = "answered"
            told = [line for line in lines[:-1] if not line.startswith("Command exited")]  # less time's own
            if process.returncode == 0:
                pass
            elif process.returncode == 1 and len(told) == 1 and told[0].startswith("kamivision:"):
                answer = "refused"  # one line on stderr: a clear refusal, never a traceback
            else:
                answer = f"exit {process.returncode}"
            held = wall <= allowed and mb < 2048 and answer in ("answered", "refused")
            failures += not held
            print(
                f"{name:<22} {limit:>6g} {allowed:>8.1f} {wall:>7.2f} {'yes' if held else 'NO':>5} {answer:>9} {mb:>6.0f}",
                flush=True,
            )
    print("-" * len(header))
    print(f"cases over their allowance, over 2 GB or without an answer: {failures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
