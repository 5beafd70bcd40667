"""The 15-puzzle's pattern databases and compiled IDA*: a database equals a breadth-first
search of its abstract puzzle; IDA* with small databases finds the optimum that the
Python search proves, for goals with the empty cell in each corner; Korf's instances
(slow: the 6-6-3 databases are built once, under a minute)."""

from __future__ import annotations

import random
from collections import deque
from itertools import permutations

import pytest

from kamivision.puzzles import patterns
from kamivision.puzzles.search import Limits, idastar
from kamivision.puzzles.slide import HEURISTICS
from kamivision.puzzles.tiles import SlideBoard, SlideProblem, read_collection, solvable

from ..conftest import shared_path

pytestmark = pytest.mark.skipif(
    not patterns.AVAILABLE, reason="the compiled pattern databases are not built (no C compiler)"
)

SMALL = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15))


def rank(cells: tuple[int, ...]) -> int:
    r = 0
    for i, cell in enumerate(cells):
        r = r * (16 - i) + cell - sum(1 for other in cells[:i] if other < cell)
    return r


def abstract_distances(pattern: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """0-1 breadth-first search over (the pattern tiles' cells, the empty cell): moving a
    pattern tile costs 1, the empty cell crossing a free cell 0; least over empty cells."""
    best: dict[tuple, int] = {}
    queue = deque()
    for blank in range(16):
        if blank not in pattern:
            best[(pattern, blank)] = 0
            queue.append((pattern, blank))
    while queue:
        cells, blank = queue.popleft()
        d = best[(cells, blank)]
        r, c = divmod(blank, 4)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not (0 <= nr < 4 and 0 <= nc < 4):
                continue
            cell = nr * 4 + nc
            if cell in cells:
                moved = tuple(blank if x == cell else x for x in cells)
                key, cost = (moved, cell), d + 1
            else:
                key, cost = (cells, cell), d
            if cost < best.get(key, 1 << 30):
                best[key] = cost
                (queue.appendleft if cost == d else queue.append)(key)
    out: dict[tuple, int] = {}
    for (cells, _), d in best.items():
        out[cells] = min(d, out.get(cells, 1 << 30))
    return out


@pytest.mark.parametrize("pattern", [(1, 2, 3), (10, 11, 15), (5, 15)])
def test_a_database_equals_the_breadth_first_search_of_its_abstract_puzzle(pattern):
    table = patterns._patterns.build(bytes(pattern))
    expected = abstract_distances(pattern)
    assert len(table) == len(expected) == len(list(permutations(range(16), len(pattern))))
    for cells, d in expected.items():
        assert table[rank(cells)] == d


def scramble(rng: random.Random, goal: tuple[int, ...], moves: int) -> tuple[int, ...]:
    state, previous = list(goal), None
    for _ in range(moves):
        blank = state.index(0)
        r, c = divmod(blank, 4)
        options = [
            n * 4 + m
            for n, m in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= n < 4 and 0 <= m < 4 and n * 4 + m != previous
        ]
        cell = rng.choice(options)
        state[blank], state[cell] = state[cell], 0
        previous = blank
    return tuple(state)


@pytest.mark.parametrize("corner", [0, 3, 12, 15])
def test_ida_with_small_databases_finds_the_python_searchs_optimum(corner):
    rng = random.Random(corner)
    tables = [patterns._patterns.build(bytes(g)) for g in SMALL]
    labels = list(range(1, 16))
    rng.shuffle(labels)
    goal = labels[:corner] + [0] + labels[corner:]
    for _ in range(6):
        start = scramble(rng, tuple(goal), rng.randint(10, 40))
        board = SlideBoard(4, 4, start, tuple(goal))
        assert patterns.suits(board)
        found = patterns.search(board, SMALL, tables, Limits())
        reference = idastar(SlideProblem(board), HEURISTICS["conflicts"](board))
        assert found.optimal and found.length == reference.length
        state = list(start)
        for move in found.moves:
            blank = state.index(0)
            assert state[move.start] == move.tile
            state[blank], state[move.start] = move.tile, 0
        assert tuple(state) == tuple(goal)


def test_boards_it_does_not_suit():
    assert not patterns.suits(SlideBoard(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), (1, 2, 3, 4, 5, 6, 7, 8, 0)))
    middle = tuple(range(1, 6)) + (0,) + tuple(range(6, 16))
    assert not patterns.suits(SlideBoard(4, 4, middle, middle))  # the empty cell's goal is not a corner
    repeated = (1, 1) + tuple(range(2, 15)) + (0,)
    assert not patterns.suits(SlideBoard(4, 4, repeated, repeated))


@pytest.mark.slow
def test_korfs_first_instances_have_their_optimal_lengths():
    boards = read_collection(shared_path("data", "slide", "korf100.txt"))
    for name, board in boards[:8]:
        assert solvable(board)
        result = patterns.solve(board, Limits(max_seconds=120), announce=lambda text: None)
        assert result.optimal and result.length == board.optimal, name
