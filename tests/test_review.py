import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kamivision.board import parse_board, read_board
from kamivision.errors import OutputExistsError
from kamivision.review import ReviewModel
from kamivision.review_session import open_review
from kamivision.review_window import display_scale

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def model(text="aab\nbba\nabb", confidence=None):
    board = parse_board(text, lattice="square", palette=["#e3662c", "#1e4c54", "#e7dcc5"])
    return ReviewModel(board=board, confidence=confidence)


def test_colour_keys_change_the_selected_cell_and_undo_redo_restore_it():
    m = model()
    m.select(0)
    m.set_color(2)
    assert m.board.cells[0][0] == 2 and m.dirty and m.brush == 2
    m.set_color(None)
    assert m.board.cells[0][0] is None
    assert m.undo() and m.board.cells[0][0] == 2
    assert m.undo() and m.board.cells[0][0] == 0
    assert not m.undo()
    assert m.redo() and m.board.cells[0][0] == 2
    m.set_color(1)  # a new edit drops the redo history
    assert not m.redo()


def test_a_click_selects_and_a_drag_paints_in_one_undo_step():
    m = model()
    m.brush = 2
    m.begin_stroke(4)
    m.end_stroke()
    assert m.board.cells[1][1] == 1 and not m.dirty  # a click changes nothing
    m.begin_stroke(0)
    m.paint(1)
    m.paint(2)
    m.end_stroke()
    assert m.board.cells[0] == (2, 2, 2)
    m.undo()
    assert m.board.cells[0] == (0, 0, 1)


def test_fill_recolours_the_whole_region():
    m = model()
    m.select(3)  # (1, 0) is in the region of b's at (1,0),(1,1),(2,1),(2,2)
    m.brush = 2
    m.fill_region()
    assert [m.board.cells[r][c] for r, c in [(1, 0), (1, 1), (2, 1), (2, 2)]] == [2, 2, 2, 2]
    assert m.board.cells[0][2] == 1  # another region of b is untouched
    m.undo()
    assert m.board.cells[1][0] == 1


def test_colours_outside_the_palette_are_refused():
    m = model()
    m.select(0)
    with pytest.raises(ValueError, match="not in the palette"):
        m.set_color(5)


def test_status_line_names_cell_colour_and_confidence():
    m = model(confidence=np.array([[0.1, 1, 1], [1, 1, 1], [1, 1, 1]]))
    m.select(0)
    assert "cell (0,0): colour 1, confidence 0.10" in m.status()
    assert m.uncertain(0) and not m.uncertain(1)


def test_saving_is_atomic_and_asks_before_replacing_a_file(tmp_path):
    m = model()
    target = tmp_path / "board.json"
    target.write_text("precious")
    assert m.needs_overwrite(target)
    with pytest.raises(OutputExistsError):
        m.save(target)
    assert target.read_text() == "precious"
    m.select(0)
    m.set_color(2)
    m.save(target, overwrite=True)
    assert read_board(target).cells[0][0] == 2 and not m.dirty
    assert not m.needs_overwrite(target)  # our own file: saving again needs no question


def test_a_board_file_is_reviewed_over_its_screenshot(tmp_path):
    session = open_review(SAMPLES / "delta.json", image=SAMPLES / "delta.jpg")
    assert session.output == SAMPLES / "delta.json"
    assert session.model.board.cells == read_board(SAMPLES / "delta.json").cells
    assert len(session.swatches) == 5


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
    """Under a virtual X display: click a cell, press a colour key, save, quit; check the file."""
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
