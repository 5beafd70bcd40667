"""The file formats kamivision reads, by the ``format`` field that names them.

A ``.json`` file is a KAMI board (``docs/board-format.md``), a Safe Zone level
(``docs/safe-zone-format.md``) or a tile-sliding board (``docs/tile-slide-format.md``).
The names live here, apart from the readers, so that telling a file's kind imports no
reader it does not need (a board file is solved without loading the puzzles).

Tested in tests/test_sources.py, tests/test_cli.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

BOARD = "kamivision.board/1"
SAFE_ZONE = "kamivision.safezone/1"
TILE_SLIDE = "kamivision.slide/1"

#: The puzzles' formats (solved by :mod:`kamivision.puzzles`, not by the KAMI solver).
PUZZLES = (SAFE_ZONE, TILE_SLIDE)


def puzzle_format(path: Path) -> Optional[str]:
    """The file's ``format`` when it is one of the puzzles' (None otherwise, or when the
    file is not a JSON object: the board reader then says what is wrong)."""
    from .errors import BoardFileError
    from .files import check_input

    path = check_input(path, BoardFileError)
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    value = obj.get("format") if isinstance(obj, dict) else None
    return value if value in PUZZLES else None
