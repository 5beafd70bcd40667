"""Sessions and solves in Redis, for ``kamivision serve --redis URL``.

With Redis, any number of web processes on any number of hosts serve the same players, and
solves run on ``kamivision worker`` processes anywhere (:mod:`~kamivision.web.worker`):

- :class:`RedisStore` keeps each session under ``kamivision:s:<id>``: the session itself
  (as data, :mod:`~kamivision.web.codec`, without its picture), the picture (PNG), the last answer (pushed there by the
  worker that found it) and the files made from it, all expiring after an hour without a
  request.  A change (an edit, a solve) holds the session's Redis lock, so two processes
  never interleave their changes; the number of sessions and their bytes are bounded as
  in memory, idle ones dropped first.
- :class:`RedisJobs` queues solves with RQ (``rq``, a maintained Redis job queue; the
  README says why this one).  A job's state, progress and answer travel in the RQ job's
  ``meta``; a cancel is a key that the worker sees and turns into a Ctrl-C; a worker that
  dies mid-job stops beating its heart, and the job then fails with a clear message.

Redis holds data, never code: sessions, answers and the RQ jobs' records are JSON
(:mod:`~kamivision.web.codec`, never pickles), and a worker runs only kamivision's own
job function (:func:`~kamivision.web.worker.run_worker`).  Redis should still be
reachable by these processes alone (its own network, a password), as ``docs/deploy.md``
shows: whoever can write to it can change the boards and answers.  Every Redis call has a
short timeout and no retry, so a Redis that is down or slow gives a 503 within two seconds.

Tested in tests/web/test_redis.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from typing import Callable, Iterator, Optional

import numpy as np

from . import codec
from .jobs import OVERRUN_SECONDS, Job, QueueFull
from .sessions import NoSession, RateLimited, Result, Session, StoreFull

log = logging.getLogger("kamivision.redis")


class Serializer:
    """RQ's job records (the job's call and its reports) as data (:mod:`~kamivision.web.codec`), not pickles."""

    dumps = staticmethod(codec.dumps)
    loads = staticmethod(codec.loads)


#: Every key starts with this.
PREFIX = "kamivision:"
#: The RQ queue that the web processes fill and the workers empty.
QUEUE = "kamivision"
#: Seconds that a Redis call may take before the request fails with a 503.
TIMEOUT = 1.0
#: Seconds a worker's heartbeat lasts; it beats every HEARTBEAT / 4 s.  A running job
#: without one has lost its worker.
HEARTBEAT = 3.0
#: Seconds a finished job's record is kept.
KEEP = 3600


class Busy(Exception):
    """Another request holds this session (or the queue) longer than a request may wait."""


def connect(url: str, timeout: Optional[float] = TIMEOUT):
    """A Redis client for ``url``: calls fail after ``timeout`` seconds, never retried
    (None: no timeout, for a worker that blocks waiting for jobs)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    try:
        return redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout or TIMEOUT, retry=Retry(NoBackoff(), 0)
        )
    except ValueError as error:
        from ..errors import KamiError

        raise KamiError(f"--redis {shown(url)}: not a Redis URL ({error})") from None


