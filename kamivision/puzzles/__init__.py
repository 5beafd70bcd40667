"""Two sliding puzzles from the articles kamivision grew from, solved optimally.

- :mod:`~kamivision.puzzles.safezone`: Safe Zone (``kamivision.safezone/1``).
- :mod:`~kamivision.puzzles.slide`: tile sliding, KenKen boards and the 8- and
  15-puzzles (``kamivision.slide/1``, and collections such as Korf's 100);
  :mod:`~kamivision.puzzles.patterns`: the 15-puzzle's pattern databases.
- :mod:`~kamivision.puzzles.search`: the textbook A* and IDA* both use.

This module reads a puzzle file by its ``format`` field and solves it;
:mod:`kamivision.report.puzzles` says what was found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

from ..formats import puzzle_format
from . import safezone, slide, tiles
from .search import Limits, Result

Puzzle = Union[safezone.SafeZone, tiles.SlideBoard]


def read_puzzle(path: Path) -> Puzzle:
    if puzzle_format(path) == safezone.FORMAT:
        return safezone.read_safezone(path)
    return tiles.read_slide(path)


def solve_puzzle(puzzle: Puzzle, limits: Limits = Limits()) -> Result:
    if isinstance(puzzle, safezone.SafeZone):
        return safezone.solve_safezone(puzzle, limits)
    return slide.solve_slide(puzzle, limits)


def final_state(puzzle: Puzzle, result: Result):
    """The board after the moves found (blocks' bitset for Safe Zone, the tiles' tuple)."""
    if isinstance(puzzle, safezone.SafeZone):
        state = puzzle.blocks
        for move in result.moves:
            state = state ^ (1 << move.start) | (1 << move.end)
        return state
    state = list(puzzle.cells)
    blank = state.index(0)
    for move in result.moves:
        state[blank], state[move.start] = state[move.start], 0
        blank = move.start
    return tuple(state)
