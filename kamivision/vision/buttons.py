"""The footer's button block: its buttons, and which of them is the moves-left counter.

Nothing here knows a phone.  What every KAMI 2 screen has is used instead:

* **The block** is the dark part of the footer left of the swatches, and its vertical
  separator lines, which give its width (both found by :mod:`~kamivision.vision.layout`).
  Thin bright lines across its whole width split it into rows: a row of four, a 2 x 2
  block, or any other grid, is read off those lines.
* **What each button shows** is one object of bright marks: an icon (the back arrow, the
  restart ring, the bulb) or the counter's digits.  The marks are cut out by brightness,
  button by button, and read line by line (a translucent bar's icon may share a button).
* **The counter is the button that holds digits**, found by looking: an object of one or
  two glyphs of one height, side by side, each thin-stroked and digit-shaped, that the
  digit classifier (:mod:`~kamivision.vision.par`) reads with a clear margin.  The icons
  fail those tests (the arrow and bulb are solid, the ring is as wide as it is tall); when
  no object, or more than one, passes, the counter is reported as not found.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Rect = tuple[int, int, int, int]  # x, y, w, h in screen pixels

#: A separator line is brighter than the block's dark floor by this much (gray levels)...
#: (a row separator in one row, or summed over the two or three rows that scaling and blur
#: spread it over: a 2 x 2 block under a translucent bar whose top lay on that line, its
#: screen scaled by 0.87, showed it at 36 and 38 in two rows)
LINE_CONTRAST = 40
#: ...over at least this share of its length.
LINE_COVER = 0.85


@dataclass(frozen=True, slots=True)
class Glyph:
    """One bright mark inside a button: its mask cropped to its box and where it is."""

    mask: np.ndarray  # bool, cropped to the box
    x: int
    y: int
    #: The mark runs into the button's edge: something drawn across a separator (a
    #: translucent bar's icon), perhaps joined to a digit.
    cut: bool = False
    #: The box's gray levels from the button's floor (0) to its brightest (1), the other
    #: marks' pixels at 0: the anti-aliased edges that a mask loses (None: not kept).
    shade: np.ndarray | None = None
    #: The box (x, y, w, h) of what this mark belongs to at a fainter level (a quarter of
    #: the way from floor to brightest): wider than the mark when a dim neighbour is
    #: joined to it there (a small digit's diagonal, fainter than its neighbour's upright
    #: stroke, falls below the half-way level; None: not measured).
    faint: Rect | None = None
    #: Seen only at the fainter level: no pixel of it reaches half-way (a small digit's
    #: diagonal stroke, or a shadow).  Never read; a number beside one is unsure.
    dim: bool = False

    @property
    def height(self) -> int:
        return self.mask.shape[0]

    @property
    def width(self) -> int:
        return self.mask.shape[1]

    @property
    def stroke(self) -> float:
        """The mark's thickest stroke over its height (light digits about 0.1; the solid
        arrow and bulb 0.5 and over)."""
        inside = cv2.distanceTransform(np.pad(self.mask.astype(np.uint8), 1), cv2.DIST_L2, 3)
        return 2.0 * float(inside.max()) / self.height

    @property
    def fill(self) -> float:
        """The share of its box the mark covers (solid icons near 0.5 and over; strokes less)."""
        return float(self.mask.mean())


#: The icon's pixels are grown by this many pixels: its anti-aliased fringe, mixed with
#: what lies under it, is neither the icon nor the game.
FRINGE = 2


@dataclass(frozen=True, slots=True)
class Covered:
    """A button (without its border) with pixels that a system bar drew over it."""

    gray: np.ndarray  # float32 gray levels, the bar undone
    hidden: np.ndarray  # bool: drawn over (grown by FRINGE)
    middle: float  # the button's middle column, in this frame
    x: int = 0  # the frame's top left pixel on the screen
    y: int = 0

    def touches(self, glyphs: tuple[Glyph, ...]) -> bool:
        """Whether any of ``glyphs`` (screen coordinates) has a pixel within one of a
        hidden one: marks the icon may be part of, or may hide part of."""
        h, w = self.hidden.shape
        for g in glyphs:
            grown = cv2.dilate(np.pad(g.mask, 1).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            gx, gy = g.x - 1 - self.x, g.y - 1 - self.y
            ys = slice(max(0, gy), min(h, gy + grown.shape[0]))
            xs = slice(max(0, gx), min(w, gx + grown.shape[1]))
            if ys.stop > ys.start and xs.stop > xs.start:
                if (self.hidden[ys, xs] & grown[ys.start - gy : ys.stop - gy, xs.start - gx : xs.stop - gx]).any():
                    return True
        return False


def covered(gray: np.ndarray, over: np.ndarray, x0: int = 0, y0: int = 0) -> Covered | None:
    """The part of a button (``gray``, with ``over`` the mask of the pixels a bar drew over
    it; its top left pixel at screen ``x0, y0``) that the counter's digits could be in, or
    None when nothing was drawn over it."""
    h, w = gray.shape
    mx, my = _border(gray)
    inside = over[my : h - my, mx : w - mx]
    if h < 6 or w < 6 or not inside.any():
        return None
    kernel = np.ones((2 * FRINGE + 1, 2 * FRINGE + 1), np.uint8)
    hidden = cv2.dilate(inside.astype(np.uint8), kernel) > 0
    return Covered(gray[my : h - my, mx : w - mx].astype(np.float32), hidden, w / 2 - mx, x0 + mx, y0 + my)


@dataclass(frozen=True, slots=True)
class ButtonBlock:
    """The buttons found in the block: the grid they make, each one's box, and the marks in each."""

    grid: tuple[int, int]  # rows, columns of buttons (1, 1 when no separator shows)
    buttons: tuple[Rect, ...]
    marks: tuple[tuple[Glyph, ...], ...]  # per button: its marks, left to right
    #: Per button: its part that a system bar drew over (None where nothing was), read by
    #: :mod:`~kamivision.vision.covered`; ``()`` when no bar was found.
    covered: tuple[Covered | None, ...] = ()


