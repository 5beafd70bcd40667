"""Good solutions fast, without proof: upper bounds for the free rules.

A* proves optimality; when a limit stops it, the user still wants the best answer there is.
Two ways to find one, both on an island's contracted states
(:mod:`kamivision.solver.state`):

* **Flooding from a centre.**  Pick a region near the centre of the region graph and solve
  the board as Flood-It with that region as the pivot, optimally, by the pivot A*
  (:func:`kamivision.solver.pivot.flood_astar`, fast: a flood is one bitset).  Every pivot
  move is a legal free move, so this is a solution of the free puzzle.  On the large
  grid-like KAMI 2 levels (Threegrid4-6, 111-173 regions) it reaches par at once, where the
  free search's own beam is 4-6 moves over.
* **Free moves, then a flood** (:func:`flood_beam`): a beam search over free moves whose
  states are ranked by moves made plus the length of their best flood from a centre; the
  best complete solution seen wins.  Levels whose best solutions join two or three floods
  (the Bud levels) need this.

Neither claims optimality: the caller reports these solutions as unproven unless A*'s lower
bound reaches their length.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable, Optional

from ..graph import bits
from .astar import goal_bound, is_goal
from .limits import Budget, Limits, Path, SearchStopped
from .pivot import PivotGraph, flood_astar, greedy
from .settings import SearchSettings
from .state import Contracted, Island, apply_merge, contract, key_after, merging_moves, renumber

#: Expansions allowed to one pivot A* (a flood that needs more is skipped).
FLOOD_NODES = 20_000


def distances(lists: list[list[int]], source: int) -> list[int]:
    """Breadth-first distances from ``source`` over adjacency lists (-1: not reached), node
    by node: time and memory grow with the edges, not with the layers times the nodes as
    bitset layers do (a strip of 100,000 regions has 100,000 layers)."""
    dist = [-1] * len(lists)
    dist[source] = 0
    queue = [source]
    for node in queue:
        step = dist[node] + 1
        for other in lists[node]:
            if dist[other] < 0:
                dist[other] = step
                queue.append(other)
    return dist


def double_sweep(lists: list[list[int]]) -> tuple[int, list[int], int, list[int]]:
    """``(u, du, w, dw)``: from node 0 to the farthest ``u`` (the last of them), from ``u``
    to the farthest ``w`` (a long shortest path), with the distances from each end."""
    d0 = distances(lists, 0)
    u = max(range(len(d0)), key=lambda v: (d0[v], v))
    du = distances(lists, u)
    w = max(range(len(du)), key=lambda v: (du[v], v))
    return u, du, w, distances(lists, w)


def central(du: list[int], dw: list[int], slack: int = 0, most: int = 4) -> list[int]:
    """Up to ``most`` nodes nearest to both ends of a double sweep: those within ``r +
    slack`` of each, where ``r`` is the least distance that any node has to both (nearest
    first, then by number)."""
    both = [max(a, b) for a, b in zip(du, dw)]
    r = min(both)
    ranked = sorted((k, v) for v, k in enumerate(both) if k <= r + slack)
    return [v for _, v in ranked[:most]]


def centres(adjacency: tuple[int, ...], slack: int = 0, most: int = 4) -> list[int]:
    """Up to ``most`` central nodes of a connected graph (adjacency bitsets over ``0..m-1``):
    :func:`central` to the ends of a :func:`double_sweep`.  Cheap (three breadth-first
    searches) and good enough to choose where a flood starts."""
    _, du, _, dw = double_sweep([list(bits(mask)) for mask in adjacency])
    return central(du, dw, slack, most)


def _compact(state: Contracted) -> tuple[list[int], PivotGraph]:
    """The state's regions renumbered ``0..m-1`` as a pivot graph (pivot still to choose)."""
    reps, adjacency = renumber(state.adj, state.reps)
    return reps, PivotGraph.of(tuple(state.color[r] for r in reps), adjacency, 0)


def flood_from_centre(
    state: Contracted,
    goal_color: Optional[int] = None,
    slack: int = 0,
    settings: SearchSettings = SearchSettings(),
    deadline: Optional[float] = None,
) -> Optional[Path]:
    """The shortest solution of ``state`` that floods from one of its central regions (each
    solved optimally as Flood-It), with one more move at the end when the flood does not end
    in ``goal_color``.  ``None`` when every central flood needs more than
    :data:`FLOOD_NODES` expansions to solve, or ``deadline`` (a ``time.perf_counter()``
    value) comes first.  ``settings`` says which search floods (the compiled core or
    Python); a flood's few states never need much memory."""
    reps, graph = _compact(state)
    best: Optional[Path] = None
    for centre in centres(graph.adjacency, slack):
        seconds = None
        if deadline is not None:
            seconds = deadline - time.perf_counter()
            if seconds <= 0:
                break
        try:
            budget = Budget(Limits(max_seconds=seconds, max_nodes=FLOOD_NODES), settings)
            colors, _, _ = flood_astar(dataclasses.replace(graph, start=centre), budget)
        except SearchStopped:
            if budget.interrupted:  # Ctrl-C reached the flood's search, which stopped on it
                raise KeyboardInterrupt from None
            continue
        path = _flood_path(reps[centre], colors, graph.colors[centre], goal_color)
        if best is None or len(path) < len(best):
            best = path
    return best


