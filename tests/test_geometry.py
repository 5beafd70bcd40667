import math

import numpy as np
import pytest

from kamivision.board import points_right
from kamivision.geometry import (
    TRIANGLE_ASPECT,
    cell_centre,
    cell_polygon,
    label_image,
    triangle_centres,
    triangle_corners,
)

W = 600.0
BOX = (0.0, 0.0, W, W * TRIANGLE_ASPECT)


def test_centroid_matches_the_spec_geometry():
    x, y = cell_centre("triangle", 29, 10, 0, 0, BOX)
    assert x == pytest.approx(30 - 10) and y == 0.0
    x, y = cell_centre("triangle", 29, 10, 3, 0, BOX)  # points left: centroid right of centre
    assert x == pytest.approx(30 + 10) and y == pytest.approx(3 * BOX[3] / 28)


def test_the_centre_is_the_mean_of_the_corners_and_the_array_form_agrees():
    rows, cols = np.meshgrid(np.arange(29), np.arange(10), indexing="ij")
    box = (5.0, 7.0, W, W * TRIANGLE_ASPECT)
    xs, ys = triangle_centres(rows, cols, box)
    for r in range(29):
        for c in range(10):
            corners = cell_polygon("triangle", 29, 10, r, c, box)
            assert np.allclose(corners.mean(axis=0), cell_centre("triangle", 29, 10, r, c, box))
            assert np.allclose((xs[r, c], ys[r, c]), corners.mean(axis=0))


def test_triangles_are_equilateral_with_their_vertical_edge_first():
    for r, c in [(0, 0), (1, 0), (14, 5), (28, 9)]:
        a, b, tip = cell_polygon("triangle", 29, 10, r, c, BOX)
        assert a[0] == b[0] and b[1] - a[1] == pytest.approx(BOX[3] / 14)
        assert math.dist(a, tip) == pytest.approx(math.dist(b, tip)) == pytest.approx(BOX[3] / 14)
        assert (tip[0] > a[0]) == points_right(r, c)


def test_square_cells_tile_the_box():
    box = (10.0, 20.0, 300.0, 200.0)
    corners = cell_polygon("square", 4, 6, 3, 5, box)
    assert corners.tolist() == [[260.0, 170.0], [310.0, 170.0], [310.0, 220.0], [260.0, 220.0]]
    assert cell_centre("square", 4, 6, 0, 0, box) == (35.0, 45.0)


def test_the_label_image_covers_the_board_and_names_each_cell():
    h, w = round(BOX[3]), round(BOX[2])
    labels = label_image("triangle", 29, 10, BOX, (h, w))
    assert set(np.unique(labels).tolist()) == set(range(290))  # every pixel of the box is a cell
    for r, c in [(5, 3), (20, 8)]:
        x, y = cell_centre("triangle", 29, 10, r, c, BOX)
        assert labels[round(y), round(x)] == r * 10 + c
    # Above a board that starts 40 px down, (x 45, y 0) lies in the hidden row -1, column 0:
    # drawn as cell (0, 0) when asked for, else outside the board.
    low = (0.0, 40.0, W, W * TRIANGLE_ASPECT)
    assert label_image("triangle", 29, 10, low, (h + 80, w), hidden=True)[0, 45] == 0
    assert label_image("triangle", 29, 10, low, (h + 80, w))[0, 45] == -1


def test_triangle_corners_are_cell_polygon_for_arrays():
    box = (3.0, 7.0, 750.0, 750.0 * TRIANGLE_ASPECT)
    rows, cols = np.meshgrid(np.arange(-1, 30), np.arange(10), indexing="ij")
    corners = triangle_corners(rows, cols, box)
    for k, (r, c) in enumerate(zip(rows.ravel(), cols.ravel())):
        assert np.allclose(corners[:, k, :], cell_polygon("triangle", 29, 10, int(r), int(c), box))
