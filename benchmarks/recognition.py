"""Recognition against screenshots with known answers; prints a table and totals.

    python benchmarks/recognition.py ../shared/data/screenshots

``layout`` is the button block as found ("1x4": a row of four buttons; "2x2"), with ``/crop``
when the board was measured wider than the screen.

Each screenshot is then solved (``--max-seconds``, 10 by default) and its doubt tied to
the answer (:mod:`kamivision.check.doubt`): ``shown`` is the number of cells shown to the player
to check (those whose other readings change the moves; all of them when the colors are in
doubt), ``holds`` whether the moves shown solve the *true* board in the same number of
moves.  ``silent`` counts the wrong cells the player is not told about: wrong cells the
reader did not flag at all, and, when the moves fail on the true board and none of the
wrong cells is among those shown, all of them (when one is shown, the player checks it,
fixes it and solves again, with the others still doubtful).  ``ms`` is the reading; ``total`` the whole screenshot command's work (reading,
solving, the doubt), without starting Python.

``DIR/truth.json`` lists ``screenshots``: ``file``, ``par`` and, when known, ``board`` (a
board file, relative to DIR).  Cells wrong are counted up to a one-to-one renaming of the
colors (blank cells must match exactly); a *silent* error is a wrong cell the reader did
not list as uncertain (the worst failure: a confident wrong answer).  ``hidden`` counts the
cells the screen shows less than a quarter of (a board cropped at the sides), and ``wr.h``
the wrong cells among them.  The palette size is checked against the colors the true
board uses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from kamivision.board import differing_cells, read_board
from kamivision.check.doubt import Replay, assess, plausible_readings
from kamivision.errors import KamiError
from kamivision.pipeline import solve_screenshot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--max-seconds", type=float, default=10.0, help="the solve's limit per screenshot")
    args = parser.parse_args()
    entries = json.loads((args.folder / "truth.json").read_text())["screenshots"]
    header = (
        f"{'screenshot':<40} {'size':>9} {'layout':>10} {'wrong':>5} {'silent':>6} {'uncert':>6} {'hidden':>6} "
        f"{'wr.h':>4} {'shown':>5} {'holds':>5} {'palette':>7} {'par':>7} {'ms':>5} {'total':>6}"
    )
    print(header)
    print("-" * len(header))
    times, boards, wrong_total, perfect, palette_ok, par_ok, failed = [], 0, 0, 0, 0, 0, 0
    silent_total, uncertain_all, hidden_wrong_total = 0, [], 0
    shown_clean, shown_inked, totals, broken, replays = [], [], [], 0, []
    for entry in entries:
        path = args.folder / entry["file"]
        try:
            started = time.perf_counter()
            shot = solve_screenshot(path, max_seconds=args.max_seconds, check_seconds=0)
            total = 1000 * (time.perf_counter() - started)
        except KamiError as error:
            print(f"{entry['file']:<40} FAILED: {error}")
            failed += 1
            continue
        rec, doubt = shot.recognition, shot.doubt
        started = time.perf_counter()
        assess(rec.board, shot.solution.moves, plausible_readings(rec))
        replays.append(1000 * (time.perf_counter() - started))
        times.append(rec.milliseconds)
        totals.append(total)
        shown_cells = set(doubt.doubtful if doubt.palette else doubt.matters)
        shown_cells = {divmod(c, rec.board.columns) for c in shown_cells}
        wrong = silent = hidden_wrong = "-"
        holds = "?"
        pal = "?"
        uncertain_all.append(len(rec.uncertain))
        (shown_inked if "ink" in entry.get("layout_note", "") else shown_clean).append(len(shown_cells))
        if entry.get("board"):
            truth = read_board(args.folder / entry["board"])
            cells = differing_cells(rec.board, truth)
            wrong_n = len(cells)
            held = Replay(truth, shot.solution.moves).steps == shot.solution.length
            holds = "yes" if held else "NO"
            broken += not held
            unflagged = set(cells) - set(rec.uncertain)
            silent_n = len(unflagged if held or set(cells) & shown_cells else set(cells))
            hidden_n = len(set(cells) & set(rec.hidden))
            wrong, silent, hidden_wrong = str(wrong_n), str(silent_n), str(hidden_n)
            silent_total += silent_n
            hidden_wrong_total += hidden_n
            boards += 1
            wrong_total += wrong_n
            perfect += wrong_n == 0
            used = len({v for row in truth.cells for v in row if v is not None})
            pal_right = used == len(rec.board.palette or [])
            palette_ok += pal_right
            pal = "ok" if pal_right else f"{len(rec.board.palette or [])}!={used}"
        else:
            palette_ok += 1  # no truth board: counted by the par check only
            pal = "n/a"
        par_right = rec.board.par == entry.get("par")
        par_ok += par_right
        par = "ok" if par_right else f"{rec.board.par}!={entry.get('par')}"
        size = f"{rec.layout.width}x{rec.layout.height}"
        layout = rec.layout.name + ("/crop" if rec.layout.cropped else "")
        print(
            f"{entry['file']:<40} {size:>9} {layout:>10} {wrong:>5} {silent:>6} {len(rec.uncertain):>6} "
            f"{len(rec.hidden):>6} {hidden_wrong:>4} {len(shown_cells):>5} {holds:>5} {pal:>7} {par:>7} "
            f"{rec.milliseconds:>5.0f} {total:>6.0f}",
            flush=True,
        )
    print("-" * len(header))
    median = statistics.median(times) if times else float("nan")
    print(
        f"{len(entries)} screenshots ({failed} failed): {perfect}/{boards} boards with 0 cells wrong "
        f"({wrong_total} cells wrong in all); palette size right on {palette_ok - (len(entries) - boards - failed)}/{boards} "
        f"with a truth board; par right on {par_ok}/{len(entries)}; median {median:.0f} ms"
    )
    print(
        f"silent errors (wrong and not told): {silent_total}; wrong cells among the hidden: {hidden_wrong_total}; "
        f"uncertain cells per screenshot: median {statistics.median(uncertain_all) if uncertain_all else 0:g}, "
        f"max {max(uncertain_all, default=0)}"
    )
    print(
        f"cells shown to check: clean shots median {statistics.median(shown_clean) if shown_clean else 0:g}, "
        f"max {max(shown_clean, default=0)}; inked tall shots {sorted(shown_inked)}; "
        f"moves that fail on the true board: {broken}; whole command median {statistics.median(totals) if totals else 0:.0f} ms; "
        f"the doubt's replays median {statistics.median(replays) if replays else 0:.1f} ms, max {max(replays, default=0):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
