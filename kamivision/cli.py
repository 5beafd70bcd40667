"""The command line: a thin typer layer over the library API.

Each command parses its options, calls one library function and prints.  A
:class:`~kamivision.errors.KamiError` becomes a one-line message on stderr and exit code 1;
usage errors exit with 2 (Click).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from .board import board_to_dict, read_board, write_board
from .errors import KamiError
from .files import write_atomic
from .report import (
    counter_check_to_json,
    doubt_to_json,
    format_alternative,
    format_solution,
    moves_to_json,
    progress_line,
    safe_text,
    solution_to_json,
)
from .screens import DEFAULT_DEVICE, DEVICES

if TYPE_CHECKING:
    from .solver import Solution

# The solver, OpenCV and the image stages are imported inside the commands
# that need them, so that --help starts quickly and solving a board file loads no numpy.

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: drawing it with rich took 0.15 s of start-up
    help="kamivision: from a KAMI puzzle (board file or screenshot) to its proven-optimal solution.",
)


def _number(value: Optional[float]) -> Optional[float]:
    """A float option's value, refusing NaN (which passes every range check: it is
    neither below nor above anything)."""
    if value is not None and math.isnan(value):
        raise typer.BadParameter("not a number (nan)")
    return value


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"kamivision {version('kamivision')}")
        except PackageNotFoundError:
            typer.echo("kamivision (not installed)")
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


def _fail(error: KamiError) -> None:
    typer.echo(f"kamivision: {safe_text(str(error), 300)}", err=True)
    raise typer.Exit(1)


def _progress_printer(unlimited: bool = False):
    if not sys.stderr.isatty():
        return None
    tail = " (no limit: Ctrl-C stops with the best)" if unlimited else ""

    def show(info: dict) -> None:
        sys.stderr.write("\r" + (progress_line(info) + tail).ljust(79))
        sys.stderr.flush()

    return show


BOARD_SUFFIXES = {".json"}


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
    sources: Annotated[
        list[Path],
        typer.Argument(
            metavar="SOURCE...",
            help="A KAMI board file (.json), a KAMI 2 screenshot, a Safe Zone or tile-sliding puzzle file (.json), "
            "a collection of 15-puzzles one a line (.txt: Korf's file), or with --rules pivot a Flood-It "
            "collection (a .txt file of digit lines, or a folder of boards). Several sources, or a folder "
            "(without --rules pivot), are solved in one run: a row as each one finishes, then totals.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Where to write the overlay.  [default: SHOT-solution.png beside the screenshot]")
    ] = None,
    steps: Annotated[Optional[Path], typer.Option(metavar="FOLDER", help="Write one picture per move into this folder.")] = None,
    gif: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Write an animated GIF of the moves.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
    max_seconds: Annotated[
        Optional[float], typer.Option(callback=_number, min=0.0, metavar="SECONDS", help="Stop after this many seconds with the best answer found and its bound; for a screenshot, reading and the counter check included; in a collection, per board.  [default: no limit: runs until proven optimal]")
    ] = None,
    total_seconds: Annotated[
        Optional[float], typer.Option(callback=_number, min=0.0, metavar="SECONDS", help="Collections: stop the whole run after this many seconds (each board gets at most what is left; the boards not started are not shown).  [default: no limit]")
    ] = None,
    max_nodes: Annotated[
        Optional[int], typer.Option(min=1, metavar="N", help="Stop after expanding this many states.  [default: no limit]")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")] = False,
    rules: Annotated[
        Optional[str], typer.Option(metavar="free|pivot", help="'free' (KAMI) or 'pivot' (Flood-It: every move recolors the pivot's region).  [default: the board file's, else free]")
    ] = None,
    jobs: Annotated[int, typer.Option(min=1, max=1024, metavar="N", help="Processes for several sources, a folder or a Flood-It collection; more than the cores available is cut to them, with a note.")] = 1,
    beam: Annotated[int, typer.Option(min=0, metavar="WIDTH", help="Pivot rules: a beam search of this width (fast, not proven; 0: none).")] = 0,
    check_seconds: Annotated[
        float,
        typer.Option(
            callback=_number,
            min=0.0,
            metavar="SECONDS",
            help="Screenshots: when the optimum misses the counter, re-solve other readings of the uncertain "
            "cells for at most this long (0: do not).",
        ),
    ] = 10.0,
) -> None:
    """Solve a board file, a screenshot, a puzzle, a collection, or several of them."""
    source = sources[0]
    many = len(sources) > 1 or (source.is_dir() and rules != "pivot")
    progress = None if as_json or many else _progress_printer(unlimited=max_seconds is None and max_nodes is None)
    try:
        if rules not in (None, "free", "pivot"):
            raise KamiError(f"unknown rules {rules!r}: expected 'free' or 'pivot'")
        if many or (rules == "pivot" and (source.is_dir() or source.suffix.lower() == ".txt")):
            _clear(progress)
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
            if jobs > cores:
                typer.echo(f"kamivision: --jobs {jobs} cut to the {cores} cores available", err=True)
                jobs = cores
            if many:
                if output is not None or steps is not None or gif is not None or max_nodes is not None or beam:
                    raise KamiError("several sources are solved with --max-seconds, --jobs, --json and --rules only")
                _solve_many(sources, max_seconds, jobs, rules, check_seconds, as_json)
            else:
                _solve_collection(source, max_seconds, jobs, beam, as_json, total_seconds)
            return
        if rules is None and source.suffix.lower() == ".txt":
            _clear(progress)
            _solve_slide_collection(source, max_seconds, max_nodes, as_json, total_seconds)
            return
        from .sources import solve_source

        if source.suffix.lower() in BOARD_SUFFIXES:
            if output is not None or steps is not None or gif is not None:
                raise KamiError(f"{source}: pictures (-o, --steps, --gif) are drawn for screenshots only")
        else:
            from .files import check_input
            from .pipeline import default_output

            check_input(source)
            output = output if output is not None else default_output(source)
            _check_picture_outputs(source, output, steps, gif, force)
        answered = solve_source(
            source, rules, max_seconds=max_seconds, max_nodes=max_nodes, progress=progress, check_seconds=check_seconds, beam=beam
        )
        _clear(progress)
        if answered.kind == "puzzle":
            _print_puzzle(source, answered.puzzle, answered.result, as_json)
            return
        if answered.kind == "board":
            board, solution = answered.board, answered.solution
            if as_json:
                typer.echo(json.dumps(solution_to_json(board_to_dict(board), solution)))
            else:
                typer.echo(format_solution(board, solution, ansi=sys.stdout.isatty()))
            _exit_if_interrupted(solution)
            return
        result = answered.shot
    except KamiError as error:
        _clear(progress)
        _fail(error)
        return
    except KeyboardInterrupt:  # Ctrl-C outside the search (which answers with the best found)
        _clear(progress)
        typer.echo("kamivision: interrupted", err=True)
        raise typer.Exit(INTERRUPTED) from None
    # The answer first: printed before any picture is drawn, so that it is never lost.
    board, solution = result.recognition.board, result.solution
    if as_json:
        obj = solution_to_json(board_to_dict(board), solution)
        obj["source"] = result.recognition.source(str(source))
        obj["verdict"] = result.verdict()
        obj["doubt"] = doubt_to_json(result.doubt, board.columns)
        if result.check is not None:
            obj["counter_check"] = counter_check_to_json(result.check)
        typer.echo(json.dumps(obj))
    else:
        typer.echo(format_solution(board, solution, ansi=sys.stdout.isatty(), doubt=result.doubt))
        if result.check is not None and result.check.best is not None:
            typer.echo("")
            typer.echo(format_alternative(board, result.check.best))
    warnings = result.warnings()
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    if warnings:
        typer.echo(f"check and fix the cells with: kamivision review {safe_text(str(source))}", err=True)
    try:
        written = _write_pictures(result, output, steps, gif, force)
    except KamiError as error:
        _fail(error)
        return
    except OSError as error:
        _fail(KamiError(f"{error.filename or output}: cannot be written ({error.strerror})"))
        return
    if not as_json:
        for path in written:
            typer.echo(f"wrote {path}")
    _exit_if_interrupted(solution)


#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def _exit_if_interrupted(solution: Solution) -> None:
    """Ctrl-C during the search: the best answer found was printed; exit 130 all the same,
    so scripts can tell it from a finished run."""
    if solution.interrupted:
        raise typer.Exit(INTERRUPTED)


def _solve_collection(source: Path, max_seconds, jobs: int, beam: int, as_json: bool, total_seconds=None) -> None:
    """Solve every board of a Flood-It collection and print a table (or JSON lines) and totals.

    Ctrl-C stops the run: the totals of the boards done are printed, and the exit code is
    130 as for a single board."""
    from .floodit import iter_collection, solve_collection

    puzzles = iter_collection(source)  # a stream: the first board is solved at once
    total = proven = known_total = done = 0
    known_all, interrupted = True, False
    if not as_json:
        typer.echo(f"{'board':<28} {'cells':>5} {'colors':>7} {'moves':>5} {'proven':>6} {'known':>5} {'seconds':>8}")
    rows = solve_collection(puzzles, max_seconds=max_seconds, jobs=jobs, beam=beam, total_seconds=total_seconds)
    try:
        for row in rows:
            with _sigint_after():  # a row is counted and printed whole, or not at all
                done += 1
                interrupted |= row.interrupted
                total += row.length
                proven += row.optimal
                if row.known is None:
                    known_all = False
                else:
                    known_total += row.known
                if as_json:
                    typer.echo(json.dumps(dataclasses.asdict(row)))
                else:
                    known = "-" if row.known is None else str(row.known)
                    typer.echo(
                        f"{row.name:<28} {row.cells:>5} {row.colors:>7} {row.length:>5} "
                        f"{'yes' if row.optimal else 'NO':>6} {known:>5} {row.seconds:>8.2f}"
                    )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        rows.close()  # stops the worker processes now, wherever the Ctrl-C came
    if not as_json:
        extra = f"; known optimum total {known_total}" if known_all else ""
        ended = total_seconds is not None and not interrupted and _unfinished(puzzles)
        noun = "board" if done == 1 else "boards"
        boards = f"{done} {noun} (interrupted)" if interrupted else f"{done} {noun}" + (
            f" (--total-seconds {total_seconds:g} ended the run)" if ended else ""
        )
        typer.echo(f"{boards}: {total} moves in all, {proven} proven optimal{extra}")
    if interrupted:
        typer.echo("kamivision: interrupted", err=True)
        raise typer.Exit(INTERRUPTED)


def _solve_many(sources: list[Path], max_seconds, jobs: int, rules, check_seconds: float, as_json: bool) -> None:
    """Several sources, or the board files and screenshots of a folder (not its subfolders):
    a row as each one finishes (one JSON line each with --json), then the totals.  A source
    that cannot be solved is a row with its error; the exit status is then 1."""
    import time

    from .sources import solve_all, sources_in

    started = time.perf_counter()
    paths = sources_in(sources)
    if not paths:
        raise KamiError(f"{sources[0]}: no board files or screenshots to solve")
    def label(path: str) -> str:  # long paths lose their start, never the file's name
        text = safe_text(path, 10_000)
        return text if len(text) <= width else "…" + text[-(width - 1):]

    width = min(40, max(len(safe_text(str(p), 10_000)) for p in paths))
    if not as_json:
        typer.echo(f"{'source':<{width}} {'kind':<10} {'moves':>5} {'proven':>6} {'par':>4} {'seconds':>8}")
    done = solved = proven = moves = errors = at_par = over = under = 0
    interrupted = False
    rows = solve_all(paths, max_seconds=max_seconds, jobs=jobs, rules=rules, check_seconds=check_seconds)
    try:
        for row in rows:
            with _sigint_after():  # a row is counted and printed whole, or not at all
                done += 1
                interrupted |= row.interrupted
                if as_json:
                    typer.echo(json.dumps(dataclasses.asdict(row)))
                if row.error is not None:
                    errors += 1
                    if not as_json:
                        typer.echo(f"{label(row.path):<{width}} {'error':<10} {safe_text(row.error, 100)}")
                    continue
                if row.moves is not None:
                    solved += 1
                    moves += row.moves
                    proven += row.optimal
                    if row.par is not None:
                        at_par += row.moves == row.par
                        over += row.moves > row.par
                        under += row.moves < row.par
                if not as_json:
                    shown = "-" if row.moves is None else str(row.moves)
                    par = "-" if row.par is None else str(row.par)
                    typer.echo(
                        f"{label(row.path):<{width}} {row.kind:<10} {shown:>5} {'yes' if row.optimal else 'NO':>6} "
                        f"{par:>4} {row.seconds:>8.2f}"
                    )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        rows.close()
    seconds = time.perf_counter() - started
    if not as_json:
        typer.echo(
            f"{done} of {len(paths)} sources{' (interrupted)' if interrupted else ''}: {solved} solved, {moves} moves in all, "
            f"{proven} proven optimal; with a par: {at_par} at par, {under} under, {over} over; {errors} could not be solved; "
            f"{seconds:.1f} s"
        )
    if interrupted:
        typer.echo("kamivision: interrupted", err=True)
        raise typer.Exit(INTERRUPTED)
    if errors:
        raise typer.Exit(1)


@contextlib.contextmanager
def _sigint_after():
    """Hold Ctrl-C back while the block runs (it arrives, as KeyboardInterrupt, when the
    block ends), where the system can block signals; elsewhere it may land inside it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _unfinished(stream) -> bool:
    """A collection's stream still holds a board (the run ended before it)."""
    try:
        return next(stream, None) is not None
    except KamiError:  # a bad line further on: there was more
        return True