def _row_separators(lift: np.ndarray, thin: int) -> list[float]:
    """Centres of thin horizontal lines across the whole block, from ``lift``: how far
    each row stands above the block's floor over :data:`LINE_COVER` of its width (gray
    levels).  A line is a run of at most ``thin`` rows each at least half
    :data:`LINE_CONTRAST` up, with :data:`LINE_CONTRAST` in one row or in all of them
    together: a one-pixel line that scaling and blur spread over two rows keeps its light,
    halved in each.  Lines at the block's own edges are its border, not a separator."""
    size = lift.size
    out = []
    padded = np.concatenate([[False], lift >= LINE_CONTRAST / 2, [False]])
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    for a, b in zip(changes[::2], changes[1::2]):
        if b - a <= thin and lift[a:b].sum() >= LINE_CONTRAST and a > 0.04 * size and b < 0.96 * size:
            out.append((a + b - 1) / 2)
    return out


def _cells(edges: list[float], size: int) -> list[tuple[int, int]]:
    """``[start, end)`` spans between separator lines (and the block's edges)."""
    cuts = [0.0, *edges, float(size)]
    return [(int(round(a)), int(round(b))) for a, b in zip(cuts[:-1], cuts[1:])]


def find_buttons(rgb: np.ndarray, block: Rect, lines: list[float], over: np.ndarray | None = None) -> ButtonBlock:
    """The buttons of the block ``block`` (``x, y, w, h``) on an RGB screenshot, given the
    screen columns of the vertical separator lines (found with the block's width by
    :func:`~kamivision.vision.layout.find_layout`); the rows are split here.  ``over``:
    the screen's pixels that a system bar drew over the game
    (:func:`~kamivision.vision.bar.overbright`), or None."""
    x0, y0, bw, bh = block
    gray = cv2.cvtColor(np.ascontiguousarray(rgb[y0 : y0 + bh, x0 : x0 + bw]), cv2.COLOR_RGB2GRAY)
    if gray.size == 0:
        return ButtonBlock((0, 0), (), ())
    floor = float(np.median(gray))
    lift = np.percentile(gray, 100 * (1 - LINE_COVER), axis=1) - floor
    thin = max(4, round(0.015 * max(bw, bh)))
    columns = _cells([x - x0 for x in lines if x0 + 0.04 * bw < x < x0 + 0.96 * bw], bw)
    rows = _cells(_row_separators(lift, thin), bh)
    buttons, marks, drawn = [], [], []
    for ya, yb in rows:
        for xa, xb in columns:
            buttons.append((x0 + xa, y0 + ya, xb - xa, yb - ya))
            marks.append(_marks(gray[ya:yb, xa:xb], x0 + xa, y0 + ya))
            if over is not None:
                drawn.append(covered(gray[ya:yb, xa:xb], over[y0 + ya : y0 + yb, x0 + xa : x0 + xb], x0 + xa, y0 + ya))
    return ButtonBlock((len(rows), len(columns)), tuple(buttons), tuple(marks), tuple(drawn))


