"""Flood-It benchmark sets: totals against the known optima, proofs, time.

    python benchmarks/floodit.py ../shared/data/floodit [--jobs 1] [--max-seconds 60] [--only pc19]

Sets: pc19.txt (optimal total 20,086, checked board by board against
pc19-optimal-solutions.txt), b14c8n1000.txt (24,582, against its solutions file),
colorwalk100.txt (against colorwalk100-optimal.txt, mean 28.77), 99problems/ (the optimum
is in each file; how many are proven within the limit, and times).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from kamivision.floodit import read_collection, solve_collection


def optimal_lengths(path: Path) -> list[int]:
    """Known optima: a solutions file (one color sequence a line) or 'index moves ms' lines."""
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        out.append(int(parts[1]) if len(parts) >= 2 else len(parts[0]))
    return out


SETS = [
    ("pc19", "pc19.txt", "pc19-optimal-solutions.txt"),
    ("b14c8n1000", "b14c8n1000.txt", "b14c8n1000-optimal-solutions.txt"),
    ("colorwalk100", "colorwalk100.txt", "colorwalk100-optimal.txt"),
    ("99problems", "99problems", None),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=60.0, help="limit per board")
    parser.add_argument("--only", default="", help="only sets whose name contains this")
    args = parser.parse_args()
    header = f"{'set':<13} {'boards':>6} {'total':>7} {'known':>7} {'=opt':>5} {'proven':>6} {'mean':>6} {'max s':>6} {'seconds':>8}"
    print(header)
    print("-" * len(header))
    for name, file, solutions in SETS:
        if args.only not in name:
            continue
        puzzles = read_collection(args.folder / file)
        known = optimal_lengths(args.folder / solutions) if solutions else [p.optimum for p in puzzles]
        started = time.perf_counter()
        rows = list(solve_collection(puzzles, max_seconds=args.max_seconds, jobs=args.jobs))
        wall = time.perf_counter() - started
        total = sum(r.length for r in rows)
        equal = sum(r.length == k for r, k in zip(rows, known))
        proven = sum(r.optimal for r in rows)
        slowest = max(r.seconds for r in rows)
        print(
            f"{name:<13} {len(rows):>6} {total:>7} {sum(known):>7} {equal:>5} {proven:>6} "
            f"{total / len(rows):>6.2f} {slowest:>6.2f} {wall:>8.1f}",
            flush=True,
        )
    print("-" * len(header))
    print(
        f"jobs {args.jobs}, limit {args.max_seconds:g} s per board; '=opt' counts boards whose length equals the known optimum"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
