"""A* over the states of one island, and the limits that stop it.

A* is best-first search with ``f = g + h``: ``h`` is admissible
(:mod:`kamivision.solver.heuristics`), so the first goal taken from the queue is optimal.
The queue breaks ties by preferring deeper nodes (larger ``g``), then by a counter; it never
compares states.  The path comes back through parent links.  A known solution of length
``U`` (from :mod:`kamivision.solver.upper`) may be given: nodes with ``f >= U`` are never
queued (they cannot lead to a shorter solution), and when the queue runs dry that solution
is proven optimal.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .heuristics import (
    choose_orientation,
    diameter_bound,
    far_pairs,
    final_color_bound,
    orientation,
    pair_bound,
    pair_bound_after,
    winding_bound_after,
    winding_pair,
)
from .settings import SearchSettings
from .state import Contracted, Island, apply_merge, contract, key_after, merging_moves

from . import core
from .core import Status


Path = list[tuple[int, int]]  # (original region of the tapped region, color)
Progress = Callable[[dict], None]


class SearchStopped(Exception):
    """A node or time limit, or Ctrl-C, stopped the search; carries the best lower bound
    proven so far."""

    def __init__(self, bound: int, path: Optional["Path"] = None):
        super().__init__(bound)
        self.bound = bound
        self.path = path  # an unproven solution found on the way, if any


@dataclass(slots=True)
class Budget:
    """Limits shared by every search of one solve, the machine's settings, and the count
    of nodes expanded.

    ``interrupted`` is set when Ctrl-C stopped a search: it then acts as a spent limit for
    the rest of the solve, which answers at once with the best found.
    """

    max_seconds: Optional[float] = None
    max_nodes: Optional[int] = None
    progress: Optional[Progress] = None
    settings: SearchSettings = field(default_factory=SearchSettings.for_this_machine)
    start: float = field(default_factory=time.perf_counter)
    expanded: int = 0
    interrupted: bool = False
    beam_cut: bool = False  # an asked-for beam (--beam) was cut short by the time limit
    found: Optional[int] = None  # moves of the shortest solution known for the island searched

    def report(self, expanded: int, bound: int, seconds: float, **extra) -> None:
        """Pass a progress report on to the callback, if any: states expanded, the bound
        proven, seconds since the start, the length ``found`` when known, and ``extra``."""
        if self.progress is None:
            return
        info = {"expanded": expanded, "bound": bound, "seconds": seconds, **extra}
        if self.found is not None:
            info["found"] = self.found
        self.progress(info)

    #: ``time.perf_counter()`` at which the proof stops (None: no time limit): ``max_seconds``
    #: less the time kept for improving an unproven answer (:data:`IMPROVE_SHARE` of it, but
    #: at least :data:`IMPROVE_SECONDS` or half of it, whichever is less), so that the whole
    #: solve ends within it.  Set once, from ``max_seconds`` and ``start``.
    proof_deadline: Optional[float] = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.max_seconds is not None:
            kept = max(IMPROVE_SHARE * self.max_seconds, min(IMPROVE_SECONDS, self.max_seconds / 2))
            self.proof_deadline = self.start + self.max_seconds - kept

    def seconds_left(self) -> Optional[float]:
        """Seconds left of ``max_seconds`` (None: no limit)."""
        if self.max_seconds is None:
            return None
        return max(0.0, self.max_seconds - (time.perf_counter() - self.start))

    def charge(self, bound: int) -> None:
        """Count one expansion; raise :class:`SearchStopped` when a limit is reached."""
        if self.interrupted:
            raise SearchStopped(bound)
        self.expanded += 1
        # The clock is read at every expansion under a time limit (a Python expansion costs
        # microseconds on small graphs and milliseconds on boards of thousands of regions,
        # so counting to a thousand first could overrun the limit by minutes); progress
        # goes out at every 1024th.
        if self.proof_deadline is not None and time.perf_counter() > self.proof_deadline:
            raise SearchStopped(bound)
        if self.expanded & 1023 == 0:
            self.report(self.expanded, bound, time.perf_counter() - self.start)
        if self.max_nodes is not None and self.expanded > self.max_nodes:
            raise SearchStopped(bound)


def goal_bound(state: Contracted, goal_color: Optional[int]) -> int:
    """Lower bound for reaching one region, of color ``goal_color`` when given.

    With a goal color ``x`` every other color present must disappear and a move removes at
    most one color, so ``|colors - {x}|`` moves remain (admissible for the same reason as
    :func:`~kamivision.solver.heuristics.color_bound`, which it refines); the pair bound
    (:func:`~kamivision.solver.heuristics.diameter_bound`) counts the goal color in its
    color term.
    """
    a = _colors_left(_color_counts(state), goal_color)
    b = diameter_bound(state, goal=goal_color)
    return a if a > b else b


def _color_counts(state: Contracted) -> dict[int, int]:
    """How many current regions each color has."""
    counts: dict[int, int] = {}
    color = state.color
    reps = state.reps
    while reps:
        low = reps & -reps
        c = color[low.bit_length() - 1]
        counts[c] = counts.get(c, 0) + 1
        reps ^= low
    return counts


def _colors_left(counts: dict[int, int], goal_color: Optional[int]) -> int:
    """The color bound: colors present minus one, or minus the goal color when given."""
    if goal_color is None:
        return len(counts) - 1
    return len(counts) - (1 if goal_color in counts else 0)


def is_goal(state: Contracted, goal_color: Optional[int]) -> bool:
    reps = state.reps
    if reps & (reps - 1):
        return False
    return goal_color is None or state.color[reps.bit_length() - 1] == goal_color


def astar_python(
    island: Island,
    budget: Budget,
    goal_color: Optional[int] = None,
    upper: Optional[tuple[int, Path]] = None,
) -> Optional[Path]:
    """An optimal path to one region (of ``goal_color`` when given), or ``None`` if none exists.

    ``upper`` is a known solution ``(length, path)``: only strictly shorter ones are
    searched for, and ``upper``'s path is returned when none exists.
    Raises :class:`SearchStopped` when the budget runs out.

    A state's bound, when it is expanded, is the largest of the color bound, the pair and
    final-color bounds of its sweeps and the winding bound of its farthest weighted pair
    (orientation by :func:`~kamivision.solver.heuristics.choose_orientation` at the root);
    a child's, from the parent's pairs (``pair_bound_after``, ``winding_bound_after``).

    The full bound of a child is computed lazily.  A child is queued with
    ``max(h(parent) - 1, color bound of the child)``, which is admissible (a move lowers
    the true distance to the goal by at most one, so ``h(parent) - 1`` is a lower bound for
    the child too; this is the "pathmax" rule).  When it comes off the queue its diameter
    bound is computed; if that raises ``f`` it goes back in with the higher value.
    States are reopened when reached again by a shorter path, so optimality does not depend
    on the bound being consistent.
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
    # Entries: (f, -g, tie, key, h, state or (parent state, rep, color, merged)).
    heap: list = [(h0, 0, 0, root_key, h0, root)]
    popped = [h0]  # the last f taken from the queue: no entry left has a smaller one
    number = choose_orientation(root, deadline=budget.proof_deadline)
    sigma = None if number is None else orientation(sorted(set(island.colors)), number)
    try:
        return _astar_loop(heap, parent, best_g, limit, budget, goal_color, upper, popped, sigma)
    except KeyboardInterrupt:  # Ctrl-C: stop like a limit, with the bound reached
        budget.interrupted = True
        raise SearchStopped(popped[0]) from None


