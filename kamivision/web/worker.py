"""``kamivision worker --redis URL``: solves from the Redis queue, on any host.

A worker is an RQ worker (:mod:`rq`) that has the solver imported already: RQ forks a
work horse from it for each job, so a job starts in milliseconds, as the in-memory server's
fork server does.  The job (:func:`solve_job`) reports its state and progress in the RQ
job's ``meta``, beats a heartbeat key while it runs, turns a cancel key into a Ctrl-C (the
solver then answers with its best so far) and pushes its answer into its session.  RQ's
job timeout is the hard limit: a horse that overruns it is killed.

Tested in tests/web/test_redis.py.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import time
from typing import Optional

from .jobs import changes, solve_for_page
from .redisstore import HEARTBEAT, PREFIX, QUEUE, Serializer, busy_key, push_result, reachable
from .sessions import Result

log = logging.getLogger("kamivision.worker")

#: The job functions a worker runs: kamivision's own, and nothing a job record names
#: besides (:func:`job_class`).
JOB_FUNCTIONS = frozenset({"kamivision.web.worker.solve_job"})


class RefusedJob(Exception):
    """A job in the queue that names something other than kamivision's own job function."""


@functools.lru_cache(maxsize=1)
def job_class():
    """RQ's job class, narrowed to what kamivision queues: the function is one of
    :data:`JOB_FUNCTIONS` (a forged record naming any other is refused, logged, and
    recorded as failed, nothing of it run), and no callbacks or webhooks (kamivision sets
    none; a forged record's would be run or called by the worker)."""
    from rq.job import Job as RQJob

    class KamiJob(RQJob):
        @property
        def func(self):
            name = self.func_name
            if self.instance is not None or name not in JOB_FUNCTIONS:
                log.error("job %s names %r, not kamivision's solve: refused", self.id, name)
                raise RefusedJob(f"a job naming {name!r} is not kamivision's: refused")
            return super().func

        @property
        def success_callback(self):
            return None

        @property
        def failure_callback(self):
            return None

        @property
        def stopped_callback(self):
            return None

        def send_webhooks(self, status, *, exc_string=None) -> None:
            return None

    return KamiJob


#: Megabytes for the stored states of this worker's solves (``kamivision worker
#: --max-memory-mb``), set by :func:`run_worker` before RQ forks the work horses that
#: run :func:`solve_job`; None: 60 % of the memory free, shared by the workers on this host.
MAX_MB: Optional[int] = None

#: Megabytes of the temporary folder for those states when memory is full (``--max-disk-mb``),
#: set the same way; None: half of what is free there, shared by the workers on this host; 0: none.
MAX_DISK_MB: Optional[int] = None


def solve_job(session: str, board, max_seconds: float, recognition, check_seconds: float) -> None:
    """One solve, run in an RQ work horse: :func:`~kamivision.web.jobs.solve_for_page`, its
    reports kept in the RQ job's ``meta`` and its answer pushed into its session."""
    from rq import get_current_job
    from rq.timeouts import JobTimeoutException

    job = get_current_job()
    redis = job.connection
    meta = job.meta
    beat, cancel = PREFIX + f"beat:{job.id}", PREFIX + f"cancel:{job.id}"

    def report(**changes) -> None:
        meta.update(changes)
        meta["version"] = meta.get("version", 0) + 1
        job.save_meta()

    def send(event) -> None:
        change = changes(event)
        if change.get("state") in ("cancelled", "failed"):
            change["finished"] = time.time()
        report(**change)

    signal.signal(signal.SIGINT, signal.default_int_handler)  # a cancel is a Ctrl-C
    redis.set(beat, 1, px=int(HEARTBEAT * 1000))  # alive before the watcher's first beat
    watcher = _watch(redis, beat, cancel)
    try:
        report(state="running", started=time.time())
        sharing = _workers_on_this_host(redis)
        solve_for_page(
            board,
            max_seconds,
            recognition,
            check_seconds,
            send,
            sharing,
            cancelled=lambda: bool(redis.exists(cancel)),
            reraise=(JobTimeoutException,),
            max_mb=None if MAX_MB is None else MAX_MB * sharing,  # this worker's, whatever the others have
            max_disk_mb=None if MAX_DISK_MB is None else MAX_DISK_MB * sharing,
        )
        if meta.get("solution") is not None and meta.get("state") not in ("failed", "cancelled"):
            answer = Result(
                board=board, solution=meta["solution"], check=meta.get("check"), doubt=meta.get("doubt"), job=job.id
            )
            push_result(redis, session, answer)
            report(state="done", finished=time.time())
    except JobTimeoutException:
        report(state="failed", error="the solve ran past its hard limit and was stopped", finished=time.time())
        raise
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        os.kill(watcher, signal.SIGKILL)
        os.waitpid(watcher, 0)
        redis.delete(beat, busy_key(session))


