"""How close the lower bounds come to the optimum on states a proof meets: the distance
bounds the search uses and the closed-spider bound (``subgraph.py`` beside this file).

    python experiments/closed_subgraph/bounds.py ../shared/data/kami2-journey/19-5-Bud5.json --siblings 4

For each level, a par-length solution is found by a flood beam; at every second depth
``g`` along it, the state on the solution and up to ``--siblings`` other children of the
state before it are taken (the kind of states a proof expands).  For each: the distance
bound (the largest of the color, final-color and winding bounds), the path-flood bound
with its final color over it (``flood``: the search's bound since issue 50), the spider
bound over that, and the optimum when the compiled A* finds it within ``--max-seconds``.
The table gives, per depth, the means, how many states the spider raises above the
path-flood bound (``raised``), and on how many of those solved the path-flood bound is the
optimum (``at opt``).

The ``--proof`` and ``--sweep`` modes of the first version ran the Python A* and the
compiled sweep with the spider bound as an extra bound; those hooks left the product's
search, so they are not here.  Their figures are in NOTES.md; to run them again, check
out commit 5621a41 and run ``benchmarks/bounds.py`` there.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def largest_island(path: Path):
    """The board in ``path`` and its largest island (the part a proof works on)."""
    from kamivision import read_board
    from kamivision.graph import build_regions
    from kamivision.solver.islands import local_island

    board = read_board(path)
    graph = build_regions(board)
    return board, max((local_island(graph, mask)[0] for mask in graph.islands()), key=len)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("levels", type=Path, nargs="+")
    parser.add_argument("--siblings", type=int, default=4, help="other children taken at each depth")
    parser.add_argument("--max-seconds", type=float, default=20.0, help="per optimum (else it is left out)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from kamivision.graph import bits
    from kamivision.solver import core
    from kamivision.solver.heuristics import choose_orientation, color_bound, final_color_bound, orientation, winding_bound
    from kamivision.solver.astar import astar
    from kamivision.solver.limits import Budget, Limits, SearchStopped
    from kamivision.solver.state import apply_merge, contract, merging_moves
    from subgraph import spider_bound, sub_island
    from kamivision.solver.upper import flood_beam

    rng = random.Random(args.seed)
    header = (f"{'level':<16} {'g':>3} {'states':>6} {'distance':>8} {'flood':>6} {'spider':>7} {'raised':>6} "
              f"{'optimum':>7} {'solved':>6} {'at opt':>6} {'spider s':>8}")
    print(header)
    print("-" * len(header))
    for path in args.levels:
        board, island = largest_island(path)
        root = contract(island, island.colors)
        number = choose_orientation(root)
        sigma = None if number is None else orientation(sorted(set(island.colors)), number)
        solution = flood_beam(island, time.perf_counter() + 120, width=8)
        states = [root]
        for original, color in solution:  # replay: tap the region holding `original`
            s = states[-1]
            rep = next(r for r in bits(s.reps) if s.members[r] >> original & 1)
            merged = 1 << rep | sum(1 << y for y in bits(s.adj[rep]) if s.color[y] == color)
            states.append(apply_merge(s, rep, color, merged))
        for g in range(0, len(solution), 2):
            taken = [states[g]]
            if g > 0:
                before = states[g - 1]
                kids = [apply_merge(before, *move) for move in merging_moves(before)]
                rng.shuffle(kids)
                taken += [k for k in kids if k.color != states[g].color][: args.siblings]
            rows = []
            for s in taken:
                distance = max(color_bound(s), final_color_bound(s), winding_bound(s, sigma))
                part = sub_island(s, s.reps)
                flood = max(distance, core.path_flood(core.graph(part.colors, part.adjacency), -1, True))
                started = time.perf_counter()
                spider = spider_bound(s)
                spent = time.perf_counter() - started
                try:
                    optimum = len(astar(sub_island(s, s.reps), Budget(Limits(max_seconds=args.max_seconds))))
                except SearchStopped:
                    optimum = None
                rows.append((distance, max(flood, spider), optimum, spent, flood))
            n = len(rows)
            solved = [r[2] for r in rows if r[2] is not None]
            mean_opt = f"{sum(solved) / len(solved):7.2f}" if solved else f"{'-':>7}"
            exact = sum(r[2] is not None and r[4] == r[2] for r in rows)
            print(f"{path.stem:<16} {g:>3} {n:>6} {sum(r[0] for r in rows) / n:>8.2f} {sum(r[4] for r in rows) / n:>6.2f} "
                  f"{sum(r[1] for r in rows) / n:>7.2f} {sum(r[1] > r[4] for r in rows):>6} "
                  f"{mean_opt} {len(solved):>6} {exact:>6} {sum(r[3] for r in rows) / n:>8.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
