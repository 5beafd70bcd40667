"""The button block and the counter, found by looking: any slot, a row or a 2 x 2 block,
screens from the seeded generator that no phone table limits; and a counter with no
digits reported as not read, never guessed."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from kamivision.board import differing_cells
from kamivision.render import render
from kamivision.screens import DEVICES, random_device
from kamivision.vision import recognize
from kamivision.vision.bar import cut_corners
from kamivision.vision.layout import find_layout
from kamivision.vision.par import find_counter, read_par

from ..boards import random_kami_board


@pytest.mark.parametrize("device", ["iphone-8", "iphone-x"])
@pytest.mark.parametrize("slot", [0, 1, 2, 3])
def test_the_counter_is_the_button_with_digits_in_any_slot(device, slot):
    board = random_kami_board(random.Random(slot), 3, False)
    shown = 7 + slot * 3  # 7, 10, 13, 16: one and two digits
    image, drawn = render(board, dataclasses.replace(DEVICES[device], counter=slot), seed=slot, moves=shown)
    layout = find_layout(image, "shot", cut_corners(image))
    assert layout.block.grid == ((1, 4) if DEVICES[device].style == "classic" else (2, 2))
    found = find_counter(layout)
    assert found is not None
    rect, value, confidence = found
    assert value == shown and confidence > 0.35
    x, y, w, h = rect
    cx, cy = drawn.counter[0] + drawn.counter[2] / 2, drawn.counter[1] + drawn.counter[3] / 2
    assert x <= cx <= x + w and y <= cy <= y + h


def test_a_footer_without_digits_has_no_counter():
    board = random_kami_board(random.Random(5), 3, False)
    image, _ = render(board, "iphone-8", seed=5, moves=None)
    layout = find_layout(image, "shot", cut_corners(image))
    assert find_counter(layout) is None
    assert read_par(layout) == (None, 0.0)


@pytest.mark.parametrize("seed", range(8))
def test_random_screens_are_read_without_silent_errors_and_the_counter_never_guessed(seed):
    """The generator draws widths, shapes, strips, button blocks, bars and board fits no
    phone table holds; whatever it draws, no wrong cell goes unflagged and the counter is
    the number drawn or reported as not read."""
    rng = np.random.default_rng(seed)
    device = random_device(rng)
    board = random_kami_board(random.Random(seed), int(rng.integers(2, 6)), bool(rng.random() < 0.3))
    shown = int(rng.integers(1, 21))
    image, _ = render(board, device, seed=seed, moves=shown)
    rec = recognize(image, f"screen {seed}")
    wrong = set(differing_cells(rec.board, board))
    assert not wrong - set(rec.uncertain), (device, sorted(wrong - set(rec.uncertain)))
    assert rec.board.par in (None, shown), device
