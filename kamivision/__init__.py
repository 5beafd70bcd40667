"""kamivision: from a screenshot of a flood-fill puzzle to its proven-optimal solution.

The pipeline, one module per stage: image -> board -> region graph -> solution -> overlay.
"""

from .board import Board, Move, board_from_dict, board_to_dict, read_board, write_board
from .errors import BoardFileError, ImageError, InvalidMoveError, KamiError, OutputExistsError
from .graph import RegionGraph, build_regions
from .overlay import draw_solution
from .pipeline import ShotSolution, solve_screenshot
from .recognize import Recognition, recognize, recognize_file
from .render import render
from .solver import Solution, solve

__all__ = [
    "Board",
    "BoardFileError",
    "ImageError",
    "InvalidMoveError",
    "KamiError",
    "Move",
    "OutputExistsError",
    "RegionGraph",
    "Recognition",
    "ShotSolution",
    "Solution",
    "board_from_dict",
    "board_to_dict",
    "build_regions",
    "draw_solution",
    "read_board",
    "recognize",
    "recognize_file",
    "render",
    "solve",
    "solve_screenshot",
    "write_board",
]
__version__ = "0.1.0"
