"""Boards, lattices, moves and board files (``docs/board-format.md``).

Vocabulary:

* ``Cell``: a cell index, ``row * columns + column``.
* ``CellSet``: an ``int`` used as a bitset over cells (bit ``i`` set: cell ``i`` is in the set).
* ``ColorId``: an index into the palette; ``None`` in ``cells`` marks a blank cell.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Sequence

from .errors import BoardFileError, InvalidMoveError
from .formats import BOARD as BOARD_FORMAT

#: Height over width of a KAMI 2 board (10 columns of triangles, 14 sides tall), as in
#: ``docs/board-format.md``; :mod:`kamivision.geometry` turns it into pixels.
TRIANGLE_ASPECT = 14.0 / (5.0 * math.sqrt(3.0))
#: The KAMI 2 board: 29 rows of 10 triangles (``docs/board-format.md``).
KAMI2_ROWS, KAMI2_COLUMNS = 29, 10

Cell = int
CellSet = int
ColorId = int

#: The value of a blank cell in ``Board.cells``: not part of the puzzle, never recolored.
BLANK = None

FORMAT = BOARD_FORMAT
LATTICES = ("triangle", "square")
RULES = ("free", "pivot")
MAX_COLORS = 64
MAX_CELLS = 100_000
_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@$%&*+=?"


@dataclass(frozen=True, slots=True)
class Move:
    """Tap cell ``(row, column)`` and recolor its region to ``color``."""

    row: int
    column: int
    color: ColorId

    def __repr__(self) -> str:
        return f"Move(row={self.row}, column={self.column}, color={self.color})"


@dataclass(frozen=True, slots=True)
class Board:
    """One puzzle board: a lattice, a grid of color ids (``None`` = blank) and its metadata."""

    lattice: str
    cells: tuple[tuple[Optional[ColorId], ...], ...]
    palette: Optional[tuple[str, ...]] = None
    name: Optional[str] = None
    par: Optional[int] = None
    rules: str = "free"
    pivot: Optional[tuple[int, int]] = None
    extra: dict = field(default_factory=dict, compare=False, repr=False)
    # color_count, once computed (the cells never change): drawing a board of 40,000 cells
    # asks for it at every cell.
    _color_count: int = field(default=-1, init=False, compare=False, repr=False)

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def columns(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    @property
    def size(self) -> int:
        return self.rows * self.columns

    def color_at(self, cell: Cell) -> Optional[ColorId]:
        return self.cells[cell // self.columns][cell % self.columns]

    def colors(self) -> list[Optional[ColorId]]:
        """The color of every cell, flat, in cell-index order."""
        return [value for row in self.cells for value in row]

    def colors_used(self) -> set[ColorId]:
        return {value for row in self.cells for value in row if value is not None}

    @property
    def color_count(self) -> int:
        """How many color ids the board may use: the palette size, else one past the largest id."""
        if self.palette is not None:
            return len(self.palette)
        if self._color_count < 0:
            used = self.colors_used()
            object.__setattr__(self, "_color_count", max(used) + 1 if used else 0)
        return self._color_count

    def neighbors(self, cell: Cell) -> tuple[Cell, ...]:
        """Cells adjacent to ``cell`` on the lattice (blank or not)."""
        return neighbor_table(self.lattice, self.rows, self.columns)[cell]

    def pivot_cell(self) -> Cell:
        r, c = self.pivot if self.pivot is not None else (0, 0)
        return r * self.columns + c

    def is_solved(self) -> bool:
        """True when every non-blank cell has one color (islands included)."""
        return len(self.colors_used()) <= 1

    def apply(self, move: Move) -> "Board":
        """The board after ``move``: the tapped cell's connected same-color region takes ``move.color``."""
        check_move(self, move)
        flat = self.colors()
        start = move.row * self.columns + move.column
        old = flat[start]
        if old != move.color:
            stack = [start]
            flat[start] = move.color
            while stack:
                cell = stack.pop()
                for n in self.neighbors(cell):
                    if flat[n] == old:
                        flat[n] = move.color
                        stack.append(n)
        return replace(self, cells=_fold(flat, self.columns))

    def __repr__(self) -> str:
        return (
            f"Board(lattice={self.lattice!r}, cells={self.cells!r}, palette={self.palette!r}, "
            f"name={self.name!r}, par={self.par!r}, rules={self.rules!r}, pivot={self.pivot!r})"
        )

    def __str__(self) -> str:
        """The board as letters (``a`` = color 0, ``.`` = blank), one line per row."""
        return "\n".join("".join("." if v is BLANK else LETTERS[v % len(LETTERS)] for v in row) for row in self.cells)