def _clear(progress) -> None:
    if progress is not None:
        sys.stderr.write("\r\x1b[K")


def _check_picture_outputs(source: Path, output: Path, steps, gif, force: bool) -> None:
    """Every picture output can be written (before any work): not the screenshot, in a
    writable folder, not an existing file (or folder with files) unless ``force``."""
    from .files import check_output, check_output_folder

    check_output(output, force, inputs=(source,))
    _check_suffix(output, (".png", ".jpg", ".jpeg"))
    named = [("-o", output)] + [(flag, path) for flag, path in (("--gif", gif), ("--steps", steps)) if path is not None]
    for i, (flag, path) in enumerate(named):
        for other_flag, other in named[:i]:
            if os.path.abspath(path) == os.path.abspath(other):
                raise KamiError(f"{path}: named by both {other_flag} and {flag}; give each output its own name")
    if gif is not None:
        check_output(gif, force, inputs=(source, output))
        _check_suffix(gif, (".gif",))
    if steps is not None:
        check_output_folder(steps, force)


def _check_suffix(path: Path, suffixes: tuple[str, ...]) -> None:
    """The file's name ends in one of ``suffixes`` (its format follows the name)."""
    if path.suffix.lower() not in suffixes:
        raise KamiError(f"{path}: the file's name must end in {' or '.join(suffixes)} (its format follows the name)")


