"""The path-flood bound (:mod:`kamivision.solver.pathflood`): its recurrence against
breadth-first search on sequences, the bound against the optimum on small boards, the
compiled twin against the Python one, and the corridor of moves that can lower it."""

import random
from functools import lru_cache
from types import SimpleNamespace

import pytest

from kamivision.graph import bits, build_regions
from kamivision.solver import core, solve
from kamivision.solver.heuristics import diameter_bound, orientation, winding_bound
from kamivision.solver.islands import local_island
from kamivision.solver.pathflood import pair_prints, path_flood_bound
from kamivision.solver.state import Island, apply_merge, contract, key_after, merging_moves

from ..boards import bfs_optimum, island_bfs_optimum, kami_island, random_board, random_region_graph
from ..conftest import machine


def _runs(seq) -> tuple:
    out: list = []
    for c in seq:
        if not out or out[-1] != c:
            out.append(c)
    return tuple(out)


def _flood_by_bfs(seq) -> int:
    """Fewest moves making a path of colors one color, a move recoloring one run."""
    start = _runs(seq)
    seen, front, depth = {start}, [start], 0
    while not any(len(s) == 1 for s in front):
        grown = []
        for s in front:
            for i in range(len(s)):
                for c in set(s) - {s[i]}:
                    t = _runs(s[:i] + (c,) + s[i + 1 :])
                    if t not in seen:
                        seen.add(t)
                        grown.append(t)
        front, depth = grown, depth + 1
    return depth


def _prints(seq) -> int:
    """The strange printer's count, by the recurrence in the module's docstring."""
    s = _runs(seq)

    @lru_cache(None)
    def dp(i: int, j: int) -> int:
        if i > j:
            return 0
        best = 1 + dp(i + 1, j)
        for k in range(i + 1, j + 1):
            if s[k] == s[i]:
                best = min(best, dp(i + 1, k - 1) + dp(k, j))
        return best

    return dp(0, len(s) - 1)


def test_a_paths_flood_number_is_the_printers_count_less_one():
    rng = random.Random(1)
    for _ in range(800):
        seq = [rng.randrange(rng.randint(2, 5)) for _ in range(rng.randint(1, 8))]
        assert _flood_by_bfs(seq) == _prints(seq) - 1, seq


def test_two_walks_joined_at_a_place_print_in_one_stroke_fewer_than_apart():
    """prints(s c t) <= prints(s c) + prints(c t) - 1: the compiled levels leave out the
    splits of pairs already within reach on it (_core/pathflood.c)."""
    rng = random.Random(3)
    tight = 0
    for _ in range(4000):
        colors = rng.randint(2, 4)
        s = [rng.randrange(colors) for _ in range(rng.randint(0, 6))]
        t = [rng.randrange(colors) for _ in range(rng.randint(0, 6))]
        c = [rng.randrange(colors)]
        joined, apart = _prints(s + c + t), _prints(s + c) + _prints(c + t) - 1
        assert joined <= apart, (s, c, t)
        tight += joined == apart
    assert tight > 1000  # often equal: the stroke less is all there is


def test_a_place_put_before_a_walk_ending_in_its_color_costs_no_stroke():
    """prints(c Q) = prints(Q) when Q ends in color c: so a region v of u's color that a
    neighbor of u reaches within k (A(x, v) <= k) is within k of u already, and the
    compiled levels' split test never meets such a pair (_core/pathflood.c)."""
    rng = random.Random(4)
    new_run = 0
    for _ in range(4000):
        colors = rng.randint(2, 4)
        q = [rng.randrange(colors) for _ in range(rng.randint(1, 9))]
        c = q[-1]
        assert _prints([c] + q) == _prints(q), q
        new_run += q[0] != c
    assert new_run > 2000  # mostly a run of its own in front, not one merged into Q's first


def _connected(graph) -> bool:
    seen = frontier = 1
    while frontier:
        grown = 0
        for i in range(len(graph.colors)):
            if frontier >> i & 1:
                grown |= graph.adjacency[i]
        frontier = grown & ~seen
        seen |= grown
    return seen == (1 << len(graph.colors)) - 1


