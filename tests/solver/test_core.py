"""The compiled core (:mod:`kamivision.solver.core`), and the handover to its sweeps
(:mod:`kamivision.solver.proof`)."""

import json
import random

import pytest

from kamivision.board import make_board
from kamivision.graph import bits, build_regions
from kamivision.report import stopped_sentence
from kamivision.solver import astar, core, limits, proof, solve, state
from kamivision.solver.islands import local_island

from ..boards import (
    bfs_optimum,
    island_bfs_optimum,
    kami_island,
    random_board,
    random_kami_board,
    random_region_graph,
    replay,
)
from ..conftest import machine


def test_compiled_core_is_built_where_a_compiler_exists():
    """The core is optional for users, but a machine with gcc must have built it."""
    import shutil

    if shutil.which("gcc") is None:
        pytest.skip("no C compiler here: the pure-Python search is in use")
    assert core.AVAILABLE, "gcc is on PATH but kamivision.solver._core was not built"


def test_a_package_without_its_compiled_parts_solves_in_pure_python(tmp_path):
    """Installed without a C compiler, the package holds the core's C sources but no
    compiled module: the folder ``_core/`` imported as a namespace package, and every
    KAMI solve ended in an AttributeError.  A copy of the package without its compiled
    files must say the core is not there and solve with the Python search."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import kamivision

    source = Path(kamivision.__file__).parent
    shutil.copytree(source, tmp_path / "kamivision", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    script = (
        "import json, kamivision.solver.core as c\n"
        "assert not c.AVAILABLE, c._core\n"
        "from kamivision.board import make_board\n"
        "from kamivision.solver import solve\n"
        "b = make_board([[0, 1, 0], [1, 2, 1], [0, 1, 0]], lattice='square')\n"
        "r = solve(b)\n"
        "print(json.dumps([r.optimal, len(r.moves)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    optimal, moves = json.loads(done.stdout)
    assert optimal and moves == bfs_optimum(make_board([[0, 1, 0], [1, 2, 1], [0, 1, 0]], lattice="square"))


@pytest.mark.slow
def test_two_threads_give_the_same_answers_as_one():
    """The compiled core shares each batch of A* expansions with a helper thread but stores
    their children in a fixed order, so the answer and the count of states expanded must
    not depend on the number of threads, also when a node limit stops it.  When memory is
    full both threads take open states for the depth-first phase: the answer is still the
    same (the first open state with a solution wins), only the count may vary."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(2026)
    boards = [random_kami_board(rng, colors=rng.choice([4, 5]), blank_outline=rng.random() < 0.5) for _ in range(7)]
    full = machine().max_bytes
    cases = [(board, {}, full) for board in boards] + [(boards[-1], {"max_nodes": 1000}, full)]
    cases += [(board, {}, 200_000) for board in boards[-3:]]
    runs, counts = {}, {}
    for threads in (1, 2):
        runs[threads], counts[threads] = [], []
        for board, kwargs, memory in cases:  # no disk: depth-first once memory is full
            s = solve(board, **kwargs, settings=machine(threads=threads, max_bytes=memory, max_disk_bytes=0))
            runs[threads].append((s.moves, s.optimal, s.lower_bound))
            counts[threads].append(s.expanded)
    assert runs[1] == runs[2]
    assert counts[1][: len(boards) + 1] == counts[2][: len(boards) + 1]
    assert not runs[1][len(boards)][1]  # the node limit stopped it
    assert runs[1][-1][1] and min(counts[1][-1], counts[2][-1]) > 100_000  # proven depth-first


