"""Safe Zone (MentalBlocker): identical blocks slide until an edge, a hole or another
block stops them, until every safe zone holds a block.

The rules and the file format ``kamivision.safezone/1`` are those of
``docs/safe-zone-format.md``: a move slides one block up, down, left or right as far
as it goes (a slide of no cell is no move); holes act as the board's edge; blocks never
push; a safe zone does not stop a block unless ``rules`` is ``slide-stop-on-zone``; the
puzzle is solved when every zone holds a block (helper blocks end anywhere).

A state is the set of cells holding blocks, one integer bitset (``cell = r * columns +
c``): identical blocks make equal sets, so duplicate states are found by the set itself.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple, Optional

from ..formats import SAFE_ZONE
from .fileformat import ABSENT, extras, grid_rows, header, integer, read_json
from .search import Limits, Result, Stop, astar

try:  # Safe Zone's A*, compiled (setup.py); the Python search below is the reference
    from . import _safezone
except ImportError:  # pragma: no cover - no C compiler at install
    _safezone = None

#: Boards the compiled search takes (a state is one 64-bit set of cells).
COMPILED_CELLS = 64

FORMAT = SAFE_ZONE
HOLE, TILE, BLOCK, ZONE, BLOCK_ON_ZONE = 0, 1, 2, 4, 6
RULES = ("slide", "slide-stop-on-zone")
#: Directions in the order moves are tried: (name, row step, column step).
DIRECTIONS = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))


@dataclass(frozen=True)
class SafeZone:
    """One level: the floor (cells that are not holes), the zones, the blocks."""

    rows: int
    columns: int
    floor: int  # bitset of the cells that are tiles (not holes)
    zones: int  # bitset of the safe zones
    blocks: int  # bitset of the cells holding a block at the start
    name: Optional[str] = None
    par: Optional[int] = None
    optimal: Any = ABSENT  # int, None (proven unsolvable) or ABSENT
    rules: str = "slide"

    @property
    def size(self) -> int:
        return self.rows * self.columns

    def code(self, cell: int, blocks: Optional[int] = None) -> int:
        """The file's code for ``cell`` with ``blocks`` (default: the start)."""
        blocks = self.blocks if blocks is None else blocks
        if not self.floor >> cell & 1:
            return HOLE
        return (BLOCK if blocks >> cell & 1 else 0) + (ZONE if self.zones >> cell & 1 else 0) or TILE


# ---------------------------------------------------------------- the file format


def read_safezone(path: str | Path) -> SafeZone:
    obj, origin = read_json(path)
    return safezone_from_dict(obj, origin)


def safezone_from_dict(obj: Any, origin: str = "<safezone>") -> SafeZone:
    """Validate a ``kamivision.safezone/1`` object; every problem is one
    :class:`BoardFileError` line that names ``origin`` and the place."""
    fail, rows, columns = header(obj, FORMAT, origin, "Safe Zone")
    if rows * columns > 4096:
        raise fail(f"{rows} x {columns} is too large (at most 4096 cells)")
    cells = grid_rows(obj, "cells", rows, columns, fail)
    floor = zones = blocks = 0
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            if not integer(value) or value not in (HOLE, TILE, BLOCK, ZONE, BLOCK_ON_ZONE):
                raise fail(
                    f"cell ({r},{c}) is {json.dumps(value)}: expected 0 (hole), 1 (tile), 2 (block), 4 (safe zone) or 6 (block on a safe zone)"
                )
            bit = 1 << (r * columns + c)
            if value != HOLE:
                floor |= bit
            if value in (ZONE, BLOCK_ON_ZONE):
                zones |= bit
            if value in (BLOCK, BLOCK_ON_ZONE):
                blocks |= bit
    if not zones:
        raise fail("the level has no safe zone (code 4 or 6)")
    if blocks.bit_count() < zones.bit_count():
        raise fail(f"{blocks.bit_count()} block(s) for {zones.bit_count()} safe zones: it can never be solved")
    name, par, optimal = extras(obj, fail)
    rules = obj.get("rules", "slide")
    if rules not in RULES:
        raise fail(f"rules is {rules!r}, expected one of {', '.join(map(repr, RULES))}")
    return SafeZone(rows, columns, floor, zones, blocks, name, par, optimal, rules)


