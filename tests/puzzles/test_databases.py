"""The pattern database files: a packed table (4 bits, built a level at a time) holds the
same values as the byte table of the full (placement, empty cell) search; IDA* with packed
tables searches exactly as with byte tables; files are written whole, read back mapped,
and refused when damaged; the best tables present are used; ``kamivision tables``."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest
from typer.testing import CliRunner

from kamivision.cli import app
from kamivision.puzzles import databases, patterns
from kamivision.puzzles.databases import DatabaseError, Partition, PatternTables
from kamivision.puzzles.search import Limits
from kamivision.puzzles.tiles import SlideBoard

from .test_patterns import rank, scramble

pytestmark = pytest.mark.skipif(
    not databases.AVAILABLE, reason="the compiled pattern databases are not built (no C compiler)"
)

# Five 3-tile patterns: tables of 3,360 placements, built in milliseconds.
TINY = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15))


def packed(group: tuple[int, ...]) -> bytearray:
    size = Partition("t", (group,), packed=True).placements(group)
    return databases._build_packed(group, size, threads=2, progress=lambda text: None, started=0.0)


def table_values(table, group: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every placement of ``group`` (one row each) and its value in the packed ``table``:
    the Manhattan distance plus twice the 4-bit entry at the placement's rank (numpy, for
    the 524,160 placements of five tiles)."""
    cells = np.array(list(permutations(range(16), len(group))), dtype=np.int64)
    r = np.zeros(len(cells), np.int64)
    for i in range(len(group)):  # rank() of test_patterns, on every placement at once
        smaller = (cells[:, :i] < cells[:, i : i + 1]).sum(axis=1)
        r = r * (16 - i) + cells[:, i] - smaller
    goal = np.array(group)
    manhattan = (np.abs(cells // 4 - goal // 4) + np.abs(cells % 4 - goal % 4)).sum(axis=1)
    nibbles = np.frombuffer(bytes(table), np.uint8)[r >> 1] >> ((r & 1) * 4).astype(np.uint8) & 15
    return cells, r, manhattan + 2 * nibbles.astype(np.int64)


@pytest.mark.parametrize("group", [(1, 2, 3), (10, 11, 15), (4, 8, 12, 13), (1, 4, 6, 9, 15)])
def test_a_packed_table_holds_the_full_searchs_values(group):
    """The packed build searches (placement, component of the empty cell); the byte build
    searches (placement, empty cell) with free moves of the empty cell.  The corners and
    the scattered 5-tile pattern cut the free cells into several components."""
    table, full = packed(group), databases._patterns.build(bytes(group))
    cells, ranks, values = table_values(table, group)
    some = slice(None, None, 997)  # the vectorised ranks are rank()'s
    assert ranks[some].tolist() == [rank(tuple(c)) for c in cells[some].tolist()]
    wrong = cells[values != np.frombuffer(bytes(full), np.uint8)[ranks]]
    assert wrong.tolist() == []


def tables(groups, as_packed: bool) -> list:
    return [packed(g) if as_packed else databases._patterns.build(bytes(g)) for g in groups]


def test_ida_searches_the_same_with_packed_and_byte_tables():
    """Equal values, so the same bound at every node: the same moves and the same count."""
    rng = random.Random(7)
    byte, small = tables(TINY, False), tables(TINY, True)
    goal = tuple(range(16))
    for _ in range(8):
        board = SlideBoard(4, 4, scramble(rng, goal, rng.randint(20, 45)), goal)
        one = patterns.search(board, TINY, byte, Limits(max_nodes=3_000_000))
        two = patterns.search(board, TINY, small, Limits(max_nodes=3_000_000))
        assert (one.moves, one.expanded, one.lower_bound) == (two.moves, two.expanded, two.lower_bound)
        assert one.optimal
    with pytest.raises(ValueError, match="all packed or all bytes"):
        patterns.search(board, TINY, byte[:2] + small[2:], Limits())


@pytest.fixture
def tiny(monkeypatch, tmp_path):
    """A cache folder of its own, and the 7-8 partition replaced by five packed 3-tile
    patterns (so the tests build tables in milliseconds)."""
    monkeypatch.setenv("KAMIVISION_CACHE", str(tmp_path))
    large = Partition("3x5", TINY, packed=True)
    monkeypatch.setattr(databases, "LARGE", large)
    monkeypatch.setattr(databases, "PARTITIONS", (large, databases.SMALL))
    return large


def later(path) -> None:
    """Move the file's time a second on, as a later write would (file times can be as
    coarse as a few milliseconds)."""
    import os

    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_a_file_is_read_back_as_written_and_refused_when_damaged(tiny, tmp_path):
    path = databases.build(tiny)
    mark = path.with_name(path.name + ".checked")
    assert mark.is_file()  # the build checked its digest
    loaded = databases.load(tiny)
    assert [bytes(t) for t in loaded.tables] == [bytes(t) for t in tables(TINY, True)]
    assert databases.verify(tiny) is True
    del loaded
    later(path)  # changed since the check, in time only: checked again, and found right
    assert databases.load(tiny) is not None and mark.read_text().split()[1] == str(path.stat().st_mtime_ns)
    raw = bytearray(path.read_bytes())
    raw[-5] ^= 0x10  # one value changed: the size is right, the digest is not
    path.write_bytes(bytes(raw))
    later(path)
    with pytest.raises(DatabaseError, match="damaged"):
        databases.load(tiny)
    assert databases.verify(tiny) is False
    path.write_bytes(bytes(raw[:-1]))
    with pytest.raises(DatabaseError, match="cut short"):
        databases.load(tiny)
    raw[16] ^= 1  # the version
    path.write_bytes(bytes(raw))
    with pytest.raises(DatabaseError, match="not a version"):
        databases.load(tiny)
    assert databases.load(databases.SMALL) is None  # no file


def test_the_best_tables_present_are_used(tiny, monkeypatch):
    small = Partition("3x5-small", TINY, packed=False)
    monkeypatch.setattr(databases, "SMALL", small)
    monkeypatch.setattr(databases, "PARTITIONS", (tiny, small))
    said = []
    assert PatternTables().get(said.append).partition is small  # none there: the small ones, built
    assert said and "building" in said[0] and databases.path_of(small).is_file()
    databases.build(tiny)
    assert PatternTables().get().partition is tiny
    board = SlideBoard(4, 4, scramble(random.Random(3), tuple(range(16)), 30), tuple(range(16)))
    result = patterns.solve(board, Limits(), tables=PatternTables())
    assert result.optimal and "3x5" in result.bound
    removed = {p.name for p in databases.clear()}
    assert removed == {tiny.file_name, small.file_name, tiny.file_name + ".checked", small.file_name + ".checked"}
    assert not any(databases.cache_folder().iterdir())


def test_the_tables_command(tiny, monkeypatch):
    runner = CliRunner()
    shown = runner.invoke(app, ["tables", "status"])
    assert shown.exit_code == 0 and "absent" in shown.output and "none in use" in shown.output
    refused = runner.invoke(app, ["tables", "build"], input="")  # no terminal, no --yes: not built
    assert refused.exit_code == 1 and "--yes" in refused.output and not databases.path_of(tiny).exists()
    monkeypatch.setattr(databases, "memory_available", lambda: 1000)
    short = runner.invoke(app, ["tables", "build", "--yes"])
    assert short.exit_code == 1 and "of memory is free" in short.output and not databases.path_of(tiny).exists()
    monkeypatch.setattr(databases, "memory_available", lambda: None)
    built = runner.invoke(app, ["tables", "build", "--yes"])
    assert built.exit_code == 0 and databases.path_of(tiny).is_file(), built.output
    again = runner.invoke(app, ["tables", "build", "--yes"])
    assert again.exit_code == 0 and "there already" in again.output
    shown = runner.invoke(app, ["tables", "status", "--verify"])
    assert "present, in use, digest right" in shown.output
    cleared = runner.invoke(app, ["tables", "clear"])
    assert cleared.exit_code == 0 and "removed" in cleared.output and not databases.path_of(tiny).exists()


@pytest.mark.slow  # 1.5 GB for a few seconds
def test_ctrl_c_stops_the_large_build_and_leaves_nothing(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    if (databases.memory_available() or 0) < databases.LARGE.build_memory * 1.1:
        pytest.skip("not enough free memory for the 7-8 build")
    env = {**os.environ, "KAMIVISION_CACHE": str(tmp_path)}
    build = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "tables", "build", "--yes"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored in the child
    )
    for line in build.stderr:  # the progress lines, one a level
        if "8 tiles: 12 moves" in line:
            break
    time.sleep(0.5)
    build.send_signal(signal.SIGINT)
    rest = build.stderr.read()
    assert build.wait(timeout=120) == 130
    assert "stopped: nothing written" in rest and list(tmp_path.iterdir()) == []


def test_a_database_error_is_a_kami_error():
    """Issue 49: DatabaseError stood outside the KamiError tree, so every caller had to name
    it beside KamiError to give the user one line."""
    from kamivision.errors import KamiError
    from kamivision.puzzles.databases import DatabaseError

    assert issubclass(DatabaseError, KamiError)