def _is_step_picture(name: str) -> bool:
    """A name :func:`_write_pictures` gives a step picture (``step-07.png``, ``solved.png``)."""
    return name == "solved.png" or (name.startswith("step-") and name.endswith(".png") and name[5:-4].isdigit())


def _write_pictures(result, output: Path, steps, gif, force: bool) -> list[Path]:
    """Write the overlay, the step pictures (all or none) and the GIF; a write that fails
    is a :class:`KamiError` naming the output that could not be written."""
    from .files import write_folder_atomic
    from .overlay import gif_bytes, picture_bytes, png_bytes

    created: list[Path] = []  # what this run made anew, removed again if a later write fails

    def writing(path: Path, write):
        fresh = not os.path.lexists(path)
        try:
            done = write()
        except (OSError, KamiError) as error:  # write_atomic says a full disk in one line itself
            for made in created:
                shutil.rmtree(made, ignore_errors=True) if made.is_dir() else made.unlink(missing_ok=True)
            if isinstance(error, KamiError):
                raise
            raise KamiError(f"{path}: cannot be written ({error.strerror})") from None
        if fresh:
            created.append(Path(done))
        return done

    written = [writing(output, lambda: write_atomic(output, picture_bytes(result.overlay(), output.suffix), overwrite=force))]
    if steps is not None or gif is not None:
        frames = result.steps()
        if steps is not None:
            names = [f"step-{i:02d}.png" if i < len(frames) else "solved.png" for i in range(1, len(frames) + 1)]
            files = {name: png_bytes(frame) for name, frame in zip(names, frames)}
            written.append(writing(steps, lambda: write_folder_atomic(steps, files, overwrite=force, stale=_is_step_picture)))
        if gif is not None:
            written.append(writing(gif, lambda: write_atomic(gif, gif_bytes(frames), overwrite=force)))
    return written


