"""The counter's digits where a translucent bar's icon is drawn over them.

A phone's translucent navigation bar draws its icons (back, home, recent apps) over its
tint, and on a tall phone one may land on the counter's digits.  Under the bar the game
is dimmed, so an icon is brighter than anything of the game's could be there: once the
bar is undone its pixels come out brighter than white
(:func:`~kamivision.vision.bar.overbright`).  Those pixels, grown by their anti-aliased
fringe, are *hidden*: what the game drew under them is unknown, and nothing is guessed.

The digits are read from what shows:

* the marks are cut out with the hidden pixels taken away, and pieces of one digit that
  the icon cut apart are joined across it (a glyph too wide for one digit, two joined
  across an icon between them, is parted again where one column parts it);
* each glyph must look like a digit's part: thin strokes, measured to the background that
  shows (the bulb's glass cut by the icon is as solid as ever), narrower than tall;
* each digit template (the faces of :mod:`~kamivision.vision.digits`) is drawn at the
  digits' height (from a digit whose top and bottom the icon does not touch; taller too
  where it touches every digit's) at every column where it covers what shows of the
  glyph, and compared with what shows alone: a normalised cross-correlation over the
  pixels that are not hidden, and must reach :data:`COVERED_MATCH`;
* the confidence is the margin over the best other digit, as for a glyph in plain view.
  A digit that another matches almost as well once the hidden pixels are left out (a 9
  whose left side is hidden is as much a 7) has no margin, and the counter is unsure;
* a glyph with no hidden pixel where the rest of its digit could be (:func:`_seen_whole`:
  the 1 of a 19 whose 9 the icon crosses) is read as in plain view too
  (:func:`~kamivision.vision.digits.read_glyph`), and the two readings must agree.  The
  correlation alone, over what shows, tells a 1 from a 4 (a 1 is a 4's stem) by a thin
  margin: ``benchmarks/counter.py --icon`` seeds 1-8 read 489 of 8,000 right with this,
  470 without, the same 5 wrong.

And what shows must be all of the number: the line is refused (the counter unsure) when
something else of size is in the button, when the icon runs along the digits' top or
bottom (their height is then unknown), when the best digit has more than
:data:`MAX_HIDDEN` of itself hidden, or when the digits as matched are not centred in the
button as the game centres its counter (a digit wholly under the icon).
"""

from __future__ import annotations

import math
from typing import Optional

import cv2
import numpy as np

from .buttons import CENTRED, LINE_CONTRAST, Covered
from .digits import digit_masks, margin_confidence, read_glyph

#: A digit is read only if at most this share of it, as matched, is hidden: more of it
#: must show than not.  What tells it from the other digits is the margin's to judge
#: (``benchmarks/counter.py --icon``, seeds 1-16, 16,000 counters: 1,287 right with this,
#: 1,054 with 0.35, and the same 12 wrong either way, 11 of them read without this
#: module's matching).
MAX_HIDDEN = 0.5
#: A glyph is read only if the best digit matches what shows of it at least this well
#: (normalised cross-correlation): digits do, at 0.87 to 0.99 on the screens of
#: ``benchmarks/layouts.py``; the game's own icons partly hidden (the restart ring read
#: as 0, 6 or 9) at 0.6 to 0.7.
COVERED_MATCH = 0.8
#: Where the icon touches the digits' top or bottom, they may go on under it this far (a
#: share of their height: the icon is a thin outline, its fringe grown by FRINGE).
REACH = 0.25
#: The widest digit's ink, as a share of its height (a 0 or a 4 in the widest face).
WIDEST = 0.85
#: Glyphs are matched at this height (pixels): taller ones are scaled down to it.
WORK_HEIGHT = 30


