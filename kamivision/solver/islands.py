"""The free rules, island by island: solve each, improve an unproven answer, bring all to
one final color, and turn the paths into moves on cells.

Islands (parts of the board separated by blanks) are independent: a move touches one
island only, so an optimal solution is, for the best common final color ``x``, an optimal
solution of each island that ends in ``x`` if one exists, else an optimal one followed by a
single recoloring to ``x``.  Each island is solved on its own by A* (:mod:`.astar`), with
a flood from its centre as the first upper bound and flood beams to improve an answer a
limit stopped (:mod:`.upper`).
"""

from __future__ import annotations

import time
from typing import Callable, Optional

from ..board import Board, Move
from ..graph import build_regions, region_cells, tap_cell
from .astar import astar
from .huge import HUGE_REGIONS, adjacency_lists, set_bits, solve_huge
from .limits import IMPROVE_SHARE, Budget, Outcome, Path, Proven, SearchStopped, reserve_seconds
from .notes import GreedyPart, Note, Stopped
from .state import Island, contract, renumber
from .upper import flood_beam, flood_from_centre, greedy_flood

#: Longest flood beam (seconds) run for a better upper bound when the A*'s memory fills.
BEAM_SECONDS = 30.0


def solve_free(board: Board, budget: Budget) -> Outcome:
    """Solve a board under the free rules: each island on its own (the search, or
    :mod:`~kamivision.solver.huge` for islands too large for it), then all brought to the
    best common final color, and the paths turned into moves on cells."""
    graph = build_regions(board)
    masks = graph.islands()
    solved: list[tuple[list[int], Island, Path, int, bool]] = []
    notes: list[Note] = []
    stopped = False  # a limit or Ctrl-C stopped a search
    for mask in masks:
        if mask.bit_count() > HUGE_REGIONS:
            regions = set_bits(mask)
            island = Island(bytes(graph.colors[g] for g in regions), ())  # no bitsets: see solver.huge
            path, bound = solve_huge(island.colors, adjacency_lists(graph.adjacency, regions))
            # Proven only alone: the final-color step below searches each island again.
            proven = bound >= len(path) and len(masks) == 1
            solved.append((regions, island, path, bound, proven))
            if not proven:
                notes.append(GreedyPart(len(regions), bound))
            continue
        island, regions = local_island(graph, mask)
        if len(island) == 1:
            solved.append((regions, island, [], 0, True))
            continue
        path, bound, proven = solve_island(island, budget)
        assert path is not None  # merging moves always reach one region
        solved.append((regions, island, path, bound, proven))
        # Unproven because nothing is within the moves asked for (a bound above them) is an
        # answer, not a stop.
        stopped |= not proven and (budget.max_moves is None or bound <= budget.max_moves)
    proven_all = all(item[4] for item in solved)
    # The common final color: islands that can end in it at their optimum cost nothing more.
    finals: list[dict[int, Path]] = []  # for each island, a path of its length by final color
    for regions, island, path, bound, proven in solved:
        if len(masks) > 1 and proven_all and len(island) > 1:
            try:
                finals.append(_final_colors(island, path, len(path), budget))
            except SearchStopped:
                proven_all, stopped = False, True
                finals.append({_end_color(island, path): path})
        else:
            finals.append({_end_color(island, path): path})
    candidates = sorted(set().union(*finals))
    target = max(candidates, key=lambda x: sum(x in f for f in finals))
    extra = sum(target not in f for f in finals)
    lower = sum(item[3] for item in solved) + (extra if proven_all else 0)
    moves = _replay(board, graph, solved, finals, target)
    if stopped:
        notes.append(Stopped(budget.stop()))
    return Outcome(tuple(moves), proven_all, min(lower, len(moves)), len(graph), len(masks), tuple(notes))


def local_island(graph, mask: int) -> tuple[Island, list[int]]:
    if mask == (1 << len(graph)) - 1:  # the whole board is one island: numbered as it is
        return Island(bytes(graph.colors), graph.adjacency), list(range(len(graph)))
    regions, adjacency = renumber(graph.adjacency, mask)
    return Island(bytes(graph.colors[g] for g in regions), adjacency), regions


