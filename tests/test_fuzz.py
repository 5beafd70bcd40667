"""Fuzzing the inputs a user gives (Hypothesis): board files of arbitrary JSON and bytes,
corrupted and random images as screenshots.  Every run must end with exit status 0 or 1,
at most a line or two on stderr, no traceback, within a time bound, and leave its input
file unchanged."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from typer.testing import CliRunner

from kamivision.cli import app

from .conftest import examples

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FUZZ = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)

# Board-shaped objects: the keys of a real board file, with values that are often wrong.
board_like = st.fixed_dictionaries(
    {"format": st.sampled_from(["kamivision.board/1", "kamivision/1", "x"]) | st.text(max_size=5)},
    optional={
        "lattice": st.sampled_from(["triangle", "square", "hex"]) | json_values,
        "rows": st.integers(-2, 40) | json_values,
        "columns": st.integers(-2, 40) | json_values,
        "cells": st.lists(st.lists(st.none() | st.integers(-2, 12), max_size=6), max_size=6) | json_values,
        "palette": st.lists(st.sampled_from(["#ff0000", "#00ff00", "red", ""]), max_size=6) | json_values,
        "par": st.integers(-3, 30) | json_values,
        "rules": st.sampled_from(["free", "pivot", "other"]) | json_values,
        "pivot": st.lists(st.integers(-2, 8), max_size=3) | json_values,
        "name": st.text(max_size=30),
    },
)


@st.composite
def small_boards(draw):
    """Well-formed board files (so that the solver runs too), sometimes with one field off."""
    rows, columns = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    colors = draw(st.integers(1, 4))
    cells = [[draw(st.none() | st.integers(0, colors - 1)) for _ in range(columns)] for _ in range(rows)]
    obj = {
        "format": "kamivision.board/1",
        "lattice": draw(st.sampled_from(["triangle", "square"])),
        "rows": rows,
        "columns": columns,
        "cells": cells,
        "rules": draw(st.sampled_from(["free", "pivot"])),
    }
    if draw(st.booleans()):
        obj["palette"] = ["#102030", "#a0b0c0", "#ff8800", "#00aa55"][:colors]
    if draw(st.booleans()):
        obj["par"] = draw(st.integers(0, 20))
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(obj)))
        obj[key] = draw(json_values)
    return obj


def _check(result, path: Path, before: bytes) -> None:
    # An exception that escaped the command (the runner catches it) is a traceback to a user.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    if result.exit_code == 1:
        assert 1 <= len(result.stderr.strip().splitlines()) <= 2, result.stderr
    assert path.read_bytes() == before


def _solve(path: Path):
    return runner.invoke(app, ["solve", str(path), "--max-seconds", "2"])


@FUZZ
@given(value=json_values | board_like | small_boards())
def test_board_files_of_any_json_end_cleanly(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("fuzz") / "board.json"
    path.write_text(json.dumps(value))
    before = path.read_bytes()
    _check(_solve(path), path, before)


@FUZZ
@given(data=st.binary(max_size=400))
def test_board_files_of_any_bytes_end_cleanly(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "board.json"
    path.write_bytes(data)
    _check(_solve(path), path, data)


def _image_bytes(array: np.ndarray, fmt: str) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format=fmt)
    return buf.getvalue()


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    width=st.integers(1, 700),
    height=st.integers(1, 1400),
    fmt=st.sampled_from(["PNG", "JPEG"]),
    seed=st.integers(0, 2**16),
    kind=st.sampled_from(["noise", "flat", "stripes"]),
)
def test_random_images_as_screenshots_end_cleanly(tmp_path_factory, width, height, fmt, seed, kind):
    rng = np.random.default_rng(seed)
    if kind == "noise":
        array = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    elif kind == "flat":
        array = np.full((height, width, 3), rng.integers(0, 256, 3), np.uint8)
    else:
        array = np.repeat(rng.integers(0, 256, (1, width, 3), dtype=np.uint8), height, axis=0)
        array[int(0.8 * height) :] = (34, 25, 15)  # a dark band where the footer would be
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / f"shot.{fmt.lower()}"
    path.write_bytes(_image_bytes(array, fmt))
    before = path.read_bytes()
    result = runner.invoke(app, ["solve", str(path), "--max-seconds", "2", "-o", str(folder / "out.png")])
    _check(result, path, before)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.floats(0.0, 1.0), flips=st.lists(st.integers(0, 10**9), max_size=20))
def test_corrupted_screenshots_end_cleanly(tmp_path_factory, cut, flips):
    data = bytearray((SAMPLES / "ribbons.png").read_bytes())
    data = data[: max(1, int(len(data) * cut))] if cut < 1 else data
    for flip in flips:
        data[flip % len(data)] ^= 0xFF
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "shot.png"
    path.write_bytes(bytes(data))
    result = runner.invoke(app, ["solve", str(path), "--max-seconds", "2", "-o", str(folder / "out.png")])
    _check(result, path, bytes(data))
