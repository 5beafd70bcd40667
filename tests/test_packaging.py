"""The package as users get it (issue 47): the wheel holds the modules, the page's files,
the compiled parts and the licence, and no C sources, tests or experiments; the sdist holds
what a build needs.  Built from git's copy of the last commit, as CI's clean clone has it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_and_the_sdist_hold_what_they_should(tmp_path):
    pytest.importorskip("build", reason="the build package is not installed (it is in the test extra)")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the source to build is taken with git archive")
    source = tmp_path / "source"
    source.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(tmp_path / "dist"), str(source)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "deprecat" not in (done.stdout + done.stderr).lower(), [
        line for line in (done.stdout + done.stderr).splitlines() if "deprecat" in line.lower()
    ]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    (sdist,) = (tmp_path / "dist").glob("*.tar.gz")

    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".c", ".h"))], "C sources in the wheel"
    assert not [n for n in names if n.split("/")[0] in ("tests", "benchmarks", "scripts", "samples")]
    assert {"kamivision/web/static/app.js", "kamivision/web/static/index.html", "kamivision/web/static/style.css"} <= set(names)
    assert any(n.endswith("dist-info/licenses/LICENSE") for n in names)
    if shutil.which("gcc"):  # built here: every compiled part is in the wheel
        for part in ("kamivision/solver/_core", "kamivision/puzzles/_patterns", "kamivision/puzzles/_safezone"):
            assert any(n.startswith(part + ".") and n.endswith(".so") for n in names), part

    members = {m.split("/", 1)[1] for m in tarfile.open(sdist).getnames() if "/" in m}
    tracked = subprocess.run(["git", "ls-files", "kamivision"], cwd=ROOT, capture_output=True, text=True, check=True)
    needed = {f for f in tracked.stdout.split() if f.endswith((".c", ".h", ".py")) or "/static/" in f}
    assert needed <= members, sorted(needed - members)
    assert {"setup.py", "pyproject.toml", "LICENSE", "README.md", "MANIFEST.in"} <= members


def _built(tmp_path: Path, *what: str) -> Path:
    """The wheel or sdist (``--wheel``, ``--sdist``) built from git's copy of the last commit."""
    pytest.importorskip("build", reason="the build package is not installed (it is in the test extra)")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the source to build is taken with git archive")
    source = tmp_path / "source"
    source.mkdir(exist_ok=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    done = subprocess.run(
        [sys.executable, "-m", "build", *what, "--outdir", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return tmp_path / "dist"


def _answers(command: list[str], folder: Path, files: dict[str, Path]) -> dict[str, tuple]:
    """Each file's answer by ``command`` (a kamivision), run in ``folder``: (optimal, moves)."""
    out = {}
    for name, path in files.items():
        extra = ["-o", str(folder / f"{name}.png"), "--force"] if path.suffix == ".jpg" else []
        done = subprocess.run([*command, "solve", str(path), "--json", *extra], cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, (name, done.stderr)
        answer = json.loads(done.stdout)
        out[name] = (answer.get("optimal"), json.dumps(answer.get("moves"), sort_keys=True))
    return out


@pytest.mark.slow
def test_the_wheel_in_a_fresh_venv_answers_as_the_checkout(tmp_path):
    """Issue 47: the package as users install it.  The wheel goes into a fresh venv (its
    dependencies from the package index), and from another folder it solves a screenshot,
    a board file, a Safe Zone level and an 8-puzzle with the checkout's answers."""
    (wheel,) = _built(tmp_path, "--wheel").glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    checkout = [sys.executable, "-m", "kamivision"]
    level = folder / "zone.json"
    subprocess.run(
        [*checkout, "generate", "-o", str(level), "--rows", "6", "--columns", "6", "--zones", "3", "--seed", "4"],
        cwd=folder, capture_output=True, check=True,
    )
    eight = folder / "eight.json"
    eight.write_text(json.dumps({"format": "kamivision.slide/1", "rows": 3, "columns": 3, "cells": [[0, 2, 3], [1, 8, 6], [4, 5, 7]]}))
    files = {"lantern": ROOT / "samples" / "lantern.jpg", "patchwork": ROOT / "samples" / "patchwork.json", "zone": level, "eight": eight}
    installed = _answers([str(venv / "bin" / "kamivision")], folder, files)
    assert installed == _answers(checkout, folder, files)
    assert installed["lantern"][0] is True and len(json.loads(installed["lantern"][1])) == 8
    assert installed["patchwork"][0] is True and len(json.loads(installed["patchwork"][1])) == 6
    assert len(json.loads(installed["eight"][1])) == 12
    assert installed["zone"][0] is True and json.loads(installed["zone"][1])  # proven, with moves
