"""``serve --redis`` and ``kamivision worker``: two web processes and two workers on one
Redis (Debian's redis-server, started by the tests on a free port, without persistence).

A session made through one web process is edited and solved through the other; a worker
killed mid-solve leaves an answer or a clear failure; a web process killed and restarted
loses no session; a Redis that stops gives a 503 within 2 s, and the servers recover when
it is back.  Limits hold across processes: one solve per session, the queue's length,
uploads per client address."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kamivision.board import board_from_dict, read_board

from .conftest import hard_board_file, one_minute, start_web, start_worker, stop

pytest.importorskip("rq", reason="the rq package is not installed (pip install 'kamivision[redis]')")

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
POST = {"X-Kamivision": "1"}


def call(url: str, data=None, method: str | None = None, headers=None, timeout: float = 30) -> tuple[int, dict]:
    """(status, JSON answer) of one request; errors are answers too."""
    if isinstance(data, dict):
        data = json.dumps(data).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={**POST, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def upload(base: str, path: Path) -> tuple[int, dict]:
    return call(base + "api/sessions", path.read_bytes(), headers={"X-Filename": path.name})


def wait_state(base: str, sid: str, states: tuple[str, ...], timeout: float) -> dict:
    end = time.monotonic() + timeout
    while True:
        status, state = call(f"{base}api/sessions/{sid}/solve")
        assert status == 200, state
        if state["state"] in states or time.monotonic() > end:
            return state
        time.sleep(0.2)


def solving(through: str, seen_from: str, tmp_path: Path, seconds: float) -> str:
    """A hard board uploaded and solved through ``through``, running as ``seen_from``
    sees it: its session id."""
    sid = upload(through, hard_board_file(tmp_path))[1]["id"]
    assert call(f"{through}api/sessions/{sid}/solve", {"max_seconds": seconds})[0] == 202
    assert wait_state(seen_from, sid, ("running",), timeout=30)["state"] == "running"
    return sid


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.fixture
def cluster(redis_server):
    """Two web processes and two workers on the tests' Redis, emptied first."""
    import redis

    redis.Redis.from_url(redis_server.url).flushdb()
    workers = [start_worker(redis_server.url) for _ in range(2)]
    webs = [start_web("--redis", redis_server.url) for _ in range(2)]
    yield redis_server, [url for url, _ in webs], [process for _, process in webs], workers
    for _, process in webs:
        stop(process)
    for worker in workers:
        if worker.poll() is None:
            stop(worker)