def solve_island(island: Island, budget: Budget) -> tuple[Optional[Path], int, bool]:
    """(path, lower bound, proven) for one island.

    A flood from the centre (:mod:`kamivision.solver.upper`) gives a first solution of
    length ``U``; A* then looks only for shorter ones, and when it finds none ``U`` is
    proven optimal.  When a limit stops A*, a reserve of time
    (:func:`~kamivision.solver.limits.reserve_seconds`) goes to a beam over free moves
    scored by their floods, for a better unproven answer; an answer as short as the bound
    A* proved is optimal all the same.  Under ``budget.max_moves`` (see
    :func:`kamivision.solver.solve`) A* looks only for solutions within it; when it rules
    them all out, the flood's answer comes back with that many moves plus one as its bound.
    """
    # Half the proof's time at most: on a board of thousands of regions a flood alone can
    # take minutes, and A* can stop with a flood of its own.
    deadline = None if budget.proof_deadline is None else (budget.start + budget.proof_deadline) / 2
    try:
        quick = flood_from_centre(contract(island, island.colors), slack=2, settings=budget.settings, deadline=deadline)
    except KeyboardInterrupt:  # Ctrl-C in the first flood: the A* stops at once, the greedy flood answers
        budget.interrupted = True
        quick = None
    upper = (len(quick), quick) if quick is not None else None
    budget.found = len(quick) if quick is not None else None  # for the progress reports

    def improve(bound: int) -> Optional[Path]:
        # The A* handed over, or its memory is full and it goes on depth-first (proof.prove):
        # a shorter solution lowers the thresholds left.  The beam ends at the first one
        # move shorter than the known one: the thresholds below are searched all the same,
        # and looking on took 0.6 s of Bud4's 3.2 s, for a 14 there is not.
        floor = bound if budget.found is None else max(bound, budget.found - 1)
        deadline = time.perf_counter() + _beam_seconds(budget)
        return flood_beam(
            island, deadline, width=4, floor=floor, report=_beam_report(budget, bound), settings=budget.settings
        )

    cap = budget.max_moves
    capped = cap is not None and (upper is None or upper[0] > cap + 1)
    refuted: Path = []  # returned by the A* when nothing within ``cap`` exists
    if capped:
        upper = (cap + 1, refuted)

    def flood_answer() -> Path:  # the answer when nothing within the cap was found: no beams for it
        return quick if quick is not None else greedy_flood(contract(island, island.colors))

    shown: list[Path] = []  # what the first look found, shorter than the flood's
    try:
        limited = budget.limits.max_seconds is not None or budget.limits.max_nodes is not None or cap is not None
        look = _first_look(island, budget, upper, shown) if upper is not None and not limited else None
        path = astar(island, budget, upper=upper, improve=improve, pause=look)
    except Proven as done:  # the first look's answer is as short as the bound proven then
        return done.path, len(done.path), True
    except SearchStopped as stop:
        if capped and stop.path is None:
            best = flood_answer()
            return best, min(stop.bound, len(best)), False
        best = shown[-1] if shown else quick
        if stop.path is not None and (best is None or len(stop.path) < len(best)):
            best = stop.path
        best = _improve(island, best, stop.bound, budget)
        # Every solution shorter than the search's bound was ruled out: one that long is optimal.
        return best, min(stop.bound, len(best)), stop.bound >= len(best)
    if path is refuted:  # every solution takes more than ``cap`` moves: proven, and the bound says so
        return flood_answer(), cap + 1, False
    assert path is not None  # merging moves always reach one region
    return path, len(path), True


#: Without a limit, the proof runs this long first; when it has not finished by then, flood
#: beams get :data:`FIRST_IMPROVE_SECONDS` before it goes on (:func:`_first_look`).
FIRST_PROOF_SECONDS = 1.0
#: What a 10 s limit keeps for improving an unproven answer.
FIRST_IMPROVE_SECONDS = IMPROVE_SHARE * 10.0


def _first_look(
    island: Island, budget: Budget, upper: tuple[int, Path], shown: list[Path]
) -> Optional[tuple[float, Callable[[int], Optional[Path]]]]:
    """Without a limit, the answer shown while the proof runs (and kept at Ctrl-C) must be
    as good as the one a 10 s limit gives.  The proof pauses once, after
    :data:`FIRST_PROOF_SECONDS`, for flood beams to improve the answer as after a limit
    (:func:`_improve`, :data:`FIRST_IMPROVE_SECONDS`), then goes on where it was (the
    A*'s ``pause``), with a shorter answer as its upper bound in the phases after.  The
    answer found goes to ``shown`` (and the progress reports); one as short as the bound
    the proof had reached is optimal, and ends it (:class:`Proven`).  Otherwise optimality
    is untouched: the proof's own queue and bound decide what it proves.  None when the
    setting is off."""
    if not budget.settings.first_look:
        return None

    def look(bound: int) -> Optional[Path]:
        best = _improve(island, upper[1], bound, budget, FIRST_IMPROVE_SECONDS)
        if len(best) <= bound and not budget.interrupted:
            raise Proven(best)  # nothing shorter than the bound exists: optimal
        if len(best) >= upper[0]:
            return None
        shown.append(best)
        budget.found = len(best)
        return best

    return time.perf_counter() + FIRST_PROOF_SECONDS, look


