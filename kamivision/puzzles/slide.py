"""Tile sliding solved: admissible bounds and the searches that use them, for one board
(:func:`solve_slide`) or a collection (:func:`solve_collection`).

The rules, the file format and the moves are :mod:`kamivision.puzzles.tiles`; a 4 x 4 board
that the pattern databases suit goes to :mod:`kamivision.puzzles.patterns`.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Callable, Iterable, Iterator, Optional

from .search import Limits, Result, Stop, astar, idastar
from .tiles import SlideBoard, SlideProblem, solvable

# ---------------------------------------------------------------- bounds


def readme_misplaced(board: SlideBoard) -> Callable:
    """The README's h, for comparison only: cells that differ from the goal, the empty
    cell included.  NOT admissible: one move from the goal it says 2."""
    goal = board.goal
    return lambda state: sum(1 for a, b in zip(state, goal) if a != b)


def misplaced(board: SlideBoard) -> Callable:
    """Tiles (not the empty cell) on a cell whose goal label differs.

    Admissible: each must move at least once, and a move moves one tile.  Consistent: a
    move changes the status of one tile only."""
    goal = board.goal
    return lambda state: sum(1 for a, b in zip(state, goal) if a and a != b)


def _goal_cells(board: SlideBoard) -> dict[int, list[int]]:
    cells: dict[int, list[int]] = {}
    for i, v in enumerate(board.goal):
        if v:
            cells.setdefault(v, []).append(i)
    return cells


def manhattan(board: SlideBoard) -> Callable:
    """Manhattan distance, generalised to repeated labels: for each label, the least
    total distance of a matching of the cells holding it to its goal cells.

    Admissible: follow each tile through an optimal solution; the cells where the tiles
    of one label end form a bijection onto that label's goal cells, a tile needs at least
    its Manhattan distance to its end cell, and a move moves one tile one cell; so a
    solution is at least that bijection's total, which is at least the least one.
    Consistent: a move changes one tile's cell by one step.  With distinct labels it is
    the ordinary Manhattan distance."""
    columns = board.columns
    targets = _goal_cells(board)

    def distance(a: int, b: int) -> int:
        return abs(a // columns - b // columns) + abs(a % columns - b % columns)

    if board.distinct:
        where = {v: cells[0] for v, cells in targets.items()}
        return lambda state: sum(distance(i, where[v]) for i, v in enumerate(state) if v)

    def h(state: tuple[int, ...]) -> int:
        held: dict[int, list[int]] = {}
        for i, v in enumerate(state):
            if v:
                held.setdefault(v, []).append(i)
        return sum(_matching(held[v], targets[v], distance) for v in targets)

    return h


def _matching(sources: list[int], targets: list[int], distance) -> int:
    """The least total distance of a bijection (every one tried up to 6 cells, then the
    Hungarian method)."""
    if len(sources) <= 6:
        return min(sum(distance(a, b) for a, b in zip(sources, order)) for order in itertools.permutations(targets))
    from scipy.optimize import linear_sum_assignment

    cost = [[distance(a, b) for b in targets] for a in sources]
    rows, cols = linear_sum_assignment(cost)
    return int(sum(cost[i][j] for i, j in zip(rows, cols)))


def _line_conflicts(goal_of: list[int], columns: int, rows: int) -> int:
    """Linear conflicts for a fixed goal cell per tile (``goal_of[cell]``, -1 for the empty
    cell): in each row, of the tiles standing in it whose goal is in it, how many must
    leave so that the rest are in increasing order of goal column (their number less the
    longest increasing subsequence); the same for columns.  Each such tile leaves its
    line and comes back: 2 moves Manhattan does not count, and the rows' extra moves are
    vertical while the columns' are horizontal, so they add up (Hansson, Mayer and Yung
    1992; the 'remove k tiles' form, since 2 per conflicting pair overestimates when
    three tiles conflict)."""
    total = 0
    for r in range(rows):
        line = [
            goal_of[r * columns + c] % columns
            for c in range(columns)
            if goal_of[r * columns + c] >= 0 and goal_of[r * columns + c] // columns == r
        ]
        total += len(line) - _longest_increasing(line)
    for c in range(columns):
        line = [
            goal_of[r * columns + c] // columns
            for r in range(rows)
            if goal_of[r * columns + c] >= 0 and goal_of[r * columns + c] % columns == c
        ]
        total += len(line) - _longest_increasing(line)
    return total


def _longest_increasing(values: list[int]) -> int:
    import bisect

    tails: list[int] = []
    for v in values:
        i = bisect.bisect_left(tails, v)
        if i == len(tails):
            tails.append(v)
        else:
            tails[i] = v
    return len(tails)


#: Above this many bijections of tiles to goal cells, repeated labels get Manhattan only.
MAX_BIJECTIONS = 720


def manhattan_conflicts(board: SlideBoard) -> Callable:
    """Manhattan distance plus two moves per linear conflict (:func:`_line_conflicts`).

    Distinct labels: each tile's goal cell is fixed, and the bound is Hansson, Mayer and
    Yung's.  Repeated labels: a tile's goal cell is not fixed, but the argument holds
    for any fixed bijection of tiles to goal cells; following the tiles through an
    optimal solution gives one bijection, so the least, over bijections, of Manhattan
    plus 2 x conflicts is admissible.  They are enumerated when there are at most
    :data:`MAX_BIJECTIONS` (3 x 3 KenKen: 72); above that the bound is Manhattan alone
    (:func:`manhattan`), admissible and weaker.  (Giving each tile its nearest goal
    cell and adding conflicts is NOT admissible: the spec's counterexample.)  Values are
    remembered per state."""
    columns, rows, n = board.columns, board.rows, board.rows * board.columns
    targets = _goal_cells(board)
    memo: dict = {}
    if board.distinct:
        where = {v: cells[0] for v, cells in targets.items()}

        def h(state: tuple[int, ...]) -> int:
            known = memo.get(state)
            if known is not None:
                return known
            goal_of = [where[v] if v else -1 for v in state]
            total = sum(
                abs(i // columns - g // columns) + abs(i % columns - g % columns)
                for i, g in enumerate(goal_of)
                if g >= 0
            )
            value = total + 2 * _line_conflicts(goal_of, columns, rows)
            if len(memo) < 4_000_000:
                memo[state] = value
            return value

        return h
    bijections = math.prod(math.factorial(len(cells)) for cells in targets.values())
    if bijections > MAX_BIJECTIONS:
        if max(len(cells) for cells in targets.values()) > 6:
            return manhattan(board)
        return capped_conflicts(board)
    labels = sorted(targets)

    def h(state: tuple[int, ...]) -> int:
        known = memo.get(state)
        if known is not None:
            return known
        held = {v: [i for i, w in enumerate(state) if w == v] for v in labels}
        best = None
        for orders in itertools.product(*(itertools.permutations(targets[v]) for v in labels)):
            goal_of = [-1] * n
            distance = 0
            for v, order in zip(labels, orders):
                for a, b in zip(held[v], order):
                    goal_of[a] = b
                    distance += abs(a // columns - b // columns) + abs(a % columns - b % columns)
            if best is not None and distance >= best:
                continue  # conflicts only add
            value = distance + 2 * _line_conflicts(goal_of, columns, rows)
            if best is None or value < best:
                best = value
        if len(memo) < 4_000_000:
            memo[state] = best
        return best

    return h


#: The capped bound looks at most this many Manhattan-optimal bijections, else gives M*.
MAX_OPTIMAL_BIJECTIONS = 256


def capped_conflicts(board: SlideBoard) -> Callable:
    """For repeated labels on larger boards: M* (the least Manhattan total over
    bijections of equal tiles to their goal cells), plus 2 when EVERY bijection reaching
    M* has a linear conflict.

    Admissible: every move changes the Manhattan total of a fixed bijection by exactly
    1, and it is 0 at the goal, so its parity is that of the distance; two bijections'
    totals thus differ by an even number, and every bijection that does not reach M* has
    M >= M* + 2.  Those reaching M* have M + 2 x conflicts >= M* + 2 when they all
    conflict.  So the least over bijections of M + 2 x conflicts, which is admissible
    (:func:`manhattan_conflicts`), is at least this value.  The Manhattan-optimal
    bijections are enumerated up to :data:`MAX_OPTIMAL_BIJECTIONS` (else M* alone);
    labels of at most 6 tiles.  Values are remembered per state.  It is not consistent
    (one move can lower it by 3: M* by 1 and the 2 gone), so A* expands a state again
    when a shorter path reaches it, and stays optimal."""
    columns, rows, n = board.columns, board.rows, board.rows * board.columns
    targets = _goal_cells(board)
    labels = sorted(targets)
    memo: dict = {}

    def h(state: tuple[int, ...]) -> int:
        known = memo.get(state)
        if known is not None:
            return known
        total, choices = 0, []
        for v in labels:
            held = [i for i, w in enumerate(state) if w == v]
            least, orders = None, []
            for order in itertools.permutations(targets[v]):
                d = sum(abs(a // columns - b // columns) + abs(a % columns - b % columns) for a, b in zip(held, order))
                if least is None or d < least:
                    least, orders = d, [order]
                elif d == least:
                    orders.append(order)
            total += least
            choices.append((held, orders))
        if math.prod(len(orders) for _, orders in choices) <= MAX_OPTIMAL_BIJECTIONS:
            every = True
            for combination in itertools.product(*(orders for _, orders in choices)):
                goal_of = [-1] * n
                for (held, _), order in zip(choices, combination):
                    for a, b in zip(held, order):
                        goal_of[a] = b
                if _line_conflicts(goal_of, columns, rows) == 0:
                    every = False
                    break
            if every:
                total += 2
        if len(memo) < 4_000_000:
            memo[state] = total
        return total

    return h


HEURISTICS = {
    "misplaced": misplaced,
    "manhattan": manhattan,
    "conflicts": manhattan_conflicts,
}


# ---------------------------------------------------------------- solving and showing


def solve_slide(board: SlideBoard, limits: Limits = Limits(), heuristic: str = "best", tables=None) -> Result:
    """The fewest moves.  Unsolvable boards are answered at once.  A 4 x 4 board with
    distinct labels and the empty cell's goal in a corner goes to the compiled IDA* with
    additive pattern databases (:mod:`kamivision.puzzles.patterns`; ``tables``, a
    :class:`~kamivision.puzzles.patterns.PatternTables`, else the cache folder's) when it
    is built; other boards to A* with Manhattan distance and linear conflicts (IDA* above
    3 x 3, where A*'s closed set would fill the memory)."""
    if not solvable(board):
        return Result(None, True, 0, 0, 0.0, unsolvable=True)
    if heuristic == "best":
        from . import patterns

        if patterns.suits(board):
            return patterns.solve(board, limits, tables=tables)
        heuristic = "conflicts"
    h = _heuristic(heuristic, board.rows, board.columns, board.goal)
    problem = SlideProblem(board)
    if board.rows * board.columns > 9 and board.distinct:
        return idastar(problem, h, limits)
    return astar(problem, h, limits)


@functools.lru_cache(maxsize=8)
def _heuristic(name: str, rows: int, columns: int, goal: tuple[int, ...]) -> Callable:
    """The bound for a goal, kept for the next board with the same goal (a collection, or
    every start of a KenKen goal): the values it remembers stay valid."""
    return HEURISTICS[name](SlideBoard(rows, columns, goal, goal))


def solve_collection(
    boards: Iterable[tuple[str, SlideBoard]],
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    total_seconds: Optional[float] = None,
) -> Iterator[tuple[str, SlideBoard, Result]]:
    """Solve a collection's boards in order (``boards`` may be a stream:
    :func:`iter_collection`), yielding ``(name, board, result)`` as each is done.

    ``max_seconds`` bounds each board, ``total_seconds`` the whole run: each board gets at
    most what is left of it, and none starts once it is spent (the run just ends).  A
    board that Ctrl-C stopped is yielded (its result says ``stopped is Stop.INTERRUPTED``)
    and ends the run; Ctrl-C between boards reaches the caller.  One process
    (:func:`kamivision.batch.run`): the pattern tables are loaded once, at the first board
    that needs them, and shared by all."""
    from .. import batch
    from .patterns import PatternTables

    tables = PatternTables()

    def solve_one(named: tuple[str, SlideBoard], seconds: Optional[float]) -> tuple[str, SlideBoard, Result]:
        name, board = named
        return name, board, solve_slide(board, Limits(max_seconds=seconds, max_nodes=max_nodes), tables=tables)

    return batch.run(
        boards,
        solve_one,
        max_seconds=max_seconds,
        total_seconds=total_seconds,
        interrupted=lambda row: row[2].stopped is Stop.INTERRUPTED,
    )
