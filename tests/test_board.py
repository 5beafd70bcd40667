import json

import pytest

from kamivision.board import (
    Board,
    Move,
    board_from_dict,
    dump_board,
    lattice_neighbors,
    make_board,
    parse_board,
    read_board,
    write_board,
)
from kamivision.errors import BoardFileError, InvalidMoveError, OutputExistsError

from .conftest import shared_path


def board_obj(**changes):
    obj = {
        "format": "kamivision.board/1",
        "lattice": "triangle",
        "rows": 2,
        "columns": 3,
        "palette": ["#112233", "#445566"],
        "cells": [[0, 1, None], [1, 1, 0]],
        "par": 2,
    }
    obj.update(changes)
    return obj


def test_triangle_neighbors_follow_the_spec():
    # (0,0) points right: neighbors (1,0) below and nothing on the left.
    assert sorted(lattice_neighbors("triangle", 3, 4, 0)) == [4]
    # (1,1) has r+c even: points right, so (0,1), (2,1) and (1,0).
    assert sorted(lattice_neighbors("triangle", 3, 4, 5)) == [1, 4, 9]
    # (1,2) points left: (0,2), (2,2) and (1,3).
    assert sorted(lattice_neighbors("triangle", 3, 4, 6)) == [2, 7, 10]


def test_square_neighbors():
    assert sorted(lattice_neighbors("square", 3, 3, 4)) == [1, 3, 5, 7]
    assert sorted(lattice_neighbors("square", 3, 3, 0)) == [1, 3]


def test_neighbors_are_symmetric_on_both_lattices():
    for lattice in ("triangle", "square"):
        for cell in range(29 * 10):
            for n in lattice_neighbors(lattice, 29, 10, cell):
                assert cell in lattice_neighbors(lattice, 29, 10, n)


def test_round_trip_through_a_file(tmp_path):
    board = board_from_dict(board_obj(name="t", source={"image": [1, 2]}))
    path = write_board(board, tmp_path / "b.json")
    again = read_board(path)
    assert again == board
    assert again.extra == {"source": {"image": [1, 2]}}
    assert json.loads(dump_board(board))["cells"] == [[0, 1, None], [1, 1, 0]]


def test_write_never_overwrites_unless_asked(tmp_path):
    board = board_from_dict(board_obj())
    path = tmp_path / "b.json"
    path.write_text("precious")
    with pytest.raises(OutputExistsError, match="already exists"):
        write_board(board, path)
    assert path.read_text() == "precious"
    write_board(board, path, overwrite=True)
    assert read_board(path) == board
    assert [p.name for p in tmp_path.iterdir()] == ["b.json"]  # no temporary left behind


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"format": "kami/2"}, "format is 'kami/2'"),
        ({"lattice": "hex"}, "unknown lattice 'hex'"),
        ({"rows": 0}, "rows is 0"),
        ({"cells": [[0, 1, None], [1, 1]]}, "row 1 has 2 cells, expected 3"),
        ({"cells": [[0, 1, None]]}, "cells has 1 rows, expected 2"),
        ({"cells": [[0, 1, None], [1, 2, 0]]}, r"cell \(1, 1\) has color 2, outside the 2-color palette"),
        ({"cells": [[0, "x", None], [1, 1, 0]]}, r"cell \(0, 1\) is 'x'"),
        ({"cells": [[None] * 3, [None] * 3]}, "the board is empty"),
        ({"palette": ["red"]}, "palette entry 0 is 'red'"),
        ({"rules": "chess"}, "unknown rules 'chess'"),
        ({"par": -1}, "par is -1"),
        ({"rules": "pivot", "pivot": [0, 2]}, r"pivot \[0, 2\] is a blank cell"),
        ({"pivot": [5, 0]}, r"pivot \[5, 0\] is off the 2x3 board"),
    ],
)
def test_bad_boards_name_the_problem(changes, message):
    with pytest.raises(BoardFileError, match=f"^in.json: {message}"):
        board_from_dict(board_obj(**changes), "in.json")


def test_an_object_without_a_format_is_said_to_be_no_board_file():
    obj = board_obj()
    del obj["format"]
    with pytest.raises(
        BoardFileError, match="^in.json: no \"format\" field, expected 'kamivision.board/1' \\(not a board file\\?\\)$"
    ):
        board_from_dict(obj, "in.json")


def test_bad_files_name_the_file(tmp_path):
    with pytest.raises(BoardFileError, match="no such file"):
        read_board(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BoardFileError, match=r"bad.json: not JSON"):
        read_board(bad)
    with pytest.raises(BoardFileError, match="is a folder"):
        read_board(tmp_path)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BoardFileError, match="not a text file"):
        read_board(binary)
    array = tmp_path / "array.json"
    array.write_text("[]")
    with pytest.raises(BoardFileError, match="expected a JSON object, found list"):
        read_board(array)


def test_apply_recolors_the_connected_region_only():
    board = parse_board("aab\nbaa", lattice="square")
    after = board.apply(Move(0, 0, 1))
    assert str(after) == "bbb\nbbb"
    assert after.is_solved()
    tri = parse_board("ab\nba", lattice="triangle")
    # (0,0) touches only (1,0) on the triangle lattice: no other cell joins.
    assert str(tri.apply(Move(0, 0, 1))) == "bb\nba"


def test_bad_moves_are_refused():
    board = parse_board("a.\nba", lattice="square")
    with pytest.raises(InvalidMoveError, match="blank cell"):
        board.apply(Move(0, 1, 0))
    with pytest.raises(InvalidMoveError, match="off the 2x2 board"):
        board.apply(Move(2, 0, 0))
    with pytest.raises(InvalidMoveError, match="outside the palette"):
        board.apply(Move(0, 0, 7))


def test_repr_round_trips_and_str_draws_letters():
    board = make_board([[0, None], [1, 1]], lattice="square", par=1)
    assert eval(repr(board), {"Board": Board}) == board
    assert str(board) == "a.\nbb"


def test_every_journey_level_reads():
    folder = shared_path("data", "kami2-journey")
    files = sorted(p for p in folder.glob("*.json") if p.name != "index.json")
    assert len(files) == 114
    for path in files:
        board = read_board(path)
        assert (board.rows, board.columns, board.lattice) == (29, 10, "triangle")
        assert board.par is not None
