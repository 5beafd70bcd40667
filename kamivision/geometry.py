"""Cells in pixels: the one place where a board's ``row, column`` becomes ``x, y``.

A *box* is where the whole lattice lies on an image, ``(x, y, w, h)`` in pixels (floats).
On the triangle lattice (``docs/board-format.md``) the triangle side is ``s = h / 14``, a
column is ``w / 10`` wide and ``h / w`` is :data:`TRIANGLE_ASPECT`; triangle ``(r, c)``
spans ``x`` from ``c * w/10`` to ``(c + 1) * w/10`` and ``y`` from ``(r - 1) * s/2`` to
``(r + 1) * s/2``, so rows 0 and 28 are half outside the box.  On the square lattice the
box is divided into ``rows x columns`` equal cells.

Points are ``(x, y)`` as OpenCV takes them; everything else in kamivision indexes
``row, column``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import KAMI2_COLUMNS, KAMI2_ROWS, TRIANGLE_ASPECT, Board, points_right  # noqa: F401  (TRIANGLE_ASPECT and the KAMI 2 board's size: re-exported for the drawing and reading stages)

#: Columns of a KAMI 2 board; the triangle lattice's geometry is defined for this width.
TRIANGLE_COLUMNS = 10

Box = tuple[float, float, float, float]


def cell_polygon(lattice: str, rows: int, columns: int, row: int, column: int, box: Box) -> np.ndarray:
    """The corners of cell ``(row, column)`` as a float array of ``(x, y)`` points: three
    for a triangle (its vertical edge first), four for a square.  ``row`` may be -1 or
    ``rows`` on the triangle lattice (the hidden rows beyond the board's edges)."""
    x0, y0, bw, bh = box
    if lattice == "triangle":
        s = bh / 14.0
        xa, xb = x0 + column * bw / 10.0, x0 + (column + 1) * bw / 10.0
        ya, ym, yb = y0 + (row - 1) * s / 2, y0 + row * s / 2, y0 + (row + 1) * s / 2
        if points_right(row, column):
            pts = [(xa, ya), (xa, yb), (xb, ym)]
        else:
            pts = [(xb, ya), (xb, yb), (xa, ym)]
    else:
        cw, ch = bw / columns, bh / rows
        xa, ya = x0 + column * cw, y0 + row * ch
        pts = [(xa, ya), (xa + cw, ya), (xa + cw, ya + ch), (xa, ya + ch)]
    return np.array(pts, dtype=np.float64)


def cell_centre(lattice: str, rows: int, columns: int, row: int, column: int, box: Box) -> tuple[float, float]:
    """The centroid ``(x, y)`` of cell ``(row, column)`` (of the whole cell, visible or not)."""
    x0, y0, bw, bh = box
    if lattice == "triangle":
        dx = bw / 60.0
        x = x0 + (column + 0.5) * bw / 10.0 + (-dx if points_right(row, column) else dx)
        return x, y0 + row * bh / 28.0
    return x0 + (column + 0.5) * bw / columns, y0 + (row + 0.5) * bh / rows


def triangle_centres(rows: np.ndarray, columns: np.ndarray, box: Box) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cell_centre` for arrays of triangle rows and columns: ``(x, y)`` arrays."""
    x0, y0, bw, bh = box
    right = (rows + columns) % 2 == 0
    x = x0 + (columns + 0.5) * bw / 10.0 + np.where(right, -bw / 60.0, bw / 60.0)
    return x, y0 + rows * bh / 28.0


def triangle_corners(rows: np.ndarray, columns: np.ndarray, box: Box) -> np.ndarray:
    """:func:`cell_polygon` for arrays of triangle rows and columns: shape ``(3, n, 2)``,
    the vertical edge's two ends first, then the apex, as ``(x, y)``."""
    x0, y0, bw, bh = box
    rows, columns = np.ravel(rows), np.ravel(columns)
    s = bh / 14.0
    xa, xb = x0 + columns * bw / 10.0, x0 + (columns + 1) * bw / 10.0
    right = (rows + columns) % 2 == 0
    x_edge, x_apex = np.where(right, xa, xb), np.where(right, xb, xa)
    ya, ym, yb = y0 + (rows - 1) * s / 2, y0 + rows * s / 2, y0 + (rows + 1) * s / 2
    return np.stack([np.stack([x_edge, ya], 1), np.stack([x_edge, yb], 1), np.stack([x_apex, ym], 1)])


def label_image(
    lattice: str, rows: int, columns: int, box: Box, shape: tuple[int, int], *, scale: int = 1, hidden: bool = False
) -> np.ndarray:
    """The cell index (``row * columns + column``) of every pixel of an image of ``shape``
    (height, width), -1 outside the board, drawn at ``scale`` times the size.  With
    ``hidden``, the triangle lattice's rows -1 and ``rows`` (beyond the board's edges) are
    drawn as parts of the cells next to them, as the game draws them under its strips."""
    import cv2

    h, w = shape
    labels = np.full((h * scale, w * scale), -1, dtype=np.int32)
    shift = 4
    extra = hidden and lattice == "triangle"
    for r in range(-1 if extra else 0, rows + 1 if extra else rows):
        inside = min(max(r, 0), rows - 1)
        for c in range(columns):
            pts = cell_polygon(lattice, rows, columns, r, c, box)
            fixed = np.round(pts * scale * (1 << shift)).astype(np.int32)
            cv2.fillConvexPoly(labels, fixed, inside * columns + c, lineType=cv2.LINE_8, shift=shift)
    return labels


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where the lattice lies on the screenshot (pixels): the nominal board box and the rows
    of the screen that show it."""

    box: tuple[float, float, float, float]  # x, y, w, h of the full lattice
    visible: tuple[int, int]  # screen rows [top, bottom) showing the board

    def centre(self, board: Board, cell: int) -> tuple[float, float]:
        """A point well inside ``cell``, on its visible part."""
        r, c = divmod(cell, board.columns)
        x, y = cell_centre(board.lattice, board.rows, board.columns, r, c, self.box)
        top, bottom = self.visible
        margin = 0.02 * self.box[2]
        return x, min(max(y, top + margin), bottom - margin)

    def polygon(self, board: Board, cell: int) -> np.ndarray:
        """The corners of ``cell`` on the screenshot (``(x, y)`` points)."""
        r, c = divmod(cell, board.columns)
        return cell_polygon(board.lattice, board.rows, board.columns, r, c, self.box)

    def marker_radius(self) -> float:
        return 0.034 * self.box[2]
