"""The compiled core's Python face: argument checks, one call each, named statuses.

The core (``kamivision/solver/_core/``, one C compilation unit) runs the same searches as
the Python reference in :mod:`~kamivision.solver.astar` and
:mod:`~kamivision.solver.pivot`, a few hundred times faster.  It is optional: without a C
compiler the install still works and :data:`AVAILABLE` is false.

A graph is given to the core once packed (:func:`graph`: the color of every region and
each region's neighbors as 64-bit words), and a search that calls the core several times
packs it once.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from enum import IntEnum
from typing import Callable, Optional, Sequence, Union

from .spiders import Spider, fixed_spiders
from .spiders import encode as encode_spiders
from .symmetry import Symmetry
from .symmetry import find as find_symmetry

try:
    from . import _core
except ImportError:  # built without a C compiler: the pure-Python searches are used
    _core = None
if _core is not None and getattr(_core, "__file__", None) is None:
    # Not built, but the folder of its C sources (``_core/``) imports as a namespace
    # package, which has none of the core's functions: the pure-Python searches are used.
    _core = None

#: Whether the compiled core is built.
AVAILABLE = _core is not None

#: Regions the core's bitsets hold (8 words of 64 bits).
MAX_REGIONS = 512

Report = Callable[[int, int, float], None]  # (expanded, bound, seconds)


class Status(IntEnum):
    """How a search of the core ended (``STATUS_*`` in ``_core/limits.c``)."""

    FOUND = 0  # a path, optimal below the limit given
    NONE = 1  # no solution below the limit
    LIMIT = 2  # a time, node or memory limit stopped it
    INTERRUPTED = 3  # Ctrl-C stopped it (as LIMIT)
    MEMORY = 4  # its memory filled and it was asked to return then


@dataclass(frozen=True, slots=True)
class Answer:
    """What a search of the core returns.  ``path``: ``None``, or the moves found, as
    ``(region, color)`` pairs (a list of colors for :func:`pivot_astar`); ``bound``:
    the lower bound proven (for :func:`sweep`: the length of the solution found);
    ``disk``: for :func:`sweep`, the most bytes its states took on disk; ``stored``: for
    :func:`sweep`, the states it stored (each is evaluated when its turn comes)."""

    status: Status
    path: Optional[list]
    expanded: int
    bound: int
    disk: int = 0
    stored: int = 0


@dataclass(frozen=True, slots=True)
class Graph:
    """A region graph in the core's form: the color of every region, and each region's
    neighbor bitset in ``words`` little-endian 64-bit words (``adjacency``)."""

    colors: bytes
    adjacency: bytes
    words: int


def graph(colors: bytes, adjacency: Sequence[int]) -> Graph:
    """Pack a graph given as region colors and neighbor bitsets (ints) for the core."""
    n = len(colors)
    if not 1 <= n <= MAX_REGIONS or len(adjacency) != n:
        raise ValueError(
            f"the core takes 1 to {MAX_REGIONS} regions with one bitset each, got {n} and {len(adjacency)}"
        )
    words = max(1, (n + 63) // 64)
    return Graph(bytes(colors), b"".join(a.to_bytes(8 * words, "little") for a in adjacency), words)


def _limits(max_seconds: Optional[float], max_nodes: Optional[int], max_bytes: Optional[int]) -> dict:
    return {
        "max_seconds": -1.0 if max_seconds is None else max(0.0, max_seconds),
        "max_nodes": -1 if max_nodes is None else max(0, max_nodes),
        "max_bytes": -1 if max_bytes is None else max_bytes,
    }


def astar(
    g: Graph,
    *,
    goal: Optional[int] = None,
    limit: Optional[int] = None,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_bytes: Optional[int] = None,
    progress: Optional[Report] = None,
    threads: int = 1,
    improve: Optional[Callable[[int, int], Optional[int]]] = None,
    on_full: bool = False,
    orientation: int = -1,
    dive_tries: int = 64,
    path_flood: bool = False,
) -> Answer:
    """A* over one island: an optimal path to one region (of color ``goal`` when given)
    shorter than ``limit``.

    ``FOUND``: the path; ``NONE``: nothing shorter than ``limit`` (or no solution);
    ``LIMIT``/``INTERRUPTED``: ``bound`` is the lower bound proven and ``path`` the best of
    ``dive_tries`` greedy dives from the open states (unproven), or ``None``; ``MEMORY``
    (only with ``on_full``): the stored states filled 60 % of ``max_bytes`` and ``bound``
    is the bound proven.  Without ``on_full`` the search goes on depth-first from its open
    states when memory fills (A*+IDA*), first calling ``improve(bound, expanded)``, which
    may return the length of a shorter solution it found: that becomes the limit.
    ``threads`` 2 shares the expansions with a helper thread (same answers, same states
    expanded); ``orientation`` is the winding bound's (:func:`choose_orientation`; -1:
    none); ``path_flood`` adds the path-flood bound (:mod:`~kamivision.solver.pathflood`)
    at the states expanded.  ``progress(expanded, bound, seconds)`` is called every 4096
    expansions; Ctrl-C inside it stops the search as ``INTERRUPTED``.
    """
    status, path, expanded, bound = _core.astar(
        g.colors, g.adjacency, g.words,
        goal=-1 if goal is None else goal,
        limit=-1 if limit is None else limit,
        progress=progress, dive_tries=dive_tries, threads=threads, improve=improve,
        on_full=int(on_full), orientation=orientation, path_flood=int(path_flood),
        **_limits(max_seconds, max_nodes, max_bytes),
    )  # fmt: skip
    return Answer(Status(status), path, expanded, bound)


def sweep(
    g: Graph,
    *,
    within: int,
    goal: Optional[int] = None,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_bytes: Optional[int] = None,
    progress: Optional[Report] = None,
    paths: bool = True,
    shown: int = 0,
    threads: int = 1,
    orientation: int = -1,
    commute: Union[bool, int] = True,
    path_flood: bool = False,
    spill_dir: Optional[str] = None,
    max_disk: int = 0,
    symmetry: bool = True,
    flood_depth: Optional[int] = None,
    leaves: bool = True,
    spider_depth: Optional[int] = None,
) -> Answer:
    """Is there a solution within ``within`` moves?  The A*'s last threshold, swept by
    region count (``_core/sweep.c`` gives the argument): ``FOUND`` with the shortest such
    solution (its length in ``bound``; its moves in ``path`` with ``paths``, else an empty
    list), ``NONE``, ``LIMIT``/``INTERRUPTED``, or ``MEMORY`` when ``max_bytes`` ran out.
    ``shown`` is the bound given to ``progress`` (the sweep proves nothing until it ends),
    which also gets the region count the sweep is at and the one it started from
    (``progress(expanded, bound, seconds, at, of)``: it goes down from ``of`` to 2);
    ``commute=False`` takes commuting moves in both orders, and ``commute=k`` (an int)
    skips them only at states reached with their least ``g`` by at most k different
    moves (``_core/sweep.c``; 1 is the rule before it kept several; for tests and
    benchmarks); ``True``: at states reached by as many as the core keeps;
    ``path_flood`` as for :func:`astar`, taken only at the states with at most
    ``flood_depth`` moves made when that is given.  ``leaves=False`` taps leaves (regions
    with one neighbor) at every state, not only where the rest is one region (the leaf
    rule of ``_core/sweep.c``; for tests and benchmarks).

    With ``spill_dir``, a folder, the region counts waiting their turn go to files there
    (unlinked at once) when the states pass ``max_bytes``, up to ``max_disk`` bytes, and
    are read back, their duplicates merged, when their turn comes (``_core/spill.c``): the
    same states are expanded, so the answer is the same, and ``MEMORY`` comes only when
    the disk's share is full too.

    ``symmetry`` (without ``paths``): of the states that the island's symmetries map onto
    each other, one is stored (:mod:`~kamivision.solver.symmetry`); the answer is the
    same, with fewer states on a symmetric board.  ``symmetry=False`` stores them all.

    ``spider_depth``: the spider bound (:mod:`~kamivision.solver.spiders`, over the
    island's best spiders at the start) is taken at the states at the threshold with at
    most that many moves made; ``None``: nowhere."""
    found = _symmetry(g) if symmetry and not paths else None
    spiders = _spiders(g) if spider_depth is not None else b""
    (status, path, expanded, bound), disk, stored = _core.sweep(
        g.colors, g.adjacency, g.words,
        T=within, goal=-1 if goal is None else goal, progress=progress, paths=int(paths), shown=shown,
        threads=threads, orientation=orientation, commute=-1 if commute is True else int(commute),
        path_flood=int(path_flood),
        spill_dir=spill_dir, max_disk=max_disk, symmetry=found.encode() if found else b"",
        flood_depth=-1 if flood_depth is None else flood_depth, leaves=int(leaves),
        spiders=spiders, spider_depth=-1 if spider_depth is None else spider_depth,
        **_limits(max_seconds, max_nodes, max_bytes),
    )  # fmt: skip
    return Answer(Status(status), path, expanded, bound, disk, stored)


def spider_bound(colors: bytes, spiders: Sequence[Spider]) -> int:
    """The spider bound (:mod:`~kamivision.solver.spiders`) of a coloring of the
    island's regions, compiled."""
    return _core.spider_bound(bytes(colors), encode_spiders(spiders))


@functools.lru_cache(maxsize=8)
def _spiders(g: Graph) -> bytes:
    """The island's spiders, chosen once at its start for the sweeps of its thresholds:
    only those whose bound there reaches the path-flood bound's.  A weaker one costs its
    count at every state near the root and, measured, prunes none: Bud5's spiders give
    13, 12, 12 and 12 where the path-flood bound gives 14, and its proof's last sweep
    expands the same 577,847 states with them and without, 16.1-17.5 s against
    14.2-14.6 s (``benchmarks/sweep.py --spiders off,6``; docs/measurements.md,
    2026-12-01)."""
    found = fixed_spiders(g.colors, _adjacency(g), bound=spider_bound)
    if found:  # (the path-flood bound only where there are spiders: it costs n² on a large island)
        least = path_flood(g, final=True)
        found = [sp for sp in found if spider_bound(g.colors, [sp]) >= least]
    return encode_spiders(found)


@functools.lru_cache(maxsize=8)
def _symmetry(g: Graph) -> Symmetry:
    """The island's symmetries, found once for the sweeps of its thresholds."""
    return find_symmetry(g.colors, _adjacency(g))


def _adjacency(g: Graph) -> list[int]:
    """The neighbor bitsets of a packed graph, as ints."""
    step = 8 * g.words
    return [int.from_bytes(g.adjacency[i : i + step], "little") for i in range(0, len(g.adjacency), step)]


def pivot_astar(
    g: Graph,
    *,
    start: int,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    max_bytes: Optional[int] = None,
    progress: Optional[Report] = None,
    on_full: Optional[Callable[[int, int], None]] = None,
) -> Answer:
    """The fixed-pivot (Flood-It) A* from region ``start``: ``FOUND`` with the optimal
    color sequence, or ``LIMIT``/``INTERRUPTED`` with the bound reached.  Memory as
    :func:`astar`'s: depth-first from the open states once the stored states fill 60 %;
    ``on_full(bound, expanded)`` is called then, once."""
    status, path, expanded, bound = _core.pivot_astar(
        g.colors,
        g.adjacency,
        g.words,
        start=start,
        progress=progress,
        on_full=on_full,
        **_limits(max_seconds, max_nodes, max_bytes),
    )
    return Answer(Status(status), path, expanded, bound)


def choose_orientation(g: Graph) -> int:
    """The winding bound's orientation for the island's first state, as
    :func:`~kamivision.solver.heuristics.choose_orientation` picks it, or -1 for none."""
    return _core.choose_orientation(g.colors, g.adjacency, g.words)


def path_flood(g: Graph, need: int = -1, final: bool = False) -> int:
    """The path-flood bound of the island's coloring ``g`` (the compiled twin of
    :func:`~kamivision.solver.pathflood.path_flood_bound`); with ``need`` >= 0, ``need``
    as soon as the bound is known to reach it; with ``final``, one more when the color
    the board ends in needs it (as the searches take it)."""
    return _core.path_flood(g.colors, g.adjacency, g.words, need, final)


def path_flood_pairs(g: Graph) -> list[list[int]]:
    """``A(u, v)`` for every pair of the regions of ``g``'s coloring, in the order of their
    representatives (the compiled twin of :func:`~kamivision.solver.pathflood.pair_prints`):
    the levels :func:`path_flood` reads its bound from, for the tests."""
    raw = _core.path_flood_pairs(g.colors, g.adjacency, g.words)
    m = math.isqrt(len(raw))
    return [list(raw[u * m : (u + 1) * m]) for u in range(m)]


def path_flood_corridor(g: Graph, asked: Optional[list[int]] = None) -> tuple[int, Optional[list[int]]]:
    """The path-flood bound of ``g`` and its corridor: for each region, the bitset of the
    colors its move can take to lower the bound (any other move leaves it as it is; the
    lemma is in ``pathflood.c``; a color over 63 is read as 63), or ``None`` when the core
    gives none.  ``asked``, a bitset of colors for each region (a representative's is
    read), limits the answer to those moves, as the sweep asks it (default: all)."""
    extra = () if asked is None else (b"".join(a.to_bytes(8, "little") for a in asked),)
    bound, corridor = _core.path_flood_corridor(g.colors, g.adjacency, g.words, *extra)
    if corridor is None:
        return bound, None
    return bound, [int.from_bytes(corridor[8 * r : 8 * r + 8], "little") for r in range(len(g.colors))]