def _islands(rng, count, rows=(2, 4), columns=(2, 4), colors=(2, 4)):
    while count:
        board = random_board(rng, rng.choice(["triangle", "square"]), rng.randint(*rows), rng.randint(*columns),
                             rng.randint(*colors), 0.0)  # fmt: skip
        graph = build_regions(board)
        if _connected(graph):
            count -= 1
            yield graph, contract(Island(bytes(graph.colors), tuple(graph.adjacency)), bytes(graph.colors))


def test_the_bound_never_passes_the_optimum_and_never_falls_below_the_pair_bound():
    """On 600 small islands: at most the breadth-first optimum, at least the pair bound
    of the sweeps, and above it on some (else the bound would add nothing)."""
    rng = random.Random(2)
    above = 0
    for graph, state in _islands(rng, 600, rows=(2, 4), columns=(2, 3)):
        optimum = island_bfs_optimum(graph.colors, graph.adjacency, limit=8)
        bound = path_flood_bound(state)
        assert optimum is None or bound <= optimum, (graph.colors, graph.adjacency)
        assert bound >= diameter_bound(state)
        above += bound > diameter_bound(state)
        assert path_flood_bound(state, need=bound) == bound
        if bound:
            assert path_flood_bound(state, need=bound - 1) == bound - 1
    assert above >= 8


