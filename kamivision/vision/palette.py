"""The palette: the board's own colors, named and ordered by the footer's swatches.

The swatches say how many colors the level has and in which order the phone shows them;
their measured colors are only a hint.  Something the reader did not foresee can change
them all at once: a navigation bar it did not find over the footer, a dimmed screen, a
color filter, a night-light tint.  The board's cells are many and each color covers many
of them, so the colors come from the board, and the swatches are matched to them:

1. **Seeded by the swatches** (the usual case): k-means over the paper cells from the
   swatch colors.  When each swatch's cluster lies near it and no two swatches share
   one, the swatches are kept as they are.
2. **Otherwise, from the board alone**: k-means++ over the paper cells (as many clusters
   as swatches), and the one-to-one assignment of clusters to swatches under which a
   single map ``swatch = a * cluster + b`` per channel (one ``a``; what a bar, dimming or
   a tint does to every swatch alike) fits best.  The clusters' colors, in swatch order,
   then seed the classification.
3. **Cross-checks**: two swatches on one cluster, a swatch far from every cluster after
   the map, or (after the classification) a swatch no cell takes: the reading's colors are
   in doubt, and the answer says so (:attr:`~kamivision.vision.Recognition.palette_doubt`).

Colors are CIE Lab (L 0..100) for clustering, sRGB (0..255) for the map, which is where a
phone blends a translucent bar.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

import cv2
import numpy as np

from .settings import DEFAULT_SETTINGS, VisionSettings

if TYPE_CHECKING:
    from .cells import CellSamples


def board_points(
    samples: "CellSamples", settings: VisionSettings = DEFAULT_SETTINGS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cells the palette is read from: the Lab colors of those that are surely paper
    (at least half on the screen, since a sliver's few pixels may mix its neighbor's; not
    marked; with paper's grain), their cell numbers, and the Lab colors of the flat ones
    (the same, without paper's grain: they look like the background)."""
    relative = samples.relative_grain()
    clear = samples.seen & (samples.visible >= 0.5) & (samples.foreign < settings.marked)
    paper = clear & (relative >= settings.blank_grain)
    flat = clear & (relative < settings.blank_grain)
    return samples.lab[paper].astype(np.float64), np.flatnonzero(paper), samples.lab[flat].astype(np.float64)


#: A swatch this far (Lab units) from its seeded cluster does not describe it.
NEAR = 12.0
#: Two clusters closer than this (Lab units) are one color of the board.
SAME = 6.0
#: A color of the board with no swatch needs at least this many cells to count; up to
#: STRAY_SHARE of the paper cells, they are doubtful cells (ink, a cursor), beyond it the
#: palette is in doubt (a color the footer does not show).
STRAY_CELLS = 3
STRAY_SHARE = 0.1
#: After the map, a swatch this far (gray levels, mean over the channels) from its
#: cluster matches no color of the board.
FIT = 14.0


class Disagreement(enum.Enum):
    """How the board's colors and the swatches disagree (:class:`PaletteDoubt`)."""

    STRAY = "stray"  # `number` cells have a color that no swatch shows
    SHARED = "shared"  # two swatches match one color of the board
    NO_MAP = "no map"  # no map of the board's colors fits the swatches (bar, dimming, tint)
    CLOSE = "close"  # a board alone: two of its colors are close, and may be one
    UNUSED = "unused"  # swatch `number` (from 1) matches no cell of the board


@dataclass(frozen=True, slots=True)
class PaletteDoubt:
    """Why the colors read are in doubt (worded by :func:`kamivision.report.palette_text`)."""

    kind: Disagreement
    number: int = 0


@dataclass(frozen=True, slots=True)
class PaletteMatch:
    """The colors that seed the classification (Lab, one per swatch, in swatch order),
    the swatches' sRGB colors as the game draws them (the map undone), and why the
    palette is in doubt (None when swatches and board agree)."""

    seeds: np.ndarray
    rgb: np.ndarray
    doubt: Optional[PaletteDoubt] = None
    mapped: bool = False  # the swatches were matched through a map (step 2)
    #: Points (indices into the paper points given) of a few cells whose color no swatch
    #: shows: too few to doubt the palette, so the cells themselves are doubtful.
    stray: tuple[int, ...] = ()
    #: The map ``swatch = a * board + b`` the swatches were matched through (step 2),
    #: when it fits: ``(a, b)``; else None.
    map: Optional[tuple[float, tuple[float, float, float]]] = None


def lab_to_rgb(lab: np.ndarray) -> np.ndarray:
    """sRGB (0..255, float) of CIE Lab colors, shape (n, 3)."""
    rgb = cv2.cvtColor(np.asarray(lab, np.float32).reshape(-1, 1, 3), cv2.COLOR_LAB2RGB).reshape(-1, 3)
    return np.clip(rgb, 0.0, 1.0) * 255.0


