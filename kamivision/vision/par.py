"""The moves-left counter: the par the game asks for, read from the button that shows digits.

The counter is found by looking (:mod:`~kamivision.vision.buttons`), not by its place in
the footer, and its digits are read by a nearest-neighbour classifier: each glyph, cut out
by brightness and scaled to a fixed box, is compared (normalised cross-correlation, with a
penalty for a different aspect) with digits drawn in two families of sans-serif font
(Pillow's bundled Aileron, and OpenCV's stroke fonts) at several stroke weights.  Digits
of a few pixels are read by a classifier trained on digits of that size too
(:func:`~kamivision.vision.digits.classify`): the two must agree.  The reading is
*unsure* when the best digit beats the runner-up by a small margin or matches poorly; an
unsure counter is reported as not read, never used as evidence.

Where a translucent bar's icon is drawn over the counter's button, digits clear of it
are read so; digits it touches are read with its pixels left out
(:mod:`~kamivision.vision.covered`), never as they look (the icon's triangle beside a 1
read as a 4: ``benchmarks/counter.py --icon``, 167 wrong in 4,000 before).

Tested in tests/vision/test_buttons.py, tests/vision/test_covered.py.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Optional

import cv2
import numpy as np

from .buttons import Covered, Glyph, centred, digit_shaped, text_lines, without_cut
from .covered import read_covered
from .digits import classify, digit_masks, glyph_crop, margin_confidence, unit
from .layout import ScreenLayout

GLYPH_SIZE = (20, 30)  # width, height of the normalised digit images

#: A counter read with less confidence than this (0..1) is reported as not read.
SURE = 0.35
#: Digits shorter than this (pixels) are too few pixels to tell a 5 from a 6: the counter
#: is then not read (a screenshot scaled down to 266 pixels wide showed 6-pixel digits,
#: and a 16 matched 15 at confidence 0.69; at 7 pixels, 14 read as 11 with confidence).
MIN_DIGIT_HEIGHT = 8
#: Digits shorter than this (pixels) are read only with at least SMALL_SURE confidence:
#: fewer pixels, a higher bar (``benchmarks/counter.py``, seeds 1-8, 24,000 counters: 8 and
#: 9 pixel digits read at the ordinary bar gave 5 wrong; at this one none).
SMALL_DIGITS = 10
SMALL_SURE = 0.75
#: Digits under a translucent bar shorter than this (pixels) may be joined to one of the
#: bar's icons unseen: there an icon is a line a pixel or two wide, no brighter than the
#: digits.  They are read only when they match a digit closely (:data:`BARRED_MATCH`) and
#: are centred in their button as the game centres its counter.
BARRED_DIGITS = 13
#: The match (as :data:`MATCH`) small digits under a translucent bar must reach.  Read
#: without this rule, ``benchmarks/counter.py --icon`` (seeds 1-16, 16,000 counters with an
#: icon beside the digits) gave 8 wrong readings (1 read as 4, 17 as 9, 13 as 43, 15 as
#: 1, 6 as 9, 6 as 4, 7 as 9 and 16 as 10, at 8 to 12 pixels), each matching at 0.61 or
#: less or lying off centre (the bar set on seeds 1-8, then held on 9-16); 54 of the 81
#: right ones pass both tests.
BARRED_MATCH = 0.7
#: Digits ending this many rows or more above a translucent bar's top are clear of its
#: icons, which lie inside the bar: the found top may be a row off, and blur spreads an
#: icon's edge by a row or two.
BAR_MARGIN = 3
#: Glyphs up to this height (pixels) are read by the small-digit classifier too
#: (:func:`~kamivision.vision.digits.classify`): where the templates, scaled up from a few
#: pixels, tell a 6 from an 8 by a thin margin, the classifier was trained on digits of that
#: size.  A glyph the two read differently is unsure.
CLASSIFIED_UP_TO = 13
#: A small glyph the classifier reads as the templates do, with at least this probability,
#: takes that probability as its confidence when it is higher, unless a translucent bar
#: reaches the button: the classifier never saw a bar's icon joined to a digit (with the
#: lift there, ``benchmarks/counter.py --icon`` seeds 2 and 3 read a 10 as 90 and a 17 as
#: 8).  On ``benchmarks/counter.py`` (seeds 1-8, 24,000 counters) 19,681 are read right
#: against 18,263 without it, none wrong either way; in the two faces left out of its
#: training (``--font``, seeds 1-2, 12,000 counters) 8,966 against 7,861, and 2 wrong
#: against 17.
CLASSIFIER_SURE = 0.95
#: A button's marks are digits only when every glyph matches a digit at least this well
#: (normalised cross-correlation less the penalties); the icons fail the shape tests first.
MATCH = 0.3

Template = tuple[str, np.ndarray, float]  # digit, normalised glyph image, aspect


def _glyph_image(mask: np.ndarray, shade: Optional[np.ndarray] = None) -> tuple[np.ndarray, float]:
    """A binary glyph (or its ``shade``, the gray levels over the same pixels) cropped to
    its box, resized to GLYPH_SIZE and blurred; and its aspect."""
    crop = glyph_crop(mask, shade)
    aspect = crop.shape[1] / crop.shape[0]
    img = cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA if shade is None else cv2.INTER_LINEAR)
    return unit(cv2.GaussianBlur(img, (0, 0), 1.2)), aspect


_TEMPLATES_LOCK = threading.Lock()


def digit_templates() -> tuple[Template, ...]:
    """Digits 0-9 in several sans-serif faces and weights (no system fonts needed): Pillow's
    bundled Aileron at three weights, and OpenCV's Hershey simplex and duplex stroke fonts
    at three thicknesses.  Made once per process (about 50 ms; a second thread asking
    meanwhile waits for them: :func:`~kamivision.vision.reader.warm_up`)."""
    with _TEMPLATES_LOCK:
        return _make_templates()


@lru_cache(maxsize=1)
def _make_templates() -> tuple[Template, ...]:
    return tuple((digit, *_glyph_image(mask)) for digit, mask in digit_masks())


#: How many closed loops each digit has in a sans-serif face (a 4 may be open or closed).
HOLES = {"0": {1}, "1": {0}, "2": {0}, "3": {0}, "4": {0, 1}, "5": {0}, "6": {1}, "7": {0}, "8": {2}, "9": {1}}
#: The score lost by a digit whose loops the glyph does not have.
HOLE_PENALTY = 0.3
#: Loops are counted on glyphs at least this tall (pixels).  Smaller, blur and JPEG close
#: a 6's opening into an 8's second loop, or fill a 6's loop: with the penalty, 6 read as
#: 8 or 5 and 16 as 18 with confidence on glyphs of 10 to 15 pixels
#: (``benchmarks/counter.py``: 6 to 8 wrong in 3,000; without it on glyphs under 18
#: pixels, 2 in 21,000, the rest unsure).  The game's digits on real shots measure 25 to 60.
LOOPS_FROM = 18


#: Glyphs shorter than this (pixels) are read from their gray levels, not their mask:
#: at a dozen pixels a stroke is two or three pixels, and its anti-aliased edges carry
#: much of the shape.
SHADE_BELOW = 18


def holes(mask: np.ndarray) -> int:
    """The glyph's closed loops: background regions it encloses, bigger than a speck (a
    fiftieth of its box), so that JPEG noise inside a stroke is no loop."""
    padded = np.pad(mask.astype(np.uint8), 1)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - padded, connectivity=4)
    outside = labels[0, 0]
    return sum(1 for i in range(1, count) if i != outside and stats[i, cv2.CC_STAT_AREA] >= max(3, padded.size / 50))


def read_glyph(mask: np.ndarray, shade: Optional[np.ndarray] = None, lift: bool = True) -> tuple[str, float, float]:
    """The digit a glyph mask shows, the match's score (-1..1) and a confidence (0..1)
    from the margin over the runner-up digit; for a glyph of :data:`CLASSIFIED_UP_TO`
    pixels or fewer, the classifier's say too (``lift``: its agreement may raise the
    confidence, :data:`CLASSIFIER_SURE`).  A digit whose loops the glyph lacks (or has
    too many of) loses :data:`HOLE_PENALTY`: the shape's topology survives fonts that the
    templates do not cover (a 6 with a straight spine still has one loop, a 5 none), on
    glyphs tall enough to keep their loops (:data:`LOOPS_FROM`)."""
    small = shade is not None and mask.shape[0] < SHADE_BELOW
    img, aspect = _glyph_image(mask, shade if small else None)
    loops = holes(mask) if mask.shape[0] >= LOOPS_FROM else None
    scores: dict[str, float] = {}
    for digit, template, t_aspect in digit_templates():
        score = float((img * template).sum()) - 0.8 * abs(math.log(max(aspect, 0.05) / t_aspect))
        if loops is not None and loops not in HOLES[digit]:
            score -= HOLE_PENALTY
        scores[digit] = max(scores.get(digit, -9.0), score)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    (best, s1), (_, s2) = ranked[0], ranked[1]
    confidence = margin_confidence(s1, s2)
    if mask.shape[0] <= CLASSIFIED_UP_TO:
        p = classify(mask, shade)
        if str(int(p.argmax())) != best:
            confidence = 0.0
        elif lift and p.max() >= CLASSIFIER_SURE:
            confidence = max(confidence, float(p.max()))
    return best, s1, confidence


def _read_number(glyphs: tuple[Glyph, ...], lift: bool = True) -> tuple[Optional[int], float, float]:
    """The number the glyphs show, the weakest glyph's match score and confidence
    (``lift``: as :func:`read_glyph`)."""
    digits, score, confidence = "", 1.0, 1.0
    for glyph in glyphs:
        digit, s, c = read_glyph(glyph.mask, glyph.shade, lift)
        digits += digit
        score, confidence = min(score, s), min(confidence, c)
    return _number(digits, score, confidence, min(g.height for g in glyphs))


def _number(digits: str, score: float, confidence: float, height: int) -> tuple[Optional[int], float, float]:
    """The number of ``digits`` read with the weakest glyph's ``score`` and ``confidence``
    (none under :data:`MIN_DIGIT_HEIGHT` pixels, a higher bar under :data:`SMALL_DIGITS`);
    None for no counter's number (0, or a leading zero)."""
    if height < MIN_DIGIT_HEIGHT or (height < SMALL_DIGITS and confidence < SMALL_SURE):
        confidence = 0.0
    value = int(digits)
    if value == 0 or (len(digits) == 2 and digits[0] == "0"):
        return None, score, 0.0
    return value, score, confidence


