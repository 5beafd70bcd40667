"""The deployment that docs/deploy.md describes, as ``deploy/Procfile`` writes it: its
lines are started as a Procfile runner would (each through the shell, with KAMIVISION_REDIS and
the ports set), and a screenshot uploaded through one web process is solved and read back
through the other."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import free_port, stop
from .test_redis import SAMPLES, call, upload, wait_state

pytest.importorskip("rq", reason="the rq package is not installed (pip install 'kamivision[redis]')")

PROCFILE = Path(__file__).resolve().parents[2] / "deploy" / "Procfile"


def procfile() -> dict[str, str]:
    lines = [line for line in PROCFILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return dict(line.split(": ", 1) for line in lines)


@pytest.mark.slow  # four processes and a Redis: the full run has it
def test_the_procfile_runs_two_web_processes_and_two_workers_that_serve_one_player(redis_server):
    import redis

    redis.Redis.from_url(redis_server.url).flushdb()
    ports = free_port(), free_port()
    env = {
        **os.environ,
        "KAMIVISION_REDIS": redis_server.url,
        "WEB1_PORT": str(ports[0]),
        "WEB2_PORT": str(ports[1]),
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
    }
    entries = procfile()
    assert sorted(entries) == ["web1", "web2", "worker1", "worker2"]
    processes = [
        subprocess.Popen(
            ["/bin/sh", "-c", "exec " + command], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for command in entries.values()
    ]
    try:
        a, b = (f"http://127.0.0.1:{port}/" for port in ports)
        end = time.monotonic() + 30
        while True:
            try:
                if call(a + "api/config")[0] == 200 and call(b + "api/config")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < end, "the Procfile's web processes did not start"
            time.sleep(0.2)
        status, made = upload(a, SAMPLES / "delta.jpg")
        assert status == 201
        assert call(f"{b}api/sessions/{made['id']}/solve", {"max_seconds": 20})[0] == 202
        state = wait_state(a, made["id"], ("done", "failed", "cancelled"), timeout=60)
        assert state["state"] == "done" and state["solution"]["optimal"], state
    finally:
        for process in processes:
            stop(process)
