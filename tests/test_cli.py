import json
import os
import random
import select
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamivision.board import Move, parse_board, write_board
from kamivision.cli import app

from .boards import random_board

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def write(tmp_path, text="aab\nbba\nabb", lattice="square", name="b.json", **kw):
    return write_board(parse_board(text, lattice=lattice, **kw), tmp_path / name)


def test_solve_prints_numbered_moves(tmp_path):
    path = write(tmp_path, par=3)
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    assert "1. tap row" in result.output
    assert "proven optimal" in result.output


def test_solve_json_is_one_object(tmp_path):
    path = write(tmp_path, par=2)
    result = runner.invoke(app, ["solve", str(path), "--json"])
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert set(obj) == {"board", "moves", "length", "optimal", "lower_bound", "par", "seconds", "expanded"}
    assert obj["length"] == len(obj["moves"]) and obj["optimal"] is True
    assert obj["par"] == 2
    assert obj["board"]["cells"][0] == [0, 0, 1]
    assert set(obj["moves"][0]) == {"row", "column", "color"}


def test_bad_input_is_one_line_and_exit_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    result = runner.invoke(app, ["solve", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0
    assert "bad.json: format is 'other'" in result.stderr
    assert "Traceback" not in result.output


def test_missing_file_is_exit_1(tmp_path):
    result = runner.invoke(app, ["solve", str(tmp_path / "none.json")])
    assert result.exit_code == 1
    assert "none.json: no such file" in result.stderr


def test_usage_error_is_exit_2():
    result = runner.invoke(app, ["solve", "--no-such-option"])
    assert result.exit_code == 2


def test_limits_say_not_proven(tmp_path):
    path = write(tmp_path, text="abcda\nbadcb\ncdabc\ndcbad\nabcda", lattice="square")
    result = runner.invoke(app, ["solve", str(path), "--max-nodes", "1", "--json"])
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert obj["optimal"] is False
    assert obj["lower_bound"] <= obj["length"]


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to a child process")
def test_ctrl_c_prints_the_best_found_and_exits_130(tmp_path):
    """A real SIGINT during a long solve: one JSON answer, not claimed optimal, no traceback."""
    board = random_board(random.Random(3), "triangle", 29, 10, 4, 0.0)  # ~200 regions: hours
    path = write_board(board, tmp_path / "hard.json")
    child = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "solve", str(path), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored in the child
    )
    time.sleep(4)
    assert child.poll() is None, child.communicate()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "Traceback" not in err
    obj = json.loads(out)
    assert obj["optimal"] is False and obj["lower_bound"] < obj["length"]
    for move in obj["moves"]:
        board = board.apply(Move(move["row"], move["column"], move["color"]))
    assert board.is_solved()


def test_deeply_nested_json_is_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000)
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 1
    assert "nested too deeply" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_text_from_a_file_is_printed_safely(tmp_path):
    name = "evil\n\x1b[31mred\u202eflipped" + "x" * 10_000
    board = parse_board("aab\nbba\nabb", lattice="square", name=name)
    path = write_board(board, tmp_path / "named.json")
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0
    title = result.stdout.splitlines()[0]
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "\\n" in title and "\\u202e" in title and len(title) < 200 and "…" in title


def test_version_and_help_that_teaches():
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("kamivision ")
    for command in ([], ["solve"], ["render"], ["export"], ["review"]):
        shown = runner.invoke(app, [*command, "--help"])
        assert shown.exit_code == 0
        assert "Example" in shown.stdout and "<bool>" not in shown.stdout
    solve_help = " ".join(runner.invoke(app, ["solve", "--help"]).stdout.split())
    assert "until proven" in solve_help and "[default: 10.0" in solve_help


