import random

import pytest

from kamivision.board import read_board
from kamivision.graph import bits, build_regions
from kamivision.solver.islands import local_island
from kamivision.solver.heuristics import final_color_bound
from kamivision.solver.state import Island, apply_merge, contract, key_after, merging_moves, neighborhood
from subgraph import FixedSpiders, closure, spider, spider_bound, sub_island

from tests.boards import bfs_optimum, island_bfs_optimum, one_island_boards, root_state
from tests.conftest import shared_path


def random_connected(rng, state):
    """A random connected set of regions, grown from a random region."""
    regions = list(bits(state.reps))
    nodes = 1 << rng.choice(regions)
    for _ in range(rng.randrange(1, len(regions))):
        around = list(bits(neighborhood(state.adj, nodes) & ~nodes))
        if not around:
            break
        nodes |= 1 << rng.choice(around)
    return nodes


def parts_outside(state, nodes):
    """The connected parts of the graph outside ``nodes``, as bitsets."""
    rest = state.reps & ~nodes
    while rest:
        part = frontier = rest & -rest
        while frontier:
            frontier = neighborhood(state.adj, frontier) & rest & ~part
            part |= frontier
        rest &= ~part
        yield part


def test_a_closed_subgraph_never_needs_more_moves_than_the_board():
    proper = 0
    for rng, board in one_island_boards(5, 70):
        optimum = bfs_optimum(board, limit=10)
        if optimum is None:
            continue
        state = root_state(board)
        goal = rng.choice(sorted(board.colors_used()))
        with_goal = bfs_optimum(board, limit=10, goal=goal)
        for _ in range(3):
            nodes = closure(state.adj, state.reps, random_connected(rng, state))
            for part in parts_outside(state, nodes):  # each part hangs from one region
                touch = neighborhood(state.adj, part) & nodes
                assert touch and touch & (touch - 1) == 0
            if nodes == state.reps:
                continue
            proper += 1
            island = sub_island(state, nodes)
            assert island_bfs_optimum(island.colors, island.adjacency) <= optimum, board
            if with_goal is not None:
                assert island_bfs_optimum(island.colors, island.adjacency, goal=goal) <= with_goal, board
    assert proper >= 50  # the boards are tree-like enough to test something


def cycle_with_hub():
    """An 8-cycle of alternating colors and a ninth region next to two opposite ones."""
    adjacency = [0] * 9
    edges = [(i, (i + 1) % 8) for i in range(8)] + [(8, 0), (8, 4)]
    for a, b in edges:
        adjacency[a] |= 1 << b
        adjacency[b] |= 1 << a
    return Island(bytes([0, 1] * 4 + [1]), tuple(adjacency))


def test_an_unclosed_subgraph_can_need_more_moves_and_closure_takes_the_whole():
    island = cycle_with_hub()
    assert island_bfs_optimum(island.colors, island.adjacency) == 3
    state = contract(island, island.colors)
    cycle = (1 << 8) - 1
    ring = sub_island(state, cycle)
    assert island_bfs_optimum(ring.colors, ring.adjacency) == 4  # more than the whole needs
    assert closure(state.adj, state.reps, cycle) == state.reps  # so it is never taken alone
    assert spider_bound(state) <= 3


def test_spider_bound_never_exceeds_the_optimum_of_a_state_or_its_children():
    checked = 0
    cache: dict = {}  # shared by all the boards: equal spiders must give equal bounds
    for rng, board in one_island_boards(11, 60):
        state = root_state(board)
        goal = rng.choice([None, *sorted(board.colors_used())])
        optimum = bfs_optimum(board, limit=10, goal=goal)
        if optimum is None:
            continue
        assert spider_bound(state, goal=goal, centres=4, arms=2) <= optimum, board
        found = spider_bound(state, goal=goal)
        assert found <= optimum, board
        assert spider_bound(state, goal=goal, cache=cache) == found == spider_bound(state, goal=goal, cache=cache)
        needs = list(range(found))
        rng.shuffle(needs)
        asked: dict = {}  # what a search with need leaves in the cache must not mislead a later call
        for need in needs:
            assert spider_bound(state, goal=goal, need=need, cache=asked) == need, board
        assert spider_bound(state, goal=goal, cache=asked) == found
        assert spider_bound(state, goal=goal, need=found + rng.randrange(1, 3)) == found
        checked += 1
        for rep, color, merged in merging_moves(state)[:4]:
            child = apply_merge(state, rep, color, merged)
            island = sub_island(child, child.reps)
            best = island_bfs_optimum(island.colors, island.adjacency, limit=10, goal=goal)
            if best is not None:
                assert spider_bound(child, goal=goal) <= best, board
    assert checked >= 40


