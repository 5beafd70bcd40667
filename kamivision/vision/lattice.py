"""The lattice's vertical place on the screen, measured from the image.

The board's box (:mod:`kamivision.vision.layout`) fixes the columns; where the rows lie
is known from the footer only to about a hundredth of the screen's width, and a board of
large flat regions leaves little to go on.  Two measurements settle it:

* **The slanted edges.**  Every triangle's two slanted sides are edges on the screen: a
  cut between colors, or the faint crease paper shows between two triangles of one color.
  Shifted by ``dy``, the lattice's slanted sides land on strong gradients only at the true
  shift (the set of slanted lines repeats every triangle side ``s``, far more than the
  span searched, and a half-side shift puts them between the edges).  The shift whose
  sides cross the highest mean gradient wins, over the whole span.
* **Uniform cells.**  Near that shift, the one under which the cells' inner points are
  most alike is kept: the slanted edges are a few pixels wide, and the cells' insides
  tell within them.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..errors import ImageError
from ..geometry import KAMI2_COLUMNS as COLUMNS
from ..geometry import KAMI2_ROWS as ROWS
from ..geometry import triangle_centres, triangle_corners
from .layout import ScreenLayout
from .settings import DEFAULT_SETTINGS, VisionSettings

#: The slanted sides crossing this many times the gradient away from the footer's estimate
#: than near it mean the estimate is wrong (1.0 on all 73 real shots: the best is near).
MISPLACED = 1.25


class MisplacedLattice(ImageError):
    """The lattice's slanted sides lie well away from where the footer puts the board (a
    window over the footer's top, taken for it): refused rather than read shifted."""


#: The uniformity fit looks this share of the screen's width either side of the edge fit.
REFINE = 0.002


def _slanted_points(box: tuple[float, float, float, float], width: int) -> np.ndarray:
    """Points at a quarter, half and three quarters along both slanted sides of every
    triangle of rows 2 to 26 (rows 0, 1, 27 and 28 may lie under the strips), on the
    screen; ``(n, 2)`` as ``x, y``.  Each slanted line is counted twice (once from each
    triangle beside it), which weighs every line alike."""
    rows, cols = np.meshgrid(np.arange(2, ROWS - 2), np.arange(COLUMNS), indexing="ij")
    ends_a, ends_b, apex = triangle_corners(rows, cols, box)
    pts = np.concatenate([end + t * (apex - end) for t in (0.25, 0.5, 0.75) for end in (ends_a, ends_b)])
    return pts[(pts[:, 0] >= 2) & (pts[:, 0] <= width - 3)]


def _blurred(lab_l: np.ndarray, width: int) -> np.ndarray:
    """Lightness blurred over about a pixel of a 750-pixel-wide screen."""
    return cv2.GaussianBlur(lab_l, (0, 0), max(1.0, width / 750.0))


def _crossed(
    blurred: np.ndarray, box: tuple[float, float, float, float], width: int, shifts: np.ndarray, top: int = 0
) -> np.ndarray:
    """The mean gradient the lattice's slanted sides cross, for the box moved down by each
    of ``shifts`` (whole pixels), over the points that stay at or below screen row ``top``
    whatever the shift (above it, something hides the board: a strip, a notification,
    whose own edges and text are no lattice); zeros when no side is on the screen."""
    gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1)
    magnitude = cv2.magnitude(gx, gy)
    pts = _slanted_points(box, width)
    pts = pts[pts[:, 1] + shifts.min() >= top]
    if len(pts) == 0:
        return np.zeros(len(shifts))
    h = blurred.shape[0]
    x = np.round(pts[:, 0]).astype(int)
    y = np.clip(np.round(pts[:, 1][None, :] + shifts[:, None]).astype(int), 0, h - 1)
    return magnitude[y, x[None, :]].mean(axis=1)