@app.command(
    "generate",
    epilog="""\b
Example:
  kamivision generate -o level.json --rows 6 --columns 6 --zones 3 --helpers 1 --seed 4""",
)
def generate_command(
    output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE", help="The Safe Zone level to write (.json).", show_default=False)],
    rows: Annotated[int, typer.Option(min=2, max=16, metavar="N", help="Rows.")] = 6,
    columns: Annotated[int, typer.Option(min=2, max=16, metavar="N", help="Columns.")] = 6,
    zones: Annotated[int, typer.Option(min=1, max=8, metavar="N", help="Safe zones (and as many blocks).")] = 2,
    helpers: Annotated[int, typer.Option(min=0, max=4, metavar="N", help="Helper blocks besides.")] = 0,
    min_moves: Annotated[int, typer.Option(min=1, metavar="N", help="Shortest optimum accepted.")] = 4,
    seed: Annotated[int, typer.Option(metavar="N", help="Random seed.")] = 0,
    max_seconds: Annotated[
        float, typer.Option(callback=_number, min=1.0, metavar="SECONDS", help="Give up after this long in all (200 tries at most).")
    ] = 120.0,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Make a random Safe Zone level and write it with its proven optimum."""
    import random
    import time

    from .files import check_output
    from .puzzles.safezone import generate, safezone_to_dict

    started = time.perf_counter()

    def progress(tries: int, counts: dict) -> None:
        if sys.stderr.isatty():
            typer.echo(f"\rtried {tries} levels, {time.perf_counter() - started:5.1f} s", nl=False, err=True)

    try:
        check_output(output, force)
        try:
            made = generate(
                random.Random(seed), rows, columns, zones, helpers, min_moves=min_moves, max_seconds=max_seconds,
                progress=progress,
            )
        except ValueError as error:
            raise KamiError(f"{output}: {error}") from None
        except KeyboardInterrupt:
            typer.echo("kamivision: interrupted; no level written", err=True)
            raise typer.Exit(INTERRUPTED) from None
        finally:
            if sys.stderr.isatty():
                typer.echo("\r" + " " * 40 + "\r", nl=False, err=True)
        if made is None:
            raise KamiError(
                f"no level of {rows} x {columns} with {zones} zone(s) needing {min_moves} moves or more was proven in "
                f"{time.perf_counter() - started:.0f} s (200 tries at most): ask for fewer moves, zones or cells, or more time"
            )
        level, result = made
        obj = safezone_to_dict(level)
        obj["name"] = f"generated {rows}x{columns}, {zones} zone(s), {helpers} helper(s), seed {seed}"
        obj["solution"] = [m.to_json(level.columns) for m in result.moves]
        write_atomic(output, (json.dumps(obj, indent=1) + "\n").encode("utf-8"), overwrite=force)
    except KamiError as error:
        _fail(error)
        return
    except OSError as error:  # a full disk, a folder gone meanwhile
        _fail(KamiError(f"{error.filename or output}: cannot be written ({error.strerror})"))
        return
    typer.echo(f"wrote {output}: optimum {len(result.moves)} moves, proven ({result.expanded} states searched)")


@app.command(
    "render",
    epilog="""\b
Example:
  kamivision render board.json -o shot.png --device android-tall --ink 12 --truth
  kamivision render board.json -o shot.png --device android-2400 --nav-bar pill --nav-height 0.13 --nav-darkness 0.6""",
)
def render_command(
    source: Annotated[Path, typer.Argument(metavar="BOARD", help="A board file (.json).", show_default=False)],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE", help="The screenshot to write (.png or .jpg).", show_default=False)],
    device: Annotated[str, typer.Option(metavar="NAME", help=f"Phone layout: {', '.join(DEVICES)}.")] = DEFAULT_DEVICE,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the paper texture and shading.")] = 0,
    moves: Annotated[Optional[int], typer.Option(min=0, metavar="N", help="Moves-left counter.  [default: the board's par]")] = None,
    selected: Annotated[int, typer.Option(min=0, metavar="N", help="Swatch with the folded corner (0: the first).")] = 0,
    jpeg_quality: Annotated[Optional[int], typer.Option(min=1, max=100, metavar="Q", help="Write JPEG at this quality.")] = None,
    scale: Annotated[Optional[float], typer.Option(callback=_number, min=0.1, max=4.0, metavar="FACTOR", help="Rescale the screenshot.")] = None,
    truth: Annotated[bool, typer.Option("--truth", help="Also write the board file beside it (SHOT.json).")] = False,
    ink: Annotated[int, typer.Option(min=0, max=200, metavar="N", help="Marks a player wrote over the board (numbers, strokes, dots).")] = 0,
    nav_bar: Annotated[
        Optional[str], typer.Option("--nav-bar", metavar="buttons|pill", help="A translucent navigation bar over the bottom of the screen.  [default: the device's own, if any]")
    ] = None,
    nav_height: Annotated[float, typer.Option(callback=_number, min=0.02, max=0.4, metavar="W", help="The bar's height in screen widths.")] = 0.105,
    nav_darkness: Annotated[float, typer.Option(callback=_number, min=0.05, max=0.95, metavar="D", help="The share of light the bar takes away (0.6: darkened to 40 %).")] = 0.55,
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing files.")] = False,
) -> None:
    """Draw a board as a realistic phone screenshot."""
    from .render import encode, render

    try:
        if device not in DEVICES:
            raise KamiError(f"unknown device {device!r}; known: {', '.join(DEVICES)}")
        from .render import NAV_KINDS, NavBar

        if nav_bar is not None and nav_bar not in NAV_KINDS:
            raise KamiError(f"unknown --nav-bar {nav_bar!r}: expected {' or '.join(NAV_KINDS)}")
        bar = None if nav_bar is None else NavBar(nav_bar, nav_height, nav_darkness)
        from .files import check_output

        _check_suffix(output, (".png", ".jpg", ".jpeg"))
        if jpeg_quality is not None and output.suffix.lower() == ".png":
            raise KamiError(f"{output}: --jpeg-quality writes JPEG; name the file .jpg")
        check_output(output, force, inputs=(source,))
        if truth:
            check_output(output.with_suffix(".json"), force, inputs=(source, output))
        board = read_board(source)
        image, _ = render(board, device, seed=seed, moves=moves, selected=selected, ink=ink, nav_bar=bar)
        data = encode(image, output.suffix, jpeg_quality=jpeg_quality, scale=scale)
        write_atomic(output, data, overwrite=force)
        if truth:
            write_board(board, output.with_suffix(".json"), overwrite=force)
    except KamiError as error:
        _fail(error)
        return
    except OSError as error:  # a full disk, a folder gone meanwhile
        _fail(KamiError(f"{error.filename or output}: cannot be written ({error.strerror})"))
        return
    typer.echo(f"wrote {output}" + (f" and {output.with_suffix('.json')}" if truth else ""))


@app.command(
    "export",
    epilog="""\b
Example:
  kamivision export level.png -o level.json   # then: kamivision solve level.json""",
)
def export_command(
    shot: Annotated[Path, typer.Argument(metavar="SHOT", help="A KAMI 2 screenshot (PNG, JPEG, TIFF, ...).", show_default=False)],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE", help="The board file to write (.json).", show_default=False)],
    max_seconds: Annotated[
        float, typer.Option(callback=_number, min=0.0, metavar="SECONDS", help="The solve that tells which doubtful cells matter stops after this long.")
    ] = 10.0,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing board file.")] = False,
) -> None:
    """Read the board in a screenshot and write it as a board file, with where each part
    was found, how sure each cell is, and which doubtful cells would change the moves."""
    from .files import check_input, check_output
    from .pipeline import solve_screenshot
    from .vision import board_with_source

    try:
        check_input(shot)
        check_output(output, force, inputs=(shot,))
        result = solve_screenshot(shot, max_seconds=max_seconds, check_seconds=0)
        board = board_with_source(result.recognition, str(shot))
        board.extra["source"]["answer"] = {
            "verdict": result.verdict(),
            "moves": moves_to_json(result.solution.moves),
            "optimal": result.solution.optimal,
            "doubt": doubt_to_json(result.doubt, board.columns),
        }
        write_board(board, output, overwrite=force)
    except KamiError as error:
        _fail(error)
        return
    except OSError as error:  # a full disk, a folder gone meanwhile
        _fail(KamiError(f"{error.filename or output}: cannot be written ({error.strerror})"))
        return
    board = result.recognition.board
    par = f"par {board.par}" if board.par is not None else "par not read"
    typer.echo(f"wrote {output}: {len(board.palette or [])} colors, {par}")
    typer.echo(result.verdict())
    for notice in result.notices():
        typer.echo(f"warning: {notice.text}", err=True)