def _beam_seconds(budget: Budget) -> float:
    """Seconds for the flood beam run when memory fills: a quarter of the time left, at
    most :data:`BEAM_SECONDS` (a width-4 beam takes 1-5 s on the largest Journey levels)."""
    left = budget.seconds_left()
    return BEAM_SECONDS if left is None else min(BEAM_SECONDS, left / 4)


def _beam_report(budget: Budget, bound: int) -> Callable[[int], None]:
    """A flood beam's report of its best length, passed on to the solve's progress
    callback (if any, see :meth:`Budget.report`) with the bound proven."""

    def report(length: int) -> None:
        budget.report(budget.expanded, bound, time.perf_counter() - budget.start, best=length)

    return report


def _improve(island: Island, best: Optional[Path], bound: int, budget: Budget, seconds: Optional[float] = None) -> Path:
    """Flood beams of width 4, 8, 16, ... (:func:`~kamivision.solver.upper.flood_beam`) in
    the time reserved after a stop (or ``seconds``), until one reaches the proven ``bound``.  A beam takes
    about twice as long as the one half as wide, so the next width is tried only when that
    fits in what is left of the reserve (a beam cut short rarely does better)."""
    if best is None:
        # Not even a flood from the centre finished in the time (or Ctrl-C came first): the
        # board is too large for floods in what is left (a beam floods many times), so the
        # greedy flood answers.
        return greedy_flood(contract(island, island.colors))
    if budget.interrupted:  # Ctrl-C: answer now
        return best
    deadline = time.perf_counter() + (reserve_seconds(budget) if seconds is None else seconds)
    report = _beam_report(budget, bound)
    width, last = 4, 0.0
    while (best is None or len(best) > bound) and width <= 256:
        started = time.perf_counter()
        if started + 2 * last > deadline:
            break
        try:
            best = flood_beam(
                island, deadline, width=width, best=best, floor=bound, report=report, settings=budget.settings
            )
        except KeyboardInterrupt as stop:  # Ctrl-C: keep the best so far, this beam's too
            budget.interrupted = True
            kept = getattr(stop, "best", None)  # upper.BeamInterrupted
            if kept is not None and len(kept) < len(best):
                best = kept
            break
        last = time.perf_counter() - started
        width *= 2
    return best


def _final_colors(island: Island, path: Path, length: int, budget: Budget) -> dict[int, Path]:
    """Every color in which the island can end after ``length`` moves (the optimum), with
    such a path for each."""
    reached = {_end_color(island, path): path}
    budget.found = length  # for the progress reports: the island's optimum
    sentinel: Path = []
    for color in sorted(set(island.colors) - set(reached)):
        found = astar(island, budget, goal_color=color, upper=(length + 1, sentinel))
        if found is not None and found is not sentinel:
            reached[color] = found
    return reached


def _end_color(island: Island, path: Path) -> int:
    return path[-1][1] if path else island.colors[0]


#: Boards up to this many cells get moves on the cell deepest inside each region (where a
#: marker shows best) and are replayed cell by cell to check the answer; larger ones (only
#: Flood-It style benchmarks are) tap each region's first cell, which any path keeps
#: inside the growing region, so that answering stays linear in the moves.
REPLAY_CELLS = 2000


def _replay(board: Board, graph, solved, finals, target: int) -> list[Move]:
    """Turn island paths into moves on cells: each island's path that ends in ``target``
    when it has one (``finals``, from :func:`_final_colors`), else its own and one move
    more to ``target``."""
    moves: list[Move] = []
    current = board
    replay = board.size <= REPLAY_CELLS
    for (regions, island, path, _, _), final in zip(solved, finals):
        path = final.get(target, path)
        taps = list(path)
        if _end_color(island, path) != target:
            taps.append((0, target))
        for local, color in taps:
            start = (graph.cells[regions[local]] & -graph.cells[regions[local]]).bit_length() - 1
            if replay:
                moves.append(_tap(current, start, color))
                current = current.apply(moves[-1])
            else:
                moves.append(Move(*divmod(start, board.columns), color))
    if replay and not current.is_solved():  # pragma: no cover - a bug, not a user error
        raise AssertionError("the moves found do not solve the board")
    return moves


def _tap(board: Board, cell: int, color: int) -> Move:
    inside = tap_cell(board, region_cells(board, cell))
    r, c = divmod(inside, board.columns)
    return Move(r, c, color)