def _kmeans_pp(points: np.ndarray, k: int) -> np.ndarray:
    """k-means++ centres (OpenCV, five starts, a fixed seed: the same answer every run)."""
    cv2.setRNGSeed(12345)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 100, 1e-4)
    _, _, centres = cv2.kmeans(np.ascontiguousarray(points, np.float32), k, None, criteria, 5, cv2.KMEANS_PP_CENTERS)
    return centres.astype(np.float64)


def fit_map(board_rgb: np.ndarray, swatch_rgb: np.ndarray) -> tuple[float, np.ndarray, float]:
    """The map ``swatch = a * board + b`` (one ``a``, ``b`` per channel) that fits pairs of
    colors best by least squares, with ``a`` kept within 0.15..1.2, and its mean error
    per channel (gray levels)."""
    x, y = board_rgb.astype(np.float64), swatch_rgb.astype(np.float64)
    dx = x - x.mean(axis=0)
    var = float((dx * dx).sum())
    a = float((dx * (y - y.mean(axis=0))).sum() / var) if var > 1e-6 else 1.0
    a = min(1.2, max(0.15, a))
    b = (y - a * x).mean(axis=0)
    error = float(np.abs(y - (a * x + b)).mean())
    return a, b, error


def match_palette(
    points: np.ndarray, swatch_lab: np.ndarray, swatch_rgb: np.ndarray, weights: np.ndarray
) -> PaletteMatch:
    """Seeds for the classification from the paper cells' Lab colors ``points`` and the
    swatches (``weights`` scale Lab's channels for clustering, as the classifier does)."""
    k = len(swatch_lab)
    if len(points) < 2 * k:
        return PaletteMatch(swatch_lab, swatch_rgb)
    w = np.asarray(weights, np.float64)
    scaled = points * w
    # A few points far from every swatch (ink, a blank cell whose grain a coarse JPEG
    # made look like paper's) would drag the swatch they fall to: when they are few they
    # are left out of the seeded fit, and the stray check below judges them.
    far = np.linalg.norm(points[:, None, :] - swatch_lab[None, :, :], axis=2).min(axis=1) > 2 * NEAR
    fitted = scaled[~far] if far.sum() <= STRAY_SHARE * len(points) and (~far).sum() >= 2 * k else scaled
    seeded = _seeded_centres(fitted, swatch_lab * w)
    near = np.linalg.norm((seeded - swatch_lab * w) / w, axis=1)
    apart = _min_distance(seeded / w)
    if near.max() <= NEAR and apart >= SAME:
        stray = _stray_cluster(scaled, swatch_lab * w, w)
        if len(stray) > STRAY_SHARE * len(points):
            return PaletteMatch(swatch_lab, swatch_rgb, PaletteDoubt(Disagreement.STRAY, len(stray)))
        return PaletteMatch(swatch_lab, swatch_rgb, stray=stray)
    # From the board alone, matched to the swatches through one map.
    centres = _kmeans_pp(scaled, k) / w
    board_rgb = lab_to_rgb(centres)
    best = None
    orders = itertools.permutations(range(k)) if k <= 7 else [tuple(range(k))]
    for order in orders:
        a, b, error = fit_map(board_rgb[list(order)], swatch_rgb)
        if best is None or error < best[0]:
            best = (error, order, a, b)
    error, order, a, b = best
    seeds = centres[list(order)]
    doubt = None
    if _min_distance(seeds) < SAME:
        doubt = PaletteDoubt(Disagreement.SHARED)
    elif error > FIT:
        doubt = PaletteDoubt(Disagreement.NO_MAP)
    if doubt is not None:
        return PaletteMatch(seeds, swatch_rgb, doubt, mapped=True)
    rgb = np.clip((swatch_rgb - b) / a, 0, 255)
    return PaletteMatch(seeds, rgb, doubt, mapped=True, map=(a, (float(b[0]), float(b[1]), float(b[2]))))


#: A board has at most this many colors (KAMI 2 shows up to five; the board format allows more).
MAX_COLORS = 8
#: Two clusters of a board's paper cells this far apart (Lab units, lightness weighted as
#: the classifier weighs it) are two colors; one color split in two by its shading gives
#: clusters at most 12 apart, and two colors of one level are 17 or more apart (all the
#: real screenshots with known boards, measured: docs/recognition.md).
SPLIT = 14.5
#: A cluster of paper cells is the background's when more than this many times as many
#: flat cells lie near it (a coarse JPEG gives a few of the background's cells paper's
#: grain).  Not 1: a level whose paper is the background's color has about as many of
#: each (64 paper cells and 63 flat ones on a cropped render; a chat head hiding a few
#: turned it to 63 and 64, and every cream cell was read blank).
BACKGROUND_SHARE = 2.0


