"""The reader on screens no phone table limits: random layouts from a seeded generator.

    python benchmarks/layouts.py --screens 1000 [--seed 0] [--boards DIR] [--jobs 2]

Each screen ``i`` is drawn from ``numpy.random.default_rng(seed + i)`` by
:func:`kamivision.synth.screens.random_device` (widths 480-1600, shapes 4:3 to 22:9, status
strips pale, black or with a camera cut-out, a row or a 2 x 2 of buttons with the counter
in any slot, a gesture pill, Android's buttons or a translucent bar, the board filling
the width, letterboxed or cropped), with a random board (the Journey's levels when
``../shared/data/kami2-journey`` is there, else ``samples/``), a counter of 1 to 20, then
a little blur, a scale of 0.5 to 1 and JPEG at quality 60 to 95 (or PNG).  A failure is
reproduced from its seed: ``--seed N --screens 1``.  ``--jobs 2`` draws and reads the
screens in two processes (the same rows, in the same order, in half the time; the read
times then include the other process's load: take them from ``--jobs 1``).

Counted per screen: ``refused`` (one line, never an answer); ``cells``: cells right
among those a quarter or more of which shows (the true geometry, not the reader's);
``silent``: wrong cells not flagged as uncertain (any visibility), none on a screen
whose colors are in doubt (``colors?``: the answer says to check the whole board); the
counter ``right``, ``unsure`` (reported as not read) or ``WRONG`` (a number that is not
the one drawn).  Printed by footer kind, bar kind and shape, after a line for each screen
refused, with a cell wrong, its colors in doubt or its counter not read right (all with
``--verbose``).
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import statistics
import sys
import time
from collections import defaultdict
from contextlib import nullcontext
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from kamivision.board import differing_cells, read_board
from kamivision.errors import ImageError
from kamivision.geometry import label_image
from kamivision.synth.render import render
from kamivision.synth.screens import random_device
from kamivision.vision import recognize

ROOT = Path(__file__).resolve().parents[1]


def boards(folder: Path | None):
    """Triangle boards to draw: every board file in ``folder``, or the Journey's, or the samples'."""
    for candidate in [folder, ROOT.parent / "shared" / "data" / "kami2-journey", ROOT / "samples"]:
        if candidate is not None and candidate.is_dir():
            found = [read_board(p) for p in sorted(candidate.glob("*.json")) if p.name != "index.json"]
            found = [b for b in found if b.lattice == "triangle" and (b.rows, b.columns) == (29, 10)]
            if found:
                return found
    raise SystemExit("no board files found")


def true_visible(device, layout, shape) -> np.ndarray:
    """The share of each cell the drawn screen shows (between the status strip and the footer)."""
    h, w = shape
    labels = label_image("triangle", 29, 10, layout.board, (h, w))
    top = round(device.top * w)
    labels[:top] = -1
    labels[layout.footer[1] :] = -1
    bw, bh = layout.board[2], layout.board[3]
    area = (bw / 10) * (bh / 14) / 2
    counts = np.bincount(labels[labels >= 0], minlength=290)
    return np.minimum(1.0, counts / area).reshape(29, 10)


def one_screen(seed: int, pool) -> dict:
    rng = np.random.default_rng(seed)
    device = random_device(rng)
    board = pool[int(rng.integers(len(pool)))]
    moves = int(rng.integers(1, 21))
    image, layout = render(board, device, seed=seed, moves=moves, selected=int(rng.integers(0, 3)))
    visible = true_visible(device, layout, image.shape[:2])
    sigma = float(rng.uniform(0.0, 0.8))
    if sigma > 0.2:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    scale = float(rng.choice([1.0, rng.uniform(0.5, 1.0)]))
    if scale != 1.0:
        h, w = image.shape[:2]
        image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    buf = io.BytesIO()
    quality = int(rng.integers(60, 96)) if rng.random() < 0.75 else None
    Image.fromarray(image).save(buf, format="JPEG" if quality else "PNG", **({"quality": quality} if quality else {}))
    rgb = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    kind = {
        "footer": "row" if device.style == "classic" else "2x2",
        "bar": device.nav_bar or ("overlay" if device.nav_overlay else "none"),
        "shape": _shape(device.height / device.width),
        "board": "fills" if device.board_width == 1.0 else ("cropped" if device.board_width > 1 else "letterbox"),
    }
    out = {"seed": seed, **kind, "device": device.name, "counter": moves}
    out.update(score(rgb, f"screen {seed}", board, visible))
    return out


def score(rgb: np.ndarray, origin: str, board, visible: np.ndarray) -> dict:
    """Read ``rgb`` and score it against the true ``board``: ``refused`` (the one-line
    error), or the cells a quarter or more of which shows (``visible``) and how many are
    right, the silent errors, whether the colors are in doubt, the counter read, and the
    colors' count; ``ms`` either way."""
    started = time.perf_counter()
    try:
        rec = recognize(rgb, origin)
    except ImageError as error:
        return {"refused": str(error), "ms": 1000 * (time.perf_counter() - started)}
    out = {"ms": 1000 * (time.perf_counter() - started)}
    wrong = set(differing_cells(rec.board, board))
    shown = visible >= 0.25
    out["cells"] = int(shown.sum())
    out["right"] = int(shown.sum()) - sum(1 for r, c in wrong if shown[r, c])
    # Colors in doubt: the answer tells the player to check the whole board, so no wrong
    # cell is silent there; such screens are counted on their own ("colors?").
    out["doubt"] = bool(rec.palette_doubt)
    out["silent"] = 0 if rec.palette_doubt else len(wrong - set(rec.uncertain))
    out["read"] = rec.board.par
    out["colors"] = len(rec.board.palette) == len(board.colors_used())
    return out


