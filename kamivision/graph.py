"""Board -> region graph: connected same-color regions as bitsets, islands, tap points.

A *region* is a maximal connected set of non-blank cells of one color.  Regions are
numbered in the order of their lowest cell, so the graph of a board is canonical.
``RegionSet`` is an ``int`` used as a bitset over region numbers.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterator, Optional

from .board import BLANK, Board, Cell, CellSet, ColorId, neighbor_table

RegionSet = int


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True, slots=True)
class RegionGraph:
    """Regions of a board: color, cells and neighboring regions of each."""

    colors: tuple[ColorId, ...]
    cells: tuple[CellSet, ...]
    adjacency: tuple[RegionSet, ...]
    region_of: tuple[Optional[int], ...]

    def __len__(self) -> int:
        return len(self.colors)

    def islands(self) -> list[RegionSet]:
        """Connected components of the region graph (parts of the board separated by blanks)."""
        seen = 0
        out = []
        for start in range(len(self.colors)):
            if seen >> start & 1:
                continue
            component = frontier = 1 << start
            while frontier:
                grown = 0
                for i in bits(frontier):
                    grown |= self.adjacency[i]
                frontier = grown & ~component
                component |= frontier
            seen |= component
            out.append(component)
        return out


def build_regions(board: Board) -> RegionGraph:
    """Flood-fill the board into regions and link regions that share a lattice edge."""
    flat = board.colors()
    neighbors = neighbor_table(board.lattice, board.rows, board.columns)
    region_of: list[Optional[int]] = [None] * len(flat)
    colors: list[ColorId] = []
    cells: list[CellSet] = []
    for start, color in enumerate(flat):
        if color is BLANK or region_of[start] is not None:
            continue
        index = len(colors)
        region_of[start] = index
        members = 0
        stack = [start]
        while stack:
            cell = stack.pop()
            members |= 1 << cell
            for n in neighbors[cell]:
                if region_of[n] is None and flat[n] == color:
                    region_of[n] = index
                    stack.append(n)
        colors.append(color)
        cells.append(members)
    adjacency = [0] * len(colors)
    for cell, region in enumerate(region_of):
        if region is None:
            continue
        for n in neighbors[cell]:
            other = region_of[n]
            if other is not None and other != region:
                adjacency[region] |= 1 << other
    return RegionGraph(tuple(colors), tuple(cells), tuple(adjacency), tuple(region_of))


def tap_cell(board: Board, cells: CellSet) -> Cell:
    """A cell well inside the region ``cells``: the one farthest (in lattice steps) from its edge.

    Ties go to the cell nearest the region's middle (in row/column units), so markers drawn
    on it sit visibly inside the region.
    """
    members = list(bits(cells))
    inside = set(members)
    depth: dict[Cell, int] = {}
    queue: deque[Cell] = deque()
    for cell in members:
        neighbors = board.neighbors(cell)
        full = 3 if board.lattice == "triangle" else 4
        if len(neighbors) < full or any(n not in inside for n in neighbors):
            depth[cell] = 0
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        for n in board.neighbors(cell):
            if n in inside and n not in depth:
                depth[n] = depth[cell] + 1
                queue.append(n)
    columns = board.columns
    mean_r = sum(c // columns for c in members) / len(members)
    mean_c = sum(c % columns for c in members) / len(members)

    def score(cell: Cell) -> tuple[int, float, int]:
        r, c = divmod(cell, columns)
        return (-depth.get(cell, 0), (r - mean_r) ** 2 + (c - mean_c) ** 2, cell)

    return min(members, key=score)


def region_cells(board: Board, cell: Cell) -> CellSet:
    """The connected same-color region holding ``cell`` (a non-blank cell), as a bitset."""
    color = board.color_at(cell)
    members = 1 << cell
    stack = [cell]
    while stack:
        current = stack.pop()
        for n in board.neighbors(current):
            if not members >> n & 1 and board.color_at(n) == color:
                members |= 1 << n
                stack.append(n)
    return members
