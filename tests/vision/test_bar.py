"""A translucent navigation bar over the footer, measured from the image; the palette
taken from the board and matched to the swatches; colors in doubt said so."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kamivision.board import differing_cells, hex_to_rgb
from kamivision.synth.covers import NavBar
from kamivision.synth.render import render
from kamivision.vision import recognize
from kamivision.vision.bar import find_bar, find_bars

from ..boards import random_kami_board


def _board(seed: str, colors: int = 4, blank: bool = False):
    return random_kami_board(random.Random(seed), colors, blank_outline=blank, par=5)


def _palette_error(found, truth_palette) -> float:
    return max(
        float(np.abs(np.subtract(hex_to_rgb(a), hex_to_rgb(b))).max()) for a, b in zip(found.palette, truth_palette)
    )


@pytest.mark.parametrize(
    "device",
    [
        "android-2280-nav",
        pytest.param("android-1080p", marks=pytest.mark.slow),
        pytest.param("android-tall", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("kind", ["buttons", "pill"])
def test_a_bar_013_w_high_darkened_to_40_percent_is_measured_and_every_cell_read(device, kind):
    board = _board(f"{device}-{kind}", blank=kind == "pill")
    palette = ["#d8423a", "#2f8f83", "#e0c080", "#3a4f6b"]
    image, layout = render(board, device, seed=3, palette=palette, nav_bar=NavBar(kind, 0.13, 0.6))
    w, h = image.shape[1], image.shape[0]
    bar = find_bar(image)
    assert bar is not None
    assert abs(bar.top - (h - round(0.13 * w))) <= 3
    assert bar.slope == pytest.approx(0.4, abs=0.03)
    found = recognize(image, device)
    assert found.palette_doubt is None
    # Every cell right where a quarter of it shows (a tall phone hides slivers at its sides).
    wrong = set(differing_cells(found.board, board))
    assert wrong <= set(found.hidden)
    assert len(found.board.palette) == 4 and _palette_error(found.board, palette) <= 12
    assert found.board.par == 5


def test_a_grey_bar_with_the_icons_over_the_swatches_is_undone():
    board = _board("grey")
    image, _ = render(board, "android-2400", seed=1, nav_bar=NavBar("buttons", 0.15, 0.5, (60, 60, 60)))
    found = recognize(image, "grey bar")
    assert found.layout.shade[1] == pytest.approx(0.5, abs=0.04)
    wrong = set(differing_cells(found.board, board))
    assert wrong <= set(found.uncertain)  # the cells hidden at the sides of a tall phone may be off, never silently


def test_no_bar_is_found_on_a_screen_without_one():
    for device in ("iphone-8", "iphone-x", "android-tall", "tablet-4x3"):
        image, _ = render(_board(device), device, seed=2)
        assert find_bar(image) is None, device


def test_swatches_dimmed_where_no_bar_explains_it_are_matched_to_the_board():
    # Only the swatches darkened to 45 % (a bar the reader cannot see as one): the seeded
    # clusters do not fit them, so the board's own colors are matched to them.
    board = _board("dimmed", colors=5)
    image, layout = render(board, "iphone-8", seed=1)
    fx, fy, fw, fh = layout.footer
    start = layout.swatches[0][0]
    image[fy : fy + fh, start:] = (image[fy : fy + fh, start:].astype(np.float32) * 0.45).astype(np.uint8)
    found = recognize(image, "dimmed")
    assert found.palette_doubt is None
    assert differing_cells(found.board, board) == []


def test_two_swatches_of_one_color_put_the_colors_in_doubt():
    board = _board("twins", colors=4)
    image, layout = render(board, "iphone-8", seed=1)
    (x0, y0, w0, h0), (x2, y2, w2, h2) = layout.swatches[0], layout.swatches[2]
    color = np.median(image[y0 + h0 // 2 : y0 + h0 - 4, x0 + 4 : x0 + w0 - 4].reshape(-1, 3), axis=0)
    image[y2 : y2 + h2, x2 : x2 + w2] = color.astype(np.uint8)
    found = recognize(image, "twins")
    assert found.palette_doubt is not None


def test_a_translucent_status_bar_over_the_boards_top_rows_is_undone():
    board = _board("status")
    image, _ = render(board, "android-1080p", seed=4, status_bar=NavBar("buttons", 0.06, 0.5))
    bars = find_bars(image)
    assert [bar.side for bar in bars] == ["top"]
    assert abs(bars[0].top - round(0.06 * image.shape[1])) <= 3 and bars[0].slope == pytest.approx(0.5, abs=0.04)
    found = recognize(image, "status bar")
    wrong = set(differing_cells(found.board, board))
    assert wrong <= set(found.uncertain)
    assert not {cell for cell in wrong if cell[0] >= 2}  # only the rows under the clock, if any


def test_an_icon_over_a_bar_is_told_from_the_game_under_it():
    """Under a bar letting 45 % of the light through, the game's brightest (a digit at 236)
    comes to 106; the bar's white icon stays white, brighter than anything of the game's
    could be there, and so does its fainter fringe joined to it."""
    from kamivision.vision.bar import Bar, overbright

    image = np.full((60, 120, 3), 32, np.uint8)
    image[20:40, 10:14] = 236  # a digit's stroke
    image = np.clip(image.astype(np.float32) * 0.45 + 0.5, 0, 255).astype(np.uint8)
    image[20:40, 60:63] = 255  # the icon's line...
    image[20:40, 63] = 120  # ...and its fringe: brighter than white once the bar is undone
    over = overbright(image, Bar(0, 0.45, (0.0, 0.0, 0.0)))
    assert over[20:40, 60:64].all() and not over[:, :55].any() and over.sum() == 80


def test_the_bars_first_rows_hold_no_icon():
    """Found a row above where it begins (blur and scaling soften its edge), a bar's first
    row still shows the game's white undimmed: undone, it is brighter than white.  It is
    no icon (icons lie well inside a bar), so a digit crossing the edge is not hidden."""
    from kamivision.vision.bar import Bar, overbright

    image = np.full((60, 120, 3), 32, np.uint8)
    image[10:30, 10:14] = 236  # a digit's stroke, crossing the bar's edge
    image[21:] = np.clip(image[21:].astype(np.float32) * 0.45 + 0.5, 0, 255).astype(np.uint8)
    image[40:50, 60:63] = 255  # an icon's line
    over = overbright(image, Bar(20, 0.45, (0.0, 0.0, 0.0)))  # the bar found at row 20, not 21
    assert not over[:, :55].any()
    assert over[40:50, 60:63].all()