def _shape(aspect: float) -> str:
    for limit, name in ((1.5, "4:3-3:2"), (1.85, "16:9"), (2.1, "19:9"), (9.0, "20:9+")):
        if aspect < limit:
            return name
    return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--screens", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boards", type=Path, default=None)
    parser.add_argument("--verbose", action="store_true", help="a line for every screen, not only the bad ones")
    parser.add_argument("--jobs", type=int, default=1, help="processes drawing and reading screens")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.screens)
    rows = []
    with multiprocessing.Pool(args.jobs, _load_boards, (args.boards,)) if args.jobs > 1 else nullcontext() as workers:
        if workers is None:
            _load_boards(args.boards)
        for row in workers.imap(_screen, seeds) if workers else map(_screen, seeds):
            rows.append(row)
            # A line for each flawed read, and for each counter not read right (unsure too).
            if reading_flawed(row) or row.get("read") != row["counter"] or args.verbose:
                what = reading_note(row)
                what += "" if "refused" in row else f", counter {row['read']} (drawn {row['counter']})"
                print(
                    f"seed {row['seed']:>6} {row['device']:>20} {row['footer']:>4} {row['bar']:>8} "
                    f"{row['board']:>9}: {what}",
                    flush=True,
                )
    print()
    header = f"{'group':<22} {'screens':>7} {READING_HEADER} {'ctr right':>9} {'unsure':>6} {'WRONG':>5}"
    print(header)
    print("-" * len(header))
    for key in ("footer", "bar", "shape", "board", None):
        groups = defaultdict(list)
        for row in rows:
            groups["all" if key is None else f"{key}={row[key]}"].append(row)
        for name in sorted(groups):
            print(_line(name, groups[name]))
    times = [row["ms"] for row in rows]
    print(f"\nread time: median {statistics.median(times):.0f} ms, max {max(times):.0f} ms")
    return 0


_POOL: list = []


def _load_boards(folder: Path | None) -> None:
    """Each process's boards to draw (:func:`boards`), loaded once."""
    _POOL[:] = boards(folder)


def _screen(seed: int) -> dict:
    return one_screen(seed, _POOL)


def reading_flawed(row: dict) -> bool:
    """Whether a read (or refusal) is worth a line of its own: refused, silent errors,
    colors in doubt or cells wrong."""
    return "refused" in row or bool(row["silent"]) or row["doubt"] or row["right"] < row["cells"]


def reading_note(row: dict) -> str:
    """A line's account of a read: the refusal, or the cells right, the silent errors and
    whether the colors are in doubt."""
    if "refused" in row:
        return row["refused"]
    return f"cells {row['right']}/{row['cells']}, silent {row['silent']}" + (
        ", colors in doubt" if row["doubt"] else ""
    )


#: The columns every reading table has (:func:`reading_columns`).
READING_HEADER = f"{'refused':>7} {'cells right':>12} {'silent':>6} {'colors?':>7}"


def reading_columns(rows: list[dict]) -> tuple[list[dict], str]:
    """The rows read (not refused), and the columns of :data:`READING_HEADER` for them all:
    refused, the share of cells right, silent errors, pictures with the colors in doubt."""
    read = [r for r in rows if "refused" not in r]
    cells = sum(r["cells"] for r in read)
    share = f"{100 * sum(r['right'] for r in read) / cells:.2f} %" if cells else "-"
    silent, doubt = sum(r["silent"] for r in read), sum(1 for r in read if r["doubt"])
    return read, f"{len(rows) - len(read):>7} {share:>12} {silent:>6} {doubt:>7}"


def _line(name: str, rows: list[dict]) -> str:
    read, columns = reading_columns(rows)
    ctr_right = sum(1 for r in read if r["read"] == r["counter"])
    unsure = sum(1 for r in read if r["read"] is None)
    wrong = sum(1 for r in read if r["read"] not in (None, r["counter"]))
    ctr = f"{100 * ctr_right / len(read):.1f} %" if read else "-"
    return f"{name:<22} {len(rows):>7} {columns} {ctr:>9} {unsure:>6} {wrong:>5}"


if __name__ == "__main__":
    sys.exit(main())