def _edge_fit(blurred: np.ndarray, layout: ScreenLayout, span: int) -> int:
    """The whole-pixel shift within ``±span`` whose slanted sides cross the highest mean
    gradient; raises :class:`MisplacedLattice` when a shift up to half a triangle side
    away crosses :data:`MISPLACED` times as much (the box is then off by more than the
    footer's estimate is ever off, and the lattice alone cannot say by how many sides)."""
    wide = max(span, int(layout.board[3] / 28))
    shifts = np.arange(-wide, wide + 1)
    crossed = _crossed(blurred, layout.board, layout.width, shifts, layout.visible[0])
    near = np.flatnonzero(np.abs(shifts) <= span)
    best = int(near[int(crossed[near].argmax())])
    if crossed.max() > MISPLACED * crossed[best]:
        raise MisplacedLattice(
            f"the board's triangles do not lie where its footer puts them ({int(shifts[crossed.argmax()]):+d} px): "
            "is something drawn over the footer?"
        )
    return int(shifts[best])


def slanted_contrast(
    lab_l: np.ndarray, box: tuple[float, float, float, float], width: int, half_side: int
) -> tuple[int, float]:
    """The shift within ``±half_side`` (half a triangle side, pixels) whose slanted sides
    cross the highest mean gradient, and how many times the gradient crossed half a side
    from it that is (a lattice: well above 1; a picture with no lattice: about 1)."""
    blurred = _blurred(lab_l, width)
    shifts = np.arange(-2 * half_side, 2 * half_side + 1)
    crossed = _crossed(blurred, box, width, shifts)
    inside = np.abs(shifts) <= half_side
    best = int(np.flatnonzero(inside)[int(crossed[inside].argmax())])
    away = [crossed[i] for i in (best - half_side, best + half_side) if 0 <= i < len(shifts)]
    return int(shifts[best]), float(crossed[best] / max(1e-6, float(np.mean(away))))


def _uniform_fit(blurred: np.ndarray, layout: ScreenLayout, shifts: range) -> float:
    """The shift among ``shifts`` under which the cells' five inner points are most alike:
    the mean spread of lightness over each cell's points is least."""
    w = layout.width
    s = layout.board[3] / 14.0
    rr, cc = np.meshgrid(np.arange(2, ROWS - 2), np.arange(COLUMNS), indexing="ij")
    cx, cy = triangle_centres(rr, cc, layout.board)
    # Inner points: the centroid and four points a third of the way to the corners/edges,
    # of the cells whose points are all on the screen (a board cropped at the sides hides
    # most of its outer columns).
    r_in = 0.22 * s
    shown = (cx - 0.6 * r_in >= 0) & (cx + 0.6 * r_in <= w - 1) & (cy - r_in + min(shifts) >= layout.visible[0])
    cx, cy = cx[shown], cy[shown]
    offsets = [(0, 0), (0, -r_in), (0, r_in), (-0.6 * r_in, 0), (0.6 * r_in, 0)]
    best = (np.inf, 0.0)
    h = blurred.shape[0]
    for dy in shifts:
        pts = []
        for ox, oy in offsets:
            x = np.clip(np.round(cx + ox).astype(int), 0, w - 1)
            y = np.clip(np.round(cy + oy + dy).astype(int), 0, h - 1)
            pts.append(blurred[y, x])
        pts = np.stack(pts)
        score = float(np.mean(pts.max(axis=0) - pts.min(axis=0)))
        if score < best[0]:
            best = (score, float(dy))
    return best[1]


def fit_offset(lab_l: np.ndarray, layout: ScreenLayout, settings: VisionSettings = DEFAULT_SETTINGS) -> float:
    """The vertical shift (pixels) of the lattice from the layout's box: the slanted edges'
    fit over ``±settings.offset_span`` of the width, refined by uniformity within
    ``±REFINE`` of the width."""
    w = layout.width
    blurred = _blurred(lab_l, w)
    coarse = _edge_fit(blurred, layout, max(2, int(settings.offset_span * w)))
    near = max(1, round(REFINE * w))
    return _uniform_fit(blurred, layout, range(coarse - near, coarse + near + 1))
