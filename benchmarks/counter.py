"""The counter's digits on their own, from large to too small to read: right, unsure or WRONG by height.

    python benchmarks/counter.py [--counters 3000] [--seed 1] [--font FILE.ttf] [--icon]

Each counter ``i`` (from ``numpy.random.default_rng(seed)``) is a number of 1 to 20 drawn
with the renderer's font (Pillow's Aileron, as ``kamivision render`` draws the counter)
at 14 to 30 points in the second of four dark buttons, a little off centre, then blurred
(sigma up to 0.8), scaled by 0.5 to 1 and saved as JPEG at quality 60 to 95: harsher
than ``benchmarks/layouts.py``'s screens, whose digits are mostly larger.  It is read as
the reader reads a footer (:func:`~kamivision.vision.buttons.find_buttons`, then
:func:`~kamivision.vision.par.read_par`).  Rows: the digits' height in the final picture
(pixels); columns: read right, reported unsure (not read), and WRONG (a number read with
confidence that is not the one drawn).  A wrong counter is what must not happen: the
answer would report a disagreement that is not there.

``--font`` draws the digits in another face (say Debian's DejaVu Sans or Liberation
Sans), one the digit templates were not made from: a check that the reader does not lean
on the renderer's own font.

``--icon`` draws a translucent navigation bar over the buttons (letting 20 to 80 % of the
light through, black or a dark gray) and one of its icons (a triangle, a circle or a
square, in outline, 1 to 3 pixels wide, white or nearly, as Android draws them over a
dark bar) over
or beside the digits: the reader must leave out what the icon hides
(:mod:`~kamivision.vision.covered`).  The bar's map is the one drawn, not one the reader
finds (``benchmarks/layouts.py`` measures the whole reader on such screens).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import ImageFont

from kamivision.synth.counters import draw_counter
from kamivision.vision.par import read_par


def one_counter(rng: np.random.Generator, face=None, icon: bool = False) -> tuple[int, int, int | None]:
    """Draw one counter (:func:`~kamivision.synth.counters.draw_counter`) and read it: the
    number drawn, its height in pixels, the reading."""
    counter = draw_counter(rng, face, icon)
    read, _ = read_par(counter.layout())
    return counter.value, counter.height, read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counters", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--font", type=Path, default=None, help="a TrueType font to draw the digits with")
    parser.add_argument("--icon", action="store_true", help="a translucent bar's icon drawn over the digits")
    args = parser.parse_args()
    face = None
    if args.font is not None:
        if not args.font.is_file():
            raise SystemExit(f"{args.font}: no such font file")
        face = lambda size: ImageFont.truetype(str(args.font), size)  # noqa: E731
    rng = np.random.default_rng(args.seed)
    rows: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    wrong = []
    for _ in range(args.counters):
        value, height, read = one_counter(rng, face, args.icon)
        row = rows[min(height, 16)]
        if read is None:
            row[1] += 1
        elif read == value:
            row[0] += 1
        else:
            row[2] += 1
            wrong.append((height, value, read))
    print(f"{'digits (px)':>11} {'counters':>8} {'right':>7} {'unsure':>7} {'WRONG':>6}")
    for height in sorted(rows):
        right, unsure, bad = rows[height]
        label = f"{height}+" if height == 16 else str(height)
        print(f"{label:>11} {right + unsure + bad:>8} {right:>7} {unsure:>7} {bad:>6}")
    total = [sum(r[i] for r in rows.values()) for i in range(3)]
    print(f"{'all':>11} {sum(total):>8} {total[0]:>7} {total[1]:>7} {total[2]:>6}")
    for height, value, read in wrong:
        print(f"  WRONG: {value} read as {read} ({height} px)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
