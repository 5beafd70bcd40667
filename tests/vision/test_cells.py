import random

import cv2

from kamivision.board import differing_cells
from kamivision.geometry import cell_centre
from kamivision.render import render
from kamivision.vision import recognize

from ..boards import INK, random_kami_board, write_digit

def test_ink_marks_are_read_through_or_flagged():
    """Numbers inked over cells (the six tall screenshots have them): each marked cell is
    read right or listed as uncertain, and the unmarked cells are all read right."""
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        board = random_kami_board(rng, 4, blank_outline=seed == 1, par=5)
        image, layout = render(board, "iphone-8", seed=seed)
        image = image.copy()
        column = layout.board[2] / 10
        marked = []
        for _ in range(16):
            r, c = rng.randrange(2, 27), rng.randrange(10)
            x, y = cell_centre("triangle", 29, 10, r, c, layout.board)
            write_digit(image, x, y, 0.8 * column, str(rng.randrange(1, 20)))
            marked.append((r, c))
        found = recognize(image)
        wrong = set(differing_cells(found.board, board))
        assert wrong <= set(found.uncertain), f"silently wrong: {sorted(wrong - set(found.uncertain))}"
        near = {(r + dr, c + dc) for r, c in marked for dr in range(-2, 3) for dc in (-1, 0, 1)}
        assert wrong <= near  # the ink spills over into the cells around the marked one
        checked += len(marked)
    assert checked == 48


def test_a_cell_mostly_covered_by_marks_is_uncertain():
    board = random_kami_board(random.Random(8), 3, blank_outline=False, par=4)
    image, layout = render(board, "iphone-8", seed=1)
    image = image.copy()
    x0, y0, bw, bh = layout.board
    x, y = cell_centre("triangle", 29, 10, 12, 4, layout.board)
    cv2.circle(image, (round(x), round(y)), round(0.3 * bw / 10), INK, -1, cv2.LINE_AA)  # a blot over the cell
    found = recognize(image)
    assert (12, 4) in found.uncertain
    assert set(differing_cells(found.board, board)) <= set(found.uncertain)


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