#: The most the Python search stores (its states' keys and merges, roughly): it runs only on
#: islands too large for the compiled core, whose every child costs a key of one byte a
#: region, so one expansion of 37,000 regions queues gigabytes; past this it stops as at
#: a limit, with its bound, and the time left goes to improving the answer.
PYTHON_MAX_BYTES = 512 << 20


def _astar_loop(heap, parent, best_g, limit, budget, goal_color, upper, popped, sigma) -> Optional[Path]:
    """The loop of :func:`astar_python`."""
    tie = 0
    stored = 0
    push = heapq.heappush
    pop = heapq.heappop
    while heap:
        f, neg_g, _, key, h, info = pop(heap)
        popped[0] = f
        g = -neg_g
        if best_g[key] < g:
            continue  # a shorter path to this state was queued after this entry
        if type(info) is tuple:
            state = apply_merge(*info)
            full = diameter_bound(state, goal=goal_color)
            if full > h:
                h = full
                if limit is not None and g + h >= limit:
                    continue
                tie += 1
                push(heap, (g + h, neg_g, tie, key, h, state))
                continue
        else:
            state = info
        budget.charge(f)
        ng = g + 1
        pairs = far_pairs(state)
        hp = max(pair_bound(pairs, state.color, goal_color), final_color_bound(state, goal_color))
        wind = None
        if limit is None or g + max(h, hp) < limit:
            wind = winding_pair(state, sigma)
            if wind is not None:
                hp = max(hp, (wind[0] + 5) // 6)  # winding_bound, from its farthest pair
        if hp > h:
            h = hp
            if limit is not None and g + h >= limit:
                continue
        counts = _color_counts(state)
        ncolors = len(counts)
        reps = state.reps
        color = state.color
        members = state.members
        inherited = h - 1
        deadline = budget.proof_deadline
        for weighed, (rep, c, merged) in enumerate(merging_moves(state)):
            # One expansion of a state of thousands of regions weighs as many children, for
            # seconds: the clock is read within it too (the bound f stands, as in charge).
            if deadline is not None and weighed & 63 == 63 and time.perf_counter() > deadline:
                raise SearchStopped(f)
            if merged == reps:
                if goal_color is None or c == goal_color:
                    # ng <= f <= every f in the queue (the parent is no goal, so h >= 1): optimal.
                    child_key = key_after(key, members[rep], c)
                    parent[child_key] = (key, rep, c)
                    return _trace(parent, child_key)
                continue  # one region of the wrong color: the goal color is lost
            child_key = key_after(key, members[rep], c)
            old = best_g.get(child_key)
            if old is not None and old <= ng:
                continue
            # The color bound of the child: its colors are the parent's, less the tapped
            # region's color if that region was its last; minus one (or minus the goal color).
            left = ncolors - (1 if counts[color[rep]] == 1 else 0)
            if goal_color is None or goal_color == c or (
                goal_color in counts and not (counts[goal_color] == 1 and color[rep] == goal_color)
            ):
                left -= 1
            hc = left if left > inherited else inherited
            if limit is not None and ng + hc >= limit:
                continue
            hd = max(pair_bound_after(pairs, merged, color, c, goal_color),
                     winding_bound_after(wind, state, merged, c, sigma))
            if hd > hc:
                hc = hd
                if limit is not None and ng + hc >= limit:
                    continue
            best_g[child_key] = ng
            parent[child_key] = (key, rep, c)
            tie += 1
            push(heap, (ng + hc, -ng, tie, child_key, hc, (state, rep, c, merged)))
            stored += len(child_key) + (merged.bit_length() >> 3) + 300  # the entries' own objects
            if stored > PYTHON_MAX_BYTES:
                raise SearchStopped(f)
    return upper[1] if upper is not None else None


def core_limits(budget: Budget) -> dict:
    """What is left of ``budget`` as the compiled core's keyword arguments: seconds and
    nodes (``None``: no limit), and a progress callback that reports totals over the
    whole solve."""
    seconds = None
    if budget.interrupted:
        seconds = 0.0
    elif budget.proof_deadline is not None:
        seconds = max(0.0, budget.proof_deadline - time.perf_counter())
    nodes = None if budget.max_nodes is None else max(0, budget.max_nodes - budget.expanded)
    report = None
    if budget.progress is not None:
        base, offset = budget.expanded, time.perf_counter() - budget.start

        def report(expanded: int, bound: int, seconds: float) -> None:
            budget.report(base + expanded, bound, offset + seconds)

    return {"max_seconds": seconds, "max_nodes": nodes, "progress": report}


def astar(
    island: Island,
    budget: Budget,
    goal_color: Optional[int] = None,
    upper: Optional[tuple[int, Path]] = None,
    improve: Optional[Callable[[int], Optional[Path]]] = None,
) -> Optional[Path]:
    """An optimal path to one region, by the compiled core when built, else by
    :func:`astar_python` (same search, same bounds, same answers; see its docstring).

    ``improve``, when given, is called once with the proven bound when the compiled
    core's memory is full (the Python search never fills it); a solution it returns that
    is shorter than ``upper`` becomes the upper bound from then on.  With an upper bound,
    the A*'s memory is full at ``settings.handover_bytes``; it then frees its states for
    :func:`_sweep`, which asks with all the memory (``settings.max_bytes``) whether anything is
    shorter; only if that runs out of memory too does the A* run again and go on
    depth-first, stopping as soon as its bound reaches the upper bound's length (a last
    threshold searched for a solution of that length can take far longer).
    """
    settings = budget.settings
    if not core.AVAILABLE or not settings.core or len(island) > core.MAX_REGIONS:
        return astar_python(island, budget, goal_color, upper)
    root = contract(island, island.colors)
    if is_goal(root, goal_color):
        return []
    packed = core.graph(island.colors, island.adjacency)
    orient = core.choose_orientation(packed)  # the winding bound's; -1: none
    found: list[Path] = []

    def better(bound: int, expanded: int) -> Optional[int]:
        # The core's expansions so far, for the progress reports made while improve runs.
        budget.expanded += expanded
        try:
            path = improve(bound)
        finally:
            budget.expanded -= expanded
        if path is None or (upper is not None and len(path) >= upper[0]):
            return None
        found.append(path)
        budget.found = len(path)
        return len(path)

    def run(limit: Optional[tuple[int, Path]], on_full: bool, improve_call, max_bytes: int) -> core.Answer:
        answer = core.astar(
            packed,
            goal=goal_color,
            limit=None if limit is None else limit[0],
            max_bytes=max_bytes,
            threads=settings.threads,
            improve=improve_call,
            on_full=on_full,
            orientation=orient,
            **core_limits(budget),
        )
        budget.expanded += answer.expanded
        return answer

    # With a known solution, the A* ends (Status.MEMORY) once it holds handover_bytes, so
    # that the sweep can have all the memory, and ``improve`` is called here; without one
    # there is nothing for the sweep to prove, and the core calls ``improve`` before going
    # on depth-first.
    sweeping = upper is not None
    memory = min(settings.max_bytes, settings.handover_bytes) if sweeping else settings.max_bytes
    answer = run(upper, sweeping, None if improve is None or sweeping else better, memory)
    bound = answer.bound
    if answer.status == Status.MEMORY:
        if improve is not None:
            try:
                shorter = better(bound, 0)
            except KeyboardInterrupt:  # Ctrl-C inside it: stop like a limit
                budget.interrupted = True
                raise SearchStopped(bound, None) from None
            if shorter is not None:
                upper = (shorter, found[0])
        if bound >= upper[0]:  # nothing is shorter than the solution improve found
            return upper[1]
        swept = _sweep(packed, goal_color, upper, bound, budget, found, orient)
        if swept is not None:
            return swept
        # The sweep ran out of memory too: the A* again, going on depth-first this time.
        answer = run(upper, False, None, settings.max_bytes)
        bound = answer.bound
    if found:
        upper = (len(found[0]), found[0])
    if answer.status in (Status.LIMIT, Status.INTERRUPTED):
        budget.interrupted |= answer.status == Status.INTERRUPTED
        best = [tuple(move) for move in answer.path] if answer.path is not None else None
        if upper is not None and found and (best is None or len(best) > upper[0]):
            best = upper[1]
        raise SearchStopped(bound, best)
    if answer.status == Status.NONE:
        return upper[1] if upper is not None else None
    return [tuple(move) for move in answer.path]


def _sweep(packed: core.Graph, goal_color: Optional[int], upper: tuple[int, Path], bound: int, budget: Budget,
           found: list[Path], orient: int = -1) -> Optional[Path]:
    """The last threshold by region count (:func:`kamivision.solver.core.sweep`), when the A*'s memory
    is full: is there a solution shorter than ``upper``?

    Returns ``upper``'s path when there is none (a proof), the shortest solution when there
    is one, or ``None`` when the sweep runs out of memory as well.  Raises
    :class:`SearchStopped` (with ``bound``, the A*'s) when a limit stops it.

    Its first pass keeps keys only (a proof needs no moves); when it finds a shorter
    solution, of length ``L`` (the shortest, as the sweep goes on with ``L - 1``), a second
    pass with moves and threshold ``L`` finds its moves.  Optimality is the A*'s argument:
    each state with ``g + h <= T`` is expanded once with its least ``g`` (the sweep's
    order by region count is topological, as every move merges regions), and ``h`` is
    the same admissible bound.
    """
    target = upper[0] - 1
    for paths in (False, True):
        answer = core.sweep(
            packed,
            within=target,
            goal=goal_color,
            max_bytes=budget.settings.max_bytes,
            paths=paths,
            shown=bound,
            threads=budget.settings.threads,
            orientation=orient,
            **core_limits(budget),
        )
        budget.expanded += answer.expanded
        if answer.status == Status.NONE:
            if paths:  # pragma: no cover - the first pass found one within this threshold
                raise AssertionError("the sweep lost a solution it had found")
            return upper[1]
        if answer.status == Status.FOUND:
            if paths:
                return [tuple(move) for move in answer.path]
            target = bound = budget.found = answer.bound
            continue
        if answer.status == Status.MEMORY:
            return None
        budget.interrupted |= answer.status == Status.INTERRUPTED
        raise SearchStopped(bound, found[0] if found else None)
    return None  # pragma: no cover - the loop returns


def _trace(parent: dict, key: bytes) -> Path:
    path: Path = []
    link = parent[key]
    while link is not None:
        key, rep, color = link
        path.append((rep, color))
        link = parent[key]
    path.reverse()
    return path


#: The last share of ``max_seconds`` goes to finding a better unproven answer when the
#: proof has not finished by then.
IMPROVE_SHARE = 0.15

#: Seconds granted to improve the answer after a stop that is not a time limit (a node
#: limit, Ctrl-C is answered at once).
IMPROVE_SECONDS = 1.0


def reserve_seconds(budget: Budget) -> float:
    """Seconds granted, after a limit stopped the proof, to improve the unproven answer:
    what is left of ``max_seconds`` (the proof stopped at :attr:`Budget.proof_deadline`),
    or :data:`IMPROVE_SECONDS` without a time limit."""
    left = budget.seconds_left()
    return IMPROVE_SECONDS if left is None else left
