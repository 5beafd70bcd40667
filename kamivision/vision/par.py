"""The moves-left counter: the par the game asks for, read from the button that shows digits.

The counter is found by looking (:mod:`~kamivision.vision.buttons`), not by its place in
the footer, and its digits are read one glyph at a time
(:func:`~kamivision.vision.digits.read_glyph`: templates, and for digits of a few pixels a
classifier too).  The reading is *unsure* when the best digit beats the runner-up by a
small margin or matches poorly, or when the digits are too small; an unsure counter is
reported as not read, never used as evidence.

Where a translucent bar's icon is drawn over the counter's button, digits clear of it
are read so; digits it touches are read with its pixels left out
(:mod:`~kamivision.vision.covered`), never as they look (the icon's triangle beside a 1
read as a 4: ``benchmarks/counter.py --icon``, 167 wrong in 4,000 before).

Tested in tests/vision/test_buttons.py, tests/vision/test_covered.py.
"""

from __future__ import annotations

from typing import Optional

from .buttons import Covered, Glyph, centred, digit_shaped, text_lines, without_cut
from .covered import read_covered
from .digits import read_glyph
from .layout import ScreenLayout

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
#: A button's marks are digits only when every glyph matches a digit at least this well
#: (normalised cross-correlation less the penalties); the icons fail the shape tests first.
MATCH = 0.3


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