def _pieces(c: Covered) -> Optional[tuple[np.ndarray, np.ndarray, list[np.ndarray]]]:
    """What shows of the marks (gray levels 0..1 and the mask at half-way) and the glyphs:
    the masks of the marks, each with the pieces the hidden pixels cut apart joined."""
    floor = float(np.median(c.gray))
    rest = c.gray.copy()
    rest[c.hidden] = floor
    peak = float(np.percentile(rest, 99.9))
    if peak - floor < LINE_CONTRAST:
        return None
    shade = np.clip((rest - floor) / (peak - floor), 0.0, 1.0)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((shade > 0.5).astype(np.uint8), connectivity=8)
    side = min(c.gray.shape)
    kept = [i for i in range(1, count) if stats[i, 4] >= 6 and max(stats[i, 2], stats[i, 3]) >= 0.06 * side]
    marks = np.isin(labels, kept)
    if not kept:
        return None
    # Pieces of one mark that the icon cut apart are joined: those with no row (one over
    # the other) or no column (side by side) between them that shows in full: every row
    # or column of the gap has hidden pixels, so a stroke may cross it.
    # Joining too much makes a glyph no digit is (the counter unsure); joining too little
    # could make two digits of one.
    group = list(range(len(kept)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for a in range(len(kept)):
        for b in range(a + 1, len(kept)):
            (xa, ya, wa, ha), (xb, yb, wb, hb) = stats[kept[a], :4], stats[kept[b], :4]
            gx = max(xa, xb) - min(xa + wa, xb + wb)  # columns between them (< 0: shared)
            gy = max(ya, yb) - min(ya + ha, yb + hb)  # rows between them
            if -gx >= 0.3 * min(wa, wb):  # one over the other
                gap = c.hidden[min(ya + ha, yb + hb) : max(ya, yb), min(xa, xb) : max(xa + wa, xb + wb)]
                joined = gy <= 0 or bool(gap.any(axis=1).all())
            elif gy < 0:  # side by side
                gap = c.hidden[min(ya, yb) : max(ya + ha, yb + hb), min(xa + wa, xb + wb) : max(xa, xb)]
                joined = gx <= 0 or bool(gap.any(axis=0).all())
            else:  # apart on both axes
                joined = False
            if joined:
                group[root(a)] = root(b)
    groups = [
        [labels == kept[i] for i in range(len(kept)) if root(i) == r] for r in sorted(set(map(root, range(len(kept)))))
    ]
    return shade, marks, [glyph for pieces in groups for glyph in _split(pieces)]


def _split(pieces: list[np.ndarray]) -> list[np.ndarray]:
    """A glyph joined from ``pieces``, or the two glyphs it is when it is too wide for one
    digit (wider than 0.9 of its height: two digits joined across an icon between them)
    and exactly one column between its pieces parts it into two that are not."""
    glyph = np.logical_or.reduce(pieces)
    x0, y0, x1, y1 = _box(glyph)
    if x1 - x0 <= 0.9 * (y1 - y0) or len(pieces) < 2:
        return [glyph]
    spans = sorted((_box(p)[0], _box(p)[2], k) for k, p in enumerate(pieces))
    cuts = []
    for k in range(1, len(spans)):
        if max(b for _, b, _ in spans[:k]) <= spans[k][0]:
            left = np.logical_or.reduce([pieces[j] for _, _, j in spans[:k]])
            right = np.logical_or.reduce([pieces[j] for _, _, j in spans[k:]])
            if all(_box(m)[2] - _box(m)[0] <= 0.9 * (y1 - y0) for m in (left, right)):
                cuts.append([left, right])
    return cuts[0] if len(cuts) == 1 else [glyph]


def _box(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def match_digit(
    shade: np.ndarray,
    known: np.ndarray,
    boxes: list[tuple[int, int]],
    left: int,
    right: int,
    shows: Optional[np.ndarray] = None,
) -> tuple[dict[str, float], dict[str, tuple[int, int, float]]]:
    """Each digit's best score for a glyph seen as ``shade`` (0..1, other marks at 0) where
    ``known`` (the rest is hidden or another glyph's), drawn in rows ``top`` to ``top +
    height`` for one of ``boxes`` (top, height) and over what shows of it, columns
    ``left`` to ``right``: a normalised cross-correlation over the known pixels, every
    placement at once (``cv2.matchTemplate`` of the weighted sums).  And where each
    digit's best template lies: its first column, width and the share of it hidden
    (``shows``: how much of each pixel shows, 0..1, where ``known`` is only the pixels
    that show in full; by default ``known``)."""
    scores: dict[str, float] = {}
    where: dict[str, tuple[int, int, float]] = {}
    sigma = max(0.6, max(h for _, h in boxes) / 25)
    weight = known.astype(np.float32)
    seen = cv2.GaussianBlur(shade.astype(np.float32), (0, 0), sigma) * weight
    total, s_i, s_ii = float(weight.sum()), float(seen.sum()), float((seen * seen).sum())
    var_i = s_ii - s_i * s_i / total
    if total <= 0 or var_i <= 1e-6:
        return scores, where
    pad = math.ceil(3 * sigma)
    heights: dict[int, list[int]] = {}
    for top, height in boxes:
        heights.setdefault(height, []).append(top)
    # Padded once, as far as any template reaches; each template is matched over just the
    # placements asked for (its corner at rows ``top - pad``, columns ``lo - pad`` on).
    grow = 2 * max(heights) + 2 * pad
    weight_p, seen_p = (np.pad(a, grow) for a in (weight, seen))
    for digit, mask in digit_masks():
        for height, tops in heights.items():
            width = max(2, round(height * mask.shape[1] / mask.shape[0]))
            drawn = cv2.resize(mask.astype(np.float32), (width, height), interpolation=cv2.INTER_AREA)
            drawn = cv2.GaussianBlur(np.pad(drawn, pad), (0, 0), sigma)
            th, tw = drawn.shape
            lo, hi = min(right - width, left) - 1, max(right - width, left) + 1
            first, last = min(tops), max(tops)
            region = (slice(grow + first - pad, grow + last - pad + th), slice(grow + lo - pad, grow + hi - pad + tw))
            s_t = cv2.matchTemplate(weight_p[region], drawn, cv2.TM_CCORR)
            s_tt = cv2.matchTemplate(weight_p[region], drawn * drawn, cv2.TM_CCORR)
            s_it = cv2.matchTemplate(seen_p[region], drawn, cv2.TM_CCORR)
            at = np.ix_([t - first for t in tops], np.arange(hi - lo + 1))
            var_t = s_tt[at] - s_t[at] ** 2 / total
            ncc = (s_it[at] - s_i * s_t[at] / total) / np.sqrt(np.maximum(var_i * var_t, 1e-12))
            k, j = np.unravel_index(int(np.argmax(ncc)), ncc.shape)
            if float(ncc[k, j]) > scores.get(digit, -9.0):
                scores[digit] = float(ncc[k, j])
                x, top = lo + int(j), tops[k]
                body = np.zeros(weight.shape, bool)
                inside = drawn[pad : pad + height, pad : pad + width] > 0.5
                ys, xs = slice(max(0, top), top + height), slice(max(0, x), x + width)
                part = body[ys, xs]
                part |= inside[
                    ys.start - top : ys.start - top + part.shape[0], xs.start - x : xs.start - x + part.shape[1]
                ]
                hidden = float(inside.sum()) - float((body * (weight if shows is None else shows)).sum())
                where[digit] = (x, width, hidden / max(1.0, float(inside.sum())))
    return scores, where


def _thin(glyph: np.ndarray, hidden: np.ndarray, box: tuple[int, int, int, int], height: int) -> bool:
    """Whether what shows of a glyph is shaped like a digit's part, as
    :func:`~kamivision.vision.buttons.digit_shaped` asks of a whole one: thin strokes (at
    most 0.4 of the digits' height: not the solid bulb or arrow), narrower than tall.  A
    stroke is measured to the background that shows, not to the hidden pixels: the icon
    drawn across the bulb's glass leaves two thinner pieces of a blob as thick as ever.
    Not how much of its box it fills: a 1 whose flag is hidden fills all of it."""
    x0, _, x1, _ = box
    solid = np.pad((glyph | hidden).astype(np.uint8), 1)
    stroke = 2.0 * float(cv2.distanceTransform(solid, cv2.DIST_L2, 3)[1:-1, 1:-1][glyph].max())
    return (x1 - x0) <= 0.9 * height and stroke <= 0.4 * height


def _window(hidden: np.ndarray, x0: int, x1: int, most: int) -> slice:
    """The columns a glyph showing in columns ``x0`` to ``x1`` is compared over: those, two
    more each side, and the hidden ones next to them (up to ``most`` further), where it may
    go on unseen.  Not a wide margin of plain background, which every digit matches alike
    and which would shrink the margins between them."""
    cover = hidden.any(axis=0)
    left, right = x0, x1
    while left > 0 and x0 - left < most and cover[left - 1]:
        left -= 1
    while right < cover.size and right - x1 < most and cover[right]:
        right += 1
    return slice(max(0, left - 2), min(cover.size, right + 2))


def _touches(hidden: np.ndarray, rows: slice, left: int, right: int) -> bool:
    """Whether hidden pixels lie in ``rows``, columns ``left`` to ``right``."""
    return bool(hidden[max(0, rows.start) : max(0, rows.stop), left:right].any())


def read_covered(c: Covered) -> Optional[tuple[str, float, float, int]]:
    """The digits the button shows with what was drawn over it left out, the weakest
    glyph's match score and confidence, and the digits' height (pixels): the best read of
    its lines of marks (a 2 x 2 block whose rows were not told apart holds an icon's
    line too); None when no line is one or two glyphs and nothing else."""
    found = _pieces(c)
    if found is None:
        return None
    shade, marks, glyphs = found
    boxes = [_box(g) for g in glyphs]
    readings = [_read_line(c, shade, marks, glyphs, boxes, line) for line in _lines(boxes)]
    readings = [r for r in readings if r is not None]
    return max(readings, key=lambda r: r[1]) if readings else None


def _lines(boxes: list[tuple[int, int, int, int]]) -> list[list[int]]:
    """The glyphs (indices of their boxes) grouped into lines: glyphs whose rows overlap
    by half the shorter one's height, left to right."""
    lines: list[list[int]] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1]):
        _, y0, _, y1 = boxes[i]
        for line in lines:
            top, bottom = min(boxes[j][1] for j in line), max(boxes[j][3] for j in line)
            if min(y1, bottom) - max(y0, top) >= 0.5 * min(y1 - y0, bottom - top):
                line.append(i)
                break
        else:
            lines.append([i])
    return [sorted(line, key=lambda i: boxes[i][0]) for line in lines]


def _seen_whole(
    hidden: np.ndarray, boxes: list[tuple[int, int, int, int]], i: int, tall: list[int], height: int
) -> bool:
    """Whether no part of glyph ``i``'s digit can be hidden: no hidden pixel beside it, in
    its rows, as far as a digit :data:`WIDEST` times the ``height`` wide could reach (but
    not past a neighbouring glyph: digits do not overlap), and none touching it above or
    below.  A hidden part of the digit would be joined to what shows, or lie beside it."""
    x0, y0, x1, y1 = boxes[i]
    far = round(WIDEST * height)
    left = max([x1 - far, 0] + [boxes[j][2] for j in tall if boxes[j][2] <= x0])
    right = min([x0 + far] + [boxes[j][0] for j in tall if boxes[j][0] >= x1])
    beside = hidden[y0:y1, left:right].any()
    return not (beside or hidden[max(0, y0 - 2) : y1 + 2, max(0, x0 - 2) : x1 + 2].any())


def _read_line(c: Covered, shade, marks, glyphs, boxes, line: list[int]) -> Optional[tuple[str, float, float, int]]:
    """One line of glyphs read as digits (see :func:`read_covered`), or None."""
    tallest = max(boxes[i][3] - boxes[i][1] for i in line)
    tall = [i for i in line if boxes[i][3] - boxes[i][1] >= 0.5 * tallest]
    if not 1 <= len(tall) <= 2 or any(boxes[i][3] - boxes[i][1] >= 0.2 * tallest for i in line if i not in tall):
        return None  # something else of size beside them: an icon's remnant, a third glyph
    # The digits' top and bottom: digits are all of one height, so one whose top (or
    # bottom) shows clear of the icon gives theirs; where the icon touches a glyph's
    # edge, what lies there may be the icon's (its fringe, or a piece of what shows
    # inside it joined to the digit).  Where the icon touches every glyph's top (or
    # bottom), the digits may go on under it: taller boxes are tried too, for every digit
    # alike.  (A 20 with the triangle on the 2's top, the 2 joined to a piece inside it:
    # its 0, matched in the 2's taller box or taller, looked like the lower part of a 6,
    # read 26 with confidence.)
    over = [_touches(c.hidden, slice(boxes[i][1] - 2, boxes[i][1]), boxes[i][0] - 1, boxes[i][2] + 1) for i in tall]
    under = [_touches(c.hidden, slice(boxes[i][3], boxes[i][3] + 2), boxes[i][0] - 1, boxes[i][2] + 1) for i in tall]
    up, down = all(over), all(under)
    top = min(boxes[i][1] for i, hid in zip(tall, over) if up or not hid)
    bottom = max(boxes[i][3] for i, hid in zip(tall, under) if down or not hid)
    height = bottom - top
    if height < 2 or not all(_thin(glyphs[i], c.hidden, boxes[i], height) for i in tall):
        return None
    scale = min(1.0, WORK_HEIGHT / height)
    reach = round(REACH * height)
    step = max(1, round(reach * scale / 4))
    grow_up = range(0, round(reach * scale) + 1, step) if up else range(1)
    grow_down = range(0, round(reach * scale) + 1, step) if down else range(1)
    digits, score, confidence, spans = "", 1.0, 1.0, []
    for i in tall:
        x0, _, x1, _ = boxes[i]
        rows = slice(max(0, top - 3 - reach), min(shade.shape[0], bottom + 3 + reach))
        cols = _window(c.hidden[rows], x0, x1, round(0.7 * height))
        seen = np.where(glyphs[i], shade, 0.0)[rows, cols]
        known = ~(c.hidden | (marks & ~glyphs[i]))[rows, cols]
        size = (max(1, round(seen.shape[1] * scale)), max(1, round(seen.shape[0] * scale)))
        seen = cv2.resize(seen, size, interpolation=cv2.INTER_AREA)
        shows = cv2.resize(known.astype(np.float32), size, interpolation=cv2.INTER_AREA)
        known = shows > 0.99  # compared over the pixels that show in full
        at, tall_px = round((top - rows.start) * scale), round(height * scale)
        tried = [(at - u, tall_px + u + d) for u in grow_up for d in grow_down]
        scores, where = match_digit(
            seen, known, tried, round((x0 - cols.start) * scale), round((x1 - cols.start) * scale), shows
        )
        if len(scores) < 10:
            return None
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        (best, s1), (_, s2) = ranked[0], ranked[1]
        x, width, share = where[best]
        if s1 < COVERED_MATCH:
            return None
        if share > MAX_HIDDEN:
            return None  # too much of the digit is hidden to call it one
        digits += best
        score = min(score, s1)
        sure = margin_confidence(s1, s2)
        if _seen_whole(c.hidden, boxes, i, tall, height):
            # Nothing of this digit can be hidden: it is read as in plain view too, and the
            # two readings must agree (NCC alone tells a 1 from a 4 by a thin margin).
            gx0, gy0, gx1, gy1 = boxes[i]
            alone = np.where(marks & ~glyphs[i], 0.0, shade)[gy0:gy1, gx0:gx1]
            plain, _, plain_sure = read_glyph(glyphs[i][gy0:gy1, gx0:gx1], alone, lift=False)
            sure = max(sure, plain_sure) if plain == best else 0.0
        confidence = min(confidence, sure)
        spans.append((cols.start + x / scale, cols.start + (x + width) / scale))
    start, end = min(a for a, _ in spans), max(b for _, b in spans)
    if abs((start + end) / 2 - c.middle) > CENTRED * height:
        return None  # not centred in the button: a digit may lie wholly under the icon
    return digits, score, confidence, height
