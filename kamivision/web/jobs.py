"""Solving in the background for the web app.

Each solve runs in a process of its own, started from a fork server that has the solver
imported already (a few milliseconds instead of a fresh interpreter): the server's event
loop never waits on the solver, a cancel is a Ctrl-C sent to that process (the solver then
answers with its best so far, as on the command line), and a process that does not answer
is killed.  Jobs wait in one first-in first-out queue, and a session has at most one job
queued or running, so the queue is fair across sessions: each waits for at most one job of
every other session.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..board import Board

log = logging.getLogger("kamivision.web")

#: Seconds between progress reports sent by a solving process.
REPORT_SECONDS = 0.2
#: Seconds a cancelled process has to answer with its best before it is killed.
CANCEL_GRACE = 3.0
#: A solving process is killed when it overruns its limit by this much (a stuck solver).
OVERRUN_SECONDS = 20.0


class QueueFull(Exception):
    """Too many jobs are waiting."""


@dataclass
class Job:
    """One solve of one session's board, and what is known about it so far."""

    session: str
    board: Board
    max_seconds: float
    recognition: Any = None  # the screenshot's reading, for the doubt and the counter check (None: a board file)
    check_seconds: float = 10.0
    id: int = field(default_factory=itertools.count(1).__next__)
    state: str = "queued"  # queued, running, checking, done, cancelled, failed
    progress: dict = field(default_factory=dict)
    solution: Any = None  # kamivision.solver.Solution
    check: Any = None  # kamivision.check.parcheck.CounterCheck
    doubt: Any = None  # kamivision.check.doubt.Doubt (None: a board file)
    error: Optional[str] = None
    cancel_requested: bool = False
    queued_at: float = field(default_factory=time.time)  # wall clock: a job may move between hosts
    started_at: Optional[float] = None
    finished_at: Optional[float] = None
    version: int = 0  # bumped at every change, for the event stream

    @property
    def finished(self) -> bool:
        return self.state in ("done", "cancelled", "failed")


def solve_for_page(
    board: Board,
    max_seconds: float,
    recognition,
    check_seconds: float,
    send: Callable[[Any], None],
    sharing: int = 1,
    cancelled: Callable[[], bool] = lambda: False,
    reraise: tuple = (),
    max_mb: Optional[int] = None,
    max_disk_mb: Optional[int] = None,
) -> None:
    """One solve as the page wants it, told through ``send(event)``: the events of
    :mod:`kamivision.pipeline` (progress reports at most every :data:`REPORT_SECONDS`,
    then :class:`~kamivision.pipeline.Solved` and, for a screenshot,
    :class:`~kamivision.pipeline.Checked`: the sequence the command line runs, markers
    spread on the screenshot as there), :class:`Cancelled` after a Ctrl-C with no answer,
    :class:`Failed` on an error.  ``sharing``: the solves that may run beside this one
    (:meth:`~kamivision.solver.SearchSettings.for_this_machine`), which share ``max_mb``
    megabytes of memory and ``max_disk_mb`` of disk when they are given (``--max-memory-mb``,
    ``--max-disk-mb``); ``cancelled()``: a cancel
    was asked for (no check then); ``reraise``: exceptions left to the caller.  Run by the
    in-memory queue's processes and by ``kamivision worker``."""
    from ..errors import KamiError
    from ..pipeline import Progressed, after_solve
    from ..solver import SearchSettings, solve

    last = [0.0]

    def progress(info: dict) -> None:
        now = time.monotonic()
        if now - last[0] >= REPORT_SECONDS:
            last[0] = now
            send(Progressed({k: v for k, v in info.items() if isinstance(v, (int, float, str))}))

    try:
        settings = SearchSettings.for_this_machine(sharing, max_mb, max_disk_mb)
        solution = solve(board, max_seconds=max_seconds, progress=progress, settings=settings)
        events = after_solve(
            recognition, solution, board, check_seconds=check_seconds, cancelled=cancelled, settings=settings
        )
        for event in events:
            send(event)
    except reraise:
        raise
    except KeyboardInterrupt:
        send(Cancelled())
    except KamiError as error:
        send(Failed(str(error)))
    except Exception as error:  # noqa: BLE001 - reported to the page as one line, logged here
        log.exception("the solver failed")
        send(Failed(f"the solver failed ({type(error).__name__}); its log has the details"))


