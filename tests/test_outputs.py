"""The answer's pictures land all or none: an interrupt or a failed write while they are
made leaves none of them, and what was there before untouched (issue 47, attack 10:
Ctrl-C 0.3-1.5 s after the answer left the overlay, sometimes the steps, and no GIF)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kamivision import overlay
from kamivision.errors import KamiError
from kamivision.outputs import write_pictures
from kamivision.pipeline import solve_screenshot

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture(scope="module")
def lantern():
    return solve_screenshot(SAMPLES / "lantern.jpg", max_nodes=500_000, check_seconds=0)


def _left(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_ctrl_c_while_the_gif_is_made_leaves_no_picture(lantern, tmp_path, monkeypatch):
    def interrupted(frames):
        raise KeyboardInterrupt

    monkeypatch.setattr(overlay, "gif_bytes", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_pictures(lantern, tmp_path / "out.png", tmp_path / "steps", tmp_path / "out.gif", force=False)
    assert _left(tmp_path) == []  # no overlay, no steps, no temporary file


def test_a_failed_write_leaves_the_earlier_pictures_as_they_were(lantern, tmp_path, monkeypatch):
    (tmp_path / "out.png").write_bytes(b"the player's own")

    def full_disk(frames):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(overlay, "gif_bytes", full_disk)
    with pytest.raises((KamiError, OSError)):
        write_pictures(lantern, tmp_path / "out.png", tmp_path / "steps", tmp_path / "out.gif", force=True)
    assert (tmp_path / "out.png").read_bytes() == b"the player's own"
    assert _left(tmp_path) == ["out.png"]


def test_the_pictures_land_together(lantern, tmp_path):
    written = write_pictures(lantern, tmp_path / "out.png", tmp_path / "steps", tmp_path / "out.gif", force=False)
    assert written == [tmp_path / "out.png", tmp_path / "steps", tmp_path / "out.gif"]
    steps = sorted(p.name for p in (tmp_path / "steps").iterdir())
    assert "solved.png" in steps and len(steps) >= lantern.solution.length
    assert (tmp_path / "out.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")
    assert not [p for p in tmp_path.rglob(".*")]  # no temporary file left
