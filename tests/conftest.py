from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from kamivision.solver import SearchSettings
from kamivision.solver import core as compiled_core
from kamivision.solver.settings import usable_cpus

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


# Compiled modules are cached even where PYTHONDONTWRITEBYTECODE is set (as in the
# containers here): each worker otherwise compiles every test module and the package again,
# 2.6 s of its 3.6 s collection.
sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: one worker more than the cores.  Many tests wait (on a browser, a server,
    a subprocess stopped with a signal), and a third worker fills those waits: the plain run
    on 2 cores took 126 s with three workers against 146 s with two (docs/measurements.md)."""
    return usable_cpus() + 1


#: Whether this is the plain run (``-m 'not slow'``, the default), set when pytest starts.
PLAIN_RUN = False


def pytest_configure(config) -> None:
    global PLAIN_RUN
    PLAIN_RUN = config.getoption("markexpr").strip() == "not slow"


def examples(full: int) -> int:
    """How many examples a property test draws: ``full`` in the full run (CI's), a third of
    them in the plain run, which is for a quick look before a commit."""
    return max(10, full // 3) if PLAIN_RUN else full


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that folder is not beside the project."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared data folder beside the project), which is absent")
    return path


#: The devices that stand for all in the plain run: a 16:9 phone, a tall phone whose board is
#: cropped at the sides, and a tablet.  The rest of the device matrix is ``slow`` (the full
#: run, which CI makes, has it all).
REPRESENTATIVE_DEVICES = ("iphone-8-plus", "android-tall", "tablet-4x3")


def device_params(devices, plain=REPRESENTATIVE_DEVICES) -> list:
    """``devices`` as parameters, those not in ``plain`` (:data:`REPRESENTATIVE_DEVICES`
    unless given) marked slow."""
    return [pytest.param(d, marks=() if d in plain else pytest.mark.slow) for d in devices]


def machine(**changes) -> SearchSettings:
    """This machine's search settings, with ``changes`` (memory, threads, core), no first
    look and no race of the path-flood bound (the look's beams run for a time, and the
    race picks the faster way, so the states a solve expands would depend on the
    machine's speed: the tests that compare runs need them to depend on the board alone;
    tests/solver/test_islands.py and tests/solver/test_proof.py test them)."""
    return dataclasses.replace(
        SearchSettings.for_this_machine(), **{"first_look": False, "path_flood": False, **changes}
    )


@pytest.fixture(params=["c", "python"])
def both(request) -> SearchSettings:
    """Search settings that run a test with the compiled A* core and again with the
    pure-Python search."""
    if request.param == "c" and not compiled_core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    return machine(core=request.param == "c")
