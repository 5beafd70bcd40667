"""The main job, end to end: screenshot -> board -> solution -> overlay.

Each stage is its own module; this one only runs them in order and says what the user
should know about the result (par read from the screen, uncertain cells).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from .board import Board
from .doubt import Doubt, assess, plausible_readings, steady_moves
from .geometry import Geometry
from .overlay import draw_solution, spread_markers, step_frames
from .parcheck import CounterCheck, check_counter
from .report import cell_list, describe_changes, doubt_summary, verdict
from .solver import Progress, Solution, solve
from .vision import Recognition, load_screenshot, recognize


@dataclass(frozen=True, slots=True)
class ShotSolution:
    """A screenshot's recognised board, its solution and where to draw it."""

    image: np.ndarray
    recognition: Recognition
    solution: Solution
    geometry: Geometry
    check: Optional[CounterCheck] = None  # other readings tried when the optimum missed the counter
    doubt: Doubt = Doubt()  # which doubtful cells would change the moves

    def overlay(self) -> np.ndarray:
        """The solution over the screenshot; the cells that would change the moves
        outlined, and a line saying what to check when there is anything."""
        board = self.recognition.board
        return draw_solution(self.image, board, self.solution.moves, self.geometry, self.doubt.matters, self.picture_warning())

    def picture_warning(self) -> Optional[str]:
        """The overlay's one-line warning, or None when there is nothing to check."""
        parts = []
        par, n = self.recognition.board.par, self.solution.length
        if par is not None and n != par and self.solution.optimal:
            parts.append(f"CHECK: {n} moves proven for the board as read, the counter shows {par}.")
            best = self.check.best if self.check else None
            if best is not None:
                lead = "Probably misread" if len(self.check.matching) == 1 else "Likeliest misread"
                parts.append(f"{lead}: {describe_changes(self.recognition.board, best.changes)}.")
        if self.doubt.palette:
            parts.append(f"CHECK the colors: {self.doubt.palette}.")
        elif self.doubt.matters:
            parts.append(
                f"Outlined: {len(self.doubt.matters)} doubtful cell(s) that would change the moves; "
                "check them with kamivision review."
            )
        return " ".join(parts) or None

    def steps(self) -> list[np.ndarray]:
        return step_frames(self.image, self.recognition.board, self.solution.moves, self.geometry)

    def warnings(self) -> list[str]:
        """What the user should check, one line each (:meth:`notices`)."""
        return [notice.text for notice in self.notices()]

    def notices(self) -> list["Notice"]:
        """What the user should check: a solution that disagrees with the counter (the
        likely sign of a misread cell) and what the counter check found, then what the
        reading left in doubt; each with the cells it is about."""
        board = self.recognition.board
        return answer_notices(board, self.solution, self.check) + reading_notices(self.recognition, solved=True) + doubt_notices(board, self.doubt)

    def verdict(self) -> str:
        """The verdict in plain words (:func:`kamivision.report.verdict`)."""
        board = self.recognition.board
        return verdict(self.solution, board.par, self.doubt, board.columns)


@dataclass(frozen=True, slots=True)
class Notice:
    """One warning, the cells ``(row, column)`` it is about, and the reading it proposes
    (``(row, column, value)``: the counter check's likeliest misreading), if any."""

    text: str
    cells: tuple[tuple[int, int], ...] = ()
    changes: tuple[tuple[int, int, Optional[int]], ...] = ()


def reading_notices(recognition: Recognition, solved: bool = False) -> list[Notice]:
    """What a reading leaves in doubt that no answer can settle: an unread counter, colors
    that do not match the swatches; before a solve (``solved`` False), how many cells are
    doubtful (the solve tells which of them matter: :func:`doubt_notices`)."""
    out = []
    if recognition.board.par is None:
        out.append(Notice("the moves-left counter could not be read, so the answer is not checked against par"))
    if recognition.palette_doubt:
        out.append(Notice(f"the colors read are in doubt: {recognition.palette_doubt}; check the whole board"))
    doubtful = len(recognition.uncertain)
    if doubtful and not solved:
        hidden = len(recognition.hidden)
        edge = f", {hidden} of them hidden at the screen's edges" if hidden else ""
        out.append(Notice(f"{doubtful} cell(s) read with doubt{edge}: solving tells which of them would change the moves"))
    return out


def doubt_notices(board: Board, doubt: Doubt) -> list[Notice]:
    """The doubtful cells that would change the moves, with the cells (:mod:`kamivision.doubt`)."""
    if not doubt.matters:
        return []
    columns = board.columns
    cells = tuple(divmod(c, columns) for c in doubt.matters)
    many = len(cells) > 1
    text = (
        f"{len(cells)} doubtful cell{'s' if many else ''} would change the moves if misread: {cell_list(cells)}"
        + (f" ({doubt.search})" if doubt.search and not doubt.search.startswith("moves chosen") else "")
    )
    return [Notice(text, cells)]