@pytest.mark.parametrize("threads", [1, 2])
def test_limits_stop_the_depth_first_phase(threads):
    """With memory full at once, a time limit and Ctrl-C still stop the search (on two
    threads the main thread watches them while the helper searches)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    settings = machine(threads=threads, max_bytes=100_000)
    board = random_board(random.Random(3), "triangle", 29, 10, 4, 0.0)  # ~200 regions: hours
    timed = solve(board, max_seconds=1.0, settings=settings)
    assert not timed.optimal and not timed.interrupted  # stopped by its limit (no other was set)
    assert stopped_sentence(timed) == "The time limit stopped the search"
    assert replay(board, timed.moves).is_solved()
    calls: list = []
    interrupted = solve(board, progress=_interrupt_at_first_report(calls), settings=settings)
    assert interrupted.interrupted and not interrupted.optimal and len(calls) == 1


@pytest.mark.slow
def test_a_better_solution_found_when_memory_fills_ends_the_proof_early():
    """``improve`` is called once, with the bound proven, when the compiled core's memory
    is full.  An optimal solution it returns becomes the limit: the depth-first phase stops
    when its bound reaches that length (fewer expansions than searching a last threshold
    for a solution), and the answer is that solution.  None changes nothing, and Ctrl-C
    inside it stops the search like a limit."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board, island, optimum = kami_island(1)  # > 20,000 states
    worse = (len(optimum) + 2, optimum + optimum[-1:] * 2)  # a longer upper bound, as a quick flood gives
    # Full at once: depth-first from the root, on one thread (depth-first counts vary on two).
    tight = machine(max_bytes=1, threads=1, max_disk_bytes=0)
    calls: list = []

    def improve(bound):
        calls.append(bound)
        return optimum

    plain = limits.Budget(settings=tight)
    assert len(astar.astar(island, plain, upper=worse)) == len(optimum)
    helped = limits.Budget(settings=tight)
    assert astar.astar(island, helped, upper=worse, improve=improve) == optimum
    assert len(calls) == 1 and calls[0] <= len(optimum)
    assert helped.expanded < plain.expanded
    idle = limits.Budget(settings=tight)
    assert len(astar.astar(island, idle, upper=worse, improve=lambda bound: None)) == len(optimum)
    assert idle.expanded == plain.expanded

    partly = machine(max_bytes=200_000, threads=1, max_disk_bytes=0)  # full after some expansions
    seen_by_improve: list = []
    counted = limits.Budget(settings=partly)

    def watch(bound):
        seen_by_improve.append(counted.expanded)  # what its progress reports would show
        return None

    astar.astar(island, counted, upper=worse, improve=watch)
    assert len(seen_by_improve) == 1 and 0 < seen_by_improve[0] <= counted.expanded

    def interrupt(bound):
        raise KeyboardInterrupt

    stopped = limits.Budget(settings=partly)
    with pytest.raises(limits.SearchStopped):
        astar.astar(island, stopped, upper=worse, improve=interrupt)
    assert stopped.interrupted


def _interrupt_at_first_report(calls: list):
    """A progress callback that raises KeyboardInterrupt, as Ctrl-C can inside it."""

    def progress(info: dict) -> None:
        calls.append(info)
        raise KeyboardInterrupt

    return progress


def _sweep(island, goal, target, paths, threads=1, commute=True, spill_dir=None, spilled=None):
    """The compiled sweep on one island, without limits: (status, path, expanded, length).
    ``commute=False`` takes commuting moves in both orders; with ``spill_dir``, it has 4 kB
    of memory, and the region counts go to disk there (``_core/spill.c``): ``spilled``, a
    list, gets the most bytes they took."""
    answer = core.sweep(
        core.graph(island.colors, island.adjacency),
        within=target,
        goal=goal,
        paths=paths,
        threads=threads,
        commute=commute,
        max_bytes=None if spill_dir is None else 4_000,
        spill_dir=spill_dir,
        max_disk=1 << 30,
    )
    if spilled is not None:
        spilled.append(answer.disk)
    return answer.status, answer.path, answer.expanded, answer.bound


def _end_of(island, path):
    """The colors of the island's regions after the moves of ``path`` (one region left)."""
    key = island.colors
    for rep, color in path:
        key = state.key_after(key, state.contract(island, key).members[rep], color)
    end = state.contract(island, key)
    assert end.reps & (end.reps - 1) == 0, "the moves do not leave one region"
    return end.color[end.reps.bit_length() - 1]