def _print_puzzle(source: Path, puzzle, result, as_json: bool) -> None:
    """A Safe Zone or tile-sliding board's answer: the moves, the verdict, the checks of the
    file's par and optimum; exit 3 when there is no solution, 1 when the file's optimum is wrong."""
    from .puzzles import report, result_to_json

    verdict = report(puzzle, result)
    if as_json:
        typer.echo(json.dumps(result_to_json(puzzle, result)))
    else:
        typer.echo("\n".join(verdict.lines))
    for error in verdict.errors:
        typer.echo(f"kamivision: {source}: {error}", err=True)
    if verdict.status:
        raise typer.Exit(verdict.status)


def _solve_slide_collection(source: Path, max_seconds, max_nodes, as_json: bool, total_seconds=None) -> None:
    """A collection of tile-sliding boards, one a line (Korf's 100): a table and totals
    (:func:`kamivision.puzzles.slide.solve_collection`, reading the file as a stream)."""
    import time

    from .puzzles import result_to_json
    from .puzzles.slide import solve_collection
    from .puzzles.tiles import iter_collection

    boards = iter_collection(source)
    started = time.perf_counter()
    rows, moves, known, wrong, solved, proven = [], 0, 0, [], 0, 0
    if not as_json:
        typer.echo(f"{'board':>6} {'moves':>6} {'file':>6} {'proven':>7} {'states':>14} {'seconds':>9}")
    interrupted = False
    try:
        for name, board, result in solve_collection(boards, max_seconds, max_nodes, total_seconds):
            stored = board.optimal if isinstance(board.optimal, int) else None
            length = result.length
            moves += length or 0
            known += stored or 0
            solved += 1
            proven += result.optimal and length is not None
            if stored is not None and result.optimal and length != stored:
                wrong.append(name)
            if as_json:
                rows.append({"name": name, **result_to_json(board, result)})
            else:
                shown = "-" if length is None else str(length)
                if getattr(result, "unsolvable", False):
                    verdict = "none"  # no sequence of moves reaches the goal (its parity says so)
                else:
                    verdict = "yes" if result.optimal and length is not None else "NO"
                typer.echo(
                    f"{safe_text(name, 6):>6} {shown:>6} {stored if stored is not None else '-':>6} "
                    f"{verdict:>7} {result.expanded:>14,} {result.seconds:>9.2f}"
                )
            interrupted |= result.stopped == "interrupted"
    except KeyboardInterrupt:  # between boards, or while a search set up
        interrupted = True
    ended = total_seconds is not None and not interrupted and _unfinished(boards)
    seconds = time.perf_counter() - started
    peak = _peak_mb()
    if as_json:
        typer.echo(json.dumps({"boards": rows, "total_moves": moves, "total_file": known, "seconds": round(seconds, 2), "peak_mb": peak}))
    else:
        typer.echo(
            f"{solved} {'board' if solved == 1 else 'boards'}: {moves} moves in all (the file: {known}); {proven} proven optimal; "
            f"{seconds:.1f} s" + ("" if peak is None else f"; peak memory {peak} MB") + ("; interrupted" if interrupted else "")
            + (f"; --total-seconds {total_seconds:g} ended the run" if ended else "")
        )
    for name in wrong:
        typer.echo(f"kamivision: {source}: board {name}: the proven optimum differs from the file's", err=True)
    if wrong:
        raise typer.Exit(1)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def _peak_mb() -> Optional[int]:
    """This process's peak resident memory in MB, where the system says (not on Windows)."""
    try:
        import resource
    except ImportError:
        return None
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


