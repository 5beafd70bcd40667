"""Run the compiled sweep by region count (the proof's last threshold, see
``kamivision/solver/_core/sweep.c``) on levels and print a table: is there a solution within T
moves, states expanded, seconds, peak memory.

    python benchmarks/sweep.py ../shared/data/kami2-journey/19-5-Bud5.json --threads 1,2
    python benchmarks/sweep.py LEVEL.json --threshold 13 --max-gb 14
    python benchmarks/sweep.py LEVEL.json --no-commute   # commuting moves in both orders
    python benchmarks/sweep.py LEVEL.json --ways 1,4      # the commuting rule at states with so many ways in
    python benchmarks/sweep.py LEVEL.json --no-symmetry  # symmetric states stored each
    python benchmarks/sweep.py LEVEL.json --leaves on,off  # leaves tapped only at a star, or everywhere
    python benchmarks/sweep.py LEVEL.json --spiders off,3  # the spider bound at T, 3 moves deep or less
    python benchmarks/sweep.py ../shared/data/kami2-journey/19-5-Bud5.json --path-flood off,on
    python benchmarks/sweep.py LEVEL.json --path-flood off,shallow   # the bound near the root only
    python benchmarks/sweep.py LEVEL.json --max-gb 0.05 --spill-gb 20   # layers to disk past 50 MB

T is par - 1 unless ``--threshold`` is given: "none within T" then proves par optimal.
The sweep keeps keys only (as the solver's first pass does).  With ``--spill-gb``, the
layers that do not fit in ``--max-gb`` go to the temporary folder (``_core/spill.c``); the
"disk GB" column is the most they took there.  Each run is a fresh process,
so that its peak resident memory is its own; the largest island of each board is swept.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path


def run_one(
    path: Path,
    threshold: int | None,
    threads: int,
    max_gb: float,
    winding: bool = True,
    commute: bool | int = True,
    path_flood: bool | str = False,
    max_seconds: float | None = None,
    spill_gb: float = 0.0,
    symmetry: bool = True,
    leaves: bool = True,
    spider_depth: int | None = None,
) -> dict:
    import tempfile

    from kamivision import read_board
    from kamivision.graph import build_regions
    from kamivision.solver import core
    from kamivision.solver.islands import local_island
    from kamivision.solver.proof import SHALLOW_DEPTH

    if not core.AVAILABLE:
        raise SystemExit("the compiled core is not built: nothing to measure")
    board = read_board(path)
    graph = build_regions(board)
    island = max((local_island(graph, mask)[0] for mask in graph.islands()), key=len)
    if threshold is None:
        if board.par is None:
            raise SystemExit(f"{path}: no par in the file; give --threshold")
        threshold = board.par - 1
    started = time.perf_counter()
    packed = core.graph(island.colors, island.adjacency)
    orient = core.choose_orientation(packed) if winding else -1
    result = core.sweep(
        packed,
        within=threshold,
        max_bytes=int(max_gb * 2**30),
        paths=False,
        shown=threshold,
        threads=threads,
        orientation=orient,
        commute=commute,
        path_flood=bool(path_flood),
        flood_depth=SHALLOW_DEPTH if path_flood == "shallow" else None,
        max_seconds=max_seconds,
        spill_dir=tempfile.gettempdir() if spill_gb > 0 else None,
        max_disk=int(spill_gb * 2**30),
        symmetry=symmetry,
        leaves=leaves,
        spider_depth=spider_depth,
    )
    seconds = time.perf_counter() - started
    expanded, status = result.expanded, result.status
    answer = {0: f"found {result.bound}", 1: "none", 4: "out of memory"}.get(status, f"stopped ({status.name})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # kB -> GB
    return dict(
        regions=len(island),
        threshold=threshold,
        answer=answer,
        expanded=expanded,
        seconds=seconds,
        peak_gb=peak,
        disk_gb=result.disk / 2**30,
        stored=result.stored,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("levels", type=Path, nargs="+")
    parser.add_argument("--threshold", type=int, help="T (default: par - 1)")
    parser.add_argument("--threads", default="2", help="comma-separated thread counts to compare")
    parser.add_argument("--max-gb", type=float, default=14.0, help="memory the sweep may use")
    parser.add_argument("--no-winding", action="store_true", help="sweep without the winding bound")
    parser.add_argument("--no-commute", action="store_true", help="take commuting moves in both orders")
    parser.add_argument(
        "--ways",
        default="all",
        help="the commuting rule at states reached by at most this many moves (1: the rule before"
        " 2026-11-30; all: as many as the core keeps), or several with commas",
    )
    parser.add_argument("--no-symmetry", action="store_true", help="store symmetric states each")
    parser.add_argument(
        "--path-flood",
        default="off",
        help="off, on, shallow (at the states with at most proof.SHALLOW_DEPTH moves made, as a race's"
        " way without takes it), or several with commas: with the path-flood bound and its corridor",
    )
    parser.add_argument(
        "--leaves",
        default="on",
        help="on (a leaf tapped only where the rest is one region: the leaf rule of _core/sweep.c),"
        " off (leaves tapped everywhere, as before 2026-11-30), or both with commas",
    )
    parser.add_argument(
        "--spiders",
        default="off",
        help="the spider bound at the states at T with at most this many moves made (solver/spiders.py),"
        " off, or several with commas",
    )
    parser.add_argument("--max-seconds", type=float, help="stop each sweep after this long")
    parser.add_argument("--spill-gb", type=float, default=0.0, help="disk the layers may take past --max-gb")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child run
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    if args.one:
        print(
            json.dumps(
                run_one(
                    args.levels[0],
                    args.threshold,
                    threads[0],
                    args.max_gb,
                    not args.no_winding,
                    False if args.no_commute else True if args.ways == "all" else int(args.ways),
                    {"on": True, "shallow": "shallow"}.get(args.path_flood, False),
                    args.max_seconds,
                    args.spill_gb,
                    not args.no_symmetry,
                    args.leaves != "off",
                    None if args.spiders == "off" else int(args.spiders),
                )
            )
        )
        return 0
    header = (
        f"{'level':<22} {'regions':>7} {'T':>3} {'threads':>7} {'flood':>7} {'ways':>4} {'leaves':>6} {'spiders':>7} {'answer':<14} "
        f"{'expanded':>12} {'stored':>12} {'seconds':>9} {'peak GB':>8} {'disk GB':>8}"
    )
    print(header)
    print("-" * len(header))
    floods = args.path_flood.split(",")
    runs = [
        (c, f, w, v, d)
        for c in threads
        for f in floods
        for w in args.ways.split(",")
        for v in args.leaves.split(",")
        for d in args.spiders.split(",")
    ]
    for path in args.levels:
        for count, flood, ways, leaves, depth in runs:
            command = [
                sys.executable,
                __file__,
                str(path),
                "--one",
                "--threads",
                str(count),
                "--max-gb",
                str(args.max_gb),
                "--path-flood",
                flood,
                "--ways",
                ways,
                "--leaves",
                leaves,
                "--spiders",
                depth,
            ]
            if args.threshold is not None:
                command += ["--threshold", str(args.threshold)]
            if args.no_winding:
                command.append("--no-winding")
            if args.no_commute:
                command.append("--no-commute")
            if args.no_symmetry:
                command.append("--no-symmetry")
            if args.max_seconds is not None:
                command += ["--max-seconds", str(args.max_seconds)]
            if args.spill_gb:
                command += ["--spill-gb", str(args.spill_gb)]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                print(
                    f"{path.stem:<22} failed: {done.stderr.strip().splitlines()[-1] if done.stderr else done.returncode}"
                )
                continue
            row = json.loads(done.stdout)
            print(
                f"{path.stem:<22} {row['regions']:>7} {row['threshold']:>3} {count:>7} {flood:>7} {ways:>4} {leaves:>6} {depth:>7} "
                f"{row['answer']:<14} {row['expanded']:>12,} {row['stored']:>12,} {row['seconds']:>9.1f} "
                f"{row['peak_gb']:>8.2f} {row['disk_gb']:>8.2f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
