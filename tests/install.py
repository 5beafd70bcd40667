"""The package as users install it, for the tests that install it (tests/test_packaging.py,
tests/solver/test_core.py): the source as git holds it, the issue's smoke set, and the
answers a ``kamivision`` command gives them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The checkout's own command (this interpreter, the package as the tests import it).
CHECKOUT = [sys.executable, "-m", "kamivision"]


def git_source(tmp_path: Path) -> Path:
    """The last commit's files, as CI's clean clone has them (no build folder, no compiled
    files of this checkout), in ``tmp_path/source``; the test is skipped outside git."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the source to install is taken with git archive")
    source = tmp_path / "source"
    source.mkdir(exist_ok=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    return source


def index_env() -> dict[str, str]:
    """How this machine reaches its package index (pip's settings), for a clean environment."""
    names = (
        "PIP_INDEX_URL",
        "PIP_EXTRA_INDEX_URL",
        "PIP_FIND_LINKS",
        "PIP_CERT",
        "SSL_CERT_FILE",
        "REQUESTS_CA_BUNDLE",
    )
    return {name: os.environ[name] for name in names if name in os.environ}


def smoke_files(folder: Path) -> dict[str, Path]:
    """Issue 47's smoke set: a screenshot, a board file, a Safe Zone level (made by the
    checkout's ``generate``) and the 8-puzzle, the last two written in ``folder``."""
    level, eight = folder / "zone.json", folder / "eight.json"
    subprocess.run(
        [*CHECKOUT, "generate", "-o", str(level), "--rows", "6", "--columns", "6", "--zones", "3", "--seed", "4"],
        cwd=folder,
        capture_output=True,
        check=True,
    )
    eight.write_text(
        json.dumps(
            {"format": "kamivision.slide/1", "rows": 3, "columns": 3, "cells": [[0, 2, 3], [1, 8, 6], [4, 5, 7]]}
        )
    )
    return {
        "lantern": ROOT / "samples" / "lantern.jpg",
        "patchwork": ROOT / "samples" / "patchwork.json",
        "zone": level,
        "eight": eight,
    }


def answers(command: list[str], folder: Path, files: dict[str, Path], *options: str, env=None) -> dict[str, dict]:
    """Each file's ``solve --json`` answer by ``command`` run in ``folder`` (a screenshot's
    picture written there), with ``options``; ``env`` replaces the environment."""
    out = {}
    for name, path in files.items():
        picture = ["-o", str(folder / f"{name}.png"), "--force"] if path.suffix == ".jpg" else []
        done = subprocess.run(
            [*command, "solve", str(path), "--json", *options, *picture],
            cwd=folder,
            capture_output=True,
            text=True,
            env=env,
        )
        assert done.returncode == 0, (name, done.stderr[-1000:])
        out[name] = json.loads(done.stdout)
    return out