@app.command(
    "review",
    epilog="""\b
Examples:
  kamivision review level.png                 # the page saves level.json when you press Save
  kamivision review level.json --image level.png""",
)
def review_command(
    source: Annotated[Path, typer.Argument(metavar="SOURCE", help="A screenshot, or a board file (with --image).", show_default=False)],
    output: Annotated[
        Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="The board file to save.  [default: beside the source]")
    ] = None,
    image: Annotated[Optional[Path], typer.Option(metavar="SHOT", help="The screenshot of a board file.")] = None,
    max_seconds: Annotated[float, typer.Option(callback=_number, min=1.0, metavar="SECONDS", help="The page's solve limit (it can be changed there).")] = 30.0,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="Local port.  [default: any free port]", show_default=False)
    ] = 0,
    browser: Annotated[bool, typer.Option("--browser/--no-browser", help="Open the page in the default browser.")] = True,
) -> None:
    """Open the screenshot in a page in your browser: fix misread cells, solve, save the board."""
    import secrets

    from .review import open_review
    from .web import Settings
    from .web.server import run
    from .web.sessions import session_from_review

    try:
        review = open_review(source, image=image, output=output)
        session = session_from_review(review, (source if source.suffix.lower() != ".json" else image or source).stem)
        settings = Settings(review=session, default_seconds=max_seconds, max_seconds=max(600.0, max_seconds))
        typer.echo(f"reviewing {safe_text(str(source))}; Save writes {safe_text(str(review.output))}")
        run("127.0.0.1", port, settings, open_browser=browser, announce=typer.echo, token=secrets.token_urlsafe(18))
    except KamiError as error:
        _fail(error)