def _watch(redis, beat: str, cancel: str) -> int:
    """Fork the job's watcher; its pid.  While this process lives, the watcher beats the
    heartbeat key and turns the cancel key into a Ctrl-C of this process.  It is a process,
    not a thread, because the compiled solver may hold the GIL for seconds on one thread:
    a thread would then miss its beats, and the job would look dead."""
    parent = os.getpid()
    pool = redis.connection_pool
    settings = (type(pool), pool.connection_class, dict(pool.connection_kwargs))
    child = os.fork()
    if child:
        return child
    try:  # the watcher: its own connection, nothing of the job's
        import redis as redis_client
        from redis.exceptions import RedisError

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        kind, connection_class, kwargs = settings
        connection = redis_client.Redis(connection_pool=kind(connection_class=connection_class, **kwargs))
        asked = False
        while os.getppid() == parent:
            try:
                connection.set(beat, 1, px=int(HEARTBEAT * 1000))
                if not asked and connection.exists(cancel):
                    asked = True
                    os.kill(parent, signal.SIGINT)
            except RedisError:  # Redis away for a moment: the job goes on
                pass
            time.sleep(HEARTBEAT / 4)
    except Exception:  # noqa: BLE001 - said in the worker's log; the job then looks dead, and fails clearly
        log.exception("the job's watcher failed")
    finally:
        os._exit(0)


def _workers_on_this_host(redis) -> int:
    """The workers registered in Redis from this host (each may be solving): the solve's
    share of the memory and the CPUs (:meth:`~kamivision.solver.SearchSettings.for_this_machine`)."""
    import socket

    from redis.exceptions import RedisError
    from rq import Worker

    try:
        host = socket.gethostname()
        return max(
            1, sum(1 for worker in Worker.all(connection=redis, serializer=Serializer) if worker.hostname == host)
        )
    except RedisError:
        from ..solver.settings import usable_cpus

        return usable_cpus()


#: While Redis is away, the worker asks again this often (seconds).
RECONNECT = 1.0


def run_worker(
    url: str,
    burst: bool = False,
    name: str | None = None,
    max_mb: Optional[int] = None,
    max_disk_mb: Optional[int] = None,
) -> None:
    """Run solves from the queue at ``url`` until stopped (SIGTERM or Ctrl-C: the job at
    hand is finished first; a second one stops it), or, with ``burst``, until the queue is
    empty.  Raises :class:`~kamivision.errors.KamiError` when Redis cannot be reached at
    the start.  Redis going away later (a restart, ``maxmemory``) does not end the worker:
    RQ's loop stops on the error, and a new one starts once Redis answers again (the job
    that was running is reported by the page as stopped before it answered).  ``max_mb``:
    megabytes for the stored states of each of its solves (:data:`MAX_MB`), ``max_disk_mb``
    megabytes of the temporary folder for them (:data:`MAX_DISK_MB`)."""
    from redis.exceptions import RedisError
    from rq import Queue

    global MAX_MB, MAX_DISK_MB
    MAX_MB, MAX_DISK_MB = max_mb, max_disk_mb
    connection = reachable(url, timeout=None)
    import kamivision.check.parcheck  # noqa: F401 - imported once here, not in every job's process
    import kamivision.pipeline  # noqa: F401
    import kamivision.solver  # noqa: F401

    while True:
        kind = job_class()
        queue = Queue(QUEUE, connection=connection, serializer=Serializer, job_class=kind)
        worker = worker_class()(
            [queue], connection=connection, name=name, job_monitoring_interval=5, serializer=Serializer, job_class=kind
        )
        try:
            worker.work(burst=burst, logging_level="WARNING", with_scheduler=False)
            # RQ's loop ends on a stop (SIGTERM, Ctrl-C), an empty queue in a burst, or an
            # error it has logged (Redis lost mid-job, or over its maxmemory).
            if burst or worker.stop_asked:
                return
            log.warning("the worker's loop stopped on an error: solving again once Redis answers")
        except RedisError as error:  # raised by RQ's own clean-up, Redis being away
            log.warning("Redis went away (%s): solving again once it answers", str(error).split("\n")[0])
        if not _wait_for(connection):
            return
        with contextlib.suppress(RedisError):  # a name is free again once its worker is dead
            worker.register_death()


@functools.lru_cache(maxsize=1)
def worker_class():
    """An RQ worker that remembers a stop was asked (SIGTERM, Ctrl-C), and logs a refused
    job (:class:`RefusedJob`) in its one line, without RQ's traceback.  RQ's own mark,
    ``_stop_requested``, is set only when the stop comes mid-job: an idle worker's loop just
    ends, which looked like a lost Redis here, and the worker went on (a SIGTERM did not
    stop an idle ``kamivision worker``)."""
    from rq import Worker
    from rq.exceptions import DeserializationError

    class StoppableWorker(Worker):
        stop_asked = False

        def request_stop(self, signum, frame):
            self.stop_asked = True
            super().request_stop(signum, frame)

        def handle_exception(self, job, *exc_info):
            # A forged or foreign record is refused in one line, not logged as a fault of
            # the worker's with RQ's traceback.
            if issubclass(exc_info[0], RefusedJob):
                return  # logged where it was refused
            if issubclass(exc_info[0], DeserializationError):
                log.warning("job %s is not kamivision's data (it cannot be read): refused", job.id)
                return
            super().handle_exception(job, *exc_info)

    return StoppableWorker


def _wait_for(connection) -> bool:
    """Wait until Redis answers (True), or until SIGTERM or Ctrl-C (False)."""
    from redis.exceptions import RedisError

    stopping = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.append(True))
    while not stopping:
        time.sleep(RECONNECT)
        try:
            connection.ping()
            return not stopping
        except RedisError:
            continue
    return False
