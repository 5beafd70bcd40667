import io
import os
from pathlib import Path

import pytest
from PIL import Image

from kamivision.errors import ImageError, OutputError, OutputExistsError
from kamivision.files import MAX_PIXELS, load_image, write_atomic


def test_images_load_as_rgb(tmp_path):
    path = tmp_path / "grey.png"
    Image.new("L", (300, 400), 128).save(path)
    rgb = load_image(path)
    assert rgb.shape == (400, 300, 3) and rgb.dtype.name == "uint8" and (rgb == 128).all()


def test_bad_images_name_the_file_and_the_problem(tmp_path):
    (tmp_path / "text.png").write_text("not an image")
    Image.new("RGB", (50, 50)).save(tmp_path / "tiny.png")
    cases = {
        tmp_path / "absent.png": "no such file",
        tmp_path: "is a folder",
        tmp_path / "text.png": "not an image kamivision can read",
        tmp_path / "tiny.png": "too small",
    }
    for path, words in cases.items():
        with pytest.raises(ImageError, match=words) as info:
            load_image(path)
        assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)


def test_decompression_bombs_are_refused_from_the_header(tmp_path):
    bomb = io.BytesIO()
    Image.new("L", (8000, 6000)).save(bomb, format="PNG")
    assert 8000 * 6000 > MAX_PIXELS
    path = tmp_path / "bomb.png"
    path.write_bytes(bomb.getvalue())
    with pytest.raises(ImageError, match="image is 8000x6000, too large for a screenshot") as info:
        load_image(path)
    assert str(info.value).count("bomb.png") == 1  # the file named once
    assert Image.MAX_IMAGE_PIXELS != MAX_PIXELS  # Pillow's own setting is left alone


def test_a_screenshot_stored_sideways_with_an_exif_orientation_is_read_upright(tmp_path):
    from kamivision.board import read_board
    from kamivision.vision import recognize_file

    samples = Path(__file__).resolve().parents[1] / "samples"
    upright = Image.open(samples / "lantern.jpg")
    sideways = upright.transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 clockwise to view"
    path = tmp_path / "sideways.jpg"
    sideways.save(path, exif=exif, quality=95)
    found = recognize_file(path)
    assert found.board.cells == read_board(samples / "lantern.json").cells


def test_atomic_writes_never_replace_a_file_unless_asked(tmp_path):
    path = tmp_path / "out.bin"
    write_atomic(path, b"one")
    with pytest.raises(OutputExistsError, match="already exists"):
        write_atomic(path, b"two")
    assert path.read_bytes() == b"one"
    write_atomic(path, b"three", overwrite=True)
    assert path.read_bytes() == b"three"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]  # no temporary file left


def test_atomic_writes_refuse_a_missing_folder(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        write_atomic(tmp_path / "absent" / "out.bin", b"x")


def test_atomic_writes_get_the_usual_mode(tmp_path):
    path = write_atomic(tmp_path / "out.bin", b"x")
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_key_given_twice_and_an_endless_integer_are_one_line_each(tmp_path):
    from typer.testing import CliRunner

    from kamivision.cli import app

    runner = CliRunner()
    twice = tmp_path / "twice.json"
    twice.write_text(
        '{"format": "kamivision.board/1", "lattice": "square", "rows": 1, "columns": 2, '
        '"cells": [[0, 1]], "cells": [[1, 1]]}'
    )
    huge = tmp_path / "huge.json"
    huge.write_text(
        '{"format": "kamivision.board/1", "lattice": "square", "rows": 1, "columns": 2, '
        '"cells": [[0, 1]], "par": ' + "9" * 5000 + "}"
    )
    tiles = tmp_path / "tiles.json"
    tiles.write_text(
        '{"format": "kamivision.slide/1", "rows": 2, "columns": 2, "cells": [[0, 1], [2, ' + "3" * 5000 + "]]}"
    )
    for path, words in ((twice, "given twice"), (huge, "not usable JSON"), (tiles, "not usable JSON")):
        for command in (["solve", str(path)], ["render", str(path), "-o", str(tmp_path / "x.png")]):
            result = runner.invoke(app, command)
            assert result.exit_code == 1, (command, result.output)
            lines = [line for line in result.output.splitlines() if line.strip()]
            assert len(lines) == 1 and words in lines[0] and path.name in lines[0], (command, result.output)


def test_an_image_larger_than_any_phone_s_screenshot_is_refused_from_its_header(tmp_path):
    from kamivision.errors import ImageError
    from kamivision.files import MAX_SIDE

    path = tmp_path / "strip.png"
    Image.new("RGB", (MAX_SIDE + 1, 300)).save(path)  # 1.2 MP, but a side no phone has
    with pytest.raises(ImageError, match=r"strip\.png: image is 4097x300, larger than any phone's screenshot"):
        load_image(path)


# ---------------------------------------------------------------- every kind of output path

import stat  # noqa: E402
import subprocess  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kamivision.errors import KamiError  # noqa: E402
from kamivision.files import check_output  # noqa: E402

from .conftest import examples  # noqa: E402

ROOT_ONLY = ("device", "read-only", "full")  # a device node falls back to a pipe without root


@pytest.fixture(scope="module")
def mounts(tmp_path_factory):
    """A read-only and a full tmpfs (root only: they are mounted); {} otherwise."""
    out = {}
    if os.geteuid() != 0:
        yield out
        return
    base = tmp_path_factory.mktemp("mounts")
    for name, options in (("read-only", "size=64k"), ("full", "size=64k")):
        point = base / name
        point.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True).returncode:
            continue
        out[name] = point
    if "full" in out:
        with open(out["full"] / "filler", "wb") as handle:
            try:
                handle.write(b"\0" * 200_000)
            except OSError:
                pass
    if "read-only" in out:
        (out["read-only"] / "old.txt").write_bytes(b"old")
        subprocess.run(["mount", "-o", "remount,ro", str(out["read-only"])], capture_output=True)
        try:  # the remount may be refused: then there is no read-only case
            (out["read-only"] / "probe").write_bytes(b"x")
            subprocess.run(["umount", str(out.pop("read-only"))], capture_output=True)
        except OSError:
            pass
    yield out
    for point in out.values():
        subprocess.run(["umount", str(point)], capture_output=True)