@app.command(
    "serve",
    epilog="""\b
Examples:
  kamivision serve                    # this computer only: http://127.0.0.1:8000/
  kamivision serve --host 0.0.0.0     # your phone too, on the same network (a link with a token)
  kamivision serve --host 0.0.0.0 --cert cert.pem --key key.pem   # the same over HTTPS""",
)
def serve_command(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help="Address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="Port to listen on (0: any free port).")] = 8000,
    max_seconds: Annotated[float, typer.Option(callback=_number, min=1.0, metavar="SECONDS", help="A solve's default limit (the page can change it).")] = 30.0,
    limit: Annotated[float, typer.Option(callback=_number, min=1.0, metavar="SECONDS", help="The longest solve a page may ask for.")] = 600.0,
    workers: Annotated[
        int, typer.Option(min=0, metavar="N", help="Solves run at once.  [default: one per core, less one]", show_default=False)
    ] = 0,
    browser: Annotated[bool, typer.Option("--browser/--no-browser", help="Open the page in the default browser.")] = False,
    cert: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Serve HTTPS with this certificate (PEM); needs --key.")] = None,
    key: Annotated[Optional[Path], typer.Option(metavar="FILE", help="The certificate's private key (PEM).")] = None,
    redis: Annotated[
        Optional[str],
        typer.Option(metavar="URL", help="Keep sessions in Redis and queue solves there for 'kamivision worker' (redis://host:6379/0)."),
    ] = None,
    token: Annotated[
        Optional[str],
        typer.Option(envvar="KAMIVISION_TOKEN", metavar="TOKEN", help="The token every request needs (the same for every web process).  [default: a random one off the loopback]", show_default=False),
    ] = None,
    allow_host: Annotated[
        Optional[list[str]],
        typer.Option("--allow-host", metavar="NAME", help="Also answer requests for this host name without a token (a public site behind a proxy); repeatable."),
    ] = None,
    uploads_per_minute: Annotated[int, typer.Option(min=0, metavar="N", help="Uploads one client address may make a minute (0: no limit).")] = 0,
    solves_per_minute: Annotated[int, typer.Option(min=0, metavar="N", help="Solves one client address may ask for a minute (0: no limit).")] = 0,
    max_waiting: Annotated[int, typer.Option(min=1, metavar="N", help="Solves that may wait; more get 'try again' (503).")] = 64,
    max_sessions: Annotated[
        Optional[int],
        typer.Option(min=1, metavar="N", help="Screenshots held at once, idle ones dropped first.  [default: 64; 2000 with --redis]", show_default=False),
    ] = None,
) -> None:
    """Run kamivision in the browser: open a screenshot, fix cells, solve, step through the moves."""
    import os

    from .web import Settings
    from .web.server import run

    settings = Settings(
        default_seconds=max_seconds,
        max_seconds=max(limit, max_seconds),
        workers=workers or max(1, (os.cpu_count() or 2) - 1),
        token=token or None,
        allowed_hosts=Settings.allowed_hosts + tuple(allow_host or ()),
        redis=redis,
        uploads_per_minute=uploads_per_minute,
        solves_per_minute=solves_per_minute,
        max_waiting=max_waiting,
        max_sessions=max_sessions,
    )
    try:
        if (cert is None) != (key is None):
            raise KamiError("HTTPS needs both --cert and --key")
        if redis is not None:
            from .web.redisstore import reachable

            reachable(redis)
        run(host, port, settings, open_browser=browser, announce=typer.echo, certificate=(cert, key) if cert else None)
    except KamiError as error:
        _fail(error)


