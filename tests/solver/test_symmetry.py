"""Symmetric states stored once (:mod:`kamivision.solver.symmetry`, ``_core/symmetry.c``)."""

import itertools
import random

import pytest

from kamivision.board import make_board
from kamivision.graph import build_regions
from kamivision.solver import astar, core, limits, symmetry
from kamivision.solver.islands import local_island

from ..boards import island_bfs_optimum, random_board


def _symmetric_board(rng: random.Random, rows: int, columns: int, colors: int, kind: str):
    """A square board drawn the same in a mirror (left-right) or turned half a turn."""
    grid = [[rng.randrange(colors) for _ in range(columns)] for _ in range(rows)]
    for r in range(rows):
        for c in range(columns):
            if kind == "mirror":
                grid[r][c] = grid[r][min(c, columns - 1 - c)]
            elif (r, c) > (rows - 1 - r, columns - 1 - c):
                grid[r][c] = grid[rows - 1 - r][columns - 1 - c]
    return make_board(grid, lattice="square")


def _island(board):
    graph = build_regions(board)
    return local_island(graph, graph.islands()[0])[0]


def _keeps(colors, adjacency, image) -> bool:
    """Whether the permutation (region -> image[region]) keeps colors and adjacency."""
    n = len(colors)
    return all(colors[image[r]] == colors[r] for r in range(n)) and all(
        bool(adjacency[image[r]] >> image[s] & 1) == bool(adjacency[r] >> s & 1) for r in range(n) for s in range(n)
    )


def _permutations_of(found: symmetry.Symmetry, n: int):
    """Each twin swap, and the swap of each basis vector, as a permutation of the regions."""
    for twin in found.twins:
        image = list(range(n))
        image[twin[0]], image[twin[1]] = twin[1], twin[0]
        yield image
    for vector in found.basis:
        image = list(range(n))
        for j, (first, second) in enumerate(found.pairs):
            if vector >> j & 1:
                for a, b in zip(first, second):
                    image[a], image[b] = b, a
        yield image


def test_automorphisms_are_the_whole_group_on_small_graphs():
    """The backtracking search lists exactly the permutations that keep labels and
    adjacency, against trying all of them, on random small connected graphs."""
    rng = random.Random(30112026)
    checked = 0
    for _ in range(300):
        m = rng.randint(1, 7)
        edges = {(i, rng.randrange(i)) for i in range(1, m)}  # a spanning tree: connected
        edges |= {(a, b) for a in range(m) for b in range(a) if rng.random() < 0.2}
        neighbors = [sorted({b for a, b in edges if a == v} | {a for a, b in edges if b == v}) for v in range(m)]
        labels = [rng.randrange(2) for _ in range(m)]
        adjacency = [sum(1 << u for u in ns) for ns in neighbors]
        expected = sorted(list(p) for p in itertools.permutations(range(m)) if _keeps(labels, adjacency, p))
        assert sorted(symmetry.automorphisms(labels, neighbors)) == expected, (labels, neighbors)
        checked += len(expected) > 1
    assert checked > 50


def test_every_symmetry_found_keeps_the_colors_and_the_graph():
    """Each twin swap and each swap of the basis is an automorphism of the island that
    keeps its colors; a board drawn in a mirror or turned half a turn has swaps found."""
    rng = random.Random(1)
    with_swaps = 0
    for _ in range(200):
        kind = rng.choice(["mirror", "turn"])
        board = _symmetric_board(rng, rng.randint(2, 5), rng.randint(2, 6), rng.choice([2, 3, 4]), kind)
        island = _island(board)
        found = symmetry.find(island.colors, island.adjacency)
        for image in _permutations_of(found, len(island)):
            assert _keeps(island.colors, island.adjacency, image), board
        with_swaps += bool(found.basis)
    assert with_swaps > 100


def test_twins_are_regions_of_one_color_with_the_same_neighbors():
    """Four single cells of one color in one region are one set of twins, and that is all
    the symmetry there is when nothing else repeats."""
    board = make_board(
        [[0, 0, 0, 0, 0], [0, 1, 0, 1, 0], [0, 0, 0, 0, 0], [0, 1, 0, 1, 0], [0, 0, 0, 0, 2]],
        lattice="square",
    )
    island = _island(board)
    found = symmetry.find(island.colors, island.adjacency)
    assert [sorted(island.colors[r] for r in twin) for twin in found.twins] == [[1, 1, 1, 1]]
    assert not found.basis


