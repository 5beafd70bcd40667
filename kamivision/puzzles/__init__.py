"""Two sliding puzzles from the articles kamivision grew from, solved optimally.

- :mod:`~kamivision.puzzles.safezone`: Safe Zone (``kamivision.safezone/1``).
- :mod:`~kamivision.puzzles.slide`: tile sliding, KenKen boards and the 8- and
  15-puzzles (``kamivision.slide/1``, and collections such as Korf's 100);
  :mod:`~kamivision.puzzles.patterns`: the 15-puzzle's pattern databases.
- :mod:`~kamivision.puzzles.search`: the textbook A* and IDA* both use.

This module reads a puzzle file by its ``format`` field, solves it and says what was
found, for the command line (``kamivision solve FILE``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from ..formats import puzzle_format
from ..report import verdict
from . import safezone, slide, tiles
from .fileformat import ABSENT
from .search import Limits, Result, Stop

Puzzle = Union[safezone.SafeZone, tiles.SlideBoard]


def read_puzzle(path: Path) -> Puzzle:
    if puzzle_format(path) == safezone.FORMAT:
        return safezone.read_safezone(path)
    return tiles.read_slide(path)


def solve_puzzle(puzzle: Puzzle, limits: Limits = Limits()) -> Result:
    if isinstance(puzzle, safezone.SafeZone):
        return safezone.solve_safezone(puzzle, limits)
    return slide.solve_slide(puzzle, limits)


@dataclass(frozen=True)
class Verdict:
    """What the command line says after a solve: the text, problems to report, the exit status."""

    lines: list[str]
    errors: list[str]
    status: int  # 0 solved; 1 a stored optimum disagrees; 3 no solution; 130 Ctrl-C


def _name(puzzle: Puzzle) -> str:
    from ..report import safe_text

    return safe_text(puzzle.name or "board", 60)


def _title(puzzle: Puzzle) -> str:
    if isinstance(puzzle, safezone.SafeZone):
        blocks, zones = puzzle.blocks.bit_count(), puzzle.zones.bit_count()
        rules = "" if puzzle.rules == "slide" else f", rules {puzzle.rules}"
        return (
            f"{_name(puzzle)}: Safe Zone, {puzzle.rows} rows x {puzzle.columns} columns, {blocks} block"
            f"{'s' if blocks != 1 else ''}, {zones} safe zone{'s' if zones != 1 else ''}{rules}"
        )
    kind = "distinct tiles" if puzzle.distinct else "repeated labels (equal tiles are interchangeable)"
    return f"{_name(puzzle)}: tile sliding, {puzzle.rows} rows x {puzzle.columns} columns, {kind}"


def _method(puzzle: Puzzle, result: Result) -> str:
    if isinstance(puzzle, safezone.SafeZone):
        return "A*, bound: blocks matched to safe zones by straight-segment distance"
    if result.bound is not None:
        return f"IDA*, bound: {result.bound}"
    if puzzle.rows * puzzle.columns > 9 and puzzle.distinct:
        return "IDA*, bound: Manhattan distance and linear conflicts"
    return "A*, bound: Manhattan distance and linear conflicts" + (
        "" if puzzle.distinct else " over matchings of equal tiles"
    )


def report(puzzle: Puzzle, result: Result) -> Verdict:
    """The board, the numbered moves, the count and whether it is proven, the bound, the
    time; the checks against the file's ``par`` and ``optimal``."""
    is_zone = isinstance(puzzle, safezone.SafeZone)
    draw = safezone.draw if is_zone else tiles.draw
    lines = [_title(puzzle), draw(puzzle), ""]
    errors: list[str] = []
    columns = puzzle.columns
    stored = puzzle.optimal
    if result.unsolvable:
        if not is_zone:
            why = "the parity rule shows it, without searching"
        elif result.expanded == 0:
            why = "some safe zone cannot be reached by any block, even sliding freely"
        else:
            why = f"all {result.expanded:,} reachable states were searched"
        lines.append(f"no solution: the goal cannot be reached ({why})")
        if stored is not ABSENT and stored is not None:
            errors.append(f"the file says the optimum is {stored}, but the board has no solution")
        status = 3
    elif result.moves is None:
        lines.append(
            f"no solution found before the {'interruption' if result.stopped is Stop.INTERRUPTED else 'limit'}: at least {result.lower_bound} moves are needed"
        )
        status = 130 if result.stopped is Stop.INTERRUPTED else 0
    else:
        for i, move in enumerate(result.moves, 1):
            lines.append(f"{i:3d}. {move.describe(columns)}")
        if not result.moves:
            lines.append("  the board is solved already (0 moves)")
        final = _final(puzzle, result)
        lines += ["", draw(puzzle, final), ""]
        n = len(result.moves)
        lines.append(verdict(result, puzzle.par))
        if result.optimal and stored is not ABSENT and stored != n:
            said = "no solution" if stored is None else f"an optimum of {stored}"
            errors.append(f"the file says {said}, but the proven optimum is {n} moves")
        status = 130 if result.stopped is Stop.INTERRUPTED else 0
    lines.append(f"searched {result.expanded:,} states in {result.seconds:.2f} s ({_method(puzzle, result)})")
    if errors:
        status = 1
    return Verdict(lines, errors, status)


def _final(puzzle: Puzzle, result: Result):
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


def result_to_json(puzzle: Puzzle, result: Result) -> dict[str, Any]:
    """``{"board": ..., "moves": [...], "length": n|null, "optimal": bool, "lower_bound": b,
    "solvable": bool, "par": p|null, "seconds": t, "expanded": e}``; moves in the spec's form."""
    to_dict = safezone.safezone_to_dict if isinstance(puzzle, safezone.SafeZone) else tiles.slide_to_dict
    return {
        "board": to_dict(puzzle),
        "moves": None if result.moves is None else [m.to_json(puzzle.columns) for m in result.moves],
        "length": result.length,
        "optimal": result.optimal and result.moves is not None,
        "lower_bound": result.lower_bound,
        "solvable": not result.unsolvable,
        "par": puzzle.par,
        "seconds": round(result.seconds, 4),
        "expanded": result.expanded,
    }
