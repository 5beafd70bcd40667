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

from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from .limits import SearchStopped, core_limits
from .settings import spill_folder

if TYPE_CHECKING:
    from .limits import Budget, Path
    from .state import Island

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
    ``disk``: for :func:`sweep`, the most bytes its states took on disk."""

    status: Status
    path: Optional[list]
    expanded: int
    bound: int
    disk: int = 0


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
    commute: bool = True,
    path_flood: bool = False,
    spill_dir: Optional[str] = None,
    max_disk: int = 0,
) -> Answer:
    """Is there a solution within ``within`` moves?  The A*'s last threshold, swept by
    region count (``_core/sweep.c`` gives the argument): ``FOUND`` with the shortest such
    solution (its length in ``bound``; its moves in ``path`` with ``paths``, else an empty
    list), ``NONE``, ``LIMIT``/``INTERRUPTED``, or ``MEMORY`` when ``max_bytes`` ran out.
    ``shown`` is the bound given to ``progress`` (the sweep proves nothing until it ends),
    which also gets the region count the sweep is at and the one it started from
    (``progress(expanded, bound, seconds, at, of)``: it goes down from ``of`` to 2);
    ``commute=False`` takes commuting moves in both orders (for tests and benchmarks);
    ``path_flood`` as for :func:`astar`.

    With ``spill_dir``, a folder, the region counts waiting their turn go to files there
    (unlinked at once) when the states pass ``max_bytes``, up to ``max_disk`` bytes, and
    are read back, their duplicates merged, when their turn comes (``_core/spill.c``): the
    same states are expanded, so the answer is the same, and ``MEMORY`` comes only when
    the disk's share is full too."""
    (status, path, expanded, bound), disk = _core.sweep(
        g.colors, g.adjacency, g.words,
        T=within, goal=-1 if goal is None else goal, progress=progress, paths=int(paths), shown=shown,
        threads=threads, orientation=orientation, commute=int(commute), path_flood=int(path_flood),
        spill_dir=spill_dir, max_disk=max_disk,
        **_limits(max_seconds, max_nodes, max_bytes),
    )  # fmt: skip
    return Answer(Status(status), path, expanded, bound, disk)


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


# ------------------------------------------------------------------ the handover


def prove(
    island: "Island",
    budget: "Budget",
    goal_color: Optional[int] = None,
    upper: Optional[tuple[int, "Path"]] = None,
    improve: Optional[Callable[[int], Optional["Path"]]] = None,
    pause: Optional[tuple[float, Callable[[int], Optional["Path"]]]] = None,
) -> Optional["Path"]:
    """The A* of :func:`kamivision.solver.astar.astar` on the compiled core, with the
    handover between its phases: an optimal path to one region (of ``goal_color`` when
    given) of an island that is not already one.

    ``pause`` is as :func:`~kamivision.solver.astar.astar`'s: ``look`` runs inside the
    core's progress call, and a solution it returns shorter than ``upper`` becomes the
    upper bound of the phases after (the sweep's threshold, the answer at a stop).

    ``improve``, when given, is called once with the proven bound when the core's memory
    is full; a solution it returns that is shorter than ``upper`` becomes the upper bound
    from then on.  With an upper bound, the A*'s memory is full at
    ``settings.handover_bytes``; it then frees its states for :func:`_sweep`, which asks
    with all the memory (``settings.max_bytes``) whether anything is shorter; only if that
    runs out of memory too does the A* run again and go on depth-first, stopping as soon
    as its bound reaches the upper bound's length (a last threshold searched for a
    solution of that length can take far longer).  Raises :class:`SearchStopped` when a
    limit stops it.
    """
    settings = budget.settings
    packed = graph(island.colors, island.adjacency)
    orient = choose_orientation(packed)  # the winding bound's; -1: none
    found: list[Path] = []

    def better(bound: int, expanded: int) -> Optional[int]:
        # The core's expansions so far, for the progress reports made while improve runs.
        budget.expanded += expanded
        try:
            path = improve(bound)
        except KeyboardInterrupt as stop:  # Ctrl-C in it: what its beam had found is kept
            kept = getattr(stop, "best", None)  # upper.BeamInterrupted's
            if kept is not None and (upper is None or len(kept) < upper[0]):
                found.append(list(kept))
            raise  # the core clears it and stops as at a limit (or the caller below does)
        finally:
            budget.expanded -= expanded
        if path is None or (upper is not None and len(path) >= upper[0]):
            return None
        found.append(path)
        budget.found = len(path)
        return len(path)

    pending = [] if pause is None else [pause]  # the look runs once, in whichever phase reaches its time

    def look(bound: int) -> None:
        _, looking = pending.pop()
        path = looking(bound)
        if path is not None and (upper is None or len(path) < upper[0]):
            found.append(path)

    @contextmanager
    def pausing():
        # The look still to come runs in the progress calls of the core's searches inside.
        budget.pause = (pending[0][0], look) if pending else None
        try:
            yield
        finally:
            budget.pause = None

    def run(limit: Optional[tuple[int, Path]], on_full: bool, improve_call, max_bytes: int) -> Answer:
        with pausing():
            answer = astar(
                packed,
                goal=goal_color,
                limit=None if limit is None else limit[0],
                max_bytes=max_bytes,
                threads=settings.threads,
                improve=improve_call,
                on_full=on_full,
                orientation=orient,
                path_flood=settings.path_flood,
                **core_limits(budget),
            )
        budget.expanded += answer.expanded
        return answer

    # With a known solution, the A* ends (Status.MEMORY) once it holds handover_bytes, so
    # that the sweep can have all the memory, and ``improve`` is called here; without one
    # there is nothing for the sweep to prove, and the core calls ``improve`` before going
    # on depth-first.
    def full(bound: int, expanded: int) -> Optional[int]:
        # The core's memory is full: it goes on depth-first (said in the progress reports).
        budget.memory_full = True
        return better(bound, expanded) if improve is not None else None

    sweeping = upper is not None
    memory = min(settings.max_bytes, settings.handover_bytes) if sweeping else settings.max_bytes
    answer = run(upper, sweeping, None if sweeping else full, memory)
    bound = answer.bound
    upper = _shortest(upper, found)
    if answer.status == Status.MEMORY:
        # A look for a shorter solution, unless the one threshold left is the bound (a
        # solution of that length is then one the sweep finds in the time its proof of
        # none would take, and most often there is none), or the first look is still to
        # come (it runs in the sweeps' progress calls, and its answer ends them sooner).
        if improve is not None and bound < upper[0] - 1 and not pending:
            try:
                better(bound, 0)
            except KeyboardInterrupt:  # Ctrl-C inside it: stop like a limit, with its best
                budget.interrupted = True
                raise SearchStopped(bound, min(found, key=len) if found else None) from None
            upper = _shortest(upper, found)
        if bound >= upper[0]:  # nothing is shorter than the solution improve found
            return upper[1]
        with pausing():
            swept = _sweep(packed, goal_color, upper, bound, budget, found, orient)
        if swept is not None:
            return swept
        # The sweep ran out of memory too: the A* again, going on depth-first this time.
        budget.memory_full = True
        answer = run(upper, False, None, settings.max_bytes)
        bound = answer.bound
    upper = _shortest(upper, found)
    if answer.status in (Status.LIMIT, Status.INTERRUPTED):
        budget.interrupted |= answer.status == Status.INTERRUPTED
        best = [tuple(move) for move in answer.path] if answer.path is not None else None
        if upper is not None and found and (best is None or len(best) > upper[0]):
            best = upper[1]
        raise SearchStopped(bound, best)
    if answer.status == Status.NONE:
        return upper[1] if upper is not None else None
    return [tuple(move) for move in answer.path]


