"""Read a KAMI 2 board from a screenshot: layout, palette, lattice, cells, par.

The reader uses what every KAMI 2 screen has, not one phone's pixel positions:

* **Horizontal edges.**  The triangle lattice has only vertical and slanted edges, so a
  straight horizontal edge across the screen is a layout boundary: the top of the footer,
  and on iPhone X class phones the bottom of the status strip and the top of the
  home-indicator strip.
* **The footer** is the band below the lowest such edge whose left part is the dark button
  block; the palette swatches are the wide flat runs of colour that fill it to the right
  edge, equal in width.  Their count is the number of colours.
* **The lattice** is fixed by the screen width (10 columns); its vertical offset is fitted by
  choosing the offset under which the triangles' inner patches are most uniform.
* **Cells** are sampled over their visible inner part (rows 0 and 28 are cut by the strips),
  with the median in CIE Lab.  Colours are clustered with k-means seeded by the swatches;
  blank cells are told from paper by structure as well as colour: the background is a
  smooth gradient with no grain, no fold shading and no edges between its triangles.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import cv2
import numpy as np
from PIL import Image

from .board import TRIANGLE_ASPECT, Board, make_board, points_right
from .errors import ImageError

ROWS, COLUMNS = 29, 10
MAX_PIXELS = 40_000_000  # decompression-bomb guard: larger images are refused
MIN_WIDTH = 200
BOARD_ABOVE_16_9 = 1.612  # footer top minus board top, in screen widths (real screenshots)
BOARD_ABOVE_NOTCH = 1.6284

# ------------------------------------------------------------------ reading images


def load_image(path: str | Path) -> np.ndarray:
    """The image at ``path`` as RGB uint8, or :class:`ImageError` naming the file and the problem."""
    path = Path(path)
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not an image")
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                im.load()
                rgb = np.asarray(im.convert("RGB"))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(f"{path}: image is too large (more than {MAX_PIXELS:,} pixels)") from None
    except (OSError, SyntaxError, ValueError) as error:
        reason = str(error).split("\n")[0] or type(error).__name__
        if "cannot identify image file" in reason:
            reason = "not an image file Pillow can read"
        raise ImageError(f"{path}: {reason}") from None
    if rgb.shape[1] < MIN_WIDTH or rgb.shape[0] < MIN_WIDTH:
        raise ImageError(f"{path}: image is {rgb.shape[1]}x{rgb.shape[0]}, too small for a KAMI screenshot")
    return np.ascontiguousarray(rgb)


# ------------------------------------------------------------------ layout


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """What the reader found on the screen (pixels; rectangles are ``x, y, w, h``)."""

    name: str  # "16:9" or "notch" (2 x 2 buttons)
    width: int
    height: int
    board: tuple[float, float, float, float]  # nominal lattice box: h = 1.6166 w
    visible: tuple[int, int]  # rows of the screen showing the board: [top, bottom)
    footer: tuple[int, int, int, int]
    buttons: tuple[int, int, int, int]
    swatches: tuple[tuple[int, int, int, int], ...]


def _horizontal_edges(lab: np.ndarray) -> np.ndarray:
    """``edges[y]``: the fraction of columns with a colour step between rows ``y - 1`` and ``y``.

    The step is measured across two rows (``y - 2`` to ``y``... ``y + 1``) so that edges
    softened by resampling or JPEG still count.
    """
    f = lab.astype(np.float32)
    step = np.zeros(f.shape[:2], np.float32)
    step[1:-1] = np.abs(f[2:] - f[:-2]).sum(axis=2)
    return (step > 14.0).mean(axis=1)


def _edge_rows(edges: np.ndarray, threshold: float) -> list[int]:
    """Rows ``y`` where a horizontal edge lies (the boundary between ``y - 1`` and ``y``):
    local maxima of ``edges`` above ``threshold``, one per cluster of neighbouring rows."""
    rows = []
    for a, b in _runs(edges > threshold):
        # edges[y] measures rows y-1 .. y+1: a run over a, ..., b-1 centres on the boundary.
        rows.append((a + b) // 2)
    return rows


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs ``[start, end)`` of True in a 1-D mask."""
    padded = np.concatenate([[False], mask, [False]])
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    return list(zip(changes[::2].tolist(), changes[1::2].tolist()))