def greedy_flood(state: Contracted, goal_color: Optional[int] = None) -> Path:
    """A solution found at once, for when time runs out before any other: from a central
    region, each move takes the color that floods the most regions
    (:func:`~kamivision.solver.pivot.greedy`), and one more move ends in ``goal_color``
    when asked.  Never proven, never slow."""
    reps, graph = _compact(state)
    centre = centres(graph.adjacency, most=1)[0]
    colors = greedy(dataclasses.replace(graph, start=centre))
    return _flood_path(reps[centre], colors, graph.colors[centre], goal_color)


def _flood_path(rep: int, colors: list[int], color: int, goal_color: Optional[int]) -> Path:
    """The moves of a flood from region ``rep`` (of color ``color``) through ``colors``, with
    one more to ``goal_color`` when the flood does not end in it."""
    path = [(rep, c) for c in colors]
    final = colors[-1] if colors else color
    if goal_color is not None and final != goal_color:
        path.append((rep, goal_color))
    return path


class BeamInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`flood_beam` (in its progress report, say), with the shortest
    solution it had seen then (``best``, or None): a ``KeyboardInterrupt`` to every
    caller, which may keep the solution."""

    def __init__(self, best: Optional[Path]) -> None:
        super().__init__()
        self.best = best


def flood_beam(
    island: Island,
    deadline: float,
    width: int = 4,
    *,
    goal_color: Optional[int] = None,
    best: Optional[Path] = None,
    floor: int = 0,
    report: Optional[Callable[[int], None]] = None,
    settings: SearchSettings = SearchSettings(),
) -> Optional[Path]:
    """Beam search over free moves, each state scored by its moves so far plus its best
    flood from a centre (:func:`flood_from_centre`); the ``width`` best states go on to the
    next depth.  Returns the shortest complete solution seen (or ``best`` if none is
    shorter).  Stops at ``deadline`` (a ``time.perf_counter()`` value), when a solution
    reaches ``floor`` (a proven lower bound), or when no deeper state can improve.
    ``report``, when given, is called with the best length so far at every depth;
    ``settings`` go to the floods (:func:`flood_from_centre`).  Ctrl-C raises
    :class:`BeamInterrupted` with the best solution so far."""
    root = contract(island, island.colors)
    if is_goal(root, goal_color):
        return []
    try:
        start = flood_from_centre(root, goal_color, slack=2, settings=settings, deadline=deadline)
        if start is not None and (best is None or len(start) < len(best)):
            best = start
        beam: list[tuple[bytes, Contracted, Path]] = [(island.colors, root, [])]
        seen = {island.colors}
        depth = 0
        while beam and time.perf_counter() < deadline:
            if report is not None and best is not None:
                report(len(best))
            depth += 1
            if best is not None and (len(best) <= floor or depth >= len(best)):
                break
            scored = []
            for key, state, path in beam:
                for rep, color, merged in merging_moves(state):
                    child_key = key_after(key, state.members[rep], color)
                    if child_key in seen:
                        continue
                    seen.add(child_key)
                    child = apply_merge(state, rep, color, merged)
                    moves = path + [(rep, color)]
                    if is_goal(child, goal_color):
                        if best is None or len(moves) < len(best):
                            best = moves
                        continue
                    if best is not None and depth + goal_bound(child, goal_color) >= len(best):
                        continue
                    scored.append((goal_bound(child, goal_color), child_key, child, moves))
                    if time.perf_counter() > deadline:
                        break
            # Rank by the cheap bound first; only the promising half is flooded (the floods are
            # the costly part).
            scored.sort(key=lambda item: (item[0], item[2].reps.bit_count()))
            ranked = []
            for bound, child_key, child, moves in scored[: max(4 * width, len(scored) // 2)]:
                if time.perf_counter() > deadline:
                    break
                tail = flood_from_centre(child, goal_color, settings=settings, deadline=deadline)
                if tail is None:
                    continue
                total = moves + tail
                if best is None or len(total) < len(best):
                    best = total
                ranked.append((len(total), bound, child.reps.bit_count(), child_key, child, moves))
            ranked.sort(key=lambda item: item[:3])
            beam = [(k, s, m) for _, _, _, k, s, m in ranked[:width]]
    except KeyboardInterrupt:  # keep the best so far for the caller
        raise BeamInterrupted(best) from None
    return best
