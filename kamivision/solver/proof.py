"""The compiled search's proof of one island: the A*, its handover to the sweeps, and the
thresholds the sweeps ask one at a time (the phases are told in ``docs/solver.md``).

:func:`prove` runs the core's A* (:func:`~kamivision.solver.core.astar`) until its memory
holds ``handover_bytes``, then :func:`_sweep` asks "is there a solution within T?" for
each threshold left, by region count (:func:`~kamivision.solver.core.sweep`).  Whether a
sweep takes the path-flood bound is raced (:data:`RACE_FROM`): it pays on some levels only,
and the cheap threshold before the costly last one says which.

Tested in tests/solver/test_core.py, tests/solver/test_proof.py.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Optional

from .core import Answer, Graph, Status, astar, choose_orientation, graph, sweep
from .limits import SearchStopped, core_limits
from .settings import spill_folder

if TYPE_CHECKING:
    from .limits import Budget, Path
    from .state import Island

#: Whether the sweeps take the path-flood bound is raced when ``settings.path_flood`` is
#: ``None`` (the default).  It cuts the states swept by 5 to 35 times, but one evaluation
#: costs as much as tens of expansions: Bud5's last threshold takes 95 s with it, 167 s
#: without, Threegrid5's over 300 s against 102 s.  Each threshold costs tens of times the
#: one before, and which way is faster carries over from one to the next (Bud5's "within
#: 15" takes 1.1 s with it, 3.0 s without; Threegrid5's "within 12" 3.2 s and 0.8 s): so a
#: threshold refuted in RACE_FROM to RACE_UNTIL seconds, not the last, is swept again the
#: other way (for at most twice as long), and the other way sweeps the next threshold if
#: it was RACE_MARGIN times as fast.  Under RACE_FROM, a sweep's time is mostly its fixed
#: costs; past RACE_UNTIL, a race would hold the next bound back by as long again, and the
#: next threshold takes an hour or more whichever way (Threegrid4's "within 12"); a near
#: tie says nothing, but 1.4 times does (Bud6's "within 13": 2.2 s with it, 3.1 s
#: without; "within 14" 126.5 s and 171.7 s, so Bud6's proof takes 130.3 s with this
#: margin, 171.4 s with 1.5; docs/measurements.md, 2026-11-30).  The bound is admissible
#: either way: the answer is the same.
RACE_FROM, RACE_UNTIL, RACE_MARGIN = 0.5, 30.0, 1.25

#: In a race, the way "without" still takes the bound at the states with at most this
#: many moves made: they are few (a few thousand on the hard levels) and root most of the
#: tree, so it prunes where it costs least.  Threegrid5's "within 13", its proof's last
#: sweep, takes 76.5 s against 82.1 s with none (5,131,055 states expanded against
#: 6,049,370), Threegrid4's "within 10" 0.35 s against 1.97 s and KAMI 1's P37 "within 9"
#: 2.0 s against 3.7 s; with depth 1, 82.1, 1.31 and 3.5 s; with 3, 95.9, 0.28 and 2.0 s
#: (``benchmarks/sweep.py --path-flood shallow``; docs/measurements.md, 2026-11-30).
SHALLOW_DEPTH = 2

#: The sweep takes the spider bound (:mod:`~kamivision.solver.spiders`) at the states on
#: its threshold with at most this many moves made: there one more move prunes a state
#: and the subtree it roots.  Bud6's "within 14", its proof's last sweep, expands 648,701
#: states in 56.3 s with depth 6 against 2,977,235 in 117.8 s with none; depth 4: 1,781,237
#: in 69.4 s, 8: 538,675 in 63.2 s (the deeper states cost what they prune: 26.4-28.6 s
#: against 26.0-27.3 s with 6, alternated on a faster day, 2026-12-02); Bud4's
#: "within 14" 3,715 against 39,159.  Where the island has no spider of bridges (the
#: Threegrids), nothing is taken (``benchmarks/sweep.py --spiders``; docs/measurements.md,
#: 2026-12-01).
SPIDER_DEPTH = 6


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
    found: list[Path] = []  # solutions shorter than ``upper`` found on the way
    proven = [len(set(island.colors)) - 1]  # the bound proven so far (each move removes a color at most)
    try:
        return _phases(island, budget, goal_color, upper, improve, pause, found, proven)
    except KeyboardInterrupt:
        # Ctrl-C outside the core's own checks: in the Python between its calls, or as a
        # call ends after its last look at the signals (while it frees its states, say),
        # when Python raises it as the call returns and the call's answer is lost.  The
        # search stops there as at a limit, with the bound proven and the best found,
        # instead of the whole solve ending without an answer.
        budget.interrupted = True
        raise SearchStopped(proven[0], min(found, key=len) if found else None) from None


def _phases(
    island: "Island",
    budget: "Budget",
    goal_color: Optional[int],
    upper: Optional[tuple[int, "Path"]],
    improve: Optional[Callable[[int], Optional["Path"]]],
    pause: Optional[tuple[float, Callable[[int], Optional["Path"]]]],
    found: list["Path"],
    proven: list[int],
) -> Optional["Path"]:
    """:func:`prove`'s phases, which add to ``found`` and raise ``proven[0]`` as they go."""
    settings = budget.settings
    packed = graph(island.colors, island.adjacency)
    orient = choose_orientation(packed)  # the winding bound's; -1: none

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
                path_flood=bool(settings.path_flood),  # the A*: only when asked (None: the sweeps race it)
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
    bound = proven[0] = answer.bound
    upper = _shortest(upper, found)
    if answer.status == Status.MEMORY:
        # A look for a shorter solution, unless the one threshold left is the bound (a
        # solution of that length is then one the sweep finds in the time its proof of
        # none would take, and most often there is none), or the first look is still to
        # come (it runs in the sweeps' progress calls, and its answer ends them sooner).
        if improve is not None and bound < upper[0] - 1 and not pending:
            better(bound, 0)  # Ctrl-C inside it: prove stops as at a limit, with what it found
            upper = _shortest(upper, found)
        if bound >= upper[0]:  # nothing is shorter than the solution improve found
            return upper[1]
        with pausing():
            swept = _sweep(packed, goal_color, upper, proven, budget, found, orient)
        if swept is not None:
            return swept
        # The sweep ran out of memory too: the A* again, going on depth-first this time.
        budget.memory_full = True
        answer = run(upper, False, None, settings.max_bytes)
        bound = proven[0] = max(proven[0], answer.bound)  # the sweep's thresholds refuted count too
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
    proven: list[int],
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

    One threshold at a time, from the A*'s bound ``proven[0]`` up: "nothing within T"
    proves ``T + 1`` (``proven[0]`` is raised to it, for a stop at any time), so the bound
    rises as the A*'s would (the sweep proves nothing until it ends, and each threshold
    costs tens of times the one before, so the ones before cost little).  Each pass keeps
    keys only (a proof needs no moves); when one finds a solution, within T with nothing
    within T - 1, it is optimal, and a second pass with moves at its length finds them.  Optimality is the A*'s argument: each state with
    ``g + h <= T`` is expanded once with its least ``g`` (the sweep's order by region
    count is topological, as every move merges regions), and ``h`` is the same admissible
    bound.
    """
    folder, disk = spill_folder(budget.settings.max_disk_bytes)
    raced = budget.settings.path_flood is None
    # With the path-flood bound at every state (the race may change it): a threshold's
    # sweep may jump from under RACE_FROM to past RACE_UNTIL, with no race between, and
    # then the bound everywhere is the safer way (Threegrid4's "within 10" takes 0.28 s
    # with it, 0.35 s near the root only; "within 11" 48.1 s, and not done at 200 s).
    flood = budget.settings.path_flood is not False

    def run(within: int, paths: bool, with_flood: bool, seconds: Optional[float] = None) -> tuple[Answer, float]:
        limits = core_limits(budget)
        if seconds is not None:
            left = limits["max_seconds"]
            limits["max_seconds"] = seconds if left is None else min(left, seconds)
        started = time.perf_counter()
        answer = sweep(
            packed,
            within=within,
            goal=goal_color,
            max_bytes=budget.settings.max_bytes,
            spill_dir=folder,
            max_disk=disk,
            paths=paths,
            shown=proven[0],
            threads=budget.settings.threads,
            orientation=orient,
            path_flood=with_flood or raced,
            flood_depth=None if with_flood else SHALLOW_DEPTH,
            spider_depth=SPIDER_DEPTH,
            **limits,
        )
        budget.expanded += answer.expanded
        return answer, time.perf_counter() - started

    def stopped(answer: Answer) -> SearchStopped:
        budget.interrupted |= answer.status == Status.INTERRUPTED
        return SearchStopped(proven[0], min(found, key=len) if found else None)

    target, paths = proven[0], False
    while target < _shortest(upper, found)[0]:  # a look in the progress calls may find a shorter one
        answer, took = run(target, paths, flood)
        if answer.status == Status.NONE:
            if paths:  # pragma: no cover - the first pass found one within this threshold
                raise AssertionError("the sweep lost a solution it had found")
            refuted, target = target, target + 1
            proven[0] = target  # nothing within the threshold refuted: at least one move more
            if raced and RACE_FROM <= took <= RACE_UNTIL and target < _shortest(upper, found)[0]:
                # The race (see RACE_FROM): the threshold refuted, again the other way for
                # at most twice as long; the clearly faster way takes the next threshold.
                other, other_took = run(refuted, False, not flood, 2 * took)
                if other.status == Status.INTERRUPTED:
                    raise stopped(other)
                if other.status == Status.NONE and other_took * RACE_MARGIN < took:
                    flood = not flood
            continue
        if answer.status == Status.FOUND:
            if paths:
                return [tuple(move) for move in answer.path]
            target = proven[0] = budget.found = answer.bound
            paths = True
            continue
        if answer.status == Status.MEMORY:
            return None
        raise stopped(answer)
    return _shortest(upper, found)[1]
