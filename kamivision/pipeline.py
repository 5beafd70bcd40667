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
        """What the user should check: a solution that disagrees with the par on screen (the
        likely sign of a misread cell) and cells read with little confidence."""
        out = []
        par, n = self.recognition.board.par, self.solution.length
        if par is None:
            out.append("the moves-left counter could not be read, so the answer is not checked against par")
        elif n > par and self.solution.optimal:
            out.append(
                f"the counter shows {par} moves left (the level's par, if this is its start) but the proven "
                f"optimum of the board as read is {n} moves: a cell is probably misread; check it with "
                "'kamivision review'"
            )
        elif n < par and self.solution.optimal:
            out.append(
                f"{n} moves beats the {par} moves left on the counter; if this is the level's start, a cell may "
                "be misread (check with 'kamivision review')"
            )
        if self.check is not None:
            out.append(self._check_warning())
        hidden = self.recognition.hidden
        if hidden:
            out.append(
                f"the board is wider than the screen: {len(hidden)} cell(s) at its left and right edges are hidden, "
                "guessed from their neighbors and listed as uncertain"
            )
        uncertain = self.recognition.uncertain
        if uncertain:
            shown = ", ".join(f"({r},{c})" for r, c in uncertain[:6]) + (" ..." if len(uncertain) > 6 else "")
            out.append(f"{len(uncertain)} cell(s) read with low confidence: {shown}; check with 'kamivision review'")
        return out

    def _check_warning(self) -> str:
        check, board = self.check, self.recognition.board
        best = check.best
        if best is None and check.tried == 0 and check.complete:
            return (
                "every cell was read with confidence, so no other reading was tried: if this is the level's start, "
                "check the board with 'kamivision review'; later in a level the counter shows the moves left, not par"
            )
        if best is None and check.matching:
            return (
                f"{len(check.matching)} of the {check.tried} other readings tried meet the counter, so the check "
                "cannot tell which cell is misread: check the outlined cells with 'kamivision review'"
            )
        if best is None:
            scope = "" if check.complete else " (cut short by the time limit)"
            return (
                f"no other reading of the {check.tried} tried{scope} meets the counter: the misread cells may be "
                "more than two, or this is not the level's start"
            )
        changed = describe_changes(board, best.changes)
        if len(check.matching) == 1:
            return (
                f"of {check.tried} other readings tried, only {changed} gives a proven optimum of {check.counter} "
                "moves, as the counter shows: probably misread; its moves are printed below"
            )
        return (
            f"{len(check.matching)} of {check.tried} other readings tried give a proven optimum of {check.counter} "
            f"moves, as the counter shows; the likeliest is {changed} (its moves are printed below): check these "
            "cells with 'kamivision review'"
        )

    def verdict(self) -> Optional[str]:
        par = self.recognition.board.par
        if par is not None and self.solution.length == par:
            return f"matches the {par} moves left on the counter (the par, at the level's start)"
        return None


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