def test_a_session_made_through_one_web_process_is_edited_and_solved_through_the_other(cluster):
    redis_server, (a, b), _, _ = cluster
    status, made = upload(a, SAMPLES / "delta.jpg")
    assert status == 201
    sid = made["id"]
    status, seen = call(f"{b}api/sessions/{sid}")
    assert status == 200 and seen["cells"] == made["cells"]
    cell = 0
    other = next(k for k in range(len(made["palette"])) if k != made["cells"][cell])
    status, edited = call(f"{b}api/sessions/{sid}/edit", {"op": "paint", "cells": [cell], "color": other})
    assert status == 200 and edited["edited"] == [cell]
    assert call(f"{a}api/sessions/{sid}")[1]["cells"][cell] == other  # the edit is seen from the other process
    assert call(f"{a}api/sessions/{sid}/edit", {"op": "undo"})[1]["edited"] == []
    status, queued = call(f"{b}api/sessions/{sid}/solve", {"max_seconds": 20})
    assert status == 202
    again = call(f"{a}api/sessions/{sid}/solve", {"max_seconds": 20})  # one solve per session, across processes
    if again[0] != 409:  # only when the first solve had answered already (an easy board, a quick worker)
        import redis
        from rq.job import Job as RQJob

        from kamivision.web.redisstore import Serializer

        first = RQJob.fetch(queued["job"], connection=redis.Redis.from_url(redis_server.url), serializer=Serializer)
        assert again[0] == 202 and first.meta.get("state") == "done", (again, first.meta.get("state"))
    state = wait_state(a, sid, ("done", "failed", "cancelled"), timeout=60)
    assert state["state"] == "done", state
    solution = state["solution"]
    truth = read_board(SAMPLES / "delta.json")
    assert solution["optimal"] and solution["length"] == truth.par
    board = board_from_dict(solution["board"])
    from kamivision.board import Move

    for move in solution["moves"]:
        board = board.apply(Move(move["row"], move["column"], move["color"]))
    assert board.is_solved()
    assert call(f"{b}api/sessions/{sid}")[1]["solved"] is True
    request = urllib.request.Request(f"{b}api/sessions/{sid}/overlay.png")
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.read()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_a_worker_killed_mid_solve_leaves_an_answer_or_a_clear_failure_within_the_limit(cluster, tmp_path):
    redis_server, (a, b), _, workers = cluster
    sid = solving(a, b, tmp_path, 8)
    time.sleep(1.0)
    # The worker alone is killed: the work horse it forked finishes the job and answers.
    busy = next(w for w in workers if children(w.pid))
    os.kill(busy.pid, signal.SIGKILL)
    state = wait_state(b, sid, ("done", "failed", "cancelled"), timeout=8 + 10)
    assert state["state"] == "done" and state["solution"]["moves"], (state["state"], state.get("error"))

    # The worker and its horse are killed: the job fails with a clear message, soon.
    sid = solving(b, a, tmp_path, 30)
    busy = next(w for w in workers if w.poll() is None and children(w.pid))
    horses = children(busy.pid)
    os.kill(busy.pid, signal.SIGKILL)
    for horse in horses:
        os.kill(horse, signal.SIGKILL)
    state = wait_state(a, sid, ("done", "failed", "cancelled"), timeout=15)
    assert state["state"] == "failed" and "stopped before it answered" in state["error"], state
    # The session goes on: solved again by a worker started now (both have been killed).
    workers.append(start_worker(redis_server.url))
    assert call(f"{a}api/sessions/{sid}/solve", {"max_seconds": 2})[0] == 202
    assert wait_state(b, sid, ("done", "failed"), timeout=30)["state"] == "done"


@pytest.mark.slow  # against the clock, with processes: run in CI (-m 'slow or not slow')
def test_a_web_process_killed_and_restarted_loses_no_session(cluster):
    redis_server, (a, b), processes, _ = cluster
    sid = upload(a, SAMPLES / "patchwork.json")[1]["id"]
    assert call(f"{a}api/sessions/{sid}/edit", {"op": "paint", "cells": [3], "color": 0})[0] == 200
    processes[0].kill()
    processes[0].wait(timeout=10)
    status, seen = call(f"{b}api/sessions/{sid}")
    assert status == 200 and seen["cells"][3] == 0
    again, process = start_web("--redis", redis_server.url)
    try:
        status, seen = call(f"{again}api/sessions/{sid}")
        assert status == 200 and seen["cells"][3] == 0 and seen["can_undo"]
    finally:
        stop(process)


@pytest.mark.slow  # against the clock, with processes: run in CI (-m 'slow or not slow')
def test_redis_stopped_gives_a_503_within_2_seconds_and_the_servers_recover(cluster):
    redis_server, (a, b), _, _ = cluster
    sid = upload(a, SAMPLES / "patchwork.json")[1]["id"]
    redis_server.stop()
    try:
        for base, request in ((a, f"api/sessions/{sid}"), (b, "api/sessions")):
            started = time.monotonic()
            data = None if request != "api/sessions" else (SAMPLES / "patchwork.json").read_bytes()
            status, answer = call(base + request, data, headers={"X-Filename": "patchwork.json"})
            assert status == 503 and "Redis" in answer["error"] and "\n" not in answer["error"], answer
            assert time.monotonic() - started < 2
    finally:
        redis_server.start()
    assert upload(b, SAMPLES / "patchwork.json")[0] == 201  # back: a new session works again


