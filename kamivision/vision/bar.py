"""What a phone draws over the game: a translucent navigation bar at the bottom, a
translucent status bar at the top.

Android phones with a translucent navigation bar (three buttons, or a gesture pill) mix
everything under it with the bar's color: ``under = a * game + b`` in each channel, with
``a`` between 0.2 and 0.8 and ``b / (1 - a)``, the bar's own color, a dark gray (a black
bar has ``b = 0``).  Its height, darkness, tint and
icons differ from phone to phone, so none of them is assumed: the bar is found in the
image by what every such bar does.

* **Its top edge is a straight line across the whole screen** near the bottom (a bar is
  0.08 to 0.15 screen widths high; rows 0.04 to 0.25 widths above the bottom are searched,
  to leave room).
* **Right under that edge, the game is the same as right above it, mixed by one map.**
  The game's picture continues across the edge (the footer's swatches and buttons, or
  the board when the bar is taller than the footer), so the pixels two rows under the
  edge and two rows above it pair up, and one straight line per channel maps the ones
  above to the ones under, with the same slope in every channel.  A layout edge (the
  footer's top, a swatch's corner) pairs unrelated pixels, and no one line fits them.
* **Not one row's accident**: the rows a little further from the edge pair up under the
  same map.

A status bar over the board's top rows is found by the same test upside down, with its
lower edge 0.02 to 0.15 widths from the top.  The bar is undone by inverting the map, so that the rest of the reader sees the game's
own colors; the icons stay as marks, which the reader's medians ignore.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

#: A bar is searched for with its top this many screen widths above the bottom.
SEARCH = (0.04, 0.25)
#: A status bar over the top of the screen, with its lower edge this many widths down.
TOP_SEARCH = (0.02, 0.15)
#: The slope (the share of the game's light the bar lets through) of a bar.
SLOPES = (0.15, 0.82)
#: The map's median error (gray levels, the worst channel) that a bar's edge may show:
#: paper grain and JPEG at quality 70 leave about 7.
MAX_ERROR = 8.0
#: Pixels brighter than this (the brightest channel) are the ones any bar visibly darkens:
#: with its color at most MAX_TINT and a slope of at most 0.82, above about 122.
BRIGHT = 125
#: A bar's own color is dark (gray levels): Android's scrims are black or dark gray.
MAX_TINT = 100.0
#: A bar's offsets differ by at most this much between channels (gray levels): a gray scrim.
MAX_TINT_SPREAD = 6.0


@dataclass(frozen=True, slots=True)
class Bar:
    """A translucent bar from row ``top`` to the bottom (``side`` "bottom"), or from the
    screen's top to row ``top`` (``side`` "top", a status bar): under it each channel
    ``k`` of the game is ``slope * value + offset[k]``."""

    top: int
    slope: float
    offset: tuple[float, float, float]
    side: str = "bottom"

    @property
    def rows(self) -> slice:
        return slice(self.top, None) if self.side == "bottom" else slice(0, self.top)


def _fit(above: np.ndarray, below: np.ndarray) -> Optional[tuple[float, np.ndarray, float]]:
    """One slope and three offsets mapping ``above`` (n, 3) to ``below`` (n, 3), fitted
    twice (the second time without the worst tenth: icons, JPEG ringing), and the median
    error of the fit in gray levels; None when the pixels above vary too little to fit a
    slope."""
    x = above.astype(np.float64)
    y = below.astype(np.float64)
    keep = np.ones(len(x), bool)
    for _ in range(2):
        xs, ys = x[keep], y[keep]
        mx, my = xs.mean(axis=0), ys.mean(axis=0)
        dx, dy = xs - mx, ys - my
        var = float((dx * dx).sum())
        if var < len(xs) * 3 * 12.0**2:
            # Under 12 gray levels of spread (a bar over the plain background): no line
            # to fit, so a black bar's map, one ratio, the same in the three channels.
            ratios = ys.sum(axis=0) / np.maximum(xs.sum(axis=0), 1e-6)
            if np.ptp(ratios) > 0.04 or xs.mean() < 60:
                return None
            slope, offset = float(ratios.mean()), np.zeros(3)
        else:
            slope = float((dx * dy).sum() / var)
            offset = my - slope * mx
            # A black bar (no offset) when it fits about as well: most bars are black, and
            # a narrow range of colors lets a line's slope and offset trade off.
            black = float((xs * ys).sum() / max((xs * xs).sum(), 1e-6))
            affine_error = np.median(np.abs(ys - (slope * xs + offset)).max(axis=1))
            black_error = np.median(np.abs(ys - black * xs).max(axis=1))
            if black_error <= affine_error + 3.0:
                slope, offset = black, np.zeros(3)
        error = np.abs(y - (slope * x + offset)).max(axis=1)
        keep = error <= np.percentile(error, 90)
    # Dark pixels fit almost any map that darkens: the brighter half must fit too.
    bright = x.mean(axis=1) >= np.median(x.mean(axis=1))
    return slope, offset, max(float(np.median(error)), float(np.median(error[bright])))


def find_bars(rgb: np.ndarray) -> list[Bar]:
    """The translucent bars over a screenshot: a navigation bar at the bottom, a status bar
    at the top (the same test upside down), each when there is one."""
    out = []
    bottom = find_bar(rgb)
    if bottom is not None:
        out.append(bottom)
    flipped = find_bar(rgb[::-1], TOP_SEARCH)
    if flipped is not None:
        out.append(Bar(rgb.shape[0] - flipped.top, flipped.slope, flipped.offset, "top"))
    return out


def find_bar(rgb: np.ndarray, search: tuple[float, float] = SEARCH) -> Optional[Bar]:
    """The translucent bar over the bottom of a screenshot, or None."""
    h, w = rgb.shape[:2]
    gap = max(2, round(0.003 * w))  # rows skipped beside the edge (soft edges, JPEG)
    step = max(1, round(0.002 * w))
    columns = slice(None, None, max(1, w // 400))
    best: Optional[tuple[float, int, float, np.ndarray]] = None
    lo, hi = max(2 * gap + 1, h - round(search[1] * w)), h - round(search[0] * w)
    # Only rows where the bright pixels get darker across the edge can be a bar's top: a
    # quick look at every row at once, before any fit (most screenshots have no bar).
    ys = np.arange(lo, hi, step)
    if len(ys) == 0:
        return None
    upper = rgb[ys - gap - 1][:, columns].astype(np.int16).max(axis=2)
    lower = rgb[ys + gap][:, columns].astype(np.int16).max(axis=2)
    bright = upper > BRIGHT
    darker = (lower < upper - 4) & bright
    share = darker.sum(axis=1) / np.maximum(bright.sum(axis=1), 1)
    candidates = ys[(share >= 0.7) | (bright.mean(axis=1) < 0.05)]
    for y in candidates.tolist():
        above = rgb[y - gap - 1, columns]
        below = rgb[y + gap, columns]
        fitted = _fit(above.reshape(-1, 3), below.reshape(-1, 3))
        if fitted is None:
            continue
        slope, offset, error = fitted
        if not SLOPES[0] <= slope <= SLOPES[1] or error > MAX_ERROR or (offset < -8.0).any():
            continue
        # A scrim is dark and gray: its own color (the map's fixed point) is dark and the
        # same in the three channels.
        tint = offset / (1.0 - slope)
        if (tint > MAX_TINT).any() or np.ptp(offset) > MAX_TINT_SPREAD:
            continue
        # Not one row's accident: the rows a gap further from the edge map the same way.
        above2 = rgb[y - 2 * gap - 1, columns].reshape(-1, 3).astype(np.float64)
        below2 = rgb[min(h - 1, y + 2 * gap), columns].reshape(-1, 3).astype(np.float64)
        if float(np.median(np.abs(below2 - (slope * above2 + offset)).max(axis=1))) > MAX_ERROR + 2.0:
            continue
        if best is None or error < best[0] - 0.5 or (abs(error - best[0]) <= 0.5 and y < best[1]):
            best = (error, y, slope, offset)
    if best is None:
        return None
    _, y, slope, offset = best
    # The edge itself: the row, near the one found, where the brightness falls most.
    level = rgb[:, columns].astype(np.float32).mean(axis=(1, 2))
    a, b = max(1, y - 2 * gap), min(h - 1, y + 2 * gap)
    top = a + int(np.argmin(level[a + 1 : b + 1] - level[a:b])) + 1
    return Bar(top, slope, tuple(float(v) for v in offset))


def undo_bar(rgb: np.ndarray, bar: Bar) -> np.ndarray:
    """The screenshot with the bar's map inverted under it (a copy)."""
    out = rgb.copy()
    under = out[bar.rows].astype(np.float32)
    under = (under - np.array(bar.offset, np.float32)) / bar.slope
    out[bar.rows] = np.clip(under + 0.5, 0, 255).astype(np.uint8)
    return out