def safezone_to_dict(level: SafeZone, blocks: Optional[int] = None) -> dict:
    out: dict[str, Any] = {"format": FORMAT}
    if level.name is not None:
        out["name"] = level.name
    out.update(rows=level.rows, columns=level.columns)
    out["cells"] = [
        [level.code(r * level.columns + c, blocks) for c in range(level.columns)] for r in range(level.rows)
    ]
    if level.rules != "slide":
        out["rules"] = level.rules
    if level.par is not None:
        out["par"] = level.par
    if level.optimal is not ABSENT:
        out["optimal"] = level.optimal
    return out


# ---------------------------------------------------------------- moves


class Slide(NamedTuple):
    """One block from ``start`` to ``end`` (cells) in direction ``direction`` (a named
    tuple: search makes millions of them)."""

    start: int
    direction: str
    end: int

    def to_json(self, columns: int) -> dict:
        return {"from": list(divmod(self.start, columns)), "dir": self.direction, "to": list(divmod(self.end, columns))}


class SafeZoneProblem:
    """The level as a search problem: states are bitsets of block cells."""

    def __init__(self, level: SafeZone):
        self.level = level
        n, columns = level.size, level.columns
        # steps[d][cell]: the cell one step in direction d, or -1 off the floor.
        self.steps = []
        for _, dr, dc in DIRECTIONS:
            table = []
            for cell in range(n):
                r, c = divmod(cell, columns)
                rr, cc = r + dr, c + dc
                inside = 0 <= rr < level.rows and 0 <= cc < columns
                nxt = rr * columns + cc if inside else -1
                table.append(nxt if nxt >= 0 and level.floor >> nxt & 1 else -1)
            self.steps.append(table)
        self.stop_on_zone = level.rules == "slide-stop-on-zone"

    def start(self) -> int:
        return self.level.blocks

    def is_goal(self, state: int) -> bool:
        return self.level.zones & ~state == 0

    def moves(self, state: int) -> Iterator[tuple[Slide, int]]:
        """Blocks in row-major order, then U, D, L, R (the spec's deterministic order)."""
        zones = self.level.zones
        rest = state
        while rest:
            low = rest & -rest
            cell = low.bit_length() - 1
            rest ^= low
            for (name, _, _), table in zip(DIRECTIONS, self.steps):
                at = cell
                while True:
                    nxt = table[at]
                    if nxt < 0 or state >> nxt & 1:
                        break
                    at = nxt
                    if self.stop_on_zone and zones >> at & 1:
                        break
                if at != cell:
                    yield Slide(cell, name, at), state ^ low | (1 << at)


# ---------------------------------------------------------------- bounds


def uncovered_zones(level: SafeZone):
    """H0: the safe zones without a block.

    Admissible: a move relocates one block to one cell, so it covers at most one more
    zone; the count falls by at most 1 a move and is 0 exactly when solved (and
    consistent for the same reason)."""
    zones = level.zones

    def h(state: int) -> int:
        return (zones & ~state).bit_count()

    return h


class SetUpStopped(Exception):
    """The time limit ended (or Ctrl-C came) while the bound's tables were being made."""


def segment_distances(level: SafeZone, deadline: Optional[float] = None) -> dict[int, list[Optional[int]]]:
    """For every zone z, ``d[z][p]``: the fewest straight segments from floor cell p to z, a
    segment running any length of at least 1 over floor cells, ignoring blocks and stopping
    anywhere (a breadth-first search of rook moves over the floor).  Raises
    :class:`SetUpStopped` past ``deadline`` (a ``time.perf_counter()`` value), checked after
    every zone."""
    out = {}
    columns = level.columns
    for z in _bits(level.zones):
        if deadline is not None and time.perf_counter() > deadline:
            raise SetUpStopped
        d: list[Optional[int]] = [None] * level.size
        d[z] = 0
        queue = deque([z])
        while queue:
            cell = queue.popleft()
            r, c = divmod(cell, columns)
            for _, dr, dc in DIRECTIONS:
                rr, cc = r + dr, c + dc
                while 0 <= rr < level.rows and 0 <= cc < columns and level.floor >> (rr * columns + cc) & 1:
                    other = rr * columns + cc
                    if d[other] is None:
                        d[other] = d[cell] + 1
                        queue.append(other)
                    rr, cc = rr + dr, cc + dc
        out[z] = d
    return out


