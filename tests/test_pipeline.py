import json
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from kamivision.board import cells_differing, read_board
from kamivision.cli import app
from kamivision.pipeline import solve_screenshot

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SHOTS = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".png", ".jpg"))
runner = CliRunner()


def test_there_are_samples_on_several_devices():
    assert len(SHOTS) >= 8
    sizes = {Image.open(p).size for p in SHOTS}
    assert len(sizes) >= 6


@pytest.mark.parametrize("shot", SHOTS, ids=lambda p: p.name)
def test_every_sample_is_read_and_solved_at_its_par(shot):
    truth = read_board(shot.with_suffix(".json"))
    result = solve_screenshot(shot, max_seconds=60)
    assert cells_differing(result.recognition.board, truth) == 0
    assert result.recognition.board.par == truth.par
    assert result.solution.optimal and result.solution.length == truth.par
    assert result.verdict() is not None and not result.warnings()
    current = result.recognition.board
    for move in result.solution.moves:
        current = current.apply(move)
    assert current.is_solved()


def test_solve_screenshot_writes_the_overlay_beside_it_and_never_the_input(tmp_path):
    shot = tmp_path / "level.png"
    shutil.copy(SAMPLES / "ribbons.png", shot)
    before = shot.read_bytes()
    result = runner.invoke(
        app, ["solve", str(shot), "--steps", str(tmp_path / "steps"), "--gif", str(tmp_path / "a.gif")]
    )
    assert result.exit_code == 0, result.output
    assert "The counter shows 4 moves, as found (evidence that the reading is right, not proof)" in result.stdout
    assert "every cell read with confidence" in result.stdout
    overlay = tmp_path / "level-solution.png"
    assert Image.open(overlay).size[0] == Image.open(shot).size[0]
    assert shot.read_bytes() == before
    frames = sorted(p.name for p in (tmp_path / "steps").iterdir())
    assert frames == ["solved.png", "step-01.png", "step-02.png", "step-03.png", "step-04.png"]
    assert (tmp_path / "a.gif").read_bytes()[:6] == b"GIF89a"
    again = runner.invoke(app, ["solve", str(shot)])
    assert again.exit_code == 1 and "already exists" in again.stderr
    itself = runner.invoke(app, ["solve", str(shot), "-o", str(shot), "--force"])
    assert itself.exit_code == 1 and "input itself" in itself.stderr
    assert shot.read_bytes() == before


