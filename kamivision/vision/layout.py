"""Where things are on a KAMI 2 screenshot: the footer, the palette swatches, the board's box.

The reader uses what every KAMI 2 screen has, not one phone's pixel positions:

* **Horizontal edges.**  The triangle lattice has only vertical and slanted edges, so a
  straight horizontal edge across the screen is a layout boundary: the top of the footer,
  and on iPhone X class phones the bottom of the status strip and the top of the
  home-indicator strip.
* **The footer** is the band below the lowest such edge whose left part is the dark button
  block; the palette swatches are the wide flat runs of color that fill it to the right
  edge, equal in width.  Their count is the number of colors.  The buttons in the block
  (a row, a 2 x 2 block, any grid) are read off its separator lines
  (:mod:`kamivision.vision.buttons`), and the counter among them is found by its digits
  (:mod:`kamivision.vision.par`), not by its place.
* **A translucent navigation bar** over the footer was found and undone before
  (:mod:`kamivision.vision.bar`), so the footer is read in the game's own colors.
* **The board's box** is ten lattice columns wide (the screen's width, unless the lattice
  measured says otherwise) and :data:`~kamivision.geometry.TRIANGLE_ASPECT` times that
  tall; it ends at the footer's top, or starts at a status strip's lower edge near there.
  The game puts the footer within about a hundredth of the width of the box's end on every
  screen seen; the lattice fit (:func:`~kamivision.vision.lattice.fit_offset`) finds the rest.
  No phone's proportions are used.

Images are RGB uint8 arrays of shape (H, W, 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..errors import ImageError
from ..geometry import TRIANGLE_ASPECT
from .buttons import ButtonBlock, find_buttons
from .overlays import edge_rows, find_overlays, find_rounds, long_steps
from .overlays import runs as _runs
from .pixels import channel_sum, nan_median


class NoFooterError(ImageError):
    """The picture shows no KAMI footer: it may be a board alone (:mod:`kamivision.vision.alone`)."""


#: The lattice's column spacing is looked for between these shares of the screen's width.
MIN_COLUMN, MAX_COLUMN = 0.06, 0.15


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """What the reader found on the screen (pixels; rectangles are ``x, y, w, h``)."""

    width: int
    height: int
    board: tuple[float, float, float, float]  # nominal lattice box: h = 1.6166 w
    visible: tuple[int, int]  # rows of the screen showing the board: [top, bottom)
    footer: tuple[int, int, int, int]
    buttons: tuple[int, int, int, int]
    swatches: tuple[tuple[int, int, int, int], ...]
    #: A translucent navigation bar the reader found and undid (:mod:`kamivision.vision.bar`):
    #: its first row and the share of light it lets through; ``(0, 1.0)`` when there is none.
    shade: tuple[int, float] = (0, 1.0)
    #: The buttons in the block and the marks in each (:mod:`kamivision.vision.buttons`),
    #: found once here and read by :mod:`kamivision.vision.par`.
    block: ButtonBlock = field(default=ButtonBlock((0, 0), (), ()), compare=False, repr=False)
    #: Windows floating over the board (:func:`~kamivision.vision.overlays.find_overlays`):
    #: the cells under them are hidden.
    covers: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def name(self) -> str:
        """The button block as found: "1x4" (a row of four), "2x2", ...; "board alone" for
        a picture of the board with no footer."""
        if not self.swatches:
            return "board alone"
        rows, cols = self.block.grid
        return f"{rows}x{cols}"

    @property
    def cropped(self) -> bool:
        """The board is wider than the screen (scaled to the height, cropped at the sides)."""
        return self.board[2] > self.width + 1


def _horizontal_steps(lab: np.ndarray) -> np.ndarray:
    """``steps[y, x]``: whether there is a color step between rows ``y - 1`` and ``y`` at
    column ``x``, measured across two rows (``y - 2`` to ``y``... ``y + 1``) so that edges
    softened by resampling or JPEG still count."""
    steps = np.zeros(lab.shape[:2], bool)
    steps[1:-1] = channel_sum(cv2.absdiff(lab[2:], lab[:-2])) > 14
    return steps


def _horizontal_edges(lab: np.ndarray) -> np.ndarray:
    """``edges[y]``: the fraction of columns with a color step between rows ``y - 1`` and ``y``."""
    return _horizontal_steps(lab).mean(axis=1)


def _is_footer_dark(rgb: np.ndarray) -> np.ndarray:
    """Pixels of the footer's dark brown: dark, and warm (red >= blue)."""
    r, g, b = (rgb[..., k].astype(np.int16) for k in range(3))
    value = np.maximum(np.maximum(r, g), b)
    return (value < 75) & (r >= b + 8)  # brown, unlike black system bars or grey paper


