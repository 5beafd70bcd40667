"""The 15-puzzle with additive pattern databases (Korf and Felner 2002), solved by the
compiled IDA* of ``_patterns.c``.

The tiles are split into patterns: 7 and 8 tiles when those tables have been built
(``kamivision tables build``), else 6, 6 and 3 (built by the first run that needs them);
see :mod:`.databases`.  Each pattern's database holds, for every placement of its tiles,
the fewest moves of those tiles that bring them home, the other tiles being free to move
for nothing; moves of different patterns' tiles are different moves, so the values add
up to a lower bound.  The same tables looked up on the board reflected about its
diagonal give a second bound, and the larger is used.

The tables are for the goal with the empty cell at the top left (Korf's).  A board whose
goal has the empty cell in another corner is turned or mirrored onto it first (the rules
do not change under the square's symmetries), and its tiles are renamed by their goal
cells, so any 4 x 4 board with distinct labels and the empty cell's goal in a corner is
solved with the same tables.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ..solver.core import Status
from .databases import AVAILABLE, PatternTables, _patterns
from .search import Limits, Result, Stop
from .tiles import DIRECTIONS, SlideBoard, TileMove

__all__ = ["AVAILABLE", "PatternTables", "search", "solve", "suits"]


# The square's symmetries that bring a corner to cell 0: cell -> cell.
_CORNER_MAPS = {
    0: lambda r, c: (r, c),
    3: lambda r, c: (r, 3 - c),
    12: lambda r, c: (3 - r, c),
    15: lambda r, c: (3 - r, 3 - c),
}


def suits(board: SlideBoard) -> bool:
    """A 4 x 4 board with distinct labels whose goal has the empty cell in a corner, and
    the compiled search built."""
    return (
        AVAILABLE and board.rows == 4 and board.columns == 4 and board.distinct and board.goal.index(0) in _CORNER_MAPS
    )


def solve(
    board: SlideBoard, limits: Limits = Limits(), announce=None, tables: Optional[PatternTables] = None
) -> Result:
    """The fewest moves of a board that :func:`suits`, proven (IDA* with an admissible
    bound finds a shortest solution first); ``tables``: those to use (loaded once per
    object), else the cache folder's best."""
    tables = tables if tables is not None else PatternTables()
    loaded = tables.get() if announce is None else tables.get(announce)
    result = search(board, loaded.partition.groups, loaded.tables, limits)
    return dataclasses.replace(result, bound=f"additive pattern databases {loaded.partition.name} and their reflection")


def search(board: SlideBoard, groups, found: list[bytes], limits: Limits) -> Result:
    """IDA* with the databases ``found`` of the partition ``groups`` (by goal cell, the
    empty cell's goal at cell 0)."""
    import time

    started = time.perf_counter()
    corner = board.goal.index(0)
    turn = _CORNER_MAPS[corner]
    to_canonical = [0] * 16
    for cell in range(16):
        r, c = turn(*divmod(cell, 4))
        to_canonical[cell] = 4 * r + c
    home = {label: to_canonical[cell] for cell, label in enumerate(board.goal)}  # label -> canonical goal cell
    tiles = [0] * 16
    for cell, label in enumerate(board.cells):
        tiles[to_canonical[cell]] = home[label]
    seconds = 0.0 if limits.max_seconds is None else max(1e-3, limits.max_seconds - (time.perf_counter() - started))
    status, path, expanded, bound = _patterns.ida(
        bytes(tiles), [(bytes(g), t) for g, t in zip(groups, found)], seconds, limits.max_nodes or 0
    )
    elapsed = time.perf_counter() - started
    if status != Status.FOUND:  # the statuses are the KAMI core's (solver/_core/status.h)
        return Result(
            None,
            False,
            bound,
            expanded,
            elapsed,
            stopped=Stop.INTERRUPTED if status == Status.INTERRUPTED else Stop.LIMIT,
        )
    back = {canonical: cell for cell, canonical in enumerate(to_canonical)}
    moves, state = [], list(board.cells)
    blank = state.index(0)
    for canonical in path:
        source = back[canonical]
        dr, dc = blank // 4 - source // 4, blank % 4 - source % 4  # the tile's travel
        name = next(n for n, r, c in DIRECTIONS if (r, c) == (dr, dc))
        moves.append(TileMove(state[source], source, name))
        state[blank], state[source] = state[source], 0
        blank = source
    return Result(tuple(moves), True, len(moves), expanded, elapsed)