def test_a_spider_holds_its_centre_and_a_shortest_path_to_each_arm_end():
    rng = random.Random(3)
    for _, board in one_island_boards(17, 40):
        state = root_state(board)
        centre = rng.choice(list(bits(state.reps)))
        nodes = spider(state, centre, arms=3)
        assert nodes >> centre & 1
        sub = sub_island(state, nodes)  # a spider is connected: a tree through the centre
        seen = frontier = 1
        while frontier:
            frontier = neighborhood(list(sub.adjacency), frontier) & ~seen
            seen |= frontier
        assert seen == (1 << len(sub)) - 1


def test_spider_bound_beats_the_distance_bounds_on_a_tree_like_level():
    path = shared_path("data", "kami2-journey", "19-5-Bud5.json")
    board = read_board(path)
    graph = build_regions(board)
    island = max((local_island(graph, mask)[0] for mask in graph.islands()), key=len)
    state = contract(island, island.colors)
    distance = final_color_bound(state)
    found = spider_bound(state)
    assert distance < found <= board.par


@pytest.mark.parametrize("limit", [1, 50])
def test_a_subgraph_search_stopped_early_still_gives_a_lower_bound(limit):
    for _, board in one_island_boards(23, 40):
        state = root_state(board)
        optimum = bfs_optimum(board, limit=10)
        if optimum is not None:
            assert spider_bound(state, max_nodes=limit) <= optimum


def astar_with_spiders(island: Island) -> int:
    """The fewest moves of an island by a plain A* over its colorings (merging moves only,
    which the product's tests show are enough on one island), with h the larger of the
    product's goal bound and the spider bound.  (The product's own A* lost its hook for an
    extra bound when this research left it, c222699; this search stands in for it.)"""
    import heapq

    from kamivision.solver.astar import goal_bound, is_goal

    def h(state) -> int:
        return max(goal_bound(state, None), spider_bound(state))

    root = contract(island, island.colors)
    best = {island.colors: 0}
    heap = [(h(root), 0, island.colors, root)]
    while heap:
        f, g, key, state = heapq.heappop(heap)
        if g > best[key]:
            continue
        if is_goal(state, None):
            return g
        for rep, color, merged in merging_moves(state):
            child = apply_merge(state, rep, color, merged)
            child_key = key_after(key, state.members[rep], color)
            if g + 1 < best.get(child_key, 1 << 30):
                best[child_key] = g + 1
                heapq.heappush(heap, (g + 1 + h(child), g + 1, child_key, child))
    raise AssertionError("an island always reaches one color")


def test_the_search_with_the_spider_bound_stays_optimal():
    checked = 0
    for _, board in one_island_boards(29, 40):
        optimum = bfs_optimum(board, limit=10)
        if optimum is None:
            continue
        graph = build_regions(board)
        (mask,) = graph.islands()
        island, _ = local_island(graph, mask)
        assert astar_with_spiders(island) == optimum, board
        checked += 1
    assert checked >= 20


def test_spiders_closed_at_the_start_bound_every_coloring_of_the_board():
    checked = 0
    for rng, board in one_island_boards(31, 60):
        graph = build_regions(board)
        (mask,) = graph.islands()
        island, _ = local_island(graph, mask)
        fixed = FixedSpiders(island, centres=3, arms=3)
        if not fixed.parts:
            continue
        palette = sorted(set(island.colors))
        for _ in range(5):  # any coloring of the original regions, reachable or not
            colors = bytearray(island.colors)
            for i in rng.sample(range(len(colors)), rng.randrange(1, len(colors) + 1)):
                colors[i] = rng.choice(palette)
            optimum = island_bfs_optimum(bytes(colors), island.adjacency, limit=10)
            if optimum is None:
                continue
            found = fixed.bound(bytes(colors))
            assert found <= optimum, (board, bytes(colors))
            assert fixed.bound(bytes(colors), solve=False) == found  # now from the caches
            checked += 1
    assert checked >= 100
