"""``kamivision solve``: one source answered whole, or several as a table (:mod:`.tables`).

Tested in tests/test_cli.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import KamiError
from ..report import safe_text, to_json, to_text
from .common import (
    DISK_OPTION,
    INTERRUPTED,
    MEMORY_OPTION,
    app,
    clear,
    exit_if_interrupted,
    fail,
    number,
    one_line_errors,
    progress_printer,
    slow_notice,
)
from .tables import floodit_table, sources_table, tiles_table

Sources = Annotated[
    list[Path],
    typer.Argument(
        metavar="SOURCE...",
        help="A KAMI board file (.json), a KAMI 2 screenshot, a Safe Zone or tile-sliding puzzle file (.json), "
        "a collection of 15-puzzles one a line (.txt: Korf's file), or with --rules pivot a Flood-It "
        "collection (a .txt file of digit lines, or a folder of boards). Several sources, or a folder "
        "(without --rules pivot), are solved in one run: a row as each one finishes, then totals.",
        show_default=False,
    ),
]
Output = Annotated[
    Optional[Path],
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        help="Where to write the overlay.  [default: SHOT-solution.png beside the screenshot]",
    ),
]
Steps = Annotated[Optional[Path], typer.Option(metavar="FOLDER", help="Write one picture per move into this folder.")]
Gif = Annotated[Optional[Path], typer.Option(metavar="FILE", help="Write an animated GIF of the moves.")]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
MaxSeconds = Annotated[
    Optional[float],
    typer.Option(
        callback=number,
        min=0.0,
        metavar="SECONDS",
        help="Stop after this many seconds with the best answer found and its bound; for a screenshot, reading and the counter check included; in a collection, per board.  [default: no limit: runs until proven optimal]",
    ),
]
TotalSeconds = Annotated[
    Optional[float],
    typer.Option(
        callback=number,
        min=0.0,
        metavar="SECONDS",
        help="Collections: stop the whole run after this many seconds (each board gets at most what is left; the boards not started are not shown).  [default: no limit]",
    ),
]
MaxNodes = Annotated[
    Optional[int], typer.Option(min=1, metavar="N", help="Stop after expanding this many states.  [default: no limit]")
]
Force = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]
Rules = Annotated[
    Optional[str],
    typer.Option(
        metavar="free|pivot",
        help="'free' (KAMI) or 'pivot' (Flood-It: every move recolors the pivot's region).  [default: the board file's, else free]",
    ),
]
Jobs = Annotated[
    int,
    typer.Option(
        min=1,
        max=1024,
        metavar="N",
        help="Processes for several sources, a folder or a Flood-It collection; more than the cores available is cut to them, with a note.",
    ),
]
Beam = Annotated[
    int,
    typer.Option(min=0, metavar="WIDTH", help="Pivot rules: a beam search of this width (fast, not proven; 0: none)."),
]
CheckSeconds = Annotated[
    float,
    typer.Option(
        callback=number,
        min=0.0,
        metavar="SECONDS",
        help="Screenshots: when the optimum misses the counter, re-solve other readings of the uncertain "
        "cells for at most this long (0: do not).",
    ),
]
MaxMemory = Annotated[Optional[int], MEMORY_OPTION]
MaxDisk = Annotated[Optional[int], DISK_OPTION]


@app.command(
    "solve",
    epilog="""\b