def digit_lines(rect, marks: tuple[Glyph, ...]) -> list[tuple[Glyph, ...]]:
    """The lines of marks in the button ``rect`` that may be digits, each on its own (a
    translucent bar's icon may lie below the digits, or beside them across the button's
    edge), as the counter's reader takes them."""
    return [glyphs for glyphs in (digit_shaped(without_cut(line, rect)) for line in text_lines(marks)) if glyphs]


def _button_readings(rect, marks: tuple[Glyph, ...], covered: Optional[Covered], bar_top: Optional[int]) -> list:
    """The numbers one button's lines of marks show, as :func:`_number` gives them.
    ``covered``: what a bar drew over the button, if anything; ``bar_top``: the first row
    of a translucent bar over the button's lower part (None: no bar over it)."""
    lines = digit_lines(rect, marks)
    if covered is not None:
        # Digits clear of the icon are read as they are; a mark it touches may be the icon
        # itself (its triangle read as a 4, its ring as a 0 or 9).
        lines = [glyphs for glyphs in lines if not covered.touches(glyphs)]
    readings = [_read_number(glyphs, lift=bar_top is None and covered is None) for glyphs in lines]
    if bar_top is not None:
        # Small digits that reach into the bar may be joined to an icon too faint to be
        # told from them; digits wholly above it are clear of every icon the bar holds.
        readings = [
            _barred_line(r, glyphs, rect) if _reaches(glyphs, bar_top) else r for r, glyphs in zip(readings, lines)
        ]
    if covered is not None and not any(r[0] is not None and r[2] >= SURE for r in readings):
        seen = read_covered(covered)  # the digits with the icon's pixels left out
        readings = [] if seen is None else [_barred(_number(*seen), seen[3])]
    return readings


