"""Doubt -> steady moves: answers of the same length that hold whatever the doubtful cells are.

When a doubtful cell matters (:mod:`kamivision.check.doubt`), other answers may not care about
it: the same regions tapped at other cells (:func:`retap`), the moves in another order, or
another optimal answer of the board as read (:func:`other_optimal_answers`).
:func:`steady_moves` tries them, so that the proof stays one of the board as read and the
moves hold whatever the doubtful cells are.

Tested in tests/check/test_doubt.py.
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Iterator, Optional, Sequence

from ..board import Board, Cell, Move, neighbor_table
from ..graph import bits, build_regions
from .doubt import Doubt, Replay, SteadySearch, Value, assess


def _distances(board: Board, sources: Sequence[Cell]) -> list[int]:
    """Lattice steps from every cell to the nearest of ``sources`` (a large number when there
    are none)."""
    table = neighbor_table(board.lattice, board.rows, board.columns)
    far = board.size + 1
    dist = [far] * board.size
    frontier = list(sources)
    for cell in frontier:
        dist[cell] = 0
    while frontier:
        nxt = []
        for cell in frontier:
            for n in table[cell]:
                if dist[n] == far:
                    dist[n] = dist[cell] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def retap(board: Board, moves: Sequence[Move], doubtful: Sequence[Cell]) -> list[Move]:
    """The same moves, each tapping the cell of its region farthest (up to three steps)
    from every doubtful cell, the given cell when it is as far: any cell of a region is an
    equivalent tap on the board as read, but a tap on a doubtful cell recolors whatever
    region that cell really belongs to."""
    if not doubtful:
        return list(moves)
    dist = _distances(board, doubtful)
    replay = Replay(board, moves)
    if not replay.valid:
        return list(moves)
    out = []
    for k, move in enumerate(moves):
        tap = move.row * board.columns + move.column
        region = replay.near[k] & next(m for m in replay.states[k] if m >> tap & 1)
        cells = list(bits(region))
        best = max(min(dist[c], 3) for c in cells)
        if min(dist[tap], 3) < best:
            r0, c0 = move.row, move.column
            tap = min(
                (c for c in cells if min(dist[c], 3) == best),
                key=lambda c: ((c // board.columns - r0) ** 2 + (c % board.columns - c0) ** 2, c),
            )
        out.append(Move(tap // board.columns, tap % board.columns, move.color))
    return out


def other_optimal_answers(
    board: Board, length: int, max_states: int = 20_000, deadline: Optional[float] = None
) -> Iterator[list[Move]]:
    """Other answers of ``length`` moves for a board of one island, by depth-first search
    over the moves that merge regions, pruned by the solver's admissible bounds (each one's
    argument is in :mod:`kamivision.solver.heuristics`): a branch whose bound exceeds the
    moves left cannot reach one color in time.  A state whose whole search found no answer
    is remembered and not searched again when other moves reach it (moves that commute
    reach one state in many orders): what it would yield is known to be nothing.  Stops
    after ``max_states`` states or at ``deadline`` (``time.perf_counter()``)."""
    from ..solver.heuristics import color_bound, diameter_bound
    from ..solver.state import Island, apply_merge, contract, merging_moves

    graph = build_regions(board)
    if len(graph.islands()) != 1:
        return
    island = Island(bytes(graph.colors), graph.adjacency)
    start = contract(island, bytes(graph.colors))
    budget = [max_states]
    found = [0]
    fruitless: set = set()  # the states (by their regions and colors) searched in full in vain

    def tap_of(rep: int) -> Cell:
        cells = graph.cells[rep]  # a representative is one of the original regions it holds
        return (cells & -cells).bit_length() - 1

    def search(state, left: int, path: list[Move]) -> Iterator[list[Move]]:
        if state.reps & (state.reps - 1) == 0:
            if left == 0:
                found[0] += 1
                yield list(path)
            return
        if left == 0:
            return
        if budget[0] <= 0 or (deadline is not None and time.perf_counter() > deadline):
            budget[0] = 0
            return
        key = (left, *((state.members[j], state.color[j]) for j in bits(state.reps)))
        if key in fruitless:
            return
        budget[0] -= 1
        before = found[0]
        for rep, color, merged in merging_moves(state):
            after = apply_merge(state, rep, color, merged)
            if color_bound(after) > left - 1 or diameter_bound(after) > left - 1:
                continue
            cell = tap_of(rep)
            path.append(Move(cell // board.columns, cell % board.columns, color))
            yield from search(after, left - 1, path)
            path.pop()
        if found[0] == before and budget[0] > 0:  # searched in full, in vain
            fruitless.add(key)

    yield from search(start, length, [])


def steady_moves(
    board: Board,
    moves: Sequence[Move],
    plausible: dict[Cell, tuple[Value, ...]],
    optimal: bool,
    seconds: Optional[float] = 0.5,
    max_answers: int = 200,
    max_states: int = 20_000,
) -> tuple[list[Move], Doubt]:
    """Moves of the same length that hold under as many readings of the doubtful cells as
    can be found, and their :class:`Doubt`.

    First the given moves with their taps moved away from the doubt (:func:`retap`); when
    some cell still matters, the same moves in other orders that still solve the board as
    read, then (for a proven optimum on one island) other optimal answers
    (:func:`other_optimal_answers`, at most ``max_states`` states), each re-tapped, for at
    most ``seconds`` (None: no time limit) and ``max_answers`` answers.  The first answer
    under which no doubtful cell matters is taken; else the one with the fewest.
    """
    doubtful = list(plausible)
    best_moves = retap(board, moves, doubtful)
    best = assess(board, best_moves, plausible)
    if not best.matters:
        return best_moves, best
    deadline = math.inf if seconds is None else time.perf_counter() + seconds
    tried = 0

    def candidates() -> Iterator[list[Move]]:
        if len(moves) <= 6:
            for order in itertools.permutations(moves):
                yield list(order)
        if optimal:
            yield from other_optimal_answers(board, len(moves), max_states, deadline)

    complete = True
    for candidate in candidates():
        if time.perf_counter() > deadline or tried >= max_answers:
            complete = False
            break
        if Replay(board, candidate).steps != len(moves):
            continue
        tried += 1
        candidate = retap(board, candidate, doubtful)
        doubt = assess(board, candidate, plausible)
        if len(doubt.matters) < len(best.matters):
            best_moves, best = candidate, doubt
            if not best.matters:
                break
    if time.perf_counter() > deadline:
        complete = False
    search = SteadySearch(tried, len(moves), held=not best.matters, complete=complete)
    return best_moves, Doubt(best.doubtful, best.matters, best.breaking, best.readings, search, best.palette)