@pytest.mark.slow  # two more web processes
def test_uploads_per_address_and_the_queue_length_hold_across_processes(redis_server):
    import redis as redis_client

    from kamivision.web.jobs import Job, QueueFull
    from kamivision.web.redisstore import RedisJobs, connect

    redis_client.Redis.from_url(redis_server.url).flushdb()
    limited = [start_web("--redis", redis_server.url, "--uploads-per-minute", "3") for _ in range(2)]
    try:
        with one_minute():
            statuses = [upload(limited[i % 2][0], SAMPLES / "patchwork.json")[0] for i in range(4)]
    finally:
        for _, process in limited:
            stop(process)
    assert statuses == [201, 201, 201, 429]
    board = read_board(SAMPLES / "patchwork.json")
    # No worker: jobs wait.  Two queues, as two web processes would hold, share one limit.
    one, two = RedisJobs(connect(redis_server.url), max_waiting=2), RedisJobs(connect(redis_server.url), max_waiting=2)
    one.submit(Job(session="s1", board=board, max_seconds=1))
    two.submit(Job(session="s2", board=board, max_seconds=1))
    with pytest.raises(QueueFull):
        one.submit(Job(session="s3", board=board, max_seconds=1))


@pytest.mark.slow  # a long solve, cancelled
def test_a_cancel_through_the_other_process_keeps_the_best_answer_so_far(cluster, tmp_path):
    _, (a, b), _, _ = cluster
    sid = solving(a, b, tmp_path, 120)
    time.sleep(1.5)
    assert call(f"{b}api/sessions/{sid}/cancel", data=b"")[0] == 200
    state = wait_state(a, sid, ("done", "failed", "cancelled"), timeout=15)  # of a 120 s solve
    assert state["state"] == "done", state  # the solver's best so far, as Ctrl-C gives it
    solution = state["solution"]
    assert solution["interrupted"] and not solution["optimal"] and solution["moves"]
    assert call(f"{b}api/sessions/{sid}/cancel", data=b"")[0] == 409


@pytest.mark.slow  # 40 s: Redis away, then RQ's monitoring interval
def test_workers_outlive_a_redis_restart_mid_solve_and_solve_again(cluster, tmp_path):
    """Issue 47, attack 4: Redis restarted under a running solve ended its worker ("found
    an unhandled exception, quitting", exit 1), and nothing was solved once Redis was back.
    The workers now wait for Redis and take jobs again."""
    redis_server, (a, b), _, workers = cluster
    solving(a, b, tmp_path, 30)
    time.sleep(1.0)
    redis_server.stop()  # no persistence: the sessions and the queue go with it
    time.sleep(3.0)
    redis_server.start()
    time.sleep(6.0)  # RQ notices within its monitoring interval (5 s)
    assert all(worker.poll() is None for worker in workers), [w.stderr.read() for w in workers if w.poll() is not None]
    status, session = upload(a, SAMPLES / "patchwork.json")
    assert status == 201, session
    assert call(f"{a}api/sessions/{session['id']}/solve", {"max_seconds": 5})[0] == 202
    state = wait_state(b, session["id"], ("done", "failed"), timeout=40)
    assert state["state"] == "done" and state["solution"]["moves"], state


def test_a_forged_session_in_redis_is_taken_for_gone_and_never_run(redis_server, tmp_path, caplog):
    """Whoever writes to Redis cannot make the web processes run code: a pickle put where
    a session belongs is not loaded as one (the session is gone, and the log says so)."""
    import pickle

    from kamivision.web.redisstore import RedisStore, connect
    from kamivision.web.sessions import NoSession

    from .test_codec import Touch

    target = tmp_path / "ran"
    connection = connect(redis_server.url)
    connection.set("kamivision:s:forged", pickle.dumps(Touch(target)))
    with pytest.raises(NoSession):
        RedisStore(connection).get("forged")
    assert not target.exists()
    assert "taken for gone" in caplog.text


