"""``kamivision tables build|status|clear``: the 15-puzzle's pattern databases in the
cache folder (:mod:`kamivision.puzzles.databases`)."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from .common import INTERRUPTED, app, rewrite_line

tables_app = typer.Typer(
    no_args_is_help=True,
    help="The 15-puzzle's pattern databases: build the large 7-8 tables, see which are there, remove them.",
)
app.add_typer(tables_app, name="tables")


def _megabytes(count: int) -> str:
    if count >= 1e9:
        return f"{count / 1e9:.1f} GB"
    return f"{count / 1e6:.0f} MB" if count >= 100e6 else f"{count / 1e6:.1f} MB"


@tables_app.command("status")
def status_command(
    verify: Annotated[
        bool, typer.Option("--verify", help="Check each file against its digest (a second or so for 7-8).")
    ] = False,
) -> None:
    """Which tables are in the cache folder, their size, and which ones the solver uses."""
    from ..puzzles import databases

    typer.echo(f"cache folder: {databases.cache_folder()}")
    in_use = None
    for partition in databases.PARTITIONS:
        path = databases.path_of(partition)
        try:
            loaded = databases.load(partition)
            state = "absent" if loaded is None else "present"
        except databases.DatabaseError as error:
            loaded, state = None, f"unusable: {error}"
        if loaded is not None and in_use is None:
            in_use = partition
            state += ", in use"
        if verify and loaded is not None:
            state += ", digest " + (
                "right"
                if databases.verify(partition)
                else f"WRONG: rebuild it ({databases.rebuild_command(partition)})"
            )
        size = _megabytes(path.stat().st_size) if loaded is not None else _megabytes(sum(partition.table_bytes()))
        typer.echo(f"{partition.name:<6} {size:>7}  {state}  ({path.name})")
    current = {databases.path_of(p).name for p in databases.PARTITIONS}
    folder = databases.cache_folder()
    for old in sorted(folder.glob("slide-patterns-*.bin")) if folder.is_dir() else ():
        if old.name not in current:
            typer.echo(
                f"{'old':<6} {_megabytes(old.stat().st_size):>7}  unused: an earlier version's ({old.name}; 'kamivision tables clear' removes it)"
            )
    if in_use is None:
        typer.echo(
            "none in use: the first 15-puzzle solved builds 6-6-3 (about 25 s); 'kamivision tables build' makes 7-8"
        )
    elif in_use is databases.SMALL:
        typer.echo("7-8 solves the 15-puzzle about ten times faster: 'kamivision tables build'")


@tables_app.command("build")
def build_command(
    small: Annotated[
        bool, typer.Option("--small", help="Build the 6-6-3 tables instead (11.5 MB, under a minute).")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Build without asking.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Build again over tables already there.")] = False,
    threads: Annotated[
        Optional[int], typer.Option(min=1, max=16, metavar="N", help="Threads (default: every core).")
    ] = None,
) -> None:
    """Build the 7-8 pattern databases into the cache folder: 288 MB on disk, about 1.5 GB
    of memory and a few minutes while building.  Asks first; Ctrl-C stops it and leaves
    nothing behind."""
    from ..errors import KamiError
    from ..puzzles import databases

    partition = databases.SMALL if small else databases.LARGE
    try:
        there = databases.load(partition) is not None
    except databases.DatabaseError:
        there = False  # damaged or of another version: built again
    if there and not force:
        typer.echo(
            f"the {partition.name} pattern databases are there already: {databases.path_of(partition)} (--force builds them again)"
        )
        return
    need, disk = partition.build_memory, sum(partition.table_bytes())
    path = databases.path_of(partition)
    from ..solver.settings import usable_cpus

    cores = threads or usable_cpus()
    typer.echo(
        f"the {partition.name} pattern databases: {_megabytes(disk)} in {path}; building them takes about "
        f"{_megabytes(need)} of memory and {'a few minutes' if partition.packed else 'under a minute'} on {cores} core{'s' * (cores != 1)}"
    )
    available = databases.memory_available()
    if available is not None and available < need * 1.1:
        typer.echo(
            f"kamivision: {_megabytes(available)} of memory is free, {_megabytes(need)} is needed: not built "
            f"(the 6-6-3 tables stay in use)",
            err=True,
        )
        raise typer.Exit(1)
    if not yes:
        if not sys.stdin.isatty():
            typer.echo("kamivision: not built: add --yes to build without being asked", err=True)
            raise typer.Exit(1)
        if not typer.confirm("build them now?", default=False):
            typer.echo("not built")
            raise typer.Exit(1)
    live = sys.stderr.isatty()

    def show(text: str) -> None:
        if live:
            rewrite_line(text)
        else:
            typer.echo(text, err=True)

    try:
        databases.build(partition, threads=threads, progress=show)
    except KeyboardInterrupt:
        if live:
            sys.stderr.write("\n")
        typer.echo("stopped: nothing written", err=True)
        raise typer.Exit(INTERRUPTED) from None
    except (KamiError, MemoryError) as error:  # a DatabaseError is a KamiError
        if live:
            sys.stderr.write("\n")
        reason = "out of memory" if isinstance(error, MemoryError) else str(error)
        typer.echo(f"kamivision: {path}: not built ({reason})", err=True)
        raise typer.Exit(1) from None
    if live:
        sys.stderr.write("\n")


@tables_app.command("clear")
def clear_command() -> None:
    """Remove every pattern database file from the cache folder (the solver builds 6-6-3
    again when a 15-puzzle needs it)."""
    from ..puzzles import databases

    try:
        removed = databases.clear()
    except OSError as error:
        typer.echo(f"kamivision: {error.filename}: cannot be removed ({error.strerror})", err=True)
        raise typer.Exit(1) from None
    for path in removed:
        typer.echo(f"removed {path}")
    if not removed:
        typer.echo(f"no pattern databases in {databases.cache_folder()}")
