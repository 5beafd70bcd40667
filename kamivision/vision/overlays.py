"""What the phone draws over the board: a notification over its top, a window floating on it.

KAMI 2's triangles have no horizontal edges (their sides are vertical and slanted): on
the real screenshots no row inside the board has a color step across more than 0.19 of
the width, nor more than 0.24 on rendered ones, and a step never runs on unbroken for
more than a few pixels (a slanted side crosses a row in one place).  A long straight
horizontal edge inside the board is therefore the edge of something drawn over it:

* **a notification** over the top of the screen, taken into the screenshot with it: its
  lower edge crosses most of the width in the board's upper part; the rows above it are
  hidden, as under a status strip;
* **a floating window** (a picture-in-picture video, a chat's call window): two such
  edges, its top and bottom, spanning the same columns; the cells under it are hidden
  (:func:`find_overlays` finds both);
* **something round** (a chat head, a floating button of the phone's own): a circle
  whose edge runs at one radius all round, across the lattice's slanted sides
  (:func:`find_rounds`).

Hidden cells are read as well as may be and flagged, never read as what covers them: a
pale banner passed for blank cells, a video's colors for paper.  A window reaching past
the board's top or bottom shows one edge: the columns it spans are hidden from there to
that end.

Tested in tests/vision/test_reader.py.
"""

from __future__ import annotations

import cv2
import numpy as np

#: A horizontal edge across more than this share of the screen, in the board's upper part,
#: is the lower edge of a notification over the board.
OVER_EDGE = 0.45
#: Such an edge is looked for in this top share of the board's box (banners come down
#: from the top of the screen).
OVER_REACH = 0.4
#: A color step running unbroken along a row for this share of the width is no lattice's:
#: the top or bottom edge of a window over the board (real ones are a third of the width
#: or more).
WINDOW_EDGE = 0.2
#: A window's top and bottom edges span the same columns, but for this share of the
#: longer at either end (a bridged gap may carry an edge a little past the window's side).
WINDOW_MATCH = 0.1
#: Gaps in a window's edge up to this share of the width are bridged (where the picture's
#: color meets a paper of its own); the lattice's steps along a row are a twentieth of the
#: width apart (two slanted sides a column), so they are never joined.
WINDOW_GAP = 0.02
#: A window's edge has a step at this share of its columns or more, gaps included.
WINDOW_FILL = 0.85

#: Which side of a lone edge looks covered is judged on bands of rows this share of the
#: width high, above and below it (:func:`_lone_cover`).
SIDE_BAND = 0.03