def _is_footer_dark(rgb: np.ndarray) -> np.ndarray:
    """Pixels of the footer's dark brown: dark, and warm (red >= blue)."""
    r, g, b = (rgb[..., k].astype(np.int16) for k in range(3))
    value = np.maximum(np.maximum(r, g), b)
    return (value < 75) & (r >= b + 8)  # brown, unlike black system bars or grey paper


def _count_swatches(columns: np.ndarray) -> int:
    """How many equal-width swatches the palette's column colours show: the fewest equal
    segments that are each uniform inside, with every neighbouring pair distinct."""
    span = len(columns)
    for n in range(1, 11):
        cuts = np.linspace(0, span, n + 1)
        colors, uniform = [], True
        for i in range(n):
            a, b = cuts[i], cuts[i + 1]
            inner = columns[int(a + 0.15 * (b - a)) : int(np.ceil(b - 0.15 * (b - a)))]
            if len(inner) == 0:
                return max(1, n - 1)
            color = np.median(inner, axis=0)
            if np.percentile(np.abs(inner - color).sum(axis=1), 90) > 12.0:
                uniform = False
                break
            colors.append(color)
        if uniform and all(np.abs(colors[i] - colors[i + 1]).sum() > 8.0 for i in range(n - 1)):
            return n
    return 0