def _shortest(upper: Optional[tuple[int, Path]], found: list[Path]) -> Optional[tuple[int, Path]]:
    """The shorter of ``upper`` and the shortest solution in ``found``, as ``(length, path)``."""
    best = min(found, key=len, default=None)
    if best is not None and (upper is None or len(best) < upper[0]):
        return len(best), best
    return upper


def _sweep(
    packed: Graph,
    goal_color: Optional[int],
    upper: tuple[int, Path],
    bound: int,
    budget: Budget,
    found: list[Path],
    orient: int = -1,
) -> Optional[Path]:
    """The thresholds left, by region count (:func:`sweep`), when the A*'s memory is
    full: is there a solution shorter than ``upper``?

    Returns ``upper``'s path when there is none (a proof), the shortest solution when there
    is one, or ``None`` when the sweep runs out of memory (and disk) as well.  Raises
    :class:`SearchStopped` (with the bound proven) when a limit stops it.  A solution
    shorter than ``upper`` that joins ``found`` meanwhile (the first look, run in the
    progress calls) takes its place.

    One threshold at a time, from the A*'s ``bound`` up: "nothing within T" proves
    ``T + 1``, so the bound rises as the A*'s would (the sweep proves nothing until it ends,
    and each threshold costs tens of times the one before, so the ones before cost
    little).  Each pass keeps keys only (a proof needs no moves); when one finds a
    solution, within T with nothing within T - 1, it is optimal, and a second pass with
    moves at its length finds them.  Optimality is the A*'s argument: each state with
    ``g + h <= T`` is expanded once with its least ``g`` (the sweep's order by region
    count is topological, as every move merges regions), and ``h`` is the same admissible
    bound.
    """
    folder, disk = spill_folder(budget.settings.max_disk_bytes)
    target, paths = bound, False
    while target < _shortest(upper, found)[0]:  # a look in the progress calls may find a shorter one
        answer = sweep(
            packed,
            within=target,
            goal=goal_color,
            max_bytes=budget.settings.max_bytes,
            spill_dir=folder,
            max_disk=disk,
            paths=paths,
            shown=bound,
            threads=budget.settings.threads,
            orientation=orient,
            path_flood=budget.settings.path_flood,
            **core_limits(budget),
        )
        budget.expanded += answer.expanded
        if answer.status == Status.NONE:
            if paths:  # pragma: no cover - the first pass found one within this threshold
                raise AssertionError("the sweep lost a solution it had found")
            target = bound = target + 1  # nothing within target: at least target + 1 moves
            continue
        if answer.status == Status.FOUND:
            if paths:
                return [tuple(move) for move in answer.path]
            target = bound = budget.found = answer.bound
            paths = True
            continue
        if answer.status == Status.MEMORY:
            return None
        budget.interrupted |= answer.status == Status.INTERRUPTED
        raise SearchStopped(bound, min(found, key=len) if found else None)
    return _shortest(upper, found)[1]


def path_flood(g: Graph, need: int = -1) -> int:
    """The path-flood bound of the island's coloring ``g`` (the compiled twin of
    :func:`~kamivision.solver.pathflood.path_flood_bound`); with ``need`` >= 0, ``need``
    as soon as the bound is known to reach it."""
    return _core.path_flood(g.colors, g.adjacency, g.words, need)


def path_flood_corridor(g: Graph) -> tuple[int, Optional[int]]:
    """The path-flood bound of ``g`` and its corridor: the bitset of regions whose move
    can lower it (any other move leaves it as it is; the lemma is in ``pathflood.c``), or
    ``None`` when the core gives none."""
    bound, corridor = _core.path_flood_corridor(g.colors, g.adjacency, g.words)
    return bound, None if corridor is None else int.from_bytes(corridor, "little")
