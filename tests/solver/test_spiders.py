"""The spider bound (:mod:`kamivision.solver.spiders`): the printer recurrence against
breadth-first search on spiders alone, the bridges against their definition, the
compiled count against the Python one, the bound against the optimum of every coloring,
and the sweep that prunes with it against breadth-first search."""

import random

import pytest

from kamivision.solver import core
from kamivision.solver.spiders import (
    ARM_RUNS,
    Spider,
    bridges,
    encode,
    fixed_spiders,
    read_arm,
    spider_bound,
    spider_prints,
)

from ..boards import island_bfs_optimum, random_region_graph


def _random_spider(rng: random.Random, most: int) -> tuple[list[int], list[int], Spider]:
    """A graph that is one spider (centre 0, two or three arms) of at most ``most``
    regions, its colors (2 to 4) and the spider."""
    while True:
        lengths = [rng.randint(0, 4) for _ in range(rng.randint(2, 3))]
        if 1 + sum(lengths) <= most:
            break
    colors = [rng.randrange(rng.randint(2, 4)) for _ in range(1 + sum(lengths))]
    adjacency = [0] * len(colors)
    arms, nxt = [], 1
    for length in lengths:
        arm, prev = tuple(range(nxt, nxt + length)), 0
        for r in arm:
            adjacency[r] |= 1 << prev
            adjacency[prev] |= 1 << r
            prev = r
        arms.append(arm)
        nxt += length
    return colors, adjacency, Spider(0, tuple(arms))


def _spiders_equal_bfs(seed: int, count: int) -> int:
    rng = random.Random(seed)
    tight = 0
    for _ in range(count):
        colors, adjacency, sp = _random_spider(rng, 11)
        optimum = island_bfs_optimum(colors, adjacency, limit=12)
        arms = [[colors[r] for r in arm] for arm in sp.arms]
        assert spider_prints(colors[0], arms) - 1 == optimum, (colors, sp)
        tight += optimum >= 3
    return tight


def test_a_spiders_count_less_one_is_its_flood_number():
    """On a graph that is a spider and nothing else, the fewest strokes that print it, less
    one, is the fewest moves that make it one color: the recurrence is exact there, so it
    misses no printing (the direction the bound's soundness needs)."""
    assert _spiders_equal_bfs(1, 300) >= 100


@pytest.mark.slow
def test_a_spiders_count_less_one_is_its_flood_number_on_thousands():
    assert _spiders_equal_bfs(2, 4000) >= 1500


def test_an_arm_is_read_as_runs_with_a_first_run_of_the_centres_color_joined():
    assert read_arm(1, [1, 1, 2, 2, 0, 1, 1]) == [2, 0, 1]
    assert read_arm(0, []) == []


def _bridges_by_removal(adjacency: list[int]) -> list[int]:
    """Each edge whose removal leaves its two ends apart."""
    n = len(adjacency)
    out = [0] * n
    for a in range(n):
        for b in range(a):
            if not adjacency[a] >> b & 1:
                continue
            seen, todo = {a}, [a]
            while todo:
                x = todo.pop()
                for y in range(n):
                    if adjacency[x] >> y & 1 and {x, y} != {a, b} and y not in seen:
                        seen.add(y)
                        todo.append(y)
            if b not in seen:
                out[a] |= 1 << b
                out[b] |= 1 << a
    return out


def test_bridges_are_the_edges_whose_removal_splits_the_graph():
    rng = random.Random(3)
    some = 0
    for _ in range(400):
        _, adjacency = random_region_graph(rng, rng.randint(2, 16))
        assert bridges(adjacency) == _bridges_by_removal(adjacency)
        some += any(bridges(adjacency))
    assert some > 200


def test_the_compiled_count_equals_the_python_one():
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(4)
    high = 0
    for _ in range(600):
        lengths = [rng.randint(0, 9) for _ in range(rng.randint(2, 3))]
        colors = [rng.randrange(rng.randint(2, 5)) for _ in range(1 + sum(lengths))]
        arms, nxt = [], 1
        for length in lengths:
            arms.append(tuple(range(nxt, nxt + length)))
            nxt += length
        sp = Spider(0, tuple(arms))
        value = spider_bound(colors, [sp])
        assert core.spider_bound(bytes(colors), [sp]) == value, (colors, sp)
        high += value >= 5
    assert high > 50
    for _ in range(40):  # an arm of more runs than the core keeps: both cut it alike
        lengths = [rng.randint(ARM_RUNS + 1, ARM_RUNS + 8), rng.randint(0, 3)]
        colors = [0]
        while len(colors) < 1 + sum(lengths):  # each region its own run
            colors.append(rng.choice([c for c in range(3) if c != colors[-1]]))
        sp = Spider(0, (tuple(range(1, 1 + lengths[0])), tuple(range(1 + lengths[0], len(colors)))))
        assert core.spider_bound(bytes(colors), [sp]) == spider_bound(colors, [sp]), (colors, sp)