def _column_colors(lab: np.ndarray, top: int, bottom: int, cut: np.ndarray | None) -> np.ndarray:
    """Each screen column's median color over rows ``[top, bottom)``, without the pixels
    ``cut`` out of the screenshot (a rounded corner is no swatch); 0 where all are cut."""
    band = lab[top:bottom].astype(np.float32)
    if cut is None or not cut[top:bottom].any():
        return np.median(band, axis=0)
    band[cut[top:bottom]] = np.nan
    return nan_median(band)


def _count_swatches(columns: np.ndarray) -> int:
    """How many equal-width swatches the palette's column colors show: the fewest equal
    segments that are each uniform inside, with every neighboring pair distinct."""
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


def find_layout(
    rgb: np.ndarray, origin: str, cut: np.ndarray | None = None, over: np.ndarray | None = None
) -> ScreenLayout:
    """Find the footer, the palette swatches and the board's box, or raise :class:`ImageError`;
    ``cut`` masks pixels cut out of the screenshot (:func:`~kamivision.vision.bar.cut_corners`),
    ``over`` those a system bar drew over the game (:func:`~kamivision.vision.bar.overbright`)."""
    h, w = rgb.shape[:2]
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)
    steps = _horizontal_steps(lab)
    edges = steps.mean(axis=1)
    dark = _is_footer_dark(rgb[:, : max(4, int(0.28 * w))]).mean(axis=1)
    # Bands between strong horizontal edges; the footer is the lowest band whose left part
    # (the button block) is dark brown, merged with a dark band right above it (the 2 x 2
    # button block has a horizontal separator of its own).
    cuts = [y for y in edge_rows(edges, 0.35) if y > 0.9 * w] + [h]
    found = _lowest_footer(cuts, dark, w)
    if found is None:
        # A window docked over the footer's right part (a video) cuts it with its own top
        # and bottom edges, which do not reach the screen's left side, where the buttons
        # are: the footer is looked for again without them.
        left = steps[:, : max(2, round(0.05 * w))].mean(axis=1)
        found = _lowest_footer([y for y in cuts if y == h or left[max(0, y - 1) : y + 2].max() > 0.5], dark, w)
    if found is None:
        raise NoFooterError(f"{origin}: no KAMI footer (dark button strip with color swatches) found")
    footer_top, footer_bottom = found
    fh = footer_bottom - footer_top
    ch = fh  # a translucent bar over the footer was undone before (vision/bar.py)
    # The swatches: wide runs of flat color filling the footer to the right edge.
    columns = _column_colors(lab, footer_top + int(0.45 * ch), footer_top + int(0.9 * ch), cut)
    # A stroke a few columns wide across a swatch (a system bar's outlined icon) is no edge.
    k = round(max(3, 0.006 * w))
    flat = np.median(sliding_window_view(np.pad(columns, ((k, k), (0, 0)), mode="edge"), 2 * k + 1, 0), axis=-1)
    jumps = np.abs(np.diff(flat, axis=0)).sum(axis=1) > 12.0
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
    if not swatches:
        # A straight edge across the palette's side of the footer is a window's over it.
        over_it = any(b > 0.6 * w for _, _, b in long_steps(steps, footer_top + 3, footer_bottom - 3, w))
        raise ImageError(
            f"{origin}: no KAMI palette (swatches of flat color at the footer's right) found"
            + (": a window seems to be drawn over the footer" if over_it else "")
        )
    # The button block is a grid of equal buttons (a row, a 2 x 2 block) split by thin
    # bright lines, the vertical ones running the footer's full height: the palette starts one cell width
    # after the last of them.  Without visible lines, the runs above decide.
    lines = separator_lines(lab[footer_top:footer_bottom])
    start = swatches[0][0]
    if lines:
        start = round(lines[-1] + lines[0])
    count = _count_swatches(columns[start:])
    if not count:
        # The icons of a translucent navigation bar over the swatches' lower part (not the
        # game's, and left after the bar is undone): over the swatches' whole height
        # they are in too few rows to move the columns' medians.
        count = _count_swatches(
            _column_colors(lab, footer_top + int(0.1 * ch), footer_top + int(0.95 * ch), cut)[start:]
        )
    if not 1 <= count <= 10 or not (0.2 * w <= start <= 0.5 * w):
        raise ImageError(f"{origin}: the footer does not look like KAMI's (palette from x={start}, {count} swatches)")
    edges_x = np.linspace(start, w, count + 1).round().astype(int)
    swatch_rects = tuple((int(edges_x[i]), footer_top, int(edges_x[i + 1] - edges_x[i]), ch) for i in range(count))
    box, board_top = _board_box(lab, edges, w, footer_top)
    board_top, windows = find_overlays(steps, edges, box, board_top, footer_top, w)
    if _square_lattice(edges, max(0, round(box[1])), footer_top, w):
        raise ImageError(
            f"{origin}: the board is a square grid (KAMI 1), not KAMI 2's triangles; screenshots of square "
            "grids are not read: write the board as a board file (docs/board-format.md)"
        )
    buttons = (0, footer_top, start, fh)
    return ScreenLayout(
        w,
        h,
        box,
        (board_top, footer_top),
        (0, footer_top, w, fh),
        buttons,
        swatch_rects,
        block=find_buttons(rgb, buttons, lines, over),
        covers=windows + find_rounds(lab, board_top, footer_top),
    )


