"""The limits of one solve: time, nodes, memory, Ctrl-C, and what is left of them.

:class:`~kamivision.limits.Limits` are what a solve may spend, frozen; :class:`Budget` is
what it has spent and with what (the machine's settings, the clock's start), shared by
every search of one solve (the A*, the floods, the beams);
:class:`SearchStopped` is how a search says a limit stopped it, with the bound it proved.
When a time limit is given, the last share of it is kept for improving an unproven answer
(:func:`reserve_seconds`).  :func:`core_limits` hands what is left to the compiled core,
whose own clock and counters are ``_core/limits.c``.

Tested in tests/solver/test_islands.py, tests/solver/test_astar.py.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, NamedTuple, Optional

from ..limits import Limits, Progress, Stop
from .settings import SearchSettings

if TYPE_CHECKING:
    from ..board import Move
    from .notes import Note


Path = list[tuple[int, int]]  # (original region of the tapped region, color)
__all__ = [
    "Budget",
    "Limits",
    "Outcome",
    "Path",
    "Progress",
    "Proven",
    "SearchStopped",
    "core_limits",
    "reserve_seconds",
]


class SearchStopped(Exception):
    """A node or time limit, or Ctrl-C, stopped the search; carries the best lower bound
    proven so far."""

    def __init__(self, bound: int, path: Optional["Path"] = None):
        super().__init__(bound)
        self.bound = bound
        self.path = path  # an unproven solution found on the way, if any


class Proven(Exception):
    """Raised out of a search by its :attr:`Budget.pause` when the look found a solution as
    short as the bound the search had proven: that solution is optimal, and the search
    stops (the compiled core frees its states on the way out)."""

    def __init__(self, path: "Path"):
        super().__init__(len(path))
        self.path = path


class Budget:
    """One solve's :class:`Limits` and what it has spent of them, shared by every search
    of the solve (the A*, the floods, the beams): the states expanded, whether Ctrl-C
    stopped a search, and what the searches tell each other.  Its counts come back in the
    :class:`~kamivision.solver.Solution`.

    ``interrupted`` is set when Ctrl-C stopped a search: it then acts as a spent limit for
    the rest of the solve, which answers at once with the best found.
    """

    __slots__ = (
        "limits",
        "settings",
        "start",
        "proof_deadline",
        "expanded",
        "interrupted",
        "beam_cut",
        "found",
        "max_moves",
        "memory_full",
        "pause",
    )

    def __init__(self, limits: Optional[Limits] = None, settings: Optional[SearchSettings] = None) -> None:
        self.limits = limits if limits is not None else Limits()
        self.settings = settings if settings is not None else SearchSettings.for_this_machine()
        self.start = time.perf_counter()  # the solve's clock
        self.proof_deadline = self._proof_deadline()  # read at every expansion: worked out once
        self.expanded = 0
        self.interrupted = False
        self.beam_cut = False  # an asked-for beam (--beam) was cut short by the time limit
        self.found: Optional[int] = None  # moves of the shortest solution known for the island searched
        self.max_moves: Optional[int] = None  # only solutions this short are wanted (solver.solve)
        self.memory_full = False  # the stored states filled the memory: the proof went on depth-first
        #: ``(when, look)``: the proof running now stops at ``time.perf_counter()`` ``when``
        #: for ``look(bound)`` and then goes on where it was (:meth:`look`; what ``look``
        #: returns is its caller's).
        self.pause: Optional[tuple[float, Callable[[int], object]]] = None

    def _proof_deadline(self) -> Optional[float]:
        """``time.perf_counter()`` at which the proof stops (None: no time limit):
        ``max_seconds`` less the time kept for improving an unproven answer
        (:data:`IMPROVE_SHARE` of it, but at least :data:`IMPROVE_SECONDS` or half of it,
        whichever is less), so that the whole solve ends within it."""
        seconds = self.limits.max_seconds
        if seconds is None:
            return None
        kept = max(IMPROVE_SHARE * seconds, min(IMPROVE_SECONDS, seconds / 2))
        return self.start + seconds - kept

    def stop(self) -> Stop:
        """Why a search of this solve stopped before its proof: Ctrl-C or a limit."""
        return Stop.INTERRUPTED if self.interrupted else Stop.LIMIT

    def report(self, expanded: int, bound: int, seconds: float, **extra) -> None:
        """Pass a progress report on to the callback, if any: states expanded, the bound
        proven, seconds since the start, the length ``found`` when known, ``memory_full``
        once the proof went on depth-first, and ``extra`` (``regions`` and ``regions_from``:
        the region count a sweep is at and the one it started from, see
        :func:`~kamivision.solver.core.sweep`)."""
        if self.limits.progress is None:
            return
        info = {"expanded": expanded, "bound": bound, "seconds": seconds, **extra}
        if self.found is not None:
            info["found"] = self.found
        if self.memory_full:
            info["memory_full"] = True
        self.limits.progress(info)

    def look(self, bound: int) -> None:
        """Run the search's pending :attr:`pause` (once) when its time has come, with the
        bound proven so far; the search then goes on where it stopped."""
        if self.pause is not None and time.perf_counter() >= self.pause[0]:
            _, look = self.pause
            self.pause = None
            look(bound)

    def seconds_left(self) -> Optional[float]:
        """Seconds left of ``max_seconds`` (None: no limit)."""
        if self.limits.max_seconds is None:
            return None
        return max(0.0, self.limits.max_seconds - (time.perf_counter() - self.start))

    def charge(self, bound: int) -> None:
        """Count one expansion; raise :class:`SearchStopped` when a limit is reached."""
        if self.interrupted:
            raise SearchStopped(bound)
        self.expanded += 1
        # The clock is read at every expansion under a time limit (a Python expansion costs
        # microseconds on small graphs and milliseconds on boards of thousands of regions,
        # so counting to a thousand first could overrun the limit by minutes); progress
        # goes out at every 1024th.
        if self.proof_deadline is not None and time.perf_counter() > self.proof_deadline:
            raise SearchStopped(bound)
        if self.expanded & 1023 == 0:
            self.look(bound)
            self.report(self.expanded, bound, time.perf_counter() - self.start)
        if self.limits.max_nodes is not None and self.expanded > self.limits.max_nodes:
            raise SearchStopped(bound)


def core_limits(budget: Budget) -> dict:
    """What is left of ``budget`` as the compiled core's keyword arguments: seconds and
    nodes (``None``: no limit), and a progress callback that reports totals over the
    whole solve."""
    seconds = None
    if budget.interrupted:
        seconds = 0.0
    elif budget.proof_deadline is not None:
        seconds = max(0.0, budget.proof_deadline - time.perf_counter())
    max_nodes = budget.limits.max_nodes
    nodes = None if max_nodes is None else max(0, max_nodes - budget.expanded)
    report = None
    if budget.limits.progress is not None or budget.pause is not None:
        base, offset = budget.expanded, time.perf_counter() - budget.start

        def report(expanded: int, bound: int, seconds: float, *at: int) -> None:
            elapsed = offset + seconds
            if budget.pause is not None:
                budget.expanded = base + expanded  # for the reports made while it runs (and
                budget.look(bound)  # kept when it ends the search: Proven)
                budget.expanded = base
                if budget.interrupted:  # Ctrl-C in it: the core stops as for one in its own loop
                    raise KeyboardInterrupt
                # The core's seconds were taken before the look ran: the time is now's (the
                # progress line went from "1.8 s" back to "1.0 s" after a look).
                elapsed = time.perf_counter() - budget.start
            # A sweep says how far it is: the region count it expands and the first.
            extra = {"regions": at[0], "regions_from": at[1]} if at else {}
            budget.report(base + expanded, bound, elapsed, **extra)

    return {"max_seconds": seconds, "max_nodes": nodes, "progress": report}


#: The last share of ``max_seconds`` goes to finding a better unproven answer when the
#: proof has not finished by then.
IMPROVE_SHARE = 0.15

#: Seconds granted to improve the answer after a stop that is not a time limit (a node
#: limit, Ctrl-C is answered at once).
IMPROVE_SECONDS = 1.0


def reserve_seconds(budget: Budget) -> float:
    """Seconds granted, after a limit stopped the proof, to improve the unproven answer:
    what is left of ``max_seconds`` (the proof stopped at :attr:`Budget.proof_deadline`),
    or :data:`IMPROVE_SECONDS` without a time limit."""
    left = budget.seconds_left()
    return IMPROVE_SECONDS if left is None else left


class Outcome(NamedTuple):
    """What a solve found, before the budget's counts are added to make a
    :class:`~kamivision.solver.Solution`."""

    moves: tuple["Move", ...]
    optimal: bool
    lower_bound: int
    regions: int
    islands: int
    notes: tuple["Note", ...]
