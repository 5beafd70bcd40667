"""The 15-puzzle with additive pattern databases (Korf and Felner 2002), solved by the
compiled IDA* of ``_patterns.c``.

The tiles are split into three patterns of 6, 6 and 3 tiles.  Each pattern's database
holds, for every placement of its tiles, the fewest moves of those tiles that bring them
home, the other tiles being free to move for nothing; moves of different patterns' tiles
are different moves, so the three values add up to a lower bound.  The same tables
looked up on the board reflected about its diagonal give a second bound, and the larger
is used.  The two 6-tile tables (5,765,760 entries each) and the 3-tile one (3,360) are
built once (about 25 s on two cores, 50 s on one) and kept in the user's cache folder
(11.5 MB).

The tables are for the goal with the empty cell at the top left (Korf's).  A board whose
goal has the empty cell in another corner is turned or mirrored onto it first (the rules
do not change under the square's symmetries), and its tiles are renamed by their goal
cells, so any 4 x 4 board with distinct labels and the empty cell's goal in a corner is
solved with the same tables.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Callable, Optional

from ..solver.core import Status
from .search import Limits, Result
from .tiles import DIRECTIONS, SlideBoard, TileMove

try:
    from . import _patterns
except ImportError:  # built without a C compiler: the Python IDA* is used instead
    _patterns = None

AVAILABLE = _patterns is not None

#: The partition, by goal cell (the empty cell's goal is cell 0).
GROUPS = ((1, 2, 3, 5, 6, 7), (4, 8, 9, 12, 13, 14), (10, 11, 15))
VERSION = 1

def cache_folder() -> Path:
    """``$KAMIVISION_CACHE``, else ``$XDG_CACHE_HOME/kamivision``, else ``~/.cache/kamivision``."""
    if os.environ.get("KAMIVISION_CACHE"):
        return Path(os.environ["KAMIVISION_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "kamivision"


def _sizes() -> list[int]:
    out = []
    for group in GROUPS:
        size = 1
        for i in range(len(group)):
            size *= 16 - i
        out.append(size)
    return out


class PatternTables:
    """The three tables, kept in ``folder`` (a cache: :func:`cache_folder` by default),
    loaded once per object: from the file, or built now and saved there.  A run that
    solves many boards (a collection) holds one object and passes it to every solve."""

    def __init__(self, folder: Optional[Path] = None):
        self.folder = Path(folder) if folder is not None else cache_folder()
        self._tables: Optional[list[bytes]] = None

    @property
    def path(self) -> Path:
        return self.folder / f"slide-patterns-663-v{VERSION}.bin"

    def get(self, announce: Callable[[str], None] = lambda text: print(text, file=sys.stderr)) -> list[bytes]:
        """The three tables: from memory, from the cache file, or built now (and saved)."""
        if self._tables is not None:
            return self._tables
        if not AVAILABLE:
            raise RuntimeError("the compiled pattern databases are not built (no C compiler at install)")
        path, sizes, data = self.path, _sizes(), None
        if path.is_file():
            raw = path.read_bytes()
            body, digest = raw[:-32], raw[-32:]
            if len(body) == sum(sizes) and hashlib.sha256(body).digest() == digest:
                data = body
            else:
                announce(f"{path}: damaged, building it again")
        if data is None:
            announce(f"building the 15-puzzle's pattern databases once (under a minute; kept in {path}) ...")
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max(1, min(len(GROUPS), os.cpu_count() or 1))) as pool:  # the build runs without the GIL
                data = b"".join(pool.map(lambda group: _patterns.build(bytes(group)), GROUPS))
            try:
                from ..files import write_atomic

                path.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(path, data + hashlib.sha256(data).digest(), overwrite=True)
            except Exception as error:  # noqa: BLE001 - a read-only cache only costs the rebuild
                announce(f"could not keep the pattern databases in {path}: {error}")
        out, at = [], 0
        for size in sizes:
            out.append(data[at:at + size])
            at += size
        self._tables = out
        return out


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


def solve(board: SlideBoard, limits: Limits = Limits(), announce=None, tables: Optional[PatternTables] = None) -> Result:
    """The fewest moves of a board that :func:`suits`, proven (IDA* with an admissible
    bound finds a shortest solution first); ``tables``: those to use (loaded once per
    object), else the cache folder's."""
    tables = tables if tables is not None else PatternTables()
    found = tables.get() if announce is None else tables.get(announce)
    return search(board, GROUPS, found, limits)


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
        return Result(None, False, bound, expanded, elapsed, stopped="interrupted" if status == Status.INTERRUPTED else "limit")
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
