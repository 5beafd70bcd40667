"""Every cell of the board: where it lies on the screen, what it measures, which color it is.

* **The lattice** is fixed by the board's box (:mod:`kamivision.vision.layout`); its
  vertical offset is fitted to the image (:mod:`kamivision.vision.lattice`).
* **Cells** are sampled over their visible inner part (rows 0 and 28 are cut by the
  strips), with the median in CIE Lab.
* **Classes**: colors are clustered with k-means (OpenCV) seeded by the swatches;
  blank cells are told from paper by structure as well as color: the background is a
  smooth gradient with no grain, no fold shading and no edges between its triangles.

Images are RGB uint8 arrays of shape (H, W, 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..board import neighbor_table
from ..geometry import KAMI2_COLUMNS as COLUMNS
from ..geometry import KAMI2_ROWS as ROWS
from ..geometry import label_image
from .background import background_model
from .lattice import fit_offset
from .layout import ScreenLayout
from .pixels import group_medians, norm3, seeded_kmeans
from .settings import DEFAULT_SETTINGS, VisionSettings

#: Relative grain is capped at this (paper is about 1, the background near 0).
MAX_RELATIVE_GRAIN = 2.0

#: A cell further from its class than this many times the class's typical distance (and
#: than OUTLIER_FLOOR feature units) looks like no class at all.
OUTLIER_FACTOR = 4.0
OUTLIER_FLOOR = 12.0

#: A cell with this share of its pixels clipped (a channel at 254 or more) has lost its
#: grain there: read as blank, it is doubtful.
CLIP_SHARE = 0.25

#: A pale class this near a paper color (CIE Lab units) is that paper, not the background.
SAME_AS_PAPER = 6.0

#: A pale class flatter than this (its median relative grain) is the background even where
#: it lies near a paper color: paper is about 1, a cream's smoother cells on a coarse shot
#: 0.2 or more, the background 0.02 to 0.2 (a render whose background came 4.8 Lab units
#: from its cream paper had all 80 blank cells read as cream, with confidence).  One less
#: flat and near a paper is taken for it, with its flat members doubtful.
BACKGROUND_GRAIN = 0.15

#: This many flat cells in the pale seed's class make it the background.
MIN_FLAT_CELLS = 6

#: The class of a blank cell in :class:`CellClasses` (the swatches are 0, 1, ...).
BLANK_CLASS = -1


def _cell_labels(layout: ScreenLayout, dy: float) -> np.ndarray:
    """Cell index (``r * 10 + c``) of every screen pixel in the visible board band and not
    under a window floating over it, -1 elsewhere, for the lattice box moved down by ``dy``."""
    x0, y0, bw, bh = layout.board
    labels = label_image("triangle", ROWS, COLUMNS, (x0, y0 + dy, bw, bh), (layout.height, layout.width))
    labels[: layout.visible[0]], labels[layout.visible[1] :] = -1, -1
    for x, y, w, h in layout.covers:  # what a window over the board hides is unseen
        labels[y : y + h, x : x + w] = -1
    return labels


def _inner_pixels(labels: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """(flat pixel indices, their cell) of every cell's inner part: pixels at least ``margin``
    from its edges, or its deepest half when the cell is too thin for that (rows 0 and 28)."""
    edge = np.zeros(labels.shape, np.uint8)
    edge[:, 1:] |= (labels[:, 1:] != labels[:, :-1]).astype(np.uint8)
    edge[1:, :] |= (labels[1:, :] != labels[:-1, :]).astype(np.uint8)
    edge[:, :-1] |= edge[:, 1:].copy()
    edge[:-1, :] |= edge[1:, :].copy()
    dist = cv2.distanceTransform((1 - edge).astype(np.uint8), cv2.DIST_L2, 3)
    flat_labels = labels.ravel()
    flat_dist = dist.ravel()
    inside = np.flatnonzero(flat_labels >= 0)
    cells = flat_labels[inside]
    depth = flat_dist[inside]
    deepest = np.zeros(ROWS * COLUMNS, np.float32)
    np.maximum.at(deepest, cells, depth)
    need = np.maximum(np.minimum(margin, 0.5 * deepest), 1.0)  # per cell, then spread
    keep = depth >= need[cells]
    return inside[keep], cells[keep]


@dataclass(frozen=True, slots=True)
class CellSamples:
    """Per-cell measurements: Lab median and grain (paper texture), the share of the cell
    that the screen shows, and the lattice's vertical offset they were taken at (pixels).
    A cell the screen does not show at all has NaN for its Lab median."""

    lab: np.ndarray  # (290, 3) in CIE units (L 0..100)
    grain: np.ndarray  # (290,) median absolute high-pass of L
    visible: np.ndarray  # (290,) share of the cell's area on the screen, 0..1
    foreign: np.ndarray  # (290,) share of the cell's sampled pixels that are not its paper
    offset: float
    marks: dict = field(default_factory=dict)  # cell -> (n, 3) Lab of its pixels, for cells with marks
    pixels: np.ndarray | None = None  # (290,) how many pixels each cell was measured over
    clipped: np.ndarray | None = None  # (290,) share of the sampled pixels with a channel at 254+

    @property
    def seen(self) -> np.ndarray:
        """(290,) bool: the cells the screen shows at all."""
        return ~np.isnan(self.lab).any(axis=1)

    def relative_grain(self) -> np.ndarray:
        """Each cell's grain over the board's (its 75th percentile: paper, whatever share of
        the board is blank); 0 for cells not seen.  Paper is about 1, the background near 0."""
        seen = self.seen
        grain = np.where(seen, self.grain, 0.0)
        reference = float(np.percentile(grain[seen], 75)) if seen.any() else 1.0
        return grain / (reference or 1.0)


def _to_cie_lab(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)


def sample_cells(
    rgb: np.ndarray, layout: ScreenLayout, settings: VisionSettings = DEFAULT_SETTINGS, cut: np.ndarray | None = None
) -> CellSamples:
    """Measure every cell of an RGB screenshot over its inner part, with the lattice offset
    fitted to the image; pixels ``cut`` out of the screenshot (rounded corners) are off the
    screen."""
    lab = _to_cie_lab(rgb)
    offset = fit_offset(lab[..., 0], layout, settings)
    labels = _cell_labels(layout, offset)
    if cut is not None:
        labels[cut] = -1  # rounded screen corners: off the screen, as the sides are
    column = layout.board[2] / COLUMNS
    margin = settings.cell_margin * column
    n = ROWS * COLUMNS
    area = column * layout.board[3] / 14.0 / 2.0  # a triangle: its side times its width, halved
    visible = np.minimum(1.0, np.bincount(labels[labels >= 0], minlength=n) / area).astype(np.float32)
    index, cells = _inner_pixels(labels, margin)
    flat = lab.reshape(-1, 3)
    values = flat[index]
    medians = group_medians(values, cells, n)
    lightness = lab[..., 0]
    sigma = 2.0 * max(1.0, layout.width / 750.0)
    highpass = np.abs(lightness - cv2.GaussianBlur(lightness, (0, 0), sigma))
    keep, foreign, marks = _paper_pixels(values, cells, medians, n)  # re-takes the medians of marked cells
    # The median, not the mean: paper grain covers the whole cell, while the edges of a
    # thin mark the paper's color does not catch (white digits on a pale background, a
    # status bar's clock) are a few pixels, which move a mean but not a median.
    grain = np.nan_to_num(group_medians(highpass.ravel()[index][keep][:, None], cells[keep], n)[:, 0])
    # The high-pass sees the strip or the footer beside the band's first and last rows:
    # a cell cut by them (rows 0 and 28) takes its grain from pixels clear of them, when
    # it has some.
    row = index // layout.width
    top, bottom = layout.visible
    clear = keep & (row >= top + 3 * sigma) & (row < bottom - 3 * sigma)
    inner = group_medians(highpass.ravel()[index][clear][:, None], cells[clear], n)[:, 0]
    grain = np.where(np.isnan(inner), grain, inner)
    pixels = np.bincount(cells, minlength=n)
    at_top = (rgb.reshape(-1, 3)[index] >= 254).any(axis=1)
    clipped = np.bincount(cells, weights=at_top, minlength=n) / np.maximum(pixels, 1)
    return CellSamples(medians, grain.astype(np.float32), visible, foreign, offset, marks, pixels, clipped)


#: A pixel further than this (CIE Lab units) from its cell's paper color is not paper: ink,
#: a digit or a cursor drawn over the screenshot.
FOREIGN_DELTA = 20.0


def _paper_pixels(
    values: np.ndarray, cells: np.ndarray, medians: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, dict]:
    """Which sampled pixels are the cells' paper, each cell's share of foreign pixels, and
    the pixels of every cell with marks (for :func:`classify_cells` to weigh); ``medians``
    (one row per cell) is updated in place for the cells with marks.

    A clean cell's pixels lie close to their median (grain and shading are a few units), so
    all are kept and its median is unchanged.  Where marks cover part of a cell (more than
    a tenth of its pixels far from the median), the median is pulled towards them: it is
    taken again, three times, over the pixels nearest the last one (the nearer of
    :data:`FOREIGN_DELTA` and the nearest 40 %), which settles on the paper as long as most
    of the cell is paper, and last over the pixels kept; a cell mostly covered ends with a
    large foreign share.
    """
    dist = norm3(values - medians[cells])
    counts = np.maximum(1, np.bincount(cells, minlength=n))
    share = np.bincount(cells, weights=(dist > FOREIGN_DELTA).astype(np.float64), minlength=n) / counts
    keep = np.ones(len(values), bool)
    marks = {}
    order = np.argsort(cells, kind="stable")
    bounds = np.searchsorted(cells[order], np.arange(n + 1))
    for cell in np.flatnonzero(share > 0.1):
        at = order[bounds[cell] : bounds[cell + 1]]
        v = values[at]
        marks[int(cell)] = v[:: max(1, len(v) // 1000)]  # a thousand pixels are plenty to weigh
        centre = np.median(v, axis=0)
        for _ in range(3):
            d = np.linalg.norm(v - centre, axis=1)
            near = d <= max(FOREIGN_DELTA, float(np.percentile(d, 40)))
            centre = np.median(v[near], axis=0)
        paper = np.linalg.norm(v - centre, axis=1) <= FOREIGN_DELTA
        keep[at] = paper
        share[cell] = 1.0 - float(np.mean(paper))
        if paper.any():
            medians[cell] = np.median(v[paper], axis=0)
    return keep, share.astype(np.float32), marks


def swatch_colors(
    rgb: np.ndarray, layout: ScreenLayout, cut: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Lab and sRGB median of each swatch over its lower part (clear of the folded-corner
    mark), without the pixels ``cut`` out of the screenshot (rounded corners)."""
    out, srgb = [], []
    for x, y, sw, sh in layout.swatches:
        rows, cols = slice(y + int(0.45 * sh), y + int(0.9 * sh)), slice(x + int(0.15 * sw), x + int(0.85 * sw))
        pixels, colors = _to_cie_lab(rgb[rows, cols]).reshape(-1, 3), rgb[rows, cols].reshape(-1, 3)
        game = np.ones(len(pixels), bool) if cut is None else ~cut[rows, cols].ravel()  # not a cut-out corner
        if game.sum() >= 0.25 * len(game):
            pixels, colors = pixels[game], colors[game]
        out.append(np.median(pixels, axis=0))
        srgb.append(np.median(colors, axis=0))
    return np.array(out, np.float32), np.array(srgb, np.float64)


