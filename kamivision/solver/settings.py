"""The search's machine-dependent sizes, in one frozen object made once and passed down."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

#: Memory the free A* keeps when a known solution lets the sweep take over the thresholds
#: left once it is full (bytes).  The A* proves the first thresholds in little memory; each
#: threshold costs tens of times the one before, and the sweep expands the same states as
#: the A* in about two thirds of its time (no parent links, hash or queue) and in a
#: fraction of its memory, going to disk when that is full; so it is best handed the work
#: early, once a look for a shorter solution has run (which the A* would find as soon as it
#: met one, the sweep only at the end of its threshold).  Measured with 10 s a level
#: (docs/measurements.md, 2026-11-29, twenty-sixth session): at 4 MiB against 1 GiB, the
#: Journey's Bud4 2.9-3.1 s against 3.5-4.2 s, the same 109 proven and the same bounds on
#: the five not proven; KAMI 1 105 proven against 104, a few mid-sized levels 0.2-0.4 s
#: slower (the look).
HANDOVER_BYTES = 4 << 20


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity set where the system has one (a
    container limited to two CPUs of a larger machine counts two, where ``os.cpu_count``
    says how many the machine has), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity call (macOS, Windows)
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How much of the machine a solve may use, and which search runs.

    ``max_bytes``: memory the compiled cores may use.  The free search stores states in
    60 % of it (of ``handover_bytes`` when a solution is known and the sweep takes over)
    and then goes on depth-first from its open states (``deep_phase`` in the core), so it
    is never stopped by memory; the pivot search does the same.
    ``threads``: 1 or 2 for the compiled free search; the answers are the same either
    way, and so are the states the A* expands (only the depth-first phase counts
    differently, and the time).
    ``core``: use the compiled core when it is built (``False``: the pure-Python search,
    same answers, for tests and for machines without a C compiler).
    ``first_look``: without a limit, a proof not finished in its first second pauses for
    flood beams to find a better answer to show, then goes on (:func:`~kamivision.solver.islands._first_look`);
    ``False``: the states expanded depend on the board alone, not on the time (for tests
    that compare runs).
    ``max_disk_bytes``: disk the sweep may write its states to when they pass ``max_bytes``
    (``_core/spill.c``: the states of the region counts waiting their turn, read back when
    it comes), in the temporary folder (``TMPDIR``); ``0``: none, the sweep stops when its
    memory is full; ``None``: half of what is free there when the sweep starts.
    ``path_flood``: the compiled search adds the path-flood bound
    (:mod:`~kamivision.solver.pathflood`) at the states it expands, and lets the children
    of moves outside its corridor keep it: ``True`` in the A* and the sweeps, ``False``
    nowhere, ``None`` (the default) in the sweeps a race chooses
    (:data:`~kamivision.solver.proof.RACE_FROM`).  It cuts the states searched by 5 to 35
    times, but one evaluation costs as much as tens of expansions, so it pays on some
    levels only (the sweep proving Bud5's par 167 s -> 95 s; Bud4 and Bud6 about even;
    Threegrid5 over 300 s against 102 s; Bud4's whole solve 3.4 s -> 4.3 s, which is why
    the A* does not race it; ``docs/measurements.md``, 2026-11-28 twenty-second session).
    """

    max_bytes: int = 4 << 30
    max_disk_bytes: Optional[int] = 0
    handover_bytes: int = HANDOVER_BYTES
    threads: int = 1
    core: bool = True
    first_look: bool = True
    path_flood: Optional[bool] = None

    @classmethod
    def for_this_machine(
        cls, sharing: int = 1, max_mb: Optional[int] = None, max_disk_mb: Optional[int] = None
    ) -> "SearchSettings":
        """60 % of the memory available now (at least 256 MiB; 4 GiB where it cannot be
        asked), or ``max_mb`` megabytes when the user set them (``--max-memory-mb``),
        and two threads when this process may use two CPUs.  Disk for the sweep: half of
        what the temporary folder has free when it starts, or ``max_disk_mb`` megabytes
        (``--max-disk-mb``; 0: none).

        ``sharing``: the solves that may run at once on this machine (a server's solving
        processes).  Each gets its share of the memory, and two threads only when there
        are two CPUs for each: the two threads meet after every batch of expansions, so a
        thread that waits for a CPU holds the other up (measured: two solves at once on 2
        CPUs with two threads each took 4.7 s where one alone took 0.5 s)."""
        sharing = max(1, sharing)
        if max_mb is not None:  # the user's figure, shared, with no floor: theirs to choose
            max_bytes = max_mb * 1_000_000 // sharing
        else:
            try:
                available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
                max_bytes = max(256 << 20, int(available * 0.6))
            except (AttributeError, ValueError, OSError):  # no sysconf (Windows)
                max_bytes = 4 << 30
            max_bytes = max(256 << 20, max_bytes // sharing)
        if max_disk_mb is not None:
            max_disk = max_disk_mb * 1_000_000 // sharing
        else:  # half the free space, looked at now when shared, else when a sweep starts
            max_disk = None if sharing == 1 else spill_folder(None)[1] // sharing
        threads = 2 if usable_cpus() >= 2 * sharing else 1
        return cls(max_bytes=max_bytes, max_disk_bytes=max_disk, threads=threads)


def spill_folder(max_disk_bytes: Optional[int]) -> tuple[Optional[str], int]:
    """Where the sweep may write its states and how many bytes (``SearchSettings.max_disk_bytes``;
    ``None``: half of what that folder has free now): ``(None, 0)`` for none."""
    if max_disk_bytes == 0:
        return None, 0
    import tempfile  # 5 ms: only when a sweep starts

    folder = tempfile.gettempdir()
    if max_disk_bytes is None:
        try:
            stat = os.statvfs(folder)
            max_disk_bytes = stat.f_bavail * stat.f_frsize // 2
        except (AttributeError, OSError):  # no statvfs (Windows), or the folder is gone
            return None, 0
    return (folder, max_disk_bytes) if max_disk_bytes > 0 else (None, 0)
