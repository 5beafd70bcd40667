"""The sliding puzzles' answers in words and JSON (``kamivision solve`` on a Safe Zone or
tile-sliding file, and Korf's collection): the board, the numbered moves, the verdict,
the method, and the checks against the file's ``par`` and ``optimal``.

Tested in tests/puzzles/test_report.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..puzzles import Puzzle, final_state, safezone, tiles
from ..puzzles.fileformat import ABSENT
from ..puzzles.search import Result, Stop
from .words import safe_text, verdict

#: The directions' words, for the moves.
DIRECTIONS = {"U": "up", "D": "down", "L": "left", "R": "right"}


@dataclass(frozen=True)
class Verdict:
    """What the command line says after a solve: the text, problems to report, the exit status."""

    lines: list[str]
    errors: list[str]
    status: int  # 0 solved; 1 a stored optimum disagrees; 3 no solution; 130 Ctrl-C


def describe_move(move, columns: int) -> str:
    """One move in words: a Safe Zone block's slide, or a tile's."""
    if isinstance(move, safezone.Slide):
        (r0, c0), (r1, c1) = divmod(move.start, columns), divmod(move.end, columns)
        return f"block at ({r0}, {c0}) slides {DIRECTIONS[move.direction]} to ({r1}, {c1})"
    r, c = divmod(move.start, columns)
    return f"tile {move.tile} at ({r}, {c}) slides {DIRECTIONS[move.direction]}"


def _name(puzzle: Puzzle) -> str:
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


def puzzle_report(puzzle: Puzzle, result: Result) -> Verdict:
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
            lines.append(f"{i:3d}. {describe_move(move, columns)}")
        if not result.moves:
            lines.append("  the board is solved already (0 moves)")
        final = final_state(puzzle, result)
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


def puzzle_to_json(puzzle: Puzzle, result: Result) -> dict[str, Any]:
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
