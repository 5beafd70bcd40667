from kamivision.board import parse_board
from kamivision.graph import bits, build_regions, region_cells, tap_cell


def test_regions_and_adjacency_on_a_square_board():
    board = parse_board("aab\naab\ncca", lattice="square")
    graph = build_regions(board)
    assert graph.colors == (0, 1, 2, 0)
    assert [sorted(bits(c)) for c in graph.cells] == [[0, 1, 3, 4], [2, 5], [6, 7], [8]]
    assert sorted(bits(graph.adjacency[0])) == [1, 2]
    assert sorted(bits(graph.adjacency[3])) == [1, 2]
    assert graph.islands() == [0b1111]


def test_blanks_split_islands():
    board = parse_board("a.b\na.b\nc.c", lattice="square")
    graph = build_regions(board)
    assert len(graph.islands()) == 2


def test_triangle_regions_use_the_triangle_neighbors():
    # (0,0) and (0,1) share no edge on the triangle lattice: two regions of color a.
    board = parse_board("aa\nbb", lattice="triangle")
    graph = build_regions(board)
    assert graph.colors.count(0) == 2


def test_tap_cell_is_inside_and_away_from_the_edge():
    board = parse_board("aaaaa\naaaaa\naaaaa\naaaaa\naaaaa", lattice="square")
    assert tap_cell(board, region_cells(board, 0)) == 12
    ring = parse_board("bbb\nbab\nbbb", lattice="square")
    cells = region_cells(ring, 0)
    assert tap_cell(ring, cells) in set(bits(cells))
