"""Textbook search for the sliding puzzles: a problem, a heuristic and a search, apart.

A puzzle module gives a :class:`Problem` (the start, the goal test, the moves with unit
cost) and a heuristic ``h(state) -> int`` that never overestimates the moves left
(each heuristic's argument is in its docstring).  :func:`astar` is best-first search on
``f = g + h`` with a closed set; with an admissible ``h`` the first goal taken from the
queue is optimal, and when the queue runs dry no solution exists.  :func:`idastar` is
iterative deepening on ``f`` with next to no memory.  Both stop at a time or node limit,
or at Ctrl-C, with the lower bound proven so far.

The KAMI solver (:mod:`kamivision.solver`) has its own A*, specialised to region graphs
(contracted states, a compiled core); this one is the plain algorithm over any problem.
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, Iterable, Optional, Protocol, TypeVar

from ..limits import Limits, Stop

__all__ = ["Clock", "Limits", "Problem", "Result", "Stop", "astar", "idastar"]

S = TypeVar("S", bound=Hashable)
M = TypeVar("M")


class Problem(Protocol[S, M]):
    """A puzzle as search sees it: every move costs 1."""

    def start(self) -> S: ...

    def is_goal(self, state: S) -> bool: ...

    def moves(self, state: S) -> Iterable[tuple[M, S]]:
        """The moves from ``state`` and the states they lead to, in a fixed order."""
        ...


class Clock:
    """What one search has spent of its :class:`~kamivision.limits.Limits`: the states
    expanded and the seconds since it started (the puzzles' counterpart of the KAMI
    solver's :class:`~kamivision.solver.limits.Budget`, without its solver's share)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.start = time.perf_counter()
        self.expanded = 0
        self._next_report = self.start + 0.5

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def late(self) -> bool:
        """Past ``max_seconds`` (checked within an expansion whose children are costly to
        weigh: a bound over hundreds of zones)."""
        limits = self.limits
        return limits.max_seconds is not None and time.perf_counter() - self.start > limits.max_seconds

    def spent(self, bound: int) -> bool:
        """Count one expansion; True when a limit is reached."""
        self.expanded += 1
        limits = self.limits
        if limits.max_nodes is not None and self.expanded > limits.max_nodes:
            return True
        if self.expanded & 255 == 0:
            now = time.perf_counter()
            if limits.max_seconds is not None and now - self.start > limits.max_seconds:
                return True
            if limits.progress is not None and now >= self._next_report:
                self._next_report = now + 0.5
                limits.progress({"expanded": self.expanded, "bound": bound, "seconds": now - self.start})
        return False


@dataclass(frozen=True)
class Result(Generic[M]):
    """What a search found: the moves (``None`` when none was found), whether they are
    proven shortest, the lower bound proven, and the effort."""

    moves: Optional[tuple[M, ...]]
    optimal: bool
    lower_bound: int
    expanded: int
    seconds: float
    unsolvable: bool = False  # the reachable states were exhausted: no solution exists
    stopped: Optional[Stop] = None  # why the search stopped early
    bound: Optional[str] = None  # the lower bound's name, where the search names it

    @property
    def length(self) -> Optional[int]:
        return None if self.moves is None else len(self.moves)


def astar(problem: Problem, h: Callable, limits: Limits = Limits()) -> Result:
    """A* with a closed set.  ``h`` must be admissible; a state is expanded again only
    if it is reached by a shorter path (never, when ``h`` is consistent)."""
    clock = Clock(limits)
    start = problem.start()
    h0 = h(start)
    if h0 is None:  # the heuristic proves the start cannot reach a goal
        return Result(None, True, 0, 0, clock.seconds(), unsolvable=True)
    counter = itertools.count()
    queue = [(h0, 0, next(counter), start)]
    best_g = {start: 0}
    parent: dict = {start: None}
    bound = h0
    try:
        while queue:
            f, negative_g, _, state = heapq.heappop(queue)
            g = -negative_g
            if g > best_g.get(state, g):
                continue  # a shorter path reached it since
            bound = max(bound, f)
            if problem.is_goal(state):
                return Result(_trace(parent, state), True, g, clock.expanded, clock.seconds())
            if clock.spent(bound):
                return Result(None, False, bound, clock.expanded, clock.seconds(), stopped=Stop.LIMIT)
            for weighed, (move, child) in enumerate(problem.moves(state)):
                child_g = g + 1
                if child_g >= best_g.get(child, child_g + 1):
                    continue
                if weighed & 15 == 15 and clock.late():
                    return Result(None, False, bound, clock.expanded, clock.seconds(), stopped=Stop.LIMIT)
                estimate = h(child)
                if estimate is None:
                    continue  # a dead end: no goal can be reached from it
                best_g[child] = child_g
                parent[child] = (state, move)
                heapq.heappush(queue, (child_g + estimate, -child_g, next(counter), child))
    except KeyboardInterrupt:
        return Result(None, False, bound, clock.expanded, clock.seconds(), stopped=Stop.INTERRUPTED)
    return Result(None, True, bound, clock.expanded, clock.seconds(), unsolvable=True)


def _trace(parent: dict, state) -> tuple:
    moves = []
    while parent[state] is not None:
        state, move = parent[state]
        moves.append(move)
    return tuple(reversed(moves))


def idastar(problem: Problem, h: Callable, limits: Limits = Limits()) -> Result:
    """Iterative deepening A*: depth-first searches bounded by ``f``, the bound raised
    to the least ``f`` that passed it, so the first solution found is shortest.  The
    path being searched is the only memory; no state is visited twice on it.
    Unsolvable problems are not detected (the search would deepen forever): check
    first."""
    clock = Clock(limits)
    start = problem.start()
    bound = h(start)
    if bound is None:
        return Result(None, True, 0, 0, clock.seconds(), unsolvable=True)
    path: list = []
    on_path = {start}

    def search(state, g: int) -> Optional[int]:
        """The least f over the bound below ``state``, or -1 when a goal was reached."""
        estimate = h(state)
        f = g + estimate
        if f > bound:
            return f
        if problem.is_goal(state):
            return -1
        if clock.spent(bound):
            raise _Stop
        least = None
        for move, child in problem.moves(state):
            if child in on_path:
                continue
            path.append(move)
            on_path.add(child)
            found = search(child, g + 1)
            if found == -1:
                return -1
            path.pop()
            on_path.discard(child)
            if found is not None and (least is None or found < least):
                least = found
        return least

    try:
        while True:
            found = search(start, 0)
            if found == -1:
                return Result(tuple(path), True, len(path), clock.expanded, clock.seconds())
            if found is None:
                return Result(None, True, bound, clock.expanded, clock.seconds(), unsolvable=True)
            bound = found
    except _Stop:
        return Result(None, False, bound, clock.expanded, clock.seconds(), stopped=Stop.LIMIT)
    except KeyboardInterrupt:
        return Result(None, False, bound, clock.expanded, clock.seconds(), stopped=Stop.INTERRUPTED)


class _Stop(Exception):
    pass