def separator_lines(footer: np.ndarray) -> list[float]:
    """Columns of the button block's separators in the footer's Lab rows: thin, bright, dark on both sides."""
    fh, w = footer.shape[:2]
    lightness = footer[int(0.05 * fh) : int(0.95 * fh), : int(0.6 * w), 0]
    floor = float(np.median(lightness[:, : max(2, int(0.02 * w))]))
    level = np.median(lightness, axis=0)
    gap = max(3, round(0.015 * w))
    return [
        (a + b) / 2
        for a, b in _runs(lightness.min(axis=0) > floor + 40)
        if b - a <= max(4, 0.012 * w)
        and gap <= a
        and b + gap < level.size
        and max(level[a - gap], level[b + gap]) < floor + 15  # dark footer on both sides
    ]


#: A board showing this many straight horizontal edges across it, evenly spaced, is a
#: square grid: KAMI 2's triangles have none (their edges are vertical and slanted).
SQUARE_EDGES = 4


def _lowest_footer(cuts: list[int], dark: np.ndarray, w: int) -> tuple[int, int] | None:
    """The footer's rows ``[top, bottom)``: among the bands between the horizontal edges at
    rows ``cuts``, the lowest whose left part (the button block) is dark brown (``dark[y]``:
    the share of such pixels in row ``y``), merged with dark bands right above it (the 2 x 2
    button block has a horizontal separator of its own), or None."""
    bands = [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b - a >= 0.05 * w]

    def grown(top: int, bottom: int) -> int:
        """The band's top moved up over dark bands right above it, however thin (the
        footer's top above a translucent bar's edge, the upper half of a 2 x 2 block), and
        over a line between two dark bands (the bar's edge, left a row or two bright where
        the bar was undone)."""
        while True:
            above = [y for y in cuts if y < top - 3]
            if len(above) >= 2 and top - above[-1] < 0.01 * w and dark[above[-2] : above[-1]].mean() > 0.6:
                above.pop()  # a line, not a band: the dark band beyond it decides
            if not above or dark[above[-1] : top].mean() <= 0.6 or above[-1] < bottom - 0.45 * w:
                return top
            top = above[-1]

    for a, b in reversed(bands):
        if b - a <= 0.45 * w and dark[a:b].mean() > 0.6:
            top = grown(a, b)
            if 0.1 * w <= b - top <= 0.45 * w and dark[top:b].mean() > 0.6:
                return top, b
    return None