def _fold(flat: Sequence[Optional[ColorId]], columns: int) -> tuple[tuple[Optional[ColorId], ...], ...]:
    return tuple(tuple(flat[i : i + columns]) for i in range(0, len(flat), columns))


def check_move(board: Board, move: Move) -> None:
    """Raise :class:`InvalidMoveError` unless ``move`` taps a non-blank cell with a valid color."""
    if not (0 <= move.row < board.rows and 0 <= move.column < board.columns):
        raise InvalidMoveError(f"move {move!r} is off the {board.rows}x{board.columns} board")
    if board.cells[move.row][move.column] is BLANK:
        raise InvalidMoveError(f"move {move!r} taps a blank cell")
    if not (0 <= move.color < max(board.color_count, 1)):
        raise InvalidMoveError(f"move {move!r} uses color {move.color}, outside the palette")


@functools.lru_cache(maxsize=64)
def neighbor_table(lattice: str, rows: int, columns: int) -> tuple[tuple[Cell, ...], ...]:
    """:func:`lattice_neighbors` of every cell, computed once per board shape."""
    return tuple(tuple(lattice_neighbors(lattice, rows, columns, i)) for i in range(rows * columns))


def lattice_neighbors(lattice: str, rows: int, columns: int, cell: Cell) -> list[Cell]:
    """Neighbors of ``cell`` as in the spec.

    Triangle: ``(r±1, c)``, plus ``(r, c-1)`` when the cell points right (``r + c`` even) or
    ``(r, c+1)`` when it points left.  Square: the four orthogonal cells.
    """
    r, c = divmod(cell, columns)
    out = []
    if r > 0:
        out.append(cell - columns)
    if r + 1 < rows:
        out.append(cell + columns)
    if lattice == "triangle":
        if (r + c) % 2 == 0:
            if c > 0:
                out.append(cell - 1)
        elif c + 1 < columns:
            out.append(cell + 1)
    else:
        if c > 0:
            out.append(cell - 1)
        if c + 1 < columns:
            out.append(cell + 1)
    return out


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    """``'#rrggbb'`` as an ``(r, g, b)`` tuple of ints."""
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def points_right(row: int, column: int) -> bool:
    """Triangle ``(row, column)`` points right when ``row + column`` is even (the spec's convention)."""
    return (row + column) % 2 == 0


# ---------------------------------------------------------------- board files