def shown(url: str) -> str:
    """``url`` as messages show it: its password, if any, as ``***``."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "(a URL that cannot be read)"


def reachable(url: str, timeout: Optional[float] = TIMEOUT):
    """:func:`connect`, once Redis has answered; :class:`~kamivision.errors.KamiError` in
    one line when the packages are missing or Redis does not answer."""
    from ..errors import KamiError

    try:
        import rq  # noqa: F401
        from redis.exceptions import RedisError
    except ImportError:
        raise KamiError("--redis needs the redis and rq packages: pip install 'kamivision[redis]'") from None
    connection = connect(url, timeout)
    try:
        connection.ping()
    except RedisError as error:
        raise KamiError(f"--redis {shown(url)}: Redis does not answer ({error})") from None
    return connection


def _session_key(session_id: str, part: str = "") -> str:
    return f"{PREFIX}s:{session_id}" + (f":{part}" if part else "")


def busy_key(session_id: str) -> str:
    return _session_key(session_id, "busy")


def result_key(session_id: str) -> str:
    return _session_key(session_id, "result")


class RedisStore:
    """The sessions in Redis, bounded in number, bytes and idle time (as :class:`~kamivision.web.sessions.MemoryStore`)."""

    def __init__(
        self, connection, max_sessions: int = 2000, max_bytes: int = 4_000_000_000, idle_seconds: float = 3600.0
    ):
        self.redis = connection
        self.max_sessions = max_sessions
        self.max_bytes = max_bytes
        self.idle_seconds = int(idle_seconds)

    # ---------------------------------------------------------------- the interface

    def get(self, session_id: str, picture: bool = False) -> Session:
        keys = [_session_key(session_id), result_key(session_id)] + (
            [_session_key(session_id, "image")] if picture else []
        )
        with self.redis.pipeline() as pipe:
            for key in keys:
                pipe.get(key)
            self._touch(pipe, session_id)
            values = pipe.execute()
        if values[0] is None:
            raise NoSession(session_id)
        session: Session = _load(values[0], Session, session_id)
        session.result = None if values[1] is None else _load(values[1], Result, session_id)
        if picture:
            session.image = None if values[2] is None else _decode(values[2])
            if session.image is None:
                raise NoSession(session_id)
        return session

    @contextlib.contextmanager
    def change(self, session_id: str) -> Iterator[Session]:
        with self._locked(_session_key(session_id, "lock"), "this board is busy with another change: try again"):
            session = self.get(session_id)
            yield session
            if not self.redis.set(_session_key(session_id), _state(session), ex=self.idle_seconds, xx=True):
                raise NoSession(session_id)

    def add(self, session: Session, pinned: bool = False) -> Session:
        """Keep ``session``, dropping expired and then least recently used idle sessions to
        make room; :class:`StoreFull` when the busy ones alone fill the store."""
        picture = _encode(session.image)
        size = len(picture) + 4096
        registry, sizes = PREFIX + "sessions", PREFIX + "sizes"
        with self._locked(PREFIX + "lock:store", "the server is busy: try again"):
            now = time.time()
            gone = [m.decode() for m in self.redis.zrangebyscore(registry, 0, now - self.idle_seconds)]
            if gone:
                self._drop(gone)
            members = [m.decode() for m in self.redis.zrange(registry, 0, -1)]  # least recently used first
            total = sum(int(v) for v in self.redis.hvals(sizes))
            for candidate in list(members):
                if len(members) < self.max_sessions and total + size <= self.max_bytes:
                    break
                if self.redis.exists(busy_key(candidate)):
                    continue
                total -= int(self.redis.hget(sizes, candidate) or 0)
                members.remove(candidate)
                self._drop([candidate])
            if len(members) >= self.max_sessions or total + size > self.max_bytes:
                raise StoreFull("the server is holding as many screenshots as it may: try again in a few minutes")
            with self.redis.pipeline() as pipe:
                pipe.set(_session_key(session.id, "image"), picture, ex=self.idle_seconds)
                pipe.set(_session_key(session.id), _state(session), ex=self.idle_seconds)
                pipe.hset(sizes, session.id, size)
                pipe.zadd(registry, {session.id: now})
                pipe.execute()
        return session

    def remove(self, session_id: str) -> None:
        self._drop([session_id])

    def cached(self, session: Session, name: str, make: Callable[[], bytes]) -> bytes:
        key = _session_key(session.id, "files")
        data = self.redis.hget(key, name)
        if data is None:
            data = make()
            with self.redis.pipeline() as pipe:
                pipe.hset(key, name, data)
                pipe.expire(key, self.idle_seconds)
                pipe.execute()
        return data

    def count(self, kind: str, address: str, limit: int) -> None:
        minute = int(time.time() // 60)
        key = f"{PREFIX}rate:{kind}:{address}:{minute}"
        with self.redis.pipeline() as pipe:
            pipe.incr(key)
            pipe.expire(key, 120)
            made = pipe.execute()[0]
        if made > limit:
            raise RateLimited(kind, limit)

    # ---------------------------------------------------------------- inside

    @contextlib.contextmanager
    def _locked(self, name: str, message: str):
        lock = self.redis.lock(name, timeout=30, blocking_timeout=2)
        if not lock.acquire():
            raise Busy(message)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):  # it expired (a change over 30 s): nothing to release
                lock.release()

    def _touch(self, pipe, session_id: str) -> None:
        for part in ("", "image", "result", "files"):
            pipe.expire(_session_key(session_id, part), self.idle_seconds)
        pipe.zadd(PREFIX + "sessions", {session_id: time.time()}, xx=True)

    def _drop(self, session_ids: list[str]) -> None:
        with self.redis.pipeline() as pipe:
            for sid in session_ids:
                pipe.delete(*[_session_key(sid, part) for part in ("", "image", "result", "files")])
                pipe.zrem(PREFIX + "sessions", sid)
                pipe.hdel(PREFIX + "sizes", sid)
            pipe.execute()


def _state(session: Session) -> bytes:
    """The session as kept in Redis: without its picture, its files, its answer (kept
    apart) and its lock."""
    job = (
        None
        if session.job is None
        else dataclasses.replace(session.job, recognition=None, solution=None, doubt=None, check=None)
    )
    return codec.dumps(
        dataclasses.replace(session, image=None, files={}, result=None, lock=None, job=job, size=session.size)
    )


def _load(data: bytes, kind: type, session_id: str):
    """A session or an answer from Redis; one that is not (damaged, or forged) is
    logged and taken for gone."""
    try:
        value = codec.loads(data)
    except codec.CodecError as error:
        value = error
    if not isinstance(value, kind):
        log.warning(
            "session %s: its %s in Redis is not one (%s): taken for gone", session_id, kind.__name__.lower(), value
        )
        raise NoSession(session_id)
    return value


def _encode(image: np.ndarray) -> bytes:
    import cv2

    ok, data = cv2.imencode(".png", np.ascontiguousarray(image[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return data.tobytes()


def _decode(data: bytes) -> Optional[np.ndarray]:
    import cv2

    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return None if image is None else np.ascontiguousarray(image[:, :, ::-1])


# ---------------------------------------------------------------- the queue


class RedisJobs:
    """Solves queued in Redis with RQ, run by ``kamivision worker`` processes."""

    def __init__(self, connection, max_waiting: int = 64):
        from rq import Queue

        self.redis = connection
        self.max_waiting = max_waiting
        self.queue = Queue(QUEUE, connection=connection, serializer=Serializer)

    def submit(self, job: Job) -> Job:
        """Queue ``job``; :class:`~kamivision.web.jobs.QueueFull` when ``max_waiting`` jobs
        wait already, counted across every web process."""
        limit = job.max_seconds + job.check_seconds + OVERRUN_SECONDS
        lock = self.redis.lock(PREFIX + "lock:queue", timeout=10, blocking_timeout=2)
        if not lock.acquire():
            raise Busy("the solve queue is busy: try again")
        try:
            waiting = self.queue.count
            if waiting >= self.max_waiting:
                raise QueueFull(f"{waiting} solves are waiting already: try again in a minute")
            queued = self.queue.enqueue_call(
                "kamivision.web.worker.solve_job",
                kwargs={
                    "session": job.session,
                    "board": job.board,
                    "max_seconds": job.max_seconds,
                    "recognition": job.recognition,
                    "check_seconds": job.check_seconds,
                },
                timeout=int(limit) + 1,  # RQ's hard limit: the work horse is killed past it
                result_ttl=KEEP,
                failure_ttl=KEEP,
                ttl=KEEP,
                meta={"state": "queued", "version": 0},
            )
            self.redis.set(busy_key(job.session), queued.id, ex=int(limit) + 120)
        finally:
            with contextlib.suppress(Exception):
                lock.release()
        job.id = queued.id
        job.recognition = None
        return job

    def current(self, job: Job) -> Job:
        """``job`` as its RQ record says now.  A running job whose worker's heartbeat has
        stopped failed; it is recorded so, with a message that says what to do."""
        from rq.exceptions import NoSuchJobError
        from rq.job import Job as RQJob
        from rq.job import JobStatus

        try:
            record = RQJob.fetch(job.id, connection=self.redis, serializer=Serializer)
        except NoSuchJobError:
            return dataclasses.replace(
                job, state="failed", error="the solve's record has expired: solve again", version=job.version + 1
            )
        status = record.get_status(refresh=False)
        meta = record.meta or {}
        state = meta.get("state", "queued")
        error = meta.get("error")
        if status == JobStatus.CANCELED:
            state = "cancelled"
        elif status == JobStatus.FAILED and state not in ("done", "cancelled", "failed"):
            text = record.exc_info or ""
            state = "done" if meta.get("solution") is not None else "failed"
            if "Timeout" in text:
                error = f"the solve ran past its hard limit ({record.timeout} s) and was stopped"
            else:
                error = "the worker solving this board failed; its log has the details"
        elif state in ("running", "checking") and not self.redis.exists(PREFIX + f"beat:{job.id}"):
            record.refresh()
            meta = record.meta or {}
            if meta.get("state") in ("running", "checking") and not self.redis.exists(PREFIX + f"beat:{job.id}"):
                meta.update(state="done" if meta.get("solution") is not None else "failed", finished=time.time())
                meta["error"] = "the worker solving this board stopped before it answered: solve again"
                meta["version"] = meta.get("version", 0) + 1
                record.meta = meta
                record.save_meta()
            state, error = meta.get("state", state), meta.get("error")
        return dataclasses.replace(
            job,
            state=state,
            progress=meta.get("progress") or {},
            solution=meta.get("solution"),
            doubt=meta.get("doubt"),
            check=meta.get("check"),
            error=error if state == "failed" else None,
            started_at=meta.get("started"),
            finished_at=meta.get("finished"),
            version=_version(meta.get("version", 0), state),
        )

    def position(self, job: Job) -> int:
        """How many jobs wait before ``job`` (0 when it is next or running)."""
        from rq.exceptions import NoSuchJobError
        from rq.job import Job as RQJob

        with contextlib.suppress(NoSuchJobError):
            return RQJob.fetch(job.id, connection=self.redis, serializer=Serializer).get_position() or 0
        return 0

    def cancel(self, job: Job) -> None:
        """Take a waiting job off the queue, or ask a running one to stop with its best
        (its worker turns the request into a Ctrl-C)."""
        from rq.exceptions import InvalidJobOperation
        from rq.job import Job as RQJob
        from rq.job import JobStatus

        record = RQJob.fetch(job.id, connection=self.redis, serializer=Serializer)
        if record.get_status() == JobStatus.QUEUED:
            with contextlib.suppress(InvalidJobOperation):  # taken by a worker meanwhile: ask it to stop
                record.cancel()
                self.redis.delete(busy_key(job.session))
                return
        self.redis.set(PREFIX + f"cancel:{job.id}", 1, ex=KEEP)

    def close(self) -> None:
        """Nothing to stop here: the workers are processes of their own."""


def _version(count: int, state: str) -> int:
    """A number that changes whenever the job's state or its reports do."""
    states = ("queued", "running", "checking", "done", "cancelled", "failed")
    return int(count) * len(states) + states.index(state)


def push_result(connection, session_id: str, result: Result, keep: int = 3600) -> None:
    """A worker's answer, into its session (if the session is still there)."""
    if connection.exists(_session_key(session_id)):
        connection.set(result_key(session_id), codec.dumps(result), ex=keep)
