"""What a search may spend and why it stopped, for every search kamivision runs: the KAMI
solver's (:mod:`kamivision.solver`, whose :class:`~kamivision.solver.limits.Budget`
counts what one solve has spent) and the sliding puzzles' (:mod:`kamivision.puzzles`,
whose :class:`~kamivision.puzzles.search.Clock` does).  :class:`Limits` asks; a search
that ends before its proof says why with a :class:`Stop`, and :mod:`kamivision.report`
words it.

Tested in tests/solver/test_islands.py, tests/puzzles/test_search.py.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Optional

#: Called about twice a second with a dict: states expanded, the bound proven, seconds,
#: and what else the search knows (the best length found).
Progress = Callable[[dict], None]


@dataclass(frozen=True)
class Limits:
    """What a search may spend, given once and never changed: seconds and states expanded
    (``None``: no limit), and where its progress goes."""

    max_seconds: Optional[float] = None
    max_nodes: Optional[int] = None
    progress: Optional[Progress] = None


class Stop(enum.Enum):
    """Why a search stopped before its answer was proven."""

    LIMIT = "limit"  # a time or node limit
    INTERRUPTED = "interrupted"  # Ctrl-C