def _snapshot(path: Path):
    """What is at ``path`` now, to compare after a refused write."""
    if path.is_symlink():
        return ("link", os.readlink(path), path.read_bytes() if path.exists() else None)
    if not path.exists():
        return None
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        return ("folder", sorted(p.name for p in path.iterdir()))
    if stat.S_ISREG(mode):
        return ("file", path.read_bytes())
    return ("other", stat.S_IFMT(mode), path.stat().st_rdev)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(
        ["absent", "regular", "symlink", "folder", "input", "hard link to the input", "other output", *ROOT_ONLY]
    ),
    force=st.booleans(),
    data=st.binary(min_size=1, max_size=4096),
)
def test_an_output_is_written_whole_or_refused_in_one_line_with_nothing_lost(
    tmp_path_factory, mounts, kind, force, data
):
    """Whatever the output path is, a write either puts exactly the new bytes there (only
    where a file may be replaced: absent, or a regular file or a link to one with
    ``--force``), or is refused with one line naming it, and then what was there, the input
    and the folder are as they were (no temporary file left behind)."""
    if kind in ROOT_ONLY and kind != "device" and kind not in mounts:
        return  # needs root (mount): the other kinds still run
    folder = tmp_path_factory.mktemp("out")
    source = folder / "shot.png"
    source.write_bytes(b"the screenshot")
    path = folder / "out.png"
    other = folder / "steps.gif"
    if kind == "regular":
        path.write_bytes(b"old")
    elif kind == "symlink":
        (folder / "target.png").write_bytes(b"old")
        path.symlink_to(folder / "target.png")
    elif kind == "folder":
        path.mkdir()
        (path / "kept.txt").write_bytes(b"kept")
    elif kind == "input":
        path = source
    elif kind == "hard link to the input":
        os.link(source, path)
    elif kind == "other output":
        path = other  # as in -o X --gif X: the second output is the first one
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
        except OSError:  # a container that forbids device nodes: a pipe is not a regular file either
            os.mkfifo(path)
    elif kind == "read-only":
        path = mounts["read-only"] / "old.txt"
    elif kind == "full":
        path = mounts["full"] / "new.png"
    before, source_before = _snapshot(path), source.read_bytes()
    temporaries_before = set(path.parent.iterdir()) if path.parent.exists() else set()
    allowed = kind == "absent" or (force and kind in ("regular", "symlink"))
    try:
        check_output(path, force, inputs=(source, other if kind == "other output" else None))
        write_atomic(path, data, overwrite=force)
    except KamiError as error:
        message = str(error)
        assert "\n" not in message and path.name in message, message
        assert not allowed or kind in ("read-only", "full"), (kind, message)
        assert _snapshot(path) == before  # nothing replaced, nothing cut
    else:
        assert allowed, kind
        assert path.read_bytes() == data
        if kind == "symlink":
            assert path.is_symlink() and (folder / "target.png").read_bytes() == data  # the link kept
    if kind not in ("input", "hard link to the input"):
        assert source.read_bytes() == source_before
    else:
        assert source.read_bytes() == source_before, "the input was overwritten"
    after = set(path.parent.iterdir())
    assert not [p for p in after - temporaries_before if p.name.endswith(".tmp")]  # no leftovers


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc on this system")
def test_an_output_in_a_folder_where_no_file_can_be_made_is_refused_before_any_work():
    """As root, os.access says /proc is writable; a file made there is the real test."""
    with pytest.raises(OutputError, match=r"/proc/x\.png: cannot write in folder /proc"):
        check_output("/proc/x.png", overwrite=False)


def test_ctrl_c_during_the_renames_comes_after_all_of_them(tmp_path):
    """Staged outputs: a Ctrl-C that arrives while they are renamed into place is held
    back until the last one is there, so the set lands whole."""
    import os
    import signal

    from kamivision.files import Staged

    (tmp_path / "a.png").write_bytes(b"old")  # replaced (os.replace), with --force
    # Ctrl-C as a terminal gives it: a shell's background job (pytest ... &) starts with
    # SIGINT ignored, and Staged then rightly passes nothing on.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    with pytest.raises(KeyboardInterrupt):
        with Staged(overwrite=True) as staged:
            staged.file(tmp_path / "a.png", b"a")
            staged.folder(tmp_path / "steps", {"step-01.png": b"1", "solved.png": b"2"})
            staged.file(tmp_path / "b.gif", b"b")
            original = os.replace

            def interrupted_replace(*args):
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of the renames
                return original(*args)

            os.replace = interrupted_replace
            try:
                staged.commit()
            finally:
                os.replace = original
                signal.signal(signal.SIGINT, previous)
    assert (tmp_path / "a.png").read_bytes() == b"a" and (tmp_path / "b.gif").read_bytes() == b"b"
    assert sorted(p.name for p in (tmp_path / "steps").iterdir()) == ["solved.png", "step-01.png"]
    assert not list(tmp_path.glob(".*"))
