"""``kamivision worker --redis URL``: solves from the Redis queue, on any host.

A worker is an RQ worker (:mod:`rq`) that has the solver imported already: RQ forks a
work horse from it for each job, so a job starts in milliseconds, as the in-memory server's
fork server does.  The job (:func:`solve_job`) reports its state and progress in the RQ
job's ``meta``, beats a heartbeat key while it runs, turns a cancel key into a Ctrl-C (the
solver then answers with its best so far) and pushes its answer into its session.  RQ's
job timeout is the hard limit: a horse that overruns it is killed.
"""

from __future__ import annotations

import logging
import os
import signal
import time

from .redisstore import HEARTBEAT, PREFIX, QUEUE, busy_key, connect, push_result
from .sessions import Result

log = logging.getLogger("kamivision.worker")

#: Seconds between progress reports written to Redis.
REPORT_SECONDS = 0.2


def solve_job(session: str, board, max_seconds: float, recognition, check_seconds: float) -> None:
    """One solve, run in an RQ work horse (see the module's docstring)."""
    from redis.exceptions import RedisError
    from rq import get_current_job
    from rq.timeouts import JobTimeoutException

    from ..errors import KamiError
    from ..solver import SearchSettings, solve

    job = get_current_job()
    redis = job.connection
    meta = job.meta
    beat, cancel = PREFIX + f"beat:{job.id}", PREFIX + f"cancel:{job.id}"

    def report(**changes) -> None:
        meta.update(changes)
        meta["version"] = meta.get("version", 0) + 1
        job.save_meta()

    last = [0.0]

    def progress(info: dict) -> None:
        now = time.monotonic()
        if now - last[0] >= REPORT_SECONDS:
            last[0] = now
            report(progress={k: v for k, v in info.items() if isinstance(v, (int, float, str))})

    signal.signal(signal.SIGINT, signal.default_int_handler)  # a cancel is a Ctrl-C
    redis.set(beat, 1, px=int(HEARTBEAT * 1000))
    watcher = _watch(redis, beat, cancel)
    try:
        report(state="running", started=time.time())
        settings = SearchSettings.for_this_machine(sharing=_workers_on_this_host(redis))
        solution = solve(board, max_seconds=max_seconds, progress=progress, settings=settings)
        doubt = None
        if recognition is not None:
            from ..pipeline import settle

            solution, doubt = settle(recognition, solution, board)
        checking = recognition is not None and not solution.interrupted and check_seconds > 0 and not redis.exists(cancel)
        report(solution=solution, doubt=doubt, state="checking" if checking else "running")
        check = None
        if checking:
            from ..parcheck import check_counter

            try:
                check = check_counter(recognition, solution, max_seconds=check_seconds)
            except KeyboardInterrupt:  # cancelled during the check: the answer stands, the hint is dropped
                check = None
            report(check=check)
        push_result(redis, session, Result(board=board, solution=solution, check=check, doubt=doubt, job=job.id))
        report(state="done", finished=time.time())
    except KeyboardInterrupt:
        report(state="cancelled", finished=time.time())
    except JobTimeoutException:
        report(state="failed", error="the solve ran past its hard limit and was stopped", finished=time.time())
        raise
    except KamiError as error:
        report(state="failed", error=str(error), finished=time.time())
    except Exception as error:  # noqa: BLE001 - reported to the page as one line, logged here
        log.exception("job %s: the solver failed", job.id)
        report(state="failed", error=f"the solver failed ({type(error).__name__}); the worker's log has the details", finished=time.time())
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
        return max(1, sum(1 for worker in Worker.all(connection=redis) if worker.hostname == host))
    except RedisError:
        return os.cpu_count() or 1


def run_worker(url: str, burst: bool = False, name: str | None = None) -> None:
    """Run solves from the queue at ``url`` until stopped (SIGTERM or Ctrl-C: the job at
    hand is finished first; a second one stops it), or, with ``burst``, until the queue is
    empty.  Raises :class:`~kamivision.errors.KamiError` when Redis cannot be reached."""
    from redis.exceptions import RedisError
    from rq import Queue, Worker

    from ..errors import KamiError

    connection = connect(url, timeout=None)
    try:
        connection.ping()
    except RedisError as error:
        raise KamiError(f"--redis {url}: Redis does not answer ({error})") from None
    import kamivision.parcheck  # noqa: F401 - imported once here, not in every job's process
    import kamivision.pipeline  # noqa: F401
    import kamivision.solver  # noqa: F401

    worker = Worker([Queue(QUEUE, connection=connection)], connection=connection, name=name, job_monitoring_interval=5)
    worker.work(burst=burst, logging_level="WARNING", with_scheduler=False)
