"""The main job end to end on screenshots with a known par: read, solve, draw.

    python benchmarks/screenshots.py ../shared/data/screenshots --max-seconds 60 [--out DIR]

For every entry of ``DIR/truth.json``: the par on screen, the par read, the moves found,
proven?, whether the length equals par, the counter check when it ran (``k/n``: k of the n
other readings tried met the counter; ``+`` when the likeliest one changes only cells that
were truly misread, ``-`` when it changes a cell that was read right, ``?`` without a truth
board), seconds (reading + solving + checking + drawing).  With
``--out`` the overlays are written there (``NAME-solution.png``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from kamivision.board import differing_cells, read_board
from kamivision.errors import KamiError
from kamivision.files import write_atomic
from kamivision.overlay import png_bytes
from kamivision.pipeline import solve_screenshot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--max-seconds", type=float, default=60.0, help="solver limit per screenshot")
    parser.add_argument("--out", type=Path, help="write the overlays into this folder")
    args = parser.parse_args()
    entries = json.loads((args.folder / "truth.json").read_text())["screenshots"]
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    header = (
        f"{'screenshot':<44} {'par':>3} {'read':>4} {'moves':>5} {'proven':>6} {'=par':>4} {'check':>8} {'seconds':>7}"
    )
    print(header)
    print("-" * len(header))
    at_par = proven = 0
    total = 0.0
    for entry in entries:
        started = time.perf_counter()
        try:
            result = solve_screenshot(args.folder / entry["file"], max_seconds=args.max_seconds)
            if args.out:
                name = Path(entry["file"]).stem
                write_atomic(args.out / f"{name}-solution.png", png_bytes(result.overlay()), overwrite=True)
        except KamiError as error:
            print(f"{entry['file']:<44} FAILED: {error}")
            continue
        seconds = time.perf_counter() - started
        total += seconds
        n, par = result.solution.length, entry["par"]
        at_par += n == par
        proven += result.solution.optimal
        mark = "yes" if n == par else ("<" if n < par else "NO")
        check = _check_column(result, args.folder, entry)
        print(
            f"{entry['file']:<44} {par:>3} {str(result.recognition.board.par):>4} {n:>5} "
            f"{'yes' if result.solution.optimal else 'NO':>6} {mark:>4} {check:>8} {seconds:>7.2f}",
            flush=True,
        )
    print("-" * len(header))
    print(f"{len(entries)} screenshots: {at_par} at par, {proven} proven optimal; {total:.1f} s in all")
    return 0


def _check_column(result, folder: Path, entry: dict) -> str:
    check = result.check
    if check is None:
        return "-"
    text = f"{len(check.matching)}/{check.tried}"
    if check.best is None:
        return text
    if not entry.get("board"):
        return text + "?"
    wrong = set(differing_cells(result.recognition.board, read_board(folder / entry["board"])))
    return text + ("+" if all((r, c) in wrong for r, c, _, _ in check.best.changes) else "-")


if __name__ == "__main__":
    sys.exit(main())