def _border(gray: np.ndarray) -> tuple[int, int]:
    """How far in (columns, rows) a button's marks are looked for: past its border, the
    separators' edge pixels."""
    h, w = gray.shape
    return max(2, round(0.08 * w)), max(2, round(0.08 * h))


def _marks(gray: np.ndarray, x0: int, y0: int) -> tuple[Glyph, ...]:
    """The bright marks inside one button (gray levels), without its border (a separator's
    edge pixels) and specks; left to right.  A mark is what is brighter than half-way from
    the button's own floor to its brightest: marks under a translucent bar, undone, are
    dimmer than the others, and a fixed level would keep only their cores."""
    h, w = gray.shape
    if h < 6 or w < 6:
        return ()
    mx, my = _border(gray)
    inside = gray[my : h - my, mx : w - mx].astype(np.float32)
    floor, peak = float(np.median(inside)), float(np.percentile(inside, 99.9))
    if peak - floor < LINE_CONTRAST:
        return ()
    inner = np.ascontiguousarray(inside > floor + 0.5 * (peak - floor)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(inner, connectivity=8)
    dim = np.ascontiguousarray(inside > floor + 0.25 * (peak - floor)).astype(np.uint8)
    _, dim_labels, dim_stats, _ = cv2.connectedComponentsWithStats(dim, connectivity=8)
    side = min(h, w)
    out, kept = [], []
    ih, iw = inner.shape
    for i in range(1, count):
        gx, gy, gw, gh, area = stats[i]
        if area < 6 or max(gw, gh) < 0.06 * side:
            continue
        cut = gx == 0 or gy == 0 or gx + gw == iw or gy + gh == ih
        kept.append(i)
        box = labels[gy : gy + gh, gx : gx + gw]
        mask = box == i
        shade = np.clip((inside[gy : gy + gh, gx : gx + gw] - floor) / (peak - floor), 0.0, 1.0)
        shade[(box != i) & (box != 0)] = 0.0
        # The dim component holding the mark (every mark pixel is in one: the levels nest).
        fx, fy, fw, fh, _ = dim_stats[dim_labels[gy : gy + gh, gx : gx + gw][mask][0]]
        faint = (x0 + mx + int(fx), y0 + my + int(fy), int(fw), int(fh))
        out.append(Glyph(mask, x0 + mx + int(gx), y0 + my + int(gy), bool(cut), shade, faint))
    held = set(np.unique(dim_labels[np.isin(labels, kept)]).tolist())
    for j in range(1, len(dim_stats)):
        fx, fy, fw, fh, area = dim_stats[j]
        if j in held or area < 6 or max(fw, fh) < 0.06 * side:
            continue
        mask = dim_labels[fy : fy + fh, fx : fx + fw] == j
        box = (x0 + mx + int(fx), y0 + my + int(fy), int(fw), int(fh))
        out.append(Glyph(mask, box[0], box[1], False, None, box, dim=True))
    out.sort(key=lambda g: g.x)
    return tuple(out)


def text_lines(marks: tuple[Glyph, ...]) -> list[tuple[Glyph, ...]]:
    """A button's marks grouped into lines: marks whose heights overlap by half the shorter
    one's are on one line (digits side by side), else on lines of their own (a navigation
    bar's icon drawn below the counter's digits).  Top to bottom, each left to right."""
    lines: list[list[Glyph]] = []
    for g in sorted(marks, key=lambda g: g.y):
        for line in lines:
            top = max(g.y, min(m.y for m in line))
            bottom = min(g.y + g.height, max(m.y + m.height for m in line))
            if bottom - top >= 0.5 * min(g.height, min(m.height for m in line)):
                line.append(g)
                break
        else:
            lines.append([g])
    return [tuple(sorted(line, key=lambda g: g.x)) for line in lines]


#: The game centres the counter's digits in their button: on the real shots their middle
#: lies within 0.052 of their height of the button's middle.  Digits farther off than this
#: are not a whole number (a digit joined to an icon across the edge leaves its neighbour
#: a quarter of the height or more off the middle).
CENTRED = 0.12
#: Pixels allowed on top of :data:`CENTRED`: the marks' edges and the button's are whole
#: pixels, so a middle is known to half a pixel (an 11 of 12 pixels, a pixel and a half off
#: the middle, was read as unsure; a quarter of the height, the least an icon's join moves
#: it, is 3 pixels there).
CENTRED_PIXELS = 0.5


def centred(line: tuple[Glyph, ...], button: Rect) -> bool:
    """Whether a line of glyphs is centred in ``button`` as the game centres its counter:
    its middle within :data:`CENTRED` of its height, and :data:`CENTRED_PIXELS`, of the
    button's middle."""
    left, right = min(g.x for g in line), max(g.x + g.width for g in line)
    middle = button[0] + button[2] / 2
    return abs((left + right) / 2 - middle) <= CENTRED * max(g.height for g in line) + CENTRED_PIXELS


def without_cut(line: tuple[Glyph, ...], button: Rect) -> tuple[Glyph, ...]:
    """A line of marks without those cut by the button's edge (a translucent bar's icon
    drawn across a separator, beside the counter's digits), when what is left is
    :func:`centred`; else the line as it is (and :func:`digit_shaped` then refuses it)."""
    kept = tuple(g for g in line if not g.cut)
    if not kept or len(kept) == len(line) or not centred(kept, button):
        return line
    return kept


def digit_shaped(marks: tuple[Glyph, ...]) -> tuple[Glyph, ...]:
    """The glyphs of a button's marks when they look like a number of one or two digits,
    else ``()``: the tall marks (at least half the tallest) are one or two thin-stroked
    glyphs (the thickest stroke at most 0.4 of the height: the game's digits measure 0.1 to
    0.25, and up to 0.32 when they are a dozen pixels tall and blurred; the solid arrow
    and bulb 0.5 and over) of one height on one baseline, side by side, narrower than
    tall, and nothing else of size is there (the bulb's filament lines are specks beside
    its glass, and the glass is solid), nor anything cut by the button's edge, nor
    anything fainter joined to them (:func:`spills`)."""
    if not marks or any(g.cut for g in marks):
        return ()  # a mark across the button's edge on this line: a digit may be joined to it
    if all(g.dim for g in marks):
        return ()
    tallest = max(g.height for g in marks if not g.dim)
    if any(g.dim and g.height >= 0.2 * tallest for g in marks):
        return ()  # something beside them too faint to read: a number may be missing a digit
    tall = [g for g in marks if g.height >= 0.5 * tallest]
    middling = [g for g in marks if 0.2 * tallest <= g.height < 0.5 * tallest]
    if not 1 <= len(tall) <= 2 or middling:
        return ()
    for g in tall:
        if not 0.1 <= g.width / g.height <= 0.9 or g.fill > 0.6 or g.stroke > 0.4:
            return ()
    if spills(tall):
        return ()
    if len(tall) == 2:
        a, b = tall
        if abs(a.height - b.height) > 0.2 * tallest or abs((a.y + a.height) - (b.y + b.height)) > 0.2 * tallest:
            return ()
        if b.x - (a.x + a.width) > 0.8 * tallest or b.x < a.x + a.width - 2:
            return ()
    return tuple(tall)


def spills(glyphs: list[Glyph]) -> bool:
    """Whether the glyphs are part of something wider at a fainter level: a dim mark
    joined to them there reaches more than an anti-aliased fringe (2 pixels, or a quarter
    of their height) beyond their box.  On digits under a dozen pixels, a 7's diagonal
    beside a 1's upright stroke may be all fainter than half-way: without this check, 17
    read as 1."""
    left = min(g.x for g in glyphs)
    top = min(g.y for g in glyphs)
    right = max(g.x + g.width for g in glyphs)
    bottom = max(g.y + g.height for g in glyphs)
    fringe = max(2.0, 0.25 * (bottom - top))
    for g in glyphs:
        if g.faint is None:
            continue
        fx, fy, fw, fh = g.faint
        if fx < left - fringe or fy < top - fringe or fx + fw > right + fringe or fy + fh > bottom + fringe:
            return True
    return False
