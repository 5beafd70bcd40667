"""Solutions as text for a person: numbered moves with color names, the board in the terminal."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Optional

from .board import BLANK, LETTERS, Board, hex_to_rgb

if TYPE_CHECKING:
    from .doubt import Doubt
    from .solver import Solution

# Everyday names for paper colors (sRGB), matched in CIE Lab so that the nearest name is
# the one a person would pick.
_NAMES = {
    "black": (20, 20, 20),
    "charcoal": (50, 46, 40),
    "white": (245, 245, 240),
    "grey": (128, 128, 128),
    "cream": (231, 220, 197),
    "beige": (215, 195, 150),
    "red": (200, 40, 50),
    "crimson": (165, 30, 60),
    "magenta": (200, 50, 100),
    "pink": (230, 140, 165),
    "orange": (230, 110, 40),
    "amber": (233, 162, 59),
    "yellow": (240, 210, 80),
    "olive": (130, 130, 40),
    "green": (90, 160, 90),
    "mint": (100, 180, 140),
    "sage": (160, 182, 141),
    "dark green": (40, 100, 60),
    "turquoise": (50, 195, 180),
    "teal": (30, 130, 135),
    "dark teal": (30, 76, 84),
    "blue": (50, 110, 170),
    "navy": (30, 40, 90),
    "purple": (105, 70, 125),
    "brown": (120, 70, 40),
}


def _lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE Lab (D65) of an sRGB color."""

    def linear(v: float) -> float:
        v /= 255.0
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


_NAMES_LAB = {name: _lab(rgb) for name, rgb in _NAMES.items()}


def safe_text(text: str, limit: int = 120) -> str:
    """Text from a file made safe to print: control and format characters (newlines,
    escapes, right-to-left overrides) shown as escapes, and anything past ``limit``
    characters cut with an ellipsis."""
    text = str(text)
    cut = len(text) > limit
    text = text[:limit]
    out = "".join(
        ch if unicodedata.category(ch)[0] != "C" else ch.encode("unicode_escape").decode("ascii") for ch in text
    )
    return out + ("…" if cut else "")


def color_name(hex_color: str) -> str:
    """The nearest everyday color name to ``#rrggbb`` (in CIE Lab)."""
    lab = _lab(hex_to_rgb(hex_color))
    return min(_NAMES_LAB, key=lambda n: sum((p - q) ** 2 for p, q in zip(_NAMES_LAB[n], lab)))


def color_names(board: Board) -> list[str]:
    """Everyday names of the board's palette colors, unique on the board: a name two colors
    would share is followed by each one's hex value."""
    if board.palette is None:
        return []
    names = [color_name(h) for h in board.palette]
    return [f"{n} {h}" if names.count(n) > 1 else n for n, h in zip(names, board.palette)]


def color_symbol(board: Board, color: int) -> str:
    """How the board is drawn in text: colors 1-9 as their number (as the swatches on the
    phone, left to right), more colors as letters."""
    if board.color_count <= 9:
        return str(color + 1)
    return LETTERS[color % len(LETTERS)]


def color_label(board: Board, color: int) -> str:
    """``color 2 (teal)``: numbered from 1, left to right as the swatches on the phone, with
    a name unique on the board when the palette is known (``color 12 (l)`` on boards of
    more than nine colors, with the letter the board is drawn in)."""
    names = color_names(board)
    if color < len(names):
        return f"color {color + 1} ({names[color]})"
    symbol = color_symbol(board, color)
    return f"color {color + 1}" if symbol == str(color + 1) else f"color {color + 1} ({symbol})"


def draw_board(board: Board, ansi: bool = False) -> str:
    """The board as color numbers (letters past nine colors), ``.`` for blank, or as colored
    blocks on a terminal that shows 24-bit color."""
    lines = []
    for row in board.cells:
        if ansi and board.palette is not None:
            parts = []
            for v in row:
                if v is BLANK:
                    parts.append("  ")
                else:
                    r, g, b = hex_to_rgb(board.palette[v])
                    parts.append(f"\x1b[48;2;{r};{g};{b}m{color_symbol(board, v)} \x1b[0m")
            lines.append("".join(parts))
        else:
            lines.append(" ".join("." if v is BLANK else color_symbol(board, v) for v in row))
    return "\n".join(lines)


def describe_changes(board: Board, changes) -> str:
    """``(13,4) as color 1 (red), not color 3 (beige)`` for each ``(row, column, read, proposed)``."""

    def name(value) -> str:
        return "blank" if value is BLANK else color_label(board, value)

    return "; ".join(f"({r},{c}) as {name(new)}, not {name(old)}" for r, c, old, new in changes)


