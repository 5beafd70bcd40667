"""How close the lower bounds come to the optimum on states a proof meets: the distance
bounds the search uses and the closed-spider bound (``kamivision/solver/subgraph.py``).

    python benchmarks/bounds.py ../shared/data/kami2-journey/19-5-Bud5.json --siblings 4

For each level, a par-length solution is found by a flood beam; at every second depth
``g`` along it, the state on the solution and up to ``--siblings`` other children of the
state before it are taken (the kind of states a proof expands).  For each: the distance
bound (the largest of the colour, final-colour and winding bounds, as in the search), the
spider bound, and the optimum when the compiled A* finds it within ``--max-seconds``.
The table gives, per depth, the means and how many states the spider raises above the
distance bound.

    python benchmarks/bounds.py ../shared/data/kami2-journey/19-2-Bud2.json --proof

With ``--proof``, the Python A* proves that nothing is shorter than the beam's solution,
once with the search's bounds and once with the spider bound as well (taken when a state
is expanded), and prints the states expanded and the seconds of each.

    python benchmarks/bounds.py ../shared/data/kami2-journey/19-5-Bud5.json --sweep 15 --depths=-1,1,2

With ``--sweep T``, the compiled sweep (the proof's last threshold, ``_core.c``) asks
whether anything is within T moves, with the spider bound taken for the states it expands
with at most D moves made (D from ``--depths``; -1: never), asked only whether it reaches
``T - g + 1`` (``spider_bound``'s ``need``): states expanded, seconds in all and in the
spider bound, and its calls.

    python benchmarks/bounds.py ../shared/data/kami2-journey/19-5-Bud5.json --sweep 16 --depths=2 --fixed

With ``--fixed``, the spiders are those of the first state, kept for every state
(``FixedSpiders``): the states with at most D moves made solve them, every deeper state
reads their caches only (a spider's colours not met before give nothing).
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
    from kamivision.solver import _local_island

    board = read_board(path)
    graph = build_regions(board)
    return board, max((_local_island(graph, mask)[0] for mask in graph.islands()), key=len)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("levels", type=Path, nargs="+")
    parser.add_argument("--siblings", type=int, default=4, help="other children taken at each depth")
    parser.add_argument("--max-seconds", type=float, default=20.0, help="per optimum (else it is left out)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--proof", action="store_true", help="compare the Python A*'s proofs instead")
    parser.add_argument("--sweep", type=int, metavar="T", help="measure the spider bound in the compiled sweep")
    parser.add_argument("--depths", default="-1,1,2",
                        help="with --sweep: the depths to take it to (--depths=-1,1: -1 is never)")
    parser.add_argument("--fixed", action="store_true",
                        help="with --sweep: the first state's spiders, solved to each depth, cached deeper")
    args = parser.parse_args()
    if args.proof:
        return proofs(args.levels)
    if args.sweep is not None:
        return sweeps(args.levels, args.sweep, [int(d) for d in args.depths.split(",")], args.fixed)

    from kamivision.graph import bits
    from kamivision.solver.heuristics import choose_orientation, color_bound, final_color_bound, orientation, winding_bound
    from kamivision.solver.search import Budget, SearchStopped, astar
    from kamivision.solver.state import apply_merge, contract, merging_moves
    from kamivision.solver.subgraph import spider_bound, sub_island
    from kamivision.solver.upper import flood_beam

    rng = random.Random(args.seed)
    header = (f"{'level':<16} {'g':>3} {'states':>6} {'distance':>8} {'spider':>7} {'raised':>6} "
              f"{'optimum':>7} {'solved':>6} {'spider s':>8}")
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
                started = time.perf_counter()
                spider = spider_bound(s)
                spent = time.perf_counter() - started
                try:
                    optimum = len(astar(sub_island(s, s.reps), Budget(max_seconds=args.max_seconds)))
                except SearchStopped:
                    optimum = None
                rows.append((distance, max(distance, spider), optimum, spent))
            n = len(rows)
            solved = [r[2] for r in rows if r[2] is not None]
            mean_opt = f"{sum(solved) / len(solved):7.2f}" if solved else f"{'-':>7}"
            print(f"{path.stem:<16} {g:>3} {n:>6} {sum(r[0] for r in rows) / n:>8.2f} "
                  f"{sum(r[1] for r in rows) / n:>7.2f} {sum(r[1] > r[0] for r in rows):>6} "
                  f"{mean_opt} {len(solved):>6} {sum(r[3] for r in rows) / n:>8.3f}", flush=True)
    return 0


def proofs(levels: list[Path]) -> int:
    """The Python A*'s proof that nothing beats a beam's solution, without and with the
    spider bound: a table of states expanded and seconds."""
    from kamivision.solver.search import Budget, astar_python
    from kamivision.solver.subgraph import spider_bound
    from kamivision.solver.upper import flood_beam

    header = f"{'level':<16} {'par':>3} {'moves':>5} {'bounds':<17} {'expanded':>9} {'seconds':>8}"
    print(header)
    print("-" * len(header))
    for path in levels:
        board, island = largest_island(path)
        solution = flood_beam(island, time.perf_counter() + 120, width=8)
        cache: dict = {}
        spider = lambda state, goal: spider_bound(state, goal, cache=cache)  # noqa: E731
        for name, extra in (("distance", None), ("distance + spider", spider)):
            budget = Budget()
            started = time.perf_counter()
            found = astar_python(island, budget, upper=(len(solution), solution), extra=extra)
            seconds = time.perf_counter() - started
            print(f"{path.stem:<16} {board.par if board.par is not None else '-':>3} {len(found):>5} "
                  f"{name:<17} {budget.expanded:>9,} {seconds:>8.1f}", flush=True)
    return 0


def sweeps(levels: list[Path], threshold: int, depths: list[int], fixed: bool = False) -> int:
    """The compiled sweep within ``threshold``, with the spider bound taken to each depth
    of ``depths`` (with ``fixed``, the first state's spiders solved to that depth and read
    from their caches deeper): a table of states expanded, seconds and the bound's calls."""
    from kamivision.solver import search
    from kamivision.solver.state import contract
    from kamivision.solver.subgraph import FixedSpiders, spider_bound

    if search._core is None:
        raise SystemExit("the compiled core is not built: nothing to measure")
    header = (f"{'level':<16} {'T':>3} {'depth':>5} {'within T':>8} {'expanded':>10} {'seconds':>8} "
              f"{'spider s':>8} {'calls':>6}")
    print(header)
    print("-" * len(header))
    for path in levels:
        board, island = largest_island(path)
        words, adjacency = search.core_adjacency(island.adjacency, len(island))
        orient = search._core.choose_orientation(island.colors, adjacency, words)
        for depth in depths:
            cache: dict = {}  # spider_bound's, or the fixed spiders' own
            kept = FixedSpiders(island) if fixed else None
            spent = [0.0, 0]

            def spider(colors: bytes, need: int) -> int:
                started = time.perf_counter()
                if kept is not None:  # need = T - g + 1
                    bound = kept.bound(colors, need, solve=threshold + 1 - need <= depth)
                else:
                    bound = spider_bound(contract(island, colors), need=need, cache=cache)
                spent[0] += time.perf_counter() - started
                spent[1] += 1
                return bound

            started = time.perf_counter()
            status, _, expanded, _ = search._core.sweep(
                island.colors, adjacency, words, -1, threshold, -1, -1.0, search.MAX_BYTES, None, 0, threshold,
                search.THREADS, orient, 1, spider if depth >= 0 else None, threshold if fixed else depth,
            )
            seconds = time.perf_counter() - started
            within = {0: "yes", 1: "no"}.get(status, "stopped")
            print(f"{path.stem:<16} {threshold:>3} {depth:>5} {within:>8} {expanded:>10,} {seconds:>8.1f} "
                  f"{spent[0]:>8.1f} {spent[1]:>6}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
