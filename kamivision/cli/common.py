"""What every command shares: the typer app, option checks, one-line failures, progress,
and the exit statuses after Ctrl-C.

Tested in tests/test_cli.py.
"""

from __future__ import annotations

import contextlib
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..errors import KamiError
from ..report import progress_line, safe_text

if TYPE_CHECKING:
    from ..solver import Solution


# The solver, OpenCV and the image stages are imported inside the commands
# that need them, so that --help starts quickly and solving a board file loads no numpy.

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: drawing it with rich took 0.15 s of start-up
    help="kamivision: from a KAMI puzzle (board file or screenshot) to its proven-optimal solution.",
)


def number(value: Optional[float]) -> Optional[float]:
    """A float option's value, refusing NaN (which passes every range check: it is
    neither below nor above anything) and infinity (a limit is finite: no limit is the
    option left out)."""
    if value is not None and math.isnan(value):
        raise typer.BadParameter("not a number (nan)")
    if value is not None and math.isinf(value):
        raise typer.BadParameter("not a finite number: leave the option out for no limit")
    return value


#: ``--max-memory-mb`` of solve, serve and worker (:meth:`SearchSettings.for_this_machine`).
MEMORY_OPTION = typer.Option(
    "--max-memory-mb",
    min=1,
    metavar="MB",
    help="Megabytes for the search's stored states, shared by the solves run at once; when they are full "
    "the proof's last steps go to disk (the temporary folder), then on depth-first (slower, still optimal).  "
    "[default: 60 % of the memory free]",
    show_default=False,
)


#: ``--max-disk-mb`` of solve, serve and worker (:meth:`SearchSettings.for_this_machine`).
DISK_OPTION = typer.Option(
    "--max-disk-mb",
    min=0,
    metavar="MB",
    help="Megabytes of the temporary folder (TMPDIR) the proof's last steps may write their states to when "
    "its memory is full, shared by the solves run at once; 0: none (it goes on depth-first).  "
    "[default: half of what is free there]",
    show_default=False,
)


#: The compiled parts (built at install when a C compiler is there) and what each runs.
COMPILED = {
    "kamivision.solver._core": "the KAMI search core",
    "kamivision.puzzles._patterns": "the 15-puzzle's search",
    "kamivision.puzzles._safezone": "Safe Zone's search",
}


def compiled_parts() -> dict[str, bool]:
    """Which compiled parts this install has: a compiled extension's file beside the
    package's modules (looked for, not imported: importing the packages that hold them
    would load numpy into every command, and the folder of the core's C sources would
    satisfy an import of ``_core``)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    import kamivision

    root = Path(kamivision.__file__).parent
    found = {}
    for module, what in COMPILED.items():
        *folders, name = module.split(".")[1:]
        found[what] = any((root.joinpath(*folders) / (name + suffix)).is_file() for suffix in EXTENSION_SUFFIXES)
    return found


def slow_notice() -> Optional[str]:
    """One line for a solve on an install without (some of) its compiled parts, or None."""
    missing = [what for what, built in compiled_parts().items() if not built]
    if not missing:
        return None
    return (
        f"kamivision: installed without {', '.join(missing)} (no C compiler at install): the search runs in "
        "Python, many times slower; install gcc and the Python headers, then reinstall kamivision"
    )


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"kamivision {version('kamivision')}")
        except PackageNotFoundError:
            typer.echo("kamivision (not installed)")
        for what, built in compiled_parts().items():
            typer.echo(f"{what}: {'compiled' if built else 'pure Python (many times slower)'}")
        raise typer.Exit()


@app.callback(
    epilog="""\b
Examples:
  kamivision solve level.png         # read a screenshot, solve it, draw the moves
  kamivision export level.png -o level.json
  kamivision solve level.json        # solve a board file (no limit: until proven)
Run 'kamivision COMMAND --help' for a command's options."""
)
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """kamivision: from a KAMI puzzle (board file or screenshot) to its proven-optimal solution."""


def fail(error: KamiError) -> None:
    typer.echo(f"kamivision: {safe_text(str(error), 300)}", err=True)
    raise typer.Exit(1)


#: Seconds between two redraws of the progress line when only its counts moved.
REDRAW_SECONDS = 0.1


def progress_printer(unlimited: bool = False, clock=None):
    """A progress report on one line of the terminal, rewritten in place (None when stderr
    is not a terminal).  The line is cut to the terminal's width: a longer one wraps, and
    each report then leaves a line behind (at 80 columns the line with its tail took 108).
    The tail about Ctrl-C goes first when there is no room for it, then words
    (:func:`~kamivision.report.progress_line`).

    The sweeps report every 256 states: drawn each time, Bud6's proof wrote 14,643 lines
    (1.2 MB, 165 a second) to the terminal, a flood over a slow link.  The line is drawn
    again only :data:`REDRAW_SECONDS` after the last time, or at once when what a player
    stops on changes (the bound, the moves found, the best so far, memory full).
    ``clock``: seconds, for the tests (default ``time.monotonic``)."""
    if not sys.stderr.isatty():
        return None
    import time

    clock = clock or time.monotonic
    tail = " (no limit: Ctrl-C stops with the best)" if unlimited else ""
    last = {"at": None, "watched": None}

    def show(info: dict) -> None:
        now = clock()
        watched = tuple(info.get(key) for key in ("bound", "found", "best", "memory_full"))
        if watched == last["watched"] and last["at"] is not None and now - last["at"] < REDRAW_SECONDS:
            return
        last["at"], last["watched"] = now, watched
        width = terminal_width()
        line = progress_line(info, width)
        rewrite_line(line + tail if len(line) + len(tail) <= width else line)

    return show


def terminal_width() -> int:
    """Characters that fit on a line of the terminal without wrapping (80 columns when it
    cannot be asked)."""
    import shutil

    return max(20, shutil.get_terminal_size((80, 24)).columns - 1)


def rewrite_line(text: str) -> None:
    """Write ``text`` over the terminal's current line, cut to its width: a longer one
    would wrap, and each rewrite would leave a line behind."""
    sys.stderr.write("\r" + text[: terminal_width()] + "\x1b[K")
    sys.stderr.flush()


@contextlib.contextmanager
def one_line_errors(output: Path):
    """A :class:`KamiError`, or an output that cannot be written (a full disk, a folder
    gone meanwhile), ends the command with one line naming the file."""
    try:
        yield
    except KamiError as error:
        fail(error)
    except OSError as error:
        fail(KamiError(f"{error.filename or output}: cannot be written ({error.strerror})"))


def clear(progress) -> None:
    if progress is not None:
        sys.stderr.write("\r\x1b[K")


#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def exit_if_interrupted(solution: Solution) -> None:
    """Ctrl-C during the search: the best answer found was printed; exit 130 all the same,
    so scripts can tell it from a finished run."""
    if solution.interrupted:
        raise typer.Exit(INTERRUPTED)
