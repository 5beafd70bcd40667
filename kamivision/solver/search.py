"""A* over the states of one island, a beam search for upper bounds, and limits.

A* is best-first search with ``f = g + h``: ``h`` is admissible
(:mod:`kamivision.solver.heuristics`), so the first goal taken from the queue is optimal.
The queue breaks ties by preferring deeper nodes (larger ``g``), then by a counter; it never
compares states.  The path comes back through parent links.  Before A* starts, a beam
search gives an upper bound ``U``: nodes with ``f >= U`` are never queued (they cannot lead
to a solution shorter than the one already in hand), and when the queue runs dry the beam's
solution is proven optimal.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .heuristics import diameter_bound, lower_bound
from .state import Contracted, Island, apply_merge, contract, key_after, merging_moves

Path = list[tuple[int, int]]  # (original region of the tapped region, colour)
Progress = Callable[[dict], None]


class SearchStopped(Exception):
    """A node or time limit stopped the search; carries the best lower bound proven so far."""

    def __init__(self, bound: int):
        super().__init__(bound)
        self.bound = bound


@dataclass(slots=True)
class Budget:
    """Limits shared by every search of one solve, and the count of nodes expanded."""

    max_seconds: Optional[float] = None
    max_nodes: Optional[int] = None
    progress: Optional[Progress] = None
    start: float = field(default_factory=time.perf_counter)
    expanded: int = 0

    def charge(self, bound: int) -> None:
        """Count one expansion; raise :class:`SearchStopped` when a limit is reached."""
        self.expanded += 1
        if self.expanded & 1023 == 0:
            elapsed = time.perf_counter() - self.start
            if self.progress is not None:
                self.progress({"expanded": self.expanded, "bound": bound, "seconds": elapsed})
            if self.max_seconds is not None and elapsed > self.max_seconds:
                raise SearchStopped(bound)
        if self.max_nodes is not None and self.expanded > self.max_nodes:
            raise SearchStopped(bound)


def goal_bound(state: Contracted, goal_color: Optional[int]) -> int:
    """Lower bound for reaching one region, of colour ``goal_color`` when given.

    With a goal colour ``x`` every other colour present must disappear and a move removes at
    most one colour, so ``|colours - {x}|`` moves remain (admissible for the same reason as
    :func:`~kamivision.solver.heuristics.color_bound`, which it refines); the diameter bound
    holds whatever the final colour.
    """
    if goal_color is None:
        return lower_bound(state)
    present = set(state.color)
    present.discard(255)
    present.discard(goal_color)
    a = len(present)
    b = diameter_bound(state)
    return a if a > b else b


def is_goal(state: Contracted, goal_color: Optional[int]) -> bool:
    reps = state.reps
    if reps & (reps - 1):
        return False
    return goal_color is None or state.color[reps.bit_length() - 1] == goal_color


def beam_search(island: Island, width: int = 48, goal_color: Optional[int] = None) -> Optional[Path]:
    """A quick, unproven solution: keep the ``width`` best states per depth by (bound, regions).

    Returns ``None`` when no goal is reachable (only possible with a ``goal_color`` the
    island's merging moves cannot produce).
    """
    root = contract(island, island.colors)
    if is_goal(root, goal_color):
        return []
    beam: list[tuple[bytes, Contracted, Path]] = [(island.colors, root, [])]
    while beam:
        children: dict[bytes, tuple[tuple[int, int], Contracted, Path]] = {}
        for key, state, path in beam:
            for rep, color, merged in merging_moves(state):
                child = apply_merge(state, rep, color, merged)
                child_path = path + [(rep, color)]
                if is_goal(child, goal_color):
                    return child_path
                child_key = key_after(key, state.members[rep], color)
                if child_key in children:
                    continue
                score = (goal_bound(child, goal_color), child.reps.bit_count())
                children[child_key] = (score, child, child_path)
        ranked = sorted(children.items(), key=lambda item: item[1][0])[:width]
        beam = [(key, state, path) for key, (_, state, path) in ranked]
    return None


def astar(
    island: Island,
    budget: Budget,
    goal_color: Optional[int] = None,
    upper: Optional[tuple[int, Path]] = None,
) -> Optional[Path]:
    """An optimal path to one region (of ``goal_color`` when given), or ``None``.

    ``upper`` is a known solution ``(length, path)``: only strictly shorter ones are
    searched for, and ``upper``'s path is returned when none exists.  ``None`` means no
    solution exists at all (or none shorter than ``upper`` when ``upper`` is ``None``... which
    cannot happen: without ``upper`` every node may be queued).
    Raises :class:`SearchStopped` when the budget runs out.
    """
    root_key = island.colors
    root = contract(island, root_key)
    if is_goal(root, goal_color):
        return []
    limit = upper[0] if upper is not None else None
    h0 = goal_bound(root, goal_color)
    if limit is not None and h0 >= limit:
        return upper[1]
    parent: dict[bytes, Optional[tuple[bytes, int, int]]] = {root_key: None}
    best_g: dict[bytes, int] = {root_key: 0}
    heap: list[tuple[int, int, int, bytes]] = [(h0, 0, 0, root_key)]
    tie = 0
    while heap:
        f, neg_g, _, key = heapq.heappop(heap)
        g = -neg_g
        if best_g.get(key, g) < g:
            continue  # a shorter path to this state was queued after this entry
        budget.charge(f)
        state = root if key is root_key else contract(island, key)
        ng = g + 1
        for rep, color, merged in merging_moves(state):
            child = apply_merge(state, rep, color, merged)
            child_key = key_after(key, state.members[rep], color)
            if is_goal(child, goal_color):
                # ng <= f <= every f in the queue (the parent is no goal, so h >= 1): optimal.
                parent[child_key] = (key, rep, color)
                return _trace(parent, child_key)
            old = best_g.get(child_key)
            if old is not None and old <= ng:
                continue
            h = goal_bound(child, goal_color)
            if limit is not None and ng + h >= limit:
                continue
            best_g[child_key] = ng
            parent[child_key] = (key, rep, color)
            tie += 1
            heapq.heappush(heap, (ng + h, -ng, tie, child_key))
    return upper[1] if upper is not None else None


def _trace(parent: dict, key: bytes) -> Path:
    path: Path = []
    link = parent[key]
    while link is not None:
        key, rep, color = link
        path.append((rep, color))
        link = parent[key]
    path.reverse()
    return path


def solve_island(
    island: Island, budget: Budget, goal_color: Optional[int] = None, width: int = 48
) -> tuple[Optional[Path], int, bool]:
    """(path, lower bound, proven) for one island; the path is the beam's when stopped early."""
    quick = beam_search(island, width=width, goal_color=goal_color)
    upper = (len(quick), quick) if quick is not None else None
    try:
        path = astar(island, budget, goal_color=goal_color, upper=upper)
    except SearchStopped as stop:
        bound = stop.bound if upper is None else min(stop.bound, upper[0])
        return quick, bound, False
    if path is None:
        return None, 0, True
    return path, len(path), True
