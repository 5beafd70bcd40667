"""The package as users get it (issue 47): the wheel holds the modules, the page's files,
the compiled parts and the licence, and no C sources, tests or experiments; the sdist holds
what a build needs.  Built from git's copy of the last commit, as CI's clean clone has it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from .install import CHECKOUT, ROOT, answers, git_source, smoke_files


def _built(tmp_path: Path, *what: str) -> tuple[Path, str]:
    """The folder of the wheel or sdist (``--wheel``, ``--sdist``; both without) built from
    git's copy of the last commit, and what the build printed."""
    pytest.importorskip("build", reason="the build package is not installed (it is in the test extra)")
    source = git_source(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "build", *what, "--outdir", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return tmp_path / "dist", done.stdout + done.stderr


@pytest.mark.slow
def test_the_wheel_and_the_sdist_hold_what_they_should(tmp_path):
    dist, printed = _built(tmp_path)
    assert "deprecat" not in printed.lower(), [line for line in printed.splitlines() if "deprecat" in line.lower()]
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")

    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".c", ".h"))], "C sources in the wheel"
    assert not [n for n in names if n.split("/")[0] in ("tests", "benchmarks", "scripts", "samples")]
    assert {
        "kamivision/web/static/app.js",
        "kamivision/web/static/index.html",
        "kamivision/web/static/style.css",
        "kamivision/vision/digits.npz",
    } <= set(names)
    assert any(n.endswith("dist-info/licenses/LICENSE") for n in names)
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    fields = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in fields
    # The oldest Python promised is no newer than the one these tests run on (CI runs the
    # oldest promised, 3.11, so the promise is what CI tests).
    required = re.search(r"^Requires-Python: >=(\d+)\.(\d+)$", fields, re.M)
    assert required and sys.version_info[:2] >= (int(required[1]), int(required[2]))
    if shutil.which("gcc"):  # built here: every compiled part is in the wheel
        for part in ("kamivision/solver/_core", "kamivision/puzzles/_patterns", "kamivision/puzzles/_safezone"):
            assert any(n.startswith(part + ".") and n.endswith(".so") for n in names), part

    members = {m.split("/", 1)[1] for m in tarfile.open(sdist).getnames() if "/" in m}
    tracked = subprocess.run(["git", "ls-files", "kamivision"], cwd=ROOT, capture_output=True, text=True, check=True)
    needed = {f for f in tracked.stdout.split() if f.endswith((".c", ".h", ".py", ".npz")) or "/static/" in f}
    assert needed <= members, sorted(needed - members)
    assert {"setup.py", "pyproject.toml", "LICENSE", "README.md", "MANIFEST.in"} <= members


@pytest.mark.slow
def test_the_wheel_in_a_fresh_venv_answers_as_the_checkout(tmp_path):
    """Issue 47: the package as users install it.  The wheel goes into a fresh venv (its
    dependencies from the package index), and from another folder it solves a screenshot,
    a board file, a Safe Zone level and an 8-puzzle with the checkout's answers."""
    dist, _ = _built(tmp_path, "--wheel")
    (wheel,) = dist.glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    files = smoke_files(folder)

    def shown(found: dict[str, dict]) -> dict[str, tuple]:
        return {name: (a.get("optimal"), json.dumps(a.get("moves"), sort_keys=True)) for name, a in found.items()}

    installed = shown(answers([str(venv / "bin" / "kamivision")], folder, files))
    assert installed == shown(answers(CHECKOUT, folder, files))
    assert installed["lantern"][0] is True and len(json.loads(installed["lantern"][1])) == 8
    assert installed["patchwork"][0] is True and len(json.loads(installed["patchwork"][1])) == 6
    assert len(json.loads(installed["eight"][1])) == 12
    assert installed["zone"][0] is True and json.loads(installed["zone"][1])  # proven, with moves
