"""The review model: correcting a recognised board by hand, without any display.

The window (:mod:`kamivision.review.window`) is a thin view over :class:`ReviewModel`:
it turns clicks and keys into the calls below and draws what the model says.  Everything
that matters (what a cell is, what undo does, what is saved and when it asks first) lives
here and is unit-tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from ..board import Board, dump_board
from ..files import write_atomic
from ..graph import bits, region_cells
from ..report import color_label

Edit = tuple[int, Optional[int], Optional[int]]  # cell, color before, color after


@dataclass
class ReviewModel:
    """Cells being reviewed, the selection, the brush color, undo/redo and saving."""

    board: Board
    confidence: Optional[np.ndarray] = None  # (rows, columns), 1 where unknown
    threshold: float = 0.25
    selected: Optional[int] = None
    brush: Optional[int] = 0
    saved_to: Optional[Path] = None
    dirty: bool = False
    _undo: list[list[Edit]] = field(default_factory=list)
    _redo: list[list[Edit]] = field(default_factory=list)
    _stroke: Optional[list[Edit]] = None
    _stroke_start: Optional[int] = None

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

    def status(self) -> str:
        """One line for the window: the selected cell, its color and confidence, the keys."""
        if self.selected is None:
            where = "no cell selected"
        else:
            r, c = divmod(self.selected, self.columns)
            value = self.color(self.selected)
            what = "blank" if value is None else color_label(self.board, value)
            where = f"cell ({r},{c}): {what}, confidence {self.cell_confidence(self.selected):.2f}"
        brush = "blank" if self.brush is None else color_label(self.board, self.brush)
        flag = " (unsaved)" if self.dirty else ""
        return (
            f"{where} | brush {brush}{flag} | click select, drag paint, 1-9 color, b blank, f fill region, "
            "z undo, y redo, space solve, s save, q quit"
        )

    # ---------------------------------------------------------------- editing

    def select(self, cell: Optional[int]) -> None:
        self.selected = cell

    def _set(self, cell: int, value: Optional[int], edits: list[Edit]) -> None:
        old = self.color(cell)
        if old == value:
            return
        edits.append((cell, old, value))
        self._write(cell, value)

    def _write(self, cell: int, value: Optional[int]) -> None:
        r, c = divmod(cell, self.columns)
        rows = [list(row) for row in self.board.cells]
        rows[r][c] = value
        self.board = _rebuild(self.board, rows)

    def _commit(self, edits: list[Edit]) -> None:
        if edits:
            self._undo.append(edits)
            self._redo.clear()
            self.dirty = True

    def _check(self, value: Optional[int]) -> None:
        count = len(self.board.palette or []) or 1 + max(
            (v for row in self.board.cells for v in row if v is not None), default=0
        )
        if value is not None and not 0 <= value < count:
            raise ValueError(f"color {value + 1} is not in the palette (1-{count})")

    def set_color(self, value: Optional[int], cell: Optional[int] = None) -> None:
        """Give the selected cell (or ``cell``) a color (``None``: blank); it becomes the brush."""
        self._check(value)
        self.brush = value
        target = self.selected if cell is None else cell
        if target is None:
            return
        edits: list[Edit] = []
        self._set(target, value, edits)
        self._commit(edits)

    def begin_stroke(self, cell: int) -> None:
        """A mouse press on ``cell``: select it.  Nothing changes unless the mouse is dragged
        onto other cells; then the stroke paints them all, this one too, with the brush
        (one undo step per stroke)."""
        self.selected = cell
        self._stroke = []
        self._stroke_start = cell

    def paint(self, cell: int) -> None:
        """Continue a stroke over ``cell`` (the mouse dragged onto it)."""
        if self._stroke is None:
            return
        if self._stroke_start is not None:
            self._set(self._stroke_start, self.brush, self._stroke)
            self._stroke_start = None
        self.selected = cell
        self._set(cell, self.brush, self._stroke)

    def end_stroke(self) -> None:
        if self._stroke is not None:
            self._commit(self._stroke)
        self._stroke = None

    def fill_region(self, cell: Optional[int] = None) -> None:
        """Give the whole region of the selected cell (same color, connected) the brush color."""
        target = self.selected if cell is None else cell
        if target is None:
            return
        if self.color(target) is None:
            members = [target]
        else:
            members = list(bits(region_cells(self.board, target)))
        edits: list[Edit] = []
        for member in members:
            self._set(member, self.brush, edits)
        self._commit(edits)

    def undo(self) -> bool:
        if not self._undo:
            return False
        edits = self._undo.pop()
        for cell, old, _ in reversed(edits):
            self._write(cell, old)
        self._redo.append(edits)
        self.dirty = True
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        edits = self._redo.pop()
        for cell, _, new in edits:
            self._write(cell, new)
        self._undo.append(edits)
        self.dirty = True
        return True

    # ---------------------------------------------------------------- saving

    def save(self, path: Path, overwrite: bool = False) -> Path:
        """Write the board atomically.  Raises :class:`OutputExistsError` when ``path`` exists
        and ``overwrite`` is false (the window then asks, and calls again with True)."""
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
