"""The sliding puzzles' benchmarks (issue 29): Korf's 100 15-puzzles, every start of three
3 x 3 KenKen goals, the Safe Zone examples and generated levels.

    python benchmarks/puzzles.py [--korf ../shared/data/slide/korf100.txt] [--fresh-tables]
                                 [--tables all|7-8|6-6-3|none] [--peer DIR] [--levels 100]
                                 [--only korf|kenken|safezone] [--no-reference]

Prints one table per part: states searched, seconds, every answer checked (Korf's against
the file; KenKen against breadth-first search; Safe Zone levels proven, and solved again
by the Python search to compare with the compiled one unless --no-reference).  Korf's 100
are solved with each set of pattern databases in the cache (7-8 is built by `kamivision
tables build`); --fresh-tables builds them in a temporary folder first, in a process of
their own, to time the build and its peak memory.  --peer DIR runs a public solver built
in DIR on the same instances (see peer()).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kamivision.puzzles import databases  # noqa: E402
from kamivision.puzzles.safezone import generate, read_safezone, solve_safezone  # noqa: E402
from kamivision.puzzles.search import Limits  # noqa: E402
from kamivision.puzzles.slide import solve_slide  # noqa: E402
from kamivision.puzzles.tiles import SlideBoard, read_collection  # noqa: E402
from tests.puzzles.test_slide import distances_to_goal  # noqa: E402

KENKEN_GOALS = ((1, 2, 3, 2, 3, 1, 3, 1, 0), (2, 3, 1, 1, 2, 3, 3, 1, 0), (1, 3, 2, 3, 2, 1, 2, 1, 0))


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_in_child(partition, folder: str) -> tuple[float, float]:
    """Build a partition's tables in a process of its own: (seconds, peak MB of that process)."""
    started = time.perf_counter()
    code = (
        "import resource; from kamivision.puzzles import databases as d; "
        f"d.build(d.{'LARGE' if partition is databases.LARGE else 'SMALL'}); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "KAMIVISION_CACHE": folder},
    )
    return time.perf_counter() - started, int(done.stdout.split()[-1]) / 1024