Examples:
  kamivision solve level.png                  # writes level-solution.png
  kamivision solve level.png --steps steps/ --gif moves.gif
  kamivision solve board.json --max-seconds 30
  kamivision solve pc19.txt --rules pivot --jobs 2""",
)
def solve_command(
    sources: Sources,
    output: Output = None,
    steps: Steps = None,
    gif: Gif = None,
    as_json: Json = False,
    max_seconds: MaxSeconds = None,
    total_seconds: TotalSeconds = None,
    max_nodes: MaxNodes = None,
    force: Force = False,
    rules: Rules = None,
    jobs: Jobs = 1,
    beam: Beam = 0,
    check_seconds: CheckSeconds = 10.0,
    max_memory_mb: MaxMemory = None,
    max_disk_mb: MaxDisk = None,
) -> None:
    """Solve a board file, a screenshot, a puzzle, a collection, or several of them."""
    from ..sources import Kind, Run, kind_of, run_of, solve_source

    source, progress = sources[0], None
    notice = slow_notice()
    if notice is not None:  # once, before any search
        typer.echo(notice, err=True)
    try:
        if rules not in (None, "free", "pivot"):
            raise KamiError(f"unknown rules {rules!r}: expected 'free' or 'pivot'")
        run = run_of(sources, rules)
        if run is Run.MANY and (any(x is not None for x in (output, steps, gif, max_nodes)) or beam):
            raise KamiError("several sources are solved with --max-seconds, --jobs, --json and --rules only")
        kind = kind_of(source) if run is Run.ONE else None
        for name, value in (("--max-memory-mb", max_memory_mb), ("--max-disk-mb", max_disk_mb)):
            if value is not None and (run in (Run.FLOODIT, Run.TILES) or kind is Kind.PUZZLE):
                raise KamiError(f"{source}: {name} is for KAMI boards and screenshots")
        if run is not Run.ONE:
            options = (beam, check_seconds, as_json, total_seconds, max_memory_mb, max_disk_mb)
            table(run, sources, max_seconds, max_nodes, jobs, rules, *options)
            return
        output = check_pictures(source, kind, output, steps, gif, force)
        progress = None if as_json else progress_printer(unlimited=max_seconds is None and max_nodes is None)
        limits = {"max_seconds": max_seconds, "max_nodes": max_nodes, "check_seconds": check_seconds}
        answer = solve_source(
            source,
            rules,
            progress=progress,
            beam=beam,
            kind=kind,
            settings=settings_for(max_memory_mb, max_disk_mb),
            **limits,
        )
        clear(progress)
    except KamiError as error:
        clear(progress)
        fail(error)
        return
    except KeyboardInterrupt:  # Ctrl-C outside the search (which answers with the best found)
        clear(progress)
        typer.echo("kamivision: interrupted", err=True)
        raise typer.Exit(INTERRUPTED) from None
    print_answer(source, answer, output, steps, gif, force, as_json)


def settings_for(max_mb: Optional[int], max_disk_mb: Optional[int] = None):
    """The search's settings for this machine with ``--max-memory-mb`` and ``--max-disk-mb``
    (None without either: the solver's own default)."""
    if max_mb is None and max_disk_mb is None:
        return None
    from ..solver.settings import SearchSettings  # the solver only when asked

    return SearchSettings.for_this_machine(max_mb=max_mb, max_disk_mb=max_disk_mb)


def table(
    run,
    sources: list[Path],
    max_seconds,
    max_nodes,
    jobs: int,
    rules,
    beam: int,
    check_seconds: float,
    as_json: bool,
    total_seconds,
    max_mb=None,
    max_disk_mb=None,
) -> None:
    """Several sources or a collection, a row each (:mod:`.tables`); ``--jobs`` cut to the
    cores this process may use."""
    from ..solver.settings import usable_cpus
    from ..sources import Run

    cores = usable_cpus()
    if jobs > cores and run is not Run.TILES:
        typer.echo(f"kamivision: --jobs {jobs} cut to the {cores} cores available", err=True)
        jobs = cores
    if run is Run.MANY:
        sources_table(sources, max_seconds, jobs, rules, check_seconds, as_json, max_mb, max_disk_mb)
    elif run is Run.FLOODIT:
        floodit_table(sources[0], max_seconds, jobs, beam, as_json, total_seconds)
    else:
        tiles_table(sources[0], max_seconds, max_nodes, as_json, total_seconds)


def check_pictures(source: Path, kind, output: Optional[Path], steps, gif, force: bool) -> Optional[Path]:
    """A screenshot's pictures checked before any work: the input readable, the outputs
    writable and not in the way (``--force``); the overlay's path (beside the shot by
    default).  Other sources have no pictures: asking for them is an error."""
    from ..sources import Kind

    if kind is not Kind.SCREENSHOT:
        if output is not None or steps is not None or gif is not None:
            raise KamiError(f"{source}: pictures (-o, --steps, --gif) are drawn for screenshots only")
        return None
    from ..files import check_input  # the image libraries only for a screenshot
    from ..outputs import check_picture_outputs
    from ..pipeline import default_output

    check_input(source)
    output = output if output is not None else default_output(source)
    check_picture_outputs(source, output, steps, gif, force)
    return output


def print_answer(source: Path, answer, output: Optional[Path], steps, gif, force: bool, as_json: bool) -> None:
    """One source's answer on stdout (then a screenshot's warnings and pictures); the exit
    status says whether it was interrupted."""
    from ..sources import PuzzleAnswer, ShotAnswer

    if isinstance(answer, PuzzleAnswer):
        print_puzzle(source, answer, as_json)
        return
    # The answer first: printed before any picture is drawn, so that it is never lost.
    typer.echo(json.dumps(to_json(answer, str(source))) if as_json else to_text(answer, ansi=sys.stdout.isatty()))
    if isinstance(answer, ShotAnswer):
        warn_and_draw(answer.shot, source, output, steps, gif, force, as_json)
    exit_if_interrupted(answer.solution)


def warn_and_draw(shot, source: Path, output: Path, steps, gif, force: bool, as_json: bool) -> None:
    """After a screenshot's answer: what to check, on stderr, then its pictures."""
    from ..outputs import write_pictures

    warnings = shot.warnings()
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    if warnings:
        typer.echo(f"check and fix the cells with: kamivision review {safe_text(str(source))}", err=True)
    with one_line_errors(output):
        written = write_pictures(shot, output, steps, gif, force)
    if not as_json:
        for path in written:
            typer.echo(f"wrote {path}")


def print_puzzle(source: Path, answer, as_json: bool) -> None:
    """A Safe Zone or tile-sliding board's answer: the moves, the verdict, the checks of the
    file's par and optimum; exit 3 when there is no solution, 1 when the file's optimum is wrong."""
    from ..report.puzzles import puzzle_report, puzzle_to_json

    verdict = puzzle_report(answer.puzzle, answer.result)
    typer.echo(json.dumps(puzzle_to_json(answer.puzzle, answer.result)) if as_json else "\n".join(verdict.lines))
    for error in verdict.errors:
        typer.echo(f"kamivision: {source}: {error}", err=True)
    if verdict.status:
        raise typer.Exit(verdict.status)