def test_the_command_line_and_a_board_file_solve_load_no_image_libraries(tmp_path):
    """Start-up: numpy, OpenCV, SciPy and Pillow are for screenshots only."""
    path = write(tmp_path)
    code = (
        "import sys\n"
        "from kamivision.cli import app\n"
        f"sys.argv = ['kamivision', 'solve', {str(path)!r}]\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('numpy', 'cv2', 'sklearn', 'scipy', 'PIL', 'pydantic', 'rich') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_nan_is_refused_as_a_limit():
    for command in (
        ["solve", "x.json", "--max-seconds", "nan"],
        ["solve", "x.json", "--check-seconds", "nan"],
        ["export", "x.png", "-o", "y.json", "--max-seconds", "nan"],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "not a number" in result.output, (command, result.output)


def test_only_finite_limits_are_accepted():
    """Issue 47: 'inf' passed every range check and reached the search as a limit."""
    for command in (
        ["solve", "x.json", "--max-seconds", "inf"],
        ["solve", "x.json", "--total-seconds", "1e999"],
        ["export", "x.png", "-o", "y.json", "--max-seconds", "Infinity"],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "not a finite number" in result.output, (command, result.output)


def test_outputs_are_checked_against_each_other_and_devices_are_never_replaced(tmp_path):
    import os

    shot = tmp_path / "level.png"
    shutil.copy(SAMPLES / "ribbons.png", shot)
    for args, words in (
        (["-o", str(tmp_path / "s3.png"), "--steps", str(tmp_path / "s3.png")], "named by both -o and --steps"),
        (["-o", str(tmp_path / "a.png"), "--gif", str(tmp_path / "a.png")], "named by both -o and --gif"),
    ):
        result = runner.invoke(app, ["solve", str(shot), *args])
        assert result.exit_code == 1 and words in result.output, result.output
        assert sorted(p.name for p in tmp_path.iterdir()) == ["level.png"]  # nothing written
    node = tmp_path / "nulldev"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except OSError:  # not root, or a container that forbids device nodes
        node = tmp_path / "fifo"
        os.mkfifo(node)
    result = runner.invoke(app, ["export", str(shot), "-o", str(node), "--force"])
    assert result.exit_code == 1 and "not a regular file" in result.output
    assert not stat.S_ISREG(node.lstat().st_mode)  # still the device (or pipe), not replaced


def test_steps_with_force_hold_exactly_the_new_runs_pictures(tmp_path):
    steps = tmp_path / "steps"
    steps.mkdir()
    for name in ("step-01.png", "step-09.png", "step-20.png", "solved.png", "notes.txt"):
        (steps / name).write_bytes(b"old")
    shot = tmp_path / "level.png"
    shutil.copy(SAMPLES / "ribbons.png", shot)
    result = runner.invoke(app, ["solve", str(shot), "--steps", str(steps), "--force", "-o", str(tmp_path / "o.png")])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in steps.iterdir())
    pictures = [n for n in names if n != "notes.txt"]
    assert "notes.txt" in names  # not a picture of ours: left alone
    moves = len([line for line in result.stdout.splitlines() if ". tap row" in line])
    assert set(pictures) == {f"step-{i:02d}.png" for i in range(1, moves + 1)} | {"solved.png"}
    assert all((steps / n).read_bytes() != b"old" for n in pictures)


@pytest.mark.parametrize("name", ["step-12.png", "step-01.png", "solved.png"])
def test_steps_never_overwrite_or_remove_the_screenshot(tmp_path, name):
    """A screenshot named like a step picture, in the --steps folder: with --force it was
    removed as an earlier run's picture (step-12.png) or overwritten (step-01.png).  It is
    refused in one line, and the screenshot stays as it was."""
    shot = tmp_path / name
    shutil.copy(SAMPLES / "ribbons.png", shot)
    before = shot.read_bytes()
    result = runner.invoke(
        app, ["solve", str(shot), "-o", str(tmp_path / "out.png"), "--steps", str(tmp_path), "--force"]
    )
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--steps" in lines[0] and name in lines[0]
    assert shot.read_bytes() == before


def test_a_pictures_format_follows_its_name(tmp_path):
    board = SAMPLES / "ribbons.json"
    shot = tmp_path / "shot.jpg"
    assert runner.invoke(app, ["render", str(board), "-o", str(shot)]).exit_code == 0
    assert shot.read_bytes()[:3] == b"\xff\xd8\xff"  # JPEG
    refused = runner.invoke(app, ["render", str(board), "-o", str(tmp_path / "a.png"), "--jpeg-quality", "70"])
    assert refused.exit_code == 1 and "name the file .jpg" in refused.output
    out = tmp_path / "moves.jpg"
    result = runner.invoke(app, ["solve", str(SAMPLES / "ribbons.png"), "-o", str(out), "--check-seconds", "0"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:3] == b"\xff\xd8\xff"
    bad = runner.invoke(app, ["solve", str(SAMPLES / "ribbons.png"), "-o", str(tmp_path / "moves.bmp")])
    assert bad.exit_code == 1 and "must end in .png or .jpg" in bad.output


def test_jobs_beyond_the_cores_are_cut_with_a_note(tmp_path):
    boards = tmp_path / "two.txt"
    boards.write_text("1212\n2121\n")
    result = runner.invoke(app, ["solve", str(boards), "--rules", "pivot", "--jobs", "1000"])
    assert "cut to the" in result.output
    big = runner.invoke(app, ["solve", str(boards), "--rules", "pivot", "--jobs", "99999999999999999999"])
    assert big.exit_code == 2


def test_ctrl_c_while_the_commands_load_is_one_line(monkeypatch, capsys):
    """The console script imports kamivision.cli before it calls main(); typer and the
    commands load inside main(), so that Ctrl-C there ends in one line and exit 130."""
    import kamivision.cli as cli

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_app", interrupted)
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code == 130
    assert capsys.readouterr().err == "kamivision: interrupted\n"


@pytest.mark.slow  # against the clock, with processes: run in CI (-m 'slow or not slow')
@pytest.mark.parametrize("before_the_end", [0.4, 0.15])
def test_ctrl_c_just_before_a_timed_solve_ends_is_still_ctrl_c(tmp_path, before_the_end):
    """Issue 47, attack 7: SIGINT shortly before --max-seconds ran out was ignored (the
    command went on to the limit and exited 0, "a limit stopped the search").  Whenever
    the signal reaches the running command, it ends as Ctrl-C: exit 130.

    The search's 3 s count from its start, after the command's, so a signal sent less than
    3 s after the command was started surely reached it before the limit; when this
    process was held up (a loaded machine) and sent it later, nothing is known.  The answer
    can also be out before the limit (the improving beams stop when a wider one would not
    fit), and a signal then lands in the interpreter's exit and can be lost (seen twice in
    clean-clone runs): the test skips when the answer is out before it sends."""
    board = random_board(random.Random(3), "triangle", 29, 10, 4, 0.0)  # hours to prove
    path = write_board(board, tmp_path / "hard.json")
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "solve", str(path), "--json", "--max-seconds", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3 - before_the_end)
    if child.poll() is not None:
        pytest.skip("the command ended before the signal (a very slow start)")
    if select.select([child.stdout], [], [], 0)[0]:
        # The improving beams may end before the limit, when a wider one would not fit: the
        # answer is out and the command exiting, and a signal there can be lost (seen in CI).
        child.kill()
        child.communicate(timeout=60)
        pytest.skip("the answer was out before the signal: nothing was left to stop")
    child.send_signal(signal.SIGINT)
    sent = time.perf_counter() - started
    out, err = child.communicate(timeout=60)
    if sent >= 3:
        pytest.skip(f"the signal went {sent:.2f} s after the start: this test was held up past the limit")
    assert child.returncode == 130, (child.returncode, err)
    if not out:  # seen under three test workers on two cores: the command was still starting
        assert err.strip() == "kamivision: interrupted", err
        pytest.skip(f"the signal reached the command {sent:.2f} s after its start, before its search began")
    assert "Traceback" not in err and json.loads(out)["optimal"] is False


@pytest.mark.slow  # against the clock, with processes: run in CI (-m 'slow or not slow')
def test_sigterm_keeps_the_best_answer_and_exits_143(tmp_path):
    rng = random.Random(8)
    board = random_board(rng, "triangle", 29, 10, 5, 0.0)
    path = tmp_path / "hard.json"
    write_board(board, path)
    process = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "solve", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.5)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 143, (out, err)
    assert ". tap row" in out and "NOT proven optimal" in out
    assert not list(tmp_path.glob(".*.tmp"))


def test_ctrl_c_during_the_counter_check_keeps_the_proven_answer(tmp_path, monkeypatch):
    import kamivision.pipeline as pipeline

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "check_counter", interrupted)
    result = runner.invoke(app, ["solve", str(SAMPLES / "ribbons.png"), "-o", str(tmp_path / "o.png")])
    assert result.exit_code == 130, result.output
    assert ". tap row" in result.stdout and "proven optimal" in result.stdout


