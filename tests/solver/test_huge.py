import random

from kamivision.board import make_board
from kamivision.graph import build_regions
from kamivision.report import note_text, stopped_sentence
from kamivision.solver import huge, solve
from kamivision.solver.huge import greedy_colors, set_bits
from kamivision.solver.notes import GreedyPart
from kamivision.solver.pivot import PivotGraph, greedy

from ..boards import bfs_optimum, random_board, replay


def test_set_bits_lists_the_bits_of_wide_sparse_and_dense_masks():
    rng = random.Random(3)
    for _ in range(200):
        width = rng.choice([1, 70, 5000])
        wanted = sorted(rng.sample(range(width), min(width, rng.randint(0, 40))))
        assert set_bits(sum(1 << b for b in wanted)) == wanted
    assert set_bits((1 << 300) - 1) == list(range(300))


def test_the_greedy_flood_on_lists_is_the_greedy_flood_on_bitsets():
    rng = random.Random(4)
    for _ in range(100):
        board = random_board(
            rng, rng.choice(["triangle", "square"]), rng.randint(2, 8), rng.randint(2, 8), rng.randint(2, 5), 0.0
        )
        graph = build_regions(board)
        if len(graph.islands()) != 1 or len(graph) < 2:
            continue
        start = rng.randrange(len(graph))
        lists = huge.adjacency_lists(graph.adjacency, list(range(len(graph))))
        on_bitsets = greedy(PivotGraph.of(tuple(graph.colors), graph.adjacency, start))
        assert greedy_colors(bytes(graph.colors), lists, start) == on_bitsets


def test_islands_too_large_for_the_search_get_moves_that_solve_and_a_bound_that_holds(monkeypatch):
    """With the threshold lowered to a few regions, small boards take the linear-time
    path: its moves solve the board, and its bound never exceeds the optimum that
    breadth-first search finds (so "optimal" is claimed only when it is)."""
    monkeypatch.setattr("kamivision.solver.islands.HUGE_REGIONS", 3)
    rng = random.Random(5)
    checked = claimed = 0
    for _ in range(200):
        lattice = rng.choice(["triangle", "square"])
        board = random_board(
            rng, lattice, rng.randint(2, 3), rng.randint(2, 4), rng.choice([2, 3, 4]), rng.choice([0.0, 0.2])
        )
        expected = bfs_optimum(board, limit=8)
        if expected is None:
            continue
        solution = solve(board)
        assert replay(board, solution.moves).is_solved()
        assert solution.lower_bound <= expected <= solution.length
        if solution.optimal:
            assert solution.length == expected
            claimed += 1
        else:
            assert solution.notes
        checked += 1
    assert checked >= 150 and claimed >= 10


def test_a_long_strip_is_answered_without_the_search(monkeypatch):
    """A strip with more regions than the threshold (lowered, so that replaying the
    answer cell by cell stays quick) is answered at once, not proven, with the reason."""
    monkeypatch.setattr("kamivision.solver.islands.HUGE_REGIONS", 500)
    rng = random.Random(6)
    board = make_board([[rng.randrange(5) for _ in range(1000)]], lattice="square")
    solution = solve(board, max_seconds=60)
    assert replay(board, solution.moves).is_solved()
    assert solution.expanded == 0 and not solution.optimal
    (note,) = solution.notes
    assert isinstance(note, GreedyPart) and note.regions > 500 and note.bound == solution.lower_bound
    assert "too many for the proving search" in note_text(note)
    assert stopped_sentence(solution) is None  # no limit stopped it (the page said one had)
    assert 0 < solution.lower_bound < solution.length