def _square_lattice(edges: np.ndarray, top: int, bottom: int, w: int) -> bool:
    """Whether the board between rows ``top`` and ``bottom`` is a square grid: at least
    :data:`SQUARE_EDGES` horizontal edges across more than 0.35 of the screen (KAMI 2
    boards show none above 0.19 on every real screenshot measured, and none above 0.24 on
    rendered ones, where the zigzag of many slanted edges in one row can add up; square
    grids show a dozen or more above 0.45), most of them on one
    comb of rows 4-20 % of the width apart."""
    margin = round(0.02 * w)
    rows = np.asarray(edge_rows(edges[top + margin : bottom - margin], 0.35))
    if len(rows) < SQUARE_EDGES:
        return False
    best = 0
    for step in np.diff(rows):
        if not 0.04 * w <= step <= 0.2 * w:
            continue
        for anchor in rows:
            multiples = (rows - anchor) / step
            best = max(best, int((np.abs(multiples - np.round(multiples)) <= 0.15).sum()))
    return best >= max(SQUARE_EDGES, 0.6 * len(rows))


def _board_box(lab: np.ndarray, edges: np.ndarray, w: int, footer_top: int):
    """The lattice's box ``(x, y, w, h)`` and the first screen row showing the board.

    Three models, chosen by the lattice measured in the image (:func:`_column_period`):

    * **The board fills the width** (16:9 phones, the iPhone X class): the box is the
      screen's width, and it ends at the footer's top (on the phones seen, within a
      hundredth of the width either way).  A status strip's lower edge near that estimate
      marks the board's top exactly; a blank top row can hide it, and the lattice fit
      (:func:`~kamivision.vision.lattice.fit_offset`) absorbs the rest.
    * **The board is scaled to the height and cropped at the sides** (tall Android
      phones): the columns measured are wider than a tenth of the screen.  The box is ten
      of them wide, placed on the measured column edges nearest to centring it.  It ends
      at the footer, so it starts ``TRIANGLE_ASPECT * 10 * column`` above the footer, or
      at a horizontal edge near there (the status strip's lower edge, which
      pale paper can make faint, so a weaker edge counts than in the first model).
    * **The board is narrower than the screen** (a letterbox, as on a tablet): the columns
      are narrower than a tenth of the screen, and the screen beside the ten of them
      shows no lattice edges.  The box is placed as in the second model.

    A comb that would make the board too tall to fit above the footer, or a letterbox whose
    margins show lattice edges, is a misreading: the first model is kept.
    """
    above = TRIANGLE_ASPECT
    strips = [y for y in edge_rows(edges, 0.85) if y < footer_top - 0.5 * w]
    top_edge = strips[-1] if strips else 0
    profile = _column_profile(lab, top_edge, footer_top, w)
    period, phase = _column_period(profile, w)
    measured = None
    # Ten columns of the comb span the width: whatever the height above the footer says
    # (a notification banner over the board's top makes it look short), the board fills it.
    full_width = period is not None and 0.98 * w <= 10 * period <= 1.02 * w
    if period is not None and footer_top - above * 10 * period >= -0.02 * 10 * period:
        bw = 10 * period
        x0 = phase + round((w / 2 - bw / 2 - phase) / period) * period  # the column edge nearest to centring it
        # A letterbox is told from a full-width board by bare margins (under 98 % of the
        # width; full-width boards measure 99.5-101 % on the real screenshots), or, under
        # 99 %, by the height between the status strip and the footer agreeing with the
        # columns' width.
        fits_height = top_edge > 0 and abs((footer_top - top_edge) / above - bw) < 0.01 * w
        if (
            bw > 1.02 * w
            or (bw < 0.99 * w and fits_height)
            or (bw < 0.98 * w and _bare_margins(profile, x0, bw, period))
        ):
            measured = (x0, bw)
    if measured is None:
        # No clear comb (blur, large flat regions): the board still fills the height
        # between the screen's top (or a status strip) and the footer.  When that height
        # is too short for a full-width board, the board is scaled to it and centred (a
        # letterbox).  Not the other way: a pale status strip over a blank top row shows
        # no edge, and the height would then look like a cropped board's.
        fitted = (footer_top - top_edge) / above
        if 0.7 * w <= fitted < 0.96 * w and not full_width:
            return ((w - fitted) / 2, float(top_edge), fitted, fitted * TRIANGLE_ASPECT), top_edge
        board_top = _nearest_edge(max(0, round(footer_top - above * w)), strips, 0.02 * w)
        if board_top < 0.01 * w:
            board_top = 0
        # The board shows nowhere above a status strip's lower edge, wherever its box starts.
        return (0.0, float(board_top), float(w), w * TRIANGLE_ASPECT), max(board_top, top_edge)
    x0, bw = measured
    board_top = _nearest_edge(max(0, round(footer_top - above * bw)), edge_rows(edges, 0.3), 0.03 * w)
    return (x0, float(board_top), bw, bw * TRIANGLE_ASPECT), max(board_top, top_edge)