def _reaches(glyphs: tuple[Glyph, ...], bar_top: int) -> bool:
    """Whether a line of glyphs comes within :data:`BAR_MARGIN` rows of a bar's top: a bar's
    icons lie inside the bar, so only such a line can be joined to one."""
    return max(g.y + g.height for g in glyphs) > bar_top - BAR_MARGIN


def _barred(reading: tuple[Optional[int], float, float], height: int) -> tuple[Optional[int], float, float]:
    """A reading of digits under a translucent bar: unsure under :data:`BARRED_DIGITS` pixels."""
    return reading if height >= BARRED_DIGITS else (reading[0], reading[1], 0.0)


def _barred_line(
    reading: tuple[Optional[int], float, float], glyphs: tuple[Glyph, ...], rect
) -> tuple[Optional[int], float, float]:
    """A reading of a line of digits that reaches into a translucent bar, with no icon seen
    touching it: kept when it matches at least :data:`BARRED_MATCH` and is
    :func:`~kamivision.vision.buttons.centred` in its button ``rect`` (an icon joined to a
    digit widens it to one side, or adds a glyph), else :func:`_barred`."""
    if reading[1] >= BARRED_MATCH and centred(glyphs, rect):
        return reading
    return _barred(reading, min(g.height for g in glyphs))


def find_counter(layout: ScreenLayout):
    """The counter's button and its reading: ``(rect, value, confidence)``, or ``None``
    when no button, or more than one, shows a number."""
    block = layout.block
    found = []
    top, slope = layout.shade
    for rect, marks, covered in zip(block.buttons, block.marks, block.covered or (None,) * len(block.buttons)):
        bar_top = top if slope < 1.0 and rect[1] + rect[3] > top else None
        readings = [r for r in _button_readings(rect, marks, covered, bar_top) if r[0] is not None and r[1] > MATCH]
        if readings:
            value, score, confidence = max(readings, key=lambda r: r[1])
            found.append((score, rect, value, confidence))
    if not found:
        return None
    found.sort(key=lambda f: -f[0])
    if len(found) > 1 and found[1][0] > found[0][0] - 0.15:
        return None  # two buttons that both look like numbers: which is the counter is unknown
    _, rect, value, confidence = found[0]
    return rect, value, confidence


def read_par(layout: ScreenLayout) -> tuple[Optional[int], float]:
    """The number on the moves-left counter and a confidence; ``(None, c)`` when the counter
    was not found or its digits are unsure (``c`` then says how unsure, 0 when not found)."""
    found = find_counter(layout)
    if found is None:
        return None, 0.0
    _, value, confidence = found
    if confidence < SURE:
        return None, confidence
    return value, confidence
