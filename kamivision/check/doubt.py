"""Solution -> doubt: which of the cells read with doubt could change the moves.

The reader flags every cell it may have wrong: a small margin between two colors, a cell
mostly hidden by the screen's edge, a cell covered by ink.  Most of them cannot change the
answer: a cell deep inside a region that the moves recolor with its neighbors ends the
same whatever it is.  Listing them all would bury the few that matter, so the answer is
tested against them instead:

* every doubtful cell gets its *plausible other readings* (:func:`plausible_readings`):
  its runner-up color, the color of each neighbor (a misread cell usually belongs to a
  region beside it), blank where that was possible, and any color at all when the screen
  did not show it;
* the answer's moves are replayed (:class:`Replay`) on the board with each reading, and
  with each combination of readings of two adjacent doubtful cells;
* a cell *matters* when some reading leaves the board unsolved after the moves, makes a
  move tap a blank cell, or solves it before the last move (so the answer would no longer
  be the shortest).  Only those cells are shown to the player; the rest are summed up.

This is a replay, not a search: each reading costs one pass over the moves on bitsets,
and a reading of cells that no move touches before the first move that comes near them
is replayed from there only.  :mod:`kamivision.check.steady` then looks for moves that avoid
the doubt.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Optional, Sequence

from ..board import BLANK, Board, Cell, CellSet, ColorId, Move, neighbor_table

if TYPE_CHECKING:
    from ..vision import Recognition
    from ..vision.palette import PaletteDoubt

Value = Optional[ColorId]  # a cell's reading: a color, or BLANK
Reading = tuple[tuple[Cell, Value], ...]  # other values of one or two cells


def _shifts(board: Board) -> tuple[int, int, int, int]:
    """Masks for growing a cell set by one lattice step with shifts: ``(full, left,
    right, columns)`` where ``left`` holds the cells whose neighbor ``cell - 1`` exists and
    ``right`` those whose neighbor ``cell + 1`` exists (triangle: by orientation; square:
    all but the edge column)."""
    rows, columns = board.rows, board.columns
    left = right = 0
    for cell in range(rows * columns):
        r, c = divmod(cell, columns)
        if board.lattice == "triangle":
            if (r + c) % 2 == 0 and c > 0:
                left |= 1 << cell
            elif (r + c) % 2 == 1 and c + 1 < columns:
                right |= 1 << cell
        else:
            if c > 0:
                left |= 1 << cell
            if c + 1 < columns:
                right |= 1 << cell
    return (1 << rows * columns) - 1, left, right, columns


class Replay:
    """A board's moves replayed on color bitsets, once for the board as read and then for
    other readings of a few cells (:meth:`solved_after`).

    The board as read is replayed once, keeping the state before every move and the cells
    each move's flood reaches or borders.  A reading that changes cells no move comes near
    before move ``k`` leaves moves ``0 .. k-1`` unchanged (each flood is the same region:
    the changed cells are neither in it nor beside it), so its replay starts at ``k``.
    """

    def __init__(self, board: Board, moves: Sequence[Move]):
        self.full, self.left, self.right, self.columns = _shifts(board)
        self.colors = max([board.color_count] + [m.color + 1 for m in moves])
        self.original = board.colors()
        self.taps = [m.row * board.columns + m.column for m in moves]
        self.paints = [m.color for m in moves]
        masks = [0] * self.colors
        for cell, value in enumerate(self.original):
            if value is not BLANK:
                masks[value] |= 1 << cell
        self.states: list[tuple[int, ...]] = [tuple(masks)]
        self.near: list[CellSet] = []
        self.valid = True
        for tap, paint in zip(self.taps, self.paints):
            region = self._flood(masks, tap)
            if region is None:
                self.valid = False
                break
            self.near.append(region | self._grow(region))
            self._paint(masks, region, paint)
            self.states.append(tuple(masks))
        self.length = len(self.near)
        #: How many moves solve the board as read (None: they do not).
        self.steps = self._first_solved(0) if self.valid else None

    def _grow(self, cells: CellSet) -> CellSet:
        columns = self.columns
        return (
            (cells >> columns) | (cells << columns) | ((cells & self.left) >> 1) | ((cells & self.right) << 1)
        ) & self.full

    def _flood(self, masks: list[int], tap: Cell) -> Optional[CellSet]:
        """The region holding ``tap`` (None when it is blank)."""
        bit = 1 << tap
        same = next((m for m in masks if m & bit), 0)
        if not same:
            return None
        region = bit
        while True:
            grown = (region | self._grow(region)) & same
            if grown == region:
                return region
            region = grown

    @staticmethod
    def _paint(masks: list[int], region: CellSet, color: ColorId) -> None:
        keep = ~region
        for i in range(len(masks)):
            masks[i] &= keep
        masks[color] |= region

    @staticmethod
    def _solved(masks: Sequence[int]) -> bool:
        return sum(1 for m in masks if m) <= 1

    def _first_solved(self, start: int) -> Optional[int]:
        for k in range(start, len(self.states)):
            if self._solved(self.states[k]):
                return k
        return None

    def _changed(self, state: tuple[int, ...], changes: dict[Cell, Value]) -> list[int]:
        masks = list(state)
        for cell, value in changes.items():
            bit = 1 << cell
            for i in range(len(masks)):
                masks[i] &= ~bit
            if value is not BLANK:
                masks[value] |= bit
        return masks

    def solved_after(self, changes: dict[Cell, Value]) -> Optional[int]:
        """After how many of the moves the board with ``changes`` (cell -> value) is one
        color; None when the moves do not solve it (a move taps a blank cell, or colors
        remain after the last)."""
        if not self.valid:
            return None
        if any(value is not BLANK and value >= self.colors for value in changes.values()):
            return None
        touched = 0
        for cell in changes:
            touched |= 1 << cell
        start = next((k for k, near in enumerate(self.near) if near & touched), self.length)
        # Before move ``start`` only the changed cells differ: the board may be one color
        # sooner (the changed cells were the last of a color), never later.
        for k in range(start):
            if sum(1 for m in self.states[k] if m) <= 1 + len(changes) and self._solved(
                self._changed(self.states[k], changes)
            ):
                return k
        masks = self._changed(self.states[start], changes)
        if self._solved(masks):
            return start
        for k in range(start, self.length):
            region = self._flood(masks, self.taps[k])
            if region is None:
                return None
            self._paint(masks, region, self.paints[k])
            if self._solved(masks):
                return k + 1
        return None

    def holds(self, changes: dict[Cell, Value]) -> bool:
        """Whether the moves still solve the board with ``changes``, after the last move
        and not before."""
        return self.steps is not None and self.solved_after(changes) == self.steps


#: A reading whose cost (:attr:`~kamivision.vision.Recognition.costs`: 0 for the class
#: chosen, up to 1) is below this is plausible for any doubtful cell: the same margin
#: below which the reader calls a cell uncertain (``VisionSettings.uncertain``).
PLAUSIBLE_COST = 0.25
#: A neighbor's color is plausible up to this cost: a misread cell usually belongs to a
#: region beside it, so the reading needs less support than an unrelated color.
NEIGHBOR_COST = 0.5


def plausible_readings(recognition: "Recognition", board: Optional[Board] = None) -> dict[Cell, tuple[Value, ...]]:
    """The other values each doubtful cell may plausibly have.

    * Every value its own pixels allow: whose cost, as the pixels measured it, is below
      :data:`PLAUSIBLE_COST` (the runner-up of a cell with a small margin).  The reading's
      costs are scaled down by how little of a cell the screen shows; here that scaling is
      undone, because a sliver's pixels are either the cell's own (and then as telling
      as any) or, when the lattice is a pixel off at the screen's edge, a neighbor's.
    * The color of each neighbor, up to :data:`NEIGHBOR_COST`: a misread cell usually
      belongs to a region beside it, and a sliver may show its neighbor's pixels (for a
      cell hidden at the screen's edge, the cells two steps away count as neighbors: its
      one or two neighbors are often slivers too).
    * Every value at all for a cell the screen does not show, and for a sliver read as the
      color of a neighbor the screen shows well, in the top or bottom row (cut by the
      screen's side and by the status strip or the footer, its few pixels may be that
      neighbor's).

    A cell with no cost model (a board without its reading) may be any color or a
    neighbor's value.  ``board`` is the board as it now stands (after a person's fixes);
    cells a person set are not doubtful."""
    board = board if board is not None else recognition.board
    costs = recognition.costs
    table = neighbor_table(board.lattice, board.rows, board.columns)
    colors = board.color_count
    out: dict[Cell, tuple[Value, ...]] = {}
    for r, c in recognition.uncertain:
        cell = r * board.columns + c
        here = board.color_at(cell)
        if here != recognition.board.color_at(cell):
            continue  # a person set it
        around = {board.color_at(n) for n in table[cell]}
        if recognition.visible[r, c] < recognition.settings.hidden:
            # A sliver may show a pixel-off lattice's neighbor: the colors two steps away too.
            around |= {board.color_at(m) for n in table[cell] for m in table[n]}
        if costs is None:
            values = around | set(range(colors))
        else:
            hidden = recognition.settings.hidden
            shown = min(1.0, float(recognition.visible[r, c]) / max(hidden, 1e-6))
            # A corner sliver (cut by the screen's side and by the strip or the footer)
            # read as the color of a neighbor the screen shows well may be that
            # neighbor's pixels (the lattice a pixel off at the edge): its own tell nothing.
            corner = r in (0, board.rows - 1)
            bleeds = (
                corner
                and shown < 1.0
                and any(
                    board.color_at(n) == here and recognition.visible[divmod(n, board.columns)] >= hidden
                    for n in table[cell]
                )
            )
            if shown <= 0.0 or bleeds:
                values = around | set(range(colors)) | {BLANK}
                values.discard(here)
                out[cell] = tuple(
                    sorted((v for v in values if v is BLANK or v < colors), key=lambda v: -1 if v is BLANK else v)
                )
                continue
            cost = [float(v) / shown for v in costs[r, c]]

            def index(value: Value) -> int:
                return len(cost) - 1 if value is BLANK else value

            candidates = [BLANK, *range(len(cost) - 1)]
            values = {v for v in candidates if cost[index(v)] < PLAUSIBLE_COST}
            values |= {v for v in around if (v is BLANK or v < len(cost) - 1) and cost[index(v)] < NEIGHBOR_COST}
        values.discard(here)
        values = {v for v in values if v is BLANK or v < colors}
        # The likeliest first (the joint replay in :func:`assess` takes each cell's first).
        if costs is None:
            out[cell] = tuple(sorted(values, key=lambda v: -1 if v is BLANK else v))
        else:
            out[cell] = tuple(sorted(values, key=lambda v: (cost[index(v)], -1 if v is BLANK else v)))
    return out


def readings(plausible: dict[Cell, tuple[Value, ...]], board: Board) -> Iterator[Reading]:
    """Every reading to test: each doubtful cell's other values alone, then each pair of
    adjacent doubtful cells with both changed."""
    for cell, values in plausible.items():
        for value in values:
            yield ((cell, value),)
    table = neighbor_table(board.lattice, board.rows, board.columns)
    for a in plausible:
        for b in table[a]:
            if b > a and b in plausible:
                for va, vb in itertools.product(plausible[a], plausible[b]):
                    yield ((a, va), (b, vb))


@dataclass(frozen=True, slots=True)
class SteadySearch:
    """What the look for moves that avoid the doubt found (:mod:`kamivision.check.steady`):
    ``tried`` other answers of ``length`` moves; ``held``: one holds whatever the doubtful
    cells are (the moves are it); ``complete``: every candidate was tried (not cut short by
    its time or count)."""

    tried: int
    length: int
    held: bool
    complete: bool


@dataclass(frozen=True, slots=True)
class Doubt:
    """What the doubt in a reading means for an answer.

    ``doubtful``: every cell read with doubt; ``matters``: those with a plausible other
    reading (alone, or with an adjacent doubtful cell) under which the moves change;
    ``breaking``: for each of those, one such reading; ``readings``: how many were
    replayed.  ``search``: what the look for moves that avoid the doubt found (None when
    it was not needed).  ``palette``: why the colors themselves are in doubt, if they are.
    """

    doubtful: tuple[Cell, ...] = ()
    matters: tuple[Cell, ...] = ()
    breaking: tuple[Reading, ...] = ()
    readings: int = 0
    search: Optional[SteadySearch] = None
    palette: Optional["PaletteDoubt"] = None

    @property
    def harmless(self) -> int:
        """Doubtful cells whose other readings leave the moves as they are."""
        return len(self.doubtful) - len(self.matters)


def assess(board: Board, moves: Sequence[Move], plausible: dict[Cell, tuple[Value, ...]]) -> Doubt:
    """Replay ``moves`` under every reading of the doubtful cells (:func:`readings`) and
    keep the cells under which they change.  A pair of cells is blamed only when each of
    its two readings holds alone: a pair that fails because one of its readings fails
    alone says nothing about the other cell.  Last, the remaining cells together at their
    likeliest other readings, shrunk to a set that fails only as a whole; and the same for
    the cells of each confusion (read as one value, likeliest another) on their own;
    both again until a round blames no more cells."""
    replay = Replay(board, moves)
    matters: dict[Cell, Reading] = {}
    failing: set[tuple[Cell, Value]] = set()
    count = 0
    for reading in readings(plausible, board):
        if len(reading) == 1:
            count += 1
            if not replay.holds(dict(reading)):
                failing.add(reading[0])
                matters.setdefault(reading[0][0], reading)
            continue
        if any(single in failing for single in reading) or all(cell in matters for cell, _ in reading):
            continue
        count += 1
        if not replay.holds(dict(reading)):
            for cell, _ in reading:
                matters.setdefault(cell, reading)
    # Cells far apart can still change the moves together (three hidden slivers that are
    # all blank, say): replay every other doubtful cell at its likeliest other reading at
    # once, and blame a set of them that fails only as a whole (:func:`_blame_together`).
    # Misreads also come together from one cause (JPEG or a tint bringing one color near
    # another, or near the background): so the same again for each confusion on its own,
    # the cells read as one value whose likeliest other reading is one other value.
    # Both again until a round blames nothing more: five cells may hold all together, two
    # of them fail as a confusion, and the other three fail together once those two are
    # left out (tests/check/test_doubt.py has that board).
    flat = board.colors()
    confusions = sorted({(flat[c], values[0]) for c, values in plausible.items() if values}, key=repr)
    while True:
        blamed = len(matters)
        count += _blame_together(replay, plausible, matters, lambda cell: True)
        for read, other in confusions:
            count += _blame_together(
                replay, plausible, matters, lambda cell: (flat[cell], plausible[cell][0]) == (read, other)
            )
        if len(matters) == blamed:
            break
    order = sorted(matters)
    return Doubt(tuple(sorted(plausible)), tuple(order), tuple(matters[c] for c in order), count)


def _blame_together(replay: "Replay", plausible, matters: dict, chosen) -> int:
    """Replay the doubtful cells not yet blamed that ``chosen`` picks, all at their likeliest
    other reading at once; when that fails, drop cells one by one while it still fails, and
    blame the cells left (they fail only together: each of them matters), then again on the
    cells not yet blamed until they hold together (two such groups far apart).  Adds to
    ``matters``; returns the replays made."""
    count = 0
    while True:
        rest = [
            (cell, values[0])
            for cell, values in sorted(plausible.items())
            if values and cell not in matters and chosen(cell)
        ]
        if len(rest) < 2:
            return count
        count += 1
        if replay.holds(dict(rest)):
            return count
        keep = list(rest)
        for item in rest:
            trial = [x for x in keep if x != item]
            count += 1
            if not replay.holds(dict(trial)):
                keep = trial
        if not keep:  # the moves fail on the board as read: nothing to blame on the doubt
            return count
        for cell, _ in keep:
            matters.setdefault(cell, tuple(keep))