def board_from_dict(obj: Any, origin: str = "<board>") -> Board:
    """Validate a board object (as parsed from JSON) and build a :class:`Board`.

    Every problem raises :class:`BoardFileError` with a message starting with ``origin``.
    """

    def fail(problem: str) -> BoardFileError:
        return BoardFileError(f"{origin}: {problem}")

    if not isinstance(obj, dict):
        raise fail(f"expected a JSON object, found {type(obj).__name__}")
    if "format" not in obj:
        raise fail(f'no "format" field, expected {FORMAT!r} (not a board file?)')
    fmt = obj["format"]
    if fmt != FORMAT:
        raise fail(f"format is {fmt!r}, expected {FORMAT!r}")
    lattice = obj.get("lattice")
    if lattice not in LATTICES:
        raise fail(f"unknown lattice {lattice!r}, expected one of {', '.join(LATTICES)}")
    rows, columns = obj.get("rows"), obj.get("columns")
    for key, value in (("rows", rows), ("columns", columns)):
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise fail(f"{key} is {value!r}, expected a positive whole number")
    if rows * columns > MAX_CELLS:
        raise fail(f"{rows}x{columns} is too large (at most {MAX_CELLS} cells)")
    palette = obj.get("palette")
    if palette is not None:
        if not isinstance(palette, list) or not palette:
            raise fail("palette must be a non-empty list of '#rrggbb' colors or null")
        if len(palette) > MAX_COLORS:
            raise fail(f"palette has {len(palette)} colors, at most {MAX_COLORS} are supported")
        for i, color in enumerate(palette):
            if not isinstance(color, str) or not _HEX_COLOR.match(color):
                raise fail(f"palette entry {i} is {color!r}, expected '#rrggbb'")
        palette = tuple(color.lower() for color in palette)
    cells = obj.get("cells")
    if not isinstance(cells, list):
        raise fail("cells is missing or not a list of rows")
    if len(cells) != rows:
        raise fail(f"cells has {len(cells)} rows, expected {rows}")
    limit = len(palette) if palette is not None else MAX_COLORS
    grid = []
    for r, row in enumerate(cells):
        if not isinstance(row, list):
            raise fail(f"row {r} is not a list")
        if len(row) != columns:
            raise fail(f"row {r} has {len(row)} cells, expected {columns}")
        for c, value in enumerate(row):
            if value is BLANK:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise fail(f"cell ({r}, {c}) is {value!r}, expected a color id or null")
            if not 0 <= value < limit:
                where = f"the {limit}-color palette" if palette is not None else f"0..{limit - 1}"
                raise fail(f"cell ({r}, {c}) has color {value}, outside {where}")
        grid.append(tuple(row))
    if all(value is BLANK for row in grid for value in row):
        raise fail("the board is empty: every cell is blank")
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise fail(f"name is {name!r}, expected text")
    par = obj.get("par")
    if par is not None and (not isinstance(par, int) or isinstance(par, bool) or par < 0):
        raise fail(f"par is {par!r}, expected a whole number >= 0 or null")
    rules = obj.get("rules", "free")
    if rules is None:
        rules = "free"
    if rules not in RULES:
        raise fail(f"unknown rules {rules!r}, expected one of {', '.join(RULES)}")
    pivot = obj.get("pivot")
    if pivot is not None:
        if (
            not isinstance(pivot, list)
            or len(pivot) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in pivot)
        ):
            raise fail(f"pivot is {pivot!r}, expected [row, column]")
        if not (0 <= pivot[0] < rows and 0 <= pivot[1] < columns):
            raise fail(f"pivot {pivot} is off the {rows}x{columns} board")
        if grid[pivot[0]][pivot[1]] is BLANK:
            raise fail(f"pivot {pivot} is a blank cell")
        pivot = (pivot[0], pivot[1])
    elif rules == "pivot" and grid[0][0] is BLANK:
        raise fail("rules are 'pivot' and the default pivot [0, 0] is a blank cell")
    known = {"format", "name", "lattice", "rows", "columns", "palette", "cells", "par", "rules", "pivot"}
    extra = {k: v for k, v in obj.items() if k not in known}
    return Board(
        lattice=lattice,
        cells=tuple(grid),
        palette=palette,
        name=name,
        par=par,
        rules=rules,
        pivot=pivot,
        extra=extra,
    )


def board_to_dict(board: Board) -> dict:
    """The board as a JSON-ready object in ``kamivision.board/1`` form (extra fields kept)."""
    obj: dict[str, Any] = {"format": FORMAT}
    if board.name is not None:
        obj["name"] = board.name
    obj.update(
        lattice=board.lattice,
        rows=board.rows,
        columns=board.columns,
        palette=list(board.palette) if board.palette is not None else None,
        cells=[list(row) for row in board.cells],
        par=board.par,
        rules=board.rules,
    )
    if board.pivot is not None:
        obj["pivot"] = list(board.pivot)
    for key, value in board.extra.items():
        obj.setdefault(key, value)
    return obj


