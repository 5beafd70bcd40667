import dataclasses
import random

import cv2
import numpy as np
import pytest

from kamivision.board import differing_cells
from kamivision.geometry import cell_centre
from kamivision.synth.covers import INKS
from kamivision.synth.render import render
from kamivision.vision import recognize
from kamivision.vision.cells import classify_cells, sample_cells, swatch_colors
from kamivision.vision.layout import find_layout
from kamivision.vision.settings import DEFAULT_SETTINGS

from ..boards import random_kami_board


def test_ink_marks_are_read_through_or_flagged():
    """Numbers inked over cells (the six tall screenshots have them): each marked cell is
    read right or listed as uncertain, and the unmarked cells are all read right."""
    rng = random.Random(5)
    checked = 0
    for seed, device in enumerate(["iphone-8", "iphone-x", "android-tall", "tablet-4x3"]):
        board = random_kami_board(rng, 4, blank_outline=seed % 2 == 1, par=5)
        image, layout = render(board, device, seed=seed, ink=16)
        marked = layout.inked
        found = recognize(image)
        wrong = set(differing_cells(found.board, board))
        assert wrong <= set(found.uncertain), f"silently wrong: {sorted(wrong - set(found.uncertain))}"
        near = {(r + dr, c + dc) for r, c in marked for dr in range(-2, 3) for dc in (-1, 0, 1)}
        assert wrong <= near  # the ink spills over into the cells around the marked one
        checked += len(marked)
    assert checked >= 56


def test_a_pale_paper_clipped_by_a_brightened_shot_is_never_silently_blank():
    """A shot brightened by 20 levels (an editor's or a sharing app's) clips a cream
    paper's highlight at 255, which flattens its grain: the reader took such cells for the
    background, with confidence.  Read as blank, a clipped cell is now doubtful."""
    cream = ("#3a5a73", "#c5455e", "#3297a3", "#e7decd")
    wrong = 0
    for seed in range(2):
        board = dataclasses.replace(random_kami_board(random.Random(seed), 4, blank_outline=True), palette=cream)
        image, _ = render(board, "iphone-8", seed=seed)
        rec = recognize(np.clip(image.astype(np.int16) + 20, 0, 255).astype(np.uint8), "brightened")
        cells = set(differing_cells(rec.board, board))
        assert rec.palette_doubt is None and cells <= set(rec.uncertain)
        wrong += len(cells)
    assert wrong  # the case is met: some cells are misread, all of them flagged


def test_a_cell_mostly_covered_by_marks_is_uncertain():
    board = random_kami_board(random.Random(8), 3, blank_outline=False, par=4)
    image, layout = render(board, "iphone-8", seed=1)
    image = image.copy()
    x0, y0, bw, bh = layout.board
    x, y = cell_centre("triangle", 29, 10, 12, 4, layout.board)
    cv2.circle(image, (round(x), round(y)), round(0.3 * bw / 10), INKS[0], -1, cv2.LINE_AA)  # a blot over the cell
    found = recognize(image)
    assert (12, 4) in found.uncertain
    assert set(differing_cells(found.board, board)) <= set(found.uncertain)


def test_flat_blots_over_a_board_with_blanks_are_never_read_as_blank_with_confidence():
    """Pale blots of ink that cover a cell's sampled middle look like the flat, pale
    background; several of them must not bend the background's surface to meet them (they
    would pass for blank cells, confidently)."""
    rng = random.Random(11)
    blotted = 0
    for seed in range(6):
        board = random_kami_board(rng, 4, blank_outline=True, par=5)
        image, layout = render(board, "iphone-8", seed=seed)
        image = image.copy()
        cells = [(rng.randrange(3, 26), rng.randrange(2, 8)) for _ in range(4)]
        for r, c in cells:
            x, y = cell_centre("triangle", 29, 10, r, c, layout.board)
            cv2.circle(image, (round(x), round(y)), round(0.3 * layout.board[2] / 10), (150, 200, 240), -1, cv2.LINE_AA)
        found = recognize(image)
        wrong = set(differing_cells(found.board, board))
        assert wrong <= set(found.uncertain), f"board {seed}: silently wrong {sorted(wrong - set(found.uncertain))}"
        blotted += len(set(cells) & wrong)
    assert blotted >= 12  # the blots hide the cells they cover: the test is not vacuous


def test_a_cell_under_a_blot_is_read_from_the_paper_that_still_shows():
    """A blot over most of a cell, its paper showing at the cell's corners: read as that
    paper's color (and flagged), not as the blot's nearest class."""
    rng = random.Random(21)
    for seed in range(4):
        board = random_kami_board(rng, 4, blank_outline=True, par=5)
        image, layout = render(board, "iphone-8", seed=seed)
        image = image.copy()
        r, c = rng.randrange(3, 26), rng.randrange(2, 8)
        x, y = cell_centre("triangle", 29, 10, r, c, layout.board)
        cv2.circle(image, (round(x), round(y)), round(0.22 * layout.board[2] / 10), (150, 200, 240), -1, cv2.LINE_AA)
        found = recognize(image)
        assert (r, c) in found.uncertain
        assert (r, c) not in set(differing_cells(found.board, board)), f"board {seed}: cell {(r, c)} misread"


