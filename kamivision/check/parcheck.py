"""The reading checked against the moves-left counter.

At a level's start the counter shows par, and par is nearly always the optimum, so a
proven optimum of the board as read that differs from it is the clearest sign of a misread
cell.  This stage looks for the cheapest explanation: it re-solves the board with the most
doubtful cells given another plausible reading (their runner-up class, or a neighbor's
color), one cell at a time, then connected groups of cells read alike, then pairs, cheapest
first and within a bounded number of alternatives and seconds; a reading whose proven
optimum meets the counter names the cells that were probably misread, and its board and
solution are offered to the user.

It runs after the solver and before the overlay (image -> board -> solution -> check ->
overlay); it only reads the recognition and calls the solver.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass
from typing import Optional

from ..board import BLANK, Board, neighbor_table
from ..solver import SearchSettings, Solution, solve
from ..vision import Recognition

#: A change of reading: (row, column, value read, value proposed); a value is a color or BLANK.
Change = tuple[int, int, Optional[int], Optional[int]]

#: At most this many of the cheapest single changes are paired with each other.  It was 8,
#: with 60 alternatives in all, until the check asked only within the counter: on a tall
#: Android shot with two hidden cells misread together, 80 alternatives (16 paired) now
#: take 9 s where 60 were cut short at 10 s, and the pair is among them.
PAIRED = 16


@dataclass(frozen=True, slots=True)
class Alternative:
    """Another reading of the board and its solution."""

    changes: tuple[Change, ...]
    cost: float  # the sum of the changes' costs (0: as likely as the reading; 1: far less)
    board: Board
    solution: Solution


@dataclass(frozen=True, slots=True)
class CounterCheck:
    """What re-solving other readings found: the cheapest that meets the counter, if any."""

    counter: int
    read_optimum: int
    tried: int
    matching: tuple[Alternative, ...]  # cheapest first
    complete: bool  # every alternative within the limit was solved (not cut short by time)
    seconds: float

    @property
    def best(self) -> Optional[Alternative]:
        """The cheapest reading that meets the counter, when the check tells readings
        apart: when most of the readings tried meet it (an optimum below the counter
        rises with almost any change), none is singled out."""
        return self.matching[0] if self.matching and self.telling else None

    @property
    def telling(self) -> bool:
        """Few of the readings tried meet the counter (at most 3, or a fifth of them)."""
        return len(self.matching) <= max(3, self.tried // 5)


def candidate_changes(recognition: Recognition, limit: int) -> list[tuple[float, tuple[Change, ...]]]:
    """The alternatives to try, cheapest first: single cells, groups of adjacent cells with
    the same reading and the same proposal (a whole region misread), and pairs of the
    :data:`PAIRED` cheapest single changes; at most ``limit``."""
    board = recognition.board
    singles = [(cost, ((r, c, board.cells[r][c], value),)) for cost, r, c, value in recognition.other_readings()]
    found: dict[frozenset, tuple[float, tuple[Change, ...]]] = {}
    for cost, changes in singles:
        found.setdefault(frozenset(changes), (cost, changes))
    for group in _groups([changes[0] for _, changes in singles], board):
        cost = sum(c for c, ch in singles if ch[0] in group)
        found.setdefault(frozenset(group), (cost, tuple(sorted(group, key=lambda ch: (ch[0], ch[1])))))
    for (c1, (a,)), (c2, (b,)) in itertools.combinations(singles[:PAIRED], 2):
        if (a[0], a[1]) != (b[0], b[1]):
            found.setdefault(frozenset((a, b)), (c1 + c2, (a, b)))
    ranked = sorted(found.values(), key=lambda item: (item[0], len(item[1]), [ch[:2] for ch in item[1]]))
    return ranked[:limit]


def _groups(changes: list[Change], board: Board) -> list[set[Change]]:
    """Connected groups (two cells or more) of changes with the same reading and proposal."""
    table = neighbor_table(board.lattice, board.rows, board.columns)
    by_cell = {}
    for change in changes:
        by_cell.setdefault((change[2], change[3]), {})[change[0] * board.columns + change[1]] = change
    groups = []
    for cells in by_cell.values():
        left = set(cells)
        while left:
            stack, group = [left.pop()], set()
            while stack:
                cell = stack.pop()
                group.add(cells[cell])
                for n in table[cell]:
                    if n in left:
                        left.remove(n)
                        stack.append(n)
            if len(group) > 1:
                groups.append(group)
    return groups


def apply_changes(board: Board, changes: tuple[Change, ...]) -> Board:
    cells = [list(row) for row in board.cells]
    for r, c, _, value in changes:
        cells[r][c] = value
    return dataclasses.replace(board, cells=tuple(tuple(row) for row in cells))


def check_counter(
    recognition: Recognition,
    solution: Solution,
    *,
    board: Optional[Board] = None,
    max_seconds: float = 10.0,
    limit: int = 80,
    settings: Optional[SearchSettings] = None,
) -> Optional[CounterCheck]:
    """Re-solve other readings of the uncertain cells when the proven optimum of the board
    (``board``, as a person fixed it, else as read) differs from the counter; None when
    there is nothing to check (no counter read, the optimum not proven, or it meets the
    counter).  Cells a person changed are taken as they now are: no alternative changes
    them.  Each alternative gets at most a quarter of ``max_seconds``; one not proven
    within it does not count as meeting the counter.  Only solutions within the counter
    are looked for (``max_moves``): an alternative that needs more is ruled out as soon
    as the search has shown it, without proving its own optimum.  ``settings``: the
    searches' (the solve's own, so that its memory cap holds here too)."""
    base = recognition.board if board is None else board
    counter = base.par
    if counter is None or not solution.optimal or solution.length == counter:
        return None
    read = recognition.board.cells
    fixed = {
        (r, c)
        for r, row in enumerate(base.cells)
        for c, v in enumerate(row)
        if r >= len(read) or c >= len(read[r]) or read[r][c] != v
    }
    started = time.perf_counter()
    matching, tried, complete = [], 0, True
    for cost, changes in candidate_changes(recognition, limit):
        if any((r, c) in fixed for r, c, _, _ in changes):
            continue
        left = max_seconds - (time.perf_counter() - started)
        if left <= 0:
            complete = False
            break
        board = apply_changes(base, changes)
        if all(v is BLANK for row in board.cells for v in row):
            continue
        answer = solve(board, max_seconds=min(left, max_seconds / 4), max_moves=counter, settings=settings)
        tried += 1
        if answer.interrupted:
            raise KeyboardInterrupt
        if answer.optimal and answer.length == counter:
            matching.append(Alternative(changes, cost, board, answer))
    return CounterCheck(
        counter=counter,
        read_optimum=solution.length,
        tried=tried,
        matching=tuple(matching),
        complete=complete,
        seconds=time.perf_counter() - started,
    )