@pytest.mark.slow
def test_the_sweep_equals_exhaustive_search_on_random_small_boards(tmp_path):
    """The sweep by region count (the last threshold once the A*'s memory is full) finds
    the optimum at threshold T = optimum, with its moves (keeping them) or its length
    (keys only), finds it again at T = optimum + 1, and finds nothing at T = optimum - 1:
    on both lattices, against breadth-first search, and with a goal color against the
    A* with that goal (the same merging moves; breadth-first search also recolors to
    colors no neighbor has, which can reach a goal color sooner).  With every region
    count read back from disk, in parts, the answers are the same (or the sweep stops for
    memory, never with another answer), and so are the states a proof expands."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(23112026)
    checked, spilled = 0, []
    for _ in range(400):
        lattice = rng.choice(["triangle", "square"])
        rows, columns = rng.choice([(3, 3), (3, 4), (4, 4), (4, 3), (2, 5), (5, 3)])
        board = random_board(rng, lattice, rows, columns, rng.choice([3, 4]), 0.0)
        graph = build_regions(board)
        island, _ = local_island(graph, graph.islands()[0])
        goal = rng.choice([None, *sorted(set(island.colors))])
        if goal is None:
            expected = bfs_optimum(board, limit=9)
        else:
            expected = len(astar.astar(island, limits.Budget(), goal_color=goal))
        if not expected:
            continue
        status, path, _, length = _sweep(island, goal, expected, 1)
        assert status == 0 and len(path) == length == expected, board
        end = _end_of(island, path)
        assert goal is None or end == goal
        assert _sweep(island, goal, expected, 0)[::3] == (0, expected)
        assert len(_sweep(island, goal, expected + 1, 1)[1]) == expected
        assert _sweep(island, goal, expected - 1, 0)[0] == 1, board
        for target, paths in [(expected, 1), (expected - 1, 0)]:  # two threads, or on disk: the same
            one, two = _sweep(island, goal, target, paths), _sweep(island, goal, target, paths, threads=2)
            assert two[0] == one[0] and two[2:] == one[2:], board
            disk = _sweep(island, goal, target, paths, spill_dir=str(tmp_path), spilled=spilled)
            if disk[0] == core.Status.MEMORY:  # a part and its children did not fit in 4 kB
                spilled[-1] = 0
                continue
            assert disk[0] == one[0] and disk[3] == one[3], board
            if paths:  # found: its moves (the order within a region count, and so the count, may differ)
                assert len(disk[1]) == expected and (goal is None or _end_of(island, disk[1]) == goal)
            else:  # a proof expands every state within T, once
                assert disk[2] == one[2], board
        checked += 1
    assert checked >= 200
    assert sum(1 for bytes_ in spilled if bytes_) >= checked  # most sweeps went to disk, and ended


@pytest.mark.slow
def test_the_sweep_takes_commuting_moves_in_one_order_and_loses_nothing():
    """Skipping the second order of two commuting moves (see ``_core/sweep.c``)
    keeps every answer of the sweep that takes both orders, on random boards of both
    lattices with nothing within T and with a solution at T; it never expands more states,
    and on some boards fewer (a state reached only through skipped orders is not made)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(24112026)
    fewer = checked = 0
    for _ in range(150):
        lattice = rng.choice(["triangle", "square"])
        rows, columns = rng.choice([(4, 4), (4, 5), (5, 5), (5, 4), (3, 7)])
        board = random_board(rng, lattice, rows, columns, rng.choice([3, 4, 5]), 0.0)
        graph = build_regions(board)
        island, _ = local_island(graph, graph.islands()[0])
        if len(island) < 2:
            continue
        optimum = len(astar.astar(island, limits.Budget()))
        for target in (optimum - 1, optimum):
            one, both = _sweep(island, None, target, 0), _sweep(island, None, target, 0, commute=0)
            assert one[0] == both[0] == (0 if target == optimum else 1), board
            assert one[3] == both[3] and one[2] <= both[2], board
            fewer += one[2] < both[2]
        checked += 1
    assert checked >= 100 and fewer > 0


def _tap(island, key: bytes, region: int, color: int) -> tuple[bytes, int]:
    """The key after the move that taps the region holding original region ``region``
    with ``color``, and that move's name (the region's representative)."""
    now = state.contract(island, key)
    rep = next(r for r in bits(now.reps) if now.members[r] >> region & 1)
    return state.key_after(key, now.members[rep], color), rep