def find_layout(rgb: np.ndarray, origin: str) -> ScreenLayout:
    """Find the footer, the palette swatches and the board's box, or raise :class:`ImageError`."""
    h, w = rgb.shape[:2]
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)
    edges = _horizontal_edges(lab)
    dark = _is_footer_dark(rgb[:, : max(4, int(0.28 * w))]).mean(axis=1)
    # Bands between strong horizontal edges; the footer is the lowest band whose left part
    # (the button block) is dark brown, merged with a dark band right above it (the 2 x 2
    # button block has a horizontal separator of its own).
    cuts = [y for y in _edge_rows(edges, 0.35) if y > 0.9 * w] + [h]
    bands = [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b - a >= 0.05 * w]

    def footer_like(a: int, b: int) -> bool:
        return 0.1 * w <= b - a <= 0.45 * w and dark[a:b].mean() > 0.6

    found = None
    for i in range(len(bands) - 1, -1, -1):
        a, b = bands[i]
        if footer_like(a, b) or (b - a < 0.1 * w and dark[a:b].mean() > 0.6):
            top = a
            j = i
            while j > 0 and bands[j - 1][1] >= top - 3 and footer_like(bands[j - 1][0], b):
                j -= 1
                top = bands[j][0]
            if footer_like(top, b):
                found = (top, b)
                break
    if found is None:
        raise ImageError(f"{origin}: no KAMI footer (dark button strip with colour swatches) found")
    footer_top, footer_bottom = found
    fh = footer_bottom - footer_top
    # The swatches: wide runs of flat colour filling the footer to the right edge.
    band = lab[footer_top + int(0.45 * fh) : footer_top + int(0.9 * fh)].astype(np.float32)
    columns = np.median(band, axis=0)
    jumps = np.abs(np.diff(columns, axis=0)).sum(axis=1) > 12.0
    bounds = [0, *(np.flatnonzero(jumps) + 1).tolist(), w]
    runs = [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b - a > 0]
    swatches: list[tuple[int, int]] = []
    x = w
    for a, b in reversed(runs):
        if b < x - max(3, 0.006 * w):
            break
        if b - a >= 0.07 * w:
            swatches.append((a, b))
            x = a
        elif b - a > max(3, 0.006 * w):
            break
        else:
            x = a
    swatches.reverse()
    # The button block is a row (16:9) or a 2 x 2 block (notch) of equal cells split by thin
    # bright lines that run the footer's full height: the palette starts one cell width
    # after the last of them.  Without visible lines, the runs above decide.
    lightness = lab[footer_top + int(0.05 * fh) : footer_top + int(0.95 * fh), : int(0.6 * w), 0]
    floor = float(np.median(lightness[:, : max(2, int(0.02 * w))]))
    level = np.median(lightness, axis=0)
    gap = max(3, round(0.015 * w))
    lines = [
        (a + b) / 2
        for a, b in _runs(lightness.min(axis=0) > floor + 40)
        if b - a <= max(4, 0.012 * w)
        and a - gap >= 0
        and b + gap < level.size
        and max(level[a - gap], level[b + gap]) < floor + 15  # dark footer on both sides
    ]
    start = swatches[0][0]
    if lines:
        start = round(lines[-1] + lines[0])
    count = _count_swatches(columns[start:])
    if not 1 <= count <= 10 or not (0.2 * w <= start <= 0.5 * w):
        raise ImageError(f"{origin}: the footer does not look like KAMI's (palette from x={start}, {count} swatches)")
    edges_x = np.linspace(start, w, count + 1).round().astype(int)
    swatch_rects = tuple(
        (int(edges_x[i]), footer_top, int(edges_x[i + 1] - edges_x[i]), fh) for i in range(count)
    )
    name = "notch" if fh > 0.24 * w else "16:9"
    # The board ends under the footer: 1.612 w above it on 16:9 phones, 1.6284 w on phones
    # with the 2 x 2 block (their board shows a little more of the last row).  A status
    # strip's lower edge near that estimate marks the board's top exactly; a blank top row
    # can hide it, and the lattice fit absorbs the rest.
    board_top = max(0, round(footer_top - (BOARD_ABOVE_NOTCH if name == "notch" else BOARD_ABOVE_16_9) * w))
    head = [y for y in _edge_rows(edges, 0.85) if abs(y - board_top) < 0.02 * w]
    if head:
        board_top = head[-1]
    if board_top < 0.01 * w:
        board_top = 0
    box = (0.0, float(board_top), float(w), w * TRIANGLE_ASPECT)
    return ScreenLayout(
        name, w, h, box, (board_top, footer_top), (0, footer_top, w, fh), (0, footer_top, start, fh), swatch_rects
    )


# ------------------------------------------------------------------ the lattice and the cells


def _cell_labels(layout: ScreenLayout, dy: float) -> np.ndarray:
    """Cell index (``r * 10 + c``) of every screen pixel in the visible board band, -1 elsewhere,
    for the lattice box moved down by ``dy`` pixels."""
    w, h = layout.width, layout.height
    x0, y0, bw, bh = layout.board
    y0 += dy
    s = bh / 14.0
    labels = np.full((h, w), -1, np.int32)
    shift = 4
    for r in range(ROWS):
        for c in range(COLUMNS):
            xa, xb = x0 + c * bw / 10.0, x0 + (c + 1) * bw / 10.0
            ya, ym, yb = y0 + (r - 1) * s / 2, y0 + r * s / 2, y0 + (r + 1) * s / 2
            pts = [(xa, ya), (xa, yb), (xb, ym)] if points_right(r, c) else [(xb, ya), (xb, yb), (xa, ym)]
            fixed = np.round(np.array(pts) * (1 << shift)).astype(np.int32)
            cv2.fillConvexPoly(labels, fixed, r * COLUMNS + c, lineType=cv2.LINE_8, shift=shift)
    top, bottom = layout.visible
    labels[:top] = -1
    labels[bottom:] = -1
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
    need = np.minimum(margin, 0.5 * deepest[cells])
    keep = depth >= np.maximum(need, 1.0)
    return inside[keep], cells[keep]


