from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kamivision.solver import SearchSettings
from kamivision.solver import core as compiled_core

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that folder is not beside the project."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared data folder beside the project), which is absent")
    return path


def machine(**changes) -> SearchSettings:
    """This machine's search settings, with ``changes`` (memory, threads, core)."""
    return dataclasses.replace(SearchSettings.for_this_machine(), **changes)


@pytest.fixture(params=["c", "python"])
def both(request) -> SearchSettings:
    """Search settings that run a test with the compiled A* core and again with the
    pure-Python search."""
    if request.param == "c" and not compiled_core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    return machine(core=request.param == "c")
