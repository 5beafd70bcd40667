"""Optimal solving with a fixed pivot (Flood-It, COLORFLOW, Color Walk): A* on flood sets.

Every move recolors the region holding the pivot (the *flood*) to a color ``x``; the flood
then takes in every region of color ``x`` next to it.  Regions are maximal, so no region of
color ``x`` touches another one, and a move takes in exactly the frontier regions of color
``x``.  The flood's own color never matters for what follows (a move of the flood's color
takes in nothing and is never made), so a **state is the flood's set of regions** (a bitset
over the region graph) and the board is solved when the flood is every region.

Two facts about this game, used below (the *generalised* game lets the flood be any
connected set of regions holding the pivot; real states are a special case and have the same
optimum there):

**Monotonicity.**  If ``F1 ⊇ F2`` then ``OPT(F1) <= OPT(F2)``: play ``F2``'s optimal
colors from ``F1``; a move of color ``x`` from a superset takes in every ``x`` region next to
the smaller flood that it does not hold already, so the superset is kept to the end.

**Complete colors.**  If every remaining region of color ``c`` lies in the frontier, some
optimal solution plays ``c`` now: any solution plays ``c`` at some point; move that first
occurrence to the front.  After it the flood holds every ``c`` region, and replaying the rest
keeps a superset of the original floods (monotonicity, and the moved ``c`` move only ever
takes in ``c`` regions, all held already), so the length is the same.  Hence
``OPT(F) = 1 + OPT(F ∪ regions of c)``, and the search plays only that move (an exact
pruning, checked against breadth-first search in the tests as well).
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from typing import Optional

from ..board import Board, Move
from ..errors import KamiError
from ..graph import bits, build_regions
from . import core
from .limits import Budget, Outcome, SearchStopped, core_limits, reserve_seconds
from .notes import BeamAnswer, Note, Stopped


@dataclass(frozen=True, slots=True)
class PivotGraph:
    colors: tuple[int, ...]
    adjacency: tuple[int, ...]
    by_color: dict[int, int]  # color -> bitset of its regions
    start: int  # the pivot's region
    everything: int

    @classmethod
    def of(cls, colors: tuple[int, ...], adjacency: tuple[int, ...], start: int) -> "PivotGraph":
        by_color: dict[int, int] = {}
        for i, c in enumerate(colors):
            by_color[c] = by_color.get(c, 0) | (1 << i)
        return cls(colors, adjacency, by_color, start, (1 << len(colors)) - 1)

    def frontier(self, flood: int) -> int:
        out = 0
        f = flood
        while f:
            low = f & -f
            out |= self.adjacency[low.bit_length() - 1]
            f ^= low
        return out & ~flood


def pivot_graph(board: Board) -> PivotGraph:
    graph = build_regions(board)
    start = graph.region_of[board.pivot_cell()]
    if start is None:
        raise KamiError("the pivot is a blank cell")
    islands = graph.islands()
    if len(islands) > 1:
        raise KamiError("rules 'pivot' need the non-blank cells to be connected (the pivot cannot reach other islands)")
    return PivotGraph.of(tuple(graph.colors), tuple(graph.adjacency), start)


def complete_colors(g: PivotGraph, flood: int, frontier: int) -> list[int]:
    """Colors whose every region outside the flood lies in the frontier (ascending)."""
    out = []
    for c, regions in g.by_color.items():
        left = regions & ~flood
        if left and left & ~frontier == 0:
            out.append(c)
    out.sort()
    return out


def layered_bound(g: PivotGraph, flood: int) -> int:
    """Moves still needed, at least.  Simulate outward from the flood: when some colors have
    all their remaining regions in the frontier, charge one move per such color and take
    them in; otherwise charge one move and take in the whole frontier.

    Admissible: write ``L(F)`` for this count.  The complete-color step is exact,
    ``OPT(F) = |C| + OPT(F ∪ regions of C)`` (the lemma in the module docstring, applied to
    each complete color in turn: taking one in keeps the others complete).  The frontier
    step is a lower bound: any real move from ``F`` reaches a flood ``F' ⊆ F ∪ N(F)``, so
    ``OPT(F) = 1 + OPT(F') >= 1 + OPT(F ∪ N(F))`` by monotonicity.  By induction on the
    steps, ``L(F) <= OPT(F)``.
    """
    charges = 0
    everything = g.everything
    adjacency = g.adjacency
    frontier = g.frontier(flood)
    while flood != everything:
        complete = complete_colors(g, flood, frontier)
        if complete:
            charges += len(complete)
            added = 0
            for c in complete:
                added |= g.by_color[c]
            added &= ~flood
        else:
            charges += 1
            added = frontier
        flood |= added
        # The frontier kept up to date from the regions just taken in (each region's
        # neighbours are looked at once in all), not rebuilt from the whole flood.
        while added:
            low = added & -added
            frontier |= adjacency[low.bit_length() - 1]
            added ^= low
        frontier &= ~flood
    return charges


def moves_from(g: PivotGraph, flood: int) -> list[tuple[int, int]]:
    """``(color, new flood)`` for the moves worth making: only the smallest complete color
    when there is one (exact, see the module docstring); otherwise every color that takes
    in something."""
    frontier = g.frontier(flood)
    complete = complete_colors(g, flood, frontier)
    if complete:
        c = complete[0]
        return [(c, flood | (g.by_color[c] & frontier))]
    out = []
    for c, regions in sorted(g.by_color.items()):
        taken = regions & frontier
        if taken:
            out.append((c, flood | taken))
    return out


def check_flood(g: PivotGraph, colors: list[int]) -> bool:
    """Does playing ``colors`` at the pivot flood the whole board?  (Replayed on the region
    graph: the move takes in the frontier regions of its color.)"""
    flood = 1 << g.start
    frontier = g.adjacency[g.start]
    for c in colors:
        taken = g.by_color.get(c, 0) & frontier
        flood |= taken
        while taken:
            low = taken & -taken
            frontier |= g.adjacency[low.bit_length() - 1]
            taken ^= low
        frontier &= ~flood
    return flood == g.everything


def solve_pivot_colors(
    board: Board, budget: Budget, greedy_width: int = 0, graph: Optional[PivotGraph] = None
) -> tuple[list[int], int, bool]:
    """(color sequence, lower bound, proven) for a pivot board, by A* with the layered bound.

    ``greedy_width > 0`` runs a beam search of that width instead (the COLORFLOW approach):
    fast, not proven.
    """
    g = graph if graph is not None else pivot_graph(board)
    flood = 1 << g.start
    if flood == g.everything:
        return [], 0, True
    if greedy_width:
        return _asked_beam(g, flood, greedy_width, budget), layered_bound(g, flood), False
    return flood_astar(g, budget)


def _asked_beam(g: PivotGraph, flood: int, width: int, budget: Budget) -> list[int]:
    """The beam the user asked for (``--beam``), within the budget's time: the greedy
    answer first, kept when the beam is not done by the end of ``max_seconds`` or Ctrl-C
    stops it (the best answer so far, as every search gives)."""
    best = greedy(g)
    left = budget.seconds_left()
    deadline = None if left is None else time.perf_counter() + left
    try:
        found = _beam(g, flood, width, deadline)
    except KeyboardInterrupt:
        budget.interrupted = True
        return best
    if found is None:
        budget.beam_cut = True
        return best
    return found if len(found) < len(best) else best


def flood_astar(g: PivotGraph, budget: Budget) -> tuple[list[int], int, bool]:
    """A* from the pivot's region with the layered bound: (colors, their number, True), or
    :class:`SearchStopped` when ``budget`` runs out.  The compiled core runs it when built."""
    flood = 1 << g.start
    if flood == g.everything:
        return [], 0, True
    if core.AVAILABLE and budget.settings.core and len(g.colors) <= core.MAX_REGIONS:
        return _core_pivot(g, budget)
    h0 = layered_bound(g, flood)
    popped = [h0]  # the last f taken from the queue: no entry left has a smaller one
    try:
        return _flood_astar_loop(g, budget, h0, flood, popped)
    except KeyboardInterrupt:  # Ctrl-C: stop like a limit, with the bound reached
        budget.interrupted = True
        raise SearchStopped(popped[0]) from None


def _flood_astar_loop(g: PivotGraph, budget: Budget, h0: int, flood: int, popped: list) -> tuple[list[int], int, bool]:
    """The loop of :func:`flood_astar`."""
    parent: dict[int, Optional[tuple[int, int]]] = {flood: None}
    best_g = {flood: 0}
    heap = [(h0, 0, flood)]
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        f, neg_g, state = pop(heap)
        popped[0] = f
        gval = -neg_g
        if best_g.get(state, 1 << 30) < gval:
            continue
        budget.charge(f)
        deadline = budget.proof_deadline
        for c, child in moves_from(g, state):
            # Each child's bound can take a tenth of a second on a board of tens of
            # thousands of regions: the clock is read before each one.
            if deadline is not None and time.perf_counter() > deadline:
                raise SearchStopped(f)
            ng = gval + 1
            if child == g.everything:
                parent[child] = (state, c)
                return _trace(parent, child), ng, True
            old = best_g.get(child)
            if old is not None and old <= ng:
                continue
            best_g[child] = ng
            parent[child] = (state, c)
            push(heap, (ng + layered_bound(g, child), -ng, child))
    raise AssertionError("a connected board always floods")  # pragma: no cover


def _core_pivot(g: PivotGraph, budget: Budget) -> tuple[list[int], int, bool]:
    """The same A* in the compiled core (:func:`kamivision.solver.core.pivot_astar`)."""

    def full(bound: int, expanded: int) -> None:
        budget.memory_full = True  # depth-first from here: the progress reports say so

    answer = core.pivot_astar(
        core.graph(bytes(g.colors), g.adjacency),
        start=g.start,
        max_bytes=budget.settings.max_bytes,
        on_full=full,
        **core_limits(budget),
    )
    budget.expanded += answer.expanded
    if answer.status != core.Status.FOUND:  # a limit or Ctrl-C
        budget.interrupted |= answer.status == core.Status.INTERRUPTED
        raise SearchStopped(answer.bound)
    return list(answer.path), len(answer.path), True


def _beam(g: PivotGraph, flood: int, width: int, deadline: Optional[float] = None) -> Optional[list[int]]:
    """Beam search of ``width`` states ranked by the layered bound; ``None`` when it is not
    done by ``deadline`` (a ``time.perf_counter()`` value)."""
    beam = [(flood, [])]
    while True:
        children = {}
        for state, path in beam:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            for c, child in moves_from(g, state):
                if child == g.everything:
                    return path + [c]
                if child not in children:
                    children[child] = path + [c]
        scored = []
        for child, path in children.items():
            if deadline is not None and time.perf_counter() > deadline:
                return None
            scored.append((layered_bound(g, child), -child.bit_count(), child, path))
        scored.sort(key=lambda item: item[:2])
        beam = [(child, path) for _, _, child, path in scored[:width]]


def greedy(g: PivotGraph) -> list[int]:
    """The quickest answer: each move takes the color that floods the most regions (the
    lowest such color).  The frontier is kept up to date as regions join, so the whole run
    costs one look at each region's neighbors plus a count per color per move."""
    masks: dict[int, int] = {}
    for region, color in enumerate(g.colors):
        masks[color] = masks.get(color, 0) | 1 << region
    flood = 1 << g.start
    frontier = g.adjacency[g.start] & ~flood
    colors = []
    order = sorted(masks)
    while flood != g.everything:
        color = max(order, key=lambda c: (frontier & masks[c]).bit_count())
        joined = frontier & masks[color]
        flood |= joined
        frontier &= ~joined
        for region in bits(joined):
            frontier |= g.adjacency[region]
        frontier &= ~flood
        colors.append(color)
    return colors


def _widening_beam(g: PivotGraph, budget: Budget, bound: int) -> list[int]:
    """After a stop: the greedy answer, then beams of width 16, 64, 256, ... while the next
    fits in the reserved time (what is left of ``max_seconds``, or a second without a time
    limit); a beam still running at the end of it is dropped."""
    reserve = reserve_seconds(budget)
    started = time.perf_counter()
    deadline = started + reserve
    best = greedy(g)
    # One bound costs about this much (a BFS over the regions): a beam step ranks many
    # states with it, so none is started without time for several.
    began = time.perf_counter()
    layered_bound(g, 1 << g.start)
    one = time.perf_counter() - began
    width, last = 16, 8 * one
    while len(best) > bound and not budget.interrupted and width <= 4096:
        spent = time.perf_counter() - started
        if spent + 4 * last > reserve:
            break
        began = time.perf_counter()
        found = _beam(g, 1 << g.start, width, deadline - one)
        last = time.perf_counter() - began
        if found is None:
            break
        if len(found) < len(best):
            best = found
        width *= 4
    return best


def _trace(parent: dict, state: int) -> list[int]:
    out = []
    link = parent[state]
    while link is not None:
        state, c = link
        out.append(c)
        link = parent[state]
    out.reverse()
    return out


def solve_pivot(board: Board, budget: Budget, greedy_width: int = 0, graph: Optional[PivotGraph] = None):
    """Moves on cells (each taps the pivot) and what is known of their optimality."""
    started = time.perf_counter()
    try:
        colors, bound, proven = solve_pivot_colors(board, budget, greedy_width, graph)
    except SearchStopped as stop:
        colors = _widening_beam(graph or pivot_graph(board), budget, stop.bound)
        bound, proven = min(stop.bound, len(colors)), stop.bound >= len(colors)
    r, c = board.pivot if board.pivot is not None else (0, 0)
    moves = [Move(r, c, color) for color in colors]
    return moves, bound, proven, time.perf_counter() - started


def solve_pivot_board(board: Board, budget: Budget, beam: int = 0) -> Outcome:
    """Solve a board under the pivot rules (Flood-It): moves on cells and what is known."""
    graph = pivot_graph(board)
    moves, bound, proven, _ = solve_pivot(board, budget, greedy_width=beam, graph=graph)
    if not check_flood(graph, [m.color for m in moves]):  # pragma: no cover - a bug
        raise AssertionError("the moves found do not solve the board")
    notes: tuple[Note, ...] = ()
    if beam:
        notes = (BeamAnswer(beam, cut=budget.stop() if budget.interrupted or budget.beam_cut else None),)
    elif not proven:
        notes = (Stopped(budget.stop()),)
    return Outcome(tuple(moves), proven, bound, len(graph.colors), 1, notes)
