"""What a player should know about how an answer was found, as data: the searches and the
checks after them say what happened, and :func:`kamivision.report.note_text` words it.

Tested in tests/solver/test_islands.py, tests/solver/test_pivot.py, tests/solver/test_huge.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from ..limits import Stop


@dataclass(frozen=True)
class Stopped:
    """A limit, or Ctrl-C, stopped the search (``reason``): the moves are the best found,
    not proven optimal.  ``during_check``: Ctrl-C came in the counter check, after the
    search had answered."""

    reason: Stop
    during_check: bool = False


@dataclass(frozen=True)
class GreedyPart:
    """A part of the board of ``regions`` regions, too many for the proving search, was
    solved by a greedy flood; at least ``bound`` moves are needed there."""

    regions: int
    bound: int


@dataclass(frozen=True)
class BeamAnswer:
    """The pivot rules' beam search of ``width`` gave the answer, not proven optimal;
    ``cut``: why a limit, or Ctrl-C, ended the beam (the answer is then the greedy one),
    or None when it ran to its end."""

    width: int
    cut: Optional[Stop] = None


Note = Union[Stopped, GreedyPart, BeamAnswer]