def test_a_collection_of_tile_boards_names_each_once_and_says_when_one_has_no_answer(tmp_path):
    boards = tmp_path / "eights.txt"
    # An id of 2, then a plain line (the second board: also "2"), then an unsolvable one.
    boards.write_text("2 21 0 1 2 3 4 5 6 7 0 8\n1 0 2 3 4 5 6 7 8\n0 2 1 3 4 5 6 7 8\n")
    result = runner.invoke(app, ["solve", str(boards)])
    rows = [line.split() for line in result.stdout.splitlines()[1:4]]
    names = [row[0] for row in rows]
    assert len(set(names)) == 3, result.stdout
    assert rows[2][3] == "none" and result.exit_code == 0


def test_a_flood_it_file_read_as_tiles_gets_a_hint(tmp_path):
    pc = tmp_path / "pc.txt"
    pc.write_text("1234561234561234\n")
    result = runner.invoke(app, ["solve", str(pc)])
    assert result.exit_code == 1 and "--rules pivot" in result.output


def test_ctrl_c_in_a_tile_collection_exits_130_with_the_boards_done(tmp_path, monkeypatch):
    import kamivision.puzzles.slide as slide

    boards = tmp_path / "eights.txt"
    boards.write_text("1 0 2 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n1 2 0 3 4 5 6 7 8\n")
    real, calls = slide.solve_slide, []

    def stop_at_the_second(board, limits, **kwargs):
        calls.append(board)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(board, limits, **kwargs)

    monkeypatch.setattr(slide, "solve_slide", stop_at_the_second)
    result = runner.invoke(app, ["solve", str(boards)])
    assert result.exit_code == 130
    assert "1 board: " in result.stdout and "interrupted" in result.stdout