def _group_medians(values: np.ndarray, groups: np.ndarray, count: int) -> np.ndarray:
    """Per-group median of each column of ``values`` (groups without values get NaN)."""
    order = np.argsort(groups, kind="stable")
    values, groups = values[order], groups[order]
    bounds = np.searchsorted(groups, np.arange(count + 1))
    out = np.full((count, values.shape[1]), np.nan, np.float32)
    for g in range(count):
        a, b = bounds[g], bounds[g + 1]
        if b > a:
            out[g] = np.median(values[a:b], axis=0)
    return out


@dataclass(frozen=True, slots=True)
class CellSamples:
    """Per-cell measurements: Lab median, grain (paper texture), spread, and pixel count."""

    lab: np.ndarray  # (290, 3) in CIE units (L 0..100)
    grain: np.ndarray  # (290,) mean absolute high-pass of L
    spread: np.ndarray  # (290,) interquartile range of L
    pixels: np.ndarray  # (290,)
    offset: float


def _to_cie_lab(rgb: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)
    return lab


def fit_offset(lab_l: np.ndarray, layout: ScreenLayout) -> float:
    """The vertical shift of the lattice that makes the cells most uniform.

    For each candidate shift the cells are sampled at five inner points each; the score is
    the mean spread of lightness over each cell's points.  The lattice's slanted edges cross
    the points as soon as it is misplaced, so the minimum is sharp.
    """
    w = layout.width
    x0, y0, bw, bh = layout.board
    s = bh / 14.0
    rows = np.arange(2, ROWS - 2)
    cols = np.arange(COLUMNS)
    rr, cc = np.meshgrid(rows, cols, indexing="ij")
    right = (rr + cc) % 2 == 0
    cx = x0 + (cc + 0.5) * bw / 10.0 + np.where(right, -bw / 60.0, bw / 60.0)
    cy = y0 + rr * s / 2
    # Inner points: the centroid and four points a third of the way to the corners/edges.
    r_in = 0.22 * s
    offsets = [(0, 0), (0, -r_in), (0, r_in), (-0.6 * r_in, 0), (0.6 * r_in, 0)]
    best = (np.inf, 0.0)
    span = max(2, int(0.03 * w))
    blurred = cv2.GaussianBlur(lab_l, (0, 0), max(1.0, w / 750.0))
    h = lab_l.shape[0]
    for dy in range(-span, span + 1):
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


def sample_cells(rgb: np.ndarray, layout: ScreenLayout) -> CellSamples:
    """Measure every cell over its inner part, with the lattice offset fitted to the image."""
    lab = _to_cie_lab(rgb)
    offset = fit_offset(lab[..., 0], layout)
    labels = _cell_labels(layout, offset)
    margin = 0.18 * layout.width / 10.0
    index, cells = _inner_pixels(labels, margin)
    n = ROWS * COLUMNS
    flat = lab.reshape(-1, 3)
    medians = _group_medians(flat[index], cells, n)
    lightness = lab[..., 0]
    highpass = np.abs(lightness - cv2.GaussianBlur(lightness, (0, 0), 2.0 * max(1.0, layout.width / 750.0)))
    grain = np.bincount(cells, weights=highpass.ravel()[index], minlength=n) / np.maximum(
        1, np.bincount(cells, minlength=n)
    )
    q = _group_quantiles(flat[index, 0], cells, n)
    return CellSamples(medians, grain.astype(np.float32), q, np.bincount(cells, minlength=n), offset)


def _group_quantiles(values: np.ndarray, groups: np.ndarray, count: int) -> np.ndarray:
    order = np.argsort(groups, kind="stable")
    values, groups = values[order], groups[order]
    bounds = np.searchsorted(groups, np.arange(count + 1))
    out = np.zeros(count, np.float32)
    for g in range(count):
        a, b = bounds[g], bounds[g + 1]
        if b - a > 3:
            q1, q3 = np.percentile(values[a:b], [25, 75])
            out[g] = q3 - q1
    return out