def test_the_commuting_rule_skips_only_moves_that_commute():
    """The sweep's rule (``_core/sweep.c``): after a move m that tapped region R of color
    c_R with color c and made region M, a move m' tapping r' with color c' is made in the
    other order too when r' is outside N[M], or next to M with c' neither c nor c_R.  On
    every such pair of merging moves of random states, both orders reach the same state
    and each move keeps its name; and the colors' condition is needed: next to M with c'
    = c_R, the orders differ on some."""
    rng = random.Random(3011)
    same = near = differ = 0
    for _ in range(60):
        board = random_board(rng, rng.choice(["triangle", "square"]), 4, 5, rng.choice([3, 4]), 0.0)
        graph = build_regions(board)
        island, _ = local_island(graph, graph.islands()[0])
        p = state.contract(island, island.colors)
        for r, c, merged in state.merging_moves(p):
            if merged == p.reps:
                continue
            c_r = p.color[r]
            key_q = state.key_after(island.colors, p.members[r], c)
            q = state.contract(island, key_q)
            made = next(x for x in bits(q.reps) if q.members[x] >> r & 1)
            around = q.adj[made] | 1 << made
            for r2, c2, merged2 in state.merging_moves(q):
                next_to = bool(around >> r2 & 1)
                if r2 == made or next_to and c2 == c:
                    continue
                if next_to and c2 == c_r:  # the case the rule leaves out
                    after_first, _ = _tap(island, _tap(island, island.colors, r2, c2)[0], r, c)
                    differ += after_first != _tap(island, key_q, r2, c2)[0]
                    continue
                one, name2 = _tap(island, key_q, r2, c2)  # m, then m'
                first, name2_first = _tap(island, island.colors, r2, c2)  # m', then m
                other, name_after = _tap(island, first, r, c)
                assert (one, name2) == (other, name2_first) and name_after == r, (board, (r, c), (r2, c2))
                same += 1
                near += next_to
    assert same > 1000 and near > 100 and differ > 10


def test_the_commuting_rule_loses_no_state():
    """With a goal color no move can reach and a threshold no bound can pass, the sweep
    expands every state that merging moves reach; the commuting rule (``_core/sweep.c``)
    must reach each of them by its other order, so it expands as many states as the sweep
    that takes both orders, with symmetry and without, on random boards of both lattices.
    (The rule without its color condition next to M loses states on 176 of these 199; with
    the leaf rule, skipping moves as commuting at a star too, where leaves are tapped,
    loses states on 102.)"""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(5)
    checked = 0
    for _ in range(200):
        board = random_board(rng, rng.choice(["triangle", "square"]), 3, rng.randint(3, 4), rng.choice([3, 4]), 0.0)
        graph = build_regions(board)
        island, _ = local_island(graph, graph.islands()[0])
        if len(island) < 3:
            continue
        packed = core.graph(island.colors, island.adjacency)
        for symmetry in (True, False):
            rule, both = (
                core.sweep(packed, within=200, goal=99, paths=False, symmetry=symmetry, commute=commute)
                for commute in (True, False)
            )
            assert rule.status == both.status == core.Status.NONE
            assert rule.expanded == both.expanded, (board, symmetry)
        checked += 1
    assert checked >= 150


def _fewest_merging_moves(island: state.Island, goal, leaf_rule: bool):
    """Breadth-first search over the island's merging moves (those the core makes), with
    the sweep's leaf rule or without: a leaf, a region with one neighbor, is tapped only
    where every region but at most one is a leaf.  The fewest moves to one region (of
    color ``goal`` when given), or None."""
    depth = {island.colors: 0}
    queue = [island.colors]
    for key in queue:
        now = state.contract(island, key)
        if astar.is_goal(now, goal):
            return depth[key]
        leaves = {r for r in bits(now.reps) if now.adj[r] & (now.adj[r] - 1) == 0}
        star = len(leaves) >= now.reps.bit_count() - 1
        for r, c, _ in state.merging_moves(now):
            if leaf_rule and not star and r in leaves:
                continue
            child = state.key_after(key, now.members[r], c)  # its neighbors of color c have it
            if child not in depth:
                depth[child] = depth[key] + 1
                queue.append(child)
    return None


@pytest.mark.slow
def test_the_leaf_rule_keeps_every_optimum():
    """The sweep's leaf rule (``_core/sweep.c``): tapping a leaf only where the rest is one
    region loses no optimum.  On random region graphs with leaves and random boards, taken
    as states, the fewest moves with the rule equal those without, for any final color and
    each one present; and the rule forbids moves on many of them.  (A leaf tapped only by
    the last move, a rule that looks as good, fails at once.)"""
    rng = random.Random(3011261)
    cut = checked = 0
    for trial in range(160):
        if trial % 2:
            colors, adjacency = random_region_graph(rng, rng.randint(4, 8))
            island = state.Island(bytes(colors), tuple(adjacency))
        else:
            board = random_board(rng, rng.choice(["triangle", "square"]), 3, 4, rng.choice([3, 4]), 0.0)
            graph = build_regions(board)
            island, _ = local_island(graph, graph.islands()[0])
        if len(set(island.colors)) == 1:
            continue
        for goal in [None, *sorted(set(island.colors))]:
            free, ruled = (_fewest_merging_moves(island, goal, rule) for rule in (False, True))
            assert free == ruled, (island, goal)
        now = state.contract(island, island.colors)
        leaves = {r for r in bits(now.reps) if now.adj[r] & (now.adj[r] - 1) == 0}
        cut += len(leaves) < now.reps.bit_count() - 1 and bool(leaves)
        checked += 1
    assert checked >= 150 and cut >= 60


