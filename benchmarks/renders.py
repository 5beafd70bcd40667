"""Recognition of rendered screenshots on every phone layout: cells wrong, silent errors,
the palette, and the cells shown to the player, per layout and variant.

    python benchmarks/renders.py [--boards 6] [--max-seconds 2] [--variants inked bar]

Variants:

* ``png``: as rendered;
* ``jpeg70``: JPEG at quality 70 scaled to 0.75 (as screenshots arrive after sharing);
* ``inked``: 16 marks written over the board, as players do (the renderer's ``ink``);
* ``bar``: a translucent navigation bar (buttons or a gesture pill, drawn at random) of a
  height drawn from 0.08-0.15 W, darkness 20-80 % and a dark gray tint;
* ``tint``: the whole screen tinted (a night-light filter: red kept, blue cut by up to
  30 %) and dimmed by up to 25 %;
* ``top``: a translucent status bar (0.04-0.08 W, darkness 20-70 %, a clock and a
  battery in white) over the top of the screen, and rounded screen corners (radius
  0.03-0.09 W) cut out in black;
* ``banner``: a notification over the top of the screen (pale, dark or frosted, 0.01-0.1 W
  from the top, 0.18-0.3 W high, two lines of text), as a screenshot taken while one
  shows keeps it;
* ``window``: a window floating over the board (a picture-in-picture video, 0.35-0.6 W
  wide, 0.2-0.35 W high, a smooth, strongly colored picture), anywhere on it;
* ``shadow``: such a window casting a drop shadow of 30 to 80 % darkness (a floating
  window's shadow, heavier than most phones draw);
* ``head``: a chat head (a disc 0.1-0.2 W across showing such a picture) anywhere on the
  board, half the time docked at the screen's side;
* ``dock``: such a video window docked at a lower corner (the right 70 % of the time),
  over the board's foot and the footer's top or all of it.

``failed``: renders refused with a one-line error (never an answer); ``wrong``: cells wrong (up to a renaming of colors); ``silent``: wrong cells the player is
not told about (not flagged at all; or all of them when the moves fail on the true board
and none of them is among the cells shown);
``palette``: renders whose colors came out in the swatches' order (every seen cell's color
id right without renaming) and with no palette doubt; ``shown``: cells shown to check
(those whose other readings change the moves: :mod:`kamivision.check.doubt`), median and max.
Each render is solved with ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import random
import statistics
import sys

import numpy as np
from PIL import Image

from kamivision.board import differing_cells
from kamivision.check.doubt import Replay
from kamivision.errors import KamiError
from kamivision.pipeline import settle
from kamivision.solver import solve
from kamivision.synth.covers import BANNER_KINDS, NAV_KINDS, Banner, NavBar, Window
from kamivision.synth.render import encode, render
from kamivision.synth.screens import DEVICES
from kamivision.vision import recognize

sys.path.insert(0, ".")
from tests.boards import random_kami_board  # noqa: E402  (the tests' boards)

VARIANTS = ("png", "jpeg70", "inked", "bar", "tint", "top", "banner", "window", "shadow", "head", "dock")


def received(image: np.ndarray) -> np.ndarray:
    data = encode(image, ".jpg", jpeg_quality=70, scale=0.75)
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def tinted(image: np.ndarray, rng: random.Random) -> np.ndarray:
    dim = rng.uniform(0.75, 1.0)
    gains = np.array([1.0, rng.uniform(0.85, 1.0), rng.uniform(0.7, 0.95)]) * dim
    return np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=6, help="boards per layout and variant")
    parser.add_argument("--max-seconds", type=float, default=2.0, help="the solve's limit per render")
    parser.add_argument(
        "--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS), help="the variants to render"
    )
    args = parser.parse_args()
    header = f"{'layout':<18} {'variant':<8} {'boards':>6} {'failed':>6} {'wrong':>6} {'silent':>6} {'palette':>7} {'shown (median, max)':>20} {'hidden':>6}"
    print(header)
    print("-" * len(header))
    silent_all, palette_all, renders, shown_all, failed_all, wrong_all, wrong_seen_all = 0, 0, 0, [], 0, 0, 0
    for device in DEVICES:
        for variant in args.variants:
            rng = random.Random(f"{device}-{variant}")
            wrong = silent = palette_ok = failed = 0
            shown, hidden = [], []
            for k in range(args.boards):
                board = random_kami_board(rng, rng.choice([3, 4, 5]), blank_outline=k % 2 == 1, par=5)
                bar = None
                if variant == "bar":
                    gray = rng.randint(0, 60)
                    bar = NavBar(
                        rng.choice(NAV_KINDS), rng.uniform(0.08, 0.15), rng.uniform(0.2, 0.8), (gray, gray, gray)
                    )
                status, corners = None, 0.0
                if variant == "top":
                    status = NavBar("buttons", rng.uniform(0.04, 0.08), rng.uniform(0.2, 0.7))
                    corners = rng.uniform(0.03, 0.09)
                banner = None
                if variant == "banner":
                    banner = Banner(rng.choice(BANNER_KINDS), rng.uniform(0.01, 0.1), rng.uniform(0.18, 0.3))
                window = None
                tall = DEVICES[device].height / DEVICES[device].width  # the screen's height, in widths
                if variant in ("window", "shadow"):
                    size = (rng.uniform(0.35, 0.6), rng.uniform(0.2, 0.35))
                    lowest = tall - 0.45 - size[1]  # above the footer
                    window = Window(rng.uniform(0, 1 - size[0]), rng.uniform(0.1, lowest), *size, seed=k)
                    if variant == "shadow":
                        window = dataclasses.replace(window, shadow=rng.uniform(0.3, 0.8))
                elif variant == "head":
                    size = rng.uniform(0.1, 0.2)
                    x = rng.choice([0.0, 1 - size]) if rng.random() < 0.5 else rng.uniform(0, 1 - size)
                    window = Window(x, rng.uniform(0.1, tall - 0.45 - size), size, size, seed=k, round=True)
                elif variant == "dock":
                    size = (rng.uniform(0.35, 0.5), rng.uniform(0.2, 0.3))
                    y = tall - rng.uniform(0.0, 0.35) - size[1] + rng.uniform(0.0, 0.25)
                    window = Window(0.03 if rng.random() < 0.3 else 0.97 - size[0], y, *size, seed=k)
                image, layout = render(
                    board,
                    device,
                    seed=k,
                    ink=16 if variant == "inked" else 0,
                    nav_bar=bar,
                    status_bar=status,
                    corners=corners,
                    banner=banner,
                    window=window,
                )
                if variant == "jpeg70":
                    image = received(image)
                elif variant == "tint":
                    image = tinted(image, rng)
                try:
                    found = recognize(image, device)
                except KamiError:  # refused in one line: counted, never a wrong answer
                    failed += 1
                    continue
                solution, doubt = settle(found, solve(found.board, max_seconds=args.max_seconds))
                cells = set(differing_cells(found.board, board))
                held = Replay(board, solution.moves).steps == solution.length
                shown_cells = {divmod(c, board.columns) for c in (doubt.doubtful if doubt.palette else doubt.matters)}
                # Told: flagged as doubtful; and when the moves fail on the true board, at
                # least one wrong cell is among those shown (the player checks them, fixes
                # what is wrong and solves again, with the rest still doubtful).
                told = set(found.uncertain) if held or cells & shown_cells else set()
                wrong += len(cells)
                wrong_seen_all += len(cells - set(found.hidden))
                silent += len(cells - told)
                seen = [
                    (r, c) for r in range(board.rows) for c in range(board.columns) if (r, c) not in set(found.hidden)
                ]
                in_order = all(found.board.cells[r][c] == board.cells[r][c] for r, c in seen if (r, c) not in cells)
                palette_ok += in_order and not found.palette_doubt and len(found.board.palette) == board.color_count
                shown.append(len(doubt.doubtful) if doubt.palette else len(doubt.matters))
                hidden.append(len(found.hidden))
            silent_all += silent
            wrong_all += wrong
            failed_all += failed
            palette_all += palette_ok
            renders += args.boards
            shown_all += shown
            print(
                f"{device:<18} {variant:<8} {args.boards:>6} {failed:>6} {wrong:>6} {silent:>6} {palette_ok:>4}/{args.boards:<2} "
                f"{statistics.median(shown) if shown else 0:>13g}, {max(shown, default=0):>4} {max(hidden, default=0):>6}",
                flush=True,
            )
    print("-" * len(header))
    print(
        f"{renders} renders ({failed_all} refused in one line): cells wrong {wrong_all} "
        f"({wrong_seen_all} of them show a quarter or more); silent errors {silent_all}; palette right on {palette_all}/{renders - failed_all}; "
        f"cells shown to check: median {statistics.median(shown_all):g}, max {max(shown_all)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