def swatch_colors(rgb: np.ndarray, layout: ScreenLayout) -> np.ndarray:
    """Lab median of each swatch over its lower part (clear of the folded-corner mark)."""
    lab = _to_cie_lab(rgb)
    out = []
    for x, y, sw, sh in layout.swatches:
        patch = lab[y + int(0.45 * sh) : y + int(0.9 * sh), x + int(0.15 * sw) : x + int(0.85 * sw)]
        out.append(np.median(patch.reshape(-1, 3), axis=0))
    return np.array(out, np.float32)


# ------------------------------------------------------------------ classifying the cells

LIGHTNESS_WEIGHT = 0.7  # lighting varies lightness across the board more than hue
GRAIN_WEIGHT = 20.0  # a paper cell's grain, relative to the board's, counts as 20 Lab units
BLANK_GRAIN = 0.45  # a class of cells this flat (relative grain) is background, not paper
UNCERTAIN = 0.25  # cells whose confidence is below this are listed as uncertain


@dataclass(frozen=True, slots=True)
class CellClasses:
    classes: np.ndarray  # (290,) swatch index, -1 for blank
    confidence: np.ndarray  # (290,) 0..1: how much closer the chosen class is than the next


def _background_model(features: np.ndarray, members: np.ndarray) -> np.ndarray:
    """The blank background's expected features at every cell: a quadratic surface in the
    cell's position fitted to ``members`` (the background is a smooth gradient), or their
    mean when they are too few to fit it."""
    rows, cols = np.divmod(np.arange(ROWS * COLUMNS), COLUMNS)
    y, x = rows / (ROWS - 1), cols / (COLUMNS - 1)
    basis = np.column_stack([np.ones_like(x), y, x, y * y, x * x, x * y])
    if members.sum() >= 12:
        coef, *_ = np.linalg.lstsq(basis[members], features[members], rcond=None)
        return basis @ coef
    return np.repeat(features[members].mean(axis=0, keepdims=True), len(features), axis=0)


def classify_cells(samples: CellSamples, swatches: np.ndarray) -> CellClasses:
    """Assign every cell a swatch or blank.

    k-means (scikit-learn) runs on the cells' Lab medians plus their relative grain, seeded
    by the swatch colours (paper: full grain) and one pale, flat seed for the background.
    The background class is kept only when its members are flat (no paper grain); then its
    colour is modelled as a smooth surface over the board (the game's gradient varies from
    pink to mint to lilac) and every cell is assigned to the nearest of the paper centres and
    the background surface, twice, refitting the surface to the cells it holds.
    """
    from sklearn.cluster import KMeans

    k = len(swatches)
    grain = samples.grain
    reference = float(np.percentile(grain, 75)) or 1.0
    relative = grain / reference
    weights = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0], np.float32)
    features = np.column_stack([samples.lab * weights, GRAIN_WEIGHT * relative]).astype(np.float64)
    seeds = np.vstack(
        [
            np.column_stack([swatches * weights, np.full(k, GRAIN_WEIGHT)]),
            np.r_[np.array([90.0, 0.0, 3.0]) * weights, 0.15 * GRAIN_WEIGHT],
        ]
    )
    km = KMeans(n_clusters=k + 1, init=seeds, n_init=1, max_iter=100).fit(features)
    centres = km.cluster_centers_
    dist = np.linalg.norm(features[:, None, :] - centres[None, :, :], axis=2)
    members = km.labels_ == k
    has_blanks = bool(members.any()) and float(np.median(relative[members])) < BLANK_GRAIN
    if not has_blanks:
        dist[:, k] = np.inf
    else:
        for _ in range(2):
            flat = (dist.argmin(axis=1) == k) & (relative < BLANK_GRAIN)
            if not flat.any():
                break
            dist[:, k] = np.linalg.norm(features - _background_model(features, flat), axis=1)
    order = np.sort(dist, axis=1)
    best = dist.argmin(axis=1)
    d1, d2 = order[:, 0], order[:, 1] if k + 1 > 1 else np.full(len(dist), np.inf)
    with np.errstate(invalid="ignore", divide="ignore"):
        confidence = np.where(np.isfinite(d2), (d2 - d1) / (d2 + d1 + 1e-9), 1.0)
    classes = np.where(best == k, -1, best)
    return CellClasses(classes.astype(np.int64), confidence.astype(np.float32))