def answer_notices(board: Board, solution: Solution, check: Optional[CounterCheck]) -> list[Notice]:
    """What the answer says about the reading: a proven optimum that misses the counter,
    and what re-solving other readings found (:mod:`~kamivision.parcheck`)."""
    out = []
    par, n = board.par, solution.length
    if par is not None and n > par and solution.optimal:
        out.append(
            Notice(
                f"the counter shows {par} moves left (the level's par, if this is its start) but the proven "
                f"optimum of the board as read is {n} moves: a cell is probably misread"
            )
        )
    elif par is not None and n < par and solution.optimal:
        out.append(
            Notice(
                f"{n} moves beats the {par} moves left on the counter: if this is the level's start, a cell may "
                "be misread"
            )
        )
    if check is not None:
        out.append(_check_notice(board, check))
    return out


def _check_notice(board: Board, check: CounterCheck) -> Notice:
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


def solve_screenshot(
    path: str | Path,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    progress: Optional[Progress] = None,
    check_seconds: float = 10.0,
) -> ShotSolution:
    """Recognise the board in the screenshot at ``path`` and solve it optimally; when the
    proven optimum misses the counter, try other readings of the uncertain cells
    (:func:`~kamivision.parcheck.check_counter`, at most ``check_seconds``).

    ``max_seconds`` bounds the whole: the solve gets what reading left of it, the counter
    check and the look for moves that avoid the doubt what the solve left (a picture
    larger than :data:`~kamivision.vision.READ_PIXELS` is read scaled down)."""
    started = time.perf_counter()
    path = Path(path)
    image = load_screenshot(path)
    recognition = recognize(image, str(path), name=path.stem)

    def left() -> Optional[float]:
        return None if max_seconds is None else max(0.0, max_seconds - (time.perf_counter() - started))

    solution = solve(recognition.board, max_seconds=left(), max_nodes=max_nodes, progress=progress)
    geometry = recognition.geometry()
    check = None
    if max_seconds is not None:
        check_seconds = min(check_seconds, left())
    try:
        if check_seconds > 0 and not solution.interrupted:
            check = check_counter(recognition, solution, max_seconds=check_seconds)
    except KeyboardInterrupt:  # Ctrl-C during the check: keep the answer, say it was stopped
        solution = dataclasses.replace(
            solution, interrupted=True, notes=solution.notes + ("interrupted during the counter check",)
        )
    try:
        steady = STEADY_SECONDS if max_seconds is None else min(STEADY_SECONDS, left())
        solution, doubt = settle(recognition, solution, geometry=geometry, seconds=steady)
    except KeyboardInterrupt:  # Ctrl-C before the doubt was weighed: every doubtful cell is shown
        cells = tuple(r * recognition.board.columns + c for r, c in recognition.uncertain)
        doubt = Doubt(cells, cells, tuple(() for _ in cells), palette=recognition.palette_doubt)
        solution = dataclasses.replace(solution, interrupted=True)
    return ShotSolution(image, recognition, solution, geometry, check, doubt)


#: Seconds spent looking for moves that avoid the doubt (:func:`~kamivision.doubt.steady_moves`).
STEADY_SECONDS = 0.5


def settle(
    recognition: Recognition,
    solution: Solution,
    board: Optional[Board] = None,
    geometry: Optional[Geometry] = None,
    seconds: float = STEADY_SECONDS,
) -> tuple[Solution, Doubt]:
    """The answer with moves that hold under as many readings of the doubtful cells as can
    be found (:func:`~kamivision.doubt.steady_moves`), markers spread apart on
    ``geometry`` when given, and its :class:`~kamivision.doubt.Doubt`.  ``board``: the
    board as it now stands, when a person fixed cells."""
    board = board if board is not None else recognition.board
    plausible = plausible_readings(recognition, board)
    moves, doubt = steady_moves(board, solution.moves, plausible, solution.optimal, seconds=seconds)
    if geometry is not None:
        spread = spread_markers(board, moves, geometry, avoid=frozenset(doubt.doubtful))
        after = assess(board, spread, plausible)
        if len(after.matters) <= len(doubt.matters):
            moves, doubt = spread, dataclasses.replace(after, search=doubt.search)
    doubt = dataclasses.replace(doubt, palette=recognition.palette_doubt)
    return dataclasses.replace(solution, moves=tuple(moves)), doubt


def default_output(shot: Path) -> Path:
    """``SHOT-solution.png`` beside the screenshot."""
    return shot.with_name(f"{shot.stem}-solution.png")
