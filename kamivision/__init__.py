"""kamivision: from a screenshot of a flood-fill puzzle to its proven-optimal solution.

The pipeline, one module per stage: image -> board -> region graph -> solution -> overlay.

    >>> import kamivision
    >>> board = kamivision.read_board("samples/patchwork.json")   # doctest: +SKIP
    >>> kamivision.solve(board).moves                              # doctest: +SKIP

The stages that need OpenCV or scikit-learn (reading screenshots, drawing) are imported
when first used, so ``import kamivision`` and solving a board file stay quick.
"""

from __future__ import annotations

import importlib

from .board import Board, Move, board_from_dict, board_to_dict, read_board, write_board
from .errors import BoardFileError, ImageError, InvalidMoveError, KamiError, OutputExistsError
from .graph import RegionGraph, build_regions
from .solver import SearchSettings, Solution, solve

#: Public names of the image stages, and the module each comes from (imported on first use).
_LAZY = {
    "draw_solution": ".overlay",
    "ShotSolution": ".pipeline",
    "solve_screenshot": ".pipeline",
    "Recognition": ".vision",
    "VisionSettings": ".vision",
    "recognize": ".vision",
    "recognize_file": ".vision",
    "render": ".render",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "SearchSettings",
    "ShotSolution",
    "Solution",
    "VisionSettings",
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
