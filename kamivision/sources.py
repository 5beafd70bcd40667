"""Sources of any kind, one or many: a board file, a puzzle file or a screenshot, each
solved as its kind asks (:func:`solve_source`); a folder or a list of them solved in one
run, in one process or several, a row as each one finishes (:func:`solve_all`).

Only what a source needs is imported: a board file is solved without loading OpenCV.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional

from . import batch
from .answers import Answer, BoardAnswer, PuzzleAnswer, ShotAnswer
from .errors import KamiError
from .solver import Progress, SearchSettings, solve

__all__ = [
    "Answer",
    "BoardAnswer",
    "Kind",
    "PuzzleAnswer",
    "Row",
    "Run",
    "ShotAnswer",
    "kind_of",
    "run_of",
    "solve_all",
    "solve_row",
    "solve_source",
]


class Kind(enum.Enum):
    """What a source is, decided once (:func:`kind_of`) from its name and, for a ``.json``
    file, its ``format``."""

    BOARD = "board"  # a KAMI or Flood-It board file
    PUZZLE = "puzzle"  # a Safe Zone or tile-sliding puzzle file
    SCREENSHOT = "screenshot"  # anything else: a picture


def kind_of(path: Path) -> Kind:
    """The kind of the source at ``path`` (a ``.json`` file is read for its format)."""
    if path.suffix.lower() != ".json":
        return Kind.SCREENSHOT
    from .formats import puzzle_format

    return Kind.PUZZLE if puzzle_format(path) is not None else Kind.BOARD


class Run(enum.Enum):
    """What ``kamivision solve SOURCE...`` runs, decided once (:func:`run_of`)."""

    ONE = "one"  # one source, answered whole (:func:`solve_source`)
    MANY = "many"  # several sources, or a folder: a row each (:func:`solve_all`)
    FLOODIT = "floodit"  # a Flood-It collection: a .txt of digit lines, or a folder, with rules pivot
    TILES = "tiles"  # a collection of tile-sliding boards, one a line (.txt)


def run_of(sources: list[Path], rules: Optional[str]) -> Run:
    """What to run for ``sources`` under ``rules``."""
    source = sources[0]
    collection = source.is_dir() or source.suffix.lower() == ".txt"
    if len(sources) > 1 or (source.is_dir() and rules != "pivot"):
        return Run.MANY
    if rules == "pivot" and collection:
        return Run.FLOODIT
    if rules is None and source.suffix.lower() == ".txt":
        return Run.TILES
    return Run.ONE


def solve_source(
    path: str | Path,
    rules: Optional[str] = None,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    progress: Optional[Progress] = None,
    check_seconds: float = 10.0,
    beam: int = 0,
    settings: Optional[SearchSettings] = None,
    kind: Optional[Kind] = None,
) -> Answer:
    """Solve one source as its kind asks (:func:`kind_of`): a puzzle file, a board file
    (``rules`` replaces the file's), or a screenshot (KAMI's free rules: other ``rules``
    are refused).  ``kind``: :func:`kind_of`'s, when the caller has it already.
    Collections (``.txt``) are not sources: see :func:`run_of`."""
    from .board import read_board
    from .files import check_input

    path = Path(path)
    kind = kind if kind is not None else kind_of(path)
    if kind is Kind.PUZZLE:
        from .puzzles import read_puzzle, solve_puzzle
        from .puzzles.search import Limits

        puzzle = read_puzzle(path)
        return PuzzleAnswer(
            puzzle, solve_puzzle(puzzle, Limits(max_seconds=max_seconds, max_nodes=max_nodes, progress=progress))
        )
    if kind is Kind.BOARD:
        board = read_board(path)
        if rules is not None and rules != board.rules:
            board = dataclasses.replace(board, rules=rules)
        return BoardAnswer(
            board,
            solve(board, max_seconds=max_seconds, max_nodes=max_nodes, progress=progress, beam=beam, settings=settings),
        )
    from .pipeline import solve_screenshot

    check_input(path)
    if rules not in (None, "free"):
        raise KamiError(f"{path}: a screenshot is a KAMI board (free rules); --rules {rules} is for board files")
    return ShotAnswer(
        solve_screenshot(
            path,
            max_seconds=max_seconds,
            max_nodes=max_nodes,
            progress=progress,
            check_seconds=check_seconds,
            settings=settings,
        )
    )


# ------------------------------------------------------------------ many sources

#: The files of a folder that are solved: board and puzzle files, and screenshots.
SOURCE_SUFFIXES = (".json", ".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff", ".gif")


def sources_in(paths: Iterable[Path]) -> list[Path]:
    """The sources named: each folder's files with :data:`SOURCE_SUFFIXES` (not its
    subfolders), sorted by name, and each file as given."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES)
        else:
            out.append(path)
    return out