def test_the_leaf_rule_gives_the_sweeps_answers_with_fewer_states():
    """The compiled sweep with the leaf rule and without: the same answer at the optimum
    and one under it, never more states expanded, and fewer on many random graphs."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(112630)
    fewer = checked = 0
    for _ in range(150):
        colors, adjacency = random_region_graph(rng, rng.randint(5, 10))
        if len(set(colors)) == 1:
            continue
        packed = core.graph(bytes(colors), adjacency)
        optimum = core.sweep(packed, within=20, leaves=False).bound
        for within in (optimum, optimum - 1):
            ruled, free = (core.sweep(packed, within=within, paths=False, leaves=rule) for rule in (True, False))
            assert ruled.status == free.status, (colors, adjacency, within)
            assert ruled.expanded <= free.expanded, (colors, adjacency, within)
            fewer += ruled.expanded < free.expanded
        checked += 1
    assert checked >= 140 and fewer >= 50


@pytest.mark.slow
def test_the_sweep_equals_exhaustive_search_on_random_region_graphs():
    """Random connected graphs of 4 to 10 regions (trees, and trees with more edges), 2 to
    5 colors, neighbors often of one color: the sweep on one thread and two finds the
    breadth-first optimum at T = optimum, with its moves, and nothing within one less
    (keys only, with symmetry).  Graphs no board draws put moves next to each other in
    every way, which the commuting rule (``_core/sweep.c``) must survive: skipping a move
    whatever region it taps makes this test fail."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(301126)
    checked = 0
    for _ in range(600):
        colors, adjacency = random_region_graph(rng, rng.randint(4, 10))
        if len(set(colors)) == 1:
            continue
        optimum = island_bfs_optimum(colors, adjacency, limit=11)
        packed = core.graph(bytes(colors), adjacency)
        for threads in (1, 2):
            found = core.sweep(packed, within=optimum, threads=threads)
            assert found.status == core.Status.FOUND and len(found.path) == found.bound == optimum, (colors, adjacency)
            none = core.sweep(packed, within=optimum - 1, paths=False, threads=threads)
            assert none.status == core.Status.NONE, (colors, adjacency)
        checked += 1
    assert checked >= 550


@pytest.mark.slow
def test_the_sweep_with_the_winding_bound_equals_exhaustive_search():
    """With the winding bound (the orientation the solver would choose) and without the
    path-flood bound, as the solver's sweeps run deep down, each state keeps a second far
    pair for its children's bounds (``_core/winding.c``, ``second_pair``): on random
    region graphs of 3 to 5 colors, the sweep finds the breadth-first optimum at
    T = optimum and nothing within one less, on one thread and two.  A second pair's
    bound one too high makes this test fail."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(301127)
    checked = 0
    while checked < 400:
        colors, adjacency = random_region_graph(rng, rng.randint(6, 12))
        packed = core.graph(bytes(colors), adjacency)
        orientation = core.choose_orientation(packed)
        if len(set(colors)) < 3 or orientation < 0:
            continue
        optimum = island_bfs_optimum(colors, adjacency, limit=11)
        for threads in (1, 2):
            found = core.sweep(packed, within=optimum, orientation=orientation, threads=threads)
            assert found.status == core.Status.FOUND and len(found.path) == optimum, (colors, adjacency)
            none = core.sweep(packed, within=optimum - 1, orientation=orientation, paths=False, threads=threads)
            assert none.status == core.Status.NONE, (colors, adjacency)
        checked += 1


@pytest.mark.slow
def test_the_commuting_rule_kept_for_several_ways_in_stores_fewer_states_and_loses_nothing():
    """A state reached with its least g by two to four different moves keeps them all and
    skips a move only when each of them would (``_core/sweep.c``): on random boards of
    both lattices, the answers are those of the rule that keeps one way in (and gives up
    the rule at a second), with never more states expanded or stored, and fewer stored on
    some boards (the larger searches: a state needs two ways in with its least g)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(30112026)
    fewer = checked = 0
    for _ in range(40):
        board = random_board(rng, rng.choice(["triangle", "square"]), 6, 7, 4, 0.0)
        graph = build_regions(board)
        island, _ = local_island(graph, graph.islands()[0])
        packed = core.graph(island.colors, island.adjacency)
        optimum = len(astar.astar(island, limits.Budget()))
        for within in (optimum - 1, optimum):
            one, four = (core.sweep(packed, within=within, paths=False, commute=k) for k in (1, 4))
            assert one.status == four.status == (core.Status.FOUND if within == optimum else core.Status.NONE)
            assert one.bound == four.bound and four.stored <= one.stored, board
            if within < optimum:
                assert four.expanded <= one.expanded, board
                fewer += four.stored < one.stored
        checked += 1
    assert fewer >= 5


