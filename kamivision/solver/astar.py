"""A* over the states of one island: the readable reference search and the goal tests.

A* is best-first search with ``f = g + h``: ``h`` is admissible
(:mod:`kamivision.solver.heuristics`), so the first goal taken from the queue is optimal.
The queue breaks ties by preferring deeper nodes (larger ``g``), then by a counter; it never
compares states.  The path comes back through parent links.  A known solution of length
``U`` (from :mod:`kamivision.solver.upper`) may be given: nodes with ``f >= U`` are never
queued (they cannot lead to a shorter solution), and when the queue runs dry that solution
is proven optimal.

:func:`astar` runs the compiled core's search (:func:`kamivision.solver.proof.prove`) when
it is built and the island fits it, and :func:`astar_python` otherwise: the same search,
bounds and answers.
"""

from __future__ import annotations

import heapq
import time
from typing import Callable, Optional

from . import core, proof
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
from .limits import Budget, Path, SearchStopped
from .state import Contracted, Island, apply_merge, contract, key_after, merging_moves


def astar(
    island: Island,
    budget: Budget,
    goal_color: Optional[int] = None,
    upper: Optional[tuple[int, Path]] = None,
    improve: Optional[Callable[[int], Optional[Path]]] = None,
    pause: Optional[tuple[float, Callable[[int], Optional[Path]]]] = None,
) -> Optional[Path]:
    """An optimal path to one region (of ``goal_color`` when given), by the compiled core
    when built and the island fits it (:func:`kamivision.solver.proof.prove`, which says
    what ``improve`` does), else by :func:`astar_python` (same search, same bounds, same
    answers; see its docstring).

    ``pause``: ``(when, look)``, the search stops once at ``time.perf_counter()`` ``when``
    (:meth:`~kamivision.solver.limits.Budget.look`) for ``look(bound)``, which may return a
    solution, and goes on where it was.  Optimality is untouched: the search's own
    queue and bound decide what it proves, and a solution from ``look`` is only ever a
    known upper bound."""
    settings = budget.settings
    if not core.AVAILABLE or not settings.core or len(island) > core.MAX_REGIONS:
        budget.pause = pause
        try:
            return astar_python(island, budget, goal_color, upper)
        finally:
            budget.pause = None
    if is_goal(contract(island, island.colors), goal_color):
        return []
    return proof.prove(island, budget, goal_color, upper, improve, pause)


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
            if (
                goal_color is None
                or goal_color == c
                or (goal_color in counts and not (counts[goal_color] == 1 and color[rep] == goal_color))
            ):
                left -= 1
            hc = left if left > inherited else inherited
            if limit is not None and ng + hc >= limit:
                continue
            hd = max(
                pair_bound_after(pairs, merged, color, c, goal_color),
                winding_bound_after(wind, state, merged, c, sigma),
            )
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


def _trace(parent: dict, key: bytes) -> Path:
    path: Path = []
    link = parent[key]
    while link is not None:
        key, rep, color = link
        path.append((rep, color))
        link = parent[key]
    path.reverse()
    return path
