"""Solutions as text for a person: numbered moves with colour names, the board in the terminal."""

from __future__ import annotations

from typing import Optional

from .board import LETTERS, Board, hex_to_rgb
from .solver import Solution

# A few reference colours for naming palette entries (sRGB).
_NAMES = {
    "black": (20, 20, 20),
    "white": (245, 245, 240),
    "grey": (128, 128, 128),
    "beige": (225, 210, 170),
    "red": (200, 40, 50),
    "crimson": (170, 20, 60),
    "orange": (230, 120, 40),
    "yellow": (235, 190, 45),
    "olive": (130, 130, 40),
    "green": (120, 180, 70),
    "dark green": (40, 100, 60),
    "teal": (30, 140, 150),
    "cyan": (80, 200, 220),
    "blue": (40, 90, 180),
    "navy": (30, 40, 90),
    "purple": (110, 60, 140),
    "pink": (230, 130, 160),
    "brown": (120, 70, 40),
}


def color_name(hex_color: str) -> str:
    """The nearest of a few everyday colour names to ``#rrggbb``."""
    r, g, b = hex_to_rgb(hex_color)
    return min(_NAMES, key=lambda n: sum((p - q) ** 2 for p, q in zip(_NAMES[n], (r, g, b))))


def color_label(board: Board, color: int) -> str:
    """``colour 2 (teal #1c8c97)`` when the palette is known, else ``colour 2 (c)``."""
    if board.palette is not None and color < len(board.palette):
        hex_color = board.palette[color]
        return f"colour {color} ({color_name(hex_color)} {hex_color})"
    return f"colour {color} ({LETTERS[color % len(LETTERS)]})"


def draw_board(board: Board, ansi: bool = False) -> str:
    """The board as letters, or as coloured blocks on a terminal that shows 24-bit colour."""
    lines = []
    for row in board.cells:
        if ansi and board.palette is not None:
            parts = []
            for v in row:
                if v is None:
                    parts.append("  ")
                else:
                    r, g, b = hex_to_rgb(board.palette[v])
                    parts.append(f"\x1b[48;2;{r};{g};{b}m{LETTERS[v]} \x1b[0m")
            lines.append("".join(parts))
        else:
            lines.append(" ".join("." if v is None else LETTERS[v % len(LETTERS)] for v in row))
    return "\n".join(lines)


def format_solution(board: Board, solution: Solution, ansi: bool = False) -> str:
    """The numbered moves, the verdict on optimality and par, and the board."""
    out = []
    title = board.name or "board"
    out.append(
        f"{title}: {board.rows}x{board.columns} {board.lattice}, "
        f"{solution.regions} regions, {solution.islands} island{'s' if solution.islands != 1 else ''}"
    )
    out.append(draw_board(board, ansi=ansi))
    out.append("")
    for i, move in enumerate(solution.moves, 1):
        out.append(f"{i:3d}. tap row {move.row}, column {move.column} -> {color_label(board, move.color)}")
    out.append("")
    out.append(_verdict(solution, board.par))
    out.append(f"searched {solution.expanded} states in {solution.seconds:.2f} s")
    out.extend(solution.notes)
    return "\n".join(out)


def _verdict(solution: Solution, par: Optional[int]) -> str:
    n = solution.length
    if solution.optimal:
        text = f"{n} moves, proven optimal"
    else:
        text = f"{n} moves, NOT proven optimal (at least {solution.lower_bound} moves are needed)"
    if par is not None:
        if n == par:
            text += f"; par is {par}"
        elif n < par:
            text += f"; beats par {par}"
        else:
            text += f"; par is {par}"
    return text
