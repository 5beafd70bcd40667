"""The command line: a thin typer layer over the library API.

Each command parses its options, calls one library function and prints.  A
:class:`~kamivision.errors.KamiError` becomes a one-line message on stderr and exit code 1;
usage errors exit with 2 (Click).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .board import board_to_dict, read_board
from .errors import KamiError
from .report import format_solution
from .solver import Solution, solve

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="kamivision: from a KAMI puzzle (board file or screenshot) to its proven-optimal solution.",
)


@app.callback()
def _root() -> None:
    """kamivision: from a KAMI puzzle (board file or screenshot) to its proven-optimal solution."""


def _fail(error: KamiError) -> None:
    typer.echo(f"kamivision: {error}", err=True)
    raise typer.Exit(1)


def _progress_printer():
    if not sys.stderr.isatty():
        return None

    def show(info: dict) -> None:
        sys.stderr.write(
            f"\rsearching: {info['expanded']:>9,} states, lower bound {info['bound']}, "
            f"{info['seconds']:6.1f} s"
        )
        sys.stderr.flush()

    return show


def solution_to_json(board_obj: dict, solution: Solution) -> dict:
    """The ``solve --json`` object."""
    return {
        "board": board_obj,
        "moves": [{"row": m.row, "column": m.column, "color": m.color} for m in solution.moves],
        "length": solution.length,
        "optimal": solution.optimal,
        "lower_bound": solution.lower_bound,
        "par": solution.par,
        "seconds": round(solution.seconds, 4),
        "expanded": solution.expanded,
    }


@app.command("solve")
def solve_command(
    source: Annotated[Path, typer.Argument(help="A board file (.json).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
    max_seconds: Annotated[
        Optional[float], typer.Option(min=0.0, help="Stop after this many seconds with the best found.")
    ] = None,
    max_nodes: Annotated[
        Optional[int], typer.Option(min=1, help="Stop after expanding this many states.")
    ] = None,
) -> None:
    """Solve a board optimally and print the moves."""
    try:
        board = read_board(source)
        progress = None if as_json else _progress_printer()
        solution = solve(board, max_seconds=max_seconds, max_nodes=max_nodes, progress=progress)
    except KamiError as error:
        _fail(error)
        return
    if progress is not None:
        sys.stderr.write("\r\x1b[K")
    if as_json:
        typer.echo(json.dumps(solution_to_json(board_to_dict(board), solution)))
    else:
        typer.echo(format_solution(board, solution, ansi=sys.stdout.isatty()))


def main() -> None:
    app()