# ------------------------------------------------------------------ the moves-left counter

GLYPH_SIZE = (20, 30)  # width, height of the normalised digit images


def _glyph_image(mask: np.ndarray) -> tuple[np.ndarray, float]:
    """A binary glyph cropped to its box, resized to GLYPH_SIZE and blurred; and its aspect."""
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    aspect = crop.shape[1] / crop.shape[0]
    img = cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), 1.2)
    img -= img.mean()
    norm = np.linalg.norm(img)
    return (img / norm if norm else img), aspect


_TEMPLATES: Optional[list[tuple[str, np.ndarray, float]]] = None


def _digit_templates() -> list[tuple[str, np.ndarray, float]]:
    """Digits 0-9 drawn with Pillow's bundled sans-serif font (no system fonts needed), at
    three stroke weights: the game's counter uses a light sans-serif."""
    global _TEMPLATES
    if _TEMPLATES is None:
        from PIL import ImageDraw, ImageFont

        font = ImageFont.load_default(size=96)
        out = []
        for digit in "0123456789":
            canvas = Image.new("L", (140, 140), 0)
            ImageDraw.Draw(canvas).text((70, 70), digit, fill=255, font=font, anchor="mm")
            mask = np.asarray(canvas) > 127
            for k in (-2, 0, 2):
                m = mask.astype(np.uint8)
                if k < 0:
                    m = cv2.erode(m, np.ones((3, 3), np.uint8), iterations=-k)
                elif k > 0:
                    m = cv2.dilate(m, np.ones((3, 3), np.uint8), iterations=k)
                img, aspect = _glyph_image(m > 0)
                out.append((digit, img, aspect))
        _TEMPLATES = out
    return _TEMPLATES


def _read_glyph(mask: np.ndarray) -> tuple[str, float]:
    """The digit a glyph mask shows and a confidence (0..1) from the margin over the runner-up."""
    img, aspect = _glyph_image(mask)
    scores: dict[str, float] = {}
    for digit, template, t_aspect in _digit_templates():
        score = float((img * template).sum()) - 0.8 * abs(math.log(max(aspect, 0.05) / t_aspect))
        scores[digit] = max(scores.get(digit, -9.0), score)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    (best, s1), (_, s2) = ranked[0], ranked[1]
    confidence = float(np.clip((s1 - s2) * 4.0, 0.0, 1.0)) * float(np.clip(s1 / 0.6, 0.0, 1.0))
    return best, confidence


def counter_rect(layout: ScreenLayout) -> tuple[int, int, int, int]:
    """The moves-left counter's button: the second of four in a row, or bottom right of 2 x 2."""
    bx, by, bw, bh = layout.buttons
    if layout.name == "notch":
        return bx + bw // 2, by + bh // 2, bw - bw // 2, bh - bh // 2
    return bx + bw // 4, by, bw // 4, bh


