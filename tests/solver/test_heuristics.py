import random

import pytest

from kamivision.board import Move, make_board
from kamivision.graph import bits, build_regions
from kamivision.solver.heuristics import (
    diameter_bound,
    distances,
    far_pairs,
    final_color_bound,
    final_color_term,
    pair_bound,
    pair_bound_after,
    pair_term,
)
from kamivision.solver.islands import local_island
from kamivision.solver.state import apply_merge, contract, merging_moves

from ..boards import bfs_optimum, random_board, root_state


def all_pairs_bound(state, goal):
    """pair_term over every pair of regions, with exact distances: the strongest form."""
    reps = list(bits(state.reps))
    best = 0
    for u in reps:
        dist, _, _ = distances(state.adj, u, len(state.adj))
        for v in reps:
            best = max(best, pair_term(dist[v], state.color[u], state.color[v], goal))
    return best


def small_boards(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        lattice = rng.choice(["triangle", "square"])
        rows, columns = rng.choice([(3, 3), (3, 4), (4, 3), (2, 5), (2, 6), (1, 7)])
        board = random_board(rng, lattice, rows, columns, rng.choice([2, 3, 3, 4]), 0.0)
        if len(build_regions(board).islands()) == 1:  # thin triangle boards fall apart
            yield board


def solved_boards(seed, goal_kind):
    """Random small boards with a goal (none, or one of their colors) and their optimum."""
    rng = random.Random(seed + 100)
    for board in small_boards(seed, 300):
        goal = None if goal_kind == "any" else rng.choice(sorted(board.colors_used()))
        optimum = bfs_optimum(board, limit=9, goal=goal)
        if optimum is not None:
            yield board, goal, optimum


def test_pair_term_counts_the_end_colors():
    # a x b in a row needs two moves, a x a one; ceil(d / 2) says one for both.
    assert bfs_optimum(make_board([[0, 1, 2]], lattice="square")) == 2
    assert pair_term(2, 0, 2) == 2
    assert bfs_optimum(make_board([[0, 1, 0]], lattice="square")) == 1
    assert pair_term(2, 0, 0) == 1
    # With a goal color the ends must both be it: a x a to color b takes two moves.
    assert bfs_optimum(make_board([[0, 1, 0]], lattice="square"), goal=1) == 2
    assert pair_term(2, 0, 0, goal=1) == 2
    assert pair_term(0, 1, 1, goal=1) == 0 and pair_term(0, 0, 0, goal=1) == 1


@pytest.mark.slow
@pytest.mark.parametrize("goal_kind", ["any", "a goal color"])
def test_pair_term_over_all_pairs_never_exceeds_the_optimum(goal_kind):
    """The color-aware pair bound in its strongest form (every pair, exact distances)
    against breadth-first search, on random boards and on states reached from them."""
    checked = raised = 0
    for board, goal, optimum in solved_boards(11 if goal_kind == "any" else 12, goal_kind):
        state = root_state(board)
        bound = all_pairs_bound(state, goal)
        assert bound <= optimum, f"\n{board}\ngoal {goal}: bound {bound} > optimum {optimum}"
        blind = max((distances(state.adj, u, len(state.adj))[2] + 1) // 2 for u in bits(state.reps))
        raised += bound > blind
        checked += 1
    assert checked >= 200
    assert raised >= 10  # the color term does raise the bound, and stays admissible


@pytest.mark.slow
def test_search_bounds_never_exceed_the_optimum_of_state_or_child():
    """diameter_bound, far_pairs + pair_bound and pair_bound_after (the child's bound from
    the parent's distances) against breadth-first search on the state and on each child."""
    rng = random.Random(5)
    checked = 0
    for board in small_boards(13, 150):
        graph = build_regions(board)
        (mask,) = graph.islands()
        island, regions = local_island(graph, mask)
        state = contract(island, island.colors)
        goal = rng.choice([None, *sorted(board.colors_used())])
        optimum = bfs_optimum(board, limit=9, goal=goal)
        if optimum is None:
            continue
        assert diameter_bound(state, goal=goal) <= optimum
        pairs = far_pairs(state)
        assert pair_bound(pairs, state.color, goal) <= optimum
        for rep, color, merged in merging_moves(state):
            cell = (graph.cells[regions[rep]] & -graph.cells[regions[rep]]).bit_length() - 1
            child = board.apply(Move(cell // board.columns, cell % board.columns, color))
            after = pair_bound_after(pairs, merged, state.color, color, goal)
            child_optimum = bfs_optimum(child, limit=9, goal=goal)
            if child_optimum is not None:
                assert after <= child_optimum, f"\n{board}\nmove {rep}->{color}: {after} > {child_optimum}"
            # It is the pair term of two of the child's regions, so at most the all-pairs bound.
            child_state = apply_merge(state, rep, color, merged)
            assert after <= all_pairs_bound(child_state, goal)
            checked += 1
    assert checked >= 300


def all_pairs_final_color_bound(state, goal):
    """final_color_term's argument in its strongest form: for each final color, every pair
    with exact distances and the color count; the least over the final colors."""
    reps = list(bits(state.reps))
    present = {state.color[u] for u in reps}
    dist = {u: distances(state.adj, u, len(state.adj))[0] for u in reps}
    best = None
    for k in [goal] if goal is not None else [*present, None]:
        h = len(present - {k})
        for u in reps:
            for v in reps:
                cu, cv = state.color[u], state.color[v]
                h = max(h, (dist[u][v] + (cu != k) + (cv != k) + 1) // 2)
        best = h if best is None else min(best, h)
    return best


def test_final_color_term_counts_both_ends():
    # a b to color c: two moves; a x a to color b: two; a b a to any: one.
    assert bfs_optimum(make_board([[0, 1]], lattice="square"), goal=2) == 2
    assert final_color_term(1, 0, {1}, 2) == 2
    assert final_color_term(2, 0, {0}, 1) == 2
    assert final_color_term(2, 0, {0}, 0) == 1
    assert final_color_term(0, 0, {0}, None) == 1  # a color not on the board


@pytest.mark.slow
@pytest.mark.parametrize("goal_kind", ["any", "a goal color"])
def test_final_color_bound_never_exceeds_the_optimum(goal_kind):
    """The least over final colors, in its strongest form (every pair) and as the search
    computes it (sweeps), against breadth-first search; it raises the pair bound on some
    boards."""
    checked = raised = 0
    for board, goal, optimum in solved_boards(21 if goal_kind == "any" else 22, goal_kind):
        state = root_state(board)
        strongest = all_pairs_final_color_bound(state, goal)
        assert strongest <= optimum, f"\n{board}\ngoal {goal}: {strongest} > {optimum}"
        swept = final_color_bound(state, goal)
        assert swept <= strongest
        assert swept >= pair_bound(far_pairs(state), state.color, goal)
        colors_left = len({state.color[u] for u in bits(state.reps)}) - 1
        raised += swept > max(pair_bound(far_pairs(state), state.color, goal), colors_left)
        checked += 1
    assert checked >= 200
    if goal_kind == "any":
        assert raised >= 3


@pytest.mark.slow
def test_one_move_on_a_path_lowers_psi_by_at_most_six():
    """Step (1) of winding_bound's argument, exhaustively: every color sequence of up to
    seven regions over four colors (adjacent ones differ), every orientation of the pairs,
    every move."""
    import itertools

    from kamivision.solver.heuristics import orientation

    def psi(seq, sigma):
        return 3 * (len(seq) - 1) + abs(sum(sigma[a, b] for a, b in zip(seq, seq[1:])))

    def merged(seq):
        out = [seq[0]]
        for c in seq[1:]:
            if c != out[-1]:
                out.append(c)
        return tuple(out)

    colors = [0, 1, 2, 3]
    sigmas = [orientation(colors, n) for n in range(1 << 6)]
    checked = tight = 0
    for length in range(1, 8):
        for seq in itertools.product(colors, repeat=length):
            if any(a == b for a, b in zip(seq, seq[1:])):
                continue
            for x in range(length):
                for k in colors:
                    if k == seq[x]:
                        continue
                    after = merged(seq[:x] + (k,) + seq[x + 1 :])
                    for sigma in sigmas[::3]:
                        drop = psi(seq, sigma) - psi(after, sigma)
                        assert drop <= 6, (seq, x, k)
                        tight += drop == 6
                        checked += 1
    assert checked > 100_000 and tight > 1000


def three_color_boards(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        lattice = rng.choice(["triangle", "square"])
        rows, columns = rng.choice([(3, 3), (3, 4), (4, 3), (2, 5), (2, 6), (1, 7), (1, 9)])
        board = random_board(rng, lattice, rows, columns, rng.choice([3, 4, 4, 4, 5]), 0.0)
        if len(build_regions(board).islands()) == 1:
            yield board


@pytest.mark.slow
def test_winding_bound_never_exceeds_the_optimum():
    """winding_bound, with the orientation choose_orientation picks and with random ones, against
    breadth-first search on random boards of three to five colors; it must beat the pair
    bound on some of them."""
    from kamivision.solver.heuristics import choose_orientation, orientation, winding_bound

    rng = random.Random(21)
    checked = raised = 0
    for board in three_color_boards(22, 160):
        optimum = bfs_optimum(board, limit=9)
        if optimum is None:
            continue
        state = root_state(board)
        colors = sorted(board.colors_used())
        chosen = choose_orientation(state)
        sigmas = [orientation(colors, rng.randrange(1 << 10))]
        if chosen is not None:
            sigmas.append(orientation(colors, chosen))
        for sigma in sigmas:
            bound = winding_bound(state, sigma)
            assert bound <= optimum, f"\n{board}\nsigma {sigma}: bound {bound} > optimum {optimum}"
            raised += bound > all_pairs_bound(state, None)
            checked += 1
    assert checked >= 250
    assert raised >= 5


def test_the_core_chooses_the_same_orientation():
    """The compiled core's choose_orientation (which skips sources by the triangle
    inequality) picks the orientation the Python one does, by its exact rule."""
    from kamivision.solver import core
    from kamivision.solver.heuristics import choose_orientation

    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    compared = 0
    for board in three_color_boards(31, 60):
        graph = build_regions(board)
        (mask,) = graph.islands()
        island, _ = local_island(graph, mask)
        python = choose_orientation(contract(island, island.colors))
        compiled = core.choose_orientation(core.graph(island.colors, island.adjacency))
        assert compiled == (-1 if python is None else python)
        compared += python is not None
    assert compared >= 30


@pytest.mark.slow
def test_winding_bound_after_never_exceeds_the_childs_optimum_or_own_bound():
    """winding_bound_after (a child's winding bound from the parent's farthest pair) against
    breadth-first search on each child, and never above the child's own winding_bound."""
    from kamivision.solver.heuristics import (
        choose_orientation,
        orientation,
        winding_bound,
        winding_bound_after,
        winding_pair,
    )

    checked = raised = 0
    for board in three_color_boards(41, 36):
        graph = build_regions(board)
        (mask,) = graph.islands()
        island, regions = local_island(graph, mask)
        state = contract(island, island.colors)
        number = choose_orientation(state)
        if number is None:
            continue
        sigma = orientation(sorted(board.colors_used()), number)
        pair = winding_pair(state, sigma)
        for rep, color, merged in merging_moves(state):
            if merged == state.reps:
                continue
            after = winding_bound_after(pair, state, merged, color, sigma)
            child_state = apply_merge(state, rep, color, merged)
            assert after <= winding_bound(child_state, sigma)
            cell = (graph.cells[regions[rep]] & -graph.cells[regions[rep]]).bit_length() - 1
            child = board.apply(Move(cell // board.columns, cell % board.columns, color))
            child_optimum = bfs_optimum(child, limit=9)
            if child_optimum is not None:
                assert after <= child_optimum, f"\n{board}\nmove {rep}->{color}: {after} > {child_optimum}"
                raised += after > pair_bound_after(far_pairs(state), merged, state.color, color)
                checked += 1
    assert checked >= 300
    assert raised >= 10
