"""Array helpers the reader's stages share: exact and fast forms of numpy operations, and
k-means from given seeds (OpenCV's).

Tested in tests/vision/test_layout.py, tests/vision/test_cells.py.
"""

from __future__ import annotations

import cv2
import numpy as np


def channel_sum(diff: np.ndarray) -> np.ndarray:
    """The channels of a difference image (``cv2.absdiff``) added: exactly, in 16 bits, for
    8-bit images (about ten times faster than numpy's sum over float channels)."""
    d = diff.astype(np.uint16 if diff.dtype == np.uint8 else np.float32)
    return d[..., 0] + d[..., 1] + d[..., 2]


def norm3(diff: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(diff, axis=1)`` of rows of three, value for value (the squares
    added in the same order), about five times faster on a screenshot's pixels."""
    x, y, z = diff[:, 0], diff[:, 1], diff[:, 2]
    return np.sqrt(x * x + y * y + z * z)


def nan_median(values: np.ndarray) -> np.ndarray:
    """The median along the first axis without the NaNs (0 where all are NaN): as
    ``np.nanmedian``, which on small arrays imports ``numpy.ma`` (20 ms of a fresh
    process)."""
    ordered = np.sort(values, axis=0)  # NaNs sort last
    count = (~np.isnan(values)).sum(axis=0)
    low = np.take_along_axis(ordered, np.maximum((count - 1) // 2, 0)[None], axis=0)[0]
    high = np.take_along_axis(ordered, np.minimum(count // 2, len(values) - 1)[None], axis=0)[0]
    return np.where(count > 0, (low + high) / 2, 0.0)


def group_medians(values: np.ndarray, groups: np.ndarray, count: int) -> np.ndarray:
    """Per-group median of each column of ``values``, for groups 0 to ``count`` - 1
    (groups without values get NaN; a group with a NaN in a column gets NaN there):
    ``np.median`` of each group, value for value, from one partition per group, without its
    checks and dispatch, which were 40 % of its time here (34 ms of a real screenshot's
    read against 20 ms)."""
    order = np.argsort(groups, kind="stable")
    values = values[order]
    sizes = np.bincount(groups, minlength=count)[:count]  # any group past count sorts last
    bounds = np.concatenate(([0], np.cumsum(sizes)))
    out = np.full((count, values.shape[1]), np.nan, np.float32)
    floating = np.issubdtype(values.dtype, np.floating)
    nans = floating and bool(np.isnan(values).any())
    for g in np.flatnonzero(sizes):
        a, b = bounds[g], bounds[g + 1]
        low, high = (b - a - 1) // 2, (b - a) // 2
        # np.median's own steps: the middle one or two in place (and the last, where NaNs
        # go), then the mean of the middle ones, in float64 for integers as np.mean.
        kth = sorted({low, high, b - a - 1}) if nans else (low if low == high else (low, high))
        part = np.partition(values[a:b], kth, axis=0)
        middle = part[low] if floating else part[low].astype(np.float64)
        out[g] = (middle + part[high]) / 2
        if nans:
            out[g, np.isnan(part[-1])] = np.nan
    return out


def seeded_kmeans(points: np.ndarray, seeds: np.ndarray, max_iter: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """k-means (OpenCV's ``cv2.kmeans``, Lloyd's iterations) started from ``seeds``: the
    first labels are each point's nearest seed.  Returns the centres and the labels."""
    pts = np.ascontiguousarray(points, np.float32)
    first = np.linalg.norm(pts[:, None, :] - seeds[None, :, :].astype(np.float32), axis=2).argmin(axis=1)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, max_iter, 1e-4)
    _, labels, centres = cv2.kmeans(
        pts, len(seeds), first.astype(np.int32).reshape(-1, 1), criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS
    )
    return centres.astype(np.float64), labels.ravel()
