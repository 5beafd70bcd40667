from pathlib import Path

import numpy as np
import pytest

from kamivision.board import parse_board, read_board
from kamivision.errors import OutputExistsError
from kamivision.review import ReviewModel

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def model(text="aab\nbba\nabb", confidence=None):
    board = parse_board(text, lattice="square", palette=["#e3662c", "#1e4c54", "#e7dcc5"])
    return ReviewModel(board=board, confidence=confidence)


def test_color_keys_change_the_selected_cell_and_undo_redo_restore_it():
    m = model()
    m.select(0)
    m.set_color(2)
    assert m.board.cells[0][0] == 2 and m.dirty and m.brush == 2
    m.set_color(None)
    assert m.board.cells[0][0] is None
    assert m.undo() and m.board.cells[0][0] == 2
    assert m.undo() and m.board.cells[0][0] == 0
    assert not m.undo()
    assert m.redo() and m.board.cells[0][0] == 2
    m.set_color(1)  # a new edit drops the redo history
    assert not m.redo()


def test_a_click_selects_and_a_drag_paints_in_one_undo_step():
    m = model()
    m.brush = 2
    m.begin_stroke(4)
    m.end_stroke()
    assert m.board.cells[1][1] == 1 and not m.dirty  # a click changes nothing
    m.begin_stroke(0)
    m.paint(1)
    m.paint(2)
    m.end_stroke()
    assert m.board.cells[0] == (2, 2, 2)
    m.undo()
    assert m.board.cells[0] == (0, 0, 1)


def test_fill_recolors_the_whole_region():
    m = model()
    m.select(3)  # (1, 0) is in the region of b's at (1,0),(1,1),(2,1),(2,2)
    m.brush = 2
    m.fill_region()
    assert [m.board.cells[r][c] for r, c in [(1, 0), (1, 1), (2, 1), (2, 2)]] == [2, 2, 2, 2]
    assert m.board.cells[0][2] == 1  # another region of b is untouched
    m.undo()
    assert m.board.cells[1][0] == 1


def test_colors_outside_the_palette_are_refused():
    m = model()
    m.select(0)
    with pytest.raises(ValueError, match="not in the palette"):
        m.set_color(5)


def test_status_line_names_cell_color_and_confidence():
    m = model(confidence=np.array([[0.1, 1, 1], [1, 1, 1], [1, 1, 1]]))
    m.select(0)
    assert "cell (0,0): color 1 (orange), confidence 0.10" in m.status()
    assert m.uncertain(0) and not m.uncertain(1)


def test_saving_is_atomic_and_asks_before_replacing_a_file(tmp_path):
    m = model()
    target = tmp_path / "board.json"
    target.write_text("precious")
    assert m.needs_overwrite(target)
    with pytest.raises(OutputExistsError):
        m.save(target)
    assert target.read_text() == "precious"
    m.select(0)
    m.set_color(2)
    m.save(target, overwrite=True)
    assert read_board(target).cells[0][0] == 2 and not m.dirty
    assert not m.needs_overwrite(target)  # our own file: saving again needs no question