def test_a_group_with_three_places_for_a_region_is_left_out():
    """Three equal arms on one centre (each region has three places to go): the swaps
    are not a space over GF(2), so none is used (the twins still are)."""
    # a centre region 0 with three arms 1-2, each arm's two regions of different colors
    labels = [(0, 1), (1, 1), (2, 1), (1, 1), (2, 1), (1, 1), (2, 1)]
    neighbors = [[1, 3, 5], [0, 2], [1], [0, 4], [3], [0, 6], [5]]
    assert len(symmetry.automorphisms(labels, neighbors)) == 6
    colors = bytes(label[0] for label in labels)
    adjacency = [sum(1 << u for u in ns) for ns in neighbors]
    assert not symmetry.find(colors, adjacency)


def _orbit(colors: bytes, found: symmetry.Symmetry, region: int = 0, most: int = 3000):
    """Every image of the coloring under the group the symmetries generate, with where
    the automorphism that makes it takes ``region``: a set of (colors, region), or None
    past ``most``."""
    moves = list(_permutations_of(found, len(colors)))
    for twin in found.twins:  # with the swap of its first two, a turn generates the set's group
        moves.append([twin[(twin.index(r) + 1) % len(twin)] if r in twin else r for r in range(len(colors))])
    seen, todo = {(colors, region)}, [(colors, region)]
    while todo:
        x, t = todo.pop()
        for image in moves:  # the color of image[r] goes to r: image[r] is mapped to r
            y = (bytes(x[image[r]] for r in range(len(x))), image.index(t))
            if y not in seen:
                seen.add(y)
                todo.append(y)
                if len(seen) > most:
                    return None
    return seen


def test_the_image_stored_is_one_of_the_state_and_the_same_for_all_its_images():
    """For random colorings of symmetric islands (drawn in a mirror, turned half a turn,
    with their twins): the core's image is an image of the coloring under the group,
    every image of the coloring has the same one, and the region the core says a given
    region goes to is where an automorphism that makes the image takes it."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(3)
    islands = []
    for _ in range(60):
        kind = rng.choice(["mirror", "turn"])
        islands.append(_island(_symmetric_board(rng, rng.randint(3, 7), rng.randint(3, 8), rng.choice([2, 3]), kind)))
    checked = coupled = 0
    for island in islands:
        found = symmetry.find(island.colors, island.adjacency)
        if not found:
            continue
        coupled += any(bin(v).count("1") > 1 for v in found.basis)
        blob = found.encode()
        for _ in range(20):
            colors = bytes(rng.choice(sorted(set(island.colors))) for _ in island.colors)
            region = rng.randrange(len(colors))
            orbit = _orbit(colors, found, region)
            if orbit is None:
                continue
            stored, goes = core._core.symmetric_image(colors, blob, region)
            assert (stored, goes) in orbit
            assert {core._core.symmetric_image(y, blob, 0)[0] for y, _ in orbit} == {stored}
            checked += 1
    assert checked > 300 and coupled > 10


def test_a_mirror_that_swaps_hundreds_of_regions_is_used():
    """A 25 x 20 checkerboard is the same upside down: 480 of its 500 regions move, in 240
    pairs (more than one word of bits), and the stored image is the same for both sides."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    island = _island(make_board([[(r + c) % 2 for c in range(20)] for r in range(25)], lattice="square"))
    found = symmetry.find(island.colors, island.adjacency)
    assert len(found.pairs) == 240 and len(found.basis) == 1
    rng = random.Random(4)
    for _ in range(20):
        colors = bytes(rng.randrange(3) for _ in island.colors)
        orbit = {y for y, _ in _orbit(colors, found)}
        assert len(orbit) == 2
        stored = min(orbit, key=_read_by_pairs(found))
        assert {core._core.symmetric_image(y, found.encode(), 0)[0] for y in orbit} == {stored}


def _read_by_pairs(found: symmetry.Symmetry):
    """The order the core's image is least in: each pair's first side, pair by pair."""
    return lambda colors: [colors[r] for first, _ in found.pairs for r in first]


