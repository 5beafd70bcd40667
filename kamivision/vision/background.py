"""The blank background's colour at every cell: a smooth surface fitted to the pale cells.

KAMI 2's background is a smooth gradient, so the cells that show it lie on a quadratic
surface in the cell's position; paper and ink do not.  :func:`background_model` fits that
surface robustly, leaving out the members that lie off it.

Tested in tests/vision/test_cells.py.
"""

from __future__ import annotations

import numpy as np

from ..geometry import KAMI2_COLUMNS as COLUMNS
from ..geometry import KAMI2_ROWS as ROWS

#: The share of the board's height (or width) the members must span for the surface to
#: slope along it; across a narrower band the background is taken as level.
SPAN = 0.25


def background_model(features: np.ndarray, members: np.ndarray, floor: float) -> np.ndarray:
    """The blank background's expected features at every cell: a quadratic surface in the
    cell's position fitted to ``members`` (the background is a smooth gradient), or their
    mean when they are too few to fit it.

    Members that do not lie on the surface are left out (:func:`_surface_inliers`), first
    against a plane and then against the quadratic: flat blots of ink in the middle of the
    board join the pale class too, and a quadratic fitted through them bends to meet them
    (so that they would pass for blank, confidently), while a plane cannot.  No member
    nearer the surface than ``floor`` feature units is left out.
    """
    rows, cols = np.divmod(np.arange(ROWS * COLUMNS), COLUMNS)
    y, x = rows / (ROWS - 1), cols / (COLUMNS - 1)
    # A slope along the board is fitted only where the members spread along it: fitted to
    # the two top rows alone, the noise between them, carried 27 rows down, put the
    # background's grain below zero at the foot (a render's).
    along_y = members.any() and float(np.ptp(y[members])) >= SPAN
    along_x = members.any() and float(np.ptp(x[members])) >= SPAN
    plane = [np.ones_like(x)] + ([y] if along_y else []) + ([x] if along_x else [])
    curves = ([y * y] if along_y else []) + ([x * x] if along_x else []) + ([x * y] if along_x and along_y else [])
    basis = np.column_stack(plane + curves)
    members = _surface_inliers(np.column_stack(plane), features, members, floor)
    members = _surface_inliers(basis, features, members, floor)
    if members.sum() >= 12:
        coef, *_ = np.linalg.lstsq(basis[members], features[members], rcond=None)
        return basis @ coef
    return np.repeat(features[members].mean(axis=0, keepdims=True), len(features), axis=0)


#: A background member whose PRESS residual is this many times the median one is not on
#: the surface (for half-normal residuals, 3 medians is about 2 standard deviations: a
#: true background cell left out costs nothing, as it is still nearest the surface).
SURFACE_OUTLIER_FACTOR = 3.0


def _surface_inliers(basis: np.ndarray, features: np.ndarray, members: np.ndarray, floor: float) -> np.ndarray:
    """``members`` without those far from the surface fitted to the rest: each one's
    residual had the surface been fitted without it (the PRESS residual, ``e / (1 -
    leverage)``) beyond :data:`SURFACE_OUTLIER_FACTOR` times the median one (and
    ``floor`` feature units), three rounds at most.  Too few members (12) are kept as they are."""
    members = members.copy()
    for _ in range(3):
        if members.sum() < 12:
            break
        a = basis[members]
        coef, *_ = np.linalg.lstsq(a, features[members], rcond=None)
        leverage = np.einsum("ij,jk,ik->i", a, np.linalg.pinv(a.T @ a), a)
        press = np.linalg.norm(features[members] - a @ coef, axis=1) / np.maximum(1.0 - leverage, 1e-3)
        outliers = press > max(SURFACE_OUTLIER_FACTOR * float(np.median(press)), floor)
        if not outliers.any():
            break
        members[np.flatnonzero(members)[outliers]] = False
    return members
