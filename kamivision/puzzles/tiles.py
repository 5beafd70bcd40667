"""Tile sliding's rules (ken-ken-showdown, the 8- and 15-puzzles): tiles slide one at a
time into the one empty cell until the grid equals the goal.

The rules and the file format ``kamivision.slide/1`` are those of
``docs/tile-slide-format.md``: one move takes a tile next to the empty cell into it
(named by the direction the tile travels); the board is solved when it equals the goal
cell for cell; labels may repeat (a KenKen goal), and equal labels are interchangeable,
so a state is simply the tuple of labels, row by row, with 0 for the empty cell.
Unsolvable boards are recognised before any search (:func:`solvable`).  The board, its
file format, its collections and its moves are here; the bounds and the searches that
use them are :mod:`kamivision.puzzles.slide` and :mod:`kamivision.puzzles.patterns`.

Tested in tests/puzzles/test_slide.py.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Optional

from ..errors import BoardFileError
from ..formats import TILE_SLIDE
from .fileformat import ABSENT, extras, grid_rows, header, integer, read_json

FORMAT = TILE_SLIDE
#: (name, row step, column step) of the tile's travel, in the order moves are tried.
DIRECTIONS = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))
OPS = {"+": "+", "-": "-", "×": "×", "÷": "÷", "*": "×", "/": "÷", None: None}


@dataclass(frozen=True)
class SlideBoard:
    """A start and the goal it must reach, both row by row (0: the empty cell)."""

    rows: int
    columns: int
    cells: tuple[int, ...]
    goal: tuple[int, ...]
    name: Optional[str] = None
    par: Optional[int] = None
    optimal: Any = ABSENT  # int, None (proven unsolvable) or ABSENT
    cages: Optional[tuple] = None

    @property
    def distinct(self) -> bool:
        """Every tile label differs (the classic puzzles)."""
        labels = [v for v in self.cells if v]
        return len(set(labels)) == len(labels)


def default_goal(cells: list[int]) -> list[int]:
    """The labels sorted ascending, row by row, the empty cell last."""
    return sorted(v for v in cells if v) + [0]


# ---------------------------------------------------------------- the file format


def read_slide(path: str | Path) -> SlideBoard:
    obj, origin = read_json(path)
    return slide_from_dict(obj, origin)


def slide_from_dict(obj: Any, origin: str = "<slide>") -> SlideBoard:
    """Validate a ``kamivision.slide/1`` object; every problem is one
    :class:`BoardFileError` line naming ``origin`` and the place."""
    fail, rows, columns = header(obj, FORMAT, origin, "tile-slide")
    if rows * columns < 2:
        raise fail("the board needs at least 2 cells")
    if rows * columns > 400:
        raise fail(f"{rows} x {columns} is too large (at most 400 cells)")

    def grid(key: str) -> list[int]:
        flat = []
        for r, row in enumerate(grid_rows(obj, key, rows, columns, fail)):
            for c, v in enumerate(row):
                if not integer(v) or v < 0:
                    raise fail(
                        f"{key} cell ({r},{c}) is {json.dumps(v)}: expected 0 (the empty cell) or a positive integer label"
                    )
                flat.append(v)
        blanks = flat.count(0)
        if blanks != 1:
            raise fail(f"{key} has {blanks} empty cells (0), expected exactly 1")
        return flat

    cells = grid("cells")
    goal = grid("goal") if "goal" in obj else default_goal(cells)
    if Counter(cells) != Counter(goal):
        extra = sorted((Counter(cells) - Counter(goal)).elements())
        missing = sorted((Counter(goal) - Counter(cells)).elements())
        raise fail(
            f"cells and goal hold different labels: cells have {extra or 'nothing'} more, the goal {missing or 'nothing'} more"
        )
    name, par, optimal = extras(obj, fail)
    cages = _cages(obj.get("cages"), rows, columns, goal, fail) if "cages" in obj else None
    return SlideBoard(rows, columns, tuple(cells), tuple(goal), name, par, optimal, cages)


def _cages(value: Any, rows: int, columns: int, goal: list[int], fail) -> tuple:
    """Check KenKen cages against the goal: cells on the board, in one cage each, no
    empty cell, connected, every tile covered, and each operation's value."""
    if not isinstance(value, list):
        raise fail("cages must be a list")
    owner: dict[int, int] = {}
    out = []
    for i, cage in enumerate(value):
        where = f"cage {i}"
        if not isinstance(cage, dict) or not isinstance(cage.get("cells"), list) or not cage["cells"]:
            raise fail(f"{where} must be an object with a non-empty list of cells")
        cells = []
        for entry in cage["cells"]:
            if not (isinstance(entry, list) and len(entry) == 2 and all(integer(v) for v in entry)):
                raise fail(f"{where}: a cell must be [row, column], not {json.dumps(entry)[:40]}")
            r, c = entry
            if not (0 <= r < rows and 0 <= c < columns):
                raise fail(f"{where}: cell ({r},{c}) is off the board")
            cell = r * columns + c
            if cell in owner:
                raise fail(f"{where}: cell ({r},{c}) is also in cage {owner[cell]}")
            if goal[cell] == 0:
                raise fail(f"{where}: cell ({r},{c}) is the goal's empty cell")
            owner[cell] = i
            cells.append(cell)
        if not _connected(cells, columns):
            raise fail(f"{where} is not connected (cells must touch side to side)")
        op = cage.get("op")
        if op not in OPS:
            raise fail(f"{where}: op is {op!r}, expected one of + - × ÷ * / or null")
        op = OPS[op]
        labels = [goal[cell] for cell in cells]
        if op is None and len(cells) != 1:
            raise fail(f"{where}: a cage without an operation must have one cell, not {len(cells)}")
        if op is not None and len(cells) == 1:
            raise fail(f"{where}: a one-cell cage has no operation (op null)")
        if op in ("-", "÷") and len(cells) != 2:
            raise fail(f"{where}: {op} needs exactly 2 cells, not {len(cells)}")
        if op == "÷" and max(labels) % min(labels):
            raise fail(f"{where}: {max(labels)} ÷ {min(labels)} is not a whole number")
        expected = {
            None: labels[0],
            "+": sum(labels),
            "×": math.prod(labels),
            "-": max(labels) - min(labels),
            "÷": max(labels) // min(labels),
        }[op]
        value_given = cage.get("value")
        if not integer(value_given) or value_given != expected:
            raise fail(f"{where}: value is {value_given!r}, but the goal's labels give {expected}")
        out.append({"cells": [list(divmod(cell, columns)) for cell in cells], "op": op, "value": value_given})
    uncovered = [cell for cell, v in enumerate(goal) if v and cell not in owner]
    if uncovered:
        r, c = divmod(uncovered[0], columns)
        raise fail(f"goal cell ({r},{c}) is in no cage")
    return tuple(out)