def cluster_palette(points: np.ndarray, weights: np.ndarray, flat: np.ndarray | None = None) -> PaletteMatch:
    """The board's colors from its paper cells alone (a picture with no swatches): k-means++
    with one cluster, then one more while the clusters stay :data:`SPLIT` apart and each
    holds :data:`STRAY_CELLS` cells or more.  Most cells first.  Colors found close to the
    limit make the palette doubtful.

    A cluster with more than :data:`BACKGROUND_SHARE` times as many of the flat cells
    ``flat`` (Lab) within :data:`NEAR` of it as paper cells of its own is the background,
    a few of whose cells a coarse JPEG gave paper's grain: it is no color.  (With swatches
    the count of colors is known and this cannot happen.)"""
    w = np.asarray(weights, np.float64)
    scaled = points * w
    centres = _kmeans_pp(scaled, 1)
    closest = np.inf
    while len(centres) < min(MAX_COLORS, len(points) // STRAY_CELLS):
        more = _kmeans_pp(scaled, len(centres) + 1)
        labels = np.linalg.norm(scaled[:, None, :] - more[None, :, :], axis=2).argmin(axis=1)
        apart = _min_distance(more)
        if apart < SPLIT or np.bincount(labels, minlength=len(more)).min() < STRAY_CELLS:
            break
        centres, closest = more, apart
    labels = np.linalg.norm(scaled[:, None, :] - centres[None, :, :], axis=2).argmin(axis=1)
    counts = np.bincount(labels, minlength=len(centres))
    if flat is not None and len(flat) and len(centres) > 1:
        near = (np.linalg.norm(flat[:, None, :] - (centres / w)[None, :, :], axis=2) <= NEAR).sum(axis=0)
        colors = near <= BACKGROUND_SHARE * counts
        if colors.any() and not colors.all():
            centres, counts = centres[colors], counts[colors]
            closest = _min_distance(centres)
    order = np.argsort(-counts, kind="stable")
    seeds = centres[order] / w
    doubt = None
    if closest < 1.2 * SPLIT:
        doubt = PaletteDoubt(Disagreement.CLOSE)
    return PaletteMatch(seeds, lab_to_rgb(seeds), doubt)


def _stray_cluster(points: np.ndarray, seeds: np.ndarray, w: np.ndarray) -> tuple[int, ...]:
    """The points of a color of the board that no swatch has: with one cluster more than
    swatches, a cluster of at least :data:`STRAY_CELLS` points more than ``2 * NEAR``
    from every seed (empty when there is none)."""
    k = len(seeds)
    if len(points) < 2 * (k + 1):
        return ()
    cv2.setRNGSeed(12345)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 100, 1e-4)
    _, labels, centres = cv2.kmeans(
        np.ascontiguousarray(points, np.float32), k + 1, None, criteria, 3, cv2.KMEANS_PP_CENTERS
    )
    labels = labels.ravel()
    counts = np.bincount(labels, minlength=k + 1)
    for i, centre in enumerate(centres.astype(np.float64)):
        far = np.linalg.norm((seeds - centre) / w, axis=1).min()
        if counts[i] >= STRAY_CELLS and far > 2 * NEAR:
            return tuple(np.flatnonzero(labels == i).tolist())
    return ()


def _seeded_centres(points: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """k-means centres started from ``seeds`` (each point first goes to its nearest seed)."""
    pts = np.ascontiguousarray(points, np.float32)
    first = np.linalg.norm(pts[:, None, :] - seeds[None, :, :].astype(np.float32), axis=2).argmin(axis=1)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 100, 1e-4)
    _, labels, centres = cv2.kmeans(
        pts, len(seeds), first.astype(np.int32).reshape(-1, 1), criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS
    )
    out = centres.astype(np.float64)
    # A seed that lost every point keeps its place (k-means would leave it anywhere).
    counts = np.bincount(labels.ravel(), minlength=len(seeds))
    out[counts == 0] = seeds[counts == 0]
    return out


def _min_distance(colors: np.ndarray) -> float:
    if len(colors) < 2:
        return np.inf
    d = np.linalg.norm(colors[:, None, :] - colors[None, :, :], axis=2)
    return float(d[~np.eye(len(colors), dtype=bool)].min())


def unused_swatch(classes: np.ndarray, k: int) -> Optional[PaletteDoubt]:
    """The cross-check after classification: a swatch that no cell takes."""
    counts = np.bincount(classes[classes >= 0], minlength=k)
    empty = [i + 1 for i in range(k) if counts[i] == 0]
    if empty:
        return PaletteDoubt(Disagreement.UNUSED, empty[0])
    return None