def assignment_bound(level: SafeZone, deadline: Optional[float] = None):
    """H1: the least total, over assignments of distinct blocks to the zones, of each
    block's segment distance to its zone (:func:`segment_distances`); ``None`` when no
    assignment is finite (a dead end).

    Admissible: every real slide runs straight over floor cells and ends on one, so it is
    one relaxed segment (the stoppers only restrict real slides).  Follow each block
    through an optimal solution: the blocks that end on zones give an assignment, a block
    ending on zone z made at least d(start, z) slides, and slides of different blocks are
    different moves; so the solution has at least the assignment's total, which is at
    least the least total.  Consistent: a move changes one block's cell from p to q and
    d(p, z) <= 1 + d(q, z), so the next state's best assignment, used here, is at most 1
    lower.  It dominates H0 (a zone without a block needs a block at distance >= 1).
    The minimum is taken over every assignment up to four zones (depth first, cut when
    the partial total reaches the best), else by the Hungarian method (SciPy).  Values
    are remembered per state."""
    distances = segment_distances(level, deadline)
    zones = list(distances)
    rows = [distances[z] for z in zones]
    memo: dict[int, Optional[int]] = {}
    big = 10**6

    def h(state: int) -> Optional[int]:
        known = memo.get(state, ABSENT)
        if known is not ABSENT:
            return known
        blocks = list(_bits(state))
        table = [[row[b] for b in blocks] for row in rows]
        if len(zones) <= 4:
            best = _least_assignment(table, 0, 0)
        else:
            from scipy.optimize import linear_sum_assignment

            cost = [[big if v is None else v for v in row] for row in table]
            picked_rows, picked_columns = linear_sum_assignment(cost)
            total = sum(cost[i][j] for i, j in zip(picked_rows, picked_columns))
            best = None if total >= big else int(total)
        if len(memo) < 2_000_000:
            memo[state] = best
        return best

    return h


def _least_assignment(
    table: list[list[Optional[int]]], row: int, used: int, spent: int = 0, best: Optional[int] = None
) -> Optional[int]:
    """The least total picking one distinct column per row (None entries forbidden)."""
    if row == len(table):
        return spent
    for column, value in enumerate(table[row]):
        if value is None or used >> column & 1 or (best is not None and spent + value >= best):
            continue
        found = _least_assignment(table, row + 1, used | 1 << column, spent + value, best)
        if found is not None and (best is None or found < best):
            best = found
    return best


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ---------------------------------------------------------------- solving and showing


def solve_safezone(
    level: SafeZone, limits: Limits = Limits(), heuristic: str = "assignment", compiled: bool = True
) -> Result:
    """The fewest slides, by A* with H1 (or H0 with ``heuristic="zones"``).  The bound's
    set-up (the distance tables) runs inside ``limits.max_seconds`` too: the search gets
    what is left.  With H1 on a board of at most :data:`COMPILED_CELLS` cells the compiled
    search runs (``compiled``, when built): the same states in the same order as the
    Python search (:func:`kamivision.puzzles.search.astar`), so the same answer."""
    started = time.perf_counter()
    deadline = None if limits.max_seconds is None else started + limits.max_seconds
    fast = compiled and _safezone is not None and heuristic == "assignment" and level.size <= COMPILED_CELLS
    try:
        if fast:
            distances = segment_distances(level, deadline)
        else:
            h = assignment_bound(level, deadline) if heuristic == "assignment" else uncovered_zones(level)
    except (SetUpStopped, KeyboardInterrupt) as stop:
        why = Stop.INTERRUPTED if isinstance(stop, KeyboardInterrupt) else Stop.LIMIT
        return Result(None, False, 0, 0, time.perf_counter() - started, stopped=why)
    if deadline is not None:
        limits = dataclasses.replace(limits, max_seconds=max(0.0, deadline - time.perf_counter()))
    if fast:
        result = _compiled_astar(level, distances, limits)
    else:
        result = astar(SafeZoneProblem(level), h, limits)
    return dataclasses.replace(result, seconds=time.perf_counter() - started)