def korf(path: Path, fresh: bool, which: str) -> None:
    boards = read_collection(path)
    folder = tempfile.mkdtemp(prefix="kamivision-pdb-") if fresh else None
    chosen = [p for p in databases.PARTITIONS if which in ("all", p.name)]
    print(
        "| tables | on disk | built (or loaded) in | build peak MB | instances | proven | equal to the file | moves | states | "
        "seconds | slowest | peak MB (the process so far) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for partition in chosen:
        built, build_peak = "-", "-"
        if fresh:
            seconds, peak = build_in_child(partition, folder)
            built, build_peak = f"{seconds:.0f} s", f"{peak:.0f}"
        tables = databases.PatternTables(Path(folder) if folder else None, partitions=(partition,))
        loading = time.perf_counter()
        try:
            loaded = tables.get()
            if not fresh:
                built = f"loaded in {(time.perf_counter() - loading) * 1000:.0f} ms"
        except databases.DatabaseError as error:
            print(f"| {partition.name} | - | {error} | | | | | | | | | |")
            continue
        size = sum(len(t) for t in loaded.tables) / 1e6
        started = time.perf_counter()
        proven = equal = moves = states = 0
        slowest = (0.0, "")
        for name, board in boards:
            result = solve_slide(board, tables=tables)
            proven += result.optimal and result.moves is not None
            equal += result.length == board.optimal
            moves += result.length or 0
            states += result.expanded
            slowest = max(slowest, (result.seconds, name))
        total = time.perf_counter() - started
        print(
            f"| {partition.name} | {size:.1f} MB | {built} | {build_peak} | {len(boards)} | {proven} | {equal} | {moves:,} | "
            f"{states:,} | {total:.1f} | #{slowest[1]} {slowest[0]:.2f} s | {peak_mb():.0f} |",
            flush=True,
        )


# MichaelKim/15puzzle's own 7-8 database (databases/78-reg): the goal 1..15 with the empty
# cell at the bottom right.  Korf's boards are turned half a circle onto it (cell c ->
# 15 - c, tile t -> 16 - t): the same puzzle, the same optimum; its 8-tile pattern is then
# Korf's bottom half, its 7-tile one the top half.  (Korf's own orientation trips its
# solvability check, which takes a negative row difference modulo 2, on the 53 boards
# whose empty cell is on an odd row: "No solution possible!")
PEER_DATABASE = """4 4 2

1 2 3 4
5 6 7 8
0 0 0 0
0 0 0 0

0 0 0 0
0 0 0 0
9 10 11 12
13 14 15 0
"""


def peer(folder: Path, path: Path, runs: int) -> None:
    """Korf's 100 by a public solver, side by side: MichaelKim/15puzzle (C++, IDA* with
    additive disjoint pattern databases, their reflection, and walking distance), built
    in ``folder`` with its own Makefile's flags:

        git clone https://github.com/MichaelKim/15puzzle && cd 15puzzle
        g++ -std=c++17 -O3 src/*.cpp -o puzzle

    Given its own 7-8 database, the boards turned onto its goal (see PEER_DATABASE).  Its first run builds the tables into ``folder/databases`` (cold);
    the next ones read them (warm).  Each run is one process: wall time, peak memory."""
    boards = read_collection(path)
    (folder / "kamivision-78-korf").write_text(PEER_DATABASE)
    turned = [[16 - board.cells[15 - c] if board.cells[15 - c] else 0 for c in range(16)] for _, board in boards]
    lines = [f"4 4 {len(boards)}"] + [" ".join(map(str, cells)) for cells in turned]
    (folder / "kamivision-korf100.txt").write_text("\n".join(lines) + "\n")
    print("| run | tables | solved | moves | equal to the file | seconds | peak MB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for run in range(runs):
        cold = not any((folder / "databases").glob("kamivision-78-korf-*.dat"))
        started = time.perf_counter()
        child = subprocess.Popen(
            [str(folder / "puzzle"), "-d", "kamivision-78-korf", "-b", "kamivision-korf100.txt"],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        lengths = [int(line.split()[1]) for line in out.splitlines() if line.startswith("Solution:")]
        equal = sum(length == board.optimal for length, (_, board) in zip(lengths, boards))
        print(
            f"| {run + 1} | {'built in the run' if cold else 'read from its files'} | {len(lengths)} | "
            f"{sum(lengths):,} | {equal} | {seconds:.1f} | {usage.ru_maxrss / 1024:.0f} |",
            flush=True,
        )


def kenken() -> None:
    print("| goal | starts | solved at the BFS optimum | mean moves | max | states | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for goal in KENKEN_GOALS:
        distance = distances_to_goal(SlideBoard(3, 3, goal, goal))
        started = time.perf_counter()
        right = states = 0
        lengths = []
        for start in distance:
            result = solve_slide(SlideBoard(3, 3, start, goal))
            right += result.optimal and result.length == distance[start]
            states += result.expanded
            lengths.append(result.length)
        seconds = time.perf_counter() - started
        print(
            f"| {''.join(map(str, goal[:3]))}/{''.join(map(str, goal[3:6]))}/{''.join(map(str, goal[6:]))} | {len(distance)} | "
            f"{right} | {statistics.mean(lengths):.2f} | {max(lengths)} | {states:,} | {seconds:.1f} |"
        )


SIZES = ((5, 2, 0), (6, 3, 0), (6, 2, 1), (7, 3, 1), (8, 3, 0), (8, 3, 1), (8, 4, 0))


def safezone(levels: int, seconds_per_level: float, reference: bool = True) -> None:
    examples = Path(__file__).resolve().parents[2] / "shared" / "spec" / "examples"
    if examples.is_dir():
        print("| example | optimum | file | states | seconds |")
        print("| --- | --- | --- | --- | --- |")
        for path in sorted(examples.glob("sz-*.json")):
            level = read_safezone(path)
            result = solve_safezone(level)
            stored = level.optimal if isinstance(level.optimal, int) or level.optimal is None else "-"
            print(
                f"| {path.name} | {result.length if result.length is not None else 'none'} | {stored} | {result.expanded} | {result.seconds:.3f} |"
            )
        print()
    print("Each level is proven by the generator's A* (assignment bound, compiled when built); a drawn board is drawn")
    print(
        f"again when it has no solution, needs fewer than 3 moves, or is not proven within {seconds_per_level:g} s (counted below)."
    )
    if reference:
        print("Each kept level is solved again by the Python search, the reference: the last columns compare them.")
    print()
    print(
        "| size | zones + helpers | levels | optimum mean / max | states mean / max | seconds mean / max | "
        "drawn again: no solution / under 3 moves / not proven | wall s | same moves and states as Python | Python s mean / max |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rng = random.Random(2026)
    for size, zones, helpers in SIZES:
        started = time.perf_counter()
        counts: dict = {}
        made = [
            generate(
                rng,
                size,
                size,
                zones,
                helpers,
                min_moves=3,
                limits=Limits(max_seconds=seconds_per_level),
                counts=counts,
            )
            for _ in range(levels)
        ]
        made = [m for m in made if m is not None]
        results = [result for _, result in made]
        assert all(r.optimal for r in results)
        lengths = [r.length for r in results]
        states = [r.expanded for r in results]
        seconds = [r.seconds for r in results]
        wall = time.perf_counter() - started
        same = python = "-"
        if reference:
            again = [solve_safezone(level, compiled=False) for level, _ in made]
            same = f"{sum(a.moves == r.moves and a.expanded == r.expanded for a, r in zip(again, results))}/{len(made)}"
            python_seconds = [a.seconds for a in again]
            python = f"{statistics.mean(python_seconds):.2f} / {max(python_seconds):.2f}"
        print(
            f"| {size}x{size} | {zones} + {helpers} | {len(made)} | {statistics.mean(lengths):.1f} / {max(lengths)} | "
            f"{statistics.mean(states):,.0f} / {max(states):,} | {statistics.mean(seconds):.3f} / {max(seconds):.3f} | "
            f"{counts.get('unsolvable', 0) + counts.get('dead', 0)} / {counts.get('short', 0)} / {counts.get('unproven', 0)} | "
            f"{wall:.0f} | {same} | {python} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--korf", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/slide/korf100.txt"
    )
    parser.add_argument("--fresh-tables", action="store_true", help="build the tables in a temporary folder, timed")
    parser.add_argument(
        "--tables",
        choices=["all", "7-8", "6-6-3", "none"],
        default="all",
        help="Korf's 100 with which tables (none: only --peer)",
    )
    parser.add_argument(
        "--peer", type=Path, metavar="DIR", help="Korf's 100 by MichaelKim/15puzzle built in DIR (see peer())"
    )
    parser.add_argument(
        "--peer-runs",
        type=int,
        default=2,
        metavar="N",
        help="runs of the public solver (the first may build its tables)",
    )
    parser.add_argument("--levels", type=int, default=100)
    parser.add_argument(
        "--level-seconds", type=float, default=30.0, help="a generated level must be proven within this"
    )
    parser.add_argument("--only", choices=["korf", "kenken", "safezone"])
    parser.add_argument(
        "--no-reference", action="store_true", help="Safe Zone: do not solve the levels again with the Python search"
    )
    args = parser.parse_args()
    if args.only in (None, "korf"):
        if args.tables != "none":
            korf(args.korf, args.fresh_tables, args.tables)
            print()
        if args.peer:
            peer(args.peer, args.korf, args.peer_runs)
            print()
    if args.only in (None, "kenken"):
        kenken()
        print()
    if args.only in (None, "safezone"):
        safezone(args.levels, args.level_seconds, reference=not args.no_reference)


if __name__ == "__main__":
    main()
