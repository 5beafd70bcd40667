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
import io
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kamivision.synth.render import _font
from kamivision.vision.bar import Bar, overbright, undo_bar
from kamivision.vision.buttons import find_buttons
from kamivision.vision.layout import ScreenLayout
from kamivision.vision.par import read_par

DARK, INK = (40, 35, 30), (238, 234, 224)


def one_counter(rng: np.random.Generator, face=None, icon: bool = False) -> tuple[int, int, int | None]:
    """Draw one counter and read it: (the number drawn, its height in pixels, the reading).
    ``face``: a function from a size in points to a Pillow font (default: the renderer's);
    ``icon``: a translucent bar and one of its icons drawn over the digits."""
    face = face or _font
    size = int(rng.integers(14, 31))
    side = int(size / 0.42 * rng.uniform(0.9, 1.4))
    bw, bh = 4 * side, int(side * rng.uniform(0.8, 1.6))
    value = int(rng.integers(1, 21))
    picture = Image.new("RGB", (bw, bh), DARK)
    draw = ImageDraw.Draw(picture)
    for x in (side, 2 * side, 3 * side):
        draw.line([(x, 0), (x, bh)], fill=(200, 196, 188), width=2)
    centre = (1.5 * side + rng.uniform(-1, 1), bh / 2 + rng.uniform(-1, 1))
    draw.text(centre, str(value), fill=INK, font=face(size), anchor="mm")
    box = ImageDraw.Draw(Image.new("L", (bw, bh))).textbbox(centre, str(value), font=face(size), anchor="mm")
    bar = None
    if icon:
        picture, bar = _bar_and_icon(picture, box, rng)
    rgb = np.asarray(picture)
    sigma = float(rng.uniform(0.0, 0.8))
    if sigma > 0.2:
        rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
    scale = float(rng.uniform(0.5, 1.0))
    w, h = round(bw * scale), round(bh * scale)
    rgb = cv2.resize(rgb, (w, h), interpolation=cv2.INTER_AREA)
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=int(rng.integers(60, 96)))
    rgb = np.asarray(Image.open(buf).convert("RGB"))
    over = None
    if bar is not None:
        over = overbright(rgb, bar)
        rgb = undo_bar(rgb, bar)
    block = find_buttons(rgb, (0, 0, w, h), [x * scale for x in (side, 2 * side, 3 * side)], over)
    shade = (0, bar.slope) if bar is not None else (0, 1.0)
    layout = ScreenLayout(
        w, h, (0.0, 0.0, float(w), float(h)), (0, h), (0, 0, w, h), (0, 0, w, h), ((0, 0, 1, 1),), shade, block
    )
    read, _ = read_par(layout)
    return value, round((box[3] - box[1]) * scale), read


def _bar_and_icon(picture: Image.Image, box: tuple, rng: np.random.Generator) -> tuple[Image.Image, Bar]:
    """The picture under a translucent bar, with an outline icon drawn near the digits'
    box; and the bar's map."""
    darkness, tint = float(rng.uniform(0.2, 0.8)), float(rng.choice([0.0, rng.uniform(0.0, 40.0)]))
    under = np.asarray(picture, np.float32) * (1.0 - darkness) + tint * darkness
    picture = Image.fromarray(np.clip(under + 0.5, 0, 255).astype(np.uint8))
    x0, y0, x1, y1 = box
    r = (y1 - y0) * float(rng.uniform(0.25, 0.6))
    cx = (x0 + x1) / 2 + float(rng.uniform(-1, 1)) * ((x1 - x0) / 2 + r)
    cy = (y0 + y1) / 2 + float(rng.uniform(-0.6, 0.6)) * (y1 - y0)
    gray = int(rng.integers(235, 256))
    width = int(rng.integers(1, 4))
    draw = ImageDraw.Draw(picture)
    kind = int(rng.integers(3))
    if kind == 0:
        draw.polygon([(cx - r, cy), (cx + r * 0.7, cy - r), (cx + r * 0.7, cy + r)], outline=(gray,) * 3, width=width)
    elif kind == 1:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(gray,) * 3, width=width)
    else:
        draw.rectangle([cx - 0.8 * r, cy - 0.8 * r, cx + 0.8 * r, cy + 0.8 * r], outline=(gray,) * 3, width=width)
    return picture, Bar(0, 1.0 - darkness, (tint * darkness,) * 3)


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
