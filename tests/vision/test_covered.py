"""The counter's digits with a translucent bar's icon drawn over them (:mod:`kamivision.vision.covered`)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from kamivision.vision.bar import Bar, overbright, undo_bar
from kamivision.vision.buttons import find_buttons
from kamivision.vision.par import SURE, read_par

from .test_buttons import find_layout_stub

DARKNESS = 0.55
BAR = Bar(0, 1.0 - DARKNESS, (0.0, 0.0, 0.0))


def _under_a_bar(text: str, icon) -> tuple[int | None, float]:
    """A dark row of four buttons with ``text`` centred in the third, all under a bar
    letting 45 % of the light through, then ``icon(image)`` drawn over it in white; read
    as the reader reads it (the bar undone, the icon's pixels found)."""
    w, h = 400, 140
    image = np.full((h, w, 3), 32, np.uint8)
    for x in (100, 200, 300):
        image[:, x - 1 : x + 1] = 200
    cv2.circle(image, (50, 70), 22, (240,) * 3, 5)  # the restart ring in the first button
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 1.8, 1)
    cv2.putText(image, text, (250 - tw // 2, 70 + th // 2), cv2.FONT_HERSHEY_SIMPLEX, 1.8, (236,) * 3, 1, cv2.LINE_AA)
    image = np.clip(image.astype(np.float32) * BAR.slope + 0.5, 0, 255).astype(np.uint8)
    icon(image)
    over = overbright(image, BAR)
    undone = undo_bar(image, BAR)
    block = find_buttons(undone, (0, 0, w, h), [100.0, 200.0, 300.0], over)
    return read_par(dataclasses.replace(find_layout_stub(undone), block=block))


def _outline_triangle(image, points) -> None:
    cv2.polylines(image, [np.array(points, np.int32)], True, (255, 255, 255), 2, cv2.LINE_AA)


def test_digits_with_the_icon_across_one_of_them_are_read():
    """Android's back triangle across the 8 of an 18: the reader leaves its pixels out and
    still tells the 8 from a 3 by what shows."""
    value, confidence = _under_a_bar("18", lambda im: _outline_triangle(im, [(268, 80), (300, 60), (300, 100)]))
    assert value == 18 and confidence >= SURE


def test_an_icon_beside_the_digits_in_their_button_leaves_them_read():
    value, _ = _under_a_bar("7", lambda im: cv2.rectangle(im, (272, 95), (290, 113), (255, 255, 255), 2))
    assert value == 7


def test_a_digit_wholly_under_the_icon_is_not_left_out_of_the_number():
    """A solid white block over the 1 of an 18: what shows is an 8, off the button's
    middle; read as 8 it would be a confident wrong counter."""
    value, _ = _under_a_bar("18", lambda im: cv2.rectangle(im, (222, 40), (240, 100), (255, 255, 255), -1))
    assert value is None


def test_a_digit_whose_telling_part_is_hidden_is_not_guessed():
    """A white band over the left side of a 9's loop: what shows could be a 9 or a 7."""
    value, _ = _under_a_bar("9", lambda im: cv2.rectangle(im, (232, 40), (244, 68), (255, 255, 255), -1))
    assert value in (None, 9)


def test_small_digits_under_a_bar_are_not_read():
    """Under a bar, digits under BARRED_DIGITS pixels may be joined to an icon too faint to
    tell from them: a thin triangle beside a 1 was read as 4.  Such digits are unsure, even
    with no icon in sight, unless they end BAR_MARGIN rows or more above the bar's top
    (its icons lie inside it)."""
    from kamivision.vision.par import BAR_MARGIN, BARRED_DIGITS

    w, h = 100, 36
    image = np.full((h, w, 3), 32, np.uint8)
    for x in (25, 50, 75):
        image[:, x] = 200
    cv2.putText(image, "7", (58, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (236,) * 3, 1, cv2.LINE_AA)
    block = find_buttons(image, (0, 0, w, h), [25.0, 50.0, 75.0], np.zeros((h, w), bool))
    layout = find_layout_stub(image)
    assert block.marks[2] and max(g.height for g in block.marks[2]) < BARRED_DIGITS
    assert read_par(dataclasses.replace(layout, block=block))[0] == 7  # read in plain view...
    barred = dataclasses.replace(layout, block=block, shade=(0, BAR.slope))
    assert read_par(barred)[0] is None  # ...but not under a bar
    bottom = max(g.y + g.height for g in block.marks[2])
    below = dataclasses.replace(layout, block=block, shade=(bottom + BAR_MARGIN, BAR.slope))
    assert read_par(below)[0] == 7  # ...unless the bar begins clear below the digits
    reaching = dataclasses.replace(layout, block=block, shade=(bottom + BAR_MARGIN - 1, BAR.slope))
    assert read_par(reaching)[0] is None
