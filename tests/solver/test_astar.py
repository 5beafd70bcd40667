"""The readable reference A* and the goal tests (:mod:`kamivision.solver.astar`), against breadth-first search and against the compiled core."""

import random

import pytest

from kamivision.board import make_board, read_board
from kamivision.graph import build_regions
from kamivision.solver import astar, core, limits, solve, state
from kamivision.solver.islands import local_island

from ..boards import bfs_optimum, random_board, replay
from ..conftest import machine, shared_path


def assert_solved_like_bfs(board, expected, settings=None):
    """solve(board) proves the optimum breadth-first search found, with moves that solve it."""
    solution = solve(board, settings=settings)
    assert solution.optimal, board
    assert solution.length == expected, f"\n{board}\nBFS {expected}, solver {solution.length}"
    assert solution.lower_bound == expected
    assert replay(board, solution.moves).is_solved()


@pytest.mark.slow
@pytest.mark.parametrize("lattice", ["triangle", "square"])
def test_solver_equals_exhaustive_search_on_random_small_boards(lattice, both):
    """Every pruning rule (merging moves only, island reconciliation) against plain BFS."""
    rng = random.Random(20261122 + len(lattice))
    checked = 0
    for trial in range(400):
        rows, columns = rng.choice([(3, 3), (3, 4), (4, 4), (4, 3), (2, 5), (5, 3)])
        colors = rng.choice([2, 3, 3, 4])
        blank = rng.choice([0.0, 0.0, 0.15, 0.3])
        board = random_board(rng, lattice, rows, columns, colors, blank)
        expected = bfs_optimum(board, limit=9)
        if expected is None:
            continue
        assert_solved_like_bfs(board, expected, both)
        checked += 1
    assert checked >= 350


@pytest.mark.slow
def test_compiled_core_equals_python_search_on_larger_islands():
    """The compiled A* and the Python A* give paths of equal length, for every goal color."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(7)
    compared = 0
    for _ in range(60):
        lattice = rng.choice(["triangle", "square"])
        board = random_board(rng, lattice, rng.randint(3, 6), rng.randint(3, 6), rng.randint(2, 4), 0.1)
        graph = build_regions(board)
        for mask in graph.islands():
            island, _ = local_island(graph, mask)
            if len(island) < 2 or len(island) > 22:
                continue
            for goal in [None, *sorted(set(island.colors))]:
                fast = astar.astar(island, limits.Budget(settings=machine(core=True)), goal)
                slow = astar.astar(island, limits.Budget(settings=machine(core=False)), goal)
                assert (fast is None) == (slow is None)
                if fast is not None:
                    assert len(fast) == len(slow)
                    compared += 1
    assert compared >= 100


@pytest.mark.slow
@pytest.mark.parametrize("max_bytes", [1, 200_000])
def test_a_full_memory_search_goes_on_depth_first_and_stays_optimal(max_bytes):
    """When the stored states fill the memory allowed, the compiled core goes on with
    depth-first searches from its open states (1 byte: from the root at once; 200 kB:
    part way): the answers are still proven and equal to breadth-first search."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    settings = machine(max_bytes=max_bytes)
    rng = random.Random(max_bytes)
    checked = 0
    for _ in range(130):
        rows, columns = rng.choice([(3, 3), (3, 4), (4, 3), (2, 6)])
        lattice = rng.choice(["triangle", "square"])
        board = random_board(rng, lattice, rows, columns, rng.choice([3, 4]), rng.choice([0.0, 0.2]))
        expected = bfs_optimum(board, limit=9)
        if expected is None:
            continue
        assert_solved_like_bfs(board, expected, settings)
        checked += 1
    assert checked >= 100


def test_a_journey_level_proven_with_little_memory():
    """Threed6 (43 regions, par 9) with 150 kB: part of its search runs depth-first (it
    expands more states than with memory to spare) and still proves par."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board = read_board(shared_path("data", "kami2-journey", "14-6-Threed6.json"))
    roomy = solve(board, max_seconds=120)
    solution = solve(board, max_seconds=120, settings=machine(max_bytes=150_000))
    assert solution.expanded > roomy.expanded
    assert solution.optimal and solution.length == board.par == 9
    assert replay(board, solution.moves).is_solved()


def _stopwatch_budget(deadline_passed: bool):
    """A budget whose per-expansion check never fires, so that only the checks within an
    expansion can stop the search; its proof deadline already passed when asked."""

    class Unchecked(limits.Budget):
        def charge(self, bound: int) -> None:
            pass

    budget = Unchecked(limits.Limits(max_seconds=1000.0))
    if deadline_passed:
        budget.proof_deadline = 0.0
    return budget


def test_the_python_search_reads_the_clock_within_an_expansion():
    """One expansion of an island of thousands of regions weighs as many children, for
    seconds: the limit must stop it in the middle, not after."""
    board = make_board(
        [[(r * 7 + c * 3 + (r * c) % 5) % 6 for c in range(30)] for r in range(30)], lattice="square", palette=None
    )
    graph = build_regions(board)
    island, _ = local_island(graph, graph.islands()[0])
    root = state.contract(island, island.colors)
    assert sum(1 for _ in state.merging_moves(root)) > 64  # more children than one clock reading
    with pytest.raises(limits.SearchStopped):
        astar.astar_python(island, _stopwatch_budget(deadline_passed=True))


def test_the_python_search_stops_when_its_memory_is_spent(monkeypatch):
    board = make_board(
        [[(r * 7 + c * 3 + (r * c) % 5) % 6 for c in range(30)] for r in range(30)], lattice="square", palette=None
    )
    graph = build_regions(board)
    island, _ = local_island(graph, graph.islands()[0])
    monkeypatch.setattr(astar, "PYTHON_MAX_BYTES", 10_000)
    monkeypatch.setattr(astar, "choose_orientation", lambda *args, **kwargs: None)  # not the point here
    with pytest.raises(limits.SearchStopped) as stop:
        astar.astar_python(island, _stopwatch_budget(deadline_passed=False))
    assert stop.value.bound >= 1  # a proven bound, as at a time limit
