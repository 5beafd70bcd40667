"""A source's answer, typed by its kind: a board file's (:class:`BoardAnswer`), a
screenshot's (:class:`ShotAnswer`) or a puzzle's (:class:`PuzzleAnswer`).  Made by
:func:`kamivision.sources.solve_source`, worded by :mod:`kamivision.report`.

Tested in tests/test_sources.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board
    from .pipeline import ShotSolution
    from .puzzles import Puzzle
    from .puzzles.search import Result
    from .solver import Solution


@dataclass(frozen=True, slots=True)
class BoardAnswer:
    """A board file solved."""

    board: "Board"
    solution: "Solution"


@dataclass(frozen=True, slots=True)
class ShotAnswer:
    """A screenshot read and solved (its board is the reading's)."""

    shot: "ShotSolution"

    @property
    def board(self) -> "Board":
        return self.shot.recognition.board

    @property
    def solution(self) -> "Solution":
        return self.shot.solution


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """A Safe Zone or tile-sliding puzzle solved."""

    puzzle: "Puzzle"
    result: "Result"


Answer = BoardAnswer | ShotAnswer | PuzzleAnswer
