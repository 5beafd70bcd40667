"""Solve a folder of board files and print a table: par, regions, moves, proven?, seconds, nodes.

    python benchmarks/solve_levels.py ../shared/data/kami2-journey --max-seconds 60
    python benchmarks/solve_levels.py ../shared/data/kami1 --max-seconds 60
    python benchmarks/solve_levels.py ../shared/data/kami2-journey --max-nodes 400000 --only Bud
    python benchmarks/solve_levels.py ../shared/data/kami2-journey --max-seconds 10 --path-flood on
    python benchmarks/solve_levels.py ../shared/data/kami2-journey --max-seconds 10 --handover-mb 4

Reads ``index.json`` in the folder when there is one (``puzzles`` or ``levels`` with a
``file`` each), else every ``*.json`` below it.  Everything runs in one process, in order.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

from kamivision import read_board, solve
from kamivision.solver.settings import SearchSettings


def level_files(folder: Path) -> list[Path]:
    index = folder / "index.json"
    if index.exists():
        obj = json.loads(index.read_text())
        entries = obj.get("puzzles") or obj.get("levels") or []
        return [folder / entry["file"] for entry in entries]
    return sorted(p for p in folder.rglob("*.json") if p.name not in ("index.json", "truth.json"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--max-seconds", type=float, default=60.0, help="limit per level")
    parser.add_argument("--max-nodes", type=int, help="limit per level in states expanded (repeatable, unlike time)")
    parser.add_argument("--only", default="", help="only files whose name contains this")
    parser.add_argument(
        "--path-flood",
        choices=("race", "on", "off"),
        default="race",
        help="the path-flood bound: raced in the sweeps (the default), on or off everywhere",
    )
    parser.add_argument(
        "--handover-mb", type=float, help="memory of the A* before the sweep takes the last threshold (default 1024)"
    )
    args = parser.parse_args()
    settings = SearchSettings.for_this_machine()
    if args.path_flood != "race":
        settings = dataclasses.replace(settings, path_flood=args.path_flood == "on")
    if args.handover_mb is not None:
        settings = dataclasses.replace(settings, handover_bytes=int(args.handover_mb * 2**20))
    files = [f for f in level_files(args.folder) if args.only in f.name]
    header = f"{'level':<24} {'par':>4} {'regions':>7} {'moves':>5} {'proven':>6} {'bound':>5} {'seconds':>8} {'nodes':>9}  note"
    print(header)
    print("-" * len(header))
    totals = dict(levels=0, proven=0, at_par=0, under_par=0, over_par=0, seconds=0.0, nodes=0)
    started = time.perf_counter()
    for path in files:
        board = read_board(path)
        solution = solve(board, max_seconds=args.max_seconds, max_nodes=args.max_nodes, settings=settings)
        par = board.par
        note = ""
        if par is not None:
            if solution.length < par:
                note = "under par" + ("" if solution.optimal else " (unproven)")
                totals["under_par"] += 1
            elif solution.length > par:
                note = "OVER PAR"
                totals["over_par"] += 1
            else:
                totals["at_par"] += 1
        totals["levels"] += 1
        totals["proven"] += solution.optimal
        totals["seconds"] += solution.seconds
        totals["nodes"] += solution.expanded
        name = path.relative_to(args.folder).as_posix().removesuffix(".json")
        print(
            f"{name:<24} {par if par is not None else '-':>4} {solution.regions:>7} {solution.length:>5} "
            f"{'yes' if solution.optimal else 'NO':>6} {solution.lower_bound:>5} "
            f"{solution.seconds:>8.2f} {solution.expanded:>9}  {note}",
            flush=True,
        )
    wall = time.perf_counter() - started
    print("-" * len(header))
    print(
        f"{totals['levels']} levels: {totals['proven']} proven optimal, {totals['at_par']} at par, "
        f"{totals['under_par']} under par, {totals['over_par']} over par; "
        f"{totals['nodes']} nodes; {totals['seconds']:.1f} s solving, {wall:.1f} s wall "
        f"(limit {args.max_seconds:g} s" + (f", {args.max_nodes:,} states" if args.max_nodes else "") + " per level)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