def test_solve_screenshot_json_has_the_source_block(tmp_path):
    shot = tmp_path / "x.jpg"
    shutil.copy(SAMPLES / "quarry.jpg", shot)
    result = runner.invoke(app, ["solve", str(shot), "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["optimal"] is True and obj["length"] == obj["par"] == 4
    assert obj["source"]["layout"] == "2x2" and len(obj["source"]["confidence"]) == 29


def test_export_writes_a_board_file_with_its_source(tmp_path):
    out = tmp_path / "board.json"
    result = runner.invoke(app, ["export", str(SAMPLES / "delta.jpg"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    board = read_board(out)
    assert cells_differing(board, read_board(SAMPLES / "delta.json")) == 0
    source = json.loads(out.read_text())["source"]
    assert source["width"] == 1080 and len(source["swatches"]) == 5
    # The same verdict and the same cells as solve: the answer read from the screenshot.
    solved = runner.invoke(app, ["solve", str(SAMPLES / "delta.jpg"), "--json", "-o", str(tmp_path / "o.png")])
    obj = json.loads(solved.stdout)
    assert source["answer"]["verdict"] == obj["verdict"] and source["answer"]["verdict"] in result.stdout
    assert source["answer"]["doubt"] == obj["doubt"]
    again = runner.invoke(app, ["export", str(SAMPLES / "delta.jpg"), "-o", str(out)])
    assert again.exit_code == 1


def test_a_file_that_is_not_an_image_fails_in_one_line(tmp_path):
    bad = tmp_path / "shot.png"
    bad.write_text("hello")
    for command in (["solve", str(bad)], ["export", str(bad), "-o", str(tmp_path / "b.json")]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1
        assert result.stderr.count("\n") == 1 and str(bad) in result.stderr


def test_a_counter_that_misses_the_optimum_is_checked_and_said(tmp_path):
    from kamivision.synth.render import encode, render

    truth = read_board(SAMPLES / "ribbons.json")
    image, _ = render(truth, "iphone-8", seed=3, moves=truth.par + 2)
    shot = tmp_path / "later.png"
    shot.write_bytes(encode(image, ".png"))
    result = solve_screenshot(shot)
    assert result.recognition.board.par == truth.par + 2
    assert result.check is not None and result.check.read_optimum == truth.par
    assert result.check.tried == 0 and result.check.best is None  # every cell read with confidence
    said = " ".join(result.warnings())
    assert "the counter shows the moves left, not par" in said
    assert "CHECK" in result.picture_warning()
    obj = json.loads(runner.invoke(app, ["solve", str(shot), "--json", "-o", str(tmp_path / "o.png")]).stdout)
    assert obj["counter_check"]["tried"] == 0 and obj["counter_check"]["matching"] == []


def _no_work(*args, **kwargs):
    raise AssertionError("the work started although an output was bad")


@pytest.mark.parametrize(
    "args,message",
    [
        (["-o", "{tmp}/exists.png"], "already exists"),
        (["-o", "{tmp}/absent/out.png"], "does not exist"),
        (["--gif", "{tmp}/exists.png"], "already exists"),
        (["--steps", "{tmp}/exists.png"], "not a folder"),
        (["--steps", "{tmp}/full"], "not empty"),
        (["-o", "{tmp}"], "is a folder"),
    ],
)
def test_solve_checks_every_output_before_any_work(tmp_path, monkeypatch, args, message):
    import kamivision.pipeline as pipeline

    monkeypatch.setattr(pipeline, "solve_screenshot", _no_work)
    (tmp_path / "exists.png").write_bytes(b"mine")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "step-01.png").write_bytes(b"mine")
    shot = tmp_path / "level.png"
    shutil.copy(SAMPLES / "ribbons.png", shot)
    result = runner.invoke(app, ["solve", str(shot), *[a.format(tmp=tmp_path) for a in args]])
    assert result.exit_code == 1 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert (tmp_path / "exists.png").read_bytes() == b"mine"
    assert (tmp_path / "full" / "step-01.png").read_bytes() == b"mine"


def test_the_answer_is_printed_even_when_a_picture_cannot_be_written(tmp_path, monkeypatch):
    import kamivision.files as files

    def broken(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(files, "_temp_file", broken)
    shot = tmp_path / "level.png"
    shutil.copy(SAMPLES / "ribbons.png", shot)
    result = runner.invoke(app, ["solve", str(shot)])
    assert result.exit_code == 1
    assert "1. tap row" in result.stdout and "proven optimal" in result.stdout
    assert "No space left on device" in result.stderr and "Traceback" not in result.stderr


def test_step_pictures_are_written_all_or_none(tmp_path, monkeypatch):
    import kamivision.overlay as overlay

    real, calls = overlay.png_bytes, []

    def fails_on_the_third(image):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        return real(image)

    monkeypatch.setattr(overlay, "png_bytes", fails_on_the_third)
    shot = tmp_path / "level.png"
    shutil.copy(SAMPLES / "ribbons.png", shot)
    result = runner.invoke(app, ["solve", str(shot), "-o", str(tmp_path / "o.png"), "--steps", str(tmp_path / "steps")])
    assert result.exit_code == 1 and "1. tap row" in result.stdout
    assert not (tmp_path / "steps").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_a_fifo_or_a_folder_as_input_fails_at_once(tmp_path):
    """A folder is solved as many sources (its fifo is no regular file, so none is left)."""
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    for source, message in ((fifo, "not a regular file"), (tmp_path, "no board files or screenshots to solve")):
        result = runner.invoke(app, ["solve", str(source)])
        assert result.exit_code == 1 and message in result.stderr
    board_fifo = tmp_path / "pipe.json"
    os.mkfifo(board_fifo)
    result = runner.invoke(app, ["solve", str(board_fifo)])
    assert result.exit_code == 1 and "not a regular file" in result.stderr


def test_max_seconds_bounds_the_whole_screenshot_command(monkeypatch):
    """Reading comes out of the limit: the solve gets what is left, the counter check and
    the look for steadier moves what the solve left (a clock that says reading took 3 s)."""
    import kamivision.pipeline as pipeline

    now = iter([0.0, 3.0] + [4.5] * 100)  # start, after reading, after solving

    class Clock:
        @staticmethod
        def perf_counter():
            return next(now)

    asked = {}
    real_solve, real_check = pipeline.solve, pipeline.check_counter

    def solve(board, max_seconds=None, **kwargs):
        asked["solve"] = max_seconds
        return real_solve(board, max_seconds=max_seconds, **kwargs)

    def check(recognition, solution, max_seconds):
        asked["check"] = max_seconds
        return real_check(recognition, solution, max_seconds=max_seconds)

    monkeypatch.setattr(pipeline, "time", Clock)
    monkeypatch.setattr(pipeline, "solve", solve)
    monkeypatch.setattr(pipeline, "check_counter", check)
    shot = solve_screenshot(SAMPLES / "delta.jpg", max_seconds=5, check_seconds=10)
    assert asked["solve"] == 2.0  # 5 s less the 3 s of reading
    assert asked.get("check", 0.5) <= 0.5  # what the solve left, not the 10 s asked
    assert shot.solution.length >= 1


def test_a_counter_below_the_optimum_is_said_once(tmp_path):
    """The verdict says that the counter shows fewer moves than the board as read needs;
    the warnings below it did too, word for word (a session's noticed wart)."""
    from kamivision.synth.render import encode, render

    truth = read_board(SAMPLES / "ribbons.json")
    image, _ = render(truth, "iphone-8", seed=3, moves=truth.par - 1)
    shot = tmp_path / "later.png"
    shot.write_bytes(encode(image, ".png"))
    out = runner.invoke(app, ["solve", str(shot), "-o", str(tmp_path / "o.png"), "--check-seconds", "1"])
    said = out.stdout + out.stderr
    assert f"needs {truth.par}" in said  # the verdict: the counter shows par - 1, the board needs par
    assert said.count("the board may be misread, or this is not the level's start") == 1, said