@dataclass(frozen=True, slots=True)
class Cancelled:
    """Ctrl-C (a cancel) stopped the solve before it had an answer."""


@dataclass(frozen=True, slots=True)
class Failed:
    """The solve failed: ``message`` in one line for the page."""

    message: str


def changes(event) -> dict:
    """What an event of :func:`solve_for_page` changes in its job's record (the in-memory
    :class:`Job`'s fields, the same names in an RQ job's ``meta``)."""
    from ..pipeline import Checked, Progressed, Solved

    match event:
        case Progressed(info):
            return {"progress": info}
        case Solved(solution, doubt, checking):
            return {"solution": solution, "doubt": doubt, "state": "checking" if checking else "running"}
        case Checked(solution, check):
            return {"solution": solution, "check": check}
        case Cancelled():
            return {"state": "cancelled"}
        case Failed(message):
            return {"state": "failed", "error": message}
    raise TypeError(f"not an event of a solve: {event!r}")


def last_event(event) -> bool:
    """Whether a solving process has nothing more to say after ``event``."""
    from ..pipeline import Checked, Solved

    return isinstance(event, (Checked, Cancelled, Failed)) or (isinstance(event, Solved) and not event.checking)


def _solve_in_child(
    conn,
    board: Board,
    max_seconds: float,
    recognition,
    check_seconds: float,
    sharing: int = 1,
    max_mb=None,
    max_disk_mb=None,
) -> None:
    """The solving process: :func:`solve_for_page`, its reports sent down ``conn``."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a cancel is a Ctrl-C
    try:
        solve_for_page(
            board, max_seconds, recognition, check_seconds, conn.send, sharing, max_mb=max_mb, max_disk_mb=max_disk_mb
        )
    finally:
        conn.close()


class JobQueue:
    """A fair queue of solves run by ``workers`` threads, each driving one process at a time;
    the solves share ``max_mb`` megabytes of memory for their stored states, and
    ``max_disk_mb`` of disk, when they are given."""

    def __init__(
        self,
        workers: int = 1,
        max_waiting: int = 64,
        on_finish: Optional[Callable[[Job], None]] = None,
        max_mb: Optional[int] = None,
        max_disk_mb: Optional[int] = None,
    ):
        self.workers = workers
        self.max_mb, self.max_disk_mb = max_mb, max_disk_mb
        self.on_finish = on_finish  # told of every job that ends (the store keeps its answer)
        self.max_waiting = max_waiting
        if "forkserver" in multiprocessing.get_all_start_methods():
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(["kamivision.solver", "kamivision.check.parcheck"])
        else:  # Windows: a fresh interpreter per solve (and a cancel there ends it without an answer)
            self._context = multiprocessing.get_context("spawn")
        self._changed = threading.Condition()
        self._waiting: deque[Job] = deque()
        self._processes: dict[int, Any] = {}
        self._closed = False
        self._threads = [threading.Thread(target=self._work, name=f"solver-{i}", daemon=True) for i in range(workers)]
        for thread in self._threads:
            thread.start()

    # ---------------------------------------------------------------- for the app

    def submit(self, job: Job) -> Job:
        with self._changed:
            if len(self._waiting) >= self.max_waiting:
                raise QueueFull(f"{len(self._waiting)} solves are waiting already: try again in a minute")
            self._waiting.append(job)
            self._changed.notify_all()
        return job

    def current(self, job: Job) -> Job:
        """``job`` as it is now (here the very object, which the workers update)."""
        return job

    def position(self, job: Job) -> int:
        """How many jobs wait before ``job`` (0 when it is next or running)."""
        with self._changed:
            try:
                return self._waiting.index(job)
            except ValueError:
                return 0

    def cancel(self, job: Job) -> None:
        """Take a waiting job off the queue, or ask a running one to stop with its best."""
        with self._changed:
            job.cancel_requested = True
            if job in self._waiting:
                self._waiting.remove(job)
                self._finish(job, "cancelled")
                return
            process = self._processes.get(job.id)
        if process is not None and process.pid is not None:
            if job.state == "checking":  # the answer is in: the check is only a hint
                process.kill()
            else:
                try:
                    os.kill(process.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass

    def wait(self, job: Job, timeout: float) -> bool:
        """Block until ``job`` has finished (True) or ``timeout`` seconds have passed."""
        end = time.monotonic() + timeout
        with self._changed:
            while not job.finished:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def close(self) -> None:
        """Stop taking jobs, cancel the waiting ones and kill the running processes."""
        with self._changed:
            self._closed = True
            for job in list(self._waiting):
                self._finish(job, "cancelled")
            self._waiting.clear()
            processes = list(self._processes.values())
            self._changed.notify_all()
        for process in processes:
            process.kill()
        for thread in self._threads:
            thread.join(timeout=5)

    @property
    def running(self) -> int:
        with self._changed:
            return len(self._processes)

    @property
    def waiting(self) -> int:
        with self._changed:
            return len(self._waiting)

    # ---------------------------------------------------------------- the workers

    def _finish(self, job: Job, state: str, error: Optional[str] = None) -> None:
        """Called with the lock held."""
        job.state = state
        job.error = error
        job.finished_at = time.time()
        job.recognition = None  # the reading is not needed any more
        job.version += 1
        if self.on_finish is not None:
            try:
                self.on_finish(job)
            except Exception:  # noqa: BLE001 - the queue must go on
                log.exception("keeping the answer of job %s failed", job.id)
        self._changed.notify_all()

    def _update(self, job: Job, **changes) -> None:
        with self._changed:
            for key, value in changes.items():
                setattr(job, key, value)
            job.version += 1
            self._changed.notify_all()

    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._waiting and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                job = self._waiting.popleft()
                job.state = "running"
                job.started_at = time.time()
                job.version += 1
                self._changed.notify_all()
            try:
                self._run(job)
            except Exception:  # noqa: BLE001 - a worker thread must survive any job
                log.exception("job %s failed", job.id)
                with self._changed:
                    if not job.finished:
                        self._finish(job, "failed", "the solver process failed; the server log has the details")

    def _run(self, job: Job) -> None:
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_solve_in_child,
            args=(
                send,
                job.board,
                job.max_seconds,
                job.recognition,
                job.check_seconds,
                self.workers,
                self.max_mb,
                self.max_disk_mb,
            ),
            daemon=True,
        )
        with self._changed:
            if self._closed:
                return
            process.start()
            self._processes[job.id] = process
        send.close()
        cancelled_at = None
        try:
            while True:
                now = time.time()
                if job.cancel_requested and cancelled_at is None:
                    cancelled_at = now
                if cancelled_at is not None and now - cancelled_at > CANCEL_GRACE:
                    process.kill()
                if now - job.started_at > job.max_seconds + job.check_seconds + OVERRUN_SECONDS:
                    log.warning("job %s overran its limit: killed", job.id)
                    process.kill()
                if not receive.poll(0.25):
                    if not process.is_alive() and not receive.poll(0):
                        break
                    continue
                try:
                    event = receive.recv()
                except (EOFError, OSError):
                    break
                if isinstance(event, Failed):
                    with self._changed:
                        self._finish(job, "failed", event.message)
                    return
                change = changes(event)
                # "checking" is the one state set here: the job's end is settled below, once
                # the process is done.  A job cancelled while solving keeps its answer, no check.
                checking = change.pop("state", None) == "checking"
                skip_check = checking and job.cancel_requested
                if checking and not skip_check:
                    change["state"] = "checking"
                self._update(job, **change)
                if last_event(event) or skip_check:
                    break
        finally:
            receive.close()
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
                process.join(timeout=2)
            with self._changed:
                self._processes.pop(job.id, None)
                if not job.finished:
                    if job.solution is not None:
                        self._finish(job, "done")
                    elif job.cancel_requested:
                        self._finish(job, "cancelled")
                    else:
                        self._finish(job, "failed", "the solver process ended without an answer")
