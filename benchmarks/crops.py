"""Pictures of the board alone: random screens cropped to their board, read with no footer.

    python benchmarks/crops.py --pictures 300 [--seed 0] [--boards DIR]

Each picture ``i`` is a screen from ``random_device(numpy.random.default_rng(seed + i))``
with a random board (the Journey's when ``../shared/data/kami2-journey`` is there),
cropped one of three ways, in turn:

* ``band``: the rows that show the board, the screen's whole width (a crop that cuts off
  the status strip and the footer);
* ``tight``: the same rows and only the board's columns where they show;
* ``loose``: the band with 2 % of the width more above and below (a little of the strip
  and the footer kept);

then saved as JPEG at quality 70 to 95 half the time.  Counted as in
``benchmarks/layouts.py``: refused (one line), cells right among those a quarter or more
of which shows, silent errors (wrong cells not flagged; none on a picture whose colors
are in doubt, ``colors?``: the answer says to check the whole board), and whether the
number of colors read is the board's.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

from kamivision.synth.render import render
from kamivision.synth.screens import random_device

sys.path.insert(0, str(Path(__file__).resolve().parent))
from layouts import READING_HEADER, boards, reading_columns, reading_flawed, reading_note, score, true_visible  # noqa: E402  (the same boards and scoring as the screens' benchmark)

MODES = ("band", "tight", "loose")


def one_picture(seed: int, pool) -> dict:
    rng = np.random.default_rng(seed)
    device = random_device(rng)
    board = pool[int(rng.integers(len(pool)))]
    image, layout = render(board, device, seed=seed, moves=5)
    visible = true_visible(device, layout, image.shape[:2])
    x, y, w, h = layout.board
    top = max(0, round(device.top * device.width), round(y))
    bottom = min(layout.footer[1], round(y + h))
    mode = MODES[seed % 3]
    left, right = 0, image.shape[1]
    if mode == "tight":
        left, right = max(0, round(x)), min(image.shape[1], round(x + w))
    elif mode == "loose":
        margin = round(0.02 * device.width)
        top, bottom = max(0, top - margin), min(image.shape[0], bottom + margin)
    crop = np.ascontiguousarray(image[top:bottom, left:right])
    if rng.random() < 0.5:
        buf = io.BytesIO()
        Image.fromarray(crop).save(buf, format="JPEG", quality=int(rng.integers(70, 96)))
        crop = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    return {"seed": seed, "mode": mode, "device": device.name, **score(crop, f"picture {seed}", board, visible)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pictures", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boards", type=Path, default=None)
    args = parser.parse_args()
    pool = boards(args.boards)
    rows = []
    for i in range(args.pictures):
        row = one_picture(args.seed + i, pool)
        rows.append(row)
        if reading_flawed(row) or not row["colors"]:
            what = reading_note(row) + ("" if "refused" in row else f", colors {'right' if row['colors'] else 'WRONG'}")
            print(f"seed {row['seed']:>6} {row['device']:>20} {row['mode']:>5}: {what}", flush=True)
    print()
    header = f"{'crop':<8} {'pictures':>8} {READING_HEADER} {'colors right':>12}"
    print(header)
    print("-" * len(header))
    groups = defaultdict(list)
    for row in rows:
        groups[row["mode"]].append(row)
    groups["all"] = rows
    for name, group in groups.items():
        read, columns = reading_columns(group)
        print(f"{name:<8} {len(group):>8} {columns} {sum(r['colors'] for r in read):>12}")
    print(f"\nread time: median {statistics.median(r['ms'] for r in rows):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
