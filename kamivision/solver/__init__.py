"""Optimal solving: board -> region graph -> islands -> A* -> moves on cells.

One module per idea: :mod:`.limits` (the budget of a solve and how a search stops),
:mod:`.state` (the search's states), :mod:`.heuristics` (admissible bounds), :mod:`.astar`
(the readable reference A*), :mod:`.core` (the handover to the compiled core),
:mod:`.upper` (good answers without proof), :mod:`.islands` (the free rules, island by
island), :mod:`.huge` (islands too large for the search) and :mod:`.pivot` (Flood-It's
fixed pivot).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

from ..board import Board, Move
from ..errors import KamiError
from ..limits import Stop
from .islands import solve_free
from .limits import Budget, Limits, Progress
from .notes import BeamAnswer, Note, Stopped
from .pivot import solve_pivot_board
from .settings import SearchSettings

__all__ = ["SearchSettings", "Solution", "solve"]


@dataclass(frozen=True, slots=True)
class Solution:
    """The moves found for a board and what is known about their optimality."""

    moves: tuple[Move, ...]
    optimal: bool
    lower_bound: int
    expanded: int
    seconds: float
    regions: int
    islands: int
    par: Optional[int] = None
    notes: tuple[Note, ...] = field(default=())  # how the answer was found (report.note_text words it)
    stopped: Optional[Stop] = None  # why the search stopped before a proof (None: it did not)

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def interrupted(self) -> bool:
        """Ctrl-C stopped the search (or the check after it)."""
        return self.stopped is Stop.INTERRUPTED


def solve(
    board: Board,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    progress: Optional[Progress] = None,
    beam: int = 0,
    *,
    settings: Optional[SearchSettings] = None,
    max_moves: Optional[int] = None,
) -> Solution:
    """Find a shortest solution of ``board`` and prove it optimal.

    When ``max_seconds`` or ``max_nodes`` stops the search, the best solution found is
    returned with ``optimal=False`` and the lower bound proven so far.  ``progress`` is
    called now and then with a dict (states expanded, bound, seconds, best found);
    ``beam`` > 0 runs a beam search of that width instead (rules ``pivot`` only, not
    proven); ``settings`` default to :meth:`SearchSettings.for_this_machine`.

    ``max_moves`` (free rules): only solutions of at most that many moves are looked
    for.  When none exists the search stops as soon as it has ruled them out, and the
    answer is the first one found (longer; not proven optimal unless it is ``max_moves +
    1`` moves long) with a proven lower bound above ``max_moves``; that costs far less than
    proving a longer optimum (each move of bound costs tens of times the states).  The
    check against the counter asks this way.
    """
    started = time.perf_counter()
    if settings is None:
        settings = SearchSettings.for_this_machine()
    budget = Budget(Limits(max_seconds=max_seconds, max_nodes=max_nodes, progress=progress), settings)
    budget.max_moves = max_moves
    if beam and board.rules != "pivot":
        raise KamiError("a beam search (--beam) is offered for rules 'pivot' only")
    if max_moves is not None and board.rules != "free":
        raise KamiError("a limit on the moves is offered for rules 'free' only")
    if board.rules == "pivot":
        found = solve_pivot_board(board, budget, beam)
    elif board.rules == "free":
        found = solve_free(board, budget)
    else:
        raise KamiError(f"rules {board.rules!r} are not supported by the solver")
    return Solution(
        moves=found.moves,
        optimal=found.optimal,
        lower_bound=found.lower_bound,
        expanded=budget.expanded,
        seconds=time.perf_counter() - started,
        regions=found.regions,
        islands=found.islands,
        par=board.par,
        notes=found.notes,
        stopped=_stop(budget, found.notes),
    )


def _stop(budget: Budget, notes: tuple[Note, ...]) -> Optional[Stop]:
    """Why the search stopped before a proof, from what its notes say (None: it did not)."""
    if budget.interrupted:
        return Stop.INTERRUPTED
    for note in notes:
        if isinstance(note, Stopped):
            return note.reason
        if isinstance(note, BeamAnswer) and note.cut is not None:
            return note.cut
    return None