# ------------------------------------------------------------------ classifying the cells


@dataclass(frozen=True, slots=True)
class CellClasses:
    classes: np.ndarray  # (290,) swatch index, BLANK_CLASS for blank
    confidence: np.ndarray  # (290,) 0..1: how much closer the chosen class is than the next
    #: (290, k + 1): how much less likely each class is than the one chosen, 0 for the chosen
    #: and up to 1 (inf: impossible, e.g. blank on a board without background); the last
    #: column is blank.  The par check tries the cheapest other readings first.
    costs: np.ndarray


def classify_cells(
    samples: CellSamples, swatches: np.ndarray, settings: VisionSettings = DEFAULT_SETTINGS
) -> CellClasses:
    """Assign every cell a swatch or blank.

    k-means (:func:`~kamivision.vision.pixels.seeded_kmeans`, OpenCV's) runs on the cells'
    Lab medians plus their relative grain, seeded by the swatch colors (paper: full grain)
    and one pale, flat seed for the background.
    The background class is kept only when its members are flat (no paper grain); then its
    color is modelled as a smooth surface over the board (the game's gradient varies from
    pink to mint to lilac) and every cell is assigned to the nearest of the paper centres and
    the background surface, twice, refitting the surface to the cells it holds.

    A cell the screen shows less than ``settings.hidden`` of (a board cropped at the sides)
    gets confidence 0, whatever it looks like; one it does not show at all takes the class
    most of its neighbors have.
    """
    k = len(swatches)
    seen = samples.seen
    # Grain above twice the board's is marks, not paper: capped, so that it cannot pull
    # the clusters (ink strokes have a high-pass many times the paper's).
    relative = np.minimum(samples.relative_grain(), MAX_RELATIVE_GRAIN)
    # Cells largely covered by marks are classified but do not shape the clusters.
    marked = samples.foreign >= settings.marked
    fit = seen & ~marked
    weights = np.array([settings.lightness_weight, 1.0, 1.0], np.float32)
    grain_weight, blank_grain = settings.grain_weight, settings.blank_grain
    clipped = np.zeros(len(seen), bool) if samples.clipped is None else samples.clipped >= CLIP_SHARE
    features = np.column_stack([np.where(seen[:, None], samples.lab, 0.0) * weights, grain_weight * relative])
    features = features.astype(np.float64)
    seeds = np.vstack(
        [
            np.column_stack([swatches * weights, np.full(k, grain_weight)]),
            np.r_[np.array([90.0, 0.0, 3.0]) * weights, 0.15 * grain_weight],
        ]
    )
    centres, labels = seeded_kmeans(features[fit], seeds)
    dist = np.linalg.norm(features[:, None, :] - centres[None, :, :], axis=2)
    members = np.zeros(len(features), bool)
    members[fit] = labels == k
    # The pale seed's class is the background when its members are flat, or when enough of
    # them are (a pale paper color can share the class with a little background showing).
    flat_members = members & (relative < blank_grain)
    # Either way it takes MIN_FLAT_CELLS cells: a lone flat cell is a blot of ink or a
    # sticker, not the background (real boards show 19 blank cells or more).
    has_blanks = int(members.sum()) >= MIN_FLAT_CELLS and (
        float(np.median(relative[members])) < blank_grain or int(flat_members.sum()) >= MIN_FLAT_CELLS
    )
    # And some cells start nearest the pale seed: when none does (a board with no blank
    # cell), k-means moves the empty class onto one half of a paper color split by its
    # shading, whose lighter, smoother half then passed for the background.
    start = np.linalg.norm(features[fit][:, None, :] - seeds[None, :, :], axis=2).argmin(axis=1)
    has_blanks = has_blanks and int((start == k).sum()) >= MIN_FLAT_CELLS
    # And its color is not a paper's: the smoother cells of a cream paper on a small,
    # coarse shot of a board with no blank cell start near the pale seed too, but their
    # color is the cream's.  On the real screenshots the pale class lies 13.4 Lab units
    # or more from every paper color (docs/recognition.md).  Its flat members are then
    # doubtful: a background near a cream, its grain raised by the strip, looks the same.
    in_doubt = np.zeros(len(features), bool)
    if has_blanks and k:
        pale = np.median(features[members, :3], axis=0) / weights
        apart = float(np.linalg.norm(centres[:k, :3] / weights - pale, axis=1).min()) > SAME_AS_PAPER
        if not apart and float(np.median(relative[members])) >= BACKGROUND_GRAIN:
            has_blanks, in_doubt = False, flat_members
    background = None  # the blank background's modelled features at every cell, when it has blanks
    if not has_blanks:
        # No background: the pale seed's members are paper, so cluster again into the
        # swatches' classes alone (else those cells would fall to whichever paper class
        # is next nearest).
        if members.any():
            centres, _ = seeded_kmeans(features[fit], seeds[:k])
            dist[:, :k] = np.linalg.norm(features[:, None, :] - centres[None, :, :], axis=2)
        dist[:, k] = np.inf
    else:
        for _ in range(2):
            flat = (dist.argmin(axis=1) == k) & (relative < blank_grain) & fit
            if not flat.any():
                break
            background = background_model(features, flat, OUTLIER_FLOOR)
            dist[:, k] = np.linalg.norm(features - background, axis=1)
    order = np.sort(dist, axis=1)
    best = dist.argmin(axis=1)
    d1, d2 = order[:, 0], order[:, 1] if k + 1 > 1 else np.full(len(dist), np.inf)
    with np.errstate(invalid="ignore", divide="ignore"):
        confidence = np.where(np.isfinite(d2), (d2 - d1) / (d2 + d1 + 1e-9), 1.0)
    # A cell far from the class it is nearest to looks like none of them (a mark that
    # covers most of it, a cursor): uncertain, however clear the runner-up margin.
    strange = np.zeros(len(features), bool)
    for c in range(k + 1):
        mine = (best == c) & fit
        if mine.any():
            typical = float(np.median(d1[mine]))
            strange |= (best == c) & seen & (d1 > max(OUTLIER_FACTOR * typical, OUTLIER_FLOOR))
    confidence[strange] = 0.0
    if background is not None:
        # Blank or paper is told by color and grain together.  Where the color alone
        # says the other (a smooth cell the grain calls paper: JPEG blocks on the
        # background; a light paper of a small, blurred shot the grain calls blank), the
        # two disagree: the cell is doubtful, and read by its color, which was right on
        # every such cell of the random screens.  No confident cell of the real
        # screenshots is one (docs/recognition.md).
        to_paper = np.linalg.norm(features[:, None, :3] - centres[None, :k, :3], axis=2)
        by_color = np.linalg.norm(features[:, :3] - background[:, :3], axis=1) < to_paper.min(axis=1)
        disagree = seen & (by_color != (best == k))
        best[disagree] = np.where(by_color, k, to_paper.argmin(axis=1))[disagree]
        confidence[disagree] = 0.0
        # Where the background's color comes near a paper's (the gradient reaching a
        # cream's hue at one edge of the board), only the grain tells the two apart, and a
        # grain half-way between the background's and paper's tells nothing: a cell read
        # as either is doubtful there.
        near = np.linalg.norm((background[:, None, :3] - centres[None, :k, :3]) / weights, axis=2)
        alike = near.min(axis=1) < 2 * SAME_AS_PAPER
        either = (best == k) | (best == near.argmin(axis=1))
        middling = (relative > 0.5 * blank_grain) & (relative < 1.5 * blank_grain)
        confidence[seen & alike & either & middling] = 0.0
    # A channel at 255 over much of a cell (a pale paper in the game's highlight, on a
    # brightened shot) flattens its grain: it may be paper read as blank, never the reverse
    # (the background is flat already), so only a blank reading is doubtful.
    confidence[clipped & (best == k)] = 0.0
    confidence[in_doubt] = 0.0
    classes = np.where(best == k, BLANK_CLASS, best).astype(np.int64)
    confidence[samples.visible < settings.hidden] = 0.0
    if samples.pixels is not None:  # a median of a few pixels (a half cell of a small screen) is weak evidence
        confidence *= np.clip(samples.pixels / settings.min_pixels, 0.0, 1.0)
    confidence[marked] = 0.0
    finite = np.isfinite(dist)
    costs = np.full(dist.shape, np.inf)
    near = np.broadcast_to(d1[:, None], dist.shape)[finite]
    costs[finite] = (dist[finite] - near) / (dist[finite] + near + 1e-9)
    blank = None if background is None else background[:, :3] / weights
    # A cell that looks like no class may be a mark over all of it (a filled blot, whose
    # even color passed for paper): weighed by its pixels too, as a marked cell is.
    _weigh_marked_pixels(classes, costs, marked | strange, samples.marks, centres[:k, :3] / weights, blank)
    # Little of the cell on the screen: little evidence against its other readings (none
    # for a cell not seen at all).
    evidence = np.clip(samples.visible / max(settings.hidden, 1e-6), 0.0, 1.0)
    evidence[~seen] = 0.0
    costs[finite] *= np.broadcast_to(evidence[:, None], costs.shape)[finite]
    _fill_unseen(classes, seen)
    confidence[_isolated(classes)] *= ISOLATED_MARGIN
    return CellClasses(classes, confidence.astype(np.float32), costs.astype(np.float32))


