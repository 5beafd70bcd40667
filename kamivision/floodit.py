"""Flood-It collections in the field's compact formats, as pivot boards.

* Digit lines (``pc19.txt``, ``b14c8n1000.txt``): one square board a line, its cells row by
  row as digits; the pivot is the top-left cell.
* Color Walk lines (``colorwalk100.txt``): 30 x 20 boards of digits 0-4 with ``.`` for the
  start cell, which begins empty (a color of its own) and is the pivot.
* ``99problems/`` files: a line ``rows columns colors``, the cells as numbers, then the
  optimal move count.

Lines starting with ``#`` and blank lines are skipped.  Problems raise
:class:`~kamivision.errors.BoardFileError` naming the file and line.

Tested in tests/solver/test_pivot.py.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional

from . import batch
from .board import Board, make_board
from .errors import BoardFileError

COLOR_WALK = (20, 30)  # rows, columns
EMPTY_START = 9  # the color id of Color Walk's empty start cell (digits there are 0-4)


@dataclass(frozen=True, slots=True)
class Puzzle:
    name: str
    board: Board
    optimum: Optional[int] = None  # known optimal move count, when the file gives it


def _digit_line(text: str, origin: str, name: str) -> Puzzle:
    if "." in text:
        rows, columns = COLOR_WALK
        if len(text) != rows * columns:
            raise BoardFileError(f"{origin}: a Color Walk line has {len(text)} cells, expected {rows * columns}")
        pivot = text.index(".")
        cells = [EMPTY_START if ch == "." else int(ch) for ch in text]
    else:
        side = math.isqrt(len(text))
        if side * side != len(text):
            raise BoardFileError(f"{origin}: {len(text)} digits is not a square board")
        rows = columns = side
        pivot = 0
        cells = [int(ch) for ch in text]
    grid = [cells[r * columns : (r + 1) * columns] for r in range(rows)]
    board = make_board(grid, lattice="square", rules="pivot", pivot=list(divmod(pivot, columns)), name=name)
    return Puzzle(name, board)


def _problem_file(path: Path) -> Puzzle:
    numbers = path.read_text().split()
    try:
        values = [int(v) for v in numbers]
    except ValueError:
        raise BoardFileError(f"{path}: expected numbers only") from None
    if len(values) < 4:
        raise BoardFileError(f"{path}: too short for 'rows columns colors' and cells")
    rows, columns, _ = values[:3]
    cells = values[3 : 3 + rows * columns]
    if len(cells) != rows * columns:
        raise BoardFileError(f"{path}: {len(cells)} cells, expected {rows}x{columns}")
    rest = values[3 + rows * columns :]
    grid = [cells[r * columns : (r + 1) * columns] for r in range(rows)]
    board = make_board(grid, lattice="square", rules="pivot", name=path.name)
    return Puzzle(path.name, board, rest[0] if rest else None)


def read_collection(path: str | Path) -> list[Puzzle]:
    """Every board in a collection file or folder."""
    return list(iter_collection(path))


def iter_collection(path: str | Path) -> Iterator[Puzzle]:
    """The boards of a collection file or folder, one at a time: a file is read line by
    line, so memory does not grow with its length and the first board comes at once.  A
    bad line raises :class:`BoardFileError` when it is reached (naming it)."""
    path = Path(path)
    if not path.exists():
        raise BoardFileError(f"{path}: no such file or folder")
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        if not files:
            raise BoardFileError(f"{path}: no boards in it")
        for p in files:
            yield _problem_file(p)
        return
    number = 0
    try:
        with open(path, encoding="utf-8") as handle:
            for index, line in enumerate(handle, 1):
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                if not all(ch.isdigit() or ch == "." for ch in text):
                    raise BoardFileError(f"{path}:{index}: expected a line of digits")
                number += 1
                yield _digit_line(text, f"{path}:{index}", f"{path.stem}#{number}")
    except UnicodeDecodeError:
        raise BoardFileError(f"{path}: not a text file") from None
    if not number:
        raise BoardFileError(f"{path}: no boards in it")


@dataclass(frozen=True, slots=True)
class Solved:
    name: str
    cells: int
    colors: int
    length: int
    optimal: bool
    lower_bound: int
    seconds: float
    known: Optional[int]
    interrupted: bool = False  # Ctrl-C stopped this board's search (and the run)


def solve_one(puzzle: Puzzle, max_seconds: Optional[float], beam: int = 0) -> Solved:
    """One board, its row for the table."""
    from .solver import solve

    board = puzzle.board
    solution = solve(board, max_seconds=max_seconds, beam=beam)
    return Solved(
        puzzle.name,
        board.rows * board.columns,
        len(board.colors_used()),
        solution.length,
        solution.optimal,
        solution.lower_bound,
        solution.seconds,
        puzzle.optimum,
        solution.interrupted,
    )


def solve_collection(
    puzzles: Iterable[Puzzle],
    max_seconds: Optional[float] = None,
    jobs: int = 1,
    beam: int = 0,
    total_seconds: Optional[float] = None,
) -> Iterator[Solved]:
    """Solve every puzzle, in order, with ``jobs`` processes (:func:`kamivision.batch.run`);
    yields :class:`Solved` rows.  ``puzzles`` may be a stream (:func:`iter_collection`):
    it is taken a few boards ahead of the workers, never whole.

    ``max_seconds`` bounds each board; ``total_seconds`` the whole run: each board gets at
    most what is left of it, and no board starts once it is spent (the run just ends).
    Ctrl-C ends the run: with one process the board being solved answers with the best
    found (its row has ``interrupted`` set) and no later board is started; with several
    the pool is stopped, and the ``KeyboardInterrupt`` reaches the caller after the rows
    already yielded."""
    return batch.run(
        puzzles,
        functools.partial(solve_one, beam=beam),
        jobs=jobs,
        max_seconds=max_seconds,
        total_seconds=total_seconds,
        interrupted=lambda row: row.interrupted,
        chunksize=8,
    )
