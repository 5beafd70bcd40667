"""A picture of the board alone (no footer): the lattice found from the board itself, the
colors from its cells, no counter, and pictures that are not a board refused in one line."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kamivision.board import differing_cells
from kamivision.errors import ImageError
from kamivision.report import reading_notices
from kamivision.synth.covers import Window
from kamivision.synth.render import render
from kamivision.vision import recognize

from ..boards import random_kami_board


def _board_band(board, device, seed, margin=0.0, tight=False, window=None):
    """The rendered screen cropped to the rows that show the board (and ``margin`` of the
    width more above and below), or also to the board's columns (``tight``); ``window``
    drawn over it first."""
    image, layout = render(board, device, seed=seed, moves=5, window=window)
    x, y, w, h = layout.board
    width = image.shape[1]
    m = round(margin * width)
    top = max(0, round(y) - m, 0)
    bottom = min(layout.footer[1] + m, round(y + h) + m, image.shape[0])
    crop = image[top:bottom]
    if tight:
        crop = crop[:, max(0, round(x)) : min(width, round(x + w))]
    return np.ascontiguousarray(crop)


@pytest.mark.parametrize(
    "device, seed, margin, tight",
    [
        ("iphone-8", 1, 0.0, False),
        ("iphone-x", 2, 0.0, True),
        ("tablet-4x3", 3, 0.0, False),
        ("android-1080p", 4, 0.0, True),
    ],
)
def test_a_board_alone_is_read_with_its_colors_from_the_cells(device, seed, margin, tight):
    board = random_kami_board(random.Random(seed), 3 + seed % 3, seed % 2 == 1)
    crop = _board_band(board, device, seed, margin, tight)
    rec = recognize(crop, "crop.png")
    assert rec.layout.name == "board alone"
    assert rec.board.par is None
    assert len(rec.board.palette) == len(board.colors_used())
    wrong = set(differing_cells(rec.board, board))
    assert not wrong - set(rec.uncertain), "a wrong cell not flagged"
    assert len(wrong) <= 3
    texts = [n.text for n in reading_notices(rec)]
    assert any("board alone" in t and "no counter" in t for t in texts)


@pytest.mark.parametrize("device, seed", [("iphone-8", 5), ("iphone-x", 6), ("android-tall", 7)])
def test_a_chat_head_over_a_board_alone_hides_the_cells_under_it(device, seed):
    """A chat head kept in the crop: its cells are hidden and flagged, as on a screen."""
    rng = random.Random(seed)
    board = random_kami_board(rng, 3, blank_outline=False)
    size = rng.uniform(0.12, 0.18)
    head = Window(rng.uniform(0.1, 0.9 - size), rng.uniform(0.5, 1.0), size, size, seed=seed, round=True)
    rec = recognize(_board_band(board, device, seed, window=head), "crop.png")
    assert rec.layout.name == "board alone" and len(rec.layout.covers) == 1
    assert not set(differing_cells(rec.board, board)) - set(rec.uncertain), "a wrong cell not flagged"


def test_a_picture_that_is_not_a_board_is_refused_in_one_line():
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, (900, 500, 3), dtype=np.uint8)
    flat = np.full((900, 500, 3), 200, np.uint8)
    for picture in (noise, flat):
        with pytest.raises(ImageError) as caught:
            recognize(picture, "holiday.jpg")
        message = str(caught.value)
        assert message.startswith("holiday.jpg: ") and "\n" not in message


def test_a_square_grid_alone_is_refused_as_kami_1():
    rng = np.random.default_rng(1)
    colors = rng.integers(0, 256, (16, 10, 3), dtype=np.uint8)
    grid = np.kron(colors, np.ones((60, 60, 1), np.uint8))  # 10 x 16 squares of 60 px
    grid[::60] = 40  # the dark lines between squares
    grid[:, ::60] = 40
    with pytest.raises(ImageError, match="square grid"):
        recognize(np.ascontiguousarray(grid), "kami1.png")


def test_a_rendered_square_grid_cropped_to_its_board_is_refused_as_kami_1():
    from kamivision.board import make_board

    from ..boards import random_board

    square = random_board(random.Random(3), "square", 16, 10, 3, 0.0)
    board = make_board([list(row) for row in square.cells], lattice="square", par=4)
    image, layout = render(board, "iphone-8", seed=3)
    x, y, w, h = layout.board
    crop = np.ascontiguousarray(image[max(0, round(y)) : min(layout.footer[1], round(y + h))])
    with pytest.raises(ImageError, match="square grid"):
        recognize(crop, "kami1-crop.png")
