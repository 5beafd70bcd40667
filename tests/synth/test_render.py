import random

import numpy as np
import pytest
from typer.testing import CliRunner

from kamivision.board import hex_to_rgb, parse_board, points_right, read_board, write_board
from kamivision.cli import app
from kamivision.geometry import cell_centre
from kamivision.synth.render import board_palette, render
from kamivision.synth.screens import DEVICES

from ..boards import random_kami_board
from ..conftest import device_params


def centroid_patch(image, layout, r, c, board):
    """The median color of a small patch inside cell (r, c), on its visible part, or None
    when the patch is off the screen (a board cropped at the sides)."""
    x0, y0, bw, bh = layout.board
    x, y = cell_centre("triangle", board.rows, board.columns, r, c, (0.0, 0.0, bw, bh))
    s = bh / 14.0
    if r == 0:
        y += s / 6
    elif r == board.rows - 1:
        y -= s / 6
    # Keep the patch in the fat part of the triangle, near its vertical edge.
    x += (-1 if points_right(r, c) else 1) * bw / 120.0
    x, y = int(round(x0 + x)), int(round(y0 + y))
    k = max(1, int(bw / 200))
    if not k <= x < image.shape[1] - k:
        return None
    return np.median(image[y - k : y + k + 1, x - k : x + k + 1].reshape(-1, 3), axis=0)


HAND_MADE = parse_board(
    "\n".join(["..abbbbc..", ".aabbbccc.", "aaabbbcccc"] * 9 + ["aaaabbcccc", ".aaabbbcc."]),
    lattice="triangle",
    par=2,
)


@pytest.mark.parametrize("device", device_params(sorted(DEVICES)))
def test_every_cell_is_drawn_in_its_color(device):
    rng = random.Random(hash(device) & 0xFFFF)
    for board in (HAND_MADE, random_kami_board(rng, 5, blank_outline=True, par=9)):
        image, layout = render(board, device, seed=3)
        assert image.shape == (DEVICES[device].height, DEVICES[device].width, 3)
        palette = np.array([hex_to_rgb(c) for c in board_palette(board, 3)], float)
        off = set()
        for r in range(board.rows):
            for c in range(board.columns):
                patch = centroid_patch(image, layout, r, c, board)
                if patch is None:
                    off.add((r, c))
                    continue
                value = board.cells[r][c]
                if value is None:
                    assert patch.min() > 190, f"blank cell ({r},{c}) drawn as {patch}"
                else:
                    nearest = int(np.linalg.norm(palette - patch, axis=1).argmin())
                    assert nearest == value, f"cell ({r},{c}) of color {value} drawn as {patch}"
        # Only a board wider than the screen has cells whose middle is off it: in columns 0 and 9.
        if DEVICES[device].board_width > 1:
            assert {c for _, c in off} == {0, 9}
        else:
            assert not off


def test_render_is_deterministic_for_a_seed():
    a, _ = render(HAND_MADE, "iphone-se", seed=5)
    b, _ = render(HAND_MADE, "iphone-se", seed=5)
    c, _ = render(HAND_MADE, "iphone-se", seed=6)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_square_boards_render_in_kami1_style():
    board = parse_board("\n".join(["aabbccdd"] * 6 + ["ddccbbaa"] * 6), lattice="square")
    image, layout = render(board, "iphone-8", seed=1)
    x0, y0, bw, bh = layout.board
    palette = np.array([hex_to_rgb(c) for c in board_palette(board, 1)], float)
    for r in range(board.rows):
        for c in range(board.columns):
            x = int(x0 + (c + 0.5) * bw / board.columns)
            y = int(y0 + (r + 0.5) * bh / board.rows)
            patch = np.median(image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3), axis=0)
            assert int(np.linalg.norm(palette - patch, axis=1).argmin()) == board.cells[r][c]


def test_render_command_writes_the_image_and_its_truth(tmp_path):
    source = write_board(HAND_MADE, tmp_path / "level.json")
    out = tmp_path / "shot.png"
    runner = CliRunner()
    result = runner.invoke(app, ["render", str(source), "-o", str(out), "--device", "iphone-x", "--truth"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert read_board(tmp_path / "shot.json").cells == HAND_MADE.cells
    again = runner.invoke(app, ["render", str(source), "-o", str(out)])
    assert again.exit_code == 1 and "already exists" in again.stderr
    unknown = runner.invoke(app, ["render", str(source), "-o", str(tmp_path / "x.png"), "--device", "nokia"])
    assert unknown.exit_code == 1 and "unknown device" in unknown.stderr


def test_ink_is_drawn_over_the_cells_it_names_and_nowhere_else():
    board = random_kami_board(random.Random(4), 4, blank_outline=False, par=5)
    clean, _ = render(board, "iphone-8", seed=6)
    inked, layout = render(board, "iphone-8", seed=6, ink=12)
    assert 8 <= len(layout.inked) <= 12
    changed = np.abs(clean.astype(int) - inked.astype(int)).max(axis=2) > 40
    ys, xs = np.nonzero(changed)
    assert len(ys) > 0
    column = layout.board[2] / 10
    centres = np.array([cell_centre("triangle", 29, 10, r, c, layout.board) for r, c in layout.inked])
    near = np.min(np.hypot(xs[:, None] - centres[None, :, 0], ys[:, None] - centres[None, :, 1]), axis=1)
    assert near.max() <= 0.6 * column  # every changed pixel is within a mark drawn at a named cell


def test_a_windows_drop_shadow_darkens_the_board_beside_it_and_not_the_window():
    from kamivision.synth.covers import Window

    board = random_kami_board(random.Random(3), 4, False, par=5)
    plain, _ = render(board, "iphone-8", seed=1, window=Window(0.3, 0.4, 0.4, 0.25, seed=2))
    shaded, _ = render(board, "iphone-8", seed=1, window=Window(0.3, 0.4, 0.4, 0.25, seed=2, shadow=0.7))
    w = plain.shape[1]
    below = slice(round(0.65 * w) + 2, round(0.65 * w) + 8), slice(round(0.4 * w), round(0.6 * w))
    inside = slice(round(0.45 * w), round(0.6 * w)), slice(round(0.35 * w), round(0.65 * w))
    assert shaded[below].mean() < 0.7 * plain[below].mean()
    assert np.array_equal(shaded[inside], plain[inside])