def _connected(cells: list[int], columns: int) -> bool:
    rest, stack = set(cells[1:]), [cells[0]]
    while stack:
        r, c = divmod(stack.pop(), columns)
        for other in ((r - 1) * columns + c, (r + 1) * columns + c, r * columns + c - 1, r * columns + c + 1):
            if other in rest and (other // columns == r or other % columns == c):
                rest.discard(other)
                stack.append(other)
    return not rest


def slide_to_dict(board: SlideBoard, cells: Optional[tuple] = None) -> dict:
    cells = board.cells if cells is None else cells
    fold = lambda flat: [list(flat[r * board.columns : (r + 1) * board.columns]) for r in range(board.rows)]  # noqa: E731
    out: dict[str, Any] = {"format": FORMAT}
    if board.name is not None:
        out["name"] = board.name
    out.update(rows=board.rows, columns=board.columns, cells=fold(cells), goal=fold(board.goal))
    if board.cages is not None:
        out["cages"] = list(board.cages)
    if board.par is not None:
        out["par"] = board.par
    if board.optimal is not ABSENT:
        out["optimal"] = board.optimal
    return out


# ---------------------------------------------------------------- solvability


def solvable(board: SlideBoard) -> bool:
    """Whether the goal can be reached (the spec's rules, 1.6), without searching.

    A single row or column: tiles never pass each other, so the labels must come in the
    same order.  2 x 2: the three tiles only turn around the cycle, so their cyclic
    orders must match.  Otherwise, with distinct labels: the parity of the permutation
    taking start cells to goal cells (empty cell included) must equal the parity of the
    empty cell's Manhattan displacement (each move is one transposition and one step of
    the empty cell on a bipartite grid).  With a label repeated, always: the tiles reach
    every even permutation with the empty cell fixed (Wilson 1974), and swapping two
    equal tiles, an odd permutation, changes nothing visible."""
    start, goal, rows, columns = board.cells, board.goal, board.rows, board.columns
    if rows == 1 or columns == 1:
        return [v for v in start if v] == [v for v in goal if v]
    if rows == 2 and columns == 2:
        ring = (0, 1, 3, 2)
        a = [start[i] for i in ring if start[i]]
        b = [goal[i] for i in ring if goal[i]]
        return any(a[k:] + a[:k] == b for k in range(3))
    if not board.distinct:
        return True
    where = {v: i for i, v in enumerate(goal)}
    permutation = [where[v] for v in start]
    seen, parity = [False] * len(permutation), 0
    for i in range(len(permutation)):  # parity from the cycle lengths
        length = 0
        while not seen[i]:
            seen[i] = True
            i = permutation[i]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    blank, target = start.index(0), goal.index(0)
    distance = abs(blank // columns - target // columns) + abs(blank % columns - target % columns)
    return parity == distance & 1


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class TileMove:
    """Tile ``tile`` at cell ``start`` slides one cell in ``direction`` into the empty cell."""

    tile: int
    start: int
    direction: str

    def to_json(self, columns: int) -> dict:
        return {"tile": self.tile, "from": list(divmod(self.start, columns)), "dir": self.direction}


class SlideProblem:
    """The board as a search problem: a state is the tuple of labels, row by row."""

    def __init__(self, board: SlideBoard):
        self.board = board
        rows, columns = board.rows, board.columns
        # For each empty cell: (tile's cell, direction the tile travels) for U, D, L, R.
        self.sources = []
        for blank in range(rows * columns):
            r, c = divmod(blank, columns)
            options = []
            for name, dr, dc in DIRECTIONS:
                rr, cc = r - dr, c - dc  # the tile comes from the opposite side
                if 0 <= rr < rows and 0 <= cc < columns:
                    options.append((rr * columns + cc, name))
            self.sources.append(tuple(options))

    def start(self) -> tuple[int, ...]:
        return self.board.cells

    def is_goal(self, state: tuple[int, ...]) -> bool:
        return state == self.board.goal

    def moves(self, state: tuple[int, ...]) -> Iterator[tuple[TileMove, tuple[int, ...]]]:
        blank = state.index(0)
        for source, name in self.sources[blank]:
            child = list(state)
            child[blank], child[source] = child[source], 0
            yield TileMove(state[source], source, name), tuple(child)


def draw(board: SlideBoard, cells: Optional[tuple] = None) -> str:
    """The board beside its goal: labels in a grid, ``.`` for the empty cell."""
    cells = board.cells if cells is None else cells
    width = max(len(str(v)) for v in board.goal)
    lines = []
    for r in range(board.rows):
        now = " ".join(str(v or ".").rjust(width) for v in cells[r * board.columns : (r + 1) * board.columns])
        goal = " ".join(str(v or ".").rjust(width) for v in board.goal[r * board.columns : (r + 1) * board.columns])
        lines.append(f"{now}    {goal}" if r else f"{now}    {goal}   <- goal")
    return "\n".join(lines)


def read_collection(path: str | Path) -> list[tuple[str, SlideBoard]]:
    """Every board of a collection file (:func:`iter_collection`)."""
    return list(iter_collection(path))


def iter_collection(path: str | Path) -> Iterator[tuple[str, SlideBoard]]:
    """A collection, one board a line: ``id optimal nodes t1 .. tN`` (Korf's file) or just
    the N tiles (N a square), row by row, 0 the empty cell; ``#`` starts a comment.  The
    goal is Korf's: 0 1 2 .. N-1, the empty cell at the top left.  Read a line at a time
    (memory does not grow with the file); a bad line raises when it is reached.  A board
    is named by its id, or ``#k`` (the k-th line without one)."""
    from ..files import check_input

    path = check_input(path, BoardFileError)
    count = bare = 0
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                values = [int(v) for v in text.split()]
            except ValueError:
                raise BoardFileError(f"{path}: line {number} is not a list of integers") from None
            side = next((s for s in range(2, 21) if len(values) - s * s in (0, 3)), None)
            if side is None and len(values) == 1 and len(text) >= 9 and text.isdigit():
                raise BoardFileError(
                    f"{path}: line {number} is one run of {len(text)} digits: it looks like a Flood-It collection "
                    "(a board of color digits a line); solve it with --rules pivot"
                )
            if side is None:
                raise BoardFileError(
                    f"{path}: line {number} has {len(values)} numbers: expected N tiles (N a square), or an id, the optimum and a node count before them"
                )
            tiles = values[-side * side :]
            if sorted(tiles) != list(range(side * side)):
                raise BoardFileError(f"{path}: line {number}: the tiles must be 0 to {side * side - 1}, each once")
            if len(values) > side * side:
                name, optimal = str(values[0]), values[1]
            else:
                bare += 1
                name, optimal = f"#{bare}", ABSENT
            count += 1
            yield name, SlideBoard(side, side, tuple(tiles), tuple(range(side * side)), name=name, optimal=optimal)
    if not count:
        raise BoardFileError(f"{path}: no board in the file")
