"""Random small boards and an exhaustive reference solver for the tests."""

from __future__ import annotations

import random
from collections import deque
from typing import Optional

from kamivision.board import Board, make_board


def random_board(
    rng: random.Random, lattice: str, rows: int, columns: int, colors: int, blank: float
) -> Board:
    """A random board with some blank cells; at least one cell is coloured."""
    while True:
        grid = [
            [None if rng.random() < blank else rng.randrange(colors) for _ in range(columns)]
            for _ in range(rows)
        ]
        if any(v is not None for row in grid for v in row):
            return make_board(grid, lattice=lattice)


def bfs_optimum(board: Board, limit: int = 12) -> Optional[int]:
    """Fewest moves by breadth-first search over cell colourings, trying *every* move:
    every region, every colour used on the board (merging or not).  ``None`` past ``limit``."""
    start = tuple(board.colors())
    palette = sorted(board.colors_used())
    n = len(start)
    neighbors = [board.neighbors(i) for i in range(n)]

    def solved(state) -> bool:
        return len({v for v in state if v is not None}) <= 1

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
