"""The sweep's states on disk when its memory is full (``_core/spill.c``, through
:func:`kamivision.solver.core.sweep` and the solver's settings; a whole solve that goes
to disk is in ``test_core.py``, with the other ways a full memory is handed over)."""

import ctypes
import os
import platform

import pytest

from kamivision.solver import core
from kamivision.solver.settings import SearchSettings, spill_folder

from ..boards import kami_island

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core kamivision.solver._core is not built")


def _island(seed: int):
    board, island, optimum = kami_island(seed)
    return board, island, core.graph(island.colors, island.adjacency), len(optimum)


def _answer(result: core.Answer) -> tuple:
    return result.status, result.expanded, result.bound, None if result.path is None else len(result.path)


@pytest.mark.parametrize("seed, below, paths", [(1, 1, False), (2, 0, True)])
def test_a_sweep_on_disk_expands_the_same_states_as_in_memory(seed, below, paths, tmp_path):
    """With too little memory for its states, the sweep writes the region counts waiting
    their turn to disk and merges their copies when it reads them back: the same states
    are expanded (with the same least g, bounds and kept moves), so the answer and the
    count are those of the sweep in memory, for a proof (nothing within optimum - 1, keys
    only) and for a search that finds the optimum with its moves.  The files are unlinked
    as soon as they are made: the folder stays empty while they are in use and after."""
    _, _, packed, optimum = _island(seed)
    seen: list = []

    def progress(*args):
        seen.append(os.listdir(tmp_path))

    within = optimum - below
    roomy = core.sweep(packed, within=within, paths=paths)
    tight = core.sweep(
        packed, within=within, paths=paths, max_bytes=600_000, spill_dir=str(tmp_path), max_disk=1 << 30,
        progress=progress,
    )  # fmt: skip
    assert roomy.status == (core.Status.NONE if below else core.Status.FOUND)
    assert _answer(tight) == _answer(roomy)
    assert roomy.disk == 0 and tight.disk > 0
    assert core.sweep(packed, within=within, paths=paths, max_bytes=600_000).status == core.Status.MEMORY
    assert seen and all(listing == [] for listing in seen)
    assert os.listdir(tmp_path) == []


def test_a_sweep_whose_disk_share_is_full_stops_for_memory(tmp_path):
    """The disk's share bounds the files: past it the sweep stops as it does when its
    memory is full (the solver then goes on depth-first), and leaves nothing behind."""
    _, _, packed, optimum = _island(1)
    answer = core.sweep(packed, within=optimum - 1, max_bytes=600_000, spill_dir=str(tmp_path), max_disk=1_000_000)
    assert answer.status == core.Status.MEMORY and answer.disk <= 1_000_000
    assert os.listdir(tmp_path) == []


def test_a_sweep_without_a_folder_to_write_to_stops_for_memory(tmp_path):
    """A folder that cannot be written (gone here) is a full disk, not a crash."""
    _, _, packed, optimum = _island(1)
    gone = tmp_path / "gone"
    answer = core.sweep(packed, within=optimum - 1, max_bytes=600_000, spill_dir=str(gone), max_disk=1 << 30)
    assert answer.status == core.Status.MEMORY and answer.disk == 0


def test_the_disk_share_follows_the_settings(tmp_path, monkeypatch):
    """None is half of what the temporary folder has free, a number is the user's
    (``--max-disk-mb``, shared by the solves run at once), 0 is no disk."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # asked again, from TMPDIR
    stat = os.statvfs(tmp_path)
    folder, share = spill_folder(None)
    assert folder == str(tmp_path) and abs(share - stat.f_bavail * stat.f_frsize // 2) < 1 << 30
    assert spill_folder(0) == (None, 0) and spill_folder(5_000_000) == (str(tmp_path), 5_000_000)
    assert SearchSettings.for_this_machine().max_disk_bytes is None
    assert SearchSettings.for_this_machine(2, max_disk_mb=300).max_disk_bytes == 150_000_000
    assert SearchSettings.for_this_machine(max_disk_mb=0).max_disk_bytes == 0
    assert SearchSettings().max_disk_bytes == 0


def _in_the_heap(address: int) -> bool:
    with open("/proc/self/maps") as maps:
        for line in maps:
            if line.rstrip().endswith("[heap]"):
                low, high = (int(part, 16) for part in line.split()[0].split("-"))
                return low <= address < high
    return False


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or not os.path.exists("/proc/self/maps"),
    reason="glibc's threshold, seen in Linux's map of the process",
)
def test_after_a_sweep_near_its_budget_large_blocks_come_from_the_heap_again():
    """Near its budget the sweep makes glibc map every block of 128 kB or more on its own,
    so that what it frees goes back to the system; when it ends, it sets the threshold
    back to 32 MB (what glibc's own threshold grows to), or every large block the process
    asks for later (each screenshot read or drawn) would fault its pages in anew."""
    _, _, packed, optimum = _island(1)
    assert core.sweep(packed, within=optimum - 1, max_bytes=600_000).status == core.Status.MEMORY
    block = bytearray(4 << 20)  # 4 MB: mapped on its own under the sweep's threshold
    assert _in_the_heap(ctypes.addressof(ctypes.c_char.from_buffer(block)))
