"""Random small boards and an exhaustive reference solver for the tests."""

from __future__ import annotations

import functools
import random
from collections import deque
from typing import Optional

from kamivision.board import Board, make_board


def random_board(rng: random.Random, lattice: str, rows: int, columns: int, colors: int, blank: float) -> Board:
    """A random board with some blank cells; at least one cell is colored."""
    while True:
        grid = [[None if rng.random() < blank else rng.randrange(colors) for _ in range(columns)] for _ in range(rows)]
        if any(v is not None for row in grid for v in row):
            return make_board(grid, lattice=lattice)


def random_region_graph(rng: random.Random, m: int) -> tuple[list[int], list[int]]:
    """A random connected graph of m regions (a tree, often with more edges) and its
    colors, 2 to 5 of them: graphs no board draws, with leaves and neighbors of one color."""
    edges = {(i, rng.randrange(i)) for i in range(1, m)}
    extra = rng.choice([0.0, 0.1, 0.3])
    edges |= {(a, b) for a in range(m) for b in range(a) if rng.random() < extra}
    adjacency = [0] * m
    for a, b in edges:
        adjacency[a] |= 1 << b
        adjacency[b] |= 1 << a
    return [rng.randrange(rng.randint(2, 5)) for _ in range(m)], adjacency


def bfs_optimum(board: Board, limit: int = 12, goal: Optional[int] = None) -> Optional[int]:
    """Fewest moves by breadth-first search over cell colorings, trying *every* move:
    every region, every color used on the board (merging or not), to one color (``goal``
    when given).  ``None`` past ``limit``."""
    n = len(board.colors())
    return _breadth_first(
        board.colors(), [board.neighbors(i) for i in range(n)], sorted(board.colors_used()), limit, goal
    )


def island_bfs_optimum(
    colors: bytes | list[int], adjacency, limit: int = 12, goal: Optional[int] = None
) -> Optional[int]:
    """The same over a graph of regions that need not be a board (``adjacency``: a bitset
    of neighbors per node), trying every component and every color of the graph."""
    n = len(colors)
    neighbors = [[j for j in range(n) if adjacency[i] >> j & 1] for i in range(n)]
    return _breadth_first(list(colors), neighbors, sorted(set(colors)), limit, goal)


def _breadth_first(start, neighbors, palette: list[int], limit: int, goal: Optional[int]) -> Optional[int]:
    """Breadth-first search over colorings of nodes (``None``: blank, never colored):
    a move gives one connected one-color group another color of ``palette`` (or
    ``goal``); the fewest moves to one color (``goal`` when given), ``None`` past ``limit``."""
    start = tuple(start)
    n = len(start)
    if goal is not None and goal not in palette:
        palette = palette + [goal]

    def solved(state) -> bool:
        left = {v for v in state if v is not None}
        return len(left) <= 1 and (goal is None or left <= {goal})

    def regions(state):
        seen = [False] * n
        for s in range(n):
            if state[s] is None or seen[s]:
                continue
            group = [s]
            seen[s] = True
            for cell in group:
                for m in neighbors[cell]:
                    if not seen[m] and state[m] == state[s]:
                        seen[m] = True
                        group.append(m)
            yield state[s], group

    if solved(start):
        return 0
    depth = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        d = depth[state]
        if d >= limit:
            return None
        for color, group in regions(state):
            for k in palette:
                if k == color:
                    continue
                child = list(state)
                for cell in group:
                    child[cell] = k
                child = tuple(child)
                if child in depth:
                    continue
                if solved(child):
                    return d + 1
                depth[child] = d + 1
                queue.append(child)
    return None


def random_kami_board(rng: random.Random, colors: int, blank_outline: bool, par: int | None = None) -> Board:
    """A 29 x 10 triangle board shaped like KAMI levels: stripes and patches of color that
    run down the board, every color used, and optionally a blank outline (the level's
    background showing at the sides and the top)."""
    while True:
        grid = [[rng.randrange(colors) for _ in range(10)] for _ in range(29)]
        for _ in range(3):
            for r in range(1, 29):
                for c in range(10):
                    if rng.random() < 0.6:
                        grid[r][c] = grid[r - 1][c]
        if blank_outline:
            left = rng.randint(0, 3)
            for r in range(29):
                for c in range(10):
                    if c < left or r < 2 or (r > 25 and c > 7):
                        grid[r][c] = None
        used = sorted({v for row in grid for v in row if v is not None})
        if len(used) == colors:
            return make_board(grid, lattice="triangle", par=par)


def replay(board: Board, moves) -> Board:
    """``board`` after ``moves``, in order."""
    for move in moves:
        board = board.apply(move)
    return board


def first_island(seed: int):
    """A random five-color KAMI board (``random_kami_board``, no blank outline) and its
    first island."""
    from kamivision.graph import build_regions
    from kamivision.solver.islands import local_island

    board = random_kami_board(random.Random(seed), colors=5, blank_outline=False)
    graph = build_regions(board)
    island, _ = local_island(graph, graph.islands()[0])
    return board, island


def kami_island(seed: int):
    """:func:`first_island`'s board and island, and that island's optimal path (the A*'s):
    the boards the solver tests search at length (seed 1: about 100,000 states).  Found
    once a process (thirteen tests take seed 1); the path is a fresh list each time."""
    board, island, path = _kami_island(seed)
    return board, island, list(path)


@functools.cache
def _kami_island(seed: int):
    from kamivision.solver import astar, limits

    board, island = first_island(seed)
    return board, island, tuple(astar.astar(island, limits.Budget()))


def root_state(board: Board):
    """The contracted region graph of a one-island board at its start."""
    from kamivision.graph import build_regions
    from kamivision.solver.islands import local_island
    from kamivision.solver.state import contract

    graph = build_regions(board)
    (mask,) = graph.islands()
    island, _ = local_island(graph, mask)
    return contract(island, island.colors)


def one_island_boards(seed: int, count: int):
    """``count`` random small boards of one island, with the generator that made each:
    blanks make them tree-like, as KAMI 2's are."""
    from kamivision.graph import build_regions

    rng = random.Random(seed)
    made = 0
    while made < count:
        lattice = rng.choice(["triangle", "square"])
        rows, columns = rng.choice([(3, 4), (4, 3), (4, 4), (3, 5), (5, 3)])
        board = random_board(rng, lattice, rows, columns, rng.choice([3, 3, 4]), rng.choice([0.0, 0.2, 0.3]))
        graph = build_regions(board)
        if len(graph.islands()) == 1 and len(graph) >= 4:
            made += 1
            yield rng, board
