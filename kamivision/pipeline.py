"""The main job, end to end: screenshot -> board -> solution -> overlay.

Each stage is its own module; this one only runs them in order and says what the user
should know about the result (par read from the screen, uncertain cells).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from .board import Board
from .files import load_image
from .overlay import Geometry, draw_solution, spread_markers, step_frames
from .parcheck import CounterCheck, check_counter
from .report import describe_changes
from .solver import Progress, Solution, solve
from .vision import Recognition, recognize


@dataclass(frozen=True, slots=True)
class ShotSolution:
    """A screenshot's recognised board, its solution and where to draw it."""

    image: np.ndarray
    recognition: Recognition
    solution: Solution
    geometry: Geometry
    check: Optional[CounterCheck] = None  # other readings tried when the optimum missed the counter

    def overlay(self) -> np.ndarray:
        """The solution over the screenshot; uncertain cells outlined, and a line saying
        what to check when the answer does not match the counter or cells are uncertain."""
        board = self.recognition.board
        doubtful = [r * board.columns + c for r, c in self.recognition.uncertain]
        return draw_solution(self.image, board, self.solution.moves, self.geometry, doubtful, self.picture_warning())

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
        uncertain = len(self.recognition.uncertain)
        if uncertain:
            parts.append(f"{uncertain} uncertain cell(s) outlined: check them with kamivision review.")
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
        return answer_notices(board, self.solution, self.check) + reading_notices(self.recognition)

    def verdict(self) -> Optional[str]:
        par = self.recognition.board.par
        if par is not None and self.solution.length == par:
            return f"matches the {par} moves left on the counter (the par, at the level's start)"
        return None


@dataclass(frozen=True, slots=True)
class Notice:
    """One warning, the cells ``(row, column)`` it is about, and the reading it proposes
    (``(row, column, value)``: the counter check's likeliest misreading), if any."""

    text: str
    cells: tuple[tuple[int, int], ...] = ()
    changes: tuple[tuple[int, int, Optional[int]], ...] = ()


def reading_notices(recognition: Recognition) -> list[Notice]:
    """What a reading leaves in doubt, before any solve: an unread counter, hidden cells,
    cells read with little confidence."""
    out = []
    if recognition.board.par is None:
        out.append(Notice("the moves-left counter could not be read, so the answer is not checked against par"))
    hidden = recognition.hidden
    if hidden:
        out.append(
            Notice(
                f"the board is wider than the screen: {len(hidden)} cell(s) at its left and right edges are hidden, "
                "guessed from their neighbors and listed as uncertain",
                tuple(hidden),
            )
        )
    uncertain = recognition.uncertain
    if uncertain:
        shown = ", ".join(f"({r},{c})" for r, c in uncertain[:6]) + (" ..." if len(uncertain) > 6 else "")
        out.append(
            Notice(
                f"{len(uncertain)} cell(s) read with low confidence: {shown}",
                tuple(uncertain),
            )
        )
    return out


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
    (:func:`~kamivision.parcheck.check_counter`, at most ``check_seconds``)."""
    path = Path(path)
    image = load_image(path)
    recognition = recognize(image, str(path), name=path.stem)
    solution = solve(recognition.board, max_seconds=max_seconds, max_nodes=max_nodes, progress=progress)
    check = check_counter(recognition, solution, max_seconds=check_seconds) if check_seconds > 0 else None
    layout = recognition.layout
    x, y, w, h = layout.board
    geometry = Geometry((x, y + recognition.offset, w, h), layout.visible)
    moves = spread_markers(recognition.board, solution.moves, geometry)
    solution = dataclasses.replace(solution, moves=tuple(moves))
    return ShotSolution(image, recognition, solution, geometry, check)


def default_output(shot: Path) -> Path:
    """``SHOT-solution.png`` beside the screenshot."""
    return shot.with_name(f"{shot.stem}-solution.png")
