import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kamivision.board import read_board
from kamivision.review import open_review
from kamivision.review.window import display_scale

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _start_xvfb() -> tuple[subprocess.Popen, str]:
    """A virtual X display on a number Xvfb picks itself (-displayfd: it skips the numbers in
    use and clears stale locks), and that display's name."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24"],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        ready, _, _ = select.select([pipe], [], [], 20)
        number = pipe.readline().strip() if ready else ""
    if not number.isdigit():
        _stop(xvfb)
        pytest.skip("Xvfb could not start a virtual display")
    return xvfb, f":{number}"


def _stop(process: subprocess.Popen) -> None:
    """Terminate and wait, so that Xvfb removes its lock file and socket (a killed one
    leaves them, and they used to pile up until no display number was free)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_real_window_click_key_save(tmp_path):
    """Under a virtual X display: click a cell, press a color key, save, quit; check the file."""
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.skip("needs Xvfb and xdotool (Debian packages xvfb, xdotool; .ci/run installs them)")
    xvfb, display = _start_xvfb()
    env = {**os.environ, "DISPLAY": display}
    shot = SAMPLES / "ribbons.png"
    out = tmp_path / "fixed.json"
    app = None
    try:
        app = subprocess.Popen(
            [sys.executable, "-m", "kamivision", "review", str(shot), "-o", str(out)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        found = subprocess.run(
            ["xdotool", "search", "--sync", "--name", "kamivision review"],
            env=env, capture_output=True, text=True, timeout=60,
        )
        window = found.stdout.split()[0]
        session = open_review(shot)
        truth = session.model.board
        cell = next(
            k for k in range(100, 200) if truth.color_at(k) not in (None, 1)
        )
        x, y = session.geometry.centre(truth, cell)
        scale = display_scale(session.image.shape[0])
        run = lambda *args: subprocess.run(["xdotool", *args], env=env, check=True, timeout=20)  # noqa: E731
        time.sleep(1.0)
        run("mousemove", "--window", window, str(round(x * scale)), str(round(y * scale)))
        run("click", "1")
        run("windowfocus", "--sync", window)
        for key in ("2", "s", "q"):
            time.sleep(0.4)
            run("key", "--clearmodifiers", key)
        app.wait(timeout=30)
        assert app.returncode == 0, app.stderr.read().decode()
        saved = read_board(out)
        r, c = divmod(cell, truth.columns)
        assert saved.cells[r][c] == 1
        changed = [(i, j) for i in range(29) for j in range(10) if saved.cells[i][j] != truth.cells[i][j]]
        assert changed == [(r, c)]
    finally:
        if app is not None and app.poll() is None:
            app.kill()
        _stop(xvfb)