def progress_line(info: dict) -> str:
    """One line for a solve's progress report on the command line: the
    states searched, the lower bound proven and the shortest solution known, or, once a
    limit stopped the proof, the beam's best so far."""
    if "best" in info:  # the proof stopped; a better unproven answer is being looked for
        line = f"improving: best {info['best']} moves so far, lower bound {info['bound']}"
    else:
        line = f"searching: {info['expanded']:>9,} states, lower bound {info['bound']}"
        if "found" in info:
            line += f", {info['found']} moves found"
    return f"{line}, {info['seconds']:6.1f} s"


def format_solution(board: Board, solution: Solution, ansi: bool = False, doubt: Optional["Doubt"] = None) -> str:
    """The numbered moves, the verdict on optimality and par (and, for a screenshot, on
    the doubt in its reading), and the board."""
    out = []
    title = safe_text(board.name or "board", 60)
    out.append(
        f"{title}: {board.rows} rows x {board.columns} columns ({board.lattice}), "
        f"{solution.regions} regions, {solution.islands} island{'s' if solution.islands != 1 else ''}"
    )
    out.append(draw_board(board, ansi=ansi))
    out.append("")
    for i, move in enumerate(solution.moves, 1):
        out.append(f"{i:3d}. tap row {move.row}, column {move.column} -> {color_label(board, move.color)}")
    out.append("")
    out.append(verdict(solution, board.par, doubt, board.columns))
    if doubt is not None and doubt_summary(doubt):
        out.append(doubt_summary(doubt))
    out.append(f"searched {solution.expanded} states in {solution.seconds:.2f} s")
    out.extend(solution.notes)
    return "\n".join(out)


def format_alternative(board: Board, alternative) -> str:
    """The moves of another reading of a screenshot (:class:`~kamivision.parcheck.Alternative`)."""
    out = [f"if {describe_changes(board, alternative.changes)}:"]
    for i, move in enumerate(alternative.solution.moves, 1):
        out.append(f"{i:3d}. tap row {move.row}, column {move.column} -> {color_label(alternative.board, move.color)}")
    out.append(verdict(alternative.solution, alternative.board.par))
    return "\n".join(out)


def cell_list(cells, columns: Optional[int] = None, limit: int = 6) -> str:
    """``(3,4), (5,0) and 2 more`` for cells given as ``(row, column)`` or, with
    ``columns``, as cell numbers."""
    pairs = [divmod(c, columns) if columns is not None else c for c in cells]
    text = ", ".join(f"({r},{c})" for r, c in pairs[:limit])
    return text + (f" and {len(pairs) - limit} more" if len(pairs) > limit else "")


def verdict(solution: Solution, par: Optional[int], doubt: Optional["Doubt"] = None, columns: int = 10) -> str:
    """The verdict in plain words, for a board file (``doubt`` None) or a screenshot.

    A board file: 'N moves, proven optimal; par is P' (or not proven, with the bound).
    A screenshot says which of these holds (:mod:`kamivision.doubt`): every cell read with
    confidence; the answer holds whatever the doubtful cells are; or the proof is for the
    board as read and named cells would change the moves.  The counter is evidence about
    the reading, not proof: it is reported as agreeing or not, never as a proof.
    """
    n = solution.length
    proof = "proven optimal" if solution.optimal else f"NOT proven optimal (at least {solution.lower_bound} moves are needed)"
    if doubt is None:
        text = f"{n} moves, {proof}"
        if par is not None:
            text += f"; beats par {par}" if n < par else f"; par is {par}"
        return text
    if doubt.palette:
        text = f"{n} moves, {proof} for the board as read, but the colors themselves are in doubt ({doubt.palette}): check the whole board"
    elif doubt.matters:
        text = (
            f"{n} moves, {proof} for the board as read; check cell{'s' if len(doubt.matters) > 1 else ''} "
            f"{cell_list(doubt.matters, columns)}: if {'they differ' if len(doubt.matters) > 1 else 'it differs'}, the moves change"
        )
    elif doubt.doubtful:
        count = len(doubt.doubtful)
        text = f"{n} moves, {proof}; {'it holds' if solution.optimal else 'they hold'} whatever the {count} doubtful cell{'s are' if count > 1 else ' is'}"
    else:
        text = f"{n} moves, {proof}; every cell read with confidence"
    if par is not None:
        if n == par:
            text += f". The counter shows {par} moves, as found (evidence that the reading is right, not proof)"
        elif n < par:
            text += f". The counter shows {par} moves: this beats it"
        else:
            text += f". The counter shows {par} moves, fewer than found: a cell is probably misread"
    return text


def doubt_summary(doubt: "Doubt") -> Optional[str]:
    """One line for the doubtful cells that do not change the moves, or None."""
    if doubt.palette or not doubt.harmless:
        return None
    other = " other" if doubt.matters else ""
    many = doubt.harmless > 1
    return f"{doubt.harmless}{other} doubtful cell{'s do' if many else ' does'} not change these moves"
