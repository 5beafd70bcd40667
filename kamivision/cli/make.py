"""Commands that make files: ``generate`` (a Safe Zone level), ``render`` (a screenshot
of a board) and ``export`` (the board read from a screenshot).

Tested in tests/test_cli.py, tests/puzzles/test_safezone.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..board import read_board, write_board
from ..errors import KamiError
from ..files import write_atomic
from ..outputs import check_suffix
from ..report import doubt_to_json, moves_to_json
from ..synth.screens import DEFAULT_DEVICE, DEVICES
from .common import INTERRUPTED, app, number, one_line_errors


@app.command(
    "generate",
    epilog="""\b
Example:
  kamivision generate -o level.json --rows 6 --columns 6 --zones 3 --helpers 1 --seed 4""",
)
def generate_command(
    output: Annotated[
        Path,
        typer.Option(
            "-o", "--output", metavar="FILE", help="The Safe Zone level to write (.json).", show_default=False
        ),
    ],
    rows: Annotated[int, typer.Option(min=2, max=16, metavar="N", help="Rows.")] = 6,
    columns: Annotated[int, typer.Option(min=2, max=16, metavar="N", help="Columns.")] = 6,
    zones: Annotated[int, typer.Option(min=1, max=8, metavar="N", help="Safe zones (and as many blocks).")] = 2,
    helpers: Annotated[int, typer.Option(min=0, max=4, metavar="N", help="Helper blocks besides.")] = 0,
    min_moves: Annotated[int, typer.Option(min=1, metavar="N", help="Shortest optimum accepted.")] = 4,
    seed: Annotated[int, typer.Option(metavar="N", help="Random seed.")] = 0,
    max_seconds: Annotated[
        float,
        typer.Option(
            callback=number, min=1.0, metavar="SECONDS", help="Give up after this long in all (200 tries at most)."
        ),
    ] = 120.0,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Make a random Safe Zone level and write it with its proven optimum."""
    import random
    import time

    from ..files import check_output
    from ..puzzles.safezone import generate, safezone_to_dict

    started = time.perf_counter()

    def progress(tries: int, counts: dict) -> None:
        if sys.stderr.isatty():
            typer.echo(f"\rtried {tries} levels, {time.perf_counter() - started:5.1f} s", nl=False, err=True)

    with one_line_errors(output):
        check_output(output, force)
        try:
            made = generate(
                random.Random(seed),
                rows,
                columns,
                zones,
                helpers,
                min_moves=min_moves,
                max_seconds=max_seconds,
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
    output: Annotated[
        Path,
        typer.Option(
            "-o", "--output", metavar="FILE", help="The screenshot to write (.png or .jpg).", show_default=False
        ),
    ],
    device: Annotated[str, typer.Option(metavar="NAME", help=f"Phone layout: {', '.join(DEVICES)}.")] = DEFAULT_DEVICE,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the paper texture and shading.")] = 0,
    moves: Annotated[
        Optional[int], typer.Option(min=0, metavar="N", help="Moves-left counter.  [default: the board's par]")
    ] = None,
    selected: Annotated[
        int, typer.Option(min=0, metavar="N", help="Swatch with the folded corner (0: the first).")
    ] = 0,
    jpeg_quality: Annotated[
        Optional[int], typer.Option(min=1, max=100, metavar="Q", help="Write JPEG at this quality.")
    ] = None,
    scale: Annotated[
        Optional[float],
        typer.Option(callback=number, min=0.1, max=4.0, metavar="FACTOR", help="Rescale the screenshot."),
    ] = None,
    truth: Annotated[bool, typer.Option("--truth", help="Also write the board file beside it (SHOT.json).")] = False,
    ink: Annotated[
        int,
        typer.Option(min=0, max=200, metavar="N", help="Marks a player wrote over the board (numbers, strokes, dots)."),
    ] = 0,
    nav_bar: Annotated[
        Optional[str],
        typer.Option(
            "--nav-bar",
            metavar="buttons|pill",
            help="A translucent navigation bar over the bottom of the screen.  [default: the device's own, if any]",
        ),
    ] = None,
    nav_height: Annotated[
        float, typer.Option(callback=number, min=0.02, max=0.4, metavar="W", help="The bar's height in screen widths.")
    ] = 0.105,
    nav_darkness: Annotated[
        float,
        typer.Option(
            callback=number,
            min=0.05,
            max=0.95,
            metavar="D",
            help="The share of light the bar takes away (0.6: darkened to 40 %).",
        ),
    ] = 0.55,
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing files.")] = False,
) -> None:
    """Draw a board as a realistic phone screenshot."""
    from ..synth.render import encode, render

    with one_line_errors(output):
        if device not in DEVICES:
            raise KamiError(f"unknown device {device!r}; known: {', '.join(DEVICES)}")
        from ..synth.covers import NAV_KINDS, NavBar

        if nav_bar is not None and nav_bar not in NAV_KINDS:
            raise KamiError(f"unknown --nav-bar {nav_bar!r}: expected {' or '.join(NAV_KINDS)}")
        bar = None if nav_bar is None else NavBar(nav_bar, nav_height, nav_darkness)
        from ..files import check_output

        check_suffix(output, (".png", ".jpg", ".jpeg"))
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
    typer.echo(f"wrote {output}" + (f" and {output.with_suffix('.json')}" if truth else ""))


@app.command(
    "export",
    epilog="""\b
Example:
  kamivision export level.png -o level.json   # then: kamivision solve level.json""",
)
def export_command(
    shot: Annotated[
        Path, typer.Argument(metavar="SHOT", help="A KAMI 2 screenshot (PNG, JPEG, TIFF, ...).", show_default=False)
    ],
    output: Annotated[
        Path,
        typer.Option("-o", "--output", metavar="FILE", help="The board file to write (.json).", show_default=False),
    ],
    max_seconds: Annotated[
        float,
        typer.Option(
            callback=number,
            min=0.0,
            metavar="SECONDS",
            help="The solve that tells which doubtful cells matter stops after this long.",
        ),
    ] = 10.0,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing board file.")] = False,
) -> None:
    """Read the board in a screenshot and write it as a board file, with where each part
    was found, how sure each cell is, and which doubtful cells would change the moves."""
    from ..files import check_input, check_output
    from ..pipeline import solve_screenshot
    from ..report import board_with_source

    with one_line_errors(output):
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
    board = result.recognition.board
    par = f"par {board.par}" if board.par is not None else "par not read"
    typer.echo(f"wrote {output}: {len(board.palette or [])} colors, {par}")
    typer.echo(result.verdict())
    for notice in result.notices():
        typer.echo(f"warning: {notice.text}", err=True)
