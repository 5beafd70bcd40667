from __future__ import annotations

import re
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def server():
    """``kamivision serve --port 0`` in its own process; yields (URL, process)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "serve", "--port", "0", "--max-seconds", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not match:
        process.kill()
        raise AssertionError(f"the server did not start: {line!r} {process.stderr.read()!r}")
    yield match.group(1), process
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
