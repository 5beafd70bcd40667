"""The board's colors from its cells alone: as many as there are, one color's shading
never split in two."""

from __future__ import annotations

import numpy as np

from kamivision.vision.palette import SPLIT, cluster_palette

WEIGHTS = np.array([0.7, 1.0, 1.0])


def _cells(colors, n, rng, shading=4.0):
    return np.vstack([np.asarray(c, float) + rng.normal(0, shading, (n, 3)) for c in colors])


def test_every_color_is_found_and_the_commonest_comes_first():
    rng = np.random.default_rng(0)
    colors = [(30, 5, 5), (60, 50, 30), (45, -10, -35), (85, 2, 40), (55, 40, -25)]
    points = np.vstack([_cells(colors[:1], 80, rng), _cells(colors[1:], 30, rng)])
    match = cluster_palette(points, WEIGHTS)
    assert len(match.seeds) == 5
    assert np.linalg.norm(match.seeds[0] - colors[0]) < 3
    assert match.doubt is None


def test_one_color_with_strong_shading_stays_one():
    rng = np.random.default_rng(1)
    base = np.array([50.0, 30.0, 20.0])
    ramp = np.linspace(-8, 8, 120)[:, None] * np.array([1.0, 0.3, 0.2])  # a fold's light across the board
    match = cluster_palette(base + ramp + rng.normal(0, 2, (120, 3)), WEIGHTS)
    assert len(match.seeds) == 1


def test_two_colors_close_to_the_limit_are_two_and_doubtful():
    rng = np.random.default_rng(2)
    a = np.array([50.0, 0.0, 0.0])
    b = a + np.array([0.0, 1.1 * SPLIT, 0.0])
    match = cluster_palette(_cells([a, b], 60, rng, shading=1.0), WEIGHTS)
    assert len(match.seeds) == 2
    assert match.doubt is not None


def test_a_few_stray_points_do_not_drag_a_swatch_off_its_color():
    """Twenty blank cells whose grain a coarse JPEG made look like paper's, among 215 paper
    cells of which a teal only 15: before they were left out of the seeded fit they pulled
    the teal's cluster off its swatch, and the palette was matched through a map instead
    (which merged two colors on a real screen).  The swatches are kept; the twenty are strays."""
    from kamivision.vision.palette import match_palette

    rng = np.random.default_rng(3)
    swatches = np.array(
        [[39.3, 43.3, 21.0], [16.6, -0.1, 3.6], [60.0, -31.7, 14.8], [72.0, -41.2, -1.9], [36.4, 24.3, -24.0]]
    )
    paper = np.vstack([_cells(swatches[[0, 1, 2, 4]], 50, rng, 2.0), _cells(swatches[[3]], 15, rng, 2.0)])
    background = np.array([91.3, 1.9, 4.5]) + rng.normal(0, 0.3, (20, 3))
    match = match_palette(np.vstack([paper, background]), swatches, np.zeros((5, 3)), WEIGHTS)
    assert not match.mapped and match.doubt is None
    assert np.allclose(match.seeds, swatches)
    assert set(match.stray) == set(range(215, 235))


def test_a_few_background_cells_that_look_like_paper_are_no_color_of_a_board_alone():
    """A board alone with 120 blank cells, five of which a coarse JPEG gave paper's grain:
    they cluster into a pale "color" that the many flat cells beside it show to be the
    background (two boards of the random crops lost every blank cell to it)."""
    rng = np.random.default_rng(6)
    colors = [(72.0, -41.0, -2.0), (40.0, 45.0, 22.0), (30.0, -15.0, -10.0)]
    background = np.array([91.0, 1.0, 4.0])
    points = np.vstack([_cells(colors, 50, rng, 2.0), background + rng.normal(0, 0.5, (5, 3))])
    flat = background + rng.normal(0, 0.8, (115, 3))
    assert len(cluster_palette(points, WEIGHTS).seeds) == 4  # without the flat cells, the background is a color
    match = cluster_palette(points, WEIGHTS, flat)
    assert len(match.seeds) == 3
    assert min(np.linalg.norm(match.seeds - background, axis=1)) > 30


def test_paper_the_color_of_the_background_stays_a_color():
    """A level whose cream paper is the background's color: as many flat (blank) cells
    lie near the cream as cream cells of paper.  Read from the cells alone, the cream is
    still a color (it was dropped as the background when the flat cells outnumbered the
    paper ones by one, and every cream cell read blank); a background a few of whose cells
    JPEG gave grain is still no color."""
    rng = np.random.default_rng(5)
    cream, blue, background = (88.5, 0.0, 12.6), (45.4, 0.4, -34.8), (90.0, 2.0, 8.0)
    points = np.vstack([_cells([cream], 63, rng, shading=1.5), _cells([blue], 60, rng, shading=1.5)])
    flat = _cells([background], 64, rng, shading=1.0)
    assert len(cluster_palette(points, WEIGHTS, flat).seeds) == 2
    grainy = np.vstack([_cells([blue], 60, rng, shading=1.5), _cells([background], 6, rng, shading=1.0)])
    assert len(cluster_palette(grainy, WEIGHTS, _cells([background], 100, rng, shading=1.0)).seeds) == 1