def test_a_worker_runs_only_kamivisions_own_jobs(redis_server, tmp_path):
    """A job record naming another function (as RQ would run it: JSON, or a pickle of
    RQ's default kind) is refused and logged; nothing of it runs, and the worker goes on."""
    from rq import Queue

    from kamivision.web.redisstore import QUEUE, Serializer, connect

    connection = connect(redis_server.url)
    named = tmp_path / "named"
    pickled = tmp_path / "pickled"
    Queue(QUEUE, connection=connection, serializer=Serializer).enqueue_call("pathlib.Path.touch", args=(named,))
    Queue(QUEUE, connection=connection).enqueue_call("pathlib.Path.touch", args=(pickled,))
    worker = subprocess.run(
        [sys.executable, "-m", "kamivision", "worker", "--redis", redis_server.url, "--burst"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert worker.returncode == 0, worker.stderr
    assert not named.exists() and not pickled.exists()
    assert "'pathlib.Path.touch', not kamivision's solve: refused" in worker.stderr
    assert "not kamivision's data (it cannot be read): refused" in worker.stderr  # the pickle
    assert "Traceback" not in worker.stderr  # each refused in one line, not as a fault
    assert Queue(QUEUE, connection=connection).count == 0


def test_an_idle_worker_stops_on_sigterm(redis_server):
    """SIGTERM stops a worker that waits for work (RQ marks a stop only mid-job; an idle
    worker's loop used to end as if Redis had gone, and the worker went on)."""
    from rq import Worker

    from kamivision.web.redisstore import Serializer, connect

    connection = connect(redis_server.url)
    worker = start_worker(redis_server.url)
    try:
        deadline = time.monotonic() + 30  # until it waits for work (idle, its signal handlers set)
        while worker.pid not in {
            w.pid for w in Worker.all(connection=connection, serializer=Serializer) if w.get_state() == "idle"
        }:
            assert worker.poll() is None, worker.stderr.read()
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, worker.stderr.read()
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()


@pytest.mark.slow  # three processes for two options: run in CI (-m 'slow or not slow')
def test_a_workers_memory_and_disk_caps_reach_its_solves(redis_server, tmp_path):
    """``kamivision worker --max-memory-mb 1 --max-disk-mb 0``: the worker's solves store
    their states within 1 MB (the A* hands over to the sweeps sooner) and may not go to
    disk (they go on depth-first): another count of states expanded than the same solve
    uncapped, or capped with disk, and the same proven answer; ``serve --redis`` refuses
    the options (its workers solve)."""
    import redis

    from kamivision.board import write_board
    from kamivision.solver import SearchSettings, solve

    from ..boards import random_kami_board

    redis.Redis.from_url(redis_server.url).flushdb()
    # A board whose proof stores more than 1 MB of states (seed 0's stopped doing so when
    # the path-flood corridor went per color, 2026-11-30).
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)
    plain = solve(board, max_seconds=60)
    with_disk = solve(board, max_seconds=60, settings=SearchSettings.for_this_machine(max_mb=1))
    worker = start_worker(redis_server.url, "--max-memory-mb", "1", "--max-disk-mb", "0")
    web, process = start_web("--redis", redis_server.url)
    try:
        sid = upload(web, write_board(board, tmp_path / "b.json"))[1]["id"]
        assert call(f"{web}api/sessions/{sid}/solve", {"max_seconds": 60})[0] == 202
        state = wait_state(web, sid, ("done", "failed", "cancelled"), timeout=60)
        assert state["state"] == "done", state
        capped = state["solution"]
        assert capped["optimal"] and len(capped["moves"]) == plain.length == with_disk.length
        assert capped["expanded"] not in (plain.expanded, with_disk.expanded)
    finally:
        stop(process)
        stop(worker)
    for option in ("--max-memory-mb", "--max-disk-mb"):
        refused = subprocess.run(
            [sys.executable, "-m", "kamivision", "serve", "--redis", redis_server.url, option, "1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert refused.returncode == 1
        assert refused.stderr.strip().endswith(f"give {option} to 'kamivision worker'")
