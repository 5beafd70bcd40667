"""kamivision: from a screenshot of a flood-fill puzzle to its proven-optimal solution.

The pipeline, one module per stage: image -> board -> region graph -> solution -> overlay.
"""

from .board import Board, Move, board_from_dict, board_to_dict, read_board, write_board
from .errors import BoardFileError, ImageError, InvalidMoveError, KamiError, OutputExistsError
from .graph import RegionGraph, build_regions
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
    "Solution",
    "board_from_dict",
    "board_to_dict",
    "build_regions",
    "read_board",
    "solve",
    "write_board",
]
__version__ = "0.1.0"