#: A cell unlike all its neighbors, which agree with each other, keeps this share of its
#: margin: one lone triangle of another color is rarer than a misread.
ISOLATED_MARGIN = 0.5


def _isolated(classes: np.ndarray) -> np.ndarray:
    """Cells whose neighbors (all of them, two or three) share one class that is not theirs."""
    table = neighbor_table("triangle", ROWS, COLUMNS)
    out = np.zeros(len(classes), bool)
    for cell, around in enumerate(table):
        if len(around) >= 2:
            values = {int(classes[n]) for n in around}
            out[cell] = len(values) == 1 and int(classes[cell]) not in values
    return out


#: A marked cell's class needs this share of its pixels nearest to it (and within
#: FOREIGN_DELTA): a few dozen paper pixels beside a blot are evidence; stray pixels where
#: an antialiased stroke crosses some color are not.
MARKED_SUPPORT = 0.02


def _weigh_marked_pixels(classes, costs, marked, marks, paper, background) -> None:
    """Give each marked cell the class that most of its pixels lie near, and each class
    the cost of its share of those pixels against the winner's (in place).

    Ink over much of a cell drags its median (and so its nearest class) away from the
    paper; the pixels that are still paper sit close to one class's color.  Each pixel
    counts for the class (a paper color, or the background's modelled color at that cell)
    it is nearest to, when within :data:`FOREIGN_DELTA` of it (nearest, not merely
    within: a pale paper and the pale background can lie closer together than that); the
    class with the most wins when it holds at least :data:`MARKED_SUPPORT` of them.  A
    cell with less paper showing than that is in effect unseen and keeps the class of its
    median.  The cell stays uncertain either way.
    """
    for cell in np.flatnonzero(marked):
        pixels = marks.get(int(cell))
        if pixels is None:
            continue
        colors = paper if background is None else np.vstack([paper, background[cell]])
        dist = np.linalg.norm(pixels[:, None, :] - colors[None, :, :], axis=2)
        nearest = dist.argmin(axis=1)
        near = dist[np.arange(len(pixels)), nearest] <= FOREIGN_DELTA
        support = np.bincount(nearest[near], minlength=len(colors)) / len(pixels)
        if support.max() >= MARKED_SUPPORT:
            best = int(support.argmax())
            classes[cell] = BLANK_CLASS if best == len(paper) else best
            costs[cell, : len(support)] = 1.0 - support / support[best]


def _fill_unseen(classes: np.ndarray, seen: np.ndarray) -> None:
    """Give each cell the screen does not show the class most of its seen neighbors have
    (in place), spreading inwards from the seen cells."""
    table = neighbor_table("triangle", ROWS, COLUMNS)
    known = seen.copy()
    while not known.all():
        filled = []
        for cell in np.flatnonzero(~known):
            around = [classes[n] for n in table[cell] if known[n]]
            if around:
                values, counts = np.unique(around, return_counts=True)
                filled.append((cell, values[counts.argmax()]))
        if not filled:  # nothing seen at all: left to the caller's checks
            return
        for cell, value in filled:
            classes[cell] = value
            known[cell] = True
