"""Results in words: numbered moves with color names, the board in the terminal, the
verdict, the notices of what to check (:class:`Notice`).

Tested in tests/test_report.py.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from ..board import BLANK, LETTERS, Board, hex_to_rgb
from .notes import note_text, palette_text, search_text

if TYPE_CHECKING:
    from ..check.doubt import Doubt
    from ..check.parcheck import CounterCheck
    from ..solver import Solution
    from ..vision import Recognition

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


def progress_line(info: dict, width: Optional[int] = None) -> str:
    """One line for a solve's progress report on the command line: the
    states searched, the lower bound proven, the shortest solution known, whether the
    memory is full (the proof goes on depth-first, slower) and how far the last
    threshold's sweep is, or, once a limit stopped the proof, the beam's best so far.

    ``width``: the characters the line may take.  A longer line is said in fewer words
    (the states' count goes first), so that the moves found, the bound and the seconds,
    which a player watches to know when to stop, stay in sight on a narrow terminal."""
    seconds = f"{info['seconds']:.1f} s"
    if "best" in info:  # the proof stopped; a better unproven answer is being looked for
        forms = [
            f"improving: best {info['best']} moves so far, lower bound {info['bound']}, {info['seconds']:6.1f} s",
            f"best {info['best']} moves, bound {info['bound']}, {seconds}",
        ]
    else:
        found = [f"{info['found']} moves found"] if "found" in info else []
        full = ["memory full"] if info.get("memory_full") else []  # the proof went on depth-first
        # The last threshold's sweep works down from the board's regions to 2 (it proves
        # nothing until it ends, so how far down it is is the progress there is to show).
        at = [f"down to {info['regions']} of {info['regions_from']} regions"] if "regions" in info else []
        forms = [
            ", ".join(
                [f"searching: {info['expanded']:>9,} states", f"lower bound {info['bound']}", *found, *full, *at]
                + [f"{info['seconds']:6.1f} s"]
            ),
            ", ".join([f"{info['expanded']:,} states", f"bound {info['bound']}", *found, *full, *at, seconds]),
            ", ".join([f"bound {info['bound']}", *found, *full, seconds]),
            ", ".join([f"bound {info['bound']}", *([f"{info['found']} found"] if found else []), seconds]),
        ]
    for line in forms:
        if width is None or len(line) <= width:
            return line
    return forms[-1]


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
    out.extend(note_text(note) for note in solution.notes)
    return "\n".join(out)


def format_alternative(board: Board, alternative) -> str:
    """The moves of another reading of a screenshot (:class:`~kamivision.check.parcheck.Alternative`)."""
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
    A screenshot says which of these holds (:mod:`kamivision.check.doubt`): every cell read with
    confidence; the answer holds whatever the doubtful cells are; or the proof is for the
    board as read and named cells would change the moves.  The counter is evidence about
    the reading, not proof: it is reported as agreeing or not, never as a proof.
    """
    n = solution.length
    proof = (
        "proven optimal"
        if solution.optimal
        else f"NOT proven optimal (at least {solution.lower_bound} moves are needed)"
    )
    if doubt is None:
        text = f"{plural(n, 'move')}, {proof}"
        if par is not None:
            text += f"; beats par {par}" if n < par else f"; par is {par}"
        return text
    if doubt.palette:
        text = f"{plural(n, 'move')}, {proof} for the board as read, but the colors themselves are in doubt ({palette_text(doubt.palette)}): check the whole board"
    elif doubt.matters:
        text = (
            f"{plural(n, 'move')}, {proof} for the board as read; check cell{'s' if len(doubt.matters) > 1 else ''} "
            f"{cell_list(doubt.matters, columns)}: if {'they differ' if len(doubt.matters) > 1 else 'it differs'}, the moves change"
        )
    elif doubt.doubtful:
        # The moves are replayed under every plausible reading (kamivision.check.doubt): they
        # solve the board in n moves whatever the doubtful cells are.  Whether another
        # reading has a *shorter* answer is not known, so the proof is said of the board
        # as read only, and "optimal" is not said of the other readings.
        count = len(doubt.doubtful)
        text = (
            f"{plural(n, 'move')}, {proof} for the board as read; these moves solve it whatever the {count} "
            f"doubtful cell{'s are' if count > 1 else ' is'}"
        )
    else:
        text = f"{plural(n, 'move')}, {proof}; every cell read with confidence"
    if par is not None:
        text += ". " + counter_sentence(n, par, solution.optimal)
    return text


def counter_sentence(n: int, par: int, optimal: bool) -> str:
    """What the counter says of an answer of ``n`` moves.  The counter is evidence, never
    proof, and a counter that disagrees is not turned into "a cell is misread": the
    reading may be wrong, or the screenshot not taken at the level's start (the counter
    then shows the moves left).  Only the counter check (:mod:`kamivision.check.parcheck`), when
    a re-solved reading meets the counter, names a misread cell."""
    moves = plural(par, "move")
    if n == par:
        return f"The counter shows {moves}, as found (evidence that the reading is right, not proof)"
    if n < par:
        return f"The counter shows {moves}: this beats it"
    if optimal:
        return (
            f"The counter shows {moves}, the board as read needs {n}: the board may be misread, "
            "or this is not the level's start"
        )
    return f"The counter shows {moves}, fewer than found: the search stopped before a shorter answer, or the board may be misread"


def plural(count: int, noun: str) -> str:
    """``1 move``, ``2 moves``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def doubt_summary(doubt: "Doubt") -> Optional[str]:
    """One line for the doubtful cells that do not change the moves, or None."""
    if doubt.palette or not doubt.harmless:
        return None
    other = " other" if doubt.matters else ""
    many = doubt.harmless > 1
    return f"{doubt.harmless}{other} doubtful cell{'s do' if many else ' does'} not change these moves"


# ------------------------------------------------------------------ notices


@dataclass(frozen=True, slots=True)
class Notice:
    """One warning, the cells ``(row, column)`` it is about, and the reading it proposes
    (``(row, column, value)``: the counter check's likeliest misreading), if any."""

    text: str
    cells: tuple[tuple[int, int], ...] = ()
    changes: tuple[tuple[int, int, Optional[int]], ...] = ()


def reading_notices(recognition: "Recognition", solved: bool = False) -> list[Notice]:
    """What a reading leaves in doubt that no answer can settle: an unread counter, colors
    that do not match the swatches; before a solve (``solved`` False), how many cells are
    doubtful (the solve tells which of them matter: :func:`doubt_notices`)."""
    out = []
    if not recognition.layout.swatches:
        out.append(
            Notice(
                "the picture shows the board alone: its colors were read from the cells, and there is no counter to check the answer against"
            )
        )
    elif recognition.board.par is None:
        out.append(Notice("the moves-left counter could not be read, so the answer is not checked against par"))
    if recognition.palette_doubt:
        out.append(
            Notice(f"the colors read are in doubt: {palette_text(recognition.palette_doubt)}; check the whole board")
        )
    doubtful = len(recognition.uncertain)
    if doubtful and not solved:
        hidden = len(recognition.hidden)
        edge = f", {hidden} of them hidden at the screen's edges" if hidden else ""
        out.append(
            Notice(
                f"{plural(doubtful, 'cell')} read with doubt{edge}: solving tells which of them would change the moves"
            )
        )
    return out


def doubt_notices(board: Board, doubt: "Doubt") -> list[Notice]:
    """The doubtful cells that would change the moves, with the cells (:mod:`kamivision.check.doubt`)."""
    if not doubt.matters:
        return []
    columns = board.columns
    cells = tuple(divmod(c, columns) for c in doubt.matters)
    many = len(cells) > 1
    text = f"{len(cells)} doubtful cell{'s' if many else ''} would change the moves if misread: {cell_list(cells)}" + (
        f" ({search_text(doubt.search)})" if doubt.search and not doubt.search.held else ""
    )
    return [Notice(text, cells)]


def answer_notices(board: Board, solution: "Solution", check: Optional["CounterCheck"]) -> list[Notice]:
    """What the answer says about the reading: a proven optimum that misses the counter,
    and what re-solving other readings found (:mod:`~kamivision.check.parcheck`)."""
    out, par, n = [], board.par, solution.length
    if counter_missed(board, solution) is not None:
        out.append(counter_missed(board, solution))
    elif par is not None and n < par and solution.optimal:
        text = (
            f"{n} moves beats the {par} moves left on the counter: if this is the level's start, a cell may be misread"
        )
        out.append(Notice(text))
    if check is not None:
        out.append(_check_notice(board, check))
    return out


def counter_missed(board: Board, solution: "Solution") -> Optional[Notice]:
    """That the proven optimum needs more moves than the counter shows (None if not): the
    verdict says it too (:func:`counter_sentence`), and where both show, it alone does."""
    par, n = board.par, solution.length
    return (
        None
        if par is None or n <= par or not solution.optimal
        else Notice(
            f"the counter shows {plural(par, 'move')} left (the level's par, if this is its start) but the proven "
            f"optimum of the board as read is {n} moves: the board may be misread, or this is not the level's start"
        )
    )


def _check_notice(board: Board, check: "CounterCheck") -> Notice:
    best = check.best
    if best is None and check.tried == 0 and check.complete:
        return Notice(
            "every cell was read with confidence, so no other reading was tried: if this is the level's start, "
            "check the board; later in a level the counter shows the moves left, not par"
        )
    if best is None and check.matching:
        return Notice(
            f"{len(check.matching)} of the {check.tried} other readings tried meet the counter, so the check "
            "cannot tell which cell is misread: check the outlined cells"
        )
    if best is None:
        scope = "" if check.complete else " (cut short by the time limit)"
        return Notice(
            f"no other reading of the {check.tried} tried{scope} meets the counter: the misread cells may be "
            "more than two, or this is not the level's start"
        )
    changed = describe_changes(board, best.changes)
    cells = tuple((r, c) for r, c, _, _ in best.changes)
    changes = tuple((r, c, new) for r, c, _, new in best.changes)
    if len(check.matching) == 1:
        text = (
            f"of {check.tried} other readings tried, only {changed} gives a proven optimum of {check.counter} "
            "moves, as the counter shows: probably misread"
        )
    else:
        text = (
            f"{len(check.matching)} of {check.tried} other readings tried give a proven optimum of {check.counter} "
            f"moves, as the counter shows; the likeliest is {changed}: check these cells"
        )
    return Notice(text, cells, changes)


def sentence(text: str) -> str:
    """A notice's text as a sentence: capitalized, with a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def picture_warning(notices: list[Notice]) -> Optional[str]:
    """The overlay's warning strip: the notices as one paragraph, or None without any."""
    if not notices:
        return None
    return "CHECK: " + " ".join(sentence(n.text) for n in notices)