#: Circles are looked for on the board scaled to this width (pixels): enough for the
#: smallest round overlay, a few milliseconds a color channel.
ROUND_SCALE = 300
#: Radii of round overlays, as shares of the width: chat heads and floating buttons are a
#: tenth to a sixth of a phone's width across (a handwritten 0 on a real shot, 0.04).
ROUND_RADII = (0.045, 0.2)
#: A circle is something round drawn over the board when a color edge at its radius (one
#: pixel either way at :data:`ROUND_SCALE`), facing its centre (under 18 degrees off),
#: runs along this share of what shows of it.  The lattice's sides face six ways only:
#: no circle the transform proposed on the 73 real shots or on 300 random screens scored
#: 0.7 (checkerboards of triangles come nearest); chat heads drawn on renders, 0.95 or
#: more but for a few.
ROUND_EDGE = 0.8


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs ``[start, end)`` of True in a 1-D mask."""
    padded = np.concatenate([[False], mask, [False]])
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    return list(zip(changes[::2].tolist(), changes[1::2].tolist()))


def edge_rows(edges: np.ndarray, threshold: float) -> list[int]:
    """Rows ``y`` where a horizontal edge lies (the boundary between ``y - 1`` and ``y``):
    local maxima of ``edges`` above ``threshold``, one per cluster of neighboring rows."""
    rows = []
    for a, b in runs(edges > threshold):
        # edges[y] measures rows y-1 .. y+1: a run over a, ..., b-1 centres on the boundary.
        rows.append((a + b) // 2)
    return rows


def long_steps(steps: np.ndarray, top: int, bottom: int, w: int) -> list[tuple[int, int, int]]:
    """The straight horizontal edges between rows ``top`` and ``bottom``: ``(y, x0, x1)``,
    a run of steps at least :data:`WINDOW_EDGE` of the width long, one per cluster of rows."""
    need = max(8, round(WINDOW_EDGE * w))
    gap = max(2, round(WINDOW_GAP * w))
    found: list[tuple[int, int, int]] = []
    rows = np.flatnonzero(steps[top:bottom].sum(axis=1) >= need) + top
    for y in rows.tolist():
        # Two rows together: a step softened by resampling may fall in either.
        line = steps[y] | steps[min(y + 1, len(steps) - 1)]
        # Bridge short gaps: where the window's edge meets paper of its own color.
        bridged = line.copy()
        pieces = runs(line)
        for (_, b), (a, _) in zip(pieces[:-1], pieces[1:]):
            if a - b <= gap:
                bridged[b:a] = True
        for a, b in runs(bridged):
            # An edge is a step almost all along (a line of text is a run of letters).
            if b - a < need or line[a:b].mean() < WINDOW_FILL:
                continue
            if found and y - found[-1][0] <= 3 and min(b, found[-1][2]) - max(a, found[-1][1]) > 0:
                last = found[-1]
                found[-1] = (last[0], min(a, last[1]), max(b, last[2]))  # the same edge, a row on
            else:
                found.append((y, a, b))
    return found


Rect = tuple[int, int, int, int]  # x, y, w, h


def find_overlays(
    steps: np.ndarray,
    edges: np.ndarray,
    box: tuple[float, float, float, float],
    board_top: int,
    bottom: int,
    w: int,
) -> tuple[int, tuple[Rect, ...]]:
    """What is drawn over the board between screen rows ``board_top`` and ``bottom`` (the
    footer's top), from ``steps[y, x]`` (a color step at row ``y``, column ``x``) and
    ``edges[y]`` (the share of columns with one at row ``y``): the
    first row not under a notification over the board's top, and the windows floating over
    it, each ``(x, y, w, h)``, widened by a hundredth of the width for rounded corners and
    a shadow.

    * Two straight edges spanning the same columns (but for :data:`WINDOW_MATCH` of the
      longer at either end: a bridged gap may carry one a little past the window's side)
      are a window's top and bottom; below a notification's reach, so are two whose
      columns overlap but for that share of the shorter.
    * An edge across more than :data:`OVER_EDGE` of the width in the board's top
      :data:`OVER_REACH`, and not a window's, is a notification's lower edge: the rows
      above it are hidden.
    * Any other edge below that is a window reaching past the board (one edge shows): its
      columns are hidden from there to the nearer end of the board."""
    margin, pad = round(0.02 * w), round(0.01 * w)
    lines = long_steps(steps, board_top + margin, bottom - margin, w)
    windows: list[Rect] = []
    paired: set[int] = set()

    def pair(shorter: bool, below: int = 0) -> None:
        # Top and bottom edges spanning the same columns: the longer's (``shorter``: the
        # shorter's) span but for WINDOW_MATCH at either end.
        for i, (y1, a1, b1) in enumerate(lines):
            if i in paired or y1 < below:
                continue
            for j in range(i + 1, len(lines)):
                y2, a2, b2 = lines[j]
                shared = min(b1, b2) - max(a1, a2)
                span = (min if shorter else max)(b1 - a1, b2 - a2)
                if j not in paired and y2 - y1 >= 0.05 * w and shared >= (1 - 2 * WINDOW_MATCH) * span:
                    x0, x1 = max(0, min(a1, a2) - pad), min(w, max(b1, b2) + pad)
                    windows.append((x0, max(0, y1 - pad), x1 - x0, y2 - y1 + 2 * pad))
                    paired.update((i, j))
                    break

    pair(shorter=False)
    window_rows = [lines[i][0] for i in paired]
    top = max(
        [board_top]
        + [
            y
            for y in edge_rows(edges, OVER_EDGE)
            if board_top + margin < y < box[1] + OVER_REACH * box[3]
            and not any(abs(y - r) <= 0.015 * w for r in window_rows)
        ]
    )
    # Below a notification's reach, two edges left over whose columns overlap by all but
    # WINDOW_MATCH of the shorter at either end are one window's too: a heavy drop shadow
    # shortened one (read as two windows reaching past the board, they hid the board above
    # and below it, and its gray was read as blank cells with confidence).
    pair(shorter=True, below=top + margin)
    for i, (y, a, b) in enumerate(lines):
        if i in paired or y < top + margin:
            continue
        x0, x1 = max(0, a - pad), min(w, b + pad)
        y0, y1 = _lone_cover(steps, y, a, b, w, top, bottom, pad)
        windows.append((x0, y0, x1 - x0, y1 - y0))
    return top, tuple(windows)


def _lone_cover(steps: np.ndarray, y: int, a: int, b: int, w: int, top: int, bottom: int, pad: int) -> tuple[int, int]:
    """The rows ``(y0, y1)`` hidden in columns ``a`` to ``b`` when only one edge of
    something drawn over the board shows, at row ``y``: from the edge (``pad`` past it) to
    the board's end on the side its place says (in the board's lower half a window docked
    at a lower corner shows its top edge; higher up, a window reaching past the top shows
    its bottom one), or to both ends when an edge in the upper half has under half the color steps
    below it that it has above, in bands :data:`SIDE_BAND` of the width high: a smooth
    picture under it, not the lattice.  A dark window whose bottom edge a heavy drop
    shadow hid (the board beside it darkened to the window's color) showed only its top
    edge there: the board above it was hidden, and the window read as blank cells with
    confidence.  Texture alone never moves the cover: a video may step as often as the
    lattice (a docked one, below a board's one-color stretch, more often), so it only
    ever hides more."""
    if 2 * y > top + bottom:
        return y - pad, bottom
    band = max(3, round(SIDE_BAND * w))
    above = float(steps[max(top, y - 2 - band) : y - 2, a:b].mean())  # (y is a margin below top)
    below = float(steps[y + 3 : y + 3 + band, a:b].mean())
    return (top, bottom) if below < 0.5 * above else (top, y + pad)


def find_rounds(lab: np.ndarray, top: int, bottom: int) -> tuple[Rect, ...]:
    """Round things drawn over the board between screen rows ``top`` and ``bottom`` of the
    Lab image ``lab``, each as its bounding square ``(x, y, w, h)`` widened by a hundredth
    of the width.

    Candidates come from OpenCV's gradient Hough transform on each Lab channel (a chat
    head may differ from the paper under it in hue alone); each is kept only if its edge
    passes the :data:`ROUND_EDGE` test, so that hexagons and checkerboards of triangles,
    whose sides face six ways only, are not taken for circles."""
    w = lab.shape[1]
    scale = min(1.0, ROUND_SCALE / w)
    band = lab[top:bottom]
    small = cv2.resize(band, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else band
    sh, sw = small.shape[:2]
    f = small.astype(np.float32)
    gx, gy = cv2.Sobel(f, cv2.CV_32F, 1, 0), cv2.Sobel(f, cv2.CV_32F, 0, 1)
    candidates = []
    for channel in range(3):
        circles = cv2.HoughCircles(
            np.ascontiguousarray(small[..., channel]),
            cv2.HOUGH_GRADIENT_ALT,
            dp=1.5,
            minDist=0.05 * sw,
            param1=60,
            param2=0.8,
            minRadius=max(6, int(ROUND_RADII[0] * sw)),
            maxRadius=int(ROUND_RADII[1] * sw),
        )
        if circles is not None:
            candidates += circles[0].tolist()
    angles = np.linspace(0, 2 * np.pi, 120, endpoint=False)
    cos, sin = np.cos(angles), np.sin(angles)
    found: list[Rect] = []
    for cx, cy, r in candidates:
        radial, across = np.zeros(angles.size), np.zeros(angles.size)
        for dr in (-1.0, -0.5, 0.0, 0.5, 1.0):
            xs = np.clip(np.round(cx + (r + dr) * cos).astype(int), 0, sw - 1)
            ys = np.clip(np.round(cy + (r + dr) * sin).astype(int), 0, sh - 1)
            g1, g2 = gx[ys, xs] / 8, gy[ys, xs] / 8  # Sobel's weights sum to 8
            out = ((g1 * cos[:, None] + g2 * sin[:, None]) ** 2).sum(axis=1)
            side = ((g2 * cos[:, None] - g1 * sin[:, None]) ** 2).sum(axis=1)
            better = out > radial
            radial, across = np.where(better, out, radial), np.where(better, side, across)
        shows = (np.abs(cx + r * cos - sw / 2) < sw / 2 - 1) & (np.abs(cy + r * sin - sh / 2) < sh / 2 - 1)
        edge = (radial > 16.0) & (across < 0.1 * radial)
        if shows.sum() < angles.size // 2 or edge[shows].mean() < ROUND_EDGE:
            continue
        x, y, half = cx / scale, cy / scale + top, r / scale + 0.01 * w
        if not any(abs(x - a - s / 2) < half / 2 and abs(y - b - s / 2) < half / 2 for a, b, s, _ in found):
            x0, y0 = max(0, round(x - half)), max(0, round(y - half))
            found.append((x0, y0, round(x + half) - x0, round(y + half) - y0))
    return tuple(found)