@app.command(
    "worker",
    epilog="""\b
Examples:
  kamivision worker --redis redis://10.0.0.5:6379/0    # solves for 'kamivision serve --redis' on any host
  kamivision worker --redis redis://localhost --burst  # the solves waiting now, then stop""",
)
def worker_command(
    redis: Annotated[str, typer.Option(metavar="URL", help="The Redis that the web processes queue solves on.")],
    burst: Annotated[bool, typer.Option("--burst", help="Stop when the queue is empty.")] = False,
    name: Annotated[Optional[str], typer.Option(metavar="NAME", help="This worker's name in Redis.  [default: a random one]", show_default=False)] = None,
) -> None:
    """Solve boards queued by 'kamivision serve --redis', one at a time; run one per core."""
    try:
        from .web.worker import run_worker

        run_worker(redis, burst=burst, name=name)
    except KamiError as error:
        _fail(error)


#: Exit status after SIGTERM (128 + 15): the run stopped as after Ctrl-C, and said so.
TERMINATED = 143
_terminated = False
_main_pid = -1


def _on_terminate(signum, frame) -> None:
    """SIGTERM is handled as Ctrl-C is (the best answer kept, temporary files removed as
    the exception unwinds), and the exit status says it was SIGTERM."""
    global _terminated
    if os.getpid() != _main_pid:  # a worker process forked from this one: end as usual
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    _terminated = True
    raise KeyboardInterrupt


def main() -> None:
    global _main_pid
    _main_pid = os.getpid()
    signal.signal(signal.SIGTERM, _on_terminate)
    try:
        app()
    except SystemExit:
        if _terminated:
            raise SystemExit(TERMINATED) from None
        raise
    if _terminated:  # pragma: no cover - app() always exits through SystemExit
        raise SystemExit(TERMINATED)