def test_a_board_cropped_at_the_sides_flags_its_hidden_cells():
    """On a tall Android screen the board is wider than the screen: the cells of columns 0
    and 9 that show less than a quarter of themselves are hidden, listed as uncertain, and
    every other cell is read right."""
    board = random_kami_board(random.Random(9), 4, blank_outline=False, par=6)
    image, _ = render(board, "android-tall", seed=4)
    found = recognize(image)
    assert len(found.hidden) == 30
    assert {c for _, c in found.hidden} == {0, 9}
    assert set(found.hidden) <= set(found.uncertain)
    assert set(differing_cells(found.board, board)) <= set(found.hidden)
    assert (found.visible[1:28, 1:9] > 0.9).all() and found.visible.min() < 0.1  # rows 0 and 28 show half


def test_a_translucent_navigation_bar_does_not_darken_the_palette_or_hide_the_counter():
    board = random_kami_board(random.Random(10), 5, blank_outline=False, par=7)
    image, layout = render(board, "android-2280-nav", seed=2)
    found = recognize(image)
    assert found.layout.shade[1] < 0.6  # the bar was seen
    assert found.board.par == 7
    drawn = render(board, "iphone-8", seed=2)[0]  # the same palette, with nothing over it
    expected = recognize(drawn).board.palette
    for ours, theirs in zip(found.board.palette, expected):
        a, b = (np.array([int(h[i : i + 2], 16) for i in (1, 3, 5)]) for h in (ours, theirs))
        assert np.abs(a - b).max() <= 12, (ours, theirs)
    assert set(differing_cells(found.board, board)) <= set(found.hidden)


def test_a_letterboxed_tablet_board_is_measured_from_its_lattice():
    board = random_kami_board(random.Random(11), 4, blank_outline=True, par=6)
    image, layout = render(board, "tablet-4x3", seed=3)
    found = recognize(image)
    x, _, w, _ = found.layout.board
    assert abs(w - layout.board[2]) < 0.01 * w and abs(x - layout.board[0]) < 0.01 * w
    assert not found.uncertain and differing_cells(found.board, board) == []


@pytest.mark.parametrize("share, strip", [(0.965, 0.05), (0.985, 0.07)])
def test_a_letterbox_too_thin_for_its_margins_to_show_is_measured(share, strip):
    """A board 96.5 % of the width (margins thinner than the gap beside the board's edge
    that the margin check leaves out), and one 98.5 % under a status strip, whose height to
    the footer tells it: read as letterboxes, not stretched to the screen's width."""
    from kamivision.geometry import TRIANGLE_ASPECT
    from kamivision.synth.screens import Device

    board = random_kami_board(random.Random(12), 4, blank_outline=True, par=6)
    device = Device(
        "thin", 750, 1400, "classic", strip, strip + TRIANGLE_ASPECT * share, None, 0.4, "", share, strip="black"
    )
    image, layout = render(board, device, seed=4)
    found = recognize(image)
    x, _, w, _ = found.layout.board
    assert abs(w - layout.board[2]) < 0.01 * w and abs(x - layout.board[0]) < 0.01 * w
    assert not set(differing_cells(found.board, board)) - set(found.uncertain)
    assert len(differing_cells(found.board, board)) <= 1


def test_a_lone_cell_unlike_its_agreeing_neighbors_needs_a_wider_margin():
    from kamivision.vision.cells import _isolated

    classes = np.zeros(290, np.int64)
    classes[12 * 10 + 4] = 2  # one triangle of another color inside a region
    classes[20 * 10 + 4] = classes[21 * 10 + 4] = 1  # a pair of them is a region, not a lone cell
    lone = _isolated(classes)
    assert np.flatnonzero(lone).tolist() == [124]


def test_a_cell_measured_over_few_pixels_has_less_confidence():
    """The half cells of rows 0 and 28 on a small screenshot are a few dozen pixels: their
    medians are weak evidence, and their confidence says so in proportion."""
    board = random_kami_board(random.Random(11), 3, True)
    image, _ = render(board, "iphone-8", seed=11)
    layout = find_layout(image, "shot")
    samples = sample_cells(image, layout)
    swatches, _ = swatch_colors(image, layout)
    full = classify_cells(samples, swatches)
    assert samples.pixels is not None and samples.pixels[150] >= DEFAULT_SETTINGS.min_pixels
    few = samples.pixels.copy()
    few[150] = DEFAULT_SETTINGS.min_pixels // 4
    weak = classify_cells(dataclasses.replace(samples, pixels=few), swatches)
    assert weak.confidence[150] == pytest.approx(full.confidence[150] / 4, rel=1e-5)
    assert np.array_equal(np.delete(weak.confidence, 150), np.delete(full.confidence, 150))


