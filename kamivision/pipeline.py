"""The main job, end to end: screenshot -> board -> solution -> overlay.

Each stage is its own module; this one only runs them in order and says what the user
should know about the result (par read from the screen, uncertain cells).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from .board import Board
from .check.doubt import Doubt, assess, plausible_readings
from .check.parcheck import CounterCheck, check_counter
from .check.steady import steady_moves
from .geometry import Geometry
from .limits import Stop
from .overlay import draw_solution, spread_markers, step_frames
from .report import Notice, answer_notices, counter_missed, doubt_notices, picture_warning, reading_notices, verdict
from .solver import Progress, SearchSettings, Solution, solve
from .solver.notes import Stopped
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
        return draw_solution(
            self.image, board, self.solution.moves, self.geometry, self.doubt.matters, self.picture_warning()
        )

    def picture_warning(self) -> Optional[str]:
        """The overlay's warning: the notices (:meth:`notices`) in one paragraph, or None
        when there is nothing to check."""
        return picture_warning(self.notices())

    def steps(self) -> list[np.ndarray]:
        return step_frames(self.image, self.recognition.board, self.solution.moves, self.geometry)

    def warnings(self) -> list[str]:
        """What the user should check, one line each, printed below the verdict
        (:meth:`notices`, less the counter's disagreement, which the verdict states)."""
        said = counter_missed(self.recognition.board, self.solution)
        return [notice.text for notice in self.notices() if notice != said]

    def notices(self) -> list[Notice]:
        """What the user should check: a solution that disagrees with the counter (the
        likely sign of a misread cell) and what the counter check found, then what the
        reading left in doubt; each with the cells it is about."""
        board = self.recognition.board
        return (
            answer_notices(board, self.solution, self.check)
            + reading_notices(self.recognition, solved=True)
            + doubt_notices(board, self.doubt)
        )

    def verdict(self) -> str:
        """The verdict in plain words (:func:`kamivision.report.verdict`)."""
        board = self.recognition.board
        return verdict(self.solution, board.par, self.doubt, board.columns)


def solve_screenshot(
    path: str | Path,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    progress: Optional[Progress] = None,
    check_seconds: float = 10.0,
    settings: Optional[SearchSettings] = None,
) -> ShotSolution:
    """Recognise the board in the screenshot at ``path`` and solve it optimally; when the
    proven optimum misses the counter, try other readings of the uncertain cells
    (:func:`~kamivision.check.parcheck.check_counter`, at most ``check_seconds``).

    ``max_seconds`` bounds the whole: the solve gets what reading left of it, the counter
    check and the look for moves that avoid the doubt what the solve left (a picture
    larger than :data:`~kamivision.vision.READ_PIXELS` is read scaled down); ``settings``
    are the solve's (:meth:`SearchSettings.for_this_machine` by default)."""
    started = time.perf_counter()
    path = Path(path)
    image = load_screenshot(path)
    recognition = recognize(image, str(path), name=path.stem)

    def left() -> Optional[float]:
        return None if max_seconds is None else max(0.0, max_seconds - (time.perf_counter() - started))

    solution = solve(recognition.board, max_seconds=left(), max_nodes=max_nodes, progress=progress, settings=settings)
    geometry = recognition.geometry()
    steady = STEADY_SECONDS if max_seconds is None else min(STEADY_SECONDS, left())
    check_seconds = check_seconds if max_seconds is None else min(check_seconds, max(0.0, left() - steady))
    check, doubt = None, Doubt()
    for event in after_solve(
        recognition, solution, steady_seconds=steady, check_seconds=check_seconds, settings=settings
    ):
        solution = event.solution
        if isinstance(event, Solved):
            doubt = event.doubt
        else:
            check = event.check
    return ShotSolution(image, recognition, solution, geometry, check, doubt)


#: Seconds spent looking for moves that avoid the doubt (:func:`~kamivision.check.steady.steady_moves`).
STEADY_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class Progressed:
    """A progress report of the search (:data:`kamivision.solver.Progress`'s ``info``)."""

    info: dict


@dataclass(frozen=True, slots=True)
class Solved:
    """The answer to show: the moves chosen to hold under the reading's doubt, spread
    apart on the screenshot, and that doubt (None for a board file); ``checking``: a
    counter check follows (:class:`Checked`)."""

    solution: Solution
    doubt: Optional[Doubt]
    checking: bool


@dataclass(frozen=True, slots=True)
class Checked:
    """The counter check's finding (None when Ctrl-C stopped it: the answer stands, marked
    as stopped, in ``solution``)."""

    solution: Solution
    check: Optional[CounterCheck]


#: What happens after a search starts, in order: progress reports, one :class:`Solved`,
#: then one :class:`Checked` when the counter check runs.
Event = Progressed | Solved | Checked


def after_solve(
    recognition: Optional[Recognition],
    solution: Solution,
    board: Optional[Board] = None,
    *,
    steady_seconds: float = STEADY_SECONDS,
    check_seconds: float = 10.0,
    cancelled=lambda: False,
    settings: Optional[SearchSettings] = None,
) -> Iterator[Solved | Checked]:
    """What follows a solve, the one sequence the command line, the page's queue and the
    Redis workers all run: the moves settled under the reading's doubt (:func:`settle`,
    markers spread on the screenshot), yielded as :class:`Solved` at once, then the
    counter check (:func:`~kamivision.check.parcheck.check_counter`, at most
    ``check_seconds``; it finds nothing to do unless the proven optimum misses the
    counter), yielded as :class:`Checked`.  ``recognition`` None: a board file, nothing to
    settle or check.  ``board``: the board as it now stands, when a person fixed cells;
    ``cancelled()``: a cancel was asked for (no check then); ``settings``: the solve's,
    for the check's searches (its memory above all).

    Ctrl-C while the doubt is weighed keeps the answer and shows every doubtful cell;
    Ctrl-C during the check keeps the answer, says it was stopped, and drops the check."""
    if recognition is None:
        yield Solved(solution, None, False)
        return
    try:
        solution, doubt = settle(recognition, solution, board, geometry=recognition.geometry(), seconds=steady_seconds)
    except KeyboardInterrupt:
        doubt = everything_doubtful(recognition)
        solution = dataclasses.replace(solution, stopped=Stop.INTERRUPTED)
    checking = check_seconds > 0 and not solution.interrupted and not cancelled()
    yield Solved(solution, doubt, checking)
    if not checking:
        return
    try:
        check = check_counter(recognition, solution, board=board, max_seconds=check_seconds, settings=settings)
    except KeyboardInterrupt:
        check = None
        solution = dataclasses.replace(
            solution,
            stopped=Stop.INTERRUPTED,
            notes=solution.notes + (Stopped(Stop.INTERRUPTED, during_check=True),),
        )
    yield Checked(solution, check)


def everything_doubtful(recognition: Recognition) -> Doubt:
    """The doubt when there was no time to weigh it: every doubtful cell shown."""
    cells = tuple(r * recognition.board.columns + c for r, c in recognition.uncertain)
    return Doubt(cells, cells, tuple(() for _ in cells), palette=recognition.palette_doubt)


def settle(
    recognition: Recognition,
    solution: Solution,
    board: Optional[Board] = None,
    geometry: Optional[Geometry] = None,
    seconds: float = STEADY_SECONDS,
) -> tuple[Solution, Doubt]:
    """The answer with moves that hold under as many readings of the doubtful cells as can
    be found (:func:`~kamivision.check.steady.steady_moves`), markers spread apart on
    ``geometry`` when given, and its :class:`~kamivision.check.doubt.Doubt`.  ``board``: the
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