def test_a_graph_in_two_parts_gets_its_twins_and_no_swaps():
    """Two equal parts, each a region with two twin neighbors: no error, twins only."""
    colors = bytes([0, 1, 1, 0, 1, 1])
    adjacency = [0b110, 0b001, 0b001, 0b110000, 0b001000, 0b001000]
    found = symmetry.find(colors, adjacency)
    assert found.twins == ((1, 2), (4, 5)) and not found.basis


def test_a_malformed_symmetry_is_refused_by_the_core():
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    g = core.graph(bytes([0, 1, 0]), [0b010, 0b101, 0b010])
    bad = symmetry.Symmetry(twins=((0, 7),)).encode()  # region 7 of 3
    with pytest.raises(ValueError, match="symmetry"):
        core._core.sweep(g.colors, g.adjacency, g.words, T=2, paths=0, symmetry=bad)
    with pytest.raises(ValueError, match="symmetry"):
        core._core.sweep(g.colors, g.adjacency, g.words, T=2, paths=0, symmetry=b"\x01\x00")


@pytest.mark.slow
def test_the_sweep_with_symmetry_equals_exhaustive_search_on_symmetric_boards():
    """With one state stored for each symmetric set (keys only, commuting moves in one
    order), the sweep finds a solution at T = optimum and none at T = optimum - 1, against
    breadth-first search, with and without a goal color, on boards drawn in a mirror or
    turned half a turn, and on random triangle boards; it never expands more states than
    without, and on many fewer."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(2)
    checked = fewer = 0
    for _ in range(2100):
        kind = rng.choice(["mirror", "turn", "triangle"])
        if kind == "triangle":  # no symmetry drawn: twins (petals, holes) and what chance gives
            board = random_board(rng, "triangle", rng.randint(3, 4), rng.randint(3, 4), rng.choice([3, 4]), 0.0)
        else:
            board = _symmetric_board(rng, rng.randint(3, 5), rng.randint(3, 6), rng.choice([3, 4, 5]), kind)
        island = _island(board)
        if not 3 <= len(island) <= 10:  # breadth-first search over more takes seconds, or all the memory
            continue
        goal = rng.choice([None, *sorted(set(island.colors))])
        if goal is None:
            optimum = island_bfs_optimum(island.colors, island.adjacency, limit=9)
        else:  # breadth-first search also recolors to colors no neighbor has (test_core)
            optimum = len(astar.astar(island, limits.Budget(), goal_color=goal))
        if not optimum:
            continue
        g = core.graph(island.colors, island.adjacency)
        for target in (optimum - 1, optimum):
            answers = [core.sweep(g, within=target, goal=goal, paths=False, symmetry=s) for s in (True, False)]
            assert [a.status for a in answers] == [core.Status.NONE if target < optimum else core.Status.FOUND] * 2
            assert answers[0].bound == answers[1].bound
            assert answers[0].expanded <= answers[1].expanded, board
            fewer += answers[0].expanded < answers[1].expanded
        checked += 1
    assert checked >= 1000 and fewer >= checked // 3


@pytest.mark.slow
def test_the_sweep_with_symmetry_equals_the_sweep_without_on_larger_symmetric_boards():
    """On symmetric boards of 6 to 40 regions (past breadth-first search), the sweep with
    symmetry and commuting moves in one order finds the optimum that the sweep with
    neither finds (itself checked against breadth-first search in test_core), and nothing
    one move shorter."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(5)
    checked = 0
    while checked < 150:
        board = _symmetric_board(
            rng, rng.randint(4, 7), rng.randint(4, 8), rng.choice([3, 4, 5]), rng.choice(["mirror", "turn"])
        )
        island = _island(board)
        if not 6 <= len(island) <= 40:
            continue
        g = core.graph(island.colors, island.adjacency)
        goal = rng.choice([None, *sorted(set(island.colors))])
        for target in range(1, 30):  # the optimum, by the plain sweep
            plain = core.sweep(g, within=target, goal=goal, paths=False, symmetry=False, commute=False)
            if plain.status != core.Status.NONE:
                break
        assert plain.status == core.Status.FOUND
        assert core.sweep(g, within=target, goal=goal, paths=False).bound == target, board
        assert core.sweep(g, within=target - 1, goal=goal, paths=False).status == core.Status.NONE, board
        checked += 1