def test_the_winding_bound_never_passes_the_path_flood_bound_in_any_orientation():
    """The core leaves the winding bound out where it takes the path-flood bound
    (``state_bound`` in ``_core/batch.c``): that loses nothing only because the winding
    bound is never above it.  On 300 islands of 3 to 5 colors, in every orientation of
    their colors (24 drawn of the 1,024 for five); above the pair bound on some (else the
    check would say little)."""
    rng = random.Random(21)
    above = 0
    for graph, state in _islands(rng, 300, rows=(2, 5), columns=(2, 4), colors=(3, 5)):
        flood = path_flood_bound(state)
        colors = sorted(set(graph.colors))
        every = range(2 ** (len(colors) * (len(colors) - 1) // 2))
        for number in every if len(every) <= 64 else rng.sample(every, 24):
            wind = winding_bound(state, orientation(colors, number))
            assert wind <= flood, (graph.colors, graph.adjacency, number)
            above += wind > diameter_bound(state)
    assert above >= 20


def test_the_final_color_never_passes_the_optimum_and_raises_the_bound_on_some():
    """On 600 small islands: the bound with the final color is at most the breadth-first
    optimum, and on a quarter of them, with a goal color, at most the optimum that ends in
    it; it is one above the bound without on some islands (else it would add nothing).
    (The slow check of the search with the bound covers 2 to 5 colors on 2,000 boards.)"""
    rng = random.Random(12)
    raised = 0
    for i, (graph, state) in enumerate(_islands(rng, 600, rows=(2, 4), columns=(2, 3), colors=(2, 4))):
        optimum = island_bfs_optimum(graph.colors, graph.adjacency, limit=8)
        plain, bound = path_flood_bound(state), path_flood_bound(state, final=True)
        assert optimum is None or bound <= optimum, (graph.colors, graph.adjacency)
        assert bound - plain in (0, 1)
        raised += bound > plain
        if i % 4 == 0:
            goal = rng.randrange(max(graph.colors) + 2)  # sometimes a color not on the island
            optimum = island_bfs_optimum(graph.colors, graph.adjacency, limit=8, goal=goal)
            assert optimum is None or path_flood_bound(state, goal=goal, final=True) <= optimum, (graph.colors, goal)
    assert raised >= 60


def _least_over_paths(state, u: int, v: int) -> int:
    """The least strange-printer count over the simple paths from region ``u`` to ``v``
    (representatives), every path tried."""
    best, stack = None, [(u, (state.color[u],), 1 << u)]
    while stack:
        at, seq, used = stack.pop()
        if at == v:
            count = _prints(seq)
            best = count if best is None else min(best, count)
            continue
        for nxt in bits(state.adj[at]):
            if not used >> nxt & 1:
                stack.append((nxt, seq + (state.color[nxt],), used | 1 << nxt))
    return best


def test_each_pairs_count_is_the_least_over_its_paths():
    """``A(u, v)`` from the levels is the least ``prints`` over the ``u``-``v`` paths, every
    simple path tried, for every pair of 150 small islands (walks need not be tried: a
    walk's colors hold a path's as a subsequence, the module's docstring)."""
    for graph, state in _islands(random.Random(8), 150, rows=(2, 4), columns=(2, 4), colors=(2, 4)):
        reps = list(bits(state.reps))
        table = pair_prints(state)
        for i, u in enumerate(reps):
            for j, v in enumerate(reps):
                assert table[i][j] == _least_over_paths(state, u, v), (graph.colors, graph.adjacency, u, v)


def test_the_compiled_levels_equal_the_python_ones_pair_by_pair():
    """The compiled levels against the Python ones for every pair, not only their largest
    (the bound, which a wrong level for a pair that is not the farthest leaves as it is),
    on 300 islands and on two of more than 128 regions; and symmetric, as the corridor's
    trace reads A(x, v) from v's set."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(9)
    islands = [*_islands(rng, 300, rows=(2, 10), columns=(2, 8), colors=(2, 5))]
    islands += [*_islands(rng, 2, rows=(20, 30), columns=(12, 20), colors=(4, 5))]  # sets of two words and more
    for graph, state in islands:
        table = core.path_flood_pairs(core.graph(bytes(graph.colors), graph.adjacency))
        assert table == pair_prints(state)
        assert table == [list(column) for column in zip(*table)]
    assert max(len(graph.colors) for graph, _ in islands) > 128


def test_a_path_needs_its_flood_number():
    """a b a c in a row: recolor b to a, then c (or a to c): 2 moves."""
    colors = bytes([0, 1, 0, 2])
    adjacency = (0b10, 0b101, 0b1010, 0b100)
    assert path_flood_bound(contract(Island(colors, adjacency), colors)) == 2


def test_regions_not_connected_are_refused():
    colors = bytes([0, 1])
    with pytest.raises(ValueError, match="not connected"):
        path_flood_bound(contract(Island(colors, (0, 0)), colors))


@pytest.mark.parametrize(
    "seed, count, rows, columns, colors, widths",
    [(3, 600, (2, 10), (2, 8), (2, 5), {1}), (4, 16, (8, 30), (10, 20), (3, 5), {2, 3, 4})],
    ids=["small", "wide"],
)
def test_the_compiled_bound_equals_the_python_one(seed, count, rows, columns, colors, widths):
    """On small islands, and on islands of 65 to 330 regions: the compiled levels are
    specialised for sets of one, two and three words (64, 128, 192 regions), generic beyond.
    The same with the final color, which raises the bound on some of them."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    seen = set()
    raised = 0
    for graph, state in _islands(random.Random(seed), count, rows=rows, columns=columns, colors=colors):
        packed = core.graph(bytes(graph.colors), graph.adjacency)
        expected = path_flood_bound(state)
        assert core.path_flood(packed) == expected
        for need in range(expected + 2):
            assert core.path_flood(packed, need) == min(need, expected)
        final = path_flood_bound(state, final=True)
        assert core.path_flood(packed, -1, True) == final
        for need in range(final + 2):
            assert core.path_flood(packed, need, True) == min(need, final)
        raised += final > expected
        seen.add((len(graph.colors) + 63) // 64)
    assert widths <= seen
    assert raised


def test_the_compiled_search_with_the_bound_finds_the_optimum():
    """The A* and the sweep with the bound, against breadth-first search; the sweep also
    with the bound near the root only (``flood_depth``, a race's way without it)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(4)
    expanded = dict.fromkeys((None, 0, 1, 2), 0)
    for graph, _ in _islands(rng, 200, rows=(3, 4), columns=(2, 3), colors=(2, 4)):
        optimum = island_bfs_optimum(graph.colors, graph.adjacency, limit=8)
        if optimum is None or optimum == 0:
            continue
        packed = core.graph(bytes(graph.colors), graph.adjacency)
        found = core.astar(packed, path_flood=True, max_nodes=200_000)
        assert found.status == core.Status.FOUND and len(found.path) == optimum
        for depth in (None, 0, 1, 2):
            assert core.sweep(packed, within=optimum, path_flood=True, flood_depth=depth).status == core.Status.FOUND
            none = core.sweep(packed, within=optimum - 1, path_flood=True, flood_depth=depth)
            assert none.status == core.Status.NONE
            expanded[depth] += none.expanded
    # Taken at fewer depths, it prunes less: it is taken (the counts differ).
    assert expanded[None] < expanded[0], expanded


def _after_moves(rng, graph, state, moves):
    """The state ``moves`` random merging moves after ``state`` (fewer when one region is left)."""
    island = Island(bytes(graph.colors), tuple(graph.adjacency))
    key = bytes(graph.colors)
    for _ in range(moves):
        options = merging_moves(state)
        if not options:
            break
        rep, color, _ = rng.choice(options)
        key = key_after(key, state.members[rep], color)
        state = contract(island, key)
    return key, state


def _check_corridor(key, graph, state, compiled: bool = False) -> tuple[int, int, int]:
    """Check the corridor lemma on the state's every merging move: a move of a region to a
    color outside its corridor leaves the bound where it was.  Returns (moves outside,
    moves, moves outside whose region the corridor keeps for another color).  The bound
    after a move is the Python one, or with ``compiled`` the compiled one (equal to it
    pair by pair, and fast enough for thousands of graphs)."""
    bound, corridor = core.path_flood_corridor(core.graph(key, graph.adjacency))
    if not compiled:
        assert bound == path_flood_bound(state)
    moves = merging_moves(state)
    if bound == 0:
        assert corridor is None
        return 0, len(moves), 0
    assert corridor is not None
    outside = by_color = 0
    for rep, color, merged in moves:
        if not corridor[rep] >> color & 1:
            outside += 1
            by_color += corridor[rep] != 0
            if compiled:
                after = core.path_flood(core.graph(key_after(key, state.members[rep], color), graph.adjacency))
            else:
                after = path_flood_bound(apply_merge(state, rep, color, merged))
            assert after >= bound, (key, graph.adjacency, rep, color)
    return outside, len(moves), by_color


def test_a_move_outside_the_corridor_keeps_the_bound():
    """The corridor lemma (``pathflood.c``, ``pf_corridor``) against the bound worked out
    after each move, on 250 islands up to 6 x 6 and on states a few moves into them; the
    corridor leaves out some moves (else it would prune nothing), and some of them only
    for their color (a region it keeps for another)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(5)
    outside = total = by_color = 0
    for graph, state in _islands(rng, 250, rows=(2, 6), columns=(2, 6), colors=(2, 5)):
        key, state = _after_moves(rng, graph, state, rng.randrange(3))
        o, t, c = _check_corridor(key, graph, state)
        outside, total, by_color = outside + o, total + t, by_color + c
    assert total > 2000 and outside > total // 4 and by_color > total // 20, (outside, total, by_color)


def test_a_move_outside_the_corridor_keeps_the_bound_on_graphs_no_board_makes():
    """The corridor lemma on 8,000 random graphs of 4 to 12 regions (trees, often with
    more edges), each move checked against the compiled bound after it (76,853 moves,
    49,638 of them outside).  Boards' graphs are planar and of low degree; these need
    not be, and they reach ways of the trace that boards reach rarely: with the colors
    after a split left out of the strokes after x (pf_chain), every other test here but
    the slow one passed, and this one failed."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(11)
    outside = total = 0
    for _ in range(8000):
        colors, adjacency = random_region_graph(rng, rng.randint(4, 12))
        graph = SimpleNamespace(colors=bytes(colors), adjacency=tuple(adjacency))
        state = contract(Island(graph.colors, graph.adjacency), graph.colors)
        o, t, _ = _check_corridor(graph.colors, graph, state, compiled=True)
        outside, total = outside + o, total + t
    assert total > 40000 and outside > total // 2, (outside, total)


def test_a_corridor_asked_about_some_moves_answers_as_for_all():
    """The sweep asks the corridor about the moves its cheaper bounds keep only, and the
    trace stops once none of them is left: each move asked about gets the answer it gets
    when every move is asked about, on 250 islands and states a few moves into them."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(7)
    narrowed = asked_total = 0
    for graph, state in _islands(rng, 250, rows=(2, 6), columns=(2, 6), colors=(2, 5)):
        key, state = _after_moves(rng, graph, state, rng.randrange(3))
        g = core.graph(key, graph.adjacency)
        _, full = core.path_flood_corridor(g)
        if full is None:
            continue
        for share in (0.1, 0.5):
            asked = [0] * len(key)
            for rep, color, _ in merging_moves(state):
                if rng.random() < share:
                    asked[rep] |= 1 << color
            _, some = core.path_flood_corridor(g, asked)
            assert some == [f & a for f, a in zip(full, asked)], (key, graph.adjacency, asked)
            asked_total += sum(map(int.bit_count, asked))
            narrowed += sum((a & ~f).bit_count() for f, a in zip(full, asked))
    assert narrowed > asked_total // 4, (narrowed, asked_total)


def test_a_corridor_at_the_levels_last_keeps_the_bound():
    """A line of regions in two alternating colors whose largest A is 64, the last level
    the compiled levels hold (bound 63): the corridor's trace reads the splits under it
    too (a shift by 64 once read none, and a move outside the corridor lowered the
    bound)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    for n in (126, 127):
        colors = bytes(i % 2 for i in range(n))
        adjacency = tuple((1 << i - 1 if i else 0) | (1 << i + 1 if i + 1 < n else 0) for i in range(n))
        graph = SimpleNamespace(colors=colors, adjacency=adjacency)
        assert core.path_flood(core.graph(colors, adjacency)) == 63
        _, moves, _ = _check_corridor(colors, graph, contract(Island(colors, adjacency), colors))
        assert moves == n


#: Board sizes by number of colors for the exhaustive check.
SIZES = {2: [(4, 4), (3, 5), (5, 3)], 3: [(4, 4), (3, 4), (4, 3)], 4: [(3, 4), (4, 3), (3, 3)], 5: [(3, 3), (2, 4)]}


@pytest.mark.slow
def test_the_search_with_the_bound_and_its_corridor_equals_breadth_first_search():
    """On 2,000 random boards, 2 to 5 colors, some in several islands (blank cells): the
    solver with the path-flood bound and its corridor proves the breadth-first optimum,
    and the corridor lemma holds on every move of every island."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(6)
    settings = machine(path_flood=True)
    boards = outside = 0
    while boards < 2000:
        lattice, colors = rng.choice(["triangle", "square"]), rng.randint(2, 5)
        rows, columns = rng.choice(SIZES[colors])  # breadth-first search stays quick
        board = random_board(rng, lattice, rows, columns, colors, rng.choice([0.0, 0.0, 0.15, 0.3]))
        expected = bfs_optimum(board, limit=9)
        if expected is None:
            continue
        solution = solve(board, settings=settings)
        assert solution.optimal and solution.length == expected, board
        graph = build_regions(board)
        for mask in graph.islands():
            island, _ = local_island(graph, mask)
            if len(island) > 1:
                outside += _check_corridor(island.colors, island, contract(island, island.colors))[0]
        boards += 1
    assert outside > 1000


def test_with_the_bound_the_core_looks_at_ctrl_c_and_the_clock_sixteen_times_as_often():
    """An expansion with the path-flood bound costs up to 400 us: at one look every 4096
    expansions, Ctrl-C and the time limit waited up to 1.7 s on Threegrid5.  With the
    bound, the A* looks every 256 (the progress calls show when); the sweep looks after
    each chunk of 128 parents as well, expanded or not (test_core.py)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    _, island, optimum = kami_island(1)
    packed = core.graph(island.colors, island.adjacency)
    for flood, every in ((True, 256), (False, 4096)):
        for search in (core.sweep, core.astar):
            seen: list = []

            def progress(expanded, *rest):
                seen.append(expanded)

            if search is core.sweep:
                answer = search(packed, within=len(optimum) - 1, paths=False, path_flood=flood, progress=progress)
            else:
                answer = search(packed, path_flood=flood, progress=progress)
            if search is core.sweep:
                assert seen and max(b - a for a, b in zip(seen, seen[1:])) <= 128, flood
            else:
                assert seen and all(expanded % every == 0 for expanded in seen), (flood, search)
                assert flood is False or any(expanded % 4096 for expanded in seen)
            assert answer.expanded >= max(seen)
