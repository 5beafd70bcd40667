import dataclasses
import random

import numpy as np

from kamivision.board import hex_to_rgb
from kamivision.graph import region_cells
from kamivision.overlay import CHECK_RGB, Geometry, draw_solution, gif_bytes, spread_markers, step_frames
from kamivision.solver import solve
from kamivision.synth.render import board_palette, render

from .boards import random_kami_board


def setup(seed=4, colors=3):
    rng = random.Random(seed)
    board = random_kami_board(rng, colors, blank_outline=True, par=None)
    board = dataclasses.replace(board, palette=tuple(board_palette(board, 1)))
    image, layout = render(board, "iphone-8", seed=1)
    geometry = Geometry(layout.board, (0, layout.footer[1]))
    return board, image, geometry


def cell_at(board, geometry, x, y):
    """The cell whose triangle holds the point (x, y), from the lattice geometry."""
    import cv2

    for cell in range(board.rows * board.columns):
        if cv2.pointPolygonTest(geometry.polygon(board, cell).astype(np.float32), (float(x), float(y)), False) >= 0:
            return cell
    return None


def test_markers_sit_inside_the_regions_they_tap_and_do_not_overlap():
    for seed in range(3):
        board, image, geometry = setup(seed)
        moves = spread_markers(board, solve(board, max_seconds=20).moves, geometry)
        current, centres = board, []
        for move in moves:
            cell = move.row * board.columns + move.column
            x, y = geometry.centre(board, cell)
            under = cell_at(board, geometry, x, y)
            assert under is not None and region_cells(current, cell) >> under & 1
            centres.append((x, y))
            current = current.apply(move)
        assert current.is_solved()
        r = geometry.marker_radius()
        close = [
            (a, b) for i, a in enumerate(centres) for b in centres[i + 1 :] if np.hypot(a[0] - b[0], a[1] - b[1]) < r
        ]
        assert not close


def test_overlay_draws_each_marker_in_its_color_and_adds_a_legend():
    board, image, geometry = setup(7)
    moves = spread_markers(board, solve(board).moves, geometry)
    out = draw_solution(image, board, moves, geometry)
    assert out.shape[0] > image.shape[0] and out.shape[1] == image.shape[1]
    assert np.array_equal(out[image.shape[0] :][0, 0], np.array([34, 25, 15]))
    for move in moves:
        x, y = geometry.centre(board, move.row * board.columns + move.column)
        ring = out[int(y), int(x - 0.68 * geometry.marker_radius())].astype(int)
        expected = np.array(hex_to_rgb(board.palette[move.color]))
        assert np.abs(ring - expected).max() < 40


def test_steps_end_with_a_board_of_one_color():
    board, image, geometry = setup(9)
    moves = solve(board).moves
    frames = step_frames(image, board, moves, geometry)
    assert len(frames) == len(moves) + 1
    final = frames[-1]
    palette = np.array([hex_to_rgb(c) for c in board.palette], float)
    seen = set()
    for cell in range(board.rows * board.columns):
        if board.color_at(cell) is None:
            continue
        x, y = geometry.centre(board, cell)
        pixel = final[int(y), int(x)].astype(float)
        seen.add(int(np.linalg.norm(palette - pixel, axis=1).argmin()))
    assert len(seen) == 1
    assert gif_bytes(frames)[:6] == b"GIF89a"


def test_doubtful_cells_are_outlined_and_a_warning_is_written_on_the_picture():
    board, image, geometry = setup(7)
    moves = spread_markers(board, solve(board).moves, geometry)
    plain = draw_solution(image, board, moves, geometry)
    cell = 14 * board.columns + 5
    warned = draw_solution(image, board, moves, geometry, doubtful=[cell], warning="CHECK: 3 uncertain cells")
    assert warned.shape[0] > plain.shape[0]  # the warning's strip, between the screenshot and the legend
    strip = warned[image.shape[0] : warned.shape[0] - (plain.shape[0] - image.shape[0])]
    assert (np.abs(strip.astype(int) - CHECK_RGB).sum(axis=2) < 60).any()  # written in the check color
    corners = geometry.polygon(board, cell)
    x, y = corners[:2].mean(axis=0)  # the middle of the cell's vertical edge
    edge = warned[int(y) - 2 : int(y) + 3, int(x) - 2 : int(x) + 3].reshape(-1, 3).astype(int)
    assert (np.abs(edge - CHECK_RGB).sum(axis=1) < 60).any()
    assert np.array_equal(
        warned[: image.shape[0]][: int(corners[:, 1].min()) - 3], plain[: int(corners[:, 1].min()) - 3]
    )
