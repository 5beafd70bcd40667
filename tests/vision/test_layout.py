"""Pieces of the layout finder checked on their own (the whole layout is checked on
rendered and random screens in test_reader.py and test_buttons.py)."""

from __future__ import annotations

import random
import warnings

import cv2
import numpy as np
import pytest

from kamivision.synth.render import render
from kamivision.vision.bar import cut_corners
from kamivision.vision.layout import find_layout
from kamivision.vision.pixels import channel_sum, group_medians, nan_median, norm3

from ..boards import random_kami_board


def test_nan_median_is_numpys_nanmedian_without_its_import():
    """Each column's median without the pixels cut out of the screenshot (NaN), 0 where
    all are: the same numbers as ``np.nanmedian`` on 2,000 random bands."""
    rng = np.random.default_rng(0)
    for _ in range(2000):
        rows, columns = int(rng.integers(1, 12)), int(rng.integers(1, 6))
        band = rng.normal(size=(rows, columns, 3)).astype(np.float32)
        band[rng.random((rows, columns)) < rng.random()] = np.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column
            expected = np.nan_to_num(np.nanmedian(band, axis=0), nan=0.0)
        assert np.allclose(nan_median(band), expected, atol=1e-6)


def test_group_medians_are_numpys_median_of_each_group_exactly():
    """The cells' medians, from one partition per group, are ``np.median``'s value for
    value on 2,000 random groupings: floats, ties, bytes (their mean in float64), NaNs
    (NaN for the group's column) and empty groups (NaN)."""
    rng = np.random.default_rng(2)
    for trial in range(2000):
        n, count, columns = int(rng.integers(0, 300)), int(rng.integers(1, 25)), int(rng.integers(1, 4))
        groups = rng.integers(0, count, n)
        kind = trial % 4
        if kind == 0:
            values = (rng.standard_normal((n, columns)) * 50).astype(np.float32)
        elif kind == 1:
            values = rng.integers(0, 4, (n, columns)).astype(np.float32)
        elif kind == 2:
            values = rng.integers(0, 256, (n, columns)).astype(np.uint8)
        else:
            values = (rng.standard_normal((n, columns)) * 1e3).astype(np.float32)
            values[rng.random((n, columns)) < 0.02] = np.nan
        expected = np.full((count, columns), np.nan, np.float32)
        for g in range(count):
            if (groups == g).any():
                expected[g] = np.median(values[groups == g], axis=0)
        assert np.array_equal(group_medians(values, groups, count), expected, equal_nan=True)
        if count > 1:  # groups from count on are left out
            assert np.array_equal(group_medians(values, groups, count - 1), expected[:-1], equal_nan=True)


def test_norm3_is_numpys_norm_exactly():
    """The distance of each pixel to its cell's median is ``np.linalg.norm``'s, bit for bit,
    at every scale a Lab difference takes and beyond."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        rows = int(rng.integers(0, 5000))
        diff = (rng.standard_normal((rows, 3)) * 10.0 ** rng.uniform(-3, 4)).astype(np.float32)
        diff[rng.random((rows, 3)) < 0.05] = 0.0
        assert np.array_equal(norm3(diff), np.linalg.norm(diff, axis=1))
        assert np.array_equal(norm3(diff.astype(np.float64)), np.linalg.norm(diff.astype(np.float64), axis=1))


def test_channel_sum_is_numpys_float_sum_exactly():
    """The layout's color steps, worked out in 16 bits, are the float sums they were."""
    rng = np.random.default_rng(1)
    for _ in range(50):
        shape = (int(rng.integers(1, 40)), 7, 3)
        a, b = (rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(2))
        if rng.random() < 0.5:
            b = a  # runs of no step at all
        expected = np.abs(a.astype(np.float32) - b.astype(np.float32)).sum(axis=2)
        assert np.array_equal(channel_sum(cv2.absdiff(a, b)), expected)
        assert np.array_equal(channel_sum(cv2.absdiff(a, b).astype(np.float32)), expected)


def test_a_bars_edge_across_the_footer_does_not_end_it():
    """A 2 x 2 footer (rows 1418-1724 of an 834-pixel-wide screen) with a translucent
    bar's edge across its lower half at row 1646: undone, the edge is a four-row line
    less dark than the footer, between two dark bands.  The footer is both bands (its
    lower part alone, 76 rows, is too low for one); ending it at the line cut the lower
    buttons, and the counter's digits, in half."""
    from kamivision.vision.layout import _lowest_footer

    dark = np.zeros(1724)
    dark[1418:1644] = dark[1648:] = 0.88
    dark[1644:1648] = 0.59
    assert _lowest_footer([1418, 1644, 1648, 1724], dark, 834) == (1418, 1724)
    dark[1420:1640] = 0.0  # what is above the line is not the footer's: it ends there
    assert _lowest_footer([1418, 1644, 1648, 1724], dark, 834) is None


@pytest.mark.parametrize("device", ["iphone-8", "iphone-x"])
def test_an_outlined_icon_over_each_swatch_leaves_the_palette_found(device):
    """A system bar's square icon, in outline, drawn over the middle of every swatch (a
    translucent bar over the whole footer, its top on the footer's): its strokes are no
    swatch edges (before, the 2 x 2 footer was refused: "no KAMI palette")."""
    board = random_kami_board(random.Random(3), 3, False)
    image, drawn = render(board, device, seed=3, moves=9)
    image = image.copy()
    for x, y, w, h in drawn.swatches:
        cx, cy, r = x + w // 2, y + h // 2, h // 6
        cv2.rectangle(image, (cx - r, cy - r), (cx + r, cy + r), (250, 250, 250), 3, cv2.LINE_AA)
    layout = find_layout(image, "shot", cut_corners(image))
    assert len(layout.swatches) == 3
    assert abs(layout.swatches[0][0] - drawn.swatches[0][0]) <= 3
