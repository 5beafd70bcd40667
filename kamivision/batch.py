"""Runs over many boards: the one way a batch is solved (folders and lists of sources,
Flood-It collections, tile-sliding collections).

:func:`run` owns what every batch shares: one clock for the whole run (each board gets at
most what is left of it, and none starts once it is spent), one pool policy (a forkserver
pool whose workers leave Ctrl-C to the parent, fed a bounded look-ahead of a stream), and
one way Ctrl-C ends a run.  What a board is and how it is solved is the caller's
``solve_one``; the rows it returns are the caller's too.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from typing import Callable, Iterable, Iterator, Optional, TypeVar

Item = TypeVar("Item")
Row = TypeVar("Row")

#: Boards handed to a pool ahead of its workers, per worker: a stream is never read whole.
LOOK_AHEAD = 64


def ignore_sigint() -> None:
    """In a worker process: Ctrl-C is the parent's to handle (it stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def seconds_for(max_seconds: Optional[float], end: Optional[float]) -> Optional[float]:
    """A board's limit: ``max_seconds`` cut to what is left before ``end`` (a
    ``time.monotonic()`` reading, one clock for every process on the machine)."""
    if end is None:
        return max_seconds
    left = max(0.0, end - time.monotonic())
    return left if max_seconds is None else min(max_seconds, left)


def run(
    items: Iterable[Item],
    solve_one: Callable[[Item, Optional[float]], Row],
    *,
    jobs: int = 1,
    max_seconds: Optional[float] = None,
    total_seconds: Optional[float] = None,
    interrupted: Callable[[Row], bool] = lambda row: False,
    ordered: bool = True,
    chunksize: int = 1,
) -> Iterator[Row]:
    """Solve every item, yielding ``solve_one(item, seconds)`` as each is done.

    ``items`` may be a stream: it is read as the run goes (a few boards ahead of a pool's
    workers), never whole.  ``max_seconds`` bounds each board and ``total_seconds`` the
    whole run: ``seconds`` is what is left of both, and no board starts once the run's
    time is spent (the run just ends).  With ``jobs`` above 1 the boards are solved in a
    forkserver pool (not fork: the parent may hold threads, OpenCV's, which fork copies
    badly), so ``solve_one`` and the items must pickle; rows come in the items' order, or
    as they finish when not ``ordered``; ``chunksize`` boards go to a worker at a time
    (more than one for many quick boards).

    Ctrl-C ends the run.  With one process the board being solved answers with its best
    (a row that ``interrupted`` says so), it is yielded and the run ends; with several the
    workers ignore it, the pool is stopped, and the ``KeyboardInterrupt`` reaches the
    caller after the rows already yielded."""
    end = None if total_seconds is None else time.monotonic() + total_seconds

    def spent() -> bool:
        return end is not None and time.monotonic() >= end

    items = iter(items)
    if jobs <= 1:
        for item in items:
            if spent():
                return
            row = solve_one(item, seconds_for(max_seconds, end))
            yield row
            if interrupted(row):
                return
        return
    pool = multiprocessing.get_context("forkserver").Pool(jobs, initializer=ignore_sigint)
    imap = pool.imap if ordered else pool.imap_unordered
    try:
        while not spent():
            batch = list(itertools.islice(items, LOOK_AHEAD * jobs))
            if not batch:
                break
            yield from imap(_Call(solve_one, max_seconds, end), batch, chunksize=chunksize)
        pool.close()
    finally:
        pool.terminate()  # no-op after close() and a full run; stops the workers otherwise
        pool.join()


class _Call:
    """``solve_one`` with the run's limits, as a pool's workers call it (it pickles when
    ``solve_one`` does); each board's seconds are worked out when its worker starts it."""

    def __init__(self, solve_one: Callable, max_seconds: Optional[float], end: Optional[float]):
        self.solve_one, self.max_seconds, self.end = solve_one, max_seconds, end

    def __call__(self, item):
        return self.solve_one(item, seconds_for(self.max_seconds, self.end))