def test_a_cell_whose_color_and_grain_disagree_on_blank_is_doubtful():
    """A smooth pale cell with the grain of paper (JPEG blocks on the background), beside a
    cream paper close to the background's color: the color says blank, the grain says
    paper, and the cell is flagged rather than read as cream with confidence (it was, at
    0.37, before the two were compared)."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(4)
    n = 290
    blank = np.arange(n) % 10 < 4  # four columns of background, six of paper
    lab = np.where(blank[:, None], [89.9, 3.9, -1.2], [88.9, 0.2, 13.1]) + rng.normal(0, 0.6, (n, 3))
    lab[200:] = np.where(blank[200:, None], lab[200:], [45.0, 40.0, 25.0] + rng.normal(0, 0.6, (90, 3)))
    grain = np.where(blank, 0.1, 1.0) * rng.uniform(0.8, 1.2, n)
    odd = 123  # row 12, column 3: background beside the cream of column 4
    lab[odd], grain[odd] = [91.2, 1.3, 3.8], 1.29
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    classes = classify_cells(samples, np.array([[88.9, 0.2, 13.1], [45.0, 40.0, 25.0]], np.float32))
    others = blank & (np.arange(n) != odd)
    assert (classes.classes[others] == BLANK_CLASS).all()
    assert (classes.confidence[others] >= DEFAULT_SETTINGS.uncertain).mean() > 0.9
    assert classes.confidence[odd] < DEFAULT_SETTINGS.uncertain
    assert classes.classes[odd] == BLANK_CLASS  # read by its color, flagged


def test_a_board_with_no_blank_cell_reads_none_however_smooth_its_pale_paper():
    """No cell starts near the pale seed: k-means moved that empty class onto the lighter,
    smoother half of a yellow paper split by its shading, which then passed for the
    background (67 confident blank cells here before the rule)."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(7)
    n = 290
    yellow = np.arange(n) < 180
    light = yellow & (rng.random(n) < 0.4)
    lab = np.where(yellow[:, None], [88.0, -2.5, 43.0], [55.0, -20.0, 10.0]) + rng.normal(0, 0.8, (n, 3))
    lab[light] += [6.0, -3.5, 0.0]
    grain = np.where(light, 0.35, 1.0) * rng.uniform(0.7, 1.3, n)
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    classes = classify_cells(samples, np.array([[88.0, -2.5, 43.0], [55.0, -20.0, 10.0]], np.float32))
    assert not (classes.classes == BLANK_CLASS).any()
    assert (classes.classes[yellow] == 0).all()