@pytest.mark.slow  # waits out a time limit
def test_generate_stops_at_ctrl_c_and_at_its_time_limit(tmp_path):
    command = [
        sys.executable,
        "-m",
        "kamivision",
        "generate",
        "-o",
        str(tmp_path / "g.json"),
        "--rows",
        "16",
        "--columns",
        "16",
        "--zones",
        "8",
        "--helpers",
        "4",
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "interrupted" in err, (out, err)
    assert not (tmp_path / "g.json").exists()
    limited = subprocess.run(command + ["--max-seconds", "2"], capture_output=True, text=True, timeout=60)
    assert limited.returncode == 1 and "more time" in limited.stderr
    tiny = runner.invoke(
        app, ["generate", "-o", str(tmp_path / "t.json"), "--rows", "2", "--columns", "2", "--zones", "8"]
    )
    assert tiny.exit_code == 1 and "do not fit" in tiny.output


@pytest.fixture
def full_disk(tmp_path):
    """A 64 KiB tmpfs, filled: root only (it mounts), skipped otherwise."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small full file system needs root")
    mount = tmp_path / "full"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        with open(mount / "filler", "wb") as handle:
            try:
                handle.write(b"\0" * 200_000)
            except OSError:
                pass
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_a_full_disk_is_one_line_for_every_writing_command(full_disk):
    for command in (
        ["export", str(SAMPLES / "ribbons.png"), "-o", str(full_disk / "b.json")],
        ["render", str(SAMPLES / "ribbons.json"), "-o", str(full_disk / "s.png")],
        [
            "generate",
            "-o",
            str(full_disk / "g.json"),
            "--rows",
            "4",
            "--columns",
            "4",
            "--zones",
            "1",
            "--min-moves",
            "1",
        ],
        ["solve", str(SAMPLES / "ribbons.png"), "-o", str(full_disk / "o.png")],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 1, (command, result.output)
        lines = [line for line in result.stderr.splitlines() if line.startswith("kamivision:")]
        assert len(lines) == 1 and "cannot be written" in lines[0] and "Traceback" not in result.output, (
            command,
            result.output,
        )
        assert not [p for p in full_disk.iterdir() if p.name != "filler"]


@pytest.mark.parametrize("flag, name", [("--steps", "steps"), ("--gif", "moves.gif")])
def test_a_full_disk_under_a_second_output_names_it_and_leaves_nothing(full_disk, tmp_path, flag, name):
    out = tmp_path / "o.png"
    result = runner.invoke(app, ["solve", str(SAMPLES / "ribbons.png"), "-o", str(out), flag, str(full_disk / name)])
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("kamivision:")]
    assert len(lines) == 1 and name in lines[0] and "cannot be written" in lines[0], result.output
    assert not out.exists()  # a run that fails leaves nothing: the overlay written first is removed


@pytest.mark.slow  # writes and streams a million lines
@pytest.mark.parametrize("kind", ["floodit", "korf"])
def test_a_million_line_collection_is_streamed_and_bounded_by_total_seconds(tmp_path, kind):
    """The first boards come at once and memory does not grow with the file: a million
    lines, the run cut by --total-seconds (each board still answered within its limit)."""
    from kamivision.puzzles.tiles import SlideBoard, solvable

    path = tmp_path / "big.txt"
    rng = random.Random(5)
    if kind == "floodit":
        line = "".join(str(rng.randrange(4)) for _ in range(16))  # a 4 x 4 Flood-It board
    else:
        tiles = list(range(9))
        while True:
            rng.shuffle(tiles)
            if solvable(SlideBoard(3, 3, tuple(tiles), tuple(range(9)))):
                break
        line = " ".join(map(str, tiles))  # an 8-puzzle
    with open(path, "w") as handle:
        handle.writelines(line + "\n" for _ in range(1_000_000))
    command = [sys.executable, "-m", "kamivision", "solve", str(path), "--total-seconds", "2", "--json"]
    if kind == "floodit":
        command += ["--rules", "pivot"]
    # The peak memory of that process alone, measured by a parent of its own.
    wrapper = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "sys.stdout.write(done.stdout); sys.stderr.write(done.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
        "sys.exit(done.returncode)\n"
    )
    out = subprocess.run([sys.executable, "-c", wrapper, *command], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    *lines, peak_mb = out.stdout.splitlines()
    if kind == "floodit":
        rows = [json.loads(line) for line in lines]
        assert 1 <= len(rows) < 1_000_000 and all(row["optimal"] for row in rows)
    else:
        summary = json.loads(lines[-1])
        assert 1 <= len(summary["boards"]) < 1_000_000
    assert int(peak_mb) < 400, peak_mb  # the whole file read as boards took 1.5 GB


def _folder_of_sources(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    write(folder, par=3, name="a.json")
    write(folder, text="ab\nba", name="b.json")
    (folder / "broken.json").write_text('{"format": "kamivision.board/1", "rows": 2}')
    (folder / "notes.txt").write_text("not a source")
    (folder / "sub").mkdir()
    write(folder / "sub", name="deeper.json")
    shutil.copy(SAMPLES / "delta.jpg", folder / "delta.jpg")
    return folder


def test_a_folder_is_solved_in_one_run_with_a_row_for_each_source_and_errors_as_rows(tmp_path):
    folder = _folder_of_sources(tmp_path)
    result = runner.invoke(app, ["solve", str(folder), "--max-seconds", "10"])
    assert result.exit_code == 1, result.output  # one source could not be solved
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 + 4 + 1  # the header, the four sources (not notes.txt, not sub/), the totals
    rows = {line.split()[0].rsplit("/", 1)[-1]: line.split() for line in lines[1:-1]}
    assert set(rows) == {"a.json", "b.json", "broken.json", "delta.jpg"}
    assert rows["a.json"][1:5] == ["board", str(solve_length(folder / "a.json")), "yes", "3"]
    assert rows["broken.json"][1] == "error" and "broken.json" in " ".join(rows["broken.json"][2:])
    assert rows["delta.jpg"][1] == "screenshot"
    assert lines[-1].startswith("4 of 4 sources: 3 solved") and "1 could not be solved" in lines[-1]
    assert "Traceback" not in result.output


def solve_length(path):
    from kamivision.board import read_board
    from kamivision.solver import solve

    return solve(read_board(path)).length


def test_several_sources_on_two_processes_give_the_same_rows_as_json_lines(tmp_path):
    folder = _folder_of_sources(tmp_path)
    files = [str(folder / "a.json"), str(folder / "b.json"), str(folder / "broken.json")]
    one = runner.invoke(app, ["solve", *files, "--json"])
    two = runner.invoke(app, ["solve", *files, "--json", "--jobs", "2"])

    def strip(out):
        lines = out.strip().splitlines()
        return sorted(json.dumps({k: v for k, v in json.loads(line).items() if k != "seconds"}) for line in lines)

    assert one.exit_code == two.exit_code == 1
    assert strip(one.stdout) == strip(two.stdout) and len(strip(one.stdout)) == 3


def test_several_sources_refuse_the_options_of_one_in_one_line(tmp_path):
    folder = _folder_of_sources(tmp_path)
    result = runner.invoke(
        app, ["solve", str(folder / "a.json"), str(folder / "b.json"), "-o", str(tmp_path / "x.png")]
    )
    assert result.exit_code == 1 and result.stderr.strip().count("\n") == 0
    assert "several sources" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["solve", str(empty)])
    assert result.exit_code == 1 and "no board files or screenshots" in result.stderr


def test_a_screenshot_cropped_to_the_board_is_solved_and_says_there_is_no_counter(tmp_path):
    from kamivision.board import make_board
    from kamivision.synth.render import encode, render

    cells = [[(r // 10 + c // 5) % 3 for c in range(10)] for r in range(29)]
    board = make_board(cells, lattice="triangle", palette=["#e06040", "#3a6da2", "#e8d490"])
    image, layout = render(board, "iphone-8", seed=2)
    crop = tmp_path / "crop.png"
    crop.write_bytes(encode(image[max(0, round(layout.board[1])) : layout.footer[1]], ".png"))
    as_file = tmp_path / "board.json"
    write_board(board, as_file)
    expected = json.loads(runner.invoke(app, ["solve", str(as_file), "--json"]).stdout)
    result = runner.invoke(app, ["solve", str(crop), "--json", "-o", str(tmp_path / "out.png")])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["optimal"] and len(answer["moves"]) == len(expected["moves"])
    assert "board alone" in result.output


def test_every_option_is_spelled_in_lower_case():
    """In this typer, an option whose metavar is its own name in capitals came out as
    ``--NAME`` and ``--TOKEN``, and the command in docs/deploy.md did not start."""
    import re

    for command in (["worker"], ["serve"], ["solve"], ["export"], ["review"], ["render"]):
        shown = runner.invoke(app, [*command, "--help"], terminal_width=200).output
        assert not re.findall(r"--[A-Z]{2,}", shown), (command, re.findall(r"--[A-Z]{2,}", shown))
    assert "--name" in runner.invoke(app, ["worker", "--help"], terminal_width=200).output
    assert "--token" in runner.invoke(app, ["serve", "--help"], terminal_width=200).output


def test_version_says_which_compiled_parts_are_in_use():
    """Issue 47: --version names each compiled part and whether it is there (the slow
    test in tests/solver/test_core.py installs without a compiler and sees "pure Python")."""
    import shutil

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("kamivision ")
    parts = dict(line.split(": ", 1) for line in lines[1:])
    assert set(parts) == {"the KAMI search core", "the 15-puzzle's search", "Safe Zone's search"}
    if shutil.which("gcc"):  # built here: CI has a compiler
        assert set(parts.values()) == {"compiled"}, parts


def documented_command_lines() -> list[tuple[str, str]]:
    """Every ``kamivision ...`` command line in the README's and docs' code blocks (also
    after a path, as in a unit file's ExecStart), with the place it comes from: optional
    parts ``[...]`` taken in, comments cut, continuation lines joined."""
    import re

    root = Path(__file__).resolve().parents[1]
    found = []
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        block = False
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                block = not block
                continue
            match = re.search(r"(?:^|\s|/bin/)kamivision (.*)$", line) if block else None
            if not match:
                continue
            text = match.group(1)
            follow = number
            while text.rstrip().endswith("\\") and follow < len(lines):  # a continued line
                text = text.rstrip()[:-1] + " " + lines[follow].strip()
                follow += 1
            text = re.split(r"\s(?:&&|;|\|\|?)\s", text)[0]  # the rest of a shell line is another command
            text = re.sub(r"\s#\s.*$", "", text).replace("[", " ").replace("]", " ")
            text = text.replace("%i", "8001").replace("%H", "host")  # systemd's specifiers in a unit file
            found.append((f"{path.name}:{number}", text.strip()))
    return found


def test_every_command_line_in_the_docs_parses(monkeypatch):
    """Issue 47: the worker line in docs/deploy.md used --name, which did not exist (the
    option showed as --NAME).  Each documented line is parsed by the command line itself:
    an unknown option, a missing argument or a bad value fails here.  Placeholders such as
    ${WEB1_PORT} parse as text; files need not exist.  The Redis URL comes from the
    environment file, as docs/deploy.md sets it up."""
    import shlex

    monkeypatch.setenv("KAMIVISION_REDIS", "redis://:password@10.0.0.5:6379/0")

    import typer
    from typer import _click as click  # typer's own click, which its commands raise

    group = typer.main.get_command(app)
    lines = documented_command_lines()
    assert len(lines) >= 15
    bad = []
    for where, text in lines:
        if "…" in text or "..." in text or "|" in text:
            continue  # a sketch, not a command line
        args = shlex.split(text)
        if not args or not (args[0] in group.commands or args[0].startswith("-")):
            continue  # "kamivision" as a name (an nginx upstream), not a command
        try:
            with group.make_context("kamivision", list(args), resilient_parsing=False) as ctx:
                given = list(getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", [])) + ctx.args
                name, command, rest = group.resolve_command(ctx, given)
                command.make_context(name, rest, parent=ctx)
        except typer.Exit:
            pass  # --help, --version
        except click.ClickException as error:
            bad.append(f"{where}: kamivision {text}: {error.format_message()}")
    assert not bad, "\n".join(bad)


def test_a_redis_password_or_a_token_on_the_command_line_is_warned_of():
    """Issue 47: secrets belong in the environment (docs/deploy.md's environment file),
    not on a command line that any user of the machine can read.  Given there, they still
    work, with one warning line each; from the environment, no warning."""
    pytest.importorskip("rq", reason="the rq package is not installed (pip install 'kamivision[redis]')")
    free_port_url = "redis://:pw@127.0.0.1:9/0"  # port 9 (discard): nothing listens
    given = runner.invoke(app, ["worker", "--redis", free_port_url, "--burst"])
    assert given.exit_code != 0  # nothing listens there
    assert "the Redis password is on the command line" in given.output
    quiet = runner.invoke(app, ["worker", "--burst"], env={"KAMIVISION_REDIS": free_port_url})
    assert quiet.exit_code != 0 and "Redis does not answer" in quiet.output
    assert "command line" not in quiet.output
    assert ":pw@" not in given.output + quiet.output  # no secret in the messages: ":***@"
    token = runner.invoke(app, ["serve", "--token", "s3cret", "--redis", "redis://127.0.0.1:9/0"])
    assert "the token is on the command line" in token.output
    assert "Redis password" not in token.output  # no password in that URL


def test_a_memory_cap_reaches_the_search_and_the_answer_stays_proven(tmp_path):
    """``--max-memory-mb``: the stored states fill the cap and the proof's last steps go
    to disk (``--max-disk-mb``, the temporary folder's), or on depth-first with
    ``--max-disk-mb 0``, which expands more states than without the cap; the two expand
    different numbers, and the answer is the same proven optimum."""
    from .boards import random_kami_board

    # A board whose proof stores more than 1 MB of states (seed 0's stopped doing so when
    # the path-flood corridor went per color, 2026-11-30).
    path = write_board(random_kami_board(random.Random(1), colors=5, blank_outline=False), tmp_path / "b.json")
    answers = []
    capped = ["--max-memory-mb", "1"]
    for extra in ([], [*capped, "--max-disk-mb", "0"], [*capped, "--max-disk-mb", "100"]):
        result = runner.invoke(app, ["solve", str(path), "--json", "--max-nodes", "3000000", *extra])
        assert result.exit_code == 0, result.output
        answers.append(json.loads(result.stdout))
    plain, deep, disk = answers
    assert all(answer["optimal"] and answer["length"] == plain["length"] for answer in answers)
    # (deep expanding more shows that the cap was reached: else the board is too easy)
    assert deep["expanded"] > plain["expanded"] and disk["expanded"] != deep["expanded"]


def test_a_memory_cap_is_refused_where_no_search_stores_states(tmp_path):
    lines = tmp_path / "boards.txt"
    lines.write_text("0120\n1201\n2010\n0102\n")
    korf = tmp_path / "korf.txt"
    korf.write_text("1 0 0 " + " ".join(str(t) for t in [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]) + "\n")
    for args in ([str(lines), "--rules", "pivot"], [str(korf)]):
        for option in ("--max-memory-mb", "--max-disk-mb"):
            result = runner.invoke(app, ["solve", *args, option, "100"])
            assert result.exit_code == 1, result.output
            assert result.stderr.strip() == f"kamivision: {args[0]}: {option} is for KAMI boards and screenshots"


def test_the_progress_line_fits_the_terminal(monkeypatch):
    """Rewritten in place, the line must not wrap: at 80 columns it took 108 characters with
    its tail, and every report left a line behind.  It is cut to the width, the tail first."""
    import io
    import shutil

    from kamivision.cli import common

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    info = {"expanded": 1_234_567, "bound": 11, "found": 13, "seconds": 123.4, "memory_full": True}
    for columns in (40, 60, 80, 200):
        terminal = Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=None, n=columns: os.terminal_size((n, 24)))
        common.progress_printer(unlimited=True)(info)
        written = terminal.getvalue()
        assert written.startswith("\r") and written.endswith("\x1b[K")
        visible = written[1 : -len("\x1b[K")]
        assert len(visible) <= columns - 1
        assert ("Ctrl-C stops with the best" in visible) == (columns == 200)
        # Fewer words, not a cut end: what a player watches to know when to stop stays.
        assert "13 moves found" in visible or columns < 50 and "13 found" in visible
        assert "bound 11" in visible and "123.4 s" in visible
        assert ("1,234,567 states" in visible) == (columns >= 80)
        assert visible.startswith("searching:") == (columns > 80)


def test_the_progress_line_is_drawn_at_most_ten_times_a_second_unless_the_bound_moves(monkeypatch):
    """The sweeps report every 256 states; drawn each time, one proof wrote 14,643 lines to
    the terminal.  Counts alone redraw it after REDRAW_SECONDS; a new bound or length at once."""
    import io

    from kamivision.cli import common

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    now = [0.0]
    show = common.progress_printer(clock=lambda: now[0])
    for i in range(1000):  # a thousand reports in half a second, the bound rising at the 650th
        now[0] = i * 0.0005
        show({"expanded": 256 * i, "bound": 12 if i < 650 else 13, "found": 15, "seconds": now[0]})
    draws = terminal.getvalue().split("\r")[1:]
    # at 0, 0.1, 0.2 and 0.3 s, at 0.325 s for the bound, then 0.425 s
    assert len(draws) == 6, draws
    assert all("bound 12" in line for line in draws[:4])
    assert "bound 13" in draws[4] and f"{256 * 650:,} states" in draws[4] and "bound 13" in draws[5]