def _bound_below_optimum(seed: int, count: int) -> tuple[int, int]:
    """Spiders fixed on a random graph's first coloring; the bound of many colorings of
    the same graph (the first and random ones) never exceeds breadth-first search."""
    rng = random.Random(seed)
    checked = positive = 0
    while checked < count:
        colors, adjacency = random_region_graph(rng, rng.randint(4, 10))
        spiders = fixed_spiders(colors, adjacency)
        if not spiders:
            continue
        for coloring in [colors] + [[rng.randrange(4) for _ in colors] for _ in range(2)]:
            optimum = island_bfs_optimum(coloring, adjacency, limit=12)
            value = spider_bound(coloring, spiders)
            assert value <= optimum, (coloring, adjacency, spiders)
            if core.AVAILABLE:
                assert core.spider_bound(bytes(coloring), spiders) == value
            positive += value == optimum and value >= 2
        checked += 1
    return checked, positive


def test_the_bound_never_exceeds_the_optimum_of_any_coloring():
    """The spiders are fixed at the start, and the bound holds for every coloring of the
    graph's regions (so for every state a search meets: step (1) of the module's
    docstring)."""
    assert _bound_below_optimum(5, 150)[1] > 30


@pytest.mark.slow
def test_the_bound_never_exceeds_the_optimum_on_thousands_of_graphs():
    assert _bound_below_optimum(6, 2500)[1] > 500


def test_spiders_are_bridges_and_ranked_by_their_bound():
    rng = random.Random(7)
    for _ in range(100):
        colors, adjacency = random_region_graph(rng, rng.randint(4, 20))
        tree = bridges(adjacency)
        spiders = fixed_spiders(colors, adjacency)
        for sp in spiders:
            assert len(sp.arms) >= 2
            for arm in sp.arms:
                for a, b in zip((sp.centre,) + arm, arm):
                    assert tree[a] >> b & 1
        values = [spider_bound(colors, [sp]) for sp in spiders]
        assert values == sorted(values, reverse=True)


def test_the_sweep_keeps_only_the_spiders_that_reach_the_path_flood_bound_at_the_start():
    """A spider below the path-flood bound at the start is left out (it cost Bud5's sweep
    2-3 s and pruned nothing); the others are kept, in their order."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    rng = random.Random(12)
    kept = dropped = 0
    for _ in range(300):
        colors, adjacency = random_region_graph(rng, rng.randint(5, 24))
        g = core.graph(bytes(colors), adjacency)
        spiders = fixed_spiders(colors, adjacency, bound=core.spider_bound)
        least = core.path_flood(g, final=True)
        wanted = [sp for sp in spiders if spider_bound(colors, [sp]) >= least]
        assert core._spiders(g) == encode(wanted)
        kept += len(wanted)
        dropped += len(spiders) - len(wanted)
    assert kept > 20 and dropped > 20


def _sweep_with_spiders(seed: int, count: int) -> int:
    """The sweep with the spider bound at every depth finds a solution at the optimum and
    none one move shorter (breadth-first search), and expands no more than without it."""
    rng = random.Random(seed)
    checked = fewer = 0
    while checked < count:
        colors, adjacency = random_region_graph(rng, rng.randint(5, 11))
        optimum = island_bfs_optimum(colors, adjacency, limit=12)
        if optimum < 2 or not fixed_spiders(colors, adjacency):
            continue
        g = core.graph(bytes(colors), adjacency)
        for within in (optimum - 1, optimum):
            spun, plain = (core.sweep(g, within=within, paths=False, spider_depth=d) for d in (99, None))
            assert spun.status == plain.status == (core.Status.FOUND if within == optimum else core.Status.NONE)
            assert spun.expanded <= plain.expanded
            fewer += spun.expanded < plain.expanded
        checked += 1
    return fewer


def test_the_sweep_with_spiders_finds_the_optimum():
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    assert _sweep_with_spiders(8, 150) > 10


@pytest.mark.slow
def test_the_sweep_with_spiders_finds_the_optimum_on_thousands_of_graphs():
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    assert _sweep_with_spiders(9, 2000) > 100


def test_malformed_spiders_are_refused_by_the_core():
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    bad = b"\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x07\x00"  # one spider, its arm at region 7 of 3
    with pytest.raises(ValueError, match="spiders"):
        core._core.spider_bound(bytes([0, 1, 0]), bad)
    with pytest.raises(ValueError, match="spiders"):
        core._core.spider_bound(bytes([0, 1, 0]), b"\x01")