@dataclass(frozen=True, slots=True)
class Row:
    """One source's line of the table: its kind ("board", "screenshot", "puzzle"), the
    moves found (None: none, or an error), whether proven, the lower bound, the par when
    known, the seconds, and the error (one line) when it could not be solved."""

    path: str
    kind: Optional[str]
    moves: Optional[int]
    optimal: bool
    lower_bound: Optional[int]
    par: Optional[int]
    seconds: float
    error: Optional[str] = None
    interrupted: bool = False


def solve_row(
    path: Path,
    max_seconds: Optional[float] = None,
    rules: Optional[str] = None,
    check_seconds: float = 10.0,
    sharing: int = 1,
    max_mb: Optional[int] = None,
    max_disk_mb: Optional[int] = None,
) -> Row:
    """Solve one source for the table: a bad file is a row with its error, not the end of
    the run.  ``sharing``: the solves running at once on this machine, which share
    ``max_mb`` megabytes of memory and ``max_disk_mb`` of disk when they are given
    (:meth:`SearchSettings.for_this_machine`)."""
    started = time.perf_counter()
    try:
        settings = SearchSettings.for_this_machine(sharing, max_mb, max_disk_mb)
        answered = solve_source(path, rules, max_seconds=max_seconds, check_seconds=check_seconds, settings=settings)
    except KamiError as error:
        return Row(str(path), None, None, False, None, None, round(time.perf_counter() - started, 4), str(error))
    except OSError as error:  # gone, or unreadable, meanwhile
        return Row(
            str(path),
            None,
            None,
            False,
            None,
            None,
            round(time.perf_counter() - started, 4),
            f"{path}: {error.strerror}",
        )
    seconds = round(time.perf_counter() - started, 4)
    if isinstance(answered, PuzzleAnswer):
        from .puzzles.search import Stop

        result, puzzle = answered.result, answered.puzzle
        par = getattr(puzzle, "par", None)
        return Row(
            str(path),
            Kind.PUZZLE.value,
            result.length,
            bool(result.optimal and result.length is not None),
            result.lower_bound,
            par if isinstance(par, int) else None,
            seconds,
            interrupted=result.stopped is Stop.INTERRUPTED,
        )
    solution, kind = answered.solution, Kind.BOARD if isinstance(answered, BoardAnswer) else Kind.SCREENSHOT
    return Row(
        str(path),
        kind.value,
        solution.length,
        solution.optimal,
        solution.lower_bound,
        answered.board.par,
        seconds,
        interrupted=solution.interrupted,
    )


def solve_all(
    paths: list[Path],
    max_seconds: Optional[float] = None,
    jobs: int = 1,
    rules: Optional[str] = None,
    check_seconds: float = 10.0,
    max_mb: Optional[int] = None,
    max_disk_mb: Optional[int] = None,
) -> Iterator[Row]:
    """Solve every source, yielding a :class:`Row` as each one finishes
    (:func:`kamivision.batch.run`: in this process in order with ``jobs`` 1, else in a
    pool of ``jobs`` processes, in the order they finish).  Ctrl-C: with one process the
    source being solved answers with the best found (its row has ``interrupted`` set) and
    the run ends; with several the pool is stopped and the ``KeyboardInterrupt`` reaches
    the caller after the rows already yielded."""
    solve_one = functools.partial(
        solve_row,
        rules=rules,
        check_seconds=check_seconds,
        sharing=max(1, jobs),
        max_mb=max_mb,
        max_disk_mb=max_disk_mb,
    )
    return batch.run(
        paths, solve_one, jobs=jobs, max_seconds=max_seconds, interrupted=lambda row: row.interrupted, ordered=False
    )