#: A pixel under a bar is drawn over it (an icon) when it is brighter, in every channel,
#: than white under the bar by this much (gray levels as saved: JPEG's noise)...
OVER = 12.0
#: ...and so are the pixels joined to those that, once the bar is undone, are brighter
#: than this in every channel: the icon's fainter parts and fringe (at worst a digit's
#: pixels beside the icon, which are then left out too, never guessed).
OVER_JOINED = 240.0
#: A bar's first rows may be brighter than white once undone without anything drawn over
#: them: blur and scaling mix the game just above the edge into them (a 7 crossing the
#: edge left its top row "hidden", and the counter unread, on 2 of 1,000 random screens).
#: An icon lies well inside its bar, so none is looked for there.
EDGE_ROWS = 2


def overbright(rgb: np.ndarray, bar: Bar) -> np.ndarray:
    """A mask of the pixels under the bar brighter, in every channel, than anything of the
    game's could be there (more than white, by :data:`OVER`, once the bar is undone), with
    the nearly as bright pixels joined to them: what the system draws over its bar, its
    icons, none in the bar's first :data:`EDGE_ROWS` rows."""
    import cv2

    out = np.zeros(rgb.shape[:2], bool)
    under = ((rgb[bar.rows].astype(np.float32) - np.array(bar.offset, np.float32)) / bar.slope).min(axis=2)
    sure = under > 255.0 + OVER / bar.slope
    sure[:EDGE_ROWS] = False
    if sure.any():
        count, labels = cv2.connectedComponents((under > OVER_JOINED).astype(np.uint8), connectivity=8)
        out[bar.rows] = np.isin(labels, np.unique(labels[sure]))
    return out


#: Pixels this dark in every channel, joined to a corner of the screen, are cut out of the
#: screenshot (rounded screen corners saved in black), not the game.
CUT_OUT = 8


def cut_corners(rgb: np.ndarray) -> np.ndarray:
    """A mask of the screen's rounded corners cut out in black: the pure black pixels
    joined to each corner of the screenshot (none when a corner is not black), looked
    for in a window of a fifth of the width at each corner."""
    import cv2

    h, w = rgb.shape[:2]
    out = np.zeros((h, w), bool)
    size = max(2, min(h, w) // 5)
    for rows, cols, y, x in (
        (slice(0, size), slice(0, size), 0, 0),
        (slice(0, size), slice(w - size, w), 0, size - 1),
        (slice(h - size, h), slice(0, size), size - 1, 0),
        (slice(h - size, h), slice(w - size, w), size - 1, size - 1),
    ):
        black = (rgb[rows, cols].max(axis=2) <= CUT_OUT).astype(np.uint8)
        if black[y, x]:
            _, labels = cv2.connectedComponents(black, connectivity=8)
            out[rows, cols] |= labels == labels[y, x]
    return out
