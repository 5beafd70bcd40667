"""The review model: correcting a recognised board by hand, without any display.

The page of :mod:`kamivision.web` is a thin view over :class:`ReviewModel`: it turns taps
and strokes into the calls below and draws what the model holds.  Everything that matters
(what an edit changes, what undo does, what is saved and when it asks first) lives here
and is unit-tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from ..board import Board, dump_board
from ..files import write_atomic
from ..graph import bits, region_cells

Edit = tuple[int, Optional[int], Optional[int]]  # cell, color before, color after


@dataclass
class ReviewModel:
    """Cells being reviewed, undo/redo and saving."""

    board: Board
    confidence: Optional[np.ndarray] = None  # (rows, columns), 1 where unknown
    threshold: float = 0.25
    saved_to: Optional[Path] = None
    dirty: bool = False
    _undo: list[list[Edit]] = field(default_factory=list)
    _redo: list[list[Edit]] = field(default_factory=list)

    # ---------------------------------------------------------------- reading

    @property
    def columns(self) -> int:
        return self.board.columns

    def color(self, cell: int) -> Optional[int]:
        return self.board.color_at(cell)

    def cell_confidence(self, cell: int) -> float:
        if self.confidence is None:
            return 1.0
        r, c = divmod(cell, self.columns)
        return float(self.confidence[r, c])

    def uncertain(self, cell: int) -> bool:
        return self.cell_confidence(cell) < self.threshold

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # ---------------------------------------------------------------- editing

    def _change(self, cells: Sequence[int], value: Optional[int]) -> None:
        """Give ``cells`` the color ``value`` as one undo step: the edits noted cell by
        cell (a cell met twice keeps its first old color), the board rebuilt once (per
        cell, a paint over a 300 x 300 board took 51 s)."""
        pending: dict[int, Optional[int]] = {}
        edits: list[Edit] = []
        for cell in cells:
            old = pending.get(cell, self.color(cell))
            if old != value:
                edits.append((cell, old, value))
                pending[cell] = value
        self._write([(cell, new) for cell, _, new in edits])
        self._commit(edits)

    def _write(self, changes: list[tuple[int, Optional[int]]]) -> None:
        """The board with ``changes`` (cell, value) made in order, rebuilt once."""
        if not changes:
            return
        rows = [list(row) for row in self.board.cells]
        for cell, value in changes:
            r, c = divmod(cell, self.columns)
            rows[r][c] = value
        self.board = _rebuild(self.board, rows)

    def _commit(self, edits: list[Edit]) -> None:
        if edits:
            self._undo.append(edits)
            self._redo.clear()
            self.dirty = True

    def _check(self, value: Optional[int], cells: Sequence[int] = ()) -> None:
        count = len(self.board.palette or []) or 1 + max(
            (v for row in self.board.cells for v in row if v is not None), default=0
        )
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count):
            raise ValueError(f"color {value!r} is not in the palette (0-{count - 1}, or blank)")
        for cell in cells:
            if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < self.board.size:
                raise ValueError(f"cell {cell!r} is not on the board (0-{self.board.size - 1})")

    def paint(self, cells: Sequence[int], value: Optional[int]) -> None:
        """Give ``cells`` the color ``value`` (``None``: blank), as one undo step: a tap is
        one cell, a stroke every cell the finger or the mouse went over.  Nothing is
        changed when a cell or the color is not on the board."""
        self._check(value, cells)
        self._change(cells, value)

    def fill_region(self, cell: int, value: Optional[int]) -> None:
        """Give the whole region of ``cell`` (same color, connected) the color ``value``;
        a blank cell is a region of its own."""
        self._check(value, (cell,))
        if self.color(cell) is None:
            members = [cell]
        else:
            members = list(bits(region_cells(self.board, cell)))
        self._change(members, value)

    def undo(self) -> bool:
        if not self._undo:
            return False
        edits = self._undo.pop()
        self._write([(cell, old) for cell, old, _ in reversed(edits)])
        self._redo.append(edits)
        self.dirty = True
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        edits = self._redo.pop()
        self._write([(cell, new) for cell, _, new in edits])
        self._undo.append(edits)
        self.dirty = True
        return True

    # ---------------------------------------------------------------- saving

    def save(self, path: Path, overwrite: bool = False) -> Path:
        """Write the board atomically.  Raises :class:`OutputExistsError` when ``path`` exists
        and ``overwrite`` is false (the page then asks, and calls again with True)."""
        written = write_atomic(path, dump_board(self.board).encode("utf-8"), overwrite=overwrite)
        self.saved_to = written
        self.dirty = False
        return written

    def needs_overwrite(self, path: Path) -> bool:
        """Would saving to ``path`` replace a file that this session has not written?"""
        return path.exists() and (self.saved_to is None or path.resolve() != self.saved_to.resolve())


def _rebuild(board: Board, rows: list[list[Optional[int]]]) -> Board:
    import dataclasses

    return dataclasses.replace(board, cells=tuple(tuple(row) for row in rows))
