from pathlib import Path

import numpy as np
import pytest

from kamivision.board import board_from_dict, parse_board, read_board
from kamivision.errors import OutputExistsError
from kamivision.review import ReviewModel

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def model(text="aab\nbba\nabb", confidence=None):
    board = parse_board(text, lattice="square", palette=["#e3662c", "#1e4c54", "#e7dcc5"])
    return ReviewModel(board=board, confidence=confidence)


def test_a_tap_or_a_stroke_is_one_undo_step_and_undo_redo_restore_it():
    m = model()
    m.paint([0], 2)
    assert m.board.cells[0][0] == 2 and m.dirty
    m.paint([0, 1, 2], None)  # a stroke
    assert m.board.cells[0] == (None, None, None)
    assert m.undo() and m.board.cells[0] == (2, 0, 1)
    assert m.undo() and m.board.cells[0] == (0, 0, 1)
    assert not m.undo()
    assert m.redo() and m.board.cells[0][0] == 2
    m.paint([4], 0)  # a new edit drops the redo history
    assert not m.redo() and m.can_undo and not m.can_redo


def test_painting_a_cell_its_own_color_is_no_step():
    m = model()
    m.paint([0, 1], 0)
    assert not m.can_undo and not m.dirty


def test_fill_recolors_the_whole_region():
    m = model()
    m.fill_region(3, 2)  # (1, 0) is in the region of b's at (1,0),(1,1),(2,1),(2,2)
    assert [m.board.cells[r][c] for r, c in [(1, 0), (1, 1), (2, 1), (2, 2)]] == [2, 2, 2, 2]
    assert m.board.cells[0][2] == 1  # another region of b is untouched
    m.undo()
    assert m.board.cells[1][0] == 1


def test_colors_and_cells_off_the_board_are_refused_and_change_nothing():
    m = model()
    for cells, value, message in (
        ([0], 5, "not in the palette"),
        ([0], -1, "not in the palette"),
        ([0], True, "not in the palette"),
        ([0, 9], 1, "not on the board"),
        ([-1], 1, "not on the board"),
    ):
        with pytest.raises(ValueError, match=message):
            m.paint(cells, value)
    with pytest.raises(ValueError, match="not on the board"):
        m.fill_region(9, 1)
    assert m.board.cells[0] == (0, 0, 1) and not m.can_undo


def test_cells_below_the_threshold_are_uncertain():
    m = model(confidence=np.array([[0.1, 1, 1], [1, 1, 1], [1, 1, 1]]))
    assert m.uncertain(0) and not m.uncertain(1)
    assert not model().uncertain(0)  # no confidence given: every cell is sure


def test_saving_is_atomic_and_asks_before_replacing_a_file(tmp_path):
    m = model()
    target = tmp_path / "board.json"
    target.write_text("precious")
    assert m.needs_overwrite(target)
    with pytest.raises(OutputExistsError):
        m.save(target)
    assert target.read_text() == "precious"
    m.paint([0], 2)
    m.save(target, overwrite=True)
    assert read_board(target).cells[0][0] == 2 and not m.dirty
    assert not m.needs_overwrite(target)  # our own file: saving again needs no question


def test_one_stroke_over_many_cells_rebuilds_the_board_once(monkeypatch):
    """Issue 47, attack 8: the board was rebuilt for every cell of a stroke, so painting
    a 300 x 300 board in one request took 51 s of the server's time (and undo and redo as
    much again).  A stroke, its undo and its redo each rebuild it once; a cell met twice
    in one stroke is undone to its color before the stroke."""
    import kamivision.review.model as model_module

    rows = [[(r + c) % 3 for c in range(300)] for r in range(300)]
    board = board_from_dict(
        {
            "format": "kamivision.board/1",
            "lattice": "square",
            "rows": 300,
            "columns": 300,
            "palette": ["#aa0000", "#00aa00", "#0000aa"],
            "cells": rows,
        }
    )
    m = ReviewModel(board=board, confidence=np.ones((300, 300)))
    real, calls = model_module._rebuild, []
    monkeypatch.setattr(model_module, "_rebuild", lambda *a: calls.append(1) or real(*a))
    cells = list(range(300 * 300)) + [0, 1]
    m.paint(cells, 2)
    assert len(calls) == 1 and all(v == 2 for row in m.board.cells for v in row)
    m.undo()
    assert len(calls) == 2 and [list(r) for r in m.board.cells] == rows
    m.redo()
    assert len(calls) == 3 and m.color(1) == 2