def _bare_margins(profile: np.ndarray, x0: float, bw: float, period: float) -> bool:
    """Whether the screen beside a letterboxed board ``[x0, x0 + bw)`` shows no lattice:
    its columns have color steps in under a fifth as many rows as the board's edges.
    Margins too thin to tell (a board 95-98 % of the width) count as bare: the caller
    asks only of combs well under the screen's width."""
    w = len(profile)
    gap = max(2, round(0.15 * period))
    left, right = profile[: max(0, round(x0) - gap)], profile[min(w, round(x0 + bw) + gap) :]
    margins = np.concatenate([left, right])
    if margins.size < 8:  # too thin beside the gap to show a lattice: the comb is trusted
        return True
    teeth = np.clip(np.round(x0 + period * np.arange(11)).astype(int), 0, w - 1)
    return float(margins.mean()) < 0.2 * float(profile[teeth].mean())


def _nearest_edge(estimate: int, rows: list[int], within: float) -> int:
    """The lowest of the edge ``rows`` less than ``within`` from ``estimate``, or the
    estimate itself when there is none."""
    near = [y for y in rows if abs(y - estimate) < within]
    return near[-1] if near else estimate


def _column_profile(lab: np.ndarray, top: int, bottom: int, w: int) -> np.ndarray | None:
    """For each screen column, the share of the rows ``[top, bottom)`` with a color step
    across it; None when the band is too short to tell."""
    band = lab[top + max(2, (bottom - top) // 40) : bottom - max(2, (bottom - top) // 40)]
    if band.shape[0] < 20:
        return None
    step = channel_sum(cv2.absdiff(band[:, 2:], band[:, :-2]))
    profile = np.zeros(w, np.float32)
    profile[1:-1] = (step > 12.0).mean(axis=0)
    return profile


def _column_period(profile: np.ndarray | None, w: int) -> tuple[float | None, float]:
    """The spacing and phase (pixels) of the lattice's columns, from its vertical edges.

    Every column boundary of the triangle lattice is a vertical edge the whole height of
    the board (the triangles on either side take turns to have their vertical side on it),
    so the share of rows with a colour step between two screen columns (``profile``) peaks
    at the column edges.  The comb of spacing ``p`` and phase ``q`` that lands on the peaks
    and whose midway points miss them wins (a comb of twice the spacing lands on peaks as
    well, but so do its midway points).  ``(None, 0)`` when the board shows no clear comb.
    """
    if profile is None:
        return None, 0.0

    def comb(periods: np.ndarray, phase_step: float) -> tuple[float, float | None, float]:
        best = (0.0, None, 0.0)
        for period in periods:
            phases = np.arange(0.0, period, phase_step)
            teeth = phases[:, None] + period * np.arange(int(w / period) + 1)[None, :]
            on = np.clip(np.round(teeth).astype(int), 0, w - 1)
            off = np.clip(np.round(teeth + period / 2).astype(int), 0, w - 1)
            inside = (teeth >= 2) & (teeth <= w - 3)
            score = ((profile[on] - profile[off]) * inside).sum(axis=1) / np.maximum(inside.sum(axis=1), 1)
            k = int(score.argmax())
            if score[k] > best[0]:
                best = (float(score[k]), float(period), float(phases[k]))
        return best

    # Coarse, then fine around the best: spacings of 6 % (a letterboxed tablet board) to
    # 15 % (a cropped tall-phone board) of the width.
    best = comb(np.arange(MIN_COLUMN * w, MAX_COLUMN * w, 0.5), 1.0)
    if best[1] is not None:
        best = comb(np.arange(best[1] - 0.5, best[1] + 0.5, 0.05), 0.25)
    if best[1] is None or best[0] < 0.05:
        return None, 0.0
    return best[1], best[2]