@pytest.mark.slow
def test_the_sweep_on_two_threads_expands_the_same_states_as_on_one():
    """The two-thread sweep (a helper works out the next chunk of parents while the main
    thread stores a chunk's children) gives the answer of one thread and expands the same
    number of states, on a board whose layers hold many chunks, with nothing within the
    threshold (keys only, and moves kept); the random boards above compare the two with a
    solution found as well."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)  # ~100,000 states
    graph = build_regions(board)
    island, _ = local_island(graph, graph.islands()[0])
    optimum = len(astar.astar(island, limits.Budget()))
    for paths in (0, 1):
        one, two = _sweep(island, None, optimum - 1, paths), _sweep(island, None, optimum - 1, paths, threads=2)
        assert one[0] == two[0] == 1
        assert one[2] == two[2] > 50_000


@pytest.mark.slow
def test_a_full_memory_proof_sweeps_the_last_threshold_or_goes_depth_first(monkeypatch):
    """When the A*'s stored states fill their share of memory and a solution is known, the
    search frees them and sweeps by region count for a shorter solution with all the memory
    (10 MB here: it fits); when that runs out of memory too (1 MB without disk), the A* runs
    again and goes on depth-first; with disk, the sweep writes its states there and ends.
    With a known solution the A*'s share is at most ``handover_bytes``, however much memory
    there is: 1 MB of A* and a roomy sweep.  All prove the optimum the A* alone proves
    with memory to spare."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)  # ~100,000 states
    roomy = solve(board, settings=machine(handover_bytes=1 << 30))  # the A* alone
    outcomes: list = []
    real = proof._sweep

    def spy(*args):
        result = real(*args)
        outcomes.append(result is not None)
        return result

    monkeypatch.setattr(proof, "_sweep", spy)
    roomy_memory = machine().max_bytes
    cases = [(10_000_000, 1 << 30, 0, True), (1_000_000, 1 << 30, 0, False), (1_000_000, 1 << 30, None, True)]
    cases.append((roomy_memory, 1_000_000, 0, True))
    for memory, handover, disk, swept in cases:
        outcomes.clear()
        settings = machine(max_bytes=memory, handover_bytes=handover, max_disk_bytes=disk)
        solution = solve(board, settings=settings)
        assert outcomes == [swept]
        assert solution.optimal and solution.length == roomy.length == solution.lower_bound
        assert replay(board, solution.moves).is_solved()