def _compiled_astar(level: SafeZone, distances: dict[int, list[Optional[int]]], limits: Limits) -> Result:
    """:func:`kamivision.puzzles.search.astar` with the assignment bound, in C."""
    from array import array

    from ..solver.core import Status

    table = array("h", [-1 if d is None else d for z in sorted(distances) for d in distances[z]])
    board = (level.rows, level.columns, level.floor, level.zones, level.blocks, level.rules == "slide-stop-on-zone")
    seconds = -1.0 if limits.max_seconds is None else limits.max_seconds
    nodes = -1 if limits.max_nodes is None else limits.max_nodes
    status, moves, expanded, bound = _safezone.astar(*board, table.tobytes(), seconds, nodes, limits.progress)
    if status == Status.FOUND:
        found = tuple(Slide(start, DIRECTIONS[d][0], end) for start, d, end in moves)
        return Result(found, True, len(found), expanded, 0.0)
    if status == Status.NONE:  # the queue ran dry (or the bound proved the start dead)
        return Result(None, True, bound, expanded, 0.0, unsolvable=True)
    return Result(
        None, False, bound, expanded, 0.0, stopped=Stop.INTERRUPTED if status == Status.INTERRUPTED else Stop.LIMIT
    )


def draw(level: SafeZone, blocks: Optional[int] = None) -> str:
    """``#`` block, ``o`` empty safe zone, ``@`` block on a safe zone, ``.`` tile, a
    space for a hole; a border shows the board's edge."""
    glyph = {HOLE: " ", TILE: ".", BLOCK: "#", ZONE: "o", BLOCK_ON_ZONE: "@"}
    lines = ["+" + "-" * (2 * level.columns + 1) + "+"]
    for r in range(level.rows):
        row = " ".join(glyph[level.code(r * level.columns + c, blocks)] for c in range(level.columns))
        lines.append(f"| {row} |")
    lines.append(lines[0])
    return "\n".join(lines)


# ---------------------------------------------------------------- making levels


def generate(
    rng: random.Random,
    rows: int,
    columns: int,
    zones: int,
    helpers: int = 0,
    holes: float = 0.12,
    min_moves: int = 3,
    tries: int = 200,
    limits: Limits = Limits(max_seconds=20),
    counts: Optional[dict] = None,
    max_seconds: Optional[float] = None,
    progress: Optional[Callable[[int, dict], None]] = None,
    compiled: bool = True,
) -> Optional[tuple[SafeZone, Result]]:
    """A random solvable level (``zones`` zones, as many blocks plus ``helpers``) whose
    proven optimum is at least ``min_moves``, with its solution; ``None`` when ``tries``
    random boards, or ``max_seconds`` in all, gave none.  A board is drawn again when it
    has no solution, needs fewer moves, or is not proven within ``limits`` (cut to the
    time left); ``counts`` (when given) counts those outcomes, and ``progress`` is told
    after each try.  Ctrl-C stops it (KeyboardInterrupt), it is not one more failed try.
    Each level is proven by :func:`solve_safezone` (``compiled``: its compiled search)."""
    counts = {} if counts is None else counts
    n = rows * columns
    if 2 * zones + helpers + 2 > n:
        raise ValueError(
            f"{zones} zone(s), as many blocks and {helpers} helper(s) do not fit on {rows} x {columns} cells"
        )
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    for attempt in range(tries):
        if progress is not None and attempt:
            progress(attempt, counts)
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        floor_cells = [cell for cell in range(n) if rng.random() >= holes]
        if len(floor_cells) < 2 * zones + helpers + 2:
            continue
        chosen = rng.sample(floor_cells, 2 * zones + helpers)
        zone_cells, block_cells = chosen[:zones], chosen[zones:]
        level = SafeZone(
            rows,
            columns,
            floor=sum(1 << cell for cell in floor_cells),
            zones=sum(1 << cell for cell in zone_cells),
            blocks=sum(1 << cell for cell in block_cells),
        )
        h = assignment_bound(level)
        if h(level.blocks) is None or SafeZoneProblem(level).is_goal(level.blocks):
            counts["dead"] = counts.get("dead", 0) + 1
            continue
        if left is not None:
            limits = dataclasses.replace(limits, max_seconds=min(limits.max_seconds or left, left))
        result = solve_safezone(level, limits, compiled=compiled)
        if result.stopped is Stop.INTERRUPTED:
            raise KeyboardInterrupt
        outcome = (
            "unsolvable"
            if result.unsolvable
            else "unproven"
            if result.moves is None
            else "short"
            if len(result.moves) < min_moves
            else "kept"
        )
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome == "kept":
            return dataclasses.replace(level, optimal=len(result.moves)), result
    return None
