"""A board without its screen: the lattice's box found in a picture of the board alone.

A player may crop a screenshot to the board, or send a picture of the board only.  There
is then no footer to end the board at, no swatches and no counter; what is left is the
lattice itself, which every KAMI 2 board has:

* **Ten columns.**  Every column boundary is a vertical edge the whole height of the
  board, so the columns' comb (:func:`~kamivision.vision.layout._column_period`) gives
  the board's width and where it starts.
* **The triangle's aspect.**  The board is :data:`~kamivision.geometry.TRIANGLE_ASPECT`
  times as tall as it is wide, fourteen triangle sides.  The picture is taken to show
  the board's height, give or take a side (a crop that keeps the half rows at the top
  and bottom, or a little of the screen around them), so the box is centred on it and
  moved to where its slanted sides cross the strongest gradients, within half a side
  either way (the slanted lines repeat every side, so that settles it).
* **Proof that it is a lattice.**  The slanted sides at that place must cross far
  stronger gradients than half a side away, and the comb must be clear; a picture that is
  not a board (or a square grid: KAMI 1) is refused in one line.

Something round kept in the crop (a chat head) is hidden, as on a screen
(:func:`~kamivision.vision.overlays.find_rounds`).

The colors come from the cells themselves (:func:`~kamivision.vision.palette.cluster_palette`),
and the answer says that the counter was not there to read.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..errors import ImageError
from ..geometry import TRIANGLE_ASPECT
from .lattice import slanted_contrast
from .layout import ScreenLayout, _column_period, _column_profile, _horizontal_edges, _square_lattice
from .overlays import edge_rows, find_rounds

#: The slanted sides at the fitted place must cross this many times the gradient they
#: cross half a side away: a lattice, not a picture that happens to have edges.
MIN_CONTRAST = 1.5

#: The picture's height may differ from the board's by this many triangle sides.
HEIGHT_SLACK = 1.5


def find_board_alone(rgb: np.ndarray, origin: str) -> ScreenLayout:
    """The layout of a picture of a KAMI 2 board with nothing around it (no footer), or
    raise :class:`ImageError` saying why it is not one."""
    h, w = rgb.shape[:2]
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)
    edges = _horizontal_edges(lab)
    if _square_lattice(edges, 0, h, w):
        raise ImageError(
            f"{origin}: the board is a square grid (KAMI 1), not KAMI 2's triangles; pictures of square "
            "grids are not read: write the board as a board file (docs/board-format.md)"
        )
    period, phase = _column_period(_column_profile(lab, 0, h, w), w)
    if period is None:
        raise ImageError(f"{origin}: no KAMI footer found, and no triangle lattice of ten columns either")
    bw = 10 * period
    x0 = phase + round((w / 2 - bw / 2 - phase) / period) * period  # the column edge nearest to centring it
    bh = bw * TRIANGLE_ASPECT
    side = bh / 14
    if abs(h - bh) > HEIGHT_SLACK * side:
        raise ImageError(
            f"{origin}: no KAMI footer found, and the picture is not a board alone either "
            f"(ten columns {bw:.0f} px wide make a board {bh:.0f} px tall; the picture is {h} px)"
        )
    box = (x0, (h - bh) / 2, bw, bh)
    shift, contrast = slanted_contrast(lab[..., 0], box, w, round(side / 2))
    if contrast < MIN_CONTRAST:
        raise ImageError(f"{origin}: no KAMI footer found, and no triangle lattice of ten columns either")
    box = (x0, (h - bh) / 2 + shift, bw, bh)
    top, bottom = _visible_band(edges, h, w)
    inside = [
        y for y in edge_rows(edges, 0.35) if max(top, box[1]) + side / 4 < y < min(bottom, box[1] + bh) - side / 4
    ]
    if inside:
        # The lattice has no horizontal edges: a long one across the board's box is the
        # edge of a screen's part (a footer whose buttons something hides), not a board.
        raise ImageError(
            f"{origin}: no KAMI footer found, and the picture is not a board alone either "
            f"(a straight edge crosses it at y={inside[0]}: is something drawn over the footer?)"
        )
    return ScreenLayout(w, h, box, (top, bottom), (0, h, w, 0), (0, h, 0, 0), (), covers=find_rounds(lab, top, bottom))


def _visible_band(edges: np.ndarray, h: int, w: int) -> tuple[int, int]:
    """The rows ``[top, bottom)`` that show the board: a loose crop keeps a little of the
    screen above and below it (a status strip, the footer), whose boundary is a straight
    horizontal edge across most of the picture; the lattice has none (a board's cells make
    such edges across under a fifth of it)."""
    rows = edge_rows(edges, 0.5)
    near = 0.1 * w
    top = max([y for y in rows if y < near], default=0)
    bottom = min([y for y in rows if y > h - near], default=h)
    return top, bottom
