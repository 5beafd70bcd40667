"""A lattice the reader did not find is never solved: a square grid (KAMI 1) rendered as a
phone shows it is refused with one line, not read as 29 x 10 triangles."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from kamivision.board import make_board
from kamivision.cli import app
from kamivision.errors import ImageError
from kamivision.synth.render import encode, render
from kamivision.vision import recognize

from ..boards import random_board


def _square_board(seed: int, rows: int, columns: int):
    rng = random.Random(seed)
    board = random_board(rng, "square", rows, columns, 3, 0.0)
    return make_board([list(row) for row in board.cells], lattice="square", par=4)


@pytest.mark.parametrize("device", ["iphone-8", "iphone-x", "android-tall"])
@pytest.mark.parametrize("shape", [(10, 16), (18, 11)])
def test_a_square_grid_is_refused(device, shape):
    board = _square_board(sum(shape), *shape)
    image, _ = render(board, device, seed=1)
    with pytest.raises(ImageError, match="square grid"):
        recognize(image, "kami1.png")


def test_the_command_says_so_in_one_line(tmp_path):
    board = _square_board(3, 10, 16)
    image, _ = render(board, "iphone-8", seed=2)
    shot = tmp_path / "kami1.png"
    shot.write_bytes(encode(image, ".png"))
    result = CliRunner().invoke(app, ["solve", str(shot)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "square grid" in lines[0] and "kami1.png" in lines[0]
    assert not (tmp_path / "kami1-solution.png").exists()