def dump_board(board: Board) -> str:
    """Board file text: one row of cells per line, so files stay readable and diff well."""
    obj = board_to_dict(board)
    cells = obj.pop("cells")
    source = obj.pop("source", None)
    head = json.dumps(obj, indent=1)
    rows = ",\n".join("  " + json.dumps(row) for row in cells)
    text = head[:-2] + ',\n "cells": [\n' + rows + "\n ]"
    if isinstance(source, dict):  # a reader's source block: one line per entry
        entries = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in source.items())
        text += ',\n "source": {\n' + entries + "\n }"
    elif source is not None:
        text += ',\n "source": ' + json.dumps(source)
    return text + "\n}\n"


def read_board(path: str | os.PathLike) -> Board:
    """Read and validate a board file; any problem raises :class:`BoardFileError` naming the file."""
    from .files import check_input

    path = check_input(path, BoardFileError)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BoardFileError(f"{path}: not a text file (expected JSON)") from None
    except OSError as exc:
        raise BoardFileError(f"{path}: cannot be read ({exc.strerror})") from None
    from .files import parse_json

    return board_from_dict(parse_json(text, str(path), BoardFileError), str(path))


def write_board(board: Board, path: str | os.PathLike, overwrite: bool = False) -> Path:
    """Write ``board`` as a board file, atomically; never replaces a file unless ``overwrite``."""
    from .files import write_atomic

    return write_atomic(path, dump_board(board).encode("utf-8"), overwrite=overwrite)


def make_board(
    rows_of_colors: Sequence[Sequence[Optional[ColorId]]], lattice: str = "triangle", **kwargs: Any
) -> Board:
    """Build a validated board from a grid (a convenience for tests and code)."""
    grid = [list(row) for row in rows_of_colors]
    obj = {
        "format": FORMAT,
        "lattice": lattice,
        "rows": len(grid),
        "columns": len(grid[0]) if grid else 0,
        "cells": grid,
    }
    for key, value in kwargs.items():
        if value is not None:
            obj[key] = list(value) if isinstance(value, tuple) else value
    return board_from_dict(obj, "<board>")


def parse_board(text: str, lattice: str = "triangle", **kwargs: Any) -> Board:
    """Build a board from letters as :meth:`Board.__str__` draws it (``.`` = blank)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    grid = [[None if ch == "." else LETTERS.index(ch) for ch in line] for line in lines]
    return make_board(grid, lattice=lattice, **kwargs)


def cells_differing(found: Board, truth: Board) -> int:
    """How many cells of ``found`` differ from ``truth`` (see :func:`differing_cells`);
    boards of different shapes differ in every cell."""
    if (found.rows, found.columns, found.lattice) != (truth.rows, truth.columns, truth.lattice):
        return max(found.rows * found.columns, truth.rows * truth.columns)
    return len(differing_cells(found, truth))


def differing_cells(found: Board, truth: Board) -> list[tuple[int, int]]:
    """The cells ``(row, column)`` of ``found`` that differ from ``truth`` under the best
    one-to-one renaming of color ids (the boards are then the same puzzle: see
    docs/board-format.md); blank cells must match exactly.  The renaming is an assignment
    problem on the table of agreeing cells (SciPy's Hungarian method).  Both boards must
    have the same shape."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    if (found.rows, found.columns, found.lattice) != (truth.rows, truth.columns, truth.lattice):
        raise ValueError("boards of different shapes cannot be compared cell by cell")
    ours = [v for row in found.cells for v in row]
    theirs = [v for row in truth.cells for v in row]
    a = sorted({v for v in ours if v is not BLANK})
    b = sorted({v for v in theirs if v is not BLANK})
    agree = np.zeros((len(a), len(b)), dtype=np.int64)
    ia, ib = {v: i for i, v in enumerate(a)}, {v: i for i, v in enumerate(b)}
    for o, t in zip(ours, theirs):
        if o is not BLANK and t is not BLANK:
            agree[ia[o], ib[t]] += 1
    rename: dict = {BLANK: BLANK}
    if agree.size:
        rows, cols = linear_sum_assignment(agree, maximize=True)
        rename.update({a[i]: b[j] for i, j in zip(rows, cols)})
    return [divmod(i, found.columns) for i, (o, t) in enumerate(zip(ours, theirs)) if rename.get(o, -1) != t]