@pytest.mark.slow
def test_limits_and_ctrl_c_stop_the_sweep_with_the_bound_proven():
    """The sweeps go up one threshold at a time from the A*'s bound, and each proves
    nothing until it ends: a node limit or Ctrl-C (inside a progress report) stops them
    with the bound proven so far (above the one given once a threshold is refuted, never
    above the optimum), the one their reports show."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board, island, optimum = kami_island(1)  # ~100,000 states
    upper = (len(optimum) + 1, optimum + optimum[-1:])
    args = (core.graph(island.colors, island.adjacency), None, upper)

    for nodes in (1000, 5000, 20_000):
        reports: list = []
        limited = limits.Budget(limits.Limits(max_nodes=nodes, progress=reports.append))
        with pytest.raises(limits.SearchStopped) as stop:
            proof._sweep(*args, [3], limited, [])
        assert 3 < stop.value.bound <= len(optimum) and nodes <= limited.expanded < nodes + 5000
        assert all(info["bound"] <= stop.value.bound for info in reports) and not limited.interrupted
    shown: list = []

    def progress(info: dict) -> None:
        shown.append(info)
        raise KeyboardInterrupt

    interrupted = limits.Budget(limits.Limits(progress=progress))
    with pytest.raises(limits.SearchStopped) as stop:
        proof._sweep(*args, [3], interrupted, [])
    assert 3 <= stop.value.bound <= len(optimum) and interrupted.interrupted
    assert len(shown) == 1 and shown[0]["bound"] == stop.value.bound
    found = proof._sweep(*args, [3], limits.Budget(), [])  # no limit: the optimum, below upper
    assert len(found) == len(optimum)
    _end_of(island, found)


@pytest.mark.slow
def test_installed_without_a_c_compiler_the_command_solves_in_pure_python(tmp_path):
    """Issue 47: ``CC=/bin/false pip install .`` (no build tools, as on many Windows and
    macOS machines) must give a package whose command solves KAMI boards, by the Python
    search.  The source is taken from git (the last commit, as CI's clean clone has it),
    installed by pip with the compiler and the linker failing, and run."""
    import subprocess
    import sys

    from ..install import CHECKOUT, answers, git_source, index_env, smoke_files

    source, target = git_source(tmp_path), tmp_path / "installed"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CC": "/bin/false", "LDSHARED": "/bin/false", **index_env()}
    pip = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "-q",
        "--no-cache-dir",
        "--no-deps",
        "--target",
        str(target),
        str(source),
    ]
    done = subprocess.run(pip, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not list(target.rglob("*.so")), "something was compiled with CC=/bin/false"
    files = smoke_files(tmp_path)
    installed_env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(target), "HOME": str(tmp_path)}
    run = [
        sys.executable,
        "-c",
        "import kamivision.solver.core as c; assert not c.AVAILABLE; from kamivision.cli import main; main()",
    ]
    done = subprocess.run(
        run + ["solve", str(files["patchwork"]), "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=installed_env,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["optimal"] and len(answer["moves"]) == 6  # patchwork: par 6, proven by the compiled core too
    # Said once, on stderr, and by --version.
    notice = [line for line in done.stderr.splitlines() if "installed without" in line]
    assert len(notice) == 1 and "the KAMI search core" in notice[0] and "many times slower" in notice[0], done.stderr
    version = subprocess.run(
        [sys.executable, "-c", "from kamivision.cli import main; main()", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=installed_env,
    )
    assert "the KAMI search core: pure Python (many times slower)" in version.stdout, version.stdout + version.stderr
    # The smoke set, each answer the compiled build's: a screenshot, a Safe Zone
    # level and the 8-puzzle (patchwork above), under a limit of states, not of time.
    rest = {name: files[name] for name in ("lantern", "zone", "eight")}
    limit = ("--max-nodes", "2000000")
    pure = answers(run, tmp_path, rest, *limit, env=installed_env)
    compiled = answers(CHECKOUT, tmp_path, rest, *limit, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    for name in rest:
        got = [(a[name]["optimal"], len(a[name]["moves"])) for a in (pure, compiled)]
        assert got[0] == got[1] and got[0][0] is True, (name, got)


def test_the_sweeps_progress_says_how_far_down_its_region_counts_it_is():
    """The sweep proves nothing until it ends (Bud5's takes minutes): its progress reports
    also give the region count it expands and the one it started from, going down, and
    the command line's line shows them.  The A*'s reports do not."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    from kamivision.report import progress_line

    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)  # ~100,000 states
    graph = build_regions(board)
    island, _ = local_island(graph, graph.islands()[0])
    packed = core.graph(island.colors, island.adjacency)
    optimum = len(astar.astar(island, limits.Budget()))
    calls: list = []
    answer = core.sweep(packed, within=optimum - 1, paths=False, progress=lambda *args: calls.append(args))
    assert answer.status == core.Status.NONE and len(calls) >= 10
    assert {len(args) for args in calls} == {5}
    at = [args[3] for args in calls]
    assert at == sorted(at, reverse=True) and 2 <= at[-1] < at[0] <= len(island.colors)
    assert {args[4] for args in calls} == {len(island.colors)}
    searched: list = []
    core.astar(packed, progress=lambda *args: searched.append(args))
    assert searched and {len(args) for args in searched} == {3}
    # Through a solve whose A* hands the last threshold over to the sweep (at 1 MB here).
    reports: list = []
    solution = solve(board, progress=reports.append, settings=machine(handover_bytes=1_000_000))
    swept = [info for info in reports if "regions" in info]
    assert solution.optimal and swept and len(swept) < len(reports)
    assert {info["regions_from"] for info in swept} == {len(island.colors)}
    last = swept[-1]
    assert f"down to {last['regions']} of {len(island.colors)} regions" in progress_line(last)
    assert not any("down to" in progress_line(info) for info in reports if "regions" not in info)


def test_the_sweep_looks_at_the_clock_after_each_chunk_of_parents_expanded_or_not():
    """With the path-flood bound most parents are evaluated and dropped; looking at the
    clock and Ctrl-C only every 256 expanded states left 10 s between two looks on KAMI 1's
    P39 (a 10 s limit overran by 0.9 s).  Now every chunk of 128 parents (SWEEP_CHUNK in
    _core/sweep.c) ends with a look, so no two reports are 256 expansions apart."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)
    graph = build_regions(board)
    island, _ = local_island(graph, graph.islands()[0])
    packed = core.graph(island.colors, island.adjacency)
    optimum = len(astar.astar(island, limits.Budget()))
    counts: list = []
    answer = core.sweep(
        packed, within=optimum - 1, paths=False, path_flood=True, progress=lambda *args: counts.append(args[0])
    )
    assert answer.status == core.Status.NONE and answer.expanded > 1000
    gaps = [b - a for a, b in zip(counts, counts[1:])]
    assert gaps and max(gaps) <= 128, max(gaps)
    assert gaps.count(0) > 0  # chunks whose parents were all dropped still look


def test_no_look_for_a_shorter_solution_when_the_one_threshold_left_is_the_bound(monkeypatch):
    """At the handover, ``improve`` looks for a solution shorter than the known one; when
    the A*'s bound is already one less than its length, a shorter one would have that
    length, which the sweep finds as fast as it proves there is none: no look then.  At
    two handover sizes both cases come, and every answer is the optimum."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board, island, optimum = kami_island(1)  # ~100,000 states
    upper = (len(optimum), optimum)
    handed: list = []
    real = proof._sweep

    def spy(packed, goal, known, proven, *rest):
        handed.append(proven[0])
        return real(packed, goal, known, proven, *rest)

    monkeypatch.setattr(proof, "_sweep", spy)
    cases = set()
    for handover in (20_000, 2_000_000):  # handed over at bounds 5 and 7 (optimum 8)
        handed.clear()
        looked: list = []
        budget = limits.Budget(settings=machine(handover_bytes=handover, threads=1))
        path = astar.astar(island, budget, upper=upper, improve=looked.append)
        assert len(path) == len(optimum) and len(handed) == 1, handover
        last = handed[0] == len(optimum) - 1
        assert looked == ([] if last else [handed[0]]), handover
        cases.add(last)
    assert cases == {True, False}


def test_ctrl_c_in_the_handovers_look_keeps_what_it_found():
    """Ctrl-C while the handover's look runs stops the search like a limit, with the
    solution the look had found (its beam's ``BeamInterrupted``), not the longer one
    known before it."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    from kamivision.solver.upper import BeamInterrupted

    board, island, optimum = kami_island(1)  # ~100,000 states
    worse = (len(optimum) + 2, optimum + optimum[-1:] * 2)

    def interrupted(bound):
        raise BeamInterrupted(optimum)

    budget = limits.Budget(settings=machine(handover_bytes=20_000, threads=1))
    with pytest.raises(limits.SearchStopped) as stop:
        astar.astar(island, budget, upper=worse, improve=interrupted)
    assert stop.value.path == optimum and budget.interrupted


def test_ctrl_c_in_the_look_when_the_memory_is_full_keeps_what_it_found():
    """Without a known solution, the core calls the look when its memory is full, before
    it goes on depth-first.  Ctrl-C there stops the search like a limit, with what the
    look's beam had found: the core clears the KeyboardInterrupt, and its
    ``BeamInterrupted`` carried the only solution known."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    from kamivision.solver.upper import BeamInterrupted

    board, island, optimum = kami_island(1)  # ~100,000 states: more than 200 kB holds
    looked = []

    def interrupted(bound):
        looked.append(bound)
        raise BeamInterrupted(optimum)

    budget = limits.Budget(settings=machine(max_bytes=200_000, threads=1))
    with pytest.raises(limits.SearchStopped) as stop:
        astar.astar(island, budget, improve=interrupted)
    assert len(looked) == 1 and budget.interrupted
    assert stop.value.path == optimum
