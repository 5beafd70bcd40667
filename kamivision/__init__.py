"""kamivision: from a screenshot of a flood-fill puzzle to its proven-optimal solution.

The pipeline, one module per stage: image -> board -> region graph -> solution -> overlay.

    >>> import kamivision
    >>> board = kamivision.read_board("samples/patchwork.json")   # doctest: +SKIP
    >>> kamivision.solve(board).moves                              # doctest: +SKIP

Every stage but the board is imported when first used (the ones that need OpenCV,
reading screenshots and drawing, only then), so ``import kamivision`` and
the command line start quickly.
"""

from __future__ import annotations

import importlib

from .board import Board, Move, board_from_dict, board_to_dict, read_board, write_board
from .errors import BoardFileError, ImageError, InvalidMoveError, KamiError, OutputExistsError

#: Public names of the later stages, and the module each comes from (imported on first use).
_LAZY = {
    "RegionGraph": ".graph",
    "build_regions": ".graph",
    "SearchSettings": ".solver",
    "Solution": ".solver",
    "solve": ".solver",
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