def test_a_cream_paper_with_smooth_cells_is_not_the_background():
    """A board with no blank cell, mostly cream, on a small coarse shot: its smoother cells
    start near the pale seed, but their color is the cream's (39 confident blank cells here
    before the pale class had to lie apart from every paper color)."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(9)
    n = 290
    cream = np.arange(n) < 190
    lab = np.where(cream[:, None], [89.4, 0.1, 13.3], [72.5, -41.2, -2.6]) + rng.normal(0, 0.8, (n, 3))
    grain = np.where(cream, rng.uniform(0.2, 1.1, n), rng.uniform(0.7, 1.5, n))
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    classes = classify_cells(samples, np.array([[89.4, 0.1, 13.3], [72.5, -41.2, -2.6]], np.float32))
    assert not (classes.classes == BLANK_CLASS).any()


def test_a_background_near_a_cream_paper_but_flat_is_the_background():
    """The reverse case: a background whose gradient lies 4.8 Lab units from a cream paper
    (a render's), its cells flat (grain 0.02-0.2) where the cream's have paper's grain.
    All 80 blank cells were read as cream, with confidence, before a flat enough pale
    class was kept as the background however near a paper it lies."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(6)
    n = 290
    blank, cream = np.arange(n) < 80, (np.arange(n) >= 80) & (np.arange(n) < 160)
    lab = np.where(blank[:, None], [92.8, -1.7, 6.2], np.where(cream[:, None], [89.8, 0.2, 9.4], [36.2, -4.1, -17.7]))
    lab = lab + rng.normal(0, 0.5, (n, 3))
    grain = np.where(blank, rng.uniform(0.02, 0.2, n), rng.uniform(0.8, 1.2, n))
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    classes = classify_cells(samples, np.array([[89.8, 0.2, 9.4], [36.2, -4.1, -17.7]], np.float32))
    assert (classes.classes[blank] == BLANK_CLASS).all()
    assert (classes.classes[cream] == 0).all() and (classes.classes[~blank & ~cream] == 1).all()


def test_a_pale_class_near_a_paper_and_read_as_it_is_doubtful():
    """As above, but the background's cells less flat (grain 0.12-0.3: cells cut by the
    strip), so the pale class passes for the cream's smoother cells and is read as cream:
    never with confidence (26 blank cells of a render were, before)."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(7)
    n = 290
    blank, cream = np.arange(n) < 30, (np.arange(n) >= 30) & (np.arange(n) < 110)
    lab = np.where(blank[:, None], [91.6, -1.0, 3.9], np.where(cream[:, None], [89.8, -0.1, 9.2], [36.2, -4.1, -17.7]))
    lab = lab + rng.normal(0, 0.5, (n, 3))
    grain = np.where(blank, rng.uniform(0.12, 0.3, n), rng.uniform(0.8, 1.2, n))
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    classes = classify_cells(samples, np.array([[89.8, -0.1, 9.2], [36.2, -4.1, -17.7]], np.float32))
    misread = blank & (classes.classes != BLANK_CLASS)
    assert misread.any() and (classes.confidence[misread] == 0).all()
    assert (classes.confidence[cream] > 0.2).all()  # the cream's own cells stay confident


def test_where_the_background_reaches_a_papers_color_a_middling_grain_is_doubt():
    """The background's gradient rises to a cream's hue at one side of the board; there a
    lighter cream cell with a grain half-way between paper's and the background's was read
    as blank at confidence 0.29.  Only grain can tell them apart there, and it cannot: the
    cell is doubtful, while the rest of the background stays confident."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(5)
    n = 290
    col, row = np.arange(n) % 10, np.arange(n) // 10
    blank = col < 5
    gradient = np.column_stack([91 + 0.5 * col, 0 * col, 1.0 + 2.6 * col])
    lab = np.where(blank[:, None], gradient, [88.9, 0.2, 12.2]) + rng.normal(0, 0.5, (n, 3))
    low = (row >= 22) & ~blank
    lab[low] = [40.0, 25.0, -24.0] + rng.normal(0, 0.5, (int(low.sum()), 3))
    grain = np.where(blank, 0.03, 1.0) * rng.uniform(0.8, 1.2, n)
    odd = 135  # row 13, column 5
    lab[odd], grain[odd] = [96.0, -1.0, 12.5], 0.42
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    classes = classify_cells(samples, np.array([[88.9, 0.2, 12.2], [40.0, 25.0, -24.0]], np.float32))
    assert classes.confidence[odd] < DEFAULT_SETTINGS.uncertain
    assert (classes.classes[blank] == BLANK_CLASS).all()
    assert np.percentile(classes.confidence[blank], 10) > 0.5


def test_blank_cells_far_from_the_other_blanks_are_never_read_as_paper_with_confidence():
    """The blank cells lie in the two top rows and in one corner at the foot, where the
    gradient has turned from lilac to mint and the cells' grain is raised (0.44-0.54).
    The background was fitted as a surface through the top rows alone, whose slope
    between the two rows took it far off at the foot (its grain below zero): the six cells
    there were read as the cream paper with confidence 0.35-0.53 (a render's)."""
    from kamivision.vision.cells import BLANK_CLASS, CellSamples

    rng = np.random.default_rng(8)
    n = 290
    row, col = np.arange(n) // 10, np.arange(n) % 10
    top, foot = row < 2, (row >= 26) & (col >= 8)
    cream, red = ~top & ~foot & (col % 3 == 0), ~top & ~foot & (col % 3 == 1)
    lab = np.select(
        [top[:, None], foot[:, None], cream[:, None], red[:, None]],
        [[91.1, 0.6, -3.4], [93.3, -5.6, 4.0], [91.3, -0.2, 9.4], [46.0, 48.1, 13.8]],
        [56.6, -19.5, -13.5],
    )
    lab = lab + rng.normal(0, 0.4, (n, 3))
    grain = np.where(top, np.where(row == 0, 0.28, 0.12), np.where(foot, 0.49, 0.95)) + rng.uniform(-0.05, 0.05, n)
    samples = CellSamples(
        lab.astype(np.float32), grain.astype(np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), 0.0
    )
    swatches = np.array([[91.3, -0.2, 9.4], [46.0, 48.1, 13.8], [56.6, -19.5, -13.5]], np.float32)
    classes = classify_cells(samples, swatches)
    misread = foot & (classes.classes != BLANK_CLASS)
    assert (classes.confidence[misread] < DEFAULT_SETTINGS.uncertain).all()
    assert (classes.classes[top] == BLANK_CLASS).all()
    assert (classes.classes[cream] == 0).all() and (classes.confidence[cream] > 0.2).all()