def read_par(rgb: np.ndarray, layout: ScreenLayout) -> tuple[Optional[int], float]:
    """The number on the moves-left counter and a confidence, or ``(None, 0)`` if unreadable."""
    x, y, w, h = counter_rect(layout)
    mx, my = int(0.14 * w), int(0.12 * h)
    patch = rgb[y + my : y + h - my, x + mx : x + w - mx]
    if patch.size == 0:
        return None, 0.0
    gray = cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY)
    floor = float(np.percentile(gray, 20))
    mask = (gray > floor + 0.5 * (255 - floor)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    glyphs = [
        i
        for i in range(1, count)
        if stats[i, cv2.CC_STAT_HEIGHT] >= 0.15 * patch.shape[0] and stats[i, cv2.CC_STAT_AREA] >= 6
    ]
    if not 1 <= len(glyphs) <= 2:
        return None, 0.0
    glyphs.sort(key=lambda i: stats[i, cv2.CC_STAT_LEFT])
    digits, confidence = "", 1.0
    for i in glyphs:
        digit, conf = _read_glyph(labels == i)
        digits += digit
        confidence = min(confidence, conf)
    value = int(digits)
    if value == 0:
        return None, 0.0
    return value, confidence


# ------------------------------------------------------------------ the whole reading


@dataclass(frozen=True, slots=True)
class Recognition:
    """A board read from a screenshot, with what was found on the way."""

    board: Board
    layout: ScreenLayout
    confidence: np.ndarray  # (rows, columns)
    par_confidence: float
    offset: float
    milliseconds: float

    @property
    def uncertain(self) -> list[tuple[int, int]]:
        """Cells whose class is in doubt, row by row."""
        rows, cols = np.nonzero(self.confidence < UNCERTAIN)
        return list(zip(rows.tolist(), cols.tolist()))

    def source(self, image: str) -> dict:
        """The board file's ``source`` block: where everything was found and how sure."""
        layout = self.layout
        x, y, w, h = layout.board
        return {
            "image": image,
            "width": layout.width,
            "height": layout.height,
            "layout": layout.name,
            "board": [round(x, 1), round(y + self.offset, 1), round(w, 1), round(h, 1)],
            "footer": list(layout.footer),
            "swatches": [list(s) for s in layout.swatches],
            "par_confidence": round(self.par_confidence, 3),
            "confidence": [[round(float(v), 3) for v in row] for row in self.confidence],
            "uncertain": [list(cell) for cell in self.uncertain],
        }


def _swatch_hex(rgb: np.ndarray, layout: ScreenLayout) -> list[str]:
    out = []
    for x, y, sw, sh in layout.swatches:
        patch = rgb[y + int(0.45 * sh) : y + int(0.9 * sh), x + int(0.15 * sw) : x + int(0.85 * sw)]
        r, g, b = np.median(patch.reshape(-1, 3), axis=0).round().astype(int)
        out.append(f"#{r:02x}{g:02x}{b:02x}")
    return out


def recognize(rgb: np.ndarray, origin: str = "<image>", name: Optional[str] = None) -> Recognition:
    """Read the board in a screenshot (RGB array).  Raises :class:`ImageError` when it is
    not a KAMI 2 screenshot the reader understands."""
    import time

    started = time.perf_counter()
    layout = find_layout(rgb, origin)
    samples = sample_cells(rgb, layout)
    if np.isnan(samples.lab).any():
        raise ImageError(f"{origin}: the board does not fill the screen above the footer")
    swatches = swatch_colors(rgb, layout)
    classes = classify_cells(samples, swatches)
    par, par_confidence = read_par(rgb, layout)
    grid = classes.classes.reshape(ROWS, COLUMNS)
    cells = [[None if v < 0 else int(v) for v in row] for row in grid]
    if all(v is None for row in cells for v in row):
        raise ImageError(f"{origin}: every cell looks blank; this is not a KAMI board")
    board = make_board(cells, lattice="triangle", palette=_swatch_hex(rgb, layout), par=par, name=name)
    return Recognition(
        board=board,
        layout=layout,
        confidence=classes.confidence.reshape(ROWS, COLUMNS),
        par_confidence=par_confidence,
        offset=samples.offset,
        milliseconds=1000 * (time.perf_counter() - started),
    )


def board_with_source(recognition: Recognition, image: str) -> Board:
    """The recognised board carrying its ``source`` block (written into board files)."""
    import dataclasses

    extra = dict(recognition.board.extra)
    extra["source"] = recognition.source(image)
    return dataclasses.replace(recognition.board, extra=extra)


def recognize_file(path: str | Path) -> Recognition:
    """Read the board in the screenshot at ``path`` (any format Pillow reads)."""
    path = Path(path)
    return recognize(load_image(path), str(path), name=path.stem)
