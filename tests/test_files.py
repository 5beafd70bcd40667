import io
from pathlib import Path
import os

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
        tmp_path / "text.png": "not an image file",
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
    with pytest.raises(ImageError, match="too large") as info:
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
    twice.write_text('{"format": "kamivision.board/1", "lattice": "square", "rows": 1, "columns": 2, '
                     '"cells": [[0, 1]], "cells": [[1, 1]]}')
    huge = tmp_path / "huge.json"
    huge.write_text('{"format": "kamivision.board/1", "lattice": "square", "rows": 1, "columns": 2, '
                    '"cells": [[0, 1]], "par": ' + "9" * 5000 + "}")
    tiles = tmp_path / "tiles.json"
    tiles.write_text('{"format": "kamivision.slide/1", "rows": 2, "columns": 2, "cells": [[0, 1], [2, ' + "3" * 5000 + "]]}")
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
