from __future__ import annotations

from pathlib import Path

import pytest

from kamivision.solver import search

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that folder is not beside the project."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared data folder beside the project), which is absent")
    return path


@pytest.fixture(params=["c", "python"])
def core(request, monkeypatch):
    """Run a test with the compiled A* core and again with the pure-Python search."""
    if request.param == "c" and search._core is None:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    if request.param == "python":
        monkeypatch.setattr(search, "_core", None)
    return request.param
