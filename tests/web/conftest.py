from __future__ import annotations

import re
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest


@pytest.fixture(scope="module")
def server():
    """``kamivision serve --port 0`` in its own process; yields (URL, process)."""
    url, process = start_web()
    yield url, process
    stop(process)


@pytest.fixture(scope="module")
def redis_web(redis_server):
    """``kamivision serve --redis`` on a Redis of the tests' own, with one worker; yields
    (URL, process)."""
    worker = start_worker(redis_server.url)
    url, process = start_web("--redis", redis_server.url)
    yield url, process
    stop(process)
    stop(worker)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """Debian's ``redis-server`` on a free port, without persistence; stopped and started
    again on the same port by the tests that need Redis gone for a while."""

    def __init__(self, executable: str):
        self.executable = executable
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> None:
        import time

        import redis

        self.process = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.exceptions.ConnectionError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="module")
def redis_server():
    """A Redis of the tests' own (skips, saying why, without redis-server or the redis package)."""
    import shutil

    executable = shutil.which("redis-server")
    if executable is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    pytest.importorskip("redis", reason="the redis package is not installed")
    server = RedisServer(executable)
    try:
        server.start()
    except RuntimeError as error:
        pytest.skip(str(error))
    yield server
    server.stop()


def start_web(*options: str) -> tuple[str, subprocess.Popen]:
    """``kamivision serve --port 0 OPTIONS`` in its own process: (its URL, the process)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "serve", "--port", "0", "--max-seconds", "30", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not match:
        process.kill()
        raise AssertionError(f"the server did not start: {line!r} {process.stderr.read()!r}")
    return match.group(1), process


def start_worker(url: str, *options: str) -> subprocess.Popen:
    """``kamivision worker --redis URL OPTIONS`` in its own process group (so that a test
    can kill it with the work horse it has forked)."""
    return subprocess.Popen(
        [sys.executable, "-m", "kamivision", "worker", "--redis", url, *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def one_minute(needed: float = 20):
    """Run the block inside one clock minute, as the rate limits count them (they start
    again at :00): wait for the next minute if fewer than ``needed`` seconds are left, and
    fail if the block still crossed into another minute (it then took over ``needed``)."""
    left = 60 - time.time() % 60
    if left < needed:
        time.sleep(left + 0.05)
    minute = int(time.time() // 60)
    yield
    assert int(time.time() // 60) == minute, f"the block took over {needed} s: its counts span two minutes"


def hard_board_file(tmp_path):
    """A 24 x 24 square board in 6 colours: minutes to prove, so a solve of it runs until
    it is stopped."""
    import json
    import random

    from kamivision.board import board_to_dict, make_board

    rng = random.Random(7)
    grid = [[rng.randrange(6) for _ in range(24)] for _ in range(24)]
    path = tmp_path / "hard.json"
    path.write_text(json.dumps(board_to_dict(make_board(grid, lattice="square", name="hard"))))
    return path
