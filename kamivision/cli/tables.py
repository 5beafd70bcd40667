"""Runs over many boards: a row as each one is solved, then the totals (Flood-It and tile
collections, folders and lists of sources).  Ctrl-C ends a run with the totals so far.

Tested in tests/test_cli.py, tests/solver/test_pivot.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import typer

from ..errors import KamiError
from ..report import plural, safe_text
from .common import INTERRUPTED


def each_row(rows: Iterator, show: Callable[[object], None]) -> bool:
    """Call ``show`` on each row as it comes.  A row is counted and printed whole or not at
    all: Ctrl-C is held back while ``show`` runs, and lands between rows.  ``rows`` is closed
    at the end, wherever Ctrl-C came (a pool's worker processes stop then).  True when
    Ctrl-C ended the run."""
    try:
        for row in rows:
            with _sigint_after():
                show(row)
    except KeyboardInterrupt:  # between rows, or while a search set up
        return True
    finally:
        rows.close()
    return False


@dataclasses.dataclass(frozen=True, slots=True)
class Column:
    """One column of a table: its title, width, and the text of a row's cell
    (right-aligned unless ``left``)."""

    title: str
    width: int
    text: Callable[[Any], str]
    left: bool = False

    def cell(self, text: str) -> str:
        return f"{text:{'<' if self.left else '>'}{self.width}}"


class Table:
    """A table printed as its rows come (:func:`each_row`), or one JSON line a row:
    ``columns`` say what a line shows, ``count`` tallies each row for the totals,
    ``json_of`` a row's JSON (None: the row is not printed as JSON), ``instead`` a line
    that replaces the columns' for some rows (None for the others)."""

    def __init__(
        self,
        columns: list[Column],
        as_json: bool,
        count: Callable[[Any], None],
        json_of: Optional[Callable[[Any], Any]] = dataclasses.asdict,
        instead: Callable[[Any], Optional[str]] = lambda row: None,
    ):
        self.columns, self.as_json, self.count, self.json_of, self.instead = columns, as_json, count, json_of, instead

    def run(self, rows: Iterator) -> bool:
        """The header, then a line per row as it comes; True when Ctrl-C ended the run."""
        if not self.as_json:
            typer.echo(" ".join(column.cell(column.title) for column in self.columns))
        return each_row(rows, self.show)

    def show(self, row) -> None:
        self.count(row)
        if self.as_json:
            if self.json_of is not None:
                typer.echo(json.dumps(self.json_of(row)))
        else:
            typer.echo(self.line(row))

    def line(self, row) -> str:
        other = self.instead(row)
        return other if other is not None else " ".join(column.cell(column.text(row)) for column in self.columns)


def _interrupted() -> None:
    """The end of a run that Ctrl-C stopped, after its totals."""
    typer.echo("kamivision: interrupted", err=True)
    raise typer.Exit(INTERRUPTED)


def _yes(proven: bool) -> str:
    return "yes" if proven else "NO"


def _or_dash(value) -> str:
    return "-" if value is None else str(value)


def floodit_table(source: Path, max_seconds, jobs: int, beam: int, as_json: bool, total_seconds=None) -> None:
    """Solve every board of a Flood-It collection and print a table (or JSON lines) and totals.

    Ctrl-C stops the run: the totals of the boards done are printed, and the exit code is
    130 as for a single board."""
    from ..floodit import iter_collection, solve_collection

    puzzles = iter_collection(source)  # a stream: the first board is solved at once
    tally = Counter()

    def count(row) -> None:
        # int(): a first update of an empty Counter keeps its values as given (True, not 1).
        tally.update(
            done=1,
            interrupted=int(row.interrupted),
            moves=row.length,
            proven=int(row.optimal),
            known=row.known or 0,
            unknown=int(row.known is None),
        )

    table = Table(
        [
            Column("board", 28, lambda row: row.name, left=True),
            Column("cells", 5, lambda row: str(row.cells)),
            Column("colors", 7, lambda row: str(row.colors)),
            Column("moves", 5, lambda row: str(row.length)),
            Column("proven", 6, lambda row: _yes(row.optimal)),
            Column("known", 5, lambda row: _or_dash(row.known)),
            Column("seconds", 8, lambda row: f"{row.seconds:.2f}"),
        ],
        as_json,
        count,
    )
    rows = solve_collection(puzzles, max_seconds=max_seconds, jobs=jobs, beam=beam, total_seconds=total_seconds)
    interrupted = table.run(rows) or tally["interrupted"] > 0
    if not as_json:
        done = tally["done"]
        extra = "" if tally["unknown"] else f"; known optimum total {tally['known']}"
        ended = total_seconds is not None and not interrupted and _unfinished(puzzles)
        boards = plural(done, "board") + (
            " (interrupted)" if interrupted else f" (--total-seconds {total_seconds:g} ended the run)" if ended else ""
        )
        typer.echo(f"{boards}: {plural(tally['moves'], 'move')} in all, {tally['proven']} proven optimal{extra}")
    if interrupted:
        _interrupted()


def sources_table(
    sources: list[Path],
    max_seconds,
    jobs: int,
    rules,
    check_seconds: float,
    as_json: bool,
    max_mb=None,
    max_disk_mb=None,
) -> None:
    """Several sources, or the board files and screenshots of a folder (not its subfolders):
    a row as each one finishes (one JSON line each with --json), then the totals.  A source
    that cannot be solved is a row with its error; the exit status is then 1."""
    from ..sources import solve_all, sources_in

    started = time.perf_counter()
    paths = sources_in(sources)
    if not paths:
        raise KamiError(f"{sources[0]}: no board files or screenshots to solve")
    width = min(40, max(len(safe_text(str(p), 10_000)) for p in paths))

    def label(path: str) -> str:  # long paths lose their start, never the file's name
        text = safe_text(path, 10_000)
        return text if len(text) <= width else "…" + text[-(width - 1) :]

    tally = Counter()

    def count(row) -> None:
        tally.update(done=1, interrupted=int(row.interrupted))
        if row.error is not None:
            tally["errors"] += 1
        elif row.moves is not None:
            tally.update(solved=1, moves=row.moves, proven=row.optimal)
            if row.par is not None:
                tally.update(at_par=row.moves == row.par, over=row.moves > row.par, under=row.moves < row.par)

    source, kind = (
        Column("source", width, lambda row: label(row.path), left=True),
        Column("kind", 10, lambda row: row.kind, left=True),
    )

    def error(row) -> Optional[str]:  # a source that could not be solved: its error in place of the figures
        return (
            None
            if row.error is None
            else f"{source.cell(label(row.path))} {kind.cell('error')} {safe_text(row.error, 100)}"
        )

    table = Table(
        [
            source,
            kind,
            Column("moves", 5, lambda row: _or_dash(row.moves)),
            Column("proven", 6, lambda row: _yes(row.optimal)),
            Column("par", 4, lambda row: _or_dash(row.par)),
            Column("seconds", 8, lambda row: f"{row.seconds:.2f}"),
        ],
        as_json,
        count,
        instead=error,
    )
    rows = solve_all(
        paths, max_seconds=max_seconds, jobs=jobs, rules=rules, check_seconds=check_seconds, max_mb=max_mb,
        max_disk_mb=max_disk_mb,
    )  # fmt: skip
    interrupted = table.run(rows) or tally["interrupted"] > 0
    seconds = time.perf_counter() - started
    if not as_json:
        t = tally
        typer.echo(
            f"{t['done']} of {len(paths)} sources{' (interrupted)' if interrupted else ''}: {t['solved']} solved, "
            f"{plural(t['moves'], 'move')} in all, {t['proven']} proven optimal; with a par: {t['at_par']} at par, {t['under']} under, "
            f"{t['over']} over; {t['errors']} could not be solved; {seconds:.1f} s"
        )
    if interrupted:
        _interrupted()
    if tally["errors"]:
        raise typer.Exit(1)


def tiles_table(source: Path, max_seconds, max_nodes, as_json: bool, total_seconds=None) -> None:
    """A collection of tile-sliding boards, one a line (Korf's 100): a table and totals
    (:func:`kamivision.puzzles.slide.solve_collection`, reading the file as a stream)."""
    from ..puzzles.databases import SMALL
    from ..puzzles.search import Stop
    from ..puzzles.slide import solve_collection
    from ..puzzles.tiles import iter_collection
    from ..report.puzzles import puzzle_to_json

    boards = iter_collection(source)
    started = time.perf_counter()
    tally, rows, wrong, bounds = Counter(), [], [], set()

    def stored(solved) -> Optional[int]:
        optimal = solved[1].optimal
        return optimal if isinstance(optimal, int) else None

    def count(solved) -> None:
        name, board, result = solved
        length, known = result.length, stored(solved)
        bounds.add(result.bound)
        tally.update(
            done=1,
            moves=length or 0,
            known=known or 0,
            proven=int(result.optimal and length is not None),
            interrupted=int(result.stopped is Stop.INTERRUPTED),
        )
        if known is not None and result.optimal and length != known:
            wrong.append(name)
        if as_json:
            rows.append({"name": name, **puzzle_to_json(board, result)})

    def verdict(result) -> str:
        if getattr(result, "unsolvable", False):
            return "none"  # no sequence of moves reaches the goal (its parity says so)
        return _yes(result.optimal and result.length is not None)

    table = Table(
        [
            Column("board", 6, lambda solved: safe_text(solved[0], 6)),
            Column("moves", 6, lambda solved: _or_dash(solved[2].length)),
            Column("file", 6, lambda solved: _or_dash(stored(solved))),
            Column("proven", 7, lambda solved: verdict(solved[2])),
            Column("states", 14, lambda solved: f"{solved[2].expanded:,}"),
            Column("seconds", 9, lambda solved: f"{solved[2].seconds:.2f}"),
        ],
        as_json,
        count,
        json_of=None,
    )  # the JSON is one document, printed at the end
    interrupted = table.run(solve_collection(boards, max_seconds, max_nodes, total_seconds)) or tally["interrupted"] > 0
    ended = total_seconds is not None and not interrupted and _unfinished(boards)
    seconds = time.perf_counter() - started
    peak = _peak_mb()
    moves, known, done = tally["moves"], tally["known"], tally["done"]
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "boards": rows,
                    "total_moves": moves,
                    "total_file": known,
                    "seconds": round(seconds, 2),
                    "peak_mb": peak,
                }
            )
        )
    else:
        typer.echo(
            f"{plural(done, 'board')}: {plural(moves, 'move')} in all (the file: {known}); {tally['proven']} proven "
            f"optimal; {seconds:.1f} s"
            + ("" if peak is None else f"; peak memory {peak} MB")
            + ("; interrupted" if interrupted else "")
            + (f"; --total-seconds {total_seconds:g} ended the run" if ended else "")
        )
        if any(bound and f"databases {SMALL.name} " in bound for bound in bounds):
            typer.echo(
                "(the 6-6-3 pattern databases: 'kamivision tables build' makes the 7-8 ones, about ten times faster)"
            )
    for name in wrong:
        typer.echo(f"kamivision: {source}: board {name}: the proven optimum differs from the file's", err=True)
    if wrong:
        raise typer.Exit(1)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


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


def _peak_mb() -> Optional[int]:
    """This process's peak resident memory in MB, where the system says (not on Windows)."""
    try:
        import resource
    except ImportError:
        return None
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
